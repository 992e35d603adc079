"""Minecraft EMPIRES resolution: a new game, one round (every empire's turn in an order of play
that rotates), occupations and captures, and the end of the game (rule D-MC-10)."""

from __future__ import annotations

from collections import deque

from gm.core.model import JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds

from . import actions, capitulation, cities, combat, diplomacy, economy, moves, setup
from .grammar import MAX_ORDERS, order_text, well_formed
from .turn import Turn, copy_state


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """Round 1 of a game: the world and the seats (and in War Bounty and Land Game the
    empires they start with)."""
    return setup.new_state(scenario, seats, seeds)


def order_of_play(state: JSONObject) -> list[str]:
    """The living empires in this round's order: the seating from a seeded draw in round 1, and
    each round after it from the next empire still in the game after the last round's first
    (rule D-ALL-4: it rotates by one seat each round; an empire out of the game is passed over,
    so nobody goes first twice running because a seat beside it fell)."""
    seating, seats = state["seating"], state["seats"]
    at = state["first"] % len(seating)
    for number in range(2, state["round"] + 1):
        after = (seating[(at + k) % len(seating)] for k in range(1, len(seating) + 1))
        at = seating.index(next((s for s in after if _in_the_game(seats[s], number)), seating[at]))
    return [s for s in seating[at:] + seating[:at] if seats[s]["alive"]]


def _in_the_game(seat: JSONObject, number: int) -> bool:
    """Whether an empire was still in the game when round `number` began."""
    return bool(seat["alive"]) or (seat["fell"] is not None and seat["fell"] >= number)


def resolve(state: JSONObject, orders_by_seat: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
    """One round: standing orders first, then each empire's turn in the order of play (rule
    D-MC-9), then the empires left with no city (rule D-MC-11), the agreements that run out
    and the end of the game."""
    if state["phase"] == "over":
        return TurnResult(copy_state(state), ())
    turn = Turn(state, seeds.rng("roll"))
    orders = {seat: _readable(turn, orders_by_seat, seat) for seat in turn.state["seating"]}
    read_standing(turn, orders)
    sequence = order_of_play(turn.state)
    turn.add(
        "order_of_play",
        f"Round {turn.round}. Order of play: " + ", ".join(turn.nation(s) for s in sequence) + ".",
        order=sequence,
        round=turn.round,
    )
    for seat in sequence:
        if turn.seats[seat]["alive"]:
            play_turn(turn, seat, orders[seat])
    capitulation.judge_the_cityless(turn)  # before the agreements: a War Bounty alliance may win now
    diplomacy.end_of_round(turn)
    _end_of_round(turn)
    return TurnResult(turn.finish(), tuple(turn.events))


def _readable(turn: Turn, orders_by_seat: dict[str, list[Order]], seat: str) -> list[Order]:
    given: object = orders_by_seat.get(seat) if isinstance(orders_by_seat, dict) else None
    given = list(given) if isinstance(given, (list, tuple)) else []
    for junk in (o for o in given if not well_formed(o)):
        failed(turn, seat, junk, "it could not be read")
    return [o for o in given if well_formed(o)]


def failed(turn: Turn, seat: str, order: Order, reason: str) -> None:
    text = order_text(order)
    turn.private(
        seat,
        "order_failed",
        f"{turn.nation(seat)}'s order {text} fails: {reason}.",
        order=text,
        reason=reason,
        line=getattr(order, "line", 0),
    )


def read_standing(turn: Turn, orders: dict[str, list[Order]], only: str | None = None) -> None:
    """The round's standing orders of every empire (or of `only`), kept for the battles and
    occupations of other empires' turns, and in the state for the next order form."""
    for seat, listed in orders.items():
        if only and seat != only:
            continue
        defence, destroy, lines = {}, set(), []
        for order in listed:
            if order.verb not in actions.STANDING:
                continue
            problem = actions.standing_problem(turn, seat, order)
            if problem:  # it fails on its own, to its seat, as if it had not been given (D-ALL-3)
                failed(turn, seat, order, problem)
                continue
            if order.verb == "DEFEND":
                key, fight, retreat = order.args
                defence[key] = combat.Defence(fight, retreat)
            else:
                cid = actions.city_named(turn, order.args[0]) if order.args[0] != "ALL" else "ALL"
                destroy.add(cid or order.args[0])
            lines.append(order_text(order))
        turn.defence[seat], turn.destroy[seat] = defence, destroy
        if turn.seats[seat]["alive"]:
            turn.state["standing"] = {**turn.state["standing"], seat: lines}


def play_turn(turn: Turn, seat: str, orders: list[Order]) -> None:
    had_capital = bool(turn.seats[seat]["capital"])
    start_turn(turn, seat, orders)
    for order in orders[MAX_ORDERS:]:
        failed(turn, seat, order, f"an empire gives at most {MAX_ORDERS} orders a round")
    for order in orders[:MAX_ORDERS]:
        if order.verb in actions.STANDING or (order.verb == "CAPITAL" and not had_capital):
            continue
        if not turn.seats[seat]["alive"]:
            failed(turn, seat, order, f"{turn.nation(seat)} is out of the game")
            continue
        reason = actions.execute(turn, seat, order)
        if reason:
            failed(turn, seat, order, reason)
        _occupations_lost(turn, but=seat)
    if turn.seats[seat]["alive"]:
        end_turn(turn, seat)
    turn.played.add(seat)


# ----------------------------------------------------------------------------------------------
# The start of an empire's turn: its capital in round 1, income, spawning, bonuses, storming.


def start_turn(turn: Turn, seat: str, orders: list[Order]) -> None:
    if not turn.seats[seat]["capital"]:
        _found_capital(turn, seat, [o for o in orders if o.verb == "CAPITAL"])
    _occupations_lost(turn)
    economy.earn_income(turn, seat)
    cities.spawn(turn, seat)
    moves.round_bonus(turn, seat)
    _storm(turn, seat)
    for cid in turn.cities_of(seat):
        if turn.cities[cid]["held"] == 1:
            standing_destroy(turn, seat, cid)


def _found_capital(turn: Turn, seat: str, asked: list[Order]) -> None:
    """ "Your Capital City must be founded by the first round": on the block ordered, or, when
    that is not possible or nothing was ordered, on the nearest free block to it (or to the
    site gm suggested)."""
    want = None
    for order in asked:
        i = actions.block_of(turn, order.args[0])
        problem = None if i is None else cities.placement_problem(turn, seat, i, capital=True)
        if i is not None and problem is None:
            cities.found_capital(turn, seat, i, "")
            return
        failed(turn, seat, order, problem or actions.off_map(turn, order.args[0]))
        want = want if want is not None or i is None else i
    if want is None:
        x, y = turn.seats[seat]["site"]
        want = turn.board.index(x, y)
    spot = _nearest_site(turn, seat, want)
    how = (
        (" (no capital was ordered, so gm founds it on the suggested site or the nearest free block to it)")
        if not asked
        else " (the nearest free block to the one ordered)"
    )
    cities.found_capital(turn, seat, spot, how)


def _nearest_site(turn: Turn, seat: str, start: int) -> int:
    seen, queue = {start}, deque([start])
    while queue:
        i = queue.popleft()
        if not cities.placement_problem(turn, seat, i, capital=True):
            return i
        for n in turn.board.neighbours[i]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    raise ValueError("no block of the world can take a capital")  # a scenario error, not a player's


def _occupations_lost(turn: Turn, but: str | None = None) -> None:
    """An occupation whose troops are gone from the city's centre (beaten in another empire's
    turn) has ended, at once: the owner may use the city again in the same round, whoever plays
    next, and the count starts again from nothing if troops of the empire come back, so a city is
    captured only when held two rounds running (rule D-MC-6: "reset when ... the attacker
    leaves"). Called after each order of an empire's turn (`but` that empire, whose own troops
    may step out and back before its turn ends: end_turn judges those) and as each turn starts."""
    for cid, city in turn.cities.items():
        seat = city["occupier"]
        if seat and seat != but and not turn.group_of(seat, turn.city_block(cid)):
            city.update(occupier=None, held=0)
            turn.add(
                "occupation_ends",
                f"{turn.nation(seat)} no longer holds {cid}: the occupation ends.",
                seat=seat,
                city=cid,
            )


def _storm(turn: Turn, seat: str) -> None:
    """Defenders spawned (or left) in a city the empire occupies must be beaten in its turn for
    the occupation to count; its occupying group attacks them with every troop."""
    for cid, city in list(turn.cities.items()):
        if city["occupier"] != seat or cid not in turn.cities:
            continue
        centre = turn.city_block(cid)
        mine, theirs = turn.group_of(seat, centre), turn.group_of(city["owner"], centre)
        if mine and theirs:
            turn.attacked.add(mine)
            combat.battle(turn, mine, turn.groups[mine]["troops"], theirs, how="storms the garrison of")


def standing_destroy(turn: Turn, seat: str, cid: str) -> None:
    wanted = turn.destroy.get(seat, set())
    if (cid not in wanted and "ALL" not in wanted) or cid in turn.destroyed:
        return  # not ordered, or done already this round (in the occupier's turn)
    reason = cities.destroy_infrastructure(turn, seat, cid, standing=True)
    if reason and cid in wanted:
        turn.private(
            seat,
            "order_failed",
            f"{turn.nation(seat)}'s standing order DESTROY {cid} fails: {reason}.",
            order=f"DESTROY {cid}",
            reason=reason,
            line=0,
        )


# ----------------------------------------------------------------------------------------------
# The end of an empire's turn: occupations count (rule D-MC-6).


def end_turn(turn: Turn, seat: str) -> None:
    for cid in [c for c, city in turn.cities.items() if city["occupier"] == seat]:
        if cid not in turn.cities or turn.cities[cid]["occupier"] != seat:
            continue  # abandoned, or handed over, when a capture earlier in this loop ended its owner
        city = turn.cities[cid]
        centre = turn.city_block(cid)
        owner = city["owner"]
        if not turn.group_of(seat, centre):
            city.update(occupier=None, held=0)
            turn.add("occupation_ends", f"{turn.nation(seat)} leaves {cid}: the occupation ends.", seat=seat, city=cid)
        elif turn.group_of(owner, centre):
            city["held"] = 0
            turn.add(
                "occupation_held",
                f"{turn.nation(owner)}'s troops still hold {cid}: the "
                f"occupation by {turn.nation(seat)} starts counting again.",
                seat=seat,
                owner=owner,
                city=cid,
            )
        else:
            city["held"] += 1
            if city["held"] >= 2:
                cities.capture(turn, cid, seat)
            else:
                turn.add(
                    "occupation_count",
                    f"{turn.nation(seat)} has held {cid} for a round; "
                    "it captures the city at the end of its next turn if no defender is "
                    "left in it.",
                    seat=seat,
                    owner=owner,
                    city=cid,
                    held=1,
                )
                standing_destroy(turn, owner, cid)


# ----------------------------------------------------------------------------------------------
# The end of the game (rule D-MC-10).


def _end_of_round(turn: Turn) -> None:
    state = turn.state
    alive = [s for s in state["seating"] if turn.seats[s]["alive"]]
    limit = state["options"]["round-limit"]
    if len(alive) <= 1:
        reason = "last empire standing"
        won = alive
    elif limit and turn.round >= limit:
        # The territory as it stands after the round (the working copy writes it back): the
        # blocks bought, taken and freed in this last round count.
        won = ranking(turn.finish())[0]
        reason = f"most cities, then territory, then E$ after the round limit of {limit}" + (
            ": the win is shared" if len(won) > 1 else ""
        )
    else:
        state["round"] += 1
        return
    state["phase"] = "over"
    state["result"] = {"winners": won, "reason": reason}
    names = " and ".join(turn.nation(s) for s in won) or "nobody"
    turn.add(
        "game_over",
        f"The game is over after round {turn.round}: {names} "
        f"{'wins' if len(won) == 1 else 'share the win'} ({reason}).",
        winners=won,
        reason=reason,
    )


def standing(state: JSONObject, seat: str) -> tuple[int, int, int]:
    """What ranks empires at a round limit: cities, blocks of territory, E$."""
    me = state["seats"][seat]
    owned = sum(1 for c in state["cities"].values() if c["owner"] == seat)
    blocks = sum(row.count(me["mark"]) for row in state["territory"])
    return owned, blocks, me["money"]


def ranking(state: JSONObject) -> list[list[str]]:
    """The living empires grouped best first by (cities, territory, E$)."""
    alive = [s for s in state["seating"] if state["seats"][s]["alive"]]
    keys = {s: standing(state, s) for s in alive}
    groups: list[list[str]] = []
    for seat in sorted(alive, key=lambda s: keys[s], reverse=True):
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def scores(state: JSONObject) -> dict[str, int]:
    """The score a report's table shows: the cities each empire owns."""
    return {seat: sum(1 for c in state["cities"].values() if c["owner"] == seat) for seat in state["seating"]}


def score_label(state: JSONObject) -> tuple[str, str]:
    """What scores counts, for the report's table: (title, column)."""
    return ("Cities held", "Cities")


def knocked_out(state: JSONObject) -> list[str]:
    """Seats whose nation is out of the game, for the house's knock-out discount (rule H-1)."""
    return [seat for seat in state["seating"] if not state["seats"][seat]["alive"]]


def outcome(state: JSONObject) -> Outcome | None:
    result = state.get("result")
    if state["phase"] != "over" or not result:
        return None
    return Outcome(tuple(result["winners"]), result["reason"], scores(state))
