"""Mail texts from Jinja2 templates: the GM's templates/mail/ first, then gm's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2

from gm.errors import GMError


@dataclass(frozen=True)
class Written:
    """A rendered mail: the subject (one line) and the plain-text body."""

    subject: str
    body: str


def mail_environment(override_dir: Path | None) -> jinja2.Environment:
    """Templates for text/plain mail.

    Autoescape is off on purpose: the output is plain text, where HTML escaping would only garble
    a player's name. Headers never come from here unchecked: the subject is one line, and the
    message builder puts it and every address through email.headerregistry, which refuses CR/LF.
    """
    dirs = [override_dir / "mail"] if override_dir is not None and (override_dir / "mail").is_dir() else []
    dirs.append(Path(str(files("gm_templates.mail"))))
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


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
