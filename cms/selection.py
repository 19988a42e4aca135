"""A change list's selection, handed to another layer's page (printing's, say) by a key.

An admin action gets a queryset; the page that acts on it is served by another app and
reached by a redirect, which carries no body. The action remembers the selection in the
editor's session and sends its key in the address; the page recalls it, as the same
editor only, and only once the action has checked it is one game's content.
"""

from __future__ import annotations

import secrets

from django.apps import apps
from django.db.models import Model, QuerySet
from django.http import HttpRequest

PREFIX = "plateau-selection-"
KEPT = 5  # selections kept per session: a few tabs printing at once, not an ever-growing list


def remember(request: HttpRequest, queryset: QuerySet) -> str:
    """Keep the selection's model and primary keys in the session; return its key."""
    key = secrets.token_urlsafe(9)
    # A session has keys() but no __iter__.
    names = [name for name in request.session.keys() if name.startswith(PREFIX)]  # noqa: SIM118
    for name in names[:max(0, len(names) - KEPT + 1)]:
        del request.session[name]
    request.session[PREFIX + key] = {"model": queryset.model._meta.label_lower,
                                     "ids": list(queryset.values_list("pk", flat=True))}
    return key


def recall(request: HttpRequest, key: str) -> QuerySet | None:
    """Return the selection `remember` kept under `key` in this session, or None."""
    kept = request.session.get(PREFIX + key)
    if not isinstance(kept, dict):
        return None
    try:
        model: type[Model] = apps.get_model(kept["model"])
    except (KeyError, LookupError, ValueError):
        return None
    return model._default_manager.filter(pk__in=kept.get("ids", []))
