"""Qui veut gagner des millions ?: a 15-step prize ladder, three safe levels, three jokers."""

from django.utils.translation import gettext_lazy as _

from .spec import UNIT_QUESTION, ContentKind, GameSpec, LadderStep, Players

AMOUNTS = (200, 300, 500, 800, 1_500, 3_000, 6_000, 12_000, 24_000, 48_000,
           72_000, 100_000, 150_000, 300_000, 1_000_000)
SAFE_STEPS = (5, 10, 15)


def _band(step: int) -> tuple[int, int]:
    if step <= 5:
        return (1, 2)
    if step <= 10:
        return (2, 4)
    return (4, 5)


LADDER = tuple(
    LadderStep(number=n, amount=amount, safe=n in SAFE_STEPS, difficulty_band=_band(n))
    for n, amount in enumerate(AMOUNTS, start=1)
)

JOKERS = {
    "cinquante": _("50:50"),
    "public": _("Vote du public"),
    "ami": _("Coup de fil à un ami"),
}

SPEC = GameSpec(
    slug="millionnaire",
    name="Qui veut gagner des millions ?",
    # No maximum in the rules; decks are counted for a table of four (one round each).
    players=Players(minimum=2, maximum=None, coverage=4),
    kinds=(
        ContentKind(
            slug="echelle",
            label=_("Question de l’échelle"),
            label_plural=_("Questions de l’échelle"),
            unit=UNIT_QUESTION,
            propositions=4,
            right=1,
            ladder=True,
            # Per step: every player is game master for one round.
            full_game=4,
        ),
    ),
    ladder=LADDER,
    scoring={
        "jokers": JOKERS,
        "two_player_tries": {"public": 3, "ami": 2},
    },
    summary=_("Quinze questions vers le million, trois paliers, trois jokers."),
)

