from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class CmsConfig(AppConfig):
    default = True
    name = "cms"
    verbose_name = _("Contenu des jeux")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import import_jobs  # noqa: F401  (registers the background imports)


class PlateauAdminConfig(admin_apps.AdminConfig):
    default = False
    default_site = "cms.admin_site.PlateauAdminSite"
