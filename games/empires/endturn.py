"""The end of an Empires turn: the implicit ARMY ALL, income, supply and dispersals (D-EMP-2/3),
the census (D-EMP-8), eliminations (D-EMP-14) and the victory check (D-EMP-9..13)."""

from __future__ import annotations

from gm.core import census, victory, vp
from gm.core.model import JSONObject

from .actions import Turn, build
from .board import NEUTRAL, alive, income, nation, plural, supply
from .orders import ARMY_COST


def end_turn(turn: Turn) -> None:
    for seat in alive(turn.state):
        army_all(turn, seat)
        finances(turn, seat)
    take_census(turn)
    eliminate(turn)
    judge(turn)


def army_all(turn: Turn, seat: str) -> None:
    """The implicit 17th action: leftover BPs become reserve armies, 3 BPs each."""
    count = turn.bps(seat) // ARMY_COST
    if count:
        build(turn, seat, count, "Action 17 (ARMY ALL)")


def finances(turn: Turn, seat: str) -> None:
    """BPs for next turn = income + leftover - supply; a shortfall disperses armies (D-EMP-3)."""
    state = turn.state
    books = state["books"][seat]
    leftover = turn.bps(seat)
    books.update(leftover=leftover, income=income(state, seat), supply=supply(state, seat))
    balance = books["income"] + leftover - books["supply"]
    dispersed = _disperse(state, seat, -balance) if balance < 0 else {}
    books.update(dispersed=dispersed, next=max(0, balance))
    state["countries"][seat]["bps"] = max(0, balance)
    text = (
        f"{nation(state, seat)}: income {plural(books['income'], 'BP')}, supply {plural(books['supply'], 'BP')}, "
        f"{plural(leftover, 'BP')} left over; {plural(max(0, balance), 'BP')} for next turn."
    )
    if dispersed:
        where = ", ".join(f"{n} in {turn.board.label(c)}" for c, n in dispersed.items())
        text += f" {plural(-balance, 'army')} could not be supplied and disperse: {where}."
    turn.event(
        "finances",
        text,
        (seat,),
        seat=seat,
        **{k: books[k] for k in ("leftover", "income", "supply", "next")},
        dispersed=dispersed,
    )


def _disperse(state: JSONObject, seat: str, shortfall: int) -> dict[str, int]:
    # One army at a time from the area with the largest excess over its population, ties by
    # area code; supply is the sum of the excesses, so there are always enough.
    gone: dict[str, int] = {}
    mine = {c: a for c, a in state["areas"].items() if a["owner"] == seat}
    for _ in range(shortfall):
        code = min(mine, key=lambda c: (-(mine[c]["armies"] - mine[c]["population"]), c))
        if mine[code]["armies"] <= mine[code]["population"]:
            break
        mine[code]["armies"] -= 1
        gone[code] = gone.get(code, 0) + 1
    return dict(sorted(gone.items()))


def take_census(turn: Turn) -> None:
    """At the end of a census turn, 1 VP per owned land area with population (D-EMP-8)."""
    state = turn.state
    if not census.is_census(state[census.STATE_KEY], turn.number):
        return
    populated: dict[str, int] = {}
    for area in state["areas"].values():
        if area["owner"] not in (None, NEUTRAL) and area["population"] > 0:
            populated[area["owner"]] = populated.get(area["owner"], 0) + 1
    changes = census.census_points(populated, alive(state))
    turn.vp += changes
    state["last_census"] = turn.number
    turn.event(
        "census",
        f"Turn {turn.number} was a census turn: every country scores 1 VP for each "
        "land area it owns that has population.",
        None,
        turn=turn.number,
    )


def eliminate(turn: Turn) -> None:
    """A country with no land areas, or with no BPs and no income, is out (D-EMP-14); its
    areas turn neutral with their armies, and its reserve and BPs are lost."""
    state = turn.state
    state["vp"] = vp.apply(state["vp"], turn.vp)
    for seat in alive(state):
        mine = [a for a in state["areas"].values() if a["owner"] == seat]
        if not victory.is_eliminated(len(mine), turn.bps(seat), income(state, seat)):
            continue
        for area in mine:
            area["owner"] = NEUTRAL
        state["countries"][seat].update(bps=0, reserve=0)
        state["victory"]["eliminated"][seat] = turn.number
        why = "it has no land areas left" if not mine else "it has no BPs and no income"
        turn.event("eliminated", f"{nation(state, seat)} is eliminated: {why}.", None, seat=seat, turn=turn.number)


def judge(turn: Turn) -> None:
    """Rule D-EMP-13: check the wins after the VP changes; warn, withdraw, or end the game."""
    state = turn.state
    record = state["victory"]
    now = victory.standing(state["vp"], alive(state), record["target"])
    verdict = victory.judge(record["warning"], turn.number, census.is_census(state[census.STATE_KEY], turn.number), now)
    record.update(warning=verdict.warning, leader=now.leader)
    # The conditions that held when the warning was given: the GM's record. No report names
    # them: a runaway tells that every other country has at most half the leader's VP, a
    # knockout bounds the sum of theirs, and the book's warning says only that "a possible
    # win has been achieved" (11.6; the others' VP are theirs, 11.3, D-ALL-5).
    if verdict.news == "warning":
        record["holds"] = list(now.holds)
    elif verdict.warning is None:
        record["holds"] = []
    if verdict.news == "warning":
        turn.event("warning", _warning_text(state, now), None, leader=now.leader, vp=now.top)
    elif verdict.news == "withdrawn":
        turn.event(
            "warning_withdrawn",
            "No win condition holds at this census: the warning is withdrawn and the game goes on.",
            None,
        )
    elif verdict.over:
        finish(turn, verdict)


def _warning_text(state: JSONObject, now: victory.Standing) -> str:
    return (
        f"Possible win: {nation(state, now.leader)} leads with {now.top} VP, and a win condition holds. "
        "The game ends at the end of the next census turn if any win condition holds then."
    )


def finish(turn: Turn, verdict: victory.Verdict) -> None:
    state = turn.state
    record = state["victory"]
    record.update(winner=verdict.winner, condition=verdict.condition, ended=turn.number)
    record["discounts"] = victory.earned_discounts(state["seating"], verdict.winner, verdict.condition)
    state["phase"] = "over"
    if verdict.winner is None:
        text = "Every country has been eliminated: the game is over and nobody wins."
    else:
        text = (
            f"The game is over: {nation(state, verdict.winner)} wins a {verdict.condition} win "
            f"with {state['vp'][verdict.winner]} VP at the census of turn {turn.number}."
        )
    turn.event("game_over", text, None, winner=verdict.winner, condition=verdict.condition, scores=dict(state["vp"]))
