"""Hostile import files: forged ZIP headers, bombs, huge headers, deep JSON.

Every file is built here with Python; each must be refused with a French message that names
the problem (in the formats, the admin and `manage.py import`), within bounded memory and
without any step that grows faster than the file.
"""

import io
import json
import struct
import tracemalloc
import zipfile
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from cms import formats
from cms.formats import (
    CSVFormat,
    ImportFileError,
    JSONFormat,
    OpenQuizzDBFormat,
    XLSXFormat,
    ZIPFormat,
)

MEGABYTE = 1024 * 1024
SHEET = b"ref;genre;texte\r\nq-1;echelle;Quelle est la capitale de la France ?\r\n"


@pytest.fixture(autouse=True)
def _held_uploads_in_tmp(settings, tmp_path):
    """Uploads waiting for confirmation go to this test's folder, not the project's."""
    settings.VAR_DIR = tmp_path


# --- forging archives ---------------------------------------------------------------------

# Field offsets in a local file header (PK\3\4) and a central directory entry (PK\1\2).
LOCAL = {"flags": 6, "method": 8, "crc": 14, "size": 22}
CENTRAL = {"flags": 8, "method": 10, "crc": 16, "size": 24}
WIDTH = {"flags": "<H", "method": "<H", "crc": "<I", "size": "<I"}


def zip_of(members: dict, compression=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return out.getvalue()


def forged(data: bytes, name: str, **fields) -> bytes:
    """Return the archive with these header fields of member `name` overwritten, in both
    its local header and the central directory, as a forger would."""
    data = bytearray(data)
    encoded = name.encode()
    for signature, offsets, name_at in ((b"PK\x03\x04", LOCAL, 30), (b"PK\x01\x02", CENTRAL, 46)):
        start = data.find(signature)
        while data[start + name_at:start + name_at + len(encoded)] != encoded:
            start = data.find(signature, start + 1)
            assert start >= 0, f"{name} not found"
        for field, value in fields.items():
            struct.pack_into(WIDTH[field], data, start + offsets[field], value)
    return bytes(data)


def info_of(data: bytes, name: str) -> zipfile.ZipInfo:
    return zipfile.ZipFile(io.BytesIO(data)).getinfo(name)


def under_declared(data: bytes, name: str, declared: int) -> bytes:
    """The member says it unpacks to `declared` bytes, with the CRC of just those bytes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        prefix = archive.read(name)[:declared]
    return forged(data, name, size=declared, crc=zlib.crc32(prefix))


def bomb_bundle(real_size: int) -> bytes:
    """A ZIP bundle whose sheet unpacks to `real_size` bytes but declares a few hundred."""
    sheet = SHEET + b"\r\n" * ((real_size - len(SHEET)) // 2)
    return under_declared(zip_of({"questions.csv": sheet}), "questions.csv", len(SHEET))


def workbook_bytes() -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["ref", "genre", "texte"])
    book.active.append(["q-1", "echelle", "Quelle est la capitale de la France ?"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def refusal(file_format, data: bytes) -> str:
    with pytest.raises(ImportFileError) as error:
        file_format.create_dataset(data)
    return str(error.value)


def peak_memory_of(function) -> int:
    tracemalloc.start()
    try:
        function()
    finally:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


# --- what unpacking costs is bounded by what is really unpacked ---------------------------


def test_a_zip_whose_sheet_under_declares_its_size_is_refused_in_bounded_memory(settings):
    settings.PLATEAU_IMPORT_MAX_UNPACKED_BYTES = MEGABYTE
    data = bomb_bundle(32 * MEGABYTE)
    assert len(data) < 64 * 1024
    assert sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(data)).infolist()) < 1024

    def read():
        with pytest.raises(ImportFileError, match="Une fois décompressé"):
            ZIPFormat().create_dataset(data)

    assert peak_memory_of(read) < 2 * MEGABYTE


def test_a_workbook_with_an_under_declared_member_is_refused_before_openpyxl(
        settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_UNPACKED_BYTES = MEGABYTE
    book = io.BytesIO(workbook_bytes())
    with zipfile.ZipFile(book, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/bombe.bin", b"\0" * (32 * MEGABYTE))
    data = under_declared(book.getvalue(), "xl/media/bombe.bin", 10)
    monkeypatch.setattr("openpyxl.load_workbook", pytest.fail)

    def read():
        with pytest.raises(ImportFileError, match="Une fois décompressé"):
            XLSXFormat().create_dataset(data)

    assert peak_memory_of(read) < 2 * MEGABYTE


def workbook_with_a_dtd(codec="utf-8") -> bytes:
    """A workbook whose sheet declares nested entities (a billion laughs)."""
    with zipfile.ZipFile(io.BytesIO(workbook_bytes())) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + n)} "{f"&{chr(97 + n)};" * 10}">' for n in range(9))
    sheet = members["xl/worksheets/sheet1.xml"].decode()
    sheet = f"<!DOCTYPE w [{entities}]>" + sheet.replace("<t>q-1</t>", "<t>&j;</t>")
    members["xl/worksheets/sheet1.xml"] = sheet.encode(codec)
    return zip_of(members)


@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le"])
def test_a_workbook_declaring_entities_is_refused_before_openpyxl(monkeypatch, codec):
    monkeypatch.setattr("openpyxl.load_workbook", pytest.fail)

    message = refusal(XLSXFormat(), workbook_with_a_dtd(codec))

    assert message == ("Archive endommagée, « xl/worksheets/sheet1.xml » : déclaration "
                       "<!DOCTYPE> refusée (un classeur n’en contient jamais).")


def test_a_dtd_straddling_two_unpacked_chunks_is_found():
    with zipfile.ZipFile(io.BytesIO(workbook_with_a_dtd())) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    sheet = "xl/worksheets/sheet1.xml"
    members[sheet] = b" " * (formats.UNPACK_CHUNK - 4) + members[sheet]

    message = refusal(XLSXFormat(), zip_of(members, compression=zipfile.ZIP_STORED))

    assert "déclaration <!DOCTYPE> refusée" in message


def test_a_member_whose_real_size_differs_from_its_header_is_named():
    data = under_declared(zip_of({"questions.csv": SHEET}), "questions.csv", 10)

    message = refusal(ZIPFormat(), data)

    assert "« questions.csv »" in message
    assert f"taille annoncée 10 octets, taille réelle {len(SHEET)} octets" in message


def test_a_member_with_a_bad_crc_is_refused():
    data = zip_of({"questions.csv": SHEET})
    data = forged(data, "questions.csv", crc=info_of(data, "questions.csv").CRC ^ 1)

    assert "somme de contrôle (CRC) incorrecte" in refusal(ZIPFormat(), data)


def test_an_encrypted_member_is_refused():
    data = forged(zip_of({"questions.csv": SHEET}), "questions.csv", flags=0x1)

    assert "fichier chiffré" in refusal(ZIPFormat(), data)


@pytest.mark.parametrize("method", [9, 12, 14], ids=["deflate64", "bzip2", "lzma"])
def test_a_member_in_a_compression_we_cannot_bound_is_refused(method):
    data = forged(zip_of({"questions.csv": SHEET}), "questions.csv", method=method)

    assert f"compression n°{method} non prise en charge" in refusal(ZIPFormat(), data)


def test_a_truncated_archive_is_refused():
    data = zip_of({"questions.csv": SHEET * 50})

    assert "tronqué" in refusal(ZIPFormat(), data[: len(data) // 2])


def test_a_member_whose_compressed_data_is_garbage_is_refused():
    data = zip_of({"questions.csv": SHEET * 50})
    info = info_of(data, "questions.csv")
    start = info.header_offset + 30 + len("questions.csv")
    data = data[:start] + b"\xff" * 64 + data[start + 64:]

    assert "données compressées illisibles" in refusal(ZIPFormat(), data)


def test_an_archive_of_too_many_members_is_refused_before_it_is_opened(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_ROWS = 10
    data = zip_of({f"vide-{n}.txt": b"" for n in range(200)})
    monkeypatch.setattr(zipfile, "ZipFile", pytest.fail)

    assert refusal(ZIPFormat(), data) == (
        "L’archive contient plus de 110 fichiers ; elle en annonce 200.")


def test_a_sound_bundle_still_imports():
    dataset = ZIPFormat().create_dataset(zip_of({"questions.csv": SHEET}))

    assert dataset.headers == ["ref", "genre", "texte"]
    assert len(dataset) == 1


def test_a_sound_stored_bundle_still_imports():
    data = zip_of({"questions.csv": SHEET}, compression=zipfile.ZIP_STORED)

    assert len(ZIPFormat().create_dataset(data)) == 1


# --- wide headers are refused before any per-column work ----------------------------------


def test_a_csv_with_100_000_columns_is_refused_before_its_headers_are_read(monkeypatch):
    calls = []
    monkeypatch.setattr(formats, "normalise_header", lambda h: calls.append(h) or str(h))
    data = (";".join(f"c{n}" for n in range(100_000)) + "\r\n").encode()

    message = refusal(CSVFormat(), data)

    assert message == "Le fichier a 100000 colonnes ; le maximum est 200."
    assert calls == []


def test_a_json_with_100_000_keys_is_refused_at_the_first_key_past_the_cap(monkeypatch):
    monkeypatch.setattr(formats, "build_dataset", pytest.fail)
    data = json.dumps([{f"k{n}": n for n in range(100_000)}]).encode()

    assert refusal(JSONFormat(), data) == "Le fichier a 201 colonnes ; le maximum est 200."


def test_repeated_columns_are_named_once_each():
    headers = [f"c{n}" for n in range(150)] + ["c3", "c7"]
    data = (";".join(headers) + "\r\n" + ";".join("x" * len(headers)) + "\r\n").encode()

    assert refusal(CSVFormat(), data) == "Colonne en double : c3, c7."


def test_a_workbook_whose_dimension_claims_16_384_columns_is_read_at_its_real_width():
    with zipfile.ZipFile(io.BytesIO(workbook_bytes())) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    sheet = members["xl/worksheets/sheet1.xml"].decode()
    assert '<dimension ref="A1:C2" />' in sheet
    members["xl/worksheets/sheet1.xml"] = sheet.replace(
        '<dimension ref="A1:C2" />', '<dimension ref="A1:XFD1048576" />').encode()

    dataset = XLSXFormat().create_dataset(zip_of(members))

    assert dataset.headers == ["ref", "genre", "texte"]
    assert len(dataset) == 1


def test_a_workbook_with_a_header_past_the_column_cap_is_refused():
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["ref"] + [None] * 300 + ["trop loin"])
    out = io.BytesIO()
    book.save(out)

    assert "le maximum est 200" in refusal(XLSXFormat(), out.getvalue())


# --- deep JSON ----------------------------------------------------------------------------


def test_json_nested_deeper_than_python_can_parse_is_refused():
    data = b"[" * 100_000 + b"]" * 100_000

    assert refusal(JSONFormat(), data).startswith("JSON trop imbriqué")


def test_json_nested_deeper_than_the_cap_is_refused_before_any_use():
    question = "x"
    for _ in range(formats.MAX_JSON_DEPTH):
        question = [question]
    data = json.dumps({"quizz": {"fr": {"débutant": [{"question": question}]}}}).encode()

    assert refusal(OpenQuizzDBFormat(), data).startswith("JSON trop imbriqué")


def test_json_depth_is_measured_without_recursion():
    value = []
    for _ in range(10_000):
        value = [value]

    assert formats.json_depth(value) == formats.MAX_JSON_DEPTH + 1


# --- the command and the admin say it in French, never with a traceback -------------------


def hostile_files():
    """Each hostile file, with the words its refusal must say."""
    sound = zip_of({"questions.csv": SHEET})
    crc = info_of(sound, "questions.csv").CRC
    return {
        "bad-crc.zip": (forged(sound, "questions.csv", crc=crc ^ 1),
                        "somme de contrôle (CRC) incorrecte"),
        "forged-size.zip": (under_declared(sound, "questions.csv", 10), "taille annoncée 10"),
        "encrypted.zip": (forged(sound, "questions.csv", flags=0x1), "fichier chiffré"),
        "deflate64.zip": (forged(sound, "questions.csv", method=9),
                          "compression n°9 non prise en charge"),
        "truncated.zip": (sound[: len(sound) // 2], "tronqué"),
        "deep.json": (b"[" * 100_000 + b"]" * 100_000, "JSON trop imbriqué"),
        "forged-size.xlsx": (
            under_declared(workbook_bytes(), "xl/worksheets/sheet1.xml", 10),
            "taille annoncée 10"),
        "entities.xlsx": (workbook_with_a_dtd(), "<!DOCTYPE> refusée"),
        "wide.csv": ((";".join(f"c{n}" for n in range(100_000)) + "\r\n").encode(),
                     "100000 colonnes"),
    }


@pytest.mark.parametrize("name", list(hostile_files()))
def test_the_import_command_refuses_a_hostile_file_with_a_command_error(db, tmp_path, name):
    data, says = hostile_files()[name]
    path = tmp_path / name
    path.write_bytes(data)

    with pytest.raises(CommandError) as error:
        call_command("import", "questions", str(path), "--no-input",
                     stdout=io.StringIO(), stderr=io.StringIO())

    assert str(error.value).startswith(f"{path}\u00a0: ")
    assert says in str(error.value)


ZIP_FORMAT, JSON_FORMAT, XLSX_FORMAT, CSV_FORMAT = "3", "2", "1", "0"
FORMAT_BY_EXTENSION = {"zip": ZIP_FORMAT, "json": JSON_FORMAT, "xlsx": XLSX_FORMAT,
                       "csv": CSV_FORMAT}


@pytest.mark.parametrize("name", list(hostile_files()))
def test_the_admin_refuses_a_hostile_file_on_the_form(editor_client, name):
    data, says = hostile_files()[name]

    response = editor_client.post(reverse("admin:cms_question_import"), {
        "format": FORMAT_BY_EXTENSION[name.rsplit(".", 1)[1]], "resource": "0", "kind": "",
        "import_file": SimpleUploadedFile(name, data),
    })

    assert response.status_code == 200
    assert says in " ".join(response.context["form"].errors["import_file"])


# --- a workbook's XML is counted before openpyxl builds anything ---------------------------

SHEET_PART = "xl/worksheets/sheet1.xml"
STRINGS_PART = "xl/sharedStrings.xml"
MAIN_NAMESPACE = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
HEADER_ROW = ('<row r="1"><c r="A1" t="inlineStr"><is><t>ref</t></is></c>'
              '<c r="B1" t="inlineStr"><is><t>genre</t></is></c></row>')


def cell(ref: str, text: str = "x") -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def workbook_with(sheet_data: str, *, strings: str | None = None, after: str = "") -> bytes:
    """A sound workbook whose sheetData is `sheet_data`, optionally with a sharedStrings part
    holding `strings` (its <si> elements) and with `after` following the sheetData."""
    with zipfile.ZipFile(io.BytesIO(workbook_bytes())) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    sheet = members[SHEET_PART].decode()
    start, end = sheet.index("<sheetData>"), sheet.index("</sheetData>") + len("</sheetData>")
    members[SHEET_PART] = (sheet[:start] + f"<sheetData>{sheet_data}</sheetData>" + after
                           + sheet[end:]).encode()
    if strings is not None:
        members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
            b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
        members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(
            b"</Relationships>", b'<Relationship Id="rIdStrings" Type="http://schemas.'
            b'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
            b'Target="sharedStrings.xml"/></Relationships>')
        members[STRINGS_PART] = (
            '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f"{strings}</sst>").encode()
    return zip_of(members)


def refused_before_openpyxl(monkeypatch, data: bytes) -> tuple[str, int]:
    """Return the refusal of a workbook and the peak memory it took; openpyxl never runs."""
    monkeypatch.setattr("openpyxl.load_workbook", pytest.fail)
    messages = []
    peak = peak_memory_of(lambda: messages.append(refusal(XLSXFormat(), data)))
    return messages[0], peak


def test_a_header_row_of_two_cells_and_two_million_empty_ones_is_refused_at_once(monkeypatch):
    data = workbook_with('<row r="1">' + cell("A1", "ref") + cell("B1", "genre")
                         + "<c/>" * 2_000_000 + "</row>")
    assert len(data) < 100 * 1024

    message, peak = refused_before_openpyxl(monkeypatch, data)

    assert message == ("La ligne 1 du classeur a plus de 200 cellules ; le maximum est "
                       "200 colonnes.")
    assert peak < 2 * MEGABYTE


def test_a_data_row_of_a_million_cells_is_refused_at_once(monkeypatch):
    data = workbook_with(HEADER_ROW + '<row r="2">' + "<c><v>1</v></c>" * 1_000_000 + "</row>")

    message, peak = refused_before_openpyxl(monkeypatch, data)

    assert message.startswith("La ligne 2 du classeur a plus de 200 cellules")
    assert peak < 2 * MEGABYTE


def test_shared_strings_past_the_cell_budget_are_refused_before_openpyxl(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_CELLS = 1000
    data = workbook_with(HEADER_ROW, strings="<si><t>x</t></si>" * 100_000)

    message, peak = refused_before_openpyxl(monkeypatch, data)

    assert message == ("Le classeur déclare plus de 1000 textes partagés "
                       "(« xl/sharedStrings.xml ») : plus que les 1000 cellules qu’un import "
                       "peut lire.")
    assert peak < 2 * MEGABYTE


def test_a_sheet_past_the_cell_budget_is_refused(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_CELLS = 200
    rows = "".join(f'<row r="{n}">' + "<c/>" * 50 + "</row>" for n in range(2, 6))

    message, _peak = refused_before_openpyxl(monkeypatch, workbook_with(HEADER_ROW + rows))

    assert message == "Le classeur a plus de 200 cellules, le maximum d’un import : découpez-le."


def test_a_sheet_of_more_rows_than_the_cap_is_refused_before_openpyxl(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_ROWS = 10
    rows = "".join(f"<row>{cell('A1')}</row>" for _ in range(11))

    message, _peak = refused_before_openpyxl(monkeypatch, workbook_with(HEADER_ROW + rows))

    assert message.startswith("Le fichier a plus de 10 lignes (lignes vides comprises)")


def test_a_row_numbered_past_the_cap_is_refused_before_openpyxl(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_ROWS = 10
    data = workbook_with(HEADER_ROW + f'<row r="1048576">{cell("A1048576")}</row>')

    message, _peak = refused_before_openpyxl(monkeypatch, data)

    assert message.startswith("Le fichier a plus de 10 lignes")


def test_a_value_beyond_the_column_cap_of_a_data_row_is_refused_not_dropped(monkeypatch):
    data = workbook_with(HEADER_ROW + f'<row r="2">{cell("A2")}{cell("KQ2", "perdu")}</row>')

    message, _peak = refused_before_openpyxl(monkeypatch, data)

    assert message == ("Ligne 2, colonne 303 : une cellule remplie au-delà de la colonne 200 ; "
                       "le maximum est 200 colonnes.")


def test_an_empty_formatted_cell_beyond_the_column_cap_is_no_problem():
    data = workbook_with(HEADER_ROW + f'<row r="2">{cell("A2")}<c r="KQ2" s="0"/></row>')

    dataset = XLSXFormat().create_dataset(data)

    assert dataset.headers == ["ref", "genre"]
    assert list(dataset[0]) == ["x", ""]


def test_rows_and_cells_written_with_a_namespace_prefix_are_counted_too(monkeypatch):
    cells = '<x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c>' * 201
    data = workbook_with(HEADER_ROW + f'<x:row xmlns:x="{MAIN_NAMESPACE}" r="2">{cells}</x:row>')

    message, _peak = refused_before_openpyxl(monkeypatch, data)

    assert message.startswith("La ligne 2 du classeur a plus de 200 cellules")


def test_a_cell_flooded_with_rich_text_runs_is_refused(monkeypatch):
    runs = "<r><t>a</t></r>" * 100_000
    data = workbook_with(HEADER_ROW + f'<row r="2"><c r="A2" t="inlineStr"><is>{runs}</is></c>'
                         "</row>")

    message, peak = refused_before_openpyxl(monkeypatch, data)

    assert message == "Ligne 2, colonne 1 : plus de 1000 éléments XML dans une seule cellule."
    assert peak < 2 * MEGABYTE


def test_a_shared_string_flooded_with_rich_text_runs_is_refused(monkeypatch):
    data = workbook_with(HEADER_ROW, strings="<si><t>a</t></si><si>"
                         + "<r><t>a</t></r>" * 100_000 + "</si>")

    message, _peak = refused_before_openpyxl(monkeypatch, data)

    assert message == "Texte partagé n°2 : plus de 1000 éléments XML dans un seul texte."


def test_a_flood_of_elements_outside_the_cells_is_refused(monkeypatch):
    monkeypatch.setattr(formats, "MAX_STRUCTURE_ELEMENTS", 1000)
    merges = '<mergeCells>' + '<mergeCell ref="A1:B1"/>' * 2000 + "</mergeCells>"

    message, _peak = refused_before_openpyxl(monkeypatch, workbook_with(HEADER_ROW,
                                                                        after=merges))

    assert message == ("Archive endommagée, « xl/worksheets/sheet1.xml » : plus de 1000 "
                       "éléments XML hors des cellules.")


def test_a_workbook_of_more_elements_than_its_cells_need_is_refused(settings, monkeypatch):
    settings.PLATEAU_IMPORT_MAX_CELLS = 1000  # 4000 elements
    rich = '<c t="inlineStr"><is>' + "<r><t>a</t></r>" * 449 + "</is></c>"  # 900 elements
    data = workbook_with(HEADER_ROW + '<row r="2">' + rich * 5 + "</row>")

    message, _peak = refused_before_openpyxl(monkeypatch, data)

    assert message.startswith("Le classeur contient plus de 4000 éléments XML")


def test_a_workbook_at_the_caps_still_imports(settings):
    from openpyxl.utils import get_column_letter

    settings.PLATEAU_IMPORT_MAX_ROWS = 3
    columns = [get_column_letter(n) for n in range(1, 201)]
    header = "".join(cell(f"{c}1", f"c{n}") for n, c in enumerate(columns))
    values = "".join(cell(f"{c}2") for c in columns)
    data = workbook_with(f'<row r="1">{header}</row><row r="2">{values}</row>' + "<row/>" * 2)

    dataset = XLSXFormat().create_dataset(data)

    assert len(dataset.headers) == 200
    assert list(dataset[0]) == ["x"] * 200


# --- a reader that fails unexpectedly: named in French, logged, never a 500 ----------------


def test_a_workbook_with_a_broken_part_is_refused_naming_the_part():
    data = workbook_with(HEADER_ROW + "<row r='2'><c r='A2'><v>1</v></row>")

    assert refusal(XLSXFormat(), data).startswith(
        "Classeur XLSX illisible : « xl/worksheets/sheet1.xml » n’est pas du XML bien formé "
        "(ligne 1, colonne ")


def test_a_zip_chosen_as_a_workbook_is_refused_naming_the_missing_part():
    assert refusal(XLSXFormat(), zip_of({"questions.csv": SHEET})) == (
        "Classeur XLSX illisible : la partie « [Content_Types].xml » manque (une archive ZIP "
        "qui n’est pas un classeur ?).")


def failing_reader(self, data):
    return {}["colonne"]  # a KeyError, as a reader's bug would raise


def test_the_admin_names_the_format_when_a_reader_fails_unexpectedly(
        editor_client, monkeypatch, caplog):
    monkeypatch.setattr(formats.CSVFormat, "create_dataset", failing_reader)

    response = editor_client.post(reverse("admin:cms_question_import"), {
        "format": CSV_FORMAT, "resource": "0", "kind": "",
        "import_file": SimpleUploadedFile("lot.csv", SHEET),
    })

    assert response.status_code == 200
    assert response.context["form"].errors["import_file"] == [
        "Lecture impossible au format csv : le fichier semble endommagé (erreur KeyError, "
        "notée pour les développeurs)."]
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)


def test_the_admin_confirmation_names_the_format_when_a_reader_fails_unexpectedly(
        editor_client, monkeypatch, caplog):
    from tests.cms.test_import_confirm import confirm_fields, good_file, upload

    action, fields = confirm_fields(upload(editor_client, good_file()))
    monkeypatch.setattr(formats.CSVFormat, "create_dataset", failing_reader)

    response = editor_client.post(action, fields, follow=True)

    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Lecture impossible au format csv : le fichier semble endommagé (erreur KeyError, "
        "notée pour les développeurs)."]
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)
