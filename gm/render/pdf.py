"""HTML to PDF through WeasyPrint, with fixed metadata so the same report gives the same bytes."""

from __future__ import annotations

import base64
import re
import struct
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from hashlib import md5

from gm.render.libraries import found_once

# WeasyPrint and pydyf have no types (nor stub packages): their names are Any here.
with found_once():  # the C libraries looked up once: a quarter of WeasyPrint's import
    import pydyf  # type: ignore[import-untyped]
    from weasyprint import CSS, HTML, Document  # type: ignore[import-untyped]
    from weasyprint.images import RasterImage  # type: ignore[import-untyped]
    from weasyprint.text.fonts import FontConfiguration  # type: ignore[import-untyped]

from gm.render import structure, turnpages
from gm.render.budget import OverBudget
from gm.render.fetcher import AssetFetcher
from gm.render.pictures import PNG_DATA_URL, shared_images
from gm.render.stages import Stages

__all__ = ["PNG_DATA_URL", "SharedImages", "font_configuration", "html_to_pdf", "palette_image", "shared_images"]

# WeasyPrint only understands W3C dates; anything else it drops with a warning, which would make
# the PDF's date silently vanish. Refuse it here instead.
_W3C_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})")

# Reports are tagged PDF (PDF/UA-1: headings, reading order, table headers, a text for every
# map), so that a screen reader follows them; bench/README.md, "Tagged reports", has its cost.
# The turn's pages are always tagged (once a turn); a seat's PDF unless render_report is told not.
PDF_VARIANT = "pdf/ua-1"

_font_config: FontConfiguration | None = None
# Parsed <style> sheets, by (text, base URL, fetcher): every report of a process shares gm's own.
_sheets: OrderedDict[tuple[str, str, AssetFetcher], CSS] = OrderedDict()
_KEEP_SHEETS = 32
# What a shared image's data: URL becomes in the HTML WeasyPrint parses (see _shorten).
SHARED_IMAGE_SCHEME = "gm-shared-image:"

# WeasyPrint's image cache: URL -> image, which it takes instead of fetching the URL.
ImageCache = Mapping[str, object]


def font_configuration() -> FontConfiguration:
    """The process's FontConfiguration: reusing it saves a few percent per render and memory."""
    global _font_config
    if _font_config is None:
        _font_config = FontConfiguration()
    return _font_config


def html_to_pdf(
    html: str,
    *,
    base_url: str,
    created: str,
    identifier: str,
    fetcher: AssetFetcher,
    cache: ImageCache | None = None,
) -> bytes:
    """Render `html` to PDF bytes; every resource goes through `fetcher`.

    created: the report's W3C datetime ("2026-11-21T19:00:00Z"); it becomes the PDF's
        creation and modification date instead of the clock.
    identifier: a stable id for the document (e.g. "clash-1/5/BR"); it becomes the PDF /ID
        instead of a hash that would differ between runs (a report with turn pages, see
        render_report, gets an /ID made from its content instead, as stable).
    cache: WeasyPrint's image cache (URL -> image), e.g. SharedImages.cache_for(job.images).
    """
    pdf, _ = render_report(
        html, base_url=base_url, created=created, identifier=identifier, fetcher=fetcher, cache=cache
    )
    return pdf


def render_report(
    html: str,
    *,
    base_url: str,
    created: str,
    identifier: str,
    fetcher: AssetFetcher,
    cache: ImageCache | None = None,
    turn_pages: turnpages.TurnPages | None = None,
    max_pages: int | None = None,
    tagged: bool = True,
    stages: Stages | None = None,
) -> tuple[bytes, turnpages.TurnPages | None]:
    """html_to_pdf, for a report that may have turn pages (gm.render.turnpages): they are laid
    out once per process and laid over the seat's blank pages. turn_pages: the report's turn
    pages laid out elsewhere (another worker), used as they are. Returns the PDF and the turn
    pages this call laid out (None if it laid out none), for a pool to hand to other workers.
    max_pages: OverBudget (gm.render.budget) for a report longer, before it is written.
    tagged: a tagged PDF (PDF_VARIANT), or not (gm.toml's [reports] tagged = false).
    stages: where the CPU of each stage goes (gm.render.stages: turn_pages, layout, drawing,
    overlay), for a render worker's accounts."""
    if not _W3C_DATE.fullmatch(created):
        raise ValueError(f"created must be a W3C datetime like 2026-11-21T19:00:00Z, not {created!r}")
    stages = stages if stages is not None else Stages()
    parts = turnpages.split(html)
    if parts is None:
        with stages.count("layout"):
            document = _within(_layout(html, base_url, fetcher, cache), max_pages, identifier)
        with stages.count("drawing"):
            return _write(document, created, identifier, tagged), None
    key = parts.key(base_url, fetcher.roots)
    if turn_pages is not None and turn_pages.key == key:
        _turn_pages.put(key, turn_pages)
    made = None
    turn = _turn_pages.get(key)
    if turn is None:
        with stages.count("turn_pages"):
            turn = made = _turn_document(parts.turn_html, key, base_url, fetcher, cache)
        _turn_pages.put(key, turn)
    with stages.count("overlay"):
        seat_html = turnpages.place_blank_pages(parts.seat_html, turn)
    with stages.count("layout"):
        document = _within(_layout(seat_html, base_url, fetcher, cache), max_pages, identifier)
    with stages.count("overlay"):
        places = turnpages.blank_places(document, turn.pages)
    with stages.count("drawing"):
        own = _write(document, created, identifier, tagged)
    with stages.count("overlay"):
        pdf = turnpages.lay_over(own, turn, places, parts.readers)
    return pdf, made


def _layout(html: str, base_url: str, fetcher: AssetFetcher, cache: ImageCache | None) -> Document:
    html, cache = _shorten(html, cache or {})
    page = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    return page.render(
        stylesheets=_take_stylesheets(page, base_url, fetcher), font_config=font_configuration(), cache=cache
    )


def _within(document: Document, max_pages: int | None, identifier: str) -> Document:
    """The laid-out document, or OverBudget when it has more than max_pages pages (writing a
    PDF of thousands of pages would take as long again)."""
    if max_pages is not None and len(document.pages) > max_pages:
        raise OverBudget(identifier, f"it would be {len(document.pages):,} pages long, more than {max_pages:,}")
    return document


def _write(document: Document, created: str, identifier: str, tagged: bool = True) -> bytes:
    # Set here rather than trusting the template's <meta>, so an overriding GM template that
    # forgets it cannot make PDFs differ run to run.
    document.metadata.created = created
    document.metadata.modified = created
    pdf: bytes = document.write_pdf(
        pdf_identifier=identifier.encode("utf-8"), pdf_variant=PDF_VARIANT if tagged else None
    )
    return pdf


def _turn_document(
    html: str, key: str, base_url: str, fetcher: AssetFetcher, cache: ImageCache | None
) -> turnpages.TurnPages:
    """The turn's pages laid out and written once (see gm.render.turnpages)."""
    document = _layout(html, base_url, fetcher, cache)
    pdf = structure.prepared(_write(document, "2000-01-01T00:00:00Z", "turn-pages"))
    rows = turnpages.reader_rows(document)
    return turnpages.TurnPages(key, pdf, len(document.pages), rows, *turnpages.strips(document))


_turn_pages = turnpages.TurnPagesCache()


def _shorten(html: str, cache: ImageCache) -> tuple[str, dict[str, object]]:
    """The HTML with each cached image's data: URL replaced by a short name, and the cache by
    those names. The map picture is most of a report's HTML (290 KB of 320 in an Empires
    report); parsing it character by character cost WeasyPrint's HTML parser a third of its time."""
    short: dict[str, object] = {}
    for url, image in cache.items():
        if url.startswith("data:") and url in html:
            name = f"{SHARED_IMAGE_SCHEME}{md5(url.encode(), usedforsecurity=False).hexdigest()}"
            html = html.replace(url, name)
            short[name] = image
        else:
            short[url] = image
    return html, short


def _take_stylesheets(page: HTML, base_url: str, fetcher: AssetFetcher) -> list[CSS]:
    """Take the page's <style> sheets out of it and return them parsed, each once per process.

    Every report carries report.css and its ruleset's styles; WeasyPrint would parse them and
    compile their selectors again for each document (about 5 % of a report). Given back as
    WeasyPrint's user stylesheets, in the same order, they cascade as they did: nothing else in
    a report is an author sheet but style attributes, which win over both alike (a test checks
    the bytes are the same). A page with any other sheet (a <link>, a <style media=...>) is left
    to WeasyPrint whole, so the order of its sheets cannot change."""
    root = page.etree_element
    styles = [
        (parent, child)
        for parent in root.iter()
        for child in parent
        if isinstance(child.tag, str) and child.tag in ("style", "link")
    ]
    if any(child.tag == "link" or set(child.attrib) - {"type"} for _, child in styles):
        return []
    sheets: list[CSS] = []
    for parent, style in styles:
        key = (style.text or "", base_url, fetcher)
        if key not in _sheets:
            _sheets[key] = CSS(string=key[0], base_url=base_url, url_fetcher=fetcher, font_config=font_configuration())
            while len(_sheets) > _KEEP_SHEETS:
                _sheets.popitem(last=False)
        _sheets.move_to_end(key)
        sheets.append(_sheets[key])
        parent.remove(style)
    return sheets


class SharedImages:
    """The images many reports share (a turn's map), read once per process, not once per report.

    WeasyPrint looks an image up by its URL in the cache it is given before it fetches it, and
    it decodes and re-compresses a PNG in every document. A palette PNG given here as a data:
    URL is read once and embedded as its own compressed rows (a PDF /Indexed image), so a report
    pays nothing for it. Anything else is left to WeasyPrint. The images of the last few turns
    are kept.
    """

    KEEP = 8

    def __init__(self) -> None:
        self._images: OrderedDict[str, _PaletteImage | None] = OrderedDict()

    def cache_for(self, urls: Iterable[str]) -> dict[str, _PaletteImage]:
        """A fresh WeasyPrint image cache holding the shared images among `urls`."""
        cache: dict[str, _PaletteImage] = {}
        for url in urls:
            if url not in self._images:
                self._images[url] = palette_image(url)
                while len(self._images) > self.KEEP:
                    self._images.popitem(last=False)
            self._images.move_to_end(url)
            image = self._images[url]
            if image is not None:
                cache[url] = image
        return cache


def palette_image(url: str) -> _PaletteImage | None:
    """A WeasyPrint image for a PNG data: URL, embedded without re-encoding; None if the URL is
    anything else (WeasyPrint then reads it as usual). Taken: opaque, not interlaced PNGs of a
    palette (a turn's map picture) or of 8-bit RGB (a grid map drawn by Pillow)."""
    if not url.startswith(PNG_DATA_URL):
        return None
    png = base64.b64decode(url[len(PNG_DATA_URL) :])
    chunks = dict(_chunks(png, want={b"IHDR", b"PLTE", b"tRNS"}))
    header = chunks.get(b"IHDR", b"")
    if len(header) != 13 or header[12] != 0 or b"tRNS" in chunks:
        return None  # interlaced, or with transparency
    width, height, depth = struct.unpack(">IIB", header[:9])
    kind = header[9]
    if kind == 3 and b"PLTE" in chunks:
        palette = chunks[b"PLTE"]
    elif kind == 2 and depth == 8:
        palette = None
    else:
        return None
    rows = b"".join(data for _, data in _chunks(png, want={b"IDAT"}))
    return _PaletteImage(md5(url.encode(), usedforsecurity=False).hexdigest(), width, height, depth, palette, rows)


def _chunks(png: bytes, want: set[bytes]) -> Iterator[tuple[bytes, bytes]]:
    position = 8  # after the signature
    while position + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[position : position + 8])
        if kind in want:
            yield kind, png[position + 8 : position + 8 + length]
        position += 12 + length


class _PaletteImage(RasterImage):  # type: ignore[misc]  # RasterImage is untyped (Any)
    """A palette PNG as a PDF /Indexed image whose data are the PNG's own compressed rows (an
    RGB PNG, palette None, as a /DeviceRGB image the same way).

    A subclass of WeasyPrint's raster image so that its drawing code (size, placement) stays
    WeasyPrint's; tests/render/test_pdf.py checks the result against pdftoppm's reading of it."""

    def __init__(self, image_id: str, width: int, height: int, depth: int, palette: bytes | None, rows: bytes):
        # Not RasterImage.__init__: it would turn the palette into RGB. These are the attributes
        # its draw() and get_intrinsic_size() read.
        self.id, self.width, self.height = image_id, width, height
        self.ratio = width / height if height else float("inf")
        self._dpi, self.format, self.optimize, self.invert_colors = None, "PNG", False, False
        self.mode = "RGB" if palette is None else "P"
        self._depth, self._palette, self._rows = depth, palette, rows

    def get_x_object(self, interpolate: bool, dpi_ratio: float) -> pydyf.Stream:
        if self._palette is None:
            space, samples = "/DeviceRGB", 3
        else:
            colours = len(self._palette) // 3
            space = pydyf.Array(["/Indexed", "/DeviceRGB", colours - 1, _HexString(self._palette)])
            samples = 1
        extra = pydyf.Dictionary(
            {
                "Type": "/XObject",
                "Subtype": "/Image",
                "Width": self.width,
                "Height": self.height,
                "ColorSpace": space,
                "BitsPerComponent": self._depth,
                "Interpolate": "true" if interpolate else "false",
                "Filter": "/FlateDecode",
                # PNG rows carry a filter byte each; predictor 15 tells the reader so.
                "DecodeParms": pydyf.Dictionary(
                    {"Predictor": 15, "Colors": samples, "BitsPerComponent": self._depth, "Columns": self.width}
                ),
            }
        )
        return pydyf.Stream([self._rows], extra)


class _HexString(pydyf.Object):  # type: ignore[misc]  # pydyf is untyped (Any)
    """A PDF hex string: the palette's bytes may hold CR, which a literal string would not keep."""

    def __init__(self, raw: bytes) -> None:
        super().__init__()
        self.raw = raw

    @property
    def data(self) -> bytes:
        return b"<" + self.raw.hex().encode("ascii") + b">"
