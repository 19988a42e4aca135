"""Kind-shaped question forms and the card composer, through the admin's real pages."""

import json
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from cms import services
from cms.models import Card, Question, Status
from cms.rules import validate_game
from tests.admin_forms import change_url, form_data
from tests.builders import make_card, make_question

pytestmark = pytest.mark.django_db

ADD_CARD = reverse("admin:cms_card_add")
ADD_QUESTION = reverse("admin:cms_question_add")
CHECK = reverse("admin:cms_card_composer_check")
PICK = reverse("admin:cms_card_composer_questions")


def new_question(text, difficulty, right=0, count=3, hidden=1):
    return {"text": text, "difficulty": difficulty,
            "propositions": [{"text": f"Réponse {n + 1}", "is_right": n == right,
                              "is_hidden": n >= count - hidden} for n in range(count)]}


def coup_de_maitre(difficulties=(1, 2, 3, 4, 5)):
    return [new_question(f"Question n°\u00a0{n}\u202f?", d)
            for n, d in enumerate(difficulties, start=1)]


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def post_card(client, composition, **changes):
    """Post the card's add page as the composer sends it."""
    data = form_data(client.get(f"{ADD_CARD}?game=douze-coups&kind=coup-de-maitre"),
                     kind="coup-de-maitre", **changes)
    data["plateau_composer"] = json.dumps(composition)
    data["_save"] = "1"
    return client.post(ADD_CARD, data)


# --- the service --------------------------------------------------------------------------


def test_composing_writes_the_new_questions_and_the_card_holding_them_in_order(editor):
    picked = make_question("coup-de-maitre", difficulty=3)
    slots = coup_de_maitre()
    slots[2] = picked.pk

    saved = services.card_compose_new(
        card=Card(), data={"kind": "coup-de-maitre", "title": "Culture"}, slots=slots,
        user=editor)

    card = Card.objects.get(pk=saved.obj.pk)
    questions = [slot.question for slot in card.ordered_slots()]
    assert questions[2] == picked
    assert [q.difficulty for q in questions] == [1, 2, 3, 4, 5]
    assert {q.kind for q in questions} == {"coup-de-maitre"}
    assert questions[0].theme == "Culture" and questions[0].created_by == editor
    assert [p.is_hidden for p in questions[0].propositions.all()] == [False, False, True]
    assert [p for p in validate_game("douze-coups").about(card) if p.is_error] == []


def test_a_slot_that_cannot_be_written_leaves_nothing_written_and_names_its_slot(editor):
    slots = coup_de_maitre()
    slots[3]["text"] = ""  # a question needs its text

    with pytest.raises(services.SlotErrors) as refusal:
        services.card_compose_new(card=Card(), data={"kind": "coup-de-maitre", "title": "X"},
                                  slots=slots, user=editor)

    assert list(refusal.value.slots) == [4]
    assert "Question n°4" in refusal.value.messages[0]
    assert Question.objects.count() == 0 and Card.objects.count() == 0


# --- the card's page ------------------------------------------------------------------------


def test_the_card_page_saves_the_card_as_composed_and_returns_to_its_game(editor_client):
    response = post_card(editor_client, coup_de_maitre(), title="Sur une page")

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('admin:cms_card_changelist')}?game=douze-coups"
    card = Card.objects.get(title="Sur une page")
    assert [s.question.text for s in card.ordered_slots()] == [
        q["text"] for q in coup_de_maitre()]


def test_a_refused_composition_comes_back_with_the_input_and_the_slots_reason(editor_client):
    slots = coup_de_maitre()
    slots[1]["text"] = ""
    slots[0]["text"] = "Une question tapée qui ne doit pas se perdre ?"

    response = post_card(editor_client, slots, title="Refusée")

    assert response.status_code == 200
    page = response.content.decode()
    shown = json.loads(page.split('id="plateau-composer-data" type="application/json">')[1]
                       .split("</script>")[0])
    assert list(shown["errors"]) == ["2"]
    assert shown["slots"][0]["text"] == "Une question tapée qui ne doit pas se perdre ?"
    assert Card.objects.count() == 0 and Question.objects.count() == 0


def test_a_page_without_the_composer_still_saves_its_slots_as_before(editor_client):
    card = make_card("coup-de-maitre")
    data = form_data(editor_client.get(change_url(card)), title="Sans script")
    assert "plateau_composer" not in data  # disabled until the composer's script runs
    data["_save"] = "1"

    assert editor_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.title == "Sans script" and card.slots.count() == 5


def test_the_live_check_names_the_slot_whose_difficulty_goes_down(editor_client):
    composition = coup_de_maitre((1, 2, 4, 3, 5))

    response = editor_client.post(CHECK, {"kind": "coup-de-maitre", "title": "Désordre",
                                          "plateau_composer": json.dumps(composition)})

    problems = response.json()["problems"]
    assert [p["slots"] for p in problems] == [[4]]
    assert "n°4" in problems[0]["message"] and problems[0]["severity"] == "error"
    assert not Card.objects.exists() and not Question.objects.exists()


def test_the_live_check_names_a_questions_own_problem_at_its_slot(editor_client):
    composition = coup_de_maitre()
    composition[1]["propositions"][0]["is_right"] = False  # no right answer left

    problems = editor_client.post(CHECK, {
        "kind": "coup-de-maitre", "plateau_composer": json.dumps(composition)}).json()["problems"]

    assert [p["slots"] for p in problems] == [[2]]
    assert problems[0]["message"].startswith("Question n°2")


@pytest.mark.parametrize("picked", [10**30, -(10**30)])
def test_a_picked_id_no_database_holds_is_refused_as_unreadable(editor_client, picked):
    composition = [{"question": picked}]

    checked = editor_client.post(CHECK, {"kind": "coup-de-maitre",
                                         "plateau_composer": json.dumps(composition)})
    saved = post_card(editor_client, composition, title="Forgée")

    assert checked.status_code == 400
    assert "illisible" in checked.json()["problems"][0]["message"]
    assert saved.status_code == 200 and "illisible" in saved.content.decode()
    assert not Card.objects.exists()


@pytest.mark.parametrize("card", ["9" * 30, "²", "-1", "abc"])
def test_the_check_and_the_picker_ignore_a_card_number_that_is_no_id(editor_client, card):
    checked = editor_client.post(CHECK, {"kind": "coup-de-maitre", "card": card,
                                         "plateau_composer": json.dumps(coup_de_maitre())})
    picked = editor_client.get(PICK, {"kind": "coup-de-maitre", "card": card})

    assert checked.status_code == 200 and checked.json()["problems"] == []
    assert picked.status_code == 200 and picked.json()["results"] == []


def test_the_picker_offers_only_free_questions_of_the_cards_kind(editor_client):
    free = make_question("coup-de-maitre", text="Quel est le plus long fleuve de France ?")
    make_question("coup-d-envoi", text="Quel est le plus long fleuve d’Europe ?")
    card = make_card("coup-de-maitre")
    on_this_card = card.ordered_slots()[0].question
    make_card("coup-de-maitre", title="Une autre carte")

    found = editor_client.get(PICK, {"kind": "coup-de-maitre"}).json()["results"]
    assert {q["question"] for q in found} == {free.pk}
    again = editor_client.get(PICK, {"kind": "coup-de-maitre", "card": card.pk}).json()
    assert on_this_card.pk in {q["question"] for q in again["results"]}
    searched = editor_client.get(PICK, {"kind": "coup-de-maitre", "term": "fleuve"}).json()
    assert [q["text"] for q in searched["results"]] == [free.text]
    assert [p["is_right"] for p in searched["results"][0]["propositions"]].count(True) == 1


def test_a_reader_sees_each_slots_question_with_its_answers_on_the_card_page(reader_client):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED)
    first = card.ordered_slots()[0].question
    right = first.propositions.get(is_right=True)
    hidden = first.propositions.get(is_hidden=True)

    page = reader_client.get(change_url(card)).content.decode()

    table = page.split('class="plateau-composer-readonly"')[1].split("</table>")[0]
    assert first.text in table
    assert f"{right.text} <strong>✓ bonne réponse</strong>" in table
    assert f"{hidden.text} <em>(cachée)</em>" in table
    assert table.count('class="plateau-composer-row"') == 5
    assert "plateau-composer-data" not in page


# --- the question form ----------------------------------------------------------------------


def test_a_question_form_holds_only_the_fields_of_its_kind(editor_client):
    duel = editor_client.get(change_url(make_question("duel"))).content.decode()
    ladder = editor_client.get(change_url(make_question("echelle", step=1))).content.decode()
    star = editor_client.get(f"{ADD_QUESTION}?kind=etoile-mysterieuse").content.decode()

    assert 'name="step"' not in duel and 'name="answer"' not in duel
    assert 'name="image"' not in duel
    assert 'name="step"' in ladder and 'name="answer"' not in ladder
    assert 'name="image"' in star and 'name="answer"' in star and 'name="step"' not in star


def test_a_field_the_kind_does_not_have_is_emptied_and_the_editor_told(editor_client):
    question = make_question("duel")
    Question.objects.filter(pk=question.pk).update(step=3, answer="Égarée")
    data = form_data(editor_client.get(change_url(question)), step="7")
    data["_continue"] = "1"

    response = editor_client.post(change_url(question), data)

    assert response.status_code == 302
    question.refresh_from_db()
    assert question.step is None and question.answer == ""
    [warning] = [m for m in messages_of(response) if "vidés" in m]
    assert "Palier" in warning or "palier" in warning


def test_save_and_add_another_opens_the_same_kind_of_the_same_game(editor_client):
    data = form_data(editor_client.get(f"{ADD_QUESTION}?kind=duel"),
                     text="Quel est le plus haut sommet d’Afrique ?", difficulty="2")
    for n, text in enumerate(["Kilimandjaro", "Mont Kenya", "Ras Dashen", "Mont Stanley"]):
        data[f"propositions-{n}-text"] = text
    data["propositions-0-is_right"] = "on"
    data["_addanother"] = "1"

    response = editor_client.post(ADD_QUESTION, data)

    assert response.status_code == 302
    assert response["Location"] == f"{ADD_QUESTION}?game=douze-coups&kind=duel"
    again = editor_client.get(response["Location"]).content.decode()
    assert '<option value="duel" selected>' in again
    assert again.count('name="propositions-') >= 4 * 4


def kind_options(page) -> list[str]:
    """Return the values the page's kind select offers, blank included."""
    select = re.search(r'<select name="kind"[^>]*>(.*?)</select>', page.content.decode(), re.S)
    return re.findall(r'<option value="([^"]*)"', select.group(1))


def test_adding_for_one_game_offers_only_that_games_kinds(editor_client):
    assert kind_options(editor_client.get(f"{ADD_QUESTION}?game=millionnaire")) == ["echelle"]
    offered = kind_options(editor_client.get(f"{ADD_CARD}?game=prendre-sa-place"))
    assert offered == ["qualifs", "compet", "defi"]
    # Without a game, every kind of every game, from the first game's to the last's.
    every = kind_options(editor_client.get(ADD_QUESTION))
    assert {"echelle", "coup-d-envoi", "compet"} <= set(every)


def test_a_kind_of_another_game_is_refused_where_one_game_was_asked_for(editor_client):
    page = editor_client.get(f"{ADD_QUESTION}?game=millionnaire")
    data = {**form_data(page), "kind": "coup-fatal", "text": "Capitale du Pérou ?",
            "answer": "Lima", "difficulty": "2"}
    response = editor_client.post(f"{ADD_QUESTION}?game=millionnaire", data)
    assert response.status_code == 200 and not Question.objects.exists()
