"""Paper, card sizes, bleed, imposition and duplex maps: pure geometry in millimetres.

Nothing here knows ReportLab; only the error messages go through gettext. Coordinates
have their origin at the bottom-left corner of the page, as PDF has, and every spec
checks itself when built so the drawing code can trust it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

from django.utils.translation import gettext as _

# Paper (portrait width, height), in mm.
PAPERS = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),  # only for one-page boards; makers print decks on A4 or Letter
}
DECK_PAPERS = ("a4", "letter")
PAPER_NAMES = {"a4": "A4", "letter": "US Letter", "a3": "A3"}

# Card sizes (portrait width, height), in mm.
CARD_SIZES = {
    "poker": (63.0, 88.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
}
DEFAULT_CARD = "poker"

# How the backs of a deck are printed.
BACKS_LONG = "long"  # duplex, flipped on the long edge (the default)
BACKS_SHORT = "short"  # duplex, flipped on the short edge
BACKS_SEPARATE = "separate"  # all fronts, then all backs: the maker turns the stack by hand
BACKS_FOLD = "fold"  # gutterfold: front and back side by side, folded along the middle
BACKS = (BACKS_LONG, BACKS_SHORT, BACKS_SEPARATE, BACKS_FOLD)

MAX_BLEED = 3.0
MAX_OFFSET = 10.0  # hand-duplex back offset, mm either way
# Printers do not print the last few millimetres of a sheet; crop marks live in the margin.
MIN_MARGIN = 4.0
CROP_MARK_LENGTH = 5.0
CROP_MARK_GAP = 1.0  # between the bleed edge and the start of a crop mark
SAFE_INSET = 3.0  # text stays this far inside the trim


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
class Placement:
    """Where one face goes on a page: its trim box and its rotation (0 or 180 degrees)."""

    trim: Rect
    bleed: Rect
    rotation: int = 0


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
        raise SheetError(_("Papier inconnu : %(paper)s (choix : %(choices)s).") % {
            "paper": paper, "choices": ", ".join(PAPERS)}) from None
    return (h, w) if landscape else (w, h)


def card_size(name: str) -> tuple[float, float]:
    try:
        return CARD_SIZES[name]
    except KeyError:
        raise SheetError(
            _("Format de carte inconnu : %(card)s (choix : %(choices)s).") % {
                "card": name, "choices": ", ".join(CARD_SIZES)}
        ) from None


def _fit(length: float, item: float, gap: float, bleed: float) -> int:
    """Return how many items of `length`, `gap` apart, fit inside the page margins."""
    usable = length - 2 * MIN_MARGIN - 2 * bleed
    if usable < item:
        return 0
    return int((usable + gap + 1e-9) // (item + gap))


@dataclass(frozen=True)
class SheetSpec:
    """How faces of one size are laid out on one paper, with their backs.

    Faces are laid out in a centred grid `gap` apart (twice the bleed, so each face keeps
    its own bleed). `backs` decides where each back goes: behind its front on the reverse
    page (long or short edge), on pages of their own (separate, shifted by the maker's
    offset), or beside the front on the same page (fold).
    """

    paper: str = "a4"
    face_w: float = CARD_SIZES[DEFAULT_CARD][0]
    face_h: float = CARD_SIZES[DEFAULT_CARD][1]
    bleed: float = 0.0
    backs: str = BACKS_LONG
    offset_x: float = 0.0  # separate backs only: shift the backs right by this many mm
    offset_y: float = 0.0  # ... and up
    landscape: bool | None = None  # None: whichever fits more faces (portrait on a tie)

    def __post_init__(self):
        paper_size(self.paper)
        if self.backs not in BACKS:
            raise SheetError(_("Mode de dos inconnu : %(backs)s (choix : %(choices)s).") % {
                "backs": self.backs, "choices": ", ".join(BACKS)})
        if not 0 <= self.bleed <= MAX_BLEED:
            raise SheetError(_("Le fond perdu va de 0 à %(max)s mm.") % {"max": f"{MAX_BLEED:g}"})
        if self.face_w <= 0 or self.face_h <= 0:
            raise SheetError("Une carte a une largeur et une hauteur.")
        if abs(self.offset_x) > MAX_OFFSET or abs(self.offset_y) > MAX_OFFSET:
            raise SheetError(_("Le décalage du verso va de −%(max)s à %(max)s mm.")
                             % {"max": f"{MAX_OFFSET:g}"})
        if self.columns < 1 or self.rows < 1:
            raise SheetError(
                _("Une carte de %(w)s × %(h)s mm ne tient pas sur une feuille %(paper)s avec "
                  "%(bleed)s mm de fond perdu.") % {
                    "w": f"{self.face_w:g}", "h": f"{self.face_h:g}", "bleed": f"{self.bleed:g}",
                    "paper": PAPER_NAMES.get(self.paper, self.paper)}
            )

    # --- the grid -------------------------------------------------------------------------

    @property
    def gap(self) -> float:
        return 2 * self.bleed

    def _grid(self, landscape: bool) -> tuple[int, int]:
        w, h = paper_size(self.paper, landscape=landscape)
        if self.backs == BACKS_FOLD:
            # Front and back share the page: each half holds the faces of one side.
            if self.fold_vertical_for(landscape):
                cols = _fit(w / 2 - MIN_MARGIN, self.face_w, self.gap, self.bleed)
                return cols, _fit(h, self.face_h, self.gap, self.bleed)
            rows = _fit(h / 2 - MIN_MARGIN, self.face_h, self.gap, self.bleed)
            return _fit(w, self.face_w, self.gap, self.bleed), rows
        return (_fit(w, self.face_w, self.gap, self.bleed),
                _fit(h, self.face_h, self.gap, self.bleed))

    def fold_vertical_for(self, landscape: bool) -> bool:
        """Fold along a vertical line (faces left, backs right) when the page is wider."""
        w, h = paper_size(self.paper, landscape=landscape)
        return w >= h

    @cached_property
    def is_landscape(self) -> bool:
        if self.landscape is not None:
            return self.landscape
        portrait = self._grid(False)
        wide = self._grid(True)
        return wide[0] * wide[1] > portrait[0] * portrait[1]

    @property
    def page_size(self) -> tuple[float, float]:
        return paper_size(self.paper, landscape=self.is_landscape)

    @cached_property
    def columns(self) -> int:
        return self._grid(self.is_landscape)[0]

    @cached_property
    def rows(self) -> int:
        return self._grid(self.is_landscape)[1]

    @cached_property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def fold_vertical(self) -> bool:
        return self.fold_vertical_for(self.is_landscape)

    @property
    def grid_size(self) -> tuple[float, float]:
        return (self.columns * self.face_w + (self.columns - 1) * self.gap,
                self.rows * self.face_h + (self.rows - 1) * self.gap)

    @cached_property
    def front_area(self) -> Rect:
        """The trim extent of the grid of fronts (one half of the page when folding)."""
        page_w, page_h = self.page_size
        grid_w, grid_h = self.grid_size
        if self.backs == BACKS_FOLD and self.fold_vertical:
            # Fronts in the left half, close to the fold so the pair is cut in one go.
            x = page_w / 2 - MIN_MARGIN - self.bleed - grid_w
            return Rect(x, (page_h - grid_h) / 2, grid_w, grid_h)
        if self.backs == BACKS_FOLD:
            y = page_h / 2 + MIN_MARGIN + self.bleed
            return Rect((page_w - grid_w) / 2, y, grid_w, grid_h)
        return Rect((page_w - grid_w) / 2, (page_h - grid_h) / 2, grid_w, grid_h)

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
        return tuple(self._back(i) for i in range(self.per_page))

    def _front(self, index: int) -> Placement:
        row, col = divmod(index, self.columns)
        area = self.front_area
        x = area.x + col * (self.face_w + self.gap)
        y = area.top - (row + 1) * self.face_h - row * self.gap
        trim = Rect(x, y, self.face_w, self.face_h)
        return Placement(trim, trim.outset(self.bleed))

    def _back(self, index: int) -> Placement:
        """Return where the back of the face at `index` goes on its page.

        Long edge: the sheet turns around its vertical axis, so the back is mirrored left to
        right. Short edge: it turns around its horizontal axis, so the back is mirrored top
        to bottom. Either way the back is drawn upright. Fold: mirrored across the fold.
        """
        trim = self._front(index).trim
        page_w, page_h = self.page_size
        if self.backs == BACKS_SHORT or (self.backs == BACKS_FOLD and not self.fold_vertical):
            mirrored = Rect(trim.x, page_h - trim.top, trim.w, trim.h)
            rotation = 180 if self.backs == BACKS_FOLD else 0
        else:
            mirrored = Rect(page_w - trim.right, trim.y, trim.w, trim.h)
            rotation = 0
        if self.backs == BACKS_SEPARATE:
            mirrored = mirrored.moved(self.offset_x, self.offset_y)
        return Placement(mirrored, mirrored.outset(self.bleed), rotation)

    @property
    def fold_line(self) -> tuple[float, float, float, float] | None:
        if self.backs != BACKS_FOLD:
            return None
        page_w, page_h = self.page_size
        if self.fold_vertical:
            return (page_w / 2, 0, page_w / 2, page_h)
        return (0, page_h / 2, page_w, page_h / 2)

    # --- marks ----------------------------------------------------------------------------

    def crop_marks(self, *, backs: bool = False, count: int | None = None) -> list[CropMark]:
        """Return the cut lines' marks, in the margin outside the grid, never over a face.

        `count` faces are on the page (a deck's last sheet is often not full): only their
        cut lines are marked.
        """
        return list(self._crop_marks(backs, self.per_page if count is None else count))

    @lru_cache(maxsize=16)  # noqa: B019 (a spec is frozen and few are alive at once)
    def _crop_marks(self, backs: bool, count: int) -> tuple[CropMark, ...]:
        placements = (self.backs_ if backs else self.fronts)[:count]
        xs = sorted({round(v, 4) for p in placements for v in (p.trim.x, p.trim.right)})
        ys = sorted({round(v, 4) for p in placements for v in (p.trim.y, p.trim.top)})
        left = min(p.bleed.x for p in placements)
        right = max(p.bleed.right for p in placements)
        bottom = min(p.bleed.y for p in placements)
        top = max(p.bleed.top for p in placements)
        page_w, page_h = self.page_size
        gap = CROP_MARK_GAP
        marks = []
        for x in xs:
            down = max(0.0, bottom - gap)
            up = min(page_h, top + gap)
            marks.append(CropMark(x, down, x, max(0.0, down - CROP_MARK_LENGTH)))
            marks.append(CropMark(x, up, x, min(page_h, up + CROP_MARK_LENGTH)))
        for y in ys:
            left_end = max(0.0, left - gap)
            right_end = min(page_w, right + gap)
            marks.append(CropMark(left_end, y, max(0.0, left_end - CROP_MARK_LENGTH), y))
            marks.append(CropMark(right_end, y, min(page_w, right_end + CROP_MARK_LENGTH), y))
        return tuple(m for m in marks if (m.x1, m.y1) != (m.x2, m.y2))

    def trim_box(self, *, backs: bool = False) -> Rect:
        return self._boxes(backs)[0]

    def bleed_box(self, *, backs: bool = False) -> Rect:
        return self._boxes(backs)[1]

    @lru_cache(maxsize=16)  # noqa: B019 (as _crop_marks: every page of a deck asks)
    def _boxes(self, backs: bool) -> tuple[Rect, Rect]:
        placements = self.backs_ if backs else self.fronts
        return _union([p.trim for p in placements]), _union([p.bleed for p in placements])

    @property
    def safe_inset(self) -> float:
        return SAFE_INSET


def _union(rects: list[Rect]) -> Rect:
    x = min(r.x for r in rects)
    y = min(r.y for r in rects)
    return Rect(x, y, max(r.right for r in rects) - x, max(r.top for r in rects) - y)


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
        return (w - 2 * (MIN_MARGIN + 8), h - 2 * (MIN_MARGIN + 8))

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
