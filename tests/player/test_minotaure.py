"""Le jeu du Minotaure: the flicks' physics on the printed board, the rules through the engine,
the table's secrets, and the pages.

Positions are worked out here from the labyrinth itself (its rings, doorways and radial
walls), not copied from a run: a marble is put in a stretch of corridor that no wall
crosses, or just outside a doorway of the central room, and aimed with plain geometry.
Engine tests set up the board by writing the marbles' places into the state (as a player
would arrange the real marbles before a move); every outcome comes from the simulation.
"""

from __future__ import annotations

import copy
import json
import math
from itertools import pairwise

import pytest
from django.test import Client

from cms.games import GAMES
from cms.games.labyrinth import angular_distance, standard_labyrinth
from player import services
from player.engines.base import TABLE, Refused
from player.engines.minotaure import ENGINE
from player.engines.minotaure_physics import Flick, simulate, starting_places
from player.models import Play

LAB = standard_labyrinth()
SPEC = GAMES["minotaure"]
NAMES = ["Ana", "Bob", "Cléo"]
COLOURS = ("rouge", "orange", "jaune", "vert", "turquoise", "bleu", "violet", "rose",
           "marron", "blanc")  # the ten prisoners, as the rules' colour chart names them
MINOTAUR, THESEE = "minotaure", "thesee"
GENTLE, MODERATE, HARD = 15, 30, 100  # percent of a full flick


# --- the board, worked out from the labyrinth ----------------------------------------------


def polar(radius: float, angle: float) -> tuple[float, float]:
    """Return a point in millimetres, to the micrometre, as the board's places are kept."""
    theta = math.radians(angle)
    return round(radius * math.cos(theta), 3), round(radius * math.sin(theta), 3)


def aim(source: tuple[float, float], target: tuple[float, float]) -> float:
    """Return the direction from one point to another, in degrees."""
    return math.degrees(math.atan2(target[1] - source[1], target[0] - source[0])) % 360


def distance(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def clear_stretch(corridor: int) -> tuple[float, float, float]:
    """Return the middle radius and the first and last angle of the longest stretch of
    this corridor that no radial wall crosses and no doorway of its two rings opens on,
    kept far enough from those walls for the Minotaur to sit anywhere in it."""
    inner, outer = LAB.corridors[corridor]
    middle = (inner + outer) / 2
    margin = math.degrees((LAB.minotaur_diameter + LAB.wall_thickness) / 2 / middle) + 1
    walls = [r.angle for r in LAB.radials_of(corridor)]
    doorways = [o for ring in LAB.rings[corridor:corridor + 2] for o in ring.openings]

    def free(tenth: int) -> bool:
        angle = tenth / 10
        return (all(angular_distance(angle, wall) > margin for wall in walls)
                and not any(o.covers(angle) or angular_distance(angle, o.start) <= margin
                            or angular_distance(angle, o.end) <= margin for o in doorways))

    tenths = [free(t) for t in range(3600)]
    assert not all(tenths)
    first = tenths.index(False)  # go round from a blocked angle: no run is cut in two
    best, run = (0, 0), 0
    for t in range(first, first + 3601):
        run = run + 1 if tenths[t % 3600] else 0
        best = max(best, (run, t))
    length, last = best
    assert length > 300, "the board has no long stretch of corridor"
    return middle, (last - length + 1) / 10, last / 10


OUTER = clear_stretch(len(LAB.corridors) - 1)
SECOND = clear_stretch(2)


def outer_spot(fraction: float) -> tuple[float, float]:
    """Return a place in the outer corridor's clear stretch, 0 at one end and 1 at the other."""
    middle, first, last = OUTER
    return polar(middle, first + fraction * (last - first))


def second_spot(fraction: float) -> tuple[float, float]:
    middle, first, last = SECOND
    return polar(middle, first + fraction * (last - first))


def doorway_spot() -> tuple[tuple[float, float], float]:
    """Return where the Minotaur stands just outside the central room's first doorway, and
    the direction of the room's centre from there."""
    doorway = LAB.doorways[0]
    radius = LAB.room_radius + LAB.wall_thickness / 2 + LAB.minotaur_diameter / 2 + 1
    place = polar(radius, doorway.centre)
    return place, aim(place, (0.0, 0.0))


def hemmed_prisoner() -> tuple[str, float]:
    """Return a prisoner of the first ring out from the centre whose way outwards meets the
    room's wall far from any doorway, and that outward direction."""
    starts = starting_places(LAB, thesee=False)
    prisoners = [c for c in COLOURS if c in starts]
    rim = max(math.hypot(*starts[c]) for c in prisoners)

    def clearance(colour):
        angle = aim((0, 0), starts[colour])
        return min(min(angular_distance(angle, o.start), angular_distance(angle, o.end))
                   if not o.covers(angle) else -1.0 for o in LAB.doorways)

    outermost = [c for c in prisoners if math.hypot(*starts[c]) > rim - 0.5]
    colour = max(outermost, key=clearance)
    assert clearance(colour) > 20
    return colour, aim((0, 0), starts[colour])


def in_room(place) -> bool:
    return LAB.in_room(*place)


def places_with(**moved) -> dict[str, tuple[float, float]]:
    """Return the starting places with some marbles moved elsewhere."""
    return {**starting_places(LAB, thesee=THESEE in moved), **moved}


def track_of(outcome, marble: str) -> list[tuple[float, float]]:
    trajectory = outcome.trajectory()
    xy = trajectory["tracks"][marble]["xy"]
    scale = trajectory["scale"]
    return [(xy[i] / scale, xy[i + 1] / scale) for i in range(0, len(xy), 2)]


def nearest_approach(path, point) -> float:
    """Return how close a path of straight pieces comes to a point."""
    best = math.inf
    for (ax, ay), (bx, by) in pairwise(path):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if not length else max(0.0, min(1.0, ((point[0] - ax) * dx
                                                      + (point[1] - ay) * dy) / length))
        best = min(best, distance((ax + t * dx, ay + t * dy), point))
    return best


# --- the engine, as a table plays it ---------------------------------------------------------


def start(players=NAMES, seed=11, **options):
    return ENGINE.start(SPEC, {}, list(players), seed, options=options)


def act(state, **action):
    before = json.dumps(state, sort_keys=True)
    new, _events = ENGINE.apply(state, action)
    assert json.dumps(state, sort_keys=True) == before  # the state given is never changed
    return new


def refused(state, **action) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(Refused) as caught:
        ENGINE.apply(state, action)
    assert state == before
    return caught.value.code


def dealt(players=NAMES, seed=11, **options):
    """Return a game once the device has gone round: every player saw their colour."""
    state = start(players, seed, **options)
    for seat in range(len(players)):
        state = act(state, type="show", seat=str(seat))
        state = act(state, type="hide", seat=str(seat))
    assert state["phase"] == "play"
    return state


def flick(state, marble, angle, strength):
    return act(state, type="flick", marble=marble, angle=f"{angle:.3f}",
               strength=str(strength), move=str(state["move"]))


def set_board(state, **moved):
    """Return the state with some marbles moved by hand to these places: setting up the board."""
    state = copy.deepcopy(state)
    for name, (x, y) in moved.items():
        state["marbles"][name] = [x, y]
    return state


def colour_of(state, seat: int) -> str:
    return next(c for c, s in state["owners"].items() if s == seat)


def neutrals(state) -> list[str]:
    return [c for c in COLOURS if c not in state["owners"]]


def nudge(state):
    """Play the smallest flick there is: a neutral prisoner of the room's outer ring, barely
    pushed outwards; nothing else moves. For turns that must pass."""
    starts = starting_places(LAB, thesee=False)
    rim = max(math.hypot(*starts[c]) for c in COLOURS)
    marble = next(c for c in neutrals(state) if c in state["marbles"]
                  and math.hypot(*state["marbles"][c]) > rim - 0.5)
    new = flick(state, marble, aim((0, 0), state["marbles"][marble]), 1)
    assert not new["last"]["eaten"] and not new["last"]["foul"]
    return new


def eat(state, victim: str):
    """Return the state after the player whose turn it is flicks the Minotaur into `victim`,
    both set up in the outer corridor with nothing between them."""
    hunter, prey = outer_spot(0.2), outer_spot(0.45)
    state = set_board(state, **{MINOTAUR: hunter, victim: prey})
    return flick(state, MINOTAUR, aim(hunter, prey), MODERATE)


def minotaur_into_room(state, outside=()):
    """Return the state after the player whose turn it is rolls the Minotaur gently into the
    central room, every prisoner but `outside` still where the game started them."""
    place, centre = doorway_spot()
    away = {colour: second_spot(0.1 + 0.8 * i / max(1, len(outside)))
            for i, colour in enumerate(outside)}
    state = set_board(state, **{MINOTAUR: place}, **away)
    return flick(state, MINOTAUR, centre, GENTLE)


def view_json(state) -> str:
    return json.dumps(ENGINE.view(state, TABLE), sort_keys=True)


# --- 1. the Minotaur eats what it touches --------------------------------------------------


def test_the_minotaur_flicked_into_a_prisoner_eats_it():
    hunter, prey = outer_spot(0.2), outer_spot(0.45)
    assert distance(hunter, prey) > 30  # room for a run-up before they touch
    places = places_with(minotaure=hunter, rouge=prey)

    outcome = simulate(places, Flick(MINOTAUR, aim(hunter, prey), MODERATE / 100), LAB)

    assert outcome.eaten == ["rouge"] and outcome.foul is None
    assert "rouge" not in outcome.places
    assert set(outcome.places) == set(places) - {"rouge"}
    # The others, in the central room far away, never moved.
    assert all(outcome.places[c] == places[c] for c in COLOURS if c != "rouge")


def test_a_gentle_flick_that_falls_short_eats_nothing():
    hunter, prey = outer_spot(0.2), outer_spot(0.8)
    places = places_with(minotaure=hunter, rouge=prey)

    outcome = simulate(places, Flick(MINOTAUR, aim(hunter, prey), 0.05), LAB)

    assert outcome.eaten == [] and outcome.places["rouge"] == places["rouge"]
    assert distance(outcome.places[MINOTAUR], hunter) > 1  # it rolled, a little


def test_an_eaten_players_colour_is_turned_up_and_they_then_push_only_the_minotaur():
    state = dealt()
    bob = colour_of(state, 1)
    assert ENGINE.view(state)["players"][1]["colour"] is None

    state = eat(state, bob)

    view = ENGINE.view(state)
    assert state["last"]["eaten"] == [bob] and bob not in state["marbles"]
    assert view["players"][1]["out"] and view["players"][1]["colour"] == bob
    assert [p["colour"] for p in view["players"]] == [None, bob, None]
    assert view["eaten"][0]["owner"] == "Bob" and view["eaten"][0]["by"] == "Ana"
    assert state["phase"] == "play" and state["turn"] == 1  # two players still hold one
    assert [c["id"] for c in view["choices"]] == [MINOTAUR]
    assert refused(state, type="flick", marble=neutrals(state)[0], angle="0", strength="20",
                   move=str(state["move"])) == "only_minotaur"
    state = flick(state, MINOTAUR, 0, 1)  # the Minotaur, though, is Bob's to push
    assert state["turn"] == 2


# --- 2. a marble that jumps a wall: the move is cancelled ----------------------------------


def test_a_marble_sent_hard_against_a_wall_cancels_the_move():
    colour, outwards = hemmed_prisoner()
    places = places_with()

    outcome = simulate(places, Flick(colour, outwards, HARD / 100), LAB)

    assert outcome.foul == colour
    assert outcome.places == places and outcome.eaten == []
    assert outcome.trajectory()["events"][-1]["type"] == "foul"


def test_the_same_marble_pushed_softly_bounces_back_and_stays_in_the_room():
    colour, outwards = hemmed_prisoner()
    outcome = simulate(places_with(), Flick(colour, outwards, 0.3), LAB)
    assert outcome.foul is None and in_room(outcome.places[colour])


def test_a_cancelled_move_puts_every_marble_back_and_passes_the_turn():
    colour, outwards = hemmed_prisoner()
    state = dealt()
    before = copy.deepcopy(state["marbles"])

    state = flick(state, colour, outwards, HARD)

    assert state["marbles"] == before
    assert state["last"]["foul"] == colour and state["last"]["eaten"] == []
    assert state["turn"] == 1 and state["move"] == 1 and state["phase"] == "play"
    assert ENGINE.view(state)["last"]["foul_label"]


# --- 3. the central room ----------------------------------------------------------------------


def test_the_minotaur_entering_the_room_eats_every_prisoner_there_touched_or_not():
    place, centre = doorway_spot()
    outside = {"rouge": second_spot(0.2), "bleu": second_spot(0.8)}
    places = places_with(minotaure=place, **outside)
    inside = [c for c in COLOURS if in_room(places[c])]
    assert len(inside) == 8 and not in_room(place)

    outcome = simulate(places, Flick(MINOTAUR, centre, GENTLE / 100), LAB)

    assert outcome.foul is None and in_room(outcome.places[MINOTAUR])
    assert sorted(outcome.eaten) == sorted(inside)
    assert not [c for c in COLOURS if c in outcome.places and in_room(outcome.places[c])]
    assert {c: outcome.places[c] for c in outside} == outside
    # The prisoner farthest from the doorway stood still, and the Minotaur's path never came
    # within touching distance of it: the room ate it, not the Minotaur's touch.
    far = max(inside, key=lambda c: distance(places[c], place))
    assert {distance(xy, places[far]) < 0.1 for xy in track_of(outcome, far)} == {True}
    touching = (LAB.minotaur_diameter + LAB.marble_diameter) / 2
    assert nearest_approach(track_of(outcome, MINOTAUR), places[far]) > touching + 2


def test_the_minotaur_stopping_in_the_doorway_eats_nobody():
    place, centre = doorway_spot()
    outcome = simulate(places_with(minotaure=place), Flick(MINOTAUR, centre, 0.03), LAB)
    assert not in_room(outcome.places[MINOTAUR]) and outcome.eaten == []


def test_the_trajectory_ends_where_the_marbles_stop():
    place, centre = doorway_spot()
    outcome = simulate(places_with(minotaure=place), Flick(MINOTAUR, centre, GENTLE / 100), LAB)
    trajectory = outcome.trajectory()
    assert trajectory["frames"] >= len(track_of(outcome, MINOTAUR)) > 2
    assert distance(track_of(outcome, MINOTAUR)[-1], outcome.places[MINOTAUR]) < 0.1
    assert track_of(outcome, MINOTAUR)[0] == pytest.approx(place, abs=0.1)
    eaten_events = [e["marble"] for e in trajectory["events"] if e["type"] == "eaten"]
    assert eaten_events == outcome.eaten


# --- 4. the same flick, the same result --------------------------------------------------------


def test_the_same_flick_from_the_same_places_gives_the_same_result():
    places = places_with(minotaure=outer_spot(0.5))
    a = simulate(places, Flick("rouge", 47.5, 0.5), LAB)
    b = simulate(dict(reversed(places.items())), Flick("rouge", 47.5, 0.5), LAB)
    assert a.places == b.places and a.eaten == b.eaten and a.foul == b.foul
    assert json.dumps(a.trajectory()) == json.dumps(b.trajectory())
    assert len(a.trajectory()["tracks"]) > 3  # a break: marbles knocked into one another


def test_the_same_action_on_the_same_state_gives_equal_states():
    state = dealt()
    action = {"type": "flick", "marble": "jaune", "angle": "200", "strength": "70", "move": "0"}
    one, _ = ENGINE.apply(state, dict(action))
    two, _ = ENGINE.apply(copy.deepcopy(state), dict(action))
    assert one == two and one["marbles"] != state["marbles"]


# --- 5. the rules ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 11])
def test_a_table_of_fewer_than_three_or_more_than_ten_is_refused(count):
    with pytest.raises(Refused) as caught:
        start([f"J{n}" for n in range(count)])
    assert caught.value.code == "players"


@pytest.mark.django_db
@pytest.mark.parametrize("count", [2, 11])
def test_the_setup_service_refuses_such_a_table_too(count):
    with pytest.raises(Refused):
        services.start_play(game="minotaure", players=[f"J{n}" for n in range(count)],
                            browser="b")
    assert not Play.objects.exists()


@pytest.mark.parametrize("count", [3, 7, 10])
def test_each_player_holds_one_colour_and_the_others_are_neutral(count):
    state = start([f"J{n}" for n in range(count)])
    assert sorted(c for c in state["marbles"] if c in COLOURS) == sorted(COLOURS)
    assert sorted(state["owners"].values()) == list(range(count))
    assert set(state["owners"]) <= set(COLOURS) and len(neutrals(state)) == 10 - count
    assert all(in_room(state["marbles"][c]) for c in COLOURS)
    assert not in_room(state["marbles"][MINOTAUR]) and THESEE not in state["marbles"]


def test_the_deal_shows_each_player_their_colour_in_turn_then_play_starts():
    state = start()
    assert state["phase"] == "deal" and ENGINE.view(state)["choices"] == []
    assert refused(state, type="show", seat="1") == "not_now"
    for seat in range(3):
        assert ENGINE.view(state)["peek"] == {"seat": seat, "name": NAMES[seat],
                                              "shown": False, "deal": True}
        state = act(state, type="show", seat=str(seat))
        assert ENGINE.view(state)["peek"]["colour"] == colour_of(state, seat)
        state = act(state, type="hide", seat=str(seat))
    assert state["phase"] == "play" and ENGINE.view(state)["players"][0]["current"]


def test_eating_a_neutral_prisoner_reveals_nobody_and_the_game_goes_on():
    state = dealt()
    neutral = neutrals(state)[0]

    state = eat(state, neutral)

    view = ENGINE.view(state)
    assert state["last"]["eaten"] == [neutral] and neutral not in state["marbles"]
    assert state["out"] == [] and all(p["colour"] is None for p in view["players"])
    assert view["eaten"][0]["owner"] == "" and state["phase"] == "play"
    assert state["turn"] == 1


def test_the_last_owned_prisoner_wins_even_with_neutrals_left():
    state = dealt()
    ana, neutral = colour_of(state, 0), neutrals(state)[0]

    state = minotaur_into_room(state, outside=[ana, neutral])

    assert sorted(state["last"]["eaten"]) == sorted(set(COLOURS) - {ana, neutral})
    assert state["phase"] == "over" and state["winner"] == 0 and state["result"] == "last"
    view = ENGINE.view(state)
    assert view["winner"] == "Ana" and view["choices"] == []
    # The game over, every card is turned up.
    assert [p["colour"] for p in view["players"]] == [colour_of(state, s) for s in range(3)]


def test_only_neutral_prisoners_left_means_nobody_wins():
    state = dealt()
    state = minotaur_into_room(state, outside=[neutrals(state)[0]])
    assert state["phase"] == "over" and state["winner"] is None
    assert state["result"] == "nobody" and ENGINE.view(state)["winner"] == ""


def test_the_minotaur_eating_every_prisoner_at_once_means_nobody_wins():
    state = minotaur_into_room(dealt())
    assert sorted(state["last"]["eaten"]) == sorted(COLOURS)
    assert state["phase"] == "over" and state["winner"] is None


def test_players_eaten_together_are_eliminated_in_the_order_of_play_from_the_mover():
    state = nudge(dealt())  # Bob's turn: the Minotaur eats all three owned prisoners at once
    assert state["turn"] == 1
    state = minotaur_into_room(state)
    assert state["out"] == [1, 2, 0]  # Bob, then Cléo, then Ana: from the mover round
    players, _options = ENGINE.next_table(state)
    assert players == ["Bob", "Cléo", "Ana"]


def test_thesee_starts_with_the_prisoners_in_the_room():
    state = start(thesee=True)
    assert state["variants"] == ["thesee"] and in_room(state["marbles"][THESEE])
    assert all(distance(state["marbles"][THESEE], state["marbles"][c]) >= LAB.marble_diameter
               for c in COLOURS)


def test_thesee_touching_the_minotaur_wins_at_once_for_the_mover():
    state = dealt(thesee=True)
    hero, beast = outer_spot(0.2), outer_spot(0.45)
    state = set_board(state, thesee=hero, minotaure=beast)

    state = flick(state, THESEE, aim(hero, beast), MODERATE)

    assert state["last"]["slain"] and MINOTAUR not in state["marbles"]
    assert state["phase"] == "over" and state["winner"] == 0 and state["result"] == "thesee"
    assert sum(c in state["marbles"] for c in COLOURS) == 10  # every prisoner still there


def test_thesee_slaying_the_minotaur_wins_even_for_a_mover_already_eliminated():
    state = dealt(thesee=True)
    state = eat(state, colour_of(state, 0))  # Ana eats her own prisoner
    assert state["out"] == [0]
    state = nudge(nudge(state))  # Bob and Cléo play
    beast, hero = outer_spot(0.2), outer_spot(0.45)
    state = set_board(state, thesee=hero, minotaure=beast)

    state = flick(state, MINOTAUR, aim(beast, hero), MODERATE)

    assert state["last"]["slain"] and state["last"]["seat"] == 0
    # « Le joueur qui a effectué le dernier coup gagne, quel que soit le nombre de prisonniers »
    assert state["phase"] == "over" and state["winner"] == 0 and state["result"] == "thesee"


def test_ariane_gives_one_more_flick_but_not_of_the_minotaur():
    state = dealt(ariane=True)
    assert state["ariane"] == [1, 1, 1] and ENGINE.view(state)["may_ariane"]

    state = act(state, type="ariane", move=str(state["move"]))

    assert state["ariane"] == [0, 1, 1] and state["extra"]
    assert MINOTAUR not in [c["id"] for c in ENGINE.view(state)["choices"]]
    assert refused(state, type="flick", marble=MINOTAUR, angle="0", strength="20",
                   move=str(state["move"])) == "not_minotaur"
    assert refused(state, type="ariane", move=str(state["move"])) == "ariane_played"
    state = nudge(state)
    assert state["turn"] == 0 and not state["extra"]  # the extra flick keeps the turn
    assert refused(state, type="ariane", move=str(state["move"])) == "no_ariane"
    state = flick(state, MINOTAUR, 0, 1)  # the turn's own flick: the Minotaur will do
    assert state["turn"] == 1


def test_a_foul_on_the_ariane_flick_ends_the_turn_too():
    colour, outwards = hemmed_prisoner()
    state = act(dealt(ariane=True), type="ariane", move="0")
    state = flick(state, colour, outwards, HARD)
    assert state["last"]["foul"] == colour and state["last"]["extra"]
    assert state["turn"] == 1 and not state["extra"] and state["ariane"] == [0, 1, 1]


def test_ariane_is_not_offered_without_the_variant():
    state = dealt()
    assert state["ariane"] == [0, 0, 0] and not ENGINE.view(state)["may_ariane"]
    assert refused(state, type="ariane", move="0") == "no_ariane"


def test_eating_a_player_who_still_holds_ariane_takes_their_card():
    state = dealt(ariane=True)
    state = eat(state, colour_of(state, 1))
    assert state["out"] == [1] and state["ariane"] == [2, 0, 1]


def test_an_eliminated_player_cannot_use_ariane():
    state = dealt(ariane=True)
    state = eat(state, colour_of(state, 0))  # Ana's own prisoner: she keeps her card
    state = nudge(nudge(state))
    assert state["turn"] == 0 and state["ariane"][0] == 1
    assert not ENGINE.view(state)["may_ariane"]
    assert refused(state, type="ariane", move=str(state["move"])) == "ariane_out"


def test_the_next_game_starts_with_the_first_eliminated_and_the_same_variants():
    state = dealt(thesee=True, ariane=True)
    state = eat(state, colour_of(state, 1))
    state = eat(state, colour_of(state, 2))  # Bob pushes the Minotaur into Cléo's prisoner
    assert state["out"] == [1, 2] and state["winner"] == 0
    assert ENGINE.next_table(state) == (["Bob", "Cléo", "Ana"], {"thesee": True, "ariane": True})


def test_with_nobody_eaten_the_next_game_keeps_the_order():
    assert ENGINE.next_table(dealt()) == (NAMES, {})
    assert ENGINE.next_table(dealt(thesee=True)) == (NAMES, {"thesee": True})


# --- 6. secrets --------------------------------------------------------------------------------


def swapped(state, seat_a: int, seat_b: int):
    """Return the state with two players' secret colours swapped."""
    state = copy.deepcopy(state)
    a, b = colour_of(state, seat_a), colour_of(state, seat_b)
    state["owners"][a], state["owners"][b] = seat_b, seat_a
    return state


def given_a_neutral(state, seat: int):
    """Return the state where a player holds a neutral prisoner's colour instead of theirs."""
    state = copy.deepcopy(state)
    neutral = next(c for c in neutrals(state) if c in state["marbles"])
    del state["owners"][colour_of(state, seat)]
    state["owners"][neutral] = seat
    return state


SEED = 804_153_927_661  # a game seed no number on the board could be mistaken for


def moments():
    """Yield states from all along a game, with two seats whose colours are still secret."""
    state = start(players=["Ana", "Bob", "Cléo", "Dan"], seed=SEED)
    yield state, 0, 1  # the device about to go to Ana
    state = act(act(state, type="show", seat="0"), type="hide", seat="0")
    yield state, 0, 2
    for seat in (1, 2, 3):
        state = act(act(state, type="show", seat=str(seat)), type="hide", seat=str(seat))
    yield state, 1, 3
    state = nudge(state)
    yield state, 0, 2
    yield act(state, type="peek", seat="2"), 2, 3  # the device asked for, not yet shown
    state = eat(state, colour_of(state, 3))
    yield state, 0, 2
    yield minotaur_into_room(state, outside=[colour_of(state, 0), colour_of(state, 1),
                                             neutrals(state)[0]]), 0, 1


def test_the_tables_view_never_tells_who_holds_which_colour():
    checked = 0
    for state, a, b in moments():
        assert state["phase"] != "over"
        view = view_json(state)
        assert view_json(swapped(state, a, b)) == view
        assert view_json(given_a_neutral(state, a)) == view
        checked += 1
    assert checked == 7


def test_a_shown_peek_carries_that_players_colour_only():
    state = start()
    state = act(state, type="show", seat="0")
    peek = ENGINE.view(state)["peek"]
    assert peek["shown"] and peek["colour"] == colour_of(state, 0)
    assert view_json(swapped(state, 1, 2)) == view_json(state)
    assert view_json(swapped(state, 0, 1)) != view_json(state)
    assert all(p["colour"] is None for p in ENGINE.view(state)["players"])


def test_a_peek_later_in_the_game_shows_that_player_alone_then_hides_again():
    state = act(dealt(), type="peek", seat="2")
    assert refused(state, type="show", seat="1") == "not_now"
    state = act(state, type="show", seat="2")
    assert ENGINE.view(state)["peek"]["colour"] == colour_of(state, 2)
    assert view_json(swapped(state, 0, 1)) == view_json(state)
    state = act(state, type="hide", seat="2")
    assert ENGINE.view(state)["peek"] is None and state["phase"] == "play"
    assert view_json(swapped(state, 0, 2)) == view_json(state)


def test_the_game_seed_is_not_in_the_view():
    one, other = start(seed=SEED), start(seed=SEED + 1)
    assert one["owners"] != other["owners"]
    assert view_json(one) == view_json(other)
    for state, _a, _b in moments():
        assert str(SEED) not in view_json(state)
    assert str(SEED) not in view_json(finished_game(seed=SEED))


def finished_game(seed=11):
    return minotaur_into_room(dealt(seed=seed))


HOSTILE_FLICKS = [
    {"angle": "nan"}, {"angle": "inf"}, {"angle": "-inf"}, {"angle": "1e400"}, {"angle": ""},
    {"angle": "abc"}, {"angle": "9" * 40}, {"angle": "١٢"}, {"strength": "0"},
    {"strength": "101"}, {"strength": "-5"}, {"strength": "nan"}, {"strength": ""},
    {"marble": "noir"}, {"marble": ""}, {"marble": "x" * 500}, {"move": "1"}, {"move": ""},
    {"move": "-1"}, {"marble": None}, {"angle": ["1"]}, {"angle": "1e2"}, {"angle": "1_0"},
    {"strength": "0x10"}, {"angle": "+-5"}, {"strength": "50.0001"},
]


@pytest.mark.parametrize("bad", HOSTILE_FLICKS, ids=lambda bad: repr(bad)[:30])
def test_a_hostile_flick_is_refused_and_changes_nothing(bad):
    state = dealt()
    action = {"type": "flick", "marble": "rouge", "angle": "80", "strength": "60", "move": "0"}
    refused(state, **{**action, **bad})


def test_the_deal_moves_on_only_once_the_player_has_seen_their_colour():
    state = start()
    assert refused(state, type="hide", seat="0") == "not_seen"
    state = act(state, type="show", seat="0")
    state = act(state, type="hide", seat="0")
    assert state["peek"] == {"seat": 1, "shown": False}


@pytest.mark.parametrize("seat", ["99", "3", "-1", "", "a", "²", "0.5", "1 0", "0" * 10])
def test_a_hostile_seat_is_refused_and_changes_nothing(seat):
    refused(start(), type="show", seat=seat)
    refused(dealt(), type="peek", seat=seat)


@pytest.mark.parametrize("action", [
    {"type": "flick", "marble": "rouge", "angle": "80", "strength": "60", "move": "0"},
    {"type": "ariane", "move": "0"}, {"type": "peek", "seat": "1"},
    {"type": "hide", "seat": "2"}, {"type": "cheat"}, {},
])
def test_nothing_but_the_peek_is_played_while_a_colour_is_being_seen(action):
    refused(start(ariane=True), **action)
    refused(act(start(), type="show", seat="0"), **action)
    refused(act(dealt(ariane=True), type="peek", seat="1"), **action)


@pytest.mark.parametrize("action", [
    {"type": "flick", "marble": MINOTAUR, "angle": "80", "strength": "60"},
    {"type": "ariane"}, {"type": "peek", "seat": "0"}, {"type": "show", "seat": "0"},
    {"type": "hide", "seat": "0"},
])
def test_no_action_is_played_once_the_game_is_over(action):
    state = finished_game()
    assert state["phase"] == "over"
    refused(state, **action, move=str(state["move"]))


# --- 7. the pages ------------------------------------------------------------------------------


def token_of(response) -> str:
    return response.url.strip("/").split("/")[-1]


def post_action(client, play, **action):
    play.refresh_from_db()
    return client.post(f"/partie/{play.token}/action/", {"version": play.version, **action})


def arrange(play, **moved):
    """Set the board of a stored game up by hand, as in the engine tests."""
    play.refresh_from_db()
    Play.objects.filter(pk=play.pk).update(state=set_board(play.state, **moved))
    play.refresh_from_db()


@pytest.mark.django_db
def test_the_setup_page_offers_both_variants(client):
    html = client.get("/jouer/minotaure/").content.decode()
    assert 'name="option-thesee"' in html and 'name="option-ariane"' in html
    assert 'type="checkbox"' in html


@pytest.mark.django_db
def test_a_game_set_up_with_thesee_has_thesee_on_the_board_and_opens_on_the_deal(client):
    response = client.post("/jouer/minotaure/", {"name-0": "Ana", "name-1": "Bob",
                                                 "name-2": "Cléo", "option-thesee": "on"})
    assert response.status_code == 302
    play = Play.objects.get(token=token_of(response))
    assert play.players == NAMES and play.state["variants"] == ["thesee"]
    assert THESEE in play.state["marbles"] and play.state["ariane"] == [0, 0, 0]
    page = client.get(f"/partie/{play.token}/")
    assert page.status_code == 200 and play.state["phase"] == "deal"
    assert str(play.seed) not in page.content.decode()


@pytest.mark.django_db
def test_a_finished_table_plays_again_with_the_first_eliminated_first(client):
    response = client.post("/jouer/minotaure/", {"name-0": "Ana", "name-1": "Bob",
                                                 "name-2": "Cléo", "option-ariane": "on"})
    play = Play.objects.get(token=token_of(response))
    for seat in "012":
        assert post_action(client, play, type="show", seat=seat).status_code == 302
        assert post_action(client, play, type="hide", seat=seat).status_code == 302
    play.refresh_from_db()
    assert play.state["phase"] == "play"

    # Not over yet: playing again is refused and starts nothing.
    assert client.post(f"/partie/{play.token}/rejouer/").url == f"/partie/{play.token}/"
    assert Play.objects.count() == 1

    # Ana pushes the Minotaur into Cléo's prisoner, then Bob rolls it into the room.
    hunter, prey = outer_spot(0.2), outer_spot(0.45)
    arrange(play, **{MINOTAUR: hunter, colour_of(play.state, 2): prey})
    post_action(client, play, type="flick", marble=MINOTAUR, angle=f"{aim(hunter, prey):.2f}",
                strength=str(MODERATE), move="0")
    play.refresh_from_db()
    assert play.state["out"] == [2] and not play.finished
    place, centre = doorway_spot()
    arrange(play, **{MINOTAUR: place})
    post_action(client, play, type="flick", marble=MINOTAUR, angle=f"{centre:.2f}",
                strength=str(GENTLE), move="1")
    play.refresh_from_db()
    assert play.finished and play.state["winner"] is None

    response = client.post(f"/partie/{play.token}/rejouer/")

    again = Play.objects.exclude(pk=play.pk).get()
    assert response.status_code == 302 and response.url == f"/partie/{again.token}/"
    assert again.players == ["Cléo", "Ana", "Bob"] and again.state["variants"] == ["ariane"]
    assert again.state["phase"] == "deal" and again.browser == play.browser
    assert client.get(response.url).status_code == 200


@pytest.mark.django_db
def test_another_browser_cannot_play_a_table_again(client):
    state = finished_game()
    play = Play.objects.create(game="minotaure", browser="someone-else", players=NAMES,
                               seed=1, state=state, finished=True)
    assert client.post(f"/partie/{play.token}/rejouer/").status_code == 404
    assert Play.objects.count() == 1
    assert Client().get(f"/partie/{play.token}/rejouer/").status_code in (404, 405)


def test_a_page_in_english_keeps_english_punctuation_and_a_french_one_gets_french_spacing():
    from django.utils import translation

    from player.views import typeset

    view = {"say": "Purple is eaten: it was Ana’s marble.", "players": [{"name": "Ana"}]}
    with translation.override("en"):
        assert typeset(view) == view
    with translation.override("fr"):
        said = typeset({"say": "Violet est dévoré : c’était la bille d’Ana !"})["say"]
        assert said == "Violet est dévoré\u00a0: c’était la bille d’Ana\u202f!"
