"""The hidden picture leaves the server as its opened panels only."""

import io

from PIL import Image

from player.images import COVER, SIDE, revealed_image


def picture(colour=(200, 16, 46), size=(1000, 1000)) -> io.BytesIO:
    data = io.BytesIO()
    Image.new("RGB", size, colour).save(data, "PNG")
    data.seek(0)
    return data


def pixel(image, x, y):
    return image.getpixel((int(x * SIDE), int(y * SIDE)))


def test_nothing_of_the_picture_shows_before_a_panel_opens():
    image = revealed_image(picture(), [])
    assert image.getcolors() == [(SIDE * SIDE, COVER)]


def test_an_opened_panel_shows_that_part_of_the_picture_and_nothing_else():
    image = revealed_image(picture(), [[0.0, 0.0, 0.7, 1 / 7]])
    assert pixel(image, 0.35, 0.07) == (200, 16, 46)
    assert pixel(image, 0.85, 0.07) == COVER  # the small panel beside it
    assert pixel(image, 0.35, 0.5) == COVER  # the large panels below


def test_a_wide_picture_is_fitted_whole_as_on_the_printed_fiche():
    image = revealed_image(picture(size=(1000, 500)), [[0, 0, 1, 1]])
    assert pixel(image, 0.5, 0.1) == (255, 255, 255)  # the band above the picture
    assert pixel(image, 0.5, 0.5) == (200, 16, 46)


def test_the_served_picture_carries_none_of_the_file_s_metadata():
    source = io.BytesIO()
    exif = Image.Exif()
    exif[0x010E] = "La tour Eiffel"  # ImageDescription: often the answer itself
    Image.new("RGB", (400, 400), "blue").save(source, "JPEG", exif=exif)
    source.seek(0)
    image = revealed_image(source, [[0, 0, 1, 1]])
    out = io.BytesIO()
    image.save(out, "PNG")
    assert b"Eiffel" not in out.getvalue()
