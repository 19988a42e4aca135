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
from cms.rules import validate_game
from cms.selectors import load_game
from cms.validation import (
    CALIBRATION_BANDS,
    CALIBRATION_BELOW_BANDS,
    CALIBRATION_MIN_ANSWERS,
    WARNING,
    Calibration,
    observed_difficulty,
    success_rate,
)
from player.models import Answer
from tests.admin_forms import change_url, changelist_url
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


def listed(response) -> list[int]:
    return [obj.pk for obj in response.context["cl"].result_list]


def column(response, name: str) -> int:
    """Return the index the change list sorts a column by (`?o=`)."""
    return list(response.context["cl"].list_display).index(name)


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
def test_a_coup_par_coup_fiche_is_not_rated_by_its_success_as_a_blind_pick_is_mostly_right():
    fiche = make_question("coup-par-coup", difficulty=5)
    play(fiche, right=18, wrong=2, mode="coup-par-coup")  # 90 %: would read as 1
    assert calibration_problems(fiche) == []


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


# --- the change list ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_list_shows_the_observed_success_and_the_answers_beside_the_difficulty(
        reviewer_client):
    question = ladder_question(3)
    play(question, right=31, wrong=19)  # 62 %: observed 3, as rated

    response = reviewer_client.get(changelist_url(Question))

    columns = list(response.context["cl"].list_display)
    assert columns[columns.index("difficulty"):][:3] == ["difficulty", "success_rate",
                                                        "answer_total"]
    page = response.content.decode()
    assert "Réussite observée" in page
    assert ">Réponses<" in page
    assert f'<td class="field-success_rate">62{NBSP}%</td>' in page
    answers = f"{reverse('admin:player_answer_changelist')}?question__id__exact={question.pk}"
    assert f'<td class="field-answer_total"><a href="{answers}">50</a></td>' in page


@pytest.mark.django_db
def test_a_question_never_played_shows_a_dash_and_no_answers(reviewer_client):
    ladder_question(1)

    page = reviewer_client.get(changelist_url(Question)).content.decode()

    assert '<td class="field-success_rate">—</td>' in page
    assert '<td class="field-answer_total">0</td>' in page


@pytest.mark.django_db
def test_the_list_marks_a_disagreeing_question_with_the_reason(reviewer_client):
    question = ladder_question(1)
    play(question, right=6, wrong=14)
    [problem] = calibration_problems(question)

    page = reviewer_client.get(changelist_url(Question)).content.decode()

    assert (f'<span class="plateau-warning" title="{escape(problem.message)}">30{NBSP}% ⚠'
            "</span>") in page


@pytest.mark.django_db
def test_searching_by_a_proposition_does_not_multiply_the_answers(reviewer_client):
    question = ladder_question(1)
    play(question, right=20)

    response = reviewer_client.get(changelist_url(Question), {"q": "Proposition"})

    assert listed(response) == [question.pk]
    assert '<td class="field-answer_total"><a href' in response.content.decode()
    assert response.context["cl"].result_list[0].answer_count == 20


@pytest.mark.django_db
def test_the_list_sorts_by_observed_success_with_unplayed_questions_below_zero(
        reviewer_client):
    unplayed = ladder_question(1)
    easy, middling, hard = ladder_question(1), ladder_question(3), ladder_question(5)
    play(easy, right=9, wrong=1)
    play(middling, right=5, wrong=5)
    play(hard, right=1, wrong=9)
    index = column(reviewer_client.get(changelist_url(Question)), "success_rate")

    ascending = reviewer_client.get(changelist_url(Question), {"o": str(index)})
    descending = reviewer_client.get(changelist_url(Question), {"o": f"-{index}"})

    assert listed(ascending) == [unplayed.pk, hard.pk, middling.pk, easy.pk]
    assert listed(descending) == [easy.pk, middling.pk, hard.pk, unplayed.pk]


@pytest.mark.django_db
def test_the_list_sorts_by_the_number_of_answers(reviewer_client):
    once, thrice, never = ladder_question(1), ladder_question(1), ladder_question(1)
    play(once, right=1)
    play(thrice, wrong=3)
    index = column(reviewer_client.get(changelist_url(Question)), "answer_total")

    response = reviewer_client.get(changelist_url(Question), {"o": f"-{index}"})

    assert listed(response) == [thrice.pk, once.pk, never.pk]


@pytest.mark.django_db
def test_the_list_costs_as_many_queries_for_many_played_questions_as_for_one(
        reviewer_client):
    play(ladder_question(1), right=5, wrong=20)
    reviewer_client.get(changelist_url(Question))  # sessions and permissions warmed up
    with CaptureQueriesContext(connection) as one:
        reviewer_client.get(changelist_url(Question))
    for difficulty in (1, 2, 3, 4, 5, 1, 2, 3):
        play(ladder_question(difficulty), right=10, wrong=12)

    with CaptureQueriesContext(connection) as nine:
        response = reviewer_client.get(changelist_url(Question))

    assert len(response.context["cl"].result_list) == 9
    assert len(nine) == len(one)


@pytest.fixture
def calibrated(db):
    """A question play agrees with, one it disagrees with, one not played enough, one not
    played at all."""
    agrees, disagrees, few = ladder_question(1), ladder_question(1), ladder_question(1)
    play(agrees, right=18, wrong=2)
    play(disagrees, right=2, wrong=18)
    play(few, wrong=CALIBRATION_MIN_ANSWERS - 1)
    return {"agrees": agrees, "disagrees": disagrees, "few": few,
            "never": ladder_question(1)}


@pytest.mark.parametrize(("choice", "expected"), [
    ("agrees", {"agrees"}), ("disagrees", {"disagrees"}), ("few", {"few", "never"}),
])
def test_the_calibration_filter_lists_exactly_its_questions(reviewer_client, calibrated,
                                                            choice, expected):
    response = reviewer_client.get(changelist_url(Question), {"calibration": choice})

    assert set(listed(response)) == {calibrated[name].pk for name in expected}


def test_the_calibration_filter_is_offered_in_french(reviewer_client, calibrated):
    page = reviewer_client.get(changelist_url(Question)).content.decode()

    for label in ("Par calibrage", "Assez de réponses, en accord",
                  "En désaccord avec la difficulté notée", "Pas encore assez de réponses"):
        assert escape(label) in page


# --- the change form ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_change_form_shows_the_numbers_and_why_play_disagrees(reviewer_client):
    question = ladder_question(1)
    play(question, right=6, wrong=14)
    [problem] = calibration_problems(question)

    page = reviewer_client.get(change_url(question)).content.decode()

    assert "Calibrage par le jeu" in page
    assert f"30{NBSP}% ⚠" in page
    assert escape(f"À revoir{NBSP}: {problem.message}") in page


@pytest.mark.django_db
def test_the_change_form_says_when_play_agrees(reviewer_client):
    question = ladder_question(2)
    play(question, right=17, wrong=3)

    page = reviewer_client.get(change_url(question)).content.decode()

    assert escape(f"En accord avec le jeu{NBSP}: difficulté observée 1, notée 2.") in page


@pytest.mark.django_db
def test_the_change_form_says_how_many_answers_are_still_missing(reviewer_client):
    question = ladder_question(1)
    play(question, wrong=12)

    page = reviewer_client.get(change_url(question)).content.decode()

    assert escape(f"Pas encore assez de réponses pour juger la difficulté{NBSP}: 12 sur les "
                  f"{CALIBRATION_MIN_ANSWERS} nécessaires.") in page


@pytest.mark.django_db
def test_the_add_form_has_no_calibration(reviewer_client):
    page = reviewer_client.get(reverse("admin:cms_question_add")).content.decode()

    assert "Calibrage par le jeu" not in page


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
