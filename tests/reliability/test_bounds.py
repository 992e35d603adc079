"""gm's inner bounds (docs/limits.md): caches, batches and waits that a flood of mail, a
mailbox of thousands or a dead worker reaches. Each is held by a counter or a fake that
answers at once, never a clock, and with its number written out, so that raising the
limit fails the test as surely as taking it out."""

from __future__ import annotations

import json
import multiprocessing
from collections import OrderedDict
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

import pytest

from gm.clock import SystemClock
from gm.home import Home
from gm.intake import verified
from gm.intake.imap import ImapPlace, ImapSource
from gm.intake.readers import Readers, SizeLimits, _Ahead
from gm.intake.sources import Incoming, MemorySource
from gm.mail.senders import FolderSender
from gm.render import pictures, turnpages
from gm.services import archive_keeping, seat_turns, turn_kits
from gm.services.intake import Intake
from gm.store import archive, mail_taken, outbox, records, submissions
from gm.store.database import connect, open_database
from gm.web import server as web_server, sessions, turn_views
from tests.intake.mails import mail


def test_verified_secrets_are_remembered_a_hundred_thousand_at_most():
    """Past MOST_REMEMBERED the memory starts again: a house's seats cannot grow it for ever."""
    remembered = verified.VerifiedSecrets(check=lambda secret, stored: True)  # scrypt's answer, at once
    for n in range(100_001):
        assert remembered(f"secret {n}", "stored")
        assert len(remembered._known) <= 100_000, n


def test_turn_views_cached_are_two_hundred_and_fifty_six_at_most(monkeypatch):
    """Every game's turn a signed-in player opens is a view kept; the oldest go past 256."""
    monkeypatch.setattr(turn_views, "_VIEWS", OrderedDict())
    monkeypatch.setattr(turn_views, "_view_key", lambda db, game, seats=None: (game,))
    monkeypatch.setattr(turn_views, "make_turn_view", lambda db, game: f"the view of game {game}")
    for game in range(300):
        assert turn_views.turn_view(None, game) == f"the view of game {game}"
    assert list(turn_views._VIEWS) == [(game,) for game in range(44, 300)]


def _incoming(count: int) -> list[Incoming]:
    return [Incoming(b"Subject: x\n\nhello\n", f"memory:{n}") for n in range(count)]


def test_reader_processes_read_eight_batches_ahead_at_most(tmp_path):
    """A mailbox of thousands is never all held at once: the first batch is handed on before
    more than Readers.WINDOW batches are taken from the source."""
    pulled = []

    def batches():
        for n in range(100):
            pulled.append(n)
            yield _incoming(2)

    with Readers(tmp_path, SizeLimits(10_000_000, 1_000_000), workers=1) as reading:
        ahead = reading.read_ahead(batches(), lambda batch: [False] * len(batch))
        first, results, _ = next(ahead)
        assert results == [None, None] and len(pulled) <= 8
        assert len(list(ahead)) == 99 and len(pulled) == 100


class _Silent:
    """A worker's answer that never comes: a wait without a timeout is a test failing, not hanging."""

    def __init__(self):
        self.waited: list[float] = []

    def ready(self) -> bool:
        return False

    def wait(self, timeout: float | None = None) -> None:
        """AsyncResult.wait: returns when the time is up, the answer still not there."""
        if timeout is None:
            raise AssertionError("waited for a dead worker without a timeout")
        self.waited.append(timeout)

    def get(self, timeout: float | None = None):
        """AsyncResult.get: TimeoutError when the time is up."""
        self.wait(timeout)
        raise multiprocessing.TimeoutError()


def test_a_reader_that_gives_no_answer_is_given_up_after_three_hundred_seconds(tmp_path):
    silent = _Silent()
    with Readers(tmp_path, SizeLimits(10_000_000, 1_000_000), workers=1) as reading:
        with pytest.raises(RuntimeError, match=r"a mail reader gave no answer in 300 s; it probably died"):
            reading._result(silent)
    assert silent.waited == [300]


class _NoPool:
    terminated = False

    def terminate(self) -> None:
        self.terminated = True

    def join(self) -> None:
        pass


def test_reader_processes_that_never_start_are_given_up_after_sixty_seconds_and_the_mail_read_here(tmp_path):
    silent, pool = _Silent(), _NoPool()
    with Readers(tmp_path, SizeLimits(10_000_000, 1_000_000), workers=2) as reading:
        reading.pool, reading._ready = pool, silent
        batch = _incoming(1)
        _, results, by_workers = reading._collect(_Ahead(batch, [False], None, _Silent()), lambda b, r: None)
        assert (results, by_workers, reading.batches_read["here"]) == ([None], False, 1)
    assert silent.waited == [60] and pool.terminated


def test_intake_tells_the_source_of_two_hundred_messages_at_most_a_commit(home, monkeypatch):
    """Group commit: a batch of TAKEN_PER_SYNC messages is stored in one transaction, and only
    then does the source hear they are taken (an IMAP server flags them)."""
    events: list[str] = []

    class Told(MemorySource):
        def taken(self, incoming: Incoming) -> None:
            events.append("taken")

    real_force = Intake._force_log_to_disk

    def force(self) -> None:
        events.append("commit")
        real_force(self)

    monkeypatch.setattr(Intake, "_force_log_to_disk", force)
    raws = [mail(f"hello {n}", sender=f"s{n}@example.org", message_id=f"<m{n}@x>") for n in range(401)]
    db = open_database(Path(home) / "gm.db")
    try:
        taken = list(Intake(db, Home(home), SystemClock(), "import", readers=1).take_all(Told(raws)))
    finally:
        db.conn.close()
    assert len(taken) == 401
    told = "".join("c" if e == "commit" else "t" for e in events).split("c")
    assert [len(run) for run in told if run] == [200, 200, 1]


class _Mailbox:
    """An IMAP server of 450 messages, as imaplib answers: how many UIDs each size FETCH names."""

    def __init__(self):
        self.asked: list[int] = []

    def select(self, folder):
        return "OK", [b"450"]

    def uid(self, command, *args):
        if command == "SEARCH":
            return "OK", [" ".join(str(n) for n in range(1, 451)).encode()]
        uids, what = args
        if what == "(RFC822.SIZE)":
            self.asked.append(len(uids.split(",")))
            return "OK", [f"{n} (UID {n} RFC822.SIZE 30)".encode() for n in uids.split(",")]
        return "OK", [(f"{uids} (UID {uids} BODY[] {{30}}".encode(), b"Subject: x\r\n\r\nhello\r\n"), b")"]


def test_imap_sizes_are_asked_two_hundred_at_a_time():
    """One FETCH of a mailbox's every size would be a command of megabytes for a big folder."""
    source = ImapSource(None, ImapPlace("INBOX", "move", "gm-taken", 10_000_000))
    source.connection = server = _Mailbox()
    fetched = [m.where for m in source.messages()]
    assert fetched == [f"imap:INBOX:{n}" for n in range(1, 451)]
    assert server.asked == [200, 200, 50]


def test_a_second_writer_waits_ten_seconds_for_the_database(tmp_path):
    """What sqlite3 waits for a lock before 'database is locked' (gm reports it in words): read
    back from SQLite, as no clock-free test can watch a writer wait."""
    conn = connect(tmp_path / "gm.db")
    try:
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000
    finally:
        conn.close()


class _Started(Exception):
    """What the fake granian raises once it has been told how to serve."""


def test_gm_serve_holds_65536_connections_a_worker_and_gives_a_body_60_seconds(home, monkeypatch):
    """With a system that allows a million open files, a worker still takes at most
    MOST_CONNECTIONS; with gm.toml as gm init writes it, a body has BODY_SECONDS to arrive after
    its headers and a connection 30 s to send them (tests/web/test_stalls.py cuts off slow peers
    with its own seconds); 1,024 connections wait in the kernel's queue."""
    told: dict = {}

    def server(target, **settings):
        told.update(settings)
        raise _Started()

    class Bodies:
        def __init__(self, app, threads, seconds, most):
            told["body_seconds"] = seconds

    monkeypatch.setattr(web_server, "multiprocessing", SimpleNamespace(set_start_method=lambda *a, **k: None))
    monkeypatch.setattr(web_server, "claim_port", lambda host, port: ("127.0.0.1", port))
    monkeypatch.setattr(web_server.resource, "getrlimit", lambda which: (1_000_000, 1_000_000))
    monkeypatch.setattr(web_server, "WholeBodies", Bodies)
    monkeypatch.setattr(web_server, "_Server", server)
    with pytest.raises(_Started):
        web_server.serve(Home(home), "127.0.0.1", 8080, workers=1, threads=2)
    assert (told["backpressure"], told["body_seconds"]) == (65_536, 60)
    assert told["http1_settings"].header_read_timeout == 30_000  # ms: a connection that sends no headers
    assert told["backlog"] == 1_024
    assert told["workers_kill_timeout"] == 10  # GRACE_SECONDS: gm serve's own stop holds it too (below)


def test_the_archive_is_over_its_budget_past_two_thousand_mb(home):
    """gm.toml as gm init writes it: an archive of 2,000 MB is within the budget, one byte more
    is past it (a sparse file stands for the mail a house keeps)."""
    folder = Path(home) / "archive" / "ab"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ("ab" + "0" * 62), "wb") as kept:
        kept.truncate(2_000_000_000)
    assert archive_keeping.over_budget(Home(home), now=1_000.0) is None
    with open(folder / ("ab" + "1" * 62), "wb") as one_more:
        one_more.truncate(1)
    said = archive_keeping.over_budget(Home(home), now=1_000.0 + archive_keeping.MEASURED_FOR)
    # In MB both would print 2,000.0: over is said in bytes, visibly over.
    assert said is not None and said.startswith(
        "the archive holds 2,000,000,001 bytes, past its budget of 2,000,000,000 bytes ([archive] budget_mb in gm.toml)"
    )


def test_a_note_of_what_was_not_kept_holds_its_first_512_bytes(tmp_path):
    """A mail refused for its size is kept as a note: its first bytes, never the rest."""
    data = b"From: Ann <ann@example.org>\r\n" + b"x" * 10_000
    digest = archive.note_bytes(tmp_path, data, channel="mail", sender="ann@example.org", reason=archive.TOO_LARGE)
    note = json.loads(archive.noted_path(tmp_path, digest).read_text())
    assert note["head"] == data[:512].decode() and note["size"] == len(data) == 10_029


def test_turn_kits_made_are_remembered_4096_at_most(monkeypatch):
    """Each kit a render worker made is remembered for the portal (gm/services/turn_kits.py)."""
    monkeypatch.setattr(turn_kits, "_made", OrderedDict())
    for n in range(5_000):
        order = SimpleNamespace(
            path=Path(f"reports/g/{n}/BR.pdf"), house="", portal="", override=None, template_dirs=()
        )
        turn_kits.made_kits([(order, f"json {n}", f"kit {n}")])
    assert len(turn_kits._made) == 4_096
    assert next(iter(turn_kits._made)) == ("reports/g/904/BR.json", "json 904")


def test_a_mail_written_to_a_folder_is_named_in_120_characters_its_subject_in_60(tmp_path):
    """A stranger's address and subject name the answer's file ([mail] transport = "folder"):
    a file name has 255 bytes at most, so the subject is cut at 60 and the whole name at 120."""
    answer = SimpleNamespace(game_id=None, kind="acknowledgement", recipient="s" * 200 + "@example.org")
    answer.subject = "Re: " + "spam " * 100
    name = outbox.mail_name(None, answer)
    assert name == f"acknowledgement-{'s' * 200}@example.org-Re-{'spam-' * 11}sp"  # 60 of the subject
    message = EmailMessage()
    message["Message-ID"] = "<1@example.org>"
    message.set_content("hello")
    FolderSender(tmp_path).send(message, name)
    [written] = tmp_path.glob("*.eml")
    assert written.name == name[:120] + ".eml"


def test_reports_the_portal_keeps_read_are_64_at_most(tmp_path, monkeypatch):
    """Every turn report a signed-in player opens is kept read for the next request; past 64 the
    oldest go (a house of many games and turns would otherwise hold every one)."""
    monkeypatch.setattr(seat_turns, "_READ", OrderedDict())
    for n in range(100):
        path = tmp_path / f"{n}.json"
        path.write_text(json.dumps({"turn": n}))
        assert seat_turns._read(path) == {"turn": n}
    assert [key[0] for key in seat_turns._READ] == [str(tmp_path / f"{n}.json") for n in range(36, 100)]


def test_sessions_that_ended_unused_are_forgotten_at_every_hundredth_sign_in(tmp_path, monkeypatch):
    """PURGE_EVERY: a sign-in records its session; the 1st, 101st, 201st ... of a process also
    deletes those unused past their lifetime, so the file does not grow with sessions long over."""
    register = sessions.SessionRegister(tmp_path / "sessions.db", lifetime=3_600)
    purges = []
    monkeypatch.setattr(register, "forget_unused_since", lambda moment: purges.append(register._begun))
    for n in range(250):
        register.begin(f"sid-{n}", "gm")
    assert purges == [1, 101, 201]


def test_a_session_notes_its_use_once_a_minute_at_most(tmp_path, monkeypatch):
    """SEEN_EVERY: every request of a signed-in session checks it; its row is written when it was
    last noted 60 s ago or more, not at every request (the file is shared by every worker)."""
    now = [1_000_000.0]
    monkeypatch.setattr(sessions, "time", SimpleNamespace(time=lambda: now[0]))
    register = sessions.SessionRegister(tmp_path / "sessions.db", lifetime=3_600)
    register.begin("sid", "gm")
    noted = []
    real = register.note_seen
    monkeypatch.setattr(register, "note_seen", lambda tag, moment: (noted.append(moment), real(tag, moment)))
    for second in range(0, 181):  # a request a second for three minutes
        now[0] = 1_000_000.0 + second
        assert register.alive("sid")
    assert noted == [1_000_060.0, 1_000_120.0, 1_000_180.0]


def test_gm_serve_warns_below_16384_open_files_and_keeps_256_for_itself(home, monkeypatch, capsys):
    """OPEN_FILES_WANTED and OWN_FILES: each connection is an open file. With a hard limit of
    16,383 files gm serve says to raise it to 16,384, and a worker takes the limit less 256
    connections; at 16,384 it says nothing."""
    told: dict = {}

    def server(target, **settings):
        told.update(settings)
        raise _Started()

    monkeypatch.setattr(web_server, "multiprocessing", SimpleNamespace(set_start_method=lambda *a, **k: None))
    monkeypatch.setattr(web_server, "claim_port", lambda host, port: ("127.0.0.1", port))
    monkeypatch.setattr(web_server, "_Server", server)
    for files, warned in ((16_383, True), (16_384, False)):
        monkeypatch.setattr(web_server.resource, "getrlimit", lambda which, files=files: (files, files))
        with pytest.raises(_Started):
            web_server.serve(Home(home), "127.0.0.1", 8080, workers=1, threads=2)
        said = capsys.readouterr().err
        assert ("Raise it to 16,384 or more" in said) is warned, (files, said)
        assert told["backpressure"] == files - 256


def test_a_worker_that_will_not_stop_is_killed_after_ten_seconds(monkeypatch):
    """GRACE_SECONDS: gm serve's stop sends SIGTERM, gives its workers 10 s to end together, then
    kills any left. The clock is a fake that stands still, and the wait on the worker is one that
    never sees it end: what it is given is recorded, nothing waits."""
    waited, killed = [], []
    monkeypatch.setattr(web_server, "time", SimpleNamespace(monotonic=lambda: 500.0))

    def wait(sentinels, timeout=None):
        waited.append(timeout)
        return [] if timeout is not None else sentinels

    monkeypatch.setattr(web_server, "wait", wait)
    inner = SimpleNamespace(sentinel=7, join=lambda: None)
    worker = SimpleNamespace(idx=0, inner=inner, terminate=lambda: None, kill=lambda: killed.append(True))
    server = web_server._Server("gm.web.app:create_app", workers=1, workers_kill_timeout=web_server.GRACE_SECONDS)
    server.wrks = [worker]
    server._stop_workers()
    assert waited == [10, None] and killed == [True] and server.wrks == []


def test_the_archive_is_measured_at_most_once_an_hour(home):
    """MEASURED_FOR: gm run-due runs every few minutes and counts the archive at most once in
    3,600 s; meanwhile it reads the last count, so a file added is seen an hour later."""
    folder = Path(home) / "archive" / "ab"
    folder.mkdir(parents=True, exist_ok=True)
    assert archive_keeping.over_budget(Home(home), now=1_000.0) is None
    with open(folder / ("ab" + "0" * 62), "wb") as kept:
        kept.truncate(2_000_000_001)
    assert archive_keeping.over_budget(Home(home), now=4_599.0) is None  # 3,599 s on: the last count
    assert archive_keeping.over_budget(Home(home), now=4_600.0) is not None


def test_digests_are_asked_five_hundred_at_a_time(tmp_path):
    """_ASKED_AT_ONCE (gm/store/mail_taken.py and gm/store/submissions.py): a batch's digests and
    sources are asked in statements of 500, well under SQLite's limit of variables."""
    db = open_database(tmp_path / "gm.db")
    asked = []
    db.conn.set_trace_callback(
        lambda sql: asked.append(sql.split(" IN (")[1].count(",") + 1) if " IN (" in sql else None
    )
    assert mail_taken.taken_of(db, [f"{n:064x}" for n in range(1_201)]) == set()
    assert submissions.stored_from_any(db, [f"mail:{n}" for n in range(1_201)]) == {}
    assert asked == [500, 500, 201, 500, 500, 201]


def test_grid_pictures_kept_for_the_turn_kits_are_forty_at_most(monkeypatch):
    """KEEP_GIVEN: the grid maps the render workers drew, kept for the turn kits (a world and its
    seats' regions); the newest 40."""
    monkeypatch.setattr(pictures, "_given", OrderedDict())
    for n in range(60):
        pictures.keep_drawn(f"{pictures.REFERENCE}grid-{n}", f"{pictures.PNG_DATA_URL}{n}")
    assert len(pictures._given) == 40 and next(iter(pictures._given)) == f"{pictures.REFERENCE}grid-20"


def test_gm_audits_table_cuts_a_detail_at_120_characters(home, gm):
    """WIDTH (gm/cli/audit.py): a detail may hold what a stranger wrote (a JOIN's address and
    name); the table cuts it at 120 characters, --json gives it whole."""
    db = open_database(Path(home) / "gm.db")
    records.audit(db, "2026-11-30T04:00:00Z", None, "waiting list", {"why": "w" * 300})
    db.conn.commit()
    [line] = [line for line in gm("audit", home=home).out.splitlines() if "waiting list" in line]
    assert line.endswith("  why " + "w" * 115 + "…")  # 120 characters
    assert json.loads(gm("audit", "--json", home=home).out)[-1]["detail"] == {"why": "w" * 300}


def test_turn_pages_a_render_process_keeps_are_eight_at_most():
    """TurnPagesCache.KEEP: a worker keeps the turn pages it laid out or was given, the newest 8
    (a run-due renders at most two games at once)."""
    kept = turnpages.TurnPagesCache()
    for n in range(12):
        kept.put(f"turn-{n}", SimpleNamespace(key=f"turn-{n}"))
    assert [key for key in (f"turn-{n}" for n in range(12)) if key in kept] == [f"turn-{n}" for n in range(4, 12)]
