"""SQLite serves several editors: reads go on during a long write, writers wait their turn."""

import json
import os
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from cms.settings import envdatabase

PROJECT = Path(__file__).resolve().parents[2]
IMPORTED_ROWS = 20_000
# Longer than sqlite3's own 5 s default timeout, so a lost SQLITE_BUSY_TIMEOUT shows here.
HOLD_AFTER_SECOND_WRITER = 6.0

# The long write: what a 20 000-row import does to the lock. Enough rows to spill SQLite's
# page cache, the moment a rollback journal would lock readers out.
LONG_WRITE = f"""
import json, sys, time
from django.contrib.auth.models import Group
from django.db import connection, transaction

def say(event, **data):
    print(json.dumps({{"event": event, "t": time.time(), **data}}), flush=True)

with transaction.atomic():
    say("begun", before=Group.objects.count())
    Group.objects.bulk_create([Group(name=f"import-{{i:06d}}-" + "x" * 120)
                               for i in range({IMPORTED_ROWS})], batch_size=500)
    say("inserted")
    sys.stdin.readline()
    say("committing")
say("committed")
"""

# An editor saving a page: it reads, then writes, in one transaction.
SECOND_WRITER = """
import json, time
from django.contrib.auth.models import Group
from django.db import transaction

def say(event, **data):
    print(json.dumps({"event": event, "t": time.time(), **data}), flush=True)

say("attempt")
with transaction.atomic():
    Group.objects.filter(name="second-writer").exists()
    Group.objects.create(name="second-writer")
say("done")
"""

# Another editor browsing: autocommit reads, one after another, until both writes show.
READER = """
import json, time
from django.contrib.auth.models import Group
from django.db import OperationalError

def say(event, **data):
    print(json.dumps({"event": event, "t": time.time(), **data}), flush=True)

say("reading")
deadline = time.time() + 20
while time.time() < deadline:
    start = time.time()
    try:
        count = Group.objects.count()
    except OperationalError as error:
        say("read", start=start, error=str(error))
    else:
        say("read", start=start, count=count)
        if Group.objects.filter(name="second-writer").exists():
            break
    time.sleep(0.05)
"""


# --- the settings ---------------------------------------------------------------------------


def test_a_default_sqlite_file_uses_wal_immediate_transactions_and_a_busy_timeout(
        monkeypatch, tmp_path):
    monkeypatch.delenv("PLATEAU_DB", raising=False)
    monkeypatch.delenv("SQLITE_BUSY_TIMEOUT", raising=False)

    options = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")["OPTIONS"]

    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] == 20
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    assert "PRAGMA synchronous=NORMAL" in options["init_command"]


def test_a_sqlite_url_gets_the_same_options(monkeypatch, tmp_path):
    monkeypatch.delenv("SQLITE_BUSY_TIMEOUT", raising=False)
    monkeypatch.setenv("PLATEAU_DB", f"sqlite:///{tmp_path}/x.sqlite3")

    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    monkeypatch.delenv("PLATEAU_DB")
    assert database["OPTIONS"] == envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")["OPTIONS"]


def test_the_busy_timeout_is_read_in_seconds_from_sqlite_busy_timeout(monkeypatch, tmp_path):
    monkeypatch.delenv("PLATEAU_DB", raising=False)
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "45")

    assert envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")["OPTIONS"]["timeout"] == 45


@pytest.mark.parametrize("value", ["beaucoup", "20s", "1.5", "0", "-5"])
def test_a_bad_sqlite_busy_timeout_is_refused_naming_the_variable(monkeypatch, tmp_path, value):
    monkeypatch.delenv("PLATEAU_DB", raising=False)
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", value)

    with pytest.raises(ImproperlyConfigured, match="SQLITE_BUSY_TIMEOUT"):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


def test_postgresql_gets_none_of_the_sqlite_options(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "postgres://plateau@localhost/plateau")
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "beaucoup")

    assert "OPTIONS" not in envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


# --- a real SQLite file under a long write --------------------------------------------------


def manage_env(tmp_path: Path) -> dict:
    env = {**os.environ,
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "PLATEAU_VAR_DIR": str(tmp_path / "var"),
           "MEDIA_ROOT": str(tmp_path / "media")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("SQLITE_BUSY_TIMEOUT", None)
    return env


def shell(env: dict, code: str, **popen) -> subprocess.Popen:
    """Start `manage.py shell -c code` on the project's settings."""
    return subprocess.Popen([sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
                            cwd=django_settings.BASE_DIR, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def next_event(process: subprocess.Popen, name: str) -> dict:
    line = process.stdout.readline()
    if not line:
        raise AssertionError(f"no {name!r} event: {process.wait(10)} {process.stderr.read()}")
    event = json.loads(line)
    assert event["event"] == name, event
    return event


def events(process: subprocess.Popen) -> list[dict]:
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_reads_go_on_and_a_second_writer_waits_while_a_long_write_holds_the_lock(tmp_path):
    env = manage_env(tmp_path)
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"],
                             cwd=django_settings.BASE_DIR, env=env, capture_output=True,
                             text=True, timeout=60)
    assert migrate.returncode == 0, migrate.stderr

    processes = [long_write := shell(env, LONG_WRITE, stdin=subprocess.PIPE)]
    try:
        begun = next_event(long_write, "begun")
        next_event(long_write, "inserted")
        processes.append(reader := shell(env, READER))
        processes.append(second_writer := shell(env, SECOND_WRITER))
        next_event(reader, "reading")
        attempt = next_event(second_writer, "attempt")
        time.sleep(HOLD_AFTER_SECOND_WRITER)
        long_write.stdin.write("commit\n")
        long_write.stdin.flush()
        committing = next_event(long_write, "committing")
        committed = next_event(long_write, "committed")
        assert long_write.wait(30) == 0, long_write.stderr.read()
        done = [e for e in events(second_writer) if e["event"] == "done"]
        reads = [e for e in events(reader) if e["event"] == "read"]
    finally:
        for process in processes:
            process.kill()

    # Every read succeeded, quickly, and saw the state before the write until it committed.
    assert [r for r in reads if "error" in r] == []
    assert max(r["t"] - r["start"] for r in reads) < 2.0
    during = [r for r in reads if r["t"] < committing["t"]]
    after = [r for r in reads if r["start"] > committed["t"]]
    assert len(during) >= 20
    assert {r["count"] for r in during} == {begun["before"]}
    assert after
    assert all(r["count"] >= begun["before"] + IMPORTED_ROWS for r in after)
    # The second writer waited for the commit, longer than sqlite3's 5 s default, then wrote.
    assert len(done) == 1
    assert done[0]["t"] > committing["t"]
    assert done[0]["t"] - attempt["t"] > HOLD_AFTER_SECOND_WRITER - 1
    # WAL is kept in the file itself.
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
