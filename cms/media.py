"""`/media/…`: uploaded images, read through the media storage, for signed-in editors.

An image can be a hidden answer (the étoile mystérieuse): it is never served to anyone who
may not see the content; players get theirs from the player's own views, masked until the
reveal. Read through STORAGES["default"], so it works the same on the file system and on
object storage. Background jobs' files (`travaux/`) are served only by their job's page.
"""

import mimetypes

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

PRIVATE_FOLDERS = ("travaux",)


def safe_name(path: str) -> str:
    """Return the storage name for a URL's path, or raise Http404 for anything odd."""
    parts = path.split("/")
    if (not path or any(part in ("", ".", "..") or part.startswith(".") or "\\" in part
                        or "\x00" in part for part in parts)
            or parts[0] in PRIVATE_FOLDERS):
        raise Http404(_("Fichier introuvable."))
    return path


@require_safe
@staff_member_required
def media(request, path: str):
    # Staff is not enough: an account without a role sees no content, nor its images.
    if not (request.user.has_perm("cms.view_question") or request.user.has_perm("cms.view_card")):
        raise PermissionDenied
    name = safe_name(path)
    try:
        handle = default_storage.open(name, "rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        raise Http404(_("Fichier introuvable.")) from None
    content_type, _encoding = mimetypes.guess_type(name)
    response = FileResponse(handle, content_type=content_type or "application/octet-stream")
    # Private to the signed-in editor; a replaced image keeps its name rarely, but may.
    response["Cache-Control"] = "private, max-age=3600"
    response["X-Content-Type-Options"] = "nosniff"
    return response
