"""The credit and discount books: immutable entries, the rules that make them, and the checks
that prove them (each check returns errors, as beancount's validation does)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gm.core.words import counted

KINDS = ("payment", "bonus", "turn charge", "adjustment", "discount award", "forfeit", "transfer")
MAX_DISCOUNT = 10  # rule D-EMP-15: "Discounts may be accumulated, up to a total of ten"
QUALIFYING = 10  # "each and every time a player buys ten or more turn credits"
TURN_PRICE = 1  # one credit per seat per turn run
# The most credits one payment, adjustment or transfer moves: 200 years of weekly turns. A typo of
# many digits is refused with this number, not stored (a balance past 2**63 would stop the books).
MOST_CREDITS_AT_ONCE = 10_000


# An account is its address as the accounts table tells them apart: ASCII letters in any case are
# the same (SQLite's COLLATE NOCASE), any other letter is not ("Ä@x.org" and "ä@x.org" are two).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def account_key(email: str) -> str:
    """The address as the books compare accounts (the accounts table's NOCASE)."""
    return email.translate(_ASCII_LOWER)


@dataclass(frozen=True)
class Entry:
    """One line of the books; never changed once written.

    number: its place in the books (1, 2, ...), the id `gm ledger check` names.
    date: when it was written, ISO 8601 UTC.
    account: the player's e-mail address (an account is a player across games).
    game: the game it applies to, or None (credits bought without a game).
    kind: one of KINDS.
    credits: turn credits added (positive) or taken (negative).
    money: cents that changed hands with it (payments; 0 otherwise; integers, rule D-ALL-2).
    discount: the change to the account's discount in bonus turns (awards +, forfeits -).
    turn, seat: the game turn and seat a turn charge is for.
    ref: the entry this one answers: a bonus names its payment, a reversal what it reverses,
        a transfer its other half.
    balance: the account's credits after this entry; discount_after its discount after it.
        Both are assertions that `check` proves against the sum of the entries.
    memo: the reason, in the GM's words.
    reference: a payment's own reference (the bank's or PayPal's transaction id), or None; no two
        payments share one, in any case of its letters.
    """

    number: int
    date: str
    account: str
    game: str | None
    kind: str
    credits: int
    money: int
    discount: int
    turn: int | None
    seat: str | None
    ref: int | None
    balance: int
    discount_after: int
    memo: str
    reference: str | None = None


@dataclass(frozen=True)
class Position:
    """What an account holds: credits (may be below 0 while reports are held) and discount."""

    balance: int = 0
    discount: int = 0


@dataclass(frozen=True)
class LedgerError:
    """A fault in the books, named by the entry where it shows (None: the books as a whole)."""

    entry: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.entry is None else f"entry {self.entry}: {self.message}"


def position(entries: Iterable[Entry], account: str) -> Position:
    """The account's credits and discount: sums of its entries, never stored totals."""
    mine = [e for e in entries if account_key(e.account) == account_key(account)]
    return Position(sum(e.credits for e in mine), sum(e.discount for e in mine))


def make_entry(
    number: int,
    date: str,
    account: str,
    kind: str,
    before: Position,
    *,
    credits: int = 0,
    money: int = 0,
    discount: int = 0,
    game: str | None = None,
    turn: int | None = None,
    seat: str | None = None,
    ref: int | None = None,
    memo: str = "",
    reference: str | None = None,
) -> Entry:
    return Entry(
        number,
        date,
        account,
        game,
        kind,
        credits,
        money,
        discount,
        turn,
        seat,
        ref,
        before.balance + credits,
        before.discount + discount,
        memo,
        reference,
    )


# ----------------------------------------------------------------------------------------------
# The rules that make entries (rule D-EMP-15).


def bonus_for(credits_bought: int, discount: int) -> int:
    """Bonus turns for one payment: the whole discount once per payment of 10 or more credits."""
    return discount if credits_bought >= QUALIFYING and discount > 0 else 0


def award_for(discount: int, earned: int) -> int:
    """The part of an earned discount that fits under the cap of 10."""
    return max(0, min(earned, MAX_DISCOUNT - discount))


def purchase(
    number: int,
    date: str,
    account: str,
    before: Position,
    credits: int,
    money: int,
    game: str | None,
    memo: str,
    reference: str | None = None,
) -> list[Entry]:
    """A payment (with its own reference, when the GM gives one), and its bonus when it qualifies."""
    paid = make_entry(
        number,
        date,
        account,
        "payment",
        before,
        credits=credits,
        money=money,
        game=game,
        memo=memo,
        reference=reference,
    )
    bonus = bonus_for(credits, before.discount)
    if not bonus:
        return [paid]
    after = Position(paid.balance, paid.discount_after)
    return [
        paid,
        make_entry(
            number + 1,
            date,
            account,
            "bonus",
            after,
            credits=bonus,
            game=game,
            ref=number,
            memo=f"discount of {bonus} on a payment of {credits}",
        ),
    ]


def reversal_takes(awarded: int, lowest_since: int) -> int:
    """The bonus turns a reversal of a discount award takes back: the award, or what is left of it
    when the account's discount has been lower since the award (lowest_since, the lowest it held
    from the award on): a drop-out's forfeit took the rest, and a discount never goes below 0."""
    return max(0, min(awarded, lowest_since))


# ----------------------------------------------------------------------------------------------
# The checks behind `gm ledger check`.


def check(entries: Sequence[Entry], turns: set[tuple[str, int]]) -> list[LedgerError]:
    """Every fault in the books, in entry order; an empty list means they balance.

    turns: the (game, turn) pairs that were played, so a charge can be matched to its turn.
    """
    errors: list[LedgerError] = []
    by_number = {e.number: e for e in entries}
    reversed_ = {e.ref for e in entries if e.kind == "adjustment" and e.ref is not None}
    halves = {e.ref for e in entries if e.kind == "transfer" and e.ref is not None}
    running: dict[str, Position] = defaultdict(Position)
    charged: set[tuple[str, str | None, int | None]] = set()
    bonused: set[int] = set()
    references: dict[str, int] = {}
    # Each discount award's lowest discount of its account from the award on (reversal_takes).
    lowest: dict[int, int] = {}
    awards: dict[str, list[int]] = defaultdict(list)
    # Each account's stated balance and discount less the sums, as of its last entry, and the
    # fault that named the difference with how many later entries carry it on (_carried).
    off: dict[str, Position] = defaultdict(Position)
    carried: dict[str, list[int]] = {}
    named: list[list[int]] = []  # [where in errors, later entries carrying it] of every such fault
    for entry in entries:
        account = account_key(entry.account)
        before = running[account]
        errors += [LedgerError(entry.number, m) for m in _shape(entry, before)]
        errors += [LedgerError(entry.number, m) for m in _reference(entry, references)]
        errors += [LedgerError(entry.number, m) for m in _links(entry, before, by_number, bonused, halves, lowest)]
        if entry.kind == "turn charge" and entry.number not in reversed_:
            key = (account, entry.game, entry.turn)
            if key in charged:
                errors.append(
                    LedgerError(entry.number, f"a second charge to {entry.account} for {entry.game} turn {entry.turn}")
                )
            charged.add(key)
            if (entry.game, entry.turn) not in turns:
                errors.append(
                    LedgerError(
                        entry.number, f"a turn charge for {entry.game} turn {entry.turn}, which was never played"
                    )
                )
        after = Position(before.balance + entry.credits, before.discount + entry.discount)
        running[account] = after
        if entry.kind == "discount award":
            awards[account].append(entry.number)
        for award in awards[account]:
            lowest[award] = min(lowest.get(award, after.discount), after.discount)
        now_off = Position(entry.balance - after.balance, entry.discount_after - after.discount)
        wrong = _stated(entry, after, off[account], now_off)
        if wrong:
            carried[account] = [len(errors), 0]
            named.append(carried[account])
        elif now_off != Position() and account in carried:
            carried[account][1] += 1
        off[account] = now_off
        errors += [LedgerError(entry.number, m) for m in wrong + _capped(after)]
    return _carried(errors, named)


def _carried(errors: list[LedgerError], named: list[list[int]]) -> list[LedgerError]:
    """A wrong balance (an entry edited, one deleted) puts every later balance of the account off
    by as much: the fault is named once, where it first shows, saying how many later entries
    carry it on, not once for each of them."""
    errors = list(errors)
    for at, later in named:
        if later:
            fault = errors[at]
            carries = counted(later, "later entry", "later entries")
            errors[at] = LedgerError(
                fault.entry, f"{fault.message}; the same difference carries on into {carries} of the account"
            )
    return errors


def _stated(entry: Entry, after: Position, was_off: Position, now_off: Position) -> list[str]:
    """Faults in the entry's stated balance and discount: a difference from the sums, named at the
    entry where it shows (was_off: the account's difference as of its entry before; one that
    carries on unchanged into this entry is the same fault)."""
    problems = []
    if now_off.balance and now_off.balance != was_off.balance:
        problems.append(
            f"balance {entry.balance} does not equal the sum of the entries of {entry.account}, {after.balance}"
        )
    if now_off.discount and now_off.discount != was_off.discount:
        problems.append(
            f"discount {entry.discount_after} does not equal the sum of the entries "
            f"of {entry.account}, {after.discount}"
        )
    return problems


def _capped(after: Position) -> list[str]:
    """The discount stays from 0 to MAX_DISCOUNT (rule D-EMP-15)."""
    problems = []
    if after.discount > MAX_DISCOUNT:
        problems.append(f"discount {after.discount} is above {MAX_DISCOUNT}")
    if after.discount < 0:
        problems.append(f"discount {after.discount} is below 0")
    return problems


def _shape(entry: Entry, before: Position) -> list[str]:
    """What each kind of entry must look like on its own."""
    kind = entry.kind
    if kind not in KINDS:
        return [f"unknown kind {kind!r}"]
    problems = []
    if kind != "payment" and entry.money != 0 and kind != "adjustment":
        problems.append(f"a {kind} moves no money, but this one has {entry.money}")
    if kind not in ("discount award", "forfeit", "adjustment") and entry.discount:
        problems.append(f"a {kind} cannot change the discount")
    if kind == "payment" and (entry.credits <= 0 or entry.money < 0):
        problems.append("a payment buys at least 1 credit for 0 or more money")
    elif kind == "turn charge" and (entry.credits != -TURN_PRICE or entry.turn is None):
        problems.append(f"a turn charge is {-TURN_PRICE} credit for a numbered turn")
    elif kind == "discount award" and (entry.credits or entry.discount <= 0 or not entry.game):
        problems.append("a discount award adds discount (no credits) for a game")
    elif kind == "forfeit" and (entry.credits or entry.discount != -before.discount):
        problems.append(f"a forfeit takes the whole discount ({before.discount}) and no credits")
    elif kind == "adjustment" and not entry.memo.strip():
        problems.append("an adjustment needs a reason")
    return problems


def _reference(entry: Entry, seen: dict[str, int]) -> list[str]:
    """A reference belongs to one payment."""
    if entry.reference is None:
        return []
    if entry.kind != "payment":
        return [f"a reference on an entry of kind {entry.kind!r}; only payments carry one"]
    key = account_key(entry.reference)
    if key in seen:
        return [f"payment reference {entry.reference} was booked in entry {seen[key]} already"]
    seen[key] = entry.number
    return []


def _links(
    entry: Entry,
    before: Position,
    by_number: dict[int, Entry],
    bonused: set[int],
    halves: set[int],
    lowest: dict[int, int],
) -> list[str]:
    """Entries that answer another: bonuses, reversals, transfers."""
    other = by_number.get(entry.ref) if entry.ref is not None else None
    if entry.kind == "bonus":
        return _bonus(entry, before, other, bonused)
    if entry.ref is None:
        # The first half of a transfer is named by its second half, written right after it.
        if entry.kind == "transfer" and entry.number not in halves:
            return ["a transfer without its other half"]
        return []
    if other is None or other.number >= entry.number:
        return [f"it refers to entry {entry.ref}, which is not an earlier entry"]
    if entry.kind == "transfer":
        if other.kind != "transfer" or other.credits != -entry.credits or other.ref is not None:
            return [f"a transfer that does not match its other half (entry {entry.ref})"]
        return []
    if entry.kind != "adjustment":
        return []
    # A discount award is undone as far as the account has held it since (reversal_takes).
    undone = reversal_takes(other.discount, lowest[other.number]) if other.number in lowest else other.discount
    if (
        account_key(other.account) != account_key(entry.account)
        or entry.credits != -other.credits
        or entry.discount != -undone
    ):
        return [f"a reversal of entry {other.number} must undo it exactly, for the same account"]
    return []


def _bonus(entry: Entry, before: Position, payment: Entry | None, bonused: set[int]) -> list[str]:
    if payment is None or payment.kind != "payment" or payment.number >= entry.number:
        return ["a bonus without a qualifying payment"]
    problems = []
    if account_key(payment.account) != account_key(entry.account) or payment.game != entry.game:
        problems.append(f"a bonus for another account or game than its payment (entry {payment.number})")
    if payment.credits < QUALIFYING:
        problems.append(
            f"a bonus without a qualifying payment: entry {payment.number} bought "
            f"{payment.credits} credits, fewer than {QUALIFYING}"
        )
    if entry.credits != before.discount or entry.credits <= 0:
        problems.append(f"a bonus of {entry.credits} credits, but the discount was {before.discount}")
    if payment.number in bonused:
        problems.append(f"a second bonus for the payment in entry {payment.number}")
    bonused.add(payment.number)
    return problems
