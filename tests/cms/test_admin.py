"""The editors' admin, organised by game: sections, lists, filters, reports and saving."""

from html.parser import HTMLParser

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils.html import escape

from cms.games import GAMES, content_games
from cms.models import Card, Question, Status
from cms.validation import validate_game
from tests.builders import make_card, make_question

# --- posting real admin forms ---------------------------------------------------------------


class _FormFields(HTMLParser):
    """Collect what a browser would submit from the admin's change form (id `<model>_form`)."""

    _BUTTONS = ("submit", "button", "image", "reset", "file")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._inside = False
        self._select: tuple[str, bool] | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self._inside = attributes.get("id", "").endswith("_form")
            return
        if not self._inside or "disabled" in attributes or not attributes.get("name", True):
            return
        name = attributes.get("name")
        if tag == "input":
            kind = attributes.get("type", "text")
            if kind in self._BUTTONS or not name:
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attributes:
                    self.fields.append((name, attributes.get("value") or "on"))
                return
            self.fields.append((name, attributes.get("value") or ""))
        elif tag == "select" and name:
            self._select = (name, "multiple" in attributes)
            self._options = []
        elif tag == "option" and self._select:
            self._options.append((attributes.get("value", ""), "selected" in attributes))
        elif tag == "textarea" and name:
            self._textarea = [name, ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._inside = False
        elif tag == "select" and self._select:
            name, multiple = self._select
            chosen = [value for value, selected in self._options if selected]
            if not chosen and not multiple and self._options:
                chosen = [self._options[0][0]]  # what a browser sends for a single select
            self.fields += [(name, value) for value in chosen]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            name, text = self._textarea
            # Browsers drop the newline that follows <textarea>.
            self.fields.append((name, text.removeprefix("\n")))
            self._textarea = None


def form_data(response, **changes) -> dict:
    """Return the POST data of the admin form in this response, with some fields changed.

    The empty template row of each inline (`__prefix__`) is left out, as a browser would.
    """
    assert response.status_code == 200, response.status_code
    parser = _FormFields()
    parser.feed(response.content.decode())
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        if "__prefix__" not in name:
            data.setdefault(name, []).append(value)
    assert data, "no admin change form in the page"
    flat = {name: values[0] if len(values) == 1 else values for name, values in data.items()}
    flat.update(changes)
    return flat


def change_url(obj) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_change", args=[obj.pk])


def changelist_url(model) -> str:
    return reverse(f"admin:cms_{model.__name__.lower()}_changelist")


def save(client, obj, button="_save", **changes):
    """GET the change page of obj, POST its form back with the changes and a button."""
    url = change_url(obj)
    data = form_data(client.get(url), **changes)
    data[button] = "1"
    return client.post(url, data)


def messages_of(response, level=None) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)
            if level is None or m.level == level]


def problems_of(obj, code=None):
    report = validate_game(obj.game.slug)
    return [p for p in report.about(obj) if code is None or p.code == code]


def listed(response) -> set[int]:
    return {obj.pk for obj in response.context["cl"].result_list}


# --- the index and the rules pages ---------------------------------------------------------


def test_the_index_has_one_section_per_game(reviewer_client):
    response = reviewer_client.get(reverse("admin:index"))

    assert response.status_code == 200
    sections = [app["name"] for app in response.context["app_list"]]
    for game in GAMES.values():
        assert game.name in sections
        assert escape(game.name) in response.content.decode()
    assert len(GAMES) == 5


@pytest.mark.parametrize("game", content_games(), ids=lambda game: game.slug)
def test_each_content_game_section_links_to_its_questions_cards_and_problems(reviewer_client,
                                                                             game):
    page = reviewer_client.get(reverse("admin:index")).content.decode()

    assert f'href="{changelist_url(Question)}?game={game.slug}"' in page
    assert f'href="{reverse("admin:cms_game_problems", args=[game.slug])}"' in page
    has_cards_link = f'href="{changelist_url(Card)}?game={game.slug}"' in page
    assert has_cards_link == bool(game.card_kinds)


@pytest.mark.parametrize(("slug", "numbers"), [
    ("millionnaire", ["1000000", "150000", "200"]),
    ("douze-coups", ["10000", "55", "25"]),
    ("prendre-sa-place", ["14", "(-1, -2, -3)"]),
    ("the-mind", ["(1, 100)", "{2: 12, 3: 10, 4: 8}"]),
    ("minotaure", ["3 à 10", "prisoners"]),
])
def test_the_rules_page_of_each_game_shows_its_numbers(reviewer_client, slug, numbers):
    response = reviewer_client.get(reverse("admin:cms_game", args=[slug]))

    assert response.status_code == 200
    # Grouped or not, with a plain or narrow no-break space: the digits are what count.
    page = response.content.decode()
    for space in ("\u00a0", "\u202f", "&nbsp;", "&#8239;"):
        page = page.replace(f"0{space}0", "00")
    for number in numbers:
        assert escape(number) in page, number


def test_the_rules_page_of_an_unknown_game_is_not_found(reviewer_client):
    response = reviewer_client.get(reverse("admin:cms_game", args=["pictionary"]))

    assert response.status_code == 404


# --- problems on the change page, in the list and in the report ----------------------------


def test_the_card_page_shows_that_question_4_is_easier_than_question_3(reviewer_client):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    [problem] = problems_of(card, "difficulty_order")

    response = reviewer_client.get(change_url(card))

    assert response.status_code == 200
    assert escape(problem.message) in response.content.decode()


def test_the_list_has_a_problems_column(reviewer_client):
    broken = make_question("echelle", propositions=[("Seule", True, False)])

    response = reviewer_client.get(changelist_url(Question))

    assert response.status_code == 200
    assert "problems_count" in response.context["cl"].list_display
    page = response.content.decode()
    assert 'class="column-problems_count"' in page
    assert f'href="{change_url(broken)}"' in page
    assert 'class="field-problems_count"><span class="plateau-error"' in page


def test_the_errors_filter_lists_exactly_the_broken_questions(reviewer_client):
    make_question("echelle")
    too_few = make_question("echelle", propositions=[("Seule", True, False)])
    off_band = make_question("echelle", step=15, difficulty=1)
    make_card("coup-de-maitre")

    response = reviewer_client.get(changelist_url(Question), {"problems": "errors"})

    assert response.status_code == 200
    assert listed(response) == {too_few.pk, off_band.pk}


def test_the_errors_filter_lists_exactly_the_broken_cards(reviewer_client):
    make_card("coup-de-maitre")
    make_card("coup-d-envoi")
    disordered = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    short = make_card("coup-fatal", questions=[make_question("coup-fatal")])

    response = reviewer_client.get(changelist_url(Card), {"problems": "errors"})

    assert listed(response) == {disordered.pk, short.pk}


def test_the_no_problem_filter_leaves_the_broken_questions_out(reviewer_client):
    fine = make_question("echelle")
    make_question("echelle", propositions=[("Seule", True, False)])

    response = reviewer_client.get(changelist_url(Question), {"problems": "none"})

    assert listed(response) == {fine.pk}


def test_the_game_filter_keeps_only_that_games_kinds(reviewer_client):
    ladder = make_question("echelle")
    make_question("coup-de-maitre")
    make_question("qualifs")

    response = reviewer_client.get(changelist_url(Question), {"game": "millionnaire"})

    assert response.status_code == 200
    assert listed(response) == {ladder.pk}


def test_the_game_filter_keeps_only_that_games_cards(reviewer_client):
    envoi = make_card("coup-d-envoi")
    maitre = make_card("coup-de-maitre")
    make_card("qualifs")

    response = reviewer_client.get(changelist_url(Card), {"game": "douze-coups"})

    assert listed(response) == {envoi.pk, maitre.pk}


def test_the_problems_report_lists_the_errors_with_links(reviewer_client):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    question = make_question("coup-d-envoi", propositions=[("Seule", True, True)])

    response = reviewer_client.get(reverse("admin:cms_game_problems", args=["douze-coups"]))

    assert response.status_code == 200
    errors = [row for row in response.context["rows"] if row["problem"].is_error]
    assert {(row["problem"].code, row["url"]) for row in errors} >= {
        ("difficulty_order", change_url(card)),
        ("proposition_count", change_url(question)),
    }
    page = response.content.decode()
    assert f'<a href="{change_url(card)}">' in page
    assert f'<a href="{change_url(question)}">' in page
    assert "<code>difficulty_order</code>" in page


def test_the_problems_report_of_a_game_without_content_is_not_found(reviewer_client):
    response = reviewer_client.get(reverse("admin:cms_game_problems", args=["the-mind"]))

    assert response.status_code == 404


# --- saving --------------------------------------------------------------------------------


def test_saving_a_draft_with_errors_keeps_the_edit_and_returns_to_the_change_page(
        editor_client):
    question = make_question("echelle", propositions=[("Seule", True, False)])

    response = save(editor_client, question, text="Quelle est la capitale du Pérou ?")

    assert response.status_code == 302
    assert response["Location"] == change_url(question)
    question.refresh_from_db()
    assert question.text == "Quelle est la capitale du Pérou ?"
    assert question.status == Status.DRAFT
    assert messages_of(response, message_levels.ERROR)


def test_saving_a_valid_draft_returns_to_the_list(editor_client):
    question = make_question("echelle")

    response = save(editor_client, question, text="Quelle est la capitale du Chili ?")

    assert response.status_code == 302
    assert response["Location"] == changelist_url(Question)


def test_submitting_a_card_with_errors_leaves_it_draft_and_says_why(editor_client):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    [problem] = problems_of(card, "difficulty_order")

    response = save(editor_client, card, button="_submit_review")

    assert response.status_code == 302
    assert response["Location"] == change_url(card)
    card.refresh_from_db()
    assert card.status == Status.DRAFT
    assert all(q.status == Status.DRAFT for q in card.questions.all())
    errors = messages_of(response, message_levels.ERROR)
    assert any(problem.message in message for message in errors)


def test_reordering_the_slots_fixes_a_coup_de_maitre_card(editor_client):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    page = editor_client.get(change_url(card))
    data = form_data(page)
    # Rows come in position order; swap the third and fourth as the ▲/▼ buttons would.
    assert [data[f"slots-{i}-position"] for i in range(5)] == ["1", "2", "3", "4", "5"]
    data["slots-2-position"], data["slots-3-position"] = "4", "3"
    data["_save"] = "1"

    response = editor_client.post(change_url(card), data)

    assert response.status_code == 302
    assert response["Location"] == changelist_url(Card)
    card.refresh_from_db()
    assert [slot.question.difficulty for slot in card.ordered_slots()] == [1, 2, 3, 4, 5]
    assert problems_of(card, "difficulty_order") == []
