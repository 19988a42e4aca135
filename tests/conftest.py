"""Personas shared by every test: an editor, a reviewer, a reader and an anonymous visitor."""

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.test import Client, RequestFactory
from django.utils import translation


def pytest_configure(config):
    config.addinivalue_line("markers", "renders: writes PNG renders of printed pages to "
                            "var/renders for a person to look at; run by make renders only")


def pytest_addoption(parser):
    parser.addoption("--renders", action="store_true",
                     help="Write the PNG renders of printed pages to var/renders (make renders).")


def pytest_collection_modifyitems(config, items):
    # Renders are for a person to look at, not checks: they run only when asked for.
    if config.getoption("--renders"):
        return
    renders = [item for item in items if item.get_closest_marker("renders")]
    if renders:
        config.hook.pytest_deselected(items=renders)
        items[:] = [item for item in items if not item.get_closest_marker("renders")]


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


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher costs half a second a password; how passwords are hashed is not tested.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    # A request in English leaves English active in this thread: the next test would read
    # English where the site speaks French.
    yield
    translation.activate(django_settings.LANGUAGE_CODE)
