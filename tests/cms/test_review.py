"""Review: a Relecteur sends content back with a reason, everyone comments, the admin home
shows the review queue and each editor's drafts, and the review page shows a correction."""

import re
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from reversion.models import Version

from cms import services
from cms.models import (
    Card,
    Comment,
    CommentKind,
    Correction,
    CorrectionState,
    Question,
    Status,
)
from tests.admin_forms import change_url, changelist_url, save
from tests.builders import make_card, make_question
from tests.cms.test_roles import browser as logged_in  # a client each: fixtures share one

pytestmark = pytest.mark.django_db

REASON = "La réponse B est aussi juste : reformulez la question."


def url(obj, name, *args):
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_{name}", args=[obj.pk, *args])


def live(obj):
    return type(obj).objects.get(pk=obj.pk)


def text_of(page) -> str:
    """The page (a response or HTML) as a person reads it: tags dropped, spaces plain."""
    html = page if isinstance(page, str) else page.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("\u202f", " ")
                    .replace("\u00a0", " ").replace("&#x27;", "'").split())


def in_review(editor, **fields):
    return make_question("echelle", step=1, difficulty=1, status=Status.REVIEW,
                         created_by=editor, updated_by=editor, **fields)


def with_correction(editor, *, text="Quel fleuve traverse Lyon, corrigé ?"):
    question = make_question("echelle", step=1, difficulty=1, status=Status.PUBLISHED)
    data = {**services.shown_state(question), "text": text}
    data.pop("status")
    services.content_save(obj=question, data=data, user=editor)
    return live(question)


# --- asking for corrections ---------------------------------------------------------------


def test_a_reviewer_sends_content_in_review_back_to_draft_with_the_reason_as_a_comment(
        reviewer_client, reviewer, editor):
    question = in_review(editor)
    response = reviewer_client.post(url(question, "request_changes"), {"review-reason": REASON})
    assert response.status_code == 302
    assert live(question).status == Status.DRAFT
    comment = question.comments.get()
    assert (comment.kind, comment.text, comment.author, comment.is_open) == (
        CommentKind.CHANGES_REQUESTED, REASON, reviewer, True)
    assert REASON in Version.objects.get_for_object(question).first().revision.get_comment()


def test_asking_for_corrections_without_a_reason_changes_nothing(reviewer, editor):
    question = in_review(editor)
    with pytest.raises(ValidationError) as refusal:
        services.request_changes(obj=question, user=reviewer, reason="   ")
    assert refusal.value.error_dict["reason"][0].code == "reason_missing"
    assert live(question).status == Status.REVIEW
    assert not Comment.objects.exists()


def test_an_editor_may_not_ask_for_corrections(editor_client, editor):
    question = in_review(editor)
    with pytest.raises(PermissionDenied):
        services.request_changes(obj=question, user=editor, reason=REASON)
    response = editor_client.post(url(question, "request_changes"), {"review-reason": REASON})
    assert response.status_code == 403
    assert live(question).status == Status.REVIEW
    assert not Comment.objects.exists()


def test_content_neither_in_review_nor_corrected_is_not_sent_back(reviewer, editor):
    question = make_question("echelle", step=1, difficulty=1, created_by=editor)
    with pytest.raises(services.StatusRefused):
        services.request_changes(obj=question, user=reviewer, reason=REASON)
    assert not Comment.objects.exists()


def test_a_returned_correction_stays_pending_and_waits_for_its_author(reviewer, editor):
    reviewer_client, editor_client = logged_in(reviewer), logged_in(editor)
    question = with_correction(editor)
    assert [row.obj for row in services_queue(reviewer)] == [question]

    reviewer_client.post(url(question, "request_changes"), {"review-reason": REASON})

    correction = question.corrections.get()
    assert correction.state == CorrectionState.PENDING  # returned, not discarded
    assert live(question).status == Status.PUBLISHED
    assert services_queue(reviewer) == []
    home = editor_client.get(reverse("admin:index"))
    drafts = text_of(home).split("Mes brouillons")[1]
    assert text_of(str(question)) in drafts and "correction" in drafts and REASON in drafts

    # Saved again by its author, the correction is back in the queue, the request open.
    save(editor_client, question, "_continue", text="Quel fleuve traverse Lyon ? (corrigé)")
    assert [row.obj for row in services_queue(reviewer)] == [question]
    assert question.comments.get().is_open


def services_queue(user):
    from cms.review import review_queue
    return review_queue(user)


def test_the_author_sees_the_reason_on_the_page_and_in_her_drafts(editor_client, editor,
                                                                  reviewer):
    question = in_review(editor, text="Quelle est la capitale de l’Australie ?")
    services.request_changes(obj=question, user=reviewer, reason=REASON)

    page = text_of(editor_client.get(change_url(question)))
    assert "Corrections demandées" in page and REASON in page and "relecteur" in page
    home = text_of(editor_client.get(reverse("admin:index")))
    mine = home.split("Mes brouillons")[1]
    assert "Quelle est la capitale de l’Australie ?" in mine
    assert "Corrections demandées : " + REASON in mine
    assert "1 renvoyé avec des corrections à faire" in home


def test_a_reviewer_sends_several_back_from_the_list(reviewer_client, editor):
    first, second = in_review(editor), in_review(editor)
    untouched = in_review(editor)
    response = reviewer_client.post(changelist_url(Question), {
        "action": "request_changes", "_selected_action": [first.pk, second.pk],
        "index": "0", "review-reason": REASON})
    assert response.status_code == 302
    assert [live(q).status for q in (first, second, untouched)] == [
        Status.DRAFT, Status.DRAFT, Status.REVIEW]
    assert Comment.objects.filter(kind=CommentKind.CHANGES_REQUESTED).count() == 2


def test_the_list_action_asks_for_the_reason_first(reviewer_client, editor):
    question = in_review(editor)
    page = reviewer_client.post(changelist_url(Question), {
        "action": "request_changes", "_selected_action": [question.pk], "index": "0"})
    assert page.status_code == 200
    assert "Ce qu’il faut corriger" in page.content.decode()
    assert live(question).status == Status.REVIEW


# --- comments -----------------------------------------------------------------------------


def test_an_editor_comments_and_the_comment_is_shown_escaped(editor_client, editor):
    card = make_card("coup-de-maitre", created_by=editor)
    text = "<script>alert('x')</script> Question 3 trop facile ?"
    response = editor_client.post(url(card, "comment_add"), {"comment-text": text})
    assert response.status_code == 302
    comment = card.comments.get()
    assert (comment.text, comment.author, comment.kind) == (text, editor, CommentKind.NOTE)
    page = editor_client.get(change_url(card)).content.decode()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; Question 3 trop facile ?" in page


def test_a_reader_reads_comments_but_writes_none(reader_client, editor):
    question = make_question("echelle", step=1, difficulty=1)
    services.comment_add(obj=question, user=editor, text="Source à vérifier.")
    page = reader_client.get(change_url(question))
    assert "Source à vérifier." in text_of(page)
    assert 'id="plateau-comment-form"' not in page.content.decode()
    response = reader_client.post(url(question, "comment_add"), {"comment-text": "Moi aussi"})
    assert response.status_code == 403
    comment = question.comments.get()
    assert reader_client.post(url(question, "comment_resolve", comment.pk)).status_code == 403
    assert question.comments.count() == 1 and live_comment(comment).is_open


def live_comment(comment):
    return Comment.objects.get(pk=comment.pk)


def test_an_empty_comment_is_refused_and_nothing_written(editor_client):
    question = make_question("echelle", step=1, difficulty=1)
    editor_client.post(url(question, "comment_add"), {"comment-text": "   "})
    assert not question.comments.exists()


def test_a_reviewer_resolves_a_comment_and_it_stays_listed_as_resolved(
        reviewer_client, reviewer, editor):
    question = make_question("echelle", step=1, difficulty=1)
    comment = services.comment_add(obj=question, user=editor, text="Date à vérifier.")
    reviewer_client.post(url(question, "comment_resolve", comment.pk))
    comment.refresh_from_db()
    assert (comment.is_open, comment.resolved_by) == (False, reviewer)
    page = text_of(reviewer_client.get(change_url(question)))
    assert "Date à vérifier." in page and "Résolu par relecteur" in page


def test_comments_stay_when_a_correction_is_published(reviewer, editor):
    question = with_correction(editor)
    services.comment_add(obj=question, user=editor, text="J’ai corrigé la date.")
    services.correction_publish(obj=question, user=reviewer)
    assert [c.text for c in live(question).comments.all()] == ["J’ai corrigé la date."]


# --- the home page ------------------------------------------------------------------------


def test_the_queue_lists_what_awaits_review_oldest_first_with_counts_per_game(
        reviewer_client, reviewer, editor):
    newer = in_review(editor, text="Question récente en relecture ?")
    older = in_review(editor, text="Question ancienne en relecture ?")
    card = make_card("coup-de-maitre", status=Status.REVIEW, created_by=editor,
                     title="Carte en relecture")
    Question.objects.filter(pk=older.pk).update(updated_at=timezone.now() - timedelta(days=3))
    Card.objects.filter(pk=card.pk).update(updated_at=timezone.now() - timedelta(days=1))
    corrected = with_correction(editor, text="Question corrigée en attente ?")
    Correction.objects.update(updated_at=timezone.now() - timedelta(days=2))
    make_question("echelle", step=1, difficulty=1, created_by=editor)  # a draft: not queued
    services.comment_add(obj=newer, user=reviewer, text="Vérifier")
    services.comment_add(obj=newer, user=reviewer, text="Et la source")

    queue = services_queue(reviewer)
    assert [row.obj for row in queue] == [older, corrected, card, newer, *card_questions(card)]
    assert [row.open_comments for row in queue if row.obj == newer] == [2]

    home = reviewer_client.get(reverse("admin:index"))
    page = text_of(home)
    assert "À relire : 9 contenus" in page  # the card’s five questions are in review too
    assert "Qui veut gagner des millions ? : 3" in page and "Les 12 Coups de Midi : 6" in page
    ordered = [page.index(t) for t in ("Question ancienne en relecture ?", text_of(str(corrected)),
                                       "Carte en relecture", "Question récente en relecture ?")]
    assert ordered == sorted(ordered)
    assert "3 jours" in page
    assert change_url(older) in home.content.decode()


def card_questions(card):
    return [slot.question for slot in card.ordered_slots()]


def test_my_drafts_lists_my_own_drafts_only(editor_client, editor):
    mine = make_question("echelle", step=1, difficulty=1, created_by=editor,
                         text="Mon brouillon à moi ?")
    make_question("echelle", step=1, difficulty=1, text="Le brouillon d’un autre ?")
    in_review(editor, text="Ma question en relecture ?")
    page = text_of(editor_client.get(reverse("admin:index")))
    assert "Mes brouillons : 1" in page
    assert "Mon brouillon à moi ?" in page
    assert "Le brouillon d’un autre ?" not in page
    assert "Ma question en relecture ?" not in page
    assert "À relire" not in page  # an editor does not publish: no queue
    assert mine.pk


def test_a_reader_sees_neither_queue_nor_drafts(reader_client, editor):
    in_review(editor, text="Question en relecture ?")
    page = text_of(reader_client.get(reverse("admin:index")))
    assert "À relire" not in page and "Mes brouillons" not in page
    assert "Qui veut gagner des millions ?" in page  # the games are still listed


# --- the review page ----------------------------------------------------------------------


def test_a_reviewer_sees_a_cards_correction_slot_by_slot_with_the_three_decisions(
        reviewer, editor):
    reviewer_client, editor_client = logged_in(reviewer), logged_in(editor)
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les fleuves")
    first, second = card_questions(card)[:2]
    data = services.shown_state(card)
    data.pop("status")
    replacement = make_question("coup-de-maitre", difficulty=1, text="Question remplaçante ?")
    data["slots"] = [replacement.pk, *data["slots"][1:]]
    services.content_save(obj=card, data=data, user=editor)

    response = reviewer_client.get(change_url(card))
    html = response.content.decode()
    banner = html[html.index('id="plateau-correction"'):html.index("plateau-check")]
    banner_text = text_of(banner)
    assert "Question n°1" in banner_text
    assert text_of(str(first)) in banner_text and "Question remplaçante ?" in banner_text
    assert text_of(str(second)) not in banner_text  # unchanged slots are not listed
    assert 'name="_publish_correction"' in banner
    assert 'href="#plateau-request-changes"' in banner
    assert "correction/abandonner/" in banner
    assert 'id="plateau-request-changes"' in html
    # The author sees the banner, without the reviewer's decisions.
    mine = editor_client.get(change_url(card)).content.decode()
    assert 'id="plateau-correction"' in mine and 'id="plateau-request-changes"' not in mine


def test_a_card_sent_back_takes_its_questions_in_review_with_it(reviewer, editor):
    card = make_card("coup-de-maitre", status=Status.REVIEW, created_by=editor)
    services.request_changes(obj=card, user=reviewer, reason=REASON)
    assert live(card).status == Status.DRAFT
    assert {q.status for q in card_questions(card)} == {Status.DRAFT}
    assert services_queue(reviewer) == []
    assert [c.text for c in card.comments.all()] == [REASON]


def test_the_history_lists_the_comments_with_who_resolved_them(reviewer_client, reviewer,
                                                                editor):
    question = in_review(editor)
    services.request_changes(obj=question, user=reviewer, reason=REASON)
    services.comment_resolve(comment=question.comments.get(), user=editor)
    page = text_of(reviewer_client.get(url(question, "history")))
    assert "Demande de corrections : " + REASON in page
    assert "(redactrice)" in page.split("Commentaires")[-1]


def test_a_comment_longer_than_the_limit_is_refused_whatever_the_door(editor):
    question = make_question("echelle", step=1, difficulty=1)
    with pytest.raises(ValidationError) as refusal:
        services.comment_add(obj=question, user=editor, text="x" * 2001)
    assert refusal.value.error_dict["text"][0].code == "max_length"
    assert not question.comments.exists()


def test_the_words_a_correction_changes_are_marked_in_its_diff(reviewer, editor):
    question = make_question("echelle", step=1, difficulty=1, status=Status.PUBLISHED,
                             text="Quelle reine fut <b>guillotinée</b> en 1793 à Paris ?")
    data = {**services.shown_state(question),
            "text": "Quelle reine fut <b>guillotinée</b> en 1794 à Paris ?"}
    data.pop("status")
    services.content_save(obj=question, data=data, user=editor)

    html = logged_in(reviewer).get(change_url(question)).content.decode()
    banner = html[html.index('id="plateau-correction"'):html.index("plateau-check")]
    # Only the year differs: it alone is struck out and inserted; the rest reads as it is,
    # the editor's markup shown as text.
    assert re.findall(r"<del>(.*?)</del>", banner) == ["1793"]
    assert re.findall(r"<ins>(.*?)</ins>", banner) == ["1794"]
    assert "&lt;b&gt;guillotinée&lt;/b&gt;" in banner and "<b>guillotinée" not in banner
