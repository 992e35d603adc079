"""gm doctor: checks of a GM home, each a plain function that returns what it found and what to do."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils

from gm import rulesets
from gm.core.words import counted, sizes_apart
from gm.errors import GMError
from gm.home import DEFAULT_TOML, Home
from gm.mail.settings import mail_settings, server_settings
from gm.services import archive_keeping, credits, faults, games, seats
from gm.services.findings import Finding, Problem
from gm.services.mail_check import check_imap, check_smtp
from gm.services.overrides import check_templates
from gm.services.prizes import house_tables
from gm.store import keeping, records
from gm.store.archive import archived_path, noted_path
from gm.store.migrations import all_migrations

CHUNK = 1 << 20


def examine(home: Home, mail: bool = False) -> Iterator[Finding]:
    """Every check of the home, one finding at a time (a big archive takes a while), in the
    order a GM would fix things; the mail servers only when asked."""
    yield check_settings(home)
    yield check_folders(home)
    try:
        conn = keeping.open_read_only(home.database)
    except sqlite3.DatabaseError as exc:  # not a file SQLite can open at all
        yield unopened(home, exc)
    else:
        try:
            database = check_database(home, conn)
            yield database
            if database.ok:  # the rest read the database; a damaged one says so once, above
                yield check_migrations(conn)
                yield check_archive(home, conn)
                yield check_archive_size(home)
                yield check_reports(home, conn)
                yield check_ledger(conn)
                yield check_seats(conn)
                yield check_games(conn)
        finally:
            conn.close()
    yield check_templates(home)
    yield check_secrets(home)
    if mail:
        yield check_smtp(home)
        yield check_imap(home)


def check_settings(home: Home) -> Finding:
    """gm.toml parses, and every setting gm knows has the kind of value gm expects."""
    try:
        settings = home.settings()
    except GMError as exc:
        return Finding("settings", "", (Problem.from_message(str(exc), f"Fix {home.settings_file}."),))
    if not home.settings_file.exists():
        return Finding("settings", f"no {home.settings_file.name}: every setting has its default")
    problems = []
    for section, defaults in tomllib.loads(DEFAULT_TOML).items():
        for key, default in defaults.items():
            try:
                home.setting(section, key, default)
            except GMError as exc:
                problems.append(Problem.from_message(str(exc), "Fix the file."))
    try:
        house_tables(home)  # a bad [discounts.RULESET] would stop a game's last turn
    except GMError as exc:
        problems.append(Problem.from_message(str(exc), "Fix the file."))
    problems += _server_problems(home)  # a wrong [smtp] port shows here too: say it once
    return Finding(
        "settings", f"{home.settings_file.name} reads ({len(settings)} sections)", tuple(dict.fromkeys(problems))
    )


def _server_problems(home: Home) -> list[Problem]:
    """[mail] transport, and the [smtp] and [imap] servers that are set up, are ones gm can use."""
    problems = []
    try:
        mail_settings(home)
    except GMError as exc:
        problems.append(Problem.from_message(str(exc), f"Fix [mail] transport in {home.settings_file}."))
    for section, port, security in (("smtp", 587, "starttls"), ("imap", 993, "tls")):
        try:
            if home.setting(section, "host", ""):
                server_settings(home, section, port, security)
        except GMError as exc:
            problems.append(Problem.from_message(str(exc), f"Fix [{section}] in {home.settings_file}."))
    return problems


def check_folders(home: Home) -> Finding:
    """The folders 'gm init' makes are there."""
    missing = [f.name for f in (home.archive, home.reports, home.outbox, home.templates, home.locks) if not f.is_dir()]
    problems = [
        Problem(
            f"the folder {name}/ is missing",
            f"Run 'gm init --home {home.root}': it makes what is missing and changes nothing else.",
        )
        for name in missing
    ]
    if home.root.is_dir() and not os.access(home.root, os.W_OK):
        problems.append(
            Problem(
                f"the home {home.root} cannot be written (a read-only disk, or a folder this user may not write)",
                "Make it writable, or run gm as the user who owns it: every gm command writes there.",
            )
        )
    return Finding("folders", "archive, reports, outbox, templates and locks are there", tuple(problems))


RESTORE = (
    "Restore the last good backup into a new home (gm restore BACKUP NEWHOME), check it with gm doctor, "
    "then use it instead of this one."
)


def check_database(home: Home, conn: sqlite3.Connection) -> Finding:
    """PRAGMA integrity_check says ok."""
    found = keeping.integrity_problems(conn)
    shown = "; ".join(found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    if found and not os.access(home.root, os.W_OK):  # SQLite cannot open it read-only there: not damaged
        return unopened(home, None)
    problems = (Problem(f"the database is damaged: {shown}", RESTORE),) if found else ()
    size = home.database.stat().st_size
    return Finding("database", f"integrity_check ok ({size / 1_000_000:.1f} MB)", problems)


def unopened(home: Home, error: sqlite3.DatabaseError | None) -> Finding:
    """The database finding when SQLite cannot open the database: in a home that cannot be written
    (SQLite writes beside it even to read it), or a file that is no database SQLite can open."""
    if not os.access(home.root, os.W_OK):
        problem = Problem(
            "the database cannot be opened in a home that cannot be written",
            "Make the home writable (above), then run gm doctor again.",
        )
    else:
        problem = Problem(
            f"SQLite cannot open the database {home.database} ({error})",
            "Check that it is the database file and that this user may read it; else restore the last good "
            "backup into a new home (gm restore BACKUP NEWHOME).",
        )
    return Finding("database", "", (problem,))


def check_migrations(conn: sqlite3.Connection) -> Finding:
    """Every migration applied is one this gm knows, and none it knows is missing."""
    applied, known = keeping.applied_migrations(conn), [m.name for m in all_migrations()]
    problems = [
        Problem(
            f"migration {name} was applied by a newer gm",
            "Use that gm (or a newer one) with this home; this gm must not write to it.",
        )
        for name in applied
        if name not in known
    ]
    missing = [name for name in known if name not in applied]
    if missing:
        problems.append(
            Problem(
                f"{len(missing)} migration(s) of this gm are not applied yet ({', '.join(missing)})",
                "Take a backup (gm backup DEST), then run 'gm init' on this home: it applies them.",
            )
        )
    return Finding("migrations", f"{len(applied)} applied, all known to this gm", tuple(problems))


def check_archive(home: Home, conn: sqlite3.Connection) -> Finding:
    """Every archive file the database refers to is there and holds what its name (its SHA-256)
    says, or a note stands for it (bytes refused for their size, or pruned: gm/store/archive.py)."""
    problems = []
    references = keeping.archive_references(conn)
    noted = 0
    for digest, where in sorted(references.items()):
        path = archived_path(home.archive, digest)
        relative = path.relative_to(home.root).as_posix()
        fix = (
            f"Copy it back from any backup taken since it came (gm removes an archive file only with "
            f"'gm archive prune', which leaves a note of it): tar -xOf BACKUP.tar home/{relative} > {path}"
        )
        if not path.is_file():
            if noted_path(home.archive, digest).is_file():
                noted += 1
            else:
                problems.append(Problem(f"{relative} ({where}) is missing", fix))
        elif _sha256(path) != digest:
            problems.append(Problem(f"{relative} ({where}) does not hold what its name says: it was changed", fix))
    notes = f" ({noted} of them kept as a note only: refused for size, or pruned)" if noted else ""
    return Finding(
        "archive",
        f"{counted(len(references), 'file')} the database refers to, each there and matching its SHA-256{notes}",
        tuple(problems),
    )


def check_archive_size(home: Home) -> Finding:
    """The archive is within its budget ([archive] budget_mb)."""
    size = archive_keeping.archive_size(home)
    problems: tuple[Problem, ...] = ()
    held, budget = sizes_apart(size.size, size.budget)
    if size.over:
        problems = (
            Problem(
                f"the archive holds {held}, past its budget of {budget}",
                "See what nothing kept needs with 'gm archive prune --dry-run', then remove it with 'gm archive prune'; "
                "if what is left is all needed, raise [archive] budget_mb in gm.toml.",
            ),
        )
    return Finding(
        "archive size",
        f"{held} in {counted(size.files, 'file')}, within the budget of {budget}",
        problems,
    )


def check_reports(home: Home, conn: sqlite3.Connection) -> Finding:
    """Every report file the database lists is there, as it was rendered; one problem per turn."""
    wrong: dict[tuple[str, int], list[str]] = defaultdict(list)
    recorded = keeping.recorded_reports(conn)
    for report in recorded:
        path = home.root / report.path
        if not path.is_file():
            wrong[report.game, report.turn].append(f"{path.name} missing")
        elif _sha256(path) != report.sha256:
            wrong[report.game, report.turn].append(f"{path.name} changed")
    problems = tuple(
        Problem(
            f"reports of {game} turn {turn}: {', '.join(files)}",
            f"Render them again: gm report render {game} --turn {turn}",
        )
        for (game, turn), files in sorted(wrong.items())
    )
    return Finding("reports", f"the {len(recorded)} report files the database lists are there, as rendered", problems)


def check_ledger(conn: sqlite3.Connection) -> Finding:
    """What 'gm ledger check' proves: every balance the sum of its entries, and the rest."""
    try:
        db = sqlite_utils.Database(conn)
        errors = credits.check_books(db)
        entries = len(credits.all_entries(db))
    except sqlite3.OperationalError as exc:
        return Finding(
            "ledger",
            "",
            (Problem(f"the books cannot be read ({exc})", "Apply the missing migrations first (see migrations)."),),
        )
    fix = (
        "The ledger is never edited: put it right with a new entry (gm credits adjust ACCOUNT --credits N "
        "--reason ...), then run gm ledger check."
    )
    # An entry can be answered by a new one; the books' append-only guard gone only by a backup.
    return Finding(
        "ledger",
        f"the books balance ({counted(entries, 'entry', 'entries')})",
        tuple(Problem(str(e), fix if e.entry is not None else RESTORE) for e in errors),
    )


def check_seats(conn: sqlite3.Connection) -> Finding:
    """Every seat has a status gm knows. A robot seat is wholly the robot's (its account, no
    secret) and never in the books; every other seat holds a secret's hash."""
    rows = keeping.seat_rows(conn)
    problems = []
    for game, code, status, stored, email in rows:
        where = f"seat {code} of {game}"
        robot_parts = (email == games.ROBOT_EMAIL, stored == games.ROBOT_SECRET)
        if status not in seats.STATUSES:
            problems.append(
                Problem(
                    f"{where} has the status '{status}', which gm does not know",
                    f"Restore a backup, or set it to one of {', '.join(seats.STATUSES)}.",
                )
            )
        elif status == games.ROBOT and not all(robot_parts) or status != games.ROBOT and any(robot_parts):
            problems.append(
                Problem(
                    f"{where} is only partly a robot seat (status {status}, account {email})",
                    "Restore a backup taken before it changed.",
                )
            )
        elif status != games.ROBOT and not stored.startswith("scrypt$"):
            problems.append(
                Problem(f"{where} holds no secret's hash", f"Give it a new one: gm game secret {game} {code}.")
            )
    charged = keeping.entries_of(conn, games.ROBOT_EMAIL)
    if charged:
        problems.append(
            Problem(
                f"the robots' account has {charged} ledger entries; robots are never charged",
                "Reverse them with gm credits adjust, then run gm ledger check.",
            )
        )
    return Finding(
        "seats", f"{counted(len(rows), 'seat')}: known statuses, robots the robot's, secrets hashed", tuple(problems)
    )


def check_games(conn: sqlite3.Connection) -> Finding:
    """Every game can go on: its ruleset is not broken, no fault run-due noted still holds (a
    turn its ruleset failed to run or publish), no mail of it is kept for a ruleset's fault."""
    db = sqlite_utils.Database(conn)
    played = records.all_games(db)
    problems = [
        Problem(
            f"the ruleset {name} is installed but broken: {why}",
            "Install a version of it that works (gm rules list says what is wrong); until then no turn of "
            "its games runs.",
        )
        for name, why in sorted(rulesets.found().broken.items())
    ]
    for game in played:
        problems += [
            Problem(f"{game.name}: {fault}", _fault_fix(game.name, fault)) for fault in faults.game_faults(db, game)
        ]
    astray = faults.kept_mail(db).get("", 0)
    if astray:
        problems.append(Problem(f"{astray} mail(s) kept: a ruleset failed reading them", _KEPT_FIX))
    return Finding(
        "games", f"{counted(len(played), 'game')}: no ruleset broken, no fault holds, no mail kept", tuple(problems)
    )


_KEPT_FIX = "Install a fixed version of the ruleset; the next gm inbox import, fetch or receive reads the mail again."


def _fault_fix(game: str, fault: str) -> str:
    """What to do about one of game_faults' lines."""
    if " mail(s) kept" in fault:
        return _KEPT_FIX
    if " not published" in fault:
        return "Fix what it says (a ruleset fault: install a fixed version); gm run-due then publishes it."
    return (
        "Install a fixed version of the ruleset (give its author the message); gm run-due then runs the turn, "
        f"or gm turn run {game} at once."
    )


def check_secrets(home: Home) -> Finding:
    """The files that hold secrets can be read by their owner only: the portal's key, gm.toml
    once it holds the GM's password hash, and the mail password files."""
    kept = [home.root / "portal.key"]
    try:
        if home.setting("portal", "gm_password_hash", ""):
            kept.append(home.settings_file)
        kept += [
            Path(home.setting(s, "password_file", "")).expanduser()
            for s in ("smtp", "imap")
            if home.setting(s, "password_file", "")
        ]
    except GMError:  # a broken gm.toml is the settings check's to report
        pass
    problems = tuple(
        Problem(f"{path} holds a secret and other users of this machine can read it", f"chmod 600 {path}")
        for path in kept
        if path.is_file() and path.stat().st_mode & 0o044
    )
    return Finding(
        "secrets", "portal.key, gm.toml's password hash and the mail password files are the GM's only", problems
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
