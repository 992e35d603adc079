"""Clash of Empires' moves and combat (rules D-CE-4, D-CE-5): into an empty or own territory,
or a battle of simultaneous losses whose winner takes the territory and 1 VP."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.model import Event, JSONObject

from .board import NEUTRAL, add_troops, event, holder, nation, place_name, settle, troops_words


@dataclass(frozen=True)
class Battle:
    """One combat by rule D-CE-4: simultaneous losses, one point of strength per troop.

    attacking: the troops that attack (all of them strike and can be lost).
    defending: the troops in the territory at the start of the battle.
    """

    attacking: int
    defending: int

    @property
    def defender_losses(self) -> int:
        return min(self.attacking, self.defending)

    @property
    def attacker_losses(self) -> int:
        return min(self.defending, self.attacking)

    @property
    def survivors(self) -> int:
        return self.attacking - self.attacker_losses

    @property
    def defenders_left(self) -> int:
        return self.defending - self.defender_losses

    @property
    def captured(self) -> bool:
        return self.defenders_left == 0 and self.survivors > 0


def move(state: JSONObject, seat: str, source: str, target: str, amount: int | str, events: list[Event]) -> None:
    origin = state["territories"][source]
    count: int = origin["troops"] if isinstance(amount, str) else amount  # a str amount is ALL
    defender = holder(state, target)
    origin["troops"] -= count
    if defender in (None, seat):
        add_troops(state, seat, target, count)
        events.append(_move_event(state, seat, source, target, count, took=defender is None))
    else:
        battle = Battle(count, state["territories"][target]["troops"])
        _fight(state, seat, source, target, battle, events)
    settle(origin)


def _move_event(state: JSONObject, seat: str, source: str, target: str, count: int, took: bool) -> Event:
    who, src, dst = nation(state, seat), place_name(state, source), place_name(state, target)
    if took:  # rule D-CE-5: an empty territory is taken without combat and without VP
        text = f"{who} moves {troops_words(count)} from {src} into empty {dst} and takes it (no VP)."
    else:
        text = f"{who} moves {troops_words(count)} from {src} to {dst}."
    return event("move", text, seat=seat, **{"from": source, "to": target}, troops=count, took=took)


def _fight(state: JSONObject, seat: str, source: str, target: str, battle: Battle, events: list[Event]) -> None:
    place = state["territories"][target]
    defender = place["owner"]
    place["troops"] -= battle.defender_losses
    settle(place)
    if battle.captured:
        add_troops(state, seat, target, battle.survivors)
        state["seats"][seat]["vp"] += 1
    else:  # the survivors stay in the source territory
        state["territories"][source]["troops"] += battle.survivors
    events.append(_battle_event(state, seat, defender, source, target, battle))


def _battle_event(state: JSONObject, seat: str, defender: str, source: str, target: str, battle: Battle) -> Event:
    who, dst = nation(state, seat), place_name(state, target)
    text = (
        f"{who} attacks {dst} from {place_name(state, source)} with "
        f"{troops_words(battle.attacking)} against {battle.defending}: {who} loses "
        f"{battle.attacker_losses}, the defenders lose {battle.defender_losses}; "
    )
    if battle.captured:
        text += f"{who} takes {dst} and gains 1 VP."
    elif battle.defenders_left:
        keeps = "the neutral troops keep" if defender == NEUTRAL else f"{nation(state, defender)} keeps"
        text += f"{keeps} {dst} with {battle.defenders_left}"
        # Cannot happen with D-CE-4's arithmetic, but the rule says where survivors go.
        back = f", and {battle.survivors} survivors return to {place_name(state, source)}"
        text += (back if battle.survivors else "") + "."
    else:
        text += f"nobody is left, and {dst} is now empty."
    return event(
        "battle",
        text,
        attacker=seat,
        defender=defender,
        **{"from": source},
        to=target,
        attacking=battle.attacking,
        defending=battle.defending,
        attacker_losses=battle.attacker_losses,
        defender_losses=battle.defender_losses,
        captured=battle.captured,
        vp=1 if battle.captured else 0,
    )
