"""Question images: real JPEG, PNG or WebP only, within the byte and pixel caps."""

import io
import random

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from cms.models import Question
from cms.validators import validate_question_image


def image_bytes(image_format: str, size=(32, 24), *, noisy=False) -> bytes:
    """Return a real image in this Pillow format, plain or full of noise."""
    image = Image.new("RGB", size, (200, 60, 40))
    if noisy:
        rng = random.Random(7)
        image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256))
                       for _ in range(size[0] * size[1])])
    buffer = io.BytesIO()
    image.save(buffer, format=image_format)
    return buffer.getvalue()


def upload(content: bytes, name="image.png", content_type="image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type=content_type)


def refusal_code(file) -> str:
    with pytest.raises(ValidationError) as refused:
        validate_question_image(file)
    return refused.value.code


@pytest.mark.parametrize(
    ("image_format", "name", "content_type"),
    [("PNG", "etoile.png", "image/png"), ("JPEG", "etoile.jpg", "image/jpeg"),
     ("WEBP", "etoile.webp", "image/webp")],
)
def test_it_accepts_a_real_png_jpeg_or_webp(image_format, name, content_type):
    assert validate_question_image(upload(image_bytes(image_format), name, content_type)) is None


def test_it_refuses_a_gif_as_a_format():
    gif = upload(image_bytes("GIF"), "etoile.gif", "image/gif")
    assert refusal_code(gif) == "image_format"


def test_it_refuses_a_gif_renamed_png_as_a_format():
    assert refusal_code(upload(image_bytes("GIF"), "etoile.png")) == "image_format"


def test_it_refuses_random_bytes_named_png_as_invalid():
    noise = random.Random(3).randbytes(4096)
    assert refusal_code(upload(noise, "etoile.png")) == "image_invalid"


def test_it_refuses_an_empty_file_as_invalid():
    assert refusal_code(upload(b"", "etoile.png")) == "image_invalid"


def test_it_refuses_a_truncated_png_as_invalid():
    whole = image_bytes("PNG", (64, 64), noisy=True)
    assert refusal_code(upload(whole[: len(whole) // 2], "etoile.png")) == "image_invalid"


def test_it_refuses_a_png_above_the_pixel_cap(settings):
    settings.PLATEAU_IMAGE_MAX_PIXELS = 32 * 24 - 1
    assert refusal_code(upload(image_bytes("PNG", (32, 24)))) == "image_too_large"


def test_the_pixel_cap_is_written_as_french_writes_numbers(settings):
    settings.PLATEAU_IMAGE_MAX_PIXELS = 2_500_000
    with pytest.raises(ValidationError) as refused:
        validate_question_image(upload(image_bytes("PNG", (1600, 1600))))

    assert "le maximum est 2,5 millions de pixels" in refused.value.messages[0]


def test_it_accepts_a_png_exactly_at_the_pixel_cap(settings):
    settings.PLATEAU_IMAGE_MAX_PIXELS = 32 * 24
    assert validate_question_image(upload(image_bytes("PNG", (32, 24)))) is None


def test_it_refuses_a_file_above_the_byte_cap_as_too_heavy(settings):
    png = image_bytes("PNG")
    padded = png + b"\0" * (settings.PLATEAU_IMAGE_MAX_BYTES + 1 - len(png))
    assert len(padded) == settings.PLATEAU_IMAGE_MAX_BYTES + 1
    assert refusal_code(upload(padded)) == "image_too_heavy"


def test_it_accepts_a_file_exactly_at_the_byte_cap(settings):
    png = image_bytes("PNG")
    settings.PLATEAU_IMAGE_MAX_BYTES = len(png)
    assert validate_question_image(upload(png)) is None


def test_it_refuses_a_file_one_byte_above_a_lowered_byte_cap(settings):
    png = image_bytes("PNG")
    settings.PLATEAU_IMAGE_MAX_BYTES = len(png) - 1
    assert refusal_code(upload(png)) == "image_too_heavy"


def test_it_leaves_the_file_where_it_found_it():
    file = upload(image_bytes("PNG"))
    file.seek(5)
    validate_question_image(file)
    assert file.tell() == 5


def test_it_leaves_the_file_where_it_found_it_after_a_refusal():
    file = upload(image_bytes("GIF"), "etoile.gif", "image/gif")
    file.seek(3)
    with pytest.raises(ValidationError):
        validate_question_image(file)
    assert file.tell() == 3


# --- through the model ----------------------------------------------------------------------


def etoile(image) -> Question:
    return Question(kind="etoile-mysterieuse", text="Qui se cache derrière l’étoile ?",
                    difficulty=3, answer="Marianne", image=image)


def image_codes(question: Question) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        question.full_clean()
    return [error.code for error in refused.value.error_dict["image"]]


@pytest.mark.django_db
def test_full_clean_accepts_a_question_with_a_real_png():
    etoile(upload(image_bytes("PNG"), "etoile.png")).full_clean()


@pytest.mark.django_db
def test_full_clean_refuses_a_question_with_a_gif_image():
    question = etoile(upload(image_bytes("GIF"), "etoile.gif", "image/gif"))
    assert image_codes(question) == ["image_format"]


@pytest.mark.django_db
def test_full_clean_refuses_a_question_with_random_bytes_as_image():
    question = etoile(upload(random.Random(5).randbytes(2048), "etoile.png"))
    assert image_codes(question) == ["image_invalid"]


@pytest.mark.django_db
def test_full_clean_refuses_a_question_with_an_image_above_the_pixel_cap(settings):
    settings.PLATEAU_IMAGE_MAX_PIXELS = 100
    question = etoile(upload(image_bytes("PNG", (20, 20)), "etoile.png"))
    assert image_codes(question) == ["image_too_large"]


@pytest.mark.django_db
def test_full_clean_refuses_a_question_with_an_image_above_the_byte_cap(settings):
    png = image_bytes("PNG")
    settings.PLATEAU_IMAGE_MAX_BYTES = len(png) - 1
    question = etoile(upload(png, "etoile.png"))
    assert image_codes(question) == ["image_too_heavy"]


@pytest.mark.django_db
def test_full_clean_accepts_a_saved_question_whose_stored_png_is_on_disk():
    question = etoile(upload(image_bytes("PNG"), "etoile.png"))
    question.save()
    Question.objects.get(pk=question.pk).full_clean()


@pytest.mark.django_db
def test_full_clean_refuses_a_saved_question_whose_image_file_is_missing():
    # A restored database without its media: the set_status service must get a
    # ValidationError it can show, not a FileNotFoundError.
    question = etoile("questions/disparue.png")
    question.save()
    assert image_codes(Question.objects.get(pk=question.pk)) == ["image_invalid"]


def _etoile_form(client, image) -> dict:
    from tests.admin_forms import form_data

    data = form_data(client.get("/admin/cms/question/add/?kind=etoile-mysterieuse"),
                     kind="etoile-mysterieuse", text="Qui se cache derrière l’étoile ?",
                     difficulty="3", answer="Marianne")
    data["image"] = image
    data["_continue"] = "1"
    return data


@pytest.mark.django_db
def test_the_admin_refuses_a_gif_upload_and_creates_nothing(editor_client):
    gif = upload(image_bytes("GIF"), name="etoile.gif", content_type="image/gif")

    response = editor_client.post("/admin/cms/question/add/?kind=etoile-mysterieuse",
                                  _etoile_form(editor_client, gif))

    assert response.status_code == 200
    assert "image_format" in {e.code for e in response.context["adminform"].form.errors.as_data()
                              ["image"]}
    assert not Question.objects.exists()


@pytest.mark.django_db
def test_the_admin_stores_a_png_upload(editor_client):
    png = upload(image_bytes("PNG"), name="etoile.png")

    response = editor_client.post("/admin/cms/question/add/?kind=etoile-mysterieuse",
                                  _etoile_form(editor_client, png))

    assert response.status_code == 302
    question = Question.objects.get()
    assert question.image.name.endswith(".png")
    with question.image.open("rb") as stored:
        assert Image.open(stored).format == "PNG"
