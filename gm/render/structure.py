"""A tagged report's structure across the turn's pages: the turn's tags grafted into each seat's tree.

WeasyPrint writes a tagged PDF (PDF/UA-1: headings, tables with their headers, figures with
their alternative text, in reading order), but the turn's pages (gm.render.turnpages) are laid
over a seat's blank pages as form XObjects, and their tags stay behind in the turn's own PDF. A
screen reader would read a blank page there, and a validator finds untagged content. So:

- once a turn, `prepared` readies the turn's PDF: each page becomes a form XObject whose marked
  content is reached through the form (its MCIDs become marked-content references naming the
  form, ISO 32000-1 14.7.4.3), the tags lose their links to the turn's own pages and document
  (so that copying them brings nothing else along), and table header IDs get a prefix of their
  own (they must not meet the seat's); the catalog keeps, per page, the form, its tags and the
  tags that own its marked content (/GmTurnTags);
- in each seat's PDF, `graft` puts a turn page's tags (a strip's) where the seat's blank block
  for it stands in its tree (an empty Art element: turnpages.blank_pages writes each block as
  an <article>), and gives the form its entry in the seat's parent tree.

The copies are pikepdf's (QPDF's copy of foreign objects), each object once per seat.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pikepdf

# pikepdf's objects are dynamic (a Dictionary's keys are attributes, an item may be any kind of
# object): the tags walked here are Any, as they are to pikepdf itself.
TAGS = pikepdf.Name("/GmTurnTags")
ID_PREFIX = "turn-"
_MCR = pikepdf.Name("/MCR")


def is_tagged(pdf: pikepdf.Pdf) -> bool:
    """Whether the PDF has a structure tree (WeasyPrint wrote it with tags)."""
    return pikepdf.Name.StructTreeRoot in pdf.Root


def prepared(turn_pdf: bytes) -> bytes:
    """The turn's PDF readied for graft (see the module docstring); untagged, as it was."""
    with pikepdf.open(io.BytesIO(turn_pdf)) as pdf:
        if not is_tagged(pdf):
            return turn_pdf
        document: Any = pdf.Root.StructTreeRoot.K[0]
        owners = _owners_by_page(pdf)
        pages = {page.objgen: number for number, page in enumerate(pdf.pages)}
        forms = [pdf.make_indirect(page.as_form_xobject()) for page in pdf.pages]
        kids: list[list[Any]] = [[] for _ in pdf.pages]
        for element in document.K:
            number = pages.get(element.get("/Pg").objgen) if "/Pg" in element else None
            if number is not None:
                kids[number].append(element)
        for element in document.K:
            del element.P
            _unlink(element, forms, pages)
        pdf.Root[TAGS] = pikepdf.Array(
            [
                pdf.make_indirect(
                    pikepdf.Dictionary(Form=form, Kids=pikepdf.Array(found), Owners=owners.get(number, pikepdf.Array()))
                )
                for number, (form, found) in enumerate(zip(forms, kids, strict=True))
            ]
        )
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


def _owners_by_page(pdf: pikepdf.Pdf) -> dict[int, Any]:
    """The parent tree's array for each page: the tag owning each MCID of its content."""
    nums = pdf.Root.StructTreeRoot.ParentTree.Nums
    owners: dict[int, Any] = {}
    for position in range(0, len(nums), 2):
        key = int(nums[position])
        if key < len(pdf.pages):
            owners[key] = nums[position + 1]
    return owners


def _unlink(element: Any, forms: list[Any], pages: dict[Any, int]) -> None:
    """Make a tag of the turn's PDF stand alone: its marked content named through its page's
    form, no /Pg (the seat's page is set at graft), table header IDs prefixed."""
    page = pages.get(element.get("/Pg").objgen) if "/Pg" in element else None
    if "/Pg" in element:
        del element.Pg
    if "/ID" in element:
        element.ID = pikepdf.String(ID_PREFIX + str(element.ID))
    attributes = element.get("/A")
    if isinstance(attributes, pikepdf.Dictionary) and "/Headers" in attributes:
        attributes.Headers = pikepdf.Array([pikepdf.String(ID_PREFIX + str(h)) for h in attributes.Headers])
    kids = element.get("/K")
    if not isinstance(kids, pikepdf.Array):
        return
    for index, kid in enumerate(kids):
        if isinstance(kid, int) and page is not None:
            kids[index] = pikepdf.Dictionary(Type=_MCR, MCID=kid, Stm=forms[page])
        elif isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            _unlink(kid, forms, pages)


def turn_forms(shared: pikepdf.Pdf) -> list[Any] | None:
    """The prepared forms of the turn's pages, None for a turn PDF that is not tagged."""
    tags = shared.Root.get(TAGS)
    return None if tags is None else [page.Form for page in tags]


def graft(seat: pikepdf.Pdf, shared: pikepdf.Pdf, blanks: list[int]) -> list[Any]:
    """Graft the turn's tags into the seat's tree, each page's where its blank stands; return
    the seat's copies of the turn's forms, to draw on the blank pages."""
    tree = seat.Root.StructTreeRoot
    nums = tree.ParentTree.Nums
    key = max((int(nums[i]) for i in range(0, len(nums), 2)), default=-1) + 1
    places = _blank_tags(tree.K[0], [seat.pages[number].objgen for number in blanks])
    forms: list[Any] = []
    for index, (number, tags) in enumerate(zip(blanks, shared.Root[TAGS], strict=True)):
        copy = seat.copy_foreign(tags)
        page = seat.pages[number].obj
        copy.Form.StructParents = key + index
        nums.append(key + index)
        nums.append(copy.Owners)
        for owner in copy.Owners:
            if isinstance(owner, pikepdf.Dictionary):
                owner.Pg = page
        parent, blank = places[index]
        for kid in copy.Kids:
            kid.P = parent
        position = next(i for i, kid in enumerate(parent.K) if kid.objgen == blank.objgen)
        parent.K = pikepdf.Array([*parent.K[:position], *copy.Kids, *parent.K[position + 1 :]])
        forms.append(copy.Form)
    tree.ParentTreeNextKey = key + len(blanks)
    return forms


def _blank_tags(document: Any, pages: list[Any]) -> list[tuple[Any, Any]]:
    """(parent, tag) of the seat's blank blocks' empty Art tags, one on each of `pages` (their
    objgens), in order: among the document's own kids (gm's report template puts them there),
    else anywhere in its tree. An empty <article> of a GM's own template on another page is not
    one; one on the same page before the turn's text is passed over (the last ones are taken)."""
    found = [(document, kid) for kid in document.K if _is_blank(kid, pages)]
    if len(found) < len(pages):
        found = list(_blanks_under(document, pages))
    if len(found) < len(pages):
        raise RuntimeError(f"the report's tags have {len(found)} blank turn page(s), not {len(pages)}")
    return found[len(found) - len(pages) :]


def _blanks_under(element: Any, pages: list[Any]) -> Iterator[tuple[Any, Any]]:
    for kid in element.get("/K", ()):
        if _is_blank(kid, pages):
            yield element, kid
        elif isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield from _blanks_under(kid, pages)


def _is_blank(kid: Any, pages: list[Any]) -> bool:
    return (
        isinstance(kid, pikepdf.Dictionary)
        and kid.get("/S") == "/Art"
        and len(kid.get("/K", ())) == 0
        and "/Pg" in kid
        and kid.Pg.objgen in pages
    )
