"""The secrets in mail's turn files: checked before the write transaction that stores the mail,
each wrong one counted against its sender and its seat as the portal counts its sign-ins."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gm.intake.verified import VerifiedSecrets
from gm.services.guesses import SignInLimiter, seat_target, wait_words
from gm.services.kept_rows import KeptRows
from gm.store.records import GameRecord, SeatRecord

# What a turn file claims (gm.intake.readers._claim): the game and seat its envelope names, and
# the secret it gives; None for a file without a complete envelope.
Claim = tuple[str | None, str | None, str]


@dataclass(frozen=True)
class Guess:
    """A turn file's claim to a seat, to be checked: the mail's sender (its From address, None
    when it has none), the game and seat it names, and the secret it gives."""

    sender: str | None
    game: GameRecord
    seat: SeatRecord
    secret: str

    @property
    def keys(self) -> tuple[str, ...]:
        """What a wrong secret counts against: its sender, and the seat unless the mail comes
        from the seat's own address. So a stranger's flood holds up strangers, as on the portal
        (where a browser that signed in before passes), and the player's mail still goes through;
        a flood forged from the player's own address holds up only that address."""
        sender = f"mail:{self.sender or ''}"
        if self.sender and self.sender == self.seat.email.lower():
            return (sender,)
        return (sender, seat_target(self.game.name, self.seat.code))

    @property
    def pair(self) -> tuple[str, str]:
        return self.secret, self.seat.secret_hash


def from_elsewhere(game: GameRecord, seat: SeatRecord, sender: str | None) -> bool:
    """The game takes turn files only from the seat's registered address (gm game require-from),
    and this one came from another: it is refused before its secret is looked at."""
    return bool(game.options.get("require-from")) and (sender or "") != seat.email.lower()


class MailGuesses:
    """The secret check of one intake run (secret, stored hash) -> bool, settled ahead.

    settle(messages) checks every turn file's secret of a batch before the batch's write
    transaction begins: scrypt (about 3 ms a seat secret) never runs while the database is held.
    A guess whose keys (Guess.keys) have used up [portal] sign_in_failures within
    sign_in_window is not checked at all: its turn file is refused (blocked()). A secret this
    process verified before is right at no cost and counts against nothing.

    Except one turn file a mail from the seat's registered address: anyone can write that address
    in a From, and ten wrong secrets forged from it every five minutes held the player's own turn
    files back for good. Past the limit such a mail still has its first claim to the seat checked
    (one scrypt, about 3 ms, the order of reading the mail), so the player's right secret counts,
    and each guess costs the guesser a mail.
    """

    def __init__(self, limiter: SignInLimiter, verified: VerifiedSecrets, rows: KeptRows):
        self.limiter, self.verified, self.rows = limiter, verified, rows
        self._settled: dict[tuple[str, str], bool] = {}
        self._blocked: dict[tuple[str, int], str] = {}
        self._ahead: dict[tuple[str, str], tuple[str, ...]] = {}  # pairs being proved, and their keys
        self._pending: dict[str, int] = {}  # per key, how many of them
        self._past_limit: set[tuple[str, int]] = set()  # (mail, seat) checked past its sender's limit

    def __call__(self, secret: str, stored: str) -> bool:
        settled = self._settled.get((secret, stored))
        # Not settled: the seat's secret changed since (another process committed): check it now.
        return settled if settled is not None else self.verified(secret, stored)

    def guesses(self, sender: str | None, claims: Iterable[Claim | None]) -> list[Guess | None]:
        """Each turn file's guess; None for one that names no seat (it is refused unchecked)."""
        return [self._guess(sender, claim) for claim in claims]

    def _guess(self, sender: str | None, claim: Claim | None) -> Guess | None:
        if claim is None:
            return None
        game_name, seat_code, secret = claim
        game = self.rows.game(game_name) if game_name is not None else None
        seat = next((s for s in self.rows.seats(game) if s.code == seat_code), None) if game else None
        if game is None or seat is None or from_elsewhere(game, seat, sender):
            return None
        return Guess(sender, game, seat, secret)

    def prove_ahead(self, messages: list[tuple[str | None, tuple[Claim | None, ...]]], threads: int) -> None:
        """Start checking, in background threads, the secrets of mail read ahead ((sender,
        claims) each), as many per key as the limiter would still check, counting those started
        for batches not settled yet: a flood starts no more scrypt than it may use."""
        pairs = []
        for sender, claims in messages:
            for guess in self.guesses(sender, claims):
                if guess is None or guess.pair in self._ahead or self.verified.known(*guess.pair):
                    continue
                left = self.limiter.left(*guess.keys)
                if all(left[key] > self._pending.get(key, 0) for key in guess.keys):
                    for key in guess.keys:
                        self._pending[key] = self._pending.get(key, 0) + 1  # as if wrong: the worst it can do
                    self._ahead[guess.pair] = guess.keys
                    pairs.append(guess.pair)
        self.verified.prove(pairs, threads)

    def settle(self, messages: list[tuple[str, str | None, tuple[Claim | None, ...]]]) -> None:
        """Check the secrets of a batch's messages ((digest, sender, claims) each), in order, before
        its write transaction: each verdict is kept for the check, each wrong secret counted,
        and each turn file whose keys are used up marked blocked, unchecked."""
        self._settled.clear()
        self._blocked.clear()
        self._past_limit.clear()
        self.rows.refresh()
        for digest, sender, claims in messages:
            for number, guess in enumerate(self.guesses(sender, claims), start=1):
                if guess is not None:
                    self._settle(digest, number, guess)

    def _settle(self, digest: str, number: int, guess: Guess) -> None:
        for key in self._ahead.pop(guess.pair, ()):
            self._pending[key] -= 1
        if self.verified.known(*guess.pair):
            self._settled[guess.pair] = True
            return
        waits = self.limiter.waits(*guess.keys)
        if waits and not self._own_address_once(digest, guess):
            self._blocked[(digest, number)] = _refusal(guess, guess.keys[0] in waits, max(waits.values()))
            return
        right = self._settled[guess.pair] = self.verified(*guess.pair)
        if not right:
            self.limiter.failed(*guess.keys)

    def _own_address_once(self, digest: str, guess: Guess) -> bool:
        """Whether this guess, blocked, is the mail's first claim to a seat from the seat's own
        registered address (its keys are the sender's alone): checked all the same, once."""
        if len(guess.keys) != 1 or (digest, guess.seat.id) in self._past_limit:
            return False
        self._past_limit.add((digest, guess.seat.id))
        return True

    def blocked(self, digest: str, number: int) -> str | None:
        """Why turn file `number` of the message was not checked (too many wrong secrets), or None."""
        return self._blocked.get((digest, number))


def _refusal(guess: Guess, sender: bool, seconds: float) -> str:
    """Why the guess was not checked: its sender's guesses used up (said first), else its seat's."""
    wait = wait_words(seconds)
    if sender:
        return f"too many wrong secrets from {guess.sender or 'this address'} lately; try again in {wait}"
    return (
        f"too many wrong secrets for {guess.seat.code} of '{guess.game.name}' lately, from "
        f"anywhere; orders from the address registered for the seat still count, or try again in {wait}"
    )
