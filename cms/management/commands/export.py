"""`manage.py export`: the library's command, with our formula-safe formats and short names."""

import sys

from django.core.management.base import CommandError
from import_export.command_utils import get_format_class
from import_export.management.commands import export as library

from cms.formats import FORMATS_BY_NAME
from cms.importing import resource_class


class Command(library.Command):
    help = ("Exporte questions, cartes ou images en CSV, XLSX, JSON ou ZIP (avec les images) "
            "sur la sortie standard ; aucune cellule ne peut lancer de formule.")

    def handle(self, *args, **options):
        name = options["format"]
        found = FORMATS_BY_NAME.get(name.lower())
        file_format = found() if found else get_format_class(name, None, options["encoding"])
        if not file_format.can_export():
            raise CommandError(f"Le format « {name} » ne sait pas exporter.")
        resource = resource_class(options["resource"])()
        data = file_format.export_data(resource.export())
        if isinstance(data, str):
            data = data.encode(options["encoding"] or "utf-8")
        if file_format.is_binary() and self.stdout.isatty() and name.lower() in ("xlsx", "zip"):
            raise CommandError("Format binaire : redirigez la sortie vers un fichier.")
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
