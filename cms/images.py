"""Question images: one path from upload to storage for the form, the importer and the ZIP.

An image is read fully (a truncated file is refused, not printed with a grey band), must hold
nothing but the image (no page hidden after its end or in its text chunks), and is stored as
a new file encoded from its pixels alone — no EXIF position, camera or comment, orientation
applied — under a name made of its content's hash and the extension of its real format.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

# Pillow format -> (stored extension, save options). PNG at zlib's default level.
ENCODINGS = {"JPEG": ("jpg", {"quality": 90}), "PNG": ("png", {}),
             "WEBP": ("webp", {"quality": 90})}
# A phone's multi-picture JPEG (MPO: the photo, then a depth map or a second view) is a JPEG
# whose first picture is kept.
SAME_AS = {"MPO": "JPEG"}
# Modes holding more than 8 bits a channel (a 16-bit grey PNG): scaled to 8 bits, not clipped
# (clipping turns every grey above 255 in 65 535 white).
WIDE_GREYS = {"I", "I;16", "I;16B", "I;16L", "I;16N"}

# What a browser, a PDF reader or a server would take for a page or a script: inside an image,
# the mark of a polyglot.
MARKUP = re.compile(rb"<(?:!doctype|html|head|body|script|iframe|svg|object|embed|meta)\b"
                    rb"|<\?php|%PDF-", re.IGNORECASE)
# Another file glued after the image.
ARCHIVES = (b"PK\x03\x04", b"Rar!", b"7z\xbc\xaf", b"\x1f\x8b")


@dataclass(frozen=True)
class CleanImage:
    """An image checked and re-encoded from its pixels, ready to be stored."""

    content: bytes
    extension: str
    path: str = ""  # as the upload or the sheet named it; never used to store it

    @property
    def storage_name(self) -> str:
        digest = hashlib.sha256(self.content).hexdigest()[:32]
        return f"questions/{digest}.{self.extension}"

    def __str__(self):
        return self.path


def _refused(message, code: str, **params) -> ValidationError:
    return ValidationError(message, code=code, params=params)


def _png_parts(content: bytes) -> tuple[bytes, int]:
    metadata, position = [], 8
    while position + 8 <= len(content):
        length, kind = struct.unpack(">I4s", content[position:position + 8])
        if kind not in (b"IDAT", b"fdAT"):
            metadata.append(content[position + 8:position + 8 + length])
        position += 12 + length  # length, type, data, CRC
        if kind == b"IEND":
            break
    return b"".join(metadata), position


def _jpeg_parts(content: bytes) -> tuple[bytes, int]:
    metadata, position = [], 2
    while position + 4 <= len(content) and content[position] == 0xFF:
        marker = content[position + 1]
        if marker == 0xD9:
            return b"".join(metadata), position + 2
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        (length,) = struct.unpack(">H", content[position + 2:position + 4])
        if marker != 0xDA:
            metadata.append(content[position + 4:position + 2 + length])
        position += 2 + length
        if marker == 0xDA:  # entropy-coded data runs to the next marker but RSTn and FF00
            while position + 1 < len(content) and not (
                    content[position] == 0xFF and content[position + 1] not in _IN_SCAN):
                position += 1
    return b"".join(metadata), len(content)


_IN_SCAN = {0x00, *range(0xD0, 0xD8)}


def _webp_parts(content: bytes) -> tuple[bytes, int]:
    (size,) = struct.unpack("<I", content[4:8])
    end = min(size + 8, len(content))
    metadata, position = [], 12
    while position + 8 <= end:
        kind, length = struct.unpack("<4sI", content[position:position + 8])
        if kind not in (b"VP8 ", b"VP8L", b"ALPH", b"ANMF"):
            metadata.append(content[position + 8:position + 8 + length])
        position += 8 + length + (length & 1)
    return b"".join(metadata), size + 8


PARTS = {"PNG": _png_parts, "JPEG": _jpeg_parts, "WEBP": _webp_parts}


def is_polyglot(content: bytes, image_format: str) -> bool:
    """Tell whether an image also holds a page, a script or another file.

    Only what is not pixels is searched (chunks, segments, what follows the image's end):
    compressed pixels match a short tag like « <svg » by chance in a few large photos in a
    thousand. Other bytes after the end (a phone's motion-photo video, padding) are
    not refused: re-encoding drops them.
    """
    metadata, end = PARTS[image_format](content)
    trailer = content[end:]
    while image_format == "JPEG" and trailer.startswith(b"\xff\xd8"):  # an MPO's next picture
        more, end = _jpeg_parts(trailer)
        metadata += more
        trailer = trailer[end:]
    return bool(MARKUP.search(metadata) or MARKUP.search(trailer)
                or trailer.startswith(ARCHIVES))


def clean_image(content: bytes, *, path: str = "") -> CleanImage:
    """Check an image's bytes and re-encode its pixels; refuse with a French ValidationError."""
    max_bytes = settings.PLATEAU_IMAGE_MAX_BYTES
    max_pixels = settings.PLATEAU_IMAGE_MAX_PIXELS
    if len(content) > max_bytes:
        from .validators import megabytes  # validators imports this module
        raise _refused(_("L’image pèse %(size)s Mo ; le maximum est %(max)s Mo."),
                       "image_too_heavy", size=megabytes(len(content)), max=megabytes(max_bytes))
    try:
        with Image.open(io.BytesIO(content)) as image:
            image_format = SAME_AS.get(image.format, image.format)
            if image_format not in ENCODINGS:
                raise _refused(
                    _("Format d’image « %(format)s » refusé : JPEG, PNG ou WebP seulement."),
                    "image_format", format=image_format)
            width, height = image.size
            if width * height > max_pixels:
                raise _refused(
                    _("L’image fait %(w)s × %(h)s pixels ; le maximum est %(max)s millions "
                      "de pixels."),
                    "image_too_large", w=width, h=height,
                    max=floatformat(max_pixels / 1_000_000, -1))  # 16 ; 2,5
            image.verify()
        # verify() leaves the image unusable and skips the pixels: decode them all, afresh.
        with Image.open(io.BytesIO(content)) as image:
            image.load()
            upright = ImageOps.exif_transpose(image)
    except ValidationError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _refused(_("L’image a beaucoup trop de pixels pour être ouverte sans risque."),
                       "image_too_large") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, struct.error):
        raise _refused(_("Ce fichier n’est pas une image lisible (JPEG, PNG ou WebP) : il est "
                         "peut-être tronqué ou abîmé."), "image_invalid") from None
    if is_polyglot(content, image_format):
        raise _refused(_("Ce fichier contient autre chose qu’une image (une page web ou un "
                         "document caché dedans) : enregistrez l’image à nouveau depuis un "
                         "logiciel de dessin."), "image_polyglot")
    if upright.mode in WIDE_GREYS:
        upright = upright.convert("I").point(lambda value: value / 256).convert("L")
    # A new image from the decoded pixels alone: no EXIF, comment, profile or text chunk.
    fresh = Image.frombytes(upright.mode, upright.size, upright.tobytes())
    if upright.mode in ("P", "PA"):
        fresh.putpalette(upright.getpalette())
    if "transparency" in upright.info:
        fresh.info["transparency"] = upright.info["transparency"]
    if image_format == "JPEG" and fresh.mode not in ("RGB", "L"):
        fresh = fresh.convert("RGB")
    extension, options = ENCODINGS[image_format]
    out = io.BytesIO()
    fresh.save(out, format=image_format, **options)
    return CleanImage(content=out.getvalue(), extension=extension, path=path)


def store_clean_image(image: CleanImage) -> bool:
    """Write a clean image under its content's name, once; tell whether it was new."""
    name = image.storage_name
    if default_storage.exists(name):
        return False
    saved = default_storage.save(name, ContentFile(image.content))
    if saved != name:
        raise ValueError(f"image stored as {saved}, expected {name}")
    return True


def read_upload(file) -> bytes:
    """Return the bytes of an uploaded or stored file, leaving it where it was."""
    position = file.tell() if hasattr(file, "tell") else 0
    try:
        file.seek(0)
        return file.read()
    finally:
        file.seek(position)


def import_image(content: bytes, path: str) -> CleanImage:
    """Return a file's image cleaned for an import, refusing it with an ImportFileError."""
    from .formats import ImportFileError  # formats reads archives through this module

    try:
        return clean_image(content, path=path)
    except ValidationError as refusal:
        raise ImportFileError(_("Image « %(path)s » : %(reason)s") % {
            "path": path, "reason": " ".join(refusal.messages)}) from None


def crop_image(content: bytes, box: tuple[int, int, int, int], *, path: str = "") -> CleanImage:
    """Return the part (x, y, width, height in pixels, from the top-left corner) of a stored
    image, in its format, checked as any upload is; refuse a box not inside the image."""
    x, y, w, h = box
    try:
        with Image.open(io.BytesIO(content)) as image:
            image_format = SAME_AS.get(image.format, image.format)
            image.load()
            width, height = image.size
            if image_format not in ENCODINGS:
                raise _refused(_("Ce fichier n’est pas une image lisible (JPEG, PNG ou WebP)."),
                               "image_invalid")
            if not (w >= 1 and h >= 1 and x >= 0 and y >= 0 and x + w <= width
                    and y + h <= height):
                raise _refused(_(
                    "Le recadrage (x %(x)s, y %(y)s, %(w)s × %(h)s px) sort de l’image, qui "
                    "fait %(width)s × %(height)s px."), "crop_outside", x=x, y=y, w=w, h=h,
                    width=width, height=height)
            cropped = image.crop((x, y, x + w, y + h))
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise _refused(_("L’image enregistrée est illisible : importez-la de nouveau."),
                       "image_invalid") from None
    _extension, options = ENCODINGS[image_format]
    out = io.BytesIO()
    cropped.save(out, format=image_format, **options)
    return clean_image(out.getvalue(), path=path)
