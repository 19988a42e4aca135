"""An editor sees the question as it will print while typing it, and the étoile's panels."""

import base64
import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from cms.models import Question
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.browser.test_csp import ViolationLog
from tests.builders import make_card, make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

TYPED = "Quel peintre a signé « Les Nymphéas » à Giverny ?"


def shown_front(page) -> bytes:
    """The PNG of the front face the preview shows now."""
    src = page.locator(".plateau-printed-faces img").first.get_attribute("src")
    return base64.b64decode(src.split(",", 1)[1])


def test_the_preview_follows_what_the_editor_types_and_says_what_does_not_fit(
        page, live_server, editor):
    question = make_question("echelle", text="Quelle est la capitale de l’Australie ?")
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/{question.pk}/change/")
    preview = page.locator("#plateau-printed")
    expect(preview.locator(".plateau-printed-faces img")).to_have_count(2)
    expect(preview.locator(".plateau-printed-status")).to_contain_text("Tout le texte tient")
    before = shown_front(page)

    page.fill("#id_text", TYPED)
    expect(preview.locator(".plateau-printed-faces img").first).not_to_have_attribute(
        "src", "data:image/png;base64," + base64.b64encode(before).decode())
    expect(preview.locator(".plateau-printed-status")).to_contain_text("Tout le texte tient")
    # What the picture shows is the text typed, unsaved: the same request's PDF says so.
    response = page.request.post(
        f"{live_server.url}/admin/apercu/question/{question.pk}/?format=pdf",
        multipart={"kind": "echelle", "text": TYPED, "difficulty": "2", "step": "1",
                   "csrfmiddlewaretoken": page.locator(
                       "input[name=csrfmiddlewaretoken]").first.input_value()},
        headers={"Referer": page.url})
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    assert "Nymphéas" in text
    assert Question.objects.get(pk=question.pk).text != TYPED  # nothing was saved
    page.screenshot(path=screenshot_path("preview-typed"), full_page=False)

    page.fill("#id_text", "Pourquoi " * 200)
    problems = preview.locator(".plateau-printed-problems")
    expect(problems).to_be_visible()
    expect(problems).to_contain_text("Ne tient pas sur la carte")
    page.screenshot(path=screenshot_path("preview-too-long"), full_page=False)


def test_the_etoile_image_shows_its_fourteen_panels_and_a_crop_can_be_drawn(
        page, live_server, editor):
    card = make_card("etoile-mysterieuse", title="Étoile de test")
    question = card.ordered_slots()[0].question
    log_in(page, live_server, editor.username)
    violations = ViolationLog(page)
    page.goto(f"{live_server.url}/admin/cms/question/{question.pk}/change/")
    etoile = page.locator(".plateau-etoile")
    expect(etoile).to_be_visible()
    expect(etoile.locator(".plateau-panel")).to_have_count(14)
    etoile.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path("preview-etoile-panels"), full_page=False)

    # The panels can be hidden, to see the whole image.
    etoile.locator(".plateau-panels-toggle").uncheck()
    expect(etoile.locator(".plateau-etoile-panels")).to_be_hidden()

    # A square drawn on the image fills the crop's numbers; the button crops the image.
    frame = etoile.locator(".plateau-etoile-frame")
    box = frame.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.5, steps=5)
    page.mouse.up()
    width = int(etoile.locator("input[name=crop_w]").input_value())
    height = int(etoile.locator("input[name=crop_h]").input_value())
    assert width == height > 100
    page.screenshot(path=screenshot_path("preview-etoile-crop"), full_page=False)
    violations.collect()
    assert violations.seen == []  # the faces' data: pictures, the crop box's placing
    etoile.locator(".plateau-crop-submit").click()
    expect(page.locator(".messagelist")).to_contain_text("Image recadrée")
    question.refresh_from_db()
    assert (question.image.width, question.image.height) == (width, height)


def test_a_new_question_is_previewed_on_a_card_of_its_kind_and_follows_the_kind(
        page, live_server, editor):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/add/?kind=coup-de-maitre")
    preview = page.locator("#plateau-printed")
    expect(preview.locator(".plateau-printed-product")).to_have_text(
        "Cartes « Coup de maître »")
    expect(preview.locator(".plateau-printed-note")).to_contain_text("seule")
    page.fill("#id_text", "Quel est le plus long fleuve de France ?")
    rows = page.locator("#propositions-group tbody tr.form-row:not(.empty-form)")
    rows.nth(0).locator("input[name$='-text']").fill("La Loire")
    rows.nth(0).locator("input[name$='-is_right']").check()
    rows.nth(1).locator("input[name$='-text']").fill("La Seine")
    expect(preview).not_to_have_class(re.compile("plateau-printed-busy"))
    expect(preview.locator(".plateau-printed-status")).to_contain_text("Tout le texte tient")
    page.screenshot(path=screenshot_path("preview-new-question"), full_page=False)

    page.select_option("#id_kind", "coup-fatal")
    expect(preview.locator(".plateau-printed-product")).to_have_text("Cartes « Coup fatal »")
    assert not Question.objects.exists()  # nothing saved by the preview


def test_a_card_page_shows_its_card_and_can_show_it_larger(page, live_server, editor):
    card = make_card("compet", title="Les océans")
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/card/{card.pk}/change/")
    preview = page.locator("#plateau-printed")
    expect(preview.locator(".plateau-printed-faces img")).to_have_count(2)
    page.fill("#id_title", "Les mers du globe")
    expect(preview).not_to_have_class(re.compile("plateau-printed-busy"))
    preview.get_by_role("button", name="Agrandir").click()
    expect(preview.get_by_role("button", name="Réduire")).to_have_attribute(
        "aria-pressed", "true")
    assert preview.bounding_box()["width"] > 600
    page.screenshot(path=screenshot_path("preview-card-large"), full_page=False)


def test_the_preview_leaves_the_form_its_width_beside_the_comments(page, live_server, editor):
    # 1400 px: the menu, the form, the comments' column; the preview of an étoile is tall.
    card = make_card("etoile-mysterieuse", title="Étoile de test")
    question = card.ordered_slots()[0].question
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/{question.pk}/change/")
    expect(page.locator(".plateau-etoile .plateau-panel")).to_have_count(14)
    page.screenshot(path=screenshot_path("preview-beside-comments"), full_page=True)

    row = page.locator(".form-row.field-text").bounding_box()
    preview = page.locator("#plateau-printed").bounding_box()
    assert row["width"] > 500
    beside = preview["x"] < row["x"] + row["width"] and row["x"] < preview["x"] + preview["width"]
    above = preview["y"] + preview["height"] <= row["y"] or row["y"] + row["height"] <= preview["y"]
    assert above or not beside


def boxes_overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_a_long_question_s_name_is_not_hidden_under_the_page_s_tools(
        page, live_server, reviewer):
    question = make_question("coup-fatal", text="Quel est le nom " + "très " * 30 + "long ?")
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/admin/cms/question/{question.pk}/change/")

    name = page.locator("#content > h2").bounding_box()
    tools = page.locator(".object-tools").bounding_box()
    assert not boxes_overlap(name, tools)
