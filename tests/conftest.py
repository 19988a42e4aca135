"""Personas shared by every test: an editor, a reviewer, a reader and an anonymous visitor."""

import fcntl
import gc
import itertools
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from cms.games import content_games
from cms.rules import full_game_needs
from tests.demo import DemoSnapshot, demo_games, load_snapshots


def pytest_configure(config):
    config.addinivalue_line("markers", "renders: writes PNG renders of printed pages to "
                            "var/renders for a person to look at; run by make renders only")
    # The cyclic garbage collector looks at young objects in batches of 20 000 rather than
    # 700: collecting the tests builds some 220 000 objects that live as long as the
    # process, and the default walked them all again and again (see below).
    gc.set_threshold(20_000, 50, 50)


def pytest_addoption(parser):
    parser.addoption("--renders", action="store_true",
                     help="Write the PNG renders of printed pages to var/renders (make renders).")


def pytest_collection_finish(session):
    # What a test process keeps for good once its tests are collected (modules, Django's
    # registries, the tests themselves) leaves the cyclic garbage collector, which walked it
    # all in each full pass. The tests' garbage is collected as before, and gc.collect()
    # still collects: the collector took 15 s of CPU over make unit, 3.3 s now.
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config, items):
    # Renders are for a person to look at, not checks: they run only when asked for.
    if config.getoption("--renders"):
        return
    renders = [item for item in items if item.get_closest_marker("renders")]
    if renders:
        config.hook.pytest_deselected(items=renders)
        items[:] = [item for item in items if not item.get_closest_marker("renders")]


# --- make unit: two processes, a file each at a time ------------------------------------------

# Files that mostly wait on processes of their own (a copy of the project driven through its
# commands, a SQLite file under a long write). pytest-xdist gives out the files with the most
# tests first, which left these for the end, one process running them alone for 20 s; first,
# the other process uses the CPU meanwhile.
WAITING_ON_PROCESSES = ("tests/sixth_game/test_sixth_game.py",
                        "tests/cms/test_sqlite_concurrency.py")


# Files whose tests commit for real and empty the whole database after each test (a restore
# needs an empty database, a worker process sees only what is committed): Django's serialized
# rollback puts the migrated data (the editor groups, the permissions) back only at the start
# of the next such test. Alone in one process, pytest-django runs them after the other
# database tests; with files given out to two processes, they are given out last, so no test
# runs after them on an emptied database.
EMPTYING_THE_DATABASE = ("tests/cms/test_backup.py", "tests/cms/test_worker.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class WaitingFilesFirst(LoadFileScheduling):
        def _assign_work_unit(self, node):
            for path in reversed(WAITING_ON_PROCESSES):
                if path in self.workqueue:
                    self.workqueue.move_to_end(path, last=False)
            for path in EMPTYING_THE_DATABASE:
                if path in self.workqueue:
                    self.workqueue.move_to_end(path)
            super()._assign_work_unit(node)

    return WaitingFilesFirst(config, log)


def _member(username: str, group: str) -> User:
    user = User.objects.create_user(username=username, password="motdepasse-test",
                                    is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return user


class LoginRequestClient(Client):
    """Django's test client, whose login() hands authenticate() a request, as django-axes needs."""

    def login(self, **credentials):
        return super().login(request=RequestFactory().post("/admin/login/"), **credentials)


@pytest.fixture
def client():
    return LoginRequestClient()


@pytest.fixture
def editor(db):
    """A Rédacteur: writes and sends to review."""
    return _member("redactrice", "Rédacteur")


@pytest.fixture
def reviewer(db):
    """A Relecteur: corrects and publishes."""
    return _member("relecteur", "Relecteur")


@pytest.fixture
def reader(db):
    """A Lecteur: reads only."""
    return _member("lecteur", "Lecteur")


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client


@pytest.fixture
def reader_client(client, reader):
    client.force_login(reader)
    return client


@pytest.fixture(scope="session")
def _test_folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("per-test")
    return (base / str(number) for number in itertools.count())


@pytest.fixture(autouse=True, scope="session")
def _coverage_simulated_once_per_run(tmp_path_factory):
    # The coverage rule plays each game a hundred times (player.coverage), whatever the
    # library: the run's processes keep the figures in one folder and simulate each game once.
    with made_once_per_run(tmp_path_factory, "coverage") as folder:
        pass
    with override_settings(COVERAGE_DIR=folder):
        yield folder


@pytest.fixture(scope="session")
def _coverage_figures(_coverage_simulated_once_per_run, tmp_path_factory) -> Path:
    """Return the run's folder of coverage figures, every game simulated: a `manage.py`
    process reads them there instead of playing each game again within its timeout."""
    with made_once_per_run(tmp_path_factory, "coverage"):
        for game in content_games():
            full_game_needs(game)
    return _coverage_simulated_once_per_run


@pytest.fixture(autouse=True)
def _media_and_var_in_tmp(settings, _test_folders):
    # Uploads, held imports and demo accounts go to this test's own folders, never the
    # project's var/ nor another test's. The folders are made only when a file is stored:
    # asking every test for tmp_path cost a directory each, a few seconds over the suite.
    folder = next(_test_folders)
    settings.MEDIA_ROOT = folder / "media"
    settings.VAR_DIR = folder / "var"


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():
    # The real hasher costs half a second a password; how passwords are hashed is not tested.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    # A request in English leaves English active in this thread: the next test would read
    # English where the site speaks French.
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_report_kept_from_another_test():
    # Each test builds its content in a database of its own (a transaction rolled back, or
    # a flush): a report kept from the last test would be taken for this one's. The test
    # builders write straight to the tables, where the change log does not follow them.
    from cms import report_store

    report_store.forget()
    yield
    report_store.forget()


@contextmanager
def made_once_per_run(tmp_path_factory, name: str) -> Iterator[Path]:
    """Yield the run's folder `name`, locked: the first process of the run to ask makes what
    it holds, and the others, asking after, find it made.

    One folder for the two processes of make unit (pytest-xdist's workers share the
    folder above their own); a run in one process has a folder of its own.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / name
    folder.mkdir(exist_ok=True)
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file closes
        yield folder


# --- the demo library -------------------------------------------------------------------------
# The importer runs once per run and game, and its rows are laid down again in each test's
# transaction. Tests of the import itself (tests/cms) run load_demo for real.


@pytest.fixture(scope="session")
def demo_snapshots(django_db_setup, django_db_blocker, tmp_path_factory):
    """Import each game's demo library once per run, in load_demo's order, to lay it down
    again in each test."""
    with made_once_per_run(tmp_path_factory, "demo") as folder:
        taken = folder / "snapshots.pickle"
        if taken.exists():  # another process of the run took them, on the same migrations
            return pickle.loads(taken.read_bytes())
        with django_db_blocker.unblock():
            snapshots = DemoSnapshot.take_each(demo_games(), folder)
        taken.write_bytes(pickle.dumps(snapshots))
        return snapshots


@pytest.fixture
def demo(db, settings, demo_snapshots):
    """Load one game's demo library (fixtures/<game>/) into the test database."""

    def load(game: str) -> None:
        load_snapshots([demo_snapshots[game]], Path(settings.MEDIA_ROOT),
                       Path(settings.VAR_DIR))

    return load


@pytest.fixture
def demo_library(db, settings, demo_snapshots):
    """Every game's demo library in the test database, row for row as `manage.py load_demo`
    leaves it."""
    load_snapshots(list(demo_snapshots.values()), Path(settings.MEDIA_ROOT),
                   Path(settings.VAR_DIR))


# --- manage.py as a process of its own ----------------------------------------------------------


def _process_env(folder: Path, coverage: Path | None = None) -> dict:
    env = {**os.environ,
           "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
           "PLATEAU_VAR_DIR": str(folder / "var"),
           "MEDIA_ROOT": str(folder / "media")}
    if coverage is not None:
        env["PLATEAU_COVERAGE_DIR"] = str(coverage)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("SQLITE_BUSY_TIMEOUT", None)
    return env


@pytest.fixture(scope="session")
def _migrated_sqlite_file(tmp_path_factory) -> Path:
    with made_once_per_run(tmp_path_factory, "migrated") as folder:
        path = folder / "db.sqlite3"
        if path.exists():
            return path
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=django_settings.BASE_DIR, env=_process_env(folder), capture_output=True,
            text=True, timeout=120)
        assert migrate.returncode == 0, migrate.stderr
        # Everything into the file itself, so that copying the file copies the database.
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return path


@pytest.fixture(scope="session")
def fresh_process_env(_migrated_sqlite_file, _coverage_figures):
    """Return the environment of a `manage.py` process on a SQLite file in a folder of its
    own, as `manage.py migrate` leaves it on a fresh install (migrated once per run)."""

    def env_in(folder: Path) -> dict:
        shutil.copyfile(_migrated_sqlite_file, folder / "db.sqlite3")
        return _process_env(folder, _coverage_figures)

    return env_in


@pytest.fixture
def process_env(tmp_path, fresh_process_env) -> dict:
    """The environment of a `manage.py` process on a freshly migrated SQLite file of this
    test's own."""
    return fresh_process_env(tmp_path)
