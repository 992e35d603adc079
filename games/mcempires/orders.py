"""Minecraft EMPIRES orders: the parser (grammar.py) and check_orders, a dry run of the empire's
own turn through the very code that resolves it, so a problem reads as the report would say."""

from __future__ import annotations

from gm.core.model import JSONObject, Order, Problem

from . import actions, economy, rules
from .diplomacy import allied, at_war, passes_after_this_round
from .grammar import MAX_ORDERS, make_order, order_text, parse_orders, well_formed  # noqa: F401
from .turn import MAX_TROOPS, Turn


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """Line-numbered problems: every order that would fail if the empire's turn were played now
    (income and spawning first, its orders in the order written, battles assumed won), but for
    a want of E$ that an empire playing earlier in the round may still make good (a warning)."""
    problems = check_alone(state, seat, orders)
    curable = _curable_by_money(state, seat, orders, [(p.line, p.message) for p in problems])
    return [p for p in problems if p.line not in curable]


def check_alone(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """check_orders with the empire's own E$ only: what it can do by itself (the order form's
    examples are drawn with this, so none needs another's payment)."""
    if state["phase"] == "over":
        return [Problem(o.line, "the game is over: no orders are needed") for o in orders]
    if seat not in state["seats"]:
        return [Problem(o.line, f"{seat} has no empire in this game") for o in orders]
    if not state["seats"][seat]["alive"]:
        return [Problem(o.line, "your empire is out of the game and gives no more orders") for o in orders]
    return [Problem(line, reason) for line, reason in dry_run(state, seat, orders)[1]]


def dry_run(
    state: JSONObject, seat: str, orders: list[Order], extra_money: int = 0
) -> tuple[Turn, list[tuple[int, str]]]:
    """Play the empire's turn alone on a copy: (the turn afterwards, (line, reason) for every
    order that fails). extra_money: E$ the empire is given first (what others may pay it)."""
    turn = Turn(state, rng=None, you=True)
    turn.seats[seat]["money"] += extra_money
    listed = [o for o in orders if well_formed(o)]
    problems = [(o.line, "the order could not be read") for o in orders if not well_formed(o)]
    rules.read_standing(turn, {seat: listed})
    had_capital = bool(turn.seats[seat]["capital"])
    rules.start_turn(turn, seat, listed)
    problems += [
        (e.data["line"], e.data["reason"]) for e in turn.events if e.kind == "order_failed" and e.data.get("line")
    ]
    problems += [
        (o.line, f"an empire gives at most {MAX_ORDERS} orders a round; this one is past that")
        for o in listed[MAX_ORDERS:]
    ]
    for order in listed[:MAX_ORDERS]:
        if order.verb in actions.STANDING or (order.verb == "CAPITAL" and not had_capital):
            continue
        reason = actions.execute(turn, seat, order)
        if reason:
            problems.append((order.line, reason))
    return turn, sorted(problems, key=lambda p: p[0])


def _curable_by_money(state: JSONObject, seat: str, orders: list[Order], problems: list[tuple[int, str]]) -> set[int]:
    """Lines that fail for want of E$ that an empire playing earlier in the round may still give:
    a PAY ("tradeable with other Empires (including the use of E$ in trade)", rule D-MC-14) or,
    in War Bounty, a bounty (earned in another's turn, or an ally's shared). Only what no empire
    before this one can change is a problem (D-ALL-3: the order fails on its own if the E$ do
    not come); these are warnings. None while the game is not being played, nor for a seat
    that is not playing this round (order_of_play holds only the empires in the game)."""
    if not problems or state["phase"] != "play":
        return set()
    sequence = rules.order_of_play(state)
    if seat not in sequence or sequence.index(seat) == 0:
        return set()
    extra = _what_earlier_empires_may_give(state, sequence[: sequence.index(seat)])
    richer = {line for line, _ in dry_run(state, seat, orders, extra)[1]}
    return {line for line, _ in problems if line not in richer}


# War Bounty's money comes from battles, some in others' turns: no bound short of this.
_BOUNTIES_UNBOUNDED = 10**9


def _what_earlier_empires_may_give(state: JSONObject, earlier: list[str]) -> int:
    """The most E$ the empires playing before one could hand it this round: all they hold, and
    what they earn at the start of their turns."""
    turn = Turn(state, rng=None)
    if turn.mode == economy.WAR_BOUNTY:
        return _BOUNTIES_UNBOUNDED
    return sum(
        turn.seats[s]["money"] + max(0, sum(amount for _, amount in economy.income_lines(turn, s))) for s in earlier
    )


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is probably a slip, beside the problems (the orders still count): an attack that
    starts a war or is likely lost, a military base whose group the orders leave full, and an
    order that needs E$ an empire playing earlier in the round would have to give.
    Never raises, whatever the orders."""
    me = state.get("seats", {}).get(seat)
    if state["phase"] != "play" or me is None or not me["alive"]:
        return []
    turn = Turn(state, rng=None, you=True)
    found = [
        Problem(o.line, w)
        for o in orders
        if well_formed(o) and o.verb == "ATTACK" and (w := _attack_warning(turn, seat, o))
    ]
    after, problems = dry_run(state, seat, orders)
    curable = _curable_by_money(state, seat, orders, problems)
    found += [
        Problem(line, f"{reason}: it fails unless an empire playing before you this round gives you the E$")
        for line, reason in problems
        if line in curable
    ]
    found += _garrisons_to_storm(state, turn, seat, orders)
    return sorted(found + _full_bases(after, seat) + _permission_ending(after, seat), key=lambda p: p.line)


def _garrisons_to_storm(state: JSONObject, turn: Turn, seat: str, orders: list[Order]) -> list[Problem]:
    """The first ATTACK of a group that occupies a city whose owner plays earlier this round and
    whose ready military bases (in sight of all) spawn a garrison beside it in the owner's turn:
    the group storms it as this empire's turn starts, so the ATTACK fails ("has attacked already
    this round"). The dry run, which plays this turn alone, cannot see the garrison; a warning,
    since the owner may fall, or the garrison be beaten, before then."""
    sequence = rules.order_of_play(state)
    earlier = sequence[: sequence.index(seat)] if seat in sequence else []
    found, warned = [], set()
    for order in orders:
        gid = order.args[0] if well_formed(order) and order.verb == "ATTACK" else None
        if gid in warned or gid not in turn.groups or turn.groups[gid]["owner"] != seat:
            continue
        cid = turn.city_at.get(turn.place(gid))
        city = turn.cities[cid] if cid else None
        if city is None or city["occupier"] != seat or city["owner"] not in earlier:
            continue
        if turn.group_of(city["owner"], turn.place(gid)) or city["spawns_from"] > turn.round:
            continue  # a garrison there now is stormed in the dry run too; none spawns yet
        if any(bought < turn.round for bought in city["bases"]):
            warned.add(gid)
            found.append(
                Problem(
                    order.line,
                    f"{cid}'s military base spawns a garrison beside {gid} in {turn.nation(city['owner'])}'s "
                    f"turn, before yours: {gid} storms it as your turn starts and cannot attack again "
                    "this round",
                )
            )
    return found


def _attack_warning(turn: Turn, seat: str, order: Order) -> str | None:
    gid, count, target = order.args
    target = next((g for g, group in turn.groups.items() if f"{group['x']},{group['y']}" == target), target)
    if gid not in turn.groups or target not in turn.groups or turn.groups[target]["owner"] == seat:
        return None
    enemy = turn.groups[target]["owner"]
    said = []
    if not at_war(turn, seat, enemy) and not allied(turn, seat, enemy) and not turn.options["declarations"]:
        # Combat: "Attacking a Troop of an Empire you are not at war with will initiate a war
        # with that Empire, regardless of alliances."
        said.append(f"you are not at war with {turn.nation(enemy)}: this attack starts a war with it")
    fighting = turn.groups[gid]["troops"] if count == "ALL" else count
    defending = turn.groups[target]["troops"]
    if isinstance(fighting, int) and fighting < defending:
        # Combat: one die a troop, "The player with the highest score wins".
        said.append(f"{fighting} dice against {defending}: this attack will probably be lost")
    return "; ".join(said) or None


def _full_bases(turn: Turn, seat: str) -> list[Problem]:
    # Military Base: "When a Group in your City with a Military Base is at maximum capacity
    # (6 troops), Troop spawning will be halted in that City".
    found = []
    for cid in turn.cities_of(seat):
        city = turn.cities[cid]
        gid = turn.group_of(seat, turn.city_block(cid))
        if city["bases"] and not city["occupier"] and gid and turn.groups[gid]["troops"] >= MAX_TROOPS:
            found.append(
                Problem(
                    0,
                    f"{cid}'s group {gid} is full ({MAX_TROOPS} troops) after your orders: its "
                    "military base spawns nothing next round until troops move out",
                )
            )
    return found


def _permission_ending(turn: Turn, seat: str) -> list[Problem]:
    """Groups the orders leave in another empire's territory where the open borders that let
    them in (an agreement or an alliance) end with this round: they will be moved out at its
    end (gm's choice, README "Open borders that end"), so a march there goes no further."""
    found = []
    for gid, group in turn.groups.items():
        host = turn.owner(turn.place(gid))
        if group["owner"] == seat and host not in (None, seat) and not passes_after_this_round(turn, seat, host):
            found.append(
                Problem(
                    0,
                    f"{gid} stands in {turn.nation(host)}'s territory at {group['x']},{group['y']} after your "
                    f"orders, and your open borders with it end with round {turn.round}: at the end of the "
                    "round the group is moved out to the nearest neutral or own land",
                )
            )
    return found


__all__ = ["check_orders", "dry_run", "make_order", "order_text", "order_warnings", "parse_orders", "well_formed"]
