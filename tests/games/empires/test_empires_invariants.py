"""games/empires/invariants.py: the turns of the cases keep the book's invariants, and a fault
planted in the end-of-turn check (an old reading of the warning put back, a wrong elimination)
is found and named."""

from __future__ import annotations

from pathlib import Path

import gm_games.empires
import pytest
from gm_games.empires import endturn, ruleset, view as empires_view
from gm_games.empires.invariants import invariants

from gm.core import census, victory
from gm.core.model import Event, TurnResult
from tests.games import case_turns

CASES = Path(gm_games.empires.__file__).parent / "cases"


def played_case(name: str) -> list[str]:
    """The invariants' findings on the turn a conformance case plays."""
    return case_turns.played_case(CASES, ruleset, name, invariants)


@pytest.mark.parametrize(
    "name",
    [
        "win-runaway-warning",
        "end-warning-stands-until-the-census",
        "end-warning-withdrawn",
        "end-not-on-the-warning-census",
        "end-at-the-next-census",
        "win-eliminated-this-turn-not-a-survivor",
        "elimination-no-land-areas",
        "elimination-no-bps-no-income",
        "elimination-areas-go-neutral-with-their-armies",
        "elimination-at-the-end-of-the-turn",
        "elimination-bps-keep-you-in",
        "elimination-income-keeps-you-in",
        "end-no-survivors",
        "order-of-play-skips-the-eliminated",
        "end-tie-at-the-census-withdraws",
        "end-knockout-counts-the-survivors-only",
        "end-knocked-out-on-the-last-census",
        "win-points-one-above-target",
        "win-lone-survivor-at-zero",
        "supply-shortfall-disperses",
        "supply-shortfall-tie-by-area-code",
    ],
)
def test_the_turns_of_the_cases_keep_the_invariants(name):
    assert played_case(name) == []


def test_a_warning_withdrawn_before_the_census_is_found(monkeypatch):
    """A reading that drops the warning on any turn no condition holds: 11.6 gives "a few turns
    to do something about it", up to the next census turn (D-EMP-13)."""
    judge = victory.judge

    def hasty(warning, turn, census_turn, now):
        return (
            victory.Verdict(None, "withdrawn")
            if warning is not None and not now.holds
            else judge(warning, turn, census_turn, now)
        )

    monkeypatch.setattr(victory, "judge", hasty)
    found = played_case("end-warning-stands-until-the-census")
    assert found and all(
        line.startswith("Victory conditions and game end (11.6, D-EMP-9..13): on turn 3") for line in found
    )


def test_a_warning_kept_past_its_census_is_found(monkeypatch):
    """A reading that keeps the warning standing when the census finds no win condition."""
    judge = victory.judge
    monkeypatch.setattr(
        victory,
        "judge",
        lambda warning, turn, census_turn, now: (
            victory.Verdict(warning) if warning else judge(warning, turn, census_turn, now)
        ),
    )
    found = played_case("end-warning-withdrawn")
    assert found and "the warning is 2, the book: None" in found[0]


def test_a_points_target_moved_during_the_game_is_found(monkeypatch):
    """11.6: the target is "set at the start of the game"."""
    resolve = ruleset.resolve

    def moving(state, orders, seeds):
        result = resolve(state, orders, seeds)
        result.state["victory"]["target"] += 1
        return result

    monkeypatch.setattr(ruleset, "resolve", moving)
    assert "the points target went from 40 to 41" in played_case("win-tie-at-the-top")[0]


def test_a_dispersal_from_the_wrong_area_is_found(monkeypatch):
    """D-EMP-3: the shortfall disperses "one at a time from the area with the largest excess
    (ties by area code)"; a reading that breaks the tie the other way is found."""

    def last_code_first(state, seat, shortfall):
        gone: dict[str, int] = {}
        mine = {code: area for code, area in state["areas"].items() if area["owner"] == seat}
        for _ in range(shortfall):
            code = max(mine, key=lambda c: (mine[c]["armies"] - mine[c]["population"], c))
            mine[code]["armies"] -= 1
            gone[code] = gone.get(code, 0) + 1
        return gone

    monkeypatch.setattr(endturn, "_disperse", last_code_first)
    assert played_case("supply-shortfall-tie-by-area-code") == [
        "Supply (D-EMP-3): AL's shortfall dispersed {'HIL': 1}; the largest excesses first give {'ALB': 1}"
    ]


ELIMINATION = "Elimination (11.1, D-EMP-14)"


def test_a_country_put_out_while_it_has_income_is_found(monkeypatch):
    """11.1: "a country is still in the game if it has income, even if it's all spent on supply
    so it's got no BPs"; a reading that puts out every country left with no BPs."""
    monkeypatch.setattr(endturn.victory, "is_eliminated", lambda areas, bps, income: areas == 0 or bps <= 0)
    found = played_case("elimination-income-keeps-you-in")
    assert f"{ELIMINATION}: CA is out with 3 areas, 0 BPs and income 8" in found


def test_an_elimination_told_to_its_country_alone_is_found(monkeypatch):
    """Eliminations are told to every seat (choice 14), each once."""
    event = endturn.Turn.event

    def private(self, kind, text, seats=None, **data):
        event(self, kind, text, (data["seat"],) if kind == "eliminated" else seats, **data)

    monkeypatch.setattr(endturn.Turn, "event", private)
    found = played_case("elimination-no-bps-no-income")
    assert found == [f"{ELIMINATION}: ['CA'] out on turn 1; every seat is told of []"]


def planted_in_elimination(monkeypatch, change) -> None:
    """After the real eliminate, `change` each area that changed hands there."""
    eliminate = endturn.eliminate

    def planted(turn):
        held = {code: area["owner"] for code, area in turn.state["areas"].items()}
        eliminate(turn)
        for code, area in turn.state["areas"].items():
            if area["owner"] != held[code]:
                change(area)

    monkeypatch.setattr(endturn, "eliminate", planted)


def test_an_eliminated_country_whose_armies_vanish_is_found(monkeypatch):
    """Choice 10: the areas of a country out turn neutral "with their armies"; a reading that
    disbands them is found."""
    planted_in_elimination(monkeypatch, lambda area: area.update(armies=0))
    found = played_case("elimination-areas-go-neutral-with-their-armies")
    assert (
        found[0] == "Armies (LEVY, ARMY, RESERVE, D-EMP-5, D-EMP-3): CA had 5 armies and has 3; the events explain +0"
    )
    # The area replay finds it too: the area went neutral with no armies, not with its own.
    assert len(found) == 2 and found[1].startswith(EACH_AREA) and "'armies': 2" in found[1]


def test_the_areas_of_a_country_out_going_elsewhere_is_found(monkeypatch):
    """Choice 10: the areas of a country out turn neutral, not to another country."""
    planted_in_elimination(monkeypatch, lambda area: area.update(owner="AL"))
    found = played_case("elimination-no-bps-no-income")
    assert (
        "Areas change hands by capture (D-EMP-5, D-EMP-14): CRN of CA, eliminated, went to AL, not to the neutrals"
        in found
    )


def test_no_survivors_with_a_winner_or_other_discounts_is_found(monkeypatch):
    """Choice 12: with every country out the game ends at once, nobody wins, and each earns 1."""
    monkeypatch.setattr(endturn.victory, "earned_discounts", lambda seats, winner, condition: dict.fromkeys(seats, 0))
    found = played_case("end-no-survivors")
    assert len(found) == 1 and "every country is out" in found[0]


def test_a_roundup_that_leads_with_a_country_out_is_found(monkeypatch):
    """11.3: the report gives "the current score of the current leader"; a view that ranks a
    country eliminated this turn (30 VP) above the surviving leader (20 VP) is found."""
    monkeypatch.setattr(empires_view, "alive", lambda state: list(state["seating"]))
    found = played_case("win-eliminated-this-turn-not-a-survivor")
    assert found == [
        "The roundup (11.3): the report gives the leader {'codes': ['BR'], 'vp': 30}; the leader is ['AL'] with 20 VP"
    ]


REPORTS = "Every report (11.6 warning, D-EMP-13, the end)"
END = "Victory conditions and game end (11.6, D-EMP-9..13)"


def test_a_report_without_the_standing_warning_is_found(monkeypatch):
    """11.6: "A warning is given in the game report when a possible win has been achieved", in
    every seat's report (D-EMP-13); a view that leaves it out is found, seat by seat."""
    monkeypatch.setattr(empires_view, "_warning", lambda state, record: None)
    found = played_case("win-runaway-warning")
    assert found == [f"{REPORTS}: {seat}'s report of turn 2 gives the warning None, not 2" for seat in ("AL", "CA")]


def test_an_end_told_to_the_winner_alone_is_found(monkeypatch):
    """The end is told to every seat (choice 14), once."""
    event = endturn.Turn.event

    def private(self, kind, text, seats=None, **data):
        event(self, kind, text, (data["winner"],) if kind == "game_over" else seats, **data)

    monkeypatch.setattr(endturn.Turn, "event", private)
    found = played_case("end-at-the-next-census")
    assert found == [f"{END}: the game is over: True; the end is told 1 times, to [('AL',)]"]


def test_an_end_that_crowns_a_country_out_is_found(monkeypatch):
    """The winner has the highest total of the surviving countries (D-EMP-9): a reading that
    ranks a country put out on the last census turn, with its 50 VP, is found."""
    monkeypatch.setattr(endturn, "alive", lambda state: list(state["seating"]))
    found = played_case("end-knocked-out-on-the-last-census")
    assert f"{END}: BR won a runaway win; the leader AL holds ['knockout']" in found


def test_a_census_not_recorded_as_the_last_is_found(monkeypatch):
    """11.3: a census is held on its turn; the state's last census is that turn from then on."""
    take_census = endturn.take_census

    def forgetful(turn):
        last = turn.state["last_census"]
        take_census(turn)
        turn.state["last_census"] = last

    monkeypatch.setattr(endturn, "take_census", forgetful)
    found = played_case("end-tie-at-the-census-withdraws")
    assert "Census turns (11.3, D-EMP-8): after turn 4 the last census is None, not 4" in found


def test_a_warning_that_names_the_wins_that_hold_is_found(monkeypatch):
    """The warning says a possible win was achieved (11.6), never which: a runaway or a knockout
    tells the others' VP (D-ALL-5, 11.3: only the leader's score is given)."""
    real = empires_view._warning

    def telling(state, record):
        seen = real(state, record)
        return dict(seen, holds=list(record["holds"])) if seen else seen

    monkeypatch.setattr(empires_view, "_warning", telling)
    found = played_case("end-warning-stands-until-the-census")
    assert found and all("names the conditions that held" in line for line in found)


def test_a_report_that_tells_the_next_census_is_found(monkeypatch):
    """11.3: "Census turns are not indicated in advance"; a view that gives the next one is found."""
    real = empires_view.view

    def telling(state, seat):
        return dict(real(state, seat), next_census=census.next_census(state["census"], state["turn"] - 1))

    monkeypatch.setattr(empires_view, "view", telling)
    monkeypatch.setattr("gm_games.empires.invariants.view", telling)
    found = played_case("win-runaway-warning")
    assert found == ["Census turns (11.3, D-EMP-8): the report of turn 2 changes with the census turns to come"]


def test_a_warning_kept_from_a_country_out_is_found(monkeypatch):
    """Every report carries the warning (D-EMP-13), that of a country out too: it still gets its
    report and still earns its bonus turn by the end."""
    real = empires_view.view

    def unfair(state, seat):
        seen = real(state, seat)
        return dict(seen, warning=None) if seat in state["victory"]["eliminated"] else seen

    monkeypatch.setattr("gm_games.empires.invariants.view", unfair)
    found = played_case("win-eliminated-this-turn-not-a-survivor")
    assert found == [f"{REPORTS}: BR's report of turn 2 gives the warning None, not 2"]


def case_turn(name):
    """The case `name`'s turn: the state before it, its orders and its result."""
    return case_turns.case_turn(CASES, ruleset, name)


with_event = case_turns.with_event


EACH_AREA = "Each area, action by action"
INTERLEAVED = "Actions interleaved by number in the order of play (D-EMP-1)"


@pytest.mark.parametrize(
    "name",
    [
        "battle-retreat",
        "battle-ambush",
        "battle-ambush-only-the-first-attack",
        "battle-ambush-toll-at-most-the-attackers",
        "defence-order-a-new-one-cancels-the-old",
        "levy-half-the-population",
        "move-and-attack-targets",
        "order-of-play-interleaved",
        "order-of-play-two-attacks-on-one-area",
        "retreat-to-an-area-taken-in-the-turn",
        "capture-collateral-wipes-out-the-gain",
        "raze-costs-one-bp-a-level",
        "fortify-cost-at-each-level",
        "income-supply-army-all",
    ],
)
def test_the_areas_replayed_action_by_action_keep_the_invariants(name):
    assert played_case(name) == []


def test_a_battle_that_counts_population_the_area_did_not_hold_is_found():
    """11.4 counts "one VP for each population captured": the battle's population is the one
    the area held then (D-EMP-7's p0), not one the event makes up (the VP follow the event)."""
    state, orders, result = case_turn("capture-gains-population")
    [battle] = [e.data for e in result.events if e.kind == "battle"]
    assert not [line for line in invariants(state, orders, result) if line.startswith(EACH_AREA)]
    bigger = battle["population"] + 1
    vp = {battle["attacker"]: bigger - battle["collateral"]}
    broken = with_event(result, "battle", population=bigger, defending=battle["defending"] + 1, vp=vp)
    found = [line for line in invariants(state, orders, broken) if line.startswith(EACH_AREA)]
    assert len(found) == 1 and f"{battle['to']} held" in found[0]


def test_a_levy_past_half_the_population_is_found():
    """ "LEVY turns half an area's population (rounded down) into armies": FEN's 5 give 2."""
    state, orders, result = case_turn("levy-half-the-population")
    broken = with_event(result, "levy", armies=3)
    found = [line for line in invariants(state, orders, broken) if line.startswith(EACH_AREA)]
    assert (
        found[0]
        == f"{EACH_AREA} (LEVY, GROW, FORTIFY, RAZE, RESERVE, MOVE, ATTACK, D-EMP-3, D-EMP-5, D-EMP-6): AL levied 3 from 5 in FEN"
    )


def test_a_move_into_an_area_not_owned_is_found():
    """ "MOVE goes to an area you own": a move event into the neutrals' MID is found, and so
    is one that sends more armies than the area holds."""
    state, orders, result = case_turn("move-and-attack-targets")
    [move] = [e.data for e in result.events if e.kind == "move"]
    elsewhere = next(code for code, area in state["areas"].items() if area["owner"] not in ("AL", move["to"]))
    found = [line for line in invariants(state, orders, with_event(result, "move", to=elsewhere)) if EACH_AREA in line]
    assert any(f"AL's move in {elsewhere}, held by" in line for line in found)
    found = [line for line in invariants(state, orders, with_event(result, "move", armies=99)) if EACH_AREA in line]
    assert any(f"AL moved 99 from {move['from']}, which held" in line for line in found)


def test_actions_out_of_their_numbers_are_found():
    """D-EMP-1: "everyone's action 1, then everyone's action 2": AL's action 1 battle told as
    coming after BR's action 2 is found, and so is BR's action 2 run before AL's action 1."""
    state, orders, result = case_turn("order-of-play-interleaved")
    assert invariants(state, orders, result) == []
    first, second = [n for n, e in enumerate(result.events) if e.kind == "battle"]
    events = list(result.events)
    events[first], events[second] = events[second], events[first]
    swapped = TurnResult(result.state, tuple(events))
    found = [line for line in invariants(state, orders, swapped) if line.startswith(INTERLEAVED)]
    assert found and "came after action 2 of BR" in found[0]


READERS = "Who is told what (D-ALL-5: treasury and failed orders)"


def told_to(result, kind, seats):
    events = tuple(Event(e.kind, e.data, seats) if e.kind == kind else e for e in result.events)
    return TurnResult(result.state, events)


@pytest.mark.parametrize(
    ("name", "kind", "seats"),
    [
        ("gift-bps", "gift", None),
        ("gift-bps", "finances", None),
        ("army-costs-three", "army", ("AL", "BR")),
        ("move-and-attack-targets", "order_failed", None),
        ("grow-cost-by-terrain", "grow", ("BR",)),
    ],
)
def test_a_countrys_bps_or_failed_order_told_to_another_is_found(name, kind, seats):
    """D-ALL-5: a country's treasury, and its failed orders, reach its own seat alone (a gift
    its giver and receiver): each such event told to everyone, or to another, is found."""
    state, orders, result = case_turn(name)
    assert [line for line in invariants(state, orders, result) if line.startswith(READERS)] == []
    found = [line for line in invariants(state, orders, told_to(result, kind, seats)) if line.startswith(READERS)]
    assert found and all(f"a {kind} of " in line for line in found)


def test_a_battle_kept_from_the_country_defending_is_found():
    """A battle is "what happened on the board" for the country whose area it is fought in."""
    state, orders, result = case_turn("order-of-play-interleaved")
    found = [line for line in invariants(state, orders, told_to(result, "battle", ("BR",))) if READERS in line]
    # Battle 1 is AL's on the neutrals' Midmarch, battle 2 BR's on AL's Midmarch.
    assert found == [
        f"{READERS}: battle 1 is told to ['BR'], not to ['AL']",
        f"{READERS}: battle 2 is told to ['BR'], not to ['AL', 'BR']",
    ]


ORDERED = "Each action as ordered (ACTION WHERE WHERE-TO NUMBER)"


def test_an_action_other_than_its_order_is_found():
    """ "An order line has four fields: ACTION WHERE WHERE-TO NUMBER": AL's "2 ATTACK HIL MID 6"
    sends 6; a battle of 5 from it, or a move told as action 3 (AL's failed ATTACK FEN MID),
    is no order carried out as written."""
    state, orders, result = case_turn("move-and-attack-targets")
    assert [line for line in invariants(state, orders, result) if line.startswith(ORDERED)] == []
    [battle] = [e.data for e in result.events if e.kind == "battle"]
    fewer = with_event(result, "battle", attacking=battle["attacking"] - 1)
    found = [line for line in invariants(state, orders, fewer) if line.startswith(ORDERED)]
    assert found == [f"{ORDERED}: AL's action 2 (2 ATTACK HIL MID 6) carried out 5: {battle['text']}"]
    [move] = [e.data for e in result.events if e.kind == "move"]
    renumbered = with_event(result, "move", text=move["text"].replace("Action 4", "Action 3"))
    found = [line for line in invariants(state, orders, renumbered) if line.startswith(ORDERED)]
    assert found == [f"{ORDERED}: AL's action 3 is no order of its: {move['text'].replace('Action 4', 'Action 3')}"]
