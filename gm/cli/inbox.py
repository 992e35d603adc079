"""gm inbox: take turn files from mail (a mailbox on disk, one message on stdin, or IMAP)."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import sqlite_utils
import typer

from gm.cli.common import HomeOption, clock, echo_json, open_home, within_reach
from gm.cli.mail import send_and_report
from gm.cli.progress import counting
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.intake.imap import ImapSource, imap_settings
from gm.intake.sources import FileSource, read_incoming
from gm.mail.settings import MOST_READERS, mail_settings
from gm.services.intake import FAULT, Intake, Taken
from gm.services.questions import mark_answered, questions as questions_for_gm, reply as reply_to_question
from gm.store.database import busy_words, is_busy

app = typer.Typer(
    help="Take turn files from mail: a mailbox on disk, a pipe from the mail server, or IMAP.", no_args_is_help=True
)

SendOption = Annotated[bool, typer.Option("--send", help="Send the answers right away (as 'gm mail send' does).")]
ReadersOption = Annotated[
    int | None,
    typer.Option(
        "--readers",
        min=1,
        max=MOST_READERS,
        help="Processes that read mail ahead for a big mailbox (default: [mail] readers in gm.toml; 1: none).",
    ),
]
# What a mail server's pipe understands: 75 (EX_TEMPFAIL) means "keep the message, try again later".
TRY_AGAIN_LATER = 75
# Lines of a question shown in the list; --json has them all.
QUESTION_LINES = 12


@app.command("import")
def import_(
    path: Annotated[Path, typer.Argument(help="A Maildir, an mbox file, one .eml file, or a folder of .eml files.")],
    send: SendOption = False,
    readers: ReadersOption = None,
    home: HomeOption = None,
) -> None:
    """Take every message of a mailbox on disk that was not taken before (the mailbox is not changed)."""
    home_, db = open_home(home)
    intake = Intake(db, home_, clock(), "import", readers=readers)
    _report(intake.take_all(FileSource(path, largest(home_))))
    _send(db, home_, send)


@app.command("receive")
def receive(send: SendOption = False, home: HomeOption = None) -> None:
    """Take one message from standard input: for a mail server's pipe, procmail or .forward.

    Exits 75 (the mail server keeps the message and tries again) when it could not be stored.
    """
    try:
        home_, db = open_home(home)
        # Postfix and the local delivery agents put the SMTP return path in $SENDER; empty is a bounce.
        incoming = read_incoming(sys.stdin.buffer, "stdin", os.environ.get("SENDER"), largest(home_))
        intake = Intake(db, home_, clock(), "pipe")
        _report([*intake.retry_kept(), intake.take(incoming)])
    except GMError as exc:
        echo(f"Error: {exc}", err=True)
        raise typer.Exit(TRY_AGAIN_LATER) from exc
    except Exception as exc:  # noqa: BLE001 - a bug must not bounce a player's mail: the server keeps it
        if is_busy(exc):
            echo(f"Error: {busy_words('The mail server keeps the message and tries again.')}", err=True)
            raise typer.Exit(TRY_AGAIN_LATER) from None
        echo(
            "Error: gm could not take this message (a bug; details below). The mail server keeps it "
            "and tries again.\n" + traceback.format_exc(limit=3),
            err=True,
        )
        raise typer.Exit(TRY_AGAIN_LATER) from None
    if send:
        try:
            send_and_report(db, home_)
        except GMError as exc:  # the message is stored: the mail server must not send it again
            echo(f"Error: {exc} The message is stored; its answer stays queued.", err=True)


def largest(home: Home) -> int:
    """[mail] max_message_bytes: past it a mail is read through, only its beginning kept."""
    return mail_settings(home).max_message_bytes


@app.command("fetch")
def fetch(send: SendOption = False, readers: ReadersOption = None, home: HomeOption = None) -> None:
    """Take new messages from the IMAP folder in gm.toml ([imap]); each is flagged or moved once stored."""
    home_, db = open_home(home)
    server, place = imap_settings(home_)
    intake = Intake(db, home_, clock(), "imap", readers=readers)
    with ImapSource(server, place) as source:
        _report(intake.take_all(source))
    _send(db, home_, send)


@app.command("questions")
def questions(
    every: Annotated[bool, typer.Option("--all", help="Also list the questions marked answered.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    home: HomeOption = None,
) -> None:
    """List the mail people wrote without a turn file ("Can I join?"): it waits here for the GM."""
    home_, db = open_home(home)
    found = questions_for_gm(db, home_, every)
    if as_json:
        echo_json([q.to_json() for q in found])
        return
    if not found:
        echo("No questions wait for the GM." if not every else "No questions yet.")
        return
    echo(f"{len(found)} question(s) for the GM:")
    for question in found:
        who = f"{question.name} <{question.sender}>" if question.name else (question.sender or "(no address)")
        done = f"  (answered {question.answered})" if question.answered else ""
        echo(f"  {question.id}  {question.received}  {who}  {question.subject}{done}")
        if question.answered_elsewhere:
            echo(f"    (its Reply-To is {question.answer_to}: gm inbox reply answers there, not at the From address)")
        lines = question.text.splitlines()
        for line in lines[:QUESTION_LINES]:
            echo(f"    {line}".rstrip())
        if len(lines) > QUESTION_LINES:
            echo(f"    ... ({len(lines) - QUESTION_LINES} more lines: gm inbox questions --json)")
    echo("When you have answered one: gm inbox answered ID")


@app.command("answered")
def answered(
    numbers: Annotated[
        list[int], typer.Argument(min=1, callback=within_reach, help="The questions' numbers (gm inbox questions).")
    ],
    home: HomeOption = None,
) -> None:
    """Mark questions answered (you wrote back yourself); they leave the list."""
    home_, db = open_home(home)
    for number in numbers:
        question = mark_answered(db, home_, clock(), number)
        echo(f"Question {question.id} from {question.sender or 'an unknown sender'} marked answered.")


@app.command("reply")
def reply(
    number: Annotated[
        int, typer.Argument(min=1, callback=within_reach, help="The question's number (gm inbox questions).")
    ],
    message: Annotated[str | None, typer.Option("--message", "-m", help="What to answer.")] = None,
    file: Annotated[
        Path | None, typer.Option("--file", help="A file holding the answer ('-': standard input).")
    ] = None,
    home: HomeOption = None,
) -> None:
    """Answer a question by mail through gm (their mail quoted under yours, in its thread); it
    leaves the list. Sent with the rest of the outbox (gm mail send, gm run-due)."""
    text = _answer(message, file)
    home_, db = open_home(home)
    question = reply_to_question(db, home_, clock(), number, text)
    echo(f"Answer to question {question.id} queued for {question.answer_to}; it is marked answered.")


def _answer(message: str | None, file: Path | None) -> str:
    """The answer, given once: --message TEXT, or --file FILE ('-': standard input)."""
    if message is not None and file is None:
        return message
    if file is not None and message is None:
        return sys.stdin.read() if str(file) == "-" else _read_answer(file)
    raise GMError("give the answer once: with --message TEXT, or --file FILE ('-' for standard input).")


def _read_answer(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GMError(f"cannot read {path} ({exc}). Give a UTF-8 text file.") from exc


def _report(taken: Iterable[Taken]) -> None:
    counts: dict[str, int] = {}
    with counting("Taking mail") as advance:
        for item in taken:
            advance()
            counts[item.outcome] = counts.get(item.outcome, 0) + 1
            if item.outcome != "already taken":  # a mailbox imported again would list every old mail
                for line in describe(item):
                    echo(line)
    before = counts.pop("already taken", 0)
    if not counts:
        echo(f"No new mail ({before} taken before)." if before else "No new mail.")
        return
    summary = ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items()))
    echo(f"Taken: {summary}" + (f"; {before} taken before" if before else ""))
    if counts.get(FAULT):
        echo(
            f"Warning: {counts[FAULT]} mail(s) could not be processed: a game's ruleset failed while reading "
            "them (above). Each is kept and was answered so; install a fixed ruleset, and the next gm inbox "
            "import, fetch or receive reads them again (gm status lists them meanwhile).",
            err=True,
        )


def describe(item: Taken) -> list[str]:
    """One line per turn file (or per message when it had none) for the GM."""
    if item.outcome == "question":
        return [f"{item.where}: a question for the GM (gm inbox questions); answer: {item.answer}"]
    if item.outcome == FAULT:
        return [f"{item.where}: could not be processed, kept: {item.results[0]['reason']} answer: {item.answer}"]
    if not item.results:
        return [f"{item.where}: {item.outcome}; answer: {item.answer}"]
    lines = []
    for result in item.results:
        verdict = result["verdict"]
        if verdict == "refused":
            text = f"refused: {result['reason']}"
        elif verdict == "request" and "asked" in result:  # RESIGN, FORGET ME, EXPORT in a mail's lines
            text = f"asked: {result['asked']}" if result["asked"] else "request refused: " + result["note"].rstrip(".")
        elif verdict == "request":
            text = f"request for {result['seat']} in {result['game']}"
        elif verdict == "press":
            text = f"press from {result['seat']} in {result['game']}"
        elif verdict == "signup" and "request" in result:  # a CONFIRM of a request by mail
            text = (
                f"confirmed: {result['request']}"
                if result["taken"]
                else "confirmation refused: " + result["note"].splitlines()[0]
            )
        elif verdict == "list":
            text = f"asked which games take players: {len(result['games'])} listed"
        elif verdict == "signup":
            text = (
                f"sign-up for {result['target']}"
                if result["taken"]
                else "sign-up refused: " + result["note"].splitlines()[0]
            )
        else:
            text = (
                f"{verdict} {counted(len(result['orders']), 'order')} for {result['seat']} in {result['game']}, "
                f"turn {result['turn']}"
            )
            if result.get("replaced"):
                text += " (replaces the earlier submission)"
            if result.get("problems"):
                text += f"; {counted(len(result['problems']), 'problem')}"
        lines.append(f"{item.where}: {text}{_press_note(result.get('press') or [])}")
    lines[-1] += f"; answer: {item.answer}"
    return lines


def _press_note(press: Sequence[Mapping[str, Any]]) -> str:
    """'; press: 2 sent, 1 not sent' for a turn file that held press."""
    if not press:
        return ""
    sent = sum(1 for p in press if p["sent"])
    return f"; press: {sent} sent" + (f", {len(press) - sent} not sent" if sent < len(press) else "")


def _send(db: sqlite_utils.Database, home_: Home, send: bool) -> None:
    if send and send_and_report(db, home_):
        raise typer.Exit(1)
