"""`manage.py import`: a file in one of our formats, imported whole or not at all, with a
report that names every bad row and column."""

import errno
import logging
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.formats import FORMATS_BY_NAME, ImportFileError, reading_failure
from cms.games import KINDS
from cms.importing import (
    UploadFolderError,
    describe_failure,
    failed,
    format_for,
    import_dataset,
    remove_stale_uploads,
    resource_class,
    summary,
)

logger = logging.getLogger(__name__)
STDIN = "-"
OS_ERRORS = {
    errno.ENOENT: gettext_lazy("fichier introuvable"),
    errno.EACCES: gettext_lazy("lecture interdite (droits du fichier)"),
    errno.EISDIR: gettext_lazy("c’est un dossier, pas un fichier"),
}


class Command(BaseCommand):
    @property
    def help(self):
        return _("Importe un fichier (CSV, XLSX, JSON, ZIP avec images, Open Trivia DB, "
                 "OpenQuizzDB) en entier ou pas du tout.")

    def add_arguments(self, parser):
        parser.add_argument("resource", help=_(
            "Ce qu’importe le fichier : questions, cartes, images, ou le chemin pointé d’une "
            "ressource."))
        parser.add_argument("import_file_name", help=_(
            "Le fichier à importer ; « - » le lit sur l’entrée standard (avec --format et "
            "--no-input)."))
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive",
                            help=_("Importer sans demander de confirmation."))
        parser.add_argument("-n", "--dry-run", action="store_true", help=_(
            "Tout vérifier et dire ce qui serait importé, sans rien écrire."))
        parser.add_argument("--format", choices=list(FORMATS_BY_NAME), help=_(
            "Le format du fichier : csv, xlsx, json, zip (une feuille et ses images), opentdb "
            "(Open Trivia DB) ou openquizzdb (OpenQuizzDB). Sans --format, l’extension du "
            "fichier le donne (csv, xlsx, json, zip)."))
        parser.add_argument("--kind", default="", choices=["", *KINDS], help=_(
            "Genre des lignes qui n’en ont pas (banques de questions)."))

    def handle(self, *args, **options):
        file_name = options["import_file_name"]
        dry_run = options["dry_run"]
        from_stdin = file_name == STDIN
        source = _("entrée standard") if from_stdin else file_name
        if from_stdin and not options.get("format"):
            raise CommandError(_(
                "Lire l’entrée standard demande --format (%(formats)s) : rien ne dit ce qu’elle "
                "contient."
            ) % {"formats": ", ".join(FORMATS_BY_NAME)})
        confirm = options["interactive"] and not dry_run
        if confirm and from_stdin:
            raise CommandError(_(
                "L’entrée standard porte le fichier, elle ne peut pas aussi répondre à la "
                "confirmation : ajoutez --no-input (ou --dry-run)."))
        resource = resource_class(options["resource"])(kind=options["kind"])
        file_format = format_for(options.get("format"), file_name)
        try:
            remove_stale_uploads()  # the admin's unconfirmed uploads: see remove_stale_uploads
        except UploadFolderError as error:
            raise CommandError(str(error)) from None
        if confirm and input(_("Importer ce fichier ? [yes/no] : ")) != "yes":
            raise CommandError(_("Import annulé."))
        dataset = self.read(file_format, file_name, source, traceback=options.get("traceback"))
        name = source if from_stdin else Path(file_name).name
        result = import_dataset(resource, dataset, dry_run=dry_run,
                                comment=_("Import du fichier « %(name)s »") % {"name": name})
        if failed(result):
            for line in describe_failure(result):
                self.stderr.write(f"  - {line}")
            raise CommandError(_("%(file)s : rien n’a été importé.") % {"file": source})
        prefix = _("Aperçu (rien n’est écrit)") if dry_run else _("Import terminé")
        self.stdout.write(f"{prefix}\u00a0: {summary(result)}.")

    def read(self, file_format, file_name: str, source: str, *, traceback: bool):
        """Return the file as a dataset, or stop with a French message: never a traceback."""
        # A file past the largest cap is refused by its format from its first bytes over the
        # cap, so no more than that is ever read.
        limit = max(settings.PLATEAU_IMPORT_MAX_BYTES, settings.PLATEAU_IMPORT_MAX_ZIP_BYTES) + 1
        try:
            if file_name == STDIN:
                data = sys.stdin.buffer.read(limit)
            else:
                with open(file_name, "rb") as handle:
                    data = handle.read(limit)
        except OSError as error:
            raise CommandError(_("Lecture impossible de %(file)s : %(error)s.") % {
                "file": source, "error": OS_ERRORS.get(error.errno) or error.strerror or error,
            }) from None
        try:
            return file_format.create_dataset(data)
        except ImportFileError as error:
            raise CommandError(_("%(file)s : %(error)s") % {
                "file": source, "error": error}) from None
        except Exception as error:
            # A reader failed in a way no check foresaw: a bug of ours or a damaged file. The
            # developer finds the exception in the log (at INFO, so that a terminal shows no
            # traceback), or here with --traceback.
            logger.info("Import: the %s reader failed on %s", file_format.get_title(), source,
                        exc_info=True)
            if traceback:
                raise
            raise CommandError(_("%(file)s : %(error)s") % {
                "file": source, "error": reading_failure(file_format, error)}) from None
