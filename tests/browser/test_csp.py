"""The Content-Security-Policy blocks nothing the admin, the print page or the player need."""

import pytest
from playwright.sync_api import expect

from cms.games.douze_coups import RULES
from cms.models import Card
from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in
from tests.browser.test_play_douze_coups import TV, play_envoi, start, the_game

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

# Each refusal is kept on the page's window before any of the page's own scripts run.
RECORD_VIOLATIONS = """
window.plateauViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.plateauViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} `
    + `at ${event.sourceFile}:${event.lineNumber} (${event.sample})`);
});
"""


class ViolationLog:
    """Every CSP refusal a page reports, by its event or on the console."""

    def __init__(self, page):
        self.seen = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)
        self.page = page

    def _console(self, message):
        if "Content Security Policy" in message.text:
            self.seen.append(f"{self.page.url}: {message.text}")

    def collect(self):
        """Add what the page now shown recorded; call it before leaving each page."""
        self.seen += [f"{self.page.url}: {violation}"
                      for violation in self.page.evaluate("window.plateauViolations || []")]
        self.page.evaluate("window.plateauViolations = []")


def test_the_admin_and_the_print_page_run_under_the_policy(page, live_server, editor,
                                                            tmp_path):
    load_demo(tmp_path, "douze-coups")
    violations = ViolationLog(page)
    log_in(page, live_server, editor.username)
    violations.collect()
    card = Card.objects.first()

    for url in ["/admin/", "/admin/cms/question/", "/admin/cms/question/add/?kind=coup-de-maitre",
                "/admin/cms/question/import/", "/admin/cms/question/export/",
                "/admin/cms/card/", f"/admin/cms/card/{card.pk}/change/",
                "/admin/jeux/douze-coups/"]:
        response = page.goto(f"{live_server.url}{url}")
        assert response.ok, url
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        violations.collect()

    page.locator("#content-main").get_by_role("link", name="Imprimer").click()
    page.wait_for_function(
        "() => { const i = document.getElementById('plateau-print-preview');"
        " return i.complete && i.naturalWidth > 0; }", timeout=60_000)
    page.get_by_label("Tarot (70 × 120 mm)").check()
    page.wait_for_function(
        "() => document.getElementById('plateau-print-preview').src.includes('card=tarot')",
        timeout=60_000)
    violations.collect()

    assert violations.seen == [], "\n".join(violations.seen)


def test_a_game_of_douze_coups_runs_under_the_policy(browser, live_server, tmp_path):
    context, page = start(browser, live_server, tmp_path, TV, ["Léa", "Hugo"])
    violations = ViolationLog(page)
    page.reload()  # from now on every script of the page runs after the recorder
    expect(page.locator(".dc-round")).to_contain_text("Le coup d’envoi")

    play_envoi(page, right=False, pressed="visible")
    play_envoi(page, right=True, pressed="hidden")
    play_envoi(page, right=False, pressed="visible")
    expect(page.locator("#dc-title")).to_contain_text("choisissez l’une des deux cartes")
    # The duel's colour comes from the stylesheet now, no longer from a style attribute.
    colour = RULES.duel_colours[the_game().state["decks"]["duel"][0]["colour"]]
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    expect(page.locator(".dc-duel-title")).to_have_css("border-left-color", f"rgb{rgb}")
    card_colour = page.locator(".dc-card").last.evaluate(
        "card => getComputedStyle(card).getPropertyValue('--duel')")
    assert card_colour == colour
    violations.collect()
    context.close()

    assert violations.seen == [], "\n".join(violations.seen)


def test_the_import_preview_marks_a_change_under_the_policy(page, live_server, editor, tmp_path):
    from cms.formats import CSVFormat
    from cms.models import Question
    from cms.resources import QuestionResource

    load_demo(tmp_path, "douze-coups")
    question = Question.objects.order_by("pk").first()
    dataset = QuestionResource().export(queryset=Question.objects.filter(pk=question.pk))
    text_column = dataset.headers.index("texte")
    row = list(dataset[0])
    row[text_column] = row[text_column].replace(row[text_column][:12], "Autrement dit", 1)
    dataset[0] = tuple(row)
    sheet = tmp_path / "change.csv"
    sheet.write_bytes(CSVFormat().export_data(dataset))
    violations = ViolationLog(page)
    log_in(page, live_server, editor.username)

    page.goto(f"{live_server.url}/admin/cms/question/import/")
    page.locator("#id_import_file").set_input_files(str(sheet))
    page.locator("#id_format").select_option(label="csv")
    page.locator("input[type=submit]").first.click()
    page.wait_for_load_state("networkidle")
    violations.collect()

    added = page.locator("ins").first
    expect(added).to_contain_text("Autrement dit")
    assert added.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(230, 255, 230)"
    assert violations.seen == [], "\n".join(violations.seen)
