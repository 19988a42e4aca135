"""The admin's « Imprimer » page, its preview and the « Imprimer la sélection » action."""

from __future__ import annotations

import io
import json

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms.models import Card, Question, Status
from printing.products import PRODUCTS, Deck
from printing.sheets import PAPERS
from tests.builders import make_card
from tests.printing.conftest import flat, page_text

# The exact checks print millionnaire's ladder question cards: one product, known content.
QUESTIONS = {"products": "questions", "paper": "a4", "card": "poker", "backs": "long",
             "bleed": "0", "offset_x": "0", "offset_y": "0", "crop_marks": "on"}


def print_url(slug="millionnaire"):
    return reverse("printing:print", args=[slug])


def preview_url(slug="millionnaire"):
    return reverse("printing:preview", args=[slug])


def download(client, slug="millionnaire", **changes):
    return client.get(print_url(slug), {**QUESTIONS, **changes, "telecharger": "1"})


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


# --- download and preview ------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_it_downloads_a_pdf_on_the_paper_chosen(editor_client, millionnaire, paper):
    response = download(editor_client, paper=paper)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="millionnaire-{paper}-poker.pdf"')
    assert response.content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.content))
    box = reader.pages[0].mediabox
    size = sorted((float(box.width), float(box.height)))
    assert size == pytest.approx(sorted(v * mm for v in PAPERS[paper]), abs=0.5)


def test_it_downloads_only_published_questions_by_default(editor_client, millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(download(editor_client).content)

    assert flat(draft.text) not in text


def test_it_downloads_drafts_when_an_editor_asks(editor_client, millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(download(editor_client, include_drafts="on").content)

    assert flat(draft.text) in text


def test_a_reader_cannot_print_drafts_by_adding_them_to_the_address(reader_client,
                                                                   millionnaire):
    draft = first_ladder_questions(1)[0]
    Question.objects.filter(pk=draft.pk).update(status=Status.DRAFT)

    text = pdf_text(download(reader_client, include_drafts="on").content)

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


def test_impossible_options_show_the_french_error(editor_client, millionnaire):
    response = download(editor_client, bleed="5")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "Le fond perdu va de 0 à 3 mm." in response.content.decode()
    assert response.context["preview_url"] is None


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

    response = download(editor_client, "douze-coups", products="titres")

    assert response.status_code == 422
    assert response["Content-Type"].startswith("text/html")
    rows = response.context["problems"]
    assert rows
    assert {row["url"] for row in rows} == {reverse("admin:cms_card_change", args=[card.pk])}
    assert f'<a href="{rows[0]["url"]}">{card}</a>' in response.content.decode()


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


def test_the_preview_refuses_with_the_problems_the_download_refuses_with(editor_client,
                                                                         title_cards):
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
              difficulties=[1, 2, 3])

    preview = preview_of_titles(editor_client).json()["problems"]
    refusal = download(editor_client, "douze-coups", products="titres").context["problems"]

    assert preview == refusal


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


def test_a_refused_download_marks_its_reasons_for_the_preview_to_keep(editor_client,
                                                                      title_cards):
    make_card("coup-de-maitre", status=Status.PUBLISHED, title="Carte trouée",
              difficulties=[1, 2, 3])

    page = download(editor_client, "douze-coups", products="titres").content.decode()

    assert "data-download-refused" in page


def test_a_page_without_a_download_has_no_refusal_to_keep(editor_client, millionnaire):
    assert "data-download-refused" not in editor_client.get(print_url()).content.decode()


def test_it_says_so_when_nothing_is_published(editor_client):
    response = download(editor_client)

    assert response.status_code == 422
    assert "Rien à imprimer" in response.content.decode()


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


@pytest.mark.parametrize("url", [print_url(), preview_url()], ids=["page", "preview"])
def test_staff_without_a_role_may_not_print(client, db, url):
    client.force_login(User.objects.create_user("stagiaire", is_staff=True))

    assert client.get(url).status_code == 403


def test_an_unknown_game_has_no_print_page(editor_client):
    assert editor_client.get(print_url("pictionary")).status_code == 404


def test_the_preview_error_is_json_a_script_can_read(editor_client):
    response = editor_client.get(preview_url(), {**QUESTIONS, "bleed": "abc"})

    assert response.status_code == 400
    assert json.loads(response.content)["errors"] == ["Fond perdu (mm) : Saisissez un nombre."]
