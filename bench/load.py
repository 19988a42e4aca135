"""Load test: simulated players on the production stack while an editor imports and prints.

Run `make bench-load` or `python bench/load.py [--players 10,50,200] [--duration 40]`.
Not part of `make bench`: it starts the whole stack and lasts as long as the imports do
(20 to 40 minutes on a busy 2-core machine: see step 3). Run as root (as deploy/stack is).
Without --url it starts its own stack with deploy/stack (state in var/load, kept between
runs; web on 8190, PostgreSQL on 54350, Redis on 63850: PostgreSQL 15, Redis, `manage.py
serve` with WEB_CONCURRENCY=2 uvicorn processes, one `manage.py worker`, the demo library)
and stops it at the end, also after an error, Ctrl-C or SIGTERM. `--url http://…` drives a
stack that runs already; `--stack-dir` names its deploy/stack state directory (for its
settings, the demo accounts' passwords, its processes and logs; var/prod by default).

For each number of players, one after another:
1. Two short bursts, before the players come: K connections (--burst-connections, 8) ask
   the bare view /sante/ (no database: Django's middleware and a response) back to back for
   a few seconds, then K millionnaire games take an answer and take it back as fast as the
   server answers (a player action: the session and CSRF checks, the engine, the save, the
   htmx fragment). Their throughputs at the same concurrency make the ratio (target: the
   action ≥ 0.3× the bare view), with the server's CPU time per request (uvicorn workers,
   PostgreSQL and Redis), which does not depend on the client.
2. The players come in over RAMP seconds: half of them in tables of four at The Mind (the
   room's pages, then each seat's WebSocket: ready, then one's lowest card after a wait
   that grows with the gap to the pile; others see each card played), the others playing
   millionnaire alone (setup page, new game, the game's page, then an answer, « dernier
   mot », the next question… with 1 to 3 s between two moves; a new game when one ends).
   All of them in this one asyncio process (httpx and websockets), at nice -5 so that it
   is not the one waiting for a core; the bare view is also asked 4 times a second, to see
   its latency under the load.
3. Then an editor (the demo account « redacteur ») queues a print of millionnaire's
   question cards (1 000 published questions: the demo's, topped up by this bench once) and
   the import of a 10 000-row CSV of millionnaire questions (as drafts: a rédacteur does not
   publish; drafts leave the print and the players' games unchanged), then follows both on
   their job pages (etat.json, every second) and downloads the PDF. The one worker runs
   them one after the other, the print first. The players play until both jobs have ended
   (at least --duration seconds, at most --max-level): an import's last minutes matter
   most, it holds locks the players' answers wait for. The level's imported rows are
   deleted afterwards (not timed), so each level imports into the same library.
Errors: an HTTP 5xx, and any 4xx, since the players only do what their pages offer; a
timeout (20 s) or a connection the server dropped; a WebSocket closed by the server; an
intent unanswered in 5 s; a played card some seat has not seen after 5 s. The game's
refusals (a card played just as a level ends…) are its normal answers: counted apart. The
server's logs are read for tracebacks and 5xx answers, and PostgreSQL's activity is
sampled every second (connections, lock waits and who holds the lock, the longest query).

Prints, per level, each kind of request's count, throughput and p50/p95/p99 latency, the
errors, the bursts, the CPU each part used (web, PostgreSQL, worker, Redis, this client,
everything else on the machine), the client's event loop lag, the jobs' durations; then
Markdown tables and the targets: p95 < 100 ms at 50 players (over every player request),
a player action ≥ 0.3× the bare view, no error at 200 players.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import _load_players as players
import httpx
import psycopg
from _load_editor import REF_PREFIX, Editor, question_rows
from _load_stack import PROJECT, CpuMeter, Stack, StackError, log_offsets, log_problems
from _load_stats import LABELS, PLAYER_KINDS, Recorder, ms, quantile

RAMP = 5.0  # seconds over which a level's players arrive
BARE_EVERY = 0.25  # seconds between two looks at the bare view under the load
BURST_SECONDS = 3.0
BURST_ROUNDS = 2  # bare, action, bare, action: each kind's best run counts
PRINT_GAME = "millionnaire"
LONG_TRANSACTION = 10.0
TARGET_P95 = 0.100
TARGET_RATIO = 0.3
# Run by `manage.py shell` with the stack's settings. A bench run interrupted mid-level
# leaves its import job behind, which the worker would take back and run again during the
# next run: the unfinished jobs of the bench go too (every unfinished job on its own stack).
CLEANUP = """
import json
from cms.models import Job, Question
from player.models import Play, Room
from reversion.models import Revision
unfinished = Job.objects.filter(state__in=["queued", "running"])
if not %(own)s:
    unfinished = unfinished.filter(label__contains=%(prefix)r)
rooms = list(Room.objects.filter(seats__name__startswith="Charge").values_list("pk", flat=True))
done = {
    "unfinished jobs": unfinished.delete()[1].get("cms.Job", 0),
    "rooms": Room.objects.filter(pk__in=rooms).delete()[1].get("player.Room", 0),
    "games": Play.objects.filter(players__0__startswith="Charge").delete()[1].get(
        "player.Play", 0),
    "draft questions": Question.objects.filter(
        ref__startswith=%(prefix)r, status="draft").delete()[1].get("cms.Question", 0),
    "revisions": Revision.objects.filter(comment__contains=%(files)r).delete()[1].get(
        "reversion.Revision", 0),
}
print(json.dumps(done))
"""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="10,50,200",
                        help="numbers of players, one level each (10,50,200)")
    parser.add_argument("--duration", type=float, default=40.0,
                        help="seconds each level lasts at least (40); longer while its "
                             "import and print run")
    parser.add_argument("--max-level", type=float, default=300.0,
                        help="seconds after which a level's players stop even if its jobs "
                             "still run (300); the next level waits for them")
    parser.add_argument("--url", help="a running stack's address; else the bench starts one")
    parser.add_argument("--stack-dir", type=Path,
                        help="the deploy/stack state directory (var/load, or with --url "
                             "var/prod)")
    parser.add_argument("--port", type=int, default=8190)
    parser.add_argument("--pg-port", type=int, default=54350)
    parser.add_argument("--redis-port", type=int, default=63850)
    parser.add_argument("--fresh", action="store_true",
                        help="start from an empty state directory (the demo loaded again)")
    parser.add_argument("--import-rows", type=int, default=10_000)
    parser.add_argument("--print-cards", type=int, default=1_000,
                        help="published millionnaire questions the print job prints (1000)")
    parser.add_argument("--no-jobs", action="store_true", help="no import, no print")
    parser.add_argument("--burst-connections", type=int, default=8)
    # Internal: the players' process that main() starts, and whether the stack is its own.
    parser.add_argument("--players-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--own-stack", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        args.levels = [int(n) for n in args.players.split(",") if n.strip()]
    except ValueError:
        parser.error("--players: numbers separated by commas, e.g. 10,50,200")
    if not args.levels or min(args.levels) < 1:
        parser.error("--players: at least one number of players, each at least 1")
    return args


# --- what the bench reads from the database ---------------------------------------------------


class Database:
    """A connection of the bench's own to the stack's PostgreSQL (autocommit)."""

    def __init__(self, url: str):
        self.url = url
        self.connection: psycopg.AsyncConnection | None = None

    async def connect(self) -> None:
        self.connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()

    async def rows(self, sql: str, params=()) -> list[tuple]:
        assert self.connection is not None
        cursor = await self.connection.execute(sql, params)
        return await cursor.fetchall()

    async def published_ladder(self) -> int:
        rows = await self.rows("select count(*) from cms_question "
                               "where kind = 'echelle' and status = 'published'")
        return rows[0][0]

    async def jobs(self, ids: list[str]) -> dict[str, dict]:
        rows = await self.rows(
            "select id::text, kind, state, created, started, finished, done, total, message, "
            "report from cms_job where id::text = any(%s)", (ids,))
        keys = ("id", "kind", "state", "created", "started", "finished", "done", "total",
                "message", "report")
        return {row[0]: dict(zip(keys, row, strict=True)) for row in rows}


class PgSampler:
    """PostgreSQL's activity once a second: connections, active queries, lock waits (who
    waits, on what, behind which transaction, since when in the level)."""

    SQL = """
        select count(*) filter (where backend_type = 'client backend'),
               count(*) filter (where state = 'active' and backend_type = 'client backend'),
               count(*) filter (where wait_event_type = 'Lock'),
               coalesce(max(extract(epoch from now() - query_start))
                        filter (where state = 'active' and backend_type = 'client backend'
                                and pid <> pg_backend_pid()), 0)
        from pg_stat_activity where datname = current_database()"""
    WAITERS = """
        select waiter.wait_event, left(waiter.query, 100),
               extract(epoch from now() - waiter.query_start),
               blocker.state, extract(epoch from now() - blocker.xact_start),
               left(blocker.query, 100)
        from pg_stat_activity waiter
        join pg_stat_activity blocker on blocker.pid = any(pg_blocking_pids(waiter.pid))
        where waiter.wait_event_type = 'Lock' and waiter.datname = current_database()"""
    LONGEST = """
        select extract(epoch from now() - query_start), left(query, 160)
        from pg_stat_activity where state = 'active' and backend_type = 'client backend'
          and pid <> pg_backend_pid() order by query_start limit 1"""

    def __init__(self, database: Database | None):
        self.database = database
        self.samples = 0
        self.connections = self.active = self.lock_samples = self.lock_waiters = 0
        self.waits: dict[tuple, dict] = {}
        self.lock_times: list[float] = []
        # When someone waited behind a transaction open for more than LONG_TRANSACTION
        # seconds (an import's): time.monotonic().
        self.long_lock_times: list[float] = []
        self.longest = (0.0, "")
        self.failure = ""
        self.started = time.monotonic()

    async def loop(self, run: players.Run) -> None:
        if self.database is None:
            return
        while run.active:
            try:
                await self.sample()
            except psycopg.Error as error:
                self.failure = f"sampling failed: {error}"
                return
            await asyncio.sleep(1.0)

    async def sample(self) -> None:
        (connections, active, locks, longest), = await self.database.rows(self.SQL)
        self.samples += 1
        self.connections = max(self.connections, connections)
        self.active = max(self.active, active)
        if locks:
            self.lock_samples += 1
            self.lock_times.append(time.monotonic() - self.started)
            self.lock_waiters = max(self.lock_waiters, locks)
            for row in await self.database.rows(self.WAITERS):
                event, query, waited, state, held, blocker_query = row
                if float(held or 0) > LONG_TRANSACTION:
                    self.long_lock_times.append(time.monotonic())
                key = (event, query.split(" SET ")[0], state, blocker_query.split(" (")[0])
                seen = self.waits.setdefault(key, {"samples": 0, "waited": 0.0, "held": 0.0})
                seen["samples"] += 1
                seen["waited"] = max(seen["waited"], float(waited or 0))
                seen["held"] = max(seen["held"], float(held or 0))
        if float(longest) > self.longest[0]:
            found = await self.database.rows(self.LONGEST)
            if found:
                self.longest = (float(found[0][0]), found[0][1])

    def describe_waits(self) -> list[str]:
        lines = []
        for (event, query, state, blocker_query), seen in self.waits.items():
            lines.append(f"{event} lock: {query!r} waited up to {seen['waited']:.1f} s "
                         f"behind a transaction open for {seen['held']:.0f} s ({state}, "
                         f"last query {blocker_query!r}); seen in {seen['samples']} samples")
        if self.lock_times:
            lines.append(f"lock waits from {self.lock_times[0]:.0f} s to "
                         f"{self.lock_times[-1]:.0f} s after the level's start")
        if self.failure:
            lines.append(self.failure)
        return lines


class LoopLag:
    """How late this process's event loop wakes up: a busy client shows here first."""

    def __init__(self):
        self.lags: list[float] = []

    async def loop(self, run: players.Run) -> None:
        while run.active:
            asked = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(max(0.0, time.perf_counter() - asked - 0.05))


# --- one level ----------------------------------------------------------------------------


def split(count: int) -> tuple[int, int]:
    """(solo players, tables of The Mind): about half the players at tables of four."""
    tables = max(1, round(count / 2 / players.SEATS)) if count >= players.SEATS else 0
    return count - tables * players.SEATS, tables


async def later(delay: float, coroutine):
    await asyncio.sleep(delay)
    return await coroutine


async def bursts(base: str, stack: Stack | None, connections: int) -> dict:
    """The bare view's and a player action's throughput at the same concurrency."""
    found: dict[str, dict] = {}
    https = {kind: [players.client(base) for _ in range(connections)]
             for kind in ("burst_bare", "burst_action")}
    errors = 0
    try:
        for _round in range(BURST_ROUNDS):
            for kind, measure in (("burst_bare", players.bare_burst),
                                  ("burst_action", players.action_burst)):
                rec = Recorder()
                if kind == "burst_action":  # its games are started before the timed part
                    prepared = await players.prepare_games(https[kind], Recorder())
                meter = CpuMeter(stack, [os.getpid()])
                meter.start()
                if kind == "burst_action":
                    seconds = await measure(https[kind], rec, BURST_SECONDS, prepared)
                else:
                    seconds = await measure(https[kind], rec, BURST_SECONDS)
                cpu = meter.stop()
                rec.stop()
                errors += rec.error_count()
                row = rec.row(kind, seconds)
                server = sum(cpu.get(part, 0.0) for part in ("web", "postgres", "redis"))
                row["server_ms"] = (server * cpu["seconds"] / row["count"] * 1000
                                    if row["count"] else None)
                row["client_cores"] = cpu["client"]
                row["other_cores"] = cpu["other"]
                if kind not in found or row["rate"] > found[kind]["rate"]:
                    found[kind] = row
    finally:
        for group in https.values():
            for http in group:
                await http.aclose()
    found["errors"] = errors
    return found


async def run_level(count: int, args, base: str, stack: Stack | None, editor: Editor | None,
                    database: Database | None, run_id: str) -> dict:
    solos, tables = split(count)
    print(f"\n== {count} players: {solos} playing millionnaire alone, {tables} tables of "
          f"The Mind ({tables * players.SEATS} players) ==", flush=True)
    burst = await bursts(base, stack, args.burst_connections)
    print(f"bursts: bare view {burst['burst_bare']['rate']:.0f} req/s, player action "
          f"{burst['burst_action']['rate']:.0f} req/s", flush=True)

    rec = Recorder()
    run = players.Run()
    rng = random.Random(count)
    offsets = log_offsets(stack)
    tasks = [asyncio.create_task(later(
        RAMP * n / max(1, solos),
        players.solo_player(base, rec, run, f"Charge {n}", random.Random(rng.random()))))
        for n in range(solos)]
    tasks += [asyncio.create_task(later(
        RAMP * n / max(1, tables),
        players.mind_table(base, rec, run, n, random.Random(rng.random()))))
        for n in range(tables)]
    tasks.append(asyncio.create_task(players.bare_sampler(base, rec, run, BARE_EVERY)))
    lag = LoopLag()
    pg = PgSampler(database)
    watchers = [asyncio.create_task(lag.loop(run)), asyncio.create_task(pg.loop(run))]
    await asyncio.sleep(RAMP)

    meter = CpuMeter(stack, [os.getpid()])
    meter.start()
    started = pg.started = time.monotonic()
    followed = []
    if editor is not None:
        name = f"{REF_PREFIX}niveau-{count}-{run_id}"
        printed = await editor.queue_print(rec, PRINT_GAME)
        rows = await asyncio.to_thread(question_rows, name, args.import_rows, "brouillon")
        imported = await editor.queue_import(rec, rows, f"{name}.csv")
        deadline = started + args.max_level
        followed = [job for job in (printed, imported) if job is not None]
        jobs_done = asyncio.gather(*(editor.follow(rec, job, deadline) for job in followed))
    else:
        jobs_done = asyncio.sleep(0)
    await jobs_done
    await asyncio.sleep(max(0.0, started + args.duration - time.monotonic()))
    run.stop()
    cpu = meter.stop()
    ended = time.monotonic()
    window = ended - started
    done, pending = await asyncio.wait(tasks, timeout=players.TIMEOUT + 10)
    for task in pending:
        task.cancel()
        rec.error("client", "a player still busy 30 s after the level's end")
    for task in done:
        if task.exception() is not None:
            rec.error("client", f"a player crashed: {task.exception()!r}")
    await asyncio.gather(*watchers)
    rec.stop()

    jobs = {}
    if followed and database is not None:
        jobs = await wait_for_jobs(database, [job.pk for job in followed], args.max_level)
        for job in followed:
            state = jobs.get(job.pk, {}).get("state", job.state)
            if state != "done":
                rec.error("editor_poll", f"the {job.kind} job ended {state or 'nowhere'}")
    return {"count": count, "solos": solos, "tables": tables, "rec": rec, "burst": burst,
            "started": started, "ended": ended,
            "cpu": cpu, "window": window, "lag": sorted(lag.lags), "pg": pg,
            "followed": followed, "jobs": jobs, "logs": log_problems(stack, offsets)}


async def wait_for_jobs(database: Database, ids: list[str], timeout: float) -> dict:
    """The jobs' rows once they have ended (or after `timeout`): their own times."""
    deadline = time.monotonic() + timeout
    while True:
        jobs = await database.jobs(ids)
        if all(job["state"] in ("done", "failed") for job in jobs.values()) or (
                time.monotonic() > deadline):
            return jobs
        await asyncio.sleep(2)


# --- the report ---------------------------------------------------------------------------


def seconds_between(start, end) -> float | None:
    return (end - start).total_seconds() if start and end else None


def job_figures(level: dict, cards: int) -> dict:
    figures = {}
    for seen in level["followed"]:
        row = level["jobs"].get(seen.pk, {})
        ran = seconds_between(row.get("started"), row.get("finished"))
        waited = seconds_between(row.get("created"), row.get("started"))
        entry = {"state": row.get("state", seen.state or "?"), "ran": ran, "waited": waited,
                 "message": row.get("message", ""), "report": row.get("report") or {},
                 "pages": seen.pages, "bytes": seen.file_bytes, "total": row.get("total")}
        if seen.kind == "print":
            entry["cards"] = cards
            entry["per_second"] = cards / ran if ran else None
            entry["pages_per_second"] = seen.pages / ran if ran and seen.pages else None
        else:
            entry["per_second"] = (row.get("total") or 0) / ran if ran else None
        figures[seen.kind] = entry
    return figures


def player_row(rec: Recorder) -> dict:
    values = sorted(v for kind in PLAYER_KINDS for v in rec.samples.get(kind, []))
    return {"count": len(values), "rate": len(values) / rec.seconds,
            "p50": quantile(values, .5), "p95": quantile(values, .95),
            "p99": quantile(values, .99), "max": values[-1] if values else None,
            "errors": rec.error_count(PLAYER_KINDS)}


def worker_phases(level: dict) -> list[tuple[str, float, float]]:
    """What the worker was doing while the players played, as the editor's page saw it:
    (what, from, to) in time.monotonic(), the print first, then the import."""
    start, end = level["started"], level["ended"]
    jobs = {job.kind: job for job in level["followed"]}
    printed, imported = jobs.get("print"), jobs.get("import")
    if printed is None and imported is None:
        return [("no job", start, end)]
    phases = []
    at = start
    if printed is not None:
        at = min(printed.ended_at or end, end)
        phases.append(("print job", start, at))
    if imported is not None:
        rows_done = min(imported.rows_done_at or imported.ended_at or end, end)
        phases.append(("import: reading its rows", at, rows_done))
        if imported.rows_done_at:
            import_end = min(imported.ended_at or end, end)
            # From the first request seen waiting behind the import's transaction: the
            # import holds the game's change-log row until it commits.
            locked = [at for at in level["pg"].long_lock_times if rows_done <= at < import_end]
            held_from = locked[0] if locked else import_end
            phases.append(("import: after its rows (checks, history)", rows_done, held_from))
            phases.append(("import: its lock waited for, until its commit", held_from,
                           import_end))
        if imported.ended_at and imported.ended_at < end:
            phases.append(("worker idle", imported.ended_at, end))
    return [(what, a, b) for what, a, b in phases if b - a >= 1]


def phase_rows(level: dict) -> list[dict]:
    rows = []
    for what, start, end in worker_phases(level):
        values, errors = level["rec"].between(PLAYER_KINDS, start, end)
        rows.append({"what": what, "from": start - level["started"],
                     "to": end - level["started"], "count": len(values),
                     "rate": len(values) / (end - start), "p50": quantile(values, .5),
                     "p95": quantile(values, .95), "p99": quantile(values, .99),
                     "errors": errors})
    return rows


def print_level(level: dict, cards: int) -> None:
    rec: Recorder = level["rec"]
    print(f"\n{level['count']} players, {level['window']:.0f} s measured "
          f"(+{RAMP:.0f} s of arrivals); latencies of the requests that succeeded, the "
          f"others counted as errors:")
    print(f"  {'request':<48} {'count':>7} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7} {'errors':>6}")
    kinds = [kind for kind in LABELS if kind in rec.samples or kind in rec.errors]
    kinds += [kind for kind in rec.errors if kind not in LABELS]
    for kind in kinds:
        row = rec.row(kind)
        print(f"  {row['label']:<48} {row['count']:>7} {row['rate']:>7.1f} {ms(row['p50']):>7} "
              f"{ms(row['p95']):>7} {ms(row['p99']):>7} {ms(row['max']):>7} "
              f"{row['errors']:>6}")
    row = player_row(rec)
    print(f"  {'all player requests':<48} {row['count']:>7} {row['rate']:>7.1f} "
          f"{ms(row['p50']):>7} {ms(row['p95']):>7} {ms(row['p99']):>7} {ms(row['max']):>7} "
          f"{row['errors']:>6}")
    print("  player requests by what the worker was doing (from the level's start):")
    for row in phase_rows(level):
        label = f"{row['what']} ({row['from']:.0f}–{row['to']:.0f} s)"
        print(f"    {label:<62} {row['count']:>7} {row['rate']:>7.1f} {ms(row['p50']):>7} "
              f"{ms(row['p95']):>7} {ms(row['p99']):>7} {'':>7} {row['errors']:>6}")
    if rec.resent:
        print("  sent again on a new connection, the server having closed the kept-alive one "
              "(as a browser does; not errors): " + ", ".join(
                  f"{LABELS.get(kind, kind)} ×{n}" for kind, n in rec.resent.most_common()))
    if rec.refusals:
        print("  refused by the game (not errors): " + ", ".join(
            f"{code} ×{n}" for code, n in rec.refusals.most_common()))
    for kind, reasons in rec.errors.items():
        for reason, n in reasons.most_common():
            print(f"  error: {LABELS.get(kind, kind)}: {reason} ×{n}")
    burst = level["burst"]
    bare, action = burst["burst_bare"], burst["burst_action"]
    ratio = action["rate"] / bare["rate"] if bare["rate"] else 0.0
    print(f"  bursts before the players, {BURST_ROUNDS} × {BURST_SECONDS:.0f} s each at the "
          f"same concurrency: bare view {bare['rate']:.0f} req/s (p50 {ms(bare['p50'])} ms, "
          f"server CPU {fmt(bare['server_ms'], '.2f')} ms/req), player action "
          f"{action['rate']:.0f} req/s (p50 {ms(action['p50'])} ms, server CPU "
          f"{fmt(action['server_ms'], '.2f')} ms/req): ratio {ratio:.2f}; client "
          f"{action['client_cores']:.2f} core, others {action['other_cores']:.2f} core during "
          f"the action burst; {burst['errors']} errors")
    cpu = level["cpu"]
    print("  CPU while the players played, in cores (of " f"{cpu['cores']}): " + ", ".join(
        f"{part} {cpu.get(part, 0.0):.2f}" for part in
        ("web", "postgres", "worker", "redis", "client", "other", "machine")))
    lags = level["lag"]
    print(f"  client event loop lag: p50 {ms(quantile(lags, .5))} ms, p99 "
          f"{ms(quantile(lags, .99))} ms, max {ms(lags[-1] if lags else None)} ms; the "
          f"client waited for a core {cpu['client_waiting']:.0%} of the time")
    pg = level["pg"]
    if pg.samples:
        print(f"  PostgreSQL ({pg.samples} samples): up to {pg.connections} connections, "
              f"{pg.active} queries at once; lock waits in {pg.lock_samples} samples "
              f"(up to {pg.lock_waiters} waiting); longest query {pg.longest[0]:.2f} s: "
              f"{pg.longest[1]!r}")
        for line in pg.describe_waits():
            print(f"    {line}")
    for seen in level["followed"]:
        moments = [f"queued at {seen.queued_at - level['started']:.0f} s"]
        if seen.rows_done_at:
            moments.append(f"every row read at {seen.rows_done_at - level['started']:.0f} s")
        if seen.ended_at:
            moments.append(f"seen ended at {seen.ended_at - level['started']:.0f} s")
        print(f"  {seen.kind} job, from the level's start: {', '.join(moments)}")
    for kind, job in job_figures(level, cards).items():
        if kind == "print":
            print(f"  print job: {job['state']}, {job['cards']} cards, {job['pages']} pages "
                  f"({fmt(job['bytes'] and job['bytes'] / 1e6, '.1f')} MB), waited "
                  f"{fmt(job['waited'], '.1f')} s, ran {fmt(job['ran'], '.1f')} s: "
                  f"{fmt(job['per_second'], '.0f')} cards/s, "
                  f"{fmt(job['pages_per_second'], '.1f')} pages/s {job['message']}")
        else:
            report = job["report"]
            said = (f"{report.get('new')} new, {report.get('update')} updated, "
                    f"{report.get('skip')} skipped" if "new" in report
                    else f"{job['message']} {report.get('lines', [])[:2]}")
            print(f"  import job: {job['state']}, {job['total']} rows, waited "
                  f"{fmt(job['waited'], '.1f')} s, ran {fmt(job['ran'], '.1f')} s: "
                  f"{fmt(job['per_second'], '.0f')} rows/s; {said}")
    for name, counted in level["logs"].items():
        for line, n in counted.most_common(8):
            print(f"  {name} log: {line} ×{n}")


def fmt(value, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def print_markdown(levels: list[dict], cards: int) -> None:
    print("\n### Per kind of request\n")
    print("| Players | Request | Count | Req/s | p50 ms | p95 ms | p99 ms | Errors |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for level in levels:
        rec = level["rec"]
        for kind in LABELS:
            if kind in rec.samples or kind in rec.errors:
                row = rec.row(kind)
                print(f"| {level['count']} | {row['label']} | {row['count']} | "
                      f"{row['rate']:.1f} | {ms(row['p50'])} | {ms(row['p95'])} | "
                      f"{ms(row['p99'])} | {row['errors']} |")
    print("\n### Player requests by what the worker was doing\n")
    print("| Players | Worker | Seconds | Requests | Req/s | p50 ms | p95 ms | p99 ms | Errors |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for level in levels:
        for row in phase_rows(level):
            print(f"| {level['count']} | {row['what']} | {row['from']:.0f}–{row['to']:.0f} | "
                  f"{row['count']} | {row['rate']:.1f} | {ms(row['p50'])} | {ms(row['p95'])} | "
                  f"{ms(row['p99'])} | {row['errors']} |")
    print("\n### Per level\n")
    print("| Players | Player req/s | p50 / p95 / p99 ms (all player requests) | Errors | "
          "Bare view burst req/s | Action burst req/s | Ratio | Server CPU ms/req bare / "
          "action | Print | Import | CPU cores web / PG / worker / client / other |")
    print("|---:|---:|---|---:|---:|---:|---:|---|---|---|---|")
    for level in levels:
        row = player_row(level["rec"])
        bare, action = level["burst"]["burst_bare"], level["burst"]["burst_action"]
        jobs = job_figures(level, cards)
        printed, imported = jobs.get("print", {}), jobs.get("import", {})
        cpu = level["cpu"]
        print(f"| {level['count']} | {row['rate']:.1f} | {ms(row['p50'])} / {ms(row['p95'])} / "
              f"{ms(row['p99'])} | {level['rec'].error_count()} | {bare['rate']:.0f} | "
              f"{action['rate']:.0f} | {action['rate'] / bare['rate']:.2f} | "
              f"{fmt(bare['server_ms'], '.2f')} / {fmt(action['server_ms'], '.2f')} | "
              f"{fmt(printed.get('ran'), '.0f')} s, {fmt(printed.get('per_second'), '.0f')} "
              f"cards/s | {fmt(imported.get('ran'), '.0f')} s, "
              f"{fmt(imported.get('per_second'), '.0f')} rows/s | "
              f"{cpu.get('web', 0):.2f} / {cpu.get('postgres', 0):.2f} / "
              f"{cpu.get('worker', 0):.2f} / {cpu.get('client', 0):.2f} / "
              f"{cpu.get('other', 0):.2f} |")


def print_targets(levels: list[dict]) -> None:
    print("\nTargets:")
    by_count = {level["count"]: level for level in levels}
    if 50 in by_count:
        p95 = player_row(by_count[50]["rec"])["p95"]
        verdict = "met" if p95 is not None and p95 < TARGET_P95 else "NOT met"
        print(f"  p95 < 100 ms at 50 players: {ms(p95)} ms, {verdict}")
    ratios = [level["burst"]["burst_action"]["rate"] / level["burst"]["burst_bare"]["rate"]
              for level in levels if level["burst"]["burst_bare"]["rate"]]
    if ratios:
        if min(ratios) >= TARGET_RATIO:
            verdict = "met"
        elif max(ratios) >= TARGET_RATIO:
            verdict = "met in some levels only"
        else:
            verdict = "NOT met"
        print(f"  a player action ≥ 0.3× the bare view: "
              f"{', '.join(f'{r:.2f}' for r in ratios)} (one per level), {verdict}")
    if 200 in by_count:
        errors = by_count[200]["rec"].error_count()
        print(f"  no error at 200 players: {errors} errors, {'met' if not errors else 'NOT met'}")


# --- the run ------------------------------------------------------------------------------


async def prepare(base: str, stack: Stack | None, database: Database | None, args,
                  accounts: dict[str, str], run_id: str) -> tuple[Editor | None, int]:
    """Log the editor in; make millionnaire's published questions --print-cards many (an
    import by the administrator, who may publish); return the editor and the cards."""
    if args.no_jobs:
        return None, 0
    editor = Editor(base, "redacteur", accounts["redacteur"])
    setup = Recorder()
    await editor.login(setup)
    cards = await database.published_ladder() if database else args.print_cards
    if database and cards < args.print_cards:
        admin = Editor(base, "admin", accounts["admin"])
        try:
            await admin.login(setup)
            missing = args.print_cards - cards
            print(f"setup: importing {missing} published millionnaire questions, to print "
                  f"{args.print_cards} cards…", flush=True)
            job = await admin.queue_import(setup, question_rows(
                f"{REF_PREFIX}socle-{run_id}", missing, "publie"), f"{REF_PREFIX}socle.csv")
            if job is None:
                raise StackError(f"the setup import was refused: {dict(setup.errors)}")
            await admin.follow(setup, job, time.monotonic() + 600)
            if job.state != "done":
                raise StackError(f"the setup import ended {job.state}: "
                                 f"{await admin.report_text(job)}"[-600:])
        finally:
            await admin.close()
        cards = await database.published_ladder()
    print(f"setup: millionnaire has {cards} published ladder questions: the print job "
          f"prints {cards} question cards", flush=True)
    return editor, cards


async def idle_worker(stack: Stack | None, timeout: float) -> None:
    """Wait while the worker is busy (with a job an interrupted run left, which the stack
    took back at its start): the levels' jobs would queue behind it."""
    if stack is None:
        return
    deadline = time.monotonic() + timeout
    said = False
    while time.monotonic() < deadline:
        meter = CpuMeter(stack, [])
        meter.start()
        await asyncio.sleep(3)
        if meter.stop().get("worker", 0.0) < 0.2:
            return
        if not said:
            print("setup: the worker is busy (a job left by an earlier run?): waiting…",
                  flush=True)
            said = True


def cleanup(stack: Stack | None, *, own: bool) -> None:
    """Delete what the players and the level's import left (rooms, games, draft rows), and
    the unfinished jobs: the bench's, or every one on a stack of its own (`own`)."""
    if stack is None or not stack.settings:
        return
    code = CLEANUP % {"prefix": REF_PREFIX, "files": f"{REF_PREFIX}niveau-", "own": own}
    out = stack.manage(code=code).strip().splitlines()
    print(f"cleanup: deleted {out[-1] if out else '?'}", flush=True)


async def run_all(args, stack: Stack | None, base: str) -> None:
    run_id = datetime.now().strftime("%H%M%S")
    accounts = stack.accounts() if stack else {}
    database = None
    if stack and stack.settings.get("DATABASE_URL"):
        database = Database(stack.settings["DATABASE_URL"])
        await database.connect()
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        answer = await http.get("/sante/")
        if answer.status_code != 200:
            raise StackError(f"{base}/sante/ answered {answer.status_code}")
    levels = []
    editor = None
    try:
        await asyncio.to_thread(cleanup, stack, own=args.own_stack)
        await idle_worker(stack, args.max_level)
        editor, cards = await prepare(base, stack, database, args, accounts, run_id)
        for count in args.levels:
            level = await run_level(count, args, base, stack, editor, database, run_id)
            levels.append(level)
            print_level(level, cards)
            await asyncio.to_thread(cleanup, stack, own=args.own_stack)
    finally:
        if editor is not None:
            await editor.close()
        if database is not None:
            await database.close()
    if levels:
        print_markdown(levels, cards)
        print_targets(levels)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.players_process:
        return players_process(args)
    if args.url:
        root = args.stack_dir or PROJECT / "var" / "prod"
        stack = Stack(root.resolve()) if (root / "env").exists() else None
        base = args.url.rstrip("/")
    else:
        root = (args.stack_dir or PROJECT / "var" / "load").resolve()
        if args.fresh and root.exists():
            Stack(root).command("stop")
            shutil.rmtree(root)
        stack = Stack(root, args.port, args.pg_port, args.redis_port)

    def stop_signal(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_signal)
    completed = False
    try:
        if not args.url:
            stack.start()
            base = stack.url
        code = run_players_process(argv, base, stack)
        completed = code == 0
        return code
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except StackError as error:
        print(f"bench/load.py: {error}", file=sys.stderr)
        return 1
    finally:
        if stack is not None and stack.owned:
            with signals_ignored():
                if not completed:
                    # A job left queued or running would be run again at the next start.
                    with contextlib.suppress(StackError, OSError):
                        cleanup(stack, own=True)
                stack.stop()


def run_players_process(argv: list[str], base: str, stack: Stack | None) -> int:
    """Run the players (and the editor, the samplers, the report) in a process of their own,
    in a session of its own: see `client_first`."""
    command = [sys.executable, str(Path(__file__).resolve()),
               *(arg for arg in argv if arg != "--fresh"), "--url", base, "--players-process"]
    if stack is not None:
        command += ["--stack-dir", str(stack.root)]
        if stack.owned:
            command.append("--own-stack")
    child = subprocess.Popen(command, start_new_session=True)
    try:
        return child.wait()
    except KeyboardInterrupt:
        child.terminate()
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise


def players_process(args) -> int:
    """The players' process: drives the stack at args.url, prints the figures."""
    def stop_signal(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_signal)
    root = args.stack_dir
    stack = Stack(root.resolve()) if root is not None and (root / "env").exists() else None
    if stack is not None:
        stack.read_settings()
    else:
        print(f"no deploy/stack state in {root or PROJECT / 'var' / 'prod'}: no CPU, logs, "
              "jobs' times nor demo accounts (--no-jobs)", file=sys.stderr)
        args.no_jobs = True
    client_first()
    try:
        asyncio.run(run_all(args, stack, args.url.rstrip("/")))
    except KeyboardInterrupt:
        return 130
    except StackError as error:
        print(f"bench/load.py: {error}", file=sys.stderr)
        return 1
    return 0


def client_first() -> None:
    """Run this client before the server on the shared cores: its clock then reads the
    server's latency, not its own wait for a core, as a client on another machine would.
    The kernel shares the cores between sessions first (autogroups), so this process runs
    in a session of its own, whose share goes up (nice -5, as root)."""
    try:
        os.nice(-5)
        Path("/proc/self/autogroup").write_text("-5")
    except OSError:
        print("client: could not raise its priority (not root?): its own waits for a core "
              "count in the latencies; see its event loop lag", file=sys.stderr)


class signals_ignored:
    """Ctrl-C during the stack's stop would leave half of it running."""

    def __enter__(self):
        self.previous = {n: signal.signal(n, signal.SIG_IGN)
                         for n in (signal.SIGINT, signal.SIGTERM)}

    def __exit__(self, *exc):
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
