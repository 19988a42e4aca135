"""An editor imports a spreadsheet of ladder questions: a bad row first, then the fixed file."""

import pytest
from playwright.sync_api import expect

from cms.models import Question, Status
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

HEADER = "ref;genre;texte;difficulte;palier;proposition_1;proposition_2;proposition_3;" \
         "proposition_4;bonnes;statut"
ROWS = [
    "imp-1;echelle;Quel est le plus long fleuve de France ?;1;1;La Loire;La Seine;Le Rhône;"
    "La Garonne;1;relecture",
    "imp-2;echelle;Combien de côtés a un hexagone ?;{difficulty};2;Cinq;Six;Sept;Huit;2;"
    "relecture",
    "imp-3;echelle;=HYPERLINK(\"http://exemple.invalid\") ?;1;3;Un;Deux;Trois;Quatre;1;"
    "brouillon",
]


def write_csv(tmp_path, difficulty):
    path = tmp_path / "questions.csv"
    lines = [HEADER, *(row.format(difficulty=difficulty) for row in ROWS)]
    # Saved by a French spreadsheet: Windows-1252 and semicolons.
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))
    return path


def upload(page, live_server, path):
    page.goto(f"{live_server.url}/admin/cms/question/import/")
    page.set_input_files("#id_import_file", str(path))
    page.select_option("#id_format", label="csv")
    page.click("input[type=submit]")


def test_an_editor_imports_a_spreadsheet_only_once_every_row_is_right(
    page, live_server, editor, tmp_path
):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/")
    page.get_by_role("link", name="Importer", exact=True).click()

    upload(page, live_server, write_csv(tmp_path, "facile"))
    errors = page.locator(".plateau-import-errors")
    expect(errors).to_contain_text("Ligne 3, colonne « difficulte »")
    expect(errors).to_contain_text("« facile » n’est pas un nombre")
    page.screenshot(path=screenshot_path("import-refused"), full_page=True)
    assert not Question.objects.exists()

    upload(page, live_server, write_csv(tmp_path, "1"))
    expect(page.locator(".plateau-import-summary")).to_contain_text(
        "3 nouvelle(s) ligne(s), 0 modifiée(s), 0 inchangée(s)")
    page.screenshot(path=screenshot_path("import-preview"), full_page=True)
    assert not Question.objects.exists()

    page.get_by_role("button", name="Confirmer l’importation").click()
    expect(page.locator(".messagelist")).to_contain_text("3 ajouté(s)")
    assert Question.objects.filter(status=Status.REVIEW).count() == 2
    # Stored with French typography; the address inside stays as typed.
    assert Question.objects.get(ref="imp-3").text == (
        "=HYPERLINK(«\u202fhttp://exemple.invalid\u202f»)\u202f?")

    # The same file again changes nothing.
    upload(page, live_server, write_csv(tmp_path, "1"))
    expect(page.locator(".plateau-import-summary")).to_contain_text(
        "0 nouvelle(s) ligne(s), 0 modifiée(s), 3 inchangée(s)")
