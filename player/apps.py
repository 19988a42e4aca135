from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayerConfig(AppConfig):
    name = "player"
    verbose_name = _("Parties")
    default_auto_field = "django.db.models.BigAutoField"
