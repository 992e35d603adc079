"""One land battle by rule D-EMP-5, with the collateral damage of rule D-EMP-6."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Battle:
    """The numbers of one land battle; every property is the rule's arithmetic.

    attacking: A, the attacking armies (after an ambush took its toll).
    armies: the defending armies; population: the area's population before the battle (p0).
    fort: the fort level that counts (0 for an ambush, whose armies are out in the field).
    terrain: the terrain bonus; entrenched: 1 when entrenched against the attacker's area.
    """

    attacking: int
    armies: int
    population: int
    fort: int
    terrain: int
    entrenched: int = 0

    @property
    def defence(self) -> int:
        """D = defending armies + population + fort level + terrain bonus (+ 1 entrenched)."""
        return self.armies + self.population + self.fort + self.terrain + self.entrenched

    @property
    def attacker_losses(self) -> int:
        # floor(D/2), and the weaker side also loses floor(|A-D|/2); never more than it has.
        a, d = self.attacking, self.defence
        return min(a, d // 2 + ((d - a) // 2 if a < d else 0))

    @property
    def defender_losses(self) -> int:
        a, d = self.attacking, self.defence
        return min(self.armies, a // 2 + ((a - d) // 2 if d < a else 0))

    @property
    def survivors(self) -> int:
        return self.attacking - self.attacker_losses

    @property
    def defenders_left(self) -> int:
        return self.armies - self.defender_losses

    @property
    def captured(self) -> bool:
        """No defending army left and at least one attacker standing."""
        return self.defenders_left == 0 and self.survivors > 0

    @property
    def collateral(self) -> int:
        """Rule D-EMP-6: min(population, floor((attacker losses + defender losses) / 4))."""
        return min(self.population, (self.attacker_losses + self.defender_losses) // 4)


def needed_to_capture(armies: int, population: int, fort: int, terrain: int, entrenched: int, most: int) -> int | None:
    """The fewest attacking armies (up to `most`) that capture the area, or None."""
    for attacking in range(1, most + 1):
        if Battle(attacking, armies, population, fort, terrain, entrenched).captured:
            return attacking
    return None
