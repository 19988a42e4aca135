"""Benchmark: print N ladder question cards (front + duplex back, 9 per A4 sheet).

Run `make bench` or `python bench/print_deck.py [N ...]` (default 1 000 and 10 000). On a
throwaway SQLite database it times, in the same run:
- the whole pipeline from the database: select, validation (every cms rule and the fit
  rule), layout, draw and write, with `printing.render.render`;
- a bare ReportLab canvas loop over the same card texts: `drawString` after a simple word
  wrap, compression on, the same font files as ReportLab's own `TTFont` (not our `Font`,
  which remembers the codes it gave characters).
It prints both rates (each the best of at least five runs, the two taking turns; see
RUNS) and their ratio (target: the pipeline at ≥ 50 % of the bare rate), the peak memory
growth per card measured with tracemalloc in a separate run (target: ≤ 6 KB), the PDF
bytes per card (target: ≤ 700) and the time of a sheet preview PNG, as the admin makes
it (target: ≤ 150 ms).
"""

import gc
import io
import sys
import time
import tracemalloc

import _throwaway

WORK = _throwaway.setup()

import pypdfium2 as pdfium  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from cms.games.millionnaire import LADDER  # noqa: E402
from cms.models import Proposition, Question, Status  # noqa: E402
from printing import text as typo  # noqa: E402
from printing.render import PrintOptions, forget_fitted, render  # noqa: E402

THEMES = ["Histoire", "Géographie", "Sciences", "Arts", "Sport", "Cuisine"]
OPENINGS = ("Quel fleuve traverse la ville", "Quel peintre a signé l’œuvre",
            "En quelle année le roi a-t-il bâti le château", "Quelle montagne domine la vallée",
            "Quel écrivain est né dans la commune")


def question_text(i: int) -> str:
    """A question of 6 to 20 words, different enough from the others not to be a duplicate."""
    tail = " ".join(f"n°{i * 13 + k}" for k in range(1 + i % 12))
    return f"{OPENINGS[i % len(OPENINGS)]} {tail} ?"


def fill(count: int) -> None:
    """Store `count` valid published ladder questions, spread over the 15 steps."""
    Question.objects.all().delete()
    with transaction.atomic():
        questions = Question.objects.bulk_create(
            Question(ref=f"bench-{i:06d}", kind="echelle", text=question_text(i),
                     difficulty=LADDER[i % 15].difficulty_band[0], step=LADDER[i % 15].number,
                     theme=THEMES[i % len(THEMES)], status=Status.PUBLISHED)
            for i in range(count))
        Proposition.objects.bulk_create(
            Proposition(question=q, position=p, text=f"Réponse {q.pk * 4 + p}",
                        is_right=p == 1 + q.pk % 4)
            for q in questions for p in range(1, 5))


def card_texts():
    rows = []
    for q in Question.objects.order_by("kind", "step", "id").prefetch_related("propositions"):
        props = [p.text for p in q.propositions.all()]
        right = next(p.text for p in q.propositions.all() if p.is_right)
        rows.append((q.text, props, right, LADDER[q.step - 1].amount))
    return rows


def simple_wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and stringWidth(candidate, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line]


BARE_REGULAR, BARE_BOLD = "Bare", "Bare-Bold"


def bare_fonts() -> None:
    """Register ReportLab's own TTFont over the files our regular and bold fonts use.

    ReportLab registers one font object a typeface: a second TTFont of a file already
    registered would be our Font under another name. So each bare font's typeface is
    renamed first ("Bare-DejaVuSans"), which only changes the name its PDF subsets carry.
    """
    typo.fonts()
    for name, ours in ((BARE_REGULAR, typo.REGULAR), (BARE_BOLD, typo.BOLD)):
        font = TTFont(name, pdfmetrics.getFont(ours).face.filename)
        font.face.name = b"Bare-" + font.face.name
        pdfmetrics.registerFont(font)
        assert type(pdfmetrics.getFont(name)) is TTFont, "the bare loop must use ReportLab's font"


def bare_canvas(texts, out) -> None:
    """The baseline: a plain canvas loop, 9 fronts then 9 backs per pair of pages."""
    canvas = Canvas(out, pagesize=A4, pageCompression=1, invariant=1)
    w, h = 63 * mm, 88 * mm
    x0, y0 = (A4[0] - 3 * w) / 2, (A4[1] - 3 * h) / 2
    for start in range(0, len(texts), 9):
        chunk = texts[start:start + 9]
        for i, (question, props, _right, _amount) in enumerate(chunk):
            row, col = divmod(i, 3)
            x, y = x0 + col * w + 8, y0 + (3 - row) * h - 14
            canvas.setFont(BARE_REGULAR, 10)
            for line in simple_wrap(question, BARE_REGULAR, 10, w - 16):
                canvas.drawString(x, y, line)
                y -= 12
            for letter, prop in zip("ABCD", props, strict=True):
                canvas.drawString(x, y - 6, f"{letter}  {prop}")
                y -= 18
        canvas.showPage()
        for i, (_question, _props, right, amount) in enumerate(chunk):
            row, col = divmod(i, 3)
            x = A4[0] - (x0 + (col + 1) * w) + 8
            y = y0 + (3 - row) * h - 20
            canvas.setFont(BARE_BOLD, 11)
            canvas.drawString(x, y, typo.amount(amount))
            canvas.drawString(x, y - 30, right)
        canvas.showPage()
    canvas.save()


def timed(function, *args):
    gc.collect()
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def pipeline(out):
    return render("millionnaire", ("questions",), PrintOptions(), out=out)


def forget_fitted_text() -> None:
    """Empty every cache of fitted text, so a timed run fits each text anew."""
    forget_fitted()


def peak_growth(function) -> int:
    gc.collect()
    tracemalloc.start()
    function()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def preview_ms() -> float:
    """Time the admin's preview: the first sheet as a PDF, then as a PNG."""
    def once():
        pdf = io.BytesIO()
        render("millionnaire", ("questions",), PrintOptions(), out=pdf, preview=True)
        document = pdfium.PdfDocument(pdf.getvalue())
        image = document[0].render(scale=0.9).to_pil()
        png = io.BytesIO()
        image.save(png, format="PNG")
        return png

    once()  # fonts, caches
    times = []
    for _ in range(5):
        seconds, _png = timed(once)
        times.append(seconds)
    return sorted(times)[len(times) // 2] * 1000


BASELINE = 100  # cards: memory growth is measured from a print this small


# Each rate is the best of several runs, pipeline and bare loop taking turns: at least
# RUNS, and more until each side has run SECONDS in all (up to MAX_RUNS). This shared
# machine has slow moments; the more runs, the likelier each side meets a quiet one.
RUNS = 5
SECONDS = 40.0
MAX_RUNS = 30


def measure(n: int) -> dict:
    fill(n)
    texts = card_texts()
    pdf = WORK / f"pipeline-{n}.pdf"
    bare_pdf = WORK / f"bare-{n}.pdf"
    # Each runs once first, to warm what a long-running server would have warm.
    pipeline(io.BytesIO())
    bare_canvas(texts, io.BytesIO())
    seconds, bare_seconds = [], []
    while len(seconds) < MAX_RUNS and (
            len(seconds) < RUNS or min(sum(seconds), sum(bare_seconds)) < SECONDS):
        forget_fitted_text()  # every timed print fits its text anew, as new cards would
        took, result = timed(pipeline, str(pdf))
        assert result.items == n, result
        seconds.append(took)
        bare_seconds.append(timed(bare_canvas, texts, str(bare_pdf))[0])
    forget_fitted_text()
    return {"rate": n / min(seconds), "bare_rate": n / min(bare_seconds), "runs": len(seconds),
            "bytes": pdf.stat().st_size / n, "bare_bytes": bare_pdf.stat().st_size / n,
            "peak": peak_growth(lambda: pipeline(io.BytesIO()))}


def baseline_peak() -> int:
    """The peak memory of a BASELINE-card print, from which growth per card is measured."""
    fill(BASELINE)
    pipeline(io.BytesIO())
    return peak_growth(lambda: pipeline(io.BytesIO()))


def main(sizes):
    call_command("migrate", verbosity=0)
    bare_fonts()
    base = baseline_peak()
    print(f"{'N':>7} {'pipeline/s':>11} {'bare/s':>9} {'ratio':>6} {'runs':>5} {'KB/card':>8} "
          f"{'B/card':>7} {'B/card bare':>11}")
    for n in sizes:
        row = measure(n)
        growth = (row["peak"] - base) / (n - BASELINE) / 1024
        print(f"{n:>7} {row['rate']:>11.0f} {row['bare_rate']:>9.0f} "
              f"{row['rate'] / row['bare_rate']:>6.0%} {row['runs']:>5} {growth:>8.2f} "
              f"{row['bytes']:>7.0f} {row['bare_bytes']:>11.0f}")
    print(f"preview of one sheet (PDF + PNG): {preview_ms():.0f} ms")
    print("KB/card: peak memory growth per card above a 100-card print (tracemalloc).")
    print("targets: ratio ≥ 50 %, ≤ 6 KB/card, ≤ 700 B/card, preview ≤ 150 ms")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1_000, 10_000])
