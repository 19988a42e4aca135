"""The Mind's rules, played through the engine as a room's devices would send them.

The numbers asserted here are the game's (../shared/GAMES.md), written out, not read
from the spec the engine reads.
"""

from __future__ import annotations

import copy
import json

import pytest

from cms.games import GAMES
from player.engines.base import TABLE, Refused
from player.engines.the_mind import ENGINE

SPEC = GAMES["the-mind"]


def start(players=2, seed=7):
    return ENGINE.start(SPEC, {}, [f"J{n}" for n in range(players)], seed)


def act(state, **action):
    before = json.dumps(state, sort_keys=True)
    new, events = ENGINE.apply(state, action)
    assert json.dumps(state, sort_keys=True) == before  # the state given is never changed
    return new, events


def refused(state, **action):
    before = copy.deepcopy(state)
    with pytest.raises(Refused) as caught:
        ENGINE.apply(state, action)
    assert state == before
    return caught.value.code


def all_ready(state):
    for seat in range(len(state["players"])):
        state, _events = act(state, type="ready", seat=seat)
    return state


def lowest(state):
    """The seat holding the lowest card still in a hand, and that card."""
    return min((cards[0], seat) for seat, cards in enumerate(state["hands"]) if cards)[::-1]


def play_level_perfectly(state):
    level = state["level"]
    if state["phase"] == "concentrating":
        state = all_ready(state)
    while state["level"] == level and state["phase"] != "over":
        seat, card = lowest(state)
        state, _events = act(state, type="play", seat=seat, card=card)
    return state


@pytest.mark.parametrize("players,last_level,lives", [(2, 12, 2), (3, 10, 3), (4, 8, 4)])
def test_a_game_starts_at_level_one_with_the_lives_of_its_table(players, last_level, lives):
    state = start(players)
    view = ENGINE.view(state, TABLE)
    assert (view["level"], view["last_level"], view["lives"], view["shurikens"]) == (
        1, last_level, lives, 1)
    assert [p["cards"] for p in view["players"]] == [1] * players
    cards = [c for hand in state["hands"] for c in hand]
    assert len(set(cards)) == players and all(1 <= c <= 100 for c in cards)


@pytest.mark.parametrize("players", [1, 5])
def test_the_table_seats_two_to_four(players):
    with pytest.raises(Refused):
        start(players)


def test_nobody_plays_before_every_hand_is_on_the_table():
    state = start(3)
    seat, card = lowest(state)
    assert refused(state, type="play", seat=seat, card=card) == "wrong_phase"
    state, _events = act(state, type="ready", seat=0)
    assert refused(state, type="ready", seat=0) == "wrong_phase"  # once is enough
    state, _events = act(state, type="ready", seat=1)
    assert refused(state, type="play", seat=seat, card=card) == "wrong_phase"
    state, events = act(state, type="ready", seat=2)
    assert events[-1] == {"type": "started", "level": 1}
    state, _events = act(state, type="play", seat=seat, card=card)
    assert state["pile"] == [card]


def test_each_seat_sees_its_own_hand_and_only_how_many_cards_the_others_hold():
    state = play_level_perfectly(start(3))  # level 2: two cards each
    for seat in range(3):
        view = ENGINE.view(state, seat)
        assert view["hand"] == state["hands"][seat]
        assert [p["cards"] for p in view["players"]] == [2, 2, 2]
        # Other cards in the others' hands (as many each) show this seat nothing new.
        swapped = copy.deepcopy(state)
        unused = [c for c in range(1, 101) if all(c not in h for h in state["hands"])]
        for other in range(3):
            if other != seat:
                swapped["hands"][other] = sorted(unused[other * 2:other * 2 + 2])
        assert ENGINE.view(swapped, seat) == view
    assert ENGINE.view(state, TABLE)["hand"] is None
    assert ENGINE.view(state, TABLE) == ENGINE.view(swapped, TABLE)


def test_a_play_is_one_s_own_lowest_card_and_counts_once():
    state = all_ready(start(2, seed=3))
    state = play_level_perfectly(state)  # level 2
    state = all_ready(state)
    seat, card = lowest(state)
    higher = state["hands"][seat][1]
    assert refused(state, type="play", seat=seat, card=higher) == "not_lowest"
    other = 1 - seat
    assert refused(state, type="play", seat=other, card=card) == "not_lowest"  # not theirs
    state, _events = act(state, type="play", seat=seat, card=card)
    assert refused(state, type="play", seat=seat, card=card) == "not_lowest"  # a replay
    assert state["pile"] == [card]


def test_a_card_played_too_soon_costs_a_life_and_every_lower_card_then_the_level_goes_on():
    state = all_ready(start(3, seed=11))
    state = play_level_perfectly(play_level_perfectly(state))  # level 3, a life won at 3
    assert state["level"] == 3
    lives = state["lives"]
    state = all_ready(state)
    # The highest of the lowest cards is played first: the two lower ones are lost.
    firsts = sorted((cards[0], seat) for seat, cards in enumerate(state["hands"]))
    card, seat = firsts[-1]
    lower = sorted(c for hand in state["hands"] for c in hand if c < card)
    state, events = act(state, type="play", seat=seat, card=card)
    assert state["lives"] == lives - 1
    assert sorted(d["card"] for d in state["discarded"]) == lower
    assert all(c > card for hand in state["hands"] for c in hand)
    assert events[-1]["type"] == "mistake"
    assert state["level"] == 3 and state["phase"] == "concentrating"  # hands down again
    seat, card = lowest(state)
    assert refused(state, type="play", seat=seat, card=card) == "wrong_phase"
    state = play_level_perfectly(state)
    assert state["level"] == 4


def test_the_last_life_lost_ends_the_game():
    state = play_level_perfectly(start(2, seed=5))  # level 2, two lives
    state["hands"] = [[10, 60], [20, 30]]  # a deal to get wrong twice
    state = all_ready(state)
    state, _events = act(state, type="play", seat=1, card=20)  # 10 was still held
    assert state["lives"] == 1 and state["hands"] == [[60], [30]]
    state = all_ready(state)
    state, events = act(state, type="play", seat=0, card=60)  # 30 was still held
    assert state["lives"] == 0 and state["result"] == "lost" and ENGINE.finished(state)
    assert events[-1] == {"type": "game_over", "result": "lost"}
    assert refused(state, type="ready", seat=0) == "unknown_action"


def test_a_shuriken_needs_everyone_and_throws_each_lowest_card():
    state = all_ready(start(3, seed=2))
    state = play_level_perfectly(state)  # level 2
    state = all_ready(state)
    lowest_cards = [hand[0] for hand in state["hands"]]
    state, _events = act(state, type="shuriken", seat=0)
    state, _events = act(state, type="shuriken", seat=1)
    assert state["shurikens"] == 1 and ENGINE.view(state, TABLE)["players"][0]["shuriken"]
    state, _events = act(state, type="shuriken_no", seat=1)  # changes their mind
    state, _events = act(state, type="shuriken", seat=2)
    assert state["shurikens"] == 1
    state, _events = act(state, type="shuriken", seat=1)
    assert state["shurikens"] == 0
    assert sorted(d["card"] for d in state["discarded"]) == sorted(lowest_cards)
    assert [len(hand) for hand in state["hands"]] == [1, 1, 1]
    assert refused(state, type="shuriken", seat=0) == "no_shuriken"


def test_a_play_drops_a_shuriken_proposal():
    state = all_ready(start(2, seed=9))
    state, _events = act(state, type="shuriken", seat=0)
    seat, card = lowest(state)
    state, _events = act(state, type="play", seat=seat, card=card)
    assert not any(ENGINE.view(state, TABLE)["players"][n]["shuriken"] for n in (0, 1))


@pytest.mark.parametrize("players,last_level", [(2, 12), (4, 8)])
def test_rewards_are_capped_and_the_last_level_wins(players, last_level):
    state = start(players, seed=4)
    seen = []
    while state["phase"] != "over":
        state = play_level_perfectly(state)
        seen.append((state["reward"], state["lives"], state["shurikens"]))
    assert state["result"] == "won" and state["level"] == last_level
    # Rewards after levels 2 (shuriken), 3 (life), 5, 6, 8 and 9; 5 lives and 3 shurikens
    # at most.
    rewards = [r for r, _lives, _shurikens in seen]
    # At 4 players the table has 4 lives, 5 after level 3: level 6's life is not won.
    assert rewards[1:3] == ["shuriken", "life"]
    assert rewards[4:6] == ["shuriken", "life" if players == 2 else ""]
    assert rewards[0] == rewards[3] == rewards[6] == ""
    assert all(lives <= 5 and shurikens <= 3 for _r, lives, shurikens in seen)
    assert seen[-1][2] == 3  # 1 + 3 shurikens won, capped at 3
    assert seen[-1][1] == 5  # 2 + 3 lives, or 4 + 2 capped at 5


@pytest.mark.parametrize("action", [
    {"type": "play", "seat": 9, "card": 1}, {"type": "play", "seat": "0", "card": "x"},
    {"type": "play", "seat": True, "card": 1}, {"type": "play", "card": 1},
    {"type": "play", "seat": 0, "card": 101}, {"type": "steal", "seat": 0},
    {"type": ["play"], "seat": 0}, {"seat": 0}])
def test_hostile_messages_are_refused_and_change_nothing(action):
    state = all_ready(start(2))
    refused(state, **action)


@pytest.mark.django_db
def test_the_mind_is_not_offered_on_one_shared_screen(client):
    # Each hand is secret: on one screen every player would see every hand.
    from player import services

    html = client.get("/").content.decode()
    assert 'href="/jouer/the-mind/"' not in html and "The Mind" in html
    assert client.get("/jouer/the-mind/").status_code == 404
    with pytest.raises(Refused) as caught:
        services.start_play(game="the-mind", players=["Ana", "Bo"], browser="b" * 32)
    assert caught.value.code == "not_on_one_screen"


def test_an_engine_that_does_not_say_how_it_is_played_is_refused_at_start_up():
    from player.engines import ENGINES, checked

    class Silent:
        slug, min_players, max_players = "silent", 2, 4

    with pytest.raises(TypeError, match="silent engine must set private_hands"):
        checked({"silent": Silent()})
    assert checked(dict(ENGINES)) == ENGINES  # every engine here says it
    assert {slug for slug, engine in ENGINES.items() if engine.private_hands} == {"the-mind"}


# --- bots -----------------------------------------------------------------------------------

from player.engines.the_mind import bot_action  # noqa: E402


def test_bots_put_their_hands_down_and_wait_longer_the_farther_their_card_is():
    state = play_level_perfectly(start(3, seed=1))  # level 2
    state["hands"] = [[40, 90], [12, 70], [52, 61]]
    state["ready"] = [True, False, False]
    for _bot in range(2):
        wait, action = bot_action(state, {1, 2})
        assert wait == 0 and action["type"] == "ready"
        state, _events = act(state, **action)
    assert state["phase"] == "playing"
    # Seat 0 is a person holding 40; the bots hold 12 and 52, the pile is empty.
    wait, action = bot_action(state, {1, 2})
    assert action == {"type": "play", "seat": 1, "card": 12}
    assert 12 * 0.25 * 0.8 <= wait <= 12 * 0.25 * 1.2
    state, _events = act(state, **action)
    wait, action = bot_action(state, {1, 2})
    assert action["card"] == 52 and wait >= (52 - 12) * 0.25 * 0.8  # time to play the 40
    assert bot_action(state, {1, 2}) == (wait, action)  # the same state, the same wait


def test_a_bot_with_a_long_wait_agrees_to_a_shuriken_a_person_proposes():
    state = all_ready(play_level_perfectly(start(2, seed=4)))  # level 2
    state["hands"] = [[5, 70], [48, 64]]
    _wait, action = bot_action(state, {1})
    assert action["type"] == "play"  # nobody proposed: the bot waits its turn
    state, _events = act(state, type="shuriken", seat=0)
    assert bot_action(state, {1}) == (0.0, {"type": "shuriken", "seat": 1})


def test_bots_on_their_last_life_want_a_shuriken_and_throw_it_together():
    state = play_level_perfectly(start(2, seed=3))  # level 2
    state["hands"] = [[5, 70], [8, 64]]
    state["lives"] = 1
    state = all_ready(state)
    _wait, action = bot_action(state, {0, 1})
    assert action == {"type": "shuriken", "seat": 0}
    state, _events = act(state, **action)
    _wait, action = bot_action(state, {0, 1})
    assert action == {"type": "shuriken", "seat": 1}
    state, _events = act(state, **action)
    assert state["shurikens"] == 0 and state["hands"] == [[70], [64]]


def test_three_bots_alone_clear_level_four_in_most_games():
    cleared = 0
    for seed in range(60):
        state = start(3, seed=seed)
        while not ENGINE.finished(state) and state["level"] <= 4:
            _wait, action = bot_action(state, {0, 1, 2})
            state, _events = ENGINE.apply(state, action)
        cleared += state["level"] > 4
    assert cleared >= 48  # 80 %


def test_a_reward_at_its_cap_is_not_won_nor_announced():
    state = start(players=2)
    state = {**state, "level": 2, "shurikens": 3, "hands": [[5], []], "phase": "playing",
             "ready": [True, True]}
    state, events = act(state, type="play", seat=0, card=5)
    assert state["shurikens"] == 3
    assert [e for e in events if e["type"] == "level_won"] == [
        {"type": "level_won", "level": 2, "reward": ""}]


def win(state):
    while state["phase"] != "over":
        state = play_level_perfectly(state)
    assert state["result"] == "won"
    return state


def test_after_a_win_everyone_may_replay_blind_from_level_one_with_what_is_left():
    state = win(start(2, seed=4))
    lives, shurikens = state["lives"], state["shurikens"]
    assert refused(state, type="play", seat=0, card=1) == "unknown_action"
    state, _ = act(state, type="blind", seat=0)
    assert state["phase"] == "over"  # the whole table agrees, or nothing starts
    assert refused(state, type="blind", seat=0) == "wrong_phase"
    state, _ = act(state, type="blind", seat=1)
    assert state["blind"] and state["level"] == 1 and state["result"] == ""
    assert (state["lives"], state["shurikens"]) == (lives, shurikens)
    # Face down: a card played too soon is not seen, and the pile is only a count.
    state = all_ready(state)
    state = {**state, "hands": [[10], [70]]}
    state, events = act(state, type="play", seat=1, card=70)
    assert state["lives"] == lives and not [e for e in events if e["type"] == "mistake"]
    view = ENGINE.view(state, 0)
    assert view["pile"] == [] and view["top"] is None and view["pile_count"] == 1
    # Turned over once all are down: one card laid on a higher one, one life.
    state, events = act(state, type="play", seat=0, card=10)
    checked = next(e for e in events if e["type"] == "checked")
    assert checked["pile"] == [70, 10] and checked["errors"] == 1
    assert state["lives"] == lives - 1 and state["level"] == 2


def test_a_lost_game_has_no_blind_mode_and_bots_agree_to_it_after_a_win():
    from player.engines.the_mind import bot_action

    state = win(start(3, seed=2))
    assert bot_action(state, [0, 2]) == (0.0, {"type": "blind", "seat": 0})
    lost = {**state, "result": "lost"}
    assert refused(lost, type="blind", seat=0) == "wrong_phase"
    assert bot_action(lost, [0, 2]) is None
