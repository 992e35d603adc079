"""The rule book's invariants of Minecraft EMPIRES, checked on one resolved round: what must hold
whatever the orders and the dice, for the robot-game battery (issue 27). Each finding is one line
naming the rule it breaks; [] when all hold.

The round's events are read in order against the state before it, as an auditor reads a ledger:
every E$ that moves must move by an event at the book's price, every city that changes hands by
an event, and a capitulation must have the book's count of captured cities at that moment. Then
the state after the round is held to the limits and to what a fallen empire may keep."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from gm.core.model import Event, JSONObject, Order, TurnResult

from .world import board_of

ORIGINAL, WAR_BOUNTY, LAND_GAME = "original", "war-bounty", "land-game"
PRICES = {"transport": 40, "naval": 50}  # "Transport Infrastructure = 40 E$", "Naval Base = 50 E$"
BASE_PRICES = (20, 25)  # "Military Base = 20 E$ ... a second Military Base for a City costs 25 E$"
BOUNTIES = {"all_troops": 50, "city": 50, "empire": 300}  # War Bounty: "How to earn E$"
MAX_TROOPS, MAX_BASES, MAX_ALLIES, MAX_LINES, SPACING, MAX_STEPS = 6, 2, 3, 4, 6, 12
# "Grass/Plains ... a maximum 10 non-diagonal blocks per round", "Rock/Mountain ... 8",
# "Sand/Beach/Desert ... 8", "Snow ... 6" (the world's letters for them, rule D-MC-8).
TERRAIN_LIMITS = {".": 10, "^": 8, ":": 8, "*": 6}
START_MONEY = {ORIGINAL: 10, WAR_BOUNTY: 0, LAND_GAME: 0}  # "Start with 10 E$" / "0 E$"; Land: "E$ first round"
START_BLOCKS = 300  # War Bounty: "300 blocks of contiguous land"


def invariants(before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
    """Every rule-book invariant the round from `before` to `result` broke, one line each."""
    after = result.state
    if before["phase"] == "over":
        return [] if not result.events else ["Game end: a round was played after the game was over"]
    audit = Audit(before)
    for event in result.events:
        audit.read(event)
    return (
        audit.found
        + audit.close(after)
        + _the_fallen(after)
        + _alliances(after)
        + _agreements(before, after)
        + _limits(after, result.events)
        + _territory(before, after, result.events)
        + _occupations(after)
        + _trespass(before, after)
        + _capitulation_due(after)
        + _the_end(before, after)
        + _war_bounty_start(before)
        + _movement(before, after, result.events)
        + _far_land(before, after, result.events)
        + _founding(before, after, result.events)
        + _railroads(before, after, result.events)
    )


class Audit:
    """The round's events read in order from the state before it: each empire's E$ and every
    city's owner, infrastructure and occupier, as far as the events tell them."""

    def __init__(self, before: JSONObject):
        self.mode: str = before["options"]["mode"]
        self.amphibious: bool = before["options"]["amphibious"]
        self.retreat: bool = before["options"].get("retreat", True)  # before 1.2: always allowed
        self.board = board_of(before)
        self.round: int = before["round"]
        self.seats: JSONObject = before["seats"]
        self.money: dict[str, int] = {s: seat["money"] for s, seat in before["seats"].items()}
        self.lost: dict[str, list[str]] = {s: list(seat["lost"]) for s, seat in before["seats"].items()}
        self.cities: dict[str, dict[str, Any]] = {
            cid: _city_record(city, before["round"]) for cid, city in before["cities"].items()
        }
        self.routed = {s for s, seat in before["seats"].items() if seat.get("routed")}
        self.found: list[str] = []
        self.last_capture: tuple[str, str] | None = None
        self.moved: set[str] = set()
        self.centres: dict[str, str] = {f"{c['x']},{c['y']}": cid for cid, c in before["cities"].items()}
        self.alive = {s for s, seat in before["seats"].items() if seat["alive"]}
        self.captor: dict[str, str | None] = {s: seat.get("captor") for s, seat in before["seats"].items()}
        self.last_losses: dict[str, int] = {}

    def fail(self, text: str) -> None:
        self.found.append(text)

    def read(self, event: Event) -> None:
        reader = READERS.get(event.kind)
        if reader is not None:
            reader(self, event.data)

    def spend(self, seat: str, price: int, what: str) -> None:
        self.money[seat] -= price
        if self.money[seat] < 0:
            self.fail(f"E$ never negative: {seat} paid {price} E$ for {what} and has {self.money[seat]}")

    # -- what a city is now ----------------------------------------------------------------------
    def owned(self, seat: str) -> list[str]:
        return [cid for cid, city in self.cities.items() if city["owner"] == seat]

    def regular(self, seat: str) -> int:
        return sum(1 for cid in self.owned(seat) if cid != self.seats[seat]["capital"])

    def captured(self, seat: str) -> list[str]:
        return [cid for cid in dict.fromkeys(self.lost[seat]) if self.cities.get(cid, {}).get("owner") != seat]

    def pass_city(self, cid: str, new: str) -> None:
        self.cities[cid].update(owner=new, occupier=None, held=0)
        self.lost[new] = [c for c in self.lost[new] if c != cid]

    # -- income and prices (rules D-MC-1, D-MC-2, D-MC-15) ------------------------------------
    def _income(self, data: JSONObject) -> None:
        seat, amount = data["seat"], data["amount"]
        if amount != sum(line[1] for line in data["lines"]):
            self.fail(f"Income (rule D-MC-1): {seat}'s lines do not add up to {amount}")
        operating = sum(
            1
            for cid in self.owned(seat)
            if self.cities[cid]["treasury"]
            and not self.cities[cid]["occupier"]
            and self.cities[cid]["restored"] <= self.round
        )
        expected = self._expected_income(seat, operating, data["blocks"])
        if (data["treasuries"], amount) != (operating, expected):
            self.fail(
                f"Income (rules D-MC-1, D-MC-2, D-MC-12, D-MC-15): {seat} earned {amount} E$ from "
                f"{data['treasuries']} treasuries; the book gives {expected} from {operating}"
            )
        self.money[seat] = max(0, self.money[seat] + amount)  # upkeep takes E$ to 0, never below
        if data["money"] != self.money[seat]:
            self.fail(f"Income: {seat} has {data['money']} E$ after its income; the audit says {self.money[seat]}")

    def _expected_income(self, seat: str, treasuries: int, blocks: int) -> int:
        if self.mode == WAR_BOUNTY:
            return 0
        first = self.mode == LAND_GAME and self.round == 1  # "E$ first round at 5 E$" (rule D-MC-15)
        earns_land = (self.mode == LAND_GAME and not first) or self.round >= 11
        land = blocks // 10 if earns_land else 0
        return (5 if first else 0) + treasuries * treasuries + land - self.regular(seat) // 2

    def _land(self, data: JSONObject) -> None:
        if data["cost"] != (data["blocks"] + 1) // 2:
            self.fail(f"Purchasing Territory (rule D-MC-15): {data['blocks']} blocks cost {data['cost']} E$")
        self.spend(data["seat"], data["cost"], "land")

    def _city(self, data: JSONObject) -> None:
        seat, cid = data["seat"], data["city"]
        price = 10 * self.regular(seat) + 10
        if data["cost"] != price:
            self.fail(f"Regular City c = 10n+10 (rule D-MC-2): {seat} paid {data['cost']} E$ for {cid}, not {price}")
        self.spend(seat, data["cost"], cid)
        self.cities[cid] = _city_record({"owner": seat})
        self.centres[data["block"]] = cid

    def _capital(self, data: JSONObject) -> None:
        self.cities[data["city"]] = _city_record({"owner": data["seat"], "treasury": self.mode == ORIGINAL})
        self.centres[data["block"]] = data["city"]

    def _build(self, data: JSONObject) -> None:
        seat, cid, kind, cost = data["seat"], data["city"], data["kind"], data["cost"]
        city = self.cities[cid]
        if kind == "base":
            price = BASE_PRICES[min(city["bases"], 1)]
            if city["bases"] >= MAX_BASES:
                self.fail(f"Military Base: a third base in {cid} ('Up to 2 Military Bases')")
            city["bases"] += 1  # "Troops begin spawning the round after": not ready this round
        elif kind == "treasury":
            price = 5 * self._purchased(seat) + 20
            if self.mode != ORIGINAL:
                self.fail(f"Treasury: {seat} bought one in {self.mode} ('cannot purchase Treasuries')")
            if city["treasury"]:
                self.fail(f"Treasury: a second treasury in {cid} ('Only 1 Treasury can be built in each city')")
            city.update(treasury=True, treasury_by=seat)
        else:
            price = PRICES[kind]
            # "Only 1 Transport Infrastructure may be built in each city"; "Only 1 Naval Base"
            if city[kind]:
                self.fail(f"Purchasing Infrastructure: a second {kind} in {cid} ('Only 1 ... in each city')")
            city[kind] = True
        if cost != price:
            self.fail(f"Purchasing Infrastructure (rules D-MC-2, D-MC-15): {kind} in {cid} cost {cost} E$, not {price}")
        self.spend(seat, cost, f"{kind} in {cid}")

    def _purchased(self, seat: str) -> int:
        return sum(1 for cid in self.owned(seat) if self.cities[cid]["treasury_by"] == seat)

    def _rail(self, data: JSONObject) -> None:
        if data["bought"] % 5 or data["cost"] != data["bought"] // 5 * 40:
            self.fail(f"Railroads = 40 E$ for 5 pieces: {data['bought']} pieces cost {data['cost']} E$")
        if self.round <= 30:
            self.fail(f"Railroads: {data['seat']} built one in round {self.round} ('After 30 rounds')")
        self.spend(data["seat"], data["cost"], "a railroad")

    def _destroy(self, data: JSONObject) -> None:
        city = self.cities[data["city"]]
        # "1 round before an Attacker can successfully capture a City, the Defender has the
        # option to destroy the City's infrastructure": its owner, with the occupier's first
        # round counted (rule D-MC-6).
        if city["owner"] != data["seat"] or not city["occupier"] or city["held"] != 1:
            self.fail(
                f"Destroying City Infrastructure: {data['seat']} destroyed {data['city']} of {city['owner']}, "
                f"held {city['held']} round(s) by {city['occupier']}"
            )
        self.spend(data["seat"], 100, f"destroying {data['city']}")  # "at the cost of 100 E$"
        self.cities[data["city"]].update(
            bases=0, ready=0, treasury=False, treasury_by=None, transport=False, naval=False
        )

    def _payment(self, data: JSONObject) -> None:
        if data["amount"] < 1:
            self.fail(f"Payments (rule D-MC-14): {data['seat']} paid {data['amount']} E$")
        self.spend(data["seat"], data["amount"], f"a payment to {data['to']}")
        self.money[data["to"]] += data["amount"]

    def _alliance_left(self, data: JSONObject) -> None:
        # "a penalty of 15 E$, paid to each of the other member(s) of the Alliance"
        if data["paid"] != 15 * len(data["to"]):
            self.fail(f"Alliances: {data['seat']} paid {data['paid']} E$ to leave, not 15 to each of {data['to']}")
        self.spend(data["seat"], data["paid"], "leaving an alliance")
        for member in data["to"]:
            self.money[member] += 15

    def _bounty(self, data: JSONObject) -> None:
        seat, kind, amount, loser = data["seat"], data["kind"], data["amount"], data["loser"]
        if self.mode != WAR_BOUNTY:
            self.fail(f"War Bounty: a bounty paid in {self.mode}")
        if amount != BOUNTIES.get(kind, amount) or (kind == "troops" and amount % 2):
            self.fail(f"War Bounty, How to earn E$: a {kind} bounty of {amount} E$")
        if kind == "troops" and amount != 2 * self.last_losses.get(loser, 0):
            # "Defeat enemy troops: 2 E$ per each troop": the troops the battle just took
            self.fail(
                f"War Bounty, How to earn E$: {seat} earned {amount} E$ for troops of {loser}, "
                f"which lost {self.last_losses.get(loser, 0)} in the battle"
            )
        if kind == "all_troops":  # once per empire per game (rule D-MC-15)
            if loser in self.routed:
                self.fail(f"War Bounty (rule D-MC-15): the all-troops bounty for {loser} paid a second time")
            self.routed.add(loser)
        if kind == "city" and self.last_capture != (seat, loser):
            self.fail(f"War Bounty (rule D-MC-15): a city bounty to {seat} without a capture from {loser}")
        share, odd = divmod(amount, len(data["members"]))
        for member in data["members"]:
            self.money[member] += share + (odd if member == seat else 0)

    # -- cities changing hands ---------------------------------------------------------------------
    def _occupation(self, data: JSONObject) -> None:
        self.cities[data["city"]].update(occupier=data["seat"], held=0)

    def _occupation_ends(self, data: JSONObject) -> None:
        self.cities[data["city"]].update(occupier=None, held=0)

    def _occupation_count(self, data: JSONObject) -> None:
        city = self.cities[data["city"]]
        if city["occupier"] != data["seat"] or city["held"] != 0:
            self.fail(f"Capturing Cities (rule D-MC-6): {data['seat']} counted a round in {data['city']} held {city}")
        city["held"] = 1

    def _occupation_held(self, data: JSONObject) -> None:
        self.cities[data["city"]]["held"] = 0  # "If defending troops remain ... the count resets"

    def _capture(self, data: JSONObject) -> None:
        seat, loser, cid = data["seat"], data["loser"], data["city"]
        if self.cities[cid]["owner"] != loser:
            self.fail(f"Capturing Cities: {seat} captured {cid} from {loser}, which did not own it")
        record = self.cities[cid]
        if (record["occupier"], record["held"]) != (seat, 1):
            # "Attacking Troops must occupy the City Center for 2 consecutive rounds"
            self.fail(
                f"Capturing Cities (rule D-MC-6): {seat} captured {cid} held {record['held']} "
                f"round(s) by {record['occupier']} before this one"
            )
        if cid == self.seats[loser]["capital"]:
            self.captor[loser] = seat
        self.pass_city(cid, seat)
        self.lost[loser] = [*(c for c in self.lost[loser] if c != cid), cid]
        self.last_capture = (seat, loser)

    def _peace(self, data: JSONObject) -> None:
        for cid, new in data["cities"]:
            self.pass_city(cid, new)
        for cid, seat, held in data.get("occupied", []):  # a third empire's occupation goes on
            self.cities[cid].update(occupier=seat, held=held)
        for cid, since in data["quiet"]:
            self.cities[cid].update(occupier=None, held=0, spawns_from=since)

    def _capitulation(self, data: JSONObject) -> None:
        seat = data["seat"]
        lost, owned = self.captured(seat), self.owned(seat)
        capital = self.seats[seat]["capital"]
        # "their Capital City and 4 of their Regular Cities ... If an Empire has less than 5
        # Cities total, then all of the Empire's Cities have to be captured" (rule D-MC-11)
        if capital not in lost or (len(lost) < 5 and owned):
            self.fail(
                f"Capitulation (rule D-MC-11): {seat} capitulated owning {len(owned)} cities with "
                f"{len(lost)} captured ({', '.join(lost) or 'none'})"
            )
        if sorted(data["lost"]) != sorted(lost):
            self.fail(
                f"Capitulation (rule D-MC-11): {seat}'s captured cities are {lost}, the event says {data['lost']}"
            )
        if data["money"] != self.money[seat]:
            self.fail(f"Capitulation: {seat}'s {self.money[seat]} E$ went on as {data['money']}")
        captor = self.captor[seat]
        if captor not in self.alive and self.last_capture:
            captor = self.last_capture[0]
        if data["captor"] != captor:
            # "all E$ of that Empire are given to the player who captured the Capital City"
            self.fail(f"Capitulation: {seat}'s E$ went to {data['captor']}, not {captor}, its capital's captor")
        self.money[data["captor"]] += self.money[seat]  # "all E$ of that Empire are given to" the captor
        self._fall(seat, data["kept"], data["freed"])

    def _out(self, data: JSONObject) -> None:
        seat = data["seat"]
        if self.owned(seat):
            self.fail(f"Capitulation (rule D-MC-11): {seat} went out owning {self.owned(seat)}")
        if data["money"] != self.money[seat]:
            self.fail(f"Capitulation (rule D-MC-11): {seat}'s {self.money[seat]} E$ went out as {data['money']}")
        self._fall(seat, [], data["freed"])

    def _fall(self, seat: str, kept: list[list[str]], freed: list[str]) -> None:
        self.money[seat] = 0
        self.alive.discard(seat)
        for cid, who in kept:
            self.pass_city(cid, who)
        for cid in self.owned(seat):
            del self.cities[cid]  # abandoned
        for cid in freed:
            self.cities[cid].update(occupier=None, restored=self.round + 1)  # rule D-MC-12
        gone = [cid for cid, city in self.cities.items() if city["occupier"] == seat]
        if gone:
            self.fail(f"A dead empire's traces (rule D-MC-12): {seat} fell still occupying {gone}")

    def _move(self, data: JSONObject) -> None:
        # "traverse all terrain at a maximum of 12 blocks per round" (the most any bonus gives,
        # rule D-MC-3), one non-diagonal block a step; a railroad's ride is one hop between two
        # cities ("regardless of maximum block movement"). A group moves once a round (D-MC-9).
        gid, path = data["group"], [tuple(int(v) for v in block.split(",")) for block in data["path"]]
        steps = len(path) - 1
        apart = [(a, b) for a, b in zip(path, path[1:], strict=False) if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1]
        if steps > MAX_STEPS or (steps > 1 and apart):
            self.fail(f"Traversing Land (rule D-MC-3): {gid} moved {steps} blocks along {data['path']}")
        if gid in self.moved:
            self.fail(f"Moves (rule D-MC-9): {gid} moved twice in round {self.round}")
        if steps == 1 and apart:  # a ride: "You are not allowed to use an enemy Railroad"
            ends = [self.cities.get(self.centres.get(block, ""), {}).get("owner") for block in data["path"]]
            if ends != [data["seat"]] * 2:
                self.fail(f"Railroads: {data['seat']}'s {gid} rode {data['path']} between cities of {ends}")
        self.moved.add(gid)

    def _spawn(self, data: JSONObject) -> None:
        # "Spawns 1 Troop per Round per every Military Base in each City."
        cid, troops = data["city"], data["troops"]
        city = self.cities.get(cid, {})
        if troops and city.get("owner") != data["seat"]:
            # "Military Bases in the occupied City spawn Troops for the defending owner of the City"
            self.fail(f"Military Base: {cid} of {city.get('owner')} spawned {troops} troops for {data['seat']}")
        bases = city.get("ready", 0)  # "Troops begin spawning the round after the Military Base is purchased."
        if troops > bases:
            self.fail(
                f"Military Base: {cid} spawned {troops} troops with {bases} bases bought before "
                f"round {self.round} ('1 Troop per Round per every'; 'the round after')"
            )
        if troops and city.get("spawns_from", 0) > self.round:
            # "If a Peace Treaty is signed before the 2 rounds are over, the Military Base will
            # not spawn any troops for the remaining rounds." (rule D-MC-14)
            self.fail(f"Capturing Cities, Exception (rule D-MC-14): {cid} spawned {troops} troops after a peace")

    # -- combat (rule D-MC-5) ----------------------------------------------------------------------
    def _combat(self, data: JSONObject) -> None:
        a, d = data["attacking"], data["defending"]
        self.last_losses = {data["attacker"]: data["attacker_losses"], data["defender"]: data["defender_losses"]}
        if not 1 <= a <= MAX_TROOPS or not 0 <= d <= MAX_TROOPS:
            self.fail(f"Combat: {a} against {d} ('The maximum number of Troops ... is 6')")
        water = [self.board.water[self.board.index(*(int(v) for v in data[end].split(",")))] for end in ("from", "to")]
        # "Amphibious Attack: An attack from water onto land or land onto water", an optional rule
        if data["amphibious"] != (self.amphibious and water[0] != water[1]):
            self.fail(
                f"Amphibious Attacks* (rules D-MC-5, D-MC-7): {data['from']} onto {data['to']} counted "
                f"amphibious: {data['amphibious']}, the option is {'on' if self.amphibious else 'off'}"
            )
        ends = [tuple(int(v) for v in data[end].split(",")) for end in ("from", "to")]
        inside = data["from"] == data["to"] and data["to"] in self.centres
        if abs(ends[0][0] - ends[1][0]) + abs(ends[0][1] - ends[1][1]) != 1 and not inside:
            # "Two opposing Troops ... must be adjacent to each other in order to initiate a
            # battle"; or the occupier against the "Defending troops in the city" whose centre it
            # occupies ("The Attacker must defeat all Defending troops in the city during that Round")
            self.fail(f"Combat: {data['attacker']} attacked {data['to']} from {data['from']}, not adjacent")
        faces = [v for v in (*data["attacker_dice"], *data["defender_dice"]) if not 1 <= v <= 6]
        if faces:  # "Each combatant receives a number of dice" (the book's "6 Dice"): faces 1 to 6
            self.fail(f"Combat (rule D-MC-5): dice showing {faces}")
        if data["retreated"] and data["retreat_to"]:
            rx, ry = (int(v) for v in data["retreat_to"].split(","))
            if abs(rx - ends[1][0]) + abs(ry - ends[1][1]) != 1:
                # "The Defender may choose to pull Troops back one block before the battle begins."
                self.fail(f"Combat, Retreating: troops pulled back from {data['to']} to {data['retreat_to']}")
        if data["retreated"] and not self.retreat:
            # "the Defender must choose the number of Troops to fight and/or Retreat*"
            self.fail(
                f"Combat, Retreating (rules D-MC-7, D-MC-9): {data['retreated']} troops pulled back to "
                f"{data['retreat_to']} with the option retreat off"
            )
        if d == 0 or not data["attacker_dice"]:
            return
        penalty = a if data["amphibious"] else 0
        sums = (sum(data["attacker_dice"]) - penalty, sum(data["defender_dice"]))
        if (len(data["attacker_dice"]), len(data["defender_dice"])) != (a, d) or sums != (
            data["attacker_sum"],
            data["defender_sum"],
        ):
            self.fail(f"Combat (rule D-MC-5): dice or sums do not match {a} against {d}")
        if sums[0] == sums[1]:
            losses = (a // 2, d // 2)  # "both combatants lose half ... rounded down"
        else:
            losses = (0, d) if sums[0] > sums[1] else (a, 0)  # "The losing player's ... troops are lost"
        if (data["attacker_losses"], data["defender_losses"]) != losses:
            self.fail(
                f"Combat (rule D-MC-5): {sums[0]} against {sums[1]} lost {data['attacker_losses']}/{data['defender_losses']}"
            )

    # -- after the round -----------------------------------------------------------------------
    def close(self, after: JSONObject) -> list[str]:
        found = [
            f"E$ explained by events: {seat} has {seat_after['money']} E$, the events give {self.money[seat]}"
            for seat, seat_after in after["seats"].items()
            if seat_after["money"] != self.money[seat]
        ]
        owners = {cid: city["owner"] for cid, city in after["cities"].items()}
        audited = {cid: city["owner"] for cid, city in self.cities.items()}
        if owners != audited:
            changed = sorted(set(owners.items()) ^ set(audited.items()))
            found.append(f"Cities change hands by an event: {changed}")
        return found


READERS: dict[str, Callable[[Audit, JSONObject], None]] = {
    "income": Audit._income,
    "land": Audit._land,
    "city": Audit._city,
    "capital": Audit._capital,
    "build": Audit._build,
    "rail": Audit._rail,
    "destroy": Audit._destroy,
    "payment": Audit._payment,
    "alliance_left": Audit._alliance_left,
    "bounty": Audit._bounty,
    "occupation": Audit._occupation,
    "occupation_ends": Audit._occupation_ends,
    "occupation_count": Audit._occupation_count,
    "occupation_held": Audit._occupation_held,
    "capture": Audit._capture,
    "peace": Audit._peace,
    "capitulation": Audit._capitulation,
    "out": Audit._out,
    "combat": Audit._combat,
    "spawn": Audit._spawn,
    "move": Audit._move,
}


def _city_record(city: JSONObject, round_: int = 0) -> dict[str, Any]:
    """What the audit follows of a city; ready: its bases bought before round_, which spawn in it."""
    bases: list[int] = city["bases"] if isinstance(city.get("bases"), list) else []
    return {
        "owner": city["owner"],
        "treasury": city.get("treasury", False),
        "treasury_by": city.get("treasury_by"),
        "transport": city.get("transport", False),
        "naval": city.get("naval", False),
        "bases": len(city.get("bases", [])) if isinstance(city.get("bases"), list) else 0,
        "ready": len([bought for bought in bases if bought < round_]),
        "occupier": city.get("occupier"),
        "held": city.get("held", 0),
        "restored": city.get("restored", 0),
        "spawns_from": city.get("spawns_from", 0),
    }


def _the_fallen(after: JSONObject) -> list[str]:
    """ "Once an Empire capitulates, that Empire is no longer in the game" (rules D-MC-11,
    D-MC-12): it owns, occupies and holds nothing, and is party to nothing."""
    found = []
    land = "".join(after["territory"])
    for seat, me in after["seats"].items():
        if me["alive"]:
            continue
        held = [cid for cid, c in after["cities"].items() if seat in (c["owner"], c["occupier"])]
        troops = [g for g, group in after["groups"].items() if group["owner"] == seat]
        parties = [w["sides"] for w in after["wars"] if seat in w["sides"]]
        parties += [a["members"] for a in after["alliances"] if seat in a["members"]]
        parties += [[b["host"], b["guest"]] for b in after["borders"] if seat in (b["host"], b["guest"])]
        if held or troops or me["money"] or me["mark"] in land or parties:
            found.append(
                f"A dead empire's traces (rules D-MC-11, D-MC-12): {seat} is out but keeps cities "
                f"{held}, groups {troops}, {me['money']} E$, land: {me['mark'] in land}, agreements {parties}"
            )
    return found


def _alliances(after: JSONObject) -> list[str]:
    """ "Empires in an Alliance are not at War with each other" (D-MC-14); in War Bounty at most 3
    members ("Alliances in War Bounty*": "A maximum of 3 people can form one alliance.")."""
    found = []
    wars = {tuple(w["sides"]) for w in after["wars"]}
    for alliance in after["alliances"]:
        members = sorted(alliance["members"])
        if after["options"]["mode"] == WAR_BOUNTY and len(members) > MAX_ALLIES:
            found.append(f"Alliances: {members} ('A maximum of 3 people can form one alliance')")
        at_war = [(a, b) for n, a in enumerate(members) for b in members[n + 1 :] if (a, b) in wars]
        if at_war:
            found.append(f"Alliances (rule D-MC-14): allies at war: {at_war}")
    if after["options"]["mode"] == WAR_BOUNTY and after["alliances"]:
        # "When an alliance has defeated all of its opposition, the alliance is immediately
        # broken, regardless of the alliance duration. From this point on, no alliances are
        # allowed to be formed."
        alive = {s for s, me in after["seats"].items() if me["alive"]}
        if after.get("alliances_closed"):
            found.append(f"Alliances in War Bounty: {after['alliances']} formed after no alliances are allowed")
        found += [
            f"Alliances in War Bounty: {sorted(a['members'])} has defeated all its opposition and is not broken"
            for a in after["alliances"]
            if len(alive) > 1 and alive <= set(a["members"])
        ]
    return found


def _agreements(before: JSONObject, after: JSONObject) -> list[str]:
    """The optional rules (rule D-MC-7) leave no trace when off; "Open Border Agreements ...
    last 10 rounds", "The duration of an Alliance is 10 rounds"; "Open Border Agreements with the
    Empire you are at war with are cancelled"."""
    options, found = after["options"], []
    last = before["round"] + 9  # accepted this round at the latest, counted from that round
    kinds = {"ally": "alliances", "borders": "borders", "peace": "peace"}
    for what, records in (("alliances", after["alliances"]), ("borders", after["borders"])):
        if records and not options[what]:
            found.append(f"Optional rules (rule D-MC-7): {what} {records} with the option off")
        found += [f"{what.title()}: {r} lasts beyond round {last} ('10 rounds')" for r in records if r["until"] > last]
    found += [
        f"Optional rules (rule D-MC-7): a {p['kind']} proposal with the option off"
        for p in after["proposals"]
        if not options[kinds[p["kind"]]]
    ]
    wars = {tuple(w["sides"]) for w in after["wars"]}
    found += [
        f"Declarations Of War*: open borders {b['host']} to {b['guest']} between empires at war"
        for b in after["borders"]
        if tuple(sorted((b["host"], b["guest"]))) in wars
    ]
    return found


def _territory(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "Land already claimed by another player cannot be purchased": a block passes from one
    empire to another only with a city that changes hands (its one-block radius), by a peace
    treaty's terms, or once its owner has fallen and freed it. And "Cities can only be founded in
    territory your Empire owns"."""
    marks = {me["mark"]: s for s, me in after["seats"].items()}
    fell = {e.data["seat"] for e in events if e.kind in ("capitulation", "out")}
    cities = {**before["cities"], **after["cities"]}
    handed: set[tuple[str, int, int]] = set()  # (new owner, x, y) of a city that changed hands
    ceded: set[tuple[str, str]] = set()
    for e in events:
        passed = []
        if e.kind == "capture":
            passed = [(e.data["city"], e.data["seat"])]
        elif e.kind in ("peace", "capitulation"):
            passed = [(cid, new) for cid, new in e.data["cities" if e.kind == "peace" else "kept"]]
            ceded |= {(block, new) for block, new in e.data.get("land", [])}
        handed |= {(new, cities[cid]["x"], cities[cid]["y"]) for cid, new in passed if cid in cities}
    found = []
    width = len(before["territory"][0])
    for y, (old_row, new_row) in enumerate(zip(before["territory"], after["territory"], strict=True)):
        for x in range(width):
            old, new = marks.get(old_row[x]), marks.get(new_row[x])
            if old is None or new is None or old == new or old in fell or (f"{x},{y}", new) in ceded:
                continue
            if not any(w == new and abs(cx - x) <= 1 and abs(cy - y) <= 1 for w, cx, cy in handed):
                found.append(f"Purchasing Territory: {x},{y} passed from {old} to {new} ('Land already claimed')")
    land = "".join(after["territory"])
    # A founder that fell later in the round (capitulated, its occupied cities handed on, its
    # land freed) founded on its own land then: only what it still is at the round's end is asked.
    founded = [(e.data["city"], e.data["seat"]) for e in events if e.kind == "city" and e.data["seat"] not in fell]
    found += [
        f"City Placement Restrictions: {seat} founded {cid} on land that is not its own"
        for cid, seat in founded
        if cid in after["cities"]
        and marks.get(land[after["cities"][cid]["y"] * width + after["cities"][cid]["x"]]) != seat
    ]
    return found


def _occupations(after: JSONObject) -> list[str]:
    """ "Attacking Troops must occupy the City Center": an occupation has its occupier's troops on
    the centre at the end of every round (rule D-MC-6: it ends when "the attacker leaves")."""
    at = {(g["owner"], g["x"], g["y"]) for g in after["groups"].values()}
    found = [
        f"Capturing Cities (rule D-MC-6): {cid} is occupied by {c['occupier']} with no troops of it on the centre"
        for cid, c in after["cities"].items()
        if c["occupier"] and (c["occupier"], c["x"], c["y"]) not in at
    ]
    # And the other way: troops of another empire on a city's centre occupy it.
    centres = {(c["x"], c["y"]): c for c in after["cities"].values()}
    found += [
        f"Capturing Cities (rule D-MC-6): {owner}'s troops stand on the centre of {cid}, a city of "
        f"{centres[x, y]['owner']}, without occupying it"
        for owner, x, y in sorted(at)
        if (x, y) in centres and owner not in (centres[x, y]["owner"], centres[x, y]["occupier"])
        for cid in [next(k for k, c in after["cities"].items() if (c["x"], c["y"]) == (x, y))]
    ]
    return found


def _permitted(state: JSONObject) -> set[tuple[str, str]]:
    """(guest, host) pairs of living empires whose troops may be in the other's territory under
    the open-border rule: at war, allied ("automatically have an Open Border Agreement with the
    Allied Empire for the duration of the Alliance"), or by an agreement."""
    alive = [s for s, me in state["seats"].items() if me["alive"]]
    wars = {tuple(sorted(w["sides"])) for w in state["wars"]}
    allied = {(a, b) for al in state["alliances"] for a in al["members"] for b in al["members"] if a != b}
    agreed = {(b["guest"], b["host"]) for b in state["borders"]}
    return {
        (g, h)
        for g in alive
        for h in alive
        if g != h and (tuple(sorted((g, h))) in wars or (g, h) in allied or (g, h) in agreed)
    }


def _trespass(before: JSONObject, after: JSONObject) -> list[str]:
    """gm's choice (README, "Open borders that end"): with the open-border rule, an empire whose
    permission to be in another's territory ended in the round has no troops left in it at the
    end of the round: they were moved out, as at a declaration of war."""
    if not after["options"]["borders"]:
        return []
    ended = _permitted(before) - _permitted(after)
    if not ended:
        return []
    marks = {me["mark"]: s for s, me in after["seats"].items()}
    width = len(after["territory"][0])
    land = "".join(after["territory"])
    return [
        f"Open Border Agreements (gm's choice): {gid} of {g['owner']} stands at {g['x']},{g['y']} in "
        f"{host}'s territory after its permission ended"
        for gid, g in sorted(after["groups"].items())
        for host in [marks.get(land[g["y"] * width + g["x"]])]
        if (g["owner"], host) in ended
    ]


def _limits(after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The book's limits at the end of the round."""
    board = board_of(after)
    found = []
    places = Counter((g["owner"], g["x"], g["y"]) for g in after["groups"].values())
    found += [f"Groups: two groups of {key[0]} on {key[1]},{key[2]}" for key, n in places.items() if n > 1]
    found += [
        f"Troops: {gid} has {g['troops']} troops ('maximum number of Troops allowed in one Group is 6')"
        for gid, g in after["groups"].items()
        if not 1 <= g["troops"] <= MAX_TROOPS
    ]
    bought = Counter(e.data["seat"] for e in events if e.kind == "city")
    found += [f"Regular Cities: {s} bought {n} in a round ('A maximum of 1')" for s, n in bought.items() if n > 1]
    cities = after["cities"]
    for cid, city in cities.items():
        i = board.index(city["x"], city["y"])
        if len(city["bases"]) > MAX_BASES or (city["naval"] and not board.coastal[i]) or board.water[i]:
            found.append(f"City Placement and Infrastructure: {cid} breaks a limit ({len(city['bases'])} bases)")
        if city["held"] not in (0, 1) or (city["occupier"] and city["occupier"] == city["owner"]):
            found.append(f"Capturing Cities (rule D-MC-6): {cid} held {city['held']} by {city['occupier']}")
    centres = [(cid, c["x"], c["y"]) for cid, c in cities.items()]
    found += [
        f"City Placement (rule D-MC-4): {a} and {b} are closer than {SPACING}"
        for n, (a, ax, ay) in enumerate(centres)
        for b, bx, by in centres[n + 1 :]
        if abs(ax - bx) + abs(ay - by) < SPACING
    ]
    lines = Counter(end for rail in after["rails"] for end in rail["ends"])
    found += [f"Railroads: {cid} touches {n} lines ('A maximum of 4')" for cid, n in lines.items() if n > MAX_LINES]
    land = "".join(after["territory"])
    if any(board.water[i] and mark != "." for i, mark in enumerate(land)):
        found.append("Purchasing Territory: water is owned ('Bodies of water cannot be purchased')")
    found += [f"E$ never negative: {s} has {me['money']}" for s, me in after["seats"].items() if me["money"] < 0]
    return found


def _war_bounty_start(before: JSONObject) -> list[str]:
    """War Bounty's start, as gm laid it out before round 1: "300 blocks of contiguous land ...
    1 Naval Base, 1 Transport Infrastructure", "(6 in each city)", "Start with 0 E$". On a
    world too small for 300 blocks each (the conformance cases' test bed) an empire may have no
    coast a city can stand on: the naval base is then owed only to an empire with its 300."""
    if before["options"]["mode"] != WAR_BOUNTY or before["round"] != 1:
        return []
    board = board_of(before)
    land = "".join(before["territory"])
    found = []
    for seat, me in before["seats"].items():
        owned = [c for c in before["cities"].values() if c["owner"] == seat]
        naval = [c for c in owned if c["naval"] and board.coastal[board.index(c["x"], c["y"])]]
        owed = 1 if land.count(me["mark"]) >= START_BLOCKS else len(naval)
        if len(naval) != owed or owed > 1 or sum(c["transport"] for c in owned) != 1 or me["money"]:
            found.append(
                f"War Bounty: {seat} starts with {len(naval)} naval bases, "
                f"{sum(c['transport'] for c in owned)} transport, {me['money']} E$ ('1 Naval Base, 1 Transport')"
            )
        troops = {(g["x"], g["y"]): g["troops"] for g in before["groups"].values() if g["owner"] == seat}
        if any(troops.get((c["x"], c["y"])) != MAX_TROOPS for c in owned) or len(troops) != len(owned):
            found.append(f"War Bounty: {seat} does not start with 6 troops in each city ('6 in each city')")
    return found


def _capitulation_due(after: JSONObject) -> list[str]:
    """An empire that meets the book's count has capitulated, and one left with no city at
    the end of the round is out (rule D-MC-11)."""
    found = []
    for seat, me in after["seats"].items():
        if not me["alive"]:
            continue
        owned = [cid for cid, c in after["cities"].items() if c["owner"] == seat]
        lost = [cid for cid in dict.fromkeys(me["lost"]) if cid not in owned]
        if me["capital"] in lost and (len(lost) >= 5 or not owned):
            found.append(f"Capitulation (rule D-MC-11): {seat} lost {lost} and is still in the game")
        if not owned and after["phase"] == "play":
            found.append(f"Capitulation (rule D-MC-11): {seat} owns no city at the end of the round and is still in")
    return found


def _the_end(before: JSONObject, after: JSONObject) -> list[str]:
    """The game ends when one empire is left or at the round limit (rule D-MC-10), else the
    next round comes."""
    alive = [s for s in after["seating"] if after["seats"][s]["alive"]]
    limit = after["options"]["round-limit"]
    should_end = len(alive) <= 1 or bool(limit and before["round"] >= limit)
    if (after["phase"] == "over") != should_end:
        return [
            f"Game end (rule D-MC-10): over is {after['phase'] == 'over'} after round {before['round']}, {len(alive)} empires left"
        ]
    if not should_end and after["round"] != before["round"] + 1:
        return [f"Rounds: round {before['round']} was followed by {after['round']}"]
    if should_end and sorted(after["result"]["winners"]) != sorted(_winners(after, alive)):
        return [
            f"Game end (rule D-MC-10): {after['result']['winners']} won after round {before['round']}; "
            f"the book's winners are {_winners(after, alive)}"
        ]
    return []


def _winners(after: JSONObject, alive: list[str]) -> list[str]:
    """ "Be the last remaining Empire in the game"; at a round limit the most cities, then the
    most blocks of territory, then the most E$, a tie after that shared (rule D-MC-10)."""
    if len(alive) <= 1:
        return alive
    land = "".join(after["territory"])

    def key(seat: str) -> tuple[int, int, int]:
        me = after["seats"][seat]
        cities = sum(1 for c in after["cities"].values() if c["owner"] == seat)
        return cities, land.count(me["mark"]), me["money"]

    best = max(key(s) for s in alive)
    return [s for s in alive if key(s) == best]


def _blocks(name: str) -> tuple[int, int]:
    x, y = name.split(",")
    return int(x), int(y)


def _movement(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each walk or sail of the round, held to the book's movement rules (a railroad's ride, one
    hop between two cities, is the railroads' business):
    - "Grass/Plains ... 10", "Rock/Mountain ... 8", "Sand/Beach/Desert ... 8", "Snow ... 6" per
      round; "When terrain type changes during Troop movement, Troops retain their maximum
      mobility" (the lowest limit of every block entered, the start included, rule D-MC-3);
    - 12 "in your Empire's territory" ("Territory bonuses apply in allied territory"), and on all
      land for troops that "spawned and/or start their round in a City with Transport
      Infrastructure";
    - "Water cannot be traversed by Troops unless they have the Naval Base bonuses" (troops that
      "start their round in a city housing a Naval Base", or at sea), at 12 on water;
    - "A troop cannot traverse any more blocks if it has traversed land before embarking", nor
      once it has come ashore ("if it has reembarked");
    - with the open-border rule, no step into the territory of an empire it may not enter (at
      war, allied, or by an agreement, before, during or after the round).
    The bonuses and the territory are taken as generously as the round's start, events and end
    allow: what is found is a move no reading of the round permits."""
    board = board_of(before)
    width = board.width
    marks = {me["mark"]: s for s, me in before["seats"].items()}
    lands = ("".join(before["territory"]), "".join(after["territory"]))
    # An alliance, an agreement or a war may begin and end within the round: the events name them.
    alliances = [al["members"] for state in (before, after) for al in state["alliances"]]
    alliances += [e.data["members"] for e in events if e.kind == "alliance"]
    allied = {(a, b) for members in alliances for a in members for b in members}
    pairs = [(e.data["seat"], e.data["other"]) for e in events if e.kind == "borders"]
    pairs += [(side, e.data["enemy"]) for e in events if e.kind == "war" for side in e.data["sides"]]
    permitted = _permitted(before) | _permitted(after) | allied | {p for a, b in pairs for p in ((a, b), (b, a))}
    # Land an empire bought in the round and lost with its fall later in it is free at the end.
    fell = {e.data["seat"] for e in events if e.kind in ("capitulation", "out")}
    buyers = {e.data["seat"] for e in events if e.kind == "land"} & fell
    cities = [c for state in (before, after) for c in state["cities"].values()]
    started = {gid: (g["x"], g["y"]) for gid, g in before["groups"].items()}
    found = []
    for event in events:
        if event.kind != "move":
            continue
        data = event.data
        seat, gid = data["seat"], data["group"]
        path = [_blocks(b) for b in data["path"]]
        if len(path) < 2 or any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in zip(path, path[1:], strict=False)):
            continue  # a ride (or a path the audit's step check names)
        homes = {path[0], started.get(gid, path[0])}

        def bonus(kind: str, homes: set[tuple[int, int]] = homes, seat: str = seat) -> bool:
            return any(c.get(kind) and c["owner"] == seat and (c["x"], c["y"]) in homes for c in cities)

        water = [board.water[board.index(x, y)] for x, y in path]
        transport = bonus("transport")
        naval = water[0] or bonus("naval")
        limit, problems = MAX_STEPS, []
        for n, (x, y) in enumerate(path):
            i = y * width + x
            owners = {marks.get(land[i]) for land in lands}
            if water[n]:
                if not naval:
                    problems.append(f"sails {x},{y} without the Naval bonus")
                continue
            bought = seat in buyers and marks.get(lands[1][i]) is None
            fast = transport or bought or any(o == seat or (seat, o) in allied for o in owners)
            limit = min(limit, MAX_STEPS if fast else TERRAIN_LIMITS[board.terrain[i]])
            strangers = {o for o in owners if o and o != seat}
            if n and before["options"]["borders"] and len(strangers) == 1 and None not in owners:
                host = strangers.pop()
                if (seat, host) not in permitted:
                    problems.append(f"enters {x},{y}, territory of {host}, with no permission")
        if len(path) - 1 > limit:
            problems.append(f"moves {len(path) - 1} blocks with a limit of {limit}")
        for n in range(1, len(path) - 1):  # a block after which the move goes on
            if water[n] and not water[n - 1] and n > 1:
                problems.append(f"goes on after embarking at {data['path'][n]} having walked on land")
            if not water[n] and water[n - 1]:
                problems.append(f"goes on after coming ashore at {data['path'][n]}")
        found += [f"Traversing Land and Water (rule D-MC-3): {seat}'s {gid} {p}" for p in problems]
    return found


def _landmass(board: Any, start: int) -> set[int]:
    """The land joined to block `start` side by side, no water between (rule D-MC-13)."""
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for n in board.neighbours[i]:
            if n not in seen and not board.water[n]:
                seen.add(n)
                todo.append(n)
    return seen


def _far_land(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "Non-contiguous land (land that your Capital City does not reside in) can only be
    purchased once a Naval Base has been built in your Empire" (rule D-MC-13: land not joined to
    the capital's block over land). A block that becomes an empire's in the round by no city
    changing hands and no peace's terms was bought; on another landmass it needs a naval base
    in one of the empire's cities, at the start or the end of the round."""
    board = board_of(before)
    width = board.width
    found = []
    bought = {e.data["seat"] for e in events if e.kind == "land"}
    handed = {e.data["seat"] for e in events if e.kind in ("capture", "peace", "capitulation", "capital", "city")}
    for seat in sorted(bought - handed):
        me = after["seats"][seat]
        capital = after["cities"].get(me["capital"] or "") or before["cities"].get(me["capital"] or "")
        if capital is None:
            continue
        naval = any(
            c.get("naval") and c["owner"] == seat for state in (before, after) for c in state["cities"].values()
        )
        if naval:
            continue
        home = _landmass(board, board.index(capital["x"], capital["y"]))
        new = [
            i
            for i, (old, now) in enumerate(zip("".join(before["territory"]), "".join(after["territory"]), strict=True))
            if now == me["mark"] != old and i not in home
        ]
        if new:
            x, y = new[0] % width, new[0] // width
            found.append(
                f"Purchasing Territory (rule D-MC-13): {seat} bought {len(new)} blocks off its capital's "
                f"landmass ({x},{y} ...) with no naval base"
            )
    return found


def _founding(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "All Empires start with a Capital City and 10 E$" (War Bounty: "Start with 0 E$"; the Land
    Game's E$ come with its first round, rule D-MC-15); "Your Capital City must be founded by the
    first round"; "Capital City can be founded on any land not occupied by another Empire";
    "Territory in a one-block radius of your Capital City is now owned by your Empire. The
    block your Capital City occupies is also your Empire's territory" ("If your Capital City is
    founded adjacent to water, then you cannot claim the water"); "Capital Cities start with a
    Treasury" in Original, and the Land Game has "no treasuries"."""
    board = board_of(before)
    mode = before["options"]["mode"]
    marks = {me["mark"]: s for s, me in before["seats"].items()}
    land = "".join(before["territory"])
    after_land = "".join(after["territory"])
    found = []
    if before["round"] == 1 and not any(me["capital"] for me in before["seats"].values()):
        found += [
            f"Empires: {s} starts with {me['money']} E$, not {START_MONEY[mode]}"
            for s, me in before["seats"].items()
            if me["money"] != START_MONEY[mode]
        ]
    if before["round"] == 1 and after["phase"] == "play":
        found += [
            f"Capital City: {s} has none after the first round ('must be founded by the first round')"
            for s, me in after["seats"].items()
            if me["alive"] and not me["capital"]
        ]
    for event in events:
        if event.kind != "capital":
            continue
        seat, cid = event.data["seat"], event.data["city"]
        i = board.index(*_blocks(event.data["block"]))
        if marks.get(land[i]) not in (None, seat):
            found.append(f"Capital City: {seat} founded {cid} on land of {marks[land[i]]}")
        lost = [
            board.name(n)
            for n in board.around(i)
            if not board.water[n] and marks.get(land[n]) is None and marks.get(after_land[n]) != seat
        ]
        if lost and all(e.kind not in ("capture", "peace", "capitulation", "out") for e in events):
            found.append(f"Capital City: {seat}'s {cid} does not own {lost} of its one-block radius")
        city = after["cities"].get(cid)
        if city is not None and city["owner"] == seat and city.get("treasury", False) != (mode == ORIGINAL):
            found.append(f"Capital City: {seat}'s {cid} in {mode} has a treasury: {city.get('treasury', False)}")
    return found


def _railroads(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Railroads: "Two Cities are connected by Railroad if: Railroads are directly touching a
    City Center; All Railroad pieces between the City Centers are directly touching each other";
    "Cities owned by your Empire can be connected" (owned when the line is laid); "Railroads may be built over your Empire's
    territory, unoccupied territory, and bodies of water" ("cannot be built over Enemy
    territory"), checked on the lines laid in the round; "Two of your own different Railroad
    lines are not allowed to directly touch each other", a line laid in the round and any other."""
    marks = {me["mark"]: s for s, me in before["seats"].items()}
    width = len(before["territory"][0])
    lands = ("".join(before["territory"]), "".join(after["territory"]))
    cities = {**before["cities"], **after["cities"]}
    old = {(r["owner"], tuple(r["ends"])) for r in before["rails"]}
    found = []
    for rail in after["rails"]:
        seat, blocks = rail["owner"], [tuple(b) for b in rail["blocks"]]
        ends = [(cities[c]["x"], cities[c]["y"]) for c in rail["ends"] if c in cities]
        if (seat, tuple(rail["ends"])) in old:
            continue  # a line never changes once laid: the round that laid it was checked
        chain = [ends[0], *blocks, ends[-1]] if len(ends) == 2 else blocks
        if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in zip(chain, chain[1:], strict=False)):
            found.append(f"Railroads: {seat}'s line {rail['ends']} has a gap ('100% connected')")
        # Its owner's when it was laid: at the round's start or end, or taken or founded in it.
        held = {(c["owner"], cid) for state in (before, after) for cid, c in state["cities"].items()}
        held |= {(e.data["seat"], e.data["city"]) for e in events if e.kind in ("capture", "city")}
        owners = [cities[c]["owner"] for c in rail["ends"] if c in cities]
        if not all((seat, c) in held for c in rail["ends"]):
            found.append(f"Railroads: {seat} laid a line between {rail['ends']} of {owners}")
        foreign = [
            f"{x},{y}" for x, y in blocks if all(marks.get(land[y * width + x]) not in (None, seat) for land in lands)
        ]
        if foreign:
            found.append(f"Railroads: {seat}'s new line {rail['ends']} crosses another's territory at {foreign}")
    for n, a in enumerate(after["rails"]):
        for b in after["rails"][n + 1 :]:
            if a["owner"] != b["owner"] or {(a["owner"], tuple(a["ends"])), (b["owner"], tuple(b["ends"]))} <= old:
                continue
            near = {(x + dx, y + dy) for x, y in a["blocks"] for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
            if any(tuple(block) in near for block in b["blocks"]):
                found.append(f"Railroads: {a['owner']}'s lines {a['ends']} and {b['ends']} touch")
    return found
