"""Select → layout → draw → write: one game's products into one PDF, page by page.

`select` is the only stage that reads the database (through cms.selectors'
`load_game`); `sheets` does the geometry; the products' face functions draw; `write`
streams pages to a ReportLab canvas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from cms.games import GAMES, kind_of
from cms.models import Card, Status
from cms.rules import check_game
from cms.selectors import load_game, load_some
from cms.validation import ERROR, GameContent, Problem

from . import text as typo
from .draw import CanvasPen, Forms, Issue, MeasurePen, fitted_text, rgb
from .products import PRODUCT_SENTENCES, PRODUCTS, Deck, Page, Product, Sheets
from .sheets import (
    BACKS_LONG,
    BACKS_SEPARATE,
    BACKS_SHORT,
    CARD_SIZES,
    DEFAULT_CARD,
    DEFAULT_GUTTER,
    DUPLEX_BACKS,
    EDGE,
    LABEL_BAND,
    PAPER_NAMES,
    Placement,
    Rect,
    SheetError,
    SheetSpec,
    paper_size,
)

CROP_MARK_WIDTH = 0.25  # pt
LABEL_SIZE = typo.MIN_SIZE  # pt: the sheet's label in its margin
LABEL_GREY = "#6f6f6f"


@dataclass(frozen=True)
class PrintOptions:
    """What the maker chose: paper, card size, bleed, how backs are printed."""

    paper: str = "a4"
    card: str = DEFAULT_CARD
    backs: str = BACKS_LONG
    bleed: float = 0.0
    gutter: float = DEFAULT_GUTTER  # white paper between two cards' bleeds
    offset_x: float = 0.0  # move every back right by this many mm (seen on the verso)
    offset_y: float = 0.0  # ... and up: what the calibration sheet reads
    crop_marks: bool = True
    marks_to_edge: bool = False  # crop marks run to the paper's edge, for a paper trimmer

    def __post_init__(self):
        if self.card not in CARD_SIZES:
            raise SheetError(_("Format de carte inconnu : %(card)s (choix : %(choices)s).") % {
                "card": self.card, "choices": ", ".join(CARD_SIZES)})
        self.sheet_for(None)  # checks paper, bleed, gutter, backs and offsets

    @property
    def duplex(self) -> bool:
        """Whether the printer prints both sides: every recto is followed by its verso."""
        return self.backs in DUPLEX_BACKS

    def face_size(self, deck: Deck | None) -> tuple[float, float]:
        if deck is not None and deck.size is not None:
            return deck.size
        return CARD_SIZES[self.card]

    def sheet_for(self, deck: Deck | None) -> SheetSpec:
        w, h = self.face_size(deck)
        backs = self.backs if deck is None or deck.has_backs else BACKS_SEPARATE
        name = str(deck.label) if deck is not None else ""
        return SheetSpec(self.paper, w, h, bleed=self.bleed, backs=backs, gutter=self.gutter,
                         offset_x=self.offset_x, offset_y=self.offset_y,
                         marks_to_edge=self.marks_to_edge, name=name)


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
    number: int = 0  # its place in the whole deck, 1 first: the same in a selection


@dataclass
class Result:
    pages: int = 0
    items: int = 0
    products: list[str] = field(default_factory=list)


# --- select --------------------------------------------------------------------------------


def own_paper(product: Product, options: PrintOptions) -> str | None:
    """Return the paper a product must print on when it is not the maker's, else None."""
    if isinstance(product, Deck):
        return None
    papers = {page.paper for page in product.pages(options, [])
              if page.paper is not None and page.paper != options.paper}
    return min(papers) if papers else None


def prints_alone(product: Product, options: PrintOptions = DEFAULT_OPTIONS) -> bool:
    """Whether a product is printed only when asked for, in a file of its own.

    The calibration sheet is a tool for the printer; a board on another paper than the
    maker's (the Minotaure's A3 board) cannot share a file with pages of that paper.
    """
    return getattr(product, "alone", False) or own_paper(product, options) is not None


def products_for(game_slug: str, slugs: Sequence[str] = (),
                 options: PrintOptions = DEFAULT_OPTIONS) -> list[Product]:
    """Return the products asked for (all of the game's when none are named).

    Raises KeyError for an unknown game or product, SheetError for a product on its own
    paper asked for with others.
    """
    try:
        available = PRODUCTS[game_slug]
    except KeyError:
        raise KeyError(_("Jeu inconnu : %(game)s.") % {"game": game_slug}) from None
    if not slugs:
        return [p for p in available.values() if not prints_alone(p, options)]
    unknown = [s for s in slugs if s not in available]
    if unknown:
        raise KeyError(_("Produit inconnu pour %(game)s : %(products)s.") % {
            "game": game_slug, "products": ", ".join(unknown)})
    products = [available[s] for s in dict.fromkeys(slugs)]
    for product in products:
        paper = own_paper(product, options)
        if paper is not None and len(products) > 1:
            raise SheetError(_(
                "« %(product)s » s’imprime sur %(paper)s, dans un fichier à part : "
                "imprimez-le seul.") % {"product": product.label,
                                         "paper": PAPER_NAMES.get(paper, paper)})
        if getattr(product, "alone", False) and len(products) > 1:
            raise SheetError(_("« %(product)s » s’imprime à part, sans autre produit.")
                             % {"product": product.label})
    return products


def _sources(product: Product, content: GameContent | None) -> list:
    """Return the game's cards or questions of the product's kind, in the admin's order."""
    if content is None:
        raise ValueError(f"{product.slug}: a content product prints from the game's content")
    pool = content.cards if kind_of(product.kind).is_card else content.questions
    return [obj for obj in pool if obj.kind == product.kind]


def _to_item(product: Product) -> Callable[[Any, Any], Any]:
    """Return how a content product makes its item of a card or question."""
    if product.to_item is None:
        raise ValueError(f"{product.slug}: a content product needs to_item")
    return product.to_item


def select(product: Product, content: GameContent | None, *, include_drafts: bool = False,
           refs: Iterable[str] | None = None) -> list[Selected]:
    """Return what a product prints: its content (published only, by default) or parts."""
    if not product.kind:
        # A deck without a kind has fixed items (Deck checks it); Sheets have none.
        items = product.items() if isinstance(product, Deck) and product.items else ()
        return [Selected(item, None, number) for number, item in enumerate(items, start=1)]
    to_item = _to_item(product)
    wanted = set(refs) if refs is not None else None
    chosen = []
    number = 0
    for obj in _sources(product, content):
        if not include_drafts and obj.status != Status.PUBLISHED:
            continue
        number += 1  # counted whether chosen or not, so a reprinted card keeps its number
        if wanted is not None and obj.ref not in wanted:
            continue
        chosen.append(Selected(to_item(content, obj), obj, number))
    return chosen


# --- check ---------------------------------------------------------------------------------


def face_issues(deck: Deck, item: Any, w: float, h: float) -> tuple[Issue, ...]:
    """Return what the deck's faces cannot print for one item at one size (memoised, per
    language: an issue names its box in the language it was measured in)."""
    return _face_issues(deck, item, w, h, get_language())


@lru_cache(maxsize=50_000)
def _face_issues(deck: Deck, item: Any, w: float, h: float,
                 language: str | None) -> tuple[Issue, ...]:
    pen = MeasurePen(w, h, numbered=deck.numbered, round_face=deck.round_face)
    deck.front(pen, item)
    if deck.back is not None:
        deck.back(pen, item)
    return tuple(dict.fromkeys(pen.issues))


def unprintable_problem(issue: Issue, product: Product | None, source, game_slug: str,
                        card: str = "") -> Problem:
    """Return the problem of text a product cannot print, about its card or question.

    The product and the box name the problem; the characters a font lacks only show it.
    `card` is the card size the maker chose, when it is not the default one.
    """
    params = {"product": product.slug if product is not None else "", "box": issue.label}
    if card:
        params["card"] = card
    # What the issue found (the characters a font lacks, an image's size) shows the
    # problem without being part of what it is.
    if issue.code == "glyph_missing":
        values = {"chars": issue.detail}
    else:
        values = {"detail": issue.detail} if issue.detail else {}
    return Problem.of(issue.code, ERROR, source, game_slug, params=params, values=values,
                      sentence=issue_sentence(issue.code))


def _where(problem: Problem) -> str:
    """Return « Cartes « Duel », question 2 »: the product and the box that fail."""
    args = problem.args
    product = PRODUCTS.get(problem.game, {}).get(args["product"])
    parts = [str(product.label)] if product is not None else []
    if args["box"]:
        parts.append(args["box"])
    return ", ".join(parts)


def _glyph_message(problem: Problem) -> str:
    return _("Caractère impossible à imprimer « %(chars)s » (%(where)s).") % {
        "chars": problem.args["chars"], "where": _where(problem)}


def _overflow_message(problem: Problem) -> str:
    message = _("Ne tient pas sur la carte (%(where)s), même en petits caractères.") % {
        "where": _where(problem)}
    card = problem.args.get("card")
    if card in CARD_SIZES:
        w, h = CARD_SIZES[card]
        larger = [name for name, (lw, lh) in CARD_SIZES.items() if lw * lh > w * h]
        if larger:
            message += " " + _("Au format %(card)s : choisissez le format %(larger)s, ou "
                               "raccourcissez le texte.") % {
                "card": card, "larger": _(" ou ").join(larger)}
    return message


def _nothing_message(problem: Problem) -> str:
    return _("Rien à imprimer : aucun contenu publié.")


# The sentence of each problem printing finds; products add those of their own issues.
SENTENCES = {"glyph_missing": _glyph_message, "text_overflow": _overflow_message,
             "nothing_to_print": _nothing_message, **PRODUCT_SENTENCES}


def forget_fitted() -> None:
    """Empty every cache of measured text: the next print fits each text anew."""
    for cache in (_face_issues, fitted_text, typo.fit, typo.french, typo.missing_glyphs):
        cache.cache_clear()
    MeasurePen.forget()


def issue_sentence(code: str):
    """Return the sentence of a printing problem's code."""
    return SENTENCES[code]


def fit_problems(game_slug: str, deck: Deck, selected: Iterable[Selected],
                 options: PrintOptions = DEFAULT_OPTIONS) -> list[Problem]:
    w, h = options.face_size(deck)
    problems = []
    for entry in selected:
        for issue in face_issues(deck, entry.item, w, h):
            problems.append(unprintable_problem(issue, deck, entry.source, game_slug))
    return problems


def check(game_slug: str, products: list[Product], content: GameContent | None,
          chosen: dict[str, list[Selected]], options: PrintOptions, *,
          whole_game: bool = True) -> list[Problem]:
    """Return the errors that stop this print before a page is drawn.

    The content's own errors, and the text of forms and pages that does not fit. Whether
    each item's text fits is found while drawing it (see `render`): measuring first would
    fit every text twice. `whole_game=False` says the content is only part of the game:
    the rules about the whole game (the ladder) cannot judge it, and are left out.
    """
    problems: list[Problem] = []
    if content is not None:
        printed = {(type(e.source), e.source.pk) for entries in chosen.values()
                   for e in entries if e.source is not None}
        printed_cards = {pk for model, pk in printed if model is Card}
        report = check_game(content, advisory=False)
        for problem in report.errors:
            target = problem.target
            if (target is None and whole_game) or (
                    target is not None and (type(target), target.pk) in printed):
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
                pen = MeasurePen(w, h, options.bleed, numbered=product.numbered,
                                 round_face=product.round_face)
                draw(pen)
                issues += pen.issues
    else:
        for page in product.pages(options, [e.item for e in entries]):
            pen = MeasurePen(*paper_size(page.paper or options.paper, landscape=page.landscape))
            page.draw(pen)
            issues += pen.issues
    return [unprintable_problem(issue, product, None, game_slug) for issue in dict.fromkeys(issues)]


def printable_at_default_size(content: GameContent) -> list[Problem]:
    """Return where a content deck's faces do not fit a poker card or lack a font's glyph.

    A rule of the content, listed in `cms.rules.RULES`, which imports it when it runs.
    """
    problems = []
    for product in PRODUCTS.get(content.game.slug, {}).values():
        if isinstance(product, Deck) and product.kind:
            to_item = _to_item(product)
            chosen = [Selected(to_item(content, obj), obj) for obj in _sources(product, content)]
            problems.extend(fit_problems(content.game.slug, product, chosen))
    return problems


# --- write ---------------------------------------------------------------------------------


class Writer:
    """A canvas with page bookkeeping: page sizes, boxes, labels, crop marks, shared forms.

    In a duplex PDF every recto is followed by its verso: a one-sided page gets a blank
    verso of its own size, so nothing single-sided is ever printed back to back.
    """

    pen_class = CanvasPen  # the admin's live preview draws with one that marks what fails

    def __init__(self, out, *, title: str, subject: str, options: PrintOptions,
                 game_slug: str = "", progress: Callable[[int, int], None] | None = None,
                 total: int = 0):
        typo.fonts()
        # Our own font from the start: no page names a Helvetica the PDF does not embed.
        # types-reportlab types initialFontName as a float: ReportLab takes a font's name.
        self.canvas = Canvas(out, invariant=1, pageCompression=1,
                             initialFontName=typo.REGULAR,  # type: ignore[arg-type]
                             initialFontSize=10)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Plateau")
        self.canvas.setCreator("Plateau")
        self.canvas.setSubject(subject)
        self.canvas.setKeywords(
            f"papier={options.paper} carte={options.card} dos={options.backs} "
            f"fond-perdu={options.bleed:g}mm espace={options.gutter:g}mm "
            f"decalage={options.offset_x:g},{options.offset_y:g}mm")
        duplex = {BACKS_LONG: "DuplexFlipLongEdge", BACKS_SHORT: "DuplexFlipShortEdge"}
        self.canvas.setViewerPreference("Duplex", duplex.get(options.backs, "Simplex"))
        self.canvas.setViewerPreference("PrintScaling", "None")
        self.options = options
        self.pages = 0
        self.forms = Forms()
        self.progress = progress
        self.total = total
        self.done = 0
        self.game_slug = game_slug
        self.game_name = GAMES[game_slug].name if game_slug in GAMES else ""
        self.problems: list[Problem] = []  # text found unprintable while drawing
        # The words of every sheet's label, translated once a print (not once a page).
        self.sheet_words = _("feuille %(n)s/%(total)s")
        self.recto, self.verso, self.to_fold = _("recto"), _("verso"), _("à plier")

    def advance(self, count: int) -> None:
        self.done += count
        if self.progress:
            self.progress(self.done, self.total)

    def begin(self, w: float, h: float, *, trim: Rect | None = None,
              bleed: Rect | None = None) -> None:
        """Start a page of w × h mm, its boxes set from what it holds (the page: nothing)."""
        c = self.canvas
        c.setPageSize((w * mm, h * mm))
        trim = trim or Rect(0, 0, w, h)
        bleed = bleed or trim
        c.setTrimBox((trim.x * mm, trim.y * mm, trim.right * mm, trim.top * mm))
        c.setBleedBox((bleed.x * mm, bleed.y * mm, bleed.right * mm, bleed.top * mm))

    def end(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    def blank_verso(self, w: float, h: float) -> None:
        """In a duplex PDF, the back of a one-sided page: blank, of the page's own size."""
        if self.options.duplex:
            self.begin(w, h)
            self.end()

    def label(self, text: str, box: Rect) -> None:
        """Write the sheet's label in its band: along the top or bottom, or up the left side."""
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(*rgb(LABEL_GREY))  # opaque: no transparency state in the PDF
        c.setFont(typo.CONDENSED, LABEL_SIZE)
        text = typo.printable(text)
        baseline = (LABEL_BAND - LABEL_SIZE * 0.7 / mm) / 2
        if box.w >= box.h:
            c.drawCentredString(box.centre[0] * mm, (box.y + baseline) * mm, text)
        else:
            c.translate((box.right - baseline) * mm, box.centre[1] * mm)
            c.rotate(90)
            c.drawCentredString(0, 0, text)
        c.restoreState()

    def sheet_label(self, products: str, sheet: int, sheets: int, side: str) -> str:
        """Return « Les 12 Coups de Midi · Duels · feuille 3/7 · recto »."""
        return " · ".join((self.game_name, products, self.sheet_words % {
            "n": sheet, "total": sheets}, side))

    def crop_marks(self, lines: Sequence[tuple[float, float, float, float]]) -> None:
        """Draw the marks, each (x1, y1, x2, y2) in points (a run works them out once)."""
        c = self.canvas
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(CROP_MARK_WIDTH)
        # One stroke a mark: a reader of the PDF finds each mark as a line of its own.
        for line in lines:
            c.line(*line)

    def face(self, placement: Placement, w: float, h: float, draw, item, *, shared=None,
             product: Deck | None = None, source=None, ident: str = ""):
        """Draw one face at its placement: the form all faces share first, then its own.

        `shared` is (key, draw function): the pen draws it once in the PDF and reuses it.
        `ident` is the face's identifier, printed at the bottom of its safe zone.
        """
        c = self.canvas
        c.saveState()
        m = placement.matrix
        c.transform(m.a, m.b, m.c, m.d, m.e * mm, m.f * mm)
        pen = self.pen_class(c, w, h, self.options.bleed, forms=self.forms,
                             numbered=bool(ident),
                             round_face=product is not None and product.round_face)
        if shared is not None:
            pen.reuse(*shared)
        if draw is not None:
            draw(pen, item)
        if ident:
            draw_ident(pen, ident)
        pen.flush()
        self.unprintable(pen, product, source)
        c.restoreState()

    def unprintable(self, pen: CanvasPen, product: Product | None, source) -> None:
        for issue in dict.fromkeys(pen.issues):
            card = self.options.card
            chosen = (isinstance(product, Deck) and product.size is None
                      and card != DEFAULT_CARD)
            self.problems.append(unprintable_problem(issue, product, source, self.game_slug,
                                                     card if chosen else ""))

    def save(self) -> None:
        self.canvas.save()


DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")


def draw_ident(pen: CanvasPen, ident: str) -> None:
    """Print a face's identifier, small, on a white pill readable on any background.

    The pill goes over every shape of the face, under the face's last text (which keeps
    out of the identifier's strip), and the identifier joins that text.
    """
    cx, cy = pen.ident_box.centre
    # Every identifier of a deck has the same width (its digits are as wide as each other
    # in DejaVu and Vera): the pill is one form, placed again, and the identifier starts
    # where its shape would. A font whose digits differ has each identifier measured.
    shape = ident.translate(DIGITS_AS_ZERO)
    width = _ident_width(shape)
    pen.reuse(f"ident-{shape}", lambda inner: _pill(inner, width), under_text=True)
    text_width = width if _even_digits() else _ident_width(ident)
    pen.label(ident, cx - text_width / 2, cy - LABEL_SIZE * 0.35 / mm, size=LABEL_SIZE,
              font=typo.CONDENSED, fill=LABEL_GREY)


@lru_cache(maxsize=64)
def _ident_width(text: str) -> float:
    """The width in mm of an identifier, or of its shape (its digits written as zeros)."""
    return pdfmetrics.stringWidth(text, typo.CONDENSED, LABEL_SIZE) / mm


@lru_cache(maxsize=1)
def _even_digits() -> bool:
    """Whether the identifiers' font draws the ten digits all as wide as each other."""
    typo.fonts()
    return len({pdfmetrics.stringWidth(digit, typo.CONDENSED, 1) for digit in "0123456789"}) == 1


def _pill(pen: CanvasPen, width: float) -> None:
    cx, cy = pen.ident_box.centre
    pill = width + 2.4
    pen.rect(Rect(cx - pill / 2, cy - 1.45, pill, 2.9), fill="#ffffff", radius=1.2)


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a run: its deck, what it prints, and its identifier (or "")."""

    deck: Deck
    entry: Selected
    ident: str


@dataclass
class Run:
    """Decks of one face size printed one after the other on shared sheets."""

    decks: list[Deck]
    entries: list[list[Selected]] = field(default_factory=list)  # each deck's, in order

    @property
    def label(self) -> str:
        return " + ".join(str(deck.label) for deck in self.decks)

    def sheets(self, per_page: int) -> int:
        return -(-sum(map(len, self.entries)) // per_page)

    def chunks(self, per_page: int) -> Iterator[list[Face]]:
        """Yield the run's faces a sheet at a time, made only as their sheet is printed."""
        chunk: list[Face] = []
        for deck, entries in zip(self.decks, self.entries, strict=True):
            for entry in entries:
                chunk.append(Face(deck, entry,
                                  deck.ident(entry.number) if deck.numbered else ""))
                if len(chunk) == per_page:
                    yield chunk
                    chunk = []
        if chunk:
            yield chunk


def runs_of(products: list[Product], chosen: dict[str, list[Selected]],
            options: PrintOptions) -> list[Run | Sheets]:
    """Return what to print in order: full pages, and decks packed by size into runs.

    Decks of one face size share sheets when they all have backs, or all have none: the
    small decks of a game fill the last sheet of the one before instead of a sheet each.
    """
    runs: dict[tuple, Run] = {}
    order: list[Run | Sheets] = []
    for product in products:
        if isinstance(product, Sheets):
            order.append(product)
            continue
        entries = chosen[product.slug]
        if not entries:
            continue
        key = (options.face_size(product), product.has_backs)
        run = runs.get(key)
        if run is None:
            run = runs[key] = Run([])
            order.append(run)
        run.decks.append(product)
        run.entries.append(entries)
    return order


def write_run(writer: Writer, run: Run, *, preview: bool = False) -> None:
    options = writer.options
    # Every deck of a run has the same size and backs: the first one's sheet is theirs.
    sheet = options.sheet_for(run.decks[0])
    w, h = options.face_size(run.decks[0])
    page_w, page_h = sheet.page_size
    has_backs = run.decks[0].has_backs
    # Where the paper folds when each back is beside its front (None: backs not folded).
    fold_line = sheet.fold_line if has_backs else None
    folded = fold_line is not None
    per_page = sheet.per_page
    total = 1 if preview else run.sheets(per_page)  # a preview is one sheet, and says so
    label_box = sheet.label_box
    run_label = run.label
    marks: dict[tuple[bool, int], list[tuple[float, float, float, float]]] = {}

    def crop_marks(backs: bool, count: int):
        """The marks of a page of `count` faces, in points: worked out once a run."""
        key = (backs, count)
        if key not in marks:
            marks[key] = [(m.x1 * mm, m.y1 * mm, m.x2 * mm, m.y2 * mm)
                          for m in sheet.crop_marks(backs=backs, count=count)]
        return marks[key]

    def shared(deck: Deck, side: str):
        draw = deck.front_form if side == "front" else deck.back_form
        return (f"{side}-{deck.slug}", draw) if draw is not None else None

    def faces(chunk, *, backs: bool):
        for index, face in enumerate(chunk):
            deck = face.deck
            placement = sheet.back(index) if backs else sheet.front(index)
            writer.face(placement, w, h, deck.back if backs else deck.front, face.entry.item,
                        shared=shared(deck, "back" if backs else "front"), product=deck,
                        source=face.entry.source, ident=face.ident)

    def page(chunk, number: int, *, backs: bool, side: str):
        trim, bleed = sheet.boxes(len(chunk), backs=backs)
        writer.begin(page_w, page_h, trim=trim, bleed=bleed)
        if not backs or folded:
            faces(chunk, backs=False)
        if backs or folded:
            faces(chunk, backs=True)
        if fold_line is not None:
            writer.canvas.saveState()
            writer.canvas.setDash([3 * mm, 2 * mm])
            writer.canvas.setLineWidth(0.4)
            writer.canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
            writer.canvas.line(*(v * mm for v in fold_line))
            writer.canvas.restoreState()
        if options.crop_marks:
            writer.crop_marks(crop_marks(backs, len(chunk)))
        writer.label(writer.sheet_label(run_label, number, total, side), label_box)
        writer.end()

    if preview:
        first = next(run.chunks(per_page))
        page(first, 1, backs=False, side=writer.to_fold if folded else writer.recto)
        writer.advance(len(first))
        return
    if folded:
        for number, chunk in enumerate(run.chunks(per_page), start=1):
            page(chunk, number, backs=False, side=writer.to_fold)
            writer.advance(len(chunk))
    elif not has_backs:
        for number, chunk in enumerate(run.chunks(per_page), start=1):
            page(chunk, number, backs=False, side=writer.recto)
            writer.blank_verso(page_w, page_h)
            writer.advance(len(chunk))
    elif sheet.backs == BACKS_SEPARATE:
        for number, chunk in enumerate(run.chunks(per_page), start=1):
            page(chunk, number, backs=False, side=writer.recto)
            writer.advance(len(chunk))
        for number, chunk in enumerate(run.chunks(per_page), start=1):
            page(chunk, number, backs=True, side=writer.verso)
    else:
        for number, chunk in enumerate(run.chunks(per_page), start=1):
            page(chunk, number, backs=False, side=writer.recto)
            page(chunk, number, backs=True, side=writer.verso)
            writer.advance(len(chunk))


def write_sheets(writer: Writer, product: Sheets, entries: list[Selected], *,
                 first_only: bool = False) -> None:
    pages: list[Page] = list(product.pages(writer.options, [e.item for e in entries]))
    if first_only:
        pages = pages[:1]
    # Two-sided pages go in pairs, recto then verso; one-sided pages are each a sheet.
    sheets = -(-len(pages) // 2) if product.duplex else len(pages)
    for index, page in enumerate(pages):
        w, h = paper_size(page.paper or writer.options.paper, landscape=page.landscape)
        writer.begin(w, h)
        pen = CanvasPen(writer.canvas, w, h)
        page.draw(pen)
        pen.flush()
        writer.unprintable(pen, product, None)
        verso = product.duplex and index % 2 == 1
        number = index // 2 + 1 if product.duplex else index + 1
        writer.label(writer.sheet_label(str(product.label), number, sheets,
                                        writer.verso if verso else writer.recto),
                     Rect(EDGE, EDGE, w - 2 * EDGE, LABEL_BAND))
        writer.end()
        last = index == len(pages) - 1
        if not first_only and (not product.duplex or (last and not verso)):
            writer.blank_verso(w, h)
    writer.advance(1)  # a run of pages counts as one step of the progress bar


def render(game_slug: str, product_slugs: Sequence[str] = (), options: PrintOptions =
           DEFAULT_OPTIONS, *, out, include_drafts: bool = False,
           refs: Iterable[str] | None = None,
           progress: Callable[[int, int], None] | None = None,
           preview: bool = False) -> Result:
    """Print the game's products into `out` (a path or binary file), or raise PrintRefused.

    `preview` prints only the first sheet of the first product that has one, and checks
    only what that sheet shows (with the download's rules, but without the whole game's
    when it loads only that sheet's content): the admin's live preview stays fast on a
    large library.
    Raises SheetError when a product cannot be laid out with these options.
    """
    game = GAMES[game_slug]
    products = products_for(game_slug, product_slugs, options)
    refs = list(refs) if refs is not None else None
    partial = preview and bool(products[0].kind)
    content: GameContent | None
    if partial:
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
    for product in products:
        if isinstance(product, Deck) and chosen[product.slug]:
            options.sheet_for(product)  # every sheet can be laid out, before any is drawn
    if preview:
        products = [p for p in products if chosen[p.slug] or isinstance(p, Sheets)][:1]
        chosen = {p.slug: chosen[p.slug] for p in products}
    # The preview runs the download's checks on what its sheet shows: it does not show
    # a card or question the download would refuse.
    problems = check(game_slug, products, content, chosen, options, whole_game=not partial)
    if problems:
        raise PrintRefused(problems)
    # What is printed is chosen and checked: the rest of the loaded content (propositions
    # by question, answers in play…) is let go before the long part, the drawing.
    del content
    items = sum(len(chosen[p.slug]) for p in products if isinstance(p, Deck))
    total = items + sum(1 for p in products if isinstance(p, Sheets))
    labels = ", ".join(str(p.label) for p in products)
    writer = Writer(out, title=f"{game.name} — {labels}",
                    subject=_("Plateau, à imprimer à 100 % et découper"), options=options,
                    game_slug=game_slug, progress=progress, total=total)
    # A deck with nothing to print is not said to be printed.
    result = Result(products=[p.slug for p in products
                              if isinstance(p, Sheets) or chosen[p.slug]], items=items)
    for part in runs_of(products, chosen, options):
        if isinstance(part, Run):
            write_run(writer, part, preview=preview)
        else:
            write_sheets(writer, part, chosen[part.slug], first_only=preview)
    if writer.problems:
        raise PrintRefused(writer.problems)  # nothing is saved: no file is written
    if writer.pages == 0:
        raise PrintRefused([Problem.of("nothing_to_print", ERROR, None, game_slug,
                                       sentence=issue_sentence("nothing_to_print"))])
    writer.save()
    result.pages = writer.pages
    return result
