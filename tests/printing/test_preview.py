"""The change form's live preview: the question or card as the print page prints it."""

from __future__ import annotations

import base64
import io
import json
from types import SimpleNamespace

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.html import escape
from PIL import Image, ImageChops
from pypdf import PdfReader

from cms.games import GAMES
from cms.models import Question, Status
from player.engines import douze_coups as engine
from printing.products import PRODUCTS, Deck
from tests.builders import make_card, make_duel_pair, make_question
from tests.printing.conftest import flat
from tests.printing.test_admin_print import run_action

DPI = 150  # the preview's resolution, which the comparison renders the print page at


def preview_url(obj=None, model_name=None):
    name = model_name or obj._meta.model_name
    if obj is None:
        return reverse("printing_preview:content", args=[name])
    return reverse("printing_preview:content", args=[name, obj.pk])


def question_form(question, **changes) -> dict:
    """The question's change form as a browser posts it, with `changes` typed in."""
    rows = list(question.propositions.all())
    data = {"kind": question.kind, "text": question.text, "difficulty": str(question.difficulty),
            "step": str(question.step or ""), "answer": question.answer,
            "variants": question.variants, "theme": question.theme,
            "propositions-TOTAL_FORMS": str(len(rows)), "propositions-INITIAL_FORMS": "0"}
    for index, row in enumerate(rows):
        prefix = f"propositions-{index}-"
        data[prefix + "text"] = row.text
        data[prefix + "position"] = str(index + 1)
        if row.is_right:
            data[prefix + "is_right"] = "on"
        if row.is_hidden:
            data[prefix + "is_hidden"] = "on"
    data.update(changes)
    return data


def card_form(card, **changes) -> dict:
    slots = card.ordered_slots()
    data = {"kind": card.kind, "title": card.title, "colour": card.colour,
            "slots-TOTAL_FORMS": str(len(slots)), "slots-INITIAL_FORMS": "0"}
    for index, slot in enumerate(slots):
        data[f"slots-{index}-question"] = str(slot.question_id)
        data[f"slots-{index}-position"] = str(index + 1)
    data.update(changes)
    return data


def faces_of(response) -> dict[str, Image.Image]:
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert "unavailable" not in body, body
    faces = {}
    for face in body["faces"]:
        head, data = face["src"].split(",", 1)
        assert head == "data:image/png;base64"
        faces[face["side"]] = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    return faces


def preview_pdf_text(client, obj, data) -> str:
    response = client.post(preview_url(obj) + "?format=pdf", data)
    assert response["Content-Type"] == "application/pdf"
    return flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(
        response.content)).pages))


def printed_faces(pdf: bytes) -> list[Image.Image]:
    """Cut each page's trim box out of the print page's PDF, at the preview's resolution,
    turned so that it stands as tall as the card is."""
    reader = PdfReader(io.BytesIO(pdf))
    document = pdfium.PdfDocument(pdf)
    faces = []
    for index, page in enumerate(reader.pages):
        trim = [float(v) for v in page.trimbox]
        page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
        if trim == [0, 0, page_w, page_h]:
            continue  # a blank verso: no face on it
        crop = (trim[0], trim[1], page_w - trim[2], page_h - trim[3])
        faces.append(document[index].render(scale=DPI / 72, crop=crop).to_pil().convert("RGB"))
    document.close()
    return faces


def upright_like(printed: Image.Image, shown: Image.Image) -> list[Image.Image]:
    """The printed face as it may stand: as it is, or turned a quarter either way."""
    if (printed.width > printed.height) == (shown.width > shown.height):
        return [printed]
    return [printed.transpose(Image.Transpose.ROTATE_90),
            printed.transpose(Image.Transpose.ROTATE_270)]


def difference(first: Image.Image, second: Image.Image) -> float:
    """The mean difference of two pictures of one size, 0 (same) to 255."""
    assert abs(first.width - second.width) <= 1 and abs(first.height - second.height) <= 1
    size = (min(first.width, second.width), min(first.height, second.height))
    diff = ImageChops.difference(first.crop((0, 0, *size)), second.crop((0, 0, *size)))
    histogram = diff.convert("L").histogram()
    return sum(value * count for value, count in enumerate(histogram)) / (size[0] * size[1])


def content_kinds() -> list[tuple[str, str]]:
    return [(game.slug, product.kind) for game in GAMES.values()
            for product in PRODUCTS.get(game.slug, {}).values()
            if isinstance(product, Deck) and product.kind]


@pytest.mark.parametrize(("game", "kind"), content_kinds())
def test_the_preview_shows_each_face_as_the_print_of_a_one_card_selection_prints_it(
        editor_client, game, kind):
    spec = GAMES[game].kind(kind)
    if spec.paired:
        obj = make_duel_pair()[0]
    else:
        obj = make_card(kind) if spec.is_card else make_question(kind)
    expected = printed_faces(run_action(editor_client, type(obj), [obj]).content)
    faces = faces_of(editor_client.post(preview_url(obj), (
        card_form(obj) if spec.is_card else question_form(obj))))
    shown = [faces["front"]] + ([faces["back"]] if "back" in faces else [])
    assert len(shown) == len(expected)
    for printed, face in zip(expected, shown, strict=True):
        assert min(difference(candidate, face)
                   for candidate in upright_like(printed, face)) < 0.01
    # Upright, as every card and fiche is taller than wide (a fiche is turned on its sheet).
    assert all(face.height > face.width for face in shown)
    if spec.is_card:
        # The page of one of its questions shows the same card.
        question = obj.ordered_slots()[-1].question
        from_question = faces_of(editor_client.post(preview_url(question),
                                                    question_form(question)))
        assert difference(from_question["front"], faces["front"]) < 0.01


# --- what the editor typed, unsaved --------------------------------------------------------


def test_a_question_typed_but_not_saved_prints_on_its_card_among_the_others(editor_client):
    card = make_card("coup-de-maitre")
    first, second = [slot.question for slot in card.ordered_slots()[:2]]
    typed = "Quel navigateur a doublé le cap Horn le premier en 1616 ?"
    text = preview_pdf_text(editor_client, second, question_form(second, text=typed))
    assert "doublé le cap Horn" in text
    assert flat(first.text) in text  # the card's other questions, as stored
    assert flat(second.text) not in text
    second.refresh_from_db()
    assert second.text != typed  # nothing was saved


def test_a_card_shows_its_rows_in_the_order_the_form_left_them(editor_client):
    card = make_card("coup-d-envoi", title="Titre enregistré")
    questions = [slot.question for slot in card.ordered_slots()]
    data = card_form(card, title="Titre tapé")
    data["slots-0-position"], data["slots-3-position"] = "4", "1"
    text = preview_pdf_text(editor_client, card, data)
    places = [text.index(flat(q.text)) for q in (questions[3], questions[1], questions[2],
                                                 questions[0])]
    assert places == sorted(places)


def test_a_new_question_is_shown_before_it_is_ever_saved(editor_client):
    data = {"kind": "echelle", "text": "Combien de pattes a une araignée ?", "difficulty": "1",
            "step": "3", "propositions-TOTAL_FORMS": "4"}
    for index, (text, right) in enumerate([("Six", False), ("Huit", True), ("Dix", False),
                                           ("Douze", False)]):
        data[f"propositions-{index}-text"] = text
        data[f"propositions-{index}-position"] = str(index + 1)
        if right:
            data[f"propositions-{index}-is_right"] = "on"
    response = editor_client.post(preview_url(model_name="question") + "?format=pdf", data)
    reader = PdfReader(io.BytesIO(response.content))
    front, back = (flat(page.extract_text()) for page in reader.pages[:2])
    assert "Combien de pattes a une araignée" in front
    assert "Question n° 3" in front
    assert "Huit" in back  # the right answer behind the question


def test_a_new_card_composed_on_its_page_prints_the_questions_written_and_picked(
        editor_client):
    # The card composer sends its slots as one JSON field: written questions, picked ones
    # (by their pk) and blank slots, in the order of the page.
    picked = make_question("coup-de-maitre", text="Quel peintre a signé « Guernica »\u202f?")
    composition = [
        {"text": "Quel est le plus haut sommet des Pyrénées ?", "difficulty": "1",
         "propositions": [{"text": "Aneto", "is_right": True, "is_hidden": False},
                          {"text": "Vignemale", "is_right": False, "is_hidden": False},
                          {"text": "Mont Perdu", "is_right": False, "is_hidden": True}]},
        {"question": picked.pk},
        {"text": "", "difficulty": "", "propositions": []},
        {"text": "En quelle année est né Victor Hugo ?", "difficulty": "4",
         "propositions": [{"text": "1802", "is_right": True, "is_hidden": False}]},
    ]
    data = {"kind": "coup-de-maitre", "title": "Tapé à l’instant",
            "plateau_composer": json.dumps(composition)}
    response = editor_client.post(preview_url(model_name="card") + "?format=pdf", data)
    front = flat(PdfReader(io.BytesIO(response.content)).pages[0].extract_text())
    places = [front.index(text) for text in (
        "plus haut sommet des Pyrénées", "signé « Guernica »", "est né Victor Hugo")]
    assert places == sorted(places)
    assert "Tapé à l’instant" in front and "Aneto" in front and "Mont Perdu" in front
    assert not Question.objects.exclude(pk=picked.pk).exists()  # nothing was saved


def test_a_composition_the_page_could_not_have_sent_says_why_it_is_not_shown(editor_client):
    data = {"kind": "coup-de-maitre", "title": "Carte", "plateau_composer": "{pas du JSON"}
    body = editor_client.post(preview_url(model_name="card"), data).json()
    assert "illisible" in body["unavailable"]


def test_a_question_on_no_card_is_shown_alone_on_a_card_of_its_kind(editor_client):
    data = {"kind": "coup-fatal", "text": "Capitale du Pérou ?", "answer": "Lima",
            "difficulty": "2"}
    body = editor_client.post(preview_url(model_name="question"), data).json()
    assert body["product"] == str(PRODUCTS["douze-coups"]["coups-fatals"].label)
    assert "seule" in body["note"]
    assert body["problems"] == []


def test_changing_the_kind_changes_the_product_shown(editor_client):
    question = make_question("coup-fatal")
    shown = {kind: editor_client.post(preview_url(question), question_form(
        question, kind=kind)).json()["product"] for kind in ("coup-fatal", "coup-d-envoi")}
    assert shown == {"coup-fatal": str(PRODUCTS["douze-coups"]["coups-fatals"].label),
                     "coup-d-envoi": str(PRODUCTS["douze-coups"]["coups-d-envoi"].label)}


def test_a_form_without_a_kind_says_to_choose_one(editor_client):
    body = editor_client.post(preview_url(model_name="card"), {"title": "Sans type"}).json()
    assert "Choisissez un type" in body["unavailable"]


# --- what does not print --------------------------------------------------------------------


def test_text_too_long_is_reported_as_the_print_refuses_it(editor_client):
    long_text = "Pourquoi " * 120 + "?"
    question = make_question("echelle", status=Status.PUBLISHED)
    body = editor_client.post(preview_url(question),
                              question_form(question, text=long_text)).json()
    assert len(body["faces"]) == 2  # shown all the same, the failing box outlined
    # The print page, given the same text saved, refuses with the same sentences.
    Question.objects.filter(pk=question.pk).update(text=long_text)
    refusal = run_action(editor_client, Question, [question])
    assert body["problems"]
    for message in body["problems"]:
        assert "Ne tient pas sur la carte" in message
        assert escape(message) in editor_client.get(refusal["Location"]).content.decode()


def test_the_box_that_does_not_fit_is_outlined_in_red(editor_client):
    question = make_question("echelle")
    fits = faces_of(editor_client.post(preview_url(question), question_form(question)))
    overflows = faces_of(editor_client.post(preview_url(question), question_form(
        question, text="Pourquoi " * 120)))

    def reds(face):
        """How many pixels are clearly red."""
        red, green, blue = face.split()
        strong = red.point(lambda v: 255 if v > 180 else 0)
        weak = ImageChops.multiply(green.point(lambda v: 255 if v < 90 else 0),
                                   blue.point(lambda v: 255 if v < 90 else 0))
        return ImageChops.multiply(strong, weak).histogram()[255]

    assert reds(overflows["front"]) > reds(fits["front"]) + 500


def test_hostile_text_prints_literally(editor_client):
    question = make_question("echelle")
    hostile = "Que font <b>&amp; et <para> ici ? <b>&"
    text = preview_pdf_text(editor_client, question, question_form(
        question, text=hostile, **{"propositions-0-text": "<i>A</i> & B"}))
    assert flat("Que font <b>&amp; et <para> ici ? <b>&") in text
    assert "<i>A</i> & B" in text


# --- who may see it -------------------------------------------------------------------------


def test_someone_who_may_only_read_sees_the_content_as_stored(reader_client):
    question = make_question("echelle", text="Texte enregistré ?")
    text = preview_pdf_text(reader_client, question, question_form(question,
                                                                    text="Texte imposé ?"))
    assert "Texte enregistré" in text
    assert "imposé" not in text


def test_the_preview_needs_a_login_and_the_right_to_view(client, db):
    question = make_question("echelle")
    response = client.post(preview_url(question), question_form(question))
    assert response.status_code == 302 and "/login/" in response["Location"]
    stranger = User.objects.create_user("passant", password="x", is_staff=True)
    client.force_login(stranger)
    assert client.post(preview_url(question), question_form(question)).status_code == 403


def test_an_unknown_model_or_object_is_not_found(editor_client):
    assert editor_client.post(preview_url(model_name="proposition")).status_code == 404
    gone = make_question("echelle")
    url = preview_url(gone)
    gone.delete()
    assert editor_client.post(url).status_code == 404


# --- the étoile's panels ----------------------------------------------------------------------


def test_the_overlay_panels_are_those_the_game_opens(editor_client, monkeypatch):
    card = make_card("etoile-mysterieuse")
    question = card.ordered_slots()[0].question
    body = editor_client.post(preview_url(question), question_form(question)).json()
    shown = sorted((round(p["x"], 6), round(p["y"], 6), round(p["w"], 6), round(p["h"], 6))
                   for p in body["panels"])
    # What the player uncovers once the game is over (every panel open).
    monkeypatch.setattr(engine, "_etoile", lambda state: SimpleNamespace(id=question.pk))
    rules = GAMES["douze-coups"].rules
    state = {"phase": engine.OVER, "final": {"large": 0, "small": 0},
             "rules": {"large_panels": rules.large_panels, "small_panels": rules.small_panels,
                       "large_panel_width": rules.large_panel_width}}
    played = sorted(tuple(round(v, 6) for v in panel)
                    for panel in engine._image_view(state)["panels"])
    assert shown == played
    assert len(shown) == 14
    numbers = sorted((p["size"], p["number"]) for p in body["panels"])
    assert numbers == sorted([("large", n) for n in range(1, 8)]
                             + [("small", n) for n in range(1, 8)])


def test_only_a_kind_with_a_picture_has_panels(editor_client):
    question = make_question("echelle")
    assert editor_client.post(preview_url(question), question_form(question)).json()[
        "panels"] == []
