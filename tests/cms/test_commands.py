"""The management commands: validate_content, load_demo, demo_accounts and import."""

import io
import json
import os
import stat
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError
from reversion.models import Revision

from cms.models import Card, CardQuestion, Proposition, Question, Status
from cms.rules import validate_all
from tests.builders import make_card, make_question


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def disordered_card():
    """Return a coup de maître card whose question 4 is easier than question 3."""
    return make_card("coup-de-maitre", difficulties=[1, 2, 4, 3, 5])


# --- validate_content -----------------------------------------------------------------------


def test_validate_content_returns_normally_on_valid_content(db):
    make_card("coup-de-maitre", status=Status.PUBLISHED)
    make_question("echelle", status=Status.PUBLISHED)

    output = run("validate_content")

    assert "[difficulty_order]" not in output


def test_validate_content_exits_1_and_names_the_problem_when_difficulty_goes_down(db):
    card = disordered_card()
    out = StringIO()

    with pytest.raises(CommandError) as error:
        call_command("validate_content", stdout=out)

    assert error.value.returncode == 1
    assert "[difficulty_order]" in out.getvalue()
    assert card.ref in out.getvalue()


def test_validate_content_only_checks_the_game_asked_for(db):
    disordered_card()

    output = run("validate_content", "--game", "millionnaire")

    assert "[difficulty_order]" not in output
    with pytest.raises(CommandError):
        run("validate_content", "--game", "douze-coups")


def test_validate_content_refuses_an_unknown_game(db):
    with pytest.raises(CommandError):
        run("validate_content", "--game", "the-mind")


def test_validate_content_exits_1_as_a_real_process(process_env):
    def manage(*args):
        return subprocess.run([sys.executable, "manage.py", *args], cwd=django_settings.BASE_DIR,
                              env=process_env, capture_output=True, text=True, timeout=120)

    built = manage("shell", "-c", "from tests.builders import make_card; "
                   "print(make_card('coup-de-maitre', difficulties=[1, 2, 4, 3, 5]).ref)")
    assert built.returncode == 0, built.stderr
    ref = built.stdout.strip().splitlines()[-1]

    result = manage("validate_content")

    assert result.returncode == 1
    assert "[difficulty_order]" in result.stdout
    assert ref in result.stdout
    assert "CommandError" in result.stderr


# --- load_demo ------------------------------------------------------------------------------


def snapshot() -> dict:
    return {
        "questions": dict(Question.objects.values_list("pk", "updated_at")),
        "cards": dict(Card.objects.values_list("pk", "updated_at")),
        "propositions": sorted(Proposition.objects.values_list("pk", "question", "text")),
        "slots": sorted(CardQuestion.objects.values_list("pk", "card", "question", "position")),
        "revisions": Revision.objects.count(),
    }


def test_load_demo_loads_published_content(db):
    # The one test here that runs the first load for real: the others start from the rows
    # it writes, laid down again (tests/demo.py), and run the command on top of them.
    run("load_demo")

    assert Question.objects.exists()
    assert Card.objects.exists()
    assert set(Question.objects.values_list("status", flat=True)) == {Status.PUBLISHED}
    assert set(Card.objects.values_list("status", flat=True)) == {Status.PUBLISHED}


def test_load_demo_twice_changes_nothing_the_second_time(demo_library):
    first = snapshot()

    run("load_demo")

    assert snapshot() == first


def test_load_demo_leaves_what_editors_changed_alone(demo_library):
    card = Card.objects.get(ref="dc-maitre-01")
    card.title = "Titre choisi par une rédactrice"
    card.save()
    question = Question.objects.filter(kind="echelle").first()
    question.status = Status.DRAFT
    question.propositions.first().delete()  # a draft with an error, work in progress
    question.save()

    run("load_demo")

    card.refresh_from_db()
    question.refresh_from_db()
    assert card.title == "Titre choisi par une rédactrice"
    assert (question.status, question.propositions.count()) == (Status.DRAFT, 3)


def test_load_demo_update_brings_content_back_to_the_files(demo_library):
    Card.objects.filter(ref="dc-maitre-01").update(title="Autre titre")

    run("load_demo", "--update")

    assert Card.objects.get(ref="dc-maitre-01").title != "Autre titre"


def test_the_demo_content_has_no_errors(demo_library):
    run("validate_content")  # returns normally: no CommandError, so no error

    assert all(report.errors == [] for report in validate_all())


# --- demo_accounts --------------------------------------------------------------------------


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    return settings.VAR_DIR


def stored_passwords(var_dir) -> dict:
    return json.loads((var_dir / "demo-accounts.json").read_text())


def test_demo_accounts_keeps_the_same_passwords_when_run_twice(db, var_dir):
    run("demo_accounts")
    first = stored_passwords(var_dir)
    hashes = dict(User.objects.values_list("username", "password"))

    run("demo_accounts")

    assert stored_passwords(var_dir) == first
    assert dict(User.objects.values_list("username", "password")) == hashes
    assert set(first) == {"redacteur", "relecteur", "lecteur", "admin"}


def test_demo_accounts_keeps_the_passwords_file_private(db, var_dir):
    path = var_dir / "demo-accounts.json"
    run("demo_accounts")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.chmod(path, 0o644)

    run("demo_accounts")

    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(("username", "group"), [
    ("redacteur", "Rédacteur"), ("relecteur", "Relecteur"), ("lecteur", "Lecteur"),
])
def test_each_demo_account_is_in_its_group(db, var_dir, username, group):
    run("demo_accounts")
    run("demo_accounts")

    user = User.objects.get(username=username)
    assert list(user.groups.values_list("name", flat=True)) == [group]
    assert user.is_staff
    assert not user.is_superuser


def test_the_demo_admin_is_a_superuser(db, var_dir):
    run("demo_accounts")

    admin = User.objects.get(username="admin")
    assert admin.is_superuser
    assert admin.is_staff


@pytest.mark.parametrize("username", ["redacteur", "relecteur", "lecteur", "admin"])
def test_each_demo_account_can_log_in_with_its_stored_password(client, db, var_dir, username):
    run("demo_accounts")
    run("demo_accounts")
    password = stored_passwords(var_dir)[username]

    assert client.login(username=username, password=password)
    assert client.get("/admin/").status_code == 200


# --- import -----------------------------------------------------------------------------------

LADDER_CSV = ("ref;genre;texte;difficulte;palier;proposition_1;proposition_2;proposition_3;"
              "proposition_4;bonnes;statut\r\n"
              "palier-1;echelle;Quelle est la capitale de la France ?;1;1;Paris;Lyon;Lille;"
              "Nice;1;draft\r\n").encode()


@pytest.fixture
def stdin(monkeypatch):
    """Put these bytes on the command's standard input."""
    def put(data: bytes):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    return put


@pytest.fixture(autouse=True)
def _held_uploads_in_tmp(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"


def test_import_reads_a_file_from_standard_input_with_a_format(db, stdin):
    stdin(LADDER_CSV)

    output = run("import", "questions", "-", "--format", "csv", "--no-input")

    assert "1 ajouté(s)" in output
    assert Question.objects.filter(ref="palier-1").exists()


def test_import_from_standard_input_asks_for_the_format(db, stdin):
    stdin(LADDER_CSV)

    with pytest.raises(CommandError, match="Lire l’entrée standard demande --format"):
        run("import", "questions", "-", "--no-input")


def test_import_from_standard_input_cannot_also_ask_for_confirmation(db, stdin):
    stdin(LADDER_CSV)

    with pytest.raises(CommandError, match="ajoutez --no-input"):
        run("import", "questions", "-", "--format", "csv")
    assert not Question.objects.exists()


@pytest.mark.parametrize("name", ["tsv", "html", "yaml", "ods", "TSV"])
def test_import_offers_only_our_formats(db, tmp_path, name):
    path = tmp_path / "lot.tsv"
    path.write_bytes(b"ref\tgenre\r\nx\techelle\r\n")

    with pytest.raises(CommandError, match="invalid choice"):
        run("import", "questions", str(path), "--no-input", "--format", name)
    with pytest.raises(CommandError, match=f"Format « {name} » inconnu"):
        call_command("import", "questions", str(path), format=name, interactive=False)


def test_import_help_lists_our_formats_and_not_the_library_s():
    parser = load_command_class("cms", "import").create_parser("manage.py", "import")
    text = " ".join(parser.format_help().split())

    assert "DEFAULT_FORMATS" not in text
    assert "{csv,xlsx,json,zip,opentdb,openquizzdb}" in text
    assert "entrée standard" in text


def test_import_names_the_format_when_a_reader_fails_unexpectedly(db, tmp_path, monkeypatch):
    path = tmp_path / "lot.csv"
    path.write_bytes(LADDER_CSV)
    monkeypatch.setattr("cms.formats.CSVFormat.create_dataset",
                        lambda self, data: {}["colonne"])

    with pytest.raises(CommandError) as error:
        run("import", "questions", str(path), "--no-input")

    assert str(error.value) == (
        f"{path} : Lecture impossible au format csv : le fichier semble endommagé "
        "(erreur KeyError, notée pour les développeurs).")


def test_import_shows_the_reader_s_traceback_only_when_asked(db, tmp_path, monkeypatch):
    path = tmp_path / "lot.csv"
    path.write_bytes(LADDER_CSV)
    monkeypatch.setattr("cms.formats.CSVFormat.create_dataset",
                        lambda self, data: {}["colonne"])

    with pytest.raises(KeyError):
        run("import", "questions", str(path), "--no-input", "--traceback")


def test_import_says_in_french_that_a_file_is_missing(db, tmp_path):
    with pytest.raises(CommandError) as error:
        run("import", "questions", str(tmp_path / "absent.csv"), "--no-input")

    absent = tmp_path / "absent.csv"
    assert str(error.value) == f"Lecture impossible de {absent} : fichier introuvable."


def test_import_stops_with_a_message_when_the_hold_folder_is_open_to_others(db, settings,
                                                                            tmp_path):
    path = tmp_path / "lot.csv"
    path.write_bytes(LADDER_CSV)
    folder = settings.VAR_DIR / "import-hold"
    folder.mkdir(parents=True)
    folder.chmod(0o755)

    with pytest.raises(CommandError, match="open to other users"):
        run("import", "questions", str(path), "--no-input")
