"""Every mail gm sends, as text, held in golden files (tests/mail/golden/) for review: a change to a
mail template, or to what gm tells players in it, shows in the diff. Every template in
templates/mail/ has a case here; a new mail needs one."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from gm.intake.finding import find_turn_files
from gm.intake.letter import Text
from gm.mail.templates import mail_environment, write_mail
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
GM = {"gm_name": "The Game Master, Example House"}
FORM = "GAME clash-1\nPLAYER BR\nPASSWORD your-secret-here\nTURN 6\n# PLACE territory troops\nEND\n"

ACCEPTED = {
    "verdict": "accepted",
    "seat": "BR",
    "game": "clash-1",
    "turn": 5,
    "final": True,
    "replaced": True,
    "orders": [{"line": 5, "order": "PLACE LON 3"}, {"line": 6, "order": "ATTACK LON PAR 3"}],
    "warnings": [
        {"line": 7, "text": "ATACK PAR BUR", "message": "unknown order; did you mean ATTACK?"},
        {"line": None, "text": "", "message": "2 troops left unplaced"},
    ],
    "seats_in": {"count": 3, "of": 4, "final": 2},
    "deadline": "Fri 2026-11-27 18:00 UTC",
    "where": "body",
}
REJECTED = {
    "verdict": "rejected",
    "seat": "FR",
    "game": "clash-1",
    "turn": 5,
    "earlier": False,
    "problems": [{"line": 4, "text": "PLACE XYZ 2", "message": "XYZ is not a territory; did you mean SWE?"}],
    "warnings": [],
    "seats_in": None,
    "deadline": None,
    "where": "attachment orders.txt",
}
REFUSED = {
    "verdict": "refused",
    "reason": "the secret for seat RU of clash-1 is wrong",
    "warnings": [],
    "seats_in": None,
    "deadline": None,
    "where": "attachment ru.txt",
}
REPORT = {
    "game": {"name": "clash-1", "title": "Clash of Empires: Europe"},
    "turn": 5,
    "turn_label": "round 5",
    "next_label": "round 6",
    "seat": "BR",
    "player": "Alice",
    "again": False,
    "outcome": None,
    "deadline": "Fri 2026-11-27 18:00 UTC",
    "scores": [{"seat": "BR", "name": "Britain", "score": 3}, {"seat": "DE", "name": "Germany", "score": 3}],
    "attachments": ["clash-1-5-BR.pdf", "clash-1-5-BR.json", "clash-1-6-BR-orders.txt"],
    "order_form": FORM,
}

HELD = {
    "game": "clash-1",
    "seat": "BR",
    "name": "Alice",
    "turn": 5,
    "email": "alice@example.org",
    "short": 2,
    "discount": 3,
    "bonus_from": 10,
    "price": "2.50 EUR a turn credit; 10 for 22.50 EUR",
    "how": "PayPal to pay@example.org, with your e-mail address as the reference",
    "gm_address": "gm@example.org",
    "portal": "https://pbm.example.org",
}

STARTED = {
    "game": "clash-2",
    "seat": "FR",
    "name": "Bruno",
    "email": "bruno@example.org",
    "how": "full",
    "seats": ["BR", "RU", "FR", "GE"],
    "robots": [],
    "turn_label": "Set-up: claiming territories",
    "deadline": "Fri 2026-12-04 18:00 UTC",
    "order_form": "GAME clash-2\nPLAYER FR\nPASSWORD <your secret>\nTURN 1\n# CLAIM territory ...\nEND\n",
    "attachments": ["clash-2-start-FR-map.png", "clash-2-1-FR-orders.txt"],
    "portal": "https://pbm.example.org",
}

PRESS = {
    "game": "clash-1",
    "seat": "BR",
    "player": "Alice",
    "turn": 5,
    "everyone": False,
    "signed": True,
    "to_all_only": False,
    "sender": "FR",
    "recipients": ["BR", "DE"],
    "to": "you, DE",
    "text": "Shall we share Burgundy?\n\nI hold BUR # and will not move.\n-- Bruno",
}
PRESS_ONLY = {
    "verdict": "press",
    "seat": "FR",
    "game": "clash-1",
    "turn": 5,
    "where": "body",
    "warnings": [],
    "seats_in": None,
    "deadline": None,
    "press": [
        {"line": 4, "to": "BR, DE", "sent": True, "reason": None},
        {
            "line": 9,
            "to": "XX",
            "sent": False,
            "reason": "there is no seat XX in this game; its seats are BR, DE, FR, RU",
        },
    ],
}

CASES = {
    "acknowledgement_accepted": (
        "acknowledgement.txt",
        {"reply_subject": "Re: orders", "name": "Alice", "results": [ACCEPTED]},
    ),
    "acknowledgement_vote": (
        "acknowledgement.txt",
        {"reply_subject": "Re: orders", "name": "Alice", "results": [{**ACCEPTED, "vote": "a draw"}]},
    ),
    "acknowledgement_list": (
        "acknowledgement.txt",
        {
            "reply_subject": "Re: games?",
            "name": "Zoe",
            "results": [
                {
                    "verdict": "list",
                    "where": "body",
                    "warnings": [],
                    "seats_in": None,
                    "deadline": None,
                    "ruleset": None,
                    "games": [
                        {
                            "name": "c2",
                            "ruleset": "clash",
                            "title": "Clash of Empires",
                            "scenario": "europe",
                            "seats": 4,
                            "free": 3,
                            "waiting": 1,
                            "schedule": "weekly on friday 18:00",
                        },
                        {
                            "name": "k1",
                            "ruleset": "conqueror",
                            "title": "Conqueror!",
                            "scenario": "europe",
                            "seats": 16,
                            "free": 16,
                            "waiting": 0,
                            "schedule": "",
                        },
                    ],
                    "left_out": 0,
                    "price": "2.50 EUR a turn",
                    "rulesets": ["clash", "conqueror"],
                }
            ],
        },
    ),
    "acknowledgement_list_none": (
        "acknowledgement.txt",
        {
            "reply_subject": "Re: games?",
            "name": "Zoe",
            "results": [
                {
                    "verdict": "list",
                    "where": "body",
                    "warnings": [],
                    "seats_in": None,
                    "deadline": None,
                    "ruleset": "empires",
                    "games": [],
                    "left_out": 0,
                    "price": "",
                    "rulesets": ["clash", "empires"],
                }
            ],
        },
    ),
    "observer": ("observer.txt", {"game": "clash-1", "turn": 5, "over": False}),
    "observer_game_over": ("observer.txt", {"game": "clash-1", "turn": 30, "over": True}),
    "observer_link": (
        "observer.txt",
        {
            "game": "clash-1",
            "turn": 5,
            "over": False,
            "link": "https://pbm.example.org/link/TOKEN",
            "expires": "2026-11-28 13:00 UTC",
        },
    ),
    "acknowledgement_three_files": (
        "acknowledgement.txt",
        {"reply_subject": "Re: orders", "name": "", "results": [ACCEPTED, REJECTED, REFUSED]},
    ),
    "acknowledgement_too_many": (
        "acknowledgement.txt",
        {
            "reply_subject": "Re: orders",
            "name": "Mallory",
            "results": [REFUSED, {**REFUSED, "reason": "wrong password for player BR of 'clash-1'"}],
            "unread": {"found": "2,000", "most": 10, "left": "1,990"},
        },
    ),
    "acknowledgement_press": (
        "acknowledgement.txt",
        {
            "reply_subject": "Re: press",
            "name": "Bruno",
            "results": [
                PRESS_ONLY,
                {**ACCEPTED, "press": [{"line": 8, "to": "everyone", "sent": True, "reason": None}]},
                {
                    **REFUSED,
                    "reason": "these orders are for turn 4, which has already been run; 'clash-1' is collecting turn 5",
                    "press": [{"line": 5, "to": "DE", "sent": True, "reason": None}],
                },
            ],
        },
    ),
    "announcement": (
        "announcement.txt",
        {
            "game": "clash-1",
            "seat": "BR",
            "player": "Alice",
            "turn": 5,
            "text": "The deadline moves to Saturday this week.\nGood luck!",
        },
    ),
    "answer": (
        "answer.txt",
        {
            "reply_subject": "Re: can I join?",
            "name": "Alice",
            "received": "2026-11-24 10:15 UTC",
            "answer": "Yes: the next Clash game starts on 1 December.\nWrite JOIN clash to be on its list.",
            "quoted": "Hello,\n\ncan I join the next game?\nAlice",
        },
    ),
    "confirm": (
        "confirm.txt",
        {
            "name": "Bruno",
            "email": "bruno@example.org",
            "code": "k3m9-x2qa-7fpp-wq4t",
            "until": "Sun 2026-11-29 10:15 UTC",
            "hours": 48,
            "wanted": "game clash-2",
            "preferences": ["FR", "GE"],
        },
    ),
    "address_changed": (
        "address_changed.txt",
        {"name": "Alice", "old": "alice@example.org", "new": "alice@new.example.org"},
    ),
    "export": (
        "export.txt",
        {"name": "Alice", "mails": 12, "turn_files": 9, "reports": 18, "ledger_rows": 7},
    ),
    "person_code": (
        "person_code.txt",
        {
            "name": "Alice",
            "email": "alice@new.example.org",
            "what": "the address alice@example.org becomes alice@new.example.org",
            "code": "k3m9-x2qa-7fpp-wq4t",
            "until": "Sun 2026-11-29 10:15 UTC",
            "hours": 24,
            "tries": 5,
        },
    ),
    "dropped": (
        "dropped.txt",
        {"game": "clash-1", "seat": "RU", "player": "Dmitri", "missed": 3, "last_turn": 7, "turn": 8, "standby": True},
    ),
    "fault": ("fault.txt", {"reply_subject": "Re: orders", "name": "Alice", "games": ["clash-1"]}),
    "held": ("held.txt", HELD),
    "held_unpriced": (
        "held.txt",
        {**HELD, "short": 1, "discount": 0, "price": "", "how": "", "portal": None},
    ),
    "late": (
        "late.txt",
        {
            "game": "clash-1",
            "turn": 5,
            "player": "Bruno",
            "seat": "FR",
            "until": "Sat 2026-11-28 18:00 UTC",
            "form": FORM,
        },
    ),
    "link_asked": (
        "link.txt",
        {
            "game": "clash-1",
            "seat": "BR",
            "player": "Alice",
            "asked": True,
            "link": "https://portal.example.org/link/abc123",
            "expires": "2026-11-25 19:00 UTC",
        },
    ),
    "press_signed": ("press.txt", PRESS),
    "press_anonymous": ("press.txt", {**PRESS, "sender": None, "signed": False, "to": "you and 1 other seat"}),
    "press_to_all_only": ("press.txt", {**PRESS, "to_all_only": True, "everyone": True, "to": "everyone"}),
    "question": ("question.txt", {"reply_subject": "Re: when is the deadline?", "name": "Alice"}),
    "reminder": (
        "reminder.txt",
        {
            "game": "clash-1",
            "seat": "FR",
            "player": "Bruno",
            "turn": 5,
            "deadline": "Fri 2026-11-27 18:00 UTC",
            "left": 2,
            "form": FORM,
        },
    ),
    "report": ("report.txt", {**REPORT, "rerun": None}),
    "report_rerun": (
        "report.txt",
        {**REPORT, "rerun": {"reason": "FR's orders were lost by the mail server", "discarded": [6, 7]}},
    ),
    "report_game_over": (
        "report.txt",
        {
            **REPORT,
            "rerun": None,
            "order_form": "",
            "attachments": ["clash-1-60-BR.pdf"],
            "outcome": {"winners": ["BR", "DE"], "reason": "most victory points"},
        },
    ),
    "seated": (
        "seated.txt",
        {"game": "clash-2", "seat": "FR", "name": "Bruno", "secret": "7f3k-29qa-xm4p", "taken": 2, "seats": 4},
    ),
    "slip_default": (
        "slip_default.txt",
        {
            "game": "clash-1",
            "seat": "BR",
            "name": "Alice",
            "days": 14,
            "notes": ["You are on the list for the next game of Clash of Empires."],
        },
    ),
    "started": ("started.txt", STARTED),
    "started_by_gm": (
        "started.txt",
        {
            **STARTED,
            "how": "gm",
            "seats": ["BR", "FR", "GE"],
            "robots": ["GE"],
            "deadline": None,
            "portal": None,
            "attachments": ["clash-2-1-FR-orders.txt"],
        },
    ),
    "started_for_turn_one": (
        "started.txt",
        {**STARTED, "how": "turn 1", "order_form": "", "attachments": []},
    ),
    "welcome": (
        "welcome.txt",
        {
            "game": "clash-1",
            "seat": "RU",
            "player": "Erin",
            "turn": 8,
            "last_turn": 7,
            "deadline": "Fri 2026-11-27 18:00 UTC",
            "secret": "m2xq-88ka-p0zt",
        },
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_mail_reads_as_it_did(case):
    template, context = CASES[case]
    written = write_mail(mail_environment(None), template, {**GM, **context})
    check_golden(GOLDEN / f"{case}.txt", f"Subject: {written.subject}\n\n{written.body}", "a mail's text changed")


def test_every_mail_template_has_a_golden_case():
    templates = {p.name for p in Path(str(files("gm_templates.mail"))).glob("*.txt")}
    assert templates == {template for template, _ in CASES.values()}


def test_a_report_mail_says_how_to_ask_for_it_again_and_holds_one_turn_file():
    """Issue 28: the report mail's RESEND hint named no envelope and no password. It says the
    five lines now, and none of them starts a line: a player who sends the whole text back (as
    the mail invites, in a new mail's body) sends the order form, one turn file, and no RESEND."""
    written = write_mail(mail_environment(None), "report.txt", {**GM, **REPORT, "rerun": None})
    hint = " ".join(written.body.split("To get this report again")[1].split("To check")[0].split())
    assert hint == (
        ", send a turn file of five lines, each on a line of its own: GAME clash-1, then PLAYER BR, "
        "PASSWORD and your password, RESEND and END."
    )
    [found] = find_turn_files([Text("body", written.body)])
    assert found.text == FORM
