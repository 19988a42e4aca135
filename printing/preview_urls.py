"""The change forms' live preview, mounted under the admin's address by the project.

Wrapped by the admin site's `admin_view`: its login, its permissions' gate, no caching.
cms's change form links to it by name only.
"""

from django.contrib import admin
from django.urls import path

from .admin_views import content_preview

app_name = "printing_preview"

urlpatterns = [
    path("<str:model_name>/", admin.site.admin_view(content_preview), name="content"),
    path("<str:model_name>/<int:pk>/", admin.site.admin_view(content_preview), name="content"),
]
