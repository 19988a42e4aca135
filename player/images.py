"""Compose the hidden picture from its opened panels only."""

from __future__ import annotations

from PIL import Image, ImageOps

SIDE = 900  # px: the square the picture is fitted in, as on the printed fiche
COVER = (29, 42, 58)  # the closed panels' colour
MAX_PIXELS = 40_000_000


def revealed_image(source, panels) -> Image.Image:
    """Return a square picture where only `panels` ([x, y, w, h] in 0..1) show the image.

    The image is fitted whole in the square, its shape kept, as the printed fiche does,
    so a panel uncovers the same part of the picture on screen and on paper.
    """
    with Image.open(source) as original:
        if original.width * original.height > MAX_PIXELS:
            raise ValueError("image too large")
        original = ImageOps.exif_transpose(original).convert("RGB")
        fitted = ImageOps.pad(original, (SIDE, SIDE), color=(255, 255, 255))
    canvas = Image.new("RGB", (SIDE, SIDE), COVER)
    for x, y, w, h in panels:
        box = (round(x * SIDE), round(y * SIDE), round((x + w) * SIDE), round((y + h) * SIDE))
        if box[0] < box[2] and box[1] < box[3]:
            canvas.paste(fitted.crop(box), box[:2])
    return canvas
