"""What a full game uses, found by playing the rules: figures checked against GAMES.md."""

from __future__ import annotations

import contextlib
import dataclasses
import pickle
import random

import pytest

from cms.games import GAMES
from cms.games.spec import ContentKind, GameSpec, Players
from player.coverage import (
    Deck,
    chance,
    fingerprint,
    full_game_needs,
    lifted,
    simulate,
    store,
    stored,
)
from player.engines import ENGINES

DOUZE_COUPS = GAMES["douze-coups"]
MILLIONNAIRE = GAMES["millionnaire"]
PRENDRE_SA_PLACE = GAMES["prendre-sa-place"]


@pytest.fixture(scope="module")
def douze_coups():
    return full_game_needs(DOUZE_COUPS).kinds


def test_the_same_seed_gives_the_same_figures():
    first = simulate(DOUZE_COUPS, games=15, seed=7)
    again = simulate(DOUZE_COUPS, games=15, seed=7)
    assert first.kinds == again.kinds
    assert first.games == 15 and first.players == DOUZE_COUPS.players.coverage


def test_the_figures_are_counted_at_the_coverage_table_of_four():
    needs = full_game_needs(DOUZE_COUPS)
    assert needs.players == 4
    assert needs.games >= 100


def test_a_coup_d_envoi_round_at_four_uses_at_least_five_cards(douze_coups):
    # GAMES.md: a fresh card each turn, and a player's second wrong answer ends the round.
    # Turns go round four players, so the earliest second error is the first player's
    # second turn: the fifth card. Most games go further.
    need = douze_coups["coup-d-envoi"]
    assert need.mean > 5
    assert need.p90 >= need.mean
    assert need.most >= need.p90


def test_a_coup_d_envoi_round_needs_more_than_the_old_fixed_guess_in_one_game_of_ten(douze_coups):
    # The issue's own simulation: 12–17 on average, 19–29 for nine games out of ten;
    # the registry's fixed guess (12) let the demo run dry in its first game.
    need = douze_coups["coup-d-envoi"]
    assert 10 <= need.mean <= 20
    assert need.p90 > DOUZE_COUPS.kind("coup-d-envoi").full_game


def test_one_duel_pair_serves_both_duels(douze_coups):
    # GAMES.md: the pair drawn at set-up; duel 1 on one card, duel 2 on the other.
    assert (douze_coups["duel"].mean, douze_coups["duel"].p90, douze_coups["duel"].most) == (
        2, 2, 2)


def test_the_final_reads_five_coup_de_maitre_questions_and_one_etoile(douze_coups):
    questions = DOUZE_COUPS.rules.coup_de_maitre_questions
    assert douze_coups["coup-de-maitre"].p90 == questions == 5
    assert douze_coups["etoile-mysterieuse"].mean == 1


def test_each_face_a_face_at_four_reads_its_own_coup_fatal_cards(douze_coups):
    # Four players: two face-à-face, each with its own share of the cards; two clocks of
    # 60 s answer more than ten quick questions, so a bout reads more than one card.
    need = douze_coups["coup-fatal"]
    assert need.mean > 2
    assert need.p90 >= need.mean


def test_a_coup_par_coup_round_uses_at_least_one_fiche(douze_coups):
    # A fiche ends on the intruder or when its six VRAI are open; the round ends on a
    # second FAUX, so at least one fiche and often several.
    assert douze_coups["coup-par-coup"].mean >= 1
    assert douze_coups["coup-par-coup"].most > 1


def test_millionnaire_at_six_reads_one_question_per_step_per_round():
    # GAMES.md: each player is game master once, a round a player: at the largest table the
    # player seats (six), six questions per step are drawn, whatever the climb.
    need = full_game_needs(MILLIONNAIRE).kinds["echelle"]
    assert full_game_needs(MILLIONNAIRE).players == 6
    assert set(need.steps) == {step.number for step in MILLIONNAIRE.ladder}
    assert {(n, step.p90) for n, step in need.steps.items()} == {
        (step.number, 6) for step in MILLIONNAIRE.ladder}
    assert need.p90 == need.mean == 6 * len(MILLIONNAIRE.ladder)


def test_prendre_sa_place_at_six_draws_a_qualifs_card_per_challenger_and_four_defi_themes():
    # GAMES.md: the Champion and five challengers; each challenger answers a Qualifs card,
    # one Compet' card for all, four Défi cards drawn for the Champion to pick a theme.
    needs = full_game_needs(PRENDRE_SA_PLACE)
    assert needs.players == 6
    assert {slug: (need.mean, need.p90) for slug, need in needs.kinds.items()} == {
        "qualifs": (5, 5), "compet": (1, 1), "defi": (4, 4)}


def test_a_game_no_engine_can_play_keeps_the_registrys_guess():
    game = GameSpec(slug="jeu-sans-moteur", name="Jeu sans moteur", order=99,
                    players=Players(minimum=2, maximum=4, coverage=3),
                    kinds=(ContentKind(slug="carte-sans-moteur", label="Carte",
                                       label_plural="Cartes", propositions=2, full_game=7),))
    needs = simulate(game)
    need = needs.kinds["carte-sans-moteur"]
    assert (need.mean, need.p90, need.simulated) == (7, 7, False)
    assert needs.games == 0


def test_an_easy_question_is_answered_right_more_often_than_a_hard_one():
    assert chance(1, 0.0) > chance(3, 0.0) > chance(5, 0.0)
    # Two propositions: a blind guess is right half the time, whatever the difficulty.
    assert chance(5, 0.5) >= 0.5


def test_the_figures_kept_on_disk_read_back_as_simulated(tmp_path):
    needs = simulate(MILLIONNAIRE, games=5)
    path = tmp_path / "millionnaire.json"
    store(path, needs)
    assert stored(path) == needs
    assert stored(tmp_path / "absent.json") is None


def test_the_figures_change_key_when_the_rules_change():
    changed = dataclasses.replace(DOUZE_COUPS, players=Players(minimum=2, maximum=4, coverage=3))
    assert fingerprint(changed) != fingerprint(DOUZE_COUPS)


@pytest.mark.parametrize("game", [DOUZE_COUPS, MILLIONNAIRE, PRENDRE_SA_PLACE],
                         ids=lambda game: game.slug)
def test_playing_on_the_same_state_gives_the_figures_copies_give(game, monkeypatch):
    # The simulation lets the engines change their state in place (no copy per move): the
    # figures must be those of games played as rooms play them, a fresh state per move.
    fast = simulate(game, games=6, seed=11)
    monkeypatch.setattr("player.coverage.states_handed_over", contextlib.nullcontext)
    copied = simulate(game, games=6, seed=11)
    assert fast.kinds == copied.kinds


def test_an_engine_given_a_state_outside_a_simulation_leaves_it_as_it_was():
    engine = ENGINES["douze-coups"]
    needs = engine.needs(4)
    deck = Deck(DOUZE_COUPS, 3)
    counts = {kind.slug: max(kind.full_game or needs.get(kind.slug, 1), 1) + 2
              for kind in DOUZE_COUPS.kinds}
    content = {kind.slug: deck.units(kind, counts[kind.slug]) for kind in DOUZE_COUPS.kinds}
    state = engine.start(lifted(DOUZE_COUPS, counts), content, ["A", "B", "C", "D"], 3)
    before = pickle.dumps(state)
    after, _events = engine.apply(state, {**engine.simulated_action(
        state, random.Random(1), lambda _d, _l: True)[1], "now": 1.0})
    assert pickle.dumps(state) == before and after is not state
