"""The UI speaks French by default and English on request, from an up-to-date catalogue."""

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

LOCALE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES"


def catalogue(path: Path) -> dict[str, list[str]]:
    """Read a .po file into {msgid: [msgstr, ...]}; a fuzzy entry counts as untranslated."""
    entries: dict[str, list[str]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.splitlines()
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith("#"):
                continue
            if line.startswith('"'):
                fields[key] += _quoted(line)
                continue
            key, _space, rest = line.partition(" ")
            fields[key] = _quoted(rest)
        if fields.get("msgid"):
            strings = [value for name, value in fields.items() if name.startswith("msgstr")]
            # A fuzzy entry is a guess: count it as untranslated.
            entries[fields["msgid"]] = [""] if fuzzy else strings
    return entries


def _quoted(text: str) -> str:
    return text.strip()[1:-1]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_ui_string_has_an_english_translation(domain):
    entries = catalogue(LOCALE / f"{domain}.po")

    assert entries
    assert [msgid for msgid, strings in entries.items() if not all(strings)] == []


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_compiled_catalogue_matches_its_source(domain, tmp_path):
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(LOCALE / f"{domain}.po")],
                   check=True)

    def messages(path):
        with path.open("rb") as handle:
            return gettext.GNUTranslations(handle)._catalog

    assert messages(compiled) == messages(LOCALE / f"{domain}.mo")


def test_the_catalogue_holds_every_string_marked_in_the_code(tmp_path):
    # Extract afresh from a copy of the code, and compare the message ids.
    root = Path(settings.BASE_DIR)
    for part in ("cms", "printing", "player", "templates", "locale"):
        shutil.copytree(root / part, tmp_path / part)
    shutil.copy(root / "manage.py", tmp_path / "manage.py")
    for domain in ("django", "djangojs"):
        subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "en", "-d", domain,
                        "--no-obsolete"], cwd=tmp_path, check=True, capture_output=True)
        fresh = catalogue(tmp_path / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po")
        assert set(fresh) == set(catalogue(LOCALE / f"{domain}.po")), domain


def test_the_admin_speaks_french_whatever_the_browser_asks(reviewer_client):
    response = reviewer_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="en-US,en")

    assert response["Content-Language"] == "fr"
    assert "Règles et composants" in response.content.decode()


def test_the_admin_speaks_english_once_chosen(reviewer_client):
    reviewer_client.post(reverse("set_language"), {"language": "en", "next": "/admin/"})

    response = reviewer_client.get(reverse("admin:index"))

    assert response["Content-Language"] == "en"
    page = response.content.decode()
    assert "Rules and components" in page
    assert "Règles et composants" not in page


# French typography: U+00A0 before « : », U+202F before ; ! ? and inside guillemets. A plain
# space there breaks a lone « ? » or « » » onto the next line in every page and message.
PLAIN_SPACE_BEFORE = re.compile(r" [:;!?»]|« ")
# And the right one of the two: the wide one before a colon, the narrow one elsewhere.
WRONG_SPACE_BEFORE = re.compile("\u202f:|\u00a0[;!?»]|«\u00a0")


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_french_ui_string_has_french_spacing(domain):
    entries = catalogue(LOCALE / f"{domain}.po")
    msgids = list(entries)

    assert [m for m in msgids if PLAIN_SPACE_BEFORE.search(m)] == []
    assert [m for m in msgids if WRONG_SPACE_BEFORE.search(m)] == []
    assert any("\u00a0:" in m for m in msgids) or domain == "djangojs"
