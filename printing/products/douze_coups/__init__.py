"""Printable products of Les 12 Coups de Midi: the box's cards, fiches, cover and parts.

- `look`: the game's colours, a card's header band, ticks and backs;
- `printed`: what a card or fiche prints, read from the content (the select stage);
- `questions`: a numbered question over its row of propositions (the hidden one tagged);
- `fatal`: the coup fatal's ten questions, their answers and accepted variants;
- `cards`: the content cards (coups d'envoi, duels, coups fatals, coups de maître);
- `fiches`: coup par coup and étoile mystérieuse, the pictures' checks and `SENTENCES`;
- `components`: the fiche cache, the tableau révélateur, banknotes, desk stars, tokens;
- `rules`: the rules summary.

The rows a card's questions are cut into come from `printing.layout.rows`.
"""

from __future__ import annotations

from .cards import COUPS_D_ENVOI, COUPS_DE_MAITRE, COUPS_FATALS, DUELS
from .components import BILLETS, ETOILES_PUPITRE, FICHE_CACHE, JETONS_ETOILE, TABLEAU_REVELATEUR
from .fiches import (
    AREAS,
    COUPS_PAR_COUP,
    ETOILES,
    FICHE_SIZE,
    SENTENCES,
    etoile_panels,
    fiche_areas,
)
from .look import BACK_FRAME, COLOUR
from .printed import printed_card
from .rules import REGLES

GAME = "douze-coups"

# In the order a maker prints them: the rounds' content, then the box's parts, the rules.
PRODUCTS = (COUPS_D_ENVOI, DUELS, COUPS_FATALS, COUPS_DE_MAITRE, COUPS_PAR_COUP, ETOILES,
            TABLEAU_REVELATEUR, FICHE_CACHE, BILLETS, ETOILES_PUPITRE, JETONS_ETOILE, REGLES)

# The tableau révélateur's flaps over the étoile's picture: the editor's overlay draws them.
IMAGE_PANELS = {ETOILES.kind: etoile_panels}

__all__ = ["AREAS", "BACK_FRAME", "COLOUR", "FICHE_SIZE", "GAME", "IMAGE_PANELS", "PRODUCTS",
           "SENTENCES", "etoile_panels", "fiche_areas", "printed_card"]
