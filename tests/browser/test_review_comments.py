"""A Relecteur asks for corrections with a reason, in a real browser; the author finds the
reason on her home page and on the question, fixes it and sends it back to review."""

import pytest
from playwright.sync_api import expect

from cms import services
from cms.models import Question, Status
from tests.browser.conftest import LIVE_DATABASE, as_stored, log_in, screenshot_path
from tests.builders import make_card, make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

TEXT = "Quel fleuve traverse Lyon ?"
FIXED = "Quels fleuves traversent Lyon ?"
REASON = "Deux fleuves traversent Lyon : le Rhône et la Saône. Reformulez."


def test_a_reviewer_asks_for_corrections_and_the_author_sees_and_fixes_them(
        browser, live_server, editor, reviewer):
    question = make_question("echelle", step=2, difficulty=1, text=TEXT, status=Status.REVIEW,
                             created_by=editor, updated_by=editor)
    make_card("coup-de-maitre", status=Status.REVIEW, title="Les grands fleuves",
              created_by=editor, updated_by=editor)
    services.comment_add(obj=question, user=editor, text="Source : Wikipédia, à vérifier.")
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}, locale="fr-FR")
                for _ in range(2)]
    him, her = (context.new_page() for context in contexts)
    for page, user in ((him, reviewer), (her, editor)):
        page.set_default_timeout(10_000)
        log_in(page, live_server, user.username)

    # The reviewer's home page: what awaits review, oldest first, with its game.
    queue = him.locator("#plateau-review-queue")
    expect(queue).to_contain_text("À relire")
    expect(queue).to_contain_text(TEXT)
    expect(queue.locator("tbody tr").filter(has_text=TEXT)).to_contain_text("1")
    him.screenshot(path=str(screenshot_path("review-home-queue")), full_page=True)

    # He opens the question and sends it back with a reason.
    queue.get_by_role("link", name=TEXT).click()
    expect(him.locator("#plateau-comments")).to_contain_text("Source : Wikipédia")
    him.fill("#plateau-request-changes textarea", REASON)
    him.click("#plateau-request-changes input[type=submit]")
    expect(him.locator(".messagelist")).to_contain_text("renvoyé à son auteur")
    expect(him.locator("#plateau-sent-back")).to_contain_text(REASON)
    assert Question.objects.get(pk=question.pk).status == Status.DRAFT

    # She finds it on her home page, first among her drafts, with the reason.
    her.goto(f"{live_server.url}/admin/")
    drafts = her.locator("#plateau-my-drafts")
    expect(drafts).to_contain_text("1 renvoyé avec des corrections à faire")
    expect(drafts.locator("tbody tr").first).to_contain_text(REASON)
    her.screenshot(path=str(screenshot_path("review-home-drafts")), full_page=True)

    # On the question, the reason is at the top and in the comments; she fixes and resends.
    drafts.get_by_role("link", name=TEXT).click()
    expect(her.locator("#plateau-sent-back")).to_contain_text(REASON)
    expect(her.locator("#plateau-request-changes")).to_have_count(0)  # not hers to ask
    her.screenshot(path=str(screenshot_path("review-change-page-comments")), full_page=True)
    her.fill("#id_text", FIXED)
    her.click("input[name=_submit_review]")
    expect(her.locator(".messagelist")).to_contain_text("modifié avec succès")
    question.refresh_from_db()
    assert (question.text, question.status) == (as_stored(FIXED), Status.REVIEW)
    her.goto(f"{live_server.url}/admin/cms/question/{question.pk}/change/")
    her.fill("#plateau-comment-form textarea", "Corrigé : les deux fleuves sont cités.")
    her.click("#plateau-comment-form input[type=submit]")
    expect(her.locator("#plateau-comments")).to_contain_text("les deux fleuves sont cités")
    her.locator("#plateau-comments li.plateau-comment-changes button.plateau-resolve").click()
    expect(her.locator("#plateau-sent-back")).to_have_count(0)

    # Back in his queue, fixed, the request resolved.
    him.goto(f"{live_server.url}/admin/")
    expect(him.locator("#plateau-review-queue")).to_contain_text(FIXED)
    assert not question.comments.filter(resolved_at__isnull=True,
                                        kind="changes").exists()
    for context in contexts:
        context.close()


def test_a_reviewer_reads_a_cards_correction_and_returns_it_to_its_author(
        page, live_server, editor, reviewer):
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, title="Les fleuves")
    replacement = make_question("coup-de-maitre", difficulty=1, text="Quel fleuve arrose Tours ?")
    data = services.shown_state(card)
    data.pop("status")
    data["slots"] = [replacement.pk, *data["slots"][1:]]
    services.content_save(obj=card, data=data, user=editor)
    first = card.ordered_slots()[0].question

    log_in(page, live_server, reviewer.username)
    page.locator("#plateau-review-queue").get_by_role("link", name="Les fleuves").click()
    banner = page.locator("#plateau-correction")
    expect(banner.locator(".plateau-diff")).to_contain_text("Question n°1")
    expect(banner.locator(".plateau-diff")).to_contain_text(str(first))
    expect(banner.locator(".plateau-diff")).to_contain_text("Quel fleuve arrose Tours ?")
    expect(banner.locator("input[name=_publish_correction]")).to_be_visible()
    expect(banner.get_by_role("link", name="Abandonner la correction")).to_be_visible()
    banner.get_by_role("link", name="Renvoyer à l’auteur, avec un motif").click()
    page.fill("#plateau-request-changes textarea", "La question 1 doit rester la plus facile.")
    page.screenshot(path=str(screenshot_path("review-card-correction")), full_page=True)
    page.click("#plateau-request-changes input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text("renvoyé à son auteur")
    # Returned, not discarded: the correction still waits, out of the queue.
    assert card.corrections.get().state == "pending"
    page.goto(f"{live_server.url}/admin/")
    expect(page.locator("#plateau-review-queue")).not_to_contain_text("Les fleuves")
