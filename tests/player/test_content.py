"""A game draws live published content: seeded, balanced across themes, unseen first."""

import pytest

from cms.models import Status
from player.content import draw, mark_seen
from tests.builders import make_card, make_question

pytestmark = pytest.mark.django_db


def ladder(per_step=2, status=Status.PUBLISHED):
    return [make_question("echelle", step=step, difficulty=2 if step <= 5 else 4,
                          status=status, theme=f"Thème {copy}")
            for step in range(1, 16) for copy in range(per_step)]


def drawn_ids(units):
    return [u.id for u in units]


def test_only_published_questions_are_drawn():
    published = ladder(per_step=1)
    for status in (Status.DRAFT, Status.REVIEW):
        make_question("echelle", step=3, difficulty=2, status=status)
    units = draw("millionnaire", {"echelle": 100}, seed=1, browser="b")["echelle"]
    assert sorted(drawn_ids(units)) == sorted(q.pk for q in published)


def test_a_card_comes_whole_with_its_questions_and_their_propositions_in_order():
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Rois de France")
    make_card("coup-de-maitre", status=Status.DRAFT)
    (unit,) = draw("douze-coups", {"coup-de-maitre": 5}, seed=1, browser="b")["coup-de-maitre"]
    assert unit.id == card.pk and unit.title == "Rois de France"
    assert [i.id for i in unit.items] == [s.question_id for s in card.ordered_slots()]
    assert [c.text for c in unit.items[0].choices] == ["Proposition 1", "Proposition 2",
                                                        "Proposition 3"]
    assert [c.hidden for c in unit.items[0].choices] == [False, False, True]


def test_the_same_seed_draws_the_same_order_and_another_seed_another():
    for n in range(12):
        make_card("coup-d-envoi", status=Status.PUBLISHED, title=f"Carte {n}")
    first = drawn_ids(draw("douze-coups", {"coup-d-envoi": 12}, seed=5, browser="b")
                      ["coup-d-envoi"])
    again = drawn_ids(draw("douze-coups", {"coup-d-envoi": 12}, seed=5, browser="b")
                      ["coup-d-envoi"])
    other = drawn_ids(draw("douze-coups", {"coup-d-envoi": 12}, seed=6, browser="b")
                      ["coup-d-envoi"])
    assert first == again and first != other and sorted(first) == sorted(other)


def test_consecutive_draws_change_theme_while_themes_are_left():
    for theme in ("Sport", "Cinéma", "Histoire"):
        for _ in range(4):
            make_card("defi", status=Status.PUBLISHED, title=theme)
    for seed in range(10):
        units = draw("prendre-sa-place", {"defi": 12}, seed=seed, browser="b")["defi"]
        titles = [u.title for u in units]
        assert all(len(set(titles[i:i + 3])) == 3 for i in range(0, 12, 3)), titles


def test_questions_this_browser_has_seen_come_after_the_others():
    questions = ladder(per_step=2)
    first = draw("millionnaire", {"echelle": 15}, seed=3, browser="alice")["echelle"]
    mark_seen("alice", [i.id for u in first for i in u.items])
    second = draw("millionnaire", {"echelle": 15}, seed=3, browser="alice")["echelle"]
    assert not set(drawn_ids(first)) & set(drawn_ids(second))
    assert set(drawn_ids(first)) | set(drawn_ids(second)) == {q.pk for q in questions}
    # Another browser has seen nothing yet.
    bob = draw("millionnaire", {"echelle": 15}, seed=3, browser="bob")["echelle"]
    assert drawn_ids(bob) == drawn_ids(first)


def test_when_the_pool_runs_out_seen_questions_are_drawn_again():
    questions = ladder(per_step=1)
    mark_seen("alice", [q.pk for q in questions])
    units = draw("millionnaire", {"echelle": 15}, seed=3, browser="alice")["echelle"]
    assert sorted(drawn_ids(units)) == sorted(q.pk for q in questions)


def test_a_ladder_is_drawn_step_by_step_so_the_first_fifteen_climb_it_all():
    ladder(per_step=3)
    units = draw("millionnaire", {"echelle": 15}, seed=9, browser="b")["echelle"]
    assert sorted(u.items[0].step for u in units) == list(range(1, 16))


def test_duel_cards_come_pair_by_pair_each_card_followed_by_its_partner():
    from tests.builders import make_duel_pair

    pairs = [make_duel_pair(status=Status.PUBLISHED, title=t, colour=c)
             for t, c in (("Fleuves", "bleu"), ("Rois", "rouge"), ("Peintres", "vert"))]
    make_card("duel", status=Status.PUBLISHED, title="Orpheline")
    for seed in range(5):
        units = draw("douze-coups", {"duel": 6}, seed=seed, browser="b")["duel"]
        assert len(units) == 6
        for first, second in zip(units[::2], units[1::2], strict=True):
            assert first.pair == second.id and second.pair == first.id
    assert {u.id for u in units} == {card.pk for pair in pairs for card in pair}


def test_a_climb_changes_theme_from_step_to_step_when_the_library_allows():
    themes = ("Histoire", "Sport", "Cinéma", "Sciences")
    for step in range(1, 16):
        for theme in themes:
            make_question("echelle", step=step, difficulty=2 if step <= 5 else 4,
                          status=Status.PUBLISHED, theme=theme)
    for seed in range(10):
        units = draw("millionnaire", {"echelle": 15}, seed=seed, browser="b")["echelle"]
        climb = [u.title for u in sorted(units, key=lambda u: u.items[0].step)]
        assert max(climb.count(theme) for theme in themes) <= 4, climb


def test_a_card_partly_seen_comes_before_a_card_fully_seen():
    cards = [make_card("coup-d-envoi", status=Status.PUBLISHED, title=f"Carte {n}")
             for n in range(3)]
    questions = [[s.question_id for s in card.ordered_slots()] for card in cards]
    mark_seen("b", questions[0])  # all four
    mark_seen("b", questions[1][:1])  # one of four
    units = draw("douze-coups", {"coup-d-envoi": 3}, seed=1, browser="b")["coup-d-envoi"]
    assert [u.id for u in units] == [cards[2].pk, cards[1].pk, cards[0].pk]
