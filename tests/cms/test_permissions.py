"""Each editor group can do exactly its job in the admin, and nobody else can do more."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from cms.models import Card, Question, Status
from tests.admin_forms import change_url, changelist_url, form_data, save
from tests.builders import make_card, make_question


def add_url(model) -> str:
    return reverse(f"admin:cms_{model.__name__.lower()}_add")


def delete_url(obj) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_delete", args=[obj.pk])


def history_url(obj) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_history", args=[obj.pk])


def problems_url(slug="douze-coups") -> str:
    return reverse("admin:cms_game_problems", args=[slug])


def run_action(client, model, action, objects):
    """POST a bulk action from the change list, as its form does."""
    return client.post(changelist_url(model), {
        "action": action, "_selected_action": [obj.pk for obj in objects],
        "index": "0", "select_across": "0",
    })


def offered_actions(client, model) -> set[str]:
    response = client.get(changelist_url(model))
    assert response.status_code == 200
    return {name for name, _label in response.context["action_form"].fields["action"].choices}


def status_of(obj) -> str:
    obj.refresh_from_db()
    return obj.status


# --- Rédacteur ------------------------------------------------------------------------------


def test_an_editor_adds_a_ladder_question_through_the_admin(editor_client, editor):
    page = editor_client.get(add_url(Question), {"kind": "echelle"})
    data = form_data(page, text="Quel est le plus long fleuve de France\u202f?", difficulty="1",
                     step="1", _save="1")
    for i, text in enumerate(["La Loire", "La Seine", "Le Rhône", "La Garonne"]):
        data[f"propositions-{i}-text"] = text
        data[f"propositions-{i}-position"] = str(i + 1)
    data["propositions-0-is_right"] = "on"

    response = editor_client.post(add_url(Question), data)

    assert response.status_code == 302
    question = Question.objects.get(text="Quel est le plus long fleuve de France\u202f?")
    assert question.kind == "echelle"
    assert question.created_by == editor
    assert question.status == Status.DRAFT
    assert [(p.text, p.is_right) for p in question.propositions.all()] == [
        ("La Loire", True), ("La Seine", False), ("Le Rhône", False), ("La Garonne", False)]


def test_an_editor_adds_a_card_through_the_admin(editor_client, editor):
    questions = [make_question("coup-de-maitre", difficulty=d) for d in (1, 2, 3, 4, 5)]
    page = editor_client.get(add_url(Card), {"kind": "coup-de-maitre"})
    data = form_data(page, title="Les fleuves", _save="1")
    for i, question in enumerate(questions):
        data[f"slots-{i}-question"] = str(question.pk)
        data[f"slots-{i}-position"] = str(i + 1)

    response = editor_client.post(add_url(Card), data)

    assert response.status_code == 302
    card = Card.objects.get(title="Les fleuves")
    assert card.kind == "coup-de-maitre"
    assert card.created_by == editor
    assert [slot.question for slot in card.ordered_slots()] == questions


def test_an_editor_changes_a_question_through_the_admin(editor_client, editor):
    question = make_question("echelle")

    response = save(editor_client, question, text="Quelle est la capitale de l’Islande\u202f?")

    assert response.status_code == 302
    question.refresh_from_db()
    assert question.text == "Quelle est la capitale de l’Islande\u202f?"
    assert question.updated_by == editor


def test_an_editor_changes_a_card_through_the_admin(editor_client):
    card = make_card("coup-de-maitre")

    response = save(editor_client, card, title="Les volcans")

    assert response.status_code == 302
    card.refresh_from_db()
    assert card.title == "Les volcans"


def test_an_editor_sends_a_question_to_review_with_the_button(editor_client):
    question = make_question("echelle")

    response = save(editor_client, question, button="_submit_review")

    assert response.status_code == 302
    assert status_of(question) == Status.REVIEW


def test_an_editor_sends_a_card_to_review_with_the_button(editor_client):
    card = make_card("coup-de-maitre")

    save(editor_client, card, button="_submit_review")

    assert status_of(card) == Status.REVIEW
    assert {q.status for q in card.questions.all()} == {Status.REVIEW}


def test_an_editor_sends_questions_to_review_with_the_bulk_action(editor_client):
    questions = [make_question("echelle"), make_question("echelle", step=2)]

    response = run_action(editor_client, Question, "send_to_review", questions)

    assert response.status_code == 302
    assert [status_of(q) for q in questions] == [Status.REVIEW, Status.REVIEW]


def test_an_editor_sees_no_publish_button(editor_client):
    question = make_question("echelle")

    page = editor_client.get(change_url(question)).content.decode()

    assert 'name="_submit_review"' in page
    assert 'name="_publish"' not in page


def test_an_editor_is_not_offered_the_publish_action(editor_client):
    actions = offered_actions(editor_client, Question)

    assert "send_to_review" in actions
    assert "publish" not in actions


def test_an_editor_forging_the_publish_button_leaves_the_status_unchanged(editor_client):
    question = make_question("echelle", status=Status.REVIEW)

    save(editor_client, question, button="_publish")

    assert status_of(question) == Status.REVIEW


def test_an_editor_forging_the_publish_action_leaves_the_status_unchanged(editor_client):
    question = make_question("echelle", status=Status.REVIEW)
    card = make_card("coup-de-maitre", status=Status.REVIEW)

    run_action(editor_client, Question, "publish", [question])
    run_action(editor_client, Card, "publish", [card])

    assert status_of(question) == Status.REVIEW
    assert status_of(card) == Status.REVIEW


# --- Relecteur ------------------------------------------------------------------------------


def test_a_reviewer_publishes_a_question_with_the_button(reviewer_client):
    question = make_question("echelle", status=Status.REVIEW)

    page = reviewer_client.get(change_url(question)).content.decode()
    response = save(reviewer_client, question, button="_publish")

    assert 'name="_publish"' in page
    assert response.status_code == 302
    assert status_of(question) == Status.PUBLISHED


def test_a_reviewer_publishes_a_card_with_the_button(reviewer_client):
    card = make_card("coup-de-maitre", status=Status.REVIEW)

    save(reviewer_client, card, button="_publish")

    assert status_of(card) == Status.PUBLISHED
    assert {q.status for q in card.questions.all()} == {Status.PUBLISHED}


def test_a_reviewer_publishes_with_the_bulk_action(reviewer_client):
    questions = [make_question("echelle", status=Status.REVIEW),
                 make_question("echelle", step=2, status=Status.REVIEW)]
    card = make_card("coup-de-maitre", status=Status.REVIEW)

    assert "publish" in offered_actions(reviewer_client, Question)
    run_action(reviewer_client, Question, "publish", questions)
    run_action(reviewer_client, Card, "publish", [card])

    assert [status_of(q) for q in questions] == [Status.PUBLISHED, Status.PUBLISHED]
    assert status_of(card) == Status.PUBLISHED


@pytest.mark.parametrize("model", [Question, Card], ids=["question", "card"])
def test_a_reviewer_cannot_add(reviewer_client, model):
    assert reviewer_client.get(add_url(model)).status_code == 403
    assert reviewer_client.post(add_url(model), {"_save": "1"}).status_code == 403


def test_a_reviewer_deletes_a_question_someone_else_wrote(reviewer_client, editor):
    question = make_question("echelle", created_by=editor)

    assert reviewer_client.get(delete_url(question)).status_code == 200
    assert reviewer_client.post(delete_url(question), {"post": "yes"}).status_code == 302
    assert not Question.objects.filter(pk=question.pk).exists()


def test_a_reviewer_deletes_a_card(reviewer_client):
    card = make_card("coup-de-maitre")

    assert reviewer_client.post(delete_url(card), {"post": "yes"}).status_code == 302
    assert not Card.objects.filter(pk=card.pk).exists()


def test_a_reviewer_is_offered_the_delete_action(reviewer_client):
    assert "delete_selected" in offered_actions(reviewer_client, Question)


# --- Lecteur --------------------------------------------------------------------------------


def test_a_reader_views_the_lists(reader_client):
    make_question("echelle")
    make_card("coup-de-maitre")

    assert reader_client.get(changelist_url(Question)).status_code == 200
    assert reader_client.get(changelist_url(Card)).status_code == 200


def test_a_reader_sees_change_pages_read_only(reader_client):
    question = make_question("echelle")
    card = make_card("coup-de-maitre")

    for obj in (question, card):
        response = reader_client.get(change_url(obj))
        assert response.status_code == 200
        assert response.context["has_change_permission"] is False
        page = response.content.decode()
        for button in ("_save", "_continue", "_submit_review", "_publish"):
            assert f'name="{button}"' not in page


def test_a_reader_views_the_history(reader_client):
    question = make_question("echelle")

    assert reader_client.get(history_url(question)).status_code == 200


def test_a_reader_views_the_problems_report(reader_client):
    make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])

    assert reader_client.get(problems_url()).status_code == 200


def test_a_reader_cannot_post_a_change(reader_client, editor):
    question = make_question("echelle")
    # The form a reader's page lacks, as an editor's browser would send it.
    editor_browser = Client()
    editor_browser.force_login(editor)
    data = form_data(editor_browser.get(change_url(question)), text="Changée\u202f?", _save="1")

    response = reader_client.post(change_url(question), data)

    assert response.status_code == 403
    question.refresh_from_db()
    assert question.text != "Changée\u202f?"


@pytest.mark.parametrize("model", [Question, Card], ids=["question", "card"])
def test_a_reader_cannot_add(reader_client, model):
    assert reader_client.get(add_url(model)).status_code == 403
    assert reader_client.post(add_url(model), {"_save": "1"}).status_code == 403
    assert not model.objects.exists()


def test_a_reader_cannot_delete(reader_client):
    question = make_question("echelle")
    card = make_card("coup-de-maitre")

    for obj in (question, card):
        assert reader_client.post(delete_url(obj), {"post": "yes"}).status_code == 403
        assert type(obj).objects.filter(pk=obj.pk).exists()


def test_a_reader_cannot_run_an_action(reader_client):
    question = make_question("echelle")

    run_action(reader_client, Question, "send_to_review", [question])

    assert status_of(question) == Status.DRAFT


# --- anonymous visitors and staff without a group ------------------------------------------

PROTECTED = [
    lambda q, c: reverse("admin:index"),
    lambda q, c: changelist_url(Question),
    lambda q, c: changelist_url(Card),
    lambda q, c: add_url(Question),
    lambda q, c: change_url(q),
    lambda q, c: change_url(c),
    lambda q, c: history_url(q),
    lambda q, c: delete_url(q),
    lambda q, c: problems_url(),
    lambda q, c: problems_url("millionnaire"),
    lambda q, c: reverse("admin:cms_game", args=["millionnaire"]),
]
PROTECTED_IDS = ["index", "questions", "cards", "add", "question", "card", "history", "delete",
                 "problems", "problems-millionnaire", "rules"]


@pytest.mark.parametrize("url_of", PROTECTED, ids=PROTECTED_IDS)
def test_an_anonymous_visitor_is_sent_to_the_login_page(client, db, url_of):
    url = url_of(make_question("echelle"), make_card("coup-de-maitre"))

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login") + "?next=")


def test_an_anonymous_post_changes_nothing(client, db):
    question = make_question("echelle")

    response = client.post(change_url(question), {"text": "Changée\u202f?", "_save": "1"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    question.refresh_from_db()
    assert question.text != "Changée\u202f?"


@pytest.fixture
def groupless_client(client, db):
    user = User.objects.create_user(username="stagiaire", password="motdepasse-test",
                                    is_staff=True)
    client.force_login(user)
    return client


@pytest.mark.parametrize("url_of", PROTECTED[1:-1], ids=PROTECTED_IDS[1:-1])
def test_a_staff_user_without_a_group_is_refused(groupless_client, url_of):
    url = url_of(make_question("echelle"), make_card("coup-de-maitre"))

    assert groupless_client.get(url).status_code == 403


def test_a_staff_user_without_a_group_sees_no_content_on_the_index(groupless_client):
    response = groupless_client.get(reverse("admin:index"))

    assert response.status_code == 200
    page = response.content.decode()
    assert changelist_url(Question) not in page
    assert changelist_url(Card) not in page
    assert problems_url() not in page
