"""The admin's kept reports: after every kind of write, what they say is a fresh validation.

Each process keeps its reports in memory (`cms.report_store`) and learns what changed from
the database (`cms.change_log`): `other` below is a second process's memory, over the same
database. Both must show the truth after a write, whichever door it came through.
"""

from collections import Counter

import pytest
from django.db import transaction
from django.urls import reverse
from reversion.models import Version

from cms import change_log, report_store
from cms.formats import CSVFormat
from cms.models import Question, Status
from cms.resources import QuestionResource
from cms.rules import check_game
from cms.selectors import load_game
from cms.services import (
    card_compose,
    content_delete,
    content_restore,
    content_save,
    duel_pair,
    set_status,
    withdraw,
)
from cms.snapshots import of_object
from player.engines.base import ANSWERED
from player.models import Play
from player.services import record
from tests.admin_forms import changelist_url, save
from tests.builders import make_card, make_duel_pair, make_question


def seen(problems) -> Counter:
    """Return problems as what tells them apart and what they measure, to compare."""
    return Counter((p.code, p.severity, p.target_key, p.params, repr(p.values),
                    round(p.magnitude, 9)) for p in problems)


@pytest.fixture
def other():
    """A second process's kept reports, over the same database."""
    return report_store.KeptReports()


def assert_current(slug, *processes):
    """Assert that every process's report of the game is a fresh validation's."""
    fresh = check_game(load_game(slug))
    for process in (report_store.KEPT, *processes):
        kept = process.report(slug)
        assert seen(kept.problems) == seen(fresh.problems)
        assert kept.slots_by_card == fresh.slots_by_card
    return fresh


def warm(slug, *processes):
    for process in (report_store.KEPT, *processes):
        process.report(slug)


def codes_about(obj, process=report_store.KEPT) -> set[str]:
    return {p.code for p in process.report(obj.game.slug).about(obj)}


def edited(obj, **fields) -> dict:
    return {**of_object(obj), **fields}


# --- each door ------------------------------------------------------------------------------


def test_an_edit_is_seen_by_both_processes(editor, other):
    question = make_question("echelle", step=1, difficulty=1)
    make_question("echelle", step=2, difficulty=2)
    warm("millionnaire", other)

    content_save(obj=question, data=edited(question, step=12), user=editor,
                 token=str(question.version))

    assert "step_difficulty_band" in codes_about(question, other)
    assert_current("millionnaire", other)


def test_an_import_is_seen_by_both_processes(editor, other):
    wrong = make_question("echelle", step=3, difficulty=5, ref="q-001")
    twin = make_question("echelle", text="Quel fleuve arrose la ville de Lyon ?")
    warm("millionnaire", other)
    assert "step_difficulty_band" in codes_about(wrong, other)
    rows = "ref;genre;texte;difficulte;palier;proposition_1;proposition_2;proposition_3;" \
           "proposition_4;bonnes\r\n" \
           "q-001;echelle;Quelle ville borde la Garonne ?;2;3;Agen;Brest;Caen;Dole;1\r\n" \
           "q-002;echelle;Quel fleuve arrose la ville de Lyon ?;1;1;Rhône;Loire;Seine;Somme;1\r\n"

    result = QuestionResource(user=editor).import_data(
        CSVFormat().create_dataset(rows.encode()))

    assert not result.has_errors() and not result.has_validation_errors()
    assert codes_about(wrong, other) == set()
    assert "duplicate" in codes_about(twin, other)
    assert_current("millionnaire", other)


def test_a_status_move_is_seen_by_both_processes(reviewer, other):
    card = make_card("coup-de-maitre", status=Status.REVIEW)
    question = card.ordered_slots()[2].question
    warm("douze-coups", other)

    set_status(obj=question, status=Status.DRAFT, user=reviewer)

    assert "question_status_behind" in codes_about(card, other)
    assert_current("douze-coups", other)


def test_a_withdrawal_is_seen_by_both_processes(reviewer, other):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED)
    warm("douze-coups", other)

    withdraw(obj=card, user=reviewer, reason="Une erreur dans la question 3")

    [coverage] = [p for p in other.report("douze-coups").game_wide()
                  if p.code == "coverage" and p.args["kind"] == "coup-de-maitre"]
    assert coverage.args["have"] == 0
    assert_current("douze-coups", other)


def test_composing_a_card_is_seen_by_both_processes(editor, other):
    first = make_card("coup-de-maitre", title="Premier")
    second = make_card("coup-de-maitre", title="Second", questions=[])
    moved = first.ordered_slots()[4].question
    warm("douze-coups", other)

    card_compose(card=second, questions=[moved], movable=[first.pk], user=editor)

    assert "question_count" in codes_about(first, other)
    assert "question_count" in codes_about(second, other)
    assert_current("douze-coups", other)


def test_pairing_duel_cards_is_seen_by_both_processes(editor, other):
    first, second = make_duel_pair(title="Les fleuves", colour="bleu")
    third = make_card("duel", title="Les fleuves", colour="bleu")
    warm("douze-coups", other)

    duel_pair(card=first, partner=third, user=editor)

    assert "pair_missing" in codes_about(second, other)
    assert "pair_missing" not in codes_about(third, other)
    assert_current("douze-coups", other)


def test_a_deletion_is_seen_by_both_processes(reviewer, other):
    card = make_card("coup-de-maitre")
    gone = card.ordered_slots()[0].question
    warm("douze-coups", other)

    content_delete(obj=gone, user=reviewer)

    assert "question_count" in codes_about(card, other)
    fresh = assert_current("douze-coups", other)
    assert gone.pk not in {key[1] for key in fresh._by_target if key}


def test_a_restore_is_seen_by_both_processes(editor, other):
    question = make_question("echelle", step=1, difficulty=1)
    content_save(obj=question, data=edited(question, text="Une première version ?"),
                 user=editor, token=str(question.version))
    first = Version.objects.get_for_object(question).order_by("pk").first()
    question.refresh_from_db()
    content_save(obj=question, data=edited(question, step=14), user=editor,
                 token=str(question.version))
    warm("millionnaire", other)
    assert "step_difficulty_band" in codes_about(question, other)

    question.refresh_from_db()
    content_restore(obj=question, version=first, user=editor, token=str(question.version))

    assert "step_difficulty_band" not in codes_about(question, other)
    assert_current("millionnaire", other)


def test_answers_given_in_play_are_seen_by_both_processes(db, other):
    question = make_question("echelle", step=1, difficulty=1)
    warm("millionnaire", other)
    play = Play.objects.create(game="millionnaire", browser="navigateur", players=["Ana"],
                               seed=1, state={})

    # Nobody knows the easiest question: play says it is among the hardest.
    record(play, [{"type": ANSWERED, "question": question.pk, "right": False, "seat": 0,
                   "mode": "carre"} for _ in range(25)])

    assert "difficulty_disagrees" in codes_about(question, other)
    assert_current("millionnaire", other)


# --- what a kept report must survive ---------------------------------------------------------


def test_a_near_duplicate_written_and_edited_away_is_followed(editor, other):
    one = make_question("echelle", text="Quel est le plus long fleuve de France métropolitaine ?")
    two = make_question("echelle", text="Combien de départements compte la Bretagne ?")
    warm("millionnaire", other)

    content_save(obj=two, data=edited(
        two, text="Quel est le plus long fleuve de la France métropolitaine ?"),
        user=editor, token=str(two.version))
    assert "near_duplicate" in codes_about(one, other)
    assert_current("millionnaire", other)

    two.refresh_from_db()
    content_save(obj=two, data=edited(two, text="Combien de régions compte la France ?"),
                 user=editor, token=str(two.version))
    assert codes_about(one, other) == set()
    assert_current("millionnaire", other)


def test_a_write_rolled_back_after_a_report_saw_it_is_forgotten(editor, other):
    question = make_question("echelle", step=1, difficulty=1)
    warm("millionnaire", other)

    with pytest.raises(RuntimeError), transaction.atomic():
        content_save(obj=question, data=edited(question, step=13), user=editor,
                     token=str(question.version))
        # Read inside the write's transaction, as the admin's message after a save is.
        assert "step_difficulty_band" in codes_about(question)
        raise RuntimeError("the request fails after the save")

    assert "step_difficulty_band" not in codes_about(question)
    assert_current("millionnaire", other)


def test_one_edit_is_caught_up_without_loading_the_whole_game_again(editor, monkeypatch):
    questions = [make_question("echelle", step=1, difficulty=1) for _ in range(5)]
    warm("millionnaire")
    kept = report_store.KEPT._kept["millionnaire"]

    def whole_game(slug):
        raise AssertionError("the whole game was loaded again")

    monkeypatch.setattr(report_store, "load_game", whole_game)
    content_save(obj=questions[0], data=edited(questions[0], step=11), user=editor,
                 token=str(questions[0].version))

    assert "step_difficulty_band" in codes_about(questions[0])
    assert report_store.KEPT._kept["millionnaire"] is kept
    monkeypatch.undo()
    assert_current("millionnaire")


# --- the admin's pages ------------------------------------------------------------------------


def test_the_list_and_its_filter_show_a_problem_written_by_an_edit(editor_client, editor):
    sound = make_question("echelle", step=1, difficulty=1, text="Quelle est la capitale du Pérou ?")
    url = reverse("admin:cms_question_changelist")
    errors = editor_client.get(url, {"game": "millionnaire", "problems": "errors"})
    assert "Pérou" not in errors.content.decode()

    content_save(obj=sound, data=edited(sound, step=15), user=editor,
                 token=str(sound.version))

    errors = editor_client.get(url, {"game": "millionnaire", "problems": "errors"})
    page = errors.content.decode()
    assert "Pérou" in page and "✖ 1" in page
    clean = editor_client.get(url, {"game": "millionnaire", "problems": "none"})
    assert "Pérou" not in clean.content.decode()


def test_the_message_after_a_save_names_the_problems_the_save_made(editor_client):
    question = make_question("echelle", step=1, difficulty=1)
    editor_client.get(changelist_url(Question), {"game": "millionnaire"})

    response = save(editor_client, question, step="15")
    page = editor_client.get(response.url)

    shown = [str(m) for m in page.context["messages"]]
    fresh = check_game(load_game("millionnaire")).about(Question.objects.get(pk=question.pk))
    errors = [p.message for p in fresh if p.is_error]
    said = [m for m in shown if "erreur" in m]
    assert errors and len(said) == 1 and said[0].startswith("1 erreur"), shown
    assert all(error in said[0] for error in errors)
    listed = editor_client.get(changelist_url(Question), {"game": "millionnaire",
                                                          "problems": "errors"})
    assert "✖ 1" in listed.content.decode()


def test_a_question_moved_to_another_game_leaves_the_first_one(editor, other):
    question = make_question("echelle", step=1, difficulty=1)
    warm("millionnaire", other)
    warm("prendre-sa-place", other)

    content_save(obj=question, data=edited(question, kind="qualifs", step=None),
                 user=editor, token=str(question.version))

    assert question.pk not in {key[1] for key in other.report("millionnaire")._by_target
                               if key}
    assert_current("millionnaire", other)
    assert_current("prendre-sa-place", other)


def test_a_process_far_behind_the_log_checks_the_game_again(editor, other, monkeypatch):
    first = make_question("echelle", step=1, difficulty=1)
    second = make_question("echelle", step=1, difficulty=1)
    warm("millionnaire", other)
    monkeypatch.setattr(change_log, "KEEP", 2)

    # The first change is out of the log by the time the process behind reads it.
    content_save(obj=first, data=edited(first, step=14), user=editor,
                 token=str(first.version))
    for step in (2, 3):
        second.refresh_from_db()
        content_save(obj=second, data=edited(second, step=step), user=editor,
                     token=str(second.version))

    assert "step_difficulty_band" in codes_about(first, other)
    assert_current("millionnaire", other)
