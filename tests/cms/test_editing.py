"""Editors never lose work, and nothing is published without review (cms.services).

Edits, corrections beside live content, stale pages, withdrawal, deletion, restore and
recovery, checked on what the database holds afterwards.
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from reversion.models import Version

from cms import services, snapshots
from cms.models import Card, Correction, CorrectionState, Question, Status
from cms.selectors import load_game
from tests.builders import make_card, make_duel_pair, make_question


def edited(obj, **changes) -> dict:
    """Return obj's current state with some fields changed, as an editor submits it."""
    data = snapshots.of_object(obj)
    data.update(changes)
    return data


def live(obj):
    return type(obj).objects.get(pk=obj.pk)


def state_of_everything() -> dict:
    """Return every question and card as it now is, by (model, pk)."""
    states = {}
    for model in (Question, Card):
        for obj in model.objects.all():
            states[(model.__name__, obj.pk)] = snapshots.of_object(obj)
    return states


# --- an edit of content not yet published is written at once -------------------------------


def test_an_edit_of_a_draft_is_written_and_counted(editor):
    question = make_question("echelle")

    saved = services.content_save(obj=question, data=edited(question, text="Nouveau\u202f?"),
                                  user=editor, token=services.token_of(question))

    assert saved.correction is None
    question.refresh_from_db()
    assert (question.text, question.version, question.updated_by) == ("Nouveau\u202f?", 2, editor)
    [version] = Version.objects.get_for_object(question)
    assert version.revision.user == editor
    assert snapshots.of_version(version)["propositions"] == snapshots.of_object(
        question)["propositions"]


def test_a_question_in_review_edited_into_an_error_falls_back_to_draft(editor):
    question = make_question("echelle", status=Status.REVIEW)
    data = edited(question)
    data["propositions"] = data["propositions"][:2]

    saved = services.content_save(obj=question, data=data, user=editor)

    question.refresh_from_db()
    assert question.status == Status.DRAFT
    assert question.propositions.count() == 2
    assert saved.notes


# --- published content stays live while it is corrected -----------------------------------


def test_an_editors_edit_of_published_content_waits_as_a_correction(editor):
    question = make_question("echelle", status=Status.PUBLISHED, text="Texte en jeu\u202f?")
    before = snapshots.of_object(question)

    saved = services.content_save(obj=question, data=edited(question, text="Texte corrigé\u202f?"),
                                  user=editor)

    assert snapshots.of_object(live(question)) == before
    assert live(question).status == Status.PUBLISHED
    correction = question.corrections.get()
    assert (correction.state, correction.created_by) == (CorrectionState.PENDING, editor)
    assert correction.data["text"] == "Texte corrigé\u202f?"
    assert saved.correction == correction


def test_printing_and_play_read_the_live_version_while_a_correction_waits(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="Texte en jeu\u202f?")
    services.content_save(obj=question, data=edited(question, text="Texte corrigé\u202f?"),
                          user=editor)

    assert [q.text for q in load_game("millionnaire").questions] == ["Texte en jeu\u202f?"]

    services.correction_publish(obj=question, user=reviewer)

    assert [q.text for q in load_game("millionnaire").questions] == ["Texte corrigé\u202f?"]
    assert question.corrections.get().state == CorrectionState.PUBLISHED


def test_a_second_edit_updates_the_one_pending_correction(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)
    services.content_save(obj=question, data=edited(question, text="Première\u202f?"), user=editor)
    token = services.token_of(live(question))

    services.content_save(obj=question, data=edited(question, text="Seconde\u202f?"), user=reviewer,
                          token=token, as_correction=True)

    correction = question.corrections.get()
    assert correction.data["text"] == "Seconde\u202f?"
    assert (correction.created_by, correction.updated_by, correction.revision) == (
        editor, reviewer, 2)


def test_a_reviewers_sound_edit_of_published_content_goes_live_and_stays_published(reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)

    saved = services.content_save(obj=question, data=edited(question, text="Corrigé\u202f?"),
                                  user=reviewer)

    assert saved.correction is None
    question.refresh_from_db()
    assert (question.text, question.status) == ("Corrigé\u202f?", Status.PUBLISHED)
    assert not question.corrections.exists()


def test_a_reviewers_edit_with_an_error_waits_and_leaves_the_live_version_whole(reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)
    before = snapshots.of_object(question)
    data = edited(question)
    data["propositions"] = data["propositions"][:3]

    saved = services.content_save(obj=question, data=data, user=reviewer)

    assert saved.correction is not None
    assert snapshots.of_object(live(question)) == before
    assert {p.code for p in services.correction_problems(live(question))} == {
        "proposition_count"}
    with pytest.raises(services.StatusRefused) as refusal:
        services.correction_publish(obj=question, user=reviewer)
    assert {p.code for p in refusal.value.problems} == {"proposition_count"}
    assert snapshots.of_object(live(question)) == before


def test_a_reviewers_edit_that_would_bend_the_ladder_waits_as_a_correction(reviewer):
    make_question("echelle", step=4, difficulty=2, status=Status.PUBLISHED)
    upper = make_question("echelle", step=5, difficulty=3, status=Status.PUBLISHED)

    saved = services.content_save(obj=upper, data=edited(upper, difficulty=1), user=reviewer)

    assert saved.correction is not None
    assert live(upper).difficulty == 3


def test_an_editor_may_not_publish_a_correction(editor):
    question = make_question("echelle", status=Status.PUBLISHED)
    services.content_save(obj=question, data=edited(question, text="Corrigé\u202f?"), user=editor)

    with pytest.raises(PermissionDenied):
        services.correction_publish(obj=question, user=editor)

    assert live(question).text != "Corrigé\u202f?"


def test_publishing_a_correction_written_on_an_older_version_is_refused(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="Avant\u202f?")
    services.content_save(obj=question, data=edited(question, theme="Histoire"), user=editor)
    # Meanwhile the live version moves on by another path (a Relecteur's import).
    Question.objects.filter(pk=question.pk).update(text="Importé\u202f?", version=F("version") + 1)

    with pytest.raises(services.CorrectionOutdated) as refusal:
        services.correction_publish(obj=question, user=reviewer)

    assert [(c.before, c.after) for c in refusal.value.changes] == [
        ("Avant\u202f?", "Importé\u202f?")]
    assert (live(question).text, live(question).theme) == ("Importé\u202f?", "")
    assert question.corrections.get().state == CorrectionState.PENDING


def test_the_author_may_discard_their_correction_and_another_editor_may_not(db, editor):
    from tests.conftest import _member

    other = _member("autre", "Rédacteur")
    question = make_question("echelle", status=Status.PUBLISHED)
    before = snapshots.of_object(question)
    services.content_save(obj=question, data=edited(question, text="Corrigé\u202f?"), user=editor)

    with pytest.raises(PermissionDenied):
        services.correction_discard(obj=live(question), user=other)
    services.correction_discard(obj=live(question), user=editor, reason="Fausse piste")

    correction = Correction.objects.get()
    assert (correction.state, correction.reason) == (CorrectionState.DISCARDED, "Fausse piste")
    assert snapshots.of_object(live(question)) == before


# --- no silent overwrite ------------------------------------------------------------------


def test_a_save_from_an_older_page_is_refused_with_what_changed(editor, reviewer):
    question = make_question("echelle", text="Version lue\u202f?")
    page_token = services.token_of(question)
    page_state = services.shown_state(question)
    services.content_save(obj=question, data=edited(question, text="Version de l’autre\u202f?"),
                          user=reviewer, token=page_token)

    with pytest.raises(services.StaleEdit) as stale:
        services.content_save(obj=question, data=edited(question, text="Ma version\u202f?"),
                              user=editor, token=page_token, seen=page_state)

    assert live(question).text == "Version de l’autre\u202f?"
    assert [(c.before, c.after) for c in stale.value.changes] == [
        ("Version lue\u202f?", "Version de l’autre\u202f?")]
    assert stale.value.by == reviewer


def test_a_correction_proposed_meanwhile_makes_an_older_page_stale(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)
    page_token = services.token_of(question)
    services.content_save(obj=question, data=edited(question, text="Correction A\u202f?"),
                          user=editor, token=page_token)

    with pytest.raises(services.StaleEdit):
        services.content_save(obj=question, data=edited(question, text="Correction B\u202f?"),
                              user=reviewer, token=page_token, as_correction=True)

    assert question.corrections.get().data["text"] == "Correction A\u202f?"


# --- status: only a Relecteur publishes or withdraws ----------------------------------------


def test_withdrawing_needs_a_reason_and_a_reviewer(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)

    with pytest.raises(PermissionDenied):
        services.withdraw(obj=question, user=editor, reason="Erreur")
    with pytest.raises(ValidationError):
        services.withdraw(obj=question, user=reviewer, reason="  ")
    assert live(question).status == Status.PUBLISHED

    services.withdraw(obj=question, user=reviewer, reason="Réponse contestée")

    assert live(question).status == Status.DRAFT
    latest = Version.objects.get_for_object(question).first()
    assert "Réponse contestée" in latest.revision.get_comment()


def test_back_to_draft_does_not_take_published_content_out_of_the_game(reviewer):
    question = make_question("echelle", status=Status.PUBLISHED)

    moved, refused = services.set_status_many(objects=[question], status=Status.DRAFT,
                                              user=reviewer)

    assert (moved, list(refused)) == ([], [question])
    assert live(question).status == Status.PUBLISHED


def test_a_duel_card_is_withdrawn_with_its_twin(reviewer):
    first, second = make_duel_pair(status=Status.PUBLISHED)

    services.withdraw(obj=first, user=reviewer, reason="Titre à revoir")

    assert (live(first).status, live(second).status) == (Status.DRAFT, Status.DRAFT)
    assert live(first).pair_id == second.pk


def test_a_question_printed_on_a_published_card_is_not_withdrawn_alone(reviewer):
    card = make_card("coup-fatal", status=Status.PUBLISHED)
    question = card.ordered_slots()[0].question

    with pytest.raises(services.StatusRefused):
        services.withdraw(obj=question, user=reviewer, reason="Erreur")

    assert live(question).status == Status.PUBLISHED


# --- deletion and recovery ----------------------------------------------------------------


def test_an_editor_deletes_only_their_own_never_published_drafts(editor, reviewer):
    mine = make_question("echelle", created_by=editor)
    theirs = make_question("echelle", created_by=reviewer)
    once_published = make_question("echelle", created_by=editor, status=Status.PUBLISHED)
    services.withdraw(obj=once_published, user=reviewer, reason="Erreur")
    assert live(once_published).status == Status.DRAFT

    for obj in (theirs, live(once_published)):
        with pytest.raises(PermissionDenied):
            services.content_delete(obj=obj, user=editor)
    services.content_delete(obj=mine, user=editor)

    assert set(Question.objects.values_list("pk", flat=True)) == {theirs.pk,
                                                                  once_published.pk}


def test_a_reviewer_deletes_published_content_and_it_comes_back_a_draft(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="Supprimée\u202f?")
    pk = question.pk

    services.content_delete(obj=question, user=reviewer)
    assert not Question.objects.filter(pk=pk).exists()
    version = Version.objects.get_deleted(Question).get()
    saved = services.content_recover(version=version, user=editor)

    recovered = Question.objects.get(pk=pk)
    assert (recovered.text, recovered.status) == ("Supprimée\u202f?", Status.DRAFT)
    assert recovered.propositions.count() == 4
    assert saved.obj.pk == pk


def test_deleting_what_a_published_card_prints_is_refused(reviewer):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED)
    question = card.ordered_slots()[1].question
    before = state_of_everything()

    with pytest.raises(services.EditRefused) as refusal:
        services.content_delete(obj=question, user=reviewer)

    assert "question_count" in {p.code for p in refusal.value.problems}
    assert state_of_everything() == before


# --- restore: one object, an edit like any other --------------------------------------------


def test_restoring_one_question_of_a_bulk_revision_leaves_every_other_object_alone(
        editor, reviewer):
    questions = [make_question("echelle", step=n, difficulty=2) for n in (1, 2, 3)]
    services.set_status_many(objects=questions, status=Status.PUBLISHED, user=reviewer)
    first = live(questions[0])
    [revision] = {v.revision for v in Version.objects.get_for_object(first)}
    assert revision.version_set.filter(content_type__model="question").count() == 3
    # Afterwards: the reviewer corrects the second one, the editor edits the third.
    second, third = live(questions[1]), live(questions[2])
    services.content_save(obj=second, data=edited(second, text="Correction publiée\u202f?"),
                          user=reviewer)
    services.content_save(obj=third, data=edited(third, theme="Sciences"), user=editor)
    others = {key: value for key, value in state_of_everything().items()
              if key != ("Question", first.pk)}
    version = Version.objects.get_for_object(first).filter(revision=revision).get()

    services.content_restore(obj=first, version=version, user=reviewer)

    assert {key: value for key, value in state_of_everything().items()
            if key != ("Question", first.pk)} == others
    assert live(questions[1]).text == "Correction publiée\u202f?"
    assert live(questions[2]).corrections.get().data["theme"] == "Sciences"


def test_an_editors_restore_of_published_content_waits_for_review(editor, reviewer):
    question = make_question("echelle", text="Ancien\u202f?")
    services.set_status(obj=question, status=Status.PUBLISHED, user=reviewer)
    [old] = Version.objects.get_for_object(question)
    services.content_save(obj=live(question), data=edited(live(question), text="Récent\u202f?"),
                          user=reviewer)

    services.content_restore(obj=live(question), version=old, user=editor)

    assert (live(question).status, live(question).text) == (Status.PUBLISHED, "Récent\u202f?")
    correction = question.corrections.get()
    assert (correction.created_by, correction.data["text"]) == (editor, "Ancien\u202f?")


def test_a_restore_never_brings_a_status_back(editor, reviewer):
    question = make_question("echelle")
    services.set_status(obj=question, status=Status.PUBLISHED, user=reviewer)
    published = Version.objects.get_for_object(question).first()
    services.withdraw(obj=live(question), user=reviewer, reason="À revoir")

    services.content_restore(obj=live(question), version=published, user=editor)

    assert live(question).status == Status.DRAFT


def test_restoring_a_card_slot_onto_another_cards_question_is_refused(editor):
    card = make_card("coup-de-maitre")
    services.content_save(obj=card, data=edited(card, title="Version 1"), user=editor)
    [kept] = Version.objects.get_for_object(card)
    moved = card.ordered_slots()[0].question
    other = make_card("coup-de-maitre", questions=[])
    live(card).slots.filter(question=moved).delete()
    Card.objects.get(pk=other.pk).slots.create(question=moved, position=1)
    before = state_of_everything()

    with pytest.raises(ValidationError):
        services.content_restore(obj=live(card), version=kept, user=editor)

    assert state_of_everything() == before


# --- one identity for a problem -------------------------------------------------------------


def test_publishing_a_question_that_improves_a_bent_ladder_is_allowed(reviewer):
    # The ladder already goes down between steps 4 (average 2) and 5 (average 1.0).
    make_question("echelle", step=4, difficulty=2, status=Status.PUBLISHED)
    make_question("echelle", step=5, difficulty=1, status=Status.PUBLISHED)
    better = make_question("echelle", step=5, difficulty=2)  # step 5 average: 1.5

    services.set_status(obj=better, status=Status.PUBLISHED, user=reviewer)

    assert live(better).status == Status.PUBLISHED


def test_publishing_a_question_that_bends_the_ladder_further_is_refused(reviewer):
    make_question("echelle", step=4, difficulty=3, status=Status.PUBLISHED)
    make_question("echelle", step=5, difficulty=2, status=Status.PUBLISHED)
    worse = make_question("echelle", step=5, difficulty=1)  # step 5 average: 2 -> 1.5

    with pytest.raises(services.StatusRefused) as refusal:
        services.set_status(obj=worse, status=Status.PUBLISHED, user=reviewer)

    assert [(p.code, dict(p.params)) for p in refusal.value.problems] == [
        ("ladder_difficulty_down", {"step": 5, "lower": 4})]
    assert live(worse).status == Status.DRAFT


def test_a_card_in_review_that_loses_a_question_goes_back_to_draft(reviewer):
    card = make_card("coup-de-maitre", status=Status.REVIEW)
    version = card.version

    services.content_delete(obj=card.ordered_slots()[0].question, user=reviewer)

    card.refresh_from_db()
    assert (card.status, card.slots.count()) == (Status.DRAFT, 4)
    assert card.version > version
