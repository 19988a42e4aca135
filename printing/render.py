"""Select → layout → draw → write: one game's products into one PDF, page by page.

`select` is the only stage that reads the database (through cms.validation's
`load_game`); `sheets` does the geometry; the products' face functions draw; `write`
streams pages to a ReportLab canvas.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from cms.games import GAMES, kind_of
from cms.models import Card, Status
from cms.validation import (
    ERROR,
    GameContent,
    Problem,
    check_game,
    load_game,
    load_some,
    register_message,
)

from . import text as typo
from .draw import CanvasPen, Issue, MeasurePen
from .products import PRODUCTS, Deck, Page, Product, Sheets
from .products.calibration import CALIBRATION
from .sheets import (
    BACKS_FOLD,
    BACKS_LONG,
    BACKS_SEPARATE,
    BACKS_SHORT,
    CARD_SIZES,
    DEFAULT_CARD,
    Placement,
    SheetError,
    SheetSpec,
    paper_size,
)

CROP_MARK_WIDTH = 0.25  # pt

# Plain deflate streams: ASCII85 makes every page a quarter bigger for nothing.
rl_config.useA85 = 0


@dataclass(frozen=True)
class PrintOptions:
    """What the maker chose: paper, card size, bleed, how backs are printed."""

    paper: str = "a4"
    card: str = DEFAULT_CARD
    backs: str = BACKS_LONG
    bleed: float = 0.0
    offset_x: float = 0.0  # separate backs: shift in mm to correct a printer
    offset_y: float = 0.0
    crop_marks: bool = True

    def __post_init__(self):
        if self.card not in CARD_SIZES:
            raise SheetError(_("Format de carte inconnu : %(card)s.") % {"card": self.card})
        self.sheet_for(None)  # checks paper, bleed, backs and offsets

    def face_size(self, deck: Deck | None) -> tuple[float, float]:
        if deck is not None and deck.size is not None:
            return deck.size
        return CARD_SIZES[self.card]

    def sheet_for(self, deck: Deck | None) -> SheetSpec:
        w, h = self.face_size(deck)
        backs = self.backs if deck is None or deck.has_backs else BACKS_SEPARATE
        return SheetSpec(self.paper, w, h, bleed=self.bleed, backs=backs,
                         offset_x=self.offset_x, offset_y=self.offset_y)


DEFAULT_OPTIONS = PrintOptions()


class PrintRefused(Exception):
    """Raised when the content to print has errors: nothing is written."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


@dataclass(frozen=True, slots=True)  # one a printed item: a deck holds thousands
class Selected:
    """One item to print and the card or question it comes from (None: a fixed part)."""

    item: Any
    source: Any = None


@dataclass
class Result:
    pages: int = 0
    items: int = 0
    products: list[str] = field(default_factory=list)


# --- select --------------------------------------------------------------------------------


def products_for(game_slug: str, slugs: Sequence[str] = ()) -> list[Product]:
    """Return the products asked for (all of the game's when none are named)."""
    try:
        available = PRODUCTS[game_slug]
    except KeyError:
        raise KeyError(_("Jeu inconnu : %(game)s.") % {"game": game_slug}) from None
    if not slugs:
        # The calibration sheet is a tool for the printer, printed only when asked for.
        return [p for p in available.values() if p is not CALIBRATION]
    unknown = [s for s in slugs if s not in available]
    if unknown:
        raise KeyError(_("Produit inconnu pour %(game)s : %(products)s.") % {
            "game": game_slug, "products": ", ".join(unknown)})
    return [available[s] for s in dict.fromkeys(slugs)]


def _sources(product: Product, content: GameContent) -> list:
    """Return the game's cards or questions of the product's kind, in the admin's order."""
    pool = content.cards if kind_of(product.kind).is_card else content.questions
    return [obj for obj in pool if obj.kind == product.kind]


def select(product: Product, content: GameContent | None, *, include_drafts: bool = False,
           refs: Iterable[str] | None = None) -> list[Selected]:
    """Return what a product prints: its content (published only, by default) or parts."""
    if not product.kind:
        items = product.items() if isinstance(product, Deck) else ()
        return [Selected(item) for item in items]
    wanted = set(refs) if refs is not None else None
    chosen = []
    for obj in _sources(product, content):
        if wanted is not None and obj.ref not in wanted:
            continue
        if not include_drafts and obj.status != Status.PUBLISHED:
            continue
        chosen.append(Selected(product.to_item(content, obj), obj))
    return chosen


# --- check ---------------------------------------------------------------------------------


@lru_cache(maxsize=50_000)
def face_issues(deck: Deck, item: Any, w: float, h: float) -> tuple[Issue, ...]:
    """Return what the deck's faces cannot print for one item at one size (memoised)."""
    pen = MeasurePen(w, h)
    deck.front(pen, item)
    if deck.back is not None:
        deck.back(pen, item)
    return tuple(dict.fromkeys(pen.issues))


def unprintable_problem(issue: Issue, product: Product | None, source, game_slug: str) -> Problem:
    """Return the problem of text a product cannot print, about its card or question.

    The product and the box name the problem; the characters a font lacks only show it.
    """
    params = {"product": product.slug if product is not None else "", "box": issue.label}
    values = {"chars": issue.detail} if issue.code == "glyph_missing" else {}
    return Problem.of(issue.code, ERROR, source, game_slug, params=params, values=values)


def _where(problem: Problem) -> str:
    """Return « Cartes « Duel », question 2 »: the product and the box that fail."""
    args = problem.args
    product = PRODUCTS.get(problem.game, {}).get(args["product"])
    parts = [str(product.label)] if product is not None else []
    if args["box"]:
        parts.append(args["box"])
    return ", ".join(parts)


register_message("glyph_missing", lambda p: _(
    "Caractère impossible à imprimer « %(chars)s » (%(where)s).") % {
        "chars": p.args["chars"], "where": _where(p)})
register_message("text_overflow", lambda p: _(
    "Ne tient pas sur la carte (%(where)s), même en petits caractères.") % {
        "where": _where(p)})
register_message("nothing_to_print", lambda p: _("Rien à imprimer : aucun contenu publié."))


def fit_problems(game_slug: str, deck: Deck, selected: Iterable[Selected],
                 options: PrintOptions = DEFAULT_OPTIONS) -> list[Problem]:
    w, h = options.face_size(deck)
    problems = []
    for entry in selected:
        for issue in face_issues(deck, entry.item, w, h):
            problems.append(unprintable_problem(issue, deck, entry.source, game_slug))
    return problems


def check(game_slug: str, products: list[Product], content: GameContent | None,
          chosen: dict[str, list[Selected]], options: PrintOptions) -> list[Problem]:
    """Return the errors that stop this print before a page is drawn.

    The content's own errors, and the text of forms and pages that does not fit. Whether
    each item's text fits is found while drawing it (see `render`): measuring first would
    fit every text twice.
    """
    problems: list[Problem] = []
    if content is not None:
        printed = {(type(e.source), e.source.pk) for entries in chosen.values()
                   for e in entries if e.source is not None}
        printed_cards = {pk for model, pk in printed if model is Card}
        report = check_game(content, advisory=False)
        for problem in report.errors:
            target = problem.target
            if target is None or (type(target), target.pk) in printed:
                problems.append(problem)
        # A card's questions answer for the card: their errors stop it too.
        for card in content.cards:
            if card.pk in printed_cards:
                problems.extend(p for p in report.about(card)
                                if p.is_error and p.target is not card and p not in problems)
    for product in products:
        problems.extend(fixed_text_problems(game_slug, product, chosen[product.slug], options))
    return problems


def fixed_text_problems(game_slug: str, product: Product, entries: list[Selected],
                        options: PrintOptions) -> list[Problem]:
    """Measure what is not one item's face: shared forms and full pages."""
    issues: list[Issue] = []
    if isinstance(product, Deck):
        w, h = options.face_size(product)
        for draw in (product.front_form, product.back_form):
            if draw is not None:
                pen = MeasurePen(w, h, options.bleed)
                draw(pen)
                issues += pen.issues
    else:
        for page in product.pages(options, [e.item for e in entries]):
            pen = MeasurePen(*paper_size(page.paper or options.paper, landscape=page.landscape))
            page.draw(pen)
            issues += pen.issues
    return [unprintable_problem(issue, product, None, game_slug) for issue in dict.fromkeys(issues)]


@lru_cache(maxsize=1)
def _register():
    from cms.validation import register_rule

    @register_rule
    def printable_at_default_size(content: GameContent) -> list[Problem]:
        """Every content deck's faces fit a poker card and use characters the fonts have."""
        problems = []
        for product in PRODUCTS.get(content.game.slug, {}).values():
            if isinstance(product, Deck) and product.kind:
                chosen = [Selected(product.to_item(content, obj), obj)
                          for obj in _sources(product, content)]
                problems.extend(fit_problems(content.game.slug, product, chosen))
        return problems

    return printable_at_default_size


# --- write ---------------------------------------------------------------------------------


class Writer:
    """A canvas with page bookkeeping: page sizes, boxes, crop marks, shared backs."""

    def __init__(self, out, *, title: str, subject: str, options: PrintOptions,
                 game_slug: str = "", progress: Callable[[int, int], None] | None = None,
                 total: int = 0):
        typo.fonts()
        # Our own font from the start: no page names a Helvetica the PDF does not embed.
        self.canvas = Canvas(out, invariant=1, pageCompression=1, initialFontName=typo.REGULAR,
                             initialFontSize=10)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Plateau")
        self.canvas.setCreator("Plateau")
        self.canvas.setSubject(subject)
        self.canvas.setKeywords(
            f"papier={options.paper} carte={options.card} dos={options.backs} "
            f"fond-perdu={options.bleed:g}mm")
        duplex = {BACKS_LONG: "DuplexFlipLongEdge", BACKS_SHORT: "DuplexFlipShortEdge"}
        self.canvas.setViewerPreference("Duplex", duplex.get(options.backs, "Simplex"))
        self.canvas.setViewerPreference("PrintScaling", "None")
        self.options = options
        self.pages = 0
        self.forms: set[str] = set()
        self.progress = progress
        self.total = total
        self.done = 0
        self.game_slug = game_slug
        self.problems: list[Problem] = []  # text found unprintable while drawing

    def advance(self, count: int) -> None:
        self.done += count
        if self.progress:
            self.progress(self.done, self.total)

    def show_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    def start_on_front(self, w: float, h: float) -> None:
        """Make the next page a recto, so a duplex deck's backs land behind its fronts.

        The blank verso it may add has the size of the pages that follow it.
        """
        if self.pages % 2:
            self.page(w, h)
            self.show_page()

    def page(self, w: float, h: float) -> None:
        self.canvas.setPageSize((w * mm, h * mm))

    def boxes(self, trim, bleed) -> None:
        c = self.canvas
        c.setTrimBox((trim.x * mm, trim.y * mm, trim.right * mm, trim.top * mm))
        c.setBleedBox((bleed.x * mm, bleed.y * mm, bleed.right * mm, bleed.top * mm))

    def crop_marks(self, marks) -> None:
        c = self.canvas
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(CROP_MARK_WIDTH)
        c.lines([(m.x1 * mm, m.y1 * mm, m.x2 * mm, m.y2 * mm) for m in marks])

    def face(self, placement: Placement, w: float, h: float, draw, item, *, shared=None,
             product: Product | None = None, source=None):
        """Draw one face at its placement: the form all faces share first, then its own.

        `shared` is (key, draw function): the pen draws it once in the PDF and reuses it.
        """
        c = self.canvas
        # The PDF's own save, move and restore: ReportLab's saveState would also copy the
        # canvas's Python state, twice a card, while a face leaves nothing of it behind
        # that the next one reads (each sets its colours and fonts before using them).
        if placement.rotation == 180:
            x, y = placement.trim.x * mm + w * mm, placement.trim.y * mm + h * mm
            origin = f"-1 0 0 -1 {fp_str(x, y)}"
        else:
            origin = f"1 0 0 1 {fp_str(placement.trim.x * mm, placement.trim.y * mm)}"
        c._code.append(f"q {origin} cm")
        pen = CanvasPen(c, w, h, self.options.bleed, forms=self.forms)
        if shared is not None:
            pen.reuse(*shared)
        if draw is not None:
            draw(pen, item)
        pen.flush()
        self.unprintable(pen, product, source)
        c._code.append("Q")

    def unprintable(self, pen: CanvasPen, product: Product | None, source) -> None:
        for issue in dict.fromkeys(pen.issues):
            self.problems.append(unprintable_problem(issue, product, source, self.game_slug))

    def save(self) -> None:
        self.canvas.save()


def _chunks(entries: list, size: int):
    for start in range(0, len(entries), size):
        yield entries[start:start + size]


def write_deck(writer: Writer, deck: Deck, entries: list[Selected], *,
               fronts_only: bool = False) -> None:
    options = writer.options
    sheet = options.sheet_for(deck)
    w, h = options.face_size(deck)
    page_w, page_h = sheet.page_size
    # A preview shows the first page as printed: fronts, or fronts and backs when folded.
    backs = deck.has_backs and not (fronts_only and sheet.backs != BACKS_FOLD)
    front_form = (f"front-{deck.slug}", deck.front_form) if deck.front_form else None
    form = (f"back-{deck.slug}", deck.back_form) if backs and deck.back_form else None

    def fronts(chunk):
        writer.page(page_w, page_h)
        writer.boxes(sheet.trim_box(), sheet.bleed_box())
        for index, entry in enumerate(chunk):
            writer.face(sheet.front(index), w, h, deck.front, entry.item, shared=front_form,
                        product=deck, source=entry.source)
        if options.crop_marks:
            writer.crop_marks(sheet.crop_marks(count=len(chunk)))

    def back_faces(chunk):
        for index, entry in enumerate(chunk):
            writer.face(sheet.back(index), w, h, deck.back, entry.item, shared=form,
                        product=deck, source=entry.source)

    def backs_page(chunk):
        writer.page(page_w, page_h)
        writer.boxes(sheet.trim_box(backs=True), sheet.bleed_box(backs=True))
        back_faces(chunk)
        if options.crop_marks:
            writer.crop_marks(sheet.crop_marks(backs=True, count=len(chunk)))

    if backs and sheet.backs != BACKS_SEPARATE:
        writer.start_on_front(page_w, page_h)
    chunks = list(_chunks(entries, sheet.per_page))
    if not backs or sheet.backs == BACKS_SEPARATE:
        for chunk in chunks:
            fronts(chunk)
            writer.show_page()
            writer.advance(len(chunk))
        if backs:
            for chunk in chunks:
                backs_page(chunk)
                writer.show_page()
        return
    for chunk in chunks:
        fronts(chunk)
        if sheet.backs == BACKS_FOLD:
            back_faces(chunk)
            if options.crop_marks:
                writer.crop_marks(sheet.crop_marks(backs=True, count=len(chunk)))
            fold = sheet.fold_line
            c = writer.canvas
            c.saveState()
            c.setDash([3 * mm, 2 * mm])
            c.setLineWidth(0.4)
            c.setStrokeColorRGB(0.45, 0.45, 0.45)
            c.line(*(v * mm for v in fold))
            c.restoreState()
            writer.show_page()
        else:
            writer.show_page()
            backs_page(chunk)
            writer.show_page()
        writer.advance(len(chunk))


def write_sheets(writer: Writer, product: Sheets, entries: list[Selected], *,
                 first_only: bool = False) -> None:
    pages: list[Page] = list(product.pages(writer.options, [e.item for e in entries]))
    if first_only:
        pages = pages[:1]
    if product.duplex and pages:
        first = pages[0]
        writer.start_on_front(*paper_size(first.paper or writer.options.paper,
                                          landscape=first.landscape))
    for page in pages:
        w, h = paper_size(page.paper or writer.options.paper, landscape=page.landscape)
        writer.page(w, h)
        pen = CanvasPen(writer.canvas, w, h)
        page.draw(pen)
        pen.flush()
        writer.unprintable(pen, product, None)
        writer.show_page()
    writer.advance(1)  # a run of pages counts as one step of the progress bar


@contextmanager
def _set_aside():
    """Keep the garbage collector's full passes off what already lives, while writing.

    The content loaded for a large deck (thousands of questions) lives until the PDF is
    saved: each full collection meanwhile would walk all of it again, for nothing.
    `gc.freeze` leaves it out of collections until `gc.unfreeze`; what writing makes is
    collected as usual. Both are process-wide: another print running at the same time at
    worst ends the other's freeze early.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def render(game_slug: str, product_slugs: Sequence[str] = (), options: PrintOptions =
           DEFAULT_OPTIONS, *, out, include_drafts: bool = False,
           refs: Iterable[str] | None = None,
           progress: Callable[[int, int], None] | None = None,
           preview: bool = False) -> Result:
    """Print the game's products into `out` (a path or binary file), or raise PrintRefused.

    `preview` prints only the first sheet of the first product that has one, and checks
    only what that sheet shows: the admin's live preview stays fast on a large library.
    """
    game = GAMES[game_slug]
    products = products_for(game_slug, product_slugs)
    refs = list(refs) if refs is not None else None
    if preview and products[0].kind:
        products = products[:1]
        per_page = (options.sheet_for(products[0]).per_page
                    if isinstance(products[0], Deck) else None)
        content = load_some(game_slug, products[0].kind, limit=per_page,
                            published_only=not include_drafts, refs=refs)
    else:
        content = load_game(game_slug) if any(p.kind for p in products) else None
    chosen = {p.slug: select(p, content, include_drafts=include_drafts, refs=refs)
              for p in products}
    # A selection of cards prints only the content products that hold them.
    if refs is not None:
        products = [p for p in products if p.kind and chosen[p.slug]]
    if preview:
        products = [p for p in products if chosen[p.slug] or isinstance(p, Sheets)][:1]
        for product in products:
            if isinstance(product, Deck):
                chosen[product.slug] = chosen[product.slug][:options.sheet_for(product).per_page]
        problems = []
    else:
        problems = check(game_slug, products, content, chosen, options)
    if problems:
        raise PrintRefused(problems)
    items = sum(len(chosen[p.slug]) for p in products if isinstance(p, Deck))
    total = items + sum(1 for p in products if isinstance(p, Sheets))
    labels = ", ".join(str(p.label) for p in products)
    writer = Writer(out, title=f"{game.name} — {labels}",
                    subject=_("Plateau, à imprimer à 100 % et découper"), options=options,
                    game_slug=game_slug, progress=progress, total=total)
    result = Result(products=[p.slug for p in products], items=items)
    with _set_aside():
        for product in products:
            entries = chosen[product.slug]
            if isinstance(product, Deck):
                if entries:
                    write_deck(writer, product, entries, fronts_only=preview)
            else:
                write_sheets(writer, product, entries, first_only=preview)
        if writer.problems:
            raise PrintRefused(writer.problems)  # nothing is saved: no file is written
        if writer.pages == 0:
            raise PrintRefused([Problem.of("nothing_to_print", ERROR, None, game_slug)])
        writer.save()
    result.pages = writer.pages
    return result
