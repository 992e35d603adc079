"""Finding the turn files in a mail's texts: one per GAME ... END block, quoted replies left out."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gm.core.envelope import clean_line
from gm.core.press import is_press_end, opens_block
from gm.intake.letter import FORWARDED, Text

# The turn files of one mail that gm reads (docs/mail.md, "Limits"): a player's orders for a few
# games at once. The rest are refused unread with one line, so one mail cannot make gm check
# thousands of secrets, nor answer it at length.
MOST_TURN_FILES = 10

# Lines that start what a mail program copied from an earlier mail: Outlook's and Thunderbird's
# markers, forwards, and the "On <date>, <name> wrote:" line of Gmail, Apple Mail and the rest.
_MARKER = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine|"
    r"weitergeleitete nachricht|mensaje original)\s*-{2,}|begin forwarded message:|_{20,})\s*$",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(
    r"^\s*(on\s.{1,200}\swrote|am\s.{1,200}\sschrieb\s.{0,200}|le\s.{1,200}\sa\sécrit|el\s.{1,200}\sescribió)\s*:\s*$",
    re.IGNORECASE,
)
_OUTLOOK_HEAD = re.compile(r"^\s*\*?(from|von|de)\s*:\*?\s", re.IGNORECASE)
_OUTLOOK_NEXT = re.compile(r"^\s*\*?(sent|date|gesendet|envoyé|to|subject)\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class TurnFile:
    """One turn file found in a mail: where (body or attachment name) and its text, GAME to END.

    first: the line of the text it came from (the body, the attachment) that its GAME line is
    on, so that a problem is told by the line of what the player sent (its line in `text`
    plus first - 1), as `gm orders check` and the portal tell it.
    """

    where: str
    text: str
    first: int = 1

    def sent_line(self, line: int) -> int:
        """The line of what the player sent that is line `line` of the turn file (0 stays 0:
        the whole file)."""
        return line + self.first - 1 if line else 0


def find_turn_files(texts: Iterable[Text]) -> list[TurnFile]:
    """Every turn file in the texts; from each text only the newest part that holds any.

    A reply with new orders on top of old quoted ones yields the new ones; a forward whose only
    turn file is below the forward marker yields that one. The same file twice (pasted in the body
    and attached) counts once.
    """
    found: list[TurnFile] = []
    seen: set[str] = set()
    texts = list(texts)
    # A mail forwarded as an attachment counts only when the rest holds no turn file.
    for group in ([t for t in texts if t.where != FORWARDED], [t for t in texts if t.where == FORWARDED]):
        for text in group if not found else ():
            for first, block in _first_with_blocks(_parts(text.text.split("\n"))):
                if block not in seen:
                    seen.add(block)
                    found.append(TurnFile(text.where, block, first))
    return found


# A run of a text's lines: the index of its first line in the text, and the lines.
Part = tuple[int, list[str]]


def _parts(lines: list[str]) -> list[Part]:
    """The text cut at every line that starts copied material (that line left out)."""
    parts: list[Part] = [(0, [])]
    for number, line in enumerate(lines):
        if not line or line.isspace():  # no marker is blank; a mail of millions of blank lines
            parts[-1][1].append(line)  # cost 3 regular expressions each (docs/mail.md, "Limits")
        elif line.lstrip().startswith(">"):
            parts[-1][1].append(line)
        elif _MARKER.match(line) or _ATTRIBUTION.match(line) or _outlook_head(lines, number):
            parts.append((number + 1, []))
        elif _attribution_wrapped(lines, number):
            parts.append((number + 1, []))
        else:
            parts[-1][1].append(line)
    return parts


def _outlook_head(lines: list[str], number: int) -> bool:
    if not _OUTLOOK_HEAD.match(lines[number]):
        return False
    return any(_OUTLOOK_NEXT.match(line) for line in lines[number + 1 : number + 4])


def _attribution_wrapped(lines: list[str], number: int) -> bool:
    # Gmail wraps a long attribution: "On Mon, 21 Nov 2026 at 10:00, Game Master <" / "gm@x> wrote:".
    line = lines[number].strip()
    if not line.lower().startswith("on ") or number + 1 >= len(lines):
        return False
    return lines[number + 1].strip().lower().endswith("wrote:") and len(line) < 200


def _first_with_blocks(parts: list[Part]) -> list[tuple[int, str]]:
    """The turn files of the first part that has any, each with the 1-based line of the text
    its GAME line is on."""
    dangling: list[tuple[int, str]] = []
    for offset, part in parts:
        complete, unfinished = _blocks(part)
        if complete:
            return [(offset + start + 1, block) for start, block in complete]
        dangling = dangling or [(offset + start + 1, block) for start, block in unfinished]
    return dangling


def _blocks(lines: list[str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(turn files with an END, a GAME block that never ended), each with the index of its GAME
    line; quoted lines are skipped, and so is a press message's text: "Game on!" there starts no
    turn file."""
    complete: list[tuple[int, str]] = []
    start = None
    in_press = False
    for number, line in enumerate(lines):
        # A blank line starts and ends nothing, and leaves a press message open or shut as it was.
        if not line or line.isspace() or line.lstrip().startswith(">"):
            continue
        words = clean_line(line).split()
        keyword = words[0].upper() if words else ""
        if in_press and " ".join(words).upper() != "END":  # only a bare END cuts a message short
            in_press = not is_press_end(clean_line(line))
            continue
        in_press = start is not None and opens_block(line, clean_line(line))
        if keyword == "GAME" and len(words) == 2:
            start = number
        elif keyword == "END" and start is not None:
            complete.append((start, _joined(lines[start : _late_final(lines, number) + 1])))
            start = None
    unfinished = [(start, _joined(lines[start:]))] if start is not None else []
    return complete, unfinished


def _late_final(lines: list[str], end: int) -> int:
    """Where the turn file ending at line `end` stops: at a FINAL written after its END (before
    any next GAME), so the envelope can warn that it is ignored; else at the END itself."""
    for number in range(end + 1, len(lines)):
        words = clean_line(lines[number]).upper().split()
        if words[:1] == ["GAME"]:
            break
        if words == ["FINAL"] and not lines[number].lstrip().startswith(">"):
            return number
    return end


def _joined(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n") + "\n"
