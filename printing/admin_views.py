"""The admin's print pages: choose the options, see the first sheet, download the PDF.

Served under the admin's address by printing's own URLs (`printing.urls`, mounted by the
project's), in the admin's look and behind its login: cms's admin site imports nothing of
printing and links to these pages by name. The question and card admins' « Imprimer la
sélection » action keeps the selection (`cms.selection`) and sends the editor here.
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from cms import jobs, selection
from cms.games import GAMES, kind_of
from cms.models import Card, Question

from .forms import CARD_LABELS, PAPER_CHOICES, PrintForm
from .jobs import KIND as PRINT_JOB
from .preview import PreviewUnavailable, preview_of
from .products import PRODUCTS
from .render import PrintOptions, PrintRefused, render
from .sheets import SheetError

PREVIEW_SCALE = 0.9  # 72 dpi × 0.9: an A4 sheet is about 540 pixels wide


# --- who may print -------------------------------------------------------------------------


def may_print(user) -> bool:
    return user.has_perm("cms.view_question") or user.has_perm("cms.view_card")


def may_print_drafts(user) -> bool:
    """Tell whether this user works on the content, and so may print what is unpublished."""
    return user.has_perm("cms.change_question") or user.has_perm("cms.change_card")


# --- shared by the page, the preview and the action ---------------------------------------


def print_form(request, game, *, defaults: bool = False) -> PrintForm:
    """Return the form bound to the query string (to the defaults when it is empty)."""
    drafts = may_print_drafts(request.user)
    data = request.GET or None
    if data is None and defaults:
        data = PrintForm(game_slug=game.slug, may_include_drafts=drafts).initial_query()
    return PrintForm(data, game_slug=game.slug, may_include_drafts=drafts)


def render_pdf(game_slug: str, products, options: PrintOptions, **kwargs) -> bytes:
    """Return the PDF as bytes; raises PrintRefused or SheetError like render does."""
    out = io.BytesIO()
    render(game_slug, products, options, out=out, **kwargs)
    return out.getvalue()


def first_page_png(pdf: bytes) -> bytes:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[0].render(scale=PREVIEW_SCALE).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # a preview: speed over size
    return out.getvalue()


def pdf_filename(game, options: PrintOptions, *, selection: bool = False) -> str:
    """Return « douze-coups-a4-poker.pdf »: the game and the options a maker must match."""
    parts = [game.slug, options.paper, options.card]
    if selection:
        parts.append("selection")
    return "-".join(parts) + ".pdf"


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    disposition = content_disposition_header(True, filename)
    if disposition is None:  # only an inline response without a file name has none
        raise ValueError("an attachment's Content-Disposition header is missing")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = disposition
    return response


def problem_rows(problems) -> list[dict]:
    """Return each problem with what it is about and the admin page where it is fixed."""
    rows = []
    for problem in problems:
        target = problem.target
        url = None
        if target is not None:
            url = reverse(f"admin:cms_{target._meta.model_name}_change", args=[target.pk])
        rows.append({"code": problem.code, "message": problem.message, "url": url,
                     "target": str(target) if target is not None else _("Tout le jeu")})
    return rows


def form_errors(form) -> list[str]:
    """Return the form's errors as sentences, each field's prefixed with its label."""
    lines: list[str] = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        lines.extend(_("%(field)s : %(error)s") % {"field": label, "error": error} if label
                     else str(error) for error in errors)
    return lines


# --- the page and its preview --------------------------------------------------------------


def check_may_print(request) -> None:
    if not may_print(request.user):
        raise PermissionDenied


def preview_query(request, form) -> QueryDict | None:
    """Return the choices the preview shows: the defaults, the form's, or None if invalid."""
    if not form.is_bound:
        return form.initial_query()
    if not form.is_valid():
        return None
    return options_query(request.GET)


def game_or_404(slug: str):
    if slug not in GAMES:
        raise Http404(_("Jeu inconnu."))
    return GAMES[slug]


def print_page(request, slug, *, form=None, status=200):
    """Show the print options and a preview; « Préparer le PDF » queues a print job."""
    game = game_or_404(slug)
    check_may_print(request)
    if "csrfmiddlewaretoken" in request.GET:
        # « Mettre à jour l'aperçu » without JavaScript sent the form's token too (it is there
        # for « Préparer le PDF »): keep it out of the address bar and the history.
        return HttpResponseRedirect(
            f"{reverse('printing:print', args=[game.slug])}?"
            f"{options_query(request.GET).urlencode()}")
    form = form or print_form(request, game)
    query = preview_query(request, form)
    preview = reverse("printing:preview", args=[game.slug])
    context = {
        **admin.site.each_context(request),
        "game": game,
        "title": _("Imprimer — %(game)s") % {"game": game.name},
        "form": form,
        "preview_base": preview,
        "preview_url": f"{preview}?{query.urlencode()}" if query is not None else None,
    }
    return TemplateResponse(request, "admin/printing/print.html", context, status=status)


def options_query(data: QueryDict) -> QueryDict:
    """Return the print form's choices from a request's data, without its CSRF token."""
    query = data.copy()
    query.pop("csrfmiddlewaretoken", None)
    return query


def job_label(game, form) -> str:
    """Return a print job's name: « Impression — Les 12 Coups de Midi (Cartes coup d’envoi ;
    A4, Poker) », the products counted when there are more than a few."""
    chosen = form.chosen_products
    if len(chosen) <= 3:
        products = ", ".join(str(PRODUCTS[game.slug][slug].label) for slug in chosen)
    else:
        products = ngettext("%(n)s produit", "%(n)s produits", len(chosen)) % {"n": len(chosen)}
    paper = str(dict(PAPER_CHOICES)[form.cleaned_data["paper"]]).split(" (")[0]
    card = CARD_LABELS.get(form.cleaned_data["card"], form.cleaned_data["card"])
    return _("Impression — %(game)s (%(products)s ; %(paper)s, %(card)s)") % {
        "game": game.name, "products": products, "paper": paper, "card": card}


@require_POST
def queue_print(request, slug):
    """Queue the PDF of the chosen options as a background job and show the job's page."""
    game = game_or_404(slug)
    check_may_print(request)
    query = options_query(request.POST)
    form = PrintForm(query, game_slug=game.slug,
                     may_include_drafts=may_print_drafts(request.user))
    if not form.is_valid():
        return print_page(request, slug, form=form, status=422)
    job = jobs.queue(PRINT_JOB, owner=request.user, label=job_label(game, form),
                     params={"game": game.slug, "query": query.urlencode(),
                             "drafts": form.wants_drafts})
    return HttpResponseRedirect(reverse("admin:cms_job", args=[job.pk]))


def print_preview(request, slug):
    """Return the first sheet as a PNG, or as JSON why it cannot be printed.

    The sheet's cards and questions go through the download's checks: one the download
    would refuse is answered with its problems, not with its picture. Rules about the whole
    game (the ladder) need all of it: only the download checks them.
    """
    game = game_or_404(slug)
    check_may_print(request)
    form = print_form(request, game, defaults=True)
    if not form.is_valid():
        return JsonResponse({"errors": form_errors(form), "problems": []}, status=400)
    try:
        pdf = render_pdf(game.slug, form.chosen_products, form.chosen_options,
                         include_drafts=form.wants_drafts, preview=True)
    except PrintRefused as refusal:
        return JsonResponse({"errors": [], "problems": problem_rows(refusal.problems)},
                            status=422)
    except SheetError as error:
        return JsonResponse({"errors": [str(error)], "problems": []}, status=400)
    return HttpResponse(first_page_png(pdf), content_type="image/png")


# --- the change lists' action --------------------------------------------------------------


SHOWN_PROBLEMS = 20  # a message on the change list names these; the rest are counted


def refusal_message(problems) -> str:
    """Say why nothing prints: the first problems, each linked, and how many more."""
    total = len(problems)
    rows = problem_rows(problems[:SHOWN_PROBLEMS])
    items = format_html_join(
        "", "<li>{}</li>",
        ((format_html('<a href="{}">{}</a> : {}', row["url"], row["target"], row["message"])
          if row["url"] else format_html("{} : {}", row["target"], row["message"]),)
         for row in rows))
    more = ""
    if total > len(rows):
        more = format_html("<p>{}</p>", ngettext(
            "… et %(n)s autre : la page « Voir les problèmes du contenu » les liste tous.",
            "… et %(n)s autres : la page « Voir les problèmes du contenu » les liste tous.",
            total - len(rows)) % {"n": total - len(rows)})
    return format_html("{}<ul>{}</ul>{}", ngettext(
        "Rien n’est imprimé : %(n)s problème à corriger.",
        "Rien n’est imprimé : %(n)s problèmes à corriger.", total) % {"n": total},
        items, more)


def products_printing(game, model, kinds) -> list[str]:
    """Return the game's products that print content of these kinds from this model."""
    is_card = model is Card
    return [slug for slug, product in PRODUCTS.get(game.slug, {}).items()
            if product.kind in kinds and kind_of(product.kind).is_card == is_card]


def print_selection(request, slug: str):
    """Print the selection a change list's « Imprimer la sélection » action kept, with the
    default options; say what is wrong on the change list it came from."""
    check_may_print(request)
    game = game_or_404(slug)
    queryset = selection.recall(request, request.GET.get("selection", ""))
    if queryset is None or queryset.model not in (Card, Question):
        raise Http404(_("Cette sélection n’existe plus : sélectionnez à nouveau."))
    back = HttpResponseRedirect(
        reverse(f"admin:cms_{queryset.model._meta.model_name}_changelist"))
    objects = list(queryset)
    if not objects:
        raise Http404(_("Les éléments de cette sélection n’existent plus."))
    if any(obj.game.slug != game.slug for obj in objects):
        raise Http404(_("Cette sélection n’est pas celle de ce jeu."))
    products = products_printing(game, queryset.model, {obj.kind for obj in objects})
    if not products:
        messages.warning(request, _(
            "Aucun produit de %(game)s n’imprime ces éléments : une question posée sur une "
            "carte s’imprime avec sa carte.") % {"game": game.name})
        return back
    options = PrintOptions()
    try:
        pdf = render_pdf(game.slug, products, options, refs=[obj.ref for obj in objects],
                         include_drafts=may_print_drafts(request.user))
    except PrintRefused as refusal:
        messages.error(request, refusal_message(refusal.problems))
        return back
    return pdf_response(pdf, pdf_filename(game, options, selection=True))


# --- the change form's live preview --------------------------------------------------------

PREVIEWED = {"question": Question, "card": Card}


def content_preview(request, model_name: str, pk: int | None = None):
    """Return the question or card as it will print: each face as a PNG (in JSON), or the
    PDF they are cut from (`?format=pdf`).

    Posted by the change form with what the editor typed (nothing is saved); someone who
    may only read it sees it as stored.
    """
    model = PREVIEWED.get(model_name)
    if model is None:
        raise Http404
    opts = model._meta
    if not request.user.has_perm(f"{opts.app_label}.view_{opts.model_name}"):
        raise PermissionDenied
    original = None
    if pk is not None:
        original = model.objects.filter(pk=pk).first()
        if original is None:
            raise Http404(_("Ce contenu n’existe plus."))
    action = "change" if original is not None else "add"
    edited = request.method == "POST" and request.user.has_perm(
        f"{opts.app_label}.{action}_{opts.model_name}")
    try:
        shown = preview_of(model, request.POST, original,
                           include_drafts=may_print_drafts(request.user), edited_data=edited)
    except PreviewUnavailable as unavailable:
        return JsonResponse({"unavailable": str(unavailable)}, status=200)
    if request.GET.get("format") == "pdf":
        response = HttpResponse(shown.pdf, content_type="application/pdf")
        response["Content-Disposition"] = "inline"
        return response
    sides = {"front": _("Recto"), "back": _("Verso")}
    return JsonResponse({
        "product": str(shown.product.label),
        "note": shown.note,
        "faces": [{"side": face.side, "label": sides[face.side], "src": face.data_url,
                   "width": face.width, "height": face.height} for face in shown.faces],
        "problems": [problem.message for problem in shown.problems],
        "panels": [{"number": p.number, "size": p.size, "x": p.x, "y": p.y, "w": p.w,
                    "h": p.h} for p in shown.panels],
    })
