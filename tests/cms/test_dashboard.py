"""A game's dashboard: published content against what a full game needs, and its spread."""

from __future__ import annotations

import math
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils.formats import number_format

from cms.games import GAMES
from cms.models import Status
from cms.rules import full_game_needs
from tests.builders import make_card, make_duel_pair, make_question

PUBLISHED, REVIEW, DRAFT = Status.PUBLISHED, Status.REVIEW, Status.DRAFT


class _Rows(HTMLParser):
    """Read a page's table rows as a person does: each cell's text, and its bars' values."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.meters: list[list[dict]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
            self.meters.append([])
        elif tag in ("td", "th") and self.rows:
            self._cell = []
        elif tag == "meter" and self.rows:
            self.meters[-1].append(dict(attrs))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None


def rows_of(html: str) -> _Rows:
    parser = _Rows()
    parser.feed(html)
    return parser


def dashboard_url(slug="douze-coups") -> str:
    return reverse("admin:cms_game_dashboard", args=[slug])


def row_starting(page: _Rows, label: str) -> tuple[list[str], list[dict]]:
    [(cells, meters)] = [(cells, meters) for cells, meters in zip(page.rows, page.meters,
                                                                  strict=True)
                         if cells and cells[0].startswith(label)]
    return cells, meters


@pytest.mark.django_db
def test_the_dashboard_sets_published_cards_against_what_a_full_game_uses(reader_client):
    for n in range(7):
        make_card("coup-d-envoi", status=PUBLISHED, title=f"Envoi {n}")
    make_card("coup-d-envoi", status=REVIEW)
    make_card("coup-d-envoi", status=DRAFT)
    make_card("coup-d-envoi", status=DRAFT)
    need = full_game_needs(GAMES["douze-coups"]).kinds["coup-d-envoi"]

    page = rows_of(reader_client.get(dashboard_url()).content.decode())

    cells, [bar] = row_starting(page, "Coups d’envoi")
    assert cells[1:7] == ["7", "1", "2", number_format(need.mean, decimal_pos=1), str(need.p90),
                          str(math.floor(7 / need.mean))]
    assert "peut manquer" in cells[7]
    # Red below the average game's need, yellow below nine games' out of ten, green past it.
    assert float(bar["value"]) == 7 < float(bar["low"])  # below the average game: red


@pytest.mark.django_db
def test_a_kind_published_beyond_nine_games_out_of_ten_is_not_said_to_run_short(reader_client):
    need = full_game_needs(GAMES["douze-coups"]).kinds["coup-de-maitre"]
    for _ in range(2 * need.p90):
        make_card("coup-de-maitre", status=PUBLISHED)
    page = rows_of(reader_client.get(dashboard_url()).content.decode())
    cells, [bar] = row_starting(page, "Coups de maître")
    assert float(bar["value"]) > float(bar["high"])  # green
    assert cells[1] == str(2 * need.p90)
    assert cells[6] == str(math.floor(2 * need.p90 / need.mean))
    assert "peut manquer" not in cells[7]


@pytest.mark.django_db
def test_a_duel_card_counts_once_its_partner_is_published_too(reader_client):
    make_duel_pair(status=PUBLISHED)
    _first, second = make_duel_pair(status=PUBLISHED, title="Les volcans")
    second.status = REVIEW
    second.save()
    page = rows_of(reader_client.get(dashboard_url()).content.decode())
    cells, _bar = row_starting(page, "Duels")
    assert cells[1] == "2 (sur 3 publiées, dont des cartes sans jumelle publiée)"
    assert cells[2] == "1"


@pytest.mark.django_db
def test_the_ladder_has_a_row_per_step_with_its_own_need(reader_client):
    for _ in range(5):
        make_question("echelle", step=1, difficulty=1, status=PUBLISHED)
    make_question("echelle", step=2, difficulty=1, status=PUBLISHED)
    steps = full_game_needs(GAMES["millionnaire"]).kinds["echelle"].steps
    page = rows_of(reader_client.get(dashboard_url("millionnaire")).content.decode())
    first, _bar = row_starting(page, "Palier 1 ")
    second, _bar = row_starting(page, "Palier 2 ")
    assert (first[1], first[5]) == ("5", str(steps[1].p90))
    assert (second[1], second[5]) == ("1", str(steps[2].p90))
    ladder, _bar = row_starting(page, "Questions de l’échelle")
    # The ladder comes back as soon as its thinnest step does: step 15 has none.
    assert ladder[6] == "0"


@pytest.mark.django_db
def test_the_histograms_count_the_published_questions_by_theme_and_difficulty(reader_client):
    for theme, difficulty in [("Histoire", 1), ("Histoire", 2), ("Cinéma", 2)]:
        make_question("coup-par-coup", theme=theme, difficulty=difficulty, status=PUBLISHED)
    make_question("coup-par-coup", theme="Cinéma", difficulty=5, status=DRAFT)
    page = rows_of(reader_client.get(dashboard_url()).content.decode())
    histories = [(cells, meters) for cells, meters in zip(page.rows, page.meters, strict=True)
                 if cells[:1] == ["Histoire"]]
    [(cells, [bar])] = histories
    assert cells[1] == "2" and (bar["value"], bar["max"]) == ("2", "2")
    [(cinema, _meters)] = [(c, m) for c, m in zip(page.rows, page.meters, strict=True)
                           if c[:1] == ["Cinéma"]]
    assert cinema[1] == "1"  # the draft is not counted
    levels = [cells[1] for cells in page.rows
              if cells[:1] and cells[0] in {"1", "2", "3", "4", "5"} and len(cells) == 3]
    # Coup par coup's difficulties come first among the kinds with published questions.
    assert levels[:5] == ["1", "2", "0", "0", "0"]


@pytest.mark.django_db
def test_the_dashboard_counts_the_problems_and_links_to_them(reader_client):
    make_card("coup-de-maitre", status=PUBLISHED, difficulties=[1, 1, 2, 3, 4])
    html = reader_client.get(dashboard_url()).content.decode()
    problems = reverse("admin:cms_game_problems", args=["douze-coups"])
    assert f'href="{problems}"' in html
    assert "1 erreur," in html


@pytest.mark.django_db
def test_the_admin_home_links_each_game_to_its_dashboard_first(reader_client):
    html = reader_client.get(reverse("admin:index")).content.decode()
    problems = reverse("admin:cms_game_problems", args=["douze-coups"])
    assert html.index(f'href="{dashboard_url()}"') < html.index(f'href="{problems}"')
    assert "Tableau de bord" in html


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get(dashboard_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.django_db
def test_a_game_without_content_has_no_dashboard(reader_client):
    assert reader_client.get(dashboard_url("the-mind")).status_code == 404
