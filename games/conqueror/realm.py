"""Conqueror! end of a turn: cultural spread, winter pay, rebellion, lost capitals, score."""

from __future__ import annotations

from gm.core.model import JSONObject

from .board import NEUTRAL, Board, alive, armies_words, control, nation, owned
from .economy import (
    DESERTION_LOSS,
    SPREAD_ABOVE,
    TYPE_NEUTRAL,
    TYPE_PROVINCE,
    cultural_power,
    influence_gained,
    lose,
    prestige_for,
    province_score,
    share_gains,
    support_cost,
)
from .moves import relocate_capital
from .turn import Turn


def distance_to_capital(turn: Turn, code: str) -> int:
    owner = turn.provinces[code]["owner"]
    if owner == NEUTRAL:
        return 0
    return turn.board.distance(turn.seats[owner]["capital"], code)


def spread_culture(turn: Turn) -> None:
    """Each pair of neighbours: the one with the greater cultural power, if above 160, adds its
    owner's influence in the other (rule D-CQ-8). Powers are taken before any point moves."""
    provinces = turn.provinces
    power = {code: cultural_power(provinces[code], distance_to_capital(turn, code)) for code in turn.board.order}
    for code, value in power.items():
        provinces[code]["power"] = value
    wanted: dict[str, dict[str, int]] = {}
    for a in turn.board.order:
        owner = provinces[a]["owner"]
        if owner == NEUTRAL or power[a] <= SPREAD_ABOVE:
            continue
        for b in turn.board.neighbours[a]:
            if power[a] > power[b]:
                kind = TYPE_NEUTRAL if provinces[b]["owner"] == NEUTRAL else TYPE_PROVINCE
                points = influence_gained(
                    turn.seats[owner]["prestige"],
                    power[a],
                    power[b],
                    provinces[a]["population"],
                    provinces[b]["population"],
                    TYPE_PROVINCE,
                    kind,
                )
                into = wanted.setdefault(b, {})
                into[owner] = into.get(owner, 0) + points
    won: dict[str, dict[str, int]] = {}
    for b in turn.board.order:
        if b in wanted:
            got = share_gains(provinces[b]["influence"], wanted[b], turn.parties())
            for owner, points in got.items():
                won.setdefault(owner, {})[b] = points
    for owner in turn.state["seating"]:
        if owner in won:
            _influence_event(turn, owner, won[owner])


def _influence_event(turn: Turn, owner: str, gains: dict[str, int]) -> None:
    # Shown to the nation whose culture spreads, alone: a nation sees a province's attitude to
    # its owner and to itself, and in its own provinces only to itself ("Whenever you're looking
    # at a foreign province ..."), so another's gains are not its to read (D-ALL-5).
    where = ", ".join(f"+{n} in {turn.board.label(b)}" for b, n in gains.items())
    turn.add(
        "influence",
        f"The culture of {nation(turn.state, owner)} spreads its influence: {where}.",
        (owner,),
        seat=owner,
        gains=gains,
    )


def support_bill(state: JSONObject, board: Board, seat: str) -> dict[str, int]:
    """Next winter's pay per province of a nation (rule D-CQ-5); provinces that cost nothing are
    left out."""
    capital = state["seats"][seat]["capital"]
    bill = {}
    for code in owned(state, seat):
        province = state["provinces"][code]
        cost = support_cost(province["armies"], province["population"], board.distance(capital, code))
        if cost:
            bill[code] = cost
    return bill


def winter(turn: Turn) -> None:
    """Winter pay: armies that cannot be paid desert, one at a time from the dearest province
    (then map order), each costing 5 control there, until the rest can be paid (rule D-CQ-5)."""
    for seat in alive(turn.state):
        me = turn.seats[seat]
        bill = support_bill(turn.state, turn.board, seat)
        owed = sum(bill.values())
        deserted: dict[str, int] = {}
        while sum(bill.values()) > me["gold"]:
            code = max(bill, key=lambda c: turn.board.distance(me["capital"], c))
            province = turn.provinces[code]
            province["armies"] -= 1
            lose(province["influence"], seat, DESERTION_LOSS)
            deserted[code] = deserted.get(code, 0) + 1
            bill = support_bill(turn.state, turn.board, seat)
        paid = sum(bill.values())
        me["gold"] -= paid
        who = nation(turn.state, seat)
        text = f"Winter: {who}'s troops cost {owed} gold; {who} pays {paid}"
        if deserted:
            gone = ", ".join(f"{armies_words(n)} in {turn.board.label(c)}" for c, n in deserted.items())
            text += f", and unpaid troops desert: {gone}"
            turn.add("desertion", f"Unpaid troops of {who} desert: {gone}.", seat=seat, deserted=deserted)
        turn.add(
            "winter",
            text + f". The treasury holds {me['gold']} gold.",
            (seat,),
            seat=seat,
            owed=owed,
            paid=paid,
            deserted=deserted,
            gold=me["gold"],
        )


def rebellion(turn: Turn) -> None:
    """A province whose owner's control is below 20 and which holds fewer armies than its
    population rebels: it turns neutral with its population's worth of armies (rule D-CQ-7)."""
    for code in turn.board.order:
        province = turn.provinces[code]
        owner = province["owner"]
        if owner == NEUTRAL or control(province) >= 20 or province["armies"] >= province["population"]:
            continue
        was = province["armies"]
        province.update(owner=NEUTRAL, armies=province["population"], item="SOLDIERS", target=None, progress=0)
        turn.add(
            "rebellion",
            # Below 20% is the rule (D-CQ-7); the exact control is the owner's, which a seat
            # without influence there sees only as a word (view.known, D-ALL-5).
            f"{turn.board.label(code)} rebels against {nation(turn.state, owner)} "
            f"(control below 20%, {armies_words(was)} against a "
            f"population of {province['population']}) and turns neutral with "
            f"{armies_words(province['armies'])}.",
            seat=owner,
            province=code,
            armies=province["armies"],
            was=was,
        )
        if turn.seats[owner]["capital"] == code:
            relocate_capital(turn, owner)


def score(turn: Turn) -> None:
    """Every nation's score and prestige at the end of the turn (score table, rule D-CQ-8)."""
    for seat in turn.state["seating"]:
        me = turn.seats[seat]
        if not me["alive"]:
            me.update(score=0)
        else:
            me["score"] = (
                sum(province_score(turn.provinces[c], c == me["capital"]) for c in owned(turn.state, seat))
                + me["gold"] // 2
            )
            me["prestige"] = prestige_for(me["score"])
