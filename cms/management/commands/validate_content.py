from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cms.games import GAMES
from cms.models import Card
from cms.rules import validate_all, validate_game


def describe(target) -> str:
    if target is None:
        return _("Tout le jeu")
    if isinstance(target, Card):
        return _("Carte « %(label)s » (%(ref)s)") % {"label": target.title or target.spec.label,
                                                    "ref": target.ref}
    return _("Question « %(text)s » (%(ref)s)") % {"text": target, "ref": target.ref}


class Command(BaseCommand):
    help = "Check every game's content against the rules; exit 1 when any error exists."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=[g.slug for g in GAMES.values() if g.kinds],
                            help="Only this game.")
        parser.add_argument("--errors-only", action="store_true", help="Hide the warnings.")

    def handle(self, *args, game=None, errors_only=False, **options):
        reports = [validate_game(game)] if game else validate_all()
        errors = 0
        for report in reports:
            errors += len(report.errors)
            self.stdout.write(self.style.MIGRATE_HEADING(
                _("%(game)s — %(e)s erreur(s), %(w)s avertissement(s)") % {
                    "game": report.game.name, "e": len(report.errors),
                    "w": len(report.warnings)}))
            for problem in report.errors + ([] if errors_only else report.warnings):
                style = self.style.ERROR if problem.is_error else self.style.WARNING
                label = _("ERREUR") if problem.is_error else _("AVERTISSEMENT")
                self.stdout.write(f"  {style(label)} [{problem.code}] {describe(problem.target)}"
                                  f"\n      {problem.message}")
        if errors:
            raise CommandError(_("%(n)s erreur(s) dans le contenu.") % {"n": errors},
                               returncode=1)
        self.stdout.write(self.style.SUCCESS(_("Aucune erreur.")))
