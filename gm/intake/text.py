"""A mail part's text: transfer encoding and charset undone, HTML made text, odd characters cleaned."""

from __future__ import annotations

import codecs
from email.message import Message

import lxml.html

# HTML to text: inscriptis (Apache-2.0, maintained, built on lxml) keeps the line structure of
# <div>/<p>/<br>/tables, which is what matters for order lines. html2text would do too, but it is
# GPL-3 and gm is MIT; BeautifulSoup's get_text() loses the line breaks of <div>-per-line mail.
from inscriptis import Inscriptis  # type: ignore[import-untyped]  # inscriptis has no type hints
from lxml.etree import ParserError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Charsets where any byte decodes: a UTF-8 text wrongly declared as one of these would turn into
# mojibake ("Ã©") without failing, so valid UTF-8 with non-ASCII bytes wins over the declaration.
_ANYTHING_GOES = {
    "us-ascii",
    "ascii",
    "iso-8859-1",
    "latin-1",
    "latin1",
    "windows-1252",
    "cp1252",
    "iso-8859-15",
    "latin-9",
}
# Characters mail programs put where a plain space or nothing was meant.
_ODD = {
    "\ufeff": "",
    "\u200b": "",
    "\u200c": "",
    "\u200d": "",
    "\u2060": "",
    "\u00ad": "",
    "\u00a0": " ",
    "\u2007": " ",
    "\u202f": " ",
    "\u3000": " ",
    "\r\n": "\n",
    "\r": "\n",
}


def part_text(part: Message, declared: str | None) -> str:
    """The decoded, cleaned text of a MIME part (quoted-printable and base64 undone) in its declared
    charset, or what the bytes turn out to be; never raises."""
    try:
        data = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - a broken part has no text
        data = None
    if not isinstance(data, bytes):
        return ""
    return clean_text(decode_bytes(data, declared))


def decode_bytes(data: bytes, declared: str | None) -> str:
    """Bytes to text: a BOM decides, then the declared charset (unless it is plainly wrong),
    then UTF-8, then Windows-1252, which decodes anything."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    declared = (declared or "").strip().lower()
    if declared in _ANYTHING_GOES and not data.isascii():
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    for encoding in (declared, "utf-8"):
        if not encoding:
            continue
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError, ValueError):
            continue
    return data.decode("cp1252", errors="replace")


def clean_text(text: str) -> str:
    """Line ends made \\n; BOMs, zero-width and soft hyphens dropped; odd spaces made plain."""
    text = readable(text)
    for odd, plain in _ODD.items():
        if odd in text:
            text = text.replace(odd, plain)
    return text.replace("\x00", "")


def readable(text: str) -> str:
    """Text the email package read from undeclared 8-bit bytes (kept as lone surrogates) made
    storable: UTF-8 where it is UTF-8, a replacement character elsewhere."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        try:
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", "replace").decode("utf-8")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("cp1252", "replace")


def html_to_text(html: str) -> str:
    """An HTML body as the text a reader sees, without quoted replies (<blockquote>)."""
    html = html.strip()
    if html.startswith("<?xml"):
        html = html.partition("?>")[2]  # lxml refuses text that declares an encoding
    if not html:
        return ""
    try:
        try:
            tree = lxml.html.document_fromstring(html)
        except ParserError:
            tree = lxml.html.document_fromstring("<pre>" + html + "</pre>")
        for quoted in tree.xpath("//blockquote"):
            quoted.drop_tree()
        return clean_text(Inscriptis(tree).get_text())
    except Exception:  # noqa: BLE001 - HTML lxml cannot take at all: the tags stay, the text is still there
        return clean_text(html)
