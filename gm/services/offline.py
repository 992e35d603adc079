"""A player's own check of a turn file against the seat's last JSON report: no GM home, no database.

What the report lets a player settle is checked with the GM's own parser: the envelope, the game,
seat and turn, every order line, and the near-code and ruleset warnings the seat's view allows;
then the ruleset's check_by_view gives the problems the view settles alone (its pieces, the
board's places and edges), in the words of the GM's check, and its warnings_by_view the warnings
(an order that fails on its own when the turn runs) the view settles, in the GM's words too. What needs the whole game (the password, the rules against the state others cannot see) is left
to the GM's check, and the answer says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from gm import report_format
from gm.core import order_grammar
from gm.core.agreement import NONE, Ballot, check_line
from gm.core.envelope import Envelope, TurnFileError, decode_turn_file, read_envelope
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import OrderGrammar
from gm.core.press import PressDraft
from gm.core.warnings import near_codes, view_codes
from gm.errors import GMError
from gm.rulesets import installed

# Said with every offline check: what only the GM's check can settle.
LEFT_TO_THE_GM = (
    "the password, and the rules that need the whole game (what you own now, what you can "
    "pay, what others do) are checked when gm receives the file"
)


@dataclass(frozen=True)
class Report:
    """What an offline check needs of a seat's JSON report (reports/<game>/<turn>/<seat>.json).

    game, ruleset, seat: whose report it is; turn: the turn it reports, so the orders are for
    turn + 1; view: the seat's view; form_words: every word of its order form, the order words
    a near-code hint must not mistake for codes (ALL, SOLDIERS); grammar: the ruleset's order
    grammar as the report holds it (gm.core.order_grammar), None for free text; declared: the
    report has the field (a report from before it had one gets the ruleset's from its view);
    ballot: what a vote line is checked against (the game's rules for DRAW and CONCEDE, its
    seats, those out), as the house checks it."""

    game: str
    ruleset: str
    seat: str
    turn: int
    view: JSONObject
    form_words: frozenset[str] = field(default_factory=frozenset)
    over: bool = False
    grammar: OrderGrammar | None = None
    declared: bool = False
    ballot: Ballot | None = None  # the report's "votes"; None in a report gm wrote before it had them


# What a report may be, far past any gm writes (a few MB, nested about ten deep, turns in the
# hundreds), so that a hostile file is refused in one line before anything reads it.
REPORT_BYTES = 64_000_000
REPORT_DEPTH = 64
MAX_TURN = 1_000_000
_DIGITS = 30
_GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_RULESET = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_SEAT = re.compile(r"[A-Za-z0-9_-]{1,20}")
_RULE = re.compile(r"[a-z][a-z0-9_-]{0,19}")
MAX_SEATS = 1_000  # far past any game's seats: a hostile "votes" is refused in one line
# Said at a vote line when the report is older than the "votes" it would be checked against.
NO_BALLOT = (
    "your report does not say whether game '{game}' takes votes (gm wrote it before reports did): "
    "this vote is checked when gm receives the file"
)
_MISSING = object()


class NotAReport(ValueError):
    """What makes a file no gm JSON report, said in a few words."""


def read_report(path: Path) -> Report:
    """A seat's JSON report, or GMError saying in one line why it is not one: every part the
    check reads is there and of its kind, whatever the file holds."""
    try:
        report = _report(_parsed(_read(path)))
    except NotAReport as exc:
        raise GMError(
            f"{path} is not a gm JSON report: {exc}. Use the .json file of your last report (send JSON ON "
            "to get it by mail)."
        ) from None
    if report.ruleset not in installed():
        raise GMError(
            f"the report is of a game of '{report.ruleset}', which is not installed here. Install the gm that has it."
        )
    return report


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(REPORT_BYTES + 1)
    except FileNotFoundError:
        raise GMError(f"no file {path}.") from None
    except IsADirectoryError:
        raise GMError(f"{path} is a folder, not a report.") from None
    except OSError as exc:
        raise GMError(f"cannot read {path}: {exc.strerror}.") from None
    if len(data) > REPORT_BYTES:
        raise NotAReport(f"it is larger than {REPORT_BYTES // 1_000_000} MB")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is no harm
    except UnicodeDecodeError:
        raise NotAReport("it is not UTF-8 text") from None


def _parsed(text: str) -> object:
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
    except RecursionError:
        raise NotAReport(f"it is nested deeper than {REPORT_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise NotAReport(f"it is not JSON ({exc.msg}, line {exc.lineno})") from None
    if _depth(data) > REPORT_DEPTH:
        raise NotAReport(f"it is nested deeper than {REPORT_DEPTH} levels")
    return data


def _no_constant(name: str) -> NoReturn:
    raise NotAReport(f"it holds {name}, which is not a number a report has")


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > _DIGITS:
        raise NotAReport(f"it holds a number of {len(digits.lstrip('-'))} digits")
    return int(digits)


def _depth(data: object) -> int:
    """How deep lists and objects nest in `data` (walked without recursion)."""
    deepest, waiting = 0, [(data, 1)]
    while waiting:
        value, depth = waiting.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            waiting.extend((child, depth + 1) for child in children)
    return deepest


def _report(data: object) -> Report:
    top = _object(data, "it")
    _check_format(top)
    game = _object(top.get("game", _MISSING), 'its "game"')
    view = _object(top.get("view", _MISSING), 'its "view"')
    _check_view(view)
    form = top.get("order_form")
    if form is not None and not isinstance(form, str):
        raise NotAReport(f'its "order_form" is {_kind(form)}, not text')
    outcome = top.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        raise NotAReport(f'its "outcome" is {_kind(outcome)}, not an object')
    return Report(
        game=_name(game.get("name", _MISSING), 'its game\'s "name"', _GAME_NAME),
        ruleset=_name(game.get("ruleset", _MISSING), 'its game\'s "ruleset"', _RULESET),
        seat=_name(top.get("seat", _MISSING), 'its "seat"', _SEAT),
        turn=_turn(top.get("turn", _MISSING)),
        view=view,
        over=bool(outcome),
        form_words=frozenset(re.findall(r"[A-Za-z]+", (form or "").upper())),
        grammar=_grammar(top.get("order_grammar")),
        declared="order_grammar" in top,
        ballot=_ballot(game["name"], top.get("votes", _MISSING)),
    )


def _grammar(data: object) -> OrderGrammar | None:
    if data is None:
        return None
    try:
        return order_grammar.from_json(_object(data, 'its "order_grammar"'))
    except ValueError as exc:
        raise NotAReport(f'its "order_grammar" is not one gm writes: {exc}') from None


def _ballot(game: str, votes: object) -> Ballot | None:
    """The report's "votes" (agreement.Ballot.to_json), or None when the report has none."""
    if votes is _MISSING:
        return None
    held = _object(votes, 'its "votes"')
    rules = {kind: _name(held.get(kind, _MISSING), f'its votes\' "{kind}"', _RULE) for kind in ("draw", "concede")}
    seats, out = (_codes(held.get(part, _MISSING), f'its votes\' "{part}"') for part in ("seats", "out"))
    return Ballot(game, rules, seats, out)


def _codes(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_SEATS:
        raise NotAReport(f"{what} is {_kind(value)}, not a list of at most {MAX_SEATS:,} seats")
    return tuple(_name(code, what.replace('"', "") + " names", _SEAT) for code in value)


def _check_format(top: JSONObject) -> None:
    """The report's format (gm.report_format): a seat's turn report, of a version this gm reads.
    A report written before the format had a version has neither field and is read as version 1."""
    version = top.get("schema_version", report_format.SCHEMA_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise NotAReport(f'its "schema_version" is {_kind(version)}, not a version number')
    if version > report_format.SCHEMA_VERSION:
        raise NotAReport(
            f"it is in report format {version}, newer than this gm reads ({report_format.SCHEMA_VERSION}); "
            "update gm to check it"
        )
    kind = top.get("report", "turn")
    if kind != "turn":
        named = {"standings": "the game's final standings", "endgame": "an end-of-game report"}
        what = named.get(kind) if isinstance(kind, str) else None
        raise NotAReport(f"it is {what or 'a report of kind ' + _kind(kind)}, not a seat's turn report")


def _check_view(view: JSONObject) -> None:
    """The parts of the view the check reads (view_codes): seats and map territories as lists of
    objects, each code (and every one of view["codes"]) a word."""
    places = view.get("map")
    if places is not None and not isinstance(places, dict):
        raise NotAReport(f'its view\'s "map" is {_kind(places)}, not an object')
    for where, items in (("seats", view.get("seats")), ("map's territories", (places or {}).get("territories"))):
        for item in _list(items, f"its view's {where}"):
            if not isinstance(item, dict):
                raise NotAReport(f"its view's {where} hold {_kind(item)}, not objects")
            _code(item.get("code"), f"its view's {where}")
    for code in _list(view.get("codes"), 'its view\'s "codes"'):
        _code(code, 'its view\'s "codes"')


def _list(value: object, what: str) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise NotAReport(f"{what} are {_kind(value)}, not a list")
    return value


def _code(value: object, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not 0 < len(value) <= 40 or any(c.isspace() or not c.isprintable() for c in value):
        raise NotAReport(f"{where} name a code that is {_kind(value)}, not a word")


def _object(value: object, what: str) -> JSONObject:
    if not isinstance(value, dict):
        raise NotAReport(f"{what} is {_kind(value)}, not an object")
    return value


def _name(value: object, what: str, pattern: re.Pattern[str]) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise NotAReport(f"{what} is {_kind(value)}, not a name gm gives")
    return value


def _turn(value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_TURN:
        raise NotAReport(f'its "turn" is {_kind(value)}, not a whole number from 0 to {MAX_TURN:,}')
    return value


def _kind(value: object) -> str:
    """A value in a few words, never the value itself when it could be long or hold a line break."""
    if value is _MISSING:
        return "missing"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        shown = repr(value)
        return shown if len(shown) <= 20 else f"a number of {len(shown)} digits"
    if isinstance(value, str):
        plain = 0 < len(value) <= 20 and value.isprintable()
        return f"'{value}'" if plain else f"text of {len(value):,} characters"
    return "a list" if isinstance(value, list) else "an object"


@dataclass
class OfflineCheck:
    """A turn file read against a report: refusal (the file as a whole cannot be used), else the
    orders, the problems and warnings by line."""

    refusal: str | None = None
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    press: tuple[PressDraft, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.refusal is None and not self.problems


def check_offline(report: Report, data: bytes) -> OfflineCheck:
    """Check a turn file as far as the seat's report can settle it; never raises for bad input."""
    checked = OfflineCheck()
    try:
        text, _ = decode_turn_file(data)
    except TurnFileError as exc:
        checked.refusal = str(exc)
        return checked
    envelope = read_envelope(text)
    checked.refusal = _refusal(report, envelope)
    if checked.refusal:
        return checked
    checked.press = envelope.press
    ruleset = installed()[report.ruleset]  # read_report made sure of it
    checked.orders, problems = ruleset.parse_orders(list(envelope.lines))
    problems = list(problems) + ruleset.check_by_view(report.view, report.seat, checked.orders)
    grammar = report.grammar if report.declared else ruleset.order_grammar(report.view, report.seat)
    vote_problems, vote_warnings = _vote(report, envelope)
    checked.problems = sorted(declared_first(grammar, envelope.lines, problems) + vote_problems, key=lambda p: p.line)
    # Every line is searched for near codes: without the state there is no error to start from.
    searched = {n for n, _ in envelope.lines}
    near = near_codes(envelope.lines, searched, view_codes(report.view), report.form_words)
    # As the GM's check (gm.core.warnings.order_warnings): none on a line with a problem, whose
    # error says why it fails.
    troubled = {p.line for p in checked.problems}
    ruled = [w for w in ruleset.warnings_by_view(report.view, report.seat, checked.orders) if w.line not in troubled]
    checked.warnings = sorted(list(envelope.warnings) + near + vote_warnings + ruled, key=lambda p: p.line)
    return checked


def declared_first(
    grammar: OrderGrammar | None, lines: Iterable[tuple[int, str]], problems: list[Problem]
) -> list[Problem]:
    """The problems of a turn file's order lines, the declaration's finding first: on a line the
    ruleset's order grammar refutes, its finding is that line's one problem, in the words the
    turn kit gives in the browser (gm.core.order_grammar); every other line keeps the parser's
    and the view's."""
    if grammar is None:
        return problems
    declared = order_grammar.check_lines(grammar, lines)
    flagged = {p.line for p in declared}
    return declared + [p for p in problems if p.line not in flagged]


def _vote(report: Report, envelope: Envelope) -> tuple[list[Problem], list[Problem]]:
    """The problem of the file's vote line as the house's check finds it (agreement.check_line),
    as (problems, warnings); a warning that it cannot know when the report is too old to say
    whether the game takes votes."""
    if envelope.vote is None or envelope.vote[1] == NONE:
        return [], []
    if report.ballot is None:
        return [], [Problem(envelope.vote[0], NO_BALLOT.format(game=report.game))]
    checked = check_line(report.ballot, report.seat, envelope.vote)
    return ([checked] if isinstance(checked, Problem) else []), []


def _refusal(report: Report, envelope: Envelope) -> str | None:
    if not envelope.ok:
        return "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in envelope.problems)
    if report.over:
        return f"game '{report.game}' is over; it takes no more orders"
    if envelope.game != report.game:
        return f"the file is for game '{envelope.game}', the report for '{report.game}' (check the GAME line)"
    if envelope.player != report.seat.upper():
        return f"the file is for player {envelope.player}, the report for {report.seat} (check the PLAYER line)"
    if envelope.turn is not None and envelope.turn != report.turn + 1:
        return (
            f"these orders are for turn {envelope.turn}, the report is of turn {report.turn}: "
            f"its orders are for turn {report.turn + 1}"
        )
    return None
