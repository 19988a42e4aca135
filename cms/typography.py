"""French typography for any text shown to people: printed, or on a player's screen.

Pure string rules, no fonts: printing adds what its fonts need (printing.text.printable).
"""

from __future__ import annotations

import re

NNBSP = "\u202f"  # narrow no-break space: before ; ! ?, inside « », between digit groups
NBSP = "\u00a0"  # no-break space: before ":" and a unit such as €

# Any space on a line (not a line break): a typed space, a tab, a no-break or a thin one.
_SPACE = r"[^\S\r\n]"
_SPACE_BEFORE = re.compile(_SPACE + r"*([;!?])")
# Runs of ; ! ?: without entities to mind, the first of a run after a word gets the space.
_PUNCTUATION = re.compile(r"[;!?]+")
_DIGIT_SPACE = re.compile(r"\d \d")
# A colon that ends a word and is followed by a space: not 12:30, 3:2 or https://.
_COLON = re.compile(r"(?<=\S)" + _SPACE + r"*:(?=\s|$)|(?<=\s):")
_OPEN_GUILLEMET = re.compile(r"«" + _SPACE + r"*")
_CLOSE_GUILLEMET = re.compile(_SPACE + r"*»")
# Only quotes that open after a space and close before one: `src="x"` is not a quotation.
_QUOTED = re.compile(r"(?<![^\s(])\"([^\"\n]+)\"(?=[\s.,;:!?)]|$)")
_ENTITY_BEFORE = re.compile(r"&#?\w+$")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
# Several spaces in a row, or a tab: one space is enough.
_SPACES = re.compile(_SPACE + r"{2,}|\t")
_NO_BREAK = frozenset("\u00a0\u202f\u2007")
_ODD_SPACES = frozenset("\t\u00a0\u202f\u2007\u2009")
# « n° 2 »: the number stays with its sign, a no-break space between them.
_NUMERO = re.compile(r"(?<![^\W\d_])([nN]°)" + _SPACE + r"*(?=\d)")
# Numbers written 1 000 000 keep their groups together.
_DIGIT_GROUPS = re.compile(r"(?<=\d) (?=\d{3}\b)")
# An address is left as it is written: "?" and ":" in it are not French punctuation.
_ADDRESS = re.compile(r"(?:https?://|www\.)[^\s«»\"]*[^\s«»\".,;:!?)]")
_MASK = 0xE000  # private-use characters stand for the addresses while the rules run


# Text with none of these needs no typography: most propositions and answers.
_TYPOGRAPHY_CHARS = frozenset(";:!?«»\"'°\t\u00a0\u202f\u2009")


def _needs_typography(text: str) -> bool:
    return (not _TYPOGRAPHY_CHARS.isdisjoint(text) or "  " in text
            or _DIGIT_SPACE.search(text) is not None)


def _one_space(match: re.Match) -> str:
    return NBSP if not _NO_BREAK.isdisjoint(match.group()) else " "


def _space_before_punctuation(text: str) -> str:
    """Put a narrow no-break space (for any spaces) between a word and the ; ! ? after it.

    Only after a word: nothing goes inside brackets, "(?)" stays as it is, and "?!" stays
    together. Most text has one such run, at its end: found with one search, not a
    pattern tried at every character.
    """
    parts: list[str] = []
    done = 0
    for run in _PUNCTUATION.finditer(text):
        end = run.start()  # where the word before it ends, once its spaces are skipped
        while end > 0 and text[end - 1].isspace() and text[end - 1] not in "\r\n":
            end -= 1
        before = text[end - 1] if end else ""
        if not before or before.isspace() or before in ";!?([":
            continue
        parts += (text[done:end], NNBSP)
        done = run.start()
    return "".join((*parts, text[done:])) if parts else text


def french_spacing(text: str) -> str:
    """Apply French typography: spaces before ; : ! ?, inside « », after n°, and ’.

    A no-break space (U+00A0) before ":", a narrow one (U+202F) before ; ! ? and inside
    « », as the Imprimerie nationale sets them; digit groups keep their narrow spaces.
    """
    if not _needs_typography(text):
        return text.strip()
    text = text.strip()
    addresses: list[str] = []
    if "://" in text or "www." in text:
        def hide(match: re.Match) -> str:
            addresses.append(match.group())
            return chr(_MASK + len(addresses) - 1)

        text = _ADDRESS.sub(hide, text)
    if "  " in text or not _ODD_SPACES.isdisjoint(text):
        text = _SPACES.sub(_one_space, text)
    # Each rule runs only when its character is there: most text needs one or two.
    if "'" in text:
        text = _APOSTROPHE.sub("\u2019", text)
    if '"' in text:
        text = _QUOTED.sub(lambda m: f"«{m.group(1).strip()}»", text)
    if "«" in text or "»" in text:
        text = _OPEN_GUILLEMET.sub("«" + NNBSP, text)
        text = _CLOSE_GUILLEMET.sub(NNBSP + "»", text)

    def before(match):
        start = match.start()
        # "?!" or "!!" stay together; the first of a run gets the space.
        if start > 0 and text[start - 1] in ";!?([":
            return match.group(1)
        if start == 0 or _ENTITY_BEFORE.search(text, 0, start):
            return match.group(1)  # "&amp;" is not French punctuation
        return NNBSP + match.group(1)

    if "&" in text:
        text = _SPACE_BEFORE.sub(before, text)
    elif ";" in text or "!" in text or "?" in text:
        text = _space_before_punctuation(text)
    if ":" in text:
        text = _COLON.sub(NBSP + ":", text)
    if _DIGIT_SPACE.search(text):
        text = _DIGIT_GROUPS.sub(NNBSP, text)
    if "°" in text:
        text = _NUMERO.sub(r"\1" + NBSP, text)
    for index, address in enumerate(addresses):
        text = text.replace(chr(_MASK + index), address)
    return text


def typeset(text: str) -> str:
    """Return text as it is stored: French typography line by line, ends trimmed.

    What print and the player apply when they show text, applied once on save, so that the
    admin and the exports show it too. Running it again changes nothing.
    """
    if not text:
        return text or ""
    lines = [french_spacing(line) for line in text.split("\n")]
    return "\n".join(lines).strip()
