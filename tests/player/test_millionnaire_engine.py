"""The millionnaire engine plays GAMES.md's ladder, safe levels and jokers, solo."""

import json

import pytest

from cms.games import GAMES
from player.engines.base import ANSWERED, Choice, Item, Refused, Unit
from player.engines.millionnaire import ENGINE

SPEC = GAMES["millionnaire"]
AMOUNTS = [200, 300, 500, 800, 1_500, 3_000, 6_000, 12_000, 24_000, 48_000,
           72_000, 100_000, 150_000, 300_000, 1_000_000]


def ladder_content(per_step=1):
    units = []
    for step in range(1, 16):
        for copy in range(per_step):
            qid = step * 10 + copy
            units.append(Unit(id=qid, kind="echelle", items=(Item(
                id=qid, text=f"Question {step}.{copy} ?", difficulty=1, step=step,
                anecdote=f"Anecdote {step}",
                choices=(Choice("Juste", True), Choice("Faux 1", False),
                         Choice("Faux 2", False), Choice("Faux 3", False))),)))
    return {"echelle": tuple(units)}


def new_game(seed=7):
    return ENGINE.start(SPEC, ladder_content(), ["Alice"], seed, now=100.0)


def current(state):
    return ENGINE.view(state)["question"]["id"]


def letter_of(state, text):
    """Return the index a player sees for the proposition reading `text`."""
    view = ENGINE.view(state)
    return next(c["index"] for c in view["choices"] if c["text"] == text)


def play(state, action, now=110.0):
    return ENGINE.apply(state, {"question": current(state), "now": now, **action})


def answer(state, text, now=110.0):
    state, _events = play(state, {"type": "choose", "choice": letter_of(state, text)}, now)
    return play(state, {"type": "confirm"}, now)


def climb(state, steps):
    for _ in range(steps):
        state, _events = answer(state, "Juste")
        state, _events = play(state, {"type": "next"})
    return state


def test_the_game_asks_the_first_steps_question_with_its_four_propositions():
    state = new_game()
    view = ENGINE.view(state)
    assert view["question"]["text"] == "Question 1.0 ?"
    assert sorted(c["text"] for c in view["choices"]) == ["Faux 1", "Faux 2", "Faux 3", "Juste"]
    assert view["amount"].startswith("200")


def test_nothing_in_the_view_tells_the_right_answer_before_the_reveal():
    state = new_game()
    view = ENGINE.view(state)
    assert not any(c["right"] for c in view["choices"])
    assert view["right_letter"] == "" and view["question"]["anecdote"] == ""
    state, _ = play(state, {"type": "choose", "choice": 0})
    assert ENGINE.view(state)["right_letter"] == ""


def test_the_right_answer_is_not_always_in_the_same_place():
    places = {letter_of(new_game(seed), "Juste") for seed in range(30)}
    assert len(places) > 1


def test_a_choice_waits_for_the_last_word_and_can_be_taken_back():
    state = new_game()
    state, events = play(state, {"type": "choose", "choice": letter_of(state, "Faux 1")})
    assert events == [] and ENGINE.view(state)["phase"] == "confirming"
    state, _ = play(state, {"type": "cancel"})
    state, _ = answer(state, "Juste")
    assert ENGINE.view(state)["result"] == ""


def test_a_right_answer_wins_the_step_and_shows_the_anecdote():
    state, events = answer(new_game(), "Juste")
    view = ENGINE.view(state)
    assert view["won"].startswith("200")
    assert view["question"]["anecdote"] == "Anecdote 1"
    assert [c["text"] for c in view["choices"] if c["right"]] == ["Juste"]
    assert events[0]["type"] == ANSWERED and events[0]["right"] is True


@pytest.mark.parametrize("step", range(1, 16))
def test_a_wrong_answer_pays_the_last_safe_level_below_the_step(step):
    state = climb(new_game(), step - 1)
    state, events = answer(state, "Faux 2")
    expected = 0 if step <= 5 else 1_500 if step <= 10 else 48_000
    assert state["won"] == expected
    assert ENGINE.finished(state) and events[0]["right"] is False


def test_walking_away_keeps_the_last_step_won():
    state = climb(new_game(), 7)
    state, _ = play(state, {"type": "walk"})
    assert state["won"] == AMOUNTS[6] and ENGINE.finished(state)


def test_the_fifteenth_right_answer_wins_the_million():
    state = climb(new_game(), 14)
    state, _ = answer(state, "Juste")
    assert state["won"] == 1_000_000 and ENGINE.finished(state)


def test_the_fifty_fifty_leaves_the_right_answer_and_one_wrong():
    state = new_game()
    state, _ = play(state, {"type": "joker", "joker": "cinquante"})
    left = [c["text"] for c in ENGINE.view(state)["choices"] if not c["removed"]]
    assert len(left) == 2 and "Juste" in left


def test_a_removed_proposition_cannot_be_chosen():
    state = new_game()
    state, _ = play(state, {"type": "joker", "joker": "cinquante"})
    removed = next(c["index"] for c in ENGINE.view(state)["choices"] if c["removed"])
    with pytest.raises(Refused):
        play(state, {"type": "choose", "choice": removed})


def test_each_joker_serves_once_per_game():
    state = new_game()
    state, _ = play(state, {"type": "joker", "joker": "public"})
    state = climb(state, 1)
    with pytest.raises(Refused) as refusal:
        play(state, {"type": "joker", "joker": "public"})
    assert refusal.value.code == "joker_used"


def test_several_jokers_may_be_used_on_one_question():
    state = new_game()
    for joker in ("cinquante", "public", "ami"):
        state, _ = play(state, {"type": "joker", "joker": joker})
    assert len(ENGINE.view(state)["help"]) == 2


def test_the_audience_votes_a_hundred_percent_over_the_propositions_left():
    state = new_game()
    state, _ = play(state, {"type": "joker", "joker": "public"})
    votes = ENGINE.view(state)["help"][0]["votes"]
    assert sum(v["percent"] for v in votes) == 100 and len(votes) == 4


def audience_right(step, seeds=range(200)):
    """Return how often the audience's favourite is the right answer at this step."""
    right = 0
    for seed in seeds:
        state = climb(new_game(seed), step - 1)
        state, _ = play(state, {"type": "joker", "joker": "public"})
        votes = ENGINE.view(state)["help"][0]["votes"]
        top = max(votes, key=lambda v: v["percent"])["letter"]
        right += top == "ABCD"[letter_of(state, "Juste")]
    return right / len(seeds)


def test_the_audience_is_mostly_right_early_and_less_so_at_the_top():
    early, late = audience_right(1), audience_right(15)
    assert early > 0.75 and late < early - 0.25


def test_the_friend_says_how_sure_they_are_and_is_sometimes_wrong():
    said = []
    for seed in range(60):
        state = climb(new_game(seed), 12)
        state, _ = play(state, {"type": "joker", "joker": "ami"})
        said.append(ENGINE.view(state)["help"][0])
        said[-1]["right"] = said[-1]["letter"] == "ABCD"[letter_of(state, "Juste")]
    assert all(0 < s["sure"] <= 100 for s in said)
    assert any(s["right"] for s in said) and not all(s["right"] for s in said)


def test_the_same_seed_plays_the_same_game():
    first, second = new_game(42), new_game(42)
    for state in (first, second):
        state, _ = play(state, {"type": "joker", "joker": "public"})
    assert first == second


@pytest.mark.parametrize("forged", [
    {"type": "choose", "choice": "7"},
    {"type": "choose", "choice": "-1"},
    {"type": "choose", "choice": "A"},
    {"type": "choose"},
    {"type": "confirm"},
    {"type": "next"},
    {"type": "joker", "joker": "chance"},
    {"type": "teleport"},
])
def test_a_forged_action_is_refused_and_changes_nothing(forged):
    state = new_game()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(Refused):
        play(state, forged)
    assert json.dumps(state, sort_keys=True) == before


def test_an_answer_about_another_question_is_refused():
    state = new_game()
    with pytest.raises(Refused) as refusal:
        ENGINE.apply(state, {"type": "choose", "choice": "0", "question": "999", "now": 1.0})
    assert refusal.value.code == "not_current"


def test_answering_twice_is_refused():
    state, _ = answer(new_game(), "Juste")
    with pytest.raises(Refused):
        play(state, {"type": "confirm"})


def test_the_answer_records_the_time_it_took():
    state = new_game()
    state, _ = play(state, {"type": "choose", "choice": letter_of(state, "Juste")}, now=104.0)
    _, events = play(state, {"type": "confirm"}, now=112.5)
    assert events[0]["seconds"] == 12.5 and events[0]["mode"] == "echelle"


def test_a_ladder_with_a_step_missing_cannot_start():
    content = ladder_content()
    partial = {"echelle": tuple(u for u in content["echelle"]
                                if u.items[0].step not in (9, 15))}
    with pytest.raises(Refused) as refusal:
        ENGINE.start(SPEC, partial, ["Alice"], 1)
    assert "marches 9, 15 de l’échelle" in refusal.value.message


def test_the_state_survives_a_round_trip_through_json():
    state = climb(new_game(), 3)
    state, _ = play(state, {"type": "joker", "joker": "public"})
    assert json.loads(json.dumps(state)) == state


def test_walking_away_shows_the_answer_so_the_question_counts_as_seen():
    state = climb(new_game(), 2)
    _, events = play(state, {"type": "walk"})
    assert events == [{"type": "shown", "question": current(state)}]


def test_after_a_fall_the_ladder_shows_as_won_only_what_is_kept():
    state = climb(new_game(), 7)  # seven steps won: up to 6 000 €
    state, _ = answer(state, "Faux 1")
    view = ENGINE.view(state)
    won = sorted(rung["number"] for rung in view["ladder"] if rung["won"])
    assert won == [1, 2, 3, 4, 5]  # 1 500 € kept: the fifth step, a safe level
    assert "Juste" in view["say"]
