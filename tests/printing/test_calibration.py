"""The calibration sheet, used as a maker would: printed by a printer that puts its versos
a little off, read through the paper, and the offsets it gives tried on a deck."""

import itertools

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.lib.units import mm

from printing.products.calibration import targets
from printing.render import PrintOptions, render

from .physical import behind, duplex_of, misplaced_backs, page_sizes

LABELS = {"−4": -4, "−2": -2, "0": 0, "+2": 2, "+4": 4}


def printed(tmp_path, name, **options):
    path = tmp_path / f"{name}.pdf"
    render("the-mind", ("calibrage",), PrintOptions(**options), out=str(path))
    return path


def labels(page):
    """Return every ruler number of a page with its centre, in mm."""
    textpage = page.get_textpage()
    found = []
    for label, value in LABELS.items():
        searcher = textpage.search(label, match_whole_word=True)
        while (hit := searcher.get_next()) is not None:
            index, count = hit
            boxes = [textpage.get_charbox(i, loose=True) for i in range(index, index + count)]
            x = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2 / mm
            y = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2 / mm
            found.append((value, x, y))
    return found


def cross_lines(page):
    """Return the verso's long thin strokes: (x of each vertical one, y of each horizontal)."""
    verticals, horizontals = [], []
    for obj in page.get_objects():
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = (v / mm for v in obj.get_bounds())
        if right - left < 1 and top - bottom > 12:
            verticals.append((left + right) / 2)
        elif top - bottom < 1 and right - left > 12:
            horizontals.append((bottom + top) / 2)
    return verticals, horizontals


def read(numbers, along: float) -> float:
    """Read a ruler at a position, between its two nearest numbers."""
    numbers = sorted(numbers, key=lambda n: n[1])
    for (v1, p1), (v2, p2) in itertools.pairwise(numbers):
        if p1 <= along <= p2:
            return v1 + (v2 - v1) * (along - p1) / (p2 - p1)
    raise AssertionError(f"the line shows through at {along:.2f} mm, off the ruler")


def readings(path, error):
    """Return the (x, y) read on each target when the printer puts the verso `error` off."""
    pdf = pdfium.PdfDocument(str(path))
    size = page_sizes(path)[0]
    duplex = duplex_of(path)
    mode = "separate" if duplex == "Simplex" else duplex
    w, h = size
    numbers = labels(pdf[0])
    verticals, horizontals = cross_lines(pdf[1])
    results = []
    for tx, ty in targets(w, h):
        # The ruler numbers near this target: the horizontal ruler above, the vertical one
        # to the right.
        across = [(v, x) for v, x, y in numbers if abs(x - tx) < 6 and 0 < y - ty < 20]
        upright = [(v, y) for v, x, y in numbers if 0 < x - tx < 20 and abs(y - ty) < 6]
        # Where the verso's cross shows through, once the printer's error is added.
        seen_x = [behind(mode, size, x + error[0], 0)[0] for x in verticals]
        seen_y = [behind(mode, size, 0, y + error[1])[1] for y in horizontals]
        x = min(seen_x, key=lambda v: abs(v - tx))
        y = min(seen_y, key=lambda v: abs(v - ty))
        results.append((read(across, x), read(upright, y)))
    return results


@pytest.mark.parametrize("backs", ["long", "short", "separate"])
@pytest.mark.parametrize("start", [(0.0, 0.0), (0.5, -1.0)])
def test_the_offsets_read_on_the_sheet_put_the_backs_behind_their_fronts(db, tmp_path,
                                                                        backs, start):
    error = (1.5, -1.0)  # this printer puts its versos 1.5 mm right and 1 mm down
    first = printed(tmp_path, "first", backs=backs, offset_x=start[0], offset_y=start[1])
    values = readings(first, error)
    assert len(values) == 5
    (dx, dy), *others = values
    for other in others:
        assert other == pytest.approx((dx, dy), abs=0.05)
    # Read to the nearest half tick, as a person reads a ruler ticked every half mm.
    offsets = (start[0] + round(dx * 4) / 4, start[1] + round(dy * 4) / 4)
    assert offsets == pytest.approx((-error[0], -error[1]), abs=0.25)
    # Printed again with what was read, every target reads zero.
    again = printed(tmp_path, "again", backs=backs, offset_x=offsets[0], offset_y=offsets[1])
    for reading in readings(again, error):
        assert reading == pytest.approx((0, 0), abs=0.25)
    # And cards printed with those offsets land where they should on that printer: each
    # back, moved by the printer's error, is behind its front.
    cards = tmp_path / "cards.pdf"
    render("douze-coups", ("billets",), PrintOptions(backs=backs, offset_x=offsets[0],
                                                     offset_y=offsets[1]), out=str(cards))
    assert misplaced_backs(cards, offset=(-error[0], -error[1]), tolerance=0.3) == []


def test_the_sheet_carries_a_100_mm_gauge(db, tmp_path):
    path = printed(tmp_path, "gauge")
    pdf = pdfium.PdfDocument(str(path))
    textpage = pdf[0].get_textpage()
    spots = {}
    for label in ("0", "100"):
        searcher = textpage.search(label, match_whole_word=True)
        hit = searcher.get_next()
        while hit is not None:
            boxes = [textpage.get_charbox(i, loose=True) for i in range(hit[0], hit[0] + hit[1])]
            y = min(b[1] for b in boxes) / mm
            spots.setdefault(label, []).append(((boxes[0][0] + boxes[-1][2]) / 2 / mm, y))
            hit = searcher.get_next()
    # The gauge's 0 and 100 are on one line, 100 mm apart.
    pairs = [(a, b) for a in spots["0"] for b in spots["100"] if abs(a[1] - b[1]) < 0.5]
    assert any(abs((b[0] - a[0]) - 100) < 0.1 for a, b in pairs)


@pytest.mark.parametrize("backs", ["long", "short"])
def test_a_wrong_flip_edge_shows_behind_the_cue(db, tmp_path, backs):
    path = printed(tmp_path, "cue", backs=backs)
    pdf = pdfium.PdfDocument(str(path))
    w, h = page_sizes(path)[0]
    front = pdf[0].get_textpage()
    cue = front.search("derrière ce cadre").get_next()
    _left, bottom, _right, top = front.get_charbox(cue[0], loose=True)
    cx, cy = w / 2, (bottom + top) / 2 / mm  # the cue's frame runs across the page
    other = "short" if backs == "long" else "long"
    flips = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
    verso = pdf[1].get_textpage()

    def text_behind(flip):
        # The frame runs across the page: whatever lies behind it, edge to edge.
        _x, y = behind(flips[flip], (w, h), cx, cy)
        return verso.get_text_bounded(left=10 * mm, right=(w - 10) * mm,
                                      bottom=(y - 7) * mm, top=(y + 7) * mm)

    assert "bon bord" in text_behind(backs)
    assert "mauvais bord" in text_behind(other)
