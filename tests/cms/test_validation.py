"""The content rules of cms.validation, each with a valid and an invalid example.

Everything is built in the real database and checked through `validate_game`, the path
every layer (admin, services, importer, printer) takes.
"""

import io

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import translation
from PIL import Image

from cms.games import GAMES, kind_of
from cms.models import Card, Question, Status
from cms.validation import (
    CALIBRATION_MIN_ANSWERS,
    ERROR,
    EXTRA_RULES,
    MESSAGES,
    WARNING,
    Problem,
    check_card,
    check_ladder,
    check_question,
    new_errors,
    normalise,
    register_message,
    register_rule,
    similar_pairs,
    validate_game,
)
from player.models import Answer
from tests.builders import make_card, make_duel_pair, make_question

pytestmark = pytest.mark.django_db

PUBLISHED = Status.PUBLISHED
REVIEW = Status.REVIEW
DRAFT = Status.DRAFT


def problems_of(obj) -> list[Problem]:
    """Return what a fresh validation of the object's game says about it."""
    return validate_game(obj.game.slug).about(obj)


def codes_of(obj) -> set[str]:
    return {p.code for p in problems_of(obj)}


def severities_of(obj, code: str) -> set[str]:
    return {p.severity for p in problems_of(obj) if p.code == code}


def game_wide(slug: str, code: str) -> list[Problem]:
    return [p for p in validate_game(slug).game_wide() if p.code == code]


def coverage_of(slug: str, kind_slug: str) -> list[Problem]:
    return [p for p in game_wide(slug, "coverage") if p.args["kind"] == kind_slug]


def only(problems: list[Problem], code: str) -> Problem:
    """Return the one problem of this code."""
    [problem] = [p for p in problems if p.code == code]
    return problem


def rows(*spec: str) -> list[tuple[str, bool, bool]]:
    """Build propositions from "R" (right), "W" (wrong), lower case when hidden."""
    return [(f"Proposition {i}", letter.upper() == "R", letter.islower())
            for i, letter in enumerate(spec, start=1)]


def set_field(obj, **fields):
    type(obj).objects.filter(pk=obj.pk).update(**fields)
    return type(obj).objects.get(pk=obj.pk)


# --- full decks -------------------------------------------------------------------------------


def build_full_deck(slug: str) -> None:
    """Publish exactly what one full game at the coverage table size needs."""
    game = GAMES[slug]
    for kind in game.kinds:
        if kind.ladder:
            for step in game.ladder:
                for _ in range(kind.full_game):
                    make_question(kind.slug, step=step.number, status=PUBLISHED,
                                  difficulty=step.difficulty_band[0])
        elif kind.paired:
            for n in range(kind.full_game // 2):
                make_duel_pair(status=PUBLISHED, title=f"Thème {n}")
        else:
            for _ in range(kind.full_game):
                make_card(kind.slug, status=PUBLISHED)


@pytest.mark.parametrize("slug", ["douze-coups", "millionnaire", "prendre-sa-place"])
def test_a_full_valid_published_game_reports_zero_errors(slug):
    build_full_deck(slug)
    report = validate_game(slug)
    assert report.errors == []


@pytest.mark.parametrize("slug", ["douze-coups", "millionnaire", "prendre-sa-place"])
def test_a_full_valid_published_game_reports_no_warning_either(slug):
    build_full_deck(slug)
    assert [p.code for p in validate_game(slug).warnings] == []


def test_an_empty_game_reports_no_error():
    assert validate_game("douze-coups").errors == []


# --- proposition_count ----------------------------------------------------------------------


def test_it_accepts_a_duel_question_with_four_propositions():
    assert "proposition_count" not in codes_of(make_question("duel"))


def test_it_rejects_a_duel_question_with_three_propositions():
    question = make_question("duel", propositions=rows("R", "W", "W"))
    assert severities_of(question, "proposition_count") == {ERROR}


def test_it_rejects_a_duel_question_with_five_propositions():
    question = make_question("duel", propositions=rows("R", "W", "W", "W", "W"))
    assert severities_of(question, "proposition_count") == {ERROR}


def test_it_accepts_a_coup_fatal_question_without_propositions():
    assert "proposition_count" not in codes_of(make_question("coup-fatal"))


def test_it_rejects_propositions_on_a_free_answer_coup_fatal_question():
    question = make_question("coup-fatal", propositions=rows("R"))
    assert severities_of(question, "proposition_count") == {ERROR}


# --- right_count --------------------------------------------------------------------------


def test_it_accepts_a_duel_question_with_exactly_one_right_proposition():
    assert "right_count" not in codes_of(make_question("duel", propositions=rows("W", "W", "R",
                                                                                  "W")))


def test_it_rejects_a_duel_question_with_two_right_propositions():
    question = make_question("duel", propositions=rows("R", "R", "W", "W"))
    assert severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_duel_question_with_no_right_proposition():
    question = make_question("duel", propositions=rows("W", "W", "W", "W"))
    assert severities_of(question, "right_count") == {ERROR}


def test_it_accepts_a_coup_par_coup_fiche_with_six_vrai_and_one_faux():
    question = make_question("coup-par-coup", propositions=rows("R", "R", "W", "R", "R", "R",
                                                                "R"))
    assert codes_of(question) & {"right_count", "proposition_count", "hidden_count"} == set()


def test_it_rejects_a_coup_par_coup_fiche_with_seven_vrai():
    question = make_question("coup-par-coup", propositions=rows(*"RRRRRRR"))
    assert severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_coup_par_coup_fiche_with_two_faux():
    question = make_question("coup-par-coup", propositions=rows(*"RRRRRWW"))
    assert severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_coup_par_coup_fiche_with_six_propositions():
    question = make_question("coup-par-coup", propositions=rows(*"RRRRRW"))
    assert severities_of(question, "proposition_count") == {ERROR}


# --- hidden_count ---------------------------------------------------------------------------


def test_it_accepts_a_coup_d_envoi_question_with_one_visible_and_one_hidden_proposition():
    question = make_question("coup-d-envoi", propositions=rows("R", "w"))
    assert codes_of(question) & {"hidden_count", "right_count", "proposition_count"} == set()


def test_it_accepts_a_coup_d_envoi_question_whose_hidden_proposition_is_the_right_one():
    question = make_question("coup-d-envoi", propositions=rows("W", "r"))
    assert codes_of(question) & {"hidden_count", "right_count"} == set()


def test_it_rejects_a_coup_d_envoi_question_with_both_propositions_visible():
    question = make_question("coup-d-envoi", propositions=rows("R", "W"))
    assert severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_coup_d_envoi_question_with_both_propositions_hidden():
    question = make_question("coup-d-envoi", propositions=rows("r", "w"))
    assert severities_of(question, "hidden_count") == {ERROR}


def test_it_accepts_a_coup_de_maitre_question_with_two_visible_and_one_hidden():
    question = make_question("coup-de-maitre", propositions=rows("R", "W", "w"))
    assert codes_of(question) & {"hidden_count", "right_count", "proposition_count"} == set()


def test_it_rejects_a_coup_de_maitre_question_with_nothing_hidden():
    question = make_question("coup-de-maitre", propositions=rows("R", "W", "W"))
    assert severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_coup_de_maitre_question_with_two_hidden():
    question = make_question("coup-de-maitre", propositions=rows("R", "w", "w"))
    assert severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_hidden_proposition_on_a_duel_question():
    question = make_question("duel", propositions=rows("R", "W", "W", "w"))
    assert severities_of(question, "hidden_count") == {ERROR}


# --- proposition_repeated -------------------------------------------------------------------


def test_it_accepts_distinct_propositions():
    question = make_question("duel", propositions=[("Seine", True, False), ("Loire", False, False),
                                                   ("Rhône", False, False),
                                                   ("Garonne", False, False)])
    assert "proposition_repeated" not in codes_of(question)


def test_it_rejects_two_propositions_that_differ_only_in_case_and_spaces():
    question = make_question("duel", propositions=[("La Seine", True, False),
                                                   ("Loire", False, False),
                                                   ("  la   SEINE ", False, False),
                                                   ("Garonne", False, False)])
    assert severities_of(question, "proposition_repeated") == {ERROR}


# --- answer_missing -------------------------------------------------------------------------


def test_it_accepts_a_coup_fatal_question_with_an_answer():
    assert "answer_missing" not in codes_of(make_question("coup-fatal", answer="Victor Hugo"))


@pytest.mark.parametrize("answer", ["", "   "])
def test_it_rejects_a_coup_fatal_question_without_an_answer(answer):
    question = make_question("coup-fatal", answer=answer)
    assert severities_of(question, "answer_missing") == {ERROR}


def test_it_rejects_a_prendre_sa_place_question_without_its_cash_answer():
    question = make_question("qualifs", answer="")
    assert severities_of(question, "answer_missing") == {ERROR}


def test_it_does_not_ask_a_duel_question_for_a_free_answer():
    assert "answer_missing" not in codes_of(make_question("duel", answer=""))


# --- image_missing --------------------------------------------------------------------------


def test_it_accepts_an_etoile_with_an_image():
    assert "image_missing" not in codes_of(make_question("etoile-mysterieuse"))


def test_it_rejects_an_etoile_without_an_image():
    question = set_field(make_question("etoile-mysterieuse"), image="")
    assert severities_of(question, "image_missing") == {ERROR}


# --- step_missing, step_difficulty_band, step_unexpected ------------------------------------


def test_it_accepts_a_ladder_question_on_a_step():
    assert "step_missing" not in codes_of(make_question("echelle", step=7, difficulty=3))


def test_it_rejects_a_ladder_question_without_a_step():
    question = set_field(make_question("echelle"), step=None)
    assert severities_of(question, "step_missing") == {ERROR}


@pytest.mark.parametrize(("step", "difficulty"),
                         [(1, 1), (5, 2), (6, 2), (10, 4), (11, 4), (15, 5)])
def test_it_accepts_a_ladder_question_within_its_step_band(step, difficulty):
    question = make_question("echelle", step=step, difficulty=difficulty)
    assert "step_difficulty_band" not in codes_of(question)


@pytest.mark.parametrize(("step", "difficulty"),
                         [(1, 3), (5, 5), (6, 1), (10, 5), (11, 3), (15, 1)])
def test_it_rejects_a_ladder_question_outside_its_step_band(step, difficulty):
    question = make_question("echelle", step=step, difficulty=difficulty)
    assert severities_of(question, "step_difficulty_band") == {ERROR}


def test_it_accepts_a_question_off_the_ladder_without_a_step():
    assert "step_unexpected" not in codes_of(make_question("duel"))


def test_it_rejects_a_step_on_a_question_off_the_ladder():
    question = make_question("duel", step=3)
    assert severities_of(question, "step_unexpected") == {ERROR}


# --- question_unplaced ----------------------------------------------------------------------


def test_it_warns_about_a_card_question_on_no_card():
    question = make_question("coup-de-maitre")
    assert severities_of(question, "question_unplaced") == {WARNING}


def test_it_does_not_warn_about_a_question_on_a_card():
    card = make_card("coup-fatal")
    question = card.slots.first().question
    assert "question_unplaced" not in codes_of(question)


def test_it_does_not_warn_about_a_ladder_question_being_on_no_card():
    assert "question_unplaced" not in codes_of(make_question("echelle"))


def test_a_valid_question_on_a_card_has_no_problem_at_all():
    card = make_card("coup-d-envoi")
    question = Question.objects.get(pk=card.slots.first().question_id)
    assert check_question(question) == []


# --- question_count -------------------------------------------------------------------------


def test_it_accepts_a_coup_de_maitre_card_with_five_questions():
    assert "question_count" not in codes_of(make_card("coup-de-maitre"))


def test_it_rejects_a_coup_de_maitre_card_with_four_questions():
    card = make_card("coup-de-maitre", difficulties=[1, 2, 3, 4])
    assert severities_of(card, "question_count") == {ERROR}


def test_it_rejects_a_coup_fatal_card_with_eleven_questions():
    card = make_card("coup-fatal", difficulties=[2] * 11)
    assert severities_of(card, "question_count") == {ERROR}


def test_it_rejects_an_empty_card():
    card = make_card("qualifs", questions=[])
    assert severities_of(card, "question_count") == {ERROR}


# --- question_kind --------------------------------------------------------------------------


def test_it_accepts_a_card_whose_questions_are_of_its_kind():
    assert "question_kind" not in codes_of(make_card("qualifs"))


def test_it_rejects_a_card_holding_a_question_of_another_kind():
    card = make_card("qualifs", questions=[make_question("qualifs"), make_question("defi")])
    assert severities_of(card, "question_kind") == {ERROR}


# --- difficulty_order (coup de maître) ------------------------------------------------------


def test_it_accepts_a_coup_de_maitre_card_whose_difficulty_rises_from_one_to_five():
    card = make_card("coup-de-maitre", difficulties=[1, 2, 3, 4, 5])
    assert check_card(Card.objects.get(pk=card.pk)) == []


def test_it_rejects_a_coup_de_maitre_card_with_two_equal_difficulties():
    card = make_card("coup-de-maitre", difficulties=[1, 2, 2, 4, 5])
    assert severities_of(card, "difficulty_order") == {ERROR}


def test_it_rejects_a_coup_de_maitre_card_whose_difficulty_goes_down():
    card = make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    assert severities_of(card, "difficulty_order") == {ERROR}


def test_it_reports_every_step_down_of_a_reversed_coup_de_maitre_card():
    card = make_card("coup-de-maitre", difficulties=[5, 4, 3, 2, 1])
    assert [dict(p.params)["position"] for p in problems_of(card)
            if p.code == "difficulty_order"] == [2, 3, 4, 5]


def test_it_does_not_order_the_questions_of_a_coup_fatal_card():
    card = make_card("coup-fatal", difficulties=[5, 4, 3, 2, 1, 1, 2, 3, 4, 5])
    assert "difficulty_order" not in codes_of(card)


# --- slot_difficulty_order (La Compet') -----------------------------------------------------


def compet(duo, carre, cash, pool):
    """Build a Compet' card from the difficulties of slots 1-3, 4-6, 7-9 and 10-14."""
    return make_card("compet", difficulties=[*duo, *carre, *cash, *pool])


def test_it_accepts_a_compet_card_whose_formats_get_harder():
    card = compet([1, 1, 2], [2, 3, 3], [4, 4, 5], [5, 5, 5, 5, 5])
    assert "slot_difficulty_order" not in codes_of(card)


def test_it_accepts_a_compet_card_of_even_difficulty():
    card = compet([3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3, 3, 3])
    assert "slot_difficulty_order" not in codes_of(card)


def test_it_compares_compet_slot_averages_not_single_questions():
    # DUO averages 2, CARRÉ 7/3: the hard 4th DUO question is allowed by the average.
    card = compet([1, 1, 4], [2, 2, 3], [3, 3, 3], [3, 3, 3, 3, 3])
    assert "slot_difficulty_order" not in codes_of(card)


def test_it_rejects_a_compet_card_whose_carre_questions_are_easier_than_its_duo_ones():
    card = compet([3, 3, 3], [2, 2, 2], [4, 4, 4], [4, 4, 4, 4, 4])
    assert severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_rejects_a_compet_card_whose_cash_questions_are_easier_than_its_carre_ones():
    card = compet([1, 1, 1], [4, 4, 4], [3, 3, 3], [3, 3, 3, 3, 3])
    assert severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_rejects_easy_cash_slots_seven_to_nine_even_with_a_hard_super_cash_pool():
    # GAMES.md: CASH is questions 7-9; 10-14 only fill the Super Cash pool.
    card = compet([1, 1, 1], [3, 3, 3], [1, 1, 1], [5, 5, 5, 5, 5])
    assert severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_accepts_hard_cash_slots_seven_to_nine_with_an_easy_super_cash_pool():
    card = compet([1, 1, 1], [3, 3, 3], [4, 4, 4], [1, 1, 1, 1, 1])
    assert "slot_difficulty_order" not in codes_of(card)


# --- duel pairs -----------------------------------------------------------------------------


def pair_codes(card) -> set[str]:
    return {code for code in codes_of(card) if code.startswith("pair_")}


def test_it_accepts_a_mutual_duel_pair_sharing_title_and_colour():
    first, second = make_duel_pair(title="Les fleuves", colour="bleu")
    assert pair_codes(first) == set()
    assert pair_codes(second) == set()


def test_it_rejects_a_duel_card_without_a_twin():
    card = make_card("duel", colour="bleu")
    assert severities_of(card, "pair_missing") == {ERROR}


def test_it_rejects_a_duel_card_whose_twin_points_elsewhere():
    first = make_card("duel", colour="bleu")
    second = make_card("duel", colour="bleu", pair=first)
    assert severities_of(second, "pair_not_mutual") == {ERROR}


def test_it_rejects_a_duel_pair_with_two_titles():
    first, second = make_duel_pair(title="Les fleuves")
    set_field(second, title="Les montagnes")
    assert severities_of(first, "pair_mismatch") == {ERROR}
    assert severities_of(second, "pair_mismatch") == {ERROR}


def test_it_rejects_a_duel_pair_with_two_colours():
    first, second = make_duel_pair(colour="bleu")
    set_field(second, colour="rouge")
    assert severities_of(first, "pair_mismatch") == {ERROR}


def test_it_accepts_duel_titles_that_differ_only_in_surrounding_spaces():
    first, second = make_duel_pair(title="Les fleuves")
    set_field(second, title="  Les fleuves ")
    assert "pair_mismatch" not in codes_of(first)


def test_it_rejects_a_duel_pair_without_a_colour():
    first, second = make_duel_pair(colour="")
    assert severities_of(first, "pair_colour_missing") == {ERROR}
    assert severities_of(second, "pair_colour_missing") == {ERROR}


def test_it_rejects_a_duel_card_paired_with_a_card_of_another_kind():
    other = make_card("coup-fatal")
    card = make_card("duel", colour="bleu", pair=other)
    assert severities_of(card, "pair_kind") == {ERROR}


def test_it_accepts_a_coup_de_maitre_card_without_a_twin():
    assert pair_codes(make_card("coup-de-maitre")) == set()


def test_it_rejects_a_twin_on_a_card_that_is_not_a_duel():
    other = make_card("coup-de-maitre")
    card = make_card("coup-de-maitre", pair=other)
    assert severities_of(card, "pair_unexpected") == {ERROR}


# --- question_status_behind -----------------------------------------------------------------


def test_it_warns_about_a_published_card_holding_a_draft_question():
    question = make_question("qualifs", status=DRAFT)
    card = make_card("qualifs", status=PUBLISHED,
                     questions=[question, make_question("qualifs", status=PUBLISHED)])
    assert severities_of(card, "question_status_behind") == {WARNING}


def test_it_warns_about_a_card_in_review_holding_a_draft_question():
    card = make_card("qualifs", status=REVIEW,
                     questions=[make_question("qualifs", status=REVIEW),
                                make_question("qualifs", status=DRAFT)])
    assert severities_of(card, "question_status_behind") == {WARNING}


def test_it_accepts_a_card_in_review_holding_published_questions():
    card = make_card("qualifs", status=REVIEW,
                     questions=[make_question("qualifs", status=PUBLISHED),
                                make_question("qualifs", status=REVIEW)])
    assert "question_status_behind" not in codes_of(card)


def test_it_accepts_a_draft_card_holding_draft_questions():
    assert "question_status_behind" not in codes_of(make_card("qualifs", status=DRAFT))


# --- ladder_difficulty_down -----------------------------------------------------------------


def ladder(*steps, status=PUBLISHED):
    """Place one question per (step, difficulty)."""
    for step, difficulty in steps:
        make_question("echelle", step=step, difficulty=difficulty, status=status)


def test_it_accepts_a_published_ladder_whose_difficulty_rises():
    ladder((1, 1), (4, 2), (6, 2), (9, 4), (12, 5))
    assert game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_accepts_a_published_ladder_that_stays_level():
    ladder((4, 2), (5, 2), (6, 2))
    assert game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_rejects_a_published_ladder_that_gets_easier_from_one_step_to_the_next():
    ladder((4, 2), (5, 1))
    problems = game_wide("millionnaire", "ladder_difficulty_down")
    assert [p.severity for p in problems] == [ERROR]
    assert problems[0].target is None
    assert dict(problems[0].params) == {"step": 5, "lower": 4}
    assert problems[0].magnitude == 1


def test_it_compares_the_average_difficulty_of_each_step():
    ladder((4, 1), (4, 2), (5, 1), (5, 2))
    assert game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_rejects_a_ladder_that_gets_easier_across_an_empty_step():
    ladder((7, 4), (9, 3))
    [problem] = game_wide("millionnaire", "ladder_difficulty_down")
    assert dict(problem.params) == {"step": 9, "lower": 7}


def test_it_ignores_a_draft_easy_question_high_on_the_ladder():
    ladder((4, 2), (5, 2))
    ladder((5, 1), status=DRAFT)
    assert game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_ignores_a_question_in_review_for_the_ladder_order():
    ladder((4, 2), (5, 2))
    ladder((5, 1), status=REVIEW)
    assert game_wide("millionnaire", "ladder_difficulty_down") == []


def test_check_ladder_reads_only_the_questions_it_is_given():
    questions = [make_question("echelle", step=4, difficulty=2, status=PUBLISHED),
                 make_question("echelle", step=5, difficulty=1, status=PUBLISHED)]
    problems = check_ladder(GAMES["millionnaire"], questions)
    assert [(p.code, p.severity) for p in problems] == [("ladder_difficulty_down", ERROR)]
    assert check_ladder(GAMES["millionnaire"], questions[:1]) == []


# --- duplicates -----------------------------------------------------------------------------


def test_it_warns_on_both_questions_that_say_exactly_the_same_thing():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("duel", text="  quel FLEUVE traverse evreux")
    for question in (first, second):
        assert severities_of(question, "duplicate") == {WARNING}


def test_it_finds_duplicates_across_kinds_of_one_game():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("coup-d-envoi", text="Quel fleuve traverse Évreux ?")
    assert "duplicate" in codes_of(first)
    assert "duplicate" in codes_of(second)


def test_it_warns_on_both_questions_that_say_nearly_the_same_thing():
    first = make_question("duel", text="Quel fleuve traverse la ville de Paris en France ?")
    second = make_question("duel",
                           text="Quel grand fleuve traverse la ville de Paris en France ?")
    for question in (first, second):
        assert severities_of(question, "near_duplicate") == {WARNING}
        assert "duplicate" not in codes_of(question)


def test_it_does_not_warn_about_two_questions_on_a_similar_topic():
    first = make_question("duel", text="Quel fleuve traverse Paris ?")
    second = make_question("duel", text="Quel fleuve traverse Lyon avant la Méditerranée ?")
    for question in (first, second):
        assert codes_of(question) & {"duplicate", "near_duplicate"} == set()


def test_it_does_not_compare_questions_of_two_different_games():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("qualifs", text="Quel fleuve traverse Évreux ?")
    assert codes_of(first) & {"duplicate", "near_duplicate"} == set()
    assert codes_of(second) & {"duplicate", "near_duplicate"} == set()


def test_it_does_not_compare_the_shared_prompt_of_two_etoiles():
    first = make_question("etoile-mysterieuse", text="Qui suis-je ?", answer="Marianne")
    second = make_question("etoile-mysterieuse", text="Qui suis-je ?", answer="Astérix")
    for question in (first, second):
        assert codes_of(question) & {"duplicate", "near_duplicate", "duplicate_answer"} == set()


def test_it_warns_about_two_etoiles_with_the_same_answer():
    first = make_question("etoile-mysterieuse", answer="La tour Eiffel")
    second = make_question("etoile-mysterieuse", answer="la Tour  eiffel !")
    problems = [p for p in validate_game("douze-coups").problems if p.code == "duplicate_answer"]
    assert [p.severity for p in problems] == [WARNING]
    assert problems[0].target.pk in {first.pk, second.pk}


def test_it_does_not_warn_about_two_etoiles_with_different_answers():
    make_question("etoile-mysterieuse", answer="La tour Eiffel")
    make_question("etoile-mysterieuse", answer="Le pont du Gard")
    assert [p for p in validate_game("douze-coups").problems if p.code == "duplicate_answer"] == []


def test_normalise_folds_accents_case_and_punctuation():
    assert normalise("  L’Été, à ÉVREUX !  ") == "l ete a evreux"


def test_similar_pairs_finds_each_close_pair_once():
    texts = {"a": "un deux trois quatre cinq six sept huit neuf dix",
             "b": "un deux trois quatre cinq six sept huit neuf onze",
             "c": "rien a voir avec le reste"}
    found = list(similar_pairs(texts, threshold=0.8))
    assert [sorted(pair[:2]) for pair in found] == [["a", "b"]]
    assert found[0][2] == pytest.approx(9 / 11)


# --- coverage -------------------------------------------------------------------------------


def test_it_warns_for_every_douze_coups_kind_missing_from_an_empty_deck():
    problems = game_wide("douze-coups", "coverage")
    assert len(problems) == len(GAMES["douze-coups"].kinds)
    assert {p.severity for p in problems} == {WARNING}


def test_a_coverage_warning_says_how_many_cards_are_missing():
    for _ in range(3):
        make_card("coup-de-maitre", status=PUBLISHED)
    [problem] = coverage_of("douze-coups", "coup-de-maitre")
    need = kind_of("coup-de-maitre").full_game
    assert need == 5
    assert problem.severity == WARNING
    assert (problem.args["have"], problem.args["need"]) == (3, need)
    assert problem.magnitude == need - 3


def test_it_counts_only_published_cards_for_coverage():
    for _ in range(5):
        make_card("coup-de-maitre", status=REVIEW)
    [problem] = coverage_of("douze-coups", "coup-de-maitre")
    assert problem.args["have"] == 0
    assert problem.magnitude == 5


def test_it_stops_warning_once_a_kind_has_enough_published_cards():
    for _ in range(kind_of("coup-de-maitre").full_game):
        make_card("coup-de-maitre", status=PUBLISHED)
    assert coverage_of("douze-coups", "coup-de-maitre") == []


def test_it_counts_a_duel_pair_only_when_both_cards_are_published():
    _first, second = make_duel_pair(status=PUBLISHED)
    set_field(second, status=REVIEW)
    [problem] = coverage_of("douze-coups", "duel")
    assert problem.magnitude == 2


def test_it_counts_a_published_duel_pair_as_a_full_duel_game():
    make_duel_pair(status=PUBLISHED)
    assert coverage_of("douze-coups", "duel") == []


def test_a_ladder_coverage_warning_says_how_many_questions_are_missing():
    game = GAMES["millionnaire"]
    need = game.kind("echelle").full_game * len(game.ladder)
    assert need == 60
    ladder(*[(1, 1)] * 4, (2, 1))
    [problem] = game_wide("millionnaire", "coverage")
    assert problem.severity == WARNING
    assert problem.magnitude == need - 5
    short = dict(problem.args["short"])
    assert 1 not in short  # four questions: step 1 is full
    assert short[2] == 3


def test_it_gives_no_coverage_warning_for_a_full_douze_coups_deck():
    build_full_deck("douze-coups")
    assert game_wide("douze-coups", "coverage") == []


def test_it_gives_no_coverage_warning_for_a_full_millionnaire_ladder():
    build_full_deck("millionnaire")
    assert game_wide("millionnaire", "coverage") == []


# --- rules from other layers ----------------------------------------------------------------


@pytest.fixture
def extra_rules():
    """Leave EXTRA_RULES and MESSAGES as they were found."""
    rules, messages = list(EXTRA_RULES), dict(MESSAGES)
    yield EXTRA_RULES
    EXTRA_RULES[:] = rules
    MESSAGES.clear()
    MESSAGES.update(messages)


def test_validate_game_runs_a_registered_rule(extra_rules):
    seen = []
    register_message("house_rule", lambda p: "Règle maison.")

    @register_rule
    def house_rule(content):
        seen.append((content.game.slug, len(content.cards), len(content.questions)))
        return [Problem.of("house_rule", WARNING, None, content.game.slug)]

    make_card("coup-fatal")
    report = validate_game("douze-coups")
    assert ("douze-coups", 1, 10) in seen
    assert [(p.code, p.severity) for p in report.game_wide() if p.code == "house_rule"] == [
        ("house_rule", WARNING)]


def test_a_registered_rule_error_counts_among_the_errors(extra_rules):
    register_message("house_error", lambda p: "Erreur maison.")
    register_rule(lambda content: [Problem.of("house_error", ERROR, card, content.game.slug)
                                   for card in content.cards])
    card = make_card("coup-fatal")
    assert severities_of(card, "house_error") == {ERROR}
    assert "house_error" in {p.code for p in validate_game("douze-coups").errors}


def test_registering_a_rule_twice_runs_it_once(extra_rules):
    register_message("once", lambda p: "Une fois.")

    def rule(content):
        return [Problem.of("once", WARNING, None, content.game.slug)]

    assert register_rule(rule) is rule
    register_rule(rule)
    assert [p.code for p in validate_game("douze-coups").game_wide()].count("once") == 1


def test_a_registered_message_renders_the_problems_of_its_code(extra_rules):
    register_message("house_rule", lambda p: f"Il en faut {p.args['need']}.")
    problem = Problem.of("house_rule", WARNING, None, "douze-coups", values={"need": 3})
    assert problem.message == "Il en faut 3."


def test_a_code_cannot_get_a_second_message(extra_rules):
    with pytest.raises(ValueError, match="ladder_difficulty_down"):
        register_message("ladder_difficulty_down", lambda p: "Autre chose.")


def test_a_problem_of_a_code_without_a_message_is_refused_when_built():
    with pytest.raises(ValueError, match="no_such_rule"):
        Problem.of("no_such_rule", ERROR, None, "douze-coups")


# --- a problem's identity -------------------------------------------------------------------


def test_params_and_values_are_kept_sorted_by_name_whatever_their_order():
    one = Problem.of("ladder_difficulty_down", ERROR, None, "millionnaire",
                     params={"step": 5, "lower": 4})
    other = Problem("ladder_difficulty_down", ERROR, None, "millionnaire",
                    (("step", 5), ("lower", 4)))
    assert one.params == other.params == (("lower", 4), ("step", 5))
    assert one.key == other.key
    assert one.step == 5


def test_a_name_cannot_be_both_a_param_and_a_value():
    with pytest.raises(ValueError, match="step"):
        Problem.of("ladder_difficulty_down", ERROR, None, "millionnaire",
                   params={"step": 5, "lower": 4}, values={"step": 6})


def test_a_problem_s_identity_does_not_depend_on_the_language():
    ladder((4, 2), (5, 1), (5, 2))
    with translation.override("fr"):
        french = only(validate_game("millionnaire").game_wide(), "ladder_difficulty_down")
    with translation.override("en"):
        english = only(validate_game("millionnaire").game_wide(), "ladder_difficulty_down")
    assert french.key == english.key == (
        "ladder_difficulty_down", None, (("lower", 4), ("step", 5)))


def test_a_problem_s_message_is_rendered_in_the_active_language():
    ladder((4, 2), (5, 1), (5, 2))
    problem = only(validate_game("millionnaire").game_wide(), "ladder_difficulty_down")
    with translation.override("en"):
        english = problem.message
    with translation.override("fr"):
        french = problem.message
    assert english.startswith("Ladder: the published questions of step 5")
    assert "average difficulty 1.5" in english
    assert french.startswith("Échelle\xa0: les questions publiées du palier 5")
    assert "difficulté moyenne 1,5" in french


def test_a_question_s_problem_under_its_card_keeps_its_identity_and_names_its_slot():
    question = make_question("coup-fatal", answer="")
    card = make_card("coup-fatal", questions=[make_question("coup-fatal"), question,
                                              *[make_question("coup-fatal") for _ in range(8)]])
    report = validate_game("douze-coups")
    own = only(report.about(question), "answer_missing")
    shown = only(report.about(card), "answer_missing")
    assert (shown.key, shown.slot, own.slot) == (own.key, 2, None)
    assert shown.message.startswith("Question n°2\xa0: ")
    assert shown.message.endswith(own.message)


def a_problem_of_every_rule() -> list[Problem]:
    """Build content that breaks every rule of cms.validation; return what is found."""
    make_question("duel", propositions=rows("R", "R", "w"), step=3, text="Quel fleuve ?")
    make_question("duel", propositions=rows("R", "W", "W", "W"), text="Quel fleuve ?")
    make_question("duel", text="Quel fleuve traverse la ville de Paris en France ?",
                  propositions=[("Seine", True, False), ("seine", False, False),
                                ("Loire", False, False), ("Rhône", False, False)])
    make_question("duel", text="Quel grand fleuve traverse la ville de Paris en France ?")
    make_question("coup-fatal", propositions=rows("R"), answer="")
    set_field(make_question("etoile-mysterieuse", answer="Marianne"), image="")
    make_question("etoile-mysterieuse", answer="marianne")
    # Pictures that cannot print: one whose file is gone, one too small to print sharp.
    make_card("etoile-mysterieuse", title="Absente", questions=[
        make_question("etoile-mysterieuse", answer="Absente", image="questions/absente.png")])
    small = io.BytesIO()
    Image.new("RGB", (120, 90), "#336699").save(small, "PNG")
    default_storage.save("questions/petite.png", ContentFile(small.getvalue()))
    make_card("etoile-mysterieuse", title="Petite", questions=[
        make_question("etoile-mysterieuse", answer="Petite", image="questions/petite.png")])
    set_field(make_question("echelle", step=2), step=None)
    make_question("echelle", step=1, difficulty=1, text="Combien de pattes\u200b a l’araignée ?")
    ladder((4, 2), (5, 1), (15, 1))
    compet([3, 3, 3], [2, 2, 2], [4, 4, 4], [4, 4, 4, 4, 4])
    make_card("coup-de-maitre", status=REVIEW, difficulties=[5, 4, 3, 2],
              questions=[make_question("coup-de-maitre", difficulty=d, status=DRAFT)
                         for d in (5, 4, 3)] + [make_question("duel")])
    make_card("coup-de-maitre", pair=make_card("duel", colour=""))
    make_card("duel", colour="bleu", title="Autre", pair=make_card("coup-fatal"))
    make_card("duel", colour="rouge")
    # Rated the easiest, missed by every player.
    played = make_question("echelle", step=1, difficulty=1)
    Answer.objects.bulk_create(Answer(question=played, browser="b", mode="echelle", right=False)
                               for _ in range(CALIBRATION_MIN_ANSWERS))
    return [p for slug in ("douze-coups", "millionnaire", "prendre-sa-place")
            for p in validate_game(slug).problems]


def test_every_rule_s_problem_renders_its_sentence_in_french_and_in_english():
    problems = a_problem_of_every_rule()
    rules = {code for code in MESSAGES if code not in {"refused", "nothing_to_print",
                                                        "glyph_missing", "text_overflow"}}
    assert rules <= {p.code for p in problems}
    for problem in problems:
        with translation.override("fr"):
            french = problem.message
        with translation.override("en"):
            english = problem.message
        assert french and english and french != english, problem.code


def test_two_problems_of_one_ladder_gap_with_different_averages_have_one_key():
    game = GAMES["millionnaire"]
    lower = make_question("echelle", step=4, difficulty=2, status=PUBLISHED)
    upper = [make_question("echelle", step=5, difficulty=d, status=PUBLISHED) for d in (1, 2)]
    [wide] = check_ladder(game, [lower, upper[0]])
    [narrow] = check_ladder(game, [lower, *upper])
    assert dict(wide.values)["step_average"] == 1
    assert dict(narrow.values)["step_average"] == 1.5
    assert wide.key == narrow.key
    assert (wide.magnitude, narrow.magnitude) == (1, 0.5)


def ladder_gap(lower: int, upper: int, gap: float, *, game="millionnaire") -> Problem:
    """Build the problem of a ladder whose step `upper` is `gap` easier than `lower`."""
    return Problem.of("ladder_difficulty_down", ERROR, None, game,
                      params={"step": upper, "lower": lower},
                      values={"step_average": 2 - gap, "lower_average": 2}, magnitude=gap)


def test_new_errors_reports_a_ladder_gap_that_grows():
    worse = ladder_gap(4, 5, 1.0)
    assert new_errors([worse], [ladder_gap(4, 5, 0.5)]) == [worse]


def test_new_errors_does_not_report_a_ladder_gap_that_shrinks_or_stays():
    assert new_errors([ladder_gap(4, 5, 0.5)], [ladder_gap(4, 5, 1.0)]) == []
    # The same gap, computed another way, is a hair larger in floating point.
    assert new_errors([ladder_gap(4, 5, 1 - 2 / 3)], [ladder_gap(4, 5, 1 / 3)]) == []


def test_new_errors_reports_a_gap_between_other_steps():
    other_steps = ladder_gap(5, 6, 0.5)
    assert new_errors([other_steps], [ladder_gap(4, 5, 1.0)]) == [other_steps]


def test_new_errors_reports_the_same_problem_on_a_new_target():
    first, second = make_question("coup-fatal", answer=""), make_question("coup-fatal", answer="")
    [before] = [p for p in check_question(first) if p.code == "answer_missing"]
    [after] = [p for p in check_question(second) if p.code == "answer_missing"]
    assert new_errors([before, after], [before]) == [after]


def test_new_errors_ignores_warnings():
    question = make_question("coup-de-maitre")
    assert [p.code for p in check_question(question)] == ["question_unplaced"]
    assert new_errors(check_question(question), []) == []


def test_new_errors_reads_reports_as_well_as_lists():
    ladder((4, 2), (4, 2), (5, 1), (5, 2))  # step 5 averages 1.5, half a point easier
    before = validate_game("millionnaire")
    ladder((5, 2))  # 5/3: a third of a point
    assert new_errors(validate_game("millionnaire"), before) == []
    ladder((5, 1), (5, 1))  # 7/5: 0.6 of a point
    assert [p.key for p in new_errors(validate_game("millionnaire"), before)] == [
        ("ladder_difficulty_down", None, (("lower", 4), ("step", 5)))]


def test_a_proposition_count_problem_is_identified_by_what_is_expected_not_found():
    three = make_question("duel", propositions=rows("R", "W", "W"))
    before = only(check_question(three), "proposition_count")
    three.propositions.filter(position=3).delete()
    after = only(check_question(three), "proposition_count")
    assert before.params == after.params == (("expected", 4), ("kind", "duel"))
    assert (dict(before.values), dict(after.values)) == ({"found": 3}, {"found": 2})
    assert before.key == after.key


# --- the report -----------------------------------------------------------------------------


def test_the_report_shows_a_card_the_problems_of_its_questions():
    question = make_question("coup-fatal", answer="")
    card = make_card("coup-fatal", questions=[question, *[make_question("coup-fatal")
                                                          for _ in range(9)]])
    about_card = problems_of(card)
    assert ("answer_missing", ERROR) in {(p.code, p.severity) for p in about_card}
    assert {p.target.pk for p in about_card if p.code == "answer_missing"} == {question.pk}
