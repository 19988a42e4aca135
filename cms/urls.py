from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("player.urls")),
    # Before the admin's own, whose catch-all would answer for these addresses.
    path("admin/jeux/<slug:slug>/imprimer/", include("printing.urls")),
    path("admin/apercu/", include("printing.preview_urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
