"""Pens: what a face-drawing function holds. One draws on a canvas, one only measures.

A face function is written once, `front(pen, item)`, and runs twice: with a
`MeasurePen` when validation asks whether the text fits (no canvas, no PDF), and with a
`CanvasPen` when printing. Coordinates are millimetres from the face's bottom-left
corner; the pen turns them into points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics

from . import text as typo
from .sheets import SAFE_INSET, Rect

# Numbered decks print "MIL-017" at the bottom of both faces: the safe zone ends above it.
IDENT_STRIP = 3.4  # mm
IDENT_HALF_WIDTH = 6.0  # mm: half the widest identifier's pill ("MIL-1234")

BLACK = "#1b1b1b"
WHITE = "#ffffff"


@dataclass(frozen=True)
class Issue:
    """Something a face cannot print: which text, and why."""

    code: str  # "text_overflow", "glyph_missing", "image_low_resolution"…
    label: str  # which box: "question", "proposition B", …
    detail: str = ""  # what shows it: the characters that cannot be drawn, an image's size


@lru_cache(maxsize=256)
def colour(value: str):
    return HexColor(value)


@lru_cache(maxsize=typo.TEXT_CACHE)
def _fitted(value: str, font: str, size: float, min_size: float, box_w: float, box_h: float,
            french: bool, max_lines: int) -> tuple[typo.Fitted | None, str, str]:
    """Return (fitted text, "", "") or (None, problem code, detail): one lookup a box."""
    value = typo.french_of(value) if french else typo.printable(value)
    missing = typo.missing_glyphs_of(value, font)
    if missing:
        return None, "glyph_missing", "".join(missing)
    fitted = typo.fit_of(value, font, size, box_w, box_h, min_size, max_lines)
    if fitted is None:
        return None, "text_overflow", ""
    return fitted, "", ""


class Pen:
    """What every pen offers: the face's size, its safe zone and fitted text."""

    def __init__(self, w: float, h: float, bleed: float = 0.0, *, numbered: bool = False,
                 round_face: bool = False):
        self.w = w
        self.h = h
        self.bleed = bleed
        self.numbered = numbered
        self.round_face = round_face  # cut as a disc: the identifier keeps inside it

    @property
    def box(self) -> Rect:
        return Rect(0, 0, self.w, self.h)

    @property
    def safe(self) -> Rect:
        """Where text may go: SAFE_INSET inside the trim, so a slightly off cut spares it.

        On a numbered face the strip at the bottom holds the face's identifier.
        """
        safe = self.box.inset(SAFE_INSET)
        if self.numbered:
            top = self.ident_box.top
            return Rect(safe.x, top, safe.w, safe.top - top)
        return safe

    @property
    def ident_box(self) -> Rect:
        """Where a numbered face's identifier goes: the bottom of the trim's safe zone.

        On a round face, high enough for an identifier IDENT_HALF_WIDTH mm either side of
        the middle to stay SAFE_INSET inside the disc.
        """
        safe = self.box.inset(SAFE_INSET)
        y = safe.y
        if self.round_face:
            radius = min(self.w, self.h) / 2 - SAFE_INSET
            y = self.h / 2 - math.sqrt(max(radius ** 2 - IDENT_HALF_WIDTH ** 2, 0.0))
        return Rect(safe.x, y, safe.w, IDENT_STRIP)

    def fit(self, value: str, rect: Rect, *, size: float, min_size: float = typo.MIN_SIZE,
            font: str = typo.REGULAR, french: bool = True, label="",
            max_lines: int = 0) -> typo.Fitted | None:
        """Return the text fitted into `rect`, or report it and return None.

        `label` names the box in a report; a lazy translation is only rendered then.
        """
        fitted, code, detail = _fitted(value, font, size, min_size, rect.w * mm, rect.h * mm,
                                       french, max_lines)
        if fitted is None:
            self.report(Issue(code, str(label), detail))
        return fitted

    def text(self, value: str, rect: Rect, *, size: float, min_size: float = typo.MIN_SIZE,
             font: str = typo.REGULAR, align: str = "left", valign: str = "top",
             fill: str = BLACK, french: bool = True, label: str = "",
             max_lines: int = 0) -> typo.Fitted | None:
        """Fit `value` into `rect` (shrinking down to `min_size`) and draw it."""
        fitted = self.fit(value, rect, size=size, min_size=min_size, font=font, french=french,
                          label=label, max_lines=max_lines)
        if fitted is not None:
            self.draw_fitted(fitted, rect, align=align, valign=valign, fill=fill)
        return fitted

    def report(self, issue: Issue) -> None:
        raise NotImplementedError

    def draw_fitted(self, fitted, rect, *, align, valign, fill) -> None:
        raise NotImplementedError


class _Nothing:
    """A canvas that draws nothing: measuring needs no picture.

    Every attribute and every call is the same do-nothing object, so chains such as
    `canvas.beginPath().moveTo(…)` work, as does a pen built over this canvas.
    """

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __str__(self):
        return ""


class MeasurePen(Pen):
    """Runs a face function without a canvas and collects what cannot be printed."""

    # What a reused block (see CanvasPen.reuse) reported, by key and size: measured once.
    _reused: dict = {}

    def reuse(self, key: str, draw) -> None:
        name = (key, self.w, self.h, self.numbered, self.round_face)
        if name not in self._reused:
            inner = MeasurePen(self.w, self.h, self.bleed, numbered=self.numbered,
                               round_face=self.round_face)
            draw(inner)
            self._reused[name] = tuple(inner.issues)
        self.issues.extend(self._reused[name])

    def __init__(self, w: float, h: float, bleed: float = 0.0, *, numbered: bool = False,
                 round_face: bool = False):
        super().__init__(w, h, bleed, numbered=numbered, round_face=round_face)
        self.issues: list[Issue] = []
        self.canvas = _Nothing()

    def report(self, issue: Issue) -> None:
        self.issues.append(issue)

    def draw_fitted(self, fitted, rect, *, align, valign, fill) -> None:
        pass

    def flush(self) -> None:
        pass

    def __getattr__(self, name):
        # Shapes, images and backgrounds draw nothing while measuring.
        if name in CanvasPen.DRAWING:
            return lambda *args, **kwargs: None
        raise AttributeError(name)


class _Flushing:
    """The pen's canvas, which writes out the pen's pending text before every call.

    A face may keep `c = pen.canvas`, write text with the pen, then call `c.restoreState()`:
    the text must land before the state changes, not after.
    """

    __slots__ = ("_canvas", "_pen")

    def __init__(self, pen, canvas):
        self._pen = pen
        self._canvas = canvas

    def __getattr__(self, name):
        self._pen.flush()
        return getattr(self._canvas, name)


class CanvasPen(Pen):
    """Draws on a ReportLab canvas whose origin is the face's bottom-left corner.

    Consecutive text goes into one PDF text object (far fewer operators than one
    `drawString` a line); any other drawing, or reaching for `canvas`, writes it out
    first, so what is drawn later still lands on top. Call `flush` when the face is done.
    Text that cannot be printed is left out and kept in `issues`: the writer turns them
    into problems and refuses the whole PDF.
    """

    DRAWING = frozenset({"rect", "line", "circle", "polygon", "image", "background",
                         "centred", "dashed_rect", "label", "_paint"})

    def __init__(self, canvas, w: float, h: float, bleed: float = 0.0, forms: set | None = None,
                 *, numbered: bool = False, round_face: bool = False):
        super().__init__(w, h, bleed, numbered=numbered, round_face=round_face)
        self._canvas = canvas
        self._forms = forms  # names of the forms the document already holds
        self.issues: list[Issue] = []
        self._text = None
        self._state = None  # (font, size, fill) last set in the text object

    @property
    def canvas(self):
        self.flush()
        return _Flushing(self, self._canvas)

    def reuse(self, key: str, draw) -> None:
        """Draw `draw(pen)` once per document as a form, then place that form again.

        For what many faces of one size repeat (a ladder step's header, say): the PDF holds
        it once. Without a document to hold forms, it is simply drawn.
        """
        if self._forms is None:
            draw(self)
            return
        name = (f"{key}-{self.w:g}x{self.h:g}{'-n' if self.numbered else ''}"
                f"{'-o' if self.round_face else ''}")
        self.flush()
        c = self._canvas
        if name not in self._forms:
            bleed = self.bleed * mm
            c.beginForm(name, lowerx=-bleed, lowery=-bleed, upperx=self.w * mm + bleed,
                        uppery=self.h * mm + bleed)
            inner = CanvasPen(self._canvas, self.w, self.h, self.bleed, numbered=self.numbered,
                              round_face=self.round_face)
            draw(inner)
            inner.flush()
            self.issues += inner.issues
            c.endForm()
            self._forms.add(name)
        c.doForm(name)

    def flush(self) -> None:
        if self._text is not None:
            self._canvas.drawText(self._text)
            self._text = None
            self._state = None

    def _lines(self, lines, x: float, y: float, leading: float, font: str, size: float,
               fill: str, align: str) -> None:
        """Add lines of text, the first with its baseline at (x, y) points."""
        if self._text is None:
            self._text = self._canvas.beginText()
        text = self._text
        if self._state != (font, size, fill):
            if self._state is None or self._state[2] != fill:
                text.setFillColor(colour(fill))
            if self._state is None or self._state[:2] != (font, size):
                text.setFont(font, size)
            self._state = (font, size, fill)
        for line in lines:
            if line:  # an empty line shows nothing: it only takes its leading
                left = x
                if align != "left":
                    width = pdfmetrics.stringWidth(line, font, size)
                    left -= width / 2 if align == "centre" else width
                # Each line placed on its own ("1 0 0 1 x y Tm"): no cursor carried from
                # line to line.
                text.setTextOrigin(left, y)
                text.textOut(line)
            y -= leading

    def report(self, issue: Issue) -> None:
        self.issues.append(issue)

    def draw_fitted(self, fitted, rect, *, align="left", valign="top", fill=BLACK) -> None:
        lines = fitted.lines
        size = fitted.size
        leading = fitted.leading
        if valign == "top":
            top = rect.top * mm
        else:
            height = leading * (len(lines) - 1) + size
            top = (rect.y * mm + (rect.h * mm + height) / 2 if valign == "middle"
                   else rect.y * mm + height)
        # The first baseline sits one ascent (about 0.8 em) under the top of the block.
        y = top - size * 0.8
        if align == "left":
            x = rect.x * mm
        else:
            x = (rect.x + rect.w / 2) * mm if align == "centre" else rect.right * mm
        self._lines(lines, x, y, leading, fitted.font, size, fill, align)

    def centred(self, value: str, x: float, y: float, *, size: float,
                font: str = typo.REGULAR, fill: str = BLACK) -> None:
        """Draw a short fixed label centred on (x, y) in mm (no fitting: our own text)."""
        self._lines((typo.printable(value),), x * mm, y * mm - size * 0.35, 0, font, size,
                    fill, "centre")

    def label(self, value: str, x: float, y: float, *, size: float, font: str = typo.REGULAR,
              fill: str = BLACK, align: str = "left") -> None:
        """Draw one line of our own text with its baseline at (x, y) mm, unfitted."""
        self._lines((typo.printable(value),), x * mm, y * mm, 0, font, size, fill, align)

    def background(self, fill: str) -> None:
        """Paint the whole face, bleed included."""
        self.rect(self.box.outset(self.bleed), fill=fill)

    def _paint(self, fill: str | None, stroke: str | None, width: float) -> dict:
        """Set the colours of a shape; return the stroke and fill flags ReportLab wants."""
        c = self.canvas
        if fill:
            c.setFillColor(colour(fill))
        if stroke:
            c.setStrokeColor(colour(stroke))
            c.setLineWidth(width * mm)
        return {"stroke": int(bool(stroke)), "fill": int(bool(fill))}

    def rect(self, rect: Rect, *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.3, radius: float = 0.0) -> None:
        flags = self._paint(fill, stroke, width)
        c = self.canvas
        args = (rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm)
        if radius:
            c.roundRect(*args, radius * mm, **flags)
        else:
            c.rect(*args, **flags)

    def dashed_rect(self, rect: Rect, *, stroke: str = BLACK, width: float = 0.25,
                    dash: tuple = (2, 1.5)) -> None:
        c = self.canvas
        c.saveState()
        c.setDash([d * mm for d in dash])
        self.rect(rect, stroke=stroke, width=width)
        c.restoreState()

    def line(self, x1, y1, x2, y2, *, stroke: str = BLACK, width: float = 0.3,
             dash: tuple = ()) -> None:
        c = self.canvas
        c.saveState()
        c.setStrokeColor(colour(stroke))
        c.setLineWidth(width * mm)
        if dash:
            c.setDash([d * mm for d in dash])
        c.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
        c.restoreState()

    def circle(self, x, y, r, *, fill: str | None = None, stroke: str | None = None,
               width: float = 0.3) -> None:
        flags = self._paint(fill, stroke, width)
        self.canvas.circle(x * mm, y * mm, r * mm, **flags)

    def polygon(self, points, *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.3) -> None:
        c = self.canvas
        path = c.beginPath()
        (x0, y0), *rest = points
        path.moveTo(x0 * mm, y0 * mm)
        for x, y in rest:
            path.lineTo(x * mm, y * mm)
        path.close()
        c.drawPath(path, **self._paint(fill, stroke, width))

    def image(self, source, rect: Rect) -> None:
        """Draw an image (a path or file) scaled to fit `rect`, centred, ratio kept."""
        self.canvas.drawImage(source, rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm,
                              preserveAspectRatio=True, anchor="c", mask="auto")


def star_points(cx: float, cy: float, outer: float, inner: float, points: int = 5):
    """Return the corners of a star centred on (cx, cy), one point straight up."""
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / points
        corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return corners
