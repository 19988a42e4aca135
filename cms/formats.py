"""File formats for bulk import and export: careful readers, formula-safe writers.

Each format turns the bytes of an upload into a tablib Dataset (or refuses the file with an
ImportFileError that says why in French) and turns a Dataset back into bytes. They plug into
django-import-export as its import and export formats, in the admin and the commands alike.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import posixpath
import random
import re
import struct
import unicodedata
import zipfile
import zlib
from collections import Counter
from xml.parsers import expat

import tablib
from django.conf import settings
from django.core.files.storage import default_storage
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export.formats.base_formats import Format

from .images import CleanImage, import_image
from .validators import megabytes

# A cell a spreadsheet could run as a formula starts with one of these.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"

SHEET_EXTENSIONS = ("csv", "xlsx", "json")

# No resource has more than a few dozen columns; past this a sheet is a mistake or an attack.
MAX_COLUMNS = 200
# Our JSON formats nest six levels at most (OpenQuizzDB); deeper is refused before any use.
MAX_JSON_DEPTH = 32
# No column takes a number longer than this (Python itself converts 4 300 digits at most).
MAX_JSON_DIGITS = 100
# Archive members are unpacked this many bytes at a time, whatever their headers declare.
UNPACK_CHUNK = 64 * 1024


class ImportFileError(ValueError):
    """A file that cannot be read as an import; the message says why, in French."""


def neutralise(value):
    """Return a cell a spreadsheet will show as text, never run as a formula.

    A leading quote is doubled too, so that `restore` gives back exactly what was exported.
    """
    if isinstance(value, str) and value.startswith((*FORMULA_TRIGGERS, QUOTE)):
        return QUOTE + value
    return value


def keep_own_quote(value):
    """Return a text for a cell typed as text: as it is, unless it starts with a quote that
    `restore` would take off on import; that one is kept behind one more quote."""
    if isinstance(value, str) and restore(value) != value:
        return QUOTE + value
    return value


def restore(value):
    """Undo `neutralise` on a cell read back from a spreadsheet file."""
    if (isinstance(value, str) and len(value) > 1 and value[0] == QUOTE
            and value[1] in (*FORMULA_TRIGGERS, QUOTE, "\n")):
        # "\n": spreadsheets store a leading carriage return as a line feed.
        return value[1:]
    return value


def normalise_header(header) -> str:
    """Return a column name as the resources know it: « Difficulté » → difficulte."""
    text = unicodedata.normalize("NFKD", str(header or "")).encode("ascii", "ignore").decode()
    return "_".join(text.casefold().replace("’", "'").split())


def _check_size(data: bytes, limit: int, label: str) -> None:
    if len(data) > limit:
        raise ImportFileError(_(
            "Le fichier %(label)s pèse %(size)s Mo ; le maximum est %(max)s Mo."
        ) % {"label": label, "size": megabytes(len(data)), "max": megabytes(limit)})


def _is_blank(values) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in values)


def build_dataset(headers, rows, *, first_line: int) -> tablib.Dataset:
    """Return a Dataset from a header row and data rows, refusing what cannot be imported.

    `first_line` is how the file numbers its first data row (2 in a sheet under its header
    row, 1 for the first object of a JSON list); reports use it to name rows.
    """
    max_rows = settings.PLATEAU_IMPORT_MAX_ROWS
    headers = list(headers)
    _check_column_count(len(headers))
    headers = [normalise_header(h) for h in headers]
    while headers and not headers[-1]:
        headers.pop()
    if not any(headers):
        raise ImportFileError(_("La première ligne doit donner le nom des colonnes."))
    if "" in headers:
        raise ImportFileError(_("La colonne %(n)s n’a pas de nom.") % {
            "n": headers.index("") + 1})
    repeated = sorted(h for h, n in Counter(headers).items() if n > 1)
    if repeated:
        raise ImportFileError(_("Colonne en double : %(cols)s.") % {"cols": ", ".join(repeated)})
    dataset = tablib.Dataset(headers=headers)
    blank_run = []
    scanned = 0
    for number, row in enumerate(rows, start=first_line):
        scanned += 1
        if scanned > max_rows:
            raise _too_many_rows(max_rows)
        row = list(row)
        if _is_blank(row):
            blank_run.append(number)
            continue
        # Blank rows inside the data stay, so that row numbers match the file.
        for _number in blank_run:
            dataset.append([""] * len(headers))
        blank_run = []
        extra = row[len(headers):]
        if not _is_blank(extra):
            raise ImportFileError(_(
                "Ligne %(line)s : %(found)s cellules remplies pour %(n)s colonnes."
            ) % {"line": number, "found": len(row), "n": len(headers)})
        row = row[:len(headers)] + [""] * (len(headers) - len(row))
        dataset.append(["" if v is None else v for v in row])
    dataset.first_line = first_line
    return dataset


def _too_many_rows(max_rows: int) -> ImportFileError:
    return ImportFileError(_(
        "Le fichier a plus de %(max)s lignes (lignes vides comprises) : "
        "découpez-le ou supprimez les lignes vides."
    ) % {"max": max_rows})


def _check_column_count(count: int) -> None:
    if count > MAX_COLUMNS:
        raise ImportFileError(_(
            "Le fichier a %(n)s colonnes ; le maximum est %(max)s."
        ) % {"n": count, "max": MAX_COLUMNS})


def replace_rows(dataset: tablib.Dataset, rows) -> tablib.Dataset:
    """Put these rows in place of the dataset's own, keeping its headers and line numbers."""
    first_line = getattr(dataset, "first_line", 1)
    headers = dataset.headers
    dataset.wipe()
    dataset.headers = headers
    for row in rows:
        dataset.append(row)
    dataset.first_line = first_line
    return dataset


# --- CSV ----------------------------------------------------------------------------------

BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16",
}
MAGIC = {
    b"PK\x03\x04": gettext_lazy("un classeur XLSX ou une archive ZIP"),
    b"%PDF": gettext_lazy("un PDF"),
    b"\x89PNG": gettext_lazy("une image PNG"),
    b"\xff\xd8\xff": gettext_lazy("une image JPEG"),
    b"\xd0\xcf\x11\xe0": gettext_lazy("un ancien classeur Excel (XLS)"),
}


def decode_text(data: bytes) -> str:
    """Return the text of an uploaded text file: UTF-8 (with or without BOM) or Windows-1252."""
    for bom, name in BOMS.items():
        if data.startswith(bom):
            raise ImportFileError(_(
                "Ce fichier est encodé en %(enc)s : enregistrez-le en UTF-8."
            ) % {"enc": name})
    for magic, what in MAGIC.items():
        if data.startswith(magic):
            raise ImportFileError(_(
                "Ce fichier n’est pas du texte mais %(what)s : choisissez le bon format."
            ) % {"what": what})
    if b"\x00" in data:
        raise ImportFileError(_("Ce fichier n’est pas du texte (il contient des octets nuls)."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise ImportFileError(_(
                "Encodage inconnu : ni UTF-8 ni Windows-1252. Enregistrez le fichier en UTF-8."
            )) from None
    controls = sum(1 for c in text if unicodedata.category(c) == "Cc" and c not in "\t\n\r")
    if controls:
        raise ImportFileError(_(
            "Ce fichier contient %(n)s caractère(s) de contrôle : ce n’est pas un texte lisible."
        ) % {"n": controls})
    return text


def reading_failure(file_format: Format, error: Exception) -> ImportFileError:
    """Return the last-resort refusal of a file whose reader failed in a way no check foresaw."""
    return ImportFileError(_(
        "Lecture impossible au format %(format)s : le fichier semble endommagé (erreur "
        "%(error)s, notée pour les développeurs)."
    ) % {"format": file_format.get_title(), "error": type(error).__name__})


class SafeFormat(Format):
    """What our formats share: bytes in, a titled format in the admin's lists."""

    title = ""
    extension = ""
    content_type = "application/octet-stream"
    exports = True

    def __init__(self, encoding=None):
        self.encoding = encoding  # the admin and commands pass it; we detect it ourselves

    def get_title(self):
        return self.title

    def get_extension(self):
        return self.extension

    def get_content_type(self):
        return self.content_type

    def is_binary(self):
        return True

    def get_read_mode(self):
        return "rb"

    def can_import(self):
        return True

    def can_export(self):
        return self.exports

    @staticmethod
    def as_bytes(in_stream) -> bytes:
        if isinstance(in_stream, str):
            return in_stream.encode("utf-8")
        return bytes(in_stream)


class CSVFormat(SafeFormat):
    title = "csv"
    extension = "csv"
    content_type = "text/csv"

    def create_dataset(self, in_stream):
        data = self.as_bytes(in_stream)
        _check_size(data, settings.PLATEAU_IMPORT_MAX_BYTES, "CSV")
        text = decode_text(data)
        if not text.strip():
            raise ImportFileError(_("Le fichier est vide."))
        first_line = text.split("\n", 1)[0]
        # French spreadsheets save CSV with semicolons.
        delimiter = max(";,\t", key=first_line.count)
        rows = read_csv_rows(text, delimiter)
        # Refused before any work per column, so that a 100 000-column header costs nothing.
        _check_column_count(len(rows[0]) if rows else 0)
        rows = [[restore(cell) for cell in row] for row in rows]
        return build_dataset(rows[0], rows[1:], first_line=2)

    def export_data(self, dataset, **kwargs):
        out = io.StringIO(newline="")
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(dataset.headers)
        for row in dataset:
            writer.writerow([neutralise(_cell_text(v)) for v in row])
        # A BOM so that Excel reads the accents right.
        return ("\ufeff" + out.getvalue()).encode("utf-8")


def read_csv_rows(text: str, delimiter: str) -> list[list[str]]:
    """Return the rows of a CSV text, or refuse it in French, naming the line at fault."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows = []
    while True:
        first_line = reader.line_num + 1  # where the row being read starts
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as error:
            raise _csv_problem(str(error), first_line, delimiter) from None
        rows.append(row)


def _csv_problem(message: str, line: int, delimiter: str) -> ImportFileError:
    """Return the csv module's error (English, and not always clear) in French."""
    if message.startswith("field larger than field limit"):
        return ImportFileError(_(
            "Ligne %(line)s : une cellule est trop longue (plus de %(max)s caractères, la "
            "limite). Souvent, un guillemet ouvert et jamais fermé avale la suite du fichier."
        ) % {"line": line, "max": csv.field_size_limit()})
    if message == "unexpected end of data":
        return ImportFileError(_(
            "Ligne %(line)s : un guillemet ouvert n’est jamais fermé (la fin du fichier arrive "
            "avant)."
        ) % {"line": line})
    if message.endswith("expected after '\"'"):
        return ImportFileError(_(
            "Ligne %(line)s : un guillemet fermant est suivi d’autre chose que le séparateur "
            "« %(sep)s ». Dans une cellule entre guillemets, doublez les guillemets (\"\")."
        ) % {"line": line, "sep": "\\t" if delimiter == "\t" else delimiter})
    return ImportFileError(_(
        "Ligne %(line)s : CSV mal formé, cette ligne ne peut pas être découpée en cellules."
    ) % {"line": line})


def _cell_text(value) -> str:
    return "" if value is None else str(value)


# --- XLSX ---------------------------------------------------------------------------------


class XLSXFormat(SafeFormat):
    title = "xlsx"
    extension = "xlsx"
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    def create_dataset(self, in_stream):
        import openpyxl

        data = self.as_bytes(in_stream)
        _check_size(data, settings.PLATEAU_IMPORT_MAX_BYTES, "XLSX")
        scan = WorkbookScan()
        _check_archive(data, _("Ce fichier n’est pas un classeur XLSX (ou il est tronqué)."),
                       scan=scan)
        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises anything from KeyError to XML errors
            raise _unreadable_workbook(scan, error) from None
        try:
            sheet = book.active
            if not hasattr(sheet, "iter_rows"):  # no sheet, or a chart sheet
                raise ImportFileError(_(
                    "La feuille active du classeur n’est pas un tableau : ouvrez le classeur, "
                    "affichez la feuille à importer et enregistrez-le."))
            # The <dimension> a file declares would pad every row up to its width (16 384
            # columns at most): forget it. No row is read past the column cap: the scan of the
            # archive refused any cell beyond it that holds a value.
            sheet.reset_dimensions()
            try:
                headers = next(sheet.iter_rows(max_row=1, max_col=MAX_COLUMNS,
                                               values_only=True))
            except StopIteration:
                raise ImportFileError(_("Le classeur est vide.")) from None
            headers = list(headers)
            while headers and headers[-1] is None:
                headers.pop()
            rows = sheet.iter_rows(min_row=2, max_col=MAX_COLUMNS, values_only=True)
            return build_dataset(headers, (_xlsx_row(r) for r in rows), first_line=2)
        except ImportFileError:
            raise
        except Exception as error:
            raise _unreadable_workbook(scan, error) from None
        finally:
            book.close()

    def export_data(self, dataset, **kwargs):
        import openpyxl
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
        from openpyxl.styles import Font

        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet(title=(dataset.title or "contenu")[:31])
        bold = Font(bold=True)
        header_cells = []
        for name in dataset.headers:
            cell = openpyxl.cell.WriteOnlyCell(sheet, value=name)
            cell.font = bold
            header_cells.append(cell)
        sheet.append(header_cells)
        for row in dataset:
            cells = []
            for value in row:
                if isinstance(value, str):
                    value = keep_own_quote(ILLEGAL_CHARACTERS_RE.sub("\ufffd", value))
                    cell = openpyxl.cell.WriteOnlyCell(sheet, value=value)
                    # A cell typed as text is never run as a formula, whatever it starts
                    # with: no quote in front, unlike CSV (whose cells have no type).
                    cell.data_type = "s"
                else:
                    cell = openpyxl.cell.WriteOnlyCell(sheet, value=value)
                cells.append(cell)
            sheet.append(cells)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()


def _unreadable_workbook(scan: WorkbookScan, error: Exception) -> ImportFileError:
    """Return what made openpyxl fail, named as closely as the file lets us."""
    if scan.broken_xml:
        name, line, column = scan.broken_xml[0]
        return ImportFileError(_(
            "Classeur XLSX illisible : « %(name)s » n’est pas du XML bien formé (ligne "
            "%(line)s, colonne %(column)s)."
        ) % {"name": name, "line": line, "column": column})
    missing = re.fullmatch(r"\"?There is no item named '(.*)' in the archive\"?", str(error))
    if isinstance(error, KeyError) and missing:
        return ImportFileError(_(
            "Classeur XLSX illisible : la partie « %(name)s » manque (une archive ZIP qui "
            "n’est pas un classeur ?)."
        ) % {"name": missing.group(1)})
    # Anything else is openpyxl's own words (a value out of its range, a missing reference):
    # given as they are, they still point at the problem.
    detail = f"{type(error).__name__}: {error}"
    return ImportFileError(_(
        "Classeur XLSX illisible, il semble endommagé (détail technique : %(detail)s)."
    ) % {"detail": detail if len(detail) <= 160 else detail[:159] + "…"})


def _xlsx_row(values):
    row = []
    for value in values:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str):
            value = restore(value)
        elif value is not None and not isinstance(value, int | bool):
            value = str(value)
        row.append(value)
    return row


def _check_archive(data: bytes, message: str, *,
                   scan: WorkbookScan | None = None) -> zipfile.ZipFile:
    """Open a ZIP container whose every member was unpacked and found as its headers say.

    Each member is unpacked here in chunks, under a cap on the bytes really produced; its real
    size and CRC must match its headers. Readers that trust the headers afterwards (zipfile,
    openpyxl) are then bounded too. With a workbook's `scan`, a member declaring a DTD (which
    no workbook needs, and whose entities can expand a few bytes into millions) is refused,
    and the XML of every member is counted as it unpacks (see `WorkbookScan`).
    """
    # zipfile keeps an object per member: count them first (an upper bound, each central
    # directory entry starts with this signature) rather than let a small file hold millions.
    max_members = settings.PLATEAU_IMPORT_MAX_ROWS + 100  # a bundle: a sheet, an image a row
    entries = data.count(b"PK\x01\x02")
    if entries > max_members:
        raise ImportFileError(_(
            "L’archive contient plus de %(max)s fichiers ; elle en annonce %(n)s."
        ) % {"max": max_members, "n": entries})
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error,
            NotImplementedError, RuntimeError):
        raise ImportFileError(message) from None
    limit = settings.PLATEAU_IMPORT_MAX_UNPACKED_BYTES
    declared = sum(m.file_size for m in members)
    if declared > limit:
        raise _unpacked_too_large(declared, limit)
    budget = limit
    for info in members:
        budget -= _unpack_member(data, info, budget=budget, limit=limit, scan=scan)
    return archive


def _unpacked_too_large(size: int, limit: int) -> ImportFileError:
    return ImportFileError(_(
        "Une fois décompressé, ce fichier ferait %(size)s Mo ; le maximum est %(max)s Mo."
    ) % {"size": megabytes(size), "max": megabytes(limit)})


def _damaged_member(info: zipfile.ZipInfo, problem: str) -> ImportFileError:
    return ImportFileError(_(
        "Archive endommagée, « %(name)s » : %(problem)s."
    ) % {"name": info.filename, "problem": problem})


LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, then the name and extra field lengths
DTD_MARKS = tuple("<!DOCTYPE".encode(codec) for codec in ("utf-8", "utf-16-le", "utf-16-be"))
DTD_OVERLAP = max(len(mark) for mark in DTD_MARKS) - 1  # a mark may straddle two chunks


def _unpack_member(data: bytes, info: zipfile.ZipInfo, *, budget: int, limit: int,
                   scan: WorkbookScan | None = None) -> int:
    """Unpack one member in chunks without keeping it; return its real size.

    With a workbook's `scan`, a DTD is refused and the member's XML is counted as it comes.
    """
    if info.flag_bits & 0x1:
        raise _damaged_member(info, _("fichier chiffré (protégé par mot de passe), "
                                      "impossible à lire"))
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        # Deflate64, bzip2, LZMA…: zipfile cannot read some, and cannot bound the others.
        raise _damaged_member(info, _(
            "méthode de compression n°%(method)s non prise en charge (enregistrez l’archive "
            "en « Deflate » standard)") % {"method": info.compress_type})
    start = info.header_offset
    try:
        signature, name_length, extra_length = LOCAL_HEADER.unpack_from(data, start)
    except struct.error:
        signature = b""
    if signature != b"PK\x03\x04":
        raise _damaged_member(info, _("en-tête introuvable (archive tronquée)"))
    start += LOCAL_HEADER.size + name_length + extra_length
    packed = memoryview(data)[start:start + info.compress_size]
    if len(packed) < info.compress_size:
        raise _damaged_member(info, _("données tronquées"))
    size = 0
    crc = 0
    tail = b""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS) if info.compress_type else None
    part = scan.part(info) if scan is not None else None
    try:
        for offset in range(0, len(packed), UNPACK_CHUNK):
            chunk = packed[offset:offset + UNPACK_CHUNK]
            while chunk:
                if inflater is None:
                    out, chunk = bytes(chunk), b""
                else:
                    # max_length: never more than a chunk out, however well it compresses.
                    out = inflater.decompress(chunk, UNPACK_CHUNK)
                    chunk = inflater.unconsumed_tail
                size += len(out)
                if size > budget:
                    raise _unpacked_too_large(limit - budget + size, limit)
                crc = zlib.crc32(out, crc)
                if part is not None:
                    window = tail + out
                    if any(mark in window for mark in DTD_MARKS):
                        raise _dtd_refused(info)
                    tail = window[-DTD_OVERLAP:]
                    part.feed(out)
                if inflater is not None and inflater.eof:
                    break
            if inflater is not None and inflater.eof:
                break  # what follows the end of the stream is not part of the member
        if inflater is not None and not inflater.eof:
            raise _damaged_member(info, _("données compressées tronquées"))
        if part is not None:
            part.feed(b"", final=True)
    except zlib.error:
        raise _damaged_member(info, _("données compressées illisibles")) from None
    if size != info.file_size:
        raise _damaged_member(info, _(
            "taille annoncée %(declared)s octets, taille réelle %(real)s octets"
        ) % {"declared": info.file_size, "real": size})
    if crc != info.CRC:
        raise _damaged_member(info, _("somme de contrôle (CRC) incorrecte"))
    return size


def _dtd_refused(info: zipfile.ZipInfo) -> ImportFileError:
    return _damaged_member(info, _(
        "déclaration <!DOCTYPE> refusée (un classeur n’en contient jamais)"))


# A cell's or a shared string's rich text past this many elements is an attack, not a quiz.
MAX_ELEMENTS_PER_CELL = 1000
# Elements outside cells and shared strings (styles, merged ranges, links…): openpyxl keeps
# each one in memory until the part is read, so they are capped on their own.
MAX_STRUCTURE_ELEMENTS = 200_000
# All the XML elements of a workbook, for each cell of the budget: the cell, its value, its
# text and a few of rich text.
ELEMENTS_PER_CELL = 4
VALUE_TAGS = frozenset({"v", "f", "is"})


class WorkbookScan:
    """What openpyxl would build from a workbook, counted from its XML before it builds it.

    Every member is read as it unpacks, with expat and no tree, and refused as soon as a
    count passes its cap: a row of more than MAX_COLUMNS cells or with a value beyond them, a
    sheet of more rows than an import takes, more cells or more shared strings than
    PLATEAU_IMPORT_MAX_CELLS, more elements than a few per cell. So the cost of a refusal
    is bounded by what was read, whatever the file declares.
    """

    def __init__(self):
        self.max_cells = settings.PLATEAU_IMPORT_MAX_CELLS
        self.max_rows = settings.PLATEAU_IMPORT_MAX_ROWS
        self.max_elements = ELEMENTS_PER_CELL * self.max_cells
        self.elements_left = self.max_elements
        self.cells = self.strings = self.structure = 0
        self.broken_xml: list[tuple[str, int, int]] = []  # (member, line, column)

    def part(self, info: zipfile.ZipInfo) -> PartScan:
        return PartScan(self, info)


# What an element is to the scan, by its name without prefix.
OTHER, ROW, CELL, SHARED_STRING = range(4)
ELEMENT_KINDS = {"row": ROW, "c": CELL, "si": SHARED_STRING}


class PartScan:
    """One member of a workbook, fed to expat chunk by chunk, counted by a WorkbookScan.

    `start` runs for every element of the file: it is kept short.
    """

    def __init__(self, scan: WorkbookScan, info: zipfile.ZipInfo):
        self.scan = scan
        self.info = info
        self.readable = True
        self.elements_left = scan.elements_left
        self.kinds: dict[str, int] = {}
        self.depth = 0
        # Where the open row, and the open cell or shared string, began (0: none open).
        self.row_depth = self.item_depth = 0
        self.rows = self.row = self.row_cells = self.column = self.item_elements = 0
        parser = expat.ParserCreate()
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.StartDoctypeDeclHandler = self.refuse_dtd
        parser.EntityDeclHandler = self.refuse_dtd
        self.parser = parser

    def feed(self, data: bytes, *, final: bool = False) -> None:
        if self.readable:
            try:
                self.parser.Parse(data, final)
            except expat.ExpatError as error:
                # Not XML (a picture), or XML broken here: openpyxl reads with expat too and
                # stops at the same byte, so nothing past it can cost anything.
                self.readable = False
                if self.info.filename.endswith((".xml", ".rels")):
                    self.scan.broken_xml.append(
                        (self.info.filename, error.lineno, error.offset + 1))
        if final:
            self.scan.elements_left = self.elements_left

    def refuse_dtd(self, *args) -> None:
        raise _dtd_refused(self.info)

    def start(self, name: str, attrs: dict) -> None:
        self.elements_left -= 1
        if self.elements_left < 0:
            raise ImportFileError(_(
                "Le classeur contient plus de %(max)s éléments XML, bien plus que ses "
                "cellules n’en demandent : il ne peut pas être importé."
            ) % {"max": self.scan.max_elements})
        self.depth += 1
        if self.item_depth:  # inside a cell or a shared string
            self.item_elements += 1
            if self.item_elements > MAX_ELEMENTS_PER_CELL:
                raise self.too_rich()
            if self.column > MAX_COLUMNS and _local_name(name) in VALUE_TAGS:
                raise ImportFileError(_(
                    "Ligne %(line)s, colonne %(column)s : une cellule remplie au-delà de la "
                    "colonne %(max)s ; le maximum est %(max)s colonnes."
                ) % {"line": self.row, "column": self.column, "max": MAX_COLUMNS})
            return
        kind = self.kinds.get(name)
        if kind is None:
            kind = ELEMENT_KINDS.get(_local_name(name), OTHER)
            if len(self.kinds) < 100:  # a file may invent names without end
                self.kinds[name] = kind
        if kind == CELL and self.row_depth:
            self.start_cell(attrs)
        elif kind == ROW:
            self.start_row(attrs)
        elif kind == SHARED_STRING:
            self.start_shared_string()
        else:
            self.scan.structure += 1
            if self.scan.structure > MAX_STRUCTURE_ELEMENTS:
                raise _damaged_member(self.info, _(
                    "plus de %(max)s éléments XML hors des cellules"
                ) % {"max": MAX_STRUCTURE_ELEMENTS})

    def end(self, name: str) -> None:
        if self.depth == self.item_depth:
            self.item_depth = 0
        elif self.depth == self.row_depth:
            self.row_depth = 0
        self.depth -= 1

    def start_row(self, attrs: dict) -> None:
        self.rows += 1
        number = attrs.get("r", "")
        # openpyxl takes the row number from r, else counts on from the row before.
        self.row = int(number) if number.isdigit() and len(number) < 10 else self.row + 1
        if max(self.rows, self.row) > self.scan.max_rows + 1:  # + 1: the header row
            raise _too_many_rows(self.scan.max_rows)
        self.row_depth = self.depth
        self.row_cells = self.column = 0

    def start_cell(self, attrs: dict) -> None:
        scan = self.scan
        self.row_cells += 1
        if self.row_cells > MAX_COLUMNS:
            raise ImportFileError(_(
                "La ligne %(line)s du classeur a plus de %(max)s cellules ; le maximum est "
                "%(max)s colonnes."
            ) % {"line": self.row, "max": MAX_COLUMNS})
        scan.cells += 1
        if scan.cells > scan.max_cells:
            raise ImportFileError(_(
                "Le classeur a plus de %(max)s cellules, le maximum d’un import : "
                "découpez-le."
            ) % {"max": scan.max_cells})
        self.column = _column_number(attrs.get("r"), after=self.column)
        self.item_depth = self.depth
        self.item_elements = 0

    def start_shared_string(self) -> None:
        scan = self.scan
        scan.strings += 1
        if scan.strings > scan.max_cells:
            raise ImportFileError(_(
                "Le classeur déclare plus de %(max)s textes partagés (« %(name)s ») : plus "
                "que les %(max)s cellules qu’un import peut lire."
            ) % {"max": scan.max_cells, "name": self.info.filename})
        self.item_depth = self.depth
        self.item_elements = 0

    def too_rich(self) -> ImportFileError:
        if self.row_depth:
            return ImportFileError(_(
                "Ligne %(line)s, colonne %(column)s : plus de %(max)s éléments XML dans une "
                "seule cellule."
            ) % {"line": self.row, "column": self.column, "max": MAX_ELEMENTS_PER_CELL})
        return ImportFileError(_(
            "Texte partagé n°%(n)s : plus de %(max)s éléments XML dans un seul texte."
        ) % {"n": self.scan.strings, "max": MAX_ELEMENTS_PER_CELL})


def _local_name(name: str) -> str:
    return name[name.find(":") + 1:]  # a prefix is the namespace's business, not ours


def _column_number(ref: str | None, *, after: int) -> int:
    """Return the column of a cell reference (« AB12 » → 28), as openpyxl reads it."""
    letters = (ref or "").replace("$", "").rstrip("0123456789").upper()
    if not (letters.isascii() and letters.isalpha() and len(letters) <= 3):
        return after + 1  # no reference: the next column (openpyxl refuses a bad one)
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


# --- JSON ---------------------------------------------------------------------------------


def load_json(data: bytes):
    """Return the parsed JSON of an upload, or refuse it with the place of the mistake."""
    _check_size(data, settings.PLATEAU_IMPORT_MAX_BYTES, "JSON")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFileError(_("Un fichier JSON doit être encodé en UTF-8.")) from None
    try:
        parsed = json.loads(text, parse_int=_json_integer)
    except json.JSONDecodeError as error:
        raise ImportFileError(_(
            "JSON invalide, ligne %(line)s, colonne %(col)s : %(msg)s."
        ) % {"line": error.lineno, "col": error.colno,
             "msg": _json_problem(error.msg)}) from None
    except RecursionError:
        raise _json_too_deep() from None
    if json_depth(parsed) > MAX_JSON_DEPTH:
        raise _json_too_deep()
    return parsed


def _json_integer(digits: str) -> int:
    # Python refuses to convert more than 4 300 digits, with a ValueError the import would
    # not expect; no column wants a number anywhere near this long.
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise ImportFileError(_(
            "JSON : un nombre de %(n)s chiffres ; aucune colonne n’en prend plus de %(max)s."
        ) % {"n": len(digits.lstrip("-")), "max": MAX_JSON_DIGITS})
    return int(digits)


# What the json module says, in French; anything else is named as a mistake in the syntax.
JSON_PROBLEMS = {
    "Expecting value": gettext_lazy("une valeur est attendue"),
    "Expecting ',' delimiter": gettext_lazy("une virgule est attendue"),
    "Expecting ':' delimiter": gettext_lazy("deux-points sont attendus"),
    "Expecting property name enclosed in double quotes": gettext_lazy(
        "un nom de clé entre guillemets droits (\"…\") est attendu"),
    "Unterminated string starting at": gettext_lazy("texte non terminé (guillemet manquant)"),
    "Invalid control character at": gettext_lazy(
        "caractère de contrôle dans un texte (une tabulation ou un saut de ligne s’écrivent "
        "\\t et \\n)"),
    "Invalid \\escape": gettext_lazy("barre oblique inverse (\\) suivie d’un caractère "
                                     "inconnu"),
    "Invalid \\uXXXX escape": gettext_lazy("séquence \\u mal formée"),
    "Extra data": gettext_lazy("du contenu suit la fin du JSON"),
}


def _json_problem(message: str) -> str:
    return str(JSON_PROBLEMS.get(message) or _("erreur de syntaxe"))


def _json_too_deep() -> ImportFileError:
    return ImportFileError(_(
        "JSON trop imbriqué : plus de %(max)s niveaux de [ ] ou { } emboîtés."
    ) % {"max": MAX_JSON_DEPTH})


def json_depth(value) -> int:
    """Return how deep lists and objects nest in a parsed JSON value, without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in value)
    return deepest


class JSONFormat(SafeFormat):
    title = "json"
    extension = "json"
    content_type = "application/json"

    def create_dataset(self, in_stream):
        items = load_json(self.as_bytes(in_stream))
        if not isinstance(items, list):
            raise ImportFileError(_(
                "Le JSON doit être une liste d’objets, un par ligne à importer "
                "(ce fichier contient un objet %(type)s)."
            ) % {"type": type(items).__name__})
        if not items:
            raise ImportFileError(_("La liste est vide : rien à importer."))
        headers: dict[str, None] = {}
        for number, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise ImportFileError(_(
                    "Élément n°%(n)s : un objet {…} est attendu."
                ) % {"n": number})
            for key, value in item.items():
                if isinstance(value, dict | list):
                    raise ImportFileError(_(
                        "Élément n°%(n)s, « %(key)s » : une valeur simple est attendue "
                        "(texte ou nombre)."
                    ) % {"n": number, "key": key})
                headers.setdefault(key, None)
                if len(headers) > MAX_COLUMNS:
                    _check_column_count(len(headers))
        keys = list(headers)
        rows = ([item.get(key) for key in keys] for item in items)
        return build_dataset(keys, rows, first_line=1)

    def export_data(self, dataset, **kwargs):
        items = [{h: v for h, v in zip(dataset.headers, row, strict=True) if v not in ("", None)}
                 for row in dataset]
        return (json.dumps(items, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# --- ZIP bundles: a sheet and the images it names ----------------------------------------


def safe_member_path(name: str) -> str | None:
    """Return a path inside an archive in canonical form, or None if it points outside."""
    if not name or "\\" in name or "\x00" in name or name.startswith("/"):
        return None
    path = posixpath.normpath(name)
    if path.startswith("../") or path == ".." or posixpath.isabs(path) or ":" in path:
        return None
    return path


class ZIPFormat(SafeFormat):
    """A ZIP holding one sheet (CSV, XLSX or JSON) and the image files its rows name."""

    title = "zip"
    extension = "zip"
    content_type = "application/zip"
    image_column = "image"

    def create_dataset(self, in_stream):
        data = self.as_bytes(in_stream)
        _check_size(data, settings.PLATEAU_IMPORT_MAX_ZIP_BYTES, "ZIP")
        archive = _check_archive(data, _("Ce fichier n’est pas une archive ZIP (ou il est "
                                         "tronqué)."))
        members = {}
        for info in archive.infolist():
            if info.is_dir() or info.filename.startswith("__MACOSX/"):
                continue
            path = safe_member_path(info.filename)
            if path is None:
                raise ImportFileError(_(
                    "L’archive contient un chemin interdit : « %(name)s »."
                ) % {"name": info.filename})
            if posixpath.basename(path).startswith("."):
                continue
            members[path] = info
        sheets = [p for p in members if p.rsplit(".", 1)[-1].lower() in SHEET_EXTENSIONS]
        if len(sheets) != 1:
            raise ImportFileError(_(
                "L’archive doit contenir une seule feuille (CSV, XLSX ou JSON) ; elle en "
                "contient %(n)s."
            ) % {"n": len(sheets)})
        sheet = sheets[0]
        sheet_format = FORMATS_BY_EXTENSION[sheet.rsplit(".", 1)[-1].lower()]()
        dataset = sheet_format.create_dataset(archive.read(members[sheet]))
        if self.image_column not in dataset.headers:
            return dataset
        base = posixpath.dirname(sheet)
        column = dataset.headers.index(self.image_column)
        images: dict[str, CleanImage] = {}
        rows = []
        for number, row in enumerate(dataset, start=dataset.first_line):
            row = list(row)
            name = str(row[column] or "").strip()
            if name:
                row[column] = images.get(name) or self.read_image(
                    archive, members, base, name, number)
                images[name] = row[column]
            rows.append(row)
        return replace_rows(dataset, rows)

    @staticmethod
    def read_image(archive, members, base, name, number) -> CleanImage:
        path = safe_member_path(name)
        if path is None:
            raise ImportFileError(_(
                "Ligne %(line)s, colonne image : chemin interdit « %(name)s »."
            ) % {"line": number, "name": name})
        info = members.get(path) or members.get(posixpath.join(base, path))
        if info is None:
            raise ImportFileError(_(
                "Ligne %(line)s, colonne image : « %(name)s » n’est pas dans l’archive."
            ) % {"line": number, "name": name})
        limit = settings.PLATEAU_IMAGE_MAX_BYTES
        if info.file_size > limit:
            raise ImportFileError(_(
                "Ligne %(line)s, image « %(name)s » : %(size)s Mo ; le maximum est %(max)s Mo."
            ) % {"line": number, "name": name, "size": megabytes(info.file_size),
                 "max": megabytes(limit)})
        with archive.open(info) as member:
            content = member.read(limit + 1)
        if len(content) > limit:
            raise ImportFileError(_("Image « %(name)s » trop lourde.") % {"name": name})
        try:
            return import_image(content, name)
        except ImportFileError as error:
            raise ImportFileError(_("Ligne %(line)s : %(error)s") % {
                "line": number, "error": error}) from None

    def export_data(self, dataset, **kwargs):
        out = io.BytesIO()
        rows = []
        stored: dict[str, str] = {}
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            column = (dataset.headers.index(self.image_column)
                      if self.image_column in dataset.headers else None)
            for row in dataset:
                row = list(row)
                name = str(row[column] or "") if column is not None else ""
                if name:
                    if name not in stored:
                        inner = f"images/{posixpath.basename(name)}"
                        with default_storage.open(name, "rb") as image:
                            _write_member(archive, inner, image.read())
                        stored[name] = inner
                    row[column] = stored[name]
                rows.append(row)
            sheet = tablib.Dataset(*rows, headers=dataset.headers)
            _write_member(archive, "contenu.csv", CSVFormat().export_data(sheet))
        return out.getvalue()


def _write_member(archive: zipfile.ZipFile, name: str, content: bytes) -> None:
    # A fixed date keeps exports of the same content byte for byte the same.
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, content)


# --- Public question banks ----------------------------------------------------------------


def shuffled(options: list[str], seed: str) -> list[str]:
    """Return the options in an order fixed by the seed, so re-imports match."""
    options = list(options)
    random.Random(seed).shuffle(options)
    return options


def bank_ref(prefix: str, text: str) -> str:
    return f"{prefix}-{hashlib.sha1(text.encode('utf-8')).hexdigest()[:12]}"


BANK_HEADERS = ["ref", "texte", "difficulte", "theme", "proposition_1", "proposition_2",
                "proposition_3", "proposition_4", "bonnes", "reponse", "anecdote", "source",
                "statut"]
MAX_BANK_OPTIONS = 4  # the proposition columns above


def bank_row(*, prefix, text, difficulty, theme, right, wrong, anecdote="", source=""):
    """Return a question of a bank as a row of BANK_HEADERS, its options in a fixed order.

    The caller checked that the right answer and the wrong ones fit in the columns.
    """
    ref = bank_ref(prefix, text)
    options = shuffled([right, *wrong], ref)
    propositions = options + [""] * (MAX_BANK_OPTIONS - len(options))
    return [ref, text, difficulty, theme, *propositions, str(options.index(right) + 1),
            right, anecdote, source, "draft"]


class BankQuestion:
    """One question of a bank's JSON, read field by field; every refusal names it."""

    def __init__(self, item, where: str):
        self.where = where
        if not isinstance(item, dict):
            raise self.error(_("un objet {…} est attendu"))
        self.item = item

    def error(self, problem: str) -> ImportFileError:
        return ImportFileError(_("%(where)s : %(problem)s.") % {
            "where": self.where, "problem": problem})

    def text(self, key: str, *, required: bool = True) -> str:
        """Return the text under `key` ("" if it may be missing and is)."""
        value = self.item.get(key)
        if value is None and not required:
            return ""
        if value is None:
            raise self.error(_("« %(key)s » manque") % {"key": key})
        text = _bank_text(value)
        if text is None:
            raise self.error(_("« %(key)s » doit être un texte, pas %(value)s") % {
                "key": key, "value": _json_shown(value)})
        return text

    def texts(self, key: str) -> list[str]:
        """Return the list of texts under `key`."""
        values = self.item.get(key)
        if values is None:
            raise self.error(_("« %(key)s » manque") % {"key": key})
        texts = [_bank_text(v) for v in values] if isinstance(values, list) else [None]
        if None in texts:
            raise self.error(_("« %(key)s » doit être une liste de textes, pas %(value)s") % {
                "key": key, "value": _json_shown(values)})
        return texts

    def options(self, right: str, wrong: list[str]) -> list[str]:
        """Return the wrong answers, refusing a question whose options do not fit.

        Never drop one: keeping some would import a question other than the bank's.
        """
        wrong = [w for w in wrong if w != right]
        count = 1 + len(wrong)
        if count > MAX_BANK_OPTIONS:
            raise self.error(_(
                "%(count)s propositions, une question en a %(max)s au plus : gardez la bonne "
                "réponse et %(wrong)s mauvaises dans le fichier, l’import n’en écarte aucune à "
                "votre place"
            ) % {"count": count, "max": MAX_BANK_OPTIONS, "wrong": MAX_BANK_OPTIONS - 1})
        return wrong


def _bank_text(value) -> str | None:
    """Return a bank's scalar as text, or None for anything else (a list, an object, a bool)."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _json_shown(value) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:39] + "…"


class BankFormat(SafeFormat):
    """A public question bank's own JSON, read into our columns as draft questions.

    The kind is not in the file: the importer asks for it (the admin's « genre » field, the
    command's --kind).
    """

    exports = False

    def create_dataset(self, in_stream):
        data = load_json(self.as_bytes(in_stream))
        rows = list(self.rows(data))
        if not rows:
            raise ImportFileError(_("Aucune question trouvée dans ce fichier %(bank)s.") % {
                "bank": self.title})
        return build_dataset(BANK_HEADERS, rows, first_line=1)


OPENTDB_DIFFICULTY = {"easy": 1, "medium": 3, "hard": 5}


class OpenTriviaDBFormat(BankFormat):
    """Open Trivia DB: {"results": [{category, type, difficulty, question, correct_answer,
    incorrect_answers}]} with HTML entities."""

    title = "Open Trivia DB (json)"

    def rows(self, data):
        items = data.get("results") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ImportFileError(_(
                "Ce n’est pas un fichier Open Trivia DB : la liste « results » manque."))
        for number, item in enumerate(items, start=1):
            question = BankQuestion(item, _("Question n°%(n)s") % {"n": number})
            text = html.unescape(question.text("question"))
            right = html.unescape(question.text("correct_answer"))
            wrong = [html.unescape(w) for w in question.texts("incorrect_answers")]
            level = question.item.get("difficulty", "")
            if not isinstance(level, str) or level not in OPENTDB_DIFFICULTY:
                raise question.error(_(
                    "difficulté %(level)s inconnue (easy, medium, hard)"
                ) % {"level": _json_shown(level)})
            yield bank_row(prefix="otdb", text=text, difficulty=OPENTDB_DIFFICULTY[level],
                           theme=html.unescape(question.text("category", required=False)),
                           right=right, wrong=question.options(right, wrong),
                           source="Open Trivia DB (CC BY-SA 4.0)")


OPENQUIZZDB_LEVELS = {"debutant": 1, "confirme": 3, "expert": 5}
OPENQUIZZDB_META = "catégorie-nom-slogan"


class OpenQuizzDBFormat(BankFormat):
    """OpenQuizzDB: {"quizz": {"fr": {"débutant": [...], "confirmé": [...], "expert": [...]}}}."""

    title = "OpenQuizzDB (json)"

    def rows(self, data):
        if not isinstance(data, dict) or not isinstance(data.get("quizz"), dict):
            raise ImportFileError(_("Ce n’est pas un fichier OpenQuizzDB : « quizz » manque."))
        quizz = data["quizz"]
        levels = quizz.get("fr", quizz)
        if not isinstance(levels, dict):
            raise ImportFileError(_("OpenQuizzDB : les questions en français manquent."))
        theme = self.theme(data)
        credit = ", ".join(str(x) for x in (
            "OpenQuizzDB", data.get("licence") or "CC BY-SA", data.get("rédacteur")) if x)
        for level, items in levels.items():
            difficulty = OPENQUIZZDB_LEVELS.get(normalise_header(level))
            if difficulty is None:
                continue  # another language's questions, when « fr » is not there
            if not isinstance(items, list):
                raise ImportFileError(_(
                    "OpenQuizzDB, niveau %(level)s : une liste de questions est attendue."
                ) % {"level": level})
            for number, item in enumerate(items, start=1):
                question = BankQuestion(item, _(
                    "OpenQuizzDB, niveau %(level)s, question n°%(n)s"
                ) % {"level": level, "n": number})
                text = question.text("question")
                right = question.text("réponse")
                options = question.texts("propositions")
                if right not in options:
                    raise question.error(_(
                        "la réponse « %(right)s » n’est pas parmi les propositions"
                    ) % {"right": right})
                yield bank_row(prefix="oqdb", text=text, difficulty=difficulty, theme=theme,
                               right=right, wrong=question.options(right, options),
                               anecdote=question.text("anecdote", required=False),
                               source=credit)

    @staticmethod
    def theme(data) -> str:
        """Return the quiz's name (or category), from its French metadata."""
        meta = data.get(OPENQUIZZDB_META, {})
        if isinstance(meta, dict):
            meta = meta.get("fr", meta)
        if not isinstance(meta, dict):
            raise ImportFileError(_(
                "OpenQuizzDB : « %(key)s » doit être un objet {…}, pas %(value)s."
            ) % {"key": OPENQUIZZDB_META, "value": _json_shown(meta)})
        for key in ("nom", "catégorie"):
            if meta.get(key):
                theme = _bank_text(meta[key])
                if theme is None:
                    raise ImportFileError(_(
                        "OpenQuizzDB : « %(key)s » doit être un texte, pas %(value)s."
                    ) % {"key": f"{OPENQUIZZDB_META}.{key}", "value": _json_shown(meta[key])})
                return theme
        return ""


FORMATS_BY_EXTENSION = {"csv": CSVFormat, "xlsx": XLSXFormat, "json": JSONFormat,
                        "zip": ZIPFormat}
# What the admin offers, in this order.
IMPORT_FORMATS = [CSVFormat, XLSXFormat, JSONFormat, ZIPFormat, OpenTriviaDBFormat,
                  OpenQuizzDBFormat]
EXPORT_FORMATS = [CSVFormat, XLSXFormat, JSONFormat, ZIPFormat]
# Names the import and export commands accept for --format.
FORMATS_BY_NAME = {"csv": CSVFormat, "xlsx": XLSXFormat, "json": JSONFormat, "zip": ZIPFormat,
                   "opentdb": OpenTriviaDBFormat, "openquizzdb": OpenQuizzDBFormat}
