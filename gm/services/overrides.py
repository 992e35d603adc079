"""The GM's template overrides in $GM_HOME/templates: each parses, is autoescaped, and is read by gm."""

from __future__ import annotations

import difflib
from pathlib import Path

import jinja2
import jinja2.meta
import jinja2.nodes

from gm.home import Home
from gm.mail.templates import mail_environment
from gm.render.environment import make_environment, shared_templates_dir
from gm.rulesets import installed, template_dirs
from gm.services.findings import Finding, Problem

# gm serves these as they are (the portal's stylesheet and script), never through Jinja2.
SERVED_AS_IS = {"web/portal.css", "web/zone.js"}
# A file named so is a template whatever it is called; others (images, fonts, style sheets a
# report links to) are assets, templates only when gm or an override reads them as one.
TEMPLATE_SUFFIXES = (".html", ".htm", ".txt", ".j2")


def check_templates(home: Home) -> Finding:
    """Every override parses as Jinja2 in the environment gm reads it with, the report and
    portal ones are autoescaped, and each replaces one of gm's templates or is included by one."""
    root = home.templates
    files = (
        sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not any(part.startswith((".", "__")) for part in p.relative_to(root).parts)
        )
        if root.is_dir()
        else []
    )
    gm_names = known_names()
    reports_env = make_environment(root, [d for r in installed().values() for d in template_dirs(r)])
    mails_env = mail_environment(root)
    parsed: dict[str, jinja2.nodes.Template] = {}
    problems: list[Problem] = []
    for name in files:
        env, lookup = (mails_env, name.removeprefix("mail/")) if name.startswith("mail/") else (reports_env, name)
        if name in SERVED_AS_IS or not (name in gm_names or name.endswith(TEMPLATE_SUFFIXES)):
            continue
        tree = _parse(env, lookup, root / name, name)
        if isinstance(tree, Problem):
            problems.append(tree)
            continue
        parsed[name] = tree
        if env is reports_env and not _autoescaped(env, lookup):
            problems.append(
                Problem(
                    f"templates/{name} would not be autoescaped, so a player's text could become markup",
                    "Name it with .html (gm escapes every .html, .htm, .xml, .svg, .j2, .css and .txt template).",
                )
            )
    problems += _unread(parsed, gm_names)
    overriding = sum(1 for name in files if name in gm_names)
    return Finding(
        "templates",
        f"{len(files)} file(s) in templates/, {overriding} replacing gm's own, "
        "all parse and are autoescaped where gm escapes",
        tuple(problems),
    )


def known_names() -> set[str]:
    """The names of gm's own templates and every installed ruleset's, as an override names them."""
    folders = [shared_templates_dir()] + [d for r in installed().values() for d in template_dirs(r)]
    return {
        p.relative_to(folder).as_posix()
        for folder in folders
        for p in Path(folder).rglob("*")
        if p.is_file() and p.name != "__init__.py" and "__pycache__" not in p.parts
    }


def _autoescaped(env: jinja2.Environment, lookup: str) -> bool:
    """Whether env escapes the template of that name: its autoescape is a choice by name
    (gm.render.environment, so that each template is checked by name) or one for every template."""
    autoescape = env.autoescape
    return autoescape(lookup) if callable(autoescape) else autoescape


def _parse(env: jinja2.Environment, lookup: str, path: Path, name: str) -> jinja2.nodes.Template | Problem:
    """The override's syntax tree, or the problem when it cannot be read or compiled."""
    fix = f"Fix it, or delete templates/{name} to use gm's own."
    try:
        source = path.read_text(encoding="utf-8")
        tree = env.parse(source, lookup, str(path))
        env.compile(tree, lookup, str(path))  # unknown filters and tests show here, not in parse
    except UnicodeDecodeError:
        return Problem(f"templates/{name} is not UTF-8 text", fix)
    except jinja2.TemplateSyntaxError as exc:
        return Problem(f"templates/{name} line {exc.lineno}: {exc.message}", fix)
    return tree


def _unread(parsed: dict[str, jinja2.nodes.Template], gm_names: set[str]) -> list[Problem]:
    """Overrides that replace none of gm's templates and that no other override includes: gm
    never reads them (usually a misspelt name)."""
    included: set[str] = set()
    for name, tree in parsed.items():
        folder = "mail/" if name.startswith("mail/") else ""
        included |= {folder + found for found in jinja2.meta.find_referenced_templates(tree) if found}
    return [
        Problem(
            f"templates/{name} replaces none of gm's templates and none of yours includes it, so gm never reads it",
            _rename_advice(name, gm_names),
        )
        for name in sorted(parsed)
        if name not in gm_names and name not in included
    ]


def _rename_advice(name: str, gm_names: set[str]) -> str:
    close = difflib.get_close_matches(name, sorted(gm_names), n=1)
    if close:
        return f"If it should replace gm's {close[0]}, rename it to templates/{close[0]}; else delete it."
    return "Name it after the template of gm or of a ruleset it should replace, or delete it."
