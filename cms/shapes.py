"""What a content kind's form holds, read from the registry: fields, rows, presets.

The question form and the card composer show only what a kind has (no step where there is
no ladder, no image unless the kind needs one…) and exactly its proposition rows. The rules
themselves stay in cms.validation; this says what to offer, and what a form ignores.
"""

from __future__ import annotations

from .games import game_of
from .games.spec import (
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    ORDER_BY_SLOT_FORMAT,
    ORDER_STRICTLY_INCREASING,
    ContentKind,
)

# A question's fields that only some kinds have, with the test a kind passes to have it.
OPTIONAL_FIELDS = {
    "step": lambda kind: kind.ladder,
    "answer": lambda kind: kind.free_answer,
    "variants": lambda kind: kind.free_answer,
    "image": lambda kind: kind.needs_image,
}
# Read-only fields shown with an optional one.
SHOWN_WITH = {"image_preview": "image"}


def question_fields(kind: ContentKind) -> set[str]:
    """Return the optional question fields this kind has."""
    return {name for name, has in OPTIONAL_FIELDS.items() if has(kind)}


def fields_without(kind: ContentKind) -> set[str]:
    """Return the question fields (read-only ones included) a form of this kind leaves out."""
    missing = set(OPTIONAL_FIELDS) - question_fields(kind)
    return missing | {shown for shown, field in SHOWN_WITH.items() if field in missing}


def blank_value(name: str):
    """Return what a field the kind does not have is saved as."""
    return None if name == "step" else ""


def lacking(kind: ContentKind) -> list[str]:
    """Return the optional question fields this kind does not have, in a fixed order."""
    return sorted(set(OPTIONAL_FIELDS) - question_fields(kind))


def shaped(data: dict, kind: ContentKind) -> dict:
    """Return a question's data with the fields `kind` does not have emptied."""
    return {**data, **{name: blank_value(name) for name in lacking(kind)}}


def hidden_presets(kind: ContentKind) -> list[bool]:
    """Return which proposition rows start hidden: the last ones, as many as the kind hides."""
    return [n >= kind.propositions - kind.hidden for n in range(kind.propositions)]


def right_presets(kind: ContentKind) -> list[bool]:
    """Return which rows start right: all of them when only one is wrong (one intruder)."""
    every = kind.propositions - kind.right == 1 and kind.right > 1
    return [every] * kind.propositions


def default_difficulties(kind: ContentKind) -> list[int | None]:
    """Return a difficulty per slot that keeps the kind's order rule, None where none is set.

    Strictly increasing: spread from the easiest to the hardest. By slot format: each
    format a step harder than the one before it; slots of no format (a pool) the hardest.
    """
    count = kind.questions_per_card
    span = DIFFICULTY_MAX - DIFFICULTY_MIN
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING and count > 1:
        return [DIFFICULTY_MIN + round(n * span / (count - 1)) for n in range(count)]
    if kind.difficulty_order == ORDER_BY_SLOT_FORMAT:
        formats = [slug for slug in game_of(kind.slug).answer_formats if slug in kind.slot_formats]
        start = max(DIFFICULTY_MIN, DIFFICULTY_MAX - len(formats))
        rank = {slug: start + n for n, slug in enumerate(formats)}
        return [rank.get(slug, DIFFICULTY_MAX) for slug in kind.slot_formats]
    return [None] * count


def slot_labels(kind: ContentKind) -> list[str]:
    """Return each slot's answer format label (DUO, CARRÉ…), or "" where it has none."""
    formats = game_of(kind.slug).answer_formats
    return [str(formats[slug].label) if slug in formats else "" for slug in kind.slot_formats] or (
        [""] * kind.questions_per_card)


def kind_shape(kind: ContentKind) -> dict:
    """Return, as plain data for the page's scripts, how a form of this kind is shaped."""
    return {
        "propositions": kind.propositions,
        "right": kind.right if kind.propositions else 0,
        "hidden": kind.hidden,
        "hidden_presets": hidden_presets(kind),
        "right_presets": right_presets(kind),
        "fields": sorted(question_fields(kind)),
        "without": sorted(fields_without(kind)),
        "is_card": kind.is_card,
        "paired": kind.paired,
        "questions_per_card": kind.questions_per_card,
        "difficulties": default_difficulties(kind),
        "slot_labels": slot_labels(kind),
    }
