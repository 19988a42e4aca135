"""The writes that matter: status changes, the edit guard, card composition, duel pairs."""

import pytest
from django.core.exceptions import PermissionDenied
from reversion.models import Revision, Version

from cms.models import Card, Question, Status
from cms.services import (
    StatusRefused,
    card_compose,
    duel_pair,
    set_status,
    set_status_many,
)
from tests.builders import make_card, make_duel_pair, make_question


def codes(refusal) -> set[str]:
    return {p.code for p in refusal.value.problems}


def refreshed(*objects):
    for obj in objects:
        obj.refresh_from_db()
    return objects


# --- set_status refuses errors upwards ------------------------------------------------------


def test_it_refuses_to_send_a_question_with_an_error_to_review(editor):
    question = make_question("echelle", propositions=[("Seule", True, False)])

    with pytest.raises(StatusRefused) as refusal:
        set_status(obj=question, status=Status.REVIEW, user=editor)

    assert "proposition_count" in codes(refusal)
    question.refresh_from_db()
    assert question.status == Status.DRAFT


def test_it_refuses_to_publish_a_question_with_an_error(reviewer):
    question = make_question("echelle", step=15, difficulty=1, status=Status.REVIEW)

    with pytest.raises(StatusRefused) as refusal:
        set_status(obj=question, status=Status.PUBLISHED, user=reviewer)

    assert codes(refusal) == {"step_difficulty_band"}
    question.refresh_from_db()
    assert question.status == Status.REVIEW


def test_a_refused_card_leaves_nothing_half_done(reviewer):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5], status=Status.REVIEW)
    revisions = Revision.objects.count()

    with pytest.raises(StatusRefused) as refusal:
        set_status(obj=card, status=Status.PUBLISHED, user=reviewer)

    assert "difficulty_order" in codes(refusal)
    card.refresh_from_db()
    assert card.status == Status.REVIEW
    assert {q.status for q in card.questions.all()} == {Status.REVIEW}
    assert card.updated_by is None
    assert Revision.objects.count() == revisions


def test_a_refused_duel_card_leaves_its_twin_alone(reviewer):
    first, second = make_duel_pair(status=Status.REVIEW)
    Card.objects.filter(pk=second.pk).update(colour="rouge")  # the pair no longer matches
    first.refresh_from_db()

    with pytest.raises(StatusRefused) as refusal:
        set_status(obj=first, status=Status.PUBLISHED, user=reviewer)

    assert "pair_mismatch" in codes(refusal)
    refreshed(first, second)
    assert (first.status, second.status) == (Status.REVIEW, Status.REVIEW)


def test_it_lets_content_with_an_error_go_back_to_draft(editor):
    question = make_question("echelle", propositions=[("Seule", True, False)],
                             status=Status.REVIEW)

    moved = set_status(obj=question, status=Status.DRAFT, user=editor)

    assert moved == [question]
    question.refresh_from_db()
    assert question.status == Status.DRAFT
    assert question.updated_by == editor


def test_it_lets_a_draft_with_errors_be_saved_as_draft(editor):
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])

    set_status(obj=card, status=Status.DRAFT, user=editor)

    card.refresh_from_db()
    assert card.status == Status.DRAFT


def test_it_keeps_a_revision_with_the_user(reviewer):
    question = make_question("echelle", status=Status.REVIEW)

    set_status(obj=question, status=Status.PUBLISHED, user=reviewer)

    version = Version.objects.get_for_object(question).first()
    assert version.revision.user == reviewer
    assert version.field_dict["status"] == Status.PUBLISHED


# --- set_status carries cards, questions and twins ----------------------------------------


def test_publishing_a_card_publishes_its_questions(reviewer):
    card = make_card("coup-de-maitre", status=Status.REVIEW)

    moved = set_status(obj=card, status=Status.PUBLISHED, user=reviewer)

    assert len(moved) == 6
    card.refresh_from_db()
    assert card.status == Status.PUBLISHED
    assert {q.status for q in card.questions.all()} == {Status.PUBLISHED}


def test_sending_a_card_to_review_sends_its_draft_questions_along(editor):
    card = make_card("coup-d-envoi")

    set_status(obj=card, status=Status.REVIEW, user=editor)

    assert {q.status for q in card.questions.all()} == {Status.REVIEW}


def test_publishing_a_duel_card_publishes_its_twin(reviewer):
    first, second = make_duel_pair(status=Status.REVIEW)

    set_status(obj=first, status=Status.PUBLISHED, user=reviewer)

    second.refresh_from_db()
    assert second.status == Status.PUBLISHED


def test_publishing_a_duel_card_publishes_its_twins_questions_too(reviewer):
    first, second = make_duel_pair(status=Status.REVIEW)

    set_status(obj=first, status=Status.PUBLISHED, user=reviewer)

    # The pair moves as one: a published twin must not hold questions still in review.
    assert {q.status for q in second.questions.all()} == {Status.PUBLISHED}


def test_publishing_an_easier_ladder_question_is_refused(reviewer):
    make_question("echelle", step=1, difficulty=2, status=Status.PUBLISHED)
    easier = make_question("echelle", step=2, difficulty=1, status=Status.REVIEW)

    with pytest.raises(StatusRefused) as refusal:
        set_status(obj=easier, status=Status.PUBLISHED, user=reviewer)

    assert codes(refusal) == {"ladder_difficulty_down"}
    easier.refresh_from_db()
    assert easier.status == Status.REVIEW


def test_publishing_a_ladder_question_that_keeps_the_climb_is_allowed(reviewer):
    make_question("echelle", step=1, difficulty=1, status=Status.PUBLISHED)
    harder = make_question("echelle", step=2, difficulty=2, status=Status.REVIEW)

    set_status(obj=harder, status=Status.PUBLISHED, user=reviewer)

    harder.refresh_from_db()
    assert harder.status == Status.PUBLISHED


def test_an_editor_may_not_publish(editor):
    question = make_question("echelle", status=Status.REVIEW)

    with pytest.raises(PermissionDenied):
        set_status(obj=question, status=Status.PUBLISHED, user=editor)

    question.refresh_from_db()
    assert question.status == Status.REVIEW


def test_a_reader_may_not_send_to_review(reader):
    card = make_card("coup-de-maitre")

    with pytest.raises(PermissionDenied):
        set_status(obj=card, status=Status.REVIEW, user=reader)

    card.refresh_from_db()
    assert card.status == Status.DRAFT


# --- duel_pair and card_compose -------------------------------------------------------------


def test_duel_pair_makes_the_pair_mutual_and_releases_the_former_twin(editor):
    first, former = make_duel_pair()
    newcomer = make_card("duel", title="Les fleuves", colour="bleu")

    duel_pair(card=first, partner=newcomer, user=editor)

    first, former, newcomer = refreshed(first, former, newcomer)
    assert first.pair == newcomer
    assert newcomer.pair == first
    assert former.pair is None


def test_duel_pair_releases_the_partners_former_twin_too(editor):
    first, first_twin = make_duel_pair()
    second, second_twin = make_duel_pair(title="Les îles", colour="vert")

    duel_pair(card=first, partner=second)

    first, first_twin, second, second_twin = refreshed(first, first_twin, second, second_twin)
    assert (first.pair, second.pair) == (second, first)
    assert first_twin.pair is None
    assert second_twin.pair is None


def test_duel_pair_with_no_partner_unpairs_the_card(editor):
    first, second = make_duel_pair()

    duel_pair(card=first, partner=None, user=editor)

    first, second = refreshed(first, second)
    assert first.pair is None
    assert second.pair is None


def test_card_compose_puts_the_questions_in_the_given_order(editor):
    card = make_card("coup-de-maitre", questions=[])
    questions = [make_question("coup-de-maitre", difficulty=d) for d in (3, 1, 5, 2, 4)]
    ordered = sorted(questions, key=lambda q: q.difficulty)

    card_compose(card=card, questions=ordered, user=editor)

    card.refresh_from_db()
    slots = card.ordered_slots()
    assert [slot.question for slot in slots] == ordered
    assert [slot.position for slot in slots] == [1, 2, 3, 4, 5]


def test_card_compose_replaces_what_the_card_held(editor):
    card = make_card("coup-de-maitre")
    old = list(card.questions.all())
    new = [make_question("coup-de-maitre", difficulty=d) for d in (1, 2, 3, 4, 5)]

    card_compose(card=card, questions=new, user=editor)

    card.refresh_from_db()
    assert [slot.question for slot in card.ordered_slots()] == new
    assert not any(q.slots.exists() for q in old)


# --- set_status_many --------------------------------------------------------------------------


def test_bulk_publishing_publishes_the_valid_and_refuses_the_broken_naming_why(reviewer):
    good = [make_question("echelle", step=n, difficulty=2) for n in (4, 5)]
    broken = make_question("echelle", step=6, propositions=[("Seule", True, False)])

    moved, refused = set_status_many(objects=[*good, broken], status=Status.PUBLISHED,
                                     user=reviewer)

    assert set(moved) == set(good)
    assert {p.code for p in refused[broken]} == {"proposition_count"}
    statuses = dict(Question.objects.values_list("pk", "status"))
    assert statuses == {good[0].pk: Status.PUBLISHED, good[1].pk: Status.PUBLISHED,
                        broken.pk: Status.DRAFT}


def test_bulk_publishing_finds_the_one_question_that_would_bend_the_ladder(reviewer):
    for step in (4, 6):
        make_question("echelle", step=step, difficulty=2, status=Status.PUBLISHED)
    too_easy = make_question("echelle", step=5, difficulty=1)
    fine = make_question("echelle", step=8, difficulty=3)

    moved, refused = set_status_many(objects=[too_easy, fine], status=Status.PUBLISHED,
                                     user=reviewer)

    assert moved == [fine]
    assert {p.code for p in refused[too_easy]} == {"ladder_difficulty_down"}
    too_easy.refresh_from_db()
    assert too_easy.status == Status.DRAFT


def test_bulk_publishing_validates_a_game_twice_not_twice_per_object(reviewer, monkeypatch):
    import cms.services

    questions = [make_question("echelle", step=n, difficulty=2) for n in range(2, 6)]
    calls = []
    real = cms.services.validate_game
    monkeypatch.setattr(cms.services, "validate_game",
                        lambda slug: calls.append(slug) or real(slug))

    moved, refused = set_status_many(objects=questions, status=Status.PUBLISHED, user=reviewer)

    assert (len(moved), refused) == (4, {})
    assert calls == ["millionnaire", "millionnaire"]


def test_bulk_back_to_draft_moves_everything_without_checks(editor):
    questions = [make_question("echelle", step=1, status=Status.REVIEW,
                               propositions=[("Seule", True, False)]) for _ in range(2)]

    moved, refused = set_status_many(objects=questions, status=Status.DRAFT, user=editor)

    assert (len(moved), refused) == (2, {})
    assert set(Question.objects.values_list("status", flat=True)) == {Status.DRAFT}
