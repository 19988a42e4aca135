"""Les 12 Coups de Midi: 2 to 4 players, four rounds and a mystery star."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .spec import (
    ORDER_STRICTLY_INCREASING,
    PALETTE,
    UNIT_FICHE,
    ContentKind,
    GameSpec,
    Players,
    SpecError,
)

# Duel pairs share a colour; the name is stored, the hex is what printing uses.
DUEL_COLOURS = {name: PALETTE[name] for name in (
    "rouge", "bleu", "vert", "jaune", "violet", "orange", "rose", "turquoise")}

# Who faces whom in the coup fatal, by the number of players left.
PAIRING_ONE_DUEL = "one-duel"  # 2 players: one face-à-face
PAIRING_RICHEST_THEN_WINNER = "richest-then-winner"  # 3: the two richest, then winner v. third
PAIRING_POOREST_PICKS = "poorest-picks"  # 4: the poorest picks an opponent, the others face


@dataclass(frozen=True)
class DouzeCoupsRules:
    """The numbers of Les 12 Coups de Midi."""

    start_money: int = field(metadata={"label": _("Argent de départ de chaque joueur")})
    start_notes: tuple[int, ...] = field(
        metadata={"label": _("Billets de départ de chaque joueur")})
    # paid between provoker and provoked
    duel_stake: int = field(metadata={"label": _("Enjeu d’un duel")})
    # paid by the one whose clock runs out
    face_a_face_stake: int = field(metadata={"label": _("Enjeu du face-à-face")})
    # each player's clock in the coup fatal
    face_a_face_seconds: int = field(
        metadata={"label": _("Temps de chaque joueur au face-à-face (secondes)")})
    # by the number of players
    face_a_face_pairings: Mapping[int, str] = field(
        metadata={"label": _("Face-à-face selon le nombre de joueurs")})
    coup_de_maitre_questions: int = field(metadata={"label": _("Questions du coup de maître")})
    # from the bank, for each right answer
    coup_de_maitre_gain: int = field(
        metadata={"label": _("Gain par bonne réponse au coup de maître")})
    etoile_jackpot: int = field(metadata={"label": _("Cagnotte de l’étoile mystérieuse")})
    # green → orange → red
    errors_before_duel: int = field(metadata={"label": _("Erreurs avant le duel")})
    # opened by a right answer in the coup de maître
    large_panels: int = field(metadata={"label": _("Grands panneaux de l’étoile")})
    # opened by a wrong one
    small_panels: int = field(metadata={"label": _("Petits panneaux de l’étoile")})
    # share of the image's width the large panels take (left)
    large_panel_width: float = field(
        metadata={"label": _("Part de l’image sous les grands panneaux")})
    # value → count in the box
    banknotes: Mapping[int, int] = field(
        metadata={"label": _("Billets de la boîte (valeur : nombre)")})
    duel_colours: Mapping[str, str] = field(metadata={"label": _("Couleurs des duels")})

    def __post_init__(self):
        if sum(self.start_notes) != self.start_money:
            raise SpecError("douze-coups: the starting notes must make the starting money")
        if self.large_panels != self.small_panels:
            raise SpecError("douze-coups: each large panel sits beside a small one")
        if not 0 < self.large_panel_width < 1:
            raise SpecError("douze-coups: the large panels take part of the image's width")


RULES = DouzeCoupsRules(
    start_money=10_000,
    start_notes=(5_000, 2_000, 2_000, 1_000),
    duel_stake=3_000,
    face_a_face_stake=3_000,
    face_a_face_seconds=60,
    face_a_face_pairings={2: PAIRING_ONE_DUEL, 3: PAIRING_RICHEST_THEN_WINNER,
                          4: PAIRING_POOREST_PICKS},
    coup_de_maitre_questions=5,
    coup_de_maitre_gain=3_000,
    etoile_jackpot=10_000,
    errors_before_duel=2,
    large_panels=7,
    small_panels=7,
    large_panel_width=0.7,
    banknotes={10_000: 1, 5_000: 4, 2_000: 15, 1_000: 10},
    duel_colours=DUEL_COLOURS,
)

SPEC = GameSpec(
    slug="douze-coups",
    order=1,
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
            pair_colours=tuple(DUEL_COLOURS),
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
    rules=RULES,
    labels={
        PAIRING_ONE_DUEL: _("un seul face-à-face"),
        PAIRING_RICHEST_THEN_WINNER: _("les deux plus riches, puis le gagnant contre le "
                                       "troisième"),
        PAIRING_POOREST_PICKS: _("le moins riche choisit son adversaire, les deux autres "
                                 "s’affrontent"),
    },
    summary=_("Quatre manches, deux duels et l’étoile mystérieuse : le plus riche devient "
              "Maître de Midi."),
)
