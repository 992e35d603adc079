"""A turn file sent through the portal made into the bytes submit() takes: the seat's secret written
in, FINAL added, another seat's file refused; and the text shown back, secret hidden."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gm.core.envelope import PLACEHOLDER, TurnFileError, clean_line, decode_turn_file, read_envelope
from gm.core.model import Problem
from gm.store.records import GameRecord, SeatRecord


@dataclass(frozen=True)
class Prepared:
    """Turn-file bytes ready for check or submit, the text to show back (secret hidden), or why
    the portal will not send them for this seat.

    shown: the player's own text, its lines numbered as the player sent them.
    added: the lines of `data` gm wrote in (a PASSWORD line, FINAL), 1-based, so a problem is
    told by the line of what the player sent, as `gm orders check` and the mail tell it.
    written_in: the file's only secret is the one given (the session's word, written in by gm or
    kept from a file gm wrote so), so the file guesses at none.
    """

    data: bytes
    shown: str
    refusal: str | None = None
    added: tuple[int, ...] = ()
    written_in: bool = False

    def sent(self, problem: Problem) -> Problem:
        """The problem at the line of what the player sent; one on a line gm wrote in is the
        whole file's (line 0)."""
        line = problem.line
        if line in self.added:
            return Problem(0, problem.message)
        return Problem(line - sum(1 for a in self.added if a < line), problem.message)


def prepare_turn_file(
    raw: bytes, game: GameRecord, seat: SeatRecord, secret: str | None, final: bool, max_bytes: int
) -> Prepared:
    """The bytes the portal sends for a signed-in seat.

    A file with its own PASSWORD goes as it came, byte for byte, unless it must be marked final;
    one with the placeholder or no PASSWORD line gets the seat's secret written in.
    A file for another game or seat is refused here: the portal acts only for its signed-in seat.
    """
    try:
        text, _ = decode_turn_file(raw, max_bytes)
    except TurnFileError as exc:
        return Prepared(raw, "", str(exc))
    envelope = read_envelope(text)
    if (
        envelope.game is not None
        and envelope.game != game.name
        or envelope.player is not None
        and envelope.player != seat.code
    ):
        return Prepared(
            raw,
            hide_password(text),
            f"these orders are for {envelope.player or '?'} in '{envelope.game or '?'}'; "
            f"you are signed in as {seat.code} in '{game.name}'",
        )
    lines = text.splitlines()
    added: list[int] = []
    written_in = secret is not None and all(v in ("", PLACEHOLDER, secret) for v in _passwords(lines))
    if _password_missing(lines):
        if secret is None:
            return Prepared(
                raw,
                hide_password(text),
                "the orders need your secret: type it in the "
                "'Your secret' box (you signed in with a link), or on the PASSWORD line",
            )
        lines, added = _with_password(lines, secret)
    if final and not envelope.final:
        lines, at = _with_final(lines)
        added = [a + (a >= at) for a in added] + [at]
    if lines == text.splitlines():
        return Prepared(raw, hide_password(text), written_in=written_in)
    new_text = "\n".join(lines) + "\n"
    return Prepared(new_text.encode("utf-8"), hide_password(text), added=tuple(sorted(added)), written_in=written_in)


def _keyword(line: str) -> str:
    return clean_line(line).partition(" ")[0].upper()


def _passwords(lines: list[str]) -> list[str]:
    return [clean_line(line).partition(" ")[2].strip() for line in lines if _keyword(line) == "PASSWORD"]


def _password_missing(lines: list[str]) -> bool:
    values = _passwords(lines)
    return not values or all(v in ("", PLACEHOLDER) for v in values)


def _with_password(lines: list[str], secret: str) -> tuple[list[str], list[int]]:
    """The lines with the secret on each PASSWORD line, where the player left them; with none,
    on a line of its own after PLAYER (else GAME): (the lines, the 1-based line added, if any)."""
    if any(_keyword(line) == "PASSWORD" for line in lines):
        return [f"PASSWORD {secret}" if _keyword(line) == "PASSWORD" else line for line in lines], []
    after = next((i for i, line in enumerate(lines) if _keyword(line) == "PLAYER"), None)
    if after is None:
        after = next((i for i, line in enumerate(lines) if _keyword(line) == "GAME"), -1)
    return lines[: after + 1] + [f"PASSWORD {secret}"] + lines[after + 1 :], [after + 2]


def _with_final(lines: list[str]) -> tuple[list[str], int]:
    """The lines with FINAL before END, and the 1-based line FINAL is on."""
    end = next((i for i, line in enumerate(lines) if _keyword(line) == "END"), len(lines))
    return lines[:end] + ["FINAL"] + lines[end:], end + 1


def hide_password(text: str) -> str:
    """The text with every PASSWORD value replaced by the placeholder, to show back on a page."""
    return "\n".join(
        f"PASSWORD {PLACEHOLDER}" if _keyword(line) == "PASSWORD" else line for line in text.splitlines()
    ) + ("\n" if text else "")


def numbered_lines(text: str, problems: Iterable[Problem], warnings: Iterable[Problem] = ()) -> list[dict[str, Any]]:
    """The shown text line by line, each with the problems and the warnings found on it."""
    by_line: dict[int, list[str]] = {}
    for problem in problems:
        by_line.setdefault(problem.line, []).append(problem.message)
    warned: dict[int, list[str]] = {}
    for warning in warnings:
        warned.setdefault(warning.line, []).append(warning.message)
    return [
        {"number": n, "text": line, "problems": by_line.get(n, []), "warnings": warned.get(n, [])}
        for n, line in enumerate(text.splitlines(), start=1)
    ]
