"""Print jobs: the print page's PDF, made by a worker (cms.jobs), offered on the job's page.

The options travel as the print form's query; the worker checks them again with the form,
then renders with the same checks as the preview: a refused print names every problem.
"""

from __future__ import annotations

import tempfile

from django.core.files import File
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cms import jobs
from cms.games import GAMES

KIND = "print"


@jobs.register(KIND)
def run_print(run: jobs.JobRun) -> None:
    # ReportLab and the products load in the worker, not in every process that registers.
    from .admin_views import form_errors, pdf_filename, problem_rows
    from .forms import PrintForm
    from .render import PrintRefused, render
    from .sheets import SheetError

    params = run.job.params
    game = GAMES.get(params.get("game", ""))
    if game is None:
        run.complete(failed=True, message=_("Jeu inconnu."))
        return
    form = PrintForm(QueryDict(params.get("query", "")), game_slug=game.slug,
                     may_include_drafts=bool(params.get("drafts")))
    if not form.is_valid():
        run.complete(failed=True, message=_("Ces options ne permettent pas d’imprimer :"),
                     report={"errors": form_errors(form)})
        return
    with tempfile.TemporaryFile() as out:
        try:
            render(game.slug, form.chosen_products, form.chosen_options, out=out,
                   include_drafts=form.wants_drafts, progress=run.progress)
        except PrintRefused as refusal:
            count = len(refusal.problems)
            run.complete(failed=True, message=ngettext(
                "Rien n’est imprimé : %(n)s problème à corriger.",
                "Rien n’est imprimé : %(n)s problèmes à corriger.", count) % {"n": count},
                report={"problems": [{key: None if value is None else str(value)
                                      for key, value in row.items()}
                                     for row in problem_rows(refusal.problems)]})
            return
        except SheetError as error:
            run.complete(failed=True, message=str(error), report={"errors": [str(error)]})
            return
        out.seek(0)
        file_name = pdf_filename(game, form.chosen_options)
        stored = run.save_file(file_name, File(out, name=file_name))
    try:
        run.complete(file=stored, file_name=file_name)
    except jobs.Superseded:
        from django.core.files.storage import default_storage

        default_storage.delete(stored)
        raise
