"""The content rules of cms.validation, each with a valid and an invalid example.

The rules read no database: most examples are built in memory (`Library`) and checked
through `check_game`, with every rule of `cms.rules.RULES`, database access blocked. The
others are built in the real database and checked through `validate_game`, the path every
layer (admin, services, importer, printer) takes.
"""

import io
import itertools
import math
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import translation
from django.utils.formats import number_format
from PIL import Image

from cms.games import GAMES, kind_of
from cms.models import Card, Question, Status
from cms.rules import RULES, Rule, check_game, full_game_needs, validate_game
from cms.validation import (
    CALIBRATION_MIN_ANSWERS,
    ERROR,
    MESSAGES,
    WARNING,
    GameContent,
    Need,
    Needs,
    Problem,
    PropositionRow,
    check_card,
    check_coverage,
    check_ladder,
    check_question,
    new_errors,
    normalise,
    similar_pairs,
)
from player.models import Answer
from tests.builders import (
    default_propositions,
    make_card,
    make_duel_pair,
    make_question,
    unique_text,
)
from tests.builders import test_image as stored_test_image

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


# --- content in memory ----------------------------------------------------------------------


class Library:
    """Questions and cards built in memory, valid unless told otherwise, as `load_game` loads.

    Built like tests.builders' (same arguments), never saved: `check` runs every rule on what
    one game holds, and reads no database.
    """

    def __init__(self):
        self.questions: list[Question] = []
        self.cards: list[Card] = []
        self.propositions: dict[int, list[PropositionRow]] = {}
        self.card_questions: dict[int, list[Question]] = {}
        self._pks = itertools.count(1)

    def question(self, kind: str, *, difficulty=2, status=DRAFT, step=None, text=None,
                 propositions=None, answer=None, image=None, **fields) -> Question:
        spec = kind_of(kind)
        if spec.ladder and step is None:
            step = 1
        if answer is None:
            answer = "Réponse" if spec.free_answer else ""
        if image is None:
            image = stored_test_image() if spec.needs_image else ""
        question = Question(pk=next(self._pks), kind=kind, text=text or unique_text(),
                            difficulty=difficulty, status=status, step=step, answer=answer,
                            image=image, **fields)
        self.questions.append(question)
        self.propositions[question.pk] = [PropositionRow(*row) for row in (
            default_propositions(spec) if propositions is None else propositions)]
        return question

    def card(self, kind: str, *, difficulties=None, status=DRAFT, title="Carte de test",
             questions=None, **fields) -> Card:
        spec = kind_of(kind)
        card = Card(pk=next(self._pks), kind=kind, title=title, status=status, **fields)
        if questions is None:
            if difficulties is None:
                difficulties = (list(range(1, spec.questions_per_card + 1))
                                if spec.difficulty_order else [2] * spec.questions_per_card)
                difficulties = [min(d, 5) for d in difficulties]
            questions = [self.question(kind, difficulty=d, status=status)
                         for d in difficulties]
        self.cards.append(card)
        self.card_questions[card.pk] = list(questions)
        return card

    def duel_pair(self, *, status=DRAFT, title="Les fleuves", colour="bleu"):
        first = self.card("duel", status=status, title=title, colour=colour)
        second = self.card("duel", status=status, title=title, colour=colour, pair=first)
        first.pair = second
        return first, second

    def ladder(self, *steps, status=PUBLISHED):
        """Place one question per (step, difficulty)."""
        for step, difficulty in steps:
            self.question("echelle", step=step, difficulty=difficulty, status=status)

    def set_field(self, obj, **fields):
        for name, value in fields.items():
            setattr(obj, name, value)
        return obj

    def content(self, slug: str) -> GameContent:
        """Return one game's content, as `load_game` would load it from the database."""
        kinds = {kind.slug for kind in GAMES[slug].kinds}
        cards = [c for c in self.cards if c.kind in kinds]
        placed = {q.pk for questions in self.card_questions.values() for q in questions}
        return GameContent(
            GAMES[slug], cards, [q for q in self.questions if q.kind in kinds],
            self.propositions, {c.pk: self.card_questions[c.pk] for c in cards}, placed)

    def check(self, slug: str, **options):
        return check_game(self.content(slug), **options)

    def problems_of(self, obj) -> list[Problem]:
        return self.check(obj.game.slug).about(obj)

    def codes_of(self, obj) -> set[str]:
        return {p.code for p in self.problems_of(obj)}

    def severities_of(self, obj, code: str) -> set[str]:
        return {p.severity for p in self.problems_of(obj) if p.code == code}

    def game_wide(self, slug: str, code: str) -> list[Problem]:
        return [p for p in self.check(slug).game_wide() if p.code == code]


@pytest.fixture
def library():
    """Content in memory; the test has no database (any query raises)."""
    return Library()


# --- full decks -------------------------------------------------------------------------------


def build_full_deck(slug: str) -> None:
    """Publish what nine full games out of ten at the coverage table size use."""
    game = GAMES[slug]
    needs = full_game_needs(game).kinds
    for kind in game.kinds:
        if kind.ladder:
            for step in game.ladder:
                for _ in range(needs[kind.slug].steps[step.number].p90):
                    make_question(kind.slug, step=step.number, status=PUBLISHED,
                                  difficulty=step.difficulty_band[0])
        elif kind.paired:
            for n in range(math.ceil(needs[kind.slug].p90 / 2)):
                make_duel_pair(status=PUBLISHED, title=f"Thème {n}")
        else:
            for _ in range(needs[kind.slug].p90):
                make_card(kind.slug, status=PUBLISHED)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["douze-coups", "millionnaire", "prendre-sa-place"])
def test_a_full_valid_published_game_reports_zero_errors(slug):
    build_full_deck(slug)
    report = validate_game(slug)
    assert report.errors == []


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["douze-coups", "millionnaire", "prendre-sa-place"])
def test_a_full_valid_published_game_reports_no_warning_either(slug):
    build_full_deck(slug)
    assert [p.code for p in validate_game(slug).warnings] == []


@pytest.mark.django_db
def test_an_empty_game_reports_no_error():
    assert validate_game("douze-coups").errors == []


# --- proposition_count ----------------------------------------------------------------------


def test_it_accepts_a_duel_question_with_four_propositions(library):
    assert "proposition_count" not in library.codes_of(library.question("duel"))


def test_it_rejects_a_duel_question_with_three_propositions(library):
    question = library.question("duel", propositions=rows("R", "W", "W"))
    assert library.severities_of(question, "proposition_count") == {ERROR}


def test_it_rejects_a_duel_question_with_five_propositions(library):
    question = library.question("duel", propositions=rows("R", "W", "W", "W", "W"))
    assert library.severities_of(question, "proposition_count") == {ERROR}


def test_it_accepts_a_coup_fatal_question_without_propositions(library):
    assert "proposition_count" not in library.codes_of(library.question("coup-fatal"))


def test_it_rejects_propositions_on_a_free_answer_coup_fatal_question(library):
    question = library.question("coup-fatal", propositions=rows("R"))
    assert library.severities_of(question, "proposition_count") == {ERROR}


# --- right_count --------------------------------------------------------------------------


def test_it_accepts_a_duel_question_with_exactly_one_right_proposition(library):
    question = library.question("duel", propositions=rows("W", "W", "R", "W"))
    assert "right_count" not in library.codes_of(question)


def test_it_rejects_a_duel_question_with_two_right_propositions(library):
    question = library.question("duel", propositions=rows("R", "R", "W", "W"))
    assert library.severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_duel_question_with_no_right_proposition(library):
    question = library.question("duel", propositions=rows("W", "W", "W", "W"))
    assert library.severities_of(question, "right_count") == {ERROR}


def test_it_accepts_a_coup_par_coup_fiche_with_six_vrai_and_one_faux(library):
    question = library.question("coup-par-coup", propositions=rows(*"RRWRRRR"))
    assert library.codes_of(question) & {"right_count", "proposition_count",
                                         "hidden_count"} == set()


def test_it_rejects_a_coup_par_coup_fiche_with_seven_vrai(library):
    question = library.question("coup-par-coup", propositions=rows(*"RRRRRRR"))
    assert library.severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_coup_par_coup_fiche_with_two_faux(library):
    question = library.question("coup-par-coup", propositions=rows(*"RRRRRWW"))
    assert library.severities_of(question, "right_count") == {ERROR}


def test_it_rejects_a_coup_par_coup_fiche_with_six_propositions(library):
    question = library.question("coup-par-coup", propositions=rows(*"RRRRRW"))
    assert library.severities_of(question, "proposition_count") == {ERROR}


# --- hidden_count ---------------------------------------------------------------------------


def test_it_accepts_a_coup_d_envoi_question_with_one_visible_and_one_hidden_proposition(library):
    question = library.question("coup-d-envoi", propositions=rows("R", "w"))
    assert library.codes_of(question) & {"hidden_count", "right_count",
                                         "proposition_count"} == set()


def test_it_accepts_a_coup_d_envoi_question_whose_hidden_proposition_is_the_right_one(library):
    question = library.question("coup-d-envoi", propositions=rows("W", "r"))
    assert library.codes_of(question) & {"hidden_count", "right_count"} == set()


def test_it_rejects_a_coup_d_envoi_question_with_both_propositions_visible(library):
    question = library.question("coup-d-envoi", propositions=rows("R", "W"))
    assert library.severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_coup_d_envoi_question_with_both_propositions_hidden(library):
    question = library.question("coup-d-envoi", propositions=rows("r", "w"))
    assert library.severities_of(question, "hidden_count") == {ERROR}


def test_it_accepts_a_coup_de_maitre_question_with_two_visible_and_one_hidden(library):
    question = library.question("coup-de-maitre", propositions=rows("R", "W", "w"))
    assert library.codes_of(question) & {"hidden_count", "right_count",
                                         "proposition_count"} == set()


def test_it_rejects_a_coup_de_maitre_question_with_nothing_hidden(library):
    question = library.question("coup-de-maitre", propositions=rows("R", "W", "W"))
    assert library.severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_coup_de_maitre_question_with_two_hidden(library):
    question = library.question("coup-de-maitre", propositions=rows("R", "w", "w"))
    assert library.severities_of(question, "hidden_count") == {ERROR}


def test_it_rejects_a_hidden_proposition_on_a_duel_question(library):
    question = library.question("duel", propositions=rows("R", "W", "W", "w"))
    assert library.severities_of(question, "hidden_count") == {ERROR}


# --- proposition_repeated -------------------------------------------------------------------


def test_it_accepts_distinct_propositions(library):
    question = library.question("duel", propositions=[
        ("Seine", True, False), ("Loire", False, False), ("Rhône", False, False),
        ("Garonne", False, False)])
    assert "proposition_repeated" not in library.codes_of(question)


def test_it_rejects_two_propositions_that_differ_only_in_case_and_spaces(library):
    question = library.question("duel", propositions=[
        ("La Seine", True, False), ("Loire", False, False), ("  la   SEINE ", False, False),
        ("Garonne", False, False)])
    assert library.severities_of(question, "proposition_repeated") == {ERROR}


# --- answer_missing -------------------------------------------------------------------------


def test_it_accepts_a_coup_fatal_question_with_an_answer(library):
    question = library.question("coup-fatal", answer="Victor Hugo")
    assert "answer_missing" not in library.codes_of(question)


@pytest.mark.parametrize("answer", ["", "   "])
def test_it_rejects_a_coup_fatal_question_without_an_answer(library, answer):
    question = library.question("coup-fatal", answer=answer)
    assert library.severities_of(question, "answer_missing") == {ERROR}


def test_it_rejects_a_prendre_sa_place_question_without_its_cash_answer(library):
    question = library.question("qualifs", answer="")
    assert library.severities_of(question, "answer_missing") == {ERROR}


def test_it_does_not_ask_a_duel_question_for_a_free_answer(library):
    assert "answer_missing" not in library.codes_of(library.question("duel", answer=""))


# --- image_missing --------------------------------------------------------------------------


def test_it_accepts_an_etoile_with_an_image(library):
    assert "image_missing" not in library.codes_of(library.question("etoile-mysterieuse"))


def test_it_rejects_an_etoile_without_an_image(library):
    question = library.set_field(library.question("etoile-mysterieuse"), image="")
    assert library.severities_of(question, "image_missing") == {ERROR}


# --- step_missing, step_difficulty_band, step_unexpected ------------------------------------


def test_it_accepts_a_ladder_question_on_a_step(library):
    assert "step_missing" not in library.codes_of(library.question("echelle", step=7, difficulty=3))


def test_it_rejects_a_ladder_question_without_a_step(library):
    question = library.set_field(library.question("echelle"), step=None)
    assert library.severities_of(question, "step_missing") == {ERROR}


@pytest.mark.parametrize(("step", "difficulty"),
                         [(1, 1), (5, 2), (6, 2), (10, 4), (11, 4), (15, 5)])
def test_it_accepts_a_ladder_question_within_its_step_band(library, step, difficulty):
    question = library.question("echelle", step=step, difficulty=difficulty)
    assert "step_difficulty_band" not in library.codes_of(question)


@pytest.mark.parametrize(("step", "difficulty"),
                         [(1, 3), (5, 5), (6, 1), (10, 5), (11, 3), (15, 1)])
def test_it_rejects_a_ladder_question_outside_its_step_band(library, step, difficulty):
    question = library.question("echelle", step=step, difficulty=difficulty)
    assert library.severities_of(question, "step_difficulty_band") == {ERROR}


def test_it_accepts_a_question_off_the_ladder_without_a_step(library):
    assert "step_unexpected" not in library.codes_of(library.question("duel"))


def test_it_rejects_a_step_on_a_question_off_the_ladder(library):
    question = library.question("duel", step=3)
    assert library.severities_of(question, "step_unexpected") == {ERROR}


# --- question_unplaced ----------------------------------------------------------------------


def test_it_warns_about_a_card_question_on_no_card(library):
    question = library.question("coup-de-maitre")
    assert library.severities_of(question, "question_unplaced") == {WARNING}


def test_it_does_not_warn_about_a_question_on_a_card(library):
    card = library.card("coup-fatal")
    question = library.card_questions[card.pk][0]
    assert "question_unplaced" not in library.codes_of(question)


def test_it_does_not_warn_about_a_ladder_question_being_on_no_card(library):
    assert "question_unplaced" not in library.codes_of(library.question("echelle"))


def test_a_valid_question_on_a_card_has_no_problem_at_all(library):
    card = library.card("coup-d-envoi")
    question = library.card_questions[card.pk][0]
    assert check_question(question, propositions=library.propositions[question.pk],
                          placed=True) == []


# --- question_count -------------------------------------------------------------------------


def test_it_accepts_a_coup_de_maitre_card_with_five_questions(library):
    assert "question_count" not in library.codes_of(library.card("coup-de-maitre"))


def test_it_rejects_a_coup_de_maitre_card_with_four_questions(library):
    card = library.card("coup-de-maitre", difficulties=[1, 2, 3, 4])
    assert library.severities_of(card, "question_count") == {ERROR}


def test_it_rejects_a_coup_fatal_card_with_eleven_questions(library):
    card = library.card("coup-fatal", difficulties=[2] * 11)
    assert library.severities_of(card, "question_count") == {ERROR}


def test_it_rejects_an_empty_card(library):
    card = library.card("qualifs", questions=[])
    assert library.severities_of(card, "question_count") == {ERROR}


# --- question_kind --------------------------------------------------------------------------


def test_it_accepts_a_card_whose_questions_are_of_its_kind(library):
    assert "question_kind" not in library.codes_of(library.card("qualifs"))


def test_it_rejects_a_card_holding_a_question_of_another_kind(library):
    card = library.card("qualifs",
                        questions=[library.question("qualifs"), library.question("defi")])
    assert library.severities_of(card, "question_kind") == {ERROR}


# --- difficulty_order (coup de maître) ------------------------------------------------------


def test_it_accepts_a_coup_de_maitre_card_whose_difficulty_rises_from_one_to_five(library):
    card = library.card("coup-de-maitre", difficulties=[1, 2, 3, 4, 5])
    assert check_card(card, questions=library.card_questions[card.pk], partner=None) == []


def test_it_rejects_a_coup_de_maitre_card_with_two_equal_difficulties(library):
    card = library.card("coup-de-maitre", difficulties=[1, 2, 2, 4, 5])
    assert library.severities_of(card, "difficulty_order") == {ERROR}


def test_it_rejects_a_coup_de_maitre_card_whose_difficulty_goes_down(library):
    card = library.card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])
    assert library.severities_of(card, "difficulty_order") == {ERROR}


def test_it_reports_every_step_down_of_a_reversed_coup_de_maitre_card(library):
    card = library.card("coup-de-maitre", difficulties=[5, 4, 3, 2, 1])
    assert [dict(p.params)["position"] for p in library.problems_of(card)
            if p.code == "difficulty_order"] == [2, 3, 4, 5]


def test_it_does_not_order_the_questions_of_a_coup_fatal_card(library):
    card = library.card("coup-fatal", difficulties=[5, 4, 3, 2, 1, 1, 2, 3, 4, 5])
    assert "difficulty_order" not in library.codes_of(card)


# --- slot_difficulty_order (La Compet') -----------------------------------------------------


def compet(library, duo, carre, cash, pool):
    """Build a Compet' card from the difficulties of slots 1-3, 4-6, 7-9 and 10-14."""
    return library.card("compet", difficulties=[*duo, *carre, *cash, *pool])


def test_it_accepts_a_compet_card_whose_formats_get_harder(library):
    card = compet(library, [1, 1, 2], [2, 3, 3], [4, 4, 5], [5, 5, 5, 5, 5])
    assert "slot_difficulty_order" not in library.codes_of(card)


def test_it_accepts_a_compet_card_of_even_difficulty(library):
    card = compet(library, [3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3, 3, 3])
    assert "slot_difficulty_order" not in library.codes_of(card)


def test_it_compares_compet_slot_averages_not_single_questions(library):
    # DUO averages 2, CARRÉ 7/3: the hard 4th DUO question is allowed by the average.
    card = compet(library, [1, 1, 4], [2, 2, 3], [3, 3, 3], [3, 3, 3, 3, 3])
    assert "slot_difficulty_order" not in library.codes_of(card)


def test_it_rejects_a_compet_card_whose_carre_questions_are_easier_than_its_duo_ones(library):
    card = compet(library, [3, 3, 3], [2, 2, 2], [4, 4, 4], [4, 4, 4, 4, 4])
    assert library.severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_rejects_a_compet_card_whose_cash_questions_are_easier_than_its_carre_ones(library):
    card = compet(library, [1, 1, 1], [4, 4, 4], [3, 3, 3], [3, 3, 3, 3, 3])
    assert library.severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_rejects_easy_cash_slots_seven_to_nine_even_with_a_hard_super_cash_pool(library):
    # GAMES.md: CASH is questions 7-9; 10-14 only fill the Super Cash pool.
    card = compet(library, [1, 1, 1], [3, 3, 3], [1, 1, 1], [5, 5, 5, 5, 5])
    assert library.severities_of(card, "slot_difficulty_order") == {ERROR}


def test_it_accepts_hard_cash_slots_seven_to_nine_with_an_easy_super_cash_pool(library):
    card = compet(library, [1, 1, 1], [3, 3, 3], [4, 4, 4], [1, 1, 1, 1, 1])
    assert "slot_difficulty_order" not in library.codes_of(card)


# --- duel pairs -----------------------------------------------------------------------------


def pair_codes(library, card) -> set[str]:
    return {code for code in library.codes_of(card) if code.startswith("pair_")}


def test_it_accepts_a_mutual_duel_pair_sharing_title_and_colour(library):
    first, second = library.duel_pair(title="Les fleuves", colour="bleu")
    assert pair_codes(library, first) == set()
    assert pair_codes(library, second) == set()


def test_it_rejects_a_duel_card_without_a_twin(library):
    card = library.card("duel", colour="bleu")
    assert library.severities_of(card, "pair_missing") == {ERROR}


def test_it_rejects_a_duel_card_whose_twin_points_elsewhere(library):
    first = library.card("duel", colour="bleu")
    second = library.card("duel", colour="bleu", pair=first)
    assert library.severities_of(second, "pair_not_mutual") == {ERROR}


def test_it_rejects_a_duel_pair_with_two_titles(library):
    first, second = library.duel_pair(title="Les fleuves")
    library.set_field(second, title="Les montagnes")
    assert library.severities_of(first, "pair_mismatch") == {ERROR}
    assert library.severities_of(second, "pair_mismatch") == {ERROR}


def test_it_rejects_a_duel_pair_with_two_colours(library):
    first, second = library.duel_pair(colour="bleu")
    library.set_field(second, colour="rouge")
    assert library.severities_of(first, "pair_mismatch") == {ERROR}


def test_it_accepts_duel_titles_that_differ_only_in_surrounding_spaces(library):
    first, second = library.duel_pair(title="Les fleuves")
    library.set_field(second, title="  Les fleuves ")
    assert "pair_mismatch" not in library.codes_of(first)


def test_it_rejects_a_duel_pair_without_a_colour(library):
    first, second = library.duel_pair(colour="")
    assert library.severities_of(first, "pair_colour_missing") == {ERROR}
    assert library.severities_of(second, "pair_colour_missing") == {ERROR}


def test_it_rejects_a_duel_card_paired_with_a_card_of_another_kind(library):
    other = library.card("coup-fatal")
    card = library.card("duel", colour="bleu", pair=other)
    assert library.severities_of(card, "pair_kind") == {ERROR}


def test_it_accepts_a_coup_de_maitre_card_without_a_twin(library):
    assert pair_codes(library, library.card("coup-de-maitre")) == set()


def test_it_rejects_a_twin_on_a_card_that_is_not_a_duel(library):
    other = library.card("coup-de-maitre")
    card = library.card("coup-de-maitre", pair=other)
    assert library.severities_of(card, "pair_unexpected") == {ERROR}


# --- question_status_behind -----------------------------------------------------------------


def test_it_warns_about_a_published_card_holding_a_draft_question(library):
    question = library.question("qualifs", status=DRAFT)
    card = library.card("qualifs", status=PUBLISHED,
                     questions=[question, library.question("qualifs", status=PUBLISHED)])
    assert library.severities_of(card, "question_status_behind") == {WARNING}


def test_it_warns_about_a_card_in_review_holding_a_draft_question(library):
    card = library.card("qualifs", status=REVIEW,
                     questions=[library.question("qualifs", status=REVIEW),
                                library.question("qualifs", status=DRAFT)])
    assert library.severities_of(card, "question_status_behind") == {WARNING}


def test_it_accepts_a_card_in_review_holding_published_questions(library):
    card = library.card("qualifs", status=REVIEW,
                     questions=[library.question("qualifs", status=PUBLISHED),
                                library.question("qualifs", status=REVIEW)])
    assert "question_status_behind" not in library.codes_of(card)


def test_it_accepts_a_draft_card_holding_draft_questions(library):
    assert "question_status_behind" not in library.codes_of(library.card("qualifs", status=DRAFT))


# --- ladder_difficulty_down -----------------------------------------------------------------


def test_it_accepts_a_published_ladder_whose_difficulty_rises(library):
    library.ladder((1, 1), (4, 2), (6, 2), (9, 4), (12, 5))
    assert library.game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_accepts_a_published_ladder_that_stays_level(library):
    library.ladder((4, 2), (5, 2), (6, 2))
    assert library.game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_rejects_a_published_ladder_that_gets_easier_from_one_step_to_the_next(library):
    library.ladder((4, 2), (5, 1))
    problems = library.game_wide("millionnaire", "ladder_difficulty_down")
    assert [p.severity for p in problems] == [ERROR]
    assert problems[0].target is None
    assert dict(problems[0].params) == {"step": 5, "lower": 4}
    assert problems[0].magnitude == 1


def test_it_compares_the_average_difficulty_of_each_step(library):
    library.ladder((4, 1), (4, 2), (5, 1), (5, 2))
    assert library.game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_rejects_a_ladder_that_gets_easier_across_an_empty_step(library):
    library.ladder((7, 4), (9, 3))
    [problem] = library.game_wide("millionnaire", "ladder_difficulty_down")
    assert dict(problem.params) == {"step": 9, "lower": 7}


def test_it_ignores_a_draft_easy_question_high_on_the_ladder(library):
    library.ladder((4, 2), (5, 2))
    library.ladder((5, 1), status=DRAFT)
    assert library.game_wide("millionnaire", "ladder_difficulty_down") == []


def test_it_ignores_a_question_in_review_for_the_ladder_order(library):
    library.ladder((4, 2), (5, 2))
    library.ladder((5, 1), status=REVIEW)
    assert library.game_wide("millionnaire", "ladder_difficulty_down") == []


def test_check_ladder_reads_only_the_questions_it_is_given(library):
    questions = [library.question("echelle", step=4, difficulty=2, status=PUBLISHED),
                 library.question("echelle", step=5, difficulty=1, status=PUBLISHED)]
    problems = check_ladder(GAMES["millionnaire"], questions)
    assert [(p.code, p.severity) for p in problems] == [("ladder_difficulty_down", ERROR)]
    assert check_ladder(GAMES["millionnaire"], questions[:1]) == []


def ladder(*steps, status=PUBLISHED):
    """Place one question per (step, difficulty)."""
    for step, difficulty in steps:
        make_question("echelle", step=step, difficulty=difficulty, status=status)


# --- duplicates -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_warns_on_both_questions_that_say_exactly_the_same_thing():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("duel", text="  quel FLEUVE traverse evreux")
    for question in (first, second):
        assert severities_of(question, "duplicate") == {WARNING}


@pytest.mark.django_db
def test_it_finds_duplicates_across_kinds_of_one_game():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("coup-d-envoi", text="Quel fleuve traverse Évreux ?")
    assert "duplicate" in codes_of(first)
    assert "duplicate" in codes_of(second)


@pytest.mark.django_db
def test_it_warns_on_both_questions_that_say_nearly_the_same_thing():
    first = make_question("duel", text="Quel fleuve traverse la ville de Paris en France ?")
    second = make_question("duel",
                           text="Quel grand fleuve traverse la ville de Paris en France ?")
    for question in (first, second):
        assert severities_of(question, "near_duplicate") == {WARNING}
        assert "duplicate" not in codes_of(question)


@pytest.mark.django_db
def test_it_does_not_warn_about_two_questions_on_a_similar_topic():
    first = make_question("duel", text="Quel fleuve traverse Paris ?")
    second = make_question("duel", text="Quel fleuve traverse Lyon avant la Méditerranée ?")
    for question in (first, second):
        assert codes_of(question) & {"duplicate", "near_duplicate"} == set()


@pytest.mark.django_db
def test_it_does_not_compare_questions_of_two_different_games():
    first = make_question("duel", text="Quel fleuve traverse Évreux ?")
    second = make_question("qualifs", text="Quel fleuve traverse Évreux ?")
    assert codes_of(first) & {"duplicate", "near_duplicate"} == set()
    assert codes_of(second) & {"duplicate", "near_duplicate"} == set()


@pytest.mark.django_db
def test_it_does_not_compare_the_shared_prompt_of_two_etoiles():
    first = make_question("etoile-mysterieuse", text="Qui suis-je ?", answer="Marianne")
    second = make_question("etoile-mysterieuse", text="Qui suis-je ?", answer="Astérix")
    for question in (first, second):
        assert codes_of(question) & {"duplicate", "near_duplicate", "duplicate_answer"} == set()


@pytest.mark.django_db
def test_it_warns_about_two_etoiles_with_the_same_answer():
    first = make_question("etoile-mysterieuse", answer="La tour Eiffel")
    second = make_question("etoile-mysterieuse", answer="la Tour  eiffel !")
    problems = [p for p in validate_game("douze-coups").problems if p.code == "duplicate_answer"]
    assert [p.severity for p in problems] == [WARNING]
    assert problems[0].target.pk in {first.pk, second.pk}


@pytest.mark.django_db
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


@pytest.mark.django_db
def test_it_warns_for_every_douze_coups_kind_missing_from_an_empty_deck():
    problems = game_wide("douze-coups", "coverage")
    assert len(problems) == len(GAMES["douze-coups"].kinds)
    assert {p.severity for p in problems} == {WARNING}


def maitre_need() -> int:
    # GAMES.md: the final reads five coup de maître questions, each from its own card.
    need = full_game_needs(GAMES["douze-coups"]).kinds["coup-de-maitre"].p90
    assert need == 5
    return need


@pytest.mark.django_db
def test_a_coverage_warning_says_how_many_cards_are_missing():
    for _ in range(3):
        make_card("coup-de-maitre", status=PUBLISHED)
    [problem] = coverage_of("douze-coups", "coup-de-maitre")
    need = maitre_need()
    assert problem.severity == WARNING
    assert (problem.args["have"], problem.args["need"]) == (3, need)
    assert problem.magnitude == need - 3


@pytest.mark.django_db
def test_it_counts_only_published_cards_for_coverage():
    for _ in range(5):
        make_card("coup-de-maitre", status=REVIEW)
    [problem] = coverage_of("douze-coups", "coup-de-maitre")
    assert problem.args["have"] == 0
    assert problem.magnitude == maitre_need()


@pytest.mark.django_db
def test_it_stops_warning_once_a_kind_has_enough_published_cards():
    for _ in range(maitre_need()):
        make_card("coup-de-maitre", status=PUBLISHED)
    assert coverage_of("douze-coups", "coup-de-maitre") == []


def envoi_need():
    need = full_game_needs(GAMES["douze-coups"]).kinds["coup-d-envoi"]
    assert need.simulated and need.mean < need.p90  # a game's length varies with the answers
    return need


@pytest.mark.django_db
def test_a_deck_that_covers_an_average_game_but_not_nine_out_of_ten_is_warned_about():
    need = envoi_need()
    for _ in range(math.ceil(need.mean)):
        make_card("coup-d-envoi", status=PUBLISHED)
    [problem] = coverage_of("douze-coups", "coup-d-envoi")
    assert problem.magnitude == need.p90 - math.ceil(need.mean)
    message = problem.message
    assert f"jusqu’à {need.p90} dans 9 parties sur 10" in message
    assert f"{number_format(need.mean, decimal_pos=1)} en moyenne" in message
    assert "simulation des règles" in message


@pytest.mark.django_db
def test_a_deck_that_covers_nine_games_out_of_ten_is_not_warned_about():
    for _ in range(envoi_need().p90):
        make_card("coup-d-envoi", status=PUBLISHED)
    assert coverage_of("douze-coups", "coup-d-envoi") == []


def test_the_coverage_rule_compares_with_the_needs_it_is_given():
    game = GAMES["douze-coups"]
    cards = [Card(pk=n, kind="coup-d-envoi", status=PUBLISHED) for n in range(1, 11)]
    def envoi(needs):
        return [p for p in check_coverage(game, cards, [], needs)
                if p.args["kind"] == "coup-d-envoi"]

    kinds = {"coup-d-envoi": Need(mean=8.5, p90=10, most=14)}
    assert envoi(Needs(4, kinds, games=50)) == []
    kinds = {"coup-d-envoi": Need(mean=8.5, p90=11, most=14)}
    [problem] = envoi(Needs(4, kinds, games=50))
    assert (problem.args["have"], problem.args["need"], problem.magnitude) == (10, 11, 1)


@pytest.mark.django_db
def test_it_counts_a_duel_pair_only_when_both_cards_are_published():
    _first, second = make_duel_pair(status=PUBLISHED)
    set_field(second, status=REVIEW)
    [problem] = coverage_of("douze-coups", "duel")
    assert problem.magnitude == 2


@pytest.mark.django_db
def test_it_counts_a_published_duel_pair_as_a_full_duel_game():
    make_duel_pair(status=PUBLISHED)
    assert coverage_of("douze-coups", "duel") == []


@pytest.mark.django_db
def test_a_ladder_coverage_warning_says_how_many_questions_are_missing():
    game = GAMES["millionnaire"]
    steps = full_game_needs(game).kinds["echelle"].steps
    need = sum(step.p90 for step in steps.values())
    # GAMES.md: at six, each player is game master once, a question per step a round.
    assert need == 6 * len(game.ladder) == 90
    ladder(*[(1, 1)] * 6, (2, 1))
    [problem] = game_wide("millionnaire", "coverage")
    assert problem.severity == WARNING
    assert problem.magnitude == need - 7
    short = dict(problem.args["short"])
    assert 1 not in short  # six questions: step 1 is full
    assert short[2] == 5


@pytest.mark.django_db
def test_it_gives_no_coverage_warning_for_a_full_douze_coups_deck():
    build_full_deck("douze-coups")
    assert game_wide("douze-coups", "coverage") == []


@pytest.mark.django_db
def test_it_gives_no_coverage_warning_for_a_full_millionnaire_ladder():
    build_full_deck("millionnaire")
    assert game_wide("millionnaire", "coverage") == []


# --- the rules, composed in cms.rules -------------------------------------------------------


def test_check_game_runs_with_the_database_blocked(library):
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        Question.objects.exists()
    for kind in GAMES["douze-coups"].kinds:
        library.card(kind.slug, status=PUBLISHED)
    library.duel_pair(status=PUBLISHED)
    library.card("coup-de-maitre", difficulties=[5, 4, 3, 2], title="Les fleuves\u2066")
    library.question("duel", text="Quel fleuve traverse Évreux ?")
    library.question("duel", text="Quel fleuve traverse Évreux ?")

    report = library.check("douze-coups")

    assert {"question_count", "difficulty_order", "unprintable_character", "pair_missing",
            "duplicate", "question_unplaced"} <= {p.code for p in report.problems}


def test_the_rules_list_printing_s_fit_rule_among_the_advice():
    assert [(rule.name, rule.advisory) for rule in RULES] == [
        ("question", False), ("card", False), ("ladder", False), ("duplicates", True),
        ("coverage", True), ("calibration", True), ("printable", True)]


def test_cms_loads_no_reportlab_until_printing_s_rule_runs():
    code = ("import sys, django; django.setup(); import cms.admin, cms.rules, cms.services; "
            "print(sorted(m for m in ('reportlab', 'printing.render') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=settings.BASE_DIR, check=True,
                          capture_output=True, text=True,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "cms.settings"})
    assert done.stdout.strip() == "[]"


def test_the_printer_s_check_leaves_the_advice_out(library):
    library.question("duel", text="Quel fleuve traverse Évreux ?")
    library.question("duel", text="Quel fleuve traverse Évreux ?", answer="", step=3)

    verdicts = library.check("douze-coups", advisory=False)

    assert {p.code for p in verdicts.problems} == {"step_unexpected", "question_unplaced"}
    assert {p.code for p in library.check("douze-coups").problems} >= {"duplicate", "coverage"}


def test_check_game_runs_the_rules_it_is_given(library):
    seen = []

    def house_rule(content):
        seen.append((content.game.slug, len(content.cards), len(content.questions)))
        return [Problem.of("house_rule", WARNING, None, content.game.slug,
                           sentence=lambda p: "Règle maison.")]

    library.card("coup-fatal")
    report = check_game(library.content("douze-coups"), rules=(*RULES, Rule("house", house_rule)))
    assert seen == [("douze-coups", 1, 10)]
    assert [(p.code, p.severity) for p in report.game_wide() if p.code == "house_rule"] == [
        ("house_rule", WARNING)]


def test_a_rule_s_error_counts_among_the_errors(library):
    def house_error(content):
        return [Problem.of("house_error", ERROR, card, content.game.slug,
                           sentence=lambda p: "Erreur maison.")
                for card in content.cards]

    card = library.card("coup-fatal")
    report = check_game(library.content("douze-coups"), rules=[Rule("house", house_error)])
    assert {p.severity for p in report.about(card) if p.code == "house_error"} == {ERROR}
    assert [p.code for p in report.errors] == ["house_error"]


def test_an_advisory_rule_is_left_out_of_the_printer_s_check(library):
    advice = Rule("advice", lambda content: [Problem.of("advice", WARNING, None, "douze-coups",
                                                        sentence=lambda p: "Un conseil.")],
                  advisory=True)
    content = library.content("douze-coups")
    assert [p.code for p in check_game(content, rules=[advice]).problems] == ["advice"]
    assert check_game(content, rules=[advice], advisory=False).problems == []


def test_another_layer_s_rule_renders_its_problems_with_its_own_sentence():
    problem = Problem.of("house_rule", WARNING, None, "douze-coups", values={"need": 3},
                         sentence=lambda p: f"Il en faut {p.args['need']}.")
    assert problem.message == "Il en faut 3."
    assert "house_rule" not in MESSAGES  # nothing was added to cms's own table


def test_a_problem_s_sentence_is_not_part_of_what_it_is():
    def one(p):
        return "Une phrase."

    def other(p):
        return "Une autre."

    first = Problem.of("house_rule", WARNING, None, "douze-coups", sentence=one)
    second = Problem.of("house_rule", WARNING, None, "douze-coups", sentence=other)
    assert first.key == second.key and first.message != second.message


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


@pytest.mark.django_db
def test_a_problem_s_identity_does_not_depend_on_the_language():
    ladder((4, 2), (5, 1), (5, 2))
    with translation.override("fr"):
        french = only(validate_game("millionnaire").game_wide(), "ladder_difficulty_down")
    with translation.override("en"):
        english = only(validate_game("millionnaire").game_wide(), "ladder_difficulty_down")
    assert french.key == english.key == (
        "ladder_difficulty_down", None, (("lower", 4), ("step", 5)))


@pytest.mark.django_db
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


@pytest.mark.django_db
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
    make_card("compet", difficulties=[3, 3, 3, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4])
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


@pytest.mark.django_db
def test_every_rule_s_problem_renders_its_sentence_in_french_and_in_english():
    problems = a_problem_of_every_rule()
    rules = {code for code in MESSAGES if code != "refused"}
    assert rules <= {p.code for p in problems}
    for problem in problems:
        with translation.override("fr"):
            french = problem.message
        with translation.override("en"):
            english = problem.message
        assert french and english and french != english, problem.code


def test_two_problems_of_one_ladder_gap_with_different_averages_have_one_key(library):
    game = GAMES["millionnaire"]
    lower = library.question("echelle", step=4, difficulty=2, status=PUBLISHED)
    upper = [library.question("echelle", step=5, difficulty=d, status=PUBLISHED)
             for d in (1, 2)]
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


def own_problems(library, question) -> list[Problem]:
    """Return what `check_question` says of a question of the library, on no card."""
    return check_question(question, propositions=library.propositions[question.pk],
                          placed=False)


def test_new_errors_reports_the_same_problem_on_a_new_target(library):
    first = library.question("coup-fatal", answer="")
    second = library.question("coup-fatal", answer="")
    [before] = [p for p in own_problems(library, first) if p.code == "answer_missing"]
    [after] = [p for p in own_problems(library, second) if p.code == "answer_missing"]
    assert new_errors([before, after], [before]) == [after]


def test_new_errors_ignores_warnings(library):
    question = library.question("coup-de-maitre")
    assert [p.code for p in own_problems(library, question)] == ["question_unplaced"]
    assert new_errors(own_problems(library, question), []) == []


@pytest.mark.django_db
def test_new_errors_reads_reports_as_well_as_lists():
    ladder((4, 2), (4, 2), (5, 1), (5, 2))  # step 5 averages 1.5, half a point easier
    before = validate_game("millionnaire")
    ladder((5, 2))  # 5/3: a third of a point
    assert new_errors(validate_game("millionnaire"), before) == []
    ladder((5, 1), (5, 1))  # 7/5: 0.6 of a point
    assert [p.key for p in new_errors(validate_game("millionnaire"), before)] == [
        ("ladder_difficulty_down", None, (("lower", 4), ("step", 5)))]


def test_a_proposition_count_problem_is_identified_by_what_is_expected_not_found(library):
    three = library.question("duel", propositions=rows("R", "W", "W"))
    before = only(own_problems(library, three), "proposition_count")
    library.propositions[three.pk].pop()
    after = only(own_problems(library, three), "proposition_count")
    assert before.params == after.params == (("expected", 4), ("kind", "duel"))
    assert (dict(before.values), dict(after.values)) == ({"found": 3}, {"found": 2})
    assert before.key == after.key


# --- the report -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_report_shows_a_card_the_problems_of_its_questions():
    question = make_question("coup-fatal", answer="")
    card = make_card("coup-fatal", questions=[question, *[make_question("coup-fatal")
                                                          for _ in range(9)]])
    about_card = problems_of(card)
    assert ("answer_missing", ERROR) in {(p.code, p.severity) for p in about_card}
    assert {p.target.pk for p in about_card if p.code == "answer_missing"} == {question.pk}
