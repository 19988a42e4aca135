"""Hostile text and numbers: what looks like a digit or prints wrong is refused, on every path."""

import pytest
from django.contrib.messages import constants as message_levels
from django.core.exceptions import ValidationError

from cms.formats import CSVFormat
from cms.models import Question, Status
from cms.validation import check_card, check_question
from cms.validators import WholeNumberField, whole_number
from tests.admin_forms import form_data, save
from tests.builders import make_card, make_question
from tests.cms.test_admin import messages_of
from tests.cms.test_import_files import (
    ECHELLE_HEADERS,
    csv_bytes,
    echelle_row,
    row_errors,
    run_import,
)

NOT_PLAIN_DIGITS = ["３", "٣", "1e0", "3.0000000000000001", "+3", "3.0", "-3", "3,0", "0x3",
                    "3_0", "", "trois", 3.0]


# --- numbers: the digits 0 to 9, nothing int() or float() would also take ---------------


@pytest.mark.parametrize("value", NOT_PLAIN_DIGITS)
def test_a_whole_number_refuses_what_is_not_plain_digits(value):
    with pytest.raises(ValidationError) as refused:
        whole_number(value, field="difficulté")
    assert refused.value.code == "number_not_plain_digits"


@pytest.mark.parametrize(("value", "number"), [("3", 3), (" 3 ", 3), ("03", 3), (3, 3),
                                               ("15", 15)])
def test_a_whole_number_takes_plain_digits_with_spaces_around(value, number):
    assert whole_number(value, field="palier") == number


def test_the_refusal_names_the_field_and_the_value_in_french():
    with pytest.raises(ValidationError) as refused:
        whole_number("３", field="difficulté")
    assert refused.value.messages == [
        "Difficulté\u00a0: «\u202f３\u202f» n’est pas un nombre entier écrit avec les chiffres "
        "0 à 9."]


@pytest.mark.parametrize("value", ["３", "٣", "1e0", "+3", "3.0"])
def test_the_form_field_refuses_what_int_would_read(value):
    with pytest.raises(ValidationError) as refused:
        WholeNumberField(label="difficulté").clean(value)
    assert refused.value.code == "number_not_plain_digits"


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["３", "٣", "+3", "3.0"])
def test_the_admin_refuses_a_difficulty_in_other_digits_and_creates_nothing(editor_client,
                                                                            value):
    url = "/admin/cms/question/add/?kind=etoile-mysterieuse"
    data = form_data(editor_client.get(url), kind="etoile-mysterieuse",
                     text="Qui se cache derrière l’étoile ?", difficulty=value,
                     answer="Marianne")

    response = editor_client.post(url, data)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors.as_data()["difficulty"]
    assert [e.code for e in errors] == ["number_not_plain_digits"]
    assert not Question.objects.exists()


@pytest.mark.parametrize("value", ["３", "٣", "1e0", "3.0000000000000001", "+3", "3.0"])
def test_an_import_refuses_a_difficulty_in_other_digits(db, value):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, difficulte=value)])

    result = run_import(CSVFormat(), data)

    message = " ".join(row_errors(result)[2]["difficulte"])
    assert f"« {value} » n’est pas un nombre écrit avec les chiffres 0 à 9" in message
    assert not Question.objects.exists()


@pytest.mark.parametrize("value", ["٣", "+3", "1e0"])
def test_an_import_refuses_a_step_in_other_digits(db, value):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, palier=value)])

    result = run_import(CSVFormat(), data)

    assert "chiffres 0 à 9" in " ".join(row_errors(result)[2]["palier"])


def test_an_import_refuses_proposition_numbers_in_other_digits(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, bonnes="١")])

    result = run_import(CSVFormat(), data)

    assert row_errors(result)[2]["bonnes"]


HUGE = "9" * 5000  # Python refuses to read more than 4 300 digits as an integer


def test_a_small_number_behind_thousands_of_zeros_is_read():
    assert whole_number("0" * 5000 + "3", field="difficulté") == 3


def test_a_whole_number_of_thousands_of_digits_is_refused_in_french_and_not_echoed_whole():
    with pytest.raises(ValidationError) as refused:
        whole_number(HUGE, field="difficulté")

    assert refused.value.code == "number_too_large"
    message = refused.value.messages[0]
    assert "bien trop grand" in message and len(message) < 150


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["difficulty", "step", "propositions-0-position"])
def test_the_admin_refuses_a_number_of_thousands_of_digits_without_an_error_page(
        editor_client, field):
    url = "/admin/cms/question/add/?kind=echelle"
    data = form_data(editor_client.get(url), kind="echelle",
                     text="Quelle est la capitale de l’Australie ?", difficulty="1", step="1",
                     **{"propositions-0-text": "Canberra"})  # a blank row is left out
    data[field] = HUGE

    response = editor_client.post(url, data)

    assert response.status_code == 200
    assert "bien trop grand" in response.content.decode()
    assert not Question.objects.exists()


@pytest.mark.parametrize("column", ["difficulte", "palier", "bonnes"])
def test_an_import_refuses_a_number_of_thousands_of_digits_naming_the_cell(db, column):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, **{column: HUGE})])

    result = run_import(CSVFormat(), data)

    message = " ".join(row_errors(result)[2][column])
    assert "Exceeds" not in message and HUGE not in message
    assert "trop grand" in message or "numéros de propositions" in message
    assert not Question.objects.exists()


def test_an_import_takes_a_difficulty_with_spaces_around(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, difficulte=" 1 ")])

    result = run_import(CSVFormat(), data)

    assert not result.has_validation_errors() and Question.objects.get().difficulty == 1


# --- text the printer cannot show as typed ----------------------------------------------

NNBSP = "\u202f"


def unprintable(obj):
    if isinstance(obj, Question):
        problems = check_question(obj, propositions=list(obj.propositions.all()),
                                  placed=obj.slots.exists())
    else:
        problems = check_card(obj, questions=[s.question for s in obj.ordered_slots()],
                              partner=obj.pair)
    return [p for p in problems if p.code == "unprintable_character"]


@pytest.mark.parametrize(("char", "name"), [
    ("\u200b", "U+200B (espace sans chasse)"), ("\u200c", "U+200C (antiliant sans chasse)"),
    ("\u200d", "U+200D (liant sans chasse)"), ("\u2060", "U+2060 (gluon de mots)"),
    ("\ufeff", "U+FEFF (indicateur d’ordre des octets)"),
    ("\u202e", "U+202E (forçage droite à gauche)"), ("\u2067", "U+2067 (isolat droite à gauche)"),
    ("\u200f", "U+200F (marque droite à gauche)"), ("\u200e", "U+200E (marque gauche à droite)"),
])
def test_a_question_with_an_invisible_or_direction_character_is_an_error(db, char, name):
    question = make_question("echelle", text=f"Quelle est la capitale{char} du Pérou ?")

    [problem] = unprintable(question)

    assert problem.is_error and problem.target == question
    assert problem.message == (f"Question\u00a0: {name} ne s’imprime pas correctement"
                               f"{NNBSP}; retirez-le.")


@pytest.mark.parametrize(("text", "name"), [
    ("Que signifie שלום ?", f"U+05E9 (lettre hébraïque «{NNBSP}ש{NNBSP}»)"),
    ("Que signifie سلام ?", f"U+0633 (caractère arabe «{NNBSP}س{NNBSP}»)"),
])
def test_a_question_in_a_right_to_left_script_is_an_error(db, text, name):
    [problem] = unprintable(make_question("echelle", text=text))

    assert problem.is_error and name in problem.message


def test_a_proposition_with_a_zero_width_space_is_named_by_its_number(db):
    question = make_question("echelle", propositions=[
        ("Lima", True, False), ("Cusco\u200b", False, False), ("Quito", False, False),
        ("Bogota", False, False)])

    [problem] = unprintable(question)

    assert dict(problem.params) == {"field": "proposition", "position": 2, "char": "U+200B"}
    assert problem.message.startswith("Proposition 2\u00a0: U+200B (espace sans chasse)")


def test_the_answer_and_the_anecdote_are_checked_too(db):
    question = make_question("etoile-mysterieuse", answer="Mari\u200danne",
                             anecdote="Voir \u202ela suite")

    assert {dict(p.params)["field"] for p in unprintable(question)} == {"answer", "anecdote"}


def test_a_card_title_with_a_bidirectional_control_is_an_error(db):
    card = make_card("coup-de-maitre", title="Les fleuves\u2066")

    [problem] = unprintable(card)

    assert problem.target == card and problem.message.startswith("Titre ou thème")


def test_french_text_with_accents_ligatures_and_no_break_spaces_prints(db):
    question = make_question("echelle", text="Où naît l’œuf de Pâques\u00a0? «\u202fÇa\u202f»")

    assert unprintable(question) == []


@pytest.mark.django_db
def test_the_admin_names_the_zero_width_space_and_keeps_the_question_out_of_review(
        editor_client):
    question = make_question("echelle")

    response = save(editor_client, question, text="Quelle est la capitale\u200b du Pérou ?",
                    button="_submit_review")

    question.refresh_from_db()
    assert question.status == Status.DRAFT
    assert any("U+200B (espace sans chasse)" in m
               for m in messages_of(response, message_levels.ERROR))


def test_an_import_refuses_a_zero_width_space_in_the_column_that_holds_it(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, texte="Quelle ville\u200b est au Pérou ?")])

    result = run_import(CSVFormat(), data)

    assert "U+200B (espace sans chasse)" in " ".join(row_errors(result)[2]["texte"])
    assert not Question.objects.exists()


def test_an_import_refuses_hebrew_in_a_proposition(db):
    row = echelle_row(1)
    row[ECHELLE_HEADERS.index("proposition_3")] = "שלום"

    result = run_import(CSVFormat(), csv_bytes(ECHELLE_HEADERS, [row]))

    assert "lettre hébraïque" in " ".join(row_errors(result)[2]["proposition_3"])
    assert not Question.objects.exists()


# --- line ends through a workbook ---------------------------------------------------------


def xlsx_export() -> bytes:
    from cms.formats import XLSXFormat
    from cms.resources import QuestionResource

    return XLSXFormat().export_data(QuestionResource().export())


def xlsx_cell(data: bytes, column: str) -> str:
    import io

    import openpyxl

    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    headers = [cell.value for cell in sheet[1]]
    return sheet.cell(row=2, column=headers.index(column) + 1).value


def test_the_admin_stores_a_textarea_s_crlf_as_line_feeds(editor_client):
    question = make_question("echelle")

    save(editor_client, question, text="Quelle est la capitale\r\ndu Pérou ?",
         anecdote="Lima\rfut fondée en 1535.")

    question.refresh_from_db()
    assert question.text == "Quelle est la capitale\ndu Pérou\u202f?"
    assert question.anecdote == "Lima\nfut fondée en 1535."


def test_a_text_with_line_feeds_goes_through_a_workbook_and_back_exactly(db):
    from cms.formats import XLSXFormat

    # As stored: French typography, no line feed at either end (cms.typography.typeset).
    make_question("echelle", text="Quelle est la capitale\n\ndu Pérou\u202f?")
    data = xlsx_export()
    assert xlsx_cell(data, "texte") == "Quelle est la capitale\n\ndu Pérou\u202f?"
    Question.objects.all().delete()

    run_import(XLSXFormat(), data)

    assert Question.objects.get().text == "Quelle est la capitale\n\ndu Pérou\u202f?"


def test_a_workbook_gives_a_carriage_return_back_as_a_line_feed(db):
    from cms.formats import XLSXFormat

    make_question("echelle", text="Quelle est la capitale\rdu Pérou\u202f?")
    data = xlsx_export()
    Question.objects.all().delete()

    run_import(XLSXFormat(), data)

    assert Question.objects.get().text == "Quelle est la capitale\ndu Pérou\u202f?"


def test_reimporting_a_workbook_that_turned_a_carriage_return_into_a_line_feed_changes_nothing(
        db):
    from cms.formats import XLSXFormat

    question = make_question("echelle", text="Quelle est la capitale\rdu Pérou\u202f?")

    result = run_import(XLSXFormat(), xlsx_export())

    assert (result.totals["skip"], result.totals["update"]) == (1, 0)
    question.refresh_from_db()
    assert question.text == "Quelle est la capitale\rdu Pérou\u202f?"


@pytest.mark.parametrize(("char", "name"), [
    ("\u00ad", "U+00AD (trait d’union conditionnel)"),
    ("\u2028", "U+2028 (séparateur de lignes)"),
    ("\ufe0f", "U+FE0F (caractère invisible)"),
    ("\u2063", "U+2063 (caractère invisible)"),  # an invisible separator, class "format"
])
def test_a_soft_hyphen_a_line_separator_or_a_variation_selector_is_an_error(db, char, name):
    question = make_question("echelle", text=f"Quelle est la capi{char}tale du Pérou ?")

    [problem] = unprintable(question)

    assert name in problem.message


def test_every_unprintable_character_of_a_field_is_named_at_once(db):
    question = make_question("echelle", text="Quelle\u200b ville de שלום est au\u00ad Pérou ?")

    [problem] = unprintable(question)

    for name in ("U+200B (espace sans chasse)", "U+05E9 (lettre hébraïque",
                 "U+00AD (trait d’union conditionnel)"):
        assert name in problem.message
    assert "retirez-les" in problem.message
