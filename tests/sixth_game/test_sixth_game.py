"""A sixth game, added from its modules alone, is validated, printed, listed and played.

`tree/` holds a toy game written along CONTRIBUTING.md: its rules module for cms/games,
its products package for printing/products, its engine for player/engines, its board
template and its demo fixtures. The test copies the project without the five games'
fixtures, drops the toy's files in, and drives the copy through its own commands, as a
contributor would: no list, registry or generic module is edited, and the one migration
is the one `makemigrations` writes (the database's check of known kinds).
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from django.conf import settings

TREE = Path(__file__).parent / "tree"
SKIPPED = shutil.ignore_patterns(".venv", "var", ".git", "__pycache__", "*.pyc", "tests",
                                 "fixtures", "bench", ".ci", "*.egg-info", "node_modules",
                                 ".ruff_cache", ".mypy_cache", ".pytest_cache")


def manage(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    # The copy's own settings, SQLite file and folders: nothing from this run's environment.
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DATABASE_", "REDIS_", "PLATEAU_", "DJANGO_"))}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=root, env=env, text=True,
                          capture_output=True, input=stdin, timeout=300)


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sixth") / "plateau"
    shutil.copytree(settings.BASE_DIR, root, ignore=SKIPPED)
    shutil.copytree(TREE, root, dirs_exist_ok=True)
    # The copy's bytecode, written once: each command below is a process of its own, which
    # would compile the whole project again where PYTHONDONTWRITEBYTECODE is set.
    assert compileall.compile_dir(root, quiet=1)
    # The one generated step: the database's check of known kinds learns the new ones.
    ok(manage(root, "makemigrations", "cms", "--name", "quiz_express_kinds"))
    ok(manage(root, "migrate", "--noinput"))
    loaded = ok(manage(root, "load_demo"))  # its fixtures, through the importers
    assert "Démo quiz-express, questions" in loaded and "8" in loaded
    return root


def test_the_toy_game_is_only_new_files(project):
    # Every file the toy brings is new: it edits nothing the project already has.
    added = [path.relative_to(TREE) for path in TREE.rglob("*") if path.is_file()]
    assert added
    for relative in added:
        assert not (settings.BASE_DIR / relative).exists(), relative
        assert (project / relative).exists()


def test_a_new_game_s_migration_only_teaches_the_database_its_kinds(project):
    generated = next((project / "cms" / "migrations").glob("*_quiz_express_kinds.py"))
    text = generated.read_text()
    assert text.count("migrations.RemoveConstraint(") == 1
    assert text.count("migrations.AddConstraint(") == 1
    assert "question_kind_known" in text and "'express'" in text
    assert "AlterField" not in text  # choices are read from the registry, not frozen
    ok(manage(project, "makemigrations", "--check", "--dry-run"))


def test_its_content_validates_with_every_rule(project):
    out = ok(manage(project, "validate_content", "--game", "quiz-express"))
    assert "Quiz express — 0 erreur(s)" in out

    # Printing's fit rule applies to the new kind: a question too long for its card.
    too_long = {"ref": "express-long", "genre": "express", "texte": "Pourquoi ? " * 200,
                "difficulte": 2, "proposition_1": "Oui", "proposition_2": "Non",
                "proposition_3": "Peut-être", "bonnes": "1", "statut": "brouillon"}
    sheet = project / "long.json"
    sheet.write_text(json.dumps([too_long], ensure_ascii=False))
    refused = manage(project, "import", "questions", str(sheet), "--no-input")
    assert refused.returncode == 1
    assert "Ligne 1" in refused.stderr + refused.stdout
    assert "Ne tient pas sur la carte (Cartes express, question)" in refused.stderr
    assert "Quiz express — 0 erreur(s)" in ok(
        manage(project, "validate_content", "--game", "quiz-express"))


def test_it_prints(project):
    listing = ok(manage(project, "printpdf", "--list"))
    assert "quiz-express — Quiz express" in listing
    assert "cartes" in listing.split("quiz-express")[1]
    pdf_path = project / "express.pdf"
    ok(manage(project, "printpdf", "quiz-express", "cartes", "--out", str(pdf_path)))
    document = pdfium.PdfDocument(str(pdf_path))
    text = " ".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    assert "araignée" in text and "Huit" in text
    assert "Réponse B" in text  # the backs carry each card's answer


def test_it_is_listed_and_played_in_the_browser(project):
    script = textwrap.dedent('''
        import re
        from django.test.utils import setup_test_environment
        from django.test import Client
        setup_test_environment()
        client = Client()
        home = client.get("/").content.decode()
        assert "Quiz express" in home and "/jouer/quiz-express/" in home, home
        started = client.post("/jouer/quiz-express/", {"name-0": "Ada", "name-1": "Blaise"})
        assert started.status_code == 302, started.status_code
        page = client.get(started.url).content.decode()
        version = re.search(r'name="version" value="(\\d+)"', page).group(1)
        # Before the answer, the page does not say which proposition is right.
        assert "right" not in re.search(r'<form.*?</form>', page, re.S).group(0)
        played = client.post(started.url + "action/", {"version": version, "type": "choose",
                                                      "choice": "0"})
        assert played.status_code in (200, 302), played.status_code
        after = client.get(started.url).content.decode()
        assert "Question suivante" in after, after
        # The play page links the game's own stylesheet, which the game ships.
        from django.contrib.staticfiles import finders
        assert "player/quiz-express.css" in after and finders.find("player/quiz-express.css")
        print("PLAYED")
    ''')
    out = ok(manage(project, "shell", stdin=script))
    assert "PLAYED" in out
