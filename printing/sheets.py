"""Paper, card sizes, bleed, imposition and duplex maps: pure geometry in millimetres.

Nothing here knows ReportLab; only the error messages go through gettext. Coordinates
have their origin at the bottom-left corner of the page, as PDF has, and every spec
checks itself when built so the drawing code can trust it.

How a back finds its front. The flip edge belongs to the paper: "long" turns the sheet
over around its long edge, "short" around its short edge, and both put the back page on
the other side of the same sheet. Pages of cards are always portrait, the paper's own
way up, so the page's axes are the paper's: a printer never turns them, and the maker's
offsets (measured on the calibration sheet) apply as they are. A card wider than tall,
or a layout that fits more turned, has its faces turned a quarter on the page instead.
A card's back is drawn so that it reads upright when the card itself is turned over
like a book page (around its own vertical axis), whatever the flip of the sheet: the
back of a face's point (u, v) is the back face's point (w − u, v).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from django.utils.translation import gettext as _

# Paper (portrait width, height), in mm.
PAPERS = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),  # the Minotaure's one-sheet board only, printed on its own
}
DECK_PAPERS = ("a4", "letter")
PAPER_NAMES = {"a4": "A4", "letter": "US Letter", "a3": "A3"}

# Card sizes (portrait width, height), in mm: sizes that sleeves are sold for.
CARD_SIZES = {
    "poker": (63.0, 88.0),
    "mini": (44.0, 68.0),  # "mini euro"
    "tarot": (70.0, 120.0),
}
DEFAULT_CARD = "poker"

# How the backs of a deck are printed.
BACKS_LONG = "long"  # duplex, the sheet flipped on its long edge (the default)
BACKS_SHORT = "short"  # duplex, the sheet flipped on its short edge
BACKS_SEPARATE = "separate"  # all fronts, then all backs: the maker turns the stack (long edge)
BACKS_FOLD = "fold"  # gutterfold: front and back on one side, folded along the middle
BACKS = (BACKS_LONG, BACKS_SHORT, BACKS_SEPARATE, BACKS_FOLD)
DUPLEX_BACKS = (BACKS_LONG, BACKS_SHORT)

MAX_BLEED = 3.0
MAX_GUTTER = 10.0
DEFAULT_GUTTER = 2.0  # white paper between two cards' bleeds: a miscut shows no neighbour
MAX_OFFSET = 10.0  # back offset, mm either way
# Home printers do not print the last few millimetres of a sheet: nothing goes there.
EDGE = 4.0
CROP_MARK_GAP = 1.0  # between a bleed edge and the start of a crop mark
CROP_MARK_LENGTH = 3.0
LABEL_BAND = 3.0  # the sheet's label: game, product, "feuille 3/7", recto or verso
FOLD_CLEARANCE = 2.0  # between a bleed edge and the fold line
SAFE_INSET = 3.0  # text stays this far inside the trim
# Around a grid: the crop marks on every side; the label on one side more.
MARK_ROOM = EDGE + CROP_MARK_GAP + CROP_MARK_LENGTH
LABEL_ROOM = MARK_ROOM + LABEL_BAND


class SheetError(ValueError):
    """Raised for geometry that cannot be printed: the message says why, in French."""


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm: x, y of its bottom-left corner, then width and height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, dx: float, dy: float | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def outset(self, d: float) -> Rect:
        return self.inset(-d)

    def moved(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: Rect, tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.top <= self.top + tolerance)

    def overlaps(self, other: Rect, tolerance: float = 1e-6) -> bool:
        return (self.x < other.right - tolerance and other.x < self.right - tolerance
                and self.y < other.top - tolerance and other.y < self.top - tolerance)


@dataclass(frozen=True)
class Matrix:
    """An affine map of the plane, as PDF writes it: x' = a·x + c·y + e, y' = b·x + d·y + f."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def then(self, other: Matrix) -> Matrix:
        """Return the map that applies self, then other."""
        o = other
        return Matrix(o.a * self.a + o.c * self.b, o.b * self.a + o.d * self.b,
                      o.a * self.c + o.c * self.d, o.b * self.c + o.d * self.d,
                      o.a * self.e + o.c * self.f + o.e, o.b * self.e + o.d * self.f + o.f)

    def rect(self, w: float, h: float) -> Rect:
        """Return the page rectangle covered by the face rectangle (0, 0, w, h)."""
        corners = [self(x, y) for x in (0, w) for y in (0, h)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    @property
    def rotation(self) -> int:
        """The angle in degrees a face is turned by (0, 90, 180 or 270), counter-clockwise."""
        return round(math.degrees(math.atan2(self.b, self.a))) % 360


def translate(dx: float, dy: float) -> Matrix:
    return Matrix(e=dx, f=dy)


@dataclass(frozen=True)
class Placement:
    """Where one face goes on a page: its trim and bleed boxes, and how it is drawn there.

    `matrix` maps the face's own millimetres (origin at its bottom-left corner, upright)
    onto the page.
    """

    trim: Rect
    bleed: Rect
    matrix: Matrix = Matrix()

    @property
    def rotation(self) -> int:
        return self.matrix.rotation


@dataclass(frozen=True)
class CropMark:
    x1: float
    y1: float
    x2: float
    y2: float


def paper_size(paper: str, *, landscape: bool = False) -> tuple[float, float]:
    try:
        w, h = PAPERS[paper]
    except KeyError:
        raise SheetError(_("Papier inconnu : %(paper)s (choix : %(choices)s).") % {
            "paper": paper, "choices": ", ".join(PAPERS)}) from None
    return (h, w) if landscape else (w, h)


def card_size(name: str) -> tuple[float, float]:
    try:
        return CARD_SIZES[name]
    except KeyError:
        raise SheetError(
            _("Format de carte inconnu : %(card)s (choix : %(choices)s).") % {
                "card": name, "choices": ", ".join(CARD_SIZES)}
        ) from None


def flip_map(backs: str, page_w: float, page_h: float) -> Matrix:
    """Return where a point of a recto lies on its verso, as the verso page is drawn.

    Long edge: the sheet turns around its vertical axis (the long edge of a portrait
    sheet), so x is mirrored; short edge: around its horizontal axis, so y is. Separate
    backs are turned by hand around the long edge.
    """
    if backs == BACKS_SHORT:
        return Matrix(d=-1.0, f=page_h)
    return Matrix(a=-1.0, e=page_w)


def _count(length: float, cell: float, pitch: float, room: float) -> int:
    """Return how many cells `pitch` apart fit in `length` with `room` left at both ends."""
    usable = length - 2 * room
    if usable < cell - 1e-9:
        return 0
    return 1 + int((usable - cell + 1e-9) // pitch)


def _union(rects: list[Rect]) -> Rect:
    x = min(r.x for r in rects)
    y = min(r.y for r in rects)
    return Rect(x, y, max(r.right for r in rects) - x, max(r.top for r in rects) - y)


@dataclass(frozen=True)
class Layout:
    """One way to lay faces on a page: turned or not, the grid, where the label goes."""

    turned: bool
    columns: int
    rows: int
    label_on_top: bool

    @property
    def count(self) -> int:
        return self.columns * self.rows


@dataclass(frozen=True)
class SheetSpec:
    """How faces of one size are laid out on one paper, with their backs.

    Faces are laid out on portrait pages in a centred grid, `gutter` mm of white paper
    between two faces' bleeds, upright or turned a quarter (`turned`: None picks
    whichever fits more, upright on a tie). `backs` decides where each back goes: behind
    its front on the verso (long or short edge, see `flip_map`), on pages of their own
    (separate), or beside the front across a fold line (fold). The offsets move every back
    on the paper's axes, as seen on the verso, to correct a printer.
    """

    paper: str = "a4"
    face_w: float = CARD_SIZES[DEFAULT_CARD][0]
    face_h: float = CARD_SIZES[DEFAULT_CARD][1]
    bleed: float = 0.0
    backs: str = BACKS_LONG
    offset_x: float = 0.0  # move the backs right by this many mm, seen on the verso
    offset_y: float = 0.0  # ... and up
    gutter: float = DEFAULT_GUTTER
    turned: bool | None = None
    marks_to_edge: bool = False  # crop marks run to the paper's edge, for a paper trimmer
    name: str = ""  # what the faces are, for a refusal: « Fiches « Étoile mystérieuse » »

    def __post_init__(self):
        paper_size(self.paper)
        if self.backs not in BACKS:
            raise SheetError(_("Mode de dos inconnu : %(backs)s (choix : %(choices)s).") % {
                "backs": self.backs, "choices": ", ".join(BACKS)})
        if not 0 <= self.bleed <= MAX_BLEED:
            raise SheetError(_("Le fond perdu va de 0 à %(max)s mm.") % {"max": f"{MAX_BLEED:g}"})
        if not 0 <= self.gutter <= MAX_GUTTER:
            raise SheetError(_("L’espace entre les cartes va de 0 à %(max)s mm.")
                             % {"max": f"{MAX_GUTTER:g}"})
        if self.face_w <= 0 or self.face_h <= 0:
            raise SheetError("Une carte a une largeur et une hauteur.")
        # Written so that NaN, which compares false to everything, is refused too.
        if not (abs(self.offset_x) <= MAX_OFFSET and abs(self.offset_y) <= MAX_OFFSET):
            raise SheetError(_("Le décalage du verso va de −%(max)s à %(max)s mm.")
                             % {"max": f"{MAX_OFFSET:g}"})
        if self.best is None:
            raise SheetError(self._refusal())

    def _refusal(self) -> str:
        """Say why nothing fits, and each change that alone would make it fit."""
        what = self.name or _("Une carte")
        params = {"what": what, "w": f"{self.face_w:g}", "h": f"{self.face_h:g}",
                  "paper": PAPER_NAMES.get(self.paper, self.paper)}
        candidates: list[tuple[Mapping[str, object], str]] = [
            ({"bleed": 0.0, "gutter": min(self.gutter, DEFAULT_GUTTER)},
             _("réduisez le fond perdu et l’espace entre les cartes")),
            ({"offset_x": 0.0, "offset_y": 0.0}, _("réduisez le décalage des versos")),
            ({"backs": BACKS_LONG}, _("choisissez un recto verso ou « tous les rectos, puis "
                                      "tous les versos » au lieu du pliage")),
            *(({"paper": paper}, _("imprimez sur %(paper)s") % {"paper": PAPER_NAMES[paper]})
              for paper in DECK_PAPERS if paper != self.paper),
        ]
        changes = [str(advice) for change, advice in candidates
                   if any(getattr(self, name) != value for name, value in change.items())
                   and self._unchecked(**change).best is not None]
        message = _("%(what)s : %(w)s × %(h)s mm, impossible à placer sur une feuille "
                    "%(paper)s avec ces réglages.") % params
        if changes:
            message += " " + _("Pour l’imprimer : %(changes)s.") % {
                "changes": _(" ou ").join(changes)}
        return message

    def _unchecked(self, **changes) -> SheetSpec:
        """Return this spec with some fields changed, not checked: to ask what would fit."""
        other = object.__new__(SheetSpec)
        for name in self.__dataclass_fields__:
            object.__setattr__(other, name, changes.get(name, getattr(self, name)))
        return other

    # --- the grid -------------------------------------------------------------------------

    @property
    def page_size(self) -> tuple[float, float]:
        return paper_size(self.paper)

    @property
    def pitch_gap(self) -> float:
        """The distance between two neighbours' trims."""
        return self.gutter + 2 * self.bleed

    def _cell(self, turned: bool) -> tuple[float, float]:
        return (self.face_h, self.face_w) if turned else (self.face_w, self.face_h)

    def _layout(self, turned: bool, label_on_top: bool) -> Layout:
        page_w, page_h = self.page_size
        cw, ch = self._cell(turned)
        outer_w, outer_h = cw + 2 * self.bleed, ch + 2 * self.bleed
        room_x = (MARK_ROOM if label_on_top else LABEL_ROOM) + abs(self.offset_x)
        room_y = (LABEL_ROOM if label_on_top else MARK_ROOM) + abs(self.offset_y)
        columns = _count(page_w, outer_w, cw + self.pitch_gap, room_x)
        if self.backs == BACKS_FOLD:
            # Each half holds one side: from its outer margin to the fold's clearance.
            rows = _count(page_h / 2 - FOLD_CLEARANCE - room_y, outer_h, ch + self.pitch_gap, 0)
        else:
            rows = _count(page_h, outer_h, ch + self.pitch_gap, room_y)
        return Layout(turned, columns, rows, label_on_top)

    @cached_property
    def best(self) -> Layout | None:
        """The grid that holds the most faces, or None when not one fits."""
        turns = (False, True) if self.turned is None else (self.turned,)
        best = None
        for turned in turns:
            for label_on_top in (True, False):
                layout = self._layout(turned, label_on_top)
                if layout.count and (best is None or layout.count > best.count):
                    best = layout
        return best

    @property
    def layout(self) -> Layout:
        """The grid of a checked sheet: there is one (a sheet without is refused)."""
        best = self.best
        if best is None:
            raise SheetError(self._refusal())
        return best

    @property
    def is_turned(self) -> bool:
        return self.layout.turned

    @property
    def columns(self) -> int:
        return self.layout.columns

    @property
    def rows(self) -> int:
        return self.layout.rows

    @property
    def per_page(self) -> int:
        return self.layout.count

    @property
    def cell(self) -> tuple[float, float]:
        return self._cell(self.is_turned)

    @property
    def grid_size(self) -> tuple[float, float]:
        cw, ch = self.cell
        return (self.columns * cw + (self.columns - 1) * self.pitch_gap,
                self.rows * ch + (self.rows - 1) * self.pitch_gap)

    @cached_property
    def front_area(self) -> Rect:
        """The trim extent of the grid of fronts (the upper half of the page when folding)."""
        page_w, page_h = self.page_size
        grid_w, grid_h = self.grid_size
        x = (page_w - grid_w) / 2
        if self.backs == BACKS_FOLD:
            # Close to the fold, so that a front and its back are cut in one go.
            return Rect(x, page_h / 2 + FOLD_CLEARANCE + self.bleed, grid_w, grid_h)
        return Rect(x, (page_h - grid_h) / 2, grid_w, grid_h)

    def front(self, index: int) -> Placement:
        """Return where the face at `index` on a page goes (left to right, top to bottom)."""
        return self.fronts[index]

    def back(self, index: int) -> Placement:
        """Return where the back of the face at `index` goes on its page."""
        return self.backs_[index]

    @cached_property
    def fronts(self) -> tuple[Placement, ...]:
        return tuple(self._front(i) for i in range(self.per_page))

    @cached_property
    def backs_(self) -> tuple[Placement, ...]:
        return tuple(self._back(front) for front in self.fronts)

    def _front(self, index: int) -> Placement:
        row, col = divmod(index, self.columns)
        cw, ch = self.cell
        area = self.front_area
        x = area.x + col * (cw + self.pitch_gap)
        y = area.top - (row + 1) * ch - row * self.pitch_gap
        if self.is_turned:
            # A quarter turn counter-clockwise: the face's top points left.
            matrix = Matrix(a=0.0, b=1.0, c=-1.0, d=0.0, e=x + self.face_h, f=y)
        else:
            matrix = translate(x, y)
        trim = Rect(x, y, cw, ch)
        return Placement(trim, trim.outset(self.bleed), matrix)

    def behind(self) -> Matrix:
        """Return the map from a recto's page to where that point lies on its verso's page.

        For a fold, the verso is the other half of the same page, across the fold line.
        The maker's offsets are included.
        """
        page_w, page_h = self.page_size
        if self.backs == BACKS_FOLD:
            flip = Matrix(d=-1.0, f=page_h)
        else:
            flip = flip_map(self.backs, page_w, page_h)
        return flip.then(translate(self.offset_x, self.offset_y))

    def _back(self, front: Placement) -> Placement:
        # The card turned over like a book page, placed by the sheet's own turn.
        turn_over = Matrix(a=-1.0, e=self.face_w)
        matrix = turn_over.then(front.matrix).then(self.behind())
        trim = matrix.rect(self.face_w, self.face_h)
        return Placement(trim, trim.outset(self.bleed), matrix)

    @property
    def fold_line(self) -> tuple[float, float, float, float] | None:
        if self.backs != BACKS_FOLD:
            return None
        page_w, page_h = self.page_size
        return (EDGE, page_h / 2, page_w - EDGE, page_h / 2)

    # --- marks, label and boxes ---------------------------------------------------------

    def placed(self, count: int, *, backs: bool = False) -> list[Placement]:
        """Return the placements of the first `count` faces of a page: fronts, or backs.

        A fold page holds both.
        """
        fronts = list(self.fronts[:count])
        if self.backs == BACKS_FOLD:
            return fronts + list(self.backs_[:count])
        return list(self.backs_[:count]) if backs else fronts

    def crop_marks(self, *, backs: bool = False, count: int | None = None) -> list[CropMark]:
        """Return the cut lines' marks, in the margins outside every face's bleed.

        Only the cut lines of the `count` faces on the page are marked (a deck's last sheet
        is often not full). Marks stay EDGE mm inside the paper unless `marks_to_edge`;
        they never cross the sheet's label.
        """
        return list(self._crop_marks(backs, self.per_page if count is None else count))

    @lru_cache(maxsize=16)  # noqa: B019 (a spec is frozen and few are alive at once)
    def _crop_marks(self, backs: bool, count: int) -> tuple[CropMark, ...]:
        placements = self.placed(count, backs=backs)
        xs = sorted({round(v, 4) for p in placements for v in (p.trim.x, p.trim.right)})
        ys = sorted({round(v, 4) for p in placements for v in (p.trim.y, p.trim.top)})
        left = min(p.bleed.x for p in placements)
        right = max(p.bleed.right for p in placements)
        bottom = min(p.bleed.y for p in placements)
        top = max(p.bleed.top for p in placements)
        page_w, page_h = self.page_size
        label = self.label_box
        gap = CROP_MARK_GAP

        def end(start: float, direction: int, limit: float) -> float:
            if self.marks_to_edge:
                return limit
            return start + direction * CROP_MARK_LENGTH

        marks = []
        for x in xs:
            down, up = bottom - gap, top + gap
            up_limit = label.y if self.layout.label_on_top else page_h
            marks.append(CropMark(x, down, x, end(down, -1, 0.0)))
            marks.append(CropMark(x, up, x, end(up, 1, up_limit)))
        for y in ys:
            left_start, right_start = left - gap, right + gap
            left_limit = 0.0 if self.layout.label_on_top else label.right
            marks.append(CropMark(left_start, y, end(left_start, -1, left_limit), y))
            marks.append(CropMark(right_start, y, end(right_start, 1, page_w), y))
        return tuple(marks)

    @property
    def label_box(self) -> Rect:
        """Where the sheet's label goes: a band along the top edge, or the left edge."""
        page_w, page_h = self.page_size
        if self.layout.label_on_top:
            return Rect(EDGE, page_h - EDGE - LABEL_BAND, page_w - 2 * EDGE, LABEL_BAND)
        return Rect(EDGE, EDGE, LABEL_BAND, page_h - 2 * EDGE)

    def boxes(self, count: int, *, backs: bool = False) -> tuple[Rect, Rect]:
        """Return the trim and bleed boxes of a page holding `count` faces."""
        return self._boxes(count, backs)

    @lru_cache(maxsize=16)  # noqa: B019 (every page of a deck asks again)
    def _boxes(self, count: int, backs: bool) -> tuple[Rect, Rect]:
        placements = self.placed(count, backs=backs)
        return _union([p.trim for p in placements]), _union([p.bleed for p in placements])

    def trim_box(self, *, backs: bool = False) -> Rect:
        return self.boxes(self.per_page, backs=backs)[0]

    def bleed_box(self, *, backs: bool = False) -> Rect:
        return self.boxes(self.per_page, backs=backs)[1]


def pages_needed(count: int, per_page: int) -> int:
    return -(-count // per_page) if count else 0


# --- large boards tiled over several sheets ------------------------------------------------

TILE_OVERLAP = 10.0  # mm printed twice, to glue one tile over the next


@dataclass(frozen=True)
class Tile:
    """One sheet of a tiled board: which part of the board it shows, and where."""

    column: int
    row: int
    window: Rect  # the part of the board (board coordinates, mm) this sheet prints
    area: Rect  # where that part lands on the page


@dataclass(frozen=True)
class TileSpec:
    """A square board of `size` mm cut into pages of `paper`, overlapping by TILE_OVERLAP."""

    paper: str
    size: float

    def __post_init__(self):
        paper_size(self.paper)
        if self.size <= 0:
            raise SheetError("Un plateau a une taille.")

    @property
    def page_size(self) -> tuple[float, float]:
        return paper_size(self.paper)

    @property
    def printable(self) -> tuple[float, float]:
        w, h = self.page_size
        # Room for the assembly marks and labels around each tile.
        return (w - 2 * (EDGE + 8), h - 2 * (EDGE + 8))

    def _count(self, printable: float) -> int:
        if self.size <= printable:
            return 1
        step = printable - TILE_OVERLAP
        return 1 + math.ceil((self.size - printable) / step)

    @property
    def columns(self) -> int:
        return self._count(self.printable[0])

    @property
    def rows(self) -> int:
        return self._count(self.printable[1])

    def tiles(self) -> list[Tile]:
        pw, ph = self.printable
        page_w, page_h = self.page_size
        tiles = []
        for row in range(self.rows):
            for col in range(self.columns):
                x = col * (pw - TILE_OVERLAP)
                # Rows run from the top of the board down, as a person reads them.
                top = self.size - row * (ph - TILE_OVERLAP)
                w = min(pw, self.size - x)
                h = min(ph, top)
                window = Rect(x, top - h, w, h)
                area = Rect((page_w - pw) / 2, (page_h - ph) / 2 + (ph - h), w, h)
                tiles.append(Tile(col, row, window, area))
        return tiles
