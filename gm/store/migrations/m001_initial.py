"""The first schema: accounts, games, seats, turns, submissions, reports, audit."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL UNIQUE COLLATE NOCASE,
            name TEXT NOT NULL,
            created TEXT NOT NULL
        );
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            ruleset TEXT NOT NULL,
            ruleset_version TEXT NOT NULL,
            scenario_name TEXT NOT NULL,
            scenario_text TEXT NOT NULL,
            seed INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'running', 'over')),
            turn INTEGER NOT NULL DEFAULT 1,
            deadline TEXT,
            options TEXT NOT NULL DEFAULT '{}',
            created TEXT NOT NULL
        );
        CREATE TABLE seats (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            code TEXT NOT NULL,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            secret_hash TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            joined TEXT NOT NULL,
            UNIQUE (game_id, code)
        );
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            number INTEGER NOT NULL,
            seed INTEGER NOT NULL,
            ruleset_version TEXT NOT NULL,
            orders TEXT NOT NULL,
            events TEXT NOT NULL,
            state TEXT NOT NULL,
            state_hash TEXT NOT NULL,
            resolved TEXT NOT NULL,
            UNIQUE (game_id, number)
        );
        CREATE TABLE submissions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat_id INTEGER NOT NULL REFERENCES seats(id),
            turn INTEGER NOT NULL,
            channel TEXT NOT NULL,
            source TEXT NOT NULL,
            sender TEXT,
            received TEXT NOT NULL,
            archive TEXT NOT NULL,
            encoding TEXT NOT NULL,
            verdict TEXT NOT NULL CHECK (verdict IN ('accepted', 'rejected')),
            problems TEXT NOT NULL,
            orders TEXT NOT NULL,
            final INTEGER NOT NULL DEFAULT 0,
            current INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX submissions_seat_turn ON submissions (seat_id, turn);
        CREATE TABLE reports (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            turn INTEGER NOT NULL,
            seat TEXT NOT NULL,
            pdf TEXT NOT NULL,
            json TEXT NOT NULL,
            pdf_sha256 TEXT NOT NULL,
            json_sha256 TEXT NOT NULL,
            rendered TEXT NOT NULL,
            UNIQUE (game_id, turn, seat)
        );
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            game_id INTEGER,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        """,
    )
