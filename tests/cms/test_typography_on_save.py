"""French typography is stored as print sets it, whichever way the text comes in.

Narrow no-break spaces (U+202F) before ; ! ? and inside « », a no-break space (U+00A0)
before :, and ’ for an apostrophe: the admin, the exports and the player show what print
shows. The texts below are written as people type them, and what is expected is spelt out
by hand.
"""

import csv
import importlib
import io

import pytest
import reversion
from django.apps import apps
from django.core.management import call_command
from django.urls import reverse
from reversion.models import Version

from cms import services, snapshots
from cms.models import Card, Correction, Proposition, Question, Status
from player.judging import judge
from tests.admin_forms import form_data
from tests.builders import make_card, make_question
from tests.cms.test_import_admin import confirm, export, page_text, upload

NNBSP, NBSP = "\u202f", "\u00a0"

LADDER_HEADERS = ["ref", "genre", "texte", "difficulte", "palier", "theme", "proposition_1",
                  "proposition_2", "proposition_3", "proposition_4", "bonnes", "anecdote",
                  "statut"]


@pytest.fixture(autouse=True)
def _held_uploads_in_tmp(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def csv_bytes(rows) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(LADDER_HEADERS)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def typed_row(ref="typo-1"):
    """A ladder row as someone types it in a spreadsheet: plain spaces, straight quotes."""
    return [ref, "echelle", 'Qui a écrit "Les Misérables" ?', 1, 1, "litterature",
            "Victor Hugo", "Émile Zola", "Honoré de Balzac", "Gustave Flaubert", "1",
            "Publié en 1862 : un succès ! Voir https://fr.wikipedia.org/wiki/Hugo?x=1 ;",
            "brouillon"]


SET_TEXT = f"Qui a écrit «{NNBSP}Les Misérables{NNBSP}»{NNBSP}?"
SET_ANECDOTE = (f"Publié en 1862{NBSP}: un succès{NNBSP}! Voir "
                f"https://fr.wikipedia.org/wiki/Hugo?x=1{NNBSP};")


def test_the_admin_form_stores_what_an_editor_types_with_french_typography(editor_client):
    add = reverse("admin:cms_question_add")
    data = form_data(editor_client.get(add, {"kind": "echelle"}),
                     text="L'an 1515 : qui gagne à Marignan ?", difficulty="1", step="1",
                     theme="Histoire ; France", anecdote="« Marignan »  , vraiment !",
                     _save="1")
    for i, text in enumerate(["François Ier", "Charles Quint", "Henri VIII", "Louis XII"]):
        data[f"propositions-{i}-text"] = text
        data[f"propositions-{i}-position"] = str(i + 1)
    data["propositions-0-is_right"] = "on"

    response = editor_client.post(add, data)

    assert response.status_code == 302
    question = Question.objects.get()
    assert question.text == f"L’an 1515{NBSP}: qui gagne à Marignan{NNBSP}?"
    assert question.theme == f"Histoire{NNBSP}; France"
    assert question.anecdote == f"«{NNBSP}Marignan{NNBSP}» , vraiment{NNBSP}!"


def test_an_edit_in_the_admin_of_a_proposition_stores_it_with_french_typography(
        editor_client):
    question = make_question("echelle")
    page = editor_client.get(reverse("admin:cms_question_change", args=[question.pk]))
    data = form_data(page, **{"propositions-1-text": "Pourquoi pas ?"}, _save="1")

    editor_client.post(reverse("admin:cms_question_change", args=[question.pk]), data)

    texts = [p.text for p in Proposition.objects.filter(question=question)]
    assert texts[1] == f"Pourquoi pas{NNBSP}?"


def test_an_import_file_is_stored_with_french_typography_and_addresses_as_typed(
        editor_client):
    confirm(editor_client, upload(editor_client, csv_bytes([typed_row()])))

    question = Question.objects.get(ref="typo-1")
    assert question.text == SET_TEXT
    assert question.anecdote == SET_ANECDOTE
    assert "https://fr.wikipedia.org/wiki/Hugo?x=1" in question.anecdote


def test_the_import_command_stores_french_typography(db, tmp_path):
    path = tmp_path / "lot.csv"
    path.write_bytes(csv_bytes([typed_row("typo-cmd")]))

    call_command("import", "questions", str(path), "--no-input", stdout=io.StringIO(),
                 stderr=io.StringIO())

    question = Question.objects.get(ref="typo-cmd")
    assert question.text == SET_TEXT
    assert [p.text for p in question.propositions.all()][:1] == ["Victor Hugo"]


def test_a_card_title_is_stored_with_french_typography(editor):
    questions = [make_question("coup-de-maitre", difficulty=d) for d in (1, 2, 3, 4, 5)]
    card = services.content_save(obj=Card(), data={
        "kind": "coup-de-maitre", "title": "Qui l'eût cru ?", "slots": questions,
        "ref": "carte-typo", "colour": "", "pair": None}, user=editor).obj

    card.refresh_from_db()
    assert card.title == f"Qui l’eût cru{NNBSP}?"


def test_a_row_that_differs_only_by_its_typography_is_unchanged(editor_client):
    confirm(editor_client, upload(editor_client, csv_bytes([typed_row()])))
    version = Question.objects.get(ref="typo-1").version

    preview = upload(editor_client, csv_bytes([typed_row()]))

    assert "0 modifiée(s), 1 inchangée(s)" in page_text(preview)
    done = confirm(editor_client, preview)
    assert "0 modifié(s), 1 inchangé(s)" in page_text(done)
    assert Question.objects.get(ref="typo-1").version == version


def test_reimporting_an_export_changes_nothing(editor_client):
    confirm(editor_client, upload(editor_client, csv_bytes([typed_row("a"), typed_row("b")])))
    before = {q.ref: (q.version, q.text) for q in Question.objects.all()}

    exported = export(editor_client, "question", "0")
    preview = upload(editor_client, exported, name="export.csv")

    assert "0 nouvelle(s) ligne(s), 0 modifiée(s), 2 inchangée(s)" in page_text(preview)
    confirm(editor_client, preview)
    assert {q.ref: (q.version, q.text) for q in Question.objects.all()} == before


def test_a_correction_is_kept_with_french_typography(editor):
    question = make_question("echelle", status=Status.PUBLISHED)
    data = {**snapshots.of_object(question), "text": "Et maintenant ?"}

    saved = services.content_save(obj=question, data=data, user=editor)

    assert saved.correction.data["text"] == f"Et maintenant{NNBSP}?"


def test_saving_again_what_differs_only_by_typography_changes_nothing(editor):
    question = make_question("echelle")
    services.content_save(obj=question, data={**snapshots.of_object(question),
                                              "text": "Vraiment ?"}, user=editor)
    question.refresh_from_db()
    version = question.version

    saved = services.content_save(obj=question, data={**snapshots.of_object(question),
                                                      "text": "Vraiment ?"}, user=editor)

    assert not saved.changed
    question.refresh_from_db()
    assert question.version == version


@pytest.mark.parametrize("typed", ["jeanne d'arc", "Jeanne d’Arc", "JEANNE D ARC",
                                   "jeanne darc"])
def test_a_player_s_answer_still_matches_a_stored_answer_with_french_typography(editor, typed):
    question = make_question("coup-fatal")
    data = {**snapshots.of_object(question), "answer": "Jeanne d'Arc",
            "variants": "La Pucelle d'Orléans !\nJehanne : la Pucelle"}
    services.content_save(obj=question, data=data, user=editor)
    question.refresh_from_db()
    assert question.answer == "Jeanne d’Arc"

    assert judge(typed, question.answer, question.variant_list).right


@pytest.mark.parametrize("typed", ["la pucelle d'orleans", "Jehanne: la pucelle"])
def test_a_player_s_answer_matches_a_variant_stored_with_french_typography(editor, typed):
    question = make_question("coup-fatal")
    data = {**snapshots.of_object(question), "answer": "Jeanne d'Arc",
            "variants": "La Pucelle d'Orléans !\nJehanne : la Pucelle"}
    services.content_save(obj=question, data=data, user=editor)
    question.refresh_from_db()
    assert question.variant_list == [f"La Pucelle d’Orléans{NNBSP}!",
                                     f"Jehanne{NBSP}: la Pucelle"]

    assert judge(typed, question.answer, question.variant_list).right


# --- the migration that brings stored text to it -------------------------------------------

migration = importlib.import_module("cms.migrations.0008_text_search_themes")


def test_the_migration_sets_stored_text_without_adding_history(db):
    question = make_question("echelle", text="Déjà vu ?", theme="geographie",
                             propositions=[("« Oui »", True, False), ("Non", False, False),
                                           ("Peut-être", False, False), ("Jamais", False, False)])
    other = make_question("echelle", theme="Géographie")
    make_question("echelle", theme="Géographie")
    with reversion.create_revision():
        reversion.add_to_revision(question)
    correction = Correction.objects.create(
        question=other, base_version=1, data={**snapshots.of_object(other),
                                              "text": "Corrigé : oui ?", "theme": "GEOGRAPHIE"})
    versions, number = Version.objects.count(), question.version

    migration.typeset_questions(apps)
    names = migration.make_themes(apps)
    migration.typeset_corrections(apps, names)
    migration.fill_search_texts(apps)

    question.refresh_from_db()
    assert question.text == f"Déjà vu{NNBSP}?"
    assert question.theme == "Géographie"  # as most of the game's questions spell it
    assert question.propositions.first().text == f"«{NNBSP}Oui{NNBSP}»"
    assert "deja vu" in question.search_text
    correction.refresh_from_db()
    assert (correction.data["text"], correction.data["theme"]) == (
        f"Corrigé{NBSP}: oui{NNBSP}?", "Géographie")
    assert Version.objects.count() == versions
    assert question.version == number
    assert list(apps.get_model("cms", "Theme").objects.values_list("game", "name")) == [
        ("millionnaire", "Géographie")]


def test_content_stored_before_the_numero_rule_is_typeset_by_its_migration(db):
    # Stored as typed before « n° 2 » kept its number: written past save's typography.
    question = make_question("echelle")
    card = make_card("coup-de-maitre")
    Question.objects.filter(pk=question.pk).update(text="Qui est le n° 10 ?")
    Card.objects.filter(pk=card.pk).update(title="Coup de maître n°3")
    correction = Correction.objects.create(
        question=question, base_version=1,
        data={**snapshots.of_object(question), "text": "Qui porte le n° 9 ?"})
    others = {q.pk: q.text for q in Question.objects.exclude(pk=question.pk)}
    versions, number = Version.objects.count(), question.version

    importlib.import_module("cms.migrations.0011_typeset_numero").forwards(apps, None)

    question.refresh_from_db()
    card.refresh_from_db()
    correction.refresh_from_db()
    assert question.text == f"Qui est le n°{NBSP}10{NNBSP}?"
    assert card.title == f"Coup de maître n°{NBSP}3"
    assert correction.data["text"] == f"Qui porte le n°{NBSP}9{NNBSP}?"
    assert {q.pk: q.text for q in Question.objects.exclude(pk=question.pk)} == others
    assert (Version.objects.count(), question.version) == (versions, number)


def test_a_questions_label_in_lists_and_messages_keeps_its_no_break_spaces(editor):
    question = Question(kind="echelle", text=f"Où\n  est Rouen{NBSP}: en Normandie{NNBSP}?")

    assert str(question) == f"Où est Rouen{NBSP}: en Normandie{NNBSP}?"
