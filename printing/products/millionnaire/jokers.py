"""The millionnaire's joker tokens: three round tokens a player, turned over once used."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.millionnaire import JOKERS

from ...draw import WHITE, Path, Pen
from ...sheets import Rect
from ...text import BOLD, CONDENSED_BOLD, MIN_SIZE, width
from ...units import to_mm, to_points
from ..base import Deck
from ..style import GOLD, GREY, ink_on
from .look import COLOUR, PLAYER_COLOURS, line_mm

TOKEN_SIZE = (30.0, 30.0)
STRUCK = "#b4b4b4"  # the cross over a used joker: visible, yet quieter than its name


@dataclass(frozen=True)
class JokerToken:
    """One joker of one player: a round token, flipped to « utilisé » once played."""

    player: int
    colour_name: str
    colour: str
    joker: str  # a key of cms.games.millionnaire.JOKERS
    label: str


def joker_name(label: str | Promise) -> str:
    """Return a joker's name as it wraps well: no line ends on « à » or « un », and the
    last two words stay together (« Coup de fil / à un ami »)."""
    words = str(label).split()
    joined = words[:1]
    for index, word in enumerate(words[1:], start=1):
        if len(words[index - 1]) <= 2 or index == len(words) - 1:
            joined[-1] += "\u00a0" + word
        else:
            joined.append(word)
    return " ".join(joined)


def joker_tokens() -> list[JokerToken]:
    """Return every seat's three jokers, seat by seat."""
    return [JokerToken(player, name, colour, joker, joker_name(label))
            for player, (name, colour) in enumerate(PLAYER_COLOURS, start=1)
            for joker, label in JOKERS.items()]


def joker_icon(pen: Pen, joker: str, cx: float, cy: float, size: float,
               fill: str = GOLD) -> None:
    """Draw a joker's picture centred on (cx, cy), `size` mm wide."""
    if joker == "cinquante":
        label = str(JOKERS[joker])
        pen.centred(label, cx, cy, size=to_points(size) / width(label, BOLD, 1), font=BOLD,
                    fill=fill)
    elif joker == "public":
        # The audience's vote: four bars, one well above the others.
        bar = size / 6
        for i, share in enumerate((0.35, 1.0, 0.55, 0.2)):
            x = cx - size / 2 + bar * 0.5 + i * bar * 1.4
            pen.rect(Rect(x, cy - size * 0.35, bar, size * 0.7 * share), fill=fill)
        pen.line(cx - size / 2, cy - size * 0.35, cx + size / 2, cy - size * 0.35,
                 stroke=fill, width=size * 0.04)
    else:
        # An old desk telephone: a body with its dial, the handset resting on top.
        pen.polygon([(cx - size * 0.42, cy - size * 0.4), (cx + size * 0.42, cy - size * 0.4),
                     (cx + size * 0.26, cy + size * 0.08), (cx - size * 0.26, cy + size * 0.08)],
                    fill=fill)
        pen.circle(cx, cy - size * 0.16, size * 0.13, fill=COLOUR)
        pen.circle(cx, cy - size * 0.16, size * 0.04, fill=fill)
        left, right, base = cx - size * 0.36, cx + size * 0.36, cy + size * 0.2
        handset = Path().move_to(left, base).curve_to(
            cx - size * 0.2, cy + size * 0.52, cx + size * 0.2, cy + size * 0.52, right, base)
        pen.shape(handset, stroke=fill, width=size * 0.13, cap="round")
        for x in (left, right):
            pen.rect(Rect(x - size * 0.13, base - size * 0.08, size * 0.26, size * 0.13),
                     fill=fill, radius=size * 0.04)


@dataclass(frozen=True)
class TokenLayout:
    """Where a round token's parts go: all its text inside the circle SAFE_INSET from the cut."""

    cx: float
    cy: float
    radius: float  # the coloured ring's outer edge
    inner: float  # the navy disc inside the ring
    text_radius: float  # text stays inside this circle
    seat: tuple[float, float, float]  # the player's badge: x, y, radius
    icon: tuple[float, float, float]  # the joker's picture: x, y, width
    name: Rect  # the joker's name under the picture


SEAT_SIZE = 8.0  # pt: the player's number on its badge


def token_layout(pen: Pen) -> TokenLayout:
    """Return where a token's parts go on this round face."""
    cx, cy = pen.box.centre
    radius = min(pen.w, pen.h) / 2 - 0.8
    inner = radius * 0.81
    safe = pen.safe
    text_radius = safe.w / 2  # the cut is a circle: text keeps SAFE_INSET inside it too
    badge = to_mm(SEAT_SIZE) * 0.62  # the badge's radius: its digit fills it
    seat_y = cy + text_radius - badge - 1.2
    # The name takes up to two lines just under the centre, where the circle is still wide;
    # the picture fills what is left between the name and the badge.
    name_h = line_mm(MIN_SIZE, 2) + 0.4
    name_y = max(cy - 2.6 - name_h, safe.y)
    half = math.sqrt(max(text_radius ** 2 - (cy - name_y) ** 2, 0.0))
    name = Rect(cx - half, name_y, 2 * half, name_h)
    room = seat_y - badge - name.top - 1.6
    icon_w = min(inner * 0.8, room / 0.95)
    icon_y = (name.top + seat_y - badge) / 2
    return TokenLayout(cx, cy, radius, inner, text_radius, (cx, seat_y, badge),
                       (cx, icon_y, icon_w), name)


def token_disc(pen: Pen, token: JokerToken, layout: TokenLayout, *, fill: str) -> None:
    """The player's coloured ring round a disc of `fill`, edged in gold."""
    pen.circle(layout.cx, layout.cy, layout.radius, fill=token.colour)
    pen.circle(layout.cx, layout.cy, layout.inner, fill=fill, stroke=GOLD, width=0.3)


def seat_badge(pen: Pen, token: JokerToken, layout: TokenLayout) -> None:
    """The player's number on a disc of the player's colour."""
    x, y, r = layout.seat
    pen.circle(x, y, r, fill=token.colour, stroke=WHITE, width=0.25)
    pen.centred(str(token.player), x, y, size=SEAT_SIZE, font=BOLD,
                fill=ink_on(token.colour, dark=COLOUR))


def joker_token_front(pen: Pen, token: JokerToken) -> None:
    """The joker's picture and name in a navy disc ringed with the player's colour."""
    layout = token_layout(pen)
    pen.background(WHITE)
    token_disc(pen, token, layout, fill=COLOUR)
    seat_badge(pen, token, layout)
    if token.joker == "cinquante":
        # Its name is its picture, as wide as the circle lets it.
        joker_icon(pen, token.joker, layout.cx, layout.cy - 1.0, layout.text_radius * 1.55)
        return
    x, y, icon_w = layout.icon
    joker_icon(pen, token.joker, x, y, icon_w)
    pen.text(token.label, layout.name, size=MIN_SIZE, font=CONDENSED_BOLD, fill=WHITE,
             align="centre", valign="middle", label=_("joker"))


def joker_token_back_form(pen: Pen) -> None:
    """What every token's back shares: white paper round the disc."""
    pen.background(WHITE)


def joker_token_back(pen: Pen, token: JokerToken) -> None:
    """« Utilisé » across a crossed-out disc, with the joker's name to know which one went."""
    layout = token_layout(pen)
    cx, cy, inner = layout.cx, layout.cy, layout.inner
    token_disc(pen, token, layout, fill=GREY)
    reach = inner * 0.6
    for sign in (1, -1):
        pen.line(cx - reach, cy - sign * reach, cx + reach, cy + sign * reach, stroke=STRUCK,
                 width=inner * 0.07)
    seat_badge(pen, token, layout)
    name = layout.name
    band = Rect(cx - inner, name.top + 1.4, 2 * inner, 4.6)
    pen.rect(band, fill=COLOUR)
    half = math.sqrt(layout.text_radius ** 2 - (band.top - cy) ** 2)
    pen.text(_("UTILISÉ"), Rect(cx - half, band.y, 2 * half, band.h), size=8, font=BOLD,
             fill=WHITE, align="centre", valign="middle", label=_("utilisé"))
    fitted = pen.fit(token.label, name, size=MIN_SIZE, font=CONDENSED_BOLD, label=_("joker"))
    if fitted is None:
        return
    # A pill just round the name, as the show prints a joker's caption.
    text_w = to_mm(max(width(line, fitted.font, fitted.size) for line in fitted.lines))
    text_h = line_mm(fitted.size, len(fitted.lines))
    pen.rect(Rect(cx - text_w / 2 - 1.2, name.centre[1] - text_h / 2 - 0.8, text_w + 2.4,
                  text_h + 1.6), fill=COLOUR, radius=1.2)
    pen.draw_fitted(fitted, name, align="centre", valign="middle", fill=GOLD)


JOKER_TOKENS = Deck(
    slug="jokers",
    code="JOK",
    label=gettext_lazy("Jetons jokers"),
    description=gettext_lazy(
        "Les trois jokers (50:50, Vote du public, Coup de fil à un ami) de huit "
        "joueurs, en jetons ronds de 3 cm ; on retourne le jeton sur « utilisé »."),
    items=joker_tokens,
    front=joker_token_front,
    back=joker_token_back,
    back_form=joker_token_back_form,
    size=TOKEN_SIZE,
    round_face=True,
)
