"""Who is acting: the GM whose command or portal session is running, as the audit log names them
(no SQL). The command line sets it once per process (gm --as, GM_NAME, else the owner); the portal
for each request, from the GM signed in."""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass

OWNER_NAME = "owner"  # the owner account's name (m020), who acts when nobody else is named


@dataclass(frozen=True)
class Actor:
    """Who acts: the name the audit log writes, and the ids of the only games they may act on
    (None: every game and the house)."""

    name: str
    games: frozenset[int] | None = None

    def may_act_on(self, game_id: int | None) -> bool:
        """A GM limited to some games acts on those only, never house-wide."""
        return self.games is None or (game_id is not None and game_id in self.games)


# A player's own action on the portal (a sign-in link asked for, press sent), no GM signed in.
PORTAL_PLAYER = Actor("portal (a player)")

_OWNER = Actor(OWNER_NAME)
_ACTING: ContextVar[Actor | None] = ContextVar("gm_acting", default=None)


def acting() -> Actor:
    """Who acts now (the owner, unless a command or a request said otherwise)."""
    return _ACTING.get() or _OWNER


def act_as(actor: Actor | None) -> None:
    """From now on in this context (a command's whole run), `actor` acts (None: the owner)."""
    _ACTING.set(actor)


def begin_acting(actor: Actor | None) -> Token[Actor | None]:
    """`actor` acts from now (a portal request) until end_acting(the token)."""
    return _ACTING.set(actor)


def end_acting(token: Token[Actor | None]) -> None:
    """Who acted before begin_acting acts again."""
    _ACTING.reset(token)
