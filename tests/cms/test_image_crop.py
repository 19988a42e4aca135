"""The étoile's crop tool: a part of the image becomes the question's image, through the
services, the former image kept in the history."""

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.storage import default_storage
from django.urls import reverse
from PIL import Image
from reversion.models import Version

from cms import services
from cms.models import Question, Status
from tests.admin_forms import change_url, form_data
from tests.builders import make_card


def etoile_question(**fields) -> Question:
    return make_card("etoile-mysterieuse", **fields).ordered_slots()[0].question


def stored_picture(name: str) -> Image.Image:
    with default_storage.open(name, "rb") as stored:
        picture = Image.open(io.BytesIO(stored.read()))
        picture.load()
    return picture


def image_names_in_history(question) -> list[str]:
    return [version.field_dict["image"] for version in
            Version.objects.get_for_object(question).order_by("pk")]


def test_a_crop_stores_the_part_of_the_image_and_keeps_the_former_in_history(editor):
    question = etoile_question()
    former = question.image.name
    before = stored_picture(former)
    services.content_save(obj=question, data=services.shown_state(question), user=editor,
                          token=services.token_of(question))  # a first version in history
    services.question_image_crop(obj=Question.objects.get(pk=question.pk),
                                 box=(300, 175, 400, 400), user=editor)
    question.refresh_from_db()
    assert question.image.name != former
    picture = stored_picture(question.image.name)
    assert picture.size == (400, 400)
    # The pixels are the part asked for: the top-left one is the source's (300, 175).
    assert picture.convert("RGB").getpixel((0, 0)) == before.convert("RGB").getpixel((300, 175))
    assert picture.convert("RGB").getpixel((399, 399)) == before.convert("RGB").getpixel(
        (699, 574))
    history = image_names_in_history(question)
    assert former in history and history[-1] == question.image.name
    assert default_storage.exists(former)  # the former image stays, for the history


@pytest.mark.parametrize("box", [(900, 0, 200, 200), (0, 0, 0, 10), (0, 600, 100, 151)])
def test_a_crop_outside_the_image_is_refused_and_changes_nothing(editor, box):
    question = etoile_question()
    former = question.image.name
    with pytest.raises(ValidationError) as refusal:
        services.question_image_crop(obj=question, box=box, user=editor)
    assert [error.code for error in refusal.value.error_dict["image"]] == ["crop_outside"]
    question.refresh_from_db()
    assert question.image.name == former


def test_a_reader_may_not_crop(reader):
    question = etoile_question()
    with pytest.raises(PermissionDenied):
        services.question_image_crop(obj=question, box=(0, 0, 100, 100), user=reader)


def test_a_crop_of_a_published_etoile_by_an_editor_waits_as_a_correction(editor):
    question = etoile_question(status=Status.PUBLISHED)
    former = question.image.name
    saved = services.question_image_crop(obj=question, box=(0, 0, 500, 500), user=editor)
    assert saved.correction is not None
    question.refresh_from_db()
    assert question.image.name == former  # the published image stays in play
    assert stored_picture(saved.correction.data["image"]).size == (500, 500)


# --- from the change form -------------------------------------------------------------------


def crop_url(question) -> str:
    return reverse("admin:cms_question_crop", args=[question.pk])


def test_the_change_form_crops_the_image_with_the_numbers_typed(editor_client):
    question = etoile_question()
    data = form_data(editor_client.get(change_url(question)))
    data.update({"crop_x": "100", "crop_y": "50", "crop_w": "600", "crop_h": "600"})
    response = editor_client.post(crop_url(question), data, follow=True)
    assert "Image recadrée" in response.content.decode()
    question.refresh_from_db()
    assert (question.image.width, question.image.height) == (600, 600)


def test_a_crop_posted_from_an_older_page_is_refused(editor_client, editor):
    question = etoile_question()
    data = form_data(editor_client.get(change_url(question)))
    services.content_save(obj=question, data={**services.shown_state(question),
                                              "answer": "Autre réponse"},
                          user=editor, token=services.token_of(question))
    former = Question.objects.get(pk=question.pk).image.name
    data.update({"crop_x": "0", "crop_y": "0", "crop_w": "300", "crop_h": "300"})
    response = editor_client.post(crop_url(question), data, follow=True)
    assert "n’est pas recadrée" in response.content.decode()
    assert Question.objects.get(pk=question.pk).image.name == former


def test_a_crop_with_letters_for_numbers_is_refused_in_french(editor_client):
    question = etoile_question()
    data = form_data(editor_client.get(change_url(question)))
    data.update({"crop_x": "dix", "crop_y": "0", "crop_w": "300", "crop_h": "300"})
    page = editor_client.post(crop_url(question), data, follow=True).content.decode()
    assert "n’est pas un nombre entier" in page


def test_a_reader_cannot_post_a_crop(reader_client):
    question = etoile_question()
    response = reader_client.post(crop_url(question), {"crop_x": "0", "crop_y": "0",
                                                       "crop_w": "10", "crop_h": "10"})
    assert response.status_code == 403


def test_the_change_form_of_a_question_whose_image_file_is_gone_still_opens(editor_client):
    question = etoile_question()
    default_storage.delete(question.image.name)
    page = editor_client.get(change_url(question))
    assert page.status_code == 200
    assert "plateau-etoile" in page.content.decode()  # shown once the picture loads: never
