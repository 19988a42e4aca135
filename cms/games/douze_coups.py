"""Les 12 Coups de Midi: 2 to 4 players, four rounds and a mystery star."""

from django.utils.translation import gettext_lazy as _

from .spec import (
    ORDER_STRICTLY_INCREASING,
    PALETTE,
    UNIT_FICHE,
    ContentKind,
    GameSpec,
    Players,
)

# Duel pairs share a colour; the name is stored, the hex is what printing uses.
DUEL_COLOURS = {name: PALETTE[name] for name in (
    "rouge", "bleu", "vert", "jaune", "violet", "orange", "rose", "turquoise")}

SPEC = GameSpec(
    slug="douze-coups",
    name="Les 12 Coups de Midi",
    players=Players(minimum=2, maximum=4, coverage=4),
    kinds=(
        ContentKind(
            slug="coup-d-envoi",
            label=_("Coup d’envoi"),
            label_plural=_("Coups d’envoi"),
            questions_per_card=4,
            propositions=2,
            right=1,
            hidden=1,
            box_count=55,
            # One card a turn until a player errs twice: three turns round a table of four.
            full_game=12,
        ),
        ContentKind(
            slug="duel",
            label=_("Duel"),
            label_plural=_("Duels"),
            propositions=4,
            right=1,
            paired=True,
            box_count=30,
            # One pair drawn at set-up serves both duels.
            full_game=2,
        ),
        ContentKind(
            slug="coup-par-coup",
            label=_("Coup par coup"),
            label_plural=_("Coups par coup"),
            unit=UNIT_FICHE,
            propositions=7,
            right=6,
            box_count=38,
            full_game=8,
            help_text=_("Un énoncé et 7 propositions : 6 VRAI, 1 FAUX (l’intrus)."),
        ),
        ContentKind(
            slug="coup-fatal",
            label=_("Coup fatal"),
            label_plural=_("Coups fatals"),
            questions_per_card=10,
            free_answer=True,
            box_count=55,
            # Two face-à-face at four players, one card per player in each.
            full_game=4,
        ),
        ContentKind(
            slug="coup-de-maitre",
            label=_("Coup de maître"),
            label_plural=_("Coups de maître"),
            questions_per_card=5,
            propositions=3,
            right=1,
            hidden=1,
            difficulty_order=ORDER_STRICTLY_INCREASING,
            box_count=25,
            # Each of the five questions is read from a freshly drawn card.
            full_game=5,
        ),
        ContentKind(
            slug="etoile-mysterieuse",
            label=_("Étoile mystérieuse"),
            label_plural=_("Étoiles mystérieuses"),
            unit=UNIT_FICHE,
            free_answer=True,
            needs_image=True,
            box_count=17,
            full_game=1,
        ),
    ),
    scoring={
        "start_money": 10_000,
        "start_notes": (5_000, 2_000, 2_000, 1_000),
        "duel_stake": 3_000,
        "face_a_face_stake": 3_000,
        "coup_de_maitre_gain": 3_000,
        "etoile_jackpot": 10_000,
        "errors_before_duel": 2,
        "large_panels": 7,
        "small_panels": 7,
        "banknotes": {10_000: 1, 5_000: 4, 2_000: 15, 1_000: 10},
        "duel_colours": DUEL_COLOURS,
    },
    summary=_("Quatre manches, deux duels et l’étoile mystérieuse : le plus riche devient "
              "Maître de Midi."),
)
