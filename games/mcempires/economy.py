"""E$: prices (rule D-MC-2), the income of a turn (rule D-MC-1) and paying for things."""

from __future__ import annotations

from .turn import Turn

ORIGINAL, WAR_BOUNTY, LAND_GAME = "original", "war-bounty", "land-game"
MODES = (ORIGINAL, WAR_BOUNTY, LAND_GAME)

BASE_PRICES = (20, 25)  # "Military Base = 20 E$ ... a second Military Base for a City costs 25"
MAX_BASES = 2  # "Up to 2 Military Bases can be built in each city."
TRANSPORT_PRICE = 40  # "Transport Infrastructure = 40 E$"
NAVAL_PRICE = 50  # "Naval Base = 50 E$"
RAIL_LOT, RAIL_PRICE = 5, 40  # "Railroads = 40 E$ for 5 pieces"
RAIL_FROM_ROUND = 31  # "After 30 rounds of the game, Empires will be able to purchase Railroads."
LAND_FROM_ROUND = 11  # "After 10 rounds of the game ... 1 E$ per 10 blocks" (rule D-MC-1)
LAND_GAME_FIRST = 5  # Land Game: "E$ first round at 5 E$", then land income (rule D-MC-15)
DESTROY_PRICE = 100  # "destroy the City's infrastructure, at the cost of 100 E$"
ALLIANCE_PENALTY = 15  # "a penalty of 15 E$, paid to each of the other member(s)"

# War Bounty: "Defeat enemy troops: 2 E$ per each troop; All troops of an Empire: 50 E$;
# Occupy a city of an Empire: 50 E$ each; Defeat an Empire: 300 E$"
BOUNTY_TROOP, BOUNTY_ALL_TROOPS, BOUNTY_CITY, BOUNTY_EMPIRE = 2, 50, 50, 300


def land_price(blocks: int) -> int:
    """ceil(blocks / 2): "Purchasing two blocks of territory costs 1 E$" (rule D-MC-2)."""
    return (blocks + 1) // 2


def city_price(regular: int) -> int:
    """c = 10n + 10, n the regular cities the empire owns now (rule D-MC-2)."""
    return 10 * regular + 10


def treasury_price(bought: int) -> int:
    """c = 5n + 20, n the purchased treasuries that still stand (rule D-MC-15)."""
    return 5 * bought + 20


def purchased_treasuries(turn: Turn, seat: str) -> int:
    """The treasuries in the empire that it bought and that still stand: "Each Treasury in your
    Empire increases the purchase price of your next Treasury" (rule D-MC-15). The capital's
    free one, captured ones and destroyed ones do not count."""
    return sum(1 for cid in turn.cities_of(seat) if turn.cities[cid]["treasury_by"] == seat)


def rail_price(pieces: int) -> int:
    return (pieces // RAIL_LOT) * RAIL_PRICE


def lots_for(pieces: int) -> int:
    """Pieces are bought 5 at a time: the pieces to buy for `pieces` more (a multiple of 5)."""
    return -(-pieces // RAIL_LOT) * RAIL_LOT


def treasuries_allowed(turn: Turn) -> bool:
    # "you cannot purchase Treasuries in this mode" (War Bounty); Land Game: "no treasuries".
    return turn.mode == ORIGINAL


def operating_treasuries(turn: Turn, seat: str) -> int:
    """Treasuries of the empire's cities that are its own in full: not occupied (rule D-MC-1),
    nor freed this round from an occupier that fell (rule D-MC-12)."""
    return sum(1 for cid in turn.cities_of(seat) if turn.cities[cid]["treasury"] and turn.in_full(cid))


def land_income(turn: Turn, seat: str) -> int:
    if turn.mode == WAR_BOUNTY:  # "Land does not earn you money"
        return 0
    if turn.mode == ORIGINAL and turn.round < LAND_FROM_ROUND:
        return 0
    if turn.mode == LAND_GAME and turn.round == 1:  # the first round pays its 5 E$ instead
        return 0
    return turn.blocks_of(seat) // 10


def maintenance(turn: Turn, seat: str) -> int:
    """floor(regular cities / 2) a round, not in War Bounty (rule D-MC-2)."""
    if turn.mode == WAR_BOUNTY:
        return 0
    return turn.regular_cities(seat) // 2


def income_lines(turn: Turn, seat: str) -> list[tuple[str, int]]:
    """What the empire earns and pays at the start of its turn, line by line. War Bounty has
    none ("You can only earn money by defeating an enemy's troops, Cities, or their entire
    Empire")."""
    if turn.mode == WAR_BOUNTY:
        return []
    treasuries = operating_treasuries(turn, seat)
    lines = []
    if turn.mode == LAND_GAME and turn.round == 1:
        lines.append(("the Land Game's first round", LAND_GAME_FIRST))
    if treasuries:
        lines.append(
            (
                f"{treasuries} treasur{'y' if treasuries == 1 else 'ies'} operating: {treasuries}\u00b2",
                treasuries * treasuries,
            )
        )
    land = land_income(turn, seat)
    if land:
        lines.append((f"{turn.blocks_of(seat)} blocks of territory, 1 E$ per 10", land))
    upkeep = maintenance(turn, seat)
    if upkeep:
        lines.append((f"maintenance of {turn.regular_cities(seat)} regular cities", -upkeep))
    return lines


def earn_income(turn: Turn, seat: str) -> None:
    lines = income_lines(turn, seat)
    if not lines:
        return
    me = turn.seats[seat]
    total = sum(amount for _, amount in lines)
    before = me["money"]
    me["money"] = max(0, before + total)  # an empire that cannot pay upkeep pays what it has
    parts = "; ".join(f"{text} {amount:+d}" for text, amount in lines)
    turn.private(
        seat,
        "income",
        f"{turn.nation(seat)} earns {total:+d} E$ ({parts}) and has {me['money']} E$.",
        amount=total,
        money=me["money"],
        lines=[[text, amount] for text, amount in lines],
        treasuries=operating_treasuries(turn, seat),
        blocks=turn.blocks_of(seat),
        regular=turn.regular_cities(seat),
    )


def pay(turn: Turn, seat: str, price: int, what: str) -> str | None:
    """Take the price, or say why it cannot be paid (and take nothing)."""
    money = turn.seats[seat]["money"]
    if price > money:
        return f"{what} costs {price} E$ and {turn.has(seat)} {money} E$"
    turn.seats[seat]["money"] = money - price
    return None


def bounty(turn: Turn, seat: str, amount: int, why: str, kind: str, loser: str) -> bool:
    """War Bounty earnings; in an alliance they are shared by its members, the odd E$ going to
    the empire that earned them. kind: troops, all_troops, city or empire (the book's four
    bounties), earned from `loser`. Whether it was paid."""
    if turn.mode != WAR_BOUNTY or amount <= 0 or not turn.seats[seat]["alive"]:
        return False
    members = [seat]
    for alliance in turn.state["alliances"]:
        if seat in alliance["members"]:
            members = [m for m in alliance["members"] if turn.seats[m]["alive"]]
    share, odd = divmod(amount, len(members))
    shares = {member: share + (odd if member == seat else 0) for member in members}
    for member, got in shares.items():
        turn.seats[member]["money"] += got
    shared = f", shared with {_names(turn, [m for m in members if m != seat])}" if len(members) > 1 else ""
    turn.add(
        "bounty",
        f"{turn.nation(seat)} earns a bounty of {amount} E$ for {why}{shared}.",
        seat=seat,
        amount=amount,
        members=members,
        shares=shares,
        kind=kind,
        loser=loser,
    )
    return True


def _names(turn: Turn, seats: list[str]) -> str:
    return " and ".join(turn.nation(s) for s in seats)
