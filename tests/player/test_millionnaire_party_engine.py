"""Qui veut gagner des millions ?, party mode, played through its engine as phones would.

The numbers are the box's (../shared/GAMES.md, ../shared/rules), written out here: the
ladder 200 … 1 000 000 €, safe levels at 1 500 € and 48 000 €, rounds that rotate the
game master, the public as the other players' cards plus the master's right one.
"""

from __future__ import annotations

import copy
import json

import pytest

from cms.games import GAMES
from player.engines.base import TABLE, Choice, Item, Refused, Unit
from player.engines.millionnaire import ROOM_ENGINE as ENGINE

SPEC = GAMES["millionnaire"]
AMOUNTS = [200, 300, 500, 800, 1500, 3000, 6000, 12000, 24000, 48000, 72000, 100000,
           150000, 300000, 1000000]


def library(players: int) -> dict:
    """A question per step for each round; the right answer is « juste »."""
    units = []
    for step in range(1, 16):
        for copy_ in range(players):
            qid = step * 100 + copy_
            units.append(Unit(id=qid, kind="echelle", items=(Item(
                id=qid, text=f"Question {qid}", difficulty=1, step=step,
                choices=(Choice("faux 1", False), Choice("juste", True),
                         Choice("faux 2", False), Choice("faux 3", False))),)))
    return {"echelle": tuple(units)}


def start(players=("Ana", "Bo", "Cy"), seed=5):
    return ENGINE.start(SPEC, library(len(players)), list(players), seed)


def act(state, **action):
    before = json.dumps(state, sort_keys=True)
    new, events = ENGINE.apply(state, action)
    assert json.dumps(state, sort_keys=True) == before
    return new, events


def refused(state, **action):
    before = copy.deepcopy(state)
    with pytest.raises(Refused) as caught:
        ENGINE.apply(state, action)
    assert state == before
    return caught.value.code


def question(state):
    return state["rounds"][state["round"]][state["step"] - 1]


def right(state):
    return question(state)["right"]


def wrong(state):
    return (right(state) + 1) % 4


def answer(state, seat, choice):
    q = question(state)["id"]
    state, _ = act(state, type="choose", seat=seat, question=q, choice=choice)
    state, events = act(state, type="confirm", seat=seat, question=q)
    return state, events


def test_a_round_has_a_master_and_every_other_player_answers_in_secret():
    state = start()
    assert state["round"] == 0 and state["lines"][0] is None  # Ana is the first master
    q = question(state)["id"]
    assert refused(state, type="choose", seat=0, question=q, choice=0) == "master"
    state, _ = act(state, type="choose", seat=1, question=q, choice=right(state))
    # Nothing of Bo's answer, nor of the right one, reaches another phone or the screen.
    for seat in (TABLE, 0, 2):
        view = ENGINE.view(state, seat)
        assert not any(c["chosen"] or c["right"] for c in view["choices"])
        assert view["right_letter"] == "" and all(p["answer"] == "" for p in view["players"])
    state, _ = act(state, type="confirm", seat=1, question=q)
    assert state["phase"] == "answering"  # Cy has not answered: nothing is revealed
    assert ENGINE.view(state, 2)["players"][1]["confirmed"] is True
    assert refused(state, type="choose", seat=1, question=q, choice=0) == "confirmed"


def test_answers_are_revealed_together_right_ones_climb_wrong_ones_fall_to_their_safe_level():
    state = start()
    # Steps 1 to 6 right for both; at step 7 (6 000 €) Bo falls to 1 500 €.
    for _ in range(6):
        state, _ = answer(state, 1, right(state))
        state, events = answer(state, 2, right(state))
        assert state["phase"] == "revealed"
        assert [e["right"] for e in events if e["type"] == "answered"] == [True, True]
        state, _ = act(state, type="next", seat=0, question=question(state)["id"])
    assert state["step"] == 7 and state["lines"][1]["won"] == 3000
    state, _ = answer(state, 1, wrong(state))
    state, _ = answer(state, 2, right(state))
    view = ENGINE.view(state, TABLE)
    assert view["right_letter"] == "ABCD"[right(state)]
    assert [p["answer"] for p in view["players"]][1:] == ["ABCD"[wrong(state)],
                                                          "ABCD"[right(state)]]
    assert state["lines"][1]["status"] == "out"
    assert state["lines"][1]["won"] == 1500 and state["lines"][2]["won"] == 6000


def test_only_the_master_moves_on_and_a_player_may_stop_after_a_right_answer():
    state = start()
    q = question(state)["id"]
    assert refused(state, type="stop", seat=1, question=q) == "nothing_won"
    state, _ = answer(state, 1, right(state))
    state, _ = answer(state, 2, right(state))
    assert refused(state, type="next", seat=1, question=q) == "not_master"
    state, _ = act(state, type="next", seat=0, question=q)
    # Bo banks 200 €; Cy answers alone, and is revealed at once.
    state, _ = act(state, type="stop", seat=1, question=question(state)["id"])
    assert state["lines"][1]["status"] == "stopped" and state["phase"] == "answering"
    state, _ = answer(state, 2, wrong(state))
    assert state["phase"] == "revealed" and state["lines"][2]["won"] == 0


def test_rounds_rotate_the_master_and_the_totals_decide():
    state = start()
    masters = []
    while state["phase"] != "over":
        masters.append(state["round"])
        climbing = [n for n, line in enumerate(state["lines"]) if line and line["status"] == "in"]
        # Each round, the first contestant stops at 500 €, the other falls at step 1.
        for seat in climbing:
            if state["lines"][seat]["won"] == 500:
                state, _ = act(state, type="stop", seat=seat, question=question(state)["id"])
            elif seat == climbing[0]:
                state, _ = answer(state, seat, right(state))
            else:
                state, _ = answer(state, seat, wrong(state))
        if state["phase"] == "revealed":
            state, _ = act(state, type="next", seat=state["round"],
                           question=question(state)["id"])
    assert masters[0] == 0 and sorted(set(masters)) == [0, 1, 2]
    # Round 1 (Ana master): Bo 500; round 2 (Bo master): Ana 500; round 3 (Cy): Ana 500.
    assert state["totals"] == [1000, 500, 0]
    assert ENGINE.view(state, TABLE)["winners"] == ["Ana"]
    # A tie at the top names every player in it, as a sentence does.
    tied = {**state, "totals": [500, 500, 500]}
    assert ENGINE.view(tied, TABLE)["winners_text"] == "Ana, Bo et Cy"
    assert ENGINE.view({**state, "totals": [500, 0, 500]}, 1)["winners_text"] == "Ana et Cy"
    # Every round asked its own questions.
    ids = [q["id"] for r in state["rounds"] for q in r]
    assert len(ids) == len(set(ids)) == 45


def test_the_fifty_fifty_is_the_asker_s_alone_and_each_joker_serves_once():
    state = start()
    q = question(state)["id"]
    state, _ = act(state, type="joker", seat=1, question=q, joker="cinquante")
    removed = state["lines"][1]["removed"]
    assert len(removed) == 2 and right(state) not in removed
    assert sum(c["removed"] for c in ENGINE.view(state, 1)["choices"]) == 2
    assert not any(c["removed"] for c in ENGINE.view(state, 2)["choices"])
    assert refused(state, type="choose", seat=1, question=q, choice=removed[0]) == "removed"
    assert refused(state, type="joker", seat=1, question=q, joker="cinquante") == "joker_used"


def test_the_public_is_the_other_players_cards_and_the_master_s_right_one():
    state = start(("Ana", "Bo", "Cy", "Dan"))
    q = question(state)["id"]
    state, _ = act(state, type="joker", seat=1, question=q, joker="public")
    # Cy and Dan are asked (not Ana, the master); Bo waits for them.
    assert ENGINE.view(state, 2)["asked"] == {"asker": "Bo", "joker": "public"}
    assert ENGINE.view(state, 0)["asked"] is None
    assert ENGINE.view(state, 1)["mine"]["help"] == [
        {"joker": "public", "waiting": ["Cy", "Dan"], "cards": []}]
    assert refused(state, type="vote", seat=0, question=q, choice=1) == "not_asked"
    state, _ = act(state, type="vote", seat=2, question=q, choice=wrong(state))
    state, _ = act(state, type="vote", seat=3, question=q, choice=wrong(state))
    help_ = ENGINE.view(state, 1)["mine"]["help"][0]
    assert help_["cards"] == sorted(["ABCD"[wrong(state)]] * 2 + ["ABCD"[right(state)]])
    # Nobody else sees the public's cards.
    assert ENGINE.view(state, 2)["mine"]["help"] == []


def test_the_friend_is_a_chosen_player_even_one_out_of_the_round_never_the_master():
    state = start(("Ana", "Bo", "Cy", "Dan"))
    q = question(state)["id"]
    assert refused(state, type="joker", seat=1, question=q, joker="ami", friend=0) == "bad_friend"
    assert refused(state, type="joker", seat=1, question=q, joker="ami", friend=1) == "bad_friend"
    state, _ = answer(state, 3, wrong(state))  # Dan is out once revealed; still a friend
    state, _ = act(state, type="joker", seat=1, question=q, joker="ami", friend=3)
    state, _ = act(state, type="vote", seat=3, question=q, choice=right(state))
    assert ENGINE.view(state, 1)["mine"]["help"] == [
        {"joker": "ami", "waiting": [], "cards": ["ABCD"[right(state)]]}]


def test_at_two_players_the_public_gives_three_tries_and_the_friend_two():
    state = start(("Ana", "Bo"))
    q = question(state)["id"]
    state, _ = act(state, type="joker", seat=1, question=q, joker="public")
    wrongs = [i for i in range(4) if i != right(state)]
    for n, choice in enumerate(wrongs[:2]):
        state, _ = answer(state, 1, choice)
        assert state["phase"] == "answering" and state["lines"][1]["tries"] == 2 - n
        assert choice in state["lines"][1]["removed"]
    state, _ = answer(state, 1, wrongs[2])  # the third try is the last: a fall
    assert state["phase"] == "revealed" and state["lines"][1]["status"] == "out"


def test_a_table_the_library_cannot_fill_is_refused_and_says_what_is_missing():
    with pytest.raises(Refused) as caught:
        ENGINE.start(SPEC, library(2), ["Ana", "Bo", "Cy"], 1)
    assert caught.value.code == "not_enough_content" and "3" in caught.value.message


@pytest.mark.parametrize("action", [
    {"type": "choose", "seat": 1, "question": "x", "choice": 0},
    {"type": "choose", "seat": 1, "choice": 9}, {"type": "next", "seat": 0},
    {"type": "joker", "seat": 1, "joker": "telephone"}, {"type": "vote", "seat": 2},
    {"type": "steal", "seat": 1}, {"seat": 1}, {"type": "choose", "seat": 7, "choice": 0}])
def test_hostile_messages_are_refused_and_change_nothing(action):
    state = start()
    if "question" not in action:
        action = {**action, "question": question(state)["id"]}
    refused(state, **action)


def test_a_player_out_of_the_round_carries_no_answer_to_the_next_questions():
    state = start(("Ana", "Bo", "Cy"))
    state, _ = answer(state, 1, right(state))
    state, _ = answer(state, 2, wrong(state))  # Cy falls at question 1
    state, _ = act(state, type="next", seat=0, question=question(state)["id"])
    for seat in (TABLE, 0, 1, 2):
        view = ENGINE.view(state, seat)
        assert not any(c["chosen"] for c in view["choices"])
    state, _ = answer(state, 1, right(state))
    cy = ENGINE.view(state, TABLE)["players"][2]
    assert cy["status"] == "out" and cy["answer"] == "" and not cy["right"]


def test_at_two_players_jokers_on_one_question_do_not_add_up():
    state = start(("Ana", "Bo"))
    q = question(state)["id"]
    state, _ = act(state, type="joker", seat=1, question=q, joker="public")
    state, _ = act(state, type="joker", seat=1, question=q, joker="ami")
    assert state["lines"][1]["tries"] == 3  # the friend's 2 do not take the public's 3 away
    state, _ = answer(state, 1, wrong(state))
    assert state["lines"][1]["tries"] == 2
