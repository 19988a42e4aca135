"""Bulk import and export as a new user meets them: real files in, clear refusals out.

Files are built in each test (CSV text, openpyxl workbooks, ZIP archives, Pillow images) and
go through the formats of cms.formats, the resources of cms.resources and the `import` and
`export` management commands, as the admin's import page and the command line use them.
"""

import csv
import io
import json
import random
import re
import sys
import zipfile

import openpyxl
import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl.styles import Font
from PIL import Image, PngImagePlugin

from cms.formats import (
    CSVFormat,
    ImportFileError,
    JSONFormat,
    OpenQuizzDBFormat,
    OpenTriviaDBFormat,
    XLSXFormat,
    ZIPFormat,
    neutralise,
)
from cms.models import Proposition, Question, Status
from cms.resources import QuestionImageResource, QuestionResource
from cms.typography import typeset
from tests.builders import make_question

ECHELLE_HEADERS = ["ref", "genre", "texte", "difficulte", "palier", "proposition_1",
                   "proposition_2", "proposition_3", "proposition_4", "bonnes"]
ETOILE_HEADERS = ["ref", "genre", "texte", "difficulte", "reponse", "image"]


# --- building files -----------------------------------------------------------------------


def echelle_row(n, *, texte=None, difficulte=1, palier=1, bonnes="1", genre="echelle"):
    """One valid « Question de l’échelle » row, unless told otherwise."""
    return [f"q-{n:03d}", genre, texte or f"Question n°{n} : quel nombre suit {n * 7919} ?",
            difficulte, palier, f"Réponse A{n}", f"Réponse B{n}", f"Réponse C{n}",
            f"Réponse D{n}", bonnes]


def csv_text(headers, rows, delimiter=";") -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue()


def csv_bytes(headers, rows, *, delimiter=";", encoding="utf-8") -> bytes:
    return csv_text(headers, rows, delimiter).encode(encoding)


def workbook(rows, *, at=None) -> openpyxl.Workbook:
    """A workbook whose first sheet holds `rows` from line 1; `at` places rows by number."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    for line, row in (at or {}).items():
        for column, value in enumerate(row, start=1):
            sheet.cell(row=line, column=column, value=value)
    return book


def xlsx_bytes(book) -> bytes:
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def zip_bytes(members: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return out.getvalue()


def png_bytes(size=(12, 8), colour=(200, 30, 30), *, text=None, trailer=b"") -> bytes:
    out = io.BytesIO()
    info = None
    if text:
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", text)
    Image.new("RGB", size, colour).save(out, "PNG", pnginfo=info)
    return out.getvalue() + trailer


def jpeg_bytes(size=(12, 8), *, description=None, comment=None, trailer=b"") -> bytes:
    out = io.BytesIO()
    options = {}
    if description:
        exif = Image.Exif()
        exif[0x010E] = description  # ImageDescription
        options["exif"] = exif
    if comment:
        options["comment"] = comment
    Image.new("RGB", size, (30, 120, 200)).save(out, "JPEG", **options)
    return out.getvalue() + trailer


def webp_bytes(size=(12, 8), *, description=None, trailer=b"") -> bytes:
    out = io.BytesIO()
    options = {}
    if description:
        exif = Image.Exif()
        exif[0x010E] = description
        options["exif"] = exif
    Image.new("RGB", size, (30, 200, 60)).save(out, "WEBP", **options)
    return out.getvalue() + trailer


def etoile_row(n, image, *, reponse=None):
    return [f"e-{n:03d}", "etoile-mysterieuse", f"Qui se cache derrière l’étoile n°{n} ?", 3,
            reponse or f"Personnage {n}", image]


def etoile_bundle(images: dict, rows=None, sheet_name="etoiles.csv", extra=None) -> bytes:
    """A ZIP holding a sheet of étoiles mystérieuses and the image files it names."""
    if rows is None:
        rows = [etoile_row(n, name) for n, name in enumerate(images, start=2)]
    members = {sheet_name: csv_bytes(ETOILE_HEADERS, rows)}
    members.update(images)
    members.update(extra or {})
    return zip_bytes(members)


# --- running imports ----------------------------------------------------------------------


def run_import(file_format, data: bytes, resource_class=QuestionResource, **kwargs):
    dataset = file_format.create_dataset(data)
    return resource_class(**kwargs).import_data(dataset)


def row_errors(result) -> dict[int, dict[str, list[str]]]:
    """Return the messages of an import by file line, then by column ("__all__": the row)."""
    found: dict[int, dict[str, list[str]]] = {}
    for row in result.invalid_rows:
        errors = found.setdefault(row.number, {})
        for column, messages in row.field_specific_errors.items():
            errors.setdefault(column, []).extend(str(m) for m in messages)
        if row.non_field_specific_errors:
            errors.setdefault("__all__", []).extend(
                str(m) for m in row.non_field_specific_errors)
    return found


def base_errors(result) -> list[str]:
    return [str(error.error) for error in result.base_errors]


def refusal(file_format, data: bytes) -> str:
    with pytest.raises(ImportFileError) as error:
        file_format.create_dataset(data)
    return str(error.value)


def stored_images() -> list[str]:
    """The image files in the media folder's questions/ (none before a test stores one)."""
    if not default_storage.exists("questions"):
        return []
    return default_storage.listdir("questions")[1]


def nothing_written():
    return Question.objects.count() == 0 and Proposition.objects.count() == 0


def run_import_command(tmp_path, name: str, data: bytes, *args):
    """Run `manage.py import` on a file; return (stdout, stderr) or raise CommandError."""
    path = tmp_path / name
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    call_command("import", *args, str(path), "--no-input", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def failed_import_command(tmp_path, name: str, data: bytes, *args):
    """Run `manage.py import` expecting a refusal; return (the CommandError, stderr)."""
    path = tmp_path / name
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import", *args, str(path), "--no-input", stdout=out, stderr=err)
    return error.value, err.getvalue()


def run_export_command(monkeypatch, file_format: str, resource="questions") -> bytes:
    """Run `manage.py export` and return the bytes it wrote to standard output."""
    buffer = io.BytesIO()
    stdout = io.TextIOWrapper(buffer, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)
    call_command("export", file_format, resource, stdout=io.StringIO())
    stdout.flush()
    data = buffer.getvalue()
    monkeypatch.undo()
    return data


def texts_and_propositions() -> set[tuple]:
    return {(q.text, tuple(p.text for p in q.propositions.order_by("position")))
            for q in Question.objects.prefetch_related("propositions")}


# --- encodings ------------------------------------------------------------------------------

ACCENTED = "Qu’est-ce qu’un « cœur » d’été à Évreux ?"
# As it is stored: French typography (U+202F inside « » and before ?).
ACCENTED_STORED = "Qu’est-ce qu’un «\u202fcœur\u202f» d’été à Évreux\u202f?"


def test_it_reads_a_utf8_csv_without_bom_separated_by_commas(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, texte=ACCENTED)], delimiter=",")

    result = run_import(CSVFormat(), data)

    assert not result.has_errors() and not result.has_validation_errors()
    assert Question.objects.get(ref="q-001").text == ACCENTED_STORED


def test_it_reads_a_utf8_csv_with_bom_separated_by_semicolons(db):
    data = b"\xef\xbb\xbf" + csv_bytes(ECHELLE_HEADERS, [echelle_row(1, texte=ACCENTED)])

    result = run_import(CSVFormat(), data)

    assert result.totals["new"] == 1
    # The BOM does not stick to the first column's name: « ref » is still recognised.
    assert Question.objects.get(ref="q-001").text == ACCENTED_STORED


def test_it_reads_the_accents_of_a_windows_1252_csv_as_excel_saves_it(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, texte=ACCENTED)], encoding="cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the file really is Windows-1252

    result = run_import(CSVFormat(), data)

    assert result.totals["new"] == 1
    question = Question.objects.get(ref="q-001")
    assert question.text == ACCENTED_STORED
    assert "«" in question.text and "é" in question.text and "œ" in question.text
    assert "’" in question.text


def test_it_reads_a_windows_1252_csv_separated_by_commas(db):
    row = echelle_row(1, texte="Où se trouve l’œuvre « Guernica » ?")
    data = csv_bytes(ECHELLE_HEADERS, [row], delimiter=",", encoding="cp1252")

    run_import(CSVFormat(), data)

    assert Question.objects.get(ref="q-001").text == (
        "Où se trouve l’œuvre «\u202fGuernica\u202f»\u202f?")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_it_refuses_a_utf16_csv_and_names_the_encoding(encoding):
    data = csv_text(ECHELLE_HEADERS, [echelle_row(1)]).encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data  # as Excel's « Unicode text » writes it, with its BOM

    message = refusal(CSVFormat(), data)

    assert "UTF-16" in message
    assert "UTF-8" in message  # and says what to do instead


def test_it_says_in_french_that_a_csv_cell_is_too_long():
    data = b"ref;texte\r\nq-1;" + b"x" * 200_000 + b"\r\n"

    assert refusal(CSVFormat(), data) == (
        "Ligne 2 : une cellule est trop longue (plus de 131072 caractères, la limite). "
        "Souvent, un guillemet ouvert et jamais fermé avale la suite du fichier.")


def test_it_names_the_line_where_an_unclosed_csv_quote_opens():
    data = b'ref;texte\r\nq-1;ok\r\nq-2;"jamais ferm\xc3\xa9\r\nq-3;suite\r\n'

    assert refusal(CSVFormat(), data) == (
        "Ligne 3 : un guillemet ouvert n’est jamais fermé (la fin du fichier arrive avant).")


def test_it_explains_a_csv_quote_followed_by_text_in_french():
    data = b'ref;texte\r\nq-1;"Le "Cid" de Corneille"\r\n'

    assert refusal(CSVFormat(), data) == (
        "Ligne 2 : un guillemet fermant est suivi d’autre chose que le séparateur « ; ». "
        'Dans une cellule entre guillemets, doublez les guillemets ("").')


def random_bytes() -> bytes:
    return random.Random(317).randbytes(4096)


def pdf_bytes() -> bytes:
    return (b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
            b"trailer\n<< /Root 1 0 R >>\n%%EOF\n")


@pytest.mark.parametrize(("make", "named"), [
    (random_bytes, "pas du texte"),
    (png_bytes, "PNG"),
    (pdf_bytes, "PDF"),
])
def test_it_refuses_a_binary_file_named_csv_with_a_clear_message(make, named):
    message = refusal(CSVFormat(), make())

    assert "pas du texte" in message
    assert named in message


@pytest.mark.parametrize("make", [random_bytes, png_bytes, pdf_bytes])
def test_the_import_command_refuses_a_binary_csv_without_a_traceback(db, tmp_path, make):
    error, stderr = failed_import_command(tmp_path, "questions.csv", make(), "questions")

    assert "questions.csv" in str(error)
    assert "pas du texte" in str(error)
    assert "Traceback" not in stderr
    assert nothing_written()


def test_the_import_command_names_the_utf16_encoding(db, tmp_path):
    data = csv_text(ECHELLE_HEADERS, [echelle_row(1)]).encode("utf-16")

    error, _stderr = failed_import_command(tmp_path, "questions.csv", data, "questions")

    assert "UTF-16" in str(error)
    assert nothing_written()


# --- XLSX -----------------------------------------------------------------------------------


def test_it_imports_a_real_workbook(db):
    book = workbook([ECHELLE_HEADERS, echelle_row(1, texte=ACCENTED),
                     echelle_row(2, difficulte=2, palier=4)])

    result = run_import(XLSXFormat(), xlsx_bytes(book))

    assert result.totals["new"] == 2
    first, second = Question.objects.order_by("ref")
    assert first.text == ACCENTED_STORED
    assert (second.difficulty, second.step) == (2, 4)
    assert [p.is_right for p in first.propositions.order_by("position")] == [
        True, False, False, False]


def test_it_refuses_a_truncated_workbook(db):
    data = xlsx_bytes(workbook([ECHELLE_HEADERS, echelle_row(1)]))

    message = refusal(XLSXFormat(), data[: len(data) * 2 // 3])

    assert "tronqué" in message


def test_it_refuses_a_workbook_over_the_size_cap(settings):
    data = xlsx_bytes(workbook([ECHELLE_HEADERS, echelle_row(1)]))
    settings.PLATEAU_IMPORT_MAX_BYTES = len(data) - 1

    message = refusal(XLSXFormat(), data)

    assert "XLSX" in message
    assert "maximum" in message


def test_it_refuses_a_workbook_flooded_with_blank_formatted_rows(settings):
    settings.PLATEAU_IMPORT_MAX_ROWS = 50
    book = workbook([ECHELLE_HEADERS, echelle_row(1)])
    for line in range(3, 400):  # formatted but empty, as a sheet « formatted to the bottom »
        book.active.cell(row=line, column=1).font = Font(bold=True)

    message = refusal(XLSXFormat(), xlsx_bytes(book))

    assert "plus de 50 lignes" in message
    assert "lignes vides" in message


def test_blank_rows_in_the_middle_of_a_workbook_keep_the_file_line_numbers(db):
    book = workbook([ECHELLE_HEADERS, echelle_row(1)],
                    at={5: echelle_row(2, difficulte="facile")})  # lines 3 and 4 blank

    result = run_import(XLSXFormat(), xlsx_bytes(book))

    assert result.has_validation_errors()
    assert list(row_errors(result)) == [5]
    assert "difficulte" in row_errors(result)[5]
    assert nothing_written()


def test_blank_rows_in_the_middle_of_a_workbook_are_skipped_when_the_rows_are_good(db):
    book = workbook([ECHELLE_HEADERS, echelle_row(1)], at={5: echelle_row(2)})

    result = run_import(XLSXFormat(), xlsx_bytes(book))

    assert result.totals["new"] == 2
    assert Question.objects.count() == 2


def test_it_refuses_a_workbook_that_would_unpack_beyond_the_cap(settings):
    settings.PLATEAU_IMPORT_MAX_UNPACKED_BYTES = 1024 * 1024
    data = xlsx_bytes(workbook([ECHELLE_HEADERS, echelle_row(1)]))
    bomb = io.BytesIO(data)
    with zipfile.ZipFile(bomb, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/bombe.bin", b"\0" * (4 * 1024 * 1024))
    assert len(bomb.getvalue()) < 64 * 1024  # small on disk, huge once unpacked

    message = refusal(XLSXFormat(), bomb.getvalue())

    assert "décompressé" in message
    assert "maximum" in message


def test_it_refuses_a_zip_bundle_that_would_unpack_beyond_the_cap(settings):
    settings.PLATEAU_IMPORT_MAX_UNPACKED_BYTES = 1024 * 1024
    data = etoile_bundle({"images/a.png": png_bytes()},
                         extra={"images/bombe.png": b"\0" * (4 * 1024 * 1024)})

    message = refusal(ZIPFormat(), data)

    assert "décompressé" in message


# --- JSON -----------------------------------------------------------------------------------


@pytest.mark.parametrize("document", [
    {"texte": "Quelle est la capitale de la France ?", "genre": "echelle"},
    "Quelle est la capitale de la France ?",
])
def test_it_refuses_json_that_is_not_a_list(document):
    message = refusal(JSONFormat(), json.dumps(document).encode())

    assert "liste d’objets" in message


def test_it_refuses_invalid_json_and_names_the_line_and_column():
    data = b'[\n  {"texte": "a",}\n]\n'

    message = refusal(JSONFormat(), data)

    assert "ligne 2" in message
    assert "colonne 17" in message


@pytest.mark.parametrize(("data", "problem"), [
    (b'[{"texte": "a",}]', 'un nom de clé entre guillemets droits ("…") est attendu'),
    (b'[{"texte": "a" "b"}]', "une virgule est attendue"),
    (b'[{"texte": "a}]', "texte non terminé (guillemet manquant)"),
    (b'[{"texte": "a"}] []', "du contenu suit la fin du JSON"),
])
def test_it_names_a_json_syntax_error_in_french(data, problem):
    message = refusal(JSONFormat(), data)

    assert message.startswith("JSON invalide, ligne 1, colonne ")
    assert message.endswith(f" : {problem}.")


def test_it_refuses_a_json_number_of_5000_digits_in_french():
    data = b'[{"ref": "x", "genre": "echelle", "difficulte": ' + b"9" * 5000 + b"}]"

    assert refusal(JSONFormat(), data) == (
        "JSON : un nombre de 5000 chiffres ; aucune colonne n’en prend plus de 100.")


def test_the_import_command_refuses_a_json_number_of_5000_digits_without_a_traceback(
        db, tmp_path):
    data = b'[{"ref": "x", "genre": "echelle", "difficulte": ' + b"9" * 5000 + b"}]"

    error, _err = failed_import_command(tmp_path, "long.json", data, "questions")

    assert "un nombre de 5000 chiffres" in str(error)


@pytest.mark.parametrize("value", [{"fr": "Paris"}, ["Paris", "Lyon"]])
def test_it_refuses_nested_json_values_and_names_the_element_and_key(value):
    items = [{"genre": "echelle", "texte": "Bonne question ?"},
             {"genre": "echelle", "texte": "Autre question ?", "proposition_1": value}]

    message = refusal(JSONFormat(), json.dumps(items).encode())

    assert "n°2" in message
    assert "proposition_1" in message


def test_json_rows_are_named_by_their_element_number(db):
    items = [dict(zip(ECHELLE_HEADERS, echelle_row(n), strict=True)) for n in (1, 2, 3)]
    items[2]["difficulte"] = "facile"

    result = run_import(JSONFormat(), json.dumps(items).encode())

    assert list(row_errors(result)) == [3]
    assert "difficulte" in row_errors(result)[3]
    assert nothing_written()


def test_it_imports_a_json_list_of_rows(db):
    items = [dict(zip(ECHELLE_HEADERS, echelle_row(n), strict=True)) for n in (1, 2)]

    result = run_import(JSONFormat(), json.dumps(items, ensure_ascii=False).encode())

    assert result.totals["new"] == 2
    assert Proposition.objects.filter(question__ref="q-002").count() == 4


# --- columns and values ---------------------------------------------------------------------


def test_it_refuses_a_file_without_a_required_column_and_names_it(db):
    headers = [h for h in ECHELLE_HEADERS if h != "difficulte"]
    rows = [[v for h, v in zip(ECHELLE_HEADERS, echelle_row(1), strict=True)
             if h != "difficulte"]]

    result = run_import(CSVFormat(), csv_bytes(headers, rows))

    assert result.has_errors()
    assert any("manquante" in e and "difficulte" in e for e in base_errors(result))
    assert nothing_written()


def test_it_refuses_an_unknown_column_and_names_it(db):
    headers = [*ECHELLE_HEADERS, "Couleur du ciel"]
    rows = [[*echelle_row(1), "bleu"]]

    result = run_import(CSVFormat(), csv_bytes(headers, rows))

    assert result.has_errors()
    assert any("inconnue" in e and "couleur_du_ciel" in e for e in base_errors(result))
    assert nothing_written()


def test_it_refuses_a_word_as_difficulty_and_names_the_row_and_column(db):
    rows = [echelle_row(1), echelle_row(2, difficulte="facile"), echelle_row(3)]

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, rows))

    errors = row_errors(result)
    assert list(errors) == [3]
    assert "facile" in " ".join(errors[3]["difficulte"])
    assert nothing_written()


@pytest.mark.parametrize("palier", ["16", "0", "deux"])
def test_it_refuses_a_palier_off_the_ladder_and_names_the_row_and_column(db, palier):
    rows = [echelle_row(1), echelle_row(2, palier=palier)]

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, rows))

    errors = row_errors(result)
    assert list(errors) == [3]
    assert palier in " ".join(errors[3]["palier"])
    assert nothing_written()


def test_it_refuses_a_palier_on_a_kind_without_a_ladder(db):
    headers = ["ref", "genre", "texte", "difficulte", "palier", "reponse", "proposition_1",
               "proposition_2", "proposition_3", "proposition_4", "bonnes"]
    rows = [["qf-1", "qualifs", "Quel fleuve traverse Lyon ?", 2, 3, "Le Rhône", "La Seine",
             "Le Rhône", "La Loire", "La Garonne", "2"]]

    result = run_import(CSVFormat(), csv_bytes(headers, rows))

    assert "palier" in row_errors(result)[2]
    assert nothing_written()


def test_it_refuses_an_unknown_genre_and_names_the_row_and_column(db):
    rows = [echelle_row(1), echelle_row(2, genre="quiz-musical")]

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, rows))

    errors = row_errors(result)
    assert list(errors) == [3]
    assert "quiz-musical" in " ".join(errors[3]["genre"])
    assert nothing_written()


# --- whole or nothing -----------------------------------------------------------------------


def five_hundred_rows(*, bad_line=None, edited_line=None) -> bytes:
    rows = []
    for n in range(1, 501):
        line = n + 1  # the header is line 1
        row = echelle_row(n, difficulte=1 + n % 2, palier=1 + n % 5)
        if line == bad_line:
            row[ECHELLE_HEADERS.index("difficulte")] = "6"
        if line == edited_line:
            row[ECHELLE_HEADERS.index("texte")] = "Quelle ville est la préfecture du Gers ?"
        rows.append(row)
    return csv_bytes(ECHELLE_HEADERS, rows)


def test_one_bad_row_in_500_writes_nothing_and_names_line_317_and_its_column(db):
    result = run_import(CSVFormat(), five_hundred_rows(bad_line=317))

    assert result.has_validation_errors()
    errors = row_errors(result)
    assert list(errors) == [317]
    assert list(errors[317]) == ["difficulte"]
    assert "6" in errors[317]["difficulte"][0]
    assert nothing_written()


def test_the_same_500_rows_fixed_import_500_questions(db):
    result = run_import(CSVFormat(), five_hundred_rows())

    assert not result.has_validation_errors() and not result.has_errors()
    assert result.totals["new"] == 500
    assert Question.objects.count() == 500
    assert Proposition.objects.count() == 2000


def test_reimporting_the_500_rows_reports_500_unchanged_and_makes_no_duplicates(db):
    data = five_hundred_rows()
    run_import(CSVFormat(), data)

    result = run_import(CSVFormat(), data)

    assert (result.totals["new"], result.totals["update"], result.totals["skip"]) == (0, 0, 500)
    assert Question.objects.count() == 500
    assert Proposition.objects.count() == 2000


def test_reimporting_the_500_rows_with_one_edited_cell_changes_exactly_one(db):
    run_import(CSVFormat(), five_hundred_rows())

    result = run_import(CSVFormat(), five_hundred_rows(edited_line=251))

    assert (result.totals["new"], result.totals["update"], result.totals["skip"]) == (0, 1, 499)
    assert Question.objects.get(ref="q-250").text == (
        "Quelle ville est la préfecture du Gers\u202f?")
    assert Question.objects.count() == 500


# --- rules across rows ----------------------------------------------------------------------


def test_it_refuses_a_published_ladder_step_easier_than_the_one_below_on_its_row(db):
    headers = [*ECHELLE_HEADERS, "statut"]
    rows = [
        [*echelle_row(1, difficulte=1, palier=1), "publie"],  # line 2: fine
        [*echelle_row(2, difficulte=2, palier=2), "publie"],  # line 3
        [*echelle_row(3, difficulte=1, palier=3), "publie"],  # line 4: easier than palier 2
    ]

    result = run_import(CSVFormat(), csv_bytes(headers, rows))

    assert result.has_validation_errors()
    errors = row_errors(result)
    blamed = {line for line, columns in errors.items()
              if any("palier 3" in m for messages in columns.values() for m in messages)}
    assert blamed, errors
    # The step that goes down is palier 3 (line 4) over palier 2 (line 3); line 2 is fine.
    assert blamed <= {3, 4}, errors
    assert any("palier 3" in m for m in errors[max(blamed)].get("difficulte", [])), errors
    assert nothing_written()


def test_it_refuses_a_wrong_count_of_right_answers_on_its_row(db):
    rows = [echelle_row(1), echelle_row(2), echelle_row(3, bonnes="1 3"), echelle_row(4)]

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, rows))

    errors = row_errors(result)
    assert list(errors) == [4]
    assert "bonne" in " ".join(errors[4]["bonnes"])
    assert nothing_written()


def test_a_draft_ladder_may_go_down_without_being_refused(db):
    rows = [echelle_row(1, difficulte=2, palier=1), echelle_row(2, difficulte=1, palier=2)]

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, rows))

    assert result.totals["new"] == 2



def broken_ladder():
    """Publish a ladder whose step 5 (1 and 2: 1.5) is half a point easier than step 4 (2)."""
    for step, difficulty in ((4, 2), (4, 2), (5, 1), (5, 2)):
        make_question("echelle", step=step, difficulty=difficulty, status=Status.PUBLISHED)


def test_a_file_that_narrows_a_published_ladder_s_step_down_imports(db):
    broken_ladder()
    rows = [[*echelle_row(1, difficulte=2, palier=5), "publie"]]  # step 5 averages 5/3

    result = run_import(CSVFormat(), csv_bytes([*ECHELLE_HEADERS, "statut"], rows))

    assert not result.has_validation_errors(), row_errors(result)
    assert result.totals["new"] == 1
    assert Question.objects.filter(ref="q-001", status=Status.PUBLISHED).exists()


def test_a_file_that_widens_a_published_ladder_s_step_down_is_refused(db):
    broken_ladder()
    rows = [[*echelle_row(1, difficulte=1, palier=5), "publie"]]  # step 5 averages 4/3

    result = run_import(CSVFormat(), csv_bytes([*ECHELLE_HEADERS, "statut"], rows))

    assert result.has_validation_errors()
    assert list(row_errors(result)) == [2]
    assert row_errors(result)[2]["difficulte"]
    assert not Question.objects.filter(ref="q-001").exists()


# --- formulas -------------------------------------------------------------------------------

FORMULA_TEXTS = {
    "=": "=SOMME(A1:A9) donne quoi ?",
    "+": "+33 est l’indicatif de quel pays ?",
    "-": "-40 °C vaut combien en °F ?",
    "@": "@elysee est le compte de qui ?",
    "'": "'Tis the season : qui chante ?",
}
WHITESPACE_TEXTS = {
    "tab": "\t=HYPERLINK(\"http://exemple.invalid\") ?",
    "CR": "\r=1+1 ?",
}


def first_proposition(text: str) -> str:
    """The right proposition of a formula question: it starts like the question."""
    return text[:1] + "Proposition de " + text[1:12].strip()


def formula_questions(texts):
    for text in texts:
        make_question("echelle", text=text, propositions=[
            (first_proposition(text), True, False), ("Paris", False, False),
            ("Lyon", False, False), ("Nantes", False, False)])


def read_csv_export(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def read_xlsx_export(data: bytes) -> list[dict]:
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    rows = list(sheet.iter_rows())
    headers = [c.value for c in rows[0]]
    return [dict(zip(headers, row, strict=True)) for row in rows[1:]]


def check_csv_neutralised(data: bytes, texts):
    rows = read_csv_export(data)
    assert sorted(row["texte"] for row in rows) == sorted("'" + text for text in texts)
    assert sorted(row["proposition_1"] for row in rows) == sorted(
        "'" + first_proposition(text) for text in texts)


def check_xlsx_typed_as_text(data: bytes, texts):
    rows = read_xlsx_export(data)
    assert len(rows) == len(texts)
    for row in rows:
        for column in ("texte", "proposition_1"):
            cell = row[column]
            assert cell.data_type == "s", (column, cell.value)
            assert isinstance(cell.value, str)
    # As they are, no quote in front (but the text's own). XML reads a carriage return back
    # as a line feed.
    assert {row["texte"].value for row in rows} == {t.replace("\r", "\n") for t in texts}
    # In the file: inline strings, never a formula element.
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet and "<f " not in sheet
    assert 't="inlineStr"' in sheet


def stored_formula_questions(texts):
    """Store these texts as cms.services would: with French typography (a file's import
    gives back what was stored, not what was typed)."""
    formula_questions(map(typeset, texts))


def test_the_csv_format_neutralises_cells_that_start_like_formulas(db):
    texts = [*FORMULA_TEXTS.values(), *WHITESPACE_TEXTS.values()]
    formula_questions(texts)

    data = CSVFormat().export_data(QuestionResource().export())

    check_csv_neutralised(data, texts)


def test_the_xlsx_format_writes_formula_like_cells_as_text_without_a_quote(db):
    texts = [*FORMULA_TEXTS.values(), *WHITESPACE_TEXTS.values()]
    formula_questions(texts)

    data = XLSXFormat().export_data(QuestionResource().export())

    check_xlsx_typed_as_text(data, texts)


def test_the_export_command_neutralises_formulas_in_csv(db, monkeypatch):
    texts = [*FORMULA_TEXTS.values(), *WHITESPACE_TEXTS.values()]
    formula_questions(texts)

    data = run_export_command(monkeypatch, "csv")

    check_csv_neutralised(data, texts)


def test_the_export_command_writes_formula_like_cells_as_text_without_a_quote_in_xlsx(
        db, monkeypatch):
    texts = [*FORMULA_TEXTS.values(), *WHITESPACE_TEXTS.values()]
    formula_questions(texts)

    data = run_export_command(monkeypatch, "xlsx")

    check_xlsx_typed_as_text(data, texts)


@pytest.mark.parametrize("file_format", [CSVFormat, XLSXFormat], ids=["csv", "xlsx"])
def test_importing_an_export_gives_back_formula_like_texts_exactly(db, file_format):
    stored_formula_questions(FORMULA_TEXTS.values())
    before = texts_and_propositions()
    data = file_format().export_data(QuestionResource().export())
    Question.objects.all().delete()

    result = run_import(file_format(), data)

    assert result.totals["new"] == len(FORMULA_TEXTS)
    assert texts_and_propositions() == before


@pytest.mark.parametrize("file_format", [CSVFormat, XLSXFormat], ids=["csv", "xlsx"])
@pytest.mark.parametrize("text", ["'=1+1 est-ce une formule ?", "''+1 : deux apostrophes ?",
                                  "'-', un tiret entre apostrophes ?", "'@ ou pas ?"])
def test_importing_an_export_gives_back_a_text_starting_with_its_own_quote_exactly(
        db, file_format, text):
    stored_formula_questions([text])
    before = texts_and_propositions()
    data = file_format().export_data(QuestionResource().export())
    Question.objects.all().delete()

    run_import(file_format(), data)

    assert texts_and_propositions() == before


def test_an_xlsx_import_of_an_older_export_still_takes_off_its_quotes(db):
    stored_formula_questions(FORMULA_TEXTS.values())
    before = texts_and_propositions()
    dataset = QuestionResource().export()
    older = openpyxl.Workbook()
    older.active.append(dataset.headers)
    for row in dataset:  # as exports were written before: every formula-like text quoted
        older.active.append([neutralise(v) if isinstance(v, str) else v for v in row])
    Question.objects.all().delete()

    run_import(XLSXFormat(), xlsx_bytes(older))

    assert texts_and_propositions() == before


@pytest.mark.parametrize("file_format", [CSVFormat, XLSXFormat], ids=["csv", "xlsx"])
def test_reimporting_an_export_of_formula_like_texts_changes_nothing(db, file_format):
    stored_formula_questions(FORMULA_TEXTS.values())
    data = file_format().export_data(QuestionResource().export())

    result = run_import(file_format(), data)

    assert result.totals["skip"] == len(FORMULA_TEXTS)
    assert result.totals["update"] == 0


@pytest.mark.parametrize("file_format", [CSVFormat, XLSXFormat], ids=["csv", "xlsx"])
@pytest.mark.parametrize("trigger", list(WHITESPACE_TEXTS))
def test_importing_an_export_gives_back_a_text_typed_after_a_tab_or_cr_exactly(
        db, file_format, trigger):
    stored_formula_questions([WHITESPACE_TEXTS[trigger]])
    text = Question.objects.get().text  # typography trims the tab or CR: formula-like now
    data = file_format().export_data(QuestionResource().export())
    Question.objects.all().delete()

    run_import(file_format(), data)

    assert Question.objects.get().text == text


@pytest.mark.parametrize("file_format", ["csv", "xlsx"])
def test_importing_what_the_export_command_wrote_gives_back_the_texts(
        db, monkeypatch, file_format):
    stored_formula_questions(FORMULA_TEXTS.values())
    before = texts_and_propositions()
    data = run_export_command(monkeypatch, file_format)
    Question.objects.all().delete()

    run_import(CSVFormat() if file_format == "csv" else XLSXFormat(), data)

    assert texts_and_propositions() == before


# --- ZIP bundles ----------------------------------------------------------------------------

# What a phone glues after a photo (a motion clip's header): dropped, not refused.
TRAILER = b"\x00" * 16 + b"MotionPhoto_Data ftypmp42"


@pytest.mark.parametrize(("name", "content", "pil_format", "marker"), [
    ("images/rouge.png", png_bytes(text="Photographe : Jean Dupont", trailer=TRAILER),
     "PNG", b"Jean Dupont"),
    ("images/bleu.jpg", jpeg_bytes(description="Pris au 12 rue des Lilas", trailer=TRAILER),
     "JPEG", b"rue des Lilas"),
    ("images/vert.webp", webp_bytes(description="Pris au 12 rue des Lilas", trailer=TRAILER),
     "WEBP", b"rue des Lilas"),
], ids=["png", "jpeg", "webp"])
def test_a_zip_bundle_stores_a_re_encoded_image_without_metadata_or_payload(
        db, name, content, pil_format, marker):
    assert marker in content and TRAILER in content

    result = run_import(ZIPFormat(), etoile_bundle({name: content}))

    assert result.totals["new"] == 1
    question = Question.objects.get()
    assert re.fullmatch(r"questions/[0-9a-f]{32}\.(png|jpg|webp)", question.image.name)
    with default_storage.open(question.image.name, "rb") as stored_file:
        stored = stored_file.read()
    assert stored != content
    assert TRAILER not in stored
    assert marker not in stored
    with Image.open(io.BytesIO(stored)) as image:
        assert image.format == pil_format
        assert image.size == (12, 8)


def test_a_zip_bundle_does_not_keep_a_jpeg_comment(db):
    content = jpeg_bytes(comment=b"Appareil de Jean Dupont, 48.85N 2.35E")

    run_import(ZIPFormat(), etoile_bundle({"images/photo.jpg": content}))

    with default_storage.open(Question.objects.get().image.name, "rb") as stored_file:
        assert b"Jean Dupont" not in stored_file.read()


def test_a_zip_bundle_with_images_in_every_format_imports_each_row(db):
    images = {"images/a.png": png_bytes(), "images/b.jpg": jpeg_bytes(),
              "images/c.webp": webp_bytes()}

    result = run_import(ZIPFormat(), etoile_bundle(images))

    assert result.totals["new"] == 3
    names = list(Question.objects.values_list("image", flat=True))
    assert sorted(n.rsplit(".", 1)[1] for n in names) == ["jpg", "png", "webp"]
    for name in names:
        assert default_storage.exists(name)


def test_reimporting_the_same_zip_bundle_changes_nothing(db):
    data = etoile_bundle({"images/a.png": png_bytes(trailer=TRAILER),
                          "images/b.jpg": jpeg_bytes()})
    run_import(ZIPFormat(), data)
    names = sorted(Question.objects.values_list("image", flat=True))
    files = sorted(stored_images())

    result = run_import(ZIPFormat(), data)

    assert (result.totals["new"], result.totals["update"], result.totals["skip"]) == (0, 0, 2)
    assert sorted(Question.objects.values_list("image", flat=True)) == names
    assert sorted(stored_images()) == files


def good_and(bad_name, bad_content=None):
    """A bundle whose line 2 is fine and whose line 3 names `bad_name`."""
    images = {"images/bon.png": png_bytes()}
    if bad_content is not None:
        images[bad_name] = bad_content
    rows = [etoile_row(1, "images/bon.png"), etoile_row(2, bad_name)]
    return etoile_bundle(images, rows=rows)


def test_it_refuses_a_bundled_file_that_is_not_an_image_and_names_the_row(db):
    data = good_and("images/faux.png", b"Ceci n'est pas une image.\n" * 20)

    message = refusal(ZIPFormat(), data)

    assert "Ligne 3" in message
    assert "images/faux.png" in message
    assert "pas une image" in message


def test_it_refuses_a_bundled_image_over_the_pixel_cap_and_names_the_row(db, settings):
    settings.PLATEAU_IMAGE_MAX_PIXELS = 500
    data = good_and("images/grande.png", png_bytes(size=(40, 30)))  # 1 200 pixels

    message = refusal(ZIPFormat(), data)

    assert "Ligne 3" in message
    assert "images/grande.png" in message
    assert "40 × 30" in message


def test_it_refuses_a_bundled_image_over_the_byte_cap_and_names_the_row(db, settings):
    heavy = png_bytes(size=(12, 8), text="x" * 4000)
    settings.PLATEAU_IMAGE_MAX_BYTES = len(heavy) - 1
    assert len(png_bytes()) < settings.PLATEAU_IMAGE_MAX_BYTES

    message = refusal(ZIPFormat(), good_and("images/lourde.png", heavy))

    assert "Ligne 3" in message
    assert "images/lourde.png" in message
    assert "maximum" in message


@pytest.mark.parametrize("name", ["../images/evasion.png", "/etc/passwd",
                                  "images/../../evasion.png"])
def test_it_refuses_a_sheet_that_names_an_image_outside_the_archive(db, name):
    message = refusal(ZIPFormat(), good_and(name))

    assert "Ligne 3" in message
    assert name in message
    assert "interdit" in message


@pytest.mark.parametrize("member", ["../evasion.png", "/evasion.png", "images/../../x.png"])
def test_it_refuses_an_archive_holding_a_path_outside_itself(db, member):
    data = etoile_bundle({"images/a.png": png_bytes()}, extra={member: png_bytes()})

    message = refusal(ZIPFormat(), data)

    assert member in message
    assert "interdit" in message


def test_it_refuses_a_sheet_naming_an_image_missing_from_the_archive(db):
    message = refusal(ZIPFormat(), good_and("images/absente.png"))

    assert "Ligne 3" in message
    assert "images/absente.png" in message
    assert "pas dans l’archive" in message


def test_it_refuses_an_archive_with_two_sheets(db):
    data = etoile_bundle({"images/a.png": png_bytes()},
                         extra={"autres.csv": csv_bytes(ETOILE_HEADERS, [])})

    message = refusal(ZIPFormat(), data)

    assert "une seule feuille" in message
    assert "2" in message


def test_a_refused_bundle_stores_no_image(db, tmp_path):
    data = good_and("images/absente.png")

    with pytest.raises(CommandError):
        run_import_command(tmp_path, "etoiles.zip", data, "questions")

    assert nothing_written()
    assert stored_images() == []


def test_a_bundle_whose_row_breaks_a_rule_stores_no_image(db):
    rows = [etoile_row(1, "images/a.png"), etoile_row(2, "images/b.png", reponse=" ")]
    data = etoile_bundle({"images/a.png": png_bytes(), "images/b.png": jpeg_bytes()},
                         rows=rows)

    result = run_import(ZIPFormat(), data)

    assert list(row_errors(result)) == [3]
    assert "reponse" in row_errors(result)[3]
    assert nothing_written()
    assert stored_images() == []


def test_a_bundle_of_images_attaches_them_to_existing_questions_by_ref(db):
    question = make_question("etoile-mysterieuse", image="")
    data = zip_bytes({"images.csv": csv_bytes(["ref", "image"],
                                              [[question.ref, "photos/x.png"]]),
                      "photos/x.png": png_bytes()})

    result = run_import(ZIPFormat(), data, QuestionImageResource)

    assert result.totals["update"] == 1
    question.refresh_from_db()
    assert re.fullmatch(r"questions/[0-9a-f]{32}\.(png|jpg|webp)", question.image.name)
    assert default_storage.exists(question.image.name)


def test_a_bundle_of_images_refuses_an_unknown_ref_and_names_the_row(db):
    data = zip_bytes({"images.csv": csv_bytes(["ref", "image"], [["inconnue", "x.png"]]),
                      "x.png": png_bytes()})

    result = run_import(ZIPFormat(), data, QuestionImageResource)

    assert "inconnue" in " ".join(row_errors(result)[2]["ref"])
    assert nothing_written()


# --- public question banks ------------------------------------------------------------------

OPENTDB = {
    "response_code": 0,
    "results": [
        {"type": "multiple", "difficulty": "easy", "category": "Science &amp; Nature",
         "question": "Qui a cri&eacute; &quot;Eur&ecirc;ka&quot; dans son bain ?",
         "correct_answer": "Archim&egrave;de",
         "incorrect_answers": ["Euclide", "Pythagore", "Thal&egrave;s"]},
        {"type": "multiple", "difficulty": "medium", "category": "History",
         "question": "Quel roi a dit &quot;L&#039;&Eacute;tat, c&#039;est moi&quot; ?",
         "correct_answer": "Louis XIV",
         "incorrect_answers": ["Louis XVI", "Henri IV", "Fran&ccedil;ois Ier"]},
        {"type": "multiple", "difficulty": "hard", "category": "History",
         "question": "En quelle ann&eacute;e a eu lieu la bataille de Marignan ?",
         "correct_answer": "1515", "incorrect_answers": ["1415", "1615", "1715"]},
    ],
}


def opentdb_bytes(document=OPENTDB) -> bytes:
    return json.dumps(document).encode()


@pytest.mark.parametrize("kind", ["echelle", "qualifs"])
def test_an_open_trivia_db_file_arrives_as_drafts_with_decoded_text(db, kind):
    result = run_import(OpenTriviaDBFormat(), opentdb_bytes(), kind=kind)

    assert base_errors(result) == [] and row_errors(result) == {}
    assert result.totals["new"] == 3
    texts = set(Question.objects.values_list("text", flat=True))
    # Stored with French typography: « » for the quotes, ’ for the apostrophes.
    assert texts == {"Qui a crié «\u202fEurêka\u202f» dans son bain\u202f?",
                     "Quel roi a dit «\u202fL’État, c’est moi\u202f»\u202f?",
                     "En quelle année a eu lieu la bataille de Marignan\u202f?"}
    assert set(Question.objects.values_list("kind", "status")) == {(kind, Status.DRAFT)}


def test_an_open_trivia_db_question_marks_its_right_answer(db):
    run_import(OpenTriviaDBFormat(), opentdb_bytes(), kind="qualifs")

    question = Question.objects.get(text__startswith="Qui a crié")
    propositions = list(question.propositions.order_by("position"))
    assert sorted(p.text for p in propositions) == [
        "Archimède", "Euclide", "Pythagore", "Thalès"]
    assert [p.text for p in propositions if p.is_right] == ["Archimède"]


def test_open_trivia_db_difficulties_become_1_3_and_5(db):
    run_import(OpenTriviaDBFormat(), opentdb_bytes(), kind="qualifs")

    by_start = {q.text[:8]: q.difficulty for q in Question.objects.all()}
    assert by_start == {"Qui a cr": 1, "Quel roi": 3, "En quell": 5}


def test_reimporting_an_open_trivia_db_file_changes_nothing(db):
    run_import(OpenTriviaDBFormat(), opentdb_bytes(), kind="qualifs")
    refs = set(Question.objects.values_list("ref", flat=True))

    result = run_import(OpenTriviaDBFormat(), opentdb_bytes(), kind="qualifs")

    assert (result.totals["new"], result.totals["update"], result.totals["skip"]) == (0, 0, 3)
    assert set(Question.objects.values_list("ref", flat=True)) == refs


OPENQUIZZDB = {
    "fournisseur": "OpenQuizzDB - Fournisseur de contenu libre (https://www.openquizzdb.org)",
    "licence": "CC BY-SA",
    "rédacteur": "Philippe Bresoux",
    "difficulté": "3 / 10",
    "version": 1,
    "mise-à-jour": "2021-09-01",
    "catégorie-nom-slogan": {
        "fr": {"catégorie": "Géographie", "nom": "Fleuves de France",
               "slogan": "Au fil de l’eau"},
    },
    "quizz": {
        "fr": {
            "débutant": [
                {"id": 1, "question": "Quel fleuve traverse Paris ?",
                 "propositions": ["La Loire", "La Seine", "Le Rhône", "La Garonne"],
                 "réponse": "La Seine",
                 "anecdote": "La Seine prend sa source sur le plateau de Langres."},
            ],
            "confirmé": [
                {"id": 1, "question": "Quel fleuve passe à Bordeaux ?",
                 "propositions": ["La Dordogne", "La Charente", "La Garonne", "L’Adour"],
                 "réponse": "La Garonne",
                 "anecdote": "Son estuaire commun avec la Dordogne s’appelle la Gironde."},
            ],
            "expert": [
                {"id": 1, "question": "Quel est le plus long fleuve entièrement français ?",
                 "propositions": ["La Seine", "La Loire", "La Garonne", "La Somme"],
                 "réponse": "La Loire",
                 "anecdote": "Elle parcourt un peu plus de 1 000 kilomètres."},
            ],
        },
    },
}


def openquizzdb_bytes(document=OPENQUIZZDB) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode()


def test_an_openquizzdb_file_arrives_as_drafts_with_anecdotes(db):
    result = run_import(OpenQuizzDBFormat(), openquizzdb_bytes(), kind="qualifs")

    assert base_errors(result) == [] and row_errors(result) == {}
    assert result.totals["new"] == 3
    question = Question.objects.get(text="Quel fleuve traverse Paris\u202f?")
    assert question.status == Status.DRAFT
    assert question.kind == "qualifs"
    assert question.anecdote == "La Seine prend sa source sur le plateau de Langres."
    assert question.answer == "La Seine"
    assert question.theme == "Fleuves de France"
    assert [p.text for p in question.propositions.all() if p.is_right] == ["La Seine"]
    assert question.propositions.count() == 4


def test_openquizzdb_levels_become_difficulties_1_3_and_5(db):
    run_import(OpenQuizzDBFormat(), openquizzdb_bytes(), kind="qualifs")

    assert dict(Question.objects.values_list("answer", "difficulty")) == {
        "La Seine": 1, "La Garonne": 3, "La Loire": 5}


def test_reimporting_an_openquizzdb_file_changes_nothing(db):
    run_import(OpenQuizzDBFormat(), openquizzdb_bytes(), kind="qualifs")

    result = run_import(OpenQuizzDBFormat(), openquizzdb_bytes(), kind="qualifs")

    assert (result.totals["new"], result.totals["update"], result.totals["skip"]) == (0, 0, 3)
    assert Question.objects.count() == 3


@pytest.mark.parametrize(("file_format", "data"), [
    (OpenTriviaDBFormat, opentdb_bytes()),
    (OpenQuizzDBFormat, openquizzdb_bytes()),
], ids=["opentdb", "openquizzdb"])
def test_a_question_bank_without_a_kind_is_refused_and_asks_for_the_genre(
        db, file_format, data):
    result = run_import(file_format(), data)

    assert result.has_errors()
    assert any("genre" in e for e in base_errors(result))
    assert nothing_written()


def test_the_import_command_refuses_a_bank_without_kind(db, tmp_path):
    error, stderr = failed_import_command(tmp_path, "banque.json", opentdb_bytes(),
                                          "questions", "--format", "opentdb")

    assert "rien n’a été importé" in str(error)
    assert "genre" in stderr
    assert nothing_written()


def test_the_import_command_imports_a_bank_with_a_kind(db, tmp_path):
    out, _err = run_import_command(tmp_path, "banque.json", openquizzdb_bytes(), "questions",
                                   "--format", "openquizzdb", "--kind", "qualifs")

    assert "3 ajouté(s)" in out
    assert Question.objects.filter(kind="qualifs", status=Status.DRAFT).count() == 3


@pytest.mark.parametrize(("file_format", "data", "expected"), [
    (OpenTriviaDBFormat, openquizzdb_bytes(), "Open Trivia DB"),
    (OpenTriviaDBFormat, b'{"response_code": 0}', "Open Trivia DB"),
    (OpenQuizzDBFormat, opentdb_bytes(), "OpenQuizzDB"),
    (OpenQuizzDBFormat, json.dumps([{"genre": "qualifs"}]).encode(), "OpenQuizzDB"),
], ids=["opentdb-given-openquizzdb", "opentdb-without-results", "openquizzdb-given-opentdb",
        "openquizzdb-given-a-sheet"])
def test_a_file_that_is_not_the_bank_it_claims_is_refused(file_format, data, expected):
    message = refusal(file_format(), data)

    assert "Ce n’est pas un fichier" in message
    assert expected in message


def opentdb_with(**fields) -> bytes:
    """An Open Trivia DB file whose second question has these fields instead."""
    results = [dict(OPENTDB["results"][0]), {**OPENTDB["results"][1], **fields}]
    return opentdb_bytes({"response_code": 0, "results": results})


def openquizzdb_with(question=None, **document) -> bytes:
    """An OpenQuizzDB file whose « confirmé » question is `question`, and these keys."""
    quizz = {**OPENQUIZZDB["quizz"]["fr"]}
    if question is not None:
        quizz["confirmé"] = question if isinstance(question, list) else [question]
    return openquizzdb_bytes({**OPENQUIZZDB, "quizz": {"fr": quizz}, **document})


@pytest.mark.parametrize(("fields", "expected"), [
    ({"difficulty": [1]}, "Question n°2 : difficulté [1] inconnue (easy, medium, hard)."),
    ({"category": {"&amp;": 1}},
     'Question n°2 : « category » doit être un texte, pas {"&amp;": 1}.'),
    ({"question": ["Qui ?"]}, 'Question n°2 : « question » doit être un texte, pas ["Qui ?"].'),
    ({"correct_answer": None}, "Question n°2 : « correct_answer » manque."),
    ({"incorrect_answers": "Louis XVI"},
     'Question n°2 : « incorrect_answers » doit être une liste de textes, pas "Louis XVI".'),
    ({"incorrect_answers": ["A", {"b": 1}]},
     'Question n°2 : « incorrect_answers » doit être une liste de textes, pas ["A", {"b": 1}].'),
])
def test_a_malformed_open_trivia_db_question_is_refused_by_its_number(fields, expected):
    assert refusal(OpenTriviaDBFormat(), opentdb_with(**fields)) == expected


def test_an_open_trivia_db_item_that_is_not_an_object_is_refused_by_its_number():
    data = opentdb_bytes({"results": [OPENTDB["results"][0], "Qui ?"]})

    assert refusal(OpenTriviaDBFormat(), data) == "Question n°2 : un objet {…} est attendu."


def test_a_bank_question_with_more_options_than_a_question_holds_is_refused_not_cut():
    # Cutting to four would keep three of the ten wrong answers, or lose the right one.
    data = opentdb_with(incorrect_answers=[f"Roi n°{n}" for n in range(10)])

    assert refusal(OpenTriviaDBFormat(), data) == (
        "Question n°2 : 11 propositions, une question en a 4 au plus : gardez la bonne "
        "réponse et 3 mauvaises dans le fichier, l’import n’en écarte aucune à votre place.")


def test_an_open_trivia_db_true_or_false_question_keeps_its_two_options(db):
    data = opentdb_with(type="boolean", correct_answer="True", incorrect_answers=["False"])

    dataset = OpenTriviaDBFormat().create_dataset(data)

    row = dict(zip(dataset.headers, dataset[1], strict=True))
    options = [row[f"proposition_{n}"] for n in range(1, 5)]
    assert sorted(options) == ["", "", "False", "True"]
    assert options[int(row["bonnes"]) - 1] == "True"


def test_an_openquizzdb_question_of_eight_propositions_is_refused_not_cut():
    question = {"question": "Quel fleuve ?", "propositions": [f"P{n}" for n in range(8)],
                "réponse": "P7"}

    assert refusal(OpenQuizzDBFormat(), openquizzdb_with(question)) == (
        "OpenQuizzDB, niveau confirmé, question n°1 : 8 propositions, une question en a 4 "
        "au plus : gardez la bonne réponse et 3 mauvaises dans le fichier, l’import n’en "
        "écarte aucune à votre place.")


@pytest.mark.parametrize(("question", "expected"), [
    ({"question": "Q ?", "propositions": "ABCD", "réponse": "A"},
     "OpenQuizzDB, niveau confirmé, question n°1 : « propositions » doit être une liste de "
     'textes, pas "ABCD".'),
    ({"question": {"fr": "Q ?"}, "propositions": ["A", "B"], "réponse": "A"},
     "OpenQuizzDB, niveau confirmé, question n°1 : « question » doit être un texte, pas "
     '{"fr": "Q ?"}.'),
    ({"question": "Q ?", "propositions": ["A", "B"], "réponse": "A", "anecdote": ["x"]},
     "OpenQuizzDB, niveau confirmé, question n°1 : « anecdote » doit être un texte, pas "
     '["x"].'),
    ("Q ?", "OpenQuizzDB, niveau confirmé, question n°1 : un objet {…} est attendu."),
    ({"a": 1}, "OpenQuizzDB, niveau confirmé : une liste de questions est attendue."),
])
def test_a_malformed_openquizzdb_question_is_refused_by_its_level_and_number(
        question, expected):
    data = openquizzdb_with(question) if not isinstance(question, dict) or "a" not in question \
        else openquizzdb_bytes({**OPENQUIZZDB, "quizz": {"fr": {"confirmé": question}}})

    assert refusal(OpenQuizzDBFormat(), data) == expected


@pytest.mark.parametrize("meta", ["Géographie", {"fr": "Géographie"}, {"fr": {"nom": ["x"]}}])
def test_openquizzdb_metadata_of_the_wrong_shape_is_refused_by_its_key(meta):
    message = refusal(OpenQuizzDBFormat(), openquizzdb_with(**{"catégorie-nom-slogan": meta}))

    assert message.startswith("OpenQuizzDB : « catégorie-nom-slogan")
    assert "doit être un" in message


@pytest.mark.parametrize(("bank", "data"), [
    ("opentdb", opentdb_with(difficulty=[1])),
    ("opentdb", opentdb_with(category={"x": 1})),
    ("opentdb", opentdb_with(incorrect_answers=[f"Roi n°{n}" for n in range(10)])),
    ("openquizzdb", openquizzdb_with(
        {"question": "Q ?", "propositions": [f"P{n}" for n in range(8)], "réponse": "P7"})),
    ("openquizzdb", openquizzdb_with(**{"catégorie-nom-slogan": {"fr": "x"}})),
], ids=["list-difficulty", "object-category", "eleven-options", "eight-propositions",
        "text-metadata"])
def test_the_import_command_refuses_a_malformed_bank_in_french(db, tmp_path, bank, data):
    error, _err = failed_import_command(tmp_path, "banque.json", data, "questions",
                                        "--format", bank, "--kind", "qualifs")

    assert str(error).startswith(str(tmp_path / "banque.json"))
    assert "OpenQuizzDB" in str(error) or "Question n°2" in str(error)
    assert nothing_written()


# --- the import command ---------------------------------------------------------------------


def two_bad_rows() -> bytes:
    rows = [echelle_row(1), echelle_row(2, difficulte="facile"), echelle_row(3),
            echelle_row(4, genre="quiz-musical")]
    return csv_bytes(ECHELLE_HEADERS, rows)


def test_the_import_command_fails_and_prints_each_bad_row(db, tmp_path):
    error, stderr = failed_import_command(tmp_path, "questions.csv", two_bad_rows(),
                                          "questions")

    assert "rien n’a été importé" in str(error)
    assert "Ligne 3, colonne « difficulte »" in stderr
    assert "Ligne 5, colonne « genre »" in stderr
    assert "Ligne 2" not in stderr and "Ligne 4" not in stderr
    assert nothing_written()


def test_the_import_command_names_line_317_of_a_500_row_file(db, tmp_path):
    _error, stderr = failed_import_command(tmp_path, "questions.csv",
                                           five_hundred_rows(bad_line=317), "questions")

    assert "Ligne 317, colonne « difficulte »" in stderr
    assert nothing_written()


def test_the_import_command_names_an_unknown_column(db, tmp_path):
    data = csv_bytes([*ECHELLE_HEADERS, "bonus"], [[*echelle_row(1), "oui"]])

    error, stderr = failed_import_command(tmp_path, "questions.csv", data, "questions")

    assert "bonus" in str(error) + stderr
    assert nothing_written()


def test_the_import_command_imports_a_good_file_and_says_how_many(db, tmp_path):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1), echelle_row(2)])

    out, _err = run_import_command(tmp_path, "questions.csv", data, "questions")

    assert "Import terminé" in out
    assert "2 ajouté(s), 0 modifié(s), 0 inchangé(s)" in out
    assert Question.objects.count() == 2


def test_the_import_command_dry_run_writes_nothing(db, tmp_path):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1), echelle_row(2)])

    out, _err = run_import_command(tmp_path, "questions.csv", data, "questions", "--dry-run")

    assert "rien n’est écrit" in out
    assert "2 ajouté(s)" in out
    assert nothing_written()


def test_the_import_command_dry_run_of_a_zip_bundle_stores_no_image(db, tmp_path):
    data = etoile_bundle({"images/a.png": png_bytes()})

    out, _err = run_import_command(tmp_path, "etoiles.zip", data, "questions", "--dry-run")

    assert "1 ajouté(s)" in out
    assert nothing_written()
    assert stored_images() == []


def test_the_import_command_imports_a_zip_bundle(db, tmp_path):
    data = etoile_bundle({"images/a.png": png_bytes()})

    out, _err = run_import_command(tmp_path, "etoiles.zip", data, "questions")

    assert "1 ajouté(s)" in out
    assert default_storage.exists(Question.objects.get().image.name)


def test_the_import_command_reads_an_xlsx_workbook(db, tmp_path):
    data = xlsx_bytes(workbook([ECHELLE_HEADERS, echelle_row(1)]))

    out, _err = run_import_command(tmp_path, "questions.xlsx", data, "questions")

    assert "1 ajouté(s)" in out
    assert Question.objects.filter(ref="q-001").exists()


def test_the_import_command_refuses_a_file_of_unknown_type(db, tmp_path):
    error, _stderr = failed_import_command(tmp_path, "questions.txt", b"texte", "questions")

    assert "--format" in str(error)


def test_blank_lines_stay_blank_when_the_importer_supplies_the_kind(db):
    data = ("texte;difficulte;proposition_1;proposition_2;proposition_3;proposition_4;bonnes;"
            "reponse\n"
            "Quelle est la capitale de l’Italie ?;1;Rome;Milan;Turin;Naples;1;Rome\n"
            ";;;;;;;\n"
            "Quelle est la capitale de l’Espagne ?;1;Madrid;Séville;Valence;Bilbao;1;Madrid\n")

    result = QuestionResource(kind="qualifs").import_data(
        CSVFormat().create_dataset(data.encode("utf-8")))

    assert not result.has_errors() and not result.has_validation_errors()
    assert result.totals["new"] == 2
    assert Question.objects.filter(kind="qualifs").count() == 2
