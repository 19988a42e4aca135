"""Play calibrates the content: what players answer says how hard a question really is.

The bands and the minimum sample are cms.validation's; the counts are read from
player.Answer rows built here directly, as the web player records them.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from cms.games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN
from cms.models import Question
from cms.validation import (
    CALIBRATION_BANDS,
    CALIBRATION_BELOW_BANDS,
    CALIBRATION_MIN_ANSWERS,
    WARNING,
    Calibration,
    load_game,
    observed_difficulty,
    success_rate,
    validate_game,
)
from player.models import Answer
from tests.admin_forms import change_url
from tests.builders import make_question

NBSP = "\u00a0"


def ladder_question(difficulty: int, **fields) -> Question:
    """Return a valid ladder question of this difficulty (its step's band allows it)."""
    step = {1: 1, 2: 1, 3: 6, 4: 11, 5: 11}[difficulty]
    return make_question("echelle", difficulty=difficulty, step=step, **fields)


def play(question, *, right=0, wrong=0, accepted=0, mode="echelle") -> None:
    """Record answers given to a question in play; `accepted`: wrong, accepted by the table."""
    rows = ([(True, False)] * right + [(False, False)] * wrong + [(False, True)] * accepted)
    Answer.objects.bulk_create(
        Answer(question=question, browser="navigateur-test", mode=mode, right=is_right,
               overridden=overridden, given="Réponse donnée", seconds=4.5)
        for is_right, overridden in rows)


def calibration_problems(question) -> list:
    return [p for p in validate_game(question.game.slug).about(question)
            if p.code == "difficulty_disagrees"]


# --- the bands, pure ----------------------------------------------------------------------


@pytest.mark.parametrize(("right", "observed"), [
    (100, 1), (85, 1), (84, 2), (65, 2), (64, 3), (45, 3), (44, 4), (25, 4), (24, 5), (0, 5),
])
def test_the_observed_difficulty_follows_the_bands_of_success(right, observed):
    assert observed_difficulty(100, right) == observed


def test_a_rate_exactly_on_a_band_edge_lands_in_that_band():
    # 17 / 20 is 85 % exactly: no float rounding may drop it to the band below.
    assert observed_difficulty(20, 17) == 1
    assert observed_difficulty(20, 13) == 2


def test_the_rate_shown_is_rounded_down_so_it_reads_in_its_own_band():
    assert success_rate(1000, 849) == 84
    assert observed_difficulty(1000, 849) == 2


def test_a_question_never_answered_has_no_rate_and_no_observed_difficulty():
    assert success_rate(0, 0) is None
    assert observed_difficulty(0, 0) is None


@pytest.mark.parametrize(("answers", "right"), [(10, 11), (10, -1), (-1, 0)])
def test_impossible_counts_are_refused(answers, right):
    with pytest.raises(ValueError):
        observed_difficulty(answers, right)


def test_the_bands_name_every_difficulty_once_from_easiest_to_hardest():
    thresholds = [lowest for lowest, _difficulty in CALIBRATION_BANDS]
    difficulties = [d for _lowest, d in CALIBRATION_BANDS] + [CALIBRATION_BELOW_BANDS]

    assert thresholds == sorted(thresholds, reverse=True)
    assert difficulties == list(range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1))


def test_a_calibration_judges_nothing_below_the_minimum_sample():
    assert not Calibration(rated=1, answers=CALIBRATION_MIN_ANSWERS - 1, right=0).disagrees
    assert Calibration(rated=1, answers=CALIBRATION_MIN_ANSWERS, right=0).disagrees


# --- the rule, in the report ----------------------------------------------------------------


@pytest.mark.django_db
def test_a_question_two_difficulties_from_play_is_warned_about():
    question = ladder_question(1)
    play(question, right=6, wrong=14)  # 30 %: observed 4

    [problem] = calibration_problems(question)

    assert problem.severity == WARNING
    assert problem.args == {"rated": 1, "observed": 4, "rate": 30, "count": 20}
    assert problem.message == (f"Difficulté notée 1, observée 4 en jeu{NBSP}: 30{NBSP}% de "
                               "bonnes réponses sur 20 réponses.")


@pytest.mark.django_db
def test_a_question_one_difficulty_from_play_is_not_warned_about():
    question = ladder_question(1)
    play(question, right=14, wrong=6)  # 70 %: observed 2

    assert calibration_problems(question) == []


@pytest.mark.django_db
def test_nothing_is_warned_about_below_the_minimum_sample():
    question = ladder_question(1)
    play(question, wrong=CALIBRATION_MIN_ANSWERS - 1)

    assert calibration_problems(question) == []


@pytest.mark.django_db
def test_the_minimum_sample_is_enough_to_warn():
    question = ladder_question(1)
    play(question, wrong=CALIBRATION_MIN_ANSWERS)

    assert [p.args["observed"] for p in calibration_problems(question)] == [5]


@pytest.mark.django_db
def test_an_answer_the_table_accepted_anyway_counts_as_right():
    question = ladder_question(5)
    play(question, right=2, accepted=18)

    assert load_game("millionnaire").answers[question.pk] == (20, 20)
    assert [p.args["observed"] for p in calibration_problems(question)] == [1]


@pytest.mark.django_db
def test_the_report_counts_every_answer_in_one_query_however_many_questions_were_played():
    play(ladder_question(1), wrong=20)
    with CaptureQueriesContext(connection) as few:
        validate_game("millionnaire")
    for _ in range(5):
        play(ladder_question(1), wrong=20)

    with CaptureQueriesContext(connection) as many:
        report = validate_game("millionnaire")

    assert len(many) == len(few)
    assert sum(p.code == "difficulty_disagrees" for p in report.problems) == 6


@pytest.mark.django_db
def test_the_problems_report_lists_the_calibration_warning(reviewer_client):
    question = ladder_question(1)
    play(question, right=6, wrong=14)

    response = reviewer_client.get(reverse("admin:cms_game_problems", args=["millionnaire"]))

    [row] = [row for row in response.context["rows"]
             if row["problem"].code == "difficulty_disagrees"]
    assert row["url"] == change_url(question)
    assert escape(row["problem"].message) in response.content.decode()


# --- the answers, read-only -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_reader_lists_the_answers_to_one_question(reader_client):
    question, other = ladder_question(1), ladder_question(1)
    play(question, right=2, wrong=1)
    play(other, right=4)

    response = reader_client.get(reverse("admin:player_answer_changelist"),
                                 {"question__id__exact": question.pk})

    assert response.status_code == 200
    assert {a.question_id for a in response.context["cl"].result_list} == {question.pk}
    assert len(response.context["cl"].result_list) == 3


@pytest.mark.django_db
def test_the_answers_list_filters_by_mode_and_by_right(reader_client):
    question = ladder_question(1)
    play(question, right=2, wrong=3, mode="echelle")
    play(question, right=1, mode="duo")

    response = reader_client.get(reverse("admin:player_answer_changelist"),
                                 {"mode": "echelle", "right__exact": "1"})

    assert [(a.mode, a.right) for a in response.context["cl"].result_list] == [
        ("echelle", True)] * 2


@pytest.mark.django_db
def test_nobody_adds_changes_or_deletes_an_answer_by_hand(reviewer_client):
    play(ladder_question(1), wrong=1)
    answer = Answer.objects.get()

    assert reviewer_client.get(reverse("admin:player_answer_add")).status_code == 403
    assert reviewer_client.get(
        reverse("admin:player_answer_delete", args=[answer.pk])).status_code == 403
    page = reviewer_client.get(reverse("admin:player_answer_change", args=[answer.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert "navigateur-test" not in page.content.decode()
