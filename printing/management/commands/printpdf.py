"""Print a game's products to one PDF: python manage.py printpdf GAME [PRODUCT ...]."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cms.games import GAMES
from printing.products import PRODUCTS, Deck
from printing.render import PrintOptions, PrintRefused, prints_alone, render
from printing.sheets import BACKS, CARD_SIZES, DECK_PAPERS, DEFAULT_GUTTER, SheetError

PROGRESS_FROM = 50  # items: shorter prints finish before a bar is worth drawing
BAR_WIDTH = 30


class ProgressBar:
    """A one-line bar on stderr, redrawn as sheets are written."""

    def __init__(self, write):
        self.write = write
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        percent = done * 100 // total
        if percent == self.shown:
            return
        self.shown = percent
        filled = BAR_WIDTH * done // total
        self.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {percent:3d} % "
                   f"({done}/{total})" + ("\n" if done >= total else ""))


class Command(BaseCommand):
    help = ("Print a game's products (all of them unless named) to a PDF ready to print at "
            "100 %. Only published content is printed unless --include-drafts.")

    def add_arguments(self, parser):
        parser.add_argument("game", nargs="?", help=f"One of: {', '.join(PRODUCTS)}.")
        parser.add_argument("products", nargs="*", help="Product slugs (see --list).")
        parser.add_argument("--list", action="store_true", help="List each game's products.")
        parser.add_argument("--paper", choices=DECK_PAPERS, default="a4")
        parser.add_argument("--card", choices=tuple(CARD_SIZES), default="poker")
        parser.add_argument("--backs", choices=BACKS, default="long",
                            help="long or short: duplex; separate: all fronts then all "
                                 "backs; fold: gutterfold sheets for one-sided printers.")
        parser.add_argument("--bleed", type=float, default=0.0, help="Bleed in mm, 0 to 3.")
        parser.add_argument("--gutter", type=float, default=DEFAULT_GUTTER,
                            help="White paper between two cards' bleeds, in mm (0 to 10).")
        parser.add_argument("--offset-x", type=float, default=0.0,
                            help="Move every back right by this many mm, as seen on the verso "
                                 "(read on the calibration sheet).")
        parser.add_argument("--offset-y", type=float, default=0.0,
                            help="Move every back up by this many mm, as seen on the verso.")
        parser.add_argument("--no-crop-marks", action="store_true")
        parser.add_argument("--crop-marks-to-edge", action="store_true",
                            help="Run the crop marks to the paper's edge, for a paper trimmer.")
        parser.add_argument("--include-drafts", action="store_true")
        parser.add_argument("--out", type=Path,
                            help="Where to write the PDF (default: GAME-PAPER-CARD.pdf here).")

    def handle(self, *args, game, products, list, **options):
        if list:
            self.list_products(game)
            return
        if not game:
            raise CommandError("Nommez un jeu (ou --list pour voir les produits).")
        if game not in PRODUCTS:
            raise CommandError(f"Jeu inconnu : {game} (choix : {', '.join(PRODUCTS)}).")
        try:
            print_options = PrintOptions(
                paper=options["paper"], card=options["card"], backs=options["backs"],
                bleed=options["bleed"], gutter=options["gutter"], offset_x=options["offset_x"],
                offset_y=options["offset_y"], crop_marks=not options["no_crop_marks"],
                marks_to_edge=options["crop_marks_to_edge"])
        except SheetError as error:
            raise CommandError(str(error)) from None
        name = f"{game}-{print_options.paper}-{print_options.card}.pdf"
        out = options["out"] or Path(name)
        if out.is_dir():
            out = out / name  # a folder: the usual name, in it
        out = out.resolve()
        if not out.parent.is_dir():
            raise CommandError(f"Dossier introuvable : {out.parent}.")
        # Written beside the target, then moved: a refused or failed print leaves no file.
        handle, temporary = tempfile.mkstemp(suffix=".pdf", dir=out.parent)
        os.close(handle)
        try:
            result = render(game, products, print_options, out=temporary,
                            include_drafts=options["include_drafts"],
                            progress=ProgressBar(self.progress_writer(options["verbosity"])))
            os.replace(temporary, out)
        except PrintRefused as refused:
            raise CommandError(self.describe(game, refused)) from None
        except (KeyError, SheetError) as error:
            raise CommandError(error.args[0]) from None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        self.stdout.write(
            f"{out} : {result.pages} page(s), {result.items} élément(s) "
            f"({', '.join(result.products)})."
        )

    def progress_writer(self, verbosity: int) -> Callable[[str], None]:
        if not verbosity:
            return lambda text: None

        def write(text: str) -> None:
            self.stderr.write(text, ending="")
            self.stderr.flush()

        return write

    def list_products(self, game: str | None) -> None:
        games = [game] if game else list(PRODUCTS)
        for slug in games:
            if slug not in PRODUCTS:
                raise CommandError(f"Jeu inconnu : {slug} (choix : {', '.join(PRODUCTS)}).")
            self.stdout.write(f"{slug} — {GAMES[slug].name}")
            for product in PRODUCTS[slug].values():
                what = "cartes" if isinstance(product, Deck) else "pages"
                alone = ", à imprimer seul" if prints_alone(product) else ""
                self.stdout.write(f"  {product.slug:<22} {product.label} ({what}{alone})")

    @staticmethod
    def describe(game: str, refused: PrintRefused) -> str:
        lines = [f"Impression refusée : {len(refused.problems)} problème(s) à corriger "
                 f"d’abord ({game})."]
        for problem in refused.problems:
            target = problem.target
            where = f"[{target.ref}] {target} : " if target is not None else ""
            lines.append(f"  - {where}{problem.message}")
        return "\n".join(lines)

