"""SQLite serves several editors: reads go on during a long write, writers wait their turn."""

import json
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
# A safety net only: the loop ends a second after both writes show, so that reads surely
# start after the long write said it committed (on a loaded machine, the second writer may
# write before the first one's process gets to say so); a loaded CI machine is slow.
deadline = time.time() + 90
both_seen = None
while time.time() < deadline:
    start = time.time()
    try:
        count = Group.objects.count()
    except OperationalError as error:
        say("read", start=start, error=str(error))
    else:
        say("read", start=start, count=count)
        if both_seen is None and Group.objects.filter(name="second-writer").exists():
            both_seen = time.time()
    if both_seen is not None and time.time() - both_seen > 1.0:
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

    entry = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    # Only PostgreSQL's own: its connection pool (settings.postgres_connections).
    assert set(entry.get("OPTIONS", {})) <= {"pool"}
    assert "TEST" not in entry


# --- a real SQLite file under a long write --------------------------------------------------


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


# An editor logged in before the write, browsing the admin while it goes on.
EDITOR_SESSION = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import Group, User
from django.contrib.sessions.backends.db import SessionStore
from cms.models import Question

user = User.objects.create_user("relectrice", password="x", is_staff=True)
user.groups.add(Group.objects.get(name="Relecteur"))
question = Question.objects.create(kind="echelle", text="Lue pendant l’import ?",
                                   difficulty=1, step=1)
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.save()
print(json.dumps({"session": session.session_key, "question": question.pk}), flush=True)
"""

ADMIN_READER = """
import json, sys, time
from django.conf import settings
from django.test import Client

def say(event, **data):
    print(json.dumps({"event": event, "t": time.time(), **data}), flush=True)

client = Client()
client.cookies[settings.SESSION_COOKIE_NAME] = sys.argv[-2]
pages = ["/admin/", "/admin/cms/question/?game=millionnaire",
         f"/admin/cms/question/{sys.argv[-1]}/change/",
         f"/admin/cms/question/{sys.argv[-1]}/history/",
         "/admin/jeux/millionnaire/problemes/"]
say("reading")
for page in pages:
    start = time.time()
    say("page", url=page, status=client.get(page).status_code, start=start)
"""


@pytest.fixture(scope="module")
def long_write(fresh_process_env, tmp_path_factory) -> dict:
    """Hold a long write on a real SQLite file while another editor reads, a third saves and
    a reviewer browses the admin; return what each of them recorded.

    The tests below read this one run: each separate run cost a Django start per process
    and a 20 000-row write, and only this hold's wait is needed to show the timeout.
    """
    folder = tmp_path_factory.mktemp("long-write")
    env = {**fresh_process_env(folder), "ALLOWED_HOSTS": "testserver"}
    setup = shell(env, EDITOR_SESSION)
    out, err = setup.communicate(timeout=60)
    assert setup.returncode == 0, err
    known = json.loads(out.splitlines()[-1])
    admin_reader_code = ADMIN_READER.replace("sys.argv[-2]", repr(known["session"])).replace(
        "sys.argv[-1]", repr(str(known["question"])))

    processes = [writer := shell(env, LONG_WRITE, stdin=subprocess.PIPE)]
    try:
        begun = next_event(writer, "begun")
        next_event(writer, "inserted")
        processes.append(reader := shell(env, READER))
        processes.append(second_writer := shell(env, SECOND_WRITER))
        processes.append(admin_reader := shell(env, admin_reader_code))
        next_event(reader, "reading")
        attempt = next_event(second_writer, "attempt")
        time.sleep(HOLD_AFTER_SECOND_WRITER)
        pages = [e for e in events(admin_reader) if e["event"] == "page"]
        still_writing = writer.poll() is None
        writer.stdin.write("commit\n")
        writer.stdin.flush()
        committing = next_event(writer, "committing")
        committed = next_event(writer, "committed")
        assert writer.wait(30) == 0, writer.stderr.read()
        done = [e for e in events(second_writer) if e["event"] == "done"]
        reads = [e for e in events(reader) if e["event"] == "read"]
    finally:
        for process in processes:
            process.kill()
    return {"begun": begun, "attempt": attempt, "committing": committing,
            "committed": committed, "done": done, "reads": reads, "pages": pages,
            "still_writing": still_writing, "database": folder / "db.sqlite3"}


def test_reads_go_on_and_a_second_writer_waits_while_a_long_write_holds_the_lock(long_write):
    begun, reads, done = long_write["begun"], long_write["reads"], long_write["done"]
    committing, committed = long_write["committing"], long_write["committed"]

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
    assert done[0]["t"] - long_write["attempt"]["t"] > HOLD_AFTER_SECOND_WRITER - 1
    # WAL is kept in the file itself.
    with closing(sqlite3.connect(long_write["database"])) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_admin_pages_open_while_a_long_write_holds_the_lock(long_write):
    pages = long_write["pages"]

    # Every page opened, quickly, while the write still held the lock.
    assert long_write["still_writing"]
    assert [(p["url"], p["status"]) for p in pages if p["status"] != 200] == []
    assert len(pages) == 5
    assert max(p["t"] - p["start"] for p in pages) < 10
