"""Field validators: rules about one value, run by every form, import and full_clean()."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError

MEGABYTE = 1_048_576


def megabytes(size: int) -> str:
    """Return a byte count in megabytes as French text shows it: « 4,8 »."""
    return number_format(size / MEGABYTE, decimal_pos=1 if size >= MEGABYTE // 10 else 2)
IMAGE_FORMATS = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WebP"}


def validate_question_image(file) -> None:
    """Refuse anything but a real JPEG, PNG or WebP within the byte and pixel caps."""
    max_bytes = settings.PLATEAU_IMAGE_MAX_BYTES
    max_pixels = settings.PLATEAU_IMAGE_MAX_PIXELS
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
    position = file.tell() if hasattr(file, "tell") else 0
    try:
        file.seek(0)
        with Image.open(file) as image:
            image_format = image.format
            width, height = image.size
            if image_format not in IMAGE_FORMATS:
                raise ValidationError(
                    _("Format d’image « %(format)s » refusé : JPEG, PNG ou WebP seulement."),
                    code="image_format",
                    params={"format": image_format},
                )
            if width * height > max_pixels:
                raise ValidationError(
                    _("L’image fait %(w)s × %(h)s pixels ; le maximum est %(max)s millions "
                      "de pixels."),
                    code="image_too_large",
                    params={"w": width, "h": height, "max": round(max_pixels / 1_000_000, 1)},
                )
            image.verify()
    except Image.DecompressionBombError:
        raise ValidationError(
            _("L’image a beaucoup trop de pixels pour être ouverte sans risque."),
            code="image_too_large",
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ValidationError(
            _("Ce fichier n’est pas une image lisible (JPEG, PNG ou WebP)."),
            code="image_invalid",
        ) from None
    finally:
        file.seek(position)
