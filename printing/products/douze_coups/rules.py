"""The rules summary: the game's rules in French, two columns a page, numbers from its spec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.douze_coups import RULES, SPEC

from ...draw import WHITE, Pen
from ...layout.rows import text_height
from ...sheets import Rect, paper_size
from ...text import BOLD, REGULAR, amount
from ...units import to_mm
from ..base import Page, Sheets
from ..style import INK, PAGE_MARGIN
from .components import SEATS
from .look import COLOUR

if TYPE_CHECKING:
    from ...render import PrintOptions


def rules_sections() -> list[tuple[str, list[str]]]:
    """Return the summary's sections: a title and its points, in French, numbers from SPEC."""
    s = RULES
    notes = " + ".join(amount(v) for v in s.start_notes)
    stake = amount(s.duel_stake)
    return [
        (_("Le but"), [
            _("De 2 à 4 joueurs. Répondez juste, gagnez de l’argent : à la fin, le joueur le "
              "plus riche devient « Maître de Midi ». Deviner l’étoile mystérieuse rapporte "
              "%(jackpot)s et fait gagner la partie sur-le-champ.") % {
                "jackpot": amount(s.etoile_jackpot)},
        ]),
        (_("Le matériel"), [
            _("Les cartes coup d’envoi, duel, coup fatal et coup de maître ; les fiches coup "
              "par coup et étoile mystérieuse ; le tableau révélateur et la fiche cache ; "
              "%(notes)s billets ; "
              "%(stars)s étoiles pupitres et %(stars)s jetons étoile.") % {
                "notes": sum(s.banknotes.values()), "stars": SEATS},
            _("Le tableau révélateur se pose exactement sur une fiche : évidez sa fenêtre, "
              "découpez ses volets le long des tirets et pliez-les le long des pointillés. "
              "La fiche cache couvre la fiche pendant qu’on pose le tableau dessus."),
            _("Il faut aussi deux sabliers (ou deux minuteurs) pour le coup fatal."),
        ]),
        (_("Mise en place"), [
            _("Chaque joueur pose devant lui une étoile pupitre, côté vert, et prend un jeton "
              "étoile (orange d’un côté, rouge de l’autre)."),
            _("Faites une pile par manche : coups d’envoi, fiches coup par coup, coups "
              "fatals, coups de maître, fiches étoile mystérieuse."),
            _("Tirez une paire de cartes Duel au hasard (même titre, même couleur) ; rangez "
              "les autres."),
            _("Chacun reçoit %(start)s : %(notes)s. Le reste forme la banque.") % {
                "start": amount(s.start_money), "notes": notes},
        ]),
        (_("1re manche : le coup d’envoi"), [
            _("Le plus jeune commence et choisit un numéro de 1 à 4. Son voisin de gauche "
              "pioche une carte et lit la question de ce numéro et ses deux propositions : "
              "l’une visible, l’autre cachée, dévoilée après le choix."),
            _("Bonne réponse : au suivant. Mauvaise réponse : le jeton orange couvre "
              "l’étoile verte. À la %(n)se erreur, l’étoile devient rouge : le joueur perd "
              "la manche et provoque un duel.") % {"n": s.errors_before_duel},
        ]),
        (_("Le duel"), [
            _("Le joueur rouge choisit son adversaire. Le provoqué lit le titre de la paire "
              "et choisit l’une des deux cartes (l’autre servira au 2e duel). Son voisin de "
              "gauche lui lit la question et ses 4 propositions."),
            _("Bonne réponse : le provocateur lui paie %(stake)s. Mauvaise réponse : il paie "
              "%(stake)s au provocateur. Toutes les étoiles repassent au vert.") % {
                "stake": stake},
        ]),
        (_("2e manche : le coup par coup"), [
            _("Glissez une fiche sous le tableau révélateur, couverte par la fiche cache que "
              "vous retirez ensuite : les grands volets sont ouverts, les petits volets et le "
              "volet du bas fermés."),
            _("Le perdant du 1er duel commence. Chacun à son tour choisit l’une des 7 "
              "propositions et ouvre le petit volet à sa droite. VRAI : au suivant. FAUX : "
              "étoile orange, et l’on passe à la fiche suivante. Une fiche s’arrête aussi "
              "quand ses 6 VRAI sont ouverts."),
            _("Au 2e FAUX, l’étoile devient rouge : 2e duel, avec l’autre carte de la "
              "paire."),
        ]),
        (_("3e manche : le coup fatal"), [
            _("Face-à-face, un sablier chacun. Chaque joueur pioche une carte et la donne à "
              "un lecteur. Le plus riche commence : son sablier coule jusqu’à ce qu’il "
              "donne une bonne réponse ; il le couche alors et le sablier de l’autre "
              "coule."),
            _("Le premier dont le temps est écoulé paie %(stake)s à l’autre.") % {
                "stake": amount(s.face_a_face_stake)},
            _("À 2 joueurs : un face-à-face. À 3 : les deux plus riches, puis le vainqueur "
              "contre le troisième. À 4 : le plus pauvre choisit son adversaire (égalité : "
              "le plus jeune choisit), les deux autres s’affrontent."),
        ]),
        (_("Finale : le coup de maître et l’étoile mystérieuse"), [
            _("Glissez une fiche étoile mystérieuse sous le tableau avec la fiche cache, "
              "tous volets fermés, puis retirez la cache. Le plus pauvre commence (égalité : "
              "le plus jeune)."),
            _("À tour de rôle, chacun répond à la question n°%(first)s, puis n°2… jusqu’à "
              "la n°%(last)s, chaque fois sur une carte coup de maître piochée : 3 "
              "propositions, 2 visibles et 1 cachée.") % {"first": 1, "last": 5},
            _("Bonne réponse : %(gain)s de la banque et un grand volet s’ouvre. Mauvaise "
              "réponse : un petit volet s’ouvre.") % {
                "gain": amount(s.coup_de_maitre_gain)},
            _("À tout moment, même hors de son tour, un joueur peut proposer l’étoile : il "
              "soulève en secret le volet du bas. Juste : %(jackpot)s et il gagne la partie. "
              "Faux : il est éliminé. Après la 5e question sans bonne réponse, personne ne "
              "gagne les %(jackpot)s.") % {"jackpot": amount(s.etoile_jackpot)},
        ]),
        (_("Fin de la partie"), [
            _("Chacun compte son argent : le plus riche est « Maître de Midi »."),
        ]),
    ]


RULE_SIZE = 8.8
HEADING_SIZE = 10.5
RULE_GUTTER = 7.0  # mm between the two columns
BULLET_INDENT = 3.0
TITLE_BAND = 20.0  # mm under the top margin taken by the title


@dataclass(frozen=True)
class Block:
    """One paragraph of the summary, before it is placed: a heading or a bulleted point."""

    text: str
    size: float
    font: str
    fill: str
    bullet: bool
    space: float  # mm above it, unless it starts a column


@dataclass(frozen=True)
class Placed:
    """One block of the rules summary where it goes: its text, box and style."""

    text: str
    rect: Rect
    size: float
    font: str
    fill: str
    bullet: bool


def rules_blocks() -> list[Block]:
    """Return the summary's paragraphs in order: each section's heading, then its points."""
    blocks = []
    for title, points in rules_sections():
        blocks.append(Block(title, HEADING_SIZE, BOLD, COLOUR, False, 3.0))
        blocks.extend(Block(point, RULE_SIZE, REGULAR, INK, True, 1.2) for point in points)
    return blocks


def rules_layout(page_w: float, page_h: float) -> list[list[Placed]]:
    """Pour the summary into two columns a page, as many pages as it takes."""
    margin = PAGE_MARGIN
    col_w = (page_w - 2 * margin - RULE_GUTTER) / 2
    top = page_h - margin - TITLE_BAND
    bottom = margin + 6
    columns = (margin, margin + col_w + RULE_GUTTER)
    pages: list[list[Placed]] = [[]]
    column, y = 0, top
    blocks = rules_blocks()
    for index, block in enumerate(blocks):
        box_w = col_w - (BULLET_INDENT if block.bullet else 0.0)
        height = text_height(block.text, block.font, block.size, box_w)
        # A heading keeps its first point with it.
        keep = 0.0
        if not block.bullet and index + 1 < len(blocks):
            following = blocks[index + 1]
            keep = following.space + text_height(following.text, following.font,
                                                 following.size, col_w - BULLET_INDENT)
        if y - block.space - height - keep < bottom and y < top:
            column += 1
            if column == len(columns):
                pages.append([])
                column = 0
            y = top
        elif y < top:
            y -= block.space
        x = columns[column] + (BULLET_INDENT if block.bullet else 0.0)
        pages[-1].append(Placed(block.text, Rect(x, y - height, box_w, height), block.size,
                                block.font, block.fill, block.bullet))
        y -= height
    return pages


def rules_page(placed: list[Placed], *, first: bool) -> Callable[[Pen], None]:
    """Return the drawing of one page of the summary."""

    def draw(pen: Pen) -> None:
        margin = PAGE_MARGIN
        if first:
            pen.rect(Rect(0, pen.h - margin - 14, pen.w, 14 + margin), fill=COLOUR)
            pen.centred(SPEC.name, pen.w / 2, pen.h - margin - 5, size=20, font=BOLD,
                        fill=WHITE)
            pen.centred(_("Résumé de la règle · %(players)s") % {
                "players": SPEC.players.label}, pen.w / 2, pen.h - margin - 11, size=9.5,
                fill=WHITE)
        for block in placed:
            # The box is the measured height; a hair more absorbs rounding.
            box = Rect(block.rect.x, block.rect.y - 0.2, block.rect.w, block.rect.h + 0.4)
            pen.text(block.text, box, size=block.size, min_size=block.size, font=block.font,
                     fill=block.fill, label=_("règle"))
            if block.bullet:
                pen.circle(block.rect.x - BULLET_INDENT / 2,
                           block.rect.top - to_mm(block.size * 0.45), 0.6, fill=COLOUR)

    return draw


def rules_pages(options: PrintOptions, _items: object) -> list[Page]:
    """The rules summary on the maker's paper: two columns, one page when it fits."""
    page_w, page_h = paper_size(options.paper)
    pages = rules_layout(page_w, page_h)
    return [Page(draw=rules_page(placed, first=index == 0))
            for index, placed in enumerate(pages)]


REGLES = Sheets(
    slug="regles",
    label=gettext_lazy("Résumé de la règle"),
    description=gettext_lazy("Une page, en deux colonnes."),
    pages=rules_pages,
)
