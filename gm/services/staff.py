"""The house's GMs: named accounts, each with a password and one-time sign-in links of their own,
optionally limited to some games; who acts (gm --as, GM_NAME, the portal's signed-in GM).

The owner is the GM gm had before there were names: the account m020 makes, called 'owner',
whose password is the one `gm portal password` set in gm.toml (moved into the database the first
time gm opens the home after the update, and taken out of gm.toml)."""

from __future__ import annotations

import hmac
import os
import re
import secrets
import tomllib
from dataclasses import dataclass
from datetime import timedelta

import sqlite_utils
from itsdangerous import BadSignature, URLSafeTimedSerializer

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.services.portal_access import base_url_of, check_password, fingerprint, hash_password, link_minutes, portal_key
from gm.store import records, staff
from gm.store.acting import OWNER_NAME, Actor, acting
from gm.store.database import transaction
from gm.store.staff import OWNER, StaffRecord

NAME_LENGTH = 32  # the longest GM name
PASSWORD_LENGTH = 10  # the shortest GM password
_NAME = re.compile(rf"[A-Za-z][A-Za-z0-9._-]{{0,{NAME_LENGTH - 1}}}")
_GM_LINK_SALT = "gm-portal-gm-link"
GM_LINK_DAYS = 1  # the longest a GM's one-time link may last
# A hash of a password nobody has: an unknown name is checked against it, to take as long as a known one.
_DECOY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
_SETTING_LINE = re.compile(r"(?m)^gm_password_hash\s*=.*\n?")


# ------------------------------------------------------------------ who acts


def actor_for(db: sqlite_utils.Database, home: Home, name: str | None) -> Actor:
    """Who acts for a command: the GM named (gm --as NAME, else GM_NAME), else the owner; a clear
    error for a name the house does not have or has removed."""
    adopt_owner_password(db, home)
    account = staff.owner(db) if not name else _standing(db, name, "--as or GM_NAME")
    return actor_of(db, account)


def actor_of(db: sqlite_utils.Database, account: StaffRecord) -> Actor:
    """The account as the audit log names it, with the games it is limited to."""
    ids = staff.game_ids_of(db, account.id)
    return Actor(account.name, ids if account.games else None)


def _standing(db: sqlite_utils.Database, name: str, where: str) -> StaffRecord:
    account = staff.staff_named(db, name.strip())
    if account is None:
        known = ", ".join(a.name for a in staff.all_staff(db) if a.removed is None)
        raise GMError(f"this house has no GM named '{name.strip()}' (check {where}). Its GMs: {known}.")
    if account.removed is not None:
        raise GMError(f"{account.name} is no longer a GM of this house (removed {account.removed}).")
    return account


def _owner_only(what: str) -> None:
    """Only the owner adds and removes GMs and sets another's password."""
    me = acting().name
    if me.lower() != OWNER_NAME:
        raise GMError(f"only the house's owner may {what}; you act as {me}. Ask the owner.")


# ------------------------------------------------------------------ the accounts


def accounts(db: sqlite_utils.Database, home: Home) -> list[StaffRecord]:
    """Every GM account, the owner first, removed ones too."""
    adopt_owner_password(db, home)
    return staff.all_staff(db)


def add(db: sqlite_utils.Database, clock: Clock, name: str, games: list[str]) -> StaffRecord:
    """A new GM, limited to `games` (none: every game); they sign in once they have a password."""
    _owner_only("add a GM")
    name = name.strip()
    if not _NAME.fullmatch(name):
        raise GMError(
            f"'{name[:60]}' is not a GM name: a letter, then letters, digits, '.', '-' or '_', "
            f"{NAME_LENGTH} characters at most (for example ann or j.smith)."
        )
    if staff.staff_named(db, name) is not None:
        raise GMError(
            f"the house has (or had) a GM named '{name}': a name stays with its audit entries. Choose another."
        )
    ids, names = _games(db, games)
    now = iso(clock.now())
    with transaction(db):
        made = staff.add_staff(db, name, now, ids)
        records.audit(db, now, None, "gm add", {"name": name, "games": names or "every game"})
    found = staff.staff_by_id(db, made)
    assert found is not None  # just made
    return found


def limit(db: sqlite_utils.Database, clock: Clock, name: str, games: list[str]) -> StaffRecord:
    """The games a GM is limited to from now on (none: every game); their sessions see the
    change at their next request."""
    _owner_only("change a GM's games")
    account = _standing(db, name, "the name")
    if account.role == OWNER:
        raise GMError("the owner is a GM of every game; limit another GM.")
    ids, names = _games(db, games)
    now = iso(clock.now())
    with transaction(db):
        staff.set_games(db, account.id, ids)
        records.audit(db, now, None, "gm games", {"name": account.name, "games": names or "every game"})
    changed = staff.staff_by_id(db, account.id)
    assert changed is not None  # it stood a moment ago
    return changed


def _games(db: sqlite_utils.Database, games: list[str]) -> tuple[list[int], list[str]]:
    """The ids and names of the games named (G1,G2 split), each checked to exist."""
    found = [records.game_by_name(db, g.strip()) for g in games if g.strip()]
    return sorted({g.id for g in found}), sorted({g.name for g in found})


def remove(db: sqlite_utils.Database, clock: Clock, name: str) -> StaffRecord:
    """Remove a GM: they can no longer sign in (their sessions end at their next request) nor
    act; their name stays in the audit log, never given to another."""
    _owner_only("remove a GM")
    account = _standing(db, name, "the name")
    if account.role == OWNER:
        raise GMError("the owner cannot be removed: the house needs one GM who may do everything.")
    now = iso(clock.now())
    with transaction(db):
        staff.mark_removed(db, account.id, now)
        records.audit(db, now, None, "gm remove", {"name": account.name})
    return account


def set_password(db: sqlite_utils.Database, home: Home, clock: Clock, name: str | None, password: str) -> StaffRecord:
    """Set a GM's portal password (None: the GM acting); it ends their sessions and voids their
    link. A GM sets their own; only the owner sets another's."""
    adopt_owner_password(db, home)
    account = _standing(db, name or acting().name, "the name")
    if account.name.lower() != acting().name.lower():
        _owner_only(f"set {account.name}'s password")
    if len(password) < PASSWORD_LENGTH:
        raise GMError(f"the GM password must be at least {PASSWORD_LENGTH} characters long.")
    now = iso(clock.now())
    with transaction(db):
        staff.set_password_hash(db, account.id, hash_password(password))
        records.audit(db, now, None, "gm password", {"name": account.name}, own=True)
    return account


def adopt_owner_password(db: sqlite_utils.Database, home: Home) -> None:
    """The owner's password from before there were names (gm.toml's [portal] gm_password_hash)
    becomes the owner account's, once; the line leaves gm.toml, so one place holds it."""
    old = home.setting("portal", "gm_password_hash", "")
    if not old:
        return
    owner = staff.owner(db)
    if owner.password_hash is None:
        with transaction(db):
            staff.set_password_hash(db, owner.id, old)
    _drop_setting(home)


def _drop_setting(home: Home) -> None:
    """gm.toml without its gm_password_hash line, every other line as it was."""
    path = home.settings_file
    text = _SETTING_LINE.sub("", path.read_text(encoding="utf-8"), count=1)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GMError(f"{path} is not valid TOML ({exc}). Fix the file and try again.") from exc
    temporary = path.with_name(f".{path.name}.tmp")
    with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def any_password(db: sqlite_utils.Database, home: Home) -> bool:
    """Whether any standing GM can sign in to the portal."""
    return any(a.password_hash and a.removed is None for a in accounts(db, home))


# ------------------------------------------------------------------ the portal


@dataclass(frozen=True)
class SignedIn:
    """A GM on the portal: the account and the tag of its password a session carries (a new
    password, or the GM removed, ends the session)."""

    account: StaffRecord
    tag: str


def sign_in(db: sqlite_utils.Database, home: Home, name: str, password: str) -> SignedIn | None:
    """The GM whose name (blank: the owner) and password match; None otherwise, alike for every
    reason and as slow for a name the house does not have."""
    adopt_owner_password(db, home)
    name = name.strip()
    account = staff.owner(db) if not name else staff.staff_named(db, name)
    stored = account.password_hash if account is not None and account.removed is None else None
    matches = check_password(password, stored or _DECOY_HASH)
    if account is None or stored is None or not matches:
        return None
    return SignedIn(account, fingerprint(stored))


def still_signed_in(db: sqlite_utils.Database, staff_id: int, tag: str) -> StaffRecord | None:
    """The GM a session signed in as, while they stand and have the password they signed in with."""
    account = staff.staff_by_id(db, staff_id)
    if account is None or account.removed is not None or not account.password_hash:
        return None
    return account if hmac.compare_digest(fingerprint(account.password_hash), tag) else None


def target(account: StaffRecord | None, name: str = "") -> str:
    """What a GM's sign-in counts against, for the guess limiter and known browsers: 'gm' for
    the owner (as before there were names), 'gm:NAME' for another."""
    who = account.name if account is not None else name.strip() or OWNER_NAME
    return "gm" if who.lower() == OWNER_NAME else f"gm:{who.lower()}"


def make_link(
    db: sqlite_utils.Database, home: Home, clock: Clock, base_url: str | None = None, minutes: int | None = None
) -> tuple[str, str]:
    """A one-time link that signs the GM acting in to /gm, as (link, expiry ISO text): for a
    browser they never used, while strangers' wrong passwords hold such browsers up. One at a
    time per GM: a new one voids the last, and so does a new password."""
    adopt_owner_password(db, home)
    account = _standing(db, acting().name, "--as or GM_NAME")
    if not account.password_hash:
        if account.role == OWNER:
            raise GMError(
                "no GM password is set, so there is nothing to sign in to. Set one with 'gm portal password'."
            )
        raise GMError(
            f"{account.name} has no GM password, so there is nothing to sign in to. "
            f"Set one with 'gm gm password {account.name}'."
        )
    minutes = link_minutes(home, minutes, GM_LINK_DAYS, "a GM sign-in link")
    base = base_url_of(home, base_url)
    nonce, expires = secrets.token_urlsafe(18), iso(clock.now() + timedelta(minutes=minutes))
    with transaction(db):
        staff.set_link(db, account.id, nonce, expires)
    token = URLSafeTimedSerializer(portal_key(home), salt=_GM_LINK_SALT).dumps(
        {"g": nonce, "s": account.id, "f": fingerprint(account.password_hash)}
    )
    return f"{base}/link/{token}", expires


def use_link(db: sqlite_utils.Database, home: Home, clock: Clock, token: str) -> SignedIn | None:
    """The GM a link signs in, when it is theirs, unused, unexpired and made for their password
    now; the link is used up."""
    try:
        made = URLSafeTimedSerializer(portal_key(home), salt=_GM_LINK_SALT).loads(
            token, max_age=GM_LINK_DAYS * 24 * 3600
        )
        nonce, staff_id, tag = str(made["g"]), int(made["s"]), str(made["f"])
    except (BadSignature, KeyError, TypeError, ValueError, AttributeError):
        return None
    account = still_signed_in(db, staff_id, tag)
    if account is None:
        return None
    with transaction(db):
        used = staff.use_link(db, account.id, nonce, iso(clock.now()))
    return SignedIn(account, tag) if used else None
