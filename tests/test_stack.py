"""The production stack (deploy/stack) for real: PostgreSQL, Redis, `manage.py serve` with two
web workers and a task worker, on loopback ports of its own, then stopped with nothing left.

Slow (a minute: a cluster is created, migrated and loaded with the demo library), so out of
`make unit`: `make test-stack` runs these. The tests share one stack and run in order, the
last one stopping it.
"""

import http.client
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.stack

PROJECT = Path(__file__).resolve().parent.parent
STACK = PROJECT / "deploy" / "stack"


@dataclass
class Stack:
    root: Path
    env: dict
    port: int
    pg_port: int
    redis_port: int

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([str(STACK), *args], env=self.env, capture_output=True,
                              text=True, timeout=timeout, cwd=PROJECT)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def pid(self, name: str) -> int:
        return int((self.root / "run" / f"{name}.pid").read_text())


def free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            sockets.append(probe)
        return [probe.getsockname()[1] for probe in sockets]
    finally:
        for probe in sockets:
            probe.close()


@pytest.fixture(scope="module")
def stack():
    # Not pytest's tmp_path: its folders are closed to others, and PostgreSQL runs as postgres.
    root = Path(tempfile.mkdtemp(prefix="plateau-stack-"))
    os.chmod(root, 0o755)
    port, pg_port, redis_port = free_ports(3)
    env = dict(os.environ, PLATEAU_PROD_DIR=str(root), PLATEAU_PROD_PORT=str(port),
               PLATEAU_PROD_PG_PORT=str(pg_port), PLATEAU_PROD_REDIS_PORT=str(redis_port),
               PLATEAU_PROD_DEMO="true")
    stack = Stack(root, env, port, pg_port, redis_port)
    try:
        started = stack.run("start")
        assert started.returncode == 0, started.stdout + started.stderr
        yield stack
    finally:
        stack.run("stop")
        shutil.rmtree(root, ignore_errors=True)


def opener(jar: http.cookiejar.CookieJar | None = None) -> urllib.request.OpenerDirector:
    handlers = [urllib.request.ProxyHandler({})]
    if jar is not None:
        handlers.append(urllib.request.HTTPCookieProcessor(jar))
    return urllib.request.build_opener(*handlers)


# --- /proc ---------------------------------------------------------------------------------


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, ppid), None once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text[text.rfind(")") + 2:].split()[:2]
    return state, int(ppid)


def running(pid: int) -> bool:
    stat = proc_stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def children(pid: int) -> list[int]:
    return sorted(other for other in pids()
                  if running(other) and (proc_stat(other) or ("", 0))[1] == pid)


def socket_pids(inodes: set[int]) -> set[int]:
    wanted = {f"socket:[{inode}]" for inode in inodes}
    owners = set()
    for pid in pids():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in wanted:
                    owners.add(pid)
            except OSError:
                continue
    return owners


def tcp_sockets(local_port: int, remote_port: int | None = None) -> set[int]:
    """Inodes of the TCP sockets on a local port: listening ones, or the ones connected to
    remote_port."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local = int(fields[1].rsplit(":", 1)[1], 16)
        remote = int(fields[2].rsplit(":", 1)[1], 16)
        if local != local_port:
            continue
        if (remote_port is None and fields[3] == "0A") or remote == remote_port:
            inodes.add(int(fields[9]))
    return inodes


def stack_processes(root: Path) -> list[tuple[int, str]]:
    """Processes still running for the stack: its settings in their environment, or their
    working directory or command line in its state directory."""
    root_text = str(root)
    marks = (f"PLATEAU_VAR_DIR={root / 'var'}".encode(), f"PLATEAU_PROD_DIR={root}".encode())
    found = []
    for pid in pids():
        if pid == os.getpid() or not running(pid):
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{pid}/cwd")
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if (any(mark in environ for mark in marks) or cwd == root_text
                or cwd.startswith(root_text + "/") or root_text in command):
            found.append((pid, command))
    return found


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


# --- the tests, in order ---------------------------------------------------------------------


def test_the_health_url_answers(stack):
    with opener().open(stack.url("/sante/"), timeout=10) as response:
        assert response.status == 200
        assert response.read().strip() == b"ok"


def test_the_login_page_serves_hashed_static_files_cached_for_long(stack):
    with opener().open(stack.url("/admin/login/"), timeout=10) as response:
        page = response.read().decode()
    # DEBUG is off: collectstatic's names carry their content's hash, WhiteNoise serves them.
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.[0-9a-f]{12}\.(?:css|js))"', page)
    assert assets, page[:2000]
    with opener().open(stack.url(assets[0]), timeout=10) as response:
        assert response.status == 200
        assert response.read()
        cache = response.headers["Cache-Control"] or ""
    max_age = re.search(r"max-age=(\d+)", cache)
    assert max_age and int(max_age.group(1)) >= 365 * 24 * 3600, cache


def test_an_editor_signs_in_and_sees_the_admin(stack):
    accounts = json.loads((stack.root / "var" / "demo-accounts.json").read_text())
    jar = http.cookiejar.CookieJar()
    browser = opener(jar)
    with browser.open(stack.url("/admin/login/"), timeout=10) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": "redacteur",
                                   "password": accounts["redacteur"], "next": "/admin/"})
    with browser.open(stack.url("/admin/login/?next=/admin/"), data=form.encode(),
                      timeout=20) as response:
        page = response.read().decode()
        assert response.status == 200
        assert urllib.parse.urlsplit(response.geturl()).path == "/admin/"
    # Signed in: the page offers to sign out, over plain http (the cookies are not Secure).
    assert "/admin/logout/" in page
    assert "sessionid" in {cookie.name for cookie in jar}


def test_requests_are_served_by_two_worker_processes(stack):
    serve = stack.pid("serve")
    assert running(serve)
    # The serve process's children that hold the listening socket: the web workers.
    workers = set(children(serve)) & socket_pids(tcp_sockets(stack.port))
    assert len(workers) == 2, (serve, children(serve))
    # Connections kept open (HTTP/1.1 keep-alive) until both workers hold some.
    served_by: set[int] = set()
    connections = []
    try:
        for _ in range(60):
            connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
            connections.append(connection)
            connection.request("GET", "/sante/")
            response = connection.getresponse()
            assert response.status == 200
            response.read()
            client_port = connection.sock.getsockname()[1]
            served_by |= socket_pids(tcp_sockets(stack.port, client_port)) & workers
            if served_by == workers:
                break
    finally:
        for connection in connections:
            connection.close()
    assert served_by == workers


def test_status_says_everything_is_up(stack):
    status = stack.run("status")
    assert status.returncode == 0, status.stdout + status.stderr
    for component in ("postgres", "redis", "web", "worker"):
        assert re.search(rf"^\s*{component}\s+running, pid \d+", status.stdout, re.M), (
            status.stdout)
    assert "web workers: 2" in status.stdout
    assert f"127.0.0.1:{stack.port}" in status.stdout


def test_the_env_command_gives_a_shell_the_stack_environment(stack):
    printed = stack.run("env")
    assert printed.returncode == 0, printed.stderr
    database_url = re.search(r"^DATABASE_URL=(.+)$", (stack.root / "env").read_text(),
                             re.M).group(1)
    assert re.fullmatch(rf"postgres://plateau:[\w-]+@127\.0\.0\.1:{stack.pg_port}/plateau",
                        database_url)
    shell = subprocess.run(["sh", "-c", 'eval "$1" && echo "$DATABASE_URL|$DEBUG"', "sh",
                            printed.stdout], capture_output=True, text=True, check=True)
    assert shell.stdout.strip() == f"{database_url}|false"
    assert (stack.root / "env").stat().st_mode & 0o777 == 0o600


def test_starting_again_changes_nothing(stack):
    before = {name: stack.pid(name) for name in ("serve", "worker", "redis")}
    again = stack.run("start")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "already running" in again.stdout
    assert {name: stack.pid(name) for name in before} == before
    assert all(running(pid) for pid in before.values())


def test_stop_leaves_nothing_running(stack):
    postmaster = int((stack.root / "pg" / "postmaster.pid").read_text().split()[0])
    serve = stack.pid("serve")
    started = [serve, *children(serve), stack.pid("worker"), stack.pid("redis"), postmaster,
               *children(postmaster)]
    assert all(running(pid) for pid in started)

    stopped = stack.run("stop")
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr

    assert [pid for pid in started if running(pid)] == []
    assert stack_processes(stack.root) == []
    for port in (stack.port, stack.pg_port, stack.redis_port):
        assert not port_open(port), port
    status = stack.run("status")
    assert status.returncode == 1
    assert "running" not in status.stdout
    # Stopping what is stopped is fine.
    assert stack.run("stop").returncode == 0
