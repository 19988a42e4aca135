"""An editor builds a coup de maître card in the admin, a reviewer publishes it."""

import re

import pytest
from playwright.sync_api import expect

from cms.models import Card, Question, Status
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.builders import make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

TEXTS = {
    1: "Quelle couleur obtient-on en mélangeant du bleu et du jaune ?",
    2: "Quel fleuve traverse Lyon avant d’y recevoir la Saône ?",
    3: "En quelle année a eu lieu la bataille de Marignan ?",
    4: "Quel élément chimique a pour symbole W ?",
}
# Typed with French typography, as the site stores it (U+202F before « ? »).
NEW_TEXT = "Quel mathématicien a démontré le dernier théorème de Fermat en 1994\u202f?"


def pick_question(page, row, text):
    """Choose an existing question in this slot of the card's composer."""
    row.locator(".plateau-slot-pick").click()
    row.locator(".plateau-picker-search").fill(text[:20])
    row.locator(".plateau-picker-result", has_text=text[:20]).first.click()
    expect(row).to_contain_text(text)


def slot_rows(page):
    return page.locator("#plateau-slots > li.plateau-slot")


def test_an_editor_fixes_a_card_whose_difficulty_goes_down_and_a_reviewer_publishes_it(
    page, live_server, editor, reviewer
):
    for difficulty, text in TEXTS.items():
        make_question("coup-de-maitre", difficulty=difficulty, text=text)

    # The editor writes the hardest question through the admin form.
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/add/?kind=coup-de-maitre")
    page.fill("#id_text", NEW_TEXT)
    page.fill("#id_difficulty", "5")
    page.fill("#id_theme", "Sciences")
    rows = page.locator("#propositions-group tbody tr.form-row:not(.empty-form)")
    expect(rows).to_have_count(3)
    for i, (text, right, hidden) in enumerate([("Andrew Wiles", True, False),
                                               ("Henri Poincaré", False, False),
                                               ("Alexandre Grothendieck", False, True)]):
        rows.nth(i).locator("input[name$='-text']").fill(text)
        if right:
            rows.nth(i).locator("input[name$='-is_right']").check()
        if hidden:
            rows.nth(i).locator("input[name$='-is_hidden']").check()
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("ajouté")
    assert Question.objects.get(text=NEW_TEXT).propositions.count() == 3

    # Then builds the card with questions 3 and 4 the wrong way round.
    page.goto(f"{live_server.url}/admin/")
    page.locator("#content-main").get_by_role("link", name="Cartes et fiches").first.click()
    page.get_by_role("link", name=re.compile("Ajouter carte", re.I)).click()
    page.select_option("#id_kind", "coup-de-maitre")
    page.fill("#id_title", "Culture scientifique")
    # The page says how a coup de maître is composed and offers its five rows.
    expect(page.locator(".plateau-kind-hint")).to_contain_text("strictement croissante")
    expect(slot_rows(page)).to_have_count(5)
    order = [TEXTS[1], TEXTS[2], TEXTS[4], TEXTS[3], NEW_TEXT]
    for i, text in enumerate(order):
        pick_question(page, slot_rows(page).nth(i), text)
    page.click("input[name=_save]")

    # The error is on the page, and the draft is kept.
    check = page.locator(".plateau-check")
    expect(check).to_contain_text("la question n°4")
    expect(page.locator(".messagelist .error")).to_contain_text("erreur")
    card = Card.objects.get(title="Culture scientifique")
    assert card.status == Status.DRAFT
    assert [s.question.difficulty for s in card.ordered_slots()] == [1, 2, 4, 3, 5]
    page.screenshot(path=str(screenshot_path("card-with-error")), full_page=True)

    # The composer points at question 4; moving it up fixes the order, before any save.
    expect(slot_rows(page).nth(3)).to_have_class(re.compile("plateau-slot-error"))
    slot_rows(page).nth(3).get_by_role("button", name="Monter").click()
    expect(slot_rows(page).nth(2)).to_contain_text("Marignan")
    expect(page.locator("#plateau-slots .plateau-slot-error")).to_have_count(0)
    page.click("input[name=_submit_review]")
    expect(page.locator(".messagelist")).not_to_contain_text("erreur")
    card.refresh_from_db()
    assert card.status == Status.REVIEW
    assert [s.question.difficulty for s in card.ordered_slots()] == [1, 2, 3, 4, 5]
    assert page.locator("input[name=_publish]").count() == 0

    # The reviewer publishes it.
    page.locator("#logout-form button").click()
    expect(page.locator("#content")).to_contain_text("Déconnecté")
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/admin/cms/card/{card.pk}/change/")
    expect(page.locator(".plateau-check")).to_contain_text("Aucun problème")
    page.click("input[name=_publish]")
    expect(page.locator(".messagelist")).to_contain_text("modifié")
    card.refresh_from_db()
    assert card.status == Status.PUBLISHED
    assert {q.status for q in card.questions.all()} == {Status.PUBLISHED}
    page.screenshot(path=str(screenshot_path("card-published")), full_page=True)

