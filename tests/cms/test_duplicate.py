"""Duplicate: a question with its propositions, a card with copies of its questions, as new
drafts of the editor who copied them, from the change page or the list."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from reversion.models import Version

from cms import services, snapshots
from cms.models import Card, CardQuestion, Question, Status
from tests.admin_forms import change_url, changelist_url
from tests.builders import make_card, make_question
from tests.cms.test_roles import browser as logged_in

pytestmark = pytest.mark.django_db

CONTENT = {"ref", "status", "propositions", "slots", "pair"}


def duplicate_url(obj):
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_duplicate", args=[obj.pk])


def content_of(obj) -> dict:
    """What a copy must share with its original: every field but its identity."""
    return {k: v for k, v in snapshots.of_object(obj).items() if k not in CONTENT}


def test_a_question_is_copied_with_its_propositions_as_a_new_draft(editor_client, editor,
                                                                    reviewer):
    original = make_question("echelle", step=4, difficulty=2, theme="Géographie",
                             status=Status.PUBLISHED, created_by=reviewer)
    response = editor_client.post(duplicate_url(original))

    copy = Question.objects.exclude(pk=original.pk).get()
    assert response.status_code == 302 and response["Location"] == change_url(copy)
    assert content_of(copy) == content_of(original)
    assert snapshots.of_object(copy)["propositions"] == snapshots.of_object(
        original)["propositions"]
    assert copy.ref != original.ref
    assert (copy.status, copy.created_by, copy.first_published_at) == (Status.DRAFT, editor,
                                                                        None)
    assert original.propositions.count() == 4  # the original keeps its own
    history = Version.objects.get_for_object(copy).get().revision
    assert (history.user, history.get_comment()) == (
        editor, f"Copie de «\u202f{original.ref}\u202f»")


def test_the_copy_of_corrected_content_is_the_correction_editors_see(editor):
    original = make_question("echelle", step=1, difficulty=1, status=Status.PUBLISHED)
    data = {**services.shown_state(original), "text": "Texte de la correction\u202f?"}
    data.pop("status")
    services.content_save(obj=original, data=data, user=editor)

    copy = services.content_duplicate(obj=original, user=editor)
    assert copy.text == "Texte de la correction\u202f?"
    assert Question.objects.get(pk=original.pk).text != copy.text


def test_a_card_is_copied_with_copies_of_its_questions_in_order(editor_client, editor):
    original = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les fleuves")
    questions = [slot.question for slot in original.ordered_slots()]
    editor_client.post(duplicate_url(original))

    copy = Card.objects.exclude(pk=original.pk).get()
    copies = [slot.question for slot in copy.ordered_slots()]
    assert (copy.title, copy.status, copy.created_by) == ("Les fleuves", Status.DRAFT, editor)
    assert [q.text for q in copies] == [q.text for q in questions]
    assert [q.difficulty for q in copies] == [1, 2, 3, 4, 5]  # the order rule still holds
    assert {q.pk for q in copies}.isdisjoint({q.pk for q in questions})
    assert all(q.status == Status.DRAFT and q.created_by == editor for q in copies)
    # The originals stay on their card: a question sits on one card only.
    assert [s.question for s in original.ordered_slots()] == questions
    assert CardQuestion.objects.count() == 10


def test_a_duel_cards_copy_has_no_twin(editor):
    first = make_card("duel", title="Les fleuves", colour="bleu")
    second = make_card("duel", title="Les fleuves", colour="bleu", pair=first)
    Card.objects.filter(pk=first.pk).update(pair=second)
    copy = services.content_duplicate(obj=Card.objects.get(pk=first.pk), user=editor)
    assert copy.pair is None
    assert Card.objects.get(pk=first.pk).pair == second


def test_a_reviewer_who_creates_nothing_may_not_duplicate(reviewer, reviewer_client):
    question = make_question("echelle", step=1, difficulty=1)
    with pytest.raises(PermissionDenied):
        services.content_duplicate(obj=question, user=reviewer)
    assert reviewer_client.post(duplicate_url(question)).status_code == 403
    page = reviewer_client.get(change_url(question)).content.decode()
    assert "Dupliquer" not in page
    assert Question.objects.count() == 1


def test_the_change_page_offers_the_button_to_an_editor(editor_client):
    question = make_question("echelle", step=1, difficulty=1)
    page = editor_client.get(change_url(question)).content.decode()
    assert f'action="{duplicate_url(question)}"' in page


def test_several_are_duplicated_from_the_list(editor, reader):
    first, second = (make_question("echelle", step=1, difficulty=1) for _ in range(2))
    response = logged_in(editor).post(changelist_url(Question), {
        "action": "duplicate", "_selected_action": [first.pk, second.pk], "index": "0"},
        follow=True)
    assert Question.objects.count() == 4
    assert "2 copies créées en brouillon" in response.content.decode()
    # A reader is not offered the action, and posting it writes nothing.
    logged_in(reader).post(changelist_url(Question), {
        "action": "duplicate", "_selected_action": [first.pk], "index": "0"})
    assert Question.objects.count() == 4
