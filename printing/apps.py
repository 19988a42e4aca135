from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Impression")

    def ready(self):
        # Validation learns from printing whether text fits its card (cms never imports us).
        from .render import _register

        _register()
