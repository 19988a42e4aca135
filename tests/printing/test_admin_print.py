"""The admin's « Imprimer » page, its preview, the print job « Préparer le PDF » queues (its
page, its PDF, its refusal) and the « Imprimer la sélection » action.

Without TASKS_BACKEND (development, these tests) the job runs in the request that queues it:
« Préparer le PDF » lands on the page of a job already finished.
"""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms.games import GAMES
from cms.models import Card, Job, JobState, Question, Status
from printing.products import PRODUCTS, Deck
from printing.sheets import PAPERS
from tests.builders import make_card
from tests.conftest import LoginRequestClient
from tests.printing.conftest import flat, page_text

# The exact checks print millionnaire's ladder question cards: one product, known content.
QUESTIONS = {"products": "questions", "paper": "a4", "card": "poker", "backs": "long",
             "bleed": "0", "offset_x": "0", "offset_y": "0", "crop_marks": "on"}


def print_url(slug="millionnaire"):
    return reverse("printing:print", args=[slug])


def preview_url(slug="millionnaire"):
    return reverse("printing:preview", args=[slug])


def queue_url(slug="millionnaire"):
    return reverse("printing:queue", args=[slug])


JOB_PAGE = re.compile(r"^/admin/travaux/(?P<pk>[0-9a-f-]{36})/$")


class Reading(HTMLParser):
    """What a person reads on a page: its links, the job's state and its list of problems."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []  # (text, address)
        self.problems: list[tuple[str, str | None]] = []  # (text, address of its link)
        self.state = ""
        self.heading = ""
        self.errornotes: list[str] = []
        self.buttons: list[tuple[str, dict]] = []  # (text, attributes)
        self.hidden: dict[str, str] = {}  # what the page's forms send unseen
        self._button: list | None = None
        self._link: list | None = None
        self._problem: list | None = None
        self._collecting: list | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "a" and attributes.get("href"):
            self._link = [attributes["href"], ""]
            if self._problem is not None:
                self._problem[1] = attributes["href"]
        elif tag == "button":
            self._button = ["", attributes]
        elif tag == "input" and attributes.get("type") == "hidden":
            self.hidden[attributes.get("name") or ""] = attributes.get("value") or ""
        elif tag == "li" and "plateau-error" in classes:
            self._problem = ["", None]
        elif tag == "h1":
            self._collecting = ["heading", ""]
        elif tag == "strong" and attributes.get("id") == "plateau-job-state":
            self._collecting = ["state", ""]
        elif tag == "p" and "errornote" in classes:
            self._collecting = ["errornote", ""]

    def handle_data(self, data):
        if self._link is not None:
            self._link[1] += data
        if self._problem is not None:
            self._problem[0] += data
        if self._collecting is not None:
            self._collecting[1] += data
        if self._button is not None:
            self._button[0] += data

    def handle_endtag(self, tag):
        if tag == "a" and self._link is not None:
            self.links.append((flat(self._link[1]), self._link[0]))
            self._link = None
        elif tag == "button" and self._button is not None:
            self.buttons.append((flat(self._button[0]), self._button[1]))
            self._button = None
        elif tag == "li" and self._problem is not None:
            self.problems.append((flat(self._problem[0]), self._problem[1]))
            self._problem = None
        elif tag in ("h1", "strong", "p") and self._collecting is not None:
            kind, text = self._collecting
            if kind == "errornote":
                self.errornotes.append(flat(text))
            else:
                setattr(self, kind, flat(text))
            self._collecting = None

    def link(self, starting: str) -> str:
        """Return the address of the one link whose text starts with these words."""
        found = [href for text, href in self.links if text.startswith(starting)]
        assert len(found) == 1, (starting, self.links)
        return found[0]

    def link_texts(self, starting: str) -> list[str]:
        return [text for text, _href in self.links if text.startswith(starting)]


def prepare(client, slug="millionnaire", **changes):
    """Press « Préparer le PDF » with these options (QUESTIONS changed) and follow the answer
    to the job's page, as a browser does: return that page, or the answer if it is not a
    redirect to a job. An option changed to None is left out, as an unticked box is."""
    data = {name: value for name, value in {**QUESTIONS, **changes}.items() if value is not None}
    response = client.post(queue_url(slug), data)
    if response.status_code != 302:
        return response
    assert JOB_PAGE.match(response["Location"]), response["Location"]
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page


def job_of(page) -> Job:
    return Job.objects.get(pk=JOB_PAGE.match(page.wsgi_request.path)["pk"])


def download(client, slug="millionnaire", **changes):
    """Prepare the PDF, read « Terminé » on the job's page and follow its « Télécharger »
    link: return the file's answer and the file, read whole as a browser saves it."""
    page = prepare(client, slug, **changes)
    reading = Reading(page.content.decode())
    assert reading.state == "Terminé", (reading.state, reading.errornotes, reading.problems)
    response = client.get(reading.link("Télécharger"))
    assert response.status_code == 200
    return response, response.getvalue()


def downloaded_pdf(client, slug="millionnaire", **changes) -> bytes:
    return download(client, slug, **changes)[1]


def refused(client, slug="millionnaire", **changes) -> Reading:
    """Prepare a PDF that cannot print: return the job's page, « Échoué », as read."""
    page = prepare(client, slug, **changes)
    reading = Reading(page.content.decode())
    assert reading.state == "Échoué", (reading.state, reading.links)
    assert not reading.link_texts("Télécharger")
    return reading


def changelist_url(model):
    return reverse(f"admin:cms_{model._meta.model_name}_changelist")


def run_action(client, model, objects):
    """POST « Imprimer la sélection » from the change list, as its form does, and follow
    it to the game's print page as a browser would: return that page's answer."""
    response = client.post(changelist_url(model), {
        "action": "print_selection", "_selected_action": [obj.pk for obj in objects],
        "index": "0", "select_across": "0",
    }, follow=False)
    if response.status_code == 302 and "/imprimer/selection/" in response["Location"]:
        return client.get(response["Location"])
    return response


def pdf_text(content: bytes) -> str:
    document = pdfium.PdfDocument(content)
    return flat(" ".join(page_text(document, i) for i in range(len(document))))


def first_ladder_questions(count):
    return list(Question.objects.filter(kind="echelle").order_by("step", "id")[:count])


def title_front(pen, title):
    pen.text(title, pen.safe, size=9, label="titre")


# A deck of our own for the card tests: the real card decks belong to other modules.
TITLE_CARDS = Deck(slug="titres", label="Titres", kind="coup-de-maitre",
                   to_item=lambda content, card: card.title, front=title_front)


@pytest.fixture
def title_cards(monkeypatch):
    """Make Les 12 Coups de Midi print its coup de maître cards as their titles, only."""
    monkeypatch.setitem(PRODUCTS, "douze-coups", {TITLE_CARDS.slug: TITLE_CARDS})


@pytest.fixture
def millionnaire(demo):
    demo("millionnaire")


# --- the page -----------------------------------------------------------------------------


def test_it_lists_every_product_of_the_game_checked_but_the_calibration_sheet(
        editor_client, millionnaire):
    response = editor_client.get(print_url())

    assert response.status_code == 200
    field = response.context["form"]["products"]
    assert [value for value, _label in field.field.choices] == list(PRODUCTS["millionnaire"])
    assert field.value() == [slug for slug in PRODUCTS["millionnaire"] if slug != "calibrage"]
    page = response.content.decode()
    for product in PRODUCTS["millionnaire"].values():
        assert str(product.label) in page


def test_it_labels_card_sizes_with_their_millimetres(editor_client):
    page = editor_client.get(print_url()).content.decode()

    assert "Poker (63 × 88 mm)" in page
    assert "Mini (44 × 68 mm)" in page
    assert "Tarot (70 × 120 mm)" in page


def test_it_shows_a_preview_of_the_default_choices(editor_client):
    response = editor_client.get(print_url())

    assert response.context["preview_url"].startswith(preview_url() + "?")
    assert "crop_marks=on" in response.context["preview_url"]
    assert "backs=long" in response.context["preview_url"]


def test_it_offers_drafts_to_an_editor(editor_client):
    assert "include_drafts" in editor_client.get(print_url()).context["form"].fields


def test_it_prints_only_published_content_for_a_reader(reader_client):
    response = reader_client.get(print_url())

    assert response.status_code == 200
    assert "include_drafts" not in response.context["form"].fields


def test_the_game_page_links_to_its_print_page(reader_client):
    page = reader_client.get(reverse("admin:cms_game", args=["millionnaire"])).content.decode()

    assert f'href="{print_url()}"' in page


def test_the_index_links_to_every_game_print_page(reader_client):
    page = reader_client.get(reverse("admin:index")).content.decode()

    for slug in PRODUCTS:
        assert f'href="{print_url(slug)}"' in page


# --- « Préparer le PDF »: the print job, its page and its PDF ----------------------------------


def test_the_prepare_button_posts_the_options_with_the_csrf_token(db, editor, millionnaire):
    client = LoginRequestClient(enforce_csrf_checks=True)
    client.force_login(editor)
    page = Reading(client.get(print_url()).content.decode())
    [button] = [attributes for text, attributes in page.buttons if text == "Préparer le PDF"]
    assert button["formmethod"] == "post"
    assert button["formaction"] == queue_url()
    token = page.hidden["csrfmiddlewaretoken"]

    assert client.post(queue_url(), QUESTIONS).status_code == 403  # no token: refused
    assert not Job.objects.exists()
    response = client.post(queue_url(), {**QUESTIONS, "csrfmiddlewaretoken": token})

    assert response.status_code == 302
    assert JOB_PAGE.match(response["Location"])


def test_preparing_the_pdf_lands_on_the_finished_job_with_its_file_and_expiry(
        editor_client, millionnaire):
    page = prepare(editor_client)

    reading = Reading(page.content.decode())
    assert reading.state == "Terminé"
    job = job_of(page)
    assert reading.link("Télécharger") == reverse("admin:cms_job_file", args=[job.pk])
    assert reading.link_texts("Télécharger") == ["Télécharger millionnaire-a4-poker.pdf"]
    assert "Le fichier est supprimé le" in flat(page.content.decode())
    assert reading.heading == flat(
        f"Impression — {GAMES['millionnaire'].name} (Cartes questions ; A4, Poker)")
    # The print page it came from, with the same options.
    assert reading.link("Revenir aux options").startswith(print_url() + "?")


def test_a_finished_print_is_listed_with_its_download(editor_client, millionnaire):
    job = job_of(prepare(editor_client))

    listing = Reading(editor_client.get(reverse("admin:cms_jobs")).content.decode())

    assert reverse("admin:cms_job", args=[job.pk]) in [href for _t, href in listing.links]
    assert ("Télécharger", reverse("admin:cms_job_file", args=[job.pk])) in listing.links


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_it_downloads_a_pdf_on_the_paper_chosen(editor_client, millionnaire, paper):
    response, pdf = download(editor_client, paper=paper)

    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="millionnaire-{paper}-poker.pdf"')
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    box = reader.pages[0].mediabox
    size = sorted((float(box.width), float(box.height)))
    assert size == pytest.approx(sorted(v * mm for v in PAPERS[paper]), abs=0.5)


def test_it_downloads_the_questions_on_the_card_size_chosen(editor_client, millionnaire):
    question = first_ladder_questions(1)[0]

    poker = downloaded_pdf(editor_client)
    response, tarot = download(editor_client, card="tarot")

    assert response["Content-Disposition"] == (
        'attachment; filename="millionnaire-a4-tarot.pdf"')
    assert flat(question.text) in pdf_text(tarot)
    # Fewer tarot cards than poker cards to a sheet: the same questions take more sheets.
    assert len(PdfReader(io.BytesIO(tarot)).pages) > len(PdfReader(io.BytesIO(poker)).pages)


def test_it_downloads_only_published_questions_by_default(editor_client, millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(downloaded_pdf(editor_client))

    assert flat(draft.text) not in text


def test_it_downloads_drafts_when_an_editor_asks(editor_client, millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(downloaded_pdf(editor_client, include_drafts="on"))

    assert flat(draft.text) in text


def test_a_reader_cannot_print_drafts_by_adding_them_to_the_form(reader_client, millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(downloaded_pdf(reader_client, include_drafts="on"))

    assert flat(draft.text) not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_preview_is_a_png_in_the_proportions_of_the_paper(editor_client, millionnaire,
                                                              paper):
    response = editor_client.get(preview_url(), {**QUESTIONS, "paper": paper})

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    width, height = PAPERS[paper]
    assert max(image.size) / min(image.size) == pytest.approx(height / width, rel=0.01)


def test_the_preview_without_options_shows_the_default_choices(editor_client, millionnaire):
    response = editor_client.get(preview_url())

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"


def test_the_preview_follows_the_card_size(editor_client, millionnaire):
    poker = editor_client.get(preview_url(), QUESTIONS).content
    tarot = editor_client.get(preview_url(), {**QUESTIONS, "card": "tarot"}).content

    assert poker != tarot


# --- what cannot be printed ----------------------------------------------------------------


def test_impossible_options_show_the_french_error_and_queue_nothing(editor_client,
                                                                    millionnaire):
    response = prepare(editor_client, bleed="5")

    assert response.status_code == 422
    assert response["Content-Type"].startswith("text/html")
    assert "Le fond perdu va de 0 à 3 mm." in response.content.decode()
    assert response.context["preview_url"] is None
    assert response.context["form"]["bleed"].value() == "5"  # the page keeps what was typed
    assert not Job.objects.exists()


def test_the_preview_says_why_options_are_impossible(editor_client, millionnaire):
    response = editor_client.get(preview_url(), {**QUESTIONS, "offset_x": "12"})

    assert response.status_code == 400
    assert response.json()["errors"] == ["Le décalage du verso va de −10 à 10 mm."]


def test_it_asks_for_at_least_one_product(editor_client, millionnaire):
    response = editor_client.get(preview_url(), {**QUESTIONS, "products": []})

    assert response.status_code == 400
    assert response.json()["errors"] == [
        "Produits : Choisissez au moins un produit à imprimer."]


def test_a_refused_print_lists_the_problem_with_a_link_to_the_card(editor_client, title_cards):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
                     difficulties=[1, 2, 3])

    reading = refused(editor_client, "douze-coups", products="titres")

    count = len(reading.problems)
    assert count
    assert reading.errornotes == [flat(
        f"Rien n’est imprimé : {count} problème{'s' if count > 1 else ''} à corriger.")]
    card_url = reverse("admin:cms_card_change", args=[card.pk])
    assert {href for _text, href in reading.problems} == {card_url}
    assert all(text.startswith(flat(f"{card} : ")) for text, _href in reading.problems)
    assert (flat(str(card)), card_url) in reading.links


def test_the_preview_of_a_refused_print_lists_the_question_to_fix(editor_client, millionnaire):
    question = first_ladder_questions(1)[0]
    Question.objects.filter(pk=question.pk).update(text="Beaucoup trop long " * 80)

    response = editor_client.get(preview_url(), QUESTIONS)

    assert response.status_code == 422
    problems = response.json()["problems"]
    assert problems[0]["url"] == reverse("admin:cms_question_change", args=[question.pk])
    assert problems[0]["code"] == "text_overflow"
    assert problems[0]["message"]


def preview_of_titles(client):
    return client.get(preview_url("douze-coups"), {**QUESTIONS, "products": "titres"})


def test_the_preview_of_a_card_with_an_error_lists_its_problems_instead_of_an_image(
        editor_client, title_cards):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
                     difficulties=[1, 2, 3])

    response = preview_of_titles(editor_client)

    assert response.status_code == 422
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert answer["errors"] == []
    assert answer["problems"]
    card_url = reverse("admin:cms_card_change", args=[card.pk])
    assert {row["url"] for row in answer["problems"]} == {card_url}
    assert {row["target"] for row in answer["problems"]} == {str(card)}


def test_the_preview_refuses_with_the_problems_the_print_job_refuses_with(editor_client,
                                                                          title_cards):
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
              difficulties=[1, 2, 3])

    preview = preview_of_titles(editor_client).json()["problems"]
    refusal = refused(editor_client, "douze-coups", products="titres").problems

    assert [(flat(f"{row['target']} : {row['message']}"), row["url"])
            for row in preview] == refusal


def test_the_preview_of_clean_cards_is_an_image(editor_client, title_cards):
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les volcans")

    response = preview_of_titles(editor_client)

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"


def test_the_preview_checks_the_questions_on_its_cards(editor_client, title_cards):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les volcans")
    question = card.questions.first()
    Question.objects.filter(pk=question.pk).update(step=3)  # a step off the ladder

    response = preview_of_titles(editor_client)

    assert response.status_code == 422
    urls = {row["url"] for row in response.json()["problems"]}
    assert reverse("admin:cms_question_change", args=[question.pk]) in urls


def test_a_refused_print_leads_back_to_the_print_page_with_the_same_options(editor_client,
                                                                           title_cards):
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
              difficulties=[1, 2, 3])
    chosen = {"products": "titres", "paper": "letter", "card": "tarot", "bleed": "2",
              "offset_x": "1.5", "crop_marks": None}

    back = refused(editor_client, "douze-coups", **chosen).link("Revenir aux options")
    page = editor_client.get(back)

    assert page.status_code == 200
    form = page.context["form"]
    assert form["products"].value() == ["titres"]
    assert form["paper"].value() == "letter"
    assert form["card"].value() == "tarot"
    assert form["bleed"].value() == "2"
    assert form["offset_x"].value() == "1.5"
    assert form["crop_marks"].value() is False
    assert "csrfmiddlewaretoken" not in back
    # Its preview shows these options, and says again what stops them printing.
    preview = editor_client.get(page.context["preview_url"])
    assert preview.status_code == 422
    assert preview.json()["problems"]


def test_it_says_so_when_nothing_is_published(editor_client):
    reading = refused(editor_client)

    assert reading.errornotes == ["Rien n’est imprimé : 1 problème à corriger."]
    assert reading.problems == [(flat("Tout le jeu : Rien à imprimer : aucun contenu publié."),
                                 None)]


# --- « Imprimer la sélection » --------------------------------------------------------------


def test_the_selection_action_prints_only_the_selected_questions(editor_client, millionnaire):
    chosen, left_out = first_ladder_questions(2), first_ladder_questions(3)[2]

    response = run_action(editor_client, Question, chosen)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "millionnaire-a4-poker-selection.pdf" in response["Content-Disposition"]
    text = pdf_text(response.content)
    assert all(flat(question.text) in text for question in chosen)
    assert flat(left_out.text) not in text


def test_the_selection_action_prints_only_the_selected_cards(editor_client, title_cards):
    chosen = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les volcans")
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les glaciers")

    response = run_action(editor_client, Card, [chosen])

    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Les volcans" in text
    assert "Les glaciers" not in text
    # One sheet: the one-sided fronts, then the blank verso a duplex printer expects.
    pdf = pdfium.PdfDocument(response.content)
    assert len(pdf) == 2 and not list(pdf[1].get_objects())


def test_the_selection_action_prints_an_editors_drafts(editor_client, title_cards):
    draft = make_card("coup-de-maitre", status=Status.DRAFT, title="Le brouillon")

    response = run_action(editor_client, Card, [draft])

    assert "Le brouillon" in pdf_text(response.content)


def test_the_selection_action_refuses_cards_of_two_games(editor_client, title_cards):
    cards = [make_card("coup-de-maitre", status=Status.PUBLISHED),
             make_card("qualifs", status=Status.PUBLISHED)]

    response = run_action(editor_client, Card, cards)

    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == [
        "La sélection mélange plusieurs jeux : choisissez les éléments d’un seul jeu."]


def test_the_selection_action_refuses_cards_with_errors_and_links_to_them(editor_client,
                                                                        title_cards):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
                     difficulties=[1, 2, 3])

    response = run_action(editor_client, Card, [card])

    assert response.status_code == 302
    [message] = [str(m) for m in response.wsgi_request._messages]
    assert message.startswith("Rien n’est imprimé")
    assert f'<a href="{reverse("admin:cms_card_change", args=[card.pk])}">' in message


def test_a_refusal_names_the_first_problems_and_counts_the_others(editor_client,
                                                                   title_cards):
    cards = [make_card("coup-de-maitre", status=Status.PUBLISHED, title=f"Trouée {n}",
                       difficulties=[1, 2, 3]) for n in range(23)]

    response = run_action(editor_client, Card, cards)

    [message] = [str(m) for m in response.wsgi_request._messages]
    assert message.startswith("Rien n’est imprimé\u00a0: 23 problèmes")
    assert message.count("<li>") == 20
    assert "… et 3 autres" in message


def test_the_selection_action_sends_questions_on_cards_to_their_card(editor_client,
                                                                     title_cards):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED)

    response = run_action(editor_client, Question, card.questions.all())

    assert response.status_code == 302
    [message] = [str(m) for m in response.wsgi_request._messages]
    assert "s’imprime avec sa carte" in message


def test_a_selection_is_printed_only_from_the_session_that_made_it(editor_client,
                                                                    millionnaire,
                                                                    django_user_model):
    chosen = first_ladder_questions(2)
    response = editor_client.post(changelist_url(Question), {
        "action": "print_selection", "_selected_action": [obj.pk for obj in chosen],
        "index": "0", "select_across": "0"})
    assert response.status_code == 302
    address = response["Location"]

    # Another editor, logged in elsewhere, cannot open it; a forged key opens nothing.
    other = Client()
    other.force_login(django_user_model.objects.create_superuser("autre", password="x"))
    assert other.get(address).status_code == 404
    assert editor_client.get(address.split("?")[0] + "?selection=forged").status_code == 404
    # Another game's print page does not print this game's selection.
    elsewhere = address.replace("/millionnaire/", "/douze-coups/")
    assert editor_client.get(elsewhere).status_code == 404
    # The editor's own page prints it.
    assert editor_client.get(address)["Content-Type"] == "application/pdf"


# --- who may print -------------------------------------------------------------------------


@pytest.mark.parametrize("url", [print_url(), preview_url()], ids=["page", "preview"])
def test_anonymous_visitors_are_sent_to_log_in(client, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_anonymous_visitors_cannot_prepare_a_pdf(client, db):
    response = client.post(queue_url(), QUESTIONS)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert not Job.objects.exists()


@pytest.mark.parametrize("url", [print_url(), preview_url()], ids=["page", "preview"])
def test_staff_without_a_role_may_not_print(client, db, url):
    client.force_login(User.objects.create_user("stagiaire", is_staff=True))

    assert client.get(url).status_code == 403


def test_staff_without_a_role_may_not_prepare_a_pdf(client, db):
    client.force_login(User.objects.create_user("stagiaire", is_staff=True))

    assert client.post(queue_url(), QUESTIONS).status_code == 403
    assert not Job.objects.exists()


def test_preparing_a_pdf_is_a_post_only(editor_client, millionnaire):
    assert editor_client.get(queue_url(), QUESTIONS).status_code == 405
    assert not Job.objects.exists()


def test_an_unknown_game_has_no_print_page(editor_client):
    assert editor_client.get(print_url("pictionary")).status_code == 404
    assert editor_client.post(queue_url("pictionary"), QUESTIONS).status_code == 404


def test_a_print_job_and_its_file_are_its_owners_and_the_superusers(editor_client,
                                                                    millionnaire, reviewer,
                                                                    django_user_model):
    job = job_of(prepare(editor_client))
    assert job.state == JobState.DONE
    page = reverse("admin:cms_job", args=[job.pk])
    file = reverse("admin:cms_job_file", args=[job.pk])

    # Another editor neither sees it listed nor opens it: as if it did not exist.
    reviewer_client = Client()
    reviewer_client.force_login(reviewer)
    assert reviewer_client.get(page).status_code == 404
    assert reviewer_client.get(file).status_code == 404
    listing = reviewer_client.get(reverse("admin:cms_jobs")).content.decode()
    assert page not in listing
    # A superuser opens everyone's.
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("chef", password="x"))
    assert admin.get(page).status_code == 200
    response = admin.get(file)
    assert response.status_code == 200
    assert response.getvalue().startswith(b"%PDF")


def test_the_preview_error_is_json_a_script_can_read(editor_client):
    response = editor_client.get(preview_url(), {**QUESTIONS, "bleed": "abc"})

    assert response.status_code == 400
    assert json.loads(response.content)["errors"] == ["Fond perdu (mm) : Saisissez un nombre."]
