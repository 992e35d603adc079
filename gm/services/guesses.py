"""Wrong secrets, counted: the one limiter that the portal's sign-ins and mail's turn files share."""

from __future__ import annotations

import time
from pathlib import Path

from gm.home import Home
from gm.store.failures import FailureTable

# gm.toml's [portal] sign_in_failures and sign_in_window: wrong secrets allowed per key within
# the window (seconds) before that key must wait; the same for the portal and for mail.
SIGN_IN_FAILURES = 10
SIGN_IN_WINDOW = 300


class SignInLimiter(FailureTable):
    """Failed guesses per key (a client address, a browser, a seat, a mail's sender) in a sliding
    window; successes are free, so players who know their secret are never slowed by someone
    guessing.

    The failures are kept in the SQLite file at `path`, so every worker process of `gm serve`,
    mail intake and every server on the same home count the same failures, and a restart forgets
    none; `scope` keeps limiters sharing a file apart."""

    def __init__(self, failures: int, window: float, path: Path, scope: str = "sign-in"):
        self.failures, self.window, self.scope = failures, window, scope
        super().__init__(path)

    def blocked(self, *keys: str) -> float:
        """Seconds until one more attempt is allowed for every key; 0 when allowed now."""
        return max(self.waits(*keys).values(), default=0.0)

    def waits(self, *keys: str) -> dict[str, float]:
        """Each key that must wait, with the seconds until its next attempt is allowed."""
        # Wall-clock time: the same in every process and after a restart.
        now = time.time()
        rows = self.failures_since(self.scope, keys, now - self.window)
        seen: dict[str, int] = {}
        waits = {}
        for key, at in rows:
            seen[key] = seen.get(key, 0) + 1
            # The failures-th newest failure in the window: once it leaves, one more try is allowed.
            if seen[key] == self.failures:
                waits[key] = at + self.window - now
        return waits

    def left(self, *keys: str) -> dict[str, int]:
        """How many more failures each key may have now before it must wait."""
        rows = self.failures_since(self.scope, keys, time.time() - self.window)
        counted = {key: 0 for key in keys}
        for key, _ in rows:
            counted[key] += 1
        return {key: max(0, self.failures - count) for key, count in counted.items()}

    def failed(self, *keys: str) -> None:
        now = time.time()
        self.add_failures(self.scope, keys, now, now - self.window)


def limits_file(home: Home) -> Path:
    """Where failed sign-ins are counted, for every worker of `gm serve` and mail intake on this
    home to share."""
    return home.root / "portal-limits.db"


def sign_in_limiter(home: Home) -> SignInLimiter:
    """The home's limiter of wrong secrets: [portal] sign_in_failures within sign_in_window."""
    return SignInLimiter(
        home.setting("portal", "sign_in_failures", SIGN_IN_FAILURES),
        home.setting("portal", "sign_in_window", SIGN_IN_WINDOW),
        path=limits_file(home),
    )


def seat_target(game: str, seat: str) -> str:
    """The key of guesses at a seat, as typed (an unknown seat is counted like a known one, so
    a refusal tells nobody which seats exist)."""
    return f"seat:{game.strip().lower()}/{seat.strip().upper()}"


def wait_words(seconds: float) -> str:
    """'about N minute(s)', what a refusal says of the wait."""
    return f"about {max(1, round(seconds / 60))} minute(s)"
