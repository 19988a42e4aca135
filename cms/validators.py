"""Field validators: rules about one value, run by every form, import and full_clean()."""

import re

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from .images import clean_image, read_upload

MEGABYTE = 1_048_576


def megabytes(size: int) -> str:
    """Return a byte count in megabytes as French text shows it: « 4,8 »."""
    return number_format(size / MEGABYTE, decimal_pos=1 if size >= MEGABYTE // 10 else 2)


STORED_CLEAN = re.compile(r"questions/[0-9a-f]{32}\.(?:png|jpg|webp)")


def validate_question_image(file) -> None:
    """Refuse anything but a whole, plain JPEG, PNG or WebP within the byte and pixel caps."""
    max_bytes = settings.PLATEAU_IMAGE_MAX_BYTES
    try:
        size = file.size
    except OSError:  # a stored name whose file is gone
        raise ValidationError(
            _("Le fichier image « %(name)s » est introuvable."),
            code="image_invalid", params={"name": getattr(file, "name", "")},
        ) from None
    if size is not None and size > max_bytes:
        raise ValidationError(
            _("L’image pèse %(size)s Mo ; le maximum est %(max)s Mo."),
            code="image_too_heavy",
            params={"size": megabytes(size), "max": megabytes(max_bytes)},
        )
    name = getattr(file, "name", "") or ""
    if STORED_CLEAN.fullmatch(name):
        # Stored under its content's hash, which only cms.images gives: it was checked and
        # re-encoded on the way in (an upload's name has no folder), and decoding it again
        # at every save costs more than the save.
        return
    clean_image(read_upload(file), path=name)


# Only the digits 0 to 9: not ３ or ٣ (which int() reads), not 1e0, 3.0 or +3. Spaces around
# are harmless and dropped. Nine digits at most: no number here comes near a billion, and
# Python refuses to read an integer of more than 4 300 digits.
WHOLE_NUMBER = re.compile(r"[0-9]+")
MAX_DIGITS = 9


def echoed(text: str, limit: int = 24) -> str:
    """Return a value to quote back in a message, cut if long (it may be thousands of digits)."""
    return text if len(text) <= limit else text[:limit] + "…"


def whole_number(value, *, field) -> int:
    """Return a whole number written with the digits 0 to 9, or refuse it naming the field."""
    if isinstance(value, int) and not isinstance(value, bool):  # a spreadsheet's number cell
        return value
    text = str(value).strip(" \t")
    if not WHOLE_NUMBER.fullmatch(text):
        raise ValidationError(
            _("%(field)s : « %(value)s » n’est pas un nombre entier écrit avec les chiffres "
              "0 à 9."),
            code="number_not_plain_digits",
            params={"field": capfirst(field), "value": echoed(text)},
        )
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise ValidationError(
            _("%(field)s : « %(value)s » est un nombre bien trop grand (%(max)s chiffres au "
              "plus)."),
            code="number_too_large",
            params={"field": capfirst(field), "value": echoed(text), "max": MAX_DIGITS},
        )
    return int(text.lstrip("0") or "0")  # int() refuses thousands of digits, zeros included


class WholeNumberField(forms.IntegerField):
    """A form's whole number: digits 0 to 9 only, whatever int() would make of the rest."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, str):
            value = whole_number(value, field=self.label or "")
        return super().to_python(value)


def plain_line_ends(text: str) -> str:
    """Return text with every line ending as one line feed: no carriage return left.

    An XLSX file turns a carriage return into a line feed (XML reads CR and CRLF as LF):
    text held with line feeds only goes through a workbook and back unchanged.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


class PlainTextField(forms.CharField):
    """A form's text with its line ends as line feeds (browsers send CRLF from a textarea)."""

    def to_python(self, value):
        value = super().to_python(value)
        return plain_line_ends(value) if isinstance(value, str) else value


class CheckedImageField(forms.ImageField):
    """A form's image checked by cms.images alone, with its precise French refusals.

    Django's ImageField opens the upload first and says only « Téléversez une image
    valide » for any failure, a decompression bomb included.
    """

    def to_python(self, data):
        upload = forms.FileField.to_python(self, data)
        if upload is None:
            return None
        validate_question_image(upload)
        return upload
