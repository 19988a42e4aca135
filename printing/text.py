"""Fonts, escaping, French typography and fitting text into a box.

We draw text through ReportLab's text objects, line by line, so user text never goes
through its paragraph markup; `escape` is for the few places that build markup.
"""

from __future__ import annotations

import math
import os
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
from weakref import WeakKeyDictionary
from xml.sax.saxutils import escape as _xml_escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cms.typography import NBSP, NNBSP, french_spacing

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


class _Unknown(Exception):
    """A character the document has not written yet in the font's first subset.

    Not a LookupError: `str.translate` would leave the character as it is.
    """


class _FirstSubset(dict):
    """The characters a document wrote in a font's first subset: code point -> its code.

    Each code as a one-character str, for `str.translate`, which stops on the exception a
    character not yet written raises.
    """

    def __missing__(self, key):
        raise _Unknown


class Font(TTFont):
    """A TrueType font that remembers the codes it gave the characters of each document.

    ReportLab's `splitString` (the documented way a dynamic font turns text into codes of
    its subsets) looks every character up, one by one: the largest cost of printing a
    deck. What it returns is one byte a character (a subset holds 256 codes), and a
    character keeps its code for the rest of the document (pages already hold it). So
    the codes are learnt from what it returned, and a line made only of characters already
    written in the first subset is encoded with one `str.translate`, to the same bytes.
    Any other line goes to ReportLab. Nothing of ReportLab's font state is read.

    Like ReportLab, it writes U+00A0 with the space's code, whose ToUnicode entry is U+0020:
    the no-break space before « : » prints as wide as a space, but a reader of the PDF's
    text finds a plain space there. The narrow no-break space (U+202F) is a character of
    its own and reads back as itself.
    """

    def __init__(self, name: str, filename: str):
        super().__init__(name, filename)
        self.first_subset: WeakKeyDictionary = WeakKeyDictionary()  # per document
        # The document written last and its codes: a document writes line after line.
        self.last_document: tuple[weakref.ref, _FirstSubset] | None = None

    def codes_for(self, doc) -> _FirstSubset:
        last = self.last_document
        if last is not None and last[0]() is doc:
            return last[1]
        codes = self.first_subset.get(doc)
        if codes is None:
            codes = self.first_subset[doc] = _FirstSubset()
        self.last_document = (weakref.ref(doc), codes)
        return codes

    def splitString(self, text, doc, encoding="utf-8"):
        if not isinstance(text, str) or not text:
            return super().splitString(text, doc, encoding)
        codes = self.codes_for(doc)
        try:
            return [(0, text.translate(codes).encode("latin-1"))]
        except _Unknown:
            chunks = super().splitString(text, doc, encoding)
        if sum(len(data) for _subset, data in chunks) == len(text):  # a byte a character
            start = 0
            for subset, data in chunks:
                if subset == 0:
                    codes.update(zip(map(ord, text[start:start + len(data)]), map(chr, data),
                                     strict=True))
                start += len(data)
        return chunks


@lru_cache(maxsize=1)
def fonts() -> FontSet:
    """Register the fonts once: DejaVu where the machine has it, else ReportLab's Vera."""
    dejavu = {
        REGULAR: _find("DejaVuSans.ttf"),
        BOLD: _find("DejaVuSans-Bold.ttf"),
        CONDENSED: _find("DejaVuSansCondensed.ttf"),
        CONDENSED_BOLD: _find("DejaVuSansCondensed-Bold.ttf"),
    }
    regular, bold = dejavu[REGULAR], dejavu[BOLD]
    if regular and bold:
        files = {REGULAR: regular, BOLD: bold, CONDENSED: dejavu[CONDENSED] or regular,
                 CONDENSED_BOLD: dejavu[CONDENSED_BOLD] or bold}
        for name, path in files.items():
            pdfmetrics.registerFont(Font(name, path))
        return FontSet("DejaVu", True)
    vera = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", CONDENSED: "Vera.ttf",
            CONDENSED_BOLD: "VeraBd.ttf"}
    for name, file in vera.items():
        pdfmetrics.registerFont(Font(name, file))
    return FontSet("Vera", False)


def printable(text: str) -> str:
    """Return text the registered fonts can draw (Vera has no narrow no-break space)."""
    if not fonts().has_narrow_space:
        text = text.replace(NNBSP, NBSP)
    return text


@lru_cache(maxsize=8)
def _drawable(font: str) -> frozenset[str]:
    fonts()
    found = pdfmetrics.getFont(font)
    glyphs = found.face.charToGlyph if isinstance(found, TTFont) else {}
    return frozenset(map(chr, glyphs)) | {"\n", "\t"}


# The text caches are small: a print fits each text once (while drawing it); they serve
# repeated labels, and the admin's checks of the same cards again and again.
TEXT_CACHE = 1024


@lru_cache(maxsize=TEXT_CACHE)
def missing_glyphs(text: str, font: str = REGULAR) -> tuple[str, ...]:
    """Return the characters of `text` the font cannot draw, each once, in order."""
    return missing_glyphs_of(text, font)


def missing_glyphs_of(text: str, font: str = REGULAR) -> tuple[str, ...]:
    """`missing_glyphs` without its cache, for callers that cache the whole fit."""
    text = printable(text)
    drawable = _drawable(font)
    if drawable.issuperset(text):
        return ()
    missing = set(text) - drawable
    return tuple(dict.fromkeys(char for char in text if char in missing))


def escape(text: str) -> str:
    """Escape user text for ReportLab's paragraph markup: `<b>` prints as `<b>`."""
    return _xml_escape(text, {'"': "&quot;"})


# --- French typography ---------------------------------------------------------------------

# French typography lives in cms.typography: the player's pages set text the same way.


@lru_cache(maxsize=TEXT_CACHE)
def french(text: str) -> str:
    """Apply French typography: spaces before ; : ! ?, inside « », and ’."""
    return french_of(text)


def french_of(text: str) -> str:
    """`french` without its cache, for callers that cache the whole fit."""
    return printable(french_spacing(text))


def amount(euros: int) -> str:
    """Return a sum of money the French way: 1 000 000 €."""
    return printable(f"{euros:,}".replace(",", NNBSP) + NBSP + "€")


# --- fitting -------------------------------------------------------------------------------


class Fitted(NamedTuple):
    """Text wrapped into lines at one font size.

    A named tuple rather than a frozen dataclass: a print makes one for every text it fits.
    """

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


# Word widths at 1 pt, by font: French text repeats its words, so most are measured once.
# A font's cache holds a large print's words: 10 000 cards of varied text use some 65 000
# distinct words, and a smaller cache, emptied when full, measured every word again. At
# most about 12 MB a font.
WORD_CACHE = 100_000
_word_widths: dict[str, dict[str, float]] = {}


@lru_cache(maxsize=16)
def _unit_width(font: str):
    """Return a function giving a word's width at 1 pt in `font`, remembering words."""
    fonts()
    known = _word_widths.setdefault(font, {})
    measure = pdfmetrics.getFont(font).stringWidth

    def unit_width(word: str) -> float:
        try:
            return known[word]
        except KeyError:
            if len(known) >= WORD_CACHE:
                known.clear()
            value = known[word] = measure(word, 1.0)
            return value

    return unit_width


def wrap(text: str, font: str, size: float, max_width: float) -> list[str] | None:
    """Break text into lines no wider than `max_width` pt; None if a word is too wide."""
    limit = max_width / size  # widths scale with the size: compare them at 1 pt
    # A whole text is measured once, not kept among the words: it would push them out.
    if "\n" not in text and pdfmetrics.getFont(font).stringWidth(text, 1.0) <= limit:
        return [text]  # one line: no need to measure word by word
    return _wrap_words(text, font, limit)


def _wrap_words(text: str, font: str, limit: float) -> list[str] | None:
    """`wrap` word by word, `limit` being the width at 1 pt."""
    unit_width = _unit_width(font)
    lines: list[str] = []
    space = unit_width(" ")
    for paragraph in text.split("\n"):
        line: list[str] = []
        line_width = 0.0
        for word in paragraph.split(" "):
            if not word:
                continue
            word_width = unit_width(word)
            if word_width > limit:
                return None
            if line and line_width + space + word_width > limit:
                lines.append(" ".join(line))
                line, line_width = [word], word_width
            else:
                line_width = line_width + space + word_width if line else word_width
                line.append(word)
        lines.append(" ".join(line))
    return lines


@lru_cache(maxsize=TEXT_CACHE)
def fit(text: str, font: str, max_size: float, box_w: float, box_h: float,
        min_size: float = MIN_SIZE, max_lines: int = 0) -> Fitted | None:
    """Return the text at the largest size from `max_size` down to `min_size` that fits.

    Sizes step down by half a point. None when even `min_size` does not fit: the caller
    reports it, it never cuts the text.
    """
    return fit_of(text, font, max_size, box_w, box_h, min_size, max_lines)


def fit_of(text: str, font: str, max_size: float, box_w: float, box_h: float,
           min_size: float = MIN_SIZE, max_lines: int = 0) -> Fitted | None:
    """`fit` without its cache, for callers that cache the whole fit."""
    fonts()
    # A size scaled down for a small card never starts below what is still readable.
    size = max(max_size, min_size)
    # The whole text is measured once, for every size: `wrap`'s first question.
    whole = (pdfmetrics.getFont(font).stringWidth(text, 1.0) if "\n" not in text
             else math.inf)
    # Most propositions and answers hold on one line at the first size.
    if size <= box_h + 1e-6 and whole <= box_w / size:
        return Fitted((text,), font, size, size * LEADING)
    while size >= min_size - 1e-9:
        limit = box_w / size
        lines = [text] if whole <= limit else _wrap_words(text, font, limit)
        if lines is not None:
            leading = size * LEADING
            # The last line needs only the font size, not a full leading.
            height = leading * (len(lines) - 1) + size
            if height <= box_h + 1e-6 and (not max_lines or len(lines) <= max_lines):
                return Fitted(tuple(lines), font, size, leading)
        size -= 0.5
    return None
