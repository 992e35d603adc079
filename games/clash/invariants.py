"""What the Clash of Empires rule book promises of every turn, for the invariant battery
(gm.testing.battery): each check returns a line per broken rule, named by the book's section and
the decision that reads it, [] when the turn keeps it.

Money, victory points and troops change only as an event of the turn says, at the book's price;
nothing goes below zero; no seat has more than 100 troops on the board (nor has it when a unit goes
on); the neutrals never act, grow or pass their 100 green cubes; a territory without troops
belongs to nobody; combat loses what the Combat Rules say; one action a seat a round, none
on a 6; the roll before the actions, which run in the order of play, and a 6 pays every player
once; moves only to an adjacent territory; core territories fixed once claimed; claiming shares
the board out in turns; the game ends after its last round with the most VP winning; and every
event, replayed on the board in its turn, finds the board it says and leaves the one the turn
ends with. Besides: only a failed order's reason and a claim drawn by lot are kept to their own
seat (D-ALL-5); only the game's players and the neutrals hold troops, only its players core
territories; one die a round, 1 to 6; claims in turns in the draft order; every player takes an
action (or is told why it failed) in a round without a 6, the one it picked, as written; and the
game_over event and the outcome name the most VP, with every seat's VP as its score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from gm.core.model import Event, JSONObject, Order, TurnResult

from .board import NEUTRAL, controlled, core_of, order_of_play, places, troops_of
from .orders import TROOP_COST
from .rules import outcome
from .scenario import NEUTRAL_CUBES

MONEY = "Money (Game Summary, D-CE-3)"
VP = "Victory points (Game Summary, Combat Rules, D-CE-2, D-CE-4)"
TROOPS = "Troops (Setting up, Recruit, Combat Rules, Revolt, D-CE-4, D-CE-5)"
LIMIT = "100 cubes per player (List of Components, FAQ, D-CE-3)"
CONTROL = "Control (FAQ: no units, nobody controls it)"
PRICES = "Prices (Roll phase, Pass, Recruit $2, D-CE-2, D-CE-3)"
COMBAT = "Combat Rules (D-CE-4)"
REVOLT = "Revolt (D-CE-5)"
ACTIONS = "One action a round (Action phase, D-CE-2, D-ALL-4)"
CLAIMING = "Setting up the game, 1 (D-CE-1)"
PLACING = "Setting up the game, 2: 20 units"
END = "End of the game (D-CE-6)"
ADJACENT = "Moves to an adjacent territory (Action phase, Move)"
CORES = "Core territories are those claimed at set-up (D-CE-1)"
ROUND = "The order of a round (Game Summary, Roll phase then Action phase, D-ALL-4)"
NEUTRALS = "Neutral troops (List of Components: 100 green cubes; D-CE-1: they never act)"
BOARD = "The board, event by event (Recruit, Revolt, Move, Combat Rules, control, D-CE-4, D-CE-5)"
HIDDEN = "A failed order's reason to its own seat alone (D-ALL-5)"
WHO = "Who may hold what (FAQ, control; D-CE-1, core territories are claimed by players)"
ROLL = "One die per round (Roll phase, D-CE-2)"
TURNS = "Each player takes turns claiming a territory (Setting up the game, 1)"
EVERY = "Every player takes an action each round (Action phase, D-ALL-3, D-ALL-4)"
ORDERED = "The action is the one the player picked (Action phase: Pass, Recruit, Revolt, Move)"

ACTION_KINDS = ("pass", "recruit", "revolt", "move", "battle")


def invariants(before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
    """Every rule of the book the turn from `before` to result.state broke."""
    after, events = result.state, result.events
    checks: tuple[Callable[[JSONObject, JSONObject, tuple[Event, ...]], list[str]], ...] = (
        _money,
        _victory_points,
        _troops,
        _limit,
        _neutrals,
        _control,
        _prices,
        _combat,
        _revolts,
        _actions,
        _adjacent,
        _cores,
        _round_order,
        _claiming,
        _placing,
        _end,
        _board,
        _hidden,
        _who,
        _roll,
        _claim_turns,
        _every_seat,
    )
    found = [line for check in checks for line in check(before, after, events)]
    return found + _as_ordered(before, orders, events)  # the one check that reads the orders


def _of(events: Iterable[Event], *kinds: str) -> list[JSONObject]:
    return [e.data for e in events if e.kind in kinds]


def _money(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Money is never below $0 (players start with $0) and changes only by a pass, a 6's bonus
    or a recruit's price."""
    change: Counter[str] = Counter()
    for data in _of(events, "pass", "bonus"):
        change[data["seat"]] += data["money"]
    for data in _of(events, "recruit"):
        change[data["seat"]] -= data["cost"]
    found = []
    for seat, now in after["seats"].items():
        money, was = now["money"], before["seats"][seat]["money"]
        if money < 0:
            found.append(f"{MONEY}: {seat} has ${money}")
        if money - was != change[seat]:
            found.append(f"{MONEY}: {seat}'s money went from ${was} to ${money}; the events explain {change[seat]:+}")
    return found


def _victory_points(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """VP are never negative and come only from a 6 (1 VP each) and a captured territory (1 VP)."""
    change: Counter[str] = Counter()
    for data in _of(events, "bonus"):
        change[data["seat"]] += data["vp"]
    for data in _of(events, "battle"):
        change[data["attacker"]] += data["vp"]
    found = []
    for seat, now in after["seats"].items():
        vp, was = now["vp"], before["seats"][seat]["vp"]
        if vp < 0 or vp - was != change[seat]:
            found.append(f"{VP}: {seat}'s VP went from {was} to {vp}; the events explain {change[seat]:+}")
    return found


def _troops(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each side's troops change only as placed, recruited, lost in combat or removed by a revolt
    (a move only moves them); no territory holds fewer than none."""
    change: Counter[str] = Counter()
    for data in _of(events, "place", "recruit"):
        change[data["seat"]] += data["troops"]
    for data in _of(events, "spread"):
        change[data["seat"]] += data["units"]
    for data in _of(events, "battle"):
        change[data["attacker"]] -= data["attacker_losses"]
        change[data["defender"]] -= data["defender_losses"]
    for data in _of(events, "revolt"):
        change[data["victim"]] -= 1
    found = [f"{TROOPS}: {code} holds {t['troops']}" for code, t in after["territories"].items() if t["troops"] < 0]
    for side in [*after["seating"], NEUTRAL]:
        was, now = troops_of(before, side), troops_of(after, side)
        if now - was != change[side]:
            found.append(f"{TROOPS}: {side}'s troops went from {was} to {now}; the events explain {change[side]:+}")
    return found


def _limit(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """No seat has more troops on the board than its cubes (the scenario's unit_limit, 100), at
    the end of the turn nor when a unit goes on the board: "The player may no longer place unit
    cubes until some unit cubes are removed from the board" (FAQ), so losses later in the round
    do not make up for a recruit past the limit."""
    limit = after["scenario"]["unit_limit"]
    found = [
        f"{LIMIT}: {seat} has {troops_of(after, seat)} troops on the board, the limit is {limit}"
        for seat in after["seating"]
        if troops_of(after, seat) > limit
    ]
    on_board = Counter({seat: troops_of(before, seat) for seat in before["seating"]})
    for event in events:
        data, kind = event.data, event.kind
        if kind == "battle":
            on_board[data["attacker"]] -= data["attacker_losses"]
            on_board[data["defender"]] -= data["defender_losses"]
        elif kind == "revolt":
            on_board[data["victim"]] -= 1
        elif kind in ("place", "recruit", "spread"):
            on_board[data["seat"]] += data["units"] if kind == "spread" else data["troops"]
            if on_board[data["seat"]] > limit:
                found.append(
                    f"{LIMIT}: {data['seat']}'s {kind} put it at {on_board[data['seat']]} troops, past {limit}"
                )
    return found


def _neutrals(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The neutral troops never act, so they never grow, and they never pass their 100 cubes."""
    was, now = troops_of(before, NEUTRAL), troops_of(after, NEUTRAL)
    found = []
    if now > NEUTRAL_CUBES:
        found.append(f"{NEUTRALS}: {now} neutral troops on the board")
    if now > was:
        found.append(f"{NEUTRALS}: the neutral troops grew from {was} to {now}")
    found += [
        f"{NEUTRALS}: the neutral troops took a {e.kind} action"
        for e in events
        if e.kind in ACTION_KINDS and NEUTRAL in (e.data.get("seat"), e.data.get("attacker"))
    ]
    return found


def _control(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A territory with troops is controlled by their owner; one without troops by nobody."""
    found = []
    for code, territory in after["territories"].items():
        owned, troops = territory["owner"] is not None, territory["troops"] > 0
        if owned != troops:
            found.append(f"{CONTROL}: {code} has {territory['troops']} troops and owner {territory['owner']}")
    return found


def _prices(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A pass gains $1; a troop costs $2; a 6 pays each seat 1 VP and $1 a territory it controls
    (the actions wait for the next round, so the board is the one the round began with)."""
    found = [f"{PRICES}: {d['seat']} gained ${d['money']} for a pass" for d in _of(events, "pass") if d["money"] != 1]
    found += [
        f"{PRICES}: {d['seat']} paid ${d['cost']} for {d['troops']} troops"
        for d in _of(events, "recruit")
        if d["cost"] != TROOP_COST * d["troops"]
    ]
    for data in _of(events, "bonus"):
        held = len(controlled(before, data["seat"]))
        if (data["vp"], data["money"]) != (1, held):
            found.append(
                f"{PRICES}: {data['seat']} got {data['vp']} VP and ${data['money']} on a 6 for {held} territories"
            )
    return found


def _combat(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The defender loses one troop per attacker, the attacker one per defender at the start
    (no side more than it has); the attacker takes the territory, and 1 VP, only when no
    defender is left and an attacker is."""
    found = []
    for data in _of(events, "battle"):
        attacking, defending = data["attacking"], data["defending"]
        lost = (min(attacking, defending), min(defending, attacking))
        taken = defending == lost[0] and attacking > lost[1]
        if (data["defender_losses"], data["attacker_losses"], data["captured"], data["vp"]) != (
            *lost,
            taken,
            int(taken),
        ):
            found.append(
                f"{COMBAT}: {attacking} attack {defending} in {data['to']}: losses {data['attacker_losses']} "
                f"and {data['defender_losses']}, captured {data['captured']}, {data['vp']} VP"
            )
        if data["defender"] == data["attacker"]:
            found.append(f"{COMBAT}: {data['attacker']} attacked its own {data['to']}")
    return found


def _revolts(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A revolt removes one enemy (or neutral) troop from one of the seat's core territories."""
    found = []
    for data in _of(events, "revolt"):
        if data["territory"] not in core_of(before, data["seat"]) or data["victim"] in (None, data["seat"]):
            found.append(f"{REVOLT}: {data['seat']} removed a troop of {data['victim']} from {data['territory']}")
    return found


def _actions(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """In a round each seat takes at most one action, none when the die shows 6; then the order
    of play starts one seat later (a 6 draws the next starting player instead)."""
    if before["phase"] != "play":
        return []
    taken = Counter(
        e.data["attacker"] if e.kind == "battle" else e.data["seat"] for e in events if e.kind in ACTION_KINDS
    )
    rolls = _of(events, "roll")
    if len(rolls) != 1:  # _roll tells
        return []
    [roll] = rolls
    found = [f"{ACTIONS}: {seat} took {n} actions in round {roll['round']}" for seat, n in taken.items() if n > 1]
    if roll["die"] == 6 and taken:
        found.append(f"{ACTIONS}: round {roll['round']} rolled a 6, yet {', '.join(sorted(taken))} acted")
    if roll["die"] != 6 and after["phase"] == "play":
        sequence = order_of_play(before)
        if after["start"] != sequence[1 % len(sequence)]:
            found.append(f"{ACTIONS}: after {before['start']} started, {after['start']} starts the next round")
    drawn = [data["seat"] for data in _of(events, "start_player")]
    if roll["die"] == 6 and drawn != [after["start"]]:
        found.append(f"{ACTIONS}: round {roll['round']} rolled a 6, drew {drawn}, and {after['start']} starts next")
    return found


def _adjacent(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A move, and so an attack, goes "from one territory to another adjacent territory"."""
    neighbours = {code: set(t["neighbours"]) for code, t in places(after).items()}
    return [
        f"{ADJACENT}: {data.get('seat', data.get('attacker'))} moved from {data['from']} to {data['to']}"
        for data in _of(events, "move", "battle")
        if data["to"] not in neighbours.get(data["from"], set())
    ]


def _cores(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Core territories are the ones claimed at set-up: once claiming is over they never change
    hands (a conquest or a revolt moves troops, not homes)."""
    if before["phase"] == "claim":
        return []
    return [
        f"{CORES}: {code}'s core went from {territory['core_of']} to {after['territories'][code]['core_of']}"
        for code, territory in before["territories"].items()
        if after["territories"][code]["core_of"] != territory["core_of"]
    ]


def _round_order(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The die is rolled before anyone acts; on a 6 every player gains its bonus once; otherwise
    the players act one after another in the order of play from the starting player."""
    if before["phase"] != "play":
        return []
    kinds = [e.kind for e in events]
    found = []
    if "roll" in kinds and any(k in ACTION_KINDS for k in kinds[: kinds.index("roll")]):
        found.append(f"{ROUND}: an action came before the roll of round {before['round']}")
    paid = Counter(data["seat"] for data in _of(events, "bonus"))
    if paid and paid != Counter(before["seating"]):
        found.append(f"{ROUND}: on a 6 the bonuses went to {dict(paid)}, not once to every player")
    position = {seat: i for i, seat in enumerate(order_of_play(before))}
    acting = [
        position[e.data["attacker"] if e.kind == "battle" else e.data["seat"]] for e in events if e.kind in ACTION_KINDS
    ]
    if acting != sorted(acting):
        found.append(f"{ROUND}: the actions ran out of the order of play {order_of_play(before)}")
    return found


def _claiming(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Players claim in turns until every territory that can be claimed is: each seat's core
    territories are as many as any other's, or one fewer."""
    if before["phase"] != "claim":
        return []
    cores = Counter(t["core_of"] for t in after["territories"].values() if t["core_of"] is not None)
    claimable = [t["code"] for t in after["scenario"]["territories"] if t["claimable"]]
    found = [
        f"{CLAIMING}: {code} is left unclaimed" for code in claimable if after["territories"][code]["core_of"] is None
    ]
    counts = [cores[seat] for seat in after["seating"]]
    if max(counts) - min(counts) > 1:
        found.append(f"{CLAIMING}: the seats claimed {counts} territories")
    return found


def _placing(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each player gets 20 units (start_units): a seat places no more, and none fewer while the
    unit limit allows and a territory is left where no troops stand, seat after seat in the
    order of play (D-ALL-4), only in the placing turn; no money or VP is earned before round 1."""
    if before["phase"] != "place" and _of(events, "place", "spread"):
        return [f"{PLACING}: units were placed in the {before['phase']} phase"]
    if before["phase"] not in ("claim", "place"):
        return []
    placed: Counter[str] = Counter()
    for data in _of(events, "place"):
        placed[data["seat"]] += data["troops"]
    for data in _of(events, "spread"):
        placed[data["seat"]] += data["units"]
    units, limit = after["scenario"]["start_units"], after["scenario"]["unit_limit"]
    found = [f"{PLACING}: {seat} placed {n} units" for seat, n in placed.items() if n > units]
    room = any(t["troops"] == 0 for t in after["territories"].values())
    if before["phase"] == "place" and room:
        found += [
            f"{PLACING}: {seat} placed {placed[seat]} of its {owed} units"
            for seat in after["seating"]
            if placed[seat] != (owed := min(units, limit - troops_of(before, seat)))
        ]
    position = {seat: i for i, seat in enumerate(order_of_play(before))}
    placing = [position[data["seat"]] for data in _of(events, "place", "spread")]
    if placing != sorted(placing):
        found.append(f"{PLACING}: the units were placed out of the order of play {order_of_play(before)}")
    found += [
        f"{PLACING}: {seat} has ${s['money']} and {s['vp']} VP before round 1"
        for seat, s in after["seats"].items()
        if s["money"] or s["vp"]
    ]
    return found


def _end(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The game ends when its rounds (30) have passed, not before; "the winner is the player with
    the most victory points", a tie shared (D-CE-6): the game_over event and the outcome gm
    reports both name them, with every seat's VP as its score."""
    overs = _of(events, "game_over")
    if before["phase"] == "over":  # "When 30 rounds have passed, the game ends": nothing more is played
        return [] if after == before and not overs else [f"{END}: a turn after the end changed the game"]
    if before["phase"] != "play":
        return [f"{END}: the game ended before round 1"] if after["phase"] == "over" or overs else []
    last = before["round"] >= before["rounds"]
    if last != (after["phase"] == "over") or (not last and after["round"] != before["round"] + 1):
        return [f"{END}: round {before['round']} of {before['rounds']} led to {after['phase']} round {after['round']}"]
    if not last:
        return [f"{END}: game_over in round {before['round']} of {before['rounds']}"] if overs else []
    vp = {seat: after["seats"][seat]["vp"] for seat in after["seating"]}
    best = max(vp.values())
    winners = [seat for seat in after["seating"] if vp[seat] == best]
    if len(overs) != 1:
        return [f"{END}: the last round gave {len(overs)} game_over events"]
    [over], result, found = overs, outcome(after), []
    if (over["winners"], over["scores"], over["tie"]) != (winners, vp, len(winners) > 1):
        found.append(f"{END}: {over['winners']} win on {over['scores']} (tie {over['tie']}); the VP are {vp}")
    if result is None or sorted(result.winners) != sorted(winners) or dict(result.scores) != vp:
        found.append(f"{END}: the outcome is {result}; the most VP are {winners}'")
    return found


class _Board:
    """The territories as the turn's events change them, one event at a time (for _board)."""

    def __init__(self, state: JSONObject) -> None:
        self.sides = {code: [t["owner"], t["troops"]] for code, t in state["territories"].items()}

    def holder(self, code: str) -> str | None:
        owner, troops = self.sides[code]
        return owner if troops > 0 else None

    def troops(self, code: str) -> int:
        return int(self.sides[code][1])

    def add(self, side: str, code: str, count: int) -> None:
        self.sides[code] = [side, self.troops(code) + count]

    def take(self, code: str, count: int) -> None:
        left = self.troops(code) - count
        self.sides[code] = [self.sides[code][0] if left else None, left]


def _board(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each event finds the board it says, when it happens: units are placed where no other
    troops stand; a recruit is on a territory the seat controls ("Pick a territory you
    control"); a revolt takes one troop of the territory's holder, another than the seat; a
    move leaves a territory the seat holds, with no more troops than are there, and is combat
    exactly when "you move into a territory controlled by an opponent", which defends with "all
    the units in a region during the start of the battle"; the survivors of a capture move in,
    the others go back (D-CE-4); an empty territory is taken without combat (D-CE-5). Replayed
    in order, the events leave the board the turn ends with."""
    board, found = _Board(before), []
    for event in events:
        data, kind = event.data, event.kind
        if kind in ("place", "recruit", "spread"):
            placed = data["placed"] if kind == "spread" else {data["territory"]: data["troops"]}
            for code, count in placed.items():
                allowed = (data["seat"],) if kind == "recruit" else (None, data["seat"])
                if board.holder(code) not in allowed:
                    found.append(f"{BOARD}: {data['seat']}'s {kind} in {code}, held by {board.holder(code)}")
                board.add(data["seat"], code, count)
        elif kind == "revolt":
            code, who = data["territory"], board.holder(data["territory"])
            if who in (None, data["seat"]) or who != data["victim"] or board.troops(code) - 1 != data["left"]:
                found.append(f"{BOARD}: {data['seat']}'s revolt in {code} ({data['victim']}) found {who} there")
            board.take(code, 1)
        elif kind in ("move", "battle"):
            found += _board_move(board, kind, data)
    for code, territory in after["territories"].items():
        if (board.holder(code), board.troops(code)) != (territory["owner"], territory["troops"]):
            found.append(
                f"{BOARD}: the events leave {code} to {board.holder(code)} with {board.troops(code)}, "
                f"the turn ends with {territory['owner']} {territory['troops']}"
            )
    return found


def _board_move(board: _Board, kind: str, data: JSONObject) -> list[str]:
    seat, source, target = (data["seat"] if kind == "move" else data["attacker"]), data["from"], data["to"]
    count = data["troops"] if kind == "move" else data["attacking"]
    found = []
    if board.holder(source) != seat or not 0 < count <= board.troops(source):
        found.append(
            f"{BOARD}: {seat} moved {count} from {source}, held by {board.holder(source)} with {board.troops(source)}"
        )
    defender = board.holder(target)
    if kind == "move":
        if defender not in (None, seat) or data["took"] != (defender is None):
            found.append(f"{BOARD}: {seat} moved into {target}, held by {defender}, without combat")
        board.take(source, count)
        board.add(seat, target, count)
        return found
    if defender in (None, seat) or defender != data["defender"] or data["defending"] != board.troops(target):
        found.append(
            f"{BOARD}: {seat} fought {data['defending']} of {data['defender']} in {target}, "
            f"where {defender} held {board.troops(target)}"
        )
    board.take(source, count)
    board.take(target, min(data["defender_losses"], board.troops(target)))
    survivors = count - data["attacker_losses"]
    if data["captured"]:
        board.add(seat, target, survivors)
    elif survivors:
        board.add(seat, source, survivors)
    return found


def _hidden(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Clash is open information but for a failed order's reason and a claim drawn by lot, which
    their own seat alone reads (D-ALL-5); everything else every seat reads."""
    found = []
    for e in events:
        own = e.kind in ("order_failed", "claim_draw")
        if (own and e.seats != (e.data.get("seat"),)) or (not own and e.seats is not None):
            found.append(f"{HIDDEN}: a {e.kind} event of {e.data.get('seat')} is seen by {e.seats or 'everyone'}")
    return found


def _who(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Troops on the board are a player's of this game or the neutrals' (a seat nobody took
    holds nothing); core territories belong to players of this game, the scenario's
    unclaimable ones to nobody; the starting player is a player of this game."""
    seats, found = set(after["seating"]), []
    claimable = {t["code"]: t["claimable"] for t in after["scenario"]["territories"]}
    for code, territory in after["territories"].items():
        if territory["owner"] not in (*seats, NEUTRAL, None):
            found.append(f"{WHO}: {code} is held by {territory['owner']}, no player of this game")
        core = territory["core_of"]
        if core not in (*seats, None) or (
            core is not None and after["scenario"]["setup"] == "claim" and not claimable[code]
        ):
            found.append(f"{WHO}: {code} is a core territory of {core}")
    if after["start"] not in seats:
        found.append(f"{WHO}: {after['start']} starts the next round")
    return found


def _roll(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A round rolls one die, once, showing 1 to 6, for that round; only a 6 pays its bonus and
    draws a starting player; set-up rolls none, and no player acts before round 1."""
    rolls, sixes = _of(events, "roll"), [e.kind for e in events if e.kind in ("bonus", "start_player")]
    if before["phase"] != "play":
        acts = sorted({e.kind for e in events if e.kind in ACTION_KINDS})
        return [
            f"{ROLL}: {kind} in the {before['phase']} phase"
            for kind in (*(["roll"] if rolls else []), *acts, *sorted(set(sixes)))
        ]
    if len(rolls) != 1:
        return [f"{ROLL}: round {before['round']} rolled {len(rolls)} dice"]
    [roll] = rolls
    if not 1 <= roll["die"] <= 6 or roll["round"] != before["round"]:
        return [f"{ROLL}: round {before['round']} rolled {roll['die']} for round {roll['round']}"]
    if roll["die"] != 6 and sixes:
        return [f"{ROLL}: round {before['round']} rolled {roll['die']}, yet {', '.join(sorted(set(sixes)))} came of it"]
    return []


def _claim_turns(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The players claim one territory at a time, in turns in the draft order, each a
    territory nobody had claimed; claiming happens only in the claiming turn."""
    claims = _of(events, "claim")
    if before["phase"] != "claim":
        return [f"{TURNS}: {len(claims)} claims in the {before['phase']} phase"] if claims else []
    [draft] = [data["order"] for data in _of(events, "draft_order")] or [[]]
    found = []
    if sorted(draft) != sorted(before["seating"]):
        found.append(f"{TURNS}: the draft order {draft} is not the players {before['seating']}")
    taken: set[str] = set()
    for n, claim in enumerate(claims):
        due = draft[n % len(draft)] if draft else None
        code = claim["territory"]
        if claim["seat"] != due or claim["pick"] != n + 1:
            found.append(f"{TURNS}: pick {claim['pick']} went to {claim['seat']}, the turn of {due}")
        if code in taken or before["territories"][code]["core_of"] is not None:
            found.append(f"{TURNS}: {claim['seat']} claimed {code}, claimed already")
        if after["territories"][code]["core_of"] != claim["seat"]:
            found.append(f"{TURNS}: {claim['seat']} claimed {code}, a core of {after['territories'][code]['core_of']}")
        taken.add(code)
    return found


def _every_seat(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """In a round without a 6 every player takes an action: one that is carried out, or one
    that fails and is reported to it; a player that sends none passes (README, Choices 3)."""
    if before["phase"] != "play" or any(data["die"] == 6 for data in _of(events, "roll")):
        return []
    acted = {e.data["attacker"] if e.kind == "battle" else e.data["seat"] for e in events if e.kind in ACTION_KINDS}
    failed = {data["seat"] for data in _of(events, "order_failed")}
    return [
        f"{EVERY}: {seat} took no action and was told of none"
        for seat in before["seating"]
        if seat not in acted | failed
    ]


def _as_ordered(before: JSONObject, orders: dict[str, list[Order]], events: tuple[Event, ...]) -> list[str]:
    """ "A player takes one of the following actions": the one it picked, as it picked it.
    "Pass: Gain $1"; "Recruit: Pick a territory you control. Place any number of troops there";
    "Revolt: Pick an enemy troop on one of your core territories"; "Move: You may move any
    number of troops from one territory to another adjacent territory". A player's first
    action order of the round is its action: carried out on the territories and with the
    number it names (ALL: what is there), or failed and told to it (D-ALL-3); a player that
    sends none passes (README, Choices 3)."""
    if before["phase"] != "play" or any(data["die"] == 6 for data in _of(events, "roll")):
        return []
    acts: dict[str, list[Event]] = {}
    for e in events:
        if e.kind in ACTION_KINDS:
            acts.setdefault(e.data["attacker"] if e.kind == "battle" else e.data["seat"], []).append(e)
    found = []
    for seat in before["seating"]:
        picked = [o for o in orders.get(seat, []) if o.verb in ("PASS", "RECRUIT", "REVOLT", "MOVE")]
        done = acts.get(seat, [])
        if len(done) != 1:
            continue  # none: _every_seat tells whether it was told why; more: _actions
        [event] = done
        d = event.data
        fine = _carries_out(picked[0], event) if picked else event.kind == "pass"
        if not fine:
            asked = picked[0].text if picked else "no action"
            found.append(f"{ORDERED}: {seat} picked {asked}; the round saw: {d.get('text', event.kind)}")
    return found


def _carries_out(order: Order, event: Event) -> bool:
    """Whether an action event is the order carried out: its kind, territories and number."""
    d = event.data
    if order.verb == "PASS":
        return event.kind == "pass"
    if order.verb == "RECRUIT":
        return event.kind == "recruit" and (d["territory"], d["troops"]) == tuple(order.args)
    if order.verb == "REVOLT":
        return event.kind == "revolt" and d["territory"] == order.args[0]
    count = d["troops"] if event.kind == "move" else d.get("attacking")
    return (
        event.kind in ("move", "battle")
        and (d["from"], d["to"]) == tuple(order.args[:2])
        and order.args[2] in ("ALL", count)
    )
