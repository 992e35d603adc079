"""Leaving the game (rules D-MC-11, D-MC-12): the count of captured cities that makes an empire
capitulate, what a fallen empire leaves behind, and the empires left with no city at the end of
a round."""

from __future__ import annotations

from . import diplomacy, economy
from .turn import Turn

CAPITULATION_CITIES = 4  # "their Capital City and 4 of their Regular Cities"


def captured(turn: Turn, seat: str) -> list[str]:
    """The empire's cities captured by others that it does not hold now, each once: judged at
    the moment, so a city it got back (recaptured, returned by a peace treaty or by the fall of
    its holder) no longer counts, and one taken twice counts once (rule D-MC-11). A city
    abandoned since it was captured was never got back, and still counts."""
    cities = turn.cities
    return [cid for cid in dict.fromkeys(turn.seats[seat]["lost"]) if cities.get(cid, {}).get("owner") != seat]


def capitulates(turn: Turn, seat: str) -> bool:
    """Capital and 4 regular cities captured, or all its cities when it had fewer than 5."""
    me = turn.seats[seat]
    lost = captured(turn, seat)
    if not me["alive"] or me["capital"] not in lost:
        return False
    return len(lost) - 1 >= CAPITULATION_CITIES or not turn.cities_of(seat)


def capitulate(turn: Turn, seat: str, by: str) -> None:
    """The empire leaves the game. by: the empire whose capture made it capitulate (War
    Bounty's 300 E$ go to it); its E$ go to the captor of its capital."""
    me = turn.seats[seat]
    lost, owned = captured(turn, seat), turn.cities_of(seat)
    captor = me["captor"] or by
    if not turn.seats[captor]["alive"]:
        captor = by
    money = me["money"]
    turn.seats[captor]["money"] += money
    kept, freed = fall(turn, seat, "capitulated")
    text = (
        f"{turn.nation(seat)} capitulates: its capital and "
        + (f"{len(lost) - 1} more of its cities have" if owned else "all its cities have")
        + f" been captured ({', '.join(lost)}). {turn.nation(captor)}, captor of the capital, "
        f"receives its {money} E$; its troops are deleted and its wars end."
    )
    turn.add(
        "capitulation",
        text + _handed(turn, kept) + _freed(turn, freed),
        seat=seat,
        captor=captor,
        money=money,
        lost=lost,
        owned=owned,
        kept=[[cid, who] for cid, who in kept],
        freed=freed,
    )
    economy.bounty(turn, by, economy.BOUNTY_EMPIRE, f"defeating {turn.nation(seat)}", kind="empire", loser=seat)
    diplomacy.break_the_victors(turn)  # after the bounty: the alliance earned it before it broke


def after_peace(turn: Turn, signers: tuple[str, str]) -> None:
    """A peace may cede the last cities of an empire whose capital was captured: judged at that
    moment on the cities it owns (none) and has lost, every city it has is captured ("If an Empire
    has less than 5 Cities total, then all of the Empire's Cities have to be captured"), so it
    capitulates then, its E$ to the captor of its capital (rule D-MC-11). With that captor gone,
    nobody is owed them: it is out at the end of the round (judge_the_cityless)."""
    for seat in signers:
        captor = turn.seats[seat]["captor"]
        if captor and turn.seats[captor]["alive"] and capitulates(turn, seat):
            capitulate(turn, seat, captor)


def judge_the_cityless(turn: Turn) -> None:
    """ "An empire that owns no city at the end of a round is out of the game (its troops are
    removed and its land is free); nobody receives its E$" (rule D-MC-11)."""
    for seat in turn.state["seating"]:
        if not turn.seats[seat]["alive"] or turn.cities_of(seat):
            continue
        money = turn.seats[seat]["money"]
        _, freed = fall(turn, seat, "out (no city)")
        turn.add(
            "out",
            f"{turn.nation(seat)} holds no city at the end of round {turn.round} and is out of "
            f"the game: its troops are removed, its land is free, and nobody receives its {money} "
            f"E$.{_freed(turn, freed)}",
            seat=seat,
            money=money,
            freed=freed,
        )


def fall(turn: Turn, seat: str, fate: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Whichever way an empire leaves the game (fate says which, for the reports): its E$ are
    gone, its troops deleted, its cities under occupation pass to their occupiers and the others
    are abandoned, its land is free, its wars and agreements end, and every occupation it held
    ends at once (rule D-MC-12). Returns (cities handed over with their new owners, cities it
    occupied)."""
    turn.seats[seat].update(alive=False, money=0, fell=turn.round, fate=fate)
    for gid in [g for g, group in turn.groups.items() if group["owner"] == seat]:
        turn.remove(gid)
    kept = _hand_over(turn, seat)
    for i in turn.territory(seat):
        turn.claim(i, None)
    diplomacy.forget(turn, seat)
    freed = []
    for cid, city in turn.cities.items():
        if city["occupier"] == seat:
            # "its owner's again in full (treasury income, building, bonuses) from the next round"
            city.update(occupier=None, held=0, restored=turn.round + 1)
            freed.append(cid)
    return kept, freed


def _hand_over(turn: Turn, seat: str) -> list[tuple[str, str]]:
    """ "Each Empire retains the land and cities they occupy when the Empire capitulates": cities
    under occupation pass to the occupier; the others are abandoned with their railroads."""
    kept = []
    for cid in turn.cities_of(seat):
        city = turn.cities[cid]
        if city["occupier"] and turn.seats[city["occupier"]]["alive"]:
            who = city["occupier"]
            turn.pass_city(cid, who)
            for n in turn.board.around(turn.city_block(cid)):
                if turn.owner(n) == seat:
                    turn.claim(n, who)
            kept.append((cid, who))
        else:
            del turn.city_at[turn.city_block(cid)]
            del turn.cities[cid]
    turn.state["rails"] = [r for r in turn.state["rails"] if all(end in turn.cities for end in r["ends"])]
    return kept


def _handed(turn: Turn, kept: list[tuple[str, str]]) -> str:
    text = ""
    if kept:
        text = " Cities under occupation go to their occupiers: " + ", ".join(
            f"{cid} to {turn.nation(who)}" for cid, who in kept
        )
        text += "."
    return text + " Its other cities are abandoned and its land is free."


def _freed(turn: Turn, freed: list[str]) -> str:
    if not freed:
        return ""
    many = len(freed) > 1
    return (
        f" Its occupation{'s' if many else ''} of {', '.join(freed)} end{'' if many else 's'}; "
        f"{'they are their owners' if many else 'the city is its owner'}'s in full again from "
        f"round {turn.round + 1}."
    )
