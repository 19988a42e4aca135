"""Searching the admin forgives accents, case, apostrophes and ligatures; every word counts.

Each search is a real request to the admin's lists or to the card's question picker.
"""

import json

import pytest
from django.urls import reverse

from cms import services, snapshots
from cms.formats import FORMATS_BY_NAME
from cms.models import Question, Status
from tests.builders import make_card, make_question
from tests.cms.test_import_files import run_import


def saved_question(user, kind="echelle", **changes) -> Question:
    """Write a question's text through the services, as the admin or an import does."""
    question = make_question(kind)
    services.content_save(obj=question, data={**snapshots.of_object(question), **changes},
                          user=user)
    return Question.objects.get(pk=question.pk)


def found(client, model, term) -> set[int]:
    page = client.get(reverse(f"admin:cms_{model}_changelist"), {"q": term})
    assert page.status_code == 200
    return {obj.pk for obj in page.context["cl"].result_list}


def picker(client, term) -> list[str]:
    """Return the questions the card's question picker offers for a term."""
    response = client.get(reverse("admin:autocomplete"), {
        "term": term, "app_label": "cms", "model_name": "cardquestion",
        "field_name": "question"})
    assert response.status_code == 200
    return [row["id"] for row in json.loads(response.content)["results"]]


@pytest.fixture
def jeanne(editor):
    return saved_question(editor, text="En quelle année Jeanne d’Arc est-elle morte ?")


@pytest.mark.parametrize("term", ["d'Arc", "jeanne d'arc", "JEANNE D’ARC", "d arc",
                                  '"jeanne d\'arc"'])
def test_a_straight_apostrophe_finds_a_typographic_one(editor_client, jeanne, term):
    assert found(editor_client, "question", term) == {jeanne.pk}


def test_words_typed_without_accents_find_accented_ones(editor_client, editor):
    pupil = saved_question(editor, text="Quel élève a réussi l’épreuve ?")
    saved_question(editor, text="Quel est le plus long fleuve ?")

    assert found(editor_client, "question", "eleve epreuve") == {pupil.pk}
    assert found(editor_client, "question", "ÉLÈVE") == {pupil.pk}


def test_a_ligature_is_found_spelt_out(editor_client, editor):
    work = saved_question(editor, text="Qui a peint cette œuvre ?")

    assert found(editor_client, "question", "OEUVRE") == {work.pk}
    assert found(editor_client, "question", "œuvre") == {work.pk}


def test_every_word_of_the_term_must_be_found(editor_client, jeanne):
    assert found(editor_client, "question", "jeanne arc") == {jeanne.pk}
    assert found(editor_client, "question", "jeanne napoleon") == set()


def test_a_question_is_found_by_a_proposition_its_theme_and_its_ref(editor_client, editor):
    question = make_question("echelle")
    data = snapshots.of_object(question)
    data["theme"] = "Littérature"
    data["propositions"][2]["text"] = "Chateaubriand"
    services.content_save(obj=question, data=data, user=editor)

    assert found(editor_client, "question", "chateaubriand") == {question.pk}
    assert found(editor_client, "question", "litterature") == {question.pk}
    assert found(editor_client, "question", question.ref) == {question.pk}


def test_a_number_is_found_with_or_without_its_digit_groups(editor_client, editor):
    question = saved_question(editor, text="Combien vaut la question à 1 000 000 € ?")

    assert found(editor_client, "question", "1000000") == {question.pk}
    assert found(editor_client, "question", "1 000 000") == {question.pk}


def test_a_pending_correction_is_found_by_its_new_text(editor_client, editor):
    question = make_question("echelle", status=Status.PUBLISHED)
    services.content_save(obj=question, data={**snapshots.of_object(question),
                                              "text": "Où est né Molière ?"}, user=editor)

    assert found(editor_client, "question", "moliere") == {question.pk}


def test_a_card_is_found_by_the_text_its_question_now_has(editor_client, editor):
    card = make_card("coup-de-maitre")
    first = card.ordered_slots()[0].question
    before = first.text.split()[-2]  # a number only this question had

    services.content_save(obj=first, data={**snapshots.of_object(first),
                                           "text": "Où coule la Moselle ?"}, user=editor)

    assert found(editor_client, "card", "moselle") == {card.pk}
    assert card.pk not in found(editor_client, "card", f'"{before}"')


def test_a_card_is_found_by_its_title_without_accents(editor_client, editor):
    card = make_card("coup-de-maitre")
    services.content_save(obj=card, data={**snapshots.of_object(card),
                                          "title": "Les fleuves d’Europe"}, user=editor)

    assert found(editor_client, "card", "FLEUVES D'EUROPE") == {card.pk}
    assert found(editor_client, "card", "fleuves asie") == set()


def test_the_card_picker_searches_the_same_way(editor_client, editor, jeanne):
    placed = make_card("coup-de-maitre")
    on_card = placed.ordered_slots()[0].question
    services.content_save(obj=on_card, data={**snapshots.of_object(on_card),
                                             "text": "Jeanne d’Arc a-t-elle vu Orléans ?"},
                          user=editor)

    # Only questions on no card yet are offered.
    assert picker(editor_client, "d'arc") == [str(jeanne.pk)]
    assert picker(editor_client, "JEANNE D ARC MORTE") == [str(jeanne.pk)]
    assert picker(editor_client, "jeanne rome") == []


def test_an_import_makes_its_rows_searchable(editor):
    data = ("ref;genre;texte;difficulte;palier;proposition_1;proposition_2;proposition_3;"
            "proposition_4;bonnes;statut\r\n"
            "imp-1;echelle;Où naquit l'empereur ?;1;1;Ajaccio;Bastia;Corte;Calvi;1;brouillon\r\n")
    result = run_import(FORMATS_BY_NAME["csv"](), data.encode("utf-8"), user=editor)
    assert not result.has_errors() and not result.has_validation_errors()

    assert set(Question.objects.filter(search_text__contains="naquit l empereur")
               .values_list("ref", flat=True)) == {"imp-1"}
    assert set(Question.objects.filter(search_text__contains="ajaccio")
               .values_list("ref", flat=True)) == {"imp-1"}
