from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from .health import health
from .media import media

urlpatterns = [
    path("", include("player.urls")),
    # Before the admin's own, whose catch-all would answer for these addresses.
    path("admin/jeux/<slug:slug>/imprimer/", include("printing.urls")),
    path("admin/apercu/", include("printing.preview_urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("sante/", health, name="health"),
    # Uploaded images, to editors only, with DEBUG or without (cms.media).
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", media, name="media"),
]
