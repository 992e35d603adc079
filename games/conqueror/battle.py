"""Conqueror! battles: one-to-one duels, the field first, then the garrison (rule D-CQ-2)."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from .economy import ATTACK_WEIGHT, FIELD_WEIGHT, GARRISON, SIEGE_WEIGHT


@dataclass(frozen=True)
class Battle:
    """A fought battle, every duel recorded so the report can show it and a replay matches.

    attacking: armies that attacked. field, garrison: defenders in the field and in the
    fortification at the start. fort: the fortification level (0-3).
    rolls: each duel's roll, in order; field duels roll 0-20, siege duels 0 to 9 + the siege
        weight. The attacker wins a duel when the roll is below 10 (rule D-CQ-2).
    duels: one letter per duel, A when the attacker won it, D when the defender did.
    attackers_left, field_left, garrison_left: who is still standing at the end.
    in_field: how many of the duels were fought in the field (the rest were the siege).
    """

    attacking: int
    field: int
    garrison: int
    fort: int
    rolls: tuple[int, ...]
    duels: str
    attackers_left: int
    field_left: int
    garrison_left: int
    in_field: int

    @property
    def defending(self) -> int:
        return self.field + self.garrison

    @property
    def defenders_left(self) -> int:
        return self.field_left + self.garrison_left

    @property
    def captured(self) -> bool:
        return self.defenders_left == 0 and self.attackers_left > 0

    @property
    def field_duels(self) -> str:
        return self.duels[: self.in_field]

    @property
    def siege_duels(self) -> str:
        return self.duels[self.in_field :]


def fight(attacking: int, defending: int, fort: int, rng: Random) -> Battle:
    """Duel until one side has no armies: field armies first, then the garrison."""
    garrison = min(defending, GARRISON[fort])
    field = defending - garrison
    attackers, field_left, garrison_left = attacking, field, garrison
    rolls: list[int] = []
    duels: list[str] = []
    while attackers and field_left:
        roll = rng.randrange(ATTACK_WEIGHT + FIELD_WEIGHT)  # 0-9 attacker, 10-20 defender
        rolls.append(roll)
        if roll < ATTACK_WEIGHT:
            field_left -= 1
            duels.append("A")
        else:
            attackers -= 1
            duels.append("D")
    in_field = len(duels)
    while attackers and garrison_left:
        roll = rng.randrange(ATTACK_WEIGHT + SIEGE_WEIGHT[fort])
        rolls.append(roll)
        if roll < ATTACK_WEIGHT:
            garrison_left -= 1
            duels.append("A")
        else:
            attackers -= 1
            duels.append("D")
    return Battle(
        attacking, field, garrison, fort, tuple(rolls), "".join(duels), attackers, field_left, garrison_left, in_field
    )
