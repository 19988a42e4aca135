"""Load the demo library of fixtures/ through the importers, idempotently.

Each game has a folder with questions.json (and the images it names) and cartes.json, in the
same format the admin imports. What editors changed since is theirs: rows whose ref is
already in the database are left alone, unless --update brings them back to the files.
"""

import io
import zipfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cms.formats import JSONFormat, ZIPFormat, replace_rows
from cms.importing import describe_failure, failed, import_dataset, summary
from cms.models import Card, Question
from cms.resources import CardResource, QuestionResource

DEMO_DIR = settings.BASE_DIR / "fixtures"


def bundle(folder: Path, sheet: Path) -> bytes:
    """Return a ZIP of a sheet and the images beside it, as an editor would upload it."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.write(sheet, sheet.name)
        for image in sorted((folder / "images").glob("*")):
            if image.suffix.lower() in (".png", ".jpg", ".jpeg", ".webp"):
                archive.write(image, f"images/{image.name}")
    return out.getvalue()


def without_known(dataset, model):
    """Drop the rows whose ref the database already holds."""
    known = set(model.objects.filter(ref__in=dataset["ref"]).values_list("ref", flat=True))
    return replace_rows(dataset, [[row[h] for h in dataset.headers] for row in dataset.dict
                                  if row["ref"] not in known])


class Command(BaseCommand):
    help = ("Load the demo library (fixtures/<game>/questions.json, cartes.json, images/) as "
            "published content; running it twice changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=DEMO_DIR)
        parser.add_argument("--update", action="store_true",
                            help="Also bring content already loaded back to the files.")

    def handle(self, *args, dir: Path, update: bool, **options):
        folders = sorted(p for p in dir.iterdir() if (p / "questions.json").exists())
        if not folders:
            raise CommandError(f"Pas de contenu de démonstration dans {dir}.")
        for folder in folders:
            sheet = folder / "questions.json"
            if (folder / "images").is_dir():
                dataset = ZIPFormat().create_dataset(bundle(folder, sheet))
            else:
                dataset = JSONFormat().create_dataset(sheet.read_bytes())
            self.load(folder.name, "questions", QuestionResource, Question, dataset, update)
            cards = folder / "cartes.json"
            if cards.exists():
                dataset = JSONFormat().create_dataset(cards.read_bytes())
                self.load(folder.name, "cartes", CardResource, Card, dataset, update)

    def load(self, game, what, resource_class, model, dataset, update):
        if not update:
            dataset = without_known(dataset, model)
        if not len(dataset):
            self.stdout.write(f"Démo {game}, {what} : déjà chargé.")
            return
        result = import_dataset(resource_class(), dataset, dry_run=False,
                                comment="Contenu de démonstration")
        if failed(result):
            raise CommandError(f"Démo {game}, {what} : rien n’a été importé.\n" + "\n".join(
                f"  - {line}" for line in describe_failure(result)))
        self.stdout.write(f"Démo {game}, {what} : {summary(result)}.")
