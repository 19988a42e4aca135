"""The demo library (fixtures/): two full games at the largest table, varied and clean.

The figures are issue 17's: they are measured on the rows and their annotations
(tests/demo_variety.py), and on the library as `load_demo` leaves it in the database.
"""

import re
from collections import Counter

import pytest

from cms.admin_dashboard import coverage_rows
from cms.games import GAMES as SPECS
from cms.games import content_games
from cms.rules import full_game_needs, validate_all
from cms.typography import typeset
from tests.demo import demo_games
from tests.demo_variety import annotation_faults, game_rows, same_questions, variety

GAMES = demo_games()


def test_every_quiz_game_has_a_demo_library():
    assert {game.slug for game in content_games()} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_question_is_annotated_with_what_its_answer_names(game):
    assert annotation_faults(game) == []


@pytest.mark.parametrize("game", GAMES)
def test_no_theme_holds_more_than_a_fifth_of_a_game(game):
    theme, share = variety(game).top_theme
    assert share <= 0.20, theme


@pytest.mark.parametrize("game", GAMES)
def test_a_third_of_the_dated_questions_are_after_1980(game):
    measured = variety(game)
    assert measured.dated and measured.recent_share >= 1 / 3


@pytest.mark.parametrize("game", GAMES)
def test_a_third_of_the_people_named_in_answers_are_women(game):
    measured = variety(game)
    assert measured.people["m"] and measured.women_share >= 1 / 3


@pytest.mark.parametrize("game", GAMES)
def test_who_wrote_questions_are_at_most_a_quarter_of_those_about_people(game):
    measured = variety(game)
    assert measured.naming_people and measured.authorship_share <= 0.25


@pytest.mark.parametrize("game", GAMES)
def test_no_wording_gives_away_the_answer_by_gender(game):
    assert variety(game).giveaways == []


def test_no_question_is_asked_twice_within_or_across_games():
    assert same_questions(GAMES) == []


def test_the_library_has_no_error_and_no_warning(demo_library):
    for report in validate_all():
        assert (report.game.slug, report.errors, report.warnings) == (report.game.slug, [], [])


@pytest.mark.parametrize("slug", GAMES)
def test_two_full_games_at_the_largest_table_before_anything_repeats(demo_library, slug):
    # Each round as long as 9 games out of 10 play it, twice, from what is published.
    game = SPECS[slug]
    needs = full_game_needs(game)
    assert needs.players == game.players.coverage
    for entry in coverage_rows(game, needs):
        row = entry["row"]
        for part in row.steps or [row]:
            assert part.have >= 2 * part.need.p90, (entry["kind"].slug, part.label)
            assert part.games >= 2


@pytest.mark.parametrize("game", GAMES)
def test_each_card_of_a_kind_has_a_title_of_its_own(game):
    # A duel's two cards share theirs (GAMES.md): the pair is one title.
    _questions, cards, _notes = game_rows(game)
    titles = Counter((card["genre"], card["titre"]) for card in cards
                     if not card.get("paire") or card["ref"] < card["paire"])
    assert [title for title, count in titles.items() if count > 1] == []


@pytest.mark.parametrize("game", GAMES)
def test_a_numbered_title_is_written_n_degree_number(game):
    # « Coup d’envoi n° 12 », not « Coup d’envoi 12 » nor « n°12 »; a year is not a number.
    _questions, cards, _notes = game_rows(game)
    numbered = [card["titre"] for card in cards
                if re.search(r"(?<!\d)\d{1,3}$", card["titre"]) or "°" in card["titre"]]
    assert [title for title in numbered if not re.search(r"\D n° \d+$", typeset(title)
                                                         .replace("\u00a0", " "))] == []


@pytest.mark.parametrize("game", GAMES)
def test_no_card_hides_always_the_right_or_always_the_wrong_proposition(game):
    # A player who guessed the card's pattern would need no knowledge (and a game that needs
    # a wrong or a right hidden answer on whatever card comes out would sometimes find none).
    questions, cards, _notes = game_rows(game)
    by_ref = {row["ref"]: row for row in questions}
    patterned = []
    for card in cards:
        hidden = [bool(set(row["cachees"].split()) & set(row["bonnes"].split()))
                  for ref in card["questions"].split()
                  if (row := by_ref.get(ref)) and row.get("cachees")]
        if len(hidden) > 1 and len(set(hidden)) == 1:
            patterned.append(card["ref"])
    assert patterned == []
