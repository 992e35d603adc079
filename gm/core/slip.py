"""The return slip's lines (SLIP JOIN, SLIP NONE, SLIP CARRY, SLIP TRANSFER), read into choices."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.ledger import MOST_CREDITS_AT_ONCE
from gm.core.model import Problem

NEXT = ""  # Slip.join for "the next game of this game's ruleset"
ALL = None  # Slip.transfer_credits for "all my leftover credits"

HOW = "SLIP JOIN [GAME or RULESET], SLIP NONE, SLIP CARRY, SLIP TRANSFER ALL|N TO EMAIL"


@dataclass(frozen=True)
class Slip:
    """A player's answers on the return slip (rule 11.5).

    join: NEXT for the next game of the finished game's ruleset, a game's or ruleset's name, or
    None when the player wants no game (or did not say: see `decided`).
    decided: whether the slip answers the next-game question (SLIP JOIN or SLIP NONE).
    carry: the leftover credits stay on the player's account for the next game.
    transfer_to: an account (e-mail) to give leftover credits to, or None.
    transfer_credits: how many (ALL: every leftover credit at the time gm acts).
    """

    join: str | None = None
    decided: bool = False
    carry: bool = False
    transfer_to: str | None = None
    transfer_credits: int | None = ALL


def is_slip(lines: list[tuple[int, str]]) -> bool:
    """A turn file whose every line starts with SLIP is a return slip, not orders."""
    return bool(lines) and all(_words(text)[:1] == ["SLIP"] for _, text in lines)


def read_slip(lines: list[tuple[int, str]]) -> tuple[Slip, list[Problem]]:
    """The choices of a slip's lines and every problem, each with its line number."""
    slip, problems = Slip(), []
    for number, text in lines:
        slip, problem = _read_line(slip, _words(text)[1:])
        if problem:
            problems.append(Problem(number, problem))
    return slip, problems


def _words(text: str) -> list[str]:
    return text.split()


def _read_line(slip: Slip, words: list[str]) -> tuple[Slip, str | None]:
    verb = words[0].upper() if words else ""
    if verb in ("JOIN", "NONE") and slip.decided:
        return slip, "the slip already says whether you join a next game: give one SLIP JOIN or SLIP NONE"
    if verb == "JOIN" and len(words) <= 2:
        target = words[1] if len(words) == 2 and words[1].upper() != "NEXT" else NEXT
        return Slip(target, True, slip.carry, slip.transfer_to, slip.transfer_credits), None
    if verb == "NONE" and len(words) == 1:
        return Slip(None, True, slip.carry, slip.transfer_to, slip.transfer_credits), None
    if verb in ("CARRY", "TRANSFER") and (slip.carry or slip.transfer_to):
        return slip, "the slip already says what to do with your credits: give one SLIP CARRY or SLIP TRANSFER"
    if verb == "CARRY" and len(words) == 1:
        return Slip(slip.join, slip.decided, True), None
    if verb == "TRANSFER":
        return _transfer(slip, words)
    return slip, f"not a return slip line; the slip takes {HOW}"


def _transfer(slip: Slip, words: list[str]) -> tuple[Slip, str | None]:
    if len(words) != 4 or words[2].upper() != "TO" or "@" not in words[3]:
        return slip, "write SLIP TRANSFER ALL TO email@example.org (or a number of credits instead of ALL)"
    amount = words[1].upper()
    if amount != "ALL" and not (amount.isascii() and amount.isdigit() and 0 < int(amount) <= MOST_CREDITS_AT_ONCE):
        return slip, f"'{words[1]}' is not a number of credits (1 to {MOST_CREDITS_AT_ONCE}) or ALL"
    credits = ALL if amount == "ALL" else int(amount)
    return Slip(slip.join, slip.decided, False, words[3].lower(), credits), None
