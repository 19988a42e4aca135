"""Benchmark: the admin's list of one game's questions, 20 000 ladder questions, problems shown.

Run `make bench` or `python bench/admin_list.py [N]` (default 20 000). On a throwaway SQLite
database it builds N millionnaire ladder questions, logs a Relecteur in and times
`/admin/cms/question/?game=millionnaire` through Django's test client, in the same run:
- the first request of the process (it checks the whole game once: `cms.report_store`);
- warm (the median of RUNS requests), with the « problèmes » filter too;
- the first request after one edit through `cms.services` (the median over RUNS edits):
  the report catches up with what the edit changed;
- the baseline: the same list with the problems column and filter left out;
- for scale, one whole validation of the game (what every list request cost before).
It prints the times in ms and their ratios to the baseline (target: every list < 300 ms).
"""

import statistics
import sys
import time

import _throwaway

_throwaway.setup()

from django.contrib import admin  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402

from cms.admin import ProblemsFilter  # noqa: E402
from cms.games.millionnaire import LADDER  # noqa: E402
from cms.models import Proposition, Question, Status  # noqa: E402
from cms.rules import validate_game  # noqa: E402
from cms.services import content_save  # noqa: E402
from cms.snapshots import of_object  # noqa: E402

RUNS = 7
URL = "/admin/cms/question/"
GAME = {"game": "millionnaire"}
# The drafts the benchmark edits: a draft's edit goes live at once, without the publish
# guard's two whole validations (which the edit would cost, not the list).
DRAFTS = 10
THEMES = ["Histoire", "Géographie", "Sciences", "Arts", "Sport", "Cuisine"]


def build(count: int) -> list[Question]:
    """Write `count` sound ladder questions (the first DRAFTS as drafts); return the drafts."""
    with transaction.atomic():
        questions = Question.objects.bulk_create(
            Question(ref=f"bench-{i:06d}", kind="echelle",
                     text=f"Question n°{i} : quel nombre suit {i * 7 + 3} ?",
                     difficulty=LADDER[i % len(LADDER)].difficulty_band[0],
                     theme=THEMES[i % len(THEMES)], step=LADDER[i % len(LADDER)].number,
                     status=Status.DRAFT if i < DRAFTS else Status.PUBLISHED)
            for i in range(count))
        Proposition.objects.bulk_create(
            Proposition(question=q, position=n, text=f"{i * 7 + n}", is_right=n == 1)
            for i, q in enumerate(questions) for n in range(1, 5))
    return questions[:DRAFTS]


def timed_get(client: Client, params: dict) -> float:
    start = time.perf_counter()
    response = client.get(URL, params)
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise SystemExit(f"the list answered {response.status_code}")
    return elapsed


def median_get(client: Client, params: dict) -> float:
    return statistics.median(timed_get(client, params) for _ in range(RUNS))


def edit(question: Question, user, *, broken: bool) -> None:
    """Move a draft off its step's difficulty band (an error), or back onto it."""
    question.refresh_from_db()
    low, high = LADDER[question.step - 1].difficulty_band
    difficulty = 5 if broken and high < 5 else (1 if broken else low)
    content_save(obj=question, data={**of_object(question), "difficulty": difficulty},
                 user=user, token=str(question.version))


class Problems:
    """Show the question list with or without its problems column and filter."""

    def __init__(self):
        self.admin = admin.site.get_model_admin(Question)
        self.shown = (self.admin.list_display, self.admin.list_filter)

    def show(self, shown: bool) -> None:
        display, filters = self.shown
        if not shown:
            display = [c for c in display if c != "problems_count"]
            filters = [f for f in filters if f is not ProblemsFilter]
        self.admin.list_display, self.admin.list_filter = display, filters


def taking_turns(client: Client, problems: Problems, before=lambda n: None
                 ) -> tuple[list[float], list[float]]:
    """Return RUNS list times with problems and as many without, measured in turns (the
    machine's load drifts: each pair of requests meets the same); `before(n)` runs first."""
    shown: list[float] = []
    left_out: list[float] = []
    for n in range(RUNS):
        before(n)
        for times, flag in ((shown, True), (left_out, False)):
            problems.show(flag)
            times.append(timed_get(client, GAME))
    problems.show(True)
    return shown, left_out


def main(count: int) -> None:
    call_command("migrate", verbosity=0)
    drafts = build(count)
    user = User.objects.create_superuser("bench", password="bench-bench-bench")
    client = Client(SERVER_NAME="localhost")
    client.force_login(user)

    problems = Problems()
    first = timed_get(client, GAME)
    warm, baseline = taking_turns(client, problems)
    filtered = median_get(client, {**GAME, "problems": "errors"})
    # Broken, then mended: the first request after each edit catches up with it.
    edited, baseline_then = taking_turns(client, problems, lambda n: edit(
        drafts[n // 2 % DRAFTS], user, broken=n % 2 == 0))
    # The last edit (RUNS is odd) left one error: the filter must show it.
    errors = client.get(URL, {**GAME, "problems": "errors"}).content.decode().count("✖ ")
    if errors != 1:
        raise SystemExit(f"the « problèmes » filter shows {errors} questions with errors, not 1")

    start = time.perf_counter()
    validate_game("millionnaire")
    whole = (time.perf_counter() - start) * 1000

    print(f"admin_list: /admin/cms/question/?game=millionnaire with {count} ladder questions, "
          f"median of {RUNS}")
    baseline = statistics.median(baseline + baseline_then)
    print(f"  baseline, no problems column or filter   {baseline:7.0f} ms")
    for label, value in (("warm, problems column", statistics.median(warm)),
                         ("warm, « problèmes » filter (errors)", filtered),
                         ("first request after one edit", statistics.median(edited))):
        verdict = "ok" if value < 300 else "over 300 ms"
        print(f"  {label:<40} {value:7.0f} ms  {value / baseline:5.2f}× baseline  ({verdict})")
    print(f"  first request of the process             {first:7.0f} ms  (checks the whole game)")
    print(f"  one whole validation of the game         {whole:7.0f} ms  (each list, before)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
