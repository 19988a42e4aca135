"""`manage.py restore path`: a backup archive back into a new, empty database."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cms.backup import BackupError, describe_rows, restore_backup


class Command(BaseCommand):
    help = ("Restaure une archive de manage.py backup dans une base neuve, juste migrée : "
            "l’archive est vérifiée en entier d’abord, puis tout est écrit ou rien.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="L’archive ZIP à restaurer.")

    def handle(self, *args, path: str, **options):
        if not path.strip():
            raise CommandError(_("Le chemin de l’archive est vide."))
        try:
            summary = restore_backup(Path(path).expanduser())
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("Restauration terminée :"))
        for line in describe_rows(summary.rows):
            self.stdout.write(line)
        self.stdout.write(summary.media_label)
