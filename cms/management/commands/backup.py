"""`manage.py backup [path]`: the whole database and its media files in one ZIP archive."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cms.backup import BackupError, backup_target, describe_rows, write_backup


class Command(BaseCommand):
    help = ("Sauvegarde tout le contenu, l’historique, les comptes et les images dans une "
            "archive ZIP (par défaut plateau-<date>.zip dans le dossier courant), que "
            "manage.py restore remet dans une base neuve.")

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="Le fichier ZIP à écrire.")
        parser.add_argument("--force", action="store_true",
                            help="Remplacer le fichier s’il existe déjà.")

    def handle(self, *args, path: str | None, force: bool, **options):
        try:
            target = backup_target(path, force=force)
            summary = write_backup(target, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("Sauvegarde écrite dans %(path)s (%(size)s) :")
                          % {"path": summary.path, "size": summary.size_label})
        for line in describe_rows(summary.rows):
            self.stdout.write(line)
        self.stdout.write(summary.media_label)
        for name in summary.missing:
            self.stderr.write(_("Fichier média introuvable, non sauvegardé : « %(name)s »")
                              % {"name": name})
