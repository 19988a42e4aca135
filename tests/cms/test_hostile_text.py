"""Hostile text and numbers: what looks like a digit or prints wrong is refused, on every path."""

import pytest
from django.core.exceptions import ValidationError

from cms.formats import CSVFormat
from cms.models import Question
from cms.validators import WholeNumberField, whole_number
from tests.admin_forms import form_data
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
    assert f"« {value} » n’est pas un nombre écrit avec les chiffres 0 à 9" in message
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


def test_an_import_takes_a_difficulty_with_spaces_around(db):
    data = csv_bytes(ECHELLE_HEADERS, [echelle_row(1, difficulte=" 1 ")])

    result = run_import(CSVFormat(), data)

    assert not result.has_validation_errors() and Question.objects.get().difficulty == 1
