"""Mail texts from Jinja2 templates: the GM's templates/mail/ first, then gm's own."""

from __future__ import annotations

import functools
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2

from gm.core.words import counted
from gm.errors import GMError


@dataclass(frozen=True)
class Written:
    """A rendered mail: the subject (one line) and the plain-text body."""

    subject: str
    body: str


def mail_environment(override_dir: Path | None) -> jinja2.Environment:
    """Templates for text/plain mail: the GM's `mail/` folder under override_dir first, then gm's.

    Autoescape is off on purpose: the output is plain text, where HTML escaping would only garble
    a player's name. Headers never come from here unchecked: the subject is one line, and the
    message builder puts it and every address through email.headerregistry, which refuses CR/LF.

    The environment is kept by the process for the same folders: a run-due asked for a new one
    for every game, and each compiled the report mail's template again, about 8 % of the `gm`
    process's CPU at 1,000 seats (bench/README.md, issue 32). Jinja notices an edited template
    itself (it checks the file's time at each get_template); a file that comes into the GM's
    `mail/` folder or goes from it changes the folder's time, and so the key, as for the reports'
    environment (gm.render.environment.kept_environment).
    """
    mail = override_dir / "mail" if override_dir is not None else None
    try:
        found = mail.stat() if mail is not None else None
    except OSError:
        found = None
    if found is None or not stat.S_ISDIR(found.st_mode):
        return _kept(None, 0)
    return _kept(mail, found.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _kept(mail: Path | None, version: int) -> jinja2.Environment:
    dirs = [mail] if mail is not None else []
    dirs.append(Path(str(files("gm_templates.mail"))))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["counted"] = counted  # {{ r.orders|length|counted("order") }}: "1 order", "3 orders"
    return env


def write_mail(env: jinja2.Environment, name: str, context: Mapping[str, Any]) -> Written:
    """Render a mail template whose first line is 'Subject: ...' and whose body follows a blank line."""
    where = name
    try:
        template = env.get_template(name)
        where = template.filename or name
        text = template.render(context)
    except jinja2.TemplateError as exc:
        where = getattr(exc, "filename", None) or where
        raise GMError(
            f"the mail template {where} does not render: {exc}. Fix the template (or remove "
            "your copy in templates/mail/ to use gm's own)."
        ) from exc
    head, _, body = text.partition("\n\n")
    if not head.startswith("Subject:"):
        raise GMError(f"the mail template {name} must start with a 'Subject: ...' line and a blank line.")
    subject = " ".join(head.removeprefix("Subject:").split())[:200]
    return Written(subject, body.strip("\n") + "\n")
