"""The JSON Schemas of gm's report format (gm.report_format), made out of the JSON files gm wrote and
robot games, and the check of a report against them.

    python -m gm.testing.report_schema --reports gm-demo/reports --out docs/report-format

writes turn.schema.json, standings.schema.json and endgame.schema.json (the parts every ruleset
shares, inferred from the report files found under --reports, with the descriptions below) and
views/<ruleset>.schema.json for every installed ruleset (inferred from the views of seeded robot
games of it, every seat after every few turns and at the end, game options drawn as the battery
draws them, and from the views in the report files). A plug-in author makes their ruleset's view
schema the same way (`--ruleset NAME`) and keeps it in the plug-in.

The schemas are inferred with genson (a field is required where every sample had it; a field
never seen is allowed: the format may grow, see docs/report-format.md), then committed and held
by tests/test_report_format.py against reports of other seeds: a field a client relies on that
goes away, or changes its type, fails it. Making them again is a choice the author makes (and,
for a removed or retyped field, a new SCHEMA_VERSION), never a test's.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from genson import SchemaBuilder  # type: ignore[import-untyped]  # genson ships no types
from jsonschema import Draft202012Validator

from gm.core.model import JSONObject, SeatInfo
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.report_format import KINDS, SCHEMA_VERSION, Kind
from gm.rulesets import get_ruleset, installed
from gm.testing.battery import draw_setup, robot_turn, stored

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# What each shared field means, for a client's author; the schema files carry these words.
DESCRIPTIONS: dict[str, str] = {
    "schema_version": f"The report format's version ({SCHEMA_VERSION} here); a new one removes, renames or retypes a field.",
    "report": "Which report this is: turn (a seat's report of one turn), standings (the game's final standings) or endgame (a seat's end-of-game report).",
    "game": "The game: its name (as in every order file's GAME line), its title and the ruleset's name.",
    "turn": "The turn this report is about; a turn file for the next turn says TURN turn + 1. In standings and endgame reports, the game's last turn.",
    "turns": "How many turns the game was played.",
    "turn_label": "The turn in the game's own words (a round, a year, a season).",
    "next_label": "The next turn in the game's own words: what the order form is for.",
    "seat": "The seat's code (the PLAYER line of its order file).",
    "player": "The name of whoever plays the seat.",
    "email": "The address the seat's mail goes to.",
    "nation": "The seat's nation or empire, as the game names it.",
    "deadline": "When orders for the next turn are due (text, UTC), or null when the game has no deadline.",
    "created": "When the turn was resolved (ISO 8601, UTC).",
    "view": "What the seat may see of the game, in the ruleset's own shape: see views/<ruleset>.schema.json.",
    "events": "What happened this turn that the seat may see, in order: each with its kind, its data (data.text is the sentence the PDF prints) and whether it is public.",
    "scores": "The scores table, one row a seat, in the order the PDF prints it.",
    "score_title": "What the scores table counts: its title and the name of its score column.",
    "order_form": "The order form for the next turn as text, the seat's secret left as <your secret>; empty once the game is over.",
    "outcome": "null while the game goes on; once it is over, how it ended (kind, winners, why).",
    "credits": "The seat's turn credits as this turn left them: balance, whether the turn was charged, discounts and bonus turns.",
    "nmr": "Missed turns: how many in a row, the game's limit, and who played the seat's turn when no orders came.",
    "notices": "What the house tells the seat this turn (a change of player, a held report and the like), as sentences.",
    "press": "The press the seat received and sent this turn, as the PDF prints it.",
    "press_left": "null, or where the press left out of this report for its length can be read in full.",
    "press_how": "How to send press in the next turn file.",
    "votes": "What a DRAW or CONCEDE line of the next turn file is checked against: the game's rule for each (off or all), its seats, and the seats out of the game (none may be conceded to). Added in format 1; a report gm wrote before has none.",
    "condition": "The ending condition met, in words, or null.",
    "discount": "The discount the seat won or forfeited at the end of the game.",
    "slip": "The seat's return slip: what is left of its credits and how to use them.",
    "status": "The seat's status at the end (active, resigned, eliminated and the like).",
    "won": "Whether the seat is among the winners.",
}


_TEXT_OR_NULL = {"type": ["string", "null"]}
_COUNT = {"type": "integer"}
_CODES = {"type": "array", "items": {"type": "string"}}
# Fields added to a kind within its format version: a report written before has none, so
# however many samples have them, they are never required (docs/report-format.md).
ADDED: dict[Kind, frozenset[str]] = {"turn": frozenset({"votes"}), "standings": frozenset(), "endgame": frozenset()}
# Shapes the sample reports may never show (a demo has no deadline, no press, no notices), as
# gm/services/reports.py and press.py make them; merged into what the samples show.
KNOWN_SHAPES: dict[Kind, dict[str, Any]] = {
    "turn": {
        "deadline": _TEXT_OR_NULL,
        "nmr": {"type": ["object", "null"]},
        "notices": {"type": "array", "items": {"type": "string"}},
        "press": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "from": {"type": "string"},
                    "mine": {"type": "boolean"},
                    "text": {"type": "string"},
                    "sent": {"type": "string"},
                    "to": {"type": "string"},
                    "withheld": {"type": "boolean"},
                    "cut": {
                        "type": ["object", "null"],
                        "properties": {"lines": _COUNT, "characters": _COUNT},
                    },
                },
                "required": ["kind", "from", "mine", "text", "sent", "to", "withheld", "cut"],
            },
        },
        "votes": {
            "type": "object",
            "properties": {"draw": {"type": "string"}, "concede": {"type": "string"}, "seats": _CODES, "out": _CODES},
            "required": ["draw", "concede", "seats", "out"],
        },
        "press_left": {
            "type": ["object", "null"],
            "properties": {
                "messages": _COUNT,
                "cut": _COUNT,
                "from": {"type": "object", "additionalProperties": _COUNT},
                "mailed": {"type": "boolean"},
                "portal": {"type": "string"},
            },
        },
    },
    "standings": {},
    "endgame": {"condition": _TEXT_OR_NULL},
}


def _builder(title: str, description: str) -> SchemaBuilder:
    builder = SchemaBuilder(schema_uri=DIALECT)
    builder.add_schema({"type": "object", "title": title, "description": description})
    return builder


def view_samples(ruleset: Ruleset, games: int, seed: int, every: int = 3, cap: int = 200) -> Iterator[JSONObject]:
    """Every seat's view (as JSON gives it back) of `games` seeded robot games of `ruleset`, after
    turn 0, every `every`-th turn and the last, options and seats drawn as the battery draws them."""
    for game in range(seed, seed + games):
        setup, scenario = draw_setup(ruleset, game)
        seats = [SeatInfo(code, f"Player {code}") for code in setup.seats]
        state = ruleset.new_game(scenario, seats, TurnSeeds(game, 0))
        turn = 0
        while True:
            over = ruleset.is_over(state) is not None or turn >= cap
            if over or turn % every == 0:
                for code in setup.seats:
                    yield json.loads(json.dumps(ruleset.view(state, code)))
            if over:
                break
            turn += 1
            seeds = TurnSeeds(game, turn)
            state = ruleset.resolve(state, stored(robot_turn(ruleset, state, setup.seats, seeds)), seeds).state


def report_files(folders: Iterable[Path]) -> Iterator[dict[str, Any]]:
    """The JSON reports under `folders` (reports/<game>/...), parsed."""
    for folder in folders:
        for path in sorted(folder.rglob("*.json")):
            yield json.loads(path.read_text(encoding="utf-8"))


def view_schema(ruleset: Ruleset, views: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    builder = _builder(
        f"gm report format {SCHEMA_VERSION}: the view of a {ruleset.title} seat",
        f"The `view` of a {ruleset.title} ({ruleset.name}) turn report: what the seat may see.",
    )
    for view in views:
        builder.add_object(view)
    return _described(builder.to_schema())


def shared_schema(kind: Kind, reports: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The fields every ruleset's reports of `kind` share; a turn report's view is any object
    here (its ruleset's schema says the rest)."""
    builder = _builder(f"gm report format {SCHEMA_VERSION}: {kind} report", DESCRIPTIONS["report"])
    for report in reports:
        builder.add_object({key: ({} if key == "view" else value) for key, value in report.items()})
    builder.add_schema({"type": "object", "properties": KNOWN_SHAPES[kind]})
    schema = builder.to_schema()
    properties = schema.setdefault("properties", {})
    properties["schema_version"] = {"const": SCHEMA_VERSION}
    properties["report"] = {"const": kind}
    if "view" in properties:
        properties["view"] = {"type": "object"}
    for key, words in DESCRIPTIONS.items():
        if key in properties:
            properties[key]["description"] = words
    if "required" in schema:
        schema["required"] = [key for key in schema["required"] if key not in ADDED[kind]]
    return _described(schema)


# An object whose keys are all seat or place codes (RU, BLUE, 12, 3,4) is a map from codes to
# values, not a record: any code may be a key, each value of the one shape all of them share.
_CODE = re.compile(r"[A-Z][A-Z0-9_]{0,7}|[0-9]+(,[0-9]+)?")


def _maps(schema: Any) -> Any:
    """`schema` with every object keyed by codes made a map (additionalProperties), depth first."""
    if isinstance(schema, list):
        return [_maps(part) for part in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: _maps(value) for key, value in schema.items()}
    properties = schema.get("properties")
    if isinstance(properties, dict):
        # A field only ever seen empty (null): what it holds when set is not known, so any value.
        schema["properties"] = properties = {
            key: {} if value == {"type": "null"} else value for key, value in properties.items()
        }
    if isinstance(properties, dict) and properties and all(_CODE.fullmatch(key) for key in properties):
        values = SchemaBuilder()
        for part in properties.values():
            values.add_schema(part)
        merged = values.to_schema()
        merged.pop("$schema", None)
        schema.pop("properties")
        schema.pop("required", None)
        schema["additionalProperties"] = merged
    return schema


def _described(schema: dict[str, Any]) -> dict[str, Any]:
    schema = _maps(schema)
    Draft202012Validator.check_schema(schema)
    return schema


def problems(report: Mapping[str, Any], folder: Path) -> list[str]:
    """What in `report` the schemas in `folder` refute, each as 'path: message' (empty: none)."""
    kind = report.get("report")
    if kind not in KINDS:
        return [f"report: {kind!r} is not one of {', '.join(KINDS)}"]
    found = _errors(report, json.loads((folder / f"{kind}.schema.json").read_text(encoding="utf-8")), "")
    if kind == "turn" and isinstance(report.get("view"), dict) and isinstance(report.get("game"), dict):
        ruleset = report["game"].get("ruleset")
        views = folder / "views" / f"{ruleset}.schema.json"
        if not views.is_file():
            return [*found, f"game.ruleset: no view schema {views}"]
        found += _errors(report["view"], json.loads(views.read_text(encoding="utf-8")), "view")
    return found


def _errors(instance: object, schema: dict[str, Any], prefix: str) -> list[str]:
    validator = Draft202012Validator(schema)
    out = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        where = ".".join([prefix, *map(str, error.absolute_path)] if prefix else map(str, error.absolute_path))
        out.append(f"{where or '(top)'}: {error.message}")
    return out


def _write(path: Path, schema: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=Path, action="append", default=[], help="a reports folder (repeatable)")
    parser.add_argument("--out", type=Path, required=True, help="where the schema files go")
    parser.add_argument("--ruleset", action="append", help="a ruleset (repeatable); default: every installed one")
    parser.add_argument("--games", type=int, default=12, help="robot games a ruleset")
    parser.add_argument("--seed", type=int, default=1, help="the first robot game's seed")
    args = parser.parse_args(argv)
    reports = list(report_files(args.reports))
    if reports:
        for kind in KINDS:
            chosen = [r for r in reports if r.get("report") == kind]
            if chosen:
                _write(args.out / f"{kind}.schema.json", shared_schema(kind, chosen))
    for name in args.ruleset or sorted(installed()):
        ruleset = get_ruleset(name)
        seen = [r["view"] for r in reports if r.get("report") == "turn" and r["game"]["ruleset"] == name]
        views = [*seen, *view_samples(ruleset, args.games, args.seed)]
        _write(args.out / "views" / f"{name}.schema.json", view_schema(ruleset, views))
        print(f"{name}: {len(views)} views")


if __name__ == "__main__":
    main()
