"""Les 12 Coups de Midi's engine, played as a table plays it on one shared screen.

The content is built here by hand; the test reads a card as the host would (it knows which
proposition is right) and acts only through what the view offers. Money is counted the
way the players count their banknotes, from the rules' numbers.
"""

import copy
import dataclasses
import itertools
import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import RequestFactory

from cms.games.douze_coups import RULES, SPEC
from player.engines.base import (
    ANSWERED,
    OVERRIDDEN,
    SHOWN,
    Choice,
    Item,
    NotEnoughContent,
    Refused,
    Unit,
)
from player.engines.douze_coups import ENGINE

START = RULES.start_money
STAKE = RULES.duel_stake
FATAL_STAKE = RULES.face_a_face_stake
SECONDS = RULES.face_a_face_seconds
GAIN = RULES.coup_de_maitre_gain
JACKPOT = RULES.etoile_jackpot
QUESTIONS = RULES.coup_de_maitre_questions

INTRUDER = 3  # where the FAUX lies on every fiche built here
DUEL_RIGHT = 1  # the right proposition on every duel card built here
ETOILE_ANSWER = "La tour Eiffel"
ETOILE_VARIANT = "La Dame de fer"
# Every hidden proposition, anecdote and typed answer built here says SECRET: a view that
# shows one before its reveal is caught by a plain text search.
SECRET = "SECRET"

ids = itertools.count(1)


# --- content, as an editor would have composed it ---------------------------------------------


def envoi_card(*, hidden_right=False) -> Unit:
    card = next(ids)
    return Unit(id=card, kind="coup-d-envoi", title="Culture générale", items=tuple(
        Item(id=next(ids), text=f"Question d’envoi {card}-{n}", difficulty=2, theme="Histoire",
             choices=(Choice(f"visible {card}-{n}", not hidden_right),
                      Choice(f"{SECRET} cachée {card}-{n}", hidden_right, hidden=True)),
             anecdote=f"{SECRET} anecdote d’envoi {card}-{n}")
        for n in range(1, 5)))


def duel_pair(title="Les fleuves", colour="bleu") -> tuple[Unit, Unit]:
    first, second = next(ids), next(ids)

    def card(me: int, other: int, letter: str) -> Unit:
        return Unit(id=me, kind="duel", title=title, colour=colour, pair=other, items=(
            Item(id=next(ids), text=f"Question de duel {letter}", difficulty=2,
                 choices=tuple(Choice(f"duel {letter} {i}", i == DUEL_RIGHT) for i in range(4)),
                 anecdote=f"{SECRET} anecdote de duel {letter}"),))

    return card(first, second, "A"), card(second, first, "B")


def fiche() -> Unit:
    number = next(ids)
    return Unit(id=number, kind="coup-par-coup", title="Les mammifères", items=(
        Item(id=next(ids), text=f"Ces animaux sont des mammifères ({number})", difficulty=2,
             choices=tuple(Choice("le requin-baleine" if i == INTRUDER else f"mammifère {i}",
                                  i != INTRUDER) for i in range(7)),
             anecdote=f"{SECRET} le requin-baleine respire par des branchies ({number})"),))


def fatal_card() -> Unit:
    card = next(ids)
    return Unit(id=card, kind="coup-fatal", items=tuple(
        Item(id=next(ids), text=f"Question fatale {card}-{n}", difficulty=1,
             answer=f"{SECRET} {card} {n}")
        for n in range(1, 11)))


def maitre_card(*, hidden_right=False) -> Unit:
    card = next(ids)
    return Unit(id=card, kind="coup-de-maitre", items=tuple(
        Item(id=next(ids), text=f"Coup de maître {card} n° {n}", difficulty=n,
             choices=(Choice(f"bonne {card}-{n}", not hidden_right),
                      Choice(f"mauvaise {card}-{n}", False),
                      Choice(f"{SECRET} cachée {card}-{n}", hidden_right, hidden=True)),
             anecdote=f"{SECRET} anecdote de maître {card}-{n}")
        for n in range(1, 6)))


def etoile() -> Unit:
    return Unit(id=next(ids), kind="etoile-mysterieuse", title="L’étoile mystérieuse", items=(
        Item(id=next(ids), text="Qui ou que représente l’étoile mystérieuse ?", difficulty=3,
             answer=ETOILE_ANSWER, variants=(ETOILE_VARIANT,), has_image=True,
             anecdote=f"{SECRET} construite pour l’Exposition universelle de 1889"),))


def make_content(*, envoi=12, fiches=3, fatal=4, maitre=QUESTIONS, duels=None, **kinds) -> dict:
    content = {
        "coup-d-envoi": tuple(envoi_card() for _ in range(envoi)),
        "duel": duels if duels is not None else duel_pair(),
        "coup-par-coup": tuple(fiche() for _ in range(fiches)),
        "coup-fatal": tuple(fatal_card() for _ in range(fatal)),
        "coup-de-maitre": tuple(maitre_card() for _ in range(maitre)),
        "etoile-mysterieuse": (etoile(),),
    }
    content.update(kinds)
    return content


def spec_with(**rules):
    return dataclasses.replace(SPEC, rules=dataclasses.replace(RULES, **rules))


# --- a table: players acting through the view ------------------------------------------------


class Table:
    def __init__(self, players=("Léa", "Hugo", "Inès"), *, content=None, spec=SPEC,
                 now=1000.0, seed=7):
        if isinstance(players, int):
            players = ("Léa", "Hugo", "Inès", "Malo")[:players]
        self.content = content if content is not None else make_content()
        self.items = {item.id: item for units in self.content.values() for unit in units
                      for item in unit.items}
        self.now = now
        self.state = ENGINE.start(spec, self.content, list(players), seed, now=now)
        self.events = []
        self.log = []  # every event of the game, as the server records them

    def act(self, type_, *, at=None, after=1.0, **fields) -> dict:
        self.now = at if at is not None else self.now + after
        stored = json.loads(json.dumps(self.state))  # the server keeps the state as JSON
        self.state, self.events = ENGINE.apply(stored, {"type": type_, "now": self.now,
                                                        **fields})
        self.log.extend(self.events)
        return self.view

    def refuses(self, type_, *, at=None, **fields) -> str:
        """Return the code of the refusal; the state must be as it was."""
        before = copy.deepcopy(self.state)
        with pytest.raises(Refused) as refusal:
            ENGINE.apply(self.state, {"type": type_, "now": self.now + 1 if at is None else at,
                                      **fields})
        assert self.state == before
        return refusal.value.code

    @property
    def view(self) -> dict:
        return ENGINE.view(self.state)

    @property
    def money(self) -> list[int]:
        return [player["money"] for player in self.view["players"]]

    @property
    def stars(self) -> list[str]:
        return [player["star"] for player in self.view["players"]]

    @property
    def turn(self) -> int:
        return self.view["turn"]

    @property
    def question(self) -> dict:
        return self.view["question"]

    def card(self) -> Item:
        """Return the question in play as the host reads it on the card."""
        return self.items[self.question["id"]]

    def answered(self) -> list[dict]:
        return [e for e in self.events if e["type"] == ANSWERED]

    def choice_for(self, right: bool) -> str:
        """Return the choice a player makes who knows the card: by the text on the screen."""
        on_card = {c.text: c.right for c in self.card().choices}
        shown = [p for p in self.question["propositions"] if not p.get("open")]
        return next((p["choice"] for p in shown if on_card[p["text"]] == right), "hidden")

    # The moves of each round, by whoever's turn it is.

    def envoi(self, right=True) -> dict:
        seat = self.turn
        self.act("pick", seat=seat, number=self.view["numbers"][0])
        return self.act("answer", seat=seat, question=self.question["id"],
                        choice=self.choice_for(right))

    def duel(self, right=True) -> dict:
        return self.act("answer", seat=self.turn, question=self.question["id"],
                        choice=self.choice_for(right))

    def cpc(self, right=True) -> dict:
        return self.act("answer", seat=self.turn, question=self.question["id"],
                        choice=self.choice_for(right))

    def fatal(self, right=True, **when) -> dict:
        text = self.card().answer if right else "je ne sais pas"
        return self.act("answer", seat=self.turn, question=self.question["id"], text=text,
                        **when)

    def maitre(self, right=True) -> dict:
        return self.act("answer", seat=self.turn, question=self.question["id"],
                        choice=self.choice_for(right))

    def guess(self, seat: int, text: str) -> dict:
        return self.act("guess", seat=seat, question=self.view["etoile"]["question"], text=text)

    def timeout(self) -> dict:
        return self.act("timeout", at=ENGINE.deadline(self.state))


def lose_envoi(table: Table, loser: int) -> None:
    """Play the coup d'envoi until `loser` errs twice, everyone else answering right."""
    while table.view["phase"] == "coup-d-envoi":
        table.envoi(right=table.turn != loser)


def lose_cpc(table: Table, loser: int) -> None:
    """Play the coup par coup until `loser` opens the intruder twice."""
    while table.view["phase"] == "coup-par-coup":
        table.cpc(right=table.turn != loser)


def settle_duel(table: Table, provoked: int | None = None, *, right=True, card=1) -> None:
    if table.view["step"] == "challenge":
        table.act("challenge", seat=table.turn, target=provoked)
    if table.view["step"] == "pick":
        table.act("pick_card", seat=table.turn, card=card)
    table.duel(right)


def face_a_face(table: Table, loser: int) -> None:
    """Play a face-à-face that `loser` loses on time."""
    table.act("begin")
    if table.turn != loser:
        table.fatal(right=True)
    table.timeout()


def at_coup_fatal(players=2, *, content=None) -> Table:
    """Return a table where both duels are over: seat 0 lost both rounds.

    At two players: Hugo wins duel 1 (Léa pays), Léa wins duel 2 (Hugo pays): all equal.
    """
    table = Table(players, content=content)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=1, right=True)
    lose_cpc(table, loser=0)
    settle_duel(table, provoked=1, right=False)
    return table


def at_final(players=2, *, content=None, fatal_losers=(1,)) -> Table:
    table = at_coup_fatal(players, content=content)
    for loser in fatal_losers:
        if table.view["step"] == "challenge":
            table.act("challenge", seat=table.turn, target=loser)
        face_a_face(table, loser)
    assert table.view["phase"] == "final"
    return table


# --- set-up ------------------------------------------------------------------------------------


def test_everyone_starts_with_the_starting_money_and_a_green_star():
    table = Table(4)
    assert table.money == [START] * 4
    assert table.stars == ["vert"] * 4


def test_the_youngest_player_listed_first_starts_the_coup_d_envoi():
    view = Table(("Léa", "Hugo", "Inès")).view
    assert (view["phase"], view["step"], view["turn"]) == ("coup-d-envoi", "pick", 0)


@pytest.mark.parametrize("players", [("Léa",), ("A", "B", "C", "D", "E")])
def test_a_table_of_one_or_of_five_is_refused(players):
    with pytest.raises(Refused):
        ENGINE.start(SPEC, make_content(), list(players), 7)


def test_needs_asks_for_one_full_game_of_each_kind_and_spare_coup_de_maitre_cards():
    needs = ENGINE.needs(3)
    assert {k: v for k, v in needs.items() if k != "coup-de-maitre"} == {
        kind.slug: kind.full_game for kind in SPEC.kinds if kind.slug != "coup-de-maitre"}
    assert needs["coup-de-maitre"] > QUESTIONS


def test_the_final_asks_questions_this_browser_has_not_seen_while_there_are_some():
    played = [maitre_card() for _ in range(QUESTIONS)]
    # The last game read question n of card n: those five have been seen.
    seen = [Unit(id=u.id, kind=u.kind, items=tuple(
        replace(item, seen=(n == i)) for n, item in enumerate(u.items)))
        for i, u in enumerate(played)]
    fresh = [maitre_card() for _ in range(QUESTIONS)]
    table = at_final(content=make_content(maitre=0, **{"coup-de-maitre": (*seen, *fresh)}))
    asked = []
    while table.view["phase"] == "final":
        asked.append(table.question["id"])
        table.maitre(right=False)
    seen_ids = {item.id for unit in seen for item in unit.items if item.seen}
    assert len(asked) == QUESTIONS and not set(asked) & seen_ids


def test_a_game_cannot_start_without_a_complete_duel_pair():
    lone, _ = duel_pair()
    with pytest.raises(NotEnoughContent) as short:
        ENGINE.start(SPEC, make_content(duels=(lone,)), ["Léa", "Hugo"], 7)
    assert (short.value.kind, short.value.needed, short.value.available) == ("duel", 2, 1)


def test_a_game_cannot_start_without_an_etoile():
    with pytest.raises(NotEnoughContent) as short:
        ENGINE.start(SPEC, make_content(**{"etoile-mysterieuse": ()}), ["Léa", "Hugo"], 7)
    assert short.value.kind == "etoile-mysterieuse"


def test_a_game_cannot_start_with_fewer_coup_de_maitre_cards_than_questions():
    with pytest.raises(NotEnoughContent) as short:
        ENGINE.start(SPEC, make_content(maitre=QUESTIONS - 1), ["Léa", "Hugo"], 7)
    assert (short.value.kind, short.value.needed) == ("coup-de-maitre", QUESTIONS)


def test_the_duel_pair_is_found_when_its_cards_were_not_drawn_side_by_side():
    fleuves, echecs = duel_pair("Les fleuves", "bleu"), duel_pair("Les échecs", "vert")
    table = Table(2, content=make_content(duels=(fleuves[0], echecs[0], fleuves[1])))
    lose_envoi(table, loser=0)
    assert table.view["duel"]["title"] == "Les fleuves"


def test_the_state_comes_back_equal_from_json_at_every_step_of_a_game():
    table = Table(3)
    states = [table.state]
    lose_envoi(table, loser=0)
    states.append(table.state)
    settle_duel(table, provoked=2)
    states.append(table.state)
    lose_cpc(table, loser=0)
    settle_duel(table, provoked=1)
    states.append(table.state)
    table.act("begin")
    table.fatal(right=False)
    states.append(table.state)
    for state in states:
        assert json.loads(json.dumps(state)) == state


# --- round 1: the coup d'envoi -------------------------------------------------------------------


def test_the_player_picks_a_number_and_sees_the_question_with_its_visible_proposition_only():
    table = Table()
    assert table.view["numbers"] == [1, 2, 3, 4]
    table.act("pick", seat=0, number="3")
    question = table.question
    card = table.card()
    assert (question["number"], question["text"]) == (3, card.text)
    assert question["propositions"] == [{"choice": "0", "text": card.choices[0].text}]
    assert question["hidden"] is True


def test_a_right_coup_d_envoi_answer_passes_the_turn_to_the_next_player():
    table = Table()
    table.envoi(right=True)
    assert (table.view["step"], table.turn, table.stars[0]) == ("pick", 1, "vert")


def test_a_wrong_coup_d_envoi_answer_turns_the_star_orange_and_passes_the_turn():
    table = Table()
    table.envoi(right=False)
    assert table.stars == ["orange", "vert", "vert"]
    assert table.turn == 1


def test_taking_the_hidden_proposition_when_it_is_the_right_one_is_a_right_answer():
    content = make_content(envoi=0, **{"coup-d-envoi": (envoi_card(hidden_right=True),
                                                        envoi_card())})
    table = Table(content=content)
    table.act("pick", seat=0, number=1)
    table.act("answer", seat=0, question=table.question["id"], choice="hidden")
    assert table.answered()[0]["right"] is True
    assert table.stars[0] == "vert"


def test_the_hidden_proposition_is_revealed_after_the_choice_with_the_anecdote():
    table = Table()
    table.act("pick", seat=0, number=2)
    card = table.card()
    table.act("answer", seat=0, question=card.id, choice="0")
    last = table.view["last"]
    assert last["hidden"] == card.choices[1].text
    assert last["answer"] == card.choices[0].text
    assert last["anecdote"] == card.anecdote
    assert last["right"] is True


def test_a_second_wrong_answer_turns_the_star_red_and_provokes_a_duel():
    table = Table()
    table.envoi(right=False)  # Léa
    table.envoi()  # Hugo
    table.envoi()  # Inès
    view = table.envoi(right=False)  # Léa again
    assert table.stars == ["rouge", "vert", "vert"]
    assert (view["phase"], view["step"], view["turn"]) == ("duel", "challenge", 0)


def test_every_turn_draws_a_fresh_card_and_the_player_picks_among_its_four_numbers():
    table = Table()
    table.act("pick", seat=0, number=2)
    table.act("answer", seat=0, question=table.question["id"], choice="0")
    assert table.view["numbers"] == [1, 2, 3, 4]
    assert table.view["card"]["number"] == 2
    table.act("pick", seat=1, number=2)
    assert table.question["id"] == table.content["coup-d-envoi"][1].items[1].id


def test_a_number_is_one_of_the_card_s_four():
    table = Table()
    for number in ("0", "5", "deux"):
        assert table.refuses("pick", seat=0, number=number) == "bad_value"


def test_when_the_coup_d_envoi_cards_run_out_the_player_with_the_most_errors_loses_the_round():
    table = Table(2, content=make_content(envoi=4))
    table.envoi()  # Léa
    table.envoi(right=False)  # Hugo: orange
    table.envoi()
    view = table.envoi()  # the fourth and last card
    assert view["phase"] == "duel"
    assert table.stars == ["vert", "rouge"]
    assert view["duel"]["provoker"] == 1


# --- the duels ------------------------------------------------------------------------------------


def test_the_provoker_chooses_whom_to_provoke_among_the_others():
    table = Table(3)
    lose_envoi(table, loser=1)
    assert [t["seat"] for t in table.view["targets"]] == [0, 2]
    assert table.refuses("challenge", seat=1, target=1) == "self"
    table.act("challenge", seat=1, target=2)
    assert (table.view["duel"]["provoked"], table.turn) == (2, 2)


def test_at_two_players_the_provoker_faces_the_other_player_without_choosing():
    table = Table(2)
    lose_envoi(table, loser=0)
    view = table.view
    assert (view["step"], view["duel"]["provoker"], view["duel"]["provoked"]) == ("pick", 0, 1)


def test_the_provoked_player_reads_the_pair_s_title_and_picks_one_of_its_two_cards():
    table = Table(2)
    lose_envoi(table, loser=0)
    assert table.view["duel"]["title"] == "Les fleuves"
    assert table.view["duel"]["cards"] == [1, 2]
    assert table.question is None
    table.act("pick_card", seat=1, card="2")
    second = table.content["duel"][1].items[0]
    assert table.question["id"] == second.id
    assert sorted(p["text"] for p in table.question["propositions"]) == sorted(
        c.text for c in second.choices)


def test_a_right_duel_answer_makes_the_provoker_pay_the_stake_to_the_provoked():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, right=True)
    assert table.money == [START - STAKE, START, START + STAKE]


def test_a_wrong_duel_answer_makes_the_provoked_pay_the_stake_to_the_provoker():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, right=False)
    assert table.money == [START + STAKE, START, START - STAKE]


def test_nobody_pays_more_than_they_have():
    poor = spec_with(start_money=1_000, start_notes=(1_000,))
    table = Table(2, spec=poor)
    lose_envoi(table, loser=0)
    settle_duel(table, right=True)
    assert table.money == [0, 2_000]


def test_stars_are_green_again_after_the_duel():
    table = Table(3)
    table.envoi()  # Léa
    table.envoi(right=False)  # Hugo: orange
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2)
    assert table.stars == ["vert", "vert", "vert"]


def test_the_loser_of_the_first_duel_starts_the_coup_par_coup():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, right=False)  # Inès loses her duel
    assert (table.view["phase"], table.turn) == ("coup-par-coup", 2)


def test_the_second_duel_is_played_on_the_other_card_of_the_pair():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, card=2)
    lose_cpc(table, loser=1)
    table.act("challenge", seat=1, target=0)
    assert table.view["step"] == "answer"  # no card to pick: the other one is played
    assert table.question["id"] == table.content["duel"][0].items[0].id
    assert table.view["duel"]["number"] == 2


# --- round 2: the coup par coup --------------------------------------------------------------


def at_coup_par_coup(players=3) -> Table:
    table = Table(players)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=1, right=True)  # Léa loses the duel: she starts
    return table


def test_the_fiche_shows_its_statement_and_seven_propositions_none_marked():
    table = at_coup_par_coup()
    card = table.card()
    assert table.question["text"] == card.text
    assert sorted(p["text"] for p in table.question["propositions"]) == sorted(
        c.text for c in card.choices)
    assert all(p["verdict"] is None and not p["open"] for p in table.question["propositions"])


def test_the_screen_does_not_keep_the_editor_s_order_which_would_tell_the_intruder():
    places = set()
    for seed in range(12):
        table = Table(seed=seed)
        lose_envoi(table, loser=0)
        settle_duel(table, provoked=1, right=True)
        texts = [p["text"] for p in table.question["propositions"]]
        places.add(texts.index("le requin-baleine"))  # the intruder, 4th on every fiche
    assert len(places) > 3


def test_a_vrai_opens_the_proposition_and_passes_the_turn():
    table = at_coup_par_coup()
    fiche_id = table.question["id"]
    vrai = table.choice_for(True)
    table.act("answer", seat=0, question=fiche_id, choice=vrai)
    opened = next(p for p in table.question["propositions"] if p["choice"] == vrai)
    assert (opened["open"], opened["verdict"]) == (True, "vrai")
    assert (table.question["id"], table.turn, table.stars[0]) == (fiche_id, 1, "vert")


def test_an_opened_proposition_cannot_be_named_again():
    table = at_coup_par_coup()
    vrai = table.choice_for(True)
    table.act("answer", seat=0, question=table.question["id"], choice=vrai)
    assert table.refuses("answer", seat=1, question=table.question["id"],
                         choice=vrai) == "already_open"


def test_the_faux_turns_the_star_orange_and_the_next_fiche_is_drawn():
    table = at_coup_par_coup()
    table.act("answer", seat=0, question=table.question["id"], choice=table.choice_for(False))
    assert table.stars[0] == "orange"
    assert table.question["id"] == table.content["coup-par-coup"][1].items[0].id
    assert table.turn == 1
    assert not any(p["open"] for p in table.question["propositions"])


def test_the_fiche_ends_when_all_six_vrai_are_open():
    table = at_coup_par_coup()
    for _ in range(6):
        table.cpc(right=True)
    assert table.question["id"] == table.content["coup-par-coup"][1].items[0].id
    assert table.stars == ["vert", "vert", "vert"]
    assert table.view["last"]["answer"] == "le requin-baleine"


def test_a_second_faux_provokes_the_second_duel():
    table = at_coup_par_coup()
    lose_cpc(table, loser=2)
    assert table.stars == ["vert", "vert", "rouge"]
    assert (table.view["phase"], table.view["duel"]["number"], table.turn) == ("duel", 2, 2)


def test_the_second_duel_moves_the_stake_as_the_first_and_leads_to_the_coup_fatal():
    table = at_coup_par_coup()  # Léa paid Hugo
    lose_cpc(table, loser=2)
    settle_duel(table, provoked=0, right=True)  # Inès pays Léa
    assert table.money == [START - STAKE + STAKE, START + STAKE, START - STAKE]
    assert table.view["phase"] == "coup-fatal"
    assert table.stars == ["vert", "vert", "vert"]


def test_when_the_fiches_run_out_the_player_with_the_most_errors_loses_the_round():
    table = Table(2, content=make_content(fiches=1))
    lose_envoi(table, loser=0)
    settle_duel(table, right=True)  # Léa starts the coup par coup
    for _ in range(6):
        table.cpc(right=True)
    assert table.view["phase"] == "duel"
    assert table.view["duel"]["provoker"] == 0  # no errors: the poorer loses the round


# --- round 3: the coup fatal -------------------------------------------------------------------


def test_at_two_players_one_face_a_face_is_played_and_the_richer_starts():
    table = Table(2)
    lose_envoi(table, loser=0)
    settle_duel(table, right=False)  # Hugo pays Léa
    lose_cpc(table, loser=1)
    settle_duel(table, right=True)  # Hugo provokes, Léa is right: Hugo pays again
    view = table.view
    assert (view["phase"], view["step"]) == ("coup-fatal", "ready")
    assert view["bout"]["seats"] == [0, 1] and view["bout"]["of"] == 1
    assert view["turn"] == 0


def test_at_three_players_the_two_richest_face_each_other_then_the_winner_faces_the_third():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, right=True)  # Inès wins: 7 000 / 10 000 / 13 000
    lose_cpc(table, loser=0)
    settle_duel(table, provoked=1, right=True)  # Hugo wins: 4 000 / 13 000 / 13 000
    assert table.view["bout"]["seats"] == [1, 2]  # equally rich: the younger starts
    face_a_face(table, loser=2)
    assert table.money == [START - 2 * STAKE, START + STAKE + FATAL_STAKE,
                           START + STAKE - FATAL_STAKE]
    assert table.view["bout"]["seats"] == [1, 0]
    assert table.view["bout"]["number"] == 2


def test_at_four_players_the_poorest_picks_an_opponent_and_the_other_two_face_each_other():
    table = Table(4)
    lose_envoi(table, loser=1)
    settle_duel(table, provoked=0, right=True)  # Hugo pays Léa
    lose_cpc(table, loser=3)
    settle_duel(table, provoked=1, right=False)  # Hugo pays Malo
    assert table.money == [START + STAKE, START - 2 * STAKE, START, START + STAKE]
    assert (table.view["step"], table.turn) == ("challenge", 1)
    table.act("challenge", seat=1, target=2)
    assert sorted(table.view["bout"]["seats"]) == [1, 2]
    face_a_face(table, loser=1)
    assert sorted(table.view["bout"]["seats"]) == [0, 3]


def test_at_four_players_the_youngest_of_the_poorest_picks():
    table = Table(4)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=1, right=True)  # Léa pays Hugo
    lose_cpc(table, loser=2)
    settle_duel(table, provoked=3, right=False)  # Malo pays Inès
    assert table.money == [START - STAKE, START + STAKE, START + STAKE, START - STAKE]
    assert (table.view["step"], table.turn) == ("challenge", 0)


def test_the_clocks_wait_for_the_face_a_face_to_begin():
    table = at_coup_fatal()
    assert ENGINE.deadline(table.state) is None
    assert [c["running"] for c in table.view["clock"]] == [False, False]
    assert table.question is None
    table.act("begin", at=2000.0)
    assert ENGINE.deadline(table.state) == 2000.0 + SECONDS
    assert table.question["free"] is True


def test_a_right_answer_stops_the_clock_and_starts_the_other_player_s():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    starter, other = table.view["bout"]["seats"]
    table.fatal(right=True, at=2010.0)
    clocks = {c["seat"]: c for c in table.view["clock"]}
    assert (clocks[starter]["remaining"], clocks[starter]["running"]) == (SECONDS - 10, False)
    assert (clocks[other]["remaining"], clocks[other]["running"]) == (SECONDS, True)
    assert clocks[other]["at"] == 2010.0
    assert table.turn == other
    assert ENGINE.deadline(table.state) == 2010.0 + SECONDS


def test_a_wrong_answer_gives_the_same_player_the_next_question_while_the_clock_runs():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    starter = table.turn
    asked = table.question["id"]
    table.fatal(right=False, at=2004.0)
    assert table.turn == starter
    assert table.question["id"] != asked
    assert ENGINE.deadline(table.state) == 2000.0 + SECONDS


def test_passing_counts_as_a_wrong_answer_and_the_clock_keeps_running():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    starter = table.turn
    asked = table.question["id"]
    table.act("pass", seat=starter, question=asked, at=2003.0)
    assert table.answered()[0] | {"seconds": None} == {
        "type": ANSWERED, "question": asked, "seat": starter, "right": False,
        "mode": "coup-fatal", "seconds": None, "given": ""}
    assert (table.turn, ENGINE.deadline(table.state)) == (starter, 2000.0 + SECONDS)


def test_the_player_whose_time_runs_out_pays_the_stake_to_the_other():
    table = at_coup_fatal()
    before = table.money
    table.act("begin")
    starter, other = table.view["bout"]["seats"]
    table.timeout()
    expected = list(before)
    expected[starter] -= FATAL_STAKE
    expected[other] += FATAL_STAKE
    assert table.money == expected
    assert table.view["phase"] == "final"  # everyone goes on to the final


def test_a_timeout_before_the_deadline_is_refused():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    assert table.refuses("timeout", at=2000.0 + SECONDS - 0.5) == "not_yet"


def test_an_answer_after_the_deadline_is_refused_even_before_the_timeout_is_applied():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    late = 2000.0 + SECONDS + 0.1
    assert table.refuses("answer", seat=table.turn, question=table.question["id"],
                         text=table.card().answer, at=late) == "time_up"


def test_the_table_may_accept_an_answer_the_judge_refused_and_the_clock_switches():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    starter, other = table.view["bout"]["seats"]
    refused = table.question["id"]
    table.act("answer", seat=starter, question=refused, text="Lyon-sur-Rhône", at=2005.0)
    assert table.view["override"] == {"question": refused, "seat": starter,
                                      "name": table.view["players"][starter]["name"]}
    table.act("override", question=refused, at=2007.0)
    assert table.events == [{"type": OVERRIDDEN, "question": refused, "seat": starter}]
    assert table.turn == other
    assert table.view["last"]["accepted"] is True
    clocks = {c["seat"]: c["remaining"] for c in table.view["clock"]}
    assert clocks == {starter: SECONDS - 7, other: SECONDS}


def test_only_the_answer_just_judged_wrong_may_be_accepted():
    table = at_coup_fatal()
    table.act("begin")
    first = table.question["id"]
    table.fatal(right=False)
    table.act("pass", seat=table.turn, question=table.question["id"])
    assert table.refuses("override", question=first) == "nothing_to_accept"


def test_a_right_answer_leaves_nothing_to_accept():
    table = at_coup_fatal()
    table.act("begin")
    answered = table.question["id"]
    table.fatal(right=True)
    assert table.view["override"] is None
    assert table.refuses("override", question=answered) == "nothing_to_accept"


def test_a_typed_answer_is_judged_leniently_on_case_accents_articles_and_a_small_typo():
    rome = Unit(id=next(ids), kind="coup-fatal", items=tuple(
        Item(id=next(ids), text=f"Où se dresse le Colisée ? ({n})", difficulty=1,
             answer="Rome", variants=("la Ville éternelle",)) for n in range(10)))
    table = at_coup_fatal(content=make_content(**{"coup-fatal": (rome,)}))
    table.act("begin")
    for given in ("rome", "la ville eternelle", "La Ville Éternele"):
        table.act("answer", seat=table.turn, question=table.question["id"], text=given)
        assert table.answered()[0]["right"] is True, given
    table.act("answer", seat=table.turn, question=table.question["id"], text="Milan")
    assert table.answered()[0]["right"] is False


def test_a_new_coup_fatal_card_is_drawn_when_its_ten_questions_are_used():
    table = at_coup_fatal()
    table.act("begin", at=2000.0)
    first, second = table.content["coup-fatal"][:2]
    seen = []
    for n in range(len(first.items)):
        seen.append(table.question["id"])
        table.fatal(right=False, at=2000.0 + n + 1)
    assert seen == [item.id for item in first.items]
    assert table.question["id"] == second.items[0].id


def test_when_a_face_a_face_runs_out_of_questions_the_player_with_less_time_left_loses():
    table = at_coup_fatal(content=make_content(fatal=1))
    before = table.money
    table.act("begin", at=2000.0)
    starter, other = table.view["bout"]["seats"]
    table.fatal(right=True, at=2010.0)  # the starter has 50 s left
    for n in range(1, 10):
        table.fatal(right=False, at=2010.0 + 3 * n)  # the other spends 27 s: 33 s left
    expected = list(before)
    expected[other] -= FATAL_STAKE
    expected[starter] += FATAL_STAKE
    assert table.money == expected
    assert table.view["phase"] == "final"


def test_each_face_a_face_reads_its_own_coup_fatal_cards():
    table = at_coup_fatal(3)
    cards = table.content["coup-fatal"]
    table.act("begin")
    assert table.question["id"] == cards[0].items[0].id
    table.timeout()
    table.act("begin")
    assert table.question["id"] == cards[len(cards) // 2].items[0].id


# --- the final: coup de maître and étoile mystérieuse ----------------------------------------


def test_the_final_starts_with_the_poorest_player_and_shows_the_etoile():
    table = at_coup_fatal()  # 10 000 each; Léa starts the face-à-face, being the younger
    face_a_face(table, loser=0)
    assert table.money == [START - FATAL_STAKE, START + FATAL_STAKE]
    etoile_id = table.content["etoile-mysterieuse"][0].items[0].id
    assert {"type": SHOWN, "question": etoile_id} in table.events
    view = table.view
    assert (view["phase"], view["turn"]) == ("final", 0)
    assert view["image"] == {"question": etoile_id, "panels": []}


def test_the_youngest_of_the_poorest_starts_the_final():
    table = Table(3)
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2, right=True)  # 7 000 / 10 000 / 13 000
    lose_cpc(table, loser=0)
    settle_duel(table, provoked=2, right=False)  # 10 000 each
    face_a_face(table, loser=1)  # Léa and Hugo, the younger ones: 13 000 / 7 000 / 10 000
    face_a_face(table, loser=2)  # Léa against Inès: 16 000 / 7 000 / 7 000
    assert table.money == [START + 2 * FATAL_STAKE, START - FATAL_STAKE, START - FATAL_STAKE]
    assert table.turn == 1


def test_question_n_of_the_final_is_question_n_of_a_freshly_drawn_coup_de_maitre_card():
    table = at_final()
    cards = table.content["coup-de-maitre"]
    asked = []
    for _ in range(QUESTIONS):
        asked.append(table.question["id"])
        assert table.question["number"] == len(asked)
        table.maitre(right=False)
    assert asked == [card.items[n].id for n, card in enumerate(cards)]


def test_the_coup_de_maitre_offers_two_visible_propositions_and_the_hidden_one():
    table = at_final()
    card = table.card()
    assert sorted(p["text"] for p in table.question["propositions"]) == sorted(
        c.text for c in card.choices if not c.hidden)
    assert table.question["hidden"] is True


def test_a_right_coup_de_maitre_answer_pays_the_gain_and_opens_a_large_panel():
    table = at_final()
    player = table.turn
    before = table.money[player]
    table.maitre(right=True)
    assert table.money[player] == before + GAIN
    width, rows = RULES.large_panel_width, RULES.large_panels
    assert table.view["image"]["panels"] == [pytest.approx([0, 0, width, 1 / rows])]


def test_a_wrong_coup_de_maitre_answer_opens_a_small_panel_and_pays_nothing():
    table = at_final()
    before = table.money
    table.maitre(right=False)
    assert table.money == before
    width, rows = RULES.large_panel_width, RULES.small_panels
    assert table.view["image"]["panels"] == [pytest.approx([width, 0, 1 - width, 1 / rows])]


def test_panels_open_from_the_top_down_on_each_side():
    table = at_final()
    for right in (True, False, True):
        table.maitre(right=right)
    large, small = RULES.large_panel_width, 1 - RULES.large_panel_width
    assert table.view["image"]["panels"] == [
        pytest.approx([0, 0, large, 1 / RULES.large_panels]),
        pytest.approx([0, 1 / RULES.large_panels, large, 1 / RULES.large_panels]),
        pytest.approx([large, 0, small, 1 / RULES.small_panels]),
    ]


def test_players_take_the_final_s_questions_in_turn():
    table = at_final(3, fatal_losers=(1, 2))
    first = table.turn
    table.maitre()
    assert table.turn == (first + 1) % 3


def test_a_right_guess_wins_the_jackpot_and_the_game_at_once_even_for_the_poorer():
    table = at_final()
    richer = max(range(2), key=lambda s: table.money[s])
    poorer = 1 - richer
    before = table.money
    view = table.guess(poorer, "tour eiffel")
    assert table.money[poorer] == before[poorer] + JACKPOT
    assert view["finished"] is True and ENGINE.finished(table.state)
    assert view["winners"] == [poorer] and view["etoile_winner"] == poorer
    assert view["masters"] == [view["players"][poorer]["name"]]


def test_an_accepted_variant_of_the_etoile_wins_too():
    table = at_final()
    table.guess(1, "dame de fer")
    assert table.view["etoile_winner"] == 1


def test_any_player_still_in_the_final_may_guess_out_of_turn():
    table = at_final(3, fatal_losers=(1, 2))
    elsewhere = (table.turn + 1) % 3
    table.guess(elsewhere, "la tour Eiffel")
    assert table.view["winners"] == [elsewhere]


def test_a_wrong_guess_puts_the_player_out_of_the_final():
    table = at_final(3, fatal_losers=(1, 2))
    out = (table.turn + 1) % 3
    table.guess(out, "Big Ben")
    assert table.view["players"][out]["out"] is True
    assert out not in [g["seat"] for g in table.view["etoile"]["guessers"]]
    assert table.refuses("guess", seat=out, question=table.view["etoile"]["question"],
                         text="la tour Eiffel") == "out"
    table.maitre()
    assert table.turn != out  # the turn skips the player who is out


def test_the_question_of_a_player_who_guessed_wrong_goes_to_the_next_player():
    table = at_final(3, fatal_losers=(1, 2))
    guesser = table.turn
    asked = table.question["id"]
    table.guess(guesser, "Big Ben")
    assert table.turn == (guesser + 1) % 3
    assert table.question["id"] == asked


def test_an_empty_guess_is_refused_and_puts_nobody_out():
    table = at_final()
    assert table.refuses("guess", seat=0, question=table.view["etoile"]["question"],
                         text="   ") == "empty"


def test_when_every_player_guessed_wrong_nobody_wins_the_jackpot():
    table = at_final()
    before = table.money
    table.guess(0, "Big Ben")
    view = table.guess(1, "le Colisée")
    assert view["finished"] is True
    assert view["etoile_winner"] is None
    assert table.money == before
    assert view["winners"] == [max(range(2), key=lambda s: before[s])]


def test_after_the_last_question_without_a_right_guess_the_richest_is_maitre_de_midi():
    table = at_final()  # 13 000 for Léa, 7 000 for Hugo, who starts
    for _ in range(QUESTIONS):
        table.maitre(right=True)
    # Hugo answered questions 1, 3 and 5; Léa 2 and 4.
    assert table.money == [START + FATAL_STAKE + 2 * GAIN, START - FATAL_STAKE + 3 * GAIN]
    view = table.view
    assert view["finished"] is True and view["etoile_winner"] is None
    assert view["masters"] == ["Léa"]


def test_a_player_out_of_the_final_cannot_be_maitre_de_midi():
    table = at_final()  # Léa is the richer
    table.guess(0, "Big Ben")
    for _ in range(QUESTIONS):
        table.maitre(right=False)
    assert table.view["masters"] == ["Hugo"]


def test_equally_rich_players_share_the_title():
    table = at_final(3, fatal_losers=(1, 2))
    # 3 000 from Hugo and from Inès to Léa: 16 000 / 7 000 / 7 000; Hugo starts.
    assert table.money == [START + 2 * FATAL_STAKE, START - FATAL_STAKE, START - FATAL_STAKE]
    table.guess(0, "Big Ben")
    for right in (True, True, False, False, False):  # Hugo, Inès, Hugo, Inès, Hugo
        table.maitre(right=right)
    assert table.view["masters"] == ["Hugo", "Inès"]
    assert "Maîtres de Midi" in table.view["say"]


def test_the_whole_picture_the_answer_and_its_anecdote_are_revealed_at_the_end():
    table = at_final()
    for _ in range(QUESTIONS):
        table.maitre(right=False)
    view = table.view
    assert len(view["image"]["panels"]) == RULES.large_panels + RULES.small_panels
    assert view["etoile"]["answer"] == ETOILE_ANSWER
    assert view["etoile"]["anecdote"] == table.content["etoile-mysterieuse"][0].items[0].anecdote


def test_nothing_is_accepted_once_the_game_is_finished():
    table = at_final()
    table.guess(0, "tour Eiffel")
    assert table.refuses("guess", seat=1, question=table.view["etoile"]["question"],
                         text="tour Eiffel") == "finished"


# --- nothing leaks ------------------------------------------------------------------------------


def _public(view: dict) -> str:
    """Return the view as text, without the reveal of a question already answered."""
    shown = dict(view)
    if shown["last"] and shown["last"]["answer"] is not None:
        shown.pop("last")
    return json.dumps(shown, ensure_ascii=False)


def _watch(table: Table, move, *args, **kwargs):
    move(*args, **kwargs)
    text = _public(table.view)
    assert SECRET not in text
    assert "Eiffel" not in text and "Dame de fer" not in text


def test_no_view_before_a_reveal_tells_a_hidden_proposition_an_answer_or_the_etoile():
    table = Table(3)
    assert SECRET not in _public(table.view)
    while table.view["phase"] == "coup-d-envoi":
        seat = table.turn
        _watch(table, table.act, "pick", seat=seat, number=table.view["numbers"][0])
        _watch(table, table.act, "answer", seat=seat, question=table.question["id"],
               choice=table.choice_for(seat != 0))
    _watch(table, table.act, "challenge", seat=0, target=1)
    _watch(table, table.act, "pick_card", seat=1, card=1)
    _watch(table, table.duel)
    while table.view["phase"] == "coup-par-coup":
        _watch(table, table.cpc, table.turn != 2)
    _watch(table, table.act, "challenge", seat=2, target=0)
    _watch(table, table.duel, False)
    while table.view["phase"] == "coup-fatal":
        _watch(table, table.act, "begin")
        for right in (False, True, False):
            _watch(table, table.fatal, right)
        _watch(table, table.timeout)
    for right in (True, False):
        _watch(table, table.maitre, right)
    _watch(table, table.guess, table.turn, "Big Ben")
    assert "Eiffel" not in json.dumps(table.view, ensure_ascii=False)


def test_a_proposition_s_flag_is_never_in_the_view_before_it_is_opened():
    table = at_coup_par_coup()
    table.cpc(right=True)
    for proposition in table.question["propositions"]:
        assert set(proposition) == {"choice", "text", "open", "verdict"}
        assert proposition["verdict"] == ("vrai" if proposition["open"] else None)


def test_the_fiche_s_anecdote_and_intruder_wait_for_its_end():
    table = at_coup_par_coup()
    table.cpc(right=True)
    last = table.view["last"]
    assert (last["answer"], last["anecdote"]) == (None, "")


def test_propositions_offered_in_the_duel_carry_only_their_text():
    table = Table(2)
    lose_envoi(table, loser=0)
    table.act("pick_card", seat=1, card=1)
    assert all(set(p) == {"choice", "text"} for p in table.question["propositions"])


def test_the_image_lists_only_the_opened_panels_until_the_end():
    table = at_final()
    table.maitre(right=True)
    table.maitre(right=False)
    assert len(table.view["image"]["panels"]) == 2


# --- forged and replayed actions ---------------------------------------------------------------


def test_answering_twice_is_refused_and_changes_nothing():
    table = Table()
    table.act("pick", seat=0, number=1)
    answer = {"seat": 0, "question": table.question["id"], "choice": "hidden"}
    table.act("answer", **answer)
    assert table.refuses("answer", **answer) == "not_now"


def test_replaying_a_coup_fatal_answer_is_refused():
    table = at_coup_fatal()
    table.act("begin")
    seat, asked = table.turn, table.question["id"]
    table.act("answer", seat=seat, question=asked, text="je ne sais pas")
    assert table.refuses("answer", seat=seat, question=asked, text="je ne sais pas") \
        == "not_current"


def test_a_player_cannot_act_in_another_player_s_turn():
    table = Table()
    assert table.refuses("pick", seat=1, number=1) == "not_your_turn"


def test_an_answer_about_another_question_is_refused():
    table = Table()
    table.act("pick", seat=0, number=1)
    other = table.content["coup-d-envoi"][0].items[1].id
    assert table.refuses("answer", seat=0, question=other, choice="0") == "not_current"


@pytest.mark.parametrize("fields", [
    {"seat": "zéro", "number": 1}, {"seat": "-1", "number": 1}, {"seat": "9", "number": 1},
    {"seat": True, "number": 1}, {"number": 1}, {"seat": 0, "number": "0"},
    {"seat": 0, "number": "5"}, {"seat": 0, "number": "1.5"}, {"seat": 0, "number": ["1"]},
])
def test_a_forged_pick_is_refused(fields):
    assert Table().refuses("pick", **fields) == "bad_value"


@pytest.mark.parametrize("choice", ["2", "-1", "cachée", "", None, "１"])
def test_a_forged_coup_d_envoi_choice_is_refused(choice):
    table = Table()
    table.act("pick", seat=0, number=1)
    assert table.refuses("answer", seat=0, question=table.question["id"],
                         choice=choice) == "bad_value"


def test_a_forged_duel_card_is_refused():
    table = Table(2)
    lose_envoi(table, loser=0)
    assert table.refuses("pick_card", seat=1, card="3") == "bad_value"


def test_a_guess_too_long_to_be_an_answer_is_refused():
    table = at_final()
    assert table.refuses("guess", seat=0, question=table.view["etoile"]["question"],
                         text="tour " * 100) == "bad_value"


def test_an_unknown_action_is_refused():
    assert Table().refuses("cheat", seat=0) == "unknown_action"


@pytest.mark.parametrize("type_", ["guess", "begin", "timeout", "override", "challenge"])
def test_an_action_of_another_round_is_refused_during_the_coup_d_envoi(type_):
    assert Table().refuses(type_, seat=0, target=1) == "not_now"


def test_an_action_without_the_server_s_time_is_refused():
    table = Table()
    with pytest.raises(Refused):
        ENGINE.apply(table.state, {"type": "pick", "seat": 0, "number": 1, "now": "1000"})


def test_apply_never_changes_the_state_it_is_given():
    table = at_coup_fatal()
    table.act("begin")
    before = copy.deepcopy(table.state)
    ENGINE.apply(table.state, {"type": "answer", "seat": table.turn,
                               "question": table.question["id"], "text": "faux",
                               "now": table.now + 1})
    assert table.state == before


# --- events and what the table is told ------------------------------------------------------


def test_every_answer_is_recorded_with_its_mode_and_the_seconds_since_it_was_shown():
    table = Table()
    table.act("pick", seat=0, number=1, at=1010.0)
    card = table.card()
    table.act("answer", seat=0, question=card.id, choice="hidden", at=1013.5)
    assert table.events == [{"type": ANSWERED, "question": card.id, "seat": 0, "right": False,
                             "mode": "coup-d-envoi", "seconds": 3.5,
                             "given": card.choices[1].text}]


def test_each_round_records_its_answers_under_its_own_mode():
    table = at_final()
    table.maitre()
    table.guess(0, "Big Ben")
    modes = [e["mode"] for e in table.log if e["type"] == ANSWERED]
    assert list(dict.fromkeys(modes)) == ["coup-d-envoi", "duel", "coup-par-coup",
                                          "coup-fatal", "coup-de-maitre", "etoile"]


def test_say_tells_in_french_what_just_happened():
    table = Table()
    table.envoi(right=False)
    assert table.view["say"] == ("Mauvaise réponse pour Léa\u00a0: étoile orange. "
                                 "À Hugo de jouer.")


def test_everyone_s_money_stays_in_the_view_throughout():
    table = at_final()
    assert [p["money_label"] for p in table.view["players"]] == [
        f"{m:,}".replace(",", "\u202f") + "\u00a0€" for m in table.money]


def test_starting_the_clock_clears_the_reveal_of_the_round_before():
    table = at_coup_fatal()
    assert table.view["last"]["mode"] == "duel"  # read while the face-à-face gets ready
    table.act("begin")
    assert table.view["last"] is None


# --- the board ---------------------------------------------------------------------------------


def render(table: Table) -> str:
    """Return the board as the shell renders it inside the page."""
    view = table.view
    context = {"view": view, "play": SimpleNamespace(version=4, token="t"), "spec": SPEC,
               "action_url": "/partie/t/action/"}
    if view.get("image"):
        context["image_url"] = "/partie/t/image/4.png"
    return render_to_string("player/douze-coups/board.html", context,
                            request=RequestFactory().get("/"))


def secrets_of(table: Table) -> list[str]:
    """Return what the page must not carry while the current question is played."""
    found = [ETOILE_ANSWER, ETOILE_VARIANT]
    if table.question:
        item = table.card()
        found += [c.text for c in item.choices if c.hidden] + [item.anecdote]
        found += [item.answer, *item.variants] if item.answer else []
    return [text for text in found if text]


def test_every_step_of_a_game_renders_a_form_for_its_actions_and_none_of_its_secrets():
    table = Table(3)
    offered = {}

    def look():
        html = render(table)
        for secret in secrets_of(table):
            assert secret not in html, (table.view["phase"], table.view["step"], secret)
        for kind in ("pick", "answer", "challenge", "pick_card", "begin", "pass", "override",
                     "guess"):
            if f'name="type" value="{kind}"' in html:
                offered.setdefault((table.view["phase"], table.view["step"]), set()).add(kind)

    original = table.act

    def act(*args, **kwargs):
        view = original(*args, **kwargs)
        if not view["finished"]:
            look()
        return view

    table.act = act
    look()
    lose_envoi(table, loser=0)
    settle_duel(table, provoked=2)
    lose_cpc(table, loser=0)
    settle_duel(table, provoked=1)
    for _ in range(2):
        table.act("begin")
        table.fatal(right=False)
        table.fatal(right=True)
        table.timeout()
    table.maitre()
    assert offered == {
        ("coup-d-envoi", "pick"): {"pick"}, ("coup-d-envoi", "answer"): {"answer"},
        ("duel", "challenge"): {"challenge"}, ("duel", "pick"): {"pick_card"},
        ("duel", "answer"): {"answer"}, ("coup-par-coup", "answer"): {"answer"},
        ("coup-fatal", "ready"): {"begin"}, ("coup-fatal", "run"): {"answer", "pass",
                                                                    "override"},
        ("final", "answer"): {"answer", "guess"},
    }


def test_the_running_clock_is_rendered_for_the_page_to_count_down():
    table = at_coup_fatal()
    table.act("begin")
    html = render(table)
    assert html.count('data-running="1"') == 1
    assert f'data-countdown="{SECONDS:.2f}" data-running="1"' in html


def test_the_etoile_is_shown_as_its_picture_whose_alt_does_not_tell_the_answer():
    table = at_final()
    table.maitre(right=True)
    html = render(table)
    assert '<img src="/partie/t/image/4.png"' in html
    assert "Eiffel" not in html


def test_the_etoile_is_cut_into_the_rules_panels_by_the_stylesheet():
    # In the stylesheet, not a style attribute, which the Content-Security-Policy refuses.
    html = render(at_final())
    stylesheet = Path(finders.find("player/douze-coups.css")).read_text()
    assert '<span class="dc-etoile-frame">' in html
    assert f"--split: {RULES.large_panel_width}; --rows: {RULES.large_panels};" in stylesheet


def test_an_answer_given_is_quoted_in_guillemets_in_the_reveal():
    table = Table()
    table.envoi(right=True)
    assert "Réponse donnée\u00a0: «\u202fvisible" in render(table)


def test_a_title_already_in_guillemets_is_not_quoted_twice_in_the_reveal():
    novel, other = "«\u00a0Les Misérables\u00a0»", "«\u00a0Notre-Dame de Paris\u00a0»"
    card = Unit(id=next(ids), kind="coup-d-envoi", title="Livres", items=tuple(
        Item(id=next(ids), text=f"Quel roman Victor Hugo a-t-il publié en 1862 ? ({n})",
             difficulty=2, choices=(Choice(novel, True), Choice(other, False, hidden=True)))
        for n in range(1, 5)))
    table = Table(content=make_content(**{"coup-d-envoi": (card,)}))
    table.envoi(right=True)
    html = render(table)
    assert f"Réponse donnée\u00a0: {novel}" in html
    assert f"La proposition cachée\u00a0: {other}" in html
    assert "«\u202f«" not in html


def test_a_hidden_right_answer_missed_is_told_once_as_the_right_answer():
    table = Table(content=make_content(**{"coup-d-envoi": (envoi_card(hidden_right=True),)}))
    table.envoi(right=False)
    html = render(table)
    hidden = table.view["last"]["answer"]
    assert f"La bonne réponse\u00a0: <strong>{hidden}</strong>" in html
    assert html.count(hidden) == 1


def test_the_etoile_anecdote_is_told_once_when_the_etoile_is_found():
    table = at_final()
    table.guess(1, "tour Eiffel")
    assert render(table).count("construite pour l’Exposition universelle") == 1


def test_the_end_of_the_game_names_the_maitre_de_midi_and_the_etoile():
    table = at_final()
    table.guess(1, "tour Eiffel")
    html = render(table)
    assert "Hugo est Maître de Midi\u202f!" in html
    assert ETOILE_ANSWER in html
