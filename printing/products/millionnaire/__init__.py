"""Printable products of Qui veut gagner des millions ?.

- `look`: the game's navy, the show's lozenge, the players' seats and colours;
- `cards`: the question cards (the right answer behind each question) and the answer
  cards A, B, C, D;
- `jokers`: the round joker tokens, turned over once used;
- `sheets`: the game master's score pad and the prize ladder poster;
- `holder`: the porte-carte, to cut, fold and glue.
"""

from __future__ import annotations

from .cards import ANSWER_CARDS, QUESTION_CARDS, answer_cards
from .holder import CARD_HOLDER
from .jokers import JOKER_TOKENS, joker_tokens
from .look import COLOUR, LETTERS, TABLE_SIZE
from .sheets import ANSWER_PAD, LADDER_POSTER, answer_pad, fallback_bands

GAME = "millionnaire"
PRODUCTS = (QUESTION_CARDS, ANSWER_CARDS, JOKER_TOKENS, ANSWER_PAD, LADDER_POSTER,
            CARD_HOLDER)

__all__ = ["ANSWER_CARDS", "ANSWER_PAD", "CARD_HOLDER", "COLOUR", "GAME", "JOKER_TOKENS",
           "LADDER_POSTER", "LETTERS", "PRODUCTS", "QUESTION_CARDS", "TABLE_SIZE",
           "answer_cards", "answer_pad", "fallback_bands", "joker_tokens"]
