"""The registry holds the numbers of GAMES.md, and refuses impossible specs."""

import dataclasses

import pytest

import cms.games
from cms.games import GAMES, KINDS, game_of, kind_of
from cms.games.douze_coups import (
    DUEL_COLOURS,
    PAIRING_ONE_DUEL,
    PAIRING_POOREST_PICKS,
    PAIRING_RICHEST_THEN_WINNER,
)
from cms.games.millionnaire import LADDER
from cms.games.minotaure import COLOURS
from cms.games.prendre_sa_place import COMPET_SLOTS, FORMATS, SUPER_CASH_POOL
from cms.games.spec import (
    ORDER_BY_SLOT_FORMAT,
    ORDER_STRICTLY_INCREASING,
    UNIT_CARD,
    UNIT_FICHE,
    UNIT_QUESTION,
    ContentKind,
    GameSpec,
    LadderStep,
    Players,
    SpecError,
)

MILLIONNAIRE = GAMES["millionnaire"]
DOUZE_COUPS = GAMES["douze-coups"]
PRENDRE_SA_PLACE = GAMES["prendre-sa-place"]
THE_MIND = GAMES["the-mind"]
MINOTAURE = GAMES["minotaure"]


def kind(**overrides) -> ContentKind:
    """Build a valid four-proposition kind, changed by the overrides."""
    fields = {"slug": "essai", "label": "Essai", "label_plural": "Essais", "propositions": 4}
    return ContentKind(**{**fields, **overrides})


# --- the registry ----------------------------------------------------------------------------


def test_it_registers_the_five_games_under_their_slugs():
    assert set(GAMES) == {"douze-coups", "millionnaire", "prendre-sa-place", "the-mind",
                          "minotaure"}
    assert all(game.slug == slug for slug, game in GAMES.items())


def test_it_indexes_every_content_kind_once_across_all_games():
    declared = [k.slug for game in GAMES.values() for k in game.kinds]
    assert len(declared) == len(set(declared))
    assert sorted(KINDS) == sorted(declared)


def test_it_maps_each_kind_back_to_its_game_and_spec():
    for game in GAMES.values():
        for content_kind in game.kinds:
            assert game_of(content_kind.slug) is game
            assert kind_of(content_kind.slug) is content_kind


def test_it_refuses_a_kind_slug_declared_by_two_games(monkeypatch):
    twin = GameSpec(order=1, slug="jumeau", name="Jumeau", players=Players(2, 4, 4),
                    kinds=(kind(slug="duel"),))
    monkeypatch.setattr(cms.games, "GAMES", {**GAMES, "jumeau": twin})
    with pytest.raises(SpecError):
        cms.games._index_kinds()


def test_the_games_without_content_have_no_kinds():
    assert THE_MIND.kinds == ()
    assert MINOTAURE.kinds == ()


def test_a_spec_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        MILLIONNAIRE.slug = "autre"


# --- Qui veut gagner des millions ? ----------------------------------------------------------


def test_the_millionnaire_ladder_has_the_fifteen_amounts_of_the_rules():
    assert [step.amount for step in MILLIONNAIRE.ladder] == [
        200, 300, 500, 800, 1_500, 3_000, 6_000, 12_000, 24_000, 48_000,
        72_000, 100_000, 150_000, 300_000, 1_000_000,
    ]
    assert [step.number for step in MILLIONNAIRE.ladder] == list(range(1, 16))
    assert MILLIONNAIRE.ladder is LADDER


def test_the_millionnaire_safe_levels_are_steps_five_ten_and_fifteen():
    assert [step.number for step in MILLIONNAIRE.ladder if step.safe] == [5, 10, 15]
    assert [step.amount for step in MILLIONNAIRE.ladder if step.safe] == [1_500, 48_000,
                                                                          1_000_000]


@pytest.mark.parametrize(
    ("amount", "kept"),
    [(200, 0), (800, 0), (1_500, 0), (3_000, 1_500), (24_000, 1_500), (48_000, 1_500),
     (72_000, 48_000), (1_000_000, 48_000)],
)
def test_a_wrong_answer_pays_the_last_safe_level_below_the_step(amount, kept):
    number = next(step.number for step in MILLIONNAIRE.ladder if step.amount == amount)
    assert MILLIONNAIRE.fallback_amount(number) == kept


@pytest.mark.parametrize(
    ("numbers", "band"),
    [(range(1, 6), (1, 2)), (range(6, 11), (2, 4)), (range(11, 16), (4, 5))],
)
def test_each_ladder_step_has_the_difficulty_band_of_its_third_of_the_ladder(numbers, band):
    assert [MILLIONNAIRE.step(n).difficulty_band for n in numbers] == [band] * 5


def test_a_millionnaire_question_has_four_propositions_one_right_on_a_step():
    echelle = MILLIONNAIRE.kind("echelle")
    assert echelle.unit == UNIT_QUESTION
    assert (echelle.propositions, echelle.right, echelle.hidden) == (4, 1, 0)
    assert echelle.ladder


def test_the_millionnaire_has_three_jokers_and_the_two_player_tries():
    assert set(MILLIONNAIRE.rules.jokers) == {"cinquante", "public", "ami"}
    assert MILLIONNAIRE.rules.public_tries_two_players == 3
    assert MILLIONNAIRE.rules.friend_tries_two_players == 2


def test_the_millionnaire_is_for_two_players_or_more():
    assert (MILLIONNAIRE.players.minimum, MILLIONNAIRE.players.maximum) == (2, None)


# --- Tout le monde veut prendre sa place ------------------------------------------------------


def test_the_answer_formats_are_duo_one_point_carre_three_cash_five():
    assert {slug: (f.propositions, f.points) for slug, f in FORMATS.items()} == {
        "duo": (2, 1), "carre": (4, 3), "cash": (0, 5),
    }
    assert PRENDRE_SA_PLACE.rules.formats is FORMATS


def test_the_super_cash_wins_or_loses_five_points_from_questions_nine_to_fourteen():
    assert PRENDRE_SA_PLACE.rules.super_cash_points == 5
    assert PRENDRE_SA_PLACE.rules.super_cash_pool is SUPER_CASH_POOL
    assert tuple(SUPER_CASH_POOL) == (9, 10, 11, 12, 13, 14)


def test_a_compet_card_has_fourteen_slots_duo_carre_then_cash():
    compet = PRENDRE_SA_PLACE.kind("compet")
    assert compet.questions_per_card == 14
    assert compet.slot_formats == COMPET_SLOTS
    assert len(COMPET_SLOTS) == 14
    assert COMPET_SLOTS[0:3] == ("duo",) * 3
    assert COMPET_SLOTS[3:6] == ("carre",) * 3
    assert COMPET_SLOTS[6:9] == ("cash",) * 3
    assert compet.difficulty_order == ORDER_BY_SLOT_FORMAT


def test_every_prendre_sa_place_question_plays_as_duo_carre_or_cash():
    for content_kind in PRENDRE_SA_PLACE.kinds:
        assert (content_kind.propositions, content_kind.right) == (4, 1)
        assert content_kind.free_answer


def test_qualifs_hold_two_questions_and_defi_six():
    assert PRENDRE_SA_PLACE.kind("qualifs").questions_per_card == 2
    assert PRENDRE_SA_PLACE.kind("defi").questions_per_card == 6


# --- Les 12 Coups de Midi -------------------------------------------------------------------


def test_each_douze_coups_player_starts_with_ten_thousand_euros_in_four_notes():
    assert DOUZE_COUPS.rules.start_money == 10_000
    assert sorted(DOUZE_COUPS.rules.start_notes) == [1_000, 2_000, 2_000, 5_000]
    assert sum(DOUZE_COUPS.rules.start_notes) == DOUZE_COUPS.rules.start_money


def test_the_douze_coups_box_holds_the_banknotes_of_the_rules():
    assert DOUZE_COUPS.rules.banknotes == {10_000: 1, 5_000: 4, 2_000: 15, 1_000: 10}


def test_the_douze_coups_stakes_are_three_thousand_and_the_star_ten_thousand():
    rules = DOUZE_COUPS.rules
    assert rules.duel_stake == rules.face_a_face_stake == 3_000
    assert rules.coup_de_maitre_gain == 3_000
    assert rules.etoile_jackpot == 10_000
    assert rules.errors_before_duel == 2


def test_douze_coups_is_for_two_to_four_players():
    assert (DOUZE_COUPS.players.minimum, DOUZE_COUPS.players.maximum) == (2, 4)


def test_a_coup_d_envoi_card_holds_four_questions_of_one_visible_and_one_hidden_proposition():
    coup_d_envoi = DOUZE_COUPS.kind("coup-d-envoi")
    assert coup_d_envoi.unit == UNIT_CARD
    assert coup_d_envoi.questions_per_card == 4
    assert (coup_d_envoi.propositions, coup_d_envoi.right, coup_d_envoi.hidden) == (2, 1, 1)


def test_a_duel_card_holds_one_question_of_four_propositions_and_comes_in_pairs():
    duel = DOUZE_COUPS.kind("duel")
    assert duel.questions_per_card == 1
    assert (duel.propositions, duel.right, duel.hidden) == (4, 1, 0)
    assert duel.paired


def test_a_coup_par_coup_fiche_has_seven_propositions_six_of_them_right():
    coup_par_coup = DOUZE_COUPS.kind("coup-par-coup")
    assert coup_par_coup.unit == UNIT_FICHE
    assert (coup_par_coup.propositions, coup_par_coup.right) == (7, 6)


def test_a_coup_fatal_card_holds_ten_free_answer_questions():
    coup_fatal = DOUZE_COUPS.kind("coup-fatal")
    assert coup_fatal.questions_per_card == 10
    assert coup_fatal.free_answer
    assert coup_fatal.propositions == 0


def test_a_coup_de_maitre_card_holds_five_questions_of_strictly_increasing_difficulty():
    coup_de_maitre = DOUZE_COUPS.kind("coup-de-maitre")
    assert coup_de_maitre.questions_per_card == 5
    assert (coup_de_maitre.propositions, coup_de_maitre.right, coup_de_maitre.hidden) == (
        3, 1, 1)
    assert coup_de_maitre.difficulty_order == ORDER_STRICTLY_INCREASING


def test_an_etoile_mysterieuse_needs_an_image_and_a_free_answer_behind_fourteen_panels():
    etoile = DOUZE_COUPS.kind("etoile-mysterieuse")
    assert etoile.unit == UNIT_FICHE
    assert etoile.needs_image
    assert etoile.free_answer
    assert DOUZE_COUPS.rules.large_panels == 7
    assert DOUZE_COUPS.rules.small_panels == 7


def test_the_douze_coups_box_counts_are_those_of_the_rules():
    counts = {k.slug: k.box_count for k in DOUZE_COUPS.kinds}
    assert counts == {
        "coup-d-envoi": 55,
        "duel": 2 * 15,  # 15 pairs
        "coup-par-coup": 38,
        "coup-fatal": 55,
        "coup-de-maitre": 25,
        "etoile-mysterieuse": 17,
    }


def test_duel_colours_are_named_and_distinct():
    assert DOUZE_COUPS.rules.duel_colours is DUEL_COLOURS
    assert len(set(DUEL_COLOURS.values())) == len(DUEL_COLOURS)


# --- The Mind ---------------------------------------------------------------------------------


def test_the_mind_levels_and_lives_depend_on_the_players():
    assert THE_MIND.rules.levels_by_players == {2: 12, 3: 10, 4: 8}
    assert THE_MIND.rules.lives_by_players == {2: 2, 3: 3, 4: 4}
    assert THE_MIND.rules.start_shurikens == 1
    assert (THE_MIND.players.minimum, THE_MIND.players.maximum) == (2, 4)


def test_the_mind_rewards_come_after_levels_two_three_five_six_eight_and_nine():
    assert THE_MIND.rules.rewards == {
        2: "shuriken", 3: "life", 5: "shuriken", 6: "life", 8: "shuriken", 9: "life",
    }


def test_the_mind_caps_lives_at_five_and_shurikens_at_three():
    assert THE_MIND.rules.max_lives == 5
    assert THE_MIND.rules.max_shurikens == 3
    assert THE_MIND.rules.life_cards == 5
    assert THE_MIND.rules.shuriken_cards == 3


def test_the_mind_deals_cards_one_to_a_hundred_over_twelve_level_cards():
    assert THE_MIND.rules.cards == (1, 100)
    assert THE_MIND.rules.level_cards == 12


# --- Le jeu du Minotaure ----------------------------------------------------------------------


def test_the_minotaure_is_for_three_to_ten_players():
    assert (MINOTAURE.players.minimum, MINOTAURE.players.maximum) == (3, 10)


def test_the_minotaure_has_ten_distinct_colours_one_per_prisoner_and_card():
    assert len(COLOURS) == 10
    assert len(set(COLOURS.values())) == 10
    assert MINOTAURE.rules.prisoners == MINOTAURE.rules.thesee_cards == 10
    assert MINOTAURE.rules.ariane_cards == 10


# --- impossible specs -----------------------------------------------------------------------


def test_it_refuses_rules_whose_numbers_have_no_french_label():
    @dataclasses.dataclass(frozen=True)
    class Unlabelled:
        rounds: int = 3

    with pytest.raises(SpecError, match="without a label: \\['rounds'\\]"):
        GameSpec(order=1, slug="essai", name="Essai",
                 players=Players(minimum=2, maximum=4, coverage=4), rules=Unlabelled())


def test_a_possible_kind_builds():
    assert kind(right=1, hidden=1).propositions == 4


def test_it_refuses_more_hidden_propositions_than_propositions():
    with pytest.raises(SpecError):
        kind(propositions=2, hidden=3)


def test_it_refuses_a_negative_number_of_hidden_propositions():
    with pytest.raises(SpecError):
        kind(hidden=-1)


def test_it_refuses_every_proposition_being_right():
    with pytest.raises(SpecError):
        kind(propositions=4, right=4)


def test_it_refuses_no_right_proposition():
    with pytest.raises(SpecError):
        kind(propositions=4, right=0)


def test_it_refuses_a_slot_format_count_other_than_the_questions_per_card():
    with pytest.raises(SpecError):
        kind(questions_per_card=3, slot_formats=("duo", "carre"))


def test_it_refuses_ordering_by_slot_format_without_slot_formats():
    with pytest.raises(SpecError):
        kind(questions_per_card=3, difficulty_order=ORDER_BY_SLOT_FORMAT)


def test_it_refuses_an_unknown_difficulty_order():
    with pytest.raises(SpecError):
        kind(difficulty_order="au-hasard")


def test_it_refuses_an_unknown_unit():
    with pytest.raises(SpecError):
        kind(unit="poster")


def test_it_refuses_a_card_without_questions():
    with pytest.raises(SpecError):
        kind(questions_per_card=0)


def test_it_refuses_a_standalone_question_holding_several_questions():
    with pytest.raises(SpecError):
        kind(unit=UNIT_QUESTION, questions_per_card=2)


def test_it_refuses_a_question_with_neither_propositions_nor_answer_nor_image():
    with pytest.raises(SpecError):
        kind(propositions=0)


def test_it_refuses_a_paired_standalone_question():
    with pytest.raises(SpecError):
        kind(unit=UNIT_QUESTION, paired=True)


def test_it_refuses_a_coverage_below_the_minimum_players():
    with pytest.raises(SpecError):
        Players(minimum=3, maximum=10, coverage=2)


def test_it_refuses_a_coverage_above_the_maximum_players():
    with pytest.raises(SpecError):
        Players(minimum=2, maximum=4, coverage=5)


def test_it_refuses_a_maximum_below_the_minimum_players():
    with pytest.raises(SpecError):
        Players(minimum=4, maximum=2, coverage=3)


def test_it_refuses_a_game_without_players():
    with pytest.raises(SpecError):
        Players(minimum=0, maximum=4, coverage=2)


def test_it_refuses_two_kinds_with_one_slug_in_a_game():
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="jeu", name="Jeu", players=Players(2, 4, 4), kinds=(kind(), kind()))


def test_it_refuses_a_ladder_kind_without_a_ladder():
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="jeu", name="Jeu", players=Players(2, 4, 4),
                 kinds=(kind(unit=UNIT_QUESTION, ladder=True),))


def test_it_refuses_ladder_amounts_that_do_not_rise():
    steps = (LadderStep(1, 500, False, (1, 2)), LadderStep(2, 300, True, (1, 2)))
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="jeu", name="Jeu", players=Players(2, 4, 4), ladder=steps)


def test_it_refuses_ladder_steps_out_of_order():
    steps = (LadderStep(2, 100, False, (1, 2)), LadderStep(1, 200, True, (1, 2)))
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="jeu", name="Jeu", players=Players(2, 4, 4), ladder=steps)


@pytest.mark.parametrize("band", [(0, 2), (3, 2), (4, 6)])
def test_it_refuses_a_difficulty_band_outside_one_to_five(band):
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="jeu", name="Jeu", players=Players(2, 4, 4),
                 ladder=(LadderStep(1, 100, True, band),))


def test_every_game_states_its_numbers_as_a_frozen_dataclass():
    for game in GAMES.values():
        assert dataclasses.is_dataclass(game.rules), game.slug
        field = dataclasses.fields(game.rules)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(game.rules, field, None)


def test_a_game_whose_numbers_are_a_loose_dict_is_refused():
    with pytest.raises(SpecError, match="frozen dataclass"):
        GameSpec(order=1, slug="x", name="X", players=Players(2, 4, 2), rules={"stake": 3_000})


def test_the_coup_fatal_pairs_players_as_the_rules_say_for_two_three_and_four():
    pairings = DOUZE_COUPS.rules.face_a_face_pairings
    assert pairings == {2: PAIRING_ONE_DUEL, 3: PAIRING_RICHEST_THEN_WINNER,
                        4: PAIRING_POOREST_PICKS}


def test_the_millionnaire_audience_grows_less_sure_as_the_step_rises():
    rules = MILLIONNAIRE.rules
    steps = len(MILLIONNAIRE.ladder)
    accuracies = [rules.accuracy("public", step, steps) for step in range(1, steps + 1)]
    assert accuracies == sorted(accuracies, reverse=True)
    assert accuracies[0] > accuracies[-1]


# --- what generic layers derive from the registry -------------------------------------------


@pytest.mark.parametrize("overrides", [
    {"paired": True},  # a pair's colour must come from somewhere
    {"pair_colours": ("rouge",)},  # colours for cards that do not pair
    {"paired": True, "pair_colours": ("fuchsia",)},  # not a colour games print with
])
def test_a_kind_names_pair_colours_exactly_when_its_cards_pair(overrides):
    with pytest.raises(SpecError):
        kind(**overrides)


def test_a_kind_ordered_by_slot_format_needs_its_game_to_name_the_formats():
    ordered = kind(questions_per_card=2, slot_formats=("duo", "cash"),
                   difficulty_order=ORDER_BY_SLOT_FORMAT)
    with pytest.raises(SpecError):
        GameSpec(order=1, slug="essai", name="Essai", players=Players(2, 4, 2), kinds=(ordered,))

    game = GameSpec(order=1, slug="essai", name="Essai", players=Players(2, 4, 2), kinds=(ordered,),
                    answer_formats=dict(FORMATS))
    assert game.answer_formats["cash"].label == "CASH"


def test_the_step_range_and_pair_colours_are_read_from_the_games():
    # The model, the importer and the messages read these: no game is named outside its module.
    assert cms.games.MAX_STEP == max(len(game.ladder) for game in GAMES.values()) == len(LADDER)
    assert set(cms.games.PAIR_COLOURS) == {
        colour for game in GAMES.values() for k in game.kinds for colour in k.pair_colours}
    assert [k.slug for k in cms.games.paired_kinds()] == ["duel"]


def test_the_admin_describes_a_kind_from_its_game(db):
    from cms.admin import describe_kind

    assert "un palier de 1 à 15" in describe_kind(MILLIONNAIRE.kind("echelle"))
    assert "DUO, puis CARRÉ, puis CASH, de plus en plus difficiles" in describe_kind(
        PRENDRE_SA_PLACE.kind("compet"))


# --- what a game's module must get right -----------------------------------------------------


@pytest.mark.parametrize(("changes", "message"), [
    ({"slug": "Mauvais Nom!"}, "lower-case words"),
    ({"slug": ""}, "lower-case words"),
    ({"order": 0}, "order"),
])
def test_it_refuses_a_game_that_cannot_be_named_or_placed(changes, message):
    with pytest.raises(SpecError, match=message):
        GameSpec(**{"order": 1, "slug": "essai", "name": "Essai",
                    "players": Players(2, 4, 4), **changes})


@pytest.mark.parametrize("changes", [
    {"unit": "question", "difficulty_order": "strictly-increasing"},
    {"questions_per_card": 6, "difficulty_order": "strictly-increasing"},
    {"ladder": True},
])
def test_it_refuses_kinds_whose_every_card_would_be_wrong(changes):
    with pytest.raises(SpecError):
        kind(**changes)


@pytest.mark.parametrize(("source", "message"), [
    ("from .spec import GameSpec, Players\nSPEC = (GameSpec(order=7, slug='bis', name='Bis', "
     "players=Players(2, 4, 4)),)\n", "is a tuple, not a GameSpec"),
    ("from .spec import GameSpec, Players\nSPEC = GameSpec(order=7, slug='millionnaire', "
     "name='Bis', players=Players(2, 4, 4))\n", "declared twice: in cms.games.millionnaire"),
    ("from .spec import GameSpec, Players\nSPEC = GameSpec(order=2, slug='bis', name='Bis', "
     "players=Players(2, 4, 4))\n", "same order, 2"),
])
def test_finding_the_games_refuses_a_module_that_would_lose_or_hide_one(
        tmp_path, monkeypatch, source, message):
    import sys

    import cms.games

    (tmp_path / "zz_bis.py").write_text(source)
    monkeypatch.setattr(cms.games, "__path__", [*cms.games.__path__, str(tmp_path)])
    try:
        with pytest.raises(SpecError, match=message):
            cms.games.discover_games()
    finally:
        sys.modules.pop("cms.games.zz_bis", None)
