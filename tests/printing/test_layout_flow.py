"""Flow and grid placement: pieces of text set in a band, never on one another, never past it.

The text here is measured as if every character were 1 mm wide, so what fits is plain to
see; the placement never looks at a font itself.
"""

import random

import pytest

from printing.layout.flow import Piece, Placed, flow, grid

LINE_H = 4.0
CHAR = 1.0  # mm a character


def measure(text: str, font: str) -> float:
    return len(text) * CHAR


def wrap(text: str, font: str, width: float) -> list[str]:
    """Break between words, greedily; a word wider than the line stands on its own."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and measure(lines[-1] + " " + word, font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def pieces_of(*texts: str, tail: float = 0.0) -> list[Piece]:
    return [Piece(text, "regular", f"piece {n}", tail=tail) for n, text in enumerate(texts)]


def random_pieces(seed: int) -> list[Piece]:
    rng = random.Random(seed)
    words = ["Paris", "Lyon", "le", "Mont Blanc", "Saint-Étienne", "Aix", "la Loire"]
    return pieces_of(*(" ".join(rng.choices(words, k=rng.randint(1, 4)))
                       for _n in range(rng.randint(1, 6))))


def overlap(a: Placed, b: Placed) -> bool:
    return (a.x < b.x + b.w and b.x < a.x + a.w
            and a.top < b.top + b.h and b.top < a.top + a.h)


def laid_grid(pieces, *, width=60.0, x=5.0, top=10.0, choices=None, indent=2.0):
    options = {} if choices is None else {"choices": choices}
    return grid(pieces, x=x, top=top, width=width, gap=3.0, indent=indent, line_h=LINE_H,
                measure=measure, wrap=wrap, **options)


# --- grid ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_grid_pieces_never_overlap_and_stay_inside_the_band(seed):
    laid = laid_grid(random_pieces(seed), choices={4: 10.0, 2: 0.0})

    boxes = [cell.placed for cell in laid.cells]
    for index, box in enumerate(boxes):
        assert box.x >= 5.0 and box.x + box.w <= 5.0 + 60.0 + 1e-9
        assert all(not overlap(box, other) for other in boxes[index + 1:])


@pytest.mark.parametrize("seed", range(20))
def test_grid_rows_are_as_tall_as_their_tallest_cell_and_add_up_to_the_height(seed):
    laid = laid_grid(random_pieces(seed))

    bottom = max(cell.placed.top + len(cell.lines) * LINE_H for cell in laid.cells)
    assert laid.height == pytest.approx(bottom - 10.0)
    assert all(cell.placed.h == len(cell.lines) * LINE_H for cell in laid.cells)


def test_grid_keeps_the_pieces_in_reading_order():
    laid = laid_grid(pieces_of("un", "deux", "trois", "quatre", "cinq"))

    in_reading_order = sorted(laid.cells, key=lambda cell: (cell.placed.top, cell.x))
    assert [cell.placed.text for cell in in_reading_order] == [
        "un", "deux", "trois", "quatre", "cinq"]


def test_grid_takes_the_most_columns_that_keep_every_piece_on_one_line():
    laid = laid_grid(pieces_of("Paris", "Lyon", "Nice", "Brest"), choices={4: 10.0, 2: 0.0})

    assert laid.columns == 4
    assert {cell.placed.top for cell in laid.cells} == {10.0}
    assert all(len(cell.lines) == 1 for cell in laid.cells)


def test_grid_does_not_use_columns_narrower_than_their_count_accepts():
    laid = laid_grid(pieces_of("Paris", "Lyon", "Nice", "Brest"), choices={4: 20.0, 2: 0.0})

    assert laid.columns == 2


def test_grid_puts_one_piece_a_row_when_no_count_keeps_them_on_one_line():
    long_one = "une proposition bien trop longue pour une demi-ligne"
    laid = laid_grid(pieces_of("Oui", long_one))

    assert laid.columns == 1
    assert [cell.x for cell in laid.cells] == [5.0, 5.0]
    assert laid.cells[1].placed.top == 10.0 + LINE_H


def test_grid_starts_each_text_after_the_cells_indent():
    laid = laid_grid(pieces_of("Paris", "Lyon"), indent=2.5)

    assert all(cell.placed.x == pytest.approx(cell.x + 2.5) for cell in laid.cells)


def test_grid_keeps_room_for_a_pieces_tail_inside_its_cell():
    # On one line of 18 mm the last line would be "Brest Nantes X": no room for the tail.
    laid = laid_grid(pieces_of("Aix Lyon Paris Brest Nantes X", tail=6.0), width=20.0)

    [cell] = laid.cells
    end_of_text = cell.placed.x + measure(cell.lines[-1], "regular")
    assert end_of_text + 6.0 <= cell.x + laid.column_w


def test_a_grid_of_nothing_takes_no_room():
    assert laid_grid([]).height == 0.0


# --- flow ----------------------------------------------------------------------------------


def laid_flow(pieces, *, width=20.0):
    return flow(pieces, x=3.0, top=7.0, width=width, line_h=LINE_H, measure=measure)


@pytest.mark.parametrize("seed", range(20))
def test_flowed_runs_never_overlap_and_stay_inside_the_line(seed):
    rng = random.Random(seed)
    pieces = [Piece(word, rng.choice(["regular", "bold"]), rng.choice(["answer", "variant"]))
              for word in rng.choices(["Paris", "Lyon", "le", "Aix", "Loire"], k=8)]

    flowed = laid_flow(pieces)

    assert flowed.fits
    for index, run in enumerate(flowed.placed):
        assert run.x >= 3.0 and run.x + measure(run.text, run.font) <= 3.0 + 20.0
        assert run.x + run.w <= 3.0 + 20.0 + 1e-9
        assert all(not overlap(run, other) for other in flowed.placed[index + 1:])


def test_flow_reads_as_the_pieces_did_a_space_apart():
    texts = ["Saint-Étienne", "(Sainté", "/", "la", "Loire)"]

    flowed = laid_flow(pieces_of(*texts))

    assert " ".join(run.text for run in flowed.placed) == " ".join(texts)


def test_flow_starts_a_new_line_when_the_next_piece_does_not_fit():
    flowed = laid_flow(pieces_of("Saint-Étienne", "Lyon"), width=15.0)

    assert flowed.lines == 2
    assert [(run.x, run.top) for run in flowed.placed] == [(3.0, 7.0), (3.0, 7.0 + LINE_H)]


def test_flow_joins_pieces_of_one_font_and_label_on_a_line_into_one_run():
    same = [Piece("la", "regular", "variantes"), Piece("Loire", "regular", "variantes")]
    other = Piece("Aix", "bold", "réponse")

    flowed = laid_flow([other, *same], width=40.0)

    assert [run.text for run in flowed.placed] == ["Aix", "la Loire"]


def test_flow_says_when_a_piece_is_wider_than_a_whole_line():
    flowed = laid_flow(pieces_of("anticonstitutionnellement"), width=10.0)

    assert not flowed.fits
    assert flowed.placed[0].w <= 10.0
