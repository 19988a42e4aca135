"""Hostile question images: one path checks, re-encodes and names every image by its content."""

import hashlib
import io
import mimetypes
import random

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from cms.images import clean_image
from cms.models import Question
from cms.services import _store_image
from cms.validators import validate_question_image
from tests.cms.test_images import _etoile_form

GPS = 0x8825
MAKE = 0x010F
ORIENTATION = 0x0112


def noisy(size=(64, 48), mode="RGB") -> Image.Image:
    rng = random.Random(11)
    image = Image.new("RGB", size)
    image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256))
                   for _ in range(size[0] * size[1])])
    return image.convert(mode)


def jpeg_with_exif(*, orientation=1, size=(64, 48)) -> bytes:
    exif = Image.Exif()
    exif[MAKE] = "Appareil de l’étoile"
    exif[ORIENTATION] = orientation
    exif.get_ifd(GPS).update({1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)})
    out = io.BytesIO()
    noisy(size).save(out, format="JPEG", exif=exif, comment=b"reponse: Marianne")
    return out.getvalue()


def png_bytes(**options) -> bytes:
    out = io.BytesIO()
    noisy().save(out, format="PNG", **options)
    return out.getvalue()


def code_of(content: bytes) -> str:
    with pytest.raises(ValidationError) as refused:
        clean_image(content)
    return refused.value.code


def test_it_strips_exif_gps_camera_and_comment_from_a_jpeg():
    clean = clean_image(jpeg_with_exif())

    with Image.open(io.BytesIO(clean.content)) as image:
        assert not image.getexif()
        assert "comment" not in image.info and "exif" not in image.info
    assert b"Marianne" not in clean.content and "étoile".encode() not in clean.content


def test_it_applies_the_exif_orientation_before_dropping_it():
    clean = clean_image(jpeg_with_exif(orientation=6, size=(64, 48)))  # turned a quarter

    with Image.open(io.BytesIO(clean.content)) as image:
        assert image.size == (48, 64)


def test_it_drops_the_text_chunks_of_a_png():
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Comment", "la réponse est Marianne")
    clean = clean_image(png_bytes(pnginfo=info))

    assert b"Marianne" not in clean.content


def test_it_refuses_a_truncated_jpeg_that_verify_alone_lets_through():
    whole = jpeg_with_exif(size=(256, 256))
    assert code_of(whole[: len(whole) * 2 // 3]) == "image_invalid"


def test_it_refuses_a_png_with_a_page_after_its_end():
    polyglot = png_bytes() + b"<html><script>alert(1)</script></html>"
    assert code_of(polyglot) == "image_polyglot"


def test_it_refuses_a_png_with_a_page_in_a_text_chunk():
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Comment", "<html><body><script>alert(1)</script>")
    assert code_of(png_bytes(pnginfo=info)) == "image_polyglot"


def test_it_refuses_a_jpeg_with_data_after_its_end():
    assert code_of(jpeg_with_exif() + b"PK\x03\x04 a zip after the image") == "image_polyglot"


@pytest.mark.parametrize(("image_format", "extension"),
                         [("PNG", "png"), ("JPEG", "jpg"), ("WEBP", "webp")])
def test_it_names_the_image_by_the_hash_of_its_content_and_its_real_format(image_format,
                                                                            extension):
    out = io.BytesIO()
    noisy().save(out, format=image_format)
    clean = clean_image(out.getvalue(), path="Marianne.pdf")

    digest = hashlib.sha256(clean.content).hexdigest()[:32]
    assert clean.storage_name == f"questions/{digest}.{extension}"


def test_the_refusals_speak_french():
    with pytest.raises(ValidationError) as refused:
        clean_image(png_bytes() + b"<html>")
    assert "autre chose qu’une image" in refused.value.messages[0]


def test_the_model_validator_refuses_a_truncated_jpeg():
    whole = jpeg_with_exif(size=(256, 256))
    upload = SimpleUploadedFile("etoile.jpg", whole[: len(whole) * 2 // 3], "image/jpeg")
    with pytest.raises(ValidationError) as refused:
        validate_question_image(upload)
    assert refused.value.code == "image_invalid"


def test_storing_an_upload_keeps_neither_its_name_nor_its_metadata():
    upload = SimpleUploadedFile("Marianne.pdf", png_bytes(), "application/pdf")

    name = _store_image(upload)

    assert name.startswith("questions/") and name.endswith(".png")
    assert "Marianne" not in name
    assert mimetypes.guess_type(name)[0] == "image/png"
    with default_storage.open(name, "rb") as stored:
        assert Image.open(stored).format == "PNG"


def test_storing_the_same_picture_twice_keeps_one_file():
    first = _store_image(SimpleUploadedFile("a.png", png_bytes(), "image/png"))
    second = _store_image(SimpleUploadedFile("b.png", png_bytes(), "image/png"))
    assert first == second


@pytest.mark.django_db
def test_the_admin_stores_a_jpeg_upload_without_its_gps_position(editor_client):
    upload = SimpleUploadedFile("Marianne.jpg", jpeg_with_exif(), "image/jpeg")

    response = editor_client.post("/admin/cms/question/add/?kind=etoile-mysterieuse",
                                  _etoile_form(editor_client, upload))

    assert response.status_code == 302
    question = Question.objects.get()
    assert "Marianne" not in question.image.name and question.image.name.endswith(".jpg")
    with question.image.open("rb") as stored:
        assert not Image.open(stored).getexif()


@pytest.mark.django_db
def test_the_admin_refuses_a_polyglot_upload_and_creates_nothing(editor_client):
    upload = SimpleUploadedFile("etoile.png", png_bytes() + b"<html><script>x</script>",
                                "image/png")

    response = editor_client.post("/admin/cms/question/add/?kind=etoile-mysterieuse",
                                  _etoile_form(editor_client, upload))

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors.as_data()["image"]
    assert "image_polyglot" in {e.code for e in errors}
    assert not Question.objects.exists()


# --- the ZIP import through the same path ---------------------------------------------


def test_a_zip_import_stores_an_image_as_the_form_does(db):
    from cms.formats import ZIPFormat
    from tests.cms.test_import_files import etoile_bundle, run_import

    run_import(ZIPFormat(), etoile_bundle({"images/Marianne.jpg": jpeg_with_exif()}))

    name = Question.objects.get().image.name
    assert name == clean_image(jpeg_with_exif()).storage_name
    with default_storage.open(name, "rb") as stored:
        assert not Image.open(stored).getexif()


def test_a_zip_import_refuses_a_polyglot_in_french(db):
    from cms.formats import ZIPFormat
    from tests.cms.test_import_files import etoile_bundle, refusal

    bundle = etoile_bundle({"images/a.png": png_bytes() + b"<html><script>x</script>"})

    message = refusal(ZIPFormat(), bundle)

    assert "images/a.png" in message and "autre chose qu’une image" in message
    assert not Question.objects.exists()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def test_markup_that_compressed_pixels_spell_by_chance_is_not_a_polyglot():
    from cms.images import is_polyglot

    content = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", bytes(13))
               + png_chunk(b"IDAT", b"\x00\x17<svg \x88") + png_chunk(b"IEND", b""))

    assert not is_polyglot(content, "PNG")


def test_a_phone_s_video_after_the_jpeg_is_dropped_not_refused():
    video = b"\x00\x00\x00\x18ftypmp42" + bytes(64)

    clean = clean_image(jpeg_with_exif() + video)

    assert b"ftypmp42" not in clean.content


def test_an_upload_named_like_a_stored_image_is_still_checked():
    from django.core.files.uploadedfile import SimpleUploadedFile

    from cms.validators import validate_question_image

    # Only cms.images names a stored file by its hash; an upload's name loses its folder.
    upload = SimpleUploadedFile("questions/0123456789abcdef0123456789abcdef.png",
                                b"<html>not an image</html>")
    with pytest.raises(ValidationError):
        validate_question_image(upload)


def test_a_16_bit_grey_png_keeps_its_greys_instead_of_turning_white():
    # A gradient over the whole 16-bit range, as a scanner or a raw converter writes it.
    wide = Image.new("I;16", (256, 4))
    wide.putdata([x * 257 for _y in range(4) for x in range(256)])
    out = io.BytesIO()
    wide.save(out, format="PNG")

    with Image.open(io.BytesIO(clean_image(out.getvalue()).content)) as stored:
        grey = stored.convert("L")
        row = [grey.getpixel((x, 0)) for x in (0, 64, 128, 192, 255)]

    assert row == [0, 64, 128, 192, 255]


def mpo_bytes() -> bytes:
    """A two-picture MPO, as a phone's portrait or 3D mode writes it."""
    first, second = noisy((64, 48)), noisy((32, 24))
    out = io.BytesIO()
    first.save(out, format="MPO", save_all=True, append_images=[second])
    return out.getvalue()


def test_a_phone_s_multi_picture_jpeg_is_kept_as_its_first_picture():
    content = mpo_bytes()
    assert Image.open(io.BytesIO(content)).format == "MPO"

    clean = clean_image(content)

    assert clean.extension == "jpg"
    with Image.open(io.BytesIO(clean.content)) as stored:
        assert (stored.format, stored.size) == ("JPEG", (64, 48))


def test_a_multi_picture_jpeg_with_a_page_after_its_pictures_is_refused():
    assert code_of(mpo_bytes() + b"<html><script>x</script></html>") == "image_polyglot"


@pytest.mark.django_db
def test_the_admin_names_a_decompression_bomb_precisely(editor_client):
    # 225 million pixels in 27 KB: Pillow refuses to open it at all.
    bomb = io.BytesIO()
    Image.new("1", (15000, 15000)).save(bomb, format="PNG")
    upload = SimpleUploadedFile("bombe.png", bomb.getvalue(), "image/png")

    response = editor_client.post("/admin/cms/question/add/?kind=etoile-mysterieuse",
                                  _etoile_form(editor_client, upload))

    errors = response.context["adminform"].form.errors.as_data()["image"]
    assert [e.code for e in errors] == ["image_too_large"]
    assert "trop de pixels" in " ".join(errors[0].messages)
    assert not Question.objects.exists()
