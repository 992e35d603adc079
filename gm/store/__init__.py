"""SQLite storage through sqlite-utils: migrations, games, seats, turns, submissions, reports."""
