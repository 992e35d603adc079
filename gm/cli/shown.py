"""What a command prints, made safe for the GM's terminal.

Much of what gm prints comes from people who are not the GM: a mail's sender name, subject and
text (gm inbox questions), a turn file's GAME and PLAYER lines (the answers gm inbox receive
lists), press and sign-up names. A control character in them -- ESC starting a terminal escape
sequence, a carriage return or backspace that writes over a line, a C1 control, a bidi override
that turns a line around, a lone surrogate the terminal cannot be sent -- is printed as its Python
escape (\\x1b, \\r, \\u202e) instead, so the GM reads what was sent and the terminal does nothing
with it. A line break and a tab are printed as they are.
"""

from __future__ import annotations

import re

import typer

from gm.core.press import ACTING_CHARACTERS

_UNSAFE = re.compile(f"[{ACTING_CHARACTERS}\ud800-\udfff]")


def shown(text: str) -> str:
    """text with every character that a terminal acts on (see the module) spelled as an escape."""
    return _UNSAFE.sub(lambda found: ascii(found.group())[1:-1], text)


def in_json(text: str) -> str:
    """JSON text (which escapes C0 controls itself) with every other such character a \\u escape."""
    return _UNSAFE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """typer.echo of shown(message)."""
    typer.echo(shown(message), err=err, nl=nl)
