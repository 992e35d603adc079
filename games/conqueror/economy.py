"""Conqueror! formulas: productivity, prices, support, cultural power, influence, score."""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import cast

from gm.core.model import JSONObject

from .board import NEUTRAL, control

# Integers throughout; exact Fractions where a formula divides, rounded down unless a function
# says otherwise (rule D-ALL-2).

CULTURE_WORDS = {1: "primitive", 2: "developed", 3: "advanced"}
FORT_WORDS = {0: "none", 1: "fort", 2: "keep", 3: "castle"}
CONTROL_WORDS = ("rebellious", "restless", "content", "supportive", "devoted")
INFLUENCE_WORDS = ("hostile", "suspicious", "neutral", "sympathetic", "friendly")

# The production menu (rule D-CQ-4): labour per unit; FARMS cost (population + 1)² each.
COSTS: dict[str, int | None] = {
    "TAXES": 1,
    "SOLDIERS": 5,
    "DIPLOMAT": 5,
    "FORT": 50,
    "KEEP": 100,
    "CASTLE": 150,
    "FARMS": None,
    "DEVELOP": 60,
    "ADVANCE": 135,
}
REPEATED = ("TAXES", "SOLDIERS", "DIPLOMAT", "FARMS")  # the others are built once, then TAXES
ITEM_WORDS = {
    "TAXES": "levy taxes",
    "SOLDIERS": "recruit soldiers",
    "DIPLOMAT": "send diplomats",
    "FORT": "build a fort",
    "KEEP": "build a keep",
    "CASTLE": "build a castle",
    "FARMS": "build farms",
    "DEVELOP": "develop culture",
    "ADVANCE": "advance culture",
}
# Control table: what finishing an item does to the owner's control (per unit for diplomats).
CONTROL_GAIN = {"DIPLOMAT": 10, "FORT": 10, "KEEP": 10, "CASTLE": 10, "DEVELOP": 5, "ADVANCE": 10}
CONTROL_COST_PER_TURN = {"TAXES": 1, "SOLDIERS": 1}
CONQUEST_LOSS = 10
DESERTION_LOSS = 5
SURCHARGE = {1: 100, 2: 50, 3: 25}  # rush-buy surcharge in % by culture (rule D-CQ-4)

# Battle (rule D-CQ-2): duel weights attacker : defender, and garrison sizes by fortification.
ATTACK_WEIGHT = 10
FIELD_WEIGHT = 11
SIEGE_WEIGHT = {1: 15, 2: 20, 3: 30}
GARRISON = {0: 0, 1: 1, 2: 2, 3: 3}

SCORE = {"army": 1, "population": 3, "culture": 5, "resource": 2, "fort": 1, "capital": 20}
SPREAD_ABOVE = 160  # cultural power must be strictly above this to spread (rule D-CQ-8)
TYPE_PROVINCE, TYPE_NEUTRAL = 3, 1
WINTER_EVERY = 4  # rule D-CQ-5


def band(level: int, words: tuple[str, ...]) -> str:
    """The word for a 0-100 level; bands are lower-bound inclusive, so 20 is the second (D-CQ-6)."""
    return words[min(max(level, 0) // 20, 4)]


def productivity_word(labour: int) -> str:
    if labour <= 0:
        return "unproductive"
    return ("barely", "somewhat", "moderately", "highly", "extremely")[min(labour // 5, 4)]


def productivity(province: JSONObject, conquered: bool | None = None) -> int:
    """Labour units a province gives this turn (rule D-CQ-3), rounded down once at the end."""
    base = (province["population"] + province["resources"]) * province["culture"]
    halves = 1
    if province["conquered"] if conquered is None else conquered:
        halves *= 2
    if province["owner"] == NEUTRAL:
        halves *= 2
    return floor(Fraction(base * (100 + control(province)), 200 * halves))


def is_winter(turn: int) -> bool:
    return turn % WINTER_EVERY == 0


def fixed_cost(item: str) -> int:
    """The labour of one unit of an item other than FARMS, whose cost grows with the population."""
    cost = COSTS[item]
    assert cost is not None, f"{item} has no fixed cost"
    return cost


def unit_cost(item: str, population: int) -> int:
    return (population + 1) ** 2 if item == "FARMS" else fixed_cost(item)


def labour_for(item: str, units: int, population: int, progress: int) -> int:
    """Labour still missing to finish `units` of an item (farms grow the population each)."""
    if item == "FARMS":
        # (population + 1)² + ... + (population + units)², summed in closed form: a BUY line may
        # name 999,999 units, and the check prices every line of a turn file
        total = _squares_to(population + units) - _squares_to(population)
    else:
        total = units * fixed_cost(item)
    return max(total - progress, 0)


def _squares_to(n: int) -> int:
    """1² + 2² + ... + n², exactly (n(n+1)(2n+1) is always divisible by 6)."""
    return n * (n + 1) * (2 * n + 1) // 6


def buy_price(labour: int, culture: int) -> int:
    """Gold to rush-buy labour with the culture surcharge, rounded up (rule D-CQ-4)."""
    return -(-labour * (100 + SURCHARGE[culture]) // 100)


def requirement(item: str, province: JSONObject) -> str | None:
    """What an item needs that the province lacks, as the end of a sentence; None when it can."""
    culture, fort = province["culture"], province["fort"]
    needs = {
        "DIPLOMAT": (culture < 2, "a diplomat needs developed culture"),
        "FORT": (fort >= 1, f"it already has a {FORT_WORDS[fort]}"),
        "KEEP": (fort != 1, "a keep is built on a fort" if fort == 0 else f"it already has a {FORT_WORDS[fort]}"),
        "CASTLE": (fort != 2, "a castle is built on a keep" if fort < 2 else "it already has a castle"),
        "DEVELOP": (culture != 1, f"its culture is already {CULTURE_WORDS[culture]}"),
        "ADVANCE": (
            culture != 2,
            "culture is advanced from developed" if culture == 1 else "its culture is already advanced",
        ),
    }
    lacking, why = needs.get(item, (False, ""))
    if lacking:
        return why
    if item == "KEEP" and culture < 2:
        return "a keep needs developed culture"
    if item == "CASTLE" and culture < 3:
        return "a castle needs advanced culture"
    return None


def support_cost(armies: int, population: int, distance: int) -> int:
    """Winter pay of one province (rule D-CQ-5)."""
    return max(armies - population, 0) * (distance + 1)


def cultural_power(province: JSONObject, distance: int) -> int:
    """(culture x control) - 5 x distance from the owner's capital (neutral: no distance)."""
    return cast(int, province["culture"] * control(province) - 5 * distance)


def influence_gained(
    prestige: int, power_a: int, power_b: int, pop_a: int, pop_b: int, type_a: int, type_b: int
) -> int:
    """Points the stronger province adds in the weaker one; divisors clamped to 1 (rule D-CQ-8)."""
    ratio = (
        Fraction(prestige)
        * Fraction(power_a, max(power_b, 1))
        * Fraction(pop_a, max(pop_b, 1))
        * Fraction(type_a, max(type_b, 1))
    )
    return max(floor(ratio), 0)


def gain(influence: dict[str, int], party: str, amount: int, parties: list[str]) -> int:
    """Raise one party's influence, taking the points from every other party that has some, in
    equal shares (rule D-CQ-6). Returns the points gained; the influence still sums to 100."""
    amount = min(amount, 100 - influence.get(party, 0))
    if amount <= 0:
        return 0
    _take_equally(influence, amount, [q for q in parties if q != party])
    influence[party] = influence.get(party, 0) + amount
    return amount


def share_gains(influence: dict[str, int], wanted: dict[str, int], parties: list[str]) -> dict[str, int]:
    """Several nations gaining in one province at once (cultural spread, rule D-CQ-8; diplomats
    arriving together, D-CQ-6). Each gain is first capped at what the gainer lacks of 100. The
    points come only from parties that gain nothing there, in equal shares; when they hold fewer
    than wanted, the gainers split what they hold in proportion to what each wanted, rounded
    down, and the points left go one each to the largest wants, a group of equal wants only when
    every one of them can have one (else those points stay with the givers). So the result does
    not depend on which gainer is counted first, and equal wants get equal points. A lone gainer
    gets what `gain` gives it. Returns the points each gainer got."""
    wanted = {p: min(n, 100 - influence.get(p, 0)) for p, n in wanted.items()}
    wanted = {p: n for p, n in wanted.items() if n > 0}
    givers = [q for q in parties if q not in wanted]
    pool = sum(influence.get(q, 0) for q in givers)
    total = sum(wanted.values())
    got = dict(wanted)
    if total > pool:
        got = {p: n * pool // total for p, n in wanted.items()}
        left = pool - sum(got.values())
        for want in sorted(set(wanted.values()), reverse=True):
            tied = [p for p in wanted if wanted[p] == want]
            if len(tied) > left:
                break
            for p in tied:
                got[p] += 1
            left -= len(tied)
    _take_equally(influence, sum(got.values()), givers)
    for p, n in got.items():
        influence[p] = influence.get(p, 0) + n
    return {p: n for p, n in got.items() if n > 0}


def _take_equally(influence: dict[str, int], amount: int, givers: list[str]) -> None:
    # Equal shares from every giver that has points; one that runs dry drops out and the others
    # give the rest; the last points (fewer than the givers) come one each from the largest.
    left = amount
    while left > 0:
        holders = [q for q in givers if influence.get(q, 0) > 0]
        if not holders:
            return
        share = left // len(holders)
        if share == 0:
            for q in sorted(holders, key=lambda q: -influence[q])[:left]:
                influence[q] -= 1
            return
        for q in holders:
            taken = min(share, influence[q])
            influence[q] -= taken
            left -= taken


def lose(influence: dict[str, int], party: str, amount: int) -> int:
    """Lower a party's influence; the neutral player gains what it loses (rule D-CQ-6)."""
    lost: int = min(amount, influence.get(party, 0))
    if lost <= 0 or party == NEUTRAL:
        return 0
    influence[party] -= lost
    influence[NEUTRAL] = influence.get(NEUTRAL, 0) + lost
    return lost


def province_score(province: JSONObject, capital: bool) -> int:
    return cast(
        int,
        province["armies"] * SCORE["army"]
        + province["population"] * SCORE["population"]
        + province["culture"] * SCORE["culture"]
        + province["resources"] * SCORE["resource"]
        + province["fort"] * SCORE["fort"]
        + (SCORE["capital"] if capital else 0),
    )


def prestige_for(score: int) -> int:
    """Baron (1) at the start, one level per 100 points of score, Emperor (6) at most (D-CQ-8)."""
    return min(1 + max(score, 0) // 100, 6)


PRESTIGE_WORDS = {1: "Baron", 2: "Count", 3: "Duke", 4: "Prince", 5: "King", 6: "Emperor"}
