"""The settings helpers read the environment strictly and name the variable they refuse."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from cms.settings import BASE_DIR, envbool, envdatabase, envint, envlist

PROJECT = Path(__file__).resolve().parents[2]
START_DJANGO = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='cms.settings'; "
                "django.setup()")


# --- envbool --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["true", "True", "TRUE"])
def test_envbool_reads_a_true_value(monkeypatch, value):
    monkeypatch.setenv("PLATEAU_FLAG", value)
    assert envbool("PLATEAU_FLAG", False) is True


@pytest.mark.parametrize("value", ["false", "False", "FALSE"])
def test_envbool_reads_a_false_value(monkeypatch, value):
    monkeypatch.setenv("PLATEAU_FLAG", value)
    assert envbool("PLATEAU_FLAG", True) is False


@pytest.mark.parametrize("default", [True, False])
def test_envbool_falls_back_to_the_default_when_unset(monkeypatch, default):
    monkeypatch.delenv("PLATEAU_FLAG", raising=False)
    assert envbool("PLATEAU_FLAG", default) is default


def test_envbool_falls_back_to_the_default_when_empty(monkeypatch):
    monkeypatch.setenv("PLATEAU_FLAG", "")
    assert envbool("PLATEAU_FLAG", True) is True


@pytest.mark.parametrize("value", ["maybe", "2", "vrai", "truee", "1", "yes", "on", "0", "off"])
def test_envbool_refuses_anything_else_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("PLATEAU_FLAG", value)
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_FLAG"):
        envbool("PLATEAU_FLAG", False)


# --- envint ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [("42", 42), ("0", 0), ("-3", -3),
                                                 (" 7 ", 7)])
def test_envint_reads_an_integer(monkeypatch, value, expected):
    monkeypatch.setenv("PLATEAU_COUNT", value)
    assert envint("PLATEAU_COUNT", 1) == expected


def test_envint_falls_back_to_the_default_when_unset(monkeypatch):
    monkeypatch.delenv("PLATEAU_COUNT", raising=False)
    assert envint("PLATEAU_COUNT", 5) == 5


def test_envint_falls_back_to_the_default_when_empty(monkeypatch):
    monkeypatch.setenv("PLATEAU_COUNT", "")
    assert envint("PLATEAU_COUNT", 5) == 5


@pytest.mark.parametrize("value", ["beaucoup", "5 Mo", "1.5", "0x10"])
def test_envint_refuses_a_non_integer_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("PLATEAU_COUNT", value)
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_COUNT"):
        envint("PLATEAU_COUNT", 5)


# --- envlist --------------------------------------------------------------------------------


def test_envlist_splits_on_commas_and_strips_spaces(monkeypatch):
    monkeypatch.setenv("PLATEAU_HOSTS", " plateau.example , www.plateau.example,localhost ")
    assert envlist("PLATEAU_HOSTS", "") == ["plateau.example", "www.plateau.example",
                                            "localhost"]


def test_envlist_drops_empty_items(monkeypatch):
    monkeypatch.setenv("PLATEAU_HOSTS", "a,, ,b,")
    assert envlist("PLATEAU_HOSTS", "") == ["a", "b"]


def test_envlist_falls_back_to_the_default_when_unset(monkeypatch):
    monkeypatch.delenv("PLATEAU_HOSTS", raising=False)
    assert envlist("PLATEAU_HOSTS", "127.0.0.1,localhost") == ["127.0.0.1", "localhost"]


def test_envlist_of_an_empty_default_is_an_empty_list(monkeypatch):
    monkeypatch.delenv("PLATEAU_HOSTS", raising=False)
    assert envlist("PLATEAU_HOSTS", "") == []


# --- envdatabase ----------------------------------------------------------------------------


def test_envdatabase_defaults_to_the_given_sqlite_file(monkeypatch, tmp_path):
    monkeypatch.delenv("PLATEAU_DB", raising=False)
    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")
    assert (database["ENGINE"], database["NAME"]) == (
        "django.db.backends.sqlite3", tmp_path / "db.sqlite3")


def test_envdatabase_parses_a_postgres_url(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "postgres://user:p%40ss@db.example:5433/plateau")
    monkeypatch.delenv("DATABASE_CONN_MAX_AGE", raising=False)
    monkeypatch.delenv("DATABASE_POOL_SIZE", raising=False)
    monkeypatch.delenv("DATABASE_POOL_TIMEOUT", raising=False)
    assert envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "plateau",
        "USER": "user",
        "PASSWORD": "p@ss",
        "HOST": "db.example",
        "PORT": "5433",
        # A pool of 10 connections per process, lent to each request's thread; Django
        # refuses persistent connections beside a pool.
        "CONN_MAX_AGE": 0,
        "OPTIONS": {"pool": {"min_size": 1, "max_size": 10, "timeout": 20}},
    }


def test_a_pool_size_of_zero_keeps_a_connection_per_thread(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "postgres://plateau@localhost/plateau")
    monkeypatch.setenv("DATABASE_POOL_SIZE", "0")
    monkeypatch.setenv("DATABASE_CONN_MAX_AGE", "30")
    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")
    assert "OPTIONS" not in database
    assert database["CONN_MAX_AGE"] == 30


@pytest.mark.parametrize(("name", "value"), [("DATABASE_POOL_SIZE", "-1"),
                                             ("DATABASE_POOL_SIZE", "dix"),
                                             ("DATABASE_POOL_TIMEOUT", "0")])
def test_a_bad_pool_setting_stops_the_start(monkeypatch, tmp_path, name, value):
    monkeypatch.setenv("PLATEAU_DB", "postgres://plateau@localhost/plateau")
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


def test_envdatabase_accepts_the_postgresql_scheme_without_a_port(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "postgresql://plateau@localhost/plateau")
    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["HOST"], database["PORT"]) == ("plateau", "localhost",
                                                                      "")


def test_envdatabase_reads_a_relative_sqlite_url_from_the_project(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "sqlite:///var/x.sqlite3")
    database = envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")
    assert (database["ENGINE"], database["NAME"]) == (
        "django.db.backends.sqlite3", BASE_DIR / "var" / "x.sqlite3")
    assert BASE_DIR == PROJECT


def test_envdatabase_reads_an_absolute_sqlite_url(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", f"sqlite:///{tmp_path}/x.sqlite3")
    assert envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")["NAME"] == tmp_path / "x.sqlite3"


def test_envdatabase_refuses_mysql_naming_the_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "mysql://user:pass@db.example/plateau")
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_DB"):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


@pytest.mark.parametrize("url", ["postgres://user:pass@db.example:5433/",
                                 "postgres://user:pass@db.example"])
def test_envdatabase_refuses_a_postgres_url_without_a_database_name(monkeypatch, tmp_path,
                                                                    url):
    monkeypatch.setenv("PLATEAU_DB", url)
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_DB"):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


def test_envdatabase_refuses_a_sqlite_url_without_a_file(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "sqlite:///")
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_DB"):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


def test_envdatabase_refuses_a_port_that_is_not_a_number(monkeypatch, tmp_path):
    monkeypatch.setenv("PLATEAU_DB", "postgres://user:pass@db.example:port/plateau")
    with pytest.raises(ImproperlyConfigured, match="PLATEAU_DB"):
        envdatabase("PLATEAU_DB", tmp_path / "db.sqlite3")


# --- starting Django ------------------------------------------------------------------------


def start_django(**environ) -> subprocess.CompletedProcess:
    """Start Django in a fresh interpreter with these variables set (None: unset)."""
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    for name, value in environ.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run([sys.executable, "-c", START_DJANGO], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_django_refuses_to_start_with_debug_maybe():
    result = start_django(DEBUG="maybe")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DEBUG" in result.stderr


def test_django_refuses_to_start_in_production_without_a_secret_key():
    result = start_django(DEBUG="false", SECRET_KEY=None)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_django_starts_in_production_with_a_secret_key():
    result = start_django(DEBUG="false", SECRET_KEY="une-cle-de-test-assez-longue")
    assert result.returncode == 0, result.stderr
