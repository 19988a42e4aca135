"""Field validators: rules about one value, run by every form, import and full_clean()."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from .images import FORMAT_LABELS, clean_image, read_upload

MEGABYTE = 1_048_576


def megabytes(size: int) -> str:
    """Return a byte count in megabytes as French text shows it: « 4,8 »."""
    return number_format(size / MEGABYTE, decimal_pos=1 if size >= MEGABYTE // 10 else 2)


IMAGE_FORMATS = FORMAT_LABELS


def validate_question_image(file) -> None:
    """Refuse anything but a whole, plain JPEG, PNG or WebP within the byte and pixel caps."""
    max_bytes = settings.PLATEAU_IMAGE_MAX_BYTES
    try:
        size = file.size
    except OSError:  # a stored name whose file is gone
        raise ValidationError(
            _("Le fichier image « %(name)s » est introuvable."),
            code="image_invalid", params={"name": getattr(file, "name", "")},
        ) from None
    if size is not None and size > max_bytes:
        raise ValidationError(
            _("L’image pèse %(size)s Mo ; le maximum est %(max)s Mo."),
            code="image_too_heavy",
            params={"size": megabytes(size), "max": megabytes(max_bytes)},
        )
    clean_image(read_upload(file), path=getattr(file, "name", "") or "")
