"""bench/load.py's stack: start and stop `deploy/stack`, read its settings, processes and logs.

Standard library only but psycopg (the project's own dependency): the bench reads the
database directly for the jobs' times and what PostgreSQL is waiting on.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
STACK = PROJECT / "deploy" / "stack"
PYTHON = PROJECT / ".venv" / "bin" / "python"
TICKS = os.sysconf("SC_CLK_TCK")


class StackError(Exception):
    """The stack could not be started, read or stopped: a one-line message."""


@dataclass
class Stack:
    """One deploy/stack state directory; `owned` when this bench started it (and stops it)."""

    root: Path
    web_port: int | None = None
    pg_port: int | None = None
    redis_port: int | None = None
    owned: bool = False
    settings: dict[str, str] = field(default_factory=dict)

    def environment(self) -> dict[str, str]:
        environment = dict(os.environ, PLATEAU_PROD_DIR=str(self.root))
        for name, port in (("PLATEAU_PROD_PORT", self.web_port),
                           ("PLATEAU_PROD_PG_PORT", self.pg_port),
                           ("PLATEAU_PROD_REDIS_PORT", self.redis_port)):
            if port:
                environment[name] = str(port)
        return environment

    def command(self, action: str, *, quiet: bool = True) -> str:
        result = subprocess.run([sys.executable, str(STACK), action], env=self.environment(),
                                cwd=PROJECT, capture_output=True, text=True)
        if result.returncode != 0:
            raise StackError(f"deploy/stack {action} failed (exit {result.returncode}):\n"
                             f"{(result.stdout + result.stderr).strip()[-2000:]}")
        if not quiet:
            print(result.stdout.rstrip(), flush=True)
        return result.stdout

    def start(self) -> None:
        self.owned = True  # from now on, a failure stops what was started
        started = time.monotonic()
        self.command("start")
        self.read_settings()
        print(f"stack: started in {time.monotonic() - started:.0f} s, state in {self.root}, "
              f"{self.url}", flush=True)

    def stop(self) -> None:
        if self.owned:
            print(self.command("stop").strip(), flush=True)
            self.owned = False

    def read_settings(self) -> None:
        values = {}
        for line in self.command("env").splitlines():
            line = line.removeprefix("export ")
            key, _, value = line.partition("=")
            values[key] = shlex.split(value)[0] if value else ""
        self.settings = values

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.settings.get('PORT', self.web_port)}"

    def accounts(self) -> dict[str, str]:
        """The demo accounts' passwords, kept by `manage.py demo_accounts` in the state dir."""
        path = Path(self.settings.get("PLATEAU_VAR_DIR", self.root / "var"))
        path = path / "demo-accounts.json"
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise StackError(f"cannot read the demo accounts' passwords in {path}: "
                             f"{error}") from None

    def manage(self, *args: str, code: str | None = None) -> str:
        """Run `manage.py` with the stack's settings; return what it printed."""
        environment = dict(os.environ, **self.settings, DJANGO_SETTINGS_MODULE="cms.settings")
        command = [str(PYTHON), "manage.py", *args]
        if code is not None:
            command += ["shell", "--no-imports", "-c", code]
        result = subprocess.run(command, env=environment, cwd=PROJECT, capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise StackError(f"manage.py {' '.join(args) or 'shell'} failed:\n"
                             f"{result.stderr.strip()[-2000:]}")
        return result.stdout

    # --- processes --------------------------------------------------------------------------

    def pid_of(self, name: str) -> int | None:
        path = self.root / "run" / f"{name}.pid"
        if name == "postgres":
            path = self.root / "pg" / "postmaster.pid"
        try:
            pid = int(path.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if Path(f"/proc/{pid}").exists() else None

    def process_groups(self) -> dict[str, list[int]]:
        """The stack's processes by part: the web server's workers, the task worker,
        PostgreSQL's backends and Redis."""
        groups: dict[str, list[int]] = {}
        for name, label in (("serve", "web"), ("worker", "worker"), ("postgres", "postgres"),
                            ("redis", "redis")):
            pid = self.pid_of(name)
            groups[label] = descendants(pid) if pid else []
        return groups

    def log(self, name: str) -> Path:
        return self.root / "logs" / f"{name}.log"


def descendants(pid: int) -> list[int]:
    """A process and all its children, grandchildren…"""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = proc_stat(int(entry))
            if stat:
                parents.setdefault(stat[1], []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def proc_stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, CPU ticks user + system) of a process, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[11]) + int(fields[12])


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        stat = proc_stat(pid)
        if stat:
            total += stat[2]
    return total


def runqueue_wait(pid: int) -> float:
    """Seconds a process's main thread has waited for a core, ready to run (schedstat)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    steal = fields[7] if len(fields) > 7 else 0
    total = sum(fields[:8])
    return total - idle - steal, total


class CpuMeter:
    """CPU seconds used by each part of the stack, by this client and by everything else,
    between `start` and `stop`."""

    def __init__(self, stack: Stack | None, client_pids: list[int]):
        self.stack = stack
        self.client_pids = client_pids

    def snapshot(self) -> dict[str, float]:
        groups = self.stack.process_groups() if self.stack else {}
        groups["client"] = self.client_pids
        ticks = {name: cpu_ticks(pids) for name, pids in groups.items()}
        busy, total = machine_ticks()
        ticks["machine"] = busy
        ticks["elapsed"] = total
        seconds = {name: value / TICKS for name, value in ticks.items()}
        seconds["client_waiting"] = sum(runqueue_wait(pid) for pid in self.client_pids)
        return seconds

    def start(self) -> None:
        self.started = self.snapshot()
        self.started_at = time.monotonic()

    def stop(self) -> dict[str, float]:
        """Return each part's CPU in cores (1.0 = one core busy all the time)."""
        ended = self.snapshot()
        seconds = max(1e-6, time.monotonic() - self.started_at)
        used = {name: (ended[name] - self.started.get(name, 0.0)) / seconds
                for name in ended if name not in ("machine", "elapsed", "client_waiting")}
        machine = (ended["machine"] - self.started["machine"]) / seconds
        used["other"] = max(0.0, machine - sum(used.values()))
        used["machine"] = machine
        # The share of the time this client was ready to run but waited for a core.
        waited = ended["client_waiting"] - self.started["client_waiting"]
        used["client_waiting"] = waited / seconds
        used["cores"] = os.cpu_count() or 1
        used["seconds"] = seconds
        return used


def log_offsets(stack: Stack | None) -> dict[str, int]:
    if stack is None:
        return {}
    offsets = {}
    for name in ("web", "worker"):
        with contextlib.suppress(OSError):
            offsets[name] = stack.log(name).stat().st_size
    return offsets


def log_problems(stack: Stack | None, offsets: dict[str, int]) -> dict[str, Counter]:
    """What the web server and the worker logged since `offsets` that tells of a failure:
    HTTP 5xx answers by route, and each traceback's last line (the exception), counted."""
    found: dict[str, Counter] = {}
    if stack is None:
        return found
    for name, offset in offsets.items():
        try:
            with open(stack.log(name), "rb") as handle:
                handle.seek(offset)
                text = handle.read().decode(errors="replace")
        except OSError:
            continue
        counted: Counter = Counter()
        for line in text.splitlines():
            answered = SERVER_ERROR.search(line)
            if answered:
                route = re.sub(r"/[A-Za-z0-9_-]{12,}/", "/…/", answered.group(2))
                counted[f"HTTP {answered.group(3)} on {answered.group(1)} {route}"] += 1
            elif EXCEPTION.match(line) or line.startswith(("ERROR", "CRITICAL")):
                counted[line.strip()[:200]] += 1
        if counted:
            found[name] = counted
    return found


SERVER_ERROR = re.compile(r'"(GET|POST|HEAD) (\S+) HTTP/1\.1" (5\d\d)')
# A traceback's last line: « psycopg_pool.PoolTimeout: couldn't get a connection… ».
EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout|Exit)\b.*:")
