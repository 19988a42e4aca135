"""`manage.py import`: the library's command, with our formats, whole-file imports and a report
that names every bad row and column."""

from importlib import import_module
from pathlib import Path

from django.core.management.base import CommandError

from cms.formats import ImportFileError
from cms.games import KINDS
from cms.importing import (
    describe_failure,
    failed,
    format_for,
    import_dataset,
    resource_class,
    summary,
)

# `import` is a keyword: the library's command module is reached by name.
library = import_module("import_export.management.commands.import")


class Command(library.Command):
    help = ("Importe un fichier (CSV, XLSX, JSON, ZIP avec images, Open Trivia DB, "
            "OpenQuizzDB) en entier ou pas du tout. RESOURCE : questions, cartes, images ou "
            "un chemin pointé.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--kind", default="", choices=["", *KINDS],
                            help="Genre des lignes qui n’en ont pas (banques de questions).")

    def handle(self, *args, **options):
        file_name = options["import_file_name"]
        dry_run = options["dry_run"]
        confirm = options["interactive"] and not dry_run
        if confirm and input("Importer ce fichier ? [yes/no] : ") != "yes":
            raise CommandError("Import annulé.")
        resource = resource_class(options["resource"])(kind=options["kind"])
        file_format = format_for(options.get("format"), file_name)
        try:
            data = Path(file_name).read_bytes()
            dataset = file_format.create_dataset(data)
        except OSError as error:
            raise CommandError(f"Lecture impossible : {error}") from None
        except ImportFileError as error:
            raise CommandError(f"{file_name} : {error}") from None
        result = import_dataset(resource, dataset, dry_run=dry_run,
                                comment=f"Import du fichier « {Path(file_name).name} »")
        if failed(result):
            for line in describe_failure(result):
                self.stderr.write(f"  - {line}")
            raise CommandError(f"{file_name} : rien n’a été importé.")
        prefix = "Aperçu (rien n’est écrit)" if dry_run else "Import terminé"
        self.stdout.write(f"{prefix} : {summary(result)}.")
