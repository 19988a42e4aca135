"""The admin's promises, posted as a browser posts them: no silent overwrite, corrections
beside live content, restores of one object, recovery as a draft, import confirmations
that refuse what changed since the preview."""

import re

from django.urls import reverse
from reversion.models import Revision, Version

from cms import services, snapshots
from cms.models import Card, Correction, CorrectionState, Question, Status
from tests.admin_forms import change_url, changelist_url, form_data, save
from tests.builders import make_card, make_question
from tests.cms.test_import_admin import confirm, ladder_file, ladder_row, page_text, upload


def logged_in(user):
    """Return a browser of its own, logged in as this user."""
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return browser


def url(obj, name, *args) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_{name}", args=[obj.pk, *args])


def live(obj):
    return type(obj).objects.get(pk=obj.pk)


def everything_but(*objects) -> dict:
    """Every question, card and pending correction as it is now, but these objects'."""
    skip = {(type(obj).__name__, obj.pk) for obj in objects}
    states = {(model.__name__, obj.pk): snapshots.of_object(obj)
              for model in (Question, Card) for obj in model.objects.all()
              if (model.__name__, obj.pk) not in skip}
    states["corrections"] = sorted(
        (c.question_id or 0, c.card_id or 0, c.state, c.revision, str(c.data))
        for c in Correction.objects.all()
        if ("Question", c.question_id) not in skip and ("Card", c.card_id) not in skip)
    return states


def restore_page_post(client, obj, version, **changes):
    """Open a version from the history page and save its form, as an editor would."""
    history = client.get(url(obj, "history"))
    assert history.status_code == 200
    revision_url = url(obj, "revision", version.pk)
    assert f'href="{revision_url}"' in history.content.decode()
    data = form_data(client.get(revision_url), **changes)
    data["_save"] = "1"
    return client.post(revision_url, data)


def error_text(response) -> str:
    return page_text(response)


# --- two editors on one question ----------------------------------------------------------


def test_the_second_of_two_editors_is_refused_and_keeps_their_text(client, editor, reviewer):
    from django.test import Client

    question = make_question("echelle", text="Version d’origine\u202f?")
    first, second = Client(), Client()
    first.force_login(reviewer)
    second.force_login(editor)
    first_page = form_data(first.get(change_url(question)), text="Version du relecteur\u202f?",
                           _save="1")
    second_page = form_data(second.get(change_url(question)),
                            text="Version de la rédactrice\u202f?",
                            _save="1")

    assert first.post(change_url(question), first_page).status_code == 302
    refused = second.post(change_url(question), second_page)

    assert refused.status_code == 200
    text = page_text(refused)
    assert "a été modifié par relecteur pendant que vous l’éditiez" in text
    assert "« Version d’origine ? » → « Version du relecteur ? »" in text
    assert live(question).text == "Version du relecteur\u202f?"
    # Her text is still in the form; saving it again, having seen the change, goes through.
    again = form_data(refused)
    assert again["text"] == "Version de la rédactrice\u202f?"
    again["_save"] = "1"
    assert second.post(change_url(question), again).status_code == 302
    assert live(question).text == "Version de la rédactrice\u202f?"


def test_two_editors_correcting_published_content_do_not_overwrite_each_other(
        client, editor, reviewer):
    from django.test import Client

    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    first, second = Client(), Client()
    first.force_login(editor)
    second.force_login(reviewer)
    first_page = form_data(first.get(change_url(question)), text="Correction A\u202f?", _save="1")
    second_page = form_data(second.get(change_url(question)), text="Correction B\u202f?",
                            _save="1")

    assert first.post(change_url(question), first_page).status_code == 302
    refused = second.post(change_url(question), second_page)

    assert refused.status_code == 200
    assert "a été modifié par redactrice" in page_text(refused)
    assert live(question).text == "En jeu\u202f?"
    assert question.corrections.get().data["text"] == "Correction A\u202f?"


# --- published content stays live while it is corrected -----------------------------------


def test_an_editor_saving_published_content_leaves_a_correction_the_page_shows(
        editor_client, editor):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")

    response = save(editor_client, question, text="Corrigé\u202f?")

    assert response.status_code == 302
    assert (live(question).text, live(question).status) == ("En jeu\u202f?", Status.PUBLISHED)
    page = editor_client.get(change_url(question))
    text = page_text(page)
    assert "Correction en attente de relecture" in text
    assert "Proposée par redactrice" in text
    assert "« En jeu ? »" not in text or "En jeu ?" in text  # the diff shows both versions
    assert re.search(r"Question\s+En jeu \?\s+Corrigé \?", text)
    assert form_data(page)["text"] == "Corrigé\u202f?"
    listing = page_text(editor_client.get(changelist_url(Question)))
    assert "correction en attente" in listing


def test_a_reviewer_publishes_the_correction_from_its_page(editor_client, reviewer, editor):
    from django.test import Client

    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    save(editor_client, question, text="Corrigé\u202f?")
    reviewer_client = Client()
    reviewer_client.force_login(reviewer)

    page = reviewer_client.get(change_url(question))
    publish_url = url(question, "correction_publish")
    assert f'formaction="{publish_url}"' in page.content.decode()
    response = reviewer_client.post(publish_url, form_data(page), follow=True)

    assert response.status_code == 200
    assert live(question).text == "Corrigé\u202f?"
    assert question.corrections.get().state == CorrectionState.PUBLISHED
    latest = Version.objects.get_for_object(question).first()
    assert latest.revision.user == reviewer
    assert "redactrice" in latest.revision.get_comment()


def test_an_editor_cannot_publish_a_correction_by_its_address(editor_client):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    save(editor_client, question, text="Corrigé\u202f?")

    editor_client.post(url(question, "correction_publish"), {})

    assert live(question).text == "En jeu\u202f?"
    assert question.corrections.get().state == CorrectionState.PENDING


def test_a_reviewer_withdraws_content_with_a_reason(reviewer_client):
    question = make_question("echelle", status=Status.PUBLISHED)

    without = reviewer_client.post(url(question, "withdraw"), {"reason": ""})
    assert without.status_code == 200
    assert live(question).status == Status.PUBLISHED

    response = reviewer_client.post(url(question, "withdraw"),
                                    {"reason": "La réponse a changé en 2026."})

    assert response.status_code == 302
    assert live(question).status == Status.DRAFT
    history = page_text(reviewer_client.get(url(question, "history")))
    assert "Retiré du jeu : La réponse a changé en 2026." in history


def test_the_withdraw_action_asks_for_a_reason_then_withdraws(reviewer_client):
    questions = [make_question("echelle", status=Status.PUBLISHED, step=n) for n in (1, 2)]
    selection = {"action": "withdraw", "_selected_action": [q.pk for q in questions],
                 "index": "0"}

    page = reviewer_client.post(changelist_url(Question), selection)
    assert page.status_code == 200
    assert "Motif" in page_text(page)
    assert {live(q).status for q in questions} == {Status.PUBLISHED}

    reviewer_client.post(changelist_url(Question), {**selection, "reason": "Saison finie"})

    assert {live(q).status for q in questions} == {Status.DRAFT}


def test_an_editor_is_not_offered_withdrawal(editor_client):
    question = make_question("echelle", status=Status.PUBLISHED)

    assert editor_client.get(url(question, "withdraw")).status_code == 403
    actions = editor_client.get(changelist_url(Question)).context["action_form"]
    assert "withdraw" not in dict(actions.fields["action"].choices)


# --- history: differences, restore, recovery --------------------------------------------


def test_the_history_compares_two_versions_field_by_field_propositions_included(
        editor_client):
    question = make_question("echelle", text="Avant\u202f?")
    save(editor_client, question)
    data = form_data(editor_client.get(change_url(question)), text="Après\u202f?", _save="1")
    data["propositions-1-text"] = "Nouvelle B"
    editor_client.post(change_url(question), data)
    older, newer = Version.objects.get_for_object(question).order_by("pk")

    page = editor_client.get(url(question, "compare"), {"a": older.pk, "b": newer.pk})

    text = page_text(page)
    assert "Question Avant ? Après ?" in text  # page_text reads U+202F as a space
    assert "Proposition B Proposition 2 Nouvelle B" in text
    assert "Difficulté" not in text  # unchanged fields are not listed


def test_the_history_compares_a_cards_slots(editor_client):
    card = make_card("coup-de-maitre")
    save(editor_client, card)
    data = form_data(editor_client.get(change_url(card)), _save="1")
    data["slots-0-position"], data["slots-4-position"] = "5", "1"
    editor_client.post(change_url(card), data)
    older, newer = Version.objects.get_for_object(card).order_by("pk")

    text = page_text(editor_client.get(url(card, "compare"), {"a": older.pk, "b": newer.pk}))

    assert "Question n°1" in text and "Question n°5" in text
    assert "(difficulté 1)" in text and "(difficulté 5)" in text


def test_restoring_one_demo_question_after_others_changed_touches_nothing_else(
        demo_library, editor, reviewer):
    from django.test import Client

    ladder = list(Question.objects.filter(kind="echelle").order_by("step", "pk"))
    target, corrected, edited_a, edited_b = ladder[0], ladder[5], ladder[10], ladder[20]
    [demo_version] = Version.objects.get_for_object(target)
    assert demo_version.revision.version_set.count() > 100  # the demo load is one revision
    editor_web, reviewer_web = Client(), Client()
    editor_web.force_login(editor)
    reviewer_web.force_login(reviewer)
    assert save(editor_web, target, text="Une question réécrite\u202f?").status_code == 302
    assert save(reviewer_web, corrected, anecdote="Correction publiée.").status_code == 302
    assert live(corrected).anecdote == "Correction publiée."
    for question in (edited_a, edited_b):
        assert save(editor_web, question, theme="Thème corrigé").status_code == 302
    others = everything_but(target)

    response = restore_page_post(editor_web, target, demo_version)

    assert response.status_code == 302
    assert everything_but(target) == others
    assert live(target).status == Status.PUBLISHED  # a Rédacteur's restore is a correction
    assert target.corrections.get(state=CorrectionState.PENDING).data["text"] == target.text


def test_restoring_a_demo_coup_fatal_card_leaves_the_duel_pairs_alone(demo_library, reviewer):
    from django.test import Client

    card = Card.objects.filter(kind="coup-fatal").order_by("pk").first()
    [demo_version] = Version.objects.get_for_object(card)
    web = Client()
    web.force_login(reviewer)
    assert save(web, card, title="Titre provisoire").status_code == 302
    others = everything_but(card)
    duels = {c.pk: c.pair_id for c in Card.objects.filter(kind="duel")}

    response = restore_page_post(web, card, demo_version)

    assert response.status_code == 302
    assert everything_but(card) == others
    assert {c.pk: c.pair_id for c in Card.objects.filter(kind="duel")} == duels
    assert live(card).title == card.title
    assert live(card).status == Status.PUBLISHED


def test_restoring_after_a_bulk_publish_restores_only_the_one_question(
        reviewer_client, reviewer):
    questions = [make_question("echelle", step=n, difficulty=2, text=f"Palier {n}\u202f?")
                 for n in (1, 2, 3)]
    reviewer_client.post(changelist_url(Question), {
        "action": "publish", "_selected_action": [q.pk for q in questions], "index": "0"})
    assert {live(q).status for q in questions} == {Status.PUBLISHED}
    bulk = Revision.objects.order_by("-pk").first()
    assert bulk.version_set.count() >= 3
    for question in questions:
        save(reviewer_client, question, text=f"{question.text} (revu)")
    others = everything_but(questions[0])
    version = bulk.version_set.get(object_id=str(questions[0].pk),
                                   content_type__model="question")

    assert restore_page_post(reviewer_client, questions[0], version).status_code == 302

    assert everything_but(questions[0]) == others
    assert live(questions[0]).text == "Palier 1\u202f?"


def test_an_editors_restore_never_publishes_what_a_reviewer_withdrew(editor_client, reviewer):
    question = make_question("echelle", text="Publiée\u202f?")
    services.set_status(obj=question, status=Status.PUBLISHED, user=reviewer)
    published = Version.objects.get_for_object(question).first()
    services.withdraw(obj=live(question), user=reviewer, reason="Réponse fausse")

    response = restore_page_post(editor_client, question, published)

    assert response.status_code == 302
    assert live(question).status == Status.DRAFT
    # The restore page offers nothing to publish with.
    page = editor_client.get(url(question, "revision", published.pk)).content.decode()
    assert 'name="_publish"' not in page


def test_a_deleted_published_question_comes_back_as_a_draft(reviewer, editor):
    reviewer_client, editor_client = logged_in(reviewer), logged_in(editor)
    question = make_question("echelle", status=Status.PUBLISHED, text="Effacée\u202f?")
    save(reviewer_client, question, text="Effacée par erreur\u202f?")
    pk = question.pk
    assert reviewer_client.post(url(question, "delete"), {"post": "yes"}).status_code == 302
    [version] = Version.objects.get_deleted(Question)
    recover_url = reverse("admin:cms_question_recover", args=[version.pk])
    assert recover_url in editor_client.get(
        reverse("admin:cms_question_recoverlist")).content.decode()

    data = form_data(editor_client.get(recover_url))
    data["_save"] = "1"
    response = editor_client.post(recover_url, data)

    assert response.status_code == 302
    recovered = Question.objects.get(pk=pk)
    assert (recovered.text, recovered.status) == ("Effacée par erreur\u202f?", Status.DRAFT)
    assert recovered.propositions.count() == 4


# --- the import confirmation refuses what changed since the preview ----------------------


def test_the_import_confirmation_refuses_rows_changed_since_the_preview(reviewer, editor):
    reviewer_client, editor_client = logged_in(reviewer), logged_in(editor)
    rows = [ladder_row(f"q-{n}", step=1, difficulty=1) for n in range(1, 6)]
    confirm(reviewer_client, upload(reviewer_client, ladder_file(*rows)))
    assert Question.objects.count() == 5
    changed = [ladder_row(f"q-{n}", step=1, difficulty=1, text=f"Reformulée {n}\u202f?")
               for n in range(1, 6)]
    preview = upload(reviewer_client, ladder_file(*changed))
    assert "0 nouvelle(s) ligne(s), 5 modifiée(s)" in page_text(preview)
    # Meanwhile an editor edits two of them.
    for ref in ("q-2", "q-4"):
        save(editor_client, Question.objects.get(ref=ref), theme="Géographie")

    response = confirm(reviewer_client, preview)

    text = page_text(response)
    assert "« q-2 » a été modifié par redactrice depuis l’aperçu" in text
    assert "« q-4 » a été modifié par redactrice depuis l’aperçu" in text
    assert "q-1" not in re.findall(r"« (q-\d) » a été modifié", text)
    assert not Question.objects.filter(text__startswith="Reformulée").exists()
    assert set(Question.objects.filter(ref__in=["q-2", "q-4"]).values_list(
        "theme", flat=True)) == {"Géographie"}


def test_an_editors_import_of_published_rows_leaves_corrections_not_live_changes(
        editor_client):
    question = make_question("echelle", status=Status.PUBLISHED, ref="en-jeu", step=1,
                             difficulty=1, text="En jeu\u202f?")
    rows = [ladder_row("en-jeu", step=1, difficulty=1, status="publie", text="Corrigée\u202f?")]

    response = confirm(editor_client, upload(editor_client, ladder_file(*rows)))

    assert response.status_code == 200
    assert (live(question).text, live(question).status) == ("En jeu\u202f?", Status.PUBLISHED)
    correction = question.corrections.get()
    assert (correction.state, correction.data["text"]) == (CorrectionState.PENDING,
                                                           "Corrigée\u202f?")
    assert [p["text"] for p in correction.data["propositions"]] == [
        r for r in rows[0][5:9]]


def test_an_editor_removes_a_proposition_from_a_correction_by_emptying_its_row(editor_client):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    save(editor_client, question, text="Corrigée\u202f?")

    page = editor_client.get(change_url(question))
    data = form_data(page, _save="1")
    assert [data[f"propositions-{n}-text"] for n in range(4)] == [
        "Proposition 1", "Proposition 2", "Proposition 3", "Proposition 4"]
    data["propositions-2-text"] = ""
    data["propositions-1-text"] = "Proposition B revue"
    assert editor_client.post(change_url(question), data).status_code == 302

    correction = question.corrections.get()
    assert [p["text"] for p in correction.data["propositions"]] == [
        "Proposition 1", "Proposition B revue", "Proposition 4"]
    assert live(question).propositions.count() == 4
    assert "proposition_count" in {p.code for p in services.correction_problems(live(question))}


def test_the_lists_filter_content_with_a_pending_correction(editor_client):
    waiting = make_question("echelle", status=Status.PUBLISHED, text="Attend\u202f?")
    make_question("echelle", status=Status.PUBLISHED, text="Tranquille\u202f?")
    save(editor_client, waiting, text="Attend une relecture\u202f?")

    listing = editor_client.get(changelist_url(Question), {"correction": "pending"})

    assert [q.pk for q in listing.context["cl"].result_list] == [waiting.pk]


def test_a_restore_that_would_take_another_cards_question_is_refused_on_the_page(
        editor_client):
    card = make_card("coup-de-maitre")
    save(editor_client, card, title="Première version")
    [kept] = Version.objects.get_for_object(card)
    moved = card.ordered_slots()[0].question
    other = make_card("coup-de-maitre", questions=[], title="L’autre carte")
    card.slots.filter(question=moved).delete()
    other.slots.create(question=moved, position=1)
    before = everything_but()

    response = restore_page_post(editor_client, card, kept)

    assert response.status_code == 200
    assert "est déjà sur la carte « Coup de maître · L’autre carte »" in page_text(response)
    assert everything_but() == before


def test_a_row_ticked_remove_leaves_the_question(editor_client):
    question = make_question("echelle", text="Quatre propositions\u202f?")
    data = form_data(editor_client.get(change_url(question)), _save="1")
    data["propositions-3-remove"] = "on"

    assert editor_client.post(change_url(question), data).status_code == 302

    assert [p.text for p in live(question).propositions.all()] == [
        "Proposition 1", "Proposition 2", "Proposition 3"]


def test_a_page_left_open_while_another_editor_removed_a_row_is_refused_then_saves(
        editor, reviewer):
    question = make_question("echelle", text="Avant\u202f?")
    hers, his = logged_in(editor), logged_in(reviewer)
    her_page = form_data(hers.get(change_url(question)), text="Sa version\u202f?", _save="1")
    his_page = form_data(his.get(change_url(question)), _save="1")
    his_page["propositions-3-remove"] = "on"
    assert his.post(change_url(question), his_page).status_code == 302

    refused = hers.post(change_url(question), her_page)

    assert refused.status_code == 200
    assert "Proposition D" in page_text(refused)  # what changed meanwhile is named
    again = form_data(refused)
    assert again["text"] == "Sa version\u202f?"
    again["_save"] = "1"
    assert hers.post(change_url(question), again).status_code == 302
    assert live(question).text == "Sa version\u202f?"


def test_a_page_opened_before_a_correction_appeared_keeps_its_rows_when_refused(
        editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    hers, his = logged_in(editor), logged_in(reviewer)
    her_page = form_data(hers.get(change_url(question)), _save="1")
    his_page = form_data(his.get(change_url(question)), text="Sa correction\u202f?", _save="1")
    her_page["propositions-0-text"] = "Proposition A revue"
    assert hers.post(change_url(question), her_page).status_code == 302  # a correction

    refused = his.post(change_url(question), his_page)

    assert refused.status_code == 200
    again = form_data(refused)
    assert [again[f"propositions-{n}-text"] for n in range(4)] == [
        "Proposition 1", "Proposition 2", "Proposition 3", "Proposition 4"]
    again["_as_correction"] = "1"
    assert his.post(change_url(question), again).status_code == 302
    assert question.corrections.get().data["text"] == "Sa correction\u202f?"


def test_publishing_a_correction_changed_since_the_page_was_read_is_refused(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    hers, his = logged_in(editor), logged_in(reviewer)
    save(hers, question, text="Première correction\u202f?")
    his_page = form_data(his.get(change_url(question)))
    save(hers, question, text="Correction jamais relue\u202f?")

    response = his.post(url(question, "correction_publish"), his_page, follow=True)

    assert live(question).text == "En jeu\u202f?"
    text = page_text(response)
    assert "La correction n’est pas publiée" in text
    assert "« Première correction ? » → « Correction jamais relue ? »" in text


def test_discarding_a_correction_changed_since_the_page_was_read_is_refused(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    hers, his = logged_in(editor), logged_in(reviewer)
    save(hers, question, text="Première correction\u202f?")
    discard = url(question, "correction_discard")
    token = re.search(r'name="token" value="([^"]*)"', his.get(discard).content.decode())
    save(hers, question, text="Seconde correction\u202f?")

    his.post(discard, {"reason": "Non", "token": token.group(1)})

    assert question.corrections.get().state == CorrectionState.PENDING


def test_a_save_without_the_pages_version_is_refused(editor_client):
    question = make_question("echelle", text="Avant\u202f?")

    response = save(editor_client, question, text="Après\u202f?", plateau_token="")

    assert response.status_code == 200
    assert live(question).text == "Avant\u202f?"


def test_an_editors_file_cannot_replace_someone_elses_pending_correction(editor, reviewer):
    question = make_question("echelle", status=Status.PUBLISHED, ref="en-jeu", step=1,
                             difficulty=1, text="En jeu\u202f?")
    services.content_save(obj=question, data={**snapshots.of_object(question),
                                              "anecdote": "Note du relecteur."},
                          user=reviewer, as_correction=True)
    hers = logged_in(editor)
    rows = [ladder_row("en-jeu", step=1, difficulty=1, status="publie", text="Autre\u202f?")]

    response = upload(hers, ladder_file(*rows))

    assert "a une correction en attente, proposée par relecteur" in page_text(response)
    correction = question.corrections.get()
    assert (correction.data["anecdote"], correction.created_by) == ("Note du relecteur.",
                                                                    reviewer)


def test_an_editors_file_cannot_take_published_content_out_of_the_game(editor_client):
    question = make_question("echelle", status=Status.PUBLISHED, ref="en-jeu", step=1,
                             difficulty=1)
    rows = [ladder_row("en-jeu", step=1, difficulty=1, status="relecture")]

    response = upload(editor_client, ladder_file(*rows))

    assert "un fichier ne le retire pas du jeu" in page_text(response)
    assert not question.corrections.exists()
    assert live(question).status == Status.PUBLISHED


def test_a_bulk_delete_with_one_refusal_deletes_and_logs_nothing(reviewer_client):
    from django.contrib.admin.models import DELETION, LogEntry

    card = make_card("coup-fatal", status=Status.PUBLISHED)
    printed = card.ordered_slots()[0].question
    loose = make_question("echelle")
    selection = {"action": "delete_selected", "_selected_action": [printed.pk, loose.pk],
                 "index": "0"}
    assert reviewer_client.post(changelist_url(Question), selection).status_code == 200

    response = reviewer_client.post(changelist_url(Question), {**selection, "post": "yes"},
                                    follow=True)

    text = page_text(response)
    assert "Rien n’a été supprimé" in text
    assert "réussi" not in text
    assert Question.objects.filter(pk__in=[printed.pk, loose.pk]).count() == 2
    assert not LogEntry.objects.filter(action_flag=DELETION).exists()


def test_recovered_content_that_was_published_stays_out_of_an_editors_reach(editor, reviewer):
    question = make_question("echelle", created_by=editor, status=Status.PUBLISHED)
    pk = question.pk
    services.content_delete(obj=question, user=reviewer)
    [version] = Version.objects.get_deleted(Question)
    services.content_recover(version=version, user=editor)

    logged_in(editor).post(reverse("admin:cms_question_delete", args=[pk]), {"post": "yes"})

    assert Question.objects.filter(pk=pk).exists()


def test_history_comments_are_kept_in_the_sites_language(reviewer):
    from django.utils import translation

    question = make_question("echelle", status=Status.PUBLISHED)
    with translation.override("en"):
        services.withdraw(obj=question, user=reviewer, reason="Erreur")

    latest = Version.objects.get_for_object(question).first()
    assert latest.revision.get_comment() == "Retiré du jeu\xa0: Erreur"


def test_rows_come_back_in_the_order_the_editor_left_them_when_the_form_has_an_error(
        editor_client):
    question = make_question("echelle", text="Dans quel ordre\u202f?")
    data = form_data(editor_client.get(change_url(question)), text="", _save="1")
    # ▲ on D, twice: the page now reads A, D, B, C and the script numbered it so.
    for row, position in ((0, 1), (3, 2), (1, 3), (2, 4)):
        data[f"propositions-{row}-position"] = str(position)

    refused = editor_client.post(change_url(question), data)

    assert refused.status_code == 200
    page = refused.content.decode()
    order = [page.index(f'value="Proposition {n}"') for n in (1, 4, 2, 3)]
    assert order == sorted(order)
