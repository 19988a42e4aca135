"""A new editor composes whole cards on the card's own page, counted in actions and page loads.

Actions are what the editor does: each click, each field filled, each key pressed. Page loads
count the admin's home, where the editor starts, and every page the browser loads after it.

The budgets: a question of a card costs what cannot be spared on any screen — its text, each
proposition's text, and one key to say which is right (the hidden one and the difficulty
come preset from the kind's rules, and a CASH answer from the right proposition). A card
then costs four more: open its form, choose its kind, write its title, save. So a coup de
maître (5 questions of 3 propositions) is 5 × 5 + 4 = 29 actions, and a Compet' card (14
questions of 4) 14 × 6 + 4 = 88, against some 72 and 230 with one form per question; and
three page loads (home, the card's form, the list it returns to), against 8.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from cms.games import GAMES
from cms.models import Card, Question, Status
from cms.rules import validate_game
from tests.browser.conftest import LIVE_DATABASE, as_stored, log_in, screenshot_path
from tests.builders import make_card, make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

COUP_DE_MAITRE = [
    ("Quelle couleur obtient-on en mélangeant du bleu et du jaune ?",
     ["Vert", "Orange", "Violet"], 1),
    ("Quel fleuve traverse Lyon avant d’y recevoir la Saône ?",
     ["La Loire", "Le Rhône", "La Garonne"], 2),
    ("En quelle année a eu lieu la bataille de Marignan ?", ["1415", "1492", "1515"], 3),
    ("Quel élément chimique a pour symbole W ?", ["Tungstène", "Wolfram", "Vanadium"], 1),
    ("Quel mathématicien a démontré le dernier théorème de Fermat en 1994 ?",
     ["Henri Poincaré", "Andrew Wiles", "Alexandre Grothendieck"], 2),
]
BUDGET = {"coup-de-maitre": (30, 3), "compet": (90, 3)}


class Editor:
    """Drives the page as an editor would, counting what it costs."""

    def __init__(self, page):
        self.page = page
        self.actions = 0
        self.loads = 1  # the admin's home, where the editor starts
        page.on("load", self._loaded)

    def _loaded(self, _page):
        self.loads += 1

    def click(self, locator):
        locator.click()
        self.actions += 1

    def fill(self, locator, text):
        locator.fill(text)
        self.actions += 1

    def press(self, keys):
        self.page.keyboard.press(keys)
        self.actions += 1

    def choose(self, locator, value):
        locator.select_option(value)
        self.actions += 1


def slots(page):
    return page.locator("#plateau-slots > li.plateau-slot")


def open_new_card(editor, game, kind):
    page = editor.page
    section = page.locator(f"#content-main .app-cms-{game}")
    editor.click(section.locator("tr.model-card a.addlink"))
    expect(page.locator("#plateau-slots")).to_be_visible()
    editor.choose(page.locator("#id_kind"), kind)
    expect(slots(page)).to_have_count(GAMES[game].kind(kind).questions_per_card)


def write_question(editor, slot, text, propositions, right):
    editor.fill(slot.locator("textarea[data-field=text]"), text)
    for index, proposition in enumerate(propositions):
        editor.fill(slot.locator(f"input[data-field=p{index}]"), proposition)
    editor.press(f"Alt+{right}")  # focus is in the slot: its proposition n° right is right


def report(name, editor):
    print(f"\n{name}: {editor.actions} actions, {editor.loads} page loads")
    path = screenshot_path("composer-counts").with_suffix(".json")
    counts = json.loads(path.read_text()) if path.exists() else {}
    counts[name] = {"actions": editor.actions, "page_loads": editor.loads}
    path.write_text(json.dumps(counts, indent=2))


def card_errors(card):
    return [p.message for p in validate_game(card.game.slug).about(card) if p.is_error]


def compose(page, game, kind, title, questions) -> Editor:
    """Compose a card from the admin's home, as a new editor would; return the count."""
    me = Editor(page)
    open_new_card(me, game, kind)
    me.fill(page.locator("#id_title"), title)
    for index, (text, propositions, right) in enumerate(questions):
        write_question(me, slots(page).nth(index), text, propositions, right)
    # The server has checked the card as composed, and found nothing wrong.
    expect(page.locator("#plateau-slots[data-checked='1']")).to_have_count(1)
    expect(page.locator("#plateau-composer-problems li")).to_have_count(0)
    return me


def save_and_read(me, title, questions) -> tuple[Card, list[Question]]:
    """Save the card; return it and its questions, checked against what was written."""
    page = me.page
    me.click(page.locator("input[name=_save]").first)
    expect(page.locator(".messagelist")).to_contain_text("ajouté")
    page.wait_for_load_state("load")  # the list's load, counted before the count is read
    card = Card.objects.get(title=title)
    saved = [slot.question for slot in card.ordered_slots()]
    assert [q.text for q in saved] == [as_stored(text) for text, _p, _r in questions]
    for question, (_text, propositions, right) in zip(saved, questions, strict=True):
        rows = list(question.propositions.all())
        assert [p.text for p in rows] == propositions
        assert [p.is_right for p in rows] == [n == right for n in range(1, len(rows) + 1)]
        assert question.kind == card.kind and question.theme == title
    assert card_errors(card) == []
    return card, saved


def test_a_new_editor_composes_a_coup_de_maitre_card_on_one_page_within_budget(
    page, live_server, editor
):
    log_in(page, live_server, editor.username)
    me = compose(page, "douze-coups", "coup-de-maitre", "Culture générale", COUP_DE_MAITRE)

    # Each slot shows, live, its preset difficulty, its right answer and its hidden one.
    first = slots(page).nth(0).locator(".plateau-slot-summary")
    expect(first).to_contain_text("Difficulté\u00a0: 1")
    expect(first).to_contain_text("Bonne réponse\u00a0: Vert")
    expect(first).to_contain_text("Cachée\u00a0: Violet")
    expect(slots(page).nth(4).locator(".plateau-slot-summary")).to_contain_text(
        "Difficulté\u00a0: 5")
    page.screenshot(path=str(screenshot_path("composer-coup-de-maitre")), full_page=True)
    card, questions = save_and_read(me, "Culture générale", COUP_DE_MAITRE)

    assert re.search(r"/admin/cms/card/\?game=douze-coups$", page.url)
    assert card.kind == "coup-de-maitre" and card.status == Status.DRAFT
    assert [q.difficulty for q in questions] == [1, 2, 3, 4, 5]
    assert [[p.is_hidden for p in q.propositions.all()] for q in questions] == [
        [False, False, True]] * 5
    report("coup de maître", me)
    assert me.actions <= BUDGET["coup-de-maitre"][0] and me.loads <= BUDGET["coup-de-maitre"][1]


def test_a_new_editor_composes_a_compet_card_on_one_page_within_budget(
    page, live_server, editor
):
    written = [(f"Question {n} : quel fleuve passe par la ville n°{n} ?",
                [f"Fleuve {n}{letter}" for letter in "ABCD"], (n - 1) % 4 + 1)
               for n in range(1, 15)]
    log_in(page, live_server, editor.username)
    me = compose(page, "prendre-sa-place", "compet", "Les fleuves", written)
    # The CASH answer is the right proposition, written once.
    expect(slots(page).nth(6).locator("input[data-field=answer]")).to_have_value("Fleuve 7C")
    expect(slots(page).nth(0).locator(".plateau-format")).to_have_text("DUO")
    page.screenshot(path=str(screenshot_path("composer-compet")), full_page=True)
    _card, questions = save_and_read(me, "Les fleuves", written)

    assert [q.answer for q in questions] == [p[r - 1] for _t, p, r in written]
    # DUO easier than CARRÉ, easier than CASH, as the kind orders them.
    assert [q.difficulty for q in questions[:9]] == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    report("Compet'", me)
    assert me.actions <= BUDGET["compet"][0] and me.loads <= BUDGET["compet"][1]


def test_a_difficulty_going_down_is_highlighted_on_its_slot_before_saving(
    page, live_server, editor
):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/card/add/?game=douze-coups&kind=coup-de-maitre")
    page.fill("#id_title", "Dans le désordre")
    for index, (text, propositions, right) in enumerate(COUP_DE_MAITRE):
        slot = slots(page).nth(index)
        slot.locator("textarea[data-field=text]").fill(text)
        for n, proposition in enumerate(propositions):
            slot.locator(f"input[data-field=p{n}]").fill(proposition)
        slot.locator(f"input[data-field=r{right - 1}]").check()
    slots(page).nth(3).locator("input[data-field=difficulty]").fill("2")

    # Question 4 (difficulty 2) is not harder than question 3: said on its slot, unsaved.
    offending = slots(page).nth(3)
    expect(offending).to_have_class(re.compile("plateau-slot-error"))
    expect(offending.locator(".plateau-slot-problems")).to_contain_text("n°4")
    expect(slots(page).nth(2)).not_to_have_class(re.compile("plateau-slot-error"))
    assert not Card.objects.filter(title="Dans le désordre").exists()
    page.screenshot(path=str(screenshot_path("composer-order-error")), full_page=True)

    # Alt+↑ takes it up to n°3, where it is still no harder than n°2: the highlight follows.
    offending.locator("input[data-field=difficulty]").focus()
    page.keyboard.press("Alt+ArrowUp")
    moved = slots(page).nth(2)
    expect(moved.locator("textarea[data-field=text]")).to_have_value(COUP_DE_MAITRE[3][0])
    expect(moved.locator("input[data-field=difficulty]")).to_be_focused()
    expect(moved).to_have_class(re.compile("plateau-slot-error"))
    page.keyboard.press("Alt+ArrowDown")
    expect(slots(page).nth(3)).to_have_class(re.compile("plateau-slot-error"))

    # Its difficulty set right, no slot is highlighted, and the card saves in order.
    slots(page).nth(3).locator("input[data-field=difficulty]").fill("4")
    expect(page.locator("#plateau-slots[data-checked='1']")).to_have_count(1)
    expect(page.locator("#plateau-slots .plateau-slot-error")).to_have_count(0)
    page.click("input[name=_continue]")
    expect(page.locator(".messagelist")).to_contain_text("ajouté")
    card = Card.objects.get(title="Dans le désordre")
    assert [s.question.difficulty for s in card.ordered_slots()] == [1, 2, 3, 4, 5]
    assert [s.question.text for s in card.ordered_slots()] == [
        as_stored(text) for text, _p, _r in COUP_DE_MAITRE]


def test_the_picker_offers_only_free_questions_of_the_cards_kind(page, live_server, editor):
    free = make_question("coup-de-maitre", difficulty=2, text="Quel est le plus long fleuve "
                         "de France ?")
    make_question("coup-d-envoi", text="Quel est le plus long fleuve d’Europe ?")
    taken = make_card("coup-de-maitre")
    placed = taken.ordered_slots()[0].question
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/card/add/?game=douze-coups&kind=coup-de-maitre")
    slot = slots(page).nth(0)
    slot.locator(".plateau-slot-pick").click()
    results = slot.locator(".plateau-picker-result")
    expect(results.first).to_be_visible()
    texts = results.all_inner_texts()
    assert any(free.text in text for text in texts)
    assert not any("Europe" in text for text in texts)
    assert not any(placed.text in text for text in texts)
    slot.locator(".plateau-picker-search").fill("plus long fleuve")
    expect(results).to_have_count(1)
    results.first.click()
    expect(slots(page).nth(0).locator(".plateau-slot-summary")).to_contain_text(
        "Difficulté\u00a0: 2")
    expect(slots(page).nth(0)).to_contain_text(free.text)


def test_the_question_form_takes_the_shape_of_each_kind(page, live_server, editor):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/add/?game=douze-coups")
    rows = page.locator("#propositions-group tbody tr.form-row:not(.empty-form):visible")

    page.select_option("#id_kind", "coup-d-envoi")
    expect(rows).to_have_count(2)
    expect(page.locator(".form-row.field-step")).to_be_hidden()
    expect(page.locator(".form-row.field-image")).to_be_hidden()
    expect(page.locator(".form-row.field-answer")).to_be_hidden()
    # The propositions come right under the question's text; the second one is hidden.
    assert page.locator(".form-row.field-text + #propositions-group").count() == 1
    expect(rows.nth(1).locator("input[name$='-is_hidden']")).to_be_checked()
    page.screenshot(path=str(screenshot_path("question-form-coup-d-envoi")), full_page=True)

    page.select_option("#id_kind", "coup-par-coup")
    expect(rows).to_have_count(7)
    expect(page.locator("th.column-is_hidden")).to_be_hidden()
    # Six VRAI, one FAUX: unticking one ticks the others back.
    for n in range(7):
        expect(rows.nth(n).locator("input[name$='-is_right']")).to_be_checked()
    rows.nth(2).locator("input[name$='-is_right']").uncheck()
    rows.nth(4).locator("input[name$='-is_right']").uncheck()
    expect(rows.nth(2).locator("input[name$='-is_right']")).to_be_checked()
    page.screenshot(path=str(screenshot_path("question-form-coup-par-coup")), full_page=True)

    page.select_option("#id_kind", "etoile-mysterieuse")
    expect(rows).to_have_count(0)
    expect(page.locator("#propositions-group")).to_be_hidden()
    expect(page.locator(".form-row.field-image")).to_be_visible()
    expect(page.locator(".form-row.field-answer")).to_be_visible()
    page.screenshot(path=str(screenshot_path("question-form-etoile")), full_page=True)

    page.goto(f"{live_server.url}/admin/cms/question/add/?game=millionnaire")
    expect(rows).to_have_count(4)
    # Exactly the kind's rows: no link to add a fifth.
    expect(page.get_by_text("Ajouter un objet Proposition supplémentaire")).to_be_hidden()
    expect(page.locator(".form-row.field-step")).to_be_visible()
    expect(page.locator("#plateau-shortcuts")).to_contain_text("Ctrl")
    page.fill("#id_text", "Quelle est la capitale de l’Australie ?")
    page.fill("#id_difficulty", "2")
    page.fill("#id_step", "3")
    for n, text in enumerate(["Sydney", "Canberra", "Melbourne", "Perth"]):
        rows.nth(n).locator("input[name$='-text']").fill(text)
    rows.nth(0).locator("input[name$='-text']").focus()
    page.keyboard.press("Alt+1")
    page.keyboard.press("Alt+2")  # one right answer: the tick moves
    expect(rows.nth(0).locator("input[name$='-is_right']")).not_to_be_checked()
    expect(rows.nth(1).locator("input[name$='-is_right']")).to_be_checked()
    page.screenshot(path=str(screenshot_path("question-form-echelle")), full_page=True)
    page.keyboard.press("Control+Enter")  # save and add another: the same kind again

    expect(page.locator(".messagelist")).to_contain_text("ajouté")
    assert "kind=echelle" in page.url and "game=millionnaire" in page.url
    expect(page.locator("#id_kind")).to_have_value("echelle")
    expect(rows).to_have_count(4)
    question = Question.objects.get(text=as_stored("Quelle est la capitale de l’Australie ?"))
    assert [p.is_right for p in question.propositions.all()] == [False, True, False, False]
    assert question.step == 3

    # Ctrl+S saves and stays on the page.
    page.fill("#id_text", "Quelle est la capitale du Canada ?")
    page.fill("#id_difficulty", "1")
    page.keyboard.press("Control+s")
    expect(page.locator(".messagelist")).to_contain_text("ajouté")
    assert Question.objects.filter(text=as_stored("Quelle est la capitale du Canada ?")).exists()
    assert re.search(r"/question/\d+/change/", page.url)


def test_leaving_a_page_with_unsaved_changes_asks_first(page, live_server, editor):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/add/?kind=duel")
    page.fill("#id_text", "Une question pas encore enregistrée ?")
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.goto(f"{live_server.url}/admin/")
    assert asked == ["beforeunload"]


def test_going_back_to_a_saved_page_shows_what_is_stored_not_what_was_typed(
        page, live_server, editor):
    question = make_question("duel", text="Quel est le plus long fleuve de France\u202f?")
    log_in(page, live_server, editor.username)
    url = f"{live_server.url}/admin/cms/question/{question.pk}/change/"
    page.goto(url)
    page.fill("#id_text", "Texte de ce premier onglet\u202f?")
    page.keyboard.press("Control+s")
    expect(page.locator(".messagelist")).to_contain_text("modifié")
    other = page.context.new_page()
    other.goto(url)
    other.fill("#id_text", "Texte d’un autre onglet\u202f?")
    other.keyboard.press("Control+s")
    expect(other.locator(".messagelist")).to_contain_text("modifié")

    page.go_back()

    # The browser would put back what was typed there, which the server reads as seen.
    expect(page.locator("#id_text")).to_have_value("Texte d’un autre onglet\u202f?")


def test_a_slot_dragged_onto_another_takes_its_place(page, live_server, editor):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/card/add/?game=douze-coups&kind=coup-de-maitre")
    for index, (text, _propositions, _right) in enumerate(COUP_DE_MAITRE[:3]):
        slots(page).nth(index).locator("textarea[data-field=text]").fill(text)

    # As a person would, she drags once the page has settled: the check of what she typed
    # has come back (its messages move the slots down).
    expect(page.locator("#plateau-slots[data-checked='1']")).to_have_count(1)
    # Both slots in view, as on a screen where she can see where she drops it.
    slots(page).nth(0).evaluate("slot => slot.scrollIntoView()")
    slots(page).nth(2).locator(".plateau-handle").drag_to(slots(page).nth(0))

    texts = [slots(page).nth(n).locator("textarea[data-field=text]").input_value()
             for n in range(3)]
    assert texts == [COUP_DE_MAITRE[2][0], COUP_DE_MAITRE[0][0], COUP_DE_MAITRE[1][0]]
    # The difficulties the editor did not set follow the slots: still 1, 2, 3 down the card.
    expect(slots(page).nth(0).locator("input[data-field=difficulty]")).to_have_value("1")
