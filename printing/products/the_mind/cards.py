"""The Mind's cards: the numbers 1 to 100, the levels, the lives and the shurikens."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cms.games.the_mind import LIFE, RULES, SHURIKEN, SPEC

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD, NBSP, REGULAR
from ...units import MM_PER_POINT, to_mm, to_points
from ..base import Deck
from ..style import GOLD, ink_box, line_height, scale
from .look import (
    COLOUR,
    HIGHEST,
    LIFE_RED,
    LOWEST,
    SHURIKEN_BLUE,
    card_back,
    colour_for,
    frame,
    heart,
    lighter,
    shuriken,
    text_size,
    width_mm,
)

# Digits that still read as a digit once the card is turned upside down.
UPSIDE_DOWN_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}

DIGIT_HEIGHT = 0.74  # a digit's height in the bold font, round tops included, in em
CORNER_AIR = 1.5  # mm between a corner number and the safe zone's edges


@dataclass(frozen=True)
class NumberCard:
    """One of the cards from 1 to 100."""

    value: int


@dataclass(frozen=True)
class LevelCard:
    """One level: what completing it earns and which tables play it."""

    level: int
    reward: str  # LIFE, SHURIKEN or "" for none
    players: tuple[int, ...]  # the player counts that reach this level
    last_for: tuple[int, ...]  # the player counts for which it is the final level


@dataclass(frozen=True)
class RewardCard:
    """A life or a shuriken from the reserve."""

    kind: str


def upside_down(value: int) -> int | None:
    """Return the number a card reads as when turned upside down, or None if none."""
    digits = str(value)
    if any(d not in UPSIDE_DOWN_DIGITS for d in digits):
        return None
    turned = "".join(UPSIDE_DOWN_DIGITS[d] for d in reversed(digits))
    if turned.startswith("0"):
        return None
    return int(turned)


def needs_underline(value: int) -> bool:
    """Tell whether a number reads as another card of the game once turned around."""
    turned = upside_down(value)
    return turned is not None and turned != value and LOWEST <= turned <= HIGHEST


# --- drawings ------------------------------------------------------------------------------


def number_label(pen: Pen, value: int, x: float, y: float, size: float, fill: str) -> None:
    """Draw a number centred on (x, y), underlined when it could be read upside down."""
    label = str(value)
    pen.centred(label, x, y, size=size, font=BOLD, fill=fill)
    if needs_underline(value):
        half = width_mm(label, size) / 2
        em = to_mm(size)
        baseline = y - 0.35 * em
        under = baseline - 0.12 * em
        pen.line(x - half, under, x + half, under, stroke=fill, width=0.08 * em)


def reward_icon(pen: Pen, kind: str, cx: float, cy: float, size: float) -> None:
    """Draw a level's reward on the white panel of its card."""
    if kind == LIFE:
        heart(pen, cx, cy, size, fill=LIFE_RED)
    else:
        # A star's thin points look smaller than a heart of the same width.
        shuriken(pen, cx, cy, size * 1.2, hole=WHITE)


def reward_name(kind: str) -> str:
    """Return the French word for a reward: « vie », « shuriken »."""
    return str(SPEC.labels[kind])


def in_words(counts: tuple[int, ...]) -> str:
    """Return "2, 3 ou 4" for the player counts given."""
    names = [str(n) for n in counts]
    if len(names) == 1:
        return names[0]
    return _("%(some)s ou %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


# --- number cards --------------------------------------------------------------------------


def corner_number(pen: Pen, value: int, *, turned: bool = False) -> None:
    """The small number in a corner, where a fanned hand shows it.

    Top left, or `turned` upside down in the bottom right, for a hand held either way
    round; each inside the safe zone, underline included.
    """
    size = 15 * scale(pen)
    # Digits rise 0.39 em above the point `centred` is given, on either side once turned
    # (the underline goes towards the middle); CORNER_AIR keeps them off the frame's curve.
    edge = 0.39 * size * MM_PER_POINT + CORNER_AIR
    half = width_mm(str(value), size) / 2
    safe = pen.safe
    if not turned:
        number_label(pen, value, safe.x + half + CORNER_AIR, safe.top - edge, size, WHITE)
        return
    with pen.transformed(safe.right - half - CORNER_AIR, safe.y + edge, rotate=180):
        number_label(pen, value, 0, 0, size, WHITE)


def number_front(pen: Pen, card: NumberCard) -> None:
    """The number big in the middle and small in two opposite corners."""
    colour = colour_for(card.value)
    pen.background(colour)
    frame(pen, lighter(colour, 0.45))
    cx, cy = pen.safe.centre
    pen.circle(cx, cy, pen.w * 0.36, fill=lighter(colour, 0.14))
    # Sized so the widest number, 100, fills the disc behind it.
    size = pen.w * 0.6 / width_mm(str(HIGHEST), 1)
    number_label(pen, card.value, cx, cy, size, WHITE)
    corner_number(pen, card.value)
    corner_number(pen, card.value, turned=True)


# --- level cards ---------------------------------------------------------------------------


def level_front(pen: Pen, card: LevelCard) -> None:
    """The level, the cards each player gets, its reward and the tables that play it.

    Laid out from the top of the safe zone down and from its bottom up, so a shorter
    zone (a card with its identifier at the foot) only shrinks the reward panel.
    """
    pen.background(COLOUR)
    frame(pen, GOLD)
    # The text keeps some air from the frame, above and below.
    safe = pen.safe
    h = safe.h
    safe = Rect(safe.x, safe.y + 0.03 * h, safe.w, safe.h - 0.06 * h)

    def line(value: str, top: float, points: float, *, label: str, font: str = REGULAR,
             fill: str = WHITE) -> float:
        """Write one centred line whose box starts at `top`; return the box's bottom."""
        size = text_size(pen, points)
        box = Rect(safe.x, top - line_height(size), safe.w, line_height(size))
        pen.text(value, ink_box(box, size), size=size, font=font, fill=fill, align="centre",
                 valign="middle", max_lines=1, label=label)
        return box.y

    below_title = line(_("Niveau"), safe.top, 13, font=BOLD, fill=GOLD, label=_("niveau"))
    # The big number is nearly a quarter of the card tall, but the widest must still fit.
    widest = str(RULES.level_cards)
    size = min(to_points(0.23 * h) / DIGIT_HEIGHT, safe.w * 0.8 / width_mm(widest, 1))
    digits = to_mm(DIGIT_HEIGHT * size)
    number_top = below_title - 0.03 * h
    pen.label(str(card.level), safe.x + safe.w / 2, number_top - digits, size=size,
              font=BOLD, fill=WHITE, align="centre")
    dealt = ngettext("%(n)s carte par joueur", "%(n)s cartes par joueur", card.level) % {
        "n": card.level}
    # The caption starts under the number's em box (its baseline less a quarter em), not
    # only under its ink: a PDF reader then reads it as a line of its own.
    below_dealt = line(dealt, number_top - digits - to_mm(0.26 * size), 9,
                       label=_("cartes distribuées"))

    # At the foot: the tables that play this level, then the last level of a table.
    tables = [(_("Pour %(counts)s joueurs") % {"counts": in_words(card.players)}, REGULAR,
               WHITE, _("joueurs"))]
    if card.last_for:
        last = _("Dernier niveau à %(counts)s joueurs") % {"counts": in_words(card.last_for)}
        tables.append((last, BOLD, GOLD, _("dernier niveau")))
    step = line_height(text_size(pen, 8)) + 0.01 * h
    foot = safe.y + step * len(tables)

    # Drawn before the foot, so the text reads top to bottom.
    if card.reward:
        gap = 0.04 * h
        reward_panel(pen, card.reward,
                     Rect(safe.x, foot + gap, safe.w, below_dealt - foot - 2 * gap))
    for value, font, fill, label in tables:
        line(value, foot, 8, font=font, fill=fill, label=label)
        foot -= step


def reward_panel(pen: Pen, reward: str, room: Rect) -> None:
    """A white panel in the middle of `room`: the reward's icon over its name."""
    panel_h = min(room.h, 0.28 * pen.safe.h)
    panel = Rect(room.x + room.w * 0.06, room.y + (room.h - panel_h) / 2, room.w * 0.88,
                 panel_h)
    pen.rect(panel, fill=WHITE, radius=min(panel.w, panel.h) * 0.12)
    # The label may take two lines on a mini card: it gets the lower part of the panel.
    size = text_size(pen, 8)
    caption = Rect(panel.x + 1, panel.y + 0.8, panel.w - 2, panel.h * 0.4)
    above = panel.top - caption.top
    icon = min(above * 0.8, panel.w * 0.5)
    reward_icon(pen, reward, panel.x + panel.w / 2, caption.top + above / 2, icon)
    name = reward_name(reward)
    # A no-break space keeps "1 shuriken" together when a mini card wraps the label.
    text = (_("Récompense : 1 %(reward)s") % {"reward": name}).replace(f" {name}",
                                                                      f"{NBSP}{name}")
    pen.text(text, ink_box(caption, size), size=size, font=BOLD, fill=COLOUR,
             align="centre", valign="middle", label=_("récompense"))


def level_cards() -> list[LevelCard]:
    """Return the level cards, each with its reward and the tables that play it."""
    last_levels = RULES.levels_by_players
    cards = []
    for level in range(1, RULES.level_cards + 1):
        cards.append(LevelCard(
            level=level,
            reward=RULES.rewards.get(level, ""),
            players=tuple(n for n, last in sorted(last_levels.items()) if level <= last),
            last_for=tuple(n for n, last in sorted(last_levels.items()) if level == last),
        ))
    return cards


# --- lives and shurikens -------------------------------------------------------------------


def reward_front(pen: Pen, card: RewardCard) -> None:
    """A big heart or throwing star, and its name."""
    background = LIFE_RED if card.kind == LIFE else SHURIKEN_BLUE
    pen.background(background)
    safe = pen.safe
    frame(pen, WHITE)
    cx = safe.x + safe.w / 2
    cy = safe.y + safe.h * 0.58
    icon = min(safe.w * 0.78, safe.h * 0.55)
    if card.kind == LIFE:
        heart(pen, cx, cy, icon, fill=WHITE)
    else:
        shuriken(pen, cx, cy, icon, hole=background)
    name = reward_name(card.kind).capitalize()
    size = text_size(pen, 20)
    pen.text(name, ink_box(Rect(safe.x, safe.y + safe.h * 0.08, safe.w, safe.h * 0.16), size),
             size=size, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("nom"))


NUMBER_CARDS = Deck(
    slug="nombres",
    label=gettext_lazy("Cartes nombres"),
    description=gettext_lazy("Une carte par nombre, de la plus froide à la plus chaude ; "
                             "les nombres qui se lisent aussi à l’envers sont soulignés."),
    items=lambda: [NumberCard(v) for v in range(LOWEST, HIGHEST + 1)],
    front=number_front,
    back_form=card_back,
)

LEVEL_CARDS = Deck(
    slug="niveaux",
    label=gettext_lazy("Cartes niveaux"),
    description=gettext_lazy("Une carte par niveau, avec sa récompense et les tables qui "
                             "le jouent."),
    items=level_cards,
    front=level_front,
    back_form=card_back,
)

LIFE_CARDS = Deck(
    slug="vies",
    label=gettext_lazy("Cartes vies"),
    description=gettext_lazy("Les vies de la réserve."),
    items=lambda: [RewardCard(LIFE)] * RULES.life_cards,
    front=reward_front,
    back_form=card_back,
)

SHURIKEN_CARDS = Deck(
    slug="shurikens",
    label=gettext_lazy("Cartes shurikens"),
    description=gettext_lazy("Les shurikens de la réserve."),
    items=lambda: [RewardCard(SHURIKEN)] * RULES.shuriken_cards,
    front=reward_front,
    back_form=card_back,
)
