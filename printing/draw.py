"""Pens: what a face-drawing function holds. One draws on a canvas, one only measures.

A face function is written once, `front(pen, item)`, and runs twice: with a
`MeasurePen` when validation asks whether the text fits (no canvas, no PDF), and with a
`CanvasPen` when printing. Coordinates are millimetres from the face's bottom-left
corner; the pen turns them into points.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.textobject import PDFTextObject

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


@lru_cache(maxsize=256)
def rgb(value: str) -> tuple[float, float, float]:
    """The red, green and blue of "#rrggbb", each from 0 to 1."""
    solid = colour(value)
    return solid.red, solid.green, solid.blue


@lru_cache(maxsize=1024)
def form_name(key: str, w: float, h: float, numbered: bool, round_face: bool) -> str:
    """The name of a reused block: its key and the face it was drawn for."""
    return f"{key}-{w:g}x{h:g}{'-n' if numbered else ''}{'-o' if round_face else ''}"


class Forms:
    """The reused blocks of one document: those it holds, and the name each has in the PDF.

    A page names every form it places, in its stream and its resources: a short name
    ("F12", numbered in the order blocks are first asked for) keeps pages small, and the
    block's full name (`form_name`) is what tells blocks apart.
    """

    def __init__(self) -> None:
        self.held: set[str] = set()  # full names of the forms the document holds
        self._pdf_names: dict[str, str] = {}

    def pdf_name(self, name: str) -> str:
        found = self._pdf_names.get(name)
        if found is None:
            found = self._pdf_names[name] = f"F{len(self._pdf_names) + 1}"
        return found


def see_through(value: str, opacity: float) -> Color:
    """The colour `value` at `opacity` (0 to 1): what is under it shows through."""
    return Color(*rgb(value), alpha=opacity)


def fit_text(value: str, font: str, size: float, min_size: float, box_w: float,
             box_h: float, french: bool, max_lines: int) -> tuple[typo.Fitted | None, str, str]:
    """Return (fitted text, "", "") or (None, problem code, detail)."""
    value = typo.french_of(value) if french else typo.printable(value)
    missing = typo.missing_glyphs_of(value, font)
    if missing:
        return None, "glyph_missing", "".join(missing)
    fitted = typo.fit_of(value, font, size, box_w, box_h, min_size, max_lines)
    if fitted is None:
        return None, "text_overflow", ""
    return fitted, "", ""


@lru_cache(maxsize=256)
def face_boxes(w: float, h: float, numbered: bool, round_face: bool) -> tuple[Rect, Rect, Rect]:
    """A face's trim box, safe zone and identifier strip (see Pen): the same for every face
    of a size, worked out once."""
    box = Rect(0, 0, w, h)
    safe = box.inset(SAFE_INSET)
    y = safe.y
    if round_face:
        radius = min(w, h) / 2 - SAFE_INSET
        y = h / 2 - math.sqrt(max(radius ** 2 - IDENT_HALF_WIDTH ** 2, 0.0))
    ident = Rect(safe.x, y, safe.w, IDENT_STRIP)
    if numbered:
        safe = Rect(safe.x, ident.top, safe.w, safe.top - ident.top)
    return box, safe, ident


# Checks measure the same cards again and again: they remember what they fitted. A print
# fits each text once, while drawing it: remembering would only keep thousands of fitted
# texts alive for the garbage collector to go through.
fitted_text = lru_cache(maxsize=typo.TEXT_CACHE)(fit_text)


LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
LINE_JOINS = {"miter": 0, "round": 1, "bevel": 2}


@dataclass
class Path:
    """A shape in millimetres, built step by step, then drawn (`pen.shape`) or clipped to
    (`pen.clipped`). Each step returns the path, so steps chain."""

    steps: list[tuple] = field(default_factory=list)

    def _from_current_point(self, step: str) -> None:
        # A path is checked as it is built, so measuring refuses what printing would.
        if not self.steps:
            raise ValueError(f"a path's {step} needs a point to start from: move_to first")

    def move_to(self, x: float, y: float) -> Path:
        self.steps.append(("moveTo", x, y))
        return self

    def line_to(self, x: float, y: float) -> Path:
        self._from_current_point("line_to")
        self.steps.append(("lineTo", x, y))
        return self

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x3: float,
                 y3: float) -> Path:
        """A Bézier curve from the current point to (x3, y3), pulled by two controls."""
        self._from_current_point("curve_to")
        self.steps.append(("curveTo", x1, y1, x2, y2, x3, y3))
        return self

    def arc(self, cx: float, cy: float, r: float, start: float, extent: float) -> Path:
        """An arc of the circle (cx, cy, r), as a new piece: `start` and `extent` in degrees,
        counter-clockwise from the right."""
        self.steps.append(("arc", cx - r, cy - r, cx + r, cy + r, start, extent))
        return self

    def circle(self, cx: float, cy: float, r: float) -> Path:
        self.steps.append(("circle", cx, cy, r))
        return self

    def ellipse(self, cx: float, cy: float, rx: float, ry: float) -> Path:
        self.steps.append(("ellipse", cx - rx, cy - ry, 2 * rx, 2 * ry))
        return self

    def rect(self, rect: Rect) -> Path:
        self.steps.append(("rect", rect.x, rect.y, rect.w, rect.h))
        return self

    def polyline(self, points: Sequence[tuple[float, float]]) -> Path:
        """Lines through `points`, the first one moved to."""
        if not points:
            raise ValueError("a polyline goes through at least one point")
        (x0, y0), *rest = points
        self.move_to(x0, y0)
        for x, y in rest:
            self.line_to(x, y)
        return self

    def close(self) -> Path:
        self._from_current_point("close")
        self.steps.append(("close",))
        return self


def line_style(cap: str, join: str) -> tuple[int | None, int | None]:
    """ReportLab's codes of a line cap and join ("" keeps the current one); refuse others."""
    if cap and cap not in LINE_CAPS:
        raise ValueError(f"unknown line cap {cap!r}: one of {', '.join(LINE_CAPS)}")
    if join and join not in LINE_JOINS:
        raise ValueError(f"unknown line join {join!r}: one of {', '.join(LINE_JOINS)}")
    return LINE_CAPS.get(cap), LINE_JOINS.get(join)


def _in_points(step: tuple) -> tuple:
    """A path step with its lengths in points; an arc's angles stay degrees."""
    name, *values = step
    if name == "arc":
        return (name, *(v * mm for v in values[:4]), *values[4:])
    return (name, *(v * mm for v in values))


class Pen:
    """What every pen offers: the face's size, its safe zone and fitted text."""

    # How a pen fits text (the same rule for all): a print fits each text once.
    fitting = staticmethod(fit_text)

    def __init__(self, w: float, h: float, bleed: float = 0.0, *, numbered: bool = False,
                 round_face: bool = False):
        self.w = w
        self.h = h
        self.bleed = bleed
        self.numbered = numbered
        self.round_face = round_face  # cut as a disc: the identifier keeps inside it
        # What this face cannot print: the writer turns them into problems and refuses the
        # whole PDF; validation reports them before anyone prints.
        self.issues: list[Issue] = []

    @property
    def box(self) -> Rect:
        return face_boxes(self.w, self.h, self.numbered, self.round_face)[0]

    @property
    def safe(self) -> Rect:
        """Where text may go: SAFE_INSET inside the trim, so a slightly off cut spares it.

        On a numbered face the strip at the bottom holds the face's identifier.
        """
        return face_boxes(self.w, self.h, self.numbered, self.round_face)[1]

    @property
    def ident_box(self) -> Rect:
        """Where a numbered face's identifier goes: the bottom of the trim's safe zone.

        On a round face, high enough for an identifier IDENT_HALF_WIDTH mm either side of
        the middle to stay SAFE_INSET inside the disc.
        """
        return face_boxes(self.w, self.h, self.numbered, self.round_face)[2]

    def fit(self, value: str, rect: Rect, *, size: float, min_size: float = typo.MIN_SIZE,
            font: str = typo.REGULAR, french: bool = True, label: object = "",
            max_lines: int = 0) -> typo.Fitted | None:
        """Return the text fitted into `rect`, or report it and return None.

        `label` names the box in a report; a lazy translation is only rendered then.
        """
        fitted, code, detail = self.fitting(value, font, size, min_size, rect.w * mm,
                                            rect.h * mm, french, max_lines)
        if fitted is None:
            self.report(Issue(code, str(label), detail))
        return fitted

    def text(self, value: str, rect: Rect, *, size: float, min_size: float = typo.MIN_SIZE,
             font: str = typo.REGULAR, align: str = "left", valign: str = "top",
             fill: str = BLACK, french: bool = True, label: object = "",
             max_lines: int = 0) -> typo.Fitted | None:
        """Fit `value` into `rect` (shrinking down to `min_size`) and draw it."""
        fitted = self.fit(value, rect, size=size, min_size=min_size, font=font, french=french,
                          label=label, max_lines=max_lines)
        if fitted is not None:
            self.draw_fitted(fitted, rect, align=align, valign=valign, fill=fill)
        return fitted

    def report(self, issue: Issue) -> None:
        self.issues.append(issue)

    def draw_fitted(self, fitted, rect, *, align, valign, fill) -> None:
        raise NotImplementedError

    @contextmanager
    def transformed(self, x: float = 0.0, y: float = 0.0, *, rotate: float = 0.0,
                    scale: float = 1.0, about: tuple[float, float] | None = None
                    ) -> Iterator[Pen]:
        """Draw, inside the block, with the origin moved to (x, y) mm, then turned `rotate`
        degrees counter-clockwise and scaled `scale` times, about the point `about` of
        the moved frame if given (its origin otherwise). The face's size is unchanged."""
        self._push((x, y, rotate, scale, about), None)
        try:
            yield self
        finally:
            self._pop()

    @contextmanager
    def clipped(self, path: Path) -> Iterator[Pen]:
        """Draw, inside the block, only what falls within `path`."""
        self._push(None, path)
        try:
            yield self
        finally:
            self._pop()

    @contextmanager
    def sub(self, rect: Rect, *, upside_down: bool = False) -> Iterator[Pen]:
        """A pen for `rect` of this face, its origin at the rect's bottom-left corner (its
        top-right, turned half a turn, if `upside_down`): a panel drawn as a face of its
        own. What it cannot print is reported here.

        Inside the block, draw with the panel's pen only: this pen would draw in the
        panel's frame, under the panel's text."""
        if upside_down:
            frame = (rect.right, rect.top, 180.0, 1.0, None)
        else:
            frame = (rect.x, rect.y, 0.0, 1.0, None)
        self._push(frame, None)
        try:
            inner = self._inner(rect.w, rect.h)
            yield inner
            inner.flush()
        finally:
            self._pop()

    # What a face draws. A MeasurePen draws nothing; a CanvasPen draws on its canvas.

    def reuse(self, key: str, draw: Callable[[Pen], None], *, under_text: bool = False
              ) -> None:
        """Draw `draw(pen)` once per document as a form, then place that form again.

        The form lands on top of everything drawn so far, unless `under_text`: then it goes
        under the text drawn since the last shape, which stays on top (for a block no
        text overlaps, such as the identifier's pill: its text then joins the face's).
        """
        raise NotImplementedError

    def centred(self, value: str, x: float, y: float, *, size: float,
                font: str = typo.REGULAR, fill: str = BLACK) -> None:
        """Draw a short fixed label centred on (x, y) in mm (no fitting: our own text)."""
        raise NotImplementedError

    def label(self, value: str, x: float, y: float, *, size: float, font: str = typo.REGULAR,
              fill: str = BLACK, align: str = "left") -> None:
        """Draw one line of our own text with its baseline at (x, y) mm, unfitted."""
        raise NotImplementedError

    def background(self, fill: str) -> None:
        """Paint the whole face, bleed included."""
        raise NotImplementedError

    def rect(self, rect: Rect, *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.3, radius: float = 0.0, opacity: float = 1.0) -> None:
        """A rectangle, its corners rounded `radius` mm; a fill `opacity` under 1 lets what
        is under it show through."""
        raise NotImplementedError

    def dashed_rect(self, rect: Rect, *, stroke: str = BLACK, width: float = 0.25,
                    dash: tuple[float, ...] = (2, 1.5)) -> None:
        raise NotImplementedError

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = BLACK,
             width: float = 0.3, dash: tuple[float, ...] = ()) -> None:
        raise NotImplementedError

    def circle(self, x: float, y: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.3) -> None:
        raise NotImplementedError

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: str | None = None,
                stroke: str | None = None, width: float = 0.3) -> None:
        raise NotImplementedError

    def shape(self, path: Path, *, fill: str | None = None, stroke: str | None = None,
              width: float = 0.3, cap: str = "", join: str = "") -> None:
        """Draw `path`: filled, stroked `width` mm thick, or both; `cap` ("butt", "round",
        "square") shapes the ends of open lines, `join` ("miter", "round", "bevel") their
        corners."""
        raise NotImplementedError

    def image(self, source: str, rect: Rect) -> None:
        """Draw an image (a path or file) scaled to fit `rect`, centred, ratio kept."""
        raise NotImplementedError

    def _push(self, frame, clip: Path | None) -> None:
        """Start a block drawn in a moved frame or a clip (nothing to do when measuring)."""

    def _pop(self) -> None:
        """End the block `_push` started."""

    def _inner(self, w: float, h: float) -> Pen:
        raise NotImplementedError

    def flush(self) -> None:
        """Write out pending text (nothing pending when measuring)."""


class MeasurePen(Pen):
    """Runs a face function without a canvas and collects what cannot be printed."""

    fitting = staticmethod(fitted_text)  # checks measure the same texts again and again

    # What a reused block (see CanvasPen.reuse) reported, by key, size and language (an
    # issue names its box in the language it was measured in): measured once. A key names
    # one drawing, as a form's name does in the PDF.
    _reused: dict = {}

    @classmethod
    def forget(cls) -> None:
        """Forget what reused blocks reported: the next measure draws them again."""
        cls._reused.clear()

    def reuse(self, key: str, draw, *, under_text: bool = False) -> None:
        name = (key, self.w, self.h, self.numbered, self.round_face, get_language())
        if name not in self._reused:
            inner = MeasurePen(self.w, self.h, self.bleed, numbered=self.numbered,
                               round_face=self.round_face)
            draw(inner)
            self._reused[name] = tuple(inner.issues)
        self.issues.extend(self._reused[name])

    def draw_fitted(self, fitted, rect, *, align, valign, fill) -> None:
        pass

    def _inner(self, w: float, h: float) -> Pen:
        inner = MeasurePen(w, h)
        inner.issues = self.issues  # one list: what a panel cannot print, the face cannot
        return inner

    def _draws_nothing(self, *args: Any, **kwargs: Any) -> None:
        """Shapes, images, backgrounds and our own labels draw nothing while measuring."""

    centred = label = background = rect = dashed_rect = line = circle = polygon = (
        image) = _draws_nothing

    def shape(self, path: Path, *, fill: str | None = None, stroke: str | None = None,
              width: float = 0.3, cap: str = "", join: str = "") -> None:
        line_style(cap, join)  # what printing would refuse, measuring refuses too


class CanvasPen(Pen):
    """Draws on a ReportLab canvas whose origin is the face's bottom-left corner.

    Consecutive text goes into one PDF text object (far fewer operators than one
    `drawString` a line); any other drawing writes it out first, so what is drawn later
    still lands on top. Call `flush` when the face is done.
    Text that cannot be printed is left out and kept in `issues`: the writer turns them
    into problems and refuses the whole PDF.
    """

    def __init__(self, canvas, w: float, h: float, bleed: float = 0.0,
                 forms: Forms | None = None, *, numbered: bool = False,
                 round_face: bool = False):
        super().__init__(w, h, bleed, numbered=numbered, round_face=round_face)
        self._canvas = canvas
        self._forms = forms  # the document's reused blocks
        self._text: PDFTextObject | None = None
        self._state: tuple[str, float, str] | None = None  # font, size, fill last set
        self._leading: float | None = None  # the leading last set in the text object

    def _drawing(self):
        """The canvas, once pending text is written out: what is drawn next lands on top."""
        self.flush()
        return self._canvas

    def _push(self, frame, clip: Path | None) -> None:
        c = self._drawing()
        c.saveState()
        if frame is not None:
            x, y, rotate, scale, about = frame
            c.translate(x * mm, y * mm)
            if about is not None:
                c.translate(about[0] * mm, about[1] * mm)
            if rotate:
                c.rotate(rotate)
            if scale != 1.0:
                c.scale(scale, scale)
            if about is not None:
                c.translate(-about[0] * mm, -about[1] * mm)
        if clip is not None:
            c.clipPath(self._path(clip), stroke=0, fill=0)

    def _pop(self) -> None:
        self._drawing().restoreState()

    def _inner(self, w: float, h: float) -> Pen:
        inner = CanvasPen(self._canvas, w, h, forms=self._forms)
        inner.issues = self.issues
        return inner

    def _path(self, path: Path):
        drawn = self._canvas.beginPath()
        methods = {"moveTo": drawn.moveTo, "lineTo": drawn.lineTo, "curveTo": drawn.curveTo,
                   "arc": drawn.arc, "circle": drawn.circle, "ellipse": drawn.ellipse,
                   "rect": drawn.rect, "close": drawn.close}
        for step in path.steps:
            name, *values = _in_points(step)
            methods[name](*values)
        return drawn

    def reuse(self, key: str, draw, *, under_text: bool = False) -> None:
        """Draw `draw(pen)` once per document as a form, then place that form again.

        For what many faces of one size repeat (a ladder step's header, say): the PDF holds
        it once. Without a document to hold forms, it is simply drawn (on top).
        """
        if self._forms is None:
            draw(self)
            return
        forms = self._forms
        name = form_name(key, self.w, self.h, self.numbered, self.round_face)
        pdf_name = forms.pdf_name(name)
        if not under_text:
            self.flush()
        # Pending text is a text object of its own, not yet in the canvas's stream: a form
        # placed now lands under it.
        c = self._canvas
        if name not in forms.held:
            bleed = self.bleed * mm
            c.beginForm(pdf_name, lowerx=-bleed, lowery=-bleed, upperx=self.w * mm + bleed,
                        uppery=self.h * mm + bleed)
            try:
                # A form may place forms of its own: the PDF still holds each once.
                inner = CanvasPen(self._canvas, self.w, self.h, self.bleed, self._forms,
                                  numbered=self.numbered, round_face=self.round_face)
                draw(inner)
                inner.flush()
                self.issues += inner.issues
            finally:
                c.endForm()  # the page goes on, even after a failed drawing
            forms.held.add(name)
        c.doForm(pdf_name)

    def flush(self) -> None:
        if self._text is not None:
            self._canvas.drawText(self._text)
            self._text = None
            self._state = None
            self._leading = None

    def _at(self, x: float, y: float) -> PDFTextObject:
        """The text object, its next line's baseline set at (x, y) points."""
        if self._text is None:
            # A new text object starts where its first line goes ("BT 1 0 0 1 x y Tm").
            self._text = self._canvas.beginText(x, y)
        else:
            self._text.setTextOrigin(x, y)
        return self._text

    def _style(self, text: PDFTextObject, font: str, size: float, fill: str) -> None:
        """Set the font and colour of the text that follows, where they change."""
        state = self._state
        if state != (font, size, fill):
            if state is None or state[2] != fill:
                # As RGB: an opaque colour needs no transparency state in the PDF.
                text.setFillColorRGB(*rgb(fill))
            if state is None or state[:2] != (font, size):
                text.setFont(font, size, self._leading)
            self._state = (font, size, fill)

    def _lines(self, lines, x: float, y: float, leading: float, font: str, size: float,
               fill: str, align: str) -> None:
        """Add lines of text, the first with its baseline at (x, y) points."""
        if align == "left" and len(lines) > 1:
            # A left-aligned block: placed once, each line then one leading lower ("T*").
            text = self._at(x, y)
            self._style(text, font, size, fill)
            if self._leading != leading:
                text.setLeading(leading)
                self._leading = leading
            for line in lines:
                text.textLine(line)
            return
        for line in lines:
            if line:  # an empty line shows nothing: it only takes its leading
                left = x
                if align != "left":
                    width = pdfmetrics.stringWidth(line, font, size)
                    left -= width / 2 if align == "centre" else width
                # Each line placed on its own ("1 0 0 1 x y Tm"): no cursor carried from
                # line to line.
                text = self._at(left, y)
                self._style(text, font, size, fill)
                text.textOut(line)
            y -= leading

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

    def _paint(self, fill: str | None, stroke: str | None, width: float,
               opacity: float = 1.0) -> dict:
        """Set the colours of a shape; return the stroke and fill flags ReportLab wants."""
        c = self._drawing()
        if fill:
            c.setFillColor(colour(fill) if opacity == 1.0 else see_through(fill, opacity))
        if stroke:
            c.setStrokeColor(colour(stroke))
            c.setLineWidth(width * mm)
        return {"stroke": int(bool(stroke)), "fill": int(bool(fill))}

    def rect(self, rect: Rect, *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.3, radius: float = 0.0, opacity: float = 1.0) -> None:
        """A rectangle, its corners rounded `radius` mm; a fill `opacity` under 1 lets what
        is under it show through."""
        c = self._drawing()
        if opacity != 1.0:
            c.saveState()
        flags = self._paint(fill, stroke, width, opacity)
        args = (rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm)
        if radius:
            c.roundRect(*args, radius * mm, **flags)
        else:
            c.rect(*args, **flags)
        if opacity != 1.0:
            c.restoreState()

    def dashed_rect(self, rect: Rect, *, stroke: str = BLACK, width: float = 0.25,
                    dash: tuple = (2, 1.5)) -> None:
        c = self._drawing()
        c.saveState()
        c.setDash([d * mm for d in dash])
        self.rect(rect, stroke=stroke, width=width)
        c.restoreState()

    def line(self, x1, y1, x2, y2, *, stroke: str = BLACK, width: float = 0.3,
             dash: tuple = ()) -> None:
        c = self._drawing()
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
        self._canvas.circle(x * mm, y * mm, r * mm, **flags)

    def polygon(self, points, *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.3) -> None:
        flags = self._paint(fill, stroke, width)
        self._canvas.drawPath(self._path(Path().polyline(points).close()), **flags)

    def shape(self, path: Path, *, fill: str | None = None, stroke: str | None = None,
              width: float = 0.3, cap: str = "", join: str = "") -> None:
        cap_code, join_code = line_style(cap, join)
        c = self._drawing()
        c.saveState()
        try:
            flags = self._paint(fill, stroke, width)
            if cap_code is not None:
                c.setLineCap(cap_code)
            if join_code is not None:
                c.setLineJoin(join_code)
            c.drawPath(self._path(path), **flags)
        finally:
            c.restoreState()

    def image(self, source, rect: Rect) -> None:
        """Draw an image (a path or file) scaled to fit `rect`, centred, ratio kept."""
        self._drawing().drawImage(source, rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm,
                                  preserveAspectRatio=True, anchor="c", mask="auto")


def star_points(cx: float, cy: float, outer: float, inner: float, points: int = 5):
    """Return the corners of a star centred on (cx, cy), one point straight up."""
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / points
        corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return corners
