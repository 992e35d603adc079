"""The turn-file envelope: decoding submitted bytes and finding GAME/PLAYER/PASSWORD/TURN/END."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from gm.core.agreement import is_vote, read_vote
from gm.core.forms import copyable
from gm.core.model import Problem
from gm.core.press import PressDraft, PressReader, is_press_end, is_press_head
from gm.core.words import sizes_apart

# A turn file is a few kilobytes; anything far larger is a mistake or an attack.
DEFAULT_MAX_BYTES = 1_000_000
# Order lines a turn file may hold. A busy seat writes a few hundred at most; a 1 MB file of short
# lines is 88,000, each a parse and, for a mistaken word, a "did you mean" search of the game's
# words (up to 0.4 ms), so a file past this is refused whole before the ruleset reads it.
MOST_ORDER_LINES = 2_000

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HEADER_WORDS = ("GAME", "PLAYER", "PASSWORD", "TURN")
# What an order form has on its PASSWORD line until the player writes the secret in.
PLACEHOLDER = "<your secret>"
_FILL_IN = (
    f"PASSWORD needs your secret, written in place of {PLACEHOLDER} (gm gave it to you with your seat), "
    "as in 'PASSWORD 7f3k-29qa'"
)
# Characters mail programs and word processors put in where a plain space was meant.
_SPACES = {"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ", "\t": " ", "\ufeff": ""}


class TurnFileError(ValueError):
    """Submitted bytes that are not a readable turn file (too large, binary, undecodable)."""


def decode_turn_file(data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """Bytes to text and the encoding used: a BOM decides, then UTF-8, then Windows-1252.

    Raises TurnFileError with a sentence for the player when the bytes are not a turn file.
    """
    if len(data) > max_bytes:
        size, most = sizes_apart(len(data), max_bytes, bytes_below=100_000)
        raise TurnFileError(f"the file is too large ({size}); a turn file may be at most {most}")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), encoding
            except UnicodeDecodeError:
                raise TurnFileError(
                    f"the file starts with a {encoding} byte-order mark but is not {encoding} text"
                ) from None
    if b"\x00" in data:
        utf16 = _bomless_utf16(data)
        if utf16:
            try:
                return data.decode(utf16), utf16
            except UnicodeDecodeError:
                pass
        raise TurnFileError("the file is not text (it holds binary data); send the orders as plain text")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        # Old mail programs and Windows editors write cp1252 and often say nothing about it.
        return data.decode("cp1252", errors="replace"), "cp1252"


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark, as some Windows tools save it: Latin text then has a
    zero in every other byte. Any other file with zero bytes is binary."""
    if len(data) < 4 or len(data) % 2:
        return None
    high, low = data[1::2], data[0::2]
    if high.count(0) >= 0.9 * len(high) and low.count(0) == 0:
        return "utf-16-le"
    if low.count(0) >= 0.9 * len(low) and high.count(0) == 0:
        return "utf-16-be"
    return None


@dataclass(frozen=True)
class Envelope:
    """What the envelope of a turn file says.

    game, player, password: the header values as written (player upper-cased); None when missing.
    turn: the TURN number if one was given.
    final: a FINAL line was present (orders marked final, for early processing).
    absence: an ABSENT line's (line number, from, until) as written: the player will be away.
    lines: the order lines between the header and END, as (line number, text), comments removed.
    problems: what is wrong with the envelope itself (missing GAME, no END, bad TURN, ...).
    warnings: what the envelope ignored that the player probably meant (a FINAL after END).
    press: the press messages written between the header and END (gm/core/press.py); their
        lines are not among `lines`, and a problem in one is that message's alone.
    vote: a DRAW, CONCEDE, NO DRAW or NO CONCEDE line's (line number, kind, seat conceded to)
        (gm/core/agreement.py); kind "none" for a vote withdrawn, as no line at all says too.
    """

    game: str | None = None
    player: str | None = None
    password: str | None = None
    turn: int | None = None
    final: bool = False
    absence: tuple[int, str, str] | None = None
    lines: tuple[tuple[int, str], ...] = ()
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    warnings: tuple[Problem, ...] = ()
    press: tuple[PressDraft, ...] = ()
    vote: tuple[int, str, str] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def press_only(self) -> bool:
        """Press and nothing else: no order, no FINAL, no ABSENT. Such a file sends its press
        and leaves the seat's orders as they were."""
        return bool(self.press) and not self.lines and not self.final and self.absence is None and self.vote is None


def clean_line(raw: str) -> str:
    """A line without odd spaces, its `#` comment and surrounding blanks."""
    # A line of ASCII without a tab (most lines) holds none of _SPACES: six replace calls saved
    # on every line of every turn file read (about 0.1 ms a turn file).
    if not raw.isascii() or "\t" in raw:
        for odd, plain in _SPACES.items():
            raw = raw.replace(odd, plain)
    return raw.split("#", 1)[0].strip()


def read_envelope(text: str) -> Envelope:
    """Find the envelope in text; never raises. Text before GAME and after END is ignored."""
    values: dict[str, str] = {}
    where: dict[str, int] = {}  # header keyword -> its line number
    lines: list[tuple[int, str]] = []
    problems: list[Problem] = []
    final = False
    absence: tuple[int, str, str] | None = None
    vote: tuple[int, str, str] | None = None
    started = False
    ended = 0  # the END line's number; 0 until it is seen
    press = PressReader()
    numbered = list(enumerate(text.splitlines(), start=1))
    for number, raw in numbered:
        if raw.lstrip().startswith(">"):
            continue  # quoted reply text
        line = clean_line(raw)
        if press.in_block and not (line.upper() == "END" or is_press_end(line)):
            press.body(raw)  # a press message keeps its blank lines and its #
            continue
        if not line:
            continue
        word, _, rest = line.partition(" ")
        keyword, rest = word.upper(), rest.strip()
        if not started:
            if keyword == "GAME":
                started = True
                _header(values, where, keyword, rest, number, problems)
            continue
        if press.in_block:  # its ENDPRESS, or the file's END before one
            press.close(ended_properly=is_press_end(line))
            if is_press_end(line):
                continue
        if keyword == "END":
            ended = number
            break
        if is_press_head(line):
            press.head(number, raw, line)
        elif keyword == "FINAL" and not rest:
            final = True
        elif keyword == "ABSENT":
            dates = rest.split()
            if len(dates) == 2:
                absence = (number, dates[0], dates[1])
            else:
                problems.append(
                    Problem(number, "ABSENT needs the first and last day away, as in 'ABSENT 2026-12-20 2027-01-03'")
                )
        elif is_vote(line):
            read = read_vote(number, line)
            if isinstance(read, Problem):
                problems.append(read)
            elif vote is not None:
                problems.append(Problem(number, f"a turn file holds one vote; line {vote[0]} has one already"))
            else:
                vote = read
        elif keyword in _HEADER_WORDS:
            _header(values, where, keyword, rest, number, problems)
        else:
            lines.append((number, line))
    if not started:
        problems.append(
            Problem(0, "no turn file found: the orders must start with a line 'GAME <game name>' and end with 'END'")
        )
        return Envelope(problems=tuple(problems))
    press.close(ended_properly=False)  # a block still open when the file ran out
    if len(lines) > MOST_ORDER_LINES:
        problems.append(
            Problem(
                lines[MOST_ORDER_LINES][0],
                f"the turn file holds {len(lines):,} order lines; gm reads at most {MOST_ORDER_LINES:,} "
                "in one file, so none of them was read: send only this turn's orders",
            )
        )
        lines = []
    if not ended:
        problems.append(Problem(0, "the turn file has no END line: put END after the last order"))
    for word in ("PLAYER", "PASSWORD"):
        if word not in values and not any(p.message.startswith(f"{word} ") for p in problems):
            problems.append(Problem(0, f"the turn file has no {word} line"))
    warnings = _late_final(numbered, ended) if ended and not final else ()
    turn = None
    if "TURN" in values:
        try:
            turn = int(values["TURN"])
        except ValueError:
            problems.append(Problem(where["TURN"], f"TURN must be a number, not '{values['TURN']}'"))
    return Envelope(
        game=values.get("GAME"),
        player=values["PLAYER"].upper() if "PLAYER" in values else None,
        password=values.get("PASSWORD"),
        turn=turn,
        final=final,
        absence=absence,
        lines=tuple(lines),
        problems=tuple(problems),
        warnings=warnings,
        press=tuple(press.drafts),
        vote=vote,
    )


def _late_final(numbered: list[tuple[int, str]], end: int) -> tuple[Problem, ...]:
    """A FINAL line after END is ignored like all text there, but the player meant it: say so."""
    for number, raw in numbered[end:]:
        if not raw.lstrip().startswith(">") and clean_line(raw).upper() == "FINAL":
            return (Problem(number, "FINAL after END is ignored, so these orders are not final: put FINAL before END"),)
    return ()


def _header(
    values: dict[str, str], where: dict[str, int], keyword: str, rest: str, number: int, problems: list[Problem]
) -> None:
    if keyword == "PASSWORD" and rest.lower() in ("", PLACEHOLDER):
        problems.append(Problem(number, _FILL_IN))
        return
    if not rest or " " in rest:
        problems.append(Problem(number, f"{keyword} needs exactly one value, as in '{keyword} {_EXAMPLE[keyword]}'"))
        return
    if keyword in values and values[keyword] != rest:
        problems.append(Problem(number, f"{keyword} is given twice with different values"))
        return
    values[keyword] = rest
    where[keyword] = number


_EXAMPLE = {"GAME": "clash-1", "PLAYER": "BR", "PASSWORD": "7f3k-29qa", "TURN": "7"}


def wrap_envelope(game: str, seat: str, turn: int, body: list[str], password: str = PLACEHOLDER) -> str:
    """A turn file for one seat around a ruleset's order lines, ready to fill in and send; every
    line as it survives a copy out of the report's PDF (gm.core.forms.copyable)."""
    head = [f"GAME {game}", f"PLAYER {seat}", f"PASSWORD {password}", f"TURN {turn}"]
    return "\n".join(head + [copyable(line) for line in body] + ["END"]) + "\n"
