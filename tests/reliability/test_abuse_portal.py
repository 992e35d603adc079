"""The abuse battery, the portal's and the house's files (issue 29): what a hostile player or
stranger hands gm instead of what gm made. Each must be refused in one clear line and change
nothing; the rightful player is never the worse for it.

- hostile JSON reports for `gm orders check --report`, for every ruleset (16 of these 56 gave a
  traceback before, and 14 more were read as reports or answered in more than one line);
- tampered backups for `gm restore`: modes (set-ID, sticky, writable by anyone), paths outside
  the home, links, hashes, and a manifest that does not hold together;
- stale links and sessions, over plain HTTP against `gm serve`: what the old player of a seat
  still holds after a new secret, the player leaving, or a standby taking the seat.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import stat
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

from gm.rulesets import installed
from tests.render.ruleset_report import report_context
from tests.web.test_workers import Served, csrf, request, session_cookie, sign_in

# ---------------------------------------------------------------------------------------------
# Hostile JSON reports: `gm orders check --report REPORT FILE` with each, for every ruleset.


def _at(path: str, value) -> Callable[[dict], object]:
    """A change that sets the report's `path` (keys joined by '.') to `value` (or removes it)."""

    def change(report: dict) -> dict:
        *parents, last = path.split(".")
        where = report
        for key in parents:
            where = where[key]
        if value is _GONE:
            where.pop(last, None)
        else:
            where[last] = value
        return report

    return change


_GONE = object()


def _deep(depth: int, inner="x") -> str:
    return "[" * depth + json.dumps(inner) + "]" * depth


# Each: a name, and what becomes of a real report (a dict to change, or the file's new text).
HOSTILE_REPORTS: list[tuple[str, Callable[[dict], object]]] = [
    ("a list", lambda r: "[1, 2]"),
    ("null", lambda r: "null"),
    ("a string", lambda r: '"report"'),
    ("a bare Infinity", lambda r: "Infinity"),
    ("empty", lambda r: ""),
    ("cut short", lambda r: json.dumps(r)[: len(json.dumps(r)) // 2]),
    ("not UTF-8", lambda r: json.dumps(r).encode("utf-8").replace(b'"view"', b'"vi\xffew"')),
    ("arrays 1,000 deep", lambda r: _deep(1000)),
    ("arrays 100,000 deep", lambda r: _deep(100_000)),
    ("the view 1,000 deep", lambda r: json.dumps(r).replace('"view": {', f'"view": {{"deep": {_deep(1000)}, ', 1)),
    ("objects 200 deep in known", lambda r: _at("view.known", json.loads('{"a": ' * 200 + "1" + "}" * 200))(r)),
    ("turn Infinity", lambda r: json.dumps(r).replace('"turn": ', '"turn": Infinity, "was": ', 1)),
    ("turn -Infinity", lambda r: json.dumps(r).replace('"turn": ', '"turn": -Infinity, "was": ', 1)),
    ("turn NaN", lambda r: json.dumps(r).replace('"turn": ', '"turn": NaN, "was": ', 1)),
    ("turn 1e400", lambda r: json.dumps(r).replace('"turn": ', '"turn": 1e400, "was": ', 1)),
    ("turn of 5,000 digits", lambda r: json.dumps(r).replace('"turn": ', f'"turn": {"9" * 5000}, "was": ', 1)),
    ("turn 10^30", _at("turn", 10**30)),
    ("turn -1", _at("turn", -1)),
    ("turn 2.5", _at("turn", 2.5)),
    ("turn as text", _at("turn", "1")),
    ("turn true", _at("turn", True)),
    ("turn null", _at("turn", None)),
    ("turn missing", _at("turn", _GONE)),
    ("seat null", _at("seat", None)),
    ("seat a number", _at("seat", 7)),
    ("seat a list", _at("seat", ["BR"])),
    ("seat empty", _at("seat", "")),
    ("seat with a line break", _at("seat", "BR\nFR")),
    ("seat of a million characters", _at("seat", "B" * 1_000_000)),
    ("seat missing", _at("seat", _GONE)),
    ("game missing", _at("game", _GONE)),
    ("game a string", _at("game", "g1")),
    ("game a list", _at("game", [])),
    ("game name null", _at("game.name", None)),
    ("game name huge", _at("game.name", "g" * 2_000_000)),
    ("game name with a line break", _at("game.name", "g1\nError: fake")),
    ("ruleset missing", _at("game.ruleset", _GONE)),
    ("ruleset a list", _at("game.ruleset", ["clash"])),
    ("ruleset not installed", _at("game.ruleset", "chess")),
    ("ruleset with a path", _at("game.ruleset", "../../etc/passwd")),
    ("view a list", _at("view", [])),
    ("view null", _at("view", None)),
    ("view missing", _at("view", _GONE)),
    ("view seats a number", _at("view.seats", 5)),
    ("view seats of numbers", _at("view.seats", [1, 2])),
    ("view seat code a list", _at("view.seats", [{"code": ["BR"]}])),
    ("view seat code with a line break", _at("view.seats", [{"code": "BR\nwarning: fake"}])),
    ("view map a list", _at("view.map", [])),
    ("view territories an object", _at("view.map", {"territories": {"ENG": 1}})),
    ("view territory code an object", _at("view.map", {"territories": [{"code": {"x": 1}}]})),
    ("view codes of objects", _at("view.codes", [{"x": 1}])),
    ("view codes a string", _at("view.codes", "ENG")),
    ("order form a number", _at("order_form", 5)),
    ("order form a list", _at("order_form", ["GAME"])),
    ("outcome a string", _at("outcome", "won")),
    ("a number of 31 digits elsewhere", _at("view.you", 10**30)),
]


def _base_report(ruleset: str) -> tuple[dict, str]:
    """A real report of turn 1 for the ruleset's first seat, and a turn file its check accepts."""
    report = report_context(ruleset)
    orders = f"GAME {report['game']['name']}\nPLAYER {report['seat']}\nPASSWORD x\nEND\n"
    return report, orders


@pytest.fixture(scope="module")
def reports() -> dict[str, tuple[dict, str]]:
    return {name: _base_report(name) for name in sorted(installed())}


def test_the_hostile_reports_are_at_least_32(reports):
    assert len(HOSTILE_REPORTS) >= 32 and len({name for name, _ in HOSTILE_REPORTS}) == len(HOSTILE_REPORTS)


@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_each_hostile_report_is_refused_in_one_line(ruleset, reports, gm, tmp_path, monkeypatch):
    monkeypatch.delenv("GM_HOME", raising=False)
    monkeypatch.chdir(tmp_path)  # a player's folder: no GM home anywhere
    report, orders = reports[ruleset]
    path, turn_file = tmp_path / "report.json", tmp_path / "orders.txt"
    turn_file.write_text(orders)
    path.write_text(json.dumps(report))
    ran = gm("orders", "check", "--report", path, turn_file)
    # the real report checks the file: accepted, at most warned of (Empires: the 16 actions unused)
    assert ran.code == 0 and all(": warning: " in line for line in ran.err.splitlines()), ran.err
    for name, hostile in HOSTILE_REPORTS:
        made = hostile(copy.deepcopy(report))
        data = made if isinstance(made, bytes) else (made if isinstance(made, str) else json.dumps(made)).encode()
        path.write_bytes(data)
        ran = gm("orders", "check", "--report", path, turn_file)
        said = ran.err.splitlines()
        assert ran.code == 1 and ran.out == "" and len(said) == 1, (name, ran.code, ran.out[:200], ran.err[:400])
        assert said[0].startswith("Error: ") and len(said[0]) < 400, (name, said[0][:400])
    assert not list(Path(tmp_path).glob("*.db"))


# ---------------------------------------------------------------------------------------------
# Tampered backups: `gm restore` refuses each in one line and makes nothing, anywhere.


def _entry(manifest: dict, path: str) -> dict:
    return next(f for f in manifest["files"] if f["path"] == path)


def _folder(manifest: dict, path: str) -> list:
    return next(f for f in manifest["folders"] if f[0] == path)


def _file_mode(path: str, mode: str):
    def change(manifest: dict, extra: list) -> None:
        _entry(manifest, path)["mode"] = mode

    return change


def _folder_mode(path: str, mode: str):
    def change(manifest: dict, extra: list) -> None:
        _folder(manifest, path)[1] = mode

    return change


def _listed(path: str, data: bytes = b"evil\n", kind: bytes = tarfile.REGTYPE, link: str = "", listed: bool = True):
    """A member added to the tar (as a file, a link, a device...), listed in the manifest with the
    hash of `data` when `listed`."""

    def change(manifest: dict, extra: list) -> None:
        info = tarfile.TarInfo(f"home/{path}")
        info.type, info.linkname, info.mode = kind, link, 0o644
        info.size = len(data) if kind == tarfile.REGTYPE else 0
        extra.append((info, data if kind == tarfile.REGTYPE else None))
        if listed:
            manifest["files"].append(
                {"path": path, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "mode": "0644"}
            )

    return change


def _manifest(**fields):
    def change(manifest: dict, extra: list) -> None:
        manifest.update(fields)

    return change


def _moved(path: str, to: str):
    """The manifest and the tar both name a file by another path (hashes still agree)."""

    def change(manifest: dict, extra: list) -> None:
        entry = _entry(manifest, path)
        entry["path"] = to
        extra.append(("rename", f"home/{path}", f"home/{to}"))

    return change


def _twice(path: str, where: str = "manifest"):
    def change(manifest: dict, extra: list) -> None:
        if where == "manifest":
            manifest["files"].append(dict(_entry(manifest, path)))
        else:
            extra.append(("again", f"home/{path}", b"other bytes\n"))

    return change


def _entry_field(path: str, **fields):
    def change(manifest: dict, extra: list) -> None:
        _entry(manifest, path).update(fields)

    return change


def _content(path: str, data: bytes):
    def change(manifest: dict, extra: list) -> None:
        extra.append(("content", f"home/{path}", data))

    return change


TAMPERED_BACKUPS = [
    ("a set-user-ID file", _file_mode("gm.toml", "4755")),
    ("a set-group-ID file", _file_mode("gm.toml", "2755")),
    ("a sticky file", _file_mode("gm.toml", "1644")),
    ("a file anyone may write", _file_mode("gm.toml", "0666")),
    ("a file mode of every bit", _file_mode("gm.toml", "7777")),
    ("a file mode past every bit", _file_mode("gm.toml", "77777777")),
    ("a negative file mode", _file_mode("gm.toml", "-1")),
    ("a file mode that is no number", _file_mode("gm.toml", "rwxrwxrwx")),
    ("a file mode as a bare number", _file_mode("gm.toml", 493)),
    ("a home anyone may write", _folder_mode(".", "0777")),
    ("a set-group-ID folder", _folder_mode("archive", "2755")),
    ("a folder anyone may write", _folder_mode("templates", "0757")),
    ("a path out of the home", _moved("gm.toml", "../gm.toml")),
    ("a path out through a folder", _moved("gm.toml", "templates/../../gm.toml")),
    ("an absolute path", _moved("gm.toml", "/tmp/gm-abuse-absolute.toml")),
    ("a path with a line break", _moved("gm.toml", "gm\n.toml")),
    ("a path with a NUL", _moved("gm.toml", "gm\x00.toml")),
    ("a path with a backslash", _moved("gm.toml", "templates\\gm.toml")),
    ("a symbolic link listed as a file", _listed("templates/evil", kind=tarfile.SYMTYPE, link="/etc/passwd")),
    ("a symbolic link not listed", _listed("templates/evil", kind=tarfile.SYMTYPE, link="/etc", listed=False)),
    ("a hard link", _listed("templates/evil", kind=tarfile.LNKTYPE, link="home/gm.toml")),
    ("a device", _listed("templates/evil", kind=tarfile.CHRTYPE)),
    ("a pipe", _listed("templates/evil", kind=tarfile.FIFOTYPE)),
    ("a file not listed", _listed("templates/extra.html", listed=False)),
    ("a file in a folder not listed", _listed("nowhere/x.html")),
    ("a file under a file", _listed("gm.toml/x")),
    ("a path listed as file and folder", _listed("templates")),
    ("a file listed twice", _twice("gm.toml")),
    ("a file twice in the tar", _twice("gm.toml", where="tar")),
    ("a changed file", _content("gm.toml", b"[portal]\nsecure_cookies = false\n# changed\n")),
    ("a hash that is no hash", _entry_field("gm.toml", sha256="not a hash")),
    ("a negative size", _entry_field("gm.toml", size=-1)),
    ("a size as text", _entry_field("gm.toml", size="12")),
    ("a list of files that is an object", _manifest(files={"gm.toml": 1})),
    ("files that are strings", _manifest(files=["gm.toml"])),
    ("folders that are strings", _manifest(folders=["."])),
    ("no home folder", lambda m, extra: m.update(folders=[f for f in m["folders"] if f[0] != "."])),
    ("another format", _manifest(format="tar")),
    ("a manifest that is a list", lambda m, extra: extra.append(("manifest", b"[]"))),
    ("a manifest that is no JSON", lambda m, extra: extra.append(("manifest", b"{not json"))),
    ("a manifest nested 100,000 deep", lambda m, extra: extra.append(("manifest", b"[" * 100_000))),
]


def forge(backup: Path, out: Path, change) -> None:
    """A copy of the backup with `change` made to its manifest and members."""
    with tarfile.open(backup) as source:
        manifest = json.loads(source.extractfile("manifest.json").read())
        extra: list = []
        change(manifest, extra)
        edits = [e for e in extra if isinstance(e[0], str)]
        added = [e for e in extra if not isinstance(e[0], str)]
        raw_manifest = next((e[1] for e in edits if e[0] == "manifest"), None)
        with tarfile.open(out, "w") as target:
            for member in source:
                data = source.extractfile(member).read() if member.isfile() else None
                if member.name == "manifest.json":
                    for info, content in added:
                        target.addfile(info, io.BytesIO(content) if content is not None else None)
                    data = raw_manifest if raw_manifest is not None else json.dumps(manifest).encode()
                for kind, name, *rest in edits:
                    if name != member.name:
                        continue
                    if kind == "rename":
                        member.name = rest[0]
                    elif kind == "content":
                        data = rest[0]
                    elif kind == "again":
                        target.addfile(member, io.BytesIO(data))
                        data = rest[0]
                if data is not None:
                    member.size = len(data)
                target.addfile(member, io.BytesIO(data) if data is not None else None)


def everything_under(folder: Path) -> set[str]:
    """Every path below the folder but the GM's live home (whose database files come and go)."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if not p.relative_to(folder).parts[0] == "home"}


def test_each_tampered_backup_is_refused_in_one_line_and_changes_nothing(home, gm, game, tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    assert gm("backup", backups / "b.tar", home=home).code == 0
    assert len(TAMPERED_BACKUPS) >= 32
    places = tmp_path / "restores"
    places.mkdir()
    outside = {p: p.exists() for p in (Path("/tmp/gm-abuse-absolute.toml"), tmp_path / "gm.toml")}
    wrong = []  # every case that goes wrong, not only the first
    for number, (name, change) in enumerate(TAMPERED_BACKUPS):
        forged = backups / f"forged-{number}.tar"
        forge(backups / "b.tar", forged, change)
        before = everything_under(tmp_path)
        try:
            ran = gm("restore", forged, places / "home")
        except Exception as exc:  # a traceback: the worst answer
            wrong.append((name, f"{type(exc).__name__}: {exc}"[:200]))
            continue
        said = ran.err.splitlines()
        one_line = ran.code == 1 and ran.out == "" and len(said) == 1 and len(said[0]) < 600
        if not (one_line and said[0].startswith(f"Error: {forged} ") and "Nothing was changed." in said[0]):
            wrong.append((name, ran.code, (ran.err or ran.out)[:200]))
        if everything_under(tmp_path) != before or {p: p.exists() for p in outside} != outside:
            wrong.append((name, "left", sorted(everything_under(tmp_path) ^ before)[:5]))
            shutil.rmtree(places / "home", ignore_errors=True)

    assert wrong == []
    # The real backup restores, with the modes gm makes and no other.
    ran = gm("restore", backups / "b.tar", places / "home")
    assert ran.code == 0, ran.err
    modes = {stat.S_IMODE(os.stat(p).st_mode) for p in [places / "home", *(places / "home").rglob("*")]}
    assert modes <= {0o600, 0o644, 0o700, 0o755}, sorted(map(oct, modes))


# ---------------------------------------------------------------------------------------------
# Stale links and sessions: the old player of a seat, over plain HTTP, against `gm serve` with two
# workers, after each change that takes the seat from them.

_FORM = "application/x-www-form-urlencoded"


@dataclass
class Holding:
    """What the old player kept: an unused link's token, and a live session (cookie, CSRF token)."""

    seat: str
    token: str
    cookie: str
    csrf: str


def _hold(server: Served, gm, home: Path, seat: str) -> Holding:
    """Make two links for the seat: keep one unused, sign in with the other."""
    tokens = [gm("portal", "link", "g1", seat, home=home).out.strip().rsplit("/", 1)[1] for _ in range(2)]
    connection = server.connect()
    response, page = request(connection, "GET", "/")
    cookie = session_cookie(response)
    form = urlencode({"csrf": csrf(page), "token": tokens[1]}).encode()
    response, _ = request(connection, "POST", "/link", cookie, form, _FORM)
    assert response.status == 303
    cookie = session_cookie(response)
    response, page = request(connection, "GET", "/", cookie)
    assert f"You are <strong>{seat}</strong>" in page
    return Holding(seat, tokens[0], cookie, csrf(page))


def _what_still_works(server: Served, held: Holding) -> dict[str, int]:
    """Each thing the old player tries, and the status it gets."""
    tried = {}
    connection = server.connect()
    orders = f"GAME g1\nPLAYER {held.seat}\nPASSWORD <your secret>\nCLAIM MOS\nEND\n"
    for name, path, form in [
        ("orders", "/orders", {"csrf": held.csrf, "orders": orders, "action": "submit"}),
        ("press", "/press", {"csrf": held.csrf, "to": "FR", "text": "still here"}),
    ]:
        response, _ = request(connection, "POST", path, held.cookie, urlencode(form).encode(), _FORM)
        tried[name] = response.status
    for name, path in [("page", "/"), ("report", f"/reports/g1/{held.seat}/1.json"), ("turn", "/turn/1")]:
        response, page = request(connection, "GET", path, held.cookie)
        # The first page answers 200 either way: signed in (the seat's page) or not (the sign-in page).
        tried[name] = response.status if path != "/" else (200 if "You are <strong>" in page else 403)
    response, page = request(connection, "GET", "/")
    form = urlencode({"csrf": csrf(page), "token": held.token}).encode()
    response, page = request(connection, "POST", "/link", session_cookie(response), form, _FORM)
    tried["link"] = response.status
    return tried


def _taken(home: Path) -> tuple[int, int]:
    with sqlite3.connect(home / "gm.db") as db:
        return db.execute("SELECT count(*) FROM submissions").fetchone()[0], db.execute(
            "SELECT count(*) FROM press"
        ).fetchone()[0]


@pytest.mark.slow
def test_a_stale_link_or_session_does_nothing_over_http(home, gm, game):
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    server = Served(home)
    try:
        refused = {"orders": 403, "press": 400, "page": 403, "report": 403, "turn": 403, "link": 401}
        secret = _hold(server, gm, home, "RU")
        left = _hold(server, gm, home, "GE")
        before = _taken(home)
        assert gm("game", "secret", "g1", "RU", home=home).code == 0
        assert gm("seat", "drop", "g1", "GE", home=home).code == 0
        assert _what_still_works(server, secret) == refused
        assert _what_still_works(server, left) == refused
        assert _taken(home) == before
        # A standby takes BR (nobody sent orders: every seat drops, Zed takes the first).
        standby = _hold(server, gm, home, "BR")
        assert gm("game", "set", "g1", "nmr-limit", "1", home=home).code == 0
        assert gm("game", "standby", "g1", "zed@example.org", "--name", "Zed", home=home).code == 0
        ran = gm("turn", "run", "g1", "--now", home=home)
        assert ran.code == 0 and "is now played by standby Zed" in ran.out, ran.err
        before = _taken(home)
        assert _what_still_works(server, standby) == refused
        assert _taken(home) == before
        # Zed, the rightful player now, signs in and submits.
        zed = re.search(r"secret for BR: (\S+)", ran.out)[1]
        status, cookie = sign_in(server, "BR", zed)
        assert status == 303
        connection = server.connect()
        response, page = request(connection, "GET", "/", cookie)
        assert "You are <strong>BR</strong>, Zed." in page
        form = urlencode(
            {"csrf": csrf(page), "orders": "GAME g1\nPLAYER BR\nPASSWORD <your secret>\nEND\n", "action": "submit"}
        ).encode()
        response, page = request(connection, "POST", "/orders", cookie, form, _FORM)
        assert response.status == 200 and "<h2>Submitted</h2>" in page
    finally:
        server.stop()
