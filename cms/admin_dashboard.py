"""A game's dashboard: its published content against what a full game needs, per kind.

What a full game needs comes from the rules played many times (`cms.rules.full_game_needs`);
the counts, themes and difficulties from the library; the problems from the game's report.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from .games import GAMES
from .games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN
from .models import Card, Question, Status
from .rules import full_game_needs
from .validation import Need, euros

# Themes shown one bar each in a kind's histogram; the rest share one bar.
THEMES_SHOWN = 12


@dataclass
class Row:
    """One line of the coverage table: a kind, or a step of a ladder kind."""

    label: str
    need: Need
    counts: dict[str, int] = field(default_factory=dict)  # by status
    have: int = 0  # what a game can draw: published (a duel pair's two cards both)
    steps: list[Row] = field(default_factory=list)  # a ladder kind's, one per step

    @property
    def published(self) -> int:
        return self.counts.get(Status.PUBLISHED, 0)

    @property
    def review(self) -> int:
        return self.counts.get(Status.REVIEW, 0)

    @property
    def draft(self) -> int:
        return self.counts.get(Status.DRAFT, 0)

    @property
    def games(self) -> int | None:
        """Return how many full games can be played before a unit comes back (a ladder's
        thinnest step comes back first)."""
        if self.steps:
            games = [row.games for row in self.steps if row.games is not None]
            return min(games) if games else None
        return math.floor(self.have / self.need.mean) if self.need.mean else None

    @property
    def enough(self) -> bool:
        if self.steps:
            return all(row.enough for row in self.steps)
        return self.have >= self.need.p90

    # A <meter> is green past `high`, yellow between `low` and `high`, red below `low`: past
    # the need of 9 games out of 10, below the average game's.
    @property
    def high(self) -> float:
        return max(self.need.p90 - 0.5, 0)

    @property
    def low(self) -> float:
        return min(self.need.mean, self.high)

    @property
    def scale(self) -> int:
        """Return the top of the row's bar: the larger of the need and what is published."""
        return max(self.need.p90, self.have, 1)


def status_counts(model, kinds, *extra) -> dict[tuple, dict[str, int]]:
    """Return how many rows of each kind (and `extra` field) there are, by status."""
    counts: dict[tuple, dict[str, int]] = defaultdict(dict)
    for row in (model.objects.filter(kind__in=kinds).values("kind", "status", *extra)
                .annotate(n=Count("id"))):
        counts[(row["kind"], *(row[name] for name in extra))][row["status"]] = row["n"]
    return counts


def paired_published(kind_slug: str) -> int:
    """Return the published cards whose partner is published too: what a duel can draw."""
    published = Card.objects.filter(kind=kind_slug, status=Status.PUBLISHED)
    return published.filter(pair__in=published).count()


def coverage_rows(game, needs) -> list[dict]:
    """Return, per kind, its coverage row (with one row per step for a ladder kind)."""
    slugs = [kind.slug for kind in game.kinds]
    cards = status_counts(Card, slugs)
    questions = status_counts(Question, slugs)
    steps = status_counts(Question, slugs, "step")
    kinds = []
    for kind in game.kinds:
        need = needs.kinds[kind.slug]
        counts = (cards if kind.is_card else questions).get((kind.slug,), {})
        row = Row(str(kind.label_plural), need, counts)
        row.have = paired_published(kind.slug) if kind.paired else row.published
        for step in game.ladder if kind.ladder else ():
            counts = steps.get((kind.slug, step.number), {})
            row.steps.append(Row(
                _("Palier %(n)s (%(amount)s)") % {"n": step.number,
                                                   "amount": euros(step.amount)},
                need.steps.get(step.number, need), counts,
                have=counts.get(Status.PUBLISHED, 0)))
        kinds.append({"kind": kind, "row": row})
    return kinds


def histogram(counter: Counter, keys=None) -> list[dict]:
    """Return bars of a count: each key's count and the largest, for a <meter>."""
    keys = list(counter) if keys is None else keys
    top = max(counter.values(), default=0) or 1
    return [{"label": key, "count": counter.get(key, 0), "top": top} for key in keys]


def spread_rows(game) -> list[dict]:
    """Return, per kind, the histograms of its published questions' themes and difficulties."""
    published = Question.objects.filter(kind__in=[k.slug for k in game.kinds],
                                        status=Status.PUBLISHED)
    themes: dict[str, Counter] = defaultdict(Counter)
    levels: dict[str, Counter] = defaultdict(Counter)
    for kind, theme, level in published.values_list("kind", "theme", "difficulty"):
        themes[kind][theme.strip() or _("(sans thème)")] += 1
        levels[kind][level] += 1
    rows = []
    for kind in game.kinds:
        common = themes[kind.slug].most_common()
        shown = Counter(dict(common[:THEMES_SHOWN]))
        rest = sum(n for _theme, n in common[THEMES_SHOWN:])
        if rest:
            shown[_("autres thèmes (%(n)s)") % {"n": len(common) - THEMES_SHOWN}] = rest
        rows.append({
            "kind": kind, "total": sum(levels[kind.slug].values()),
            "themes": histogram(shown),
            "difficulties": histogram(levels[kind.slug],
                                      range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)),
        })
    return rows


def game_dashboard(site, request, slug):
    """Show a game's published content against what a full game needs, with its spread."""
    from .admin_site import reports_for  # the site imports this module for its URL

    game = GAMES.get(slug)
    if game is None:
        raise Http404(_("Jeu inconnu."))
    user = request.user
    if not (user.has_perm("cms.view_question") or user.has_perm("cms.view_card")):
        raise PermissionDenied
    if not game.kinds:
        raise Http404(_("Ce jeu n’a pas de contenu éditable."))
    needs = full_game_needs(game)
    report = reports_for(request, slug)
    context = {
        **site.each_context(request), "game": game, "needs": needs,
        "title": _("Tableau de bord — %(game)s") % {"game": game.name},
        "kinds": coverage_rows(game, needs), "spread": spread_rows(game),
        "errors": len(report.errors), "warnings": len(report.warnings),
        "simulated": any(need.simulated for need in needs.kinds.values()),
        "seconds": round(needs.seconds, 1),
    }
    return TemplateResponse(request, "admin/cms/dashboard.html", context)
