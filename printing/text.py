"""Fonts, escaping, French typography and fitting text into a box.

We draw text with `drawString`, line by line, so user text never goes through
ReportLab's paragraph markup; `escape` is for the few places that build markup.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape as _xml_escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

NNBSP = "\u202f"  # narrow no-break space: before ; : ! ? and inside « »
NBSP = "\u00a0"

DEJAVU_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/local/share/fonts/dejavu",
)
PLATEAU_FONT_DIR = os.environ.get("PLATEAU_FONT_DIR", "")

REGULAR = "Plateau"
BOLD = "Plateau-Bold"
CONDENSED = "Plateau-Condensed"
CONDENSED_BOLD = "Plateau-CondensedBold"

MIN_SIZE = 6.5  # pt: below this a card is not readable at arm's length
LEADING = 1.18  # line height as a multiple of the font size


@dataclass(frozen=True)
class FontSet:
    family: str  # "DejaVu" or "Vera"
    has_narrow_space: bool


def _find(name: str) -> str | None:
    for folder in (PLATEAU_FONT_DIR, *DEJAVU_DIRS):
        if folder and os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


@lru_cache(maxsize=1)
def fonts() -> FontSet:
    """Register the fonts once: DejaVu where the machine has it, else ReportLab's Vera."""
    dejavu = {
        REGULAR: _find("DejaVuSans.ttf"),
        BOLD: _find("DejaVuSans-Bold.ttf"),
        CONDENSED: _find("DejaVuSansCondensed.ttf"),
        CONDENSED_BOLD: _find("DejaVuSansCondensed-Bold.ttf"),
    }
    if dejavu[REGULAR] and dejavu[BOLD]:
        dejavu[CONDENSED] = dejavu[CONDENSED] or dejavu[REGULAR]
        dejavu[CONDENSED_BOLD] = dejavu[CONDENSED_BOLD] or dejavu[BOLD]
        for name, path in dejavu.items():
            pdfmetrics.registerFont(TTFont(name, path))
        return FontSet("DejaVu", True)
    vera = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", CONDENSED: "Vera.ttf",
            CONDENSED_BOLD: "VeraBd.ttf"}
    for name, file in vera.items():
        pdfmetrics.registerFont(TTFont(name, file))
    return FontSet("Vera", False)


def printable(text: str) -> str:
    """Return text the registered fonts can draw (Vera has no narrow no-break space)."""
    if not fonts().has_narrow_space:
        text = text.replace(NNBSP, NBSP)
    return text


@lru_cache(maxsize=65536)
def missing_glyphs(text: str, font: str = REGULAR) -> tuple[str, ...]:
    """Return the characters of `text` the font cannot draw, each once, in order."""
    fonts()
    face = pdfmetrics.getFont(font).face
    cmap = face.charToGlyph
    seen: dict[str, None] = {}
    for char in printable(text):
        if char in "\n\t" or ord(char) in cmap or char in seen:
            continue
        seen[char] = None
    return tuple(seen)


def escape(text: str) -> str:
    """Escape user text for ReportLab's paragraph markup: `<b>` prints as `<b>`."""
    return _xml_escape(text, {'"': "&quot;"})


# --- French typography ---------------------------------------------------------------------

_SPACE_BEFORE = re.compile(r"[ \u00a0\u202f]*([;!?])")
_COLON = re.compile(r"(?<=\S)[ \u00a0\u202f]*:(?=\s|$)|(?<=\s):")
_OPEN_GUILLEMET = re.compile(r"«[ \u00a0\u202f]*")
_CLOSE_GUILLEMET = re.compile(r"[ \u00a0\u202f]*»")
# Only quotes that open after a space and close before one: `src="x"` is not a quotation.
_QUOTED = re.compile(r"(?<![^\s(])\"([^\"\n]+)\"(?=[\s.,;:!?)]|$)")
_ENTITY_BEFORE = re.compile(r"&#?\w+$")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_SPACES = re.compile(r"[ \t]+")
# Numbers written 1 000 000 keep their groups together.
_DIGIT_GROUPS = re.compile(r"(?<=\d) (?=\d{3}\b)")


@lru_cache(maxsize=65536)
def french(text: str) -> str:
    """Apply French typography: narrow no-break spaces before ; : ! ?, « » and ’."""
    text = _SPACES.sub(" ", text.strip())
    text = _APOSTROPHE.sub("\u2019", text)
    text = _QUOTED.sub(lambda m: f"«{m.group(1).strip()}»", text)
    text = _OPEN_GUILLEMET.sub("«" + NBSP, text)
    text = _CLOSE_GUILLEMET.sub(NBSP + "»", text)

    def before(match):
        start = match.start()
        # "?!" or "!!" stay together; the first of a run gets the space.
        if start > 0 and text[start - 1] in ";!?":
            return match.group(1)
        if start == 0 or _ENTITY_BEFORE.search(text, 0, start):
            return match.group(1)  # "&amp;" is not French punctuation
        return NNBSP + match.group(1)

    text = _SPACE_BEFORE.sub(before, text)
    text = _COLON.sub(NNBSP + ":", text)
    text = _DIGIT_GROUPS.sub(NNBSP, text)
    return printable(text)


def amount(euros: int) -> str:
    """Return a sum of money the French way: 1 000 000 €."""
    return printable(f"{euros:,}".replace(",", NNBSP) + NBSP + "€")


# --- fitting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fitted:
    """Text wrapped into lines at one font size."""

    lines: tuple[str, ...]
    font: str
    size: float
    leading: float

    @property
    def height(self) -> float:
        return self.leading * len(self.lines)


def width(text: str, font: str, size: float) -> float:
    fonts()
    return pdfmetrics.stringWidth(text, font, size)


def wrap(text: str, font: str, size: float, max_width: float) -> list[str] | None:
    """Break text into lines no wider than `max_width` pt; None if a word is too wide."""
    lines: list[str] = []
    space = width(" ", font, size)
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        line: list[str] = []
        line_width = 0.0
        for word in words:
            if not word:
                continue
            word_width = width(word, font, size)
            if word_width > max_width:
                return None
            if line and line_width + space + word_width > max_width:
                lines.append(" ".join(line))
                line, line_width = [word], word_width
            else:
                line_width = line_width + space + word_width if line else word_width
                line.append(word)
        lines.append(" ".join(line))
    return lines


@lru_cache(maxsize=65536)
def fit(text: str, font: str, max_size: float, box_w: float, box_h: float,
        min_size: float = MIN_SIZE, max_lines: int = 0) -> Fitted | None:
    """Return the text at the largest size from `max_size` down to `min_size` that fits.

    Sizes step down by half a point. None when even `min_size` does not fit: the caller
    reports it, it never cuts the text.
    """
    fonts()
    # A size scaled down for a small card never starts below what is still readable.
    size = max(max_size, min_size)
    while size >= min_size - 1e-9:
        lines = wrap(text, font, size, box_w)
        if lines is not None:
            leading = size * LEADING
            # The last line needs only the font size, not a full leading.
            height = leading * (len(lines) - 1) + size
            if height <= box_h + 1e-6 and (not max_lines or len(lines) <= max_lines):
                return Fitted(tuple(lines), font, size, leading)
        size -= 0.5
    return None
