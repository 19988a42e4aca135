"""Rooms under races: intents arriving at the same instant, from several threads with a
connection of their own each, as two server processes' writers do, on the real database.

An intent reads the room, then writes in a short transaction of its own; whatever lands
between the two, each number of a seat counts once and each move is applied once.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from player import rooms
from player.models import Room
from tests.player.test_rooms import ROOM_APPS

SEATS = ("ana", "bo", "cy", "dee")
pytestmark = pytest.mark.django_db(transaction=True, available_apps=ROOM_APPS)


def at_once(calls) -> list:
    """Run every call in a thread of its own, all let go at the same instant."""
    gate = threading.Barrier(len(calls))

    def run(call):
        try:
            gate.wait()
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture
def room(transactional_db) -> str:
    made = rooms.create_room(game="the-mind", browser=SEATS[0])
    for browser in SEATS:
        rooms.join(code=made.code, name=browser.capitalize(), browser=browser)
        rooms.seen(code=made.code, browser=browser, event="connect")
    rooms.start(code=made.code, browser=SEATS[0], seed=5)
    return made.code


def test_every_seat_ready_at_once_from_two_tabs_each_counts_once(room):
    before = Room.objects.get(code=room).play
    # Each player's two tabs send the same intent with the same number, all at once.
    calls = [lambda b=browser: rooms.intent(code=room, browser=b, seq=1,
                                            action={"type": "ready"})
             for browser in SEATS for _tab in range(2)]
    results = at_once(calls)
    for n, browser in enumerate(SEATS):
        first, second = results[2 * n], results[2 * n + 1]
        # One tab's intent is applied, the other's is told it is a duplicate of it.
        assert sorted([first.changed, second.changed]) == [False, True], browser
        assert sorted([first.duplicate, second.duplicate]) == [False, True], browser
        assert (first if first.duplicate else second).last_seq == 1
    play = Room.objects.get(code=room).play
    assert play.version == before.version + len(SEATS)  # four moves, each once
    assert all(play.state["ready"]) and not any(before.state["ready"])
    assert [s.last_seq for s in Room.objects.get(code=room).seats.order_by("index")] == [1] * 4


def test_four_shuriken_votes_at_once_spend_one_shuriken(room):
    for browser in SEATS:
        assert rooms.intent(code=room, browser=browser, seq=1, action={"type": "ready"}).changed
    start = Room.objects.get(code=room).play
    assert start.state["shurikens"] == 1 and start.state["level"] == 1
    assert [len(hand) for hand in start.state["hands"]] == [1, 1, 1, 1]
    results = at_once([lambda b=browser: rooms.intent(code=room, browser=b, seq=2,
                                                      action={"type": "shuriken"})
                       for browser in SEATS])
    assert all(r.changed for r in results), results
    end = Room.objects.get(code=room).play
    # The last vote of the four, whichever it was, threw every hand's card: level 1 is
    # cleared without a life lost, and the one shuriken is gone.
    assert end.version == start.version + 4
    assert end.state["shurikens"] == 0 and end.state["lives"] == start.state["lives"]
    assert end.state["level"] == 2 and end.state["mistakes"] == 0
    assert [len(hand) for hand in end.state["hands"]] == [2, 2, 2, 2]
