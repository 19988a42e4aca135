"""Judge a free answer leniently and predictably: the same answer always gets the same verdict.

Case, accents, a leading article, punctuation and spacing never matter; a small typo does
not either (one letter wrong, missing, extra or two swapped in an answer of five letters
or more; two from nine letters), but digits must match exactly: 1814 is not 1815.
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
    said = normalise(given)
    if not said:
        return Verdict(False)
    for accepted in (answer, *variants):
        target = normalise(accepted)
        if not target:
            continue
        if said == target:
            return Verdict(True, accepted)
        if _digits(said) != _digits(target):
            continue
        if OSA.distance(said, target) <= typos_allowed(len(target)):
            return Verdict(True, accepted)
    return Verdict(False)


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())
