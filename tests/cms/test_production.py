"""Production as it runs: `manage.py serve` (uvicorn, DEBUG off, WhiteNoise) as real
processes, and the settings that choose its storage, task queue and database connections.

The servers run over the test database (read only) with the static files `collectstatic`
gathered once for the module; requests go over real sockets with httpx.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from cms.settings import envdatabase, media_storage
from tests.cms.test_worker import database_url

PROJECT = Path(django_settings.BASE_DIR)
YEAR = 31_536_000  # seconds: the HSTS Plateau sends by default without DEBUG


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(folder: Path, **variables) -> dict:
    """A production environment (DEBUG off) over the test database; None unsets a variable."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("SECURE_", "SECRET_KEY", "DATABASE_URL", "FORWARDED_",
                                   "DJANGO_SETTINGS_MODULE", "STATIC_ROOT", "ALLOWED_HOSTS"))}
    env.update(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
               SECURE_COOKIES="false", PLATEAU_VAR_DIR=str(folder),
               DATABASE_URL=database_url(), WEB_CONCURRENCY="2", PYTHONUNBUFFERED="1")
    for name, value in variables.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage(env: dict, *args, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=timeout)


class Server:
    """`manage.py serve` in a process group of its own (uvicorn's supervisor and workers)."""

    def __init__(self, folder: Path, **variables):
        self.port = free_port()
        self.log = folder / f"serve-{self.port}.log"
        env = production_env(folder, PORT=str(self.port), **variables)
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "serve"], cwd=PROJECT, env=env, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self._wait_until_it_answers()

    def _wait_until_it_answers(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"serve stopped ({self.process.returncode}):\n"
                            f"{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/sante/", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        self.stop()
        pytest.fail(f"serve does not answer after {seconds} s:\n{self.log.read_text()}")

    def get(self, path: str, **headers) -> httpx.Response:
        return httpx.get(f"{self.url}{path}", headers=headers, timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("production")


@pytest.fixture(scope="module")
def static_root(folder, django_db_setup) -> Path:
    """The static files, gathered as a deployment does before it serves."""
    root = folder / "static"
    result = manage(production_env(folder, STATIC_ROOT=str(root)), "collectstatic",
                    "--noinput", "-v", "0")
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture(scope="module")
def server(folder, static_root):
    """A server behind a proxy on this machine: it believes 127.0.0.1's forwarded headers."""
    started = Server(folder, STATIC_ROOT=str(static_root), FORWARDED_ALLOW_IPS="127.0.0.1")
    yield started
    started.stop()


@pytest.fixture(scope="module")
def server_behind_another_proxy(folder, static_root):
    """A server that believes only a proxy elsewhere: what 127.0.0.1 forwards is ignored."""
    started = Server(folder, STATIC_ROOT=str(static_root), FORWARDED_ALLOW_IPS="192.0.2.10")
    yield started
    started.stop()


def stylesheet(server) -> str:
    """Return the address of the admin's stylesheet, as the login page links to it."""
    page = server.get("/admin/login/")
    assert page.status_code == 200
    [address] = re.findall(r'href="(/static/admin/css/base\.[0-9a-f]{12}\.css)"', page.text)
    return address


# --- serving --------------------------------------------------------------------------------


def test_the_health_check_answers(server):
    response = server.get("/sante/")

    assert response.status_code == 200
    assert response.text == "ok\n"


def test_the_login_pages_stylesheet_has_a_hashed_name_cached_for_ten_years(server):
    response = server.get(stylesheet(server))

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert response.headers["cache-control"] == "max-age=315360000, public, immutable"
    assert "#" in response.text  # a stylesheet indeed: it has colours


def test_a_stylesheet_is_compressed_for_a_browser_that_asks(server):
    address = stylesheet(server)

    plain = server.get(address, **{"Accept-Encoding": "identity"})
    compressed = server.get(address, **{"Accept-Encoding": "gzip"})

    assert "content-encoding" not in plain.headers
    assert compressed.headers["content-encoding"] == "gzip"
    assert int(compressed.headers["content-length"]) < int(plain.headers["content-length"])
    assert compressed.text == plain.text


def test_an_unknown_static_file_is_not_found(server):
    assert server.get("/static/admin/css/nulle-part.css").status_code == 404
    assert server.get("/static/admin/css/base.0123456789ab.css").status_code == 404


def test_a_file_under_its_unhashed_name_is_not_cached_for_long(server):
    response = server.get("/static/admin/css/base.css")

    # WhiteNoise serves it too (a page of an older release may ask for it), briefly cached.
    assert response.status_code == 200
    assert "immutable" not in response.headers["cache-control"]


def test_https_forwarded_by_the_proxy_makes_the_request_secure(server):
    # Without SECURE_PROXY_SSL_HEADER, uvicorn's proxy headers set the scheme: Django sends
    # HSTS only over HTTPS (request.is_secure()).
    plain = server.get("/sante/")
    forwarded = server.get("/sante/", **{"X-Forwarded-Proto": "https"})

    assert "strict-transport-security" not in plain.headers
    assert forwarded.headers["strict-transport-security"] == f"max-age={YEAR}"


def test_https_forwarded_by_an_unknown_address_is_ignored(server_behind_another_proxy):
    response = server_behind_another_proxy.get("/sante/", **{"X-Forwarded-Proto": "https"})

    assert response.status_code == 200
    assert "strict-transport-security" not in response.headers


# --- refusing to start ----------------------------------------------------------------------


def test_serve_refuses_to_start_before_collectstatic(folder, django_db_setup, tmp_path):
    result = manage(production_env(folder, STATIC_ROOT=str(tmp_path), PORT=str(free_port())),
                    "serve", timeout=120)

    assert result.returncode != 0
    assert "collectstatic --noinput" in result.stderr
    assert str(tmp_path) in result.stderr


def test_serve_refuses_to_start_without_allowed_hosts(folder, static_root):
    result = manage(production_env(folder, STATIC_ROOT=str(static_root), ALLOWED_HOSTS="",
                                   PORT=str(free_port())), "serve", timeout=120)

    assert result.returncode != 0
    assert "ALLOWED_HOSTS est vide" in result.stderr


# --- the settings ---------------------------------------------------------------------------


def start_django(tmp_path, expression: str, **environ) -> subprocess.CompletedProcess:
    """Print repr(expression) from a fresh interpreter's settings (None unsets a variable)."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("DJANGO_SETTINGS_MODULE", "TASKS_BACKEND")}
    env["PLATEAU_VAR_DIR"] = str(tmp_path)
    for name, value in environ.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    script = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'cms.settings'; "
              "django.setup(); from django.conf import settings; "
              f"print(repr({expression}))")
    return subprocess.run([sys.executable, "-c", script], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def no_storage_variables(monkeypatch):
    for name in ("MEDIA_STORAGE", "MEDIA_STORAGE_OPTIONS", "MEDIA_STORAGE_OPTIONS_FILE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_media_are_files_under_media_root_by_default(no_storage_variables):
    assert media_storage() == {"BACKEND": "django.core.files.storage.FileSystemStorage",
                               "OPTIONS": {}}


def test_media_go_to_the_storage_named_with_its_options(no_storage_variables):
    no_storage_variables.setenv("MEDIA_STORAGE", "storages.backends.s3.S3Storage")
    no_storage_variables.setenv("MEDIA_STORAGE_OPTIONS",
                                json.dumps({"bucket_name": "plateau", "querystring_auth": True}))

    assert media_storage() == {"BACKEND": "storages.backends.s3.S3Storage",
                               "OPTIONS": {"bucket_name": "plateau", "querystring_auth": True}}


def test_media_storage_options_may_come_from_a_secret_file(no_storage_variables, tmp_path):
    (tmp_path / "options.json").write_text('{"access_key": "secret"}\n')
    no_storage_variables.setenv("MEDIA_STORAGE_OPTIONS_FILE", str(tmp_path / "options.json"))

    assert media_storage()["OPTIONS"] == {"access_key": "secret"}


@pytest.mark.parametrize("options", ["{bucket_name: plateau}", "[1, 2]", '"plateau"'])
def test_media_storage_options_must_be_a_json_object(no_storage_variables, options):
    no_storage_variables.setenv("MEDIA_STORAGE_OPTIONS", options)

    with pytest.raises(ImproperlyConfigured, match="MEDIA_STORAGE_OPTIONS"):
        media_storage()


@pytest.mark.parametrize("backend", ["S3Storage", "storages.backends.s3.", "../storage.Evil",
                                     "storages backends.S3"])
def test_media_storage_must_be_a_dotted_class_path(no_storage_variables, backend):
    no_storage_variables.setenv("MEDIA_STORAGE", backend)

    with pytest.raises(ImproperlyConfigured, match="MEDIA_STORAGE must be a dotted class path"):
        media_storage()


def test_the_task_backend_is_chosen_by_name(tmp_path):
    result = start_django(tmp_path, "settings.TASKS", TASKS_BACKEND="database")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "{'default': {'BACKEND': 'django_tasks_db.DatabaseBackend'}}"


def test_an_unknown_task_backend_stops_the_start(tmp_path):
    result = start_django(tmp_path, "settings.TASKS", TASKS_BACKEND="celery")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "TASKS_BACKEND must be immediate or database, not 'celery'" in result.stderr


@pytest.mark.parametrize("name", ["PLATEAU_JOB_KEEP_HOURS", "PLATEAU_JOB_MAX_ATTEMPTS"])
def test_a_job_setting_below_one_stops_the_start(tmp_path, name):
    result = start_django(tmp_path, f"settings.{name}", **{name: "0"})

    assert result.returncode != 0
    assert f"{name} must be at least 1" in result.stderr


def test_a_stale_time_shorter_than_two_beats_stops_the_start(tmp_path):
    # A running job beats every 2 s: silent for 3 s is not yet dead.
    result = start_django(tmp_path, "settings.PLATEAU_JOB_STALE_SECONDS",
                          PLATEAU_JOB_STALE_SECONDS="3")

    assert result.returncode != 0
    assert "PLATEAU_JOB_STALE_SECONDS must be at least 4" in result.stderr


POSTGRES = "postgres://plateau:secret@db.example:5432/plateau"


@pytest.fixture
def database_variables(monkeypatch):
    for name in ("DATABASE_POOL_SIZE", "DATABASE_POOL_TIMEOUT", "DATABASE_CONN_MAX_AGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PLATEAU_DB", POSTGRES)
    return monkeypatch


def test_a_postgres_database_lends_connections_from_a_pool(database_variables, tmp_path):
    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    assert database["OPTIONS"] == {"pool": {"min_size": 1, "max_size": 10, "timeout": 20}}
    assert database["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections


def test_the_pool_size_and_wait_are_set_by_the_environment(database_variables, tmp_path):
    database_variables.setenv("DATABASE_POOL_SIZE", "4")
    database_variables.setenv("DATABASE_POOL_TIMEOUT", "5")

    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4, "timeout": 5}


def test_a_pool_size_of_zero_keeps_connections_per_thread(database_variables, tmp_path):
    database_variables.setenv("DATABASE_POOL_SIZE", "0")
    database_variables.setenv("DATABASE_CONN_MAX_AGE", "120")

    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    assert "OPTIONS" not in database
    assert database["CONN_MAX_AGE"] == 120
    assert database["NAME"] == "plateau"


@pytest.mark.parametrize(("name", "value"), [("DATABASE_POOL_SIZE", "-1"),
                                           ("DATABASE_POOL_SIZE", "dix"),
                                           ("DATABASE_POOL_TIMEOUT", "0")])
def test_an_impossible_pool_is_refused_naming_the_variable(database_variables, tmp_path, name,
                                                            value):
    database_variables.setenv(name, value)

    with pytest.raises(ImproperlyConfigured, match=name):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


def test_a_sqlite_database_has_no_pool(database_variables, tmp_path):
    database_variables.setenv("PLATEAU_DB", f"sqlite:///{tmp_path}/db.sqlite3")
    database_variables.setenv("DATABASE_POOL_SIZE", "4")

    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")

    assert "pool" not in database["OPTIONS"]
