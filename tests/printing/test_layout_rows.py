"""Row planning: a column cut into rows, each as tall as its text needs, at the largest size.

The rows here need heights that grow with the size as plain linear functions, so what
fits is plain arithmetic; the planner never looks at what the rows hold.
"""

import random

import pytest

from printing.layout.rows import fitting_size, plan_rows, sizes_from, text_height
from printing.sheets import Rect
from printing.text import MIN_SIZE, REGULAR

BODY = Rect(5.0, 8.0, 50.0, 70.0)
GAP = 1.5


def linear_needs(slopes: list[float], base: float = 2.0):
    """Rows whose height is `base` mm plus `slope` mm a point of size."""
    return lambda size: [base + slope * size for slope in slopes]


def random_slopes(seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0.1, 2.0) for _row in range(rng.randint(1, 8))]


def total(heights: list[float], gap: float = GAP) -> float:
    return sum(heights) + gap * (len(heights) - 1)


@pytest.mark.parametrize("seed", range(30))
def test_it_cuts_the_whole_column_into_rows_gap_apart_from_top_to_bottom(seed):
    plan = plan_rows(BODY, GAP, 12.0, linear_needs(random_slopes(seed)))
    assert plan.rows[0].top == pytest.approx(BODY.top)
    assert plan.rows[-1].y == pytest.approx(BODY.y)
    for upper, lower in zip(plan.rows, plan.rows[1:], strict=False):
        assert upper.y - lower.top == pytest.approx(GAP)
    assert all(row.x == BODY.x and row.w == BODY.w for row in plan.rows)


@pytest.mark.parametrize("seed", range(30))
def test_it_gives_every_row_at_least_what_its_text_needs_when_the_plan_fits(seed):
    needs = linear_needs(random_slopes(seed))
    plan = plan_rows(BODY, GAP, 12.0, needs)
    if plan.fits:
        for row, need in zip(plan.rows, needs(plan.size), strict=True):
            assert row.h >= need - 1e-6


@pytest.mark.parametrize("seed", range(30))
def test_it_chooses_the_largest_size_at_which_every_row_fits(seed):
    needs = linear_needs(random_slopes(seed))
    plan = plan_rows(BODY, GAP, 12.0, needs)
    if plan.fits:
        assert total(needs(plan.size)) <= BODY.h + 1e-6
        if plan.size < 12.0:
            assert total(needs(plan.size + 0.5)) > BODY.h
    else:
        assert plan.size == MIN_SIZE


def test_it_keeps_the_largest_size_when_everything_fits_at_it():
    plan = plan_rows(BODY, GAP, 9.0, linear_needs([0.2, 0.3]))
    assert plan.fits
    assert plan.size == 9.0


def test_it_shares_the_room_left_over_equally_between_the_rows():
    needs = linear_needs([0.2, 0.5, 0.3])
    plan = plan_rows(BODY, GAP, 9.0, needs)
    extras = [row.h - need for row, need in zip(plan.rows, needs(plan.size), strict=True)]
    assert extras == pytest.approx([extras[0]] * 3)
    assert extras[0] > 0


def test_it_names_the_one_row_too_long_for_the_whole_column():
    plan = plan_rows(BODY, GAP, 9.0, lambda size: [5.0, BODY.h + 10.0, 5.0])
    assert not plan.fits
    assert plan.culprits() == (1,)


def test_it_blames_every_row_when_they_are_only_too_long_together():
    plan = plan_rows(BODY, GAP, 9.0, lambda size: [BODY.h / 2] * 3)
    assert not plan.fits
    assert plan.squeezed == (True, True, True)
    assert plan.culprits() == (0, 1, 2)


def test_a_plan_that_fits_blames_no_row():
    assert plan_rows(BODY, GAP, 9.0, lambda size: [10.0, 10.0]).culprits() == ()


def test_it_plans_no_rows_for_nothing():
    plan = plan_rows(BODY, GAP, 9.0, lambda size: [])
    assert plan.rows == ()
    assert plan.fits


def test_it_tries_sizes_half_a_point_apart_from_the_largest_down_to_the_smallest():
    assert list(sizes_from(9.0, 7.0)) == [9.0, 8.5, 8.0, 7.5, 7.0]


def test_it_tries_the_smallest_size_even_when_the_largest_is_below_it():
    assert list(sizes_from(5.0)) == [MIN_SIZE]


def test_a_longer_text_in_the_same_box_needs_more_height():
    short = text_height("Quelle est la capitale ?", REGULAR, 9.0, 30.0)
    long = text_height("Quelle est la capitale de l’Australie, pays du kangourou ?",
                       REGULAR, 9.0, 30.0)
    assert long > short > 0


def test_a_word_wider_than_its_box_needs_more_than_any_column_holds():
    need = text_height("Anticonstitutionnellement", REGULAR, 9.0, 5.0)
    plan = plan_rows(BODY, GAP, 9.0, lambda size: [need])
    assert plan.culprits() == (0,)


def test_it_finds_the_largest_size_at_which_a_title_holds_on_one_line():
    title = "Les grandes découvertes du siècle"
    size = fitting_size(title, REGULAR, 14.0, 40.0, 1)
    assert size is not None and MIN_SIZE <= size < 14.0
    assert text_height(title, REGULAR, size, 40.0) == pytest.approx(size * 25.4 / 72)
    assert text_height(title, REGULAR, size + 0.5, 40.0) > (size + 0.5) * 25.4 / 72


def test_it_finds_no_size_for_a_title_that_never_holds_on_its_lines():
    assert fitting_size("Les grandes découvertes du siècle", REGULAR, 14.0, 10.0, 1) is None
