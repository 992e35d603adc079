"""Battles between adjacent groups: participants, the defender's standing orders (rule D-MC-9),
dice sums, ties and amphibious attacks (rule D-MC-5), and War Bounty's bounties."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from gm.core.model import JSONObject

from . import diplomacy, economy
from .turn import MAX_TROOPS, Turn
from .world import SIDES


@dataclass(frozen=True)
class Defence:
    """A defender's standing order for one group (or for all, under the key "ALL").

    fight: how many troops fight ("ALL", or a number); the others retreat, or stand aside.
    retreat: where the others pull back to: a side (N, E, S, W) or a block "x,y" (only with the
        option `retreat`); "" for none: they stay on the block and take no part in the battle.
    """

    fight: object = "ALL"
    retreat: str = ""


def defence_of(turn: Turn, seat: str, gid: str) -> Defence:
    orders = turn.defence.get(seat, {})
    return orders.get(gid) or orders.get("ALL") or Defence()


def attack_problem(turn: Turn, seat: str, gid: str, target: str) -> str | None:
    """Why group gid may not attack group target now."""
    if gid in turn.attacked:
        return f"{gid} has attacked already this round"
    if target not in turn.groups:
        return f"there is no group {target} on the map"
    enemy = turn.groups[target]["owner"]
    problem = diplomacy.hostile_problem(turn, seat, enemy)
    if problem:
        return (
            f"{target} belongs to {turn.nation(enemy)}: {problem}"
            if enemy != seat
            else f"{target} is {turn.yours(seat)}"
        )
    here, there = turn.place(gid), turn.place(target)
    if here != there and there not in turn.board.neighbours[here]:
        return (
            f"{gid} at {turn.name(here)} is not beside {target} at {turn.name(there)}; "
            "groups must be side by side to fight"
        )
    return None


def attack(turn: Turn, seat: str, gid: str, count: int | str, target: str) -> str | None:
    problem = attack_problem(turn, seat, gid, target)
    if problem:
        return problem
    troops = turn.groups[gid]["troops"]
    fighting: int = troops if isinstance(count, str) else count  # the one word a count may be is ALL
    if fighting > troops:
        return f"{gid} has {troops} troops, not {fighting}"
    enemy = turn.groups[target]["owner"]
    before = diplomacy.permissions(turn) if diplomacy.allied(turn, seat, enemy) else None
    if before is not None:
        # "regardless of alliances": the attack breaks the alliance, at the book's price for
        # leaving it early (rule D-MC-14).
        problem = diplomacy.leave(turn, seat, attacked=enemy)
        if problem:
            return problem
    if not diplomacy.at_war(turn, seat, enemy):
        diplomacy.start_war(turn, seat, enemy, "attacks a troop of")
    turn.attacked.add(gid)
    battle(turn, gid, fighting, target)
    if before is not None:  # it left an alliance: out of the other members' territory, after the battle
        diplomacy.shut_out(turn, before)
    return None


def battle(turn: Turn, gid: str, fighting: int, target: str, how: str = "attacks") -> None:
    """One battle: the defender's retreat first, then the dice, then the losses."""
    seat, enemy = turn.groups[gid]["owner"], turn.groups[target]["owner"]
    here, there = turn.place(gid), turn.place(target)
    defending, retreated, refuge = _retreat(turn, enemy, target)
    if defending == 0:
        turn.add(
            "combat",
            f"{turn.nation(seat)}'s {gid} {how} {target} of {turn.nation(enemy)} "
            f"at {turn.name(there)}, but all {retreated} troops pull back to "
            f"{turn.name(cast(int, refuge))}: no battle.",
            **_facts(
                turn, gid, target, seat, enemy, here, there, fighting, 0, 0, 0, [], [], 0, 0, False, retreated, refuge
            ),
        )
        return
    amphibious = turn.options["amphibious"] and turn.board.water[here] != turn.board.water[there]
    attack_dice, defence_dice = _roll(turn, fighting), _roll(turn, defending)
    a_sum = sum(attack_dice) - (fighting if amphibious else 0)  # rule D-MC-5
    d_sum = sum(defence_dice)
    if turn.rng is None:  # a dry run assumes the battle is won, so later orders can be checked
        a_sum, d_sum = 1, 0
    if a_sum > d_sum:
        a_lost, d_lost = 0, defending
    elif a_sum < d_sum:
        a_lost, d_lost = fighting, 0
    else:  # "both combatants lose half of their participating troops, rounded down"
        a_lost, d_lost = fighting // 2, defending // 2
    before = {seat: turn.troops_of(seat), enemy: turn.troops_of(enemy)}
    _take(turn, gid, a_lost)
    _take(turn, target, d_lost)
    turn.add(
        "combat",
        _story(
            turn,
            gid,
            target,
            seat,
            enemy,
            there,
            how,
            fighting,
            defending,
            attack_dice,
            defence_dice,
            a_sum,
            d_sum,
            a_lost,
            d_lost,
            amphibious,
            retreated,
            refuge,
        ),
        **_facts(
            turn,
            gid,
            target,
            seat,
            enemy,
            here,
            there,
            fighting,
            defending,
            a_lost,
            d_lost,
            attack_dice,
            defence_dice,
            a_sum,
            d_sum,
            amphibious,
            retreated,
            refuge,
        ),
    )
    _bounties(turn, seat, enemy, a_lost, d_lost, before)


def _roll(turn: Turn, dice: int) -> list[int]:
    return [turn.rng.randint(1, 6) for _ in range(dice)] if turn.rng else []


def _take(turn: Turn, gid: str, troops: int) -> None:
    if troops:
        turn.lose(gid, troops)


def _retreat(turn: Turn, seat: str, gid: str) -> tuple[int, int, int | None]:
    """(troops that fight, troops that pulled back, where to). Without a retreat the troops not
    chosen to fight stay on the block out of the battle ("the Defender must choose the number of
    Troops to fight"); troops that cannot pull back (water, another empire's group, no room, off
    the map) fight."""
    order = defence_of(turn, seat, gid)
    troops = turn.groups[gid]["troops"]
    fight = troops if order.fight == "ALL" else min(order.fight, troops)
    if fight >= troops or not order.retreat:
        return fight, 0, None
    i = turn.place(gid)
    refuge = retreat_block(turn, i, order.retreat)
    if refuge is None or not _may_pull_back(turn, seat, i, refuge, troops - fight):
        return troops, 0, None
    back = troops - fight
    mine = turn.group_of(seat, refuge)
    if mine:
        turn.groups[mine]["troops"] += back
        turn.lose(gid, back)
    elif fight == 0:
        turn.relocate(gid, refuge)
    else:
        turn.new_group(seat, refuge, back)
        turn.lose(gid, back)
    return fight, back, refuge


def _may_pull_back(turn: Turn, seat: str, here: int, refuge: int, troops: int) -> bool:
    """Whether the troops on block `here` may step back onto block `refuge`: room there, and
    territory their empire may enter (with the open-border rule, not another's without war,
    alliance or agreement: pulling back is a move like any other). Troops at sea have the naval
    bonus and pull back over water too; troops on land stay on land."""
    if turn.board.water[here] and turn.board.water[refuge]:
        mine = turn.group_of(seat, refuge)
        room = not mine or turn.groups[mine]["troops"] + troops <= MAX_TROOPS
        return room and not turn.foreign_at(seat, refuge)
    owner = turn.owner(refuge)
    if owner and owner != seat and not diplomacy.may_pass(turn, seat, owner):
        return False
    return turn.may_stand(seat, refuge, troops)


def retreat_block(turn: Turn, i: int, retreat: str) -> int | None:
    if retreat in SIDES:
        return turn.board.side(i, retreat)
    x, y = (int(v) for v in retreat.split(","))
    if not turn.board.on_map(x, y):
        return None
    j = turn.board.index(x, y)
    return j if j in turn.board.neighbours[i] else None


def _bounties(turn: Turn, seat: str, enemy: str, a_lost: int, d_lost: int, before: JSONObject) -> None:
    for winner, loser, lost in ((seat, enemy, d_lost), (enemy, seat, a_lost)):
        economy.bounty(
            turn,
            winner,
            economy.BOUNTY_TROOP * lost,
            f"defeating {lost} troop{'s' if lost != 1 else ''} of {turn.nation(loser)}",
            kind="troops",
            loser=loser,
        )
    for winner, loser in ((seat, enemy), (enemy, seat)):
        # "All troops of an Empire: 50 E$", once per empire per game (rule D-MC-15): an empire
        # whose troops spawn again and are beaten again pays no second bounty.
        if before[loser] and not turn.troops_of(loser) and not turn.seats[loser]["routed"]:
            why = f"defeating all troops of {turn.nation(loser)}"
            if economy.bounty(turn, winner, economy.BOUNTY_ALL_TROOPS, why, kind="all_troops", loser=loser):
                turn.seats[loser]["routed"] = True


def _story(
    turn: Turn,
    gid: str,
    target: str,
    seat: str,
    enemy: str,
    there: int,
    how: str,
    fighting: int,
    defending: int,
    attack_dice: list[int],
    defence_dice: list[int],
    a_sum: int,
    d_sum: int,
    a_lost: int,
    d_lost: int,
    amphibious: bool,
    retreated: int,
    refuge: int | None,
) -> str:
    text = (
        f"{turn.nation(seat)}'s {gid} {how} {target} of {turn.nation(enemy)} at "
        f"{turn.name(there)}: {fighting} against {defending}"
    )
    if retreated:
        text += f" ({retreated} pulled back to {turn.name(cast(int, refuge))})"
    if turn.rng is None:
        return text + "."
    minus = f" - {fighting} amphibious" if amphibious else ""
    text += (
        f"; dice {'+'.join(map(str, attack_dice))}{minus} = {a_sum} against "
        f"{'+'.join(map(str, defence_dice))} = {d_sum}. "
    )
    if a_sum > d_sum:
        return text + f"{turn.nation(seat)} wins; {turn.nation(enemy)} loses {d_lost}."
    if a_sum < d_sum:
        return text + f"{turn.nation(enemy)} wins; {turn.nation(seat)} loses {a_lost}."
    return text + f"A tie: {turn.nation(seat)} loses {a_lost}, {turn.nation(enemy)} loses {d_lost}."


def _facts(
    turn: Turn,
    gid: str,
    target: str,
    seat: str,
    enemy: str,
    here: int,
    there: int,
    fighting: int,
    defending: int,
    a_lost: int,
    d_lost: int,
    attack_dice: list[int],
    defence_dice: list[int],
    a_sum: int,
    d_sum: int,
    amphibious: bool,
    retreated: int,
    refuge: int | None,
) -> JSONObject:
    # "combat", not "battle": the shared template adds its own line to "battle" events, and a
    # battle here never takes a place (captures come from occupations).
    return {
        "attacker": seat,
        "defender": enemy,
        "group": gid,
        "target": target,
        "from": turn.name(here),
        "to": turn.name(there),
        "attacking": fighting,
        "defending": defending,
        "attacker_losses": a_lost,
        "defender_losses": d_lost,
        "captured": False,
        "attacker_dice": attack_dice,
        "defender_dice": defence_dice,
        "attacker_sum": a_sum,
        "defender_sum": d_sum,
        "amphibious": amphibious,
        "retreated": retreated,
        "retreat_to": turn.name(refuge) if refuge is not None else None,
    }
