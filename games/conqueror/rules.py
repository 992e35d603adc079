"""Conqueror! resolution: a new game with AI nations in empty seats, and one turn's stages."""

from __future__ import annotations

from gm.core.model import JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds

from . import moves, production, realm, robot
from .board import NEUTRAL, Board, alive, nation
from .economy import is_winter
from .orders import well_formed
from .turn import Turn

AI_NAME = "Computer"
MODERATE = 40  # "a moderate influence in each of the provinces immediately surrounding the capital"


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """Turn 1 of a game: the seated nations, AI nations in empty seats up to the scenario's
    ai_fill (as the original fills unused slots), every other province neutral."""
    names = {s.code: s.name for s in seats}
    codes = [seat["code"] for seat in scenario["seats"]]
    seated = [c for c in codes if c in names]
    ai = [c for c in codes if c not in names][: max(scenario["ai_fill"] - len(seated), 0)]
    playing = [c for c in codes if c in names or c in ai]
    state = {
        "ruleset": "conqueror",
        "title": scenario["title"],
        "scenario": scenario,
        "turn": 1,
        "turns": scenario["turns"],
        "phase": "play",
        "seating": playing,
        "seats": {},
        "provinces": {p["code"]: _province(p, playing) for p in scenario["provinces"]},
    }
    by_code = {seat["code"]: seat for seat in scenario["seats"]}
    for code in playing:
        seat = by_code[code]
        state["seats"][code] = {
            "name": names.get(code, AI_NAME),
            "nation": seat["name"],
            "colour": seat["colour"],
            "ai": code in ai,
            "gold": scenario["start_gold"],
            "capital": seat["capital"],
            "score": 0,
            "prestige": 1,
            "alive": True,
        }
        capital = state["provinces"][seat["capital"]]
        capital.update(owner=code, armies=seat["armies"], item="SOLDIERS")
        capital["influence"].update({NEUTRAL: 0, code: 100})
    _moderate_influence(state, Board(scenario))
    turn = Turn(state, Board(scenario))
    realm.score(turn)
    return state


def _province(place: JSONObject, playing: list[str]) -> JSONObject:
    # Influence lists every party, zeros included, so that it always sums to 100 (D-CQ-6).
    influence = {seat: 0 for seat in playing}
    influence[NEUTRAL] = 100
    return {
        "owner": NEUTRAL,
        "armies": place["armies"],
        "population": place["population"],
        "resources": place["resources"],
        "culture": place["culture"],
        "fort": place["fort"],
        "influence": influence,
        "item": "SOLDIERS",
        "target": None,
        "progress": 0,
        "conquered": False,
        "labour": 0,
        "power": 0,
    }


def _moderate_influence(state: JSONObject, board: Board) -> None:
    capitals = {state["seats"][c]["capital"]: c for c in state["seating"]}
    for code in board.order:
        if code in capitals:
            continue
        near = [capitals[n] for n in board.neighbours[code] if n in capitals]
        if near:
            share = min(MODERATE, 100 // len(near))
            influence = state["provinces"][code]["influence"]
            influence.update({seat: share for seat in near})
            influence[NEUTRAL] = 100 - share * len(near)


def copy_state(state: JSONObject) -> JSONObject:
    """A copy deep enough that resolve never touches its input; the scenario is only read."""
    new = dict(state)
    new["seating"] = list(state["seating"])
    new["seats"] = {code: dict(seat) for code, seat in state["seats"].items()}
    new["provinces"] = {code: {**p, "influence": dict(p["influence"])} for code, p in state["provinces"].items()}
    return new


def resolve(state: JSONObject, orders_by_seat: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
    """One turn: production orders, rush-buys, the order stacks, labour, culture, winter,
    rebellion, score, and the end of the game at the turn limit."""
    new = copy_state(state)
    turn = Turn(new, Board(new["scenario"]))
    if new["phase"] == "over":
        return TurnResult(new, ())
    orders = _collect(state, turn, orders_by_seat, seeds)
    for province in new["provinces"].values():
        province["conquered"] = False
    production.set_production(turn, orders)
    production.rush_buys(turn, orders)
    moves.run_stacks(turn, orders, seeds.rng("stacks"), seeds.rng("battle"))
    production.produce(turn)
    realm.spread_culture(turn)
    if is_winter(new["turn"]):
        realm.winter(turn)
    realm.rebellion(turn)
    realm.score(turn)
    if new["turn"] >= new["turns"]:
        _finish(turn)
    else:
        new["turn"] += 1
    return TurnResult(new, tuple(turn.events))


def _collect(
    state: JSONObject, turn: Turn, orders_by_seat: dict[str, list[Order]], seeds: TurnSeeds
) -> dict[str, list[Order]]:
    """Each living nation's readable orders; AI nations (seats nobody took) get theirs from the
    robot, seeded per nation, unless orders are given for them."""
    given = orders_by_seat if isinstance(orders_by_seat, dict) else {}
    orders: dict[str, list[Order]] = {}
    for seat in alive(turn.state):
        if seat not in given and turn.seats[seat]["ai"]:
            listed: object = robot.robot_orders(state, seat, seeds.rng(f"ai:{seat}"))
        else:
            listed = given.get(seat)
        listed = listed if isinstance(listed, (list, tuple)) else []
        orders[seat] = [o for o in listed if well_formed(o)]
        for junk in (o for o in listed if not well_formed(o)):
            turn.failed(seat, junk, "it could not be read")
    return orders


def scores(state: JSONObject) -> dict[str, int]:
    """The scores every report prints. While the game runs, the Score Table's province values
    alone: its other term, "a point for every two gold florins in your treasury", would tell
    every rival the treasury, which is each nation's own (D-ALL-5). The whole score once the
    game is over, when it decides the winner (D-CQ-9)."""
    if state["phase"] == "over":
        return final_scores(state)
    return {seat: public_score(state["seats"][seat]) for seat in state["seating"]}


def public_score(seat: JSONObject) -> int:
    """A nation's score less its treasury's points: what any other nation may know of it."""
    return int(seat["score"]) - int(seat["gold"]) // 2


def final_scores(state: JSONObject) -> dict[str, int]:
    """The Score Table's whole score, treasury included (rule D-CQ-8)."""
    return {seat: state["seats"][seat]["score"] for seat in state["seating"]}


def score_label(state: JSONObject) -> tuple[str, str]:
    """What scores counts, for the report's table: the province values while each treasury is
    its nation's own (D-ALL-5), the rule book's whole score once the game is over (D-CQ-8)."""
    if state["phase"] == "over":
        return ("Score: province values plus half the gold", "Score")
    return ("Score from provinces (a treasury counts only at the end)", "Score")


def winners(state: JSONObject) -> list[str]:
    points = final_scores(state)
    best = max(points.values(), default=0)
    return [seat for seat in state["seating"] if points[seat] == best]


def _finish(turn: Turn) -> None:
    state = turn.state
    state["phase"] = "over"
    won, points = winners(state), final_scores(state)
    best = points[won[0]] if won else 0
    over = f"The game limit of {state['turns']} turns is reached"
    if len(won) == 1:
        text = f"{over}: {nation(state, won[0])} wins with a score of {best}."
    else:
        text = f"{over}: {' and '.join(nation(state, s) for s in won)} share the win with {best}."
    turn.add("game_over", text, winners=won, scores=points, tie=len(won) > 1)


def knocked_out(state: JSONObject) -> list[str]:
    """Seats whose nation is out of the game, for the house's knock-out discount (rule H-1)."""
    return [seat for seat in state["seating"] if not state["seats"][seat]["alive"]]


def outcome(state: JSONObject) -> Outcome | None:
    """The best score wins at the game limit (rule D-CQ-9); a tie shares the win."""
    if state["phase"] != "over":
        return None
    won = winners(state)
    reason = (
        f"best score after the game limit of {state['turns']} turns"
        if len(won) == 1
        else f"tied on the best score after {state['turns']} turns: the win is shared"
    )
    return Outcome(tuple(won), reason, final_scores(state))
