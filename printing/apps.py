from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Impression")

    def ready(self):
        from . import jobs  # noqa: F401  (registers the print jobs)
