"""Conqueror! movement: order stacks drawn at random, moves, attacks, conquest, lost capitals."""

from __future__ import annotations

from random import Random

from gm.core.model import Event, JSONObject, Order

from .battle import Battle, fight
from .board import NEUTRAL, armies_words, nation, owned
from .economy import CONQUEST_LOSS, FORT_WORDS, lose
from .orders import MAX_MOVES, MOVE_VERBS, move_problem, voice
from .turn import Turn, event


def run_stacks(turn: Turn, orders: dict[str, list[Order]], order_rng: Random, battle_rng: Random) -> None:
    """Each nation's move and attack orders are a stack; one stack is drawn at random and its top
    order runs, until every stack is empty (rule D-CQ-1)."""
    stacks: dict[str, list[Order]] = {}
    for seat in turn.state["seating"]:
        moves = [o for o in orders.get(seat, []) if o.verb in MOVE_VERBS]
        for extra in moves[MAX_MOVES:]:
            turn.failed(seat, extra, f"only {MAX_MOVES} move or attack orders a turn")
        if moves[:MAX_MOVES]:
            stacks[seat] = moves[:MAX_MOVES]
    drawn = _draw(turn.state["seating"], {s: len(o) for s, o in stacks.items()}, order_rng)
    if not drawn:
        return
    names = " ".join(f"{s}{n}" for s, n in drawn)
    # Recorded for the GM (D-ALL-1), in no seat's report: the draw tells how many orders each
    # nation gave, its internal moves and failed orders too, which are its own (D-ALL-5).
    turn.add(
        "stacks",
        f"The order stacks are drawn in this order (seat and order): {names}.",
        (),
        order=[[s, n] for s, n in drawn],
    )
    for seat, number in drawn:
        execute(turn, seat, stacks[seat][number - 1], battle_rng)


def _draw(seating: list[str], sizes: dict[str, int], rng: Random) -> list[tuple[str, int]]:
    # The draw depends only on the stacks' sizes: it is made, and reported, before any order runs.
    taken = {seat: 0 for seat in sizes}
    drawn: list[tuple[str, int]] = []
    while True:
        live = [s for s in seating if taken.get(s, 0) < sizes.get(s, 0)]
        if not live:
            return drawn
        seat = live[rng.randrange(len(live))]
        taken[seat] += 1
        drawn.append((seat, taken[seat]))


def execute(turn: Turn, seat: str, order: Order, rng: Random) -> None:
    state = turn.state
    v = voice(state, seat, False, turn.board)
    source, target, amount = order.args
    free = turn.free(source) if source in turn.provinces else 0
    problem = move_problem(state, seat, order, free, v, planning=False)
    if problem is None and order.verb == "MOVE" and source in turn.attacked:
        problem = f"{v.place(source)} was attacked this turn, so its armies stay to defend it"
    if problem:
        turn.failed(seat, order, problem)
        return
    count = free if amount == "ALL" else min(amount, free)
    short = "" if amount == "ALL" or amount <= free else f" (only {count} of the {amount} ordered could go)"
    turn.provinces[source]["armies"] -= count
    if turn.provinces[target]["owner"] == seat:
        _arrive(turn, target, count)
        # Everyone's while the game's "Show Internal Moves" is on, as the book has it until a
        # player turns it off; else the mover's own (README, choice 15). What was ordered, when
        # fewer went, is the mover's own either way (D-ALL-5): the open text says what went.
        shown = show_internal_moves(turn.state)
        turn.add(
            "move",
            f"{v.nation} moves {armies_words(count)} from {v.place(source)} to {v.place(target)}"
            + ("." if shown else f"{short}."),
            None if shown else (seat,),
            seat=seat,
            **{"from": source},
            to=target,
            armies=count,
        )
        if shown and short:
            turn.add(
                "move_short",
                f"{v.nation}'s move to {v.place(target)}{short}.",
                (seat,),
                seat=seat,
                to=target,
                armies=count,
            )
    else:
        _attack(turn, seat, source, target, count, rng, short)


def show_internal_moves(state: JSONObject) -> bool:
    """The game option internal-moves. Every game made since it exists stores it (on by default,
    as the book has it); a game made before (ruleset version 1.0) keeps what it showed then, the
    mover's own, so its turns re-run as they ran."""
    return bool(state["scenario"].get("options", {}).get("internal-moves", False))


def _arrive(turn: Turn, code: str, count: int) -> None:
    turn.provinces[code]["armies"] += count
    turn.arrived[code] = turn.arrived.get(code, 0) + count


def _attack(turn: Turn, seat: str, source: str, target: str, count: int, rng: Random, short: str) -> None:
    place = turn.provinces[target]
    defender = place["owner"]
    turn.attacked.add(target)
    battle = fight(count, place["armies"], place["fort"], rng)  # rule D-CQ-2
    place["armies"] = battle.defenders_left
    turn.arrived[target] = min(turn.arrived.get(target, 0), place["armies"])
    if battle.captured:
        conquer(turn, seat, target, battle.attackers_left)
    turn.events.append(_battle_event(turn, seat, defender, source, target, battle))
    if battle.captured:
        # The conqueror's control is its prior influence there less 10: another nation's influence
        # in a province it does not hold, which no other seat sees (D-ALL-5). Its own alone.
        control = turn.provinces[target]["influence"][seat]
        turn.add(
            "conquest",
            f"{nation(turn.state, seat)} holds {turn.board.label(target)} at {control}% control.",
            (seat,),
            seat=seat,
            province=target,
            control=control,
        )
    if short:  # what was ordered is the attacker's own (D-ALL-5); the battle shows what went
        turn.add(
            "attack_short",
            f"{nation(turn.state, seat)}'s attack on {turn.board.label(target)}{short}.",
            (seat,),
            seat=seat,
            to=target,
            armies=count,
        )
    if battle.captured and defender != NEUTRAL and turn.seats[defender]["capital"] == target:
        relocate_capital(turn, defender)


def conquer(turn: Turn, seat: str, code: str, armies: int) -> None:
    """The attacker's survivors move in; the province is the conqueror's, at -10 control, and
    produces half this turn. Its production starts again with taxes."""
    place = turn.provinces[code]
    place.update(owner=seat, armies=armies, conquered=True, item="TAXES", target=None, progress=0)
    turn.arrived[code] = armies
    lose(place["influence"], seat, CONQUEST_LOSS)  # control table: conquest -10 to the conqueror


def relocate_capital(turn: Turn, seat: str) -> None:
    """A nation that lost its capital moves it to its most populous province (then most armies,
    then map order); a nation with no province left is out of the game."""
    state = turn.state
    me = turn.seats[seat]
    lost = me["capital"]
    left = owned(state, seat)
    who = nation(state, seat)
    if not left:
        me.update(alive=False, capital=None, gold=0, score=0)
        turn.add("eliminated", f"{who} has lost its last province and is out of the game.", seat=seat)
        return
    best = max(left, key=lambda c: (turn.provinces[c]["population"], turn.provinces[c]["armies"]))
    me["capital"] = best
    turn.add(
        "capital",
        f"{who} has lost its capital {turn.board.label(lost)} and moves its court to {turn.board.label(best)}.",
        seat=seat,
        lost=lost,
        capital=best,
    )


def _battle_event(turn: Turn, seat: str, defender: str, source: str, target: str, battle: Battle) -> Event:
    state, board = turn.state, turn.board
    who, dst = nation(state, seat), board.label(target)
    them = "the local leaders" if defender == NEUTRAL else nation(state, defender)
    inside = (
        f" ({battle.field} in the field, {battle.garrison} in the {FORT_WORDS[battle.fort]})" if battle.garrison else ""
    )
    head = (
        f"{who} attacks {dst}, held by {them}, from {board.label(source)} with "
        f"{armies_words(battle.attacking)} against {battle.defending}{inside}: "
    )
    if not battle.duels:
        result = f"nobody defends it, and {who} takes {dst}"
    else:
        result = (
            f"{len(battle.duels)} duels, {who} loses "
            f"{battle.attacking - battle.attackers_left}, the defenders lose "
            f"{battle.defending - battle.defenders_left}; "
        )
        if battle.captured:
            result += f"{who} takes {dst} with {armies_words(battle.attackers_left)}"
        else:
            holds = "hold" if defender == NEUTRAL else "holds"  # the local leaders; a nation
            result += f"{them} {holds} {dst} with {armies_words(battle.defenders_left)}"
    return event(
        "battle",
        head + result + ".",
        None,
        attacker=seat,
        defender=defender,
        **{"from": source},
        to=target,
        attacking=battle.attacking,
        defending=battle.defending,
        attacker_losses=battle.attacking - battle.attackers_left,
        defender_losses=battle.defending - battle.defenders_left,
        captured=battle.captured,
        field=battle.field,
        garrison=battle.garrison,
        fort=battle.fort,
        field_duels=battle.field_duels,
        siege_duels=battle.siege_duels,
        rolls=list(battle.rolls),
    )
