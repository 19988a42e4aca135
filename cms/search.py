"""Search that forgives accents, case, apostrophes and ligatures: « d'Arc » finds « d’Arc ».

Questions and cards keep a folded copy of what an editor searches them by (`search_text`),
written by cms.services with every write; a typed term is folded the same way, and each of
its words must be found. Folding: lower case, no accents, œ as oe, every punctuation mark
(apostrophes, hyphens, guillemets…) as a space, digit groups joined (« 1 000 » is 1000).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from django.db import connection
from django.db.models import Q

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ħ": "h"})
_NOT_WORD = re.compile(r"[\W_]+")
_DIGIT_GROUP = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")
# A "quoted phrase" (straight or French quotes) or a word: an apostrophe quotes nothing.
_BIT = re.compile(r"[\"“«]([^\"”»]+)[\"”»]?|(\S+)")


def fold(text: str) -> str:
    """Return text as search compares it: « L’Œuvre d’Éluard ! » -> « l oeuvre d eluard »."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_LIGATURES)
    text = " ".join(_NOT_WORD.sub(" ", text).split())
    return _DIGIT_GROUP.sub("", text)


def words(term: str) -> list[str]:
    """Return what a typed search asks for: each word folded, or a "quoted phrase" whole."""
    found = []
    for match in _BIT.finditer(term or ""):
        folded = fold(match.group(1) or match.group(2))
        if folded:
            found.append(folded)
    return found


def joined(parts: Iterable[str]) -> str:
    """Return the search text of several texts: folded, one space apart."""
    return " ".join(f for f in (fold(p) for p in parts if p) if f)


def matching(queryset, term: str, *, live_columns: Iterable[str] = ()):
    """Return the rows of queryset whose search text holds every word of the term.

    On PostgreSQL a word is also looked for, through `unaccent`, in `live_columns` (the
    row's own text): a row written by a path that did not refresh its search text (SQL, a
    dump restored from older code) is still found by its text.
    """
    for word in words(term):
        condition = Q(search_text__contains=word)
        if connection.vendor == "postgresql":
            for column in live_columns:
                condition |= Q(**{f"{column}__unaccent__icontains": word})
        queryset = queryset.filter(condition)
    return queryset


def question_search_text(question, propositions: Iterable[str], pending: dict | None) -> str:
    """Return what a question is found by: its texts, propositions, theme and ref, and those
    of the correction waiting beside it (an editor searches what the admin shows them)."""
    parts = [question.ref, question.text, question.answer, question.variants, question.theme,
             *propositions]
    if pending:
        parts += [pending.get(name) or "" for name in ("text", "answer", "variants", "theme")]
        parts += [row.get("text") or "" for row in pending.get("propositions") or []]
    return joined(dict.fromkeys(parts))


def card_search_text(card, questions: Iterable[str], pending: dict | None,
                     pending_questions: Iterable[str] = ()) -> str:
    """Return what a card is found by: its title, ref and the texts of its questions (and
    those of the correction waiting beside it)."""
    parts = [card.ref, card.title, *questions]
    if pending:
        parts += [pending.get("title") or "", *pending_questions]
    return joined(dict.fromkeys(parts))
