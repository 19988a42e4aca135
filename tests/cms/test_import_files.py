import io, time, csv, json, sys, zipfile
import openpyxl
from openpyxl.styles import Font
import pytest
from cms.formats import *
from cms.resources import QuestionResource
from cms.models import Question, Status
from tests.builders import make_question

def test_formula(db):
    texts = ["=1+1 ?", "+33 ?", "-5 ?", "@x ?", "\t=tab ?", "\r=cr ?", "'quote ?"]
    for t in texts:
        make_question("echelle", text=t, propositions=[(t, True, False), ("b", False, False), ("c", False, False), ("d", False, False)])
    ds = QuestionResource().export()
    c = CSVFormat().export_data(ds)
    print(repr(c[:600]))
    x = XLSXFormat().export_data(ds)
    wb = openpyxl.load_workbook(io.BytesIO(x))
    ws = wb.active
    for row in ws.iter_rows(min_row=2, max_col=3):
        print([(c.value, c.data_type) for c in row])
    for fmt, data in (("csv", c), ("xlsx", x)):
        d = (CSVFormat if fmt=="csv" else XLSXFormat)().create_dataset(data)
        print([r for r in d["texte"]])
        r = QuestionResource().import_data(d)
        print(fmt, r.totals, [ (x.number, x.field_specific_errors) for x in r.invalid_rows], r.base_errors and r.base_errors[0].error)
        print(sorted(Question.objects.values_list("text", flat=True)))
    assert 0

def test_flood(db, settings):
    settings.PLATEAU_IMPORT_MAX_ROWS = 50
    wb = openpyxl.Workbook(); ws = wb.active
    ws.append(["genre", "texte"]); ws.append(["echelle", "x"])
    for r in range(3, 200):
        ws.cell(row=r, column=1).font = Font(bold=True)
    out = io.BytesIO(); wb.save(out)
    try:
        d = XLSXFormat().create_dataset(out.getvalue()); print(len(d))
    except ImportFileError as e:
        print("ERR", e)
    wb = openpyxl.Workbook(); ws = wb.active
    ws.append(["genre", "texte"]); ws.append(["echelle", "x"])
    ws.cell(row=300, column=1).value = ""
    out = io.BytesIO(); wb.save(out)
    try:
        d = XLSXFormat().create_dataset(out.getvalue()); print(len(d))
    except ImportFileError as e:
        print("ERR", e)
    assert 0

def test_bank(db):
    data = {"response_code": 0, "results": [
        {"type": "multiple", "difficulty": "easy", "category": "Science &amp; Nature", "question": "Qui a dit &quot;Eur&eacute;ka&quot; l&#039;an ?", "correct_answer": "Archim&egrave;de", "incorrect_answers": ["Euclide", "Platon", "Thal&egrave;s"]},
        {"type": "multiple", "difficulty": "hard", "category": "History", "question": "Which year &quot;X&quot;?", "correct_answer": "1515", "incorrect_answers": ["1414", "1616", "1717"]},
    ]}
    for kind in ("echelle", "qualifs"):
        d = OpenTriviaDBFormat().create_dataset(json.dumps(data).encode())
        r = QuestionResource(kind=kind).import_data(d)
        print(kind, r.totals, [(x.number, x.field_specific_errors, x.non_field_specific_errors) for x in r.invalid_rows], [e.error for e in r.base_errors])
    assert 0

def test_ladder(db):
    text = "ref;genre;texte;difficulte;palier;proposition_1;proposition_2;proposition_3;proposition_4;bonnes;statut\n"
    text += "a;echelle;Premier sujet Amiens ?;1;1;a;b;c;d;1;publie\n"
    text += "b;echelle;Second sujet Brest ?;2;2;a;b;c;d;1;publie\n"
    text += "c;echelle;Troisième sujet Colmar ?;1;3;a;b;c;d;1 2;publie\n"
    text += "d;echelle;Quatrième sujet Dijon ?;1;4;a;b;c;d;1 2;publie\n"
    r = QuestionResource().import_data(CSVFormat().create_dataset(text.encode()))
    print(r.totals, [(x.number, x.field_specific_errors, x.non_field_specific_errors) for x in r.invalid_rows], [e.error for e in r.base_errors])
    assert 0
