"""The error a user can cause: the CLI prints its message and exits 1, never a traceback."""


class GMError(Exception):
    """A user's mistake or a refused request; the message says what happened and what to do."""
