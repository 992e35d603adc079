"""Mails in the shapes common mail programs send them, each holding a turn file (or not), as raw bytes.

Made by hand after the programs' own output: their headers, MIME structure, charsets, transfer
encodings, quoting and forwarding styles. Each entry: (name, raw bytes, expected outcome).
"""

from __future__ import annotations

import base64
import quopri


def _qp(text: str, charset: str = "utf-8") -> str:
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def _b64(data: bytes) -> str:
    return base64.encodebytes(data).decode("ascii")


def _crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def corpus(secret: str, other_secret: str) -> list[tuple[str, bytes, str]]:
    """Every client-shaped mail; `secret` is BR's in game g1, `other_secret` FR's."""
    tf = f"GAME g1\nPLAYER BR\nPASSWORD {secret}\nCLAIM ENG SCO\nEND\n"
    fr = f"GAME g1\nPLAYER FR\nPASSWORD {other_secret}\nCLAIM BRI\nEND\n"
    old = f"GAME g1\nPLAYER BR\nPASSWORD {secret}\nCLAIM WAL\nEND\n"
    html_lines = "".join(f"<div>{line}</div>" for line in tf.splitlines())
    quoted = "".join(f"> {line}\n" for line in old.splitlines())
    mails = [
        (
            "thunderbird plain, format=flowed",
            _crlf(
                "Message-ID: <c1@thunderbird.example>\nDate: Sat, 21 Nov 2026 10:00:00 +0100\nMIME-Version: 1.0\n"
                "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.5.0\n"
                "Content-Language: en-GB\nTo: gm@example.org\nFrom: Ann <ann@example.org>\nSubject: Orders turn 1\n"
                "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n"
                f"Hi,\n\n{tf}\n-- \nAnn\n"
            ),
            "accepted",
        ),
        (
            "thunderbird attachment",
            _crlf(
                "Message-ID: <c2@thunderbird.example>\nMIME-Version: 1.0\nUser-Agent: Thunderbird/115.5.0\n"
                "From: Ann <ann@example.org>\nTo: gm@example.org\nSubject: orders\n"
                'Content-Type: multipart/mixed; boundary="------------Zx8Qq3LbT2"\n\n'
                "This is a multi-part message in MIME format.\n--------------Zx8Qq3LbT2\n"
                "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n"
                "Orders attached.\n\n--------------Zx8Qq3LbT2\n"
                'Content-Type: text/plain; charset=UTF-8; name="br.txt"\nContent-Disposition: attachment; filename="br.txt"\n'
                f"Content-Transfer-Encoding: base64\n\n{_b64(tf.encode())}\n--------------Zx8Qq3LbT2--\n"
            ),
            "accepted",
        ),
        (
            "outlook alternative, windows-1252 quoted-printable, original message below",
            _crlf(
                'From: Ann Example <ann@example.org>\nTo: "gm@example.org" <gm@example.org>\nSubject: RE: g1 report\n'
                "Thread-Topic: g1 report\nThread-Index: AQHZ1234\nDate: Sat, 21 Nov 2026 09:00:00 +0000\n"
                "Message-ID: <DB9PR01MB1234@DB9PR01MB.eurprd01.prod.outlook.com>\nAccept-Language: de-DE, en-US\n"
                "Content-Language: de-DE\nX-MS-Has-Attach: \nX-Mailer: Microsoft Outlook 16.0\nMIME-Version: 1.0\n"
                'Content-Type: multipart/alternative; boundary="_000_DB9PR01MB1234_"\n\n'
                '--_000_DB9PR01MB1234_\nContent-Type: text/plain; charset="windows-1252"\n'
                f"Content-Transfer-Encoding: quoted-printable\n\n{_qp(tf + 'Grüße – Ann' + chr(10), 'cp1252')}\n"
                f"-----Original Message-----\nFrom: Game Master <gm@example.org>\nSent: Friday\n\n{_qp(old, 'cp1252')}\n"
                '--_000_DB9PR01MB1234_\nContent-Type: text/html; charset="windows-1252"\n'
                "Content-Transfer-Encoding: quoted-printable\n\n"
                + _qp(
                    f"<html><body><p class=MsoNormal>{'<o:p></o:p></p><p class=MsoNormal>'.join(tf.splitlines())}</p>"
                    "</body></html>",
                    "cp1252",
                )
                + "\n--_000_DB9PR01MB1234_--\n"
            ),
            "accepted",
        ),
        (
            "outlook html only, MsoNormal paragraphs",
            _crlf(
                "From: Ann <ann@example.org>\nSubject: orders\nMessage-ID: <c4@outlook.example>\nMIME-Version: 1.0\n"
                'X-Mailer: Microsoft Outlook 16.0\nContent-Type: text/html; charset="us-ascii"\n'
                "Content-Transfer-Encoding: quoted-printable\n\n"
                + _qp(
                    '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0cm}</style>'
                    "</head><body lang=EN-GB><div class=WordSection1>"
                    + "".join(f"<p class=MsoNormal>{line}<o:p></o:p></p>" for line in tf.splitlines())
                    + "<p class=MsoNormal><o:p>&nbsp;</o:p></p></div></body></html>"
                )
                + "\n"
            ),
            "accepted",
        ),
        (
            "gmail alternative with a quoted reply",
            _crlf(
                "MIME-Version: 1.0\nReferences: <report-g1-0@example.org>\nIn-Reply-To: <report-g1-0@example.org>\n"
                "From: Ann <ann.example@gmail.com>\nDate: Sat, 21 Nov 2026 10:00:00 +0100\n"
                "Message-ID: <CAF=abc123@mail.gmail.com>\nSubject: Re: g1: Set-up (turn 0)\nTo: Game Master <gm@example.org>\n"
                'Content-Type: multipart/alternative; boundary="000000000000a1b2c3"\n\n'
                '--000000000000a1b2c3\nContent-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
                + _qp(f"{tf}\nOn Fri, 20 Nov 2026 at 18:00, Game Master <gm@example.org> wrote:\n\n{quoted}")
                + '\n--000000000000a1b2c3\nContent-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
                + _qp(
                    f'<div dir="ltr">{html_lines}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
                    f'On Fri wrote:<br></div><blockquote class="gmail_quote">{old}</blockquote></div>'
                )
                + "\n--000000000000a1b2c3--\n"
            ),
            "accepted",
        ),
        (
            "gmail forward",
            _crlf(
                "MIME-Version: 1.0\nFrom: Ann <ann.example@gmail.com>\nMessage-ID: <CAF=fwd@mail.gmail.com>\n"
                'Subject: Fwd: my orders\nTo: gm@example.org\nContent-Type: text/plain; charset="UTF-8"\n\n'
                "My other mail account is broken, here they are.\n\n---------- Forwarded message ---------\n"
                f"From: Ann <ann@example.org>\nDate: Sat, 21 Nov 2026\nSubject: orders\nTo: <gm@example.org>\n\n{tf}"
            ),
            "accepted",
        ),
        (
            "apple mail alternative, us-ascii with nbsp",
            _crlf(
                'From: Ann <ann@example.org>\nContent-Type: multipart/alternative;\n\tboundary="Apple-Mail=_1A2B3C4D"\n'
                "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.300.61.1.2\\))\nSubject: orders\n"
                "Message-Id: <5E6F7A8B-1234@example.org>\nDate: Sat, 21 Nov 2026 10:00:00 +0100\nTo: gm@example.org\n"
                "X-Mailer: Apple Mail (2.3774.300.61.1.2)\n\n--Apple-Mail=_1A2B3C4D\nContent-Transfer-Encoding: quoted-printable\n"
                "Content-Type: text/plain;\n\tcharset=utf-8\n\n"
                + _qp(tf.replace(" ", "\u00a0"))
                + "\n--Apple-Mail=_1A2B3C4D\nContent-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n"
                + _qp(f'<html><body style="overflow-wrap: break-word;">{html_lines}</body></html>')
                + "\n--Apple-Mail=_1A2B3C4D--\n"
            ),
            "accepted",
        ),
        (
            "iphone, quoted-printable nbsp",
            _crlf(
                "Content-Type: text/plain;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\n"
                "From: Ann <ann@example.org>\nMime-Version: 1.0 (1.0)\nDate: Sat, 21 Nov 2026 10:00:00 +0100\n"
                "Subject: Orders\nMessage-Id: <A1B2-iphone@example.org>\nTo: gm@example.org\nX-Mailer: iPhone Mail (21A360)\n\n"
                + _qp(tf.replace("CLAIM ENG SCO", "CLAIM\u00a0ENG\u00a0SCO") + "\nSent from my iPhone\n")
            ),
            "accepted",
        ),
        (
            "android gmail html only, br lines",
            _crlf(
                "MIME-Version: 1.0\nFrom: Ann <ann.example@gmail.com>\nDate: Sat, 21 Nov 2026 10:00:00 +0100\n"
                "Message-ID: <CAF=android@mail.gmail.com>\nSubject: orders\nTo: gm@example.org\n"
                'Content-Type: text/html; charset="UTF-8"\n\n<div dir="auto">'
                + "<br>".join(tf.splitlines())
                + "</div>\n"
            ),
            "accepted",
        ),
        (
            "k-9 mail, base64 utf-8",
            _crlf(
                "MIME-Version: 1.0\nUser-Agent: K-9 Mail for Android\nFrom: Ann <ann@example.org>\nSubject: orders\n"
                "Message-ID: <k9-1@example.org>\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
                + _b64(("Zug 1 – Befehle:\n" + tf).encode())
            ),
            "accepted",
        ),
        (
            "forwarded as an attachment (message/rfc822)",
            _crlf(
                "MIME-Version: 1.0\nFrom: Ann <ann@example.org>\nSubject: Fwd: orders\nMessage-ID: <fwd-att@example.org>\n"
                'Content-Type: multipart/mixed; boundary="b1"\n\n--b1\nContent-Type: text/plain\n\nSee attached mail.\n'
                "--b1\nContent-Type: message/rfc822\nContent-Disposition: attachment\n\n"
                "From: Ann <ann@example.org>\nSubject: orders\nContent-Type: text/plain; charset=utf-8\n"
                f"Content-Disposition: inline\n\n{tf}\n--b1--\n"
            ),
            "accepted",
        ),
        (
            "windows notepad utf-16 attachment, octet-stream",
            _crlf(
                "MIME-Version: 1.0\nFrom: Ann <ann@example.org>\nSubject: orders\nMessage-ID: <u16@example.org>\n"
                'Content-Type: multipart/mixed; boundary="b2"\n\n--b2\nContent-Type: text/plain\n\n(see file)\n'
                '--b2\nContent-Type: application/octet-stream; name="BR.ord"\nContent-Disposition: attachment; filename="BR.ord"\n'
                f"Content-Transfer-Encoding: base64\n\n{_b64(tf.encode('utf-16'))}--b2--\n"
            ),
            "accepted",
        ),
        (
            "latin-1 declared, utf-8 sent, no MIME-Version",
            _crlf(
                "From: Ann <ann@example.org>\nSubject: orders\nMessage-ID: <wrong-cs@example.org>\n"
                "Content-Type: text/plain; charset=iso-8859-1\n\n"
            )
            + f"{tf}Grüße\n".encode(),
            "accepted",
        ),
        (
            "8-bit latin-1 body without any MIME headers",
            _crlf("From: Ann <ann@example.org>\nSubject: orders\nMessage-ID: <raw8@example.org>\n\n")
            + f"{tf}Grüße, Zoë\n".encode("latin-1"),
            "accepted",
        ),
        (
            "encoded-word subject and name",
            _crlf(
                "From: =?UTF-8?B?Wm/DqyDDnG5hbA==?= <ann@example.org>\nSubject: =?iso-8859-1?q?Befehle_f=FCr_Runde_1?=\n"
                f"Message-ID: <ew@example.org>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{tf}"
            ),
            "accepted",
        ),
        (
            "two turn files in one mail",
            _crlf(f"From: Ann <ann@example.org>\nSubject: both seats\nMessage-ID: <two@example.org>\n\n{tf}\n{fr}"),
            "accepted",
        ),
        ("missing Message-ID, Date and Subject", _crlf(f"From: ann@example.org\n\n{tf}"), "accepted"),
        (
            "broken MIME: boundary never closed",
            _crlf(
                f"From: Ann <ann@example.org>\nSubject: x\nMessage-ID: <broken@example.org>\nMIME-Version: 1.0\n"
                f'Content-Type: multipart/mixed; boundary="nope"\n\n--nope\nContent-Type: text/plain\n\n{tf}'
            ),
            "accepted",
        ),
        (
            "broken MIME: boundary missing",
            _crlf(
                f"From: Ann <ann@example.org>\nSubject: x\nMessage-ID: <noboundary@example.org>\nMIME-Version: 1.0\n"
                f"Content-Type: multipart/mixed\n\n{tf}"
            ),
            "accepted",
        ),
        (
            "unknown charset",
            _crlf(
                "From: Ann <ann@example.org>\nSubject: x\nMessage-ID: <unk@example.org>\n"
                f"Content-Type: text/plain; charset=x-unknown-8bit\n\n{tf}"
            ),
            "accepted",
        ),
        (
            "wrong password",
            _crlf(
                f"From: Ann <ann@example.org>\nSubject: x\nMessage-ID: <wrongpw@example.org>\n\n{tf.replace(secret, 'nope')}"
            ),
            "refused",
        ),
        (
            "chatter without a turn file",
            _crlf(
                "From: Bob <bob@example.org>\nSubject: when is the deadline?\nMessage-ID: <chat@example.org>\n\nHi, when?\n"
            ),
            "question",
        ),
        (
            "vacation auto-reply",
            _crlf(
                "From: Ann <ann@example.org>\nSubject: Out of office\nAuto-Submitted: auto-replied\n"
                "Message-ID: <ooo@example.org>\nX-Auto-Response-Suppress: All\n\nI am away until Monday.\n"
            ),
            "ignored",
        ),
        (
            "bounce from MAILER-DAEMON, multipart/report",
            _crlf(
                "Return-Path: <>\nFrom: MAILER-DAEMON@mx.example.org (Mail Delivery System)\nSubject: Undelivered Mail\n"
                "Message-ID: <bounce@mx.example.org>\nMIME-Version: 1.0\n"
                'Content-Type: multipart/report; report-type=delivery-status; boundary="r1"\n\n--r1\n'
                "Content-Type: text/plain\n\nYour mail could not be delivered.\n--r1\nContent-Type: message/delivery-status\n\n"
                f"Final-Recipient: rfc822; x@example.org\nAction: failed\n\n--r1\nContent-Type: message/rfc822\n\n"
                f"From: Ann <ann@example.org>\nSubject: orders\n\n{tf}\n--r1--\n"
            ),
            "ignored",
        ),
        (
            "mailing list copy",
            _crlf(
                "From: Ann <ann@example.org>\nSubject: [pbm] orders\nList-Id: PBM players <pbm.lists.example.org>\n"
                f"Precedence: list\nMessage-ID: <list@example.org>\n\n{tf}"
            ),
            "ignored",
        ),
    ]
    return mails
