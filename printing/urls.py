"""The admin's print pages for one game, mounted under the admin's address by the project.

Wrapped by the admin site's `admin_view`: its login, its permissions' gate, no caching.
"""

from django.contrib import admin
from django.urls import path

from .admin_views import print_page, print_preview, print_selection, queue_print

app_name = "printing"

urlpatterns = [
    path("", admin.site.admin_view(print_page), name="print"),
    path("preparer/", admin.site.admin_view(queue_print), name="queue"),
    path("apercu.png", admin.site.admin_view(print_preview), name="preview"),
    path("selection/", admin.site.admin_view(print_selection), name="selection"),
]
