"""The players' credit and discount books: reading them, payments, a GM's corrections, transfers,
each game's policy for unpaid turns, the check and the bookkeeper's CSV (what a turn run books is
turn_charges.py; the arithmetic is gm/core/ledger.py)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable
from typing import TypedDict, Unpack

import sqlite_utils

from gm.clock import Clock, iso
from gm.core import ledger
from gm.core.ledger import Entry, LedgerError, Position
from gm.core.words import counted
from gm.errors import GMError
from gm.services.game_settings import set_game_setting
from gm.services.games import check_player
from gm.store import ledger as books, people, records, seats
from gm.store.database import atomic
from gm.store.games import set_options
from gm.store.records import GameRecord
from gm.store.turns import played_turns

# What happens to a seat whose account cannot pay for a turn (games.options["unpaid"]):
# hold: the turn is resolved and charged, the report is held until the account is paid up;
# deliver: the same, but the report goes out anyway (the account runs on credit);
# free: turns of this game are not charged at all.
POLICIES = ("hold", "deliver", "free")
DEFAULT_POLICY = "hold"
POLICY_WORDS = {
    "hold": "charged; the report waits until the account is paid up",
    "deliver": "charged; the report goes out even on credit",
    "free": "turns are not charged",
}
DEMO_CREDITS = 100  # what each robot of `gm demo` buys: more turns than a demo plays (Clash 32, Imperials about 40)
REFERENCE_MOST = 100  # characters of a payment reference (a PayPal transaction id has 17)
LOW_CREDIT = 2  # a report warns when fewer credits than this are left after its charge
_MONEY = re.compile(r"([0-9]{1,9})(?:\.([0-9]{1,2}))?")  # ASCII digits only: "١٢" or "１２" is refused, not read as 12
_MONEY_TOO_MUCH = re.compile(r"[0-9]{10,}(?:\.[0-9]{1,2})?")  # an amount, with a digit or more too many


def parse_money(text: str) -> int:
    """'25', '25.5' or '25.50' -> cents (2500, 2550, 2550); integers only, never floats."""
    match = _MONEY.fullmatch(text.strip())
    if not match and _MONEY_TOO_MUCH.fullmatch(text.strip()):
        raise GMError(f"'{text}' is more money than one payment takes (at most 999999999.99): check the amount.")
    if not match:
        raise GMError(f"'{text}' is not an amount of money: write it like 25 or 25.50.")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


def format_money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


# ----------------------------------------------------------------------------------------------
# Reading the books.


def all_entries(db: sqlite_utils.Database) -> list[Entry]:
    return books.all_entries(db)


def entry(db: sqlite_utils.Database, number: int) -> Entry:
    return books.entry(db, number)


def account_entries(db: sqlite_utils.Database, email: str) -> list[Entry]:
    return books.account_entries(db, email)


def account_position(db: sqlite_utils.Database, email: str) -> Position:
    return Position(*books.position(db, email))


def account(db: sqlite_utils.Database, email: str) -> tuple[int, str, str]:
    """(id, email, name) of a known account, found by its address now or one it had before a
    change (as `gm person` finds a player): a payment from a player's old address is theirs. The
    error says how accounts come to be."""
    row = known_account(db, email)
    if row is None:
        raise GMError(
            f"no account {email.strip()}. Accounts open when a player joins a game "
            "('gm game join'), or give --name to open one with the payment."
        )
    return row


def known_account(db: sqlite_utils.Database, email: str) -> tuple[int, str, str] | None:
    """The account at this address, else the account that had it before a change of address."""
    row = seats.account(db, email.strip())
    if row is None and (now_at := people.address_now(db, email.strip())) is not None:
        row = seats.account(db, now_at)
    return row


def policy(game: GameRecord) -> dict[str, str]:
    """The game's books policy: what happens to a turn an account cannot pay for (POLICIES)."""
    return {"unpaid": game.options.get("unpaid", DEFAULT_POLICY)}


def check_books(db: sqlite_utils.Database) -> list[LedgerError]:
    """Every fault in the books: what only a hand edit of the database makes (the append-only
    guard gone, a row unreadable as an entry, a number missing), then gm/core/ledger.py's check
    of the readable entries against the turns actually played; by entry, in order."""
    whole = [
        LedgerError(None, f"the books are not append-only: the database's trigger {name} is gone")
        for name in books.missing_guards(db)
    ]
    unreadable = books.unreadable(db)
    found = [LedgerError(number, f"it cannot be read as an entry: {why}") for number, why, _ in unreadable]
    found += [LedgerError(first, _missing(first, last)) for first, last in books.gaps(db)]
    skipped = {number for number, _, summed in unreadable if not summed}
    found += ledger.check([e for e in all_entries(db) if e.number not in skipped], played_turns(db))
    return whole + sorted(found, key=lambda error: error.entry or 0)


def _missing(first: int, last: int) -> str:
    """A gap in the books' numbers: entries are numbered 1, 2, 3, ... as they are written and
    never deleted (books.next_number), so each missing number is an entry that was removed."""
    also = {0: "", 1: f", and so is entry {last}"}.get(last - first, f", and so are entries {first + 1} to {last}")
    return f"it is missing{also}: the books number their entries 1, 2, 3, ... and never delete one"


# ----------------------------------------------------------------------------------------------
# Writing entries. Callers hold a transaction, so numbers and balances cannot interleave. Each
# change below is atomic on its own, or joins the caller's transaction (report_mails.releasing
# runs one with the reports it releases).


class EntryFields(TypedDict, total=False):
    """What an entry may say beyond its account and kind (ledger.make_entry's keywords)."""

    credits: int
    money: int
    discount: int
    game: str | None
    turn: int | None
    seat: str | None
    ref: int | None
    memo: str


def post(db: sqlite_utils.Database, now: str, email: str, kind: str, **fields: Unpack[EntryFields]) -> Entry:
    entry = ledger.make_entry(books.next_number(db), now, email, kind, account_position(db, email), **fields)
    books.add_entries(db, [entry])
    return entry


def buy(
    db: sqlite_utils.Database,
    clock: Clock,
    email: str,
    credits: int,
    paid: int,
    game_name: str | None = None,
    name: str | None = None,
    reference: str | None = None,
) -> list[Entry]:
    """Record a payment; 10 or more credits in one payment add the discount as a bonus.
    reference: the payment's own (the bank's or PayPal's transaction id); a payment whose
    reference is in the books already is refused, so one payment is never booked twice."""
    if credits < 1:
        raise GMError("a payment buys at least 1 credit.")
    _at_most(credits, "a payment buys")
    typed = None if reference is None else " ".join(reference.split())
    reference = None if reference is None else _reference(reference)
    game = None if game_name is None else records.game_by_name(db, game_name)
    now = iso(clock.now())
    with atomic(db):
        booked = None
        if reference is not None and typed is not None:
            # As typed too: books kept before references were read in NFKC may hold '８XK2' itself.
            booked = books.with_reference(db, reference) or books.with_reference(db, typed)
        if booked is not None:
            raise GMError(
                f"payment {booked.reference} is in the books already: entry {booked.number}, "
                f"{counted(booked.credits, 'credit')} for {format_money(booked.money)} from {booked.account} "
                f"on {booked.date[:10]}. "
                "Nothing was booked; a second payment has its own reference."
            )
        if name is not None and known_account(db, email) is None:
            # A new account takes an address and a name as a player joining a game does; an
            # address a player had before a change stays theirs (their payment, not a new account).
            address, checked = check_player(email, name)
            records.account_id(db, address, checked, now)
        _, email, _ = account(db, email)
        memo = f"{credits} credit{'' if credits == 1 else 's'} for {format_money(paid)}"
        made = ledger.purchase(
            books.next_number(db),
            now,
            email,
            account_position(db, email),
            credits,
            paid,
            game.name if game else None,
            memo,
            reference,
        )
        books.add_entries(db, made)
        records.audit(
            db,
            now,
            game.id if game else None,
            "credits buy",
            {"account": email, "credits": credits, "money": paid, **({"reference": reference} if reference else {})},
        )
    return made


def _reference(text: str) -> str:
    """A payment reference as the books keep it: its words, 1 to REFERENCE_MOST printable characters.
    Read in NFKC, so a reference copied from a statement in full-width characters ('８XK2') is the
    same payment as the one typed ('8XK2'), not a second booking of it."""
    reference = " ".join(unicodedata.normalize("NFKC", text).split())
    if not reference or len(reference) > REFERENCE_MOST or not reference.isprintable():
        raise GMError(f"a payment reference is 1 to {REFERENCE_MOST} printable characters, such as 8XK21934LP.")
    return reference


def adjust(
    db: sqlite_utils.Database,
    clock: Clock,
    email: str,
    credits: int,
    reason: str,
    discount: int = 0,
    game_name: str | None = None,
) -> Entry:
    """A GM's correction of an account's credits or discount, with the reason in the memo."""
    if not reason.strip():
        raise GMError("an adjustment needs a reason: give --reason TEXT.")
    _printable(reason)
    if credits == 0 and discount == 0:
        raise GMError("the adjustment changes nothing: give a number of credits, or --discount N.")
    _at_most(abs(credits), "an adjustment adds or takes away")
    game = None if game_name is None else records.game_by_name(db, game_name)
    now = iso(clock.now())
    with atomic(db):
        _, email, _ = account(db, email)
        now_discount = account_position(db, email).discount
        if not 0 <= now_discount + discount <= ledger.MAX_DISCOUNT:
            raise GMError(
                f"{email} has a discount of {now_discount}; it must stay between 0 and "
                f"{ledger.MAX_DISCOUNT}, so it cannot change by {discount}."
            )
        entry = post(
            db,
            now,
            email,
            "adjustment",
            credits=credits,
            discount=discount,
            game=game.name if game else None,
            memo=" ".join(reason.split()),
        )
        records.audit(
            db,
            now,
            game.id if game else None,
            "credits adjust",
            {"account": email, "credits": credits, "discount": discount, "reason": reason},
        )
    return entry


def transfer(
    db: sqlite_utils.Database, clock: Clock, giver: str, taker: str, credits: int, reason: str
) -> tuple[Entry, Entry]:
    """Move leftover credits from one account to another (the return slip's third choice)."""
    if credits < 1:
        raise GMError("a transfer moves at least 1 credit.")
    _printable(reason)
    _at_most(credits, "a transfer moves")
    now = iso(clock.now())
    with atomic(db):
        _, giver, _ = account(db, giver)
        _, taker, _ = account(db, taker)
        if ledger.account_key(giver) == ledger.account_key(taker):
            raise GMError("a transfer needs two different accounts.")
        has = account_position(db, giver).balance
        if has < credits:
            raise GMError(f"{giver} has {counted(has, 'credit')}; {credits} cannot be transferred.")
        return move(db, now, giver, taker, credits, reason)


def _printable(reason: str) -> None:
    """A reason kept in a memo is printable text: the export prints memos as they are."""
    if not " ".join(reason.split()).isprintable():
        raise GMError("a reason is printable text: no control characters such as a terminal's escape.")


def _at_most(credits: int, what: str) -> None:
    if credits > ledger.MOST_CREDITS_AT_ONCE:
        raise GMError(f"{what} at most {ledger.MOST_CREDITS_AT_ONCE:,} credits at once, not {credits:,}.")


def move(
    db: sqlite_utils.Database,
    now: str,
    giver: str,
    taker: str,
    credits: int,
    reason: str,
    game_id: int | None = None,
    named: str | None = None,
) -> tuple[Entry, Entry]:
    """The two halves of a transfer and its audit line, inside the caller's transaction; the
    caller has checked both accounts and the giver's credits. named: the taker as the giver
    named them (an address they had before a change), in the giver's memo: the giver's books
    never show where a player moved to."""
    memo = " ".join(reason.split()) or "transfer"
    out = post(db, now, giver, "transfer", credits=-credits, memo=f"to {named or taker}: {memo}")
    back = post(db, now, taker, "transfer", credits=credits, ref=out.number, memo=f"from {giver}: {memo}")
    records.audit(db, now, game_id, "credits transfer", {"from": giver, "to": taker, "credits": credits})
    return out, back


def set_policy(db: sqlite_utils.Database, clock: Clock, game_name: str, unpaid: str) -> dict[str, str]:
    game = records.game_by_name(db, game_name)
    if unpaid not in POLICIES:
        raise GMError(f"'{unpaid}' is not a policy for unpaid turns; use {', '.join(POLICIES)}.")
    options = dict(game.options, unpaid=unpaid)
    with atomic(db):
        set_options(db, game.id, options)
        records.audit(db, iso(clock.now()), game.id, "credits policy", {"unpaid": unpaid})
    return policy(records.game_by_name(db, game_name))


# ----------------------------------------------------------------------------------------------
# The bookkeeper's export.

CSV_FIELDS = (
    "entry",
    "date",
    "account",
    "game",
    "kind",
    "credits",
    "money",
    "discount",
    "turn",
    "seat",
    "ref",
    "balance",
    "discount_after",
    "memo",
    "reference",
)
# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_cell(value: object) -> str:
    """A cell as text; text a spreadsheet would run as a formula gets a leading apostrophe."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # numbers (negative ones too) are data, never formulas
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def export_csv(db: sqlite_utils.Database, email: str | None = None) -> str:
    """Every entry (of one account with email) as CSV, money in units with two decimals, safe to
    open in a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    for e in all_entries(db) if email is None else account_entries(db, email):
        cells = [csv_cell(v) for v in (e.number, e.date, e.account, e.game, e.kind, e.credits)]
        cells.append(format_money(e.money))  # made here from an integer: a number, not a formula
        cells += [
            csv_cell(v) for v in (e.discount, e.turn, e.seat, e.ref, e.balance, e.discount_after, e.memo, e.reference)
        ]
        writer.writerow(cells)
    return out.getvalue()


def prepare_demo(db: sqlite_utils.Database, clock: Clock, game_name: str, progress: Callable[[str], None]) -> None:
    """A demo's robots are its players: they never drop out for sending no orders, and each
    buys turn credits, so the books and the end-of-game reports have something to show."""
    set_game_setting(db, clock, game_name, "nmr-limit", "0")
    game = records.game_by_name(db, game_name)
    for seat in records.seats_of(db, game.id):
        buy(db, clock, seat.email, DEMO_CREDITS, DEMO_CREDITS * 250, game_name)
    progress(f"Each robot bought {DEMO_CREDITS} turn credits; robots never drop out of a demo.")
