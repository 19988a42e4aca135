"""Benchmark: import 10 000 ladder questions from CSV through the resource vs raw bulk_create.

Run `make bench` or `python bench/import_questions.py [N]`. It works on a throwaway SQLite
database and prints both rates, their ratio (target: the resource at most 3× slower,
validation included, preview excluded) and the process's peak memory (target: < 200 MB).
"""

import csv
import io
import resource
import sys
import time

import _throwaway

_throwaway.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from cms.formats import CSVFormat  # noqa: E402
from cms.games.millionnaire import LADDER  # noqa: E402
from cms.models import Proposition, Question, Status  # noqa: E402
from cms.resources import QuestionResource  # noqa: E402

HEADERS = ["ref", "genre", "texte", "difficulte", "theme", "palier", "proposition_1",
           "proposition_2", "proposition_3", "proposition_4", "bonnes", "anecdote", "statut"]
THEMES = ["Histoire", "Géographie", "Sciences", "Arts", "Sport", "Cuisine"]


def rows(count: int) -> list[list]:
    """Return `count` valid published ladder questions, spread over the 15 steps."""
    out = []
    for i in range(count):
        step = LADDER[i % len(LADDER)]
        right = i % 4 + 1
        out.append([
            f"bench-{i:06d}", "echelle", f"Question n°{i} : quel nombre suit {i * 7 + 3} ?",
            step.difficulty_band[0], THEMES[i % len(THEMES)], step.number,
            str(i * 7 + 4), str(i * 7 + 5), str(i * 7 + 6), str(i * 7 + 2), str(right),
            f"Anecdote {i}.", "publie"])
        # Put the right answer where `bonnes` says.
        props = out[-1][6:10]
        props[0], props[right - 1] = props[right - 1], props[0]
        out[-1][6:10] = props
    return out


class WithoutPreview(QuestionResource):
    """The importer as it writes, without the preview's row-by-row diff."""

    class Meta(QuestionResource.Meta):
        skip_diff = True


def as_csv(data: list[list]) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(HEADERS)
    writer.writerows(data)
    return text.getvalue().encode("utf-8")


def raw_bulk_create(data: list[list]) -> None:
    with transaction.atomic():
        questions = Question.objects.bulk_create(
            Question(ref=r[0], kind=r[1], text=r[2], difficulty=r[3], theme=r[4], step=r[5],
                     anecdote=r[11], status=Status.PUBLISHED) for r in data)
        Proposition.objects.bulk_create(
            Proposition(question=q, position=n, text=r[5 + n], is_right=str(n) == r[10])
            for q, r in zip(questions, data, strict=True) for n in range(1, 5))


def empty() -> None:
    Proposition.objects.all().delete()
    Question.objects.all().delete()


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main(count: int) -> None:
    call_command("migrate", verbosity=0)
    data = rows(count)
    payload = as_csv(data)

    raw = timed(lambda: raw_bulk_create(data))
    empty()

    dataset = CSVFormat().create_dataset(payload)
    results = []
    imported = timed(lambda: results.append(
        WithoutPreview().import_data(dataset, dry_run=False)))
    result = results[0]
    if result.has_errors() or result.has_validation_errors():
        raise SystemExit(f"the benchmark's own file did not import: {result.base_errors[:1]} "
                         f"{result.invalid_rows[:1]}")
    if Question.objects.count() != count or Proposition.objects.count() != 4 * count:
        raise SystemExit("the import did not write every row")

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"import_questions: {count} questions with 4 propositions each "
          f"({len(payload) // 1024} KB of CSV)")
    print(f"  raw bulk_create     {raw:6.2f} s  {count / raw:8.0f} questions/s")
    print(f"  resource import     {imported:6.2f} s  {count / imported:8.0f} questions/s "
          "(row checks and cms.validation included)")
    print(f"  ratio               {imported / raw:6.2f} × (target ≤ 3)")
    print(f"  peak memory (RSS)   {peak_mb:6.0f} MB (target < 200)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
