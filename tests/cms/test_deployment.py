"""A hardened deployment: login throttling, a Content-Security-Policy, HTTPS and file secrets."""

import os
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured

from cms.games.douze_coups import RULES
from cms.settings import envsecret

PROJECT = Path(__file__).resolve().parents[2]
LOGIN = "/admin/login/"
PASSWORD = "motdepasse-test"  # the personas' (tests/conftest.py)


def log_in(client, username, password, ip, **headers):
    return client.post(LOGIN, {"username": username, "password": password,
                               "next": "/admin/"}, REMOTE_ADDR=ip, **headers)


def fail_until_locked(client, username, ip, **headers):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, username, "pas-le-bon", ip, **headers)


# --- login throttling -----------------------------------------------------------------------


def test_a_right_password_logs_in(client, editor):
    response = log_in(client, editor.username, PASSWORD, "203.0.113.1")
    assert response.status_code == 302
    assert response["Location"] == "/admin/"


def test_after_too_many_wrong_passwords_even_the_right_one_is_refused(client, editor):
    fail_until_locked(client, editor.username, "203.0.113.1")

    response = log_in(client, editor.username, PASSWORD, "203.0.113.1")

    assert response.status_code == 429
    page = response.content.decode()
    assert "Trop de tentatives de connexion" in page
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"Réessayez dans {minutes}\u00a0minutes" in page
    assert 'href="/admin/login/"' in page  # the way back, in the admin's own page
    assert client.get("/admin/").status_code == 302  # still sent to the login page


def test_the_lockout_page_says_one_minute_in_the_singular(client, editor, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=40)
    fail_until_locked(client, editor.username, "203.0.113.1")

    page = log_in(client, editor.username, PASSWORD, "203.0.113.1").content.decode()

    assert "Réessayez dans 1\u00a0minute." in page


def test_a_wrong_password_below_the_limit_does_not_lock(client, editor):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, editor.username, "pas-le-bon", "203.0.113.1")

    assert log_in(client, editor.username, PASSWORD, "203.0.113.1").status_code == 302


def test_another_ip_is_not_locked(client, editor):
    fail_until_locked(client, editor.username, "203.0.113.1")

    assert log_in(client, editor.username, PASSWORD, "203.0.113.2").status_code == 302


def test_the_lock_is_lifted_after_the_cool_off(client, editor, settings):
    fail_until_locked(client, editor.username, "203.0.113.1")
    settings.AXES_COOLOFF_TIME = timedelta(0)

    assert log_in(client, editor.username, PASSWORD, "203.0.113.1").status_code == 302


def test_a_forged_forwarded_for_header_does_not_dodge_the_lock_by_default(client, editor):
    fail_until_locked(client, editor.username, "203.0.113.1")

    response = log_in(client, editor.username, PASSWORD, "203.0.113.1",
                      HTTP_X_FORWARDED_FOR="198.51.100.7")

    assert response.status_code == 429


def test_behind_a_proxy_clients_are_told_apart_by_the_header_it_sets(client, editor, settings):
    settings.PLATEAU_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    fail_until_locked(client, editor.username, proxy, HTTP_X_FORWARDED_FOR="198.51.100.7")

    locked = log_in(client, editor.username, PASSWORD, proxy,
                    HTTP_X_FORWARDED_FOR="198.51.100.7")
    other = log_in(client, editor.username, PASSWORD, proxy, HTTP_X_FORWARDED_FOR="198.51.100.8")

    assert locked.status_code == 429
    assert other.status_code == 302


def test_behind_a_proxy_what_the_client_wrote_in_the_header_is_not_read(client, editor,
                                                                         settings):
    # The proxy appends the address it sees; whatever the attacker wrote stays on the left.
    settings.PLATEAU_PROXY_COUNT = 1
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, editor.username, "pas-le-bon", "10.0.0.1",
               HTTP_X_FORWARDED_FOR=f"6.6.6.{n}, 198.51.100.7")

    response = log_in(client, editor.username, PASSWORD, "10.0.0.1",
                      HTTP_X_FORWARDED_FOR="6.6.6.99, 198.51.100.7")

    assert response.status_code == 429


def test_behind_two_proxies_the_client_is_the_second_entry_from_the_right(client, editor,
                                                                          settings):
    settings.PLATEAU_PROXY_COUNT = 2
    fail_until_locked(client, editor.username, "10.0.0.2",
                      HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7, 10.0.0.1")

    locked = log_in(client, editor.username, PASSWORD, "10.0.0.2",
                    HTTP_X_FORWARDED_FOR="198.51.100.7, 10.0.0.1")
    other = log_in(client, editor.username, PASSWORD, "10.0.0.2",
                   HTTP_X_FORWARDED_FOR="198.51.100.8, 10.0.0.1")

    assert (locked.status_code, other.status_code) == (429, 302)


def test_a_request_that_skipped_the_proxies_is_counted_by_its_own_address(client, editor,
                                                                          settings):
    settings.PLATEAU_PROXY_COUNT = 2
    fail_until_locked(client, editor.username, "203.0.113.1",
                      HTTP_X_FORWARDED_FOR="198.51.100.7")  # one entry: not through two proxies

    assert log_in(client, editor.username, PASSWORD, "203.0.113.1",
                  HTTP_X_FORWARDED_FOR="198.51.100.9").status_code == 429
    assert log_in(client, editor.username, PASSWORD, "203.0.113.2",
                  HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 302


# --- Content-Security-Policy ----------------------------------------------------------------


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";")]
    return {name: values for name, *values in directives}


@pytest.mark.parametrize("url", ["/", LOGIN, "/jouer/douze-coups/"])
def test_every_page_carries_the_content_security_policy(client, db, url):
    response = client.get(url)

    assert response.status_code == 200
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-inline'" not in directives["style-src"]


def test_the_admin_pages_of_a_logged_in_editor_carry_the_policy_too(editor_client):
    assert "Content-Security-Policy" in editor_client.get("/admin/")


def test_the_stylesheet_knows_every_duel_colour_of_the_palette():
    # The duel's colour is a data attribute styled by the stylesheet: no style attribute.
    stylesheet = Path(finders.find("player/douze-coups.css")).read_text()
    for name, colour in RULES.duel_colours.items():
        assert f'[data-duel="{name}"] {{ --duel: {colour}; }}' in stylesheet


# --- secrets from files ---------------------------------------------------------------------


def test_a_secret_is_read_from_the_file_its_file_variable_names(monkeypatch, tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("  une-cle-lue-dans-un-fichier\n")
    monkeypatch.delenv("PLATEAU_SECRET", raising=False)
    monkeypatch.setenv("PLATEAU_SECRET_FILE", str(path))

    assert envsecret("PLATEAU_SECRET") == "une-cle-lue-dans-un-fichier"


def test_a_secret_set_both_ways_is_refused(monkeypatch, tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("une-cle")
    monkeypatch.setenv("PLATEAU_SECRET", "une-autre")
    monkeypatch.setenv("PLATEAU_SECRET_FILE", str(path))

    with pytest.raises(ImproperlyConfigured, match="PLATEAU_SECRET or PLATEAU_SECRET_FILE"):
        envsecret("PLATEAU_SECRET")


@pytest.mark.parametrize("content", [None, "  \n"])
def test_a_secret_file_missing_or_empty_is_refused(monkeypatch, tmp_path, content):
    path = tmp_path / "secret_key"
    if content is not None:
        path.write_text(content)
    monkeypatch.delenv("PLATEAU_SECRET", raising=False)
    monkeypatch.setenv("PLATEAU_SECRET_FILE", str(path))

    with pytest.raises(ImproperlyConfigured, match="PLATEAU_SECRET_FILE"):
        envsecret("PLATEAU_SECRET")


def test_a_secret_without_either_variable_is_empty(monkeypatch):
    monkeypatch.delenv("PLATEAU_SECRET", raising=False)
    monkeypatch.delenv("PLATEAU_SECRET_FILE", raising=False)

    assert envsecret("PLATEAU_SECRET") == ""


# --- production settings, in a fresh interpreter -------------------------------------------


def manage(tmp_path, *args, **environ) -> subprocess.CompletedProcess:
    """Run manage.py with a production environment, plus these variables (None: unset)."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("SECURE_", "SECRET_KEY", "DATABASE_URL", "AXES_"))}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50),
               ALLOWED_HOSTS="plateau.example", PLATEAU_VAR_DIR=str(tmp_path))
    for name, value in environ.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_deployment_check_is_clean_in_production(tmp_path):
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING",
                    SECURE_HSTS_INCLUDE_SUBDOMAINS="true", SECURE_HSTS_PRELOAD="true",
                    SECURE_SSL_REDIRECT="true")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def production_setting(tmp_path, expression, **environ) -> str:
    result = manage(tmp_path, "shell", "--no-imports", "-c",
                    f"from django.conf import settings; print(repr(({expression})))", **environ)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_sends_hsts_for_a_year_and_leaves_the_rest_opt_in(tmp_path):
    assert production_setting(
        tmp_path, "settings.SECURE_HSTS_SECONDS, settings.SECURE_SSL_REDIRECT, "
                  "settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD"
    ) == "(31536000, False, False, False)"


def test_development_sends_no_hsts(tmp_path):
    assert production_setting(tmp_path, "settings.SECURE_HSTS_SECONDS", DEBUG="true") == "0"


def test_a_proxy_ssl_header_is_read_as_forwarded_https(tmp_path):
    value = production_setting(tmp_path, "settings.SECURE_PROXY_SSL_HEADER",
                               SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO")

    assert value == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_a_proxy_ssl_header_that_is_not_a_request_header_is_refused(tmp_path):
    result = manage(tmp_path, "check", SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")

    assert result.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER" in result.stderr


@pytest.mark.parametrize(("name", "value"), [("AXES_FAILURE_LIMIT", "0"),
                                           ("AXES_COOLOFF_MINUTES", "0"),
                                           ("AXES_PROXY_COUNT", "-1"),
                                           ("AXES_IP_HEADER", "X-Forwarded-For"),
                                           ("AXES_IP_HEADERS", "HTTP_X_FORWARDED_FOR")])
def test_an_impossible_login_throttle_stops_the_start(tmp_path, name, value):
    result = manage(tmp_path, "check", **{name: value})

    assert result.returncode != 0
    assert name in result.stderr


def test_the_secret_key_and_database_url_are_read_from_files(tmp_path):
    (tmp_path / "key").write_text("k" * 20 + secrets.token_urlsafe(40) + "\n")
    (tmp_path / "url").write_text(f"sqlite:///{tmp_path / 'from-file.sqlite3'}\n")

    value = production_setting(
        tmp_path, "settings.SECRET_KEY.startswith('k' * 20), settings.DATABASES['default']['NAME']",
        SECRET_KEY=None, SECRET_KEY_FILE=str(tmp_path / "key"),
        DATABASE_URL_FILE=str(tmp_path / "url"))

    assert value == f"(True, PosixPath('{tmp_path / 'from-file.sqlite3'}'))"


def test_a_secret_key_set_both_ways_stops_the_start(tmp_path):
    (tmp_path / "key").write_text(secrets.token_urlsafe(50))

    result = manage(tmp_path, "check", SECRET_KEY_FILE=str(tmp_path / "key"))

    assert result.returncode != 0
    assert "SECRET_KEY or SECRET_KEY_FILE" in result.stderr
