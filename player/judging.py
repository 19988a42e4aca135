"""Judge a free answer leniently and predictably: the same answer always gets the same verdict.

Case, accents, a leading article, punctuation and spacing never matter; a small typo does
not either (one letter wrong, missing, extra or two swapped in an answer of five letters
or more; two from nine letters), but numbers must match exactly: 1814 is not 1815, and
Louis XIV is not Louis XVI (Roman numerals written in capitals in the accepted answer
count as numbers; « louis xvi » and « Louis 16 » name Louis XVI).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz.distance import OSA

ARTICLES = ("l'", "le ", "la ", "les ", "un ", "une ", "des ", "du ", "de la ", "de l'",
            "d'", "au ", "aux ", "the ", "a ", "an ")
MAX_LENGTH = 200


@dataclass(frozen=True)
class Verdict:
    right: bool
    matched: str = ""  # the accepted answer it matched


def normalise(text: str) -> str:
    """Return the comparable form of an answer: lower case, no accents, no leading article."""
    text = unicodedata.normalize("NFKD", text[:MAX_LENGTH].casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("’", "'").replace("‘", "'").replace("œ", "oe").replace("æ", "ae")
    text = " ".join(text.split())
    changed = True
    while changed:
        changed = False
        for article in ARTICLES:
            if text.startswith(article) and len(text) > len(article):
                text = text[len(article):].lstrip()
                changed = True
    text = re.sub(r"[^\w]+", " ", text).replace("_", " ")
    return " ".join(text.split())


def typos_allowed(length: int) -> int:
    """Return how many letters may be wrong in an answer this long."""
    if length < 5:
        return 0
    if length < 9:
        return 1
    return 2


def judge(given: str, answer: str, variants=()) -> Verdict:
    """Return whether `given` names `answer` or one of its accepted variants."""
    plain = normalise(given)
    if not plain:
        return Verdict(False)
    for accepted in (answer, *variants):
        target = normalise(numerals(accepted, typed=False))
        if not target:
            continue
        # A typed word is read as a numeral only against an answer that holds a number:
        # « la vie en rose » is not « la 6 en rose ».
        said = normalise(numerals(given, typed=True)) if _digits(target) else plain
        if said == target:
            return Verdict(True, accepted)
        if _digits(said) != _digits(target):
            continue
        if OSA.distance(said, target) <= typos_allowed(len(target)):
            return Verdict(True, accepted)
    return Verdict(False)


def _digits(text: str) -> list[str]:
    return re.findall(r"\d+", text)


ROMAN = re.compile(r"(M{0,3})(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
# Typed in lower case, these are French words before they are numbers.
WORDS = frozenset({"de", "le", "ce", "me", "mi", "di", "vi", "ci", "li", "dix", "mix", "lc",
                   "cd", "cm", "mm", "dm", "mdi", "ive", "mme", "vie", "mie", "cie", "die"})
_WORD = re.compile(r"[A-Za-z]+")


def roman(letters: str) -> int | None:
    """Return the value of a Roman numeral written in capitals (« XVI »), or None."""
    if not letters or not ROMAN.fullmatch(letters):
        return None
    total = 0
    for letter, after in zip(letters, [*letters[1:], ""], strict=True):
        value = ROMAN_VALUES[letter]
        total += -value if after and ROMAN_VALUES[after] > value else value
    return total


def _numeral_forms(word: str) -> list[str]:
    """Return the ways a word may write a numeral: « XVI », « Ier » (1er), « XVIe » (16e)."""
    forms = [word]
    lower = word.lower()
    if lower in ("ier", "ire"):
        forms.append(word[:1])
    elif lower.endswith("e") and len(word) > 2:  # « IIe », not « Le »
        forms.append(word[:-1])
    return forms


def numerals(text: str, *, typed: bool) -> str:
    """Return the text with its Roman numerals written as digits: « Louis XVI » → « Louis 16 ».

    In an accepted answer only capitals are a numeral (« Henri IV », « Napoléon Ier »); in
    what a player typed, a word that reads as one is (« henri iv »), bar common words.
    """
    def replace(match: re.Match) -> str:
        word = match.group()
        if typed and word.lower() in WORDS:
            return word
        for letters in _numeral_forms(word):
            value = roman(letters.upper()) if typed else (
                roman(letters) if letters.isupper() else None)
            if value is not None:
                return str(value)
        return word

    return _WORD.sub(replace, text[:MAX_LENGTH])
