"""Mail: every message intake took, the outbox of mail to send, each seat's mail wishes."""

from __future__ import annotations

import sqlite_utils

# One statement at a time: executescript() would commit the migration's transaction half-way.
_STATEMENTS = [
    # digest: SHA-256 of the raw bytes, also their name in the archive; content_hash: of From and
    # body, to know a copy that came by another route; outcome: accepted, rejected (stored, not
    # used), refused, request, ignored (sent by a program), duplicate; results: JSON, one entry
    # per turn file; answer: the outbox id of the acknowledgement, or why none was sent.
    """CREATE TABLE mail_taken (
        id INTEGER PRIMARY KEY,
        digest TEXT NOT NULL UNIQUE,
        message_id TEXT,
        content_hash TEXT NOT NULL,
        channel TEXT NOT NULL,
        source TEXT NOT NULL,
        sender TEXT,
        subject TEXT NOT NULL,
        received TEXT NOT NULL,
        outcome TEXT NOT NULL,
        results TEXT NOT NULL,
        answer TEXT NOT NULL
    )""",
    "CREATE INDEX mail_taken_content ON mail_taken (content_hash)",
    # attachments: JSON list of {path (relative to the home), filename, type, sha256}; message_id
    # is fixed when queued so a retry sends the same mail; status: queued, sent, failed, cancelled.
    """CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('acknowledgement', 'report', 'resend')),
        game_id INTEGER REFERENCES games(id),
        seat TEXT,
        turn INTEGER,
        recipient TEXT NOT NULL,
        recipient_name TEXT NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        attachments TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        in_reply_to TEXT,
        refs TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt TEXT NOT NULL,
        last_error TEXT,
        queued TEXT NOT NULL,
        sent TEXT
    )""",
    "CREATE INDEX outbox_due ON outbox (status, next_attempt)",
    "CREATE INDEX outbox_recipient ON outbox (recipient, kind, queued)",
    """CREATE TABLE seat_mail (
        seat_id INTEGER PRIMARY KEY REFERENCES seats(id),
        json_reports INTEGER NOT NULL DEFAULT 0
    )""",
    # Mail intake names each submission "mail:<digest>:<n>"; after a crash it looks them up there
    # so a message taken again never stores its orders twice.
    "CREATE INDEX submissions_source ON submissions (source)",
]


def migrate(db: sqlite_utils.Database) -> None:
    for statement in _STATEMENTS:
        db.execute(statement)
