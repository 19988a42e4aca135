"""Printable products of Tout le monde veut prendre sa place.

Three card decks the Champion reads from (Les Qualifs, La Compet’, Le Défi), the two
answer sheets, the board with its Qualifs and Compet’ tracks, the red armchair and the
pawns. Every number (points per format, Compet’ slots, Super Cash pool, starting squares)
comes from the registry, cms.games.prendre_sa_place.

On every card the right proposition is printed in bold, as the rules ask; the wrong
proposition the Champion offers with it in DUO (the first wrong one) has a « DUO » pill
after it, and the free answer for CASH follows, with the variants it accepts. Nothing on
these products prints under 6.5 pt (printing.text.MIN_SIZE), and the cards keep their
text inside the pen's safe zone, however the core shapes it.

Submodules:

- `look`: the game's colours and marks: its orange (`COLOUR`), a colour per format,
  pills, tags, the legend of the formats, the header bands, the red armchair;
- `questions`: what a card prints, read from the database once;
- `card_layout`: where a card's questions, propositions and answers go, at the largest
  text size that fits (the flow and the grid come from printing.layout.flow);
- `cards`: the card faces and the three decks, Les Qualifs, La Compet’ and Le Défi;
- `sheets`: the Compet’ and Défi answer sheets (their tables from printing.layout.tables);
- `board`: the board with the Qualifs and Compet’ tracks;
- `markers`: the armchair and the pawns that fold to stand on the table.
"""

from __future__ import annotations

from .board import BOARD
from .cards import COMPET_CARDS, DEFI_CARDS, QUALIFS_CARDS
from .look import COLOUR
from .markers import ARMCHAIR, PAWNS
from .questions import question_card
from .sheets import COMPET_SHEET, DEFI_SHEET

GAME = "prendre-sa-place"

PRODUCTS = (QUALIFS_CARDS, COMPET_CARDS, DEFI_CARDS, COMPET_SHEET, DEFI_SHEET, BOARD, ARMCHAIR,
            PAWNS)

__all__ = ["ARMCHAIR", "BOARD", "COLOUR", "COMPET_CARDS", "COMPET_SHEET", "DEFI_CARDS",
           "DEFI_SHEET", "GAME", "PAWNS", "PRODUCTS", "QUALIFS_CARDS", "question_card"]
