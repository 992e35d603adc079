"""gm doctor --mail: the SMTP and IMAP servers of gm.toml, reached and logged in to, then left."""

from __future__ import annotations

from gm.errors import GMError
from gm.home import Home
from gm.intake.imap import ImapSource, imap_settings
from gm.mail.senders import smtp_connection
from gm.mail.settings import mail_settings, server_settings
from gm.services.findings import Finding, Problem


def check_smtp(home: Home) -> Finding:
    """The [smtp] server takes a connection and the login, when mail leaves by SMTP."""
    try:
        if mail_settings(home).transport != "smtp":
            return Finding("smtp", 'mail is written into a folder (transport = "folder"): no server to reach')
        server = server_settings(home, "smtp", 587, "starttls")
        smtp_connection(server).quit()
    except GMError as exc:
        return Finding("smtp", "", (Problem.from_message(str(exc), f"Fix [smtp] in {home.settings_file}."),))
    login = f" as {server.user}" if server.user else " (no login set)"
    return Finding("smtp", f"{server.name} took the connection ({server.security}) and the login{login}")


def check_imap(home: Home) -> Finding:
    """The [imap] server takes a connection and the login, and has the folder gm reads."""
    try:
        if not home.setting("imap", "host", ""):
            return Finding("imap", "no [imap] host: gm inbox fetch is not set up")
        server, place = imap_settings(home)
        with ImapSource(server, place) as source:
            source.check()
    except GMError as exc:
        return Finding("imap", "", (Problem.from_message(str(exc), f"Fix [imap] in {home.settings_file}."),))
    return Finding("imap", f"{server.name} took the login of {server.user}; folder '{place.folder}' is there")
