"""The board the web player draws is the board a maker prints: read from the printed page.

The A3 board is printed, rendered to pixels, and the page's board (the geometry in the view
the browser receives) is laid over it: every wall the page draws must be ink on paper,
every gap between two pieces of a ring wall must be paper, and every prisoner must start on
its printed circle of its colour. Where the printed board lies on the sheet is read from the
picture itself (the parchment disc), not from the printing code.
"""

from __future__ import annotations

import io
import math

import pypdfium2 as pdfium
import pytest
from django.core.management import call_command

from cms.games import GAMES
from cms.games.minotaure import COLOURS
from player.engines.minotaure import ENGINE

PX_PER_MM = 4
PARCHMENT = (247, 240, 225)
INK = (91, 58, 30)  # the walls' brown


def close(a, b, tolerance=40):
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def hex_rgb(value: str):
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


@pytest.fixture(scope="module")
def printed(tmp_path_factory, django_db_blocker):
    path = tmp_path_factory.mktemp("board") / "plateau-a3.pdf"
    with django_db_blocker.unblock():
        call_command("printpdf", "minotaure", "plateau-a3", out=path, stdout=io.StringIO())
    page = pdfium.PdfDocument(str(path))[0]
    image = page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB")
    # The printed board is the parchment disc: its widest extent gives its centre's x and its
    # radius, its extent down the column through that centre the centre's y (the legend
    # under the board has parchment swatches too, on its left).
    width, height = image.size
    pixels = image.load()
    xs = [x for y in range(0, height, 2) for x in range(width) if pixels[x, y] == PARCHMENT]
    cx = (min(xs) + max(xs)) / 2
    column = [y for y in range(height) if pixels[round(cx), y] == PARCHMENT]
    return image, cx, (min(column) + max(column)) / 2, (max(xs) - min(xs)) / 2


@pytest.fixture(scope="module")
def view():
    state = ENGINE.start(GAMES["minotaure"], {}, ["Ana", "Bob", "Cléo"], 7,
                         options={"thesee": False})
    return ENGINE.view(state)


def on_paper(printed, board, x, y):
    """Return the printed pixel under board point (x, y) mm, as the page's board places it."""
    image, cx, cy, radius_px = printed
    scale = radius_px / board["radius"]
    return image.getpixel((round(cx + x * scale), round(cy - y * scale)))


def arc_point(radius, degrees):
    theta = math.radians(degrees)
    return radius * math.cos(theta), radius * math.sin(theta)


def test_every_wall_the_page_draws_is_printed(printed, view):
    board = view["board"]
    checked = 0
    for wall in board["walls"]:
        if "arc" in wall:
            radius, start, end = wall["arc"]
            points = [arc_point(radius, start + (end - start) * k / 20) for k in range(2, 19)]
        else:
            x1, y1, x2, y2 = wall["line"]
            points = [(x1 + (x2 - x1) * k / 10, y1 + (y2 - y1) * k / 10) for k in range(2, 9)]
        for point in points:
            assert close(on_paper(printed, board, *point), INK), (wall, point)
            checked += 1
    assert checked > 300


def test_every_gap_in_a_ring_wall_the_page_draws_is_open_on_paper(printed, view):
    board = view["board"]
    arcs: dict[float, list[tuple[float, float]]] = {}
    for wall in board["walls"]:
        if "arc" in wall:
            radius, start, end = wall["arc"]
            arcs.setdefault(radius, []).append((start % 360, end))
    doorways = 0
    for radius, pieces in arcs.items():
        pieces.sort()
        for (_start, end), (after, _end) in zip(pieces, pieces[1:] + pieces[:1], strict=True):
            gap = (after - end) % 360
            if gap < 1e-6:
                continue
            middle = arc_point(radius, end + gap / 2)
            assert not close(on_paper(printed, board, *middle), INK), (radius, end, gap)
            doorways += 1
    assert doorways == sum(len(p) for r, p in arcs.items() if r != board["outer"])


def test_every_prisoner_starts_on_its_printed_circle(printed, view):
    board = view["board"]
    prisoners = [m for m in view["marbles"] if m["kind"] == "prisoner"]
    assert {m["id"] for m in prisoners} == set(COLOURS)
    for marble in prisoners:
        # The printed circle is a ring of the prisoner's colour, as wide as the marble.
        x, y = marble["x"] + marble["r"], marble["y"]
        assert close(on_paper(printed, board, x, y), hex_rgb(marble["hex"]), 60), marble["id"]
