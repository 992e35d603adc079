"""Every number a command takes, typed with too many digits, gets one clear line and changes
nothing: SQLite keeps integers of 64 bits, and a larger one met it as an OverflowError traceback
(gm credits buy, adjust and transfer; gm audit --last; gm game press --withhold and --release;
gm inbox answered; gm turn rerun). And one payment, adjustment or transfer moves at most
MOST_CREDITS_AT_ONCE credits, so that the books' balances stay numbers SQLite can add."""

from __future__ import annotations

import pytest
import typer

from gm.cli import app
from gm.cli.common import WHOLE_MAX
from gm.core.ledger import MOST_CREDITS_AT_ONCE
from tests.cli.test_game import table_dump

HUGE = 10**30
ANN = "ann@example.org"

# Each integer parameter of the CLI, and a command line that reaches it ({n}: the number; the rest
# is valid for the `game` fixture's home, with one turn run). A new one must be added here.
TRIED = {
    ("demo", "seats"): ["demo", "--seats", "{n}", "--turns", "1"],
    ("demo", "seed"): ["demo", "--seed", "{n}", "--turns", "1"],
    ("demo", "turns"): ["demo", "--turns", "{n}", "--seats", "0"],
    ("serve", "port"): ["serve", "--port", "{n}"],
    ("serve", "threads"): ["serve", "--threads", "{n}"],
    ("serve", "workers"): ["serve", "--workers", "{n}"],
    ("audit", "last"): ["audit", "--last", "{n}"],
    ("game new", "seed"): ["game", "new", "g2", "--seed", "{n}"],
    ("game new", "robots"): ["game", "new", "g2", "--robots", "{n}"],
    ("game new", "seats"): ["game", "new", "g2", "--seats", "{n}"],
    ("game press", "turn"): ["game", "press", "g1", "--turn", "{n}"],
    ("game press", "withhold"): ["game", "press", "g1", "--withhold", "{n}", "--reason", "spam"],
    ("game press", "release"): ["game", "press", "g1", "--release", "{n}"],
    ("game remove-waiting", "number"): ["game", "remove-waiting", "g1", "--", "{n}"],
    ("turn rerun", "number"): ["turn", "rerun", "g1", "--reason", "a typo", "--", "{n}"],
    ("report render", "turn"): ["report", "render", "g1", "--turn", "{n}"],
    ("rules test", "games"): ["rules", "test", "--contract", "clash", "--games", "{n}"],
    ("inbox import", "readers"): ["inbox", "import", "/dev/null", "--readers", "{n}"],
    ("inbox fetch", "readers"): ["inbox", "fetch", "--readers", "{n}"],
    ("inbox answered", "numbers"): ["inbox", "answered", "--", "{n}"],
    ("inbox reply", "number"): ["inbox", "reply", "-m", "thanks", "--", "{n}"],
    ("portal link", "minutes"): ["portal", "link", "g1", "BR", "--minutes", "{n}"],
    ("credits buy", "credits"): ["credits", "buy", ANN, "--paid", "25", "--", "{n}"],
    ("credits adjust", "credits"): ["credits", "adjust", ANN, "--reason", "typo", "--credits", "{n}"],
    ("credits adjust", "discount"): ["credits", "adjust", ANN, "--reason", "typo", "--discount", "{n}"],
    ("credits transfer", "credits"): ["credits", "transfer", ANN, "bob@example.org", "--", "{n}"],
}


def integer_parameters() -> set[tuple[str, str]]:
    """(command path, parameter name) of every whole-number parameter of every gm command."""
    found: set[tuple[str, str]] = set()

    def walk(command, path: list[str]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, [*path, name])
        for param in command.params:
            if param.bare_type() in ("int", "list[int]"):
                found.add((" ".join(path), param.name))

    walk(typer.main.get_command(app), [])
    return found


def test_every_number_of_the_cli_is_tried_here():
    assert integer_parameters() == set(TRIED)


@pytest.fixture
def played(home, gm, game):
    """The `game` fixture's home with turn 1 run, so that turn numbers reach the database."""
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    return home


@pytest.mark.parametrize("sign", [1, -1], ids=["huge", "huge-negative"])
@pytest.mark.parametrize("where", sorted(TRIED), ids=" ".join)
def test_a_number_too_large_for_the_database_is_refused_in_words(played, gm, where, sign, tmp_path):
    args = [a.replace("{n}", str(sign * HUGE)) for a in TRIED[where]]
    if args[0] == "demo":
        args += ["--home", str(tmp_path / "demo")]
    before = table_dump(played)
    ran = gm(*args, home=None if args[0] == "demo" else played)  # a traceback fails the test itself
    assert ran.code in (1, 2), (args, ran)
    assert ran.err.startswith("Error:") or "Invalid value" in ran.err or "No such option" in ran.err, ran.err
    assert "Traceback" not in ran.err + ran.out
    assert table_dump(played) == before


def test_the_bound_is_sqlite_s_largest_integer():
    assert WHOLE_MAX == 9223372036854775807


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["credits", "buy", ANN, str(MOST_CREDITS_AT_ONCE + 1), "--paid", "25"],
            "Error: a payment buys at most 10,000 credits at once, not 10,001.\n",
        ),
        (
            ["credits", "adjust", ANN, "--credits", str(-MOST_CREDITS_AT_ONCE - 1), "--reason", "typo"],
            "Error: an adjustment adds or takes away at most 10,000 credits at once, not 10,001.\n",
        ),
        (
            ["credits", "transfer", ANN, "bob@example.org", str(MOST_CREDITS_AT_ONCE + 1)],
            "Error: a transfer moves at most 10,000 credits at once, not 10,001.\n",
        ),
    ],
    ids=["buy", "adjust", "transfer"],
)
def test_one_entry_moves_at_most_the_limit(home, gm, game, args, message):
    before = table_dump(home)
    ran = gm(*args, home=home)
    assert (ran.code, ran.err) == (1, message)
    assert table_dump(home) == before


def test_the_limit_itself_is_taken_and_the_books_still_add_up(home, gm, game):
    n = str(MOST_CREDITS_AT_ONCE)
    assert gm("credits", "buy", ANN, n, "--paid", "25000", home=home).code == 0
    assert gm("credits", "transfer", ANN, "bob@example.org", n, home=home).code == 0
    assert gm("credits", "adjust", "bob@example.org", "--credits", f"-{n}", "--reason", "refund", home=home).code == 0
    assert gm("ledger", "check", home=home).code == 0
    shown = gm("credits", "show", "bob@example.org", home=home).out
    assert shown.startswith("bob@example.org (Bob): 0 credits"), shown


@pytest.mark.parametrize("where", sorted(TRIED), ids=" ".join)
def test_a_help_text_never_shows_the_database_s_bound(gm, where):
    # Each bound was shown as [-9223372036854775807<=x<=9223372036854775807] in gm's help, which
    # says nothing to a GM; what a number may be in the game, the option's help text says.
    path = where[0].split()
    shown = gm(*path, "--help").out
    assert "9223372036854775807" not in shown, shown
    assert "Usage: gm " + " ".join(path) in shown


def test_a_help_text_still_shows_a_lower_bound_a_gm_needs(gm):
    assert "Only the last N entries.  [x>=1]" in gm("audit", "--help").out
