"""The editors' admin, organised by game: sections, lists, filters, reports and saving."""

import dataclasses
import re

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import escape

from cms.games import GAMES, content_games
from cms.models import Card, Question, Status
from cms.rules import full_game_needs, validate_game
from tests.admin_forms import change_url, changelist_url, form_data, save
from tests.builders import make_card, make_question


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
    assert list(GAMES) == ["douze-coups", "millionnaire", "prendre-sa-place", "the-mind",
                           "minotaure"]
    assert sections[:5] == [game.name for game in GAMES.values()]
    assert "cms" not in [app["app_label"] for app in response.context["app_list"]]
    page = response.content.decode()
    for game in GAMES.values():
        assert f'href="{reverse("admin:cms_game", args=[game.slug])}"' in page


@pytest.mark.parametrize("game", content_games(), ids=lambda game: game.slug)
def test_each_content_game_section_links_to_its_questions_cards_and_problems(reviewer_client,
                                                                             game):
    page = reviewer_client.get(reverse("admin:index")).content.decode()

    assert f'href="{changelist_url(Question)}?game={game.slug}"' in page
    assert f'href="{reverse("admin:cms_game_problems", args=[game.slug])}"' in page
    has_cards_link = f'href="{changelist_url(Card)}?game={game.slug}"' in page
    assert has_cards_link == bool(game.card_kinds)


@pytest.mark.parametrize(("slug", "numbers"), [
    ("millionnaire", ["<td>15 ★</td><td>1000000\u00a0€</td>", "<td>1</td><td>200\u00a0€</td>",
                      "<td>5 ★</td><td>1500\u00a0€</td>"]),
    ("douze-coups", ["<dt>Argent de départ de chaque joueur</dt><dd>10000</dd>",
                     "<dt>Gain par bonne réponse au coup de maître</dt><dd>3000</dd>"]),
    ("prendre-sa-place", [("<dt>Questions du Super Cash sur une carte de Compet’</dt>"
                          "<dd>9, 10, 11, 12, 13, 14</dd>"),
                          "<dt>Cases de départ de la Compet’</dt><dd>-1, -2, -3</dd>",
                          "DUO (1 pt) · carre\u00a0: CARRÉ (3 pts) · cash\u00a0: CASH (5 pts)"]),
    ("the-mind", ["<dt>Cartes nombres (de, à)</dt><dd>1, 100</dd>",
                  "<dd>2\u00a0: 12 · 3\u00a0: 10 · 4\u00a0: 8</dd>",
                  "2\u00a0: shuriken · 3\u00a0: vie · 5\u00a0: shuriken"]),
    ("minotaure", ["3 à 10", "<dt>Prisonniers</dt><dd>10</dd>"]),
])
def test_the_rules_page_of_each_game_shows_its_numbers(reviewer_client, slug, numbers):
    response = reviewer_client.get(reverse("admin:cms_game", args=[slug]))

    assert response.status_code == 200
    # Grouped or not, with a plain or narrow no-break space: the digits are what count.
    page = re.sub(r"(\d)(?:\s|&nbsp;|&#8239;)(?=\d{3}\b)", r"\1", response.content.decode())
    for number in numbers:
        assert number in page


@pytest.mark.parametrize("slug", [slug for slug, game in GAMES.items() if game.rules])
def test_the_rules_page_names_every_number_in_french(reviewer_client, slug):
    page = reviewer_client.get(reverse("admin:cms_game", args=[slug])).content.decode()

    for field in dataclasses.fields(GAMES[slug].rules):
        assert f"<dt>{escape(str(field.metadata['label']))}</dt>" in page
        # No identifier shown to an editor.
        assert f"<dt>{field.name}</dt>" not in page and f"<code>{field.name}<" not in page


def test_the_rules_page_gives_the_simulated_needs_of_a_full_game(reviewer_client):
    # The same figures as the dashboard and the coverage rule: the final of any game at
    # four reads question n°1 of one coup de maître card, n°2 of another… five cards.
    needs = full_game_needs(GAMES["douze-coups"]).kinds
    page = reviewer_client.get(reverse("admin:cms_game", args=["douze-coups"])).content.decode()
    row = re.search(r"<td>Coup de maître.*?</tr>", page, re.S).group(0)
    assert "<td>5 · 5</td>" in row
    envoi = re.search(r"<td>Coup d’envoi.*?</tr>", page, re.S).group(0)
    mean = number_format(needs["coup-d-envoi"].mean, decimal_pos=1)
    assert f"<td>{mean} · {needs['coup-d-envoi'].p90}</td>" in envoi
    assert reverse("admin:cms_game_dashboard", args=["douze-coups"]) in page


def test_the_rules_page_says_who_faces_whom_in_french(reviewer_client):
    page = reviewer_client.get(reverse("admin:cms_game", args=["douze-coups"])).content.decode()
    assert "le moins riche choisit son adversaire" in page
    assert "poorest-picks" not in page and "one-duel" not in page


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

    response = save(editor_client, question, text="Quelle est la capitale du Pérou\u202f?")

    assert response.status_code == 302
    assert response["Location"] == change_url(question)
    question.refresh_from_db()
    assert question.text == "Quelle est la capitale du Pérou\u202f?"
    assert question.status == Status.DRAFT
    assert messages_of(response, message_levels.ERROR)


def test_saving_a_valid_draft_returns_to_the_list_of_its_game(editor_client):
    question = make_question("echelle")

    response = save(editor_client, question, text="Quelle est la capitale du Chili\u202f?")

    assert response.status_code == 302
    assert response["Location"] == f"{changelist_url(Question)}?game={question.game.slug}"


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
    assert response["Location"] == f"{changelist_url(Card)}?game={card.game.slug}"
    card.refresh_from_db()
    assert [slot.question.difficulty for slot in card.ordered_slots()] == [1, 2, 3, 4, 5]
    assert problems_of(card, "difficulty_order") == []


def test_deleting_a_question_of_a_published_card_is_refused_and_keeps_both(reviewer_client):
    card = make_card("coup-fatal", status=Status.PUBLISHED)
    question = card.ordered_slots()[0].question

    response = reviewer_client.post(reverse("admin:cms_question_delete", args=[question.pk]),
                                    {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert Question.objects.filter(pk=question.pk).exists()
    card.refresh_from_db()
    assert card.status == Status.PUBLISHED
    assert card.ordered_slots()[0].question_id == question.pk
    assert "Rien n’a été supprimé" in response.content.decode()


def test_a_draft_is_saved_with_a_blank_row_whose_boxes_the_kind_ticked(editor_client):
    # The page ticks « cachée » on a coup de maître's third row before anything is typed.
    add = reverse("admin:cms_question_add")
    data = form_data(editor_client.get(add, {"kind": "coup-de-maitre"}),
                     text="Qui a peint la Joconde\u202f?", difficulty="2", _continue="1")
    for i, text in enumerate(["Léonard de Vinci", "Raphaël", "   "]):
        data[f"propositions-{i}-text"] = text
        data[f"propositions-{i}-position"] = str(i + 1)
    data["propositions-0-is_right"] = "on"
    data["propositions-2-is_hidden"] = "on"

    response = editor_client.post(add, data)

    assert response.status_code == 302
    question = Question.objects.get()
    assert [p.text for p in question.propositions.all()] == ["Léonard de Vinci", "Raphaël"]
