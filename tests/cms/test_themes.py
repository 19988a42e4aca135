"""Themes are one list per game: spelt once, offered on the question form, renamed and merged
with every question that holds them, and their history."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from reversion.models import Version

from cms import services, snapshots
from cms.models import Question, Status, Theme
from tests.admin_forms import form_data
from tests.builders import make_question
from tests.cms.test_import_admin import confirm, csv_file, page_text, upload


@pytest.fixture(autouse=True)
def _held_uploads_in_tmp(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def with_theme(user, theme, kind="echelle", **fields) -> Question:
    question = make_question(kind, **fields)
    services.content_save(obj=question, data={**snapshots.of_object(question), "theme": theme},
                          user=user)
    return Question.objects.get(pk=question.pk)


def themes() -> set[tuple[str, str]]:
    return set(Theme.objects.values_list("game", "name"))


def test_a_new_theme_is_created_with_the_question_that_names_it(editor):
    with_theme(editor, "Géographie")

    assert themes() == {("millionnaire", "Géographie")}


def test_a_theme_typed_without_accents_or_capitals_is_the_one_the_game_has(editor):
    with_theme(editor, "Géographie")

    question = with_theme(editor, "  GEOGRAPHIE ")

    assert question.theme == "Géographie"
    assert themes() == {("millionnaire", "Géographie")}


def test_each_game_has_its_own_themes(editor):
    with_theme(editor, "Histoire")
    with_theme(editor, "histoire", kind="coup-de-maitre")

    assert themes() == {("millionnaire", "Histoire"), ("douze-coups", "histoire")}


def test_an_import_creates_an_unknown_theme_and_matches_a_known_one(editor_client, editor):
    with_theme(editor, "Géographie")
    headers = ["ref", "genre", "texte", "difficulte", "palier", "theme", "proposition_1",
               "proposition_2", "proposition_3", "proposition_4", "bonnes"]
    rows = [["t-1", "echelle", "Où est Brest ?", 1, 1, "geographie", "A", "B", "C", "D", "1"],
            ["t-2", "echelle", "Qui est Hugo ?", 1, 1, "Littérature", "A", "B", "C", "D", "1"],
            ["t-3", "echelle", "Qui est Zola ?", 1, 1, "LITTERATURE", "A", "B", "C", "D", "1"]]

    confirm(editor_client, upload(editor_client, csv_file(headers, rows)))

    stored = dict(Question.objects.filter(ref__startswith="t-").values_list("ref", "theme"))
    assert stored == {"t-1": "Géographie", "t-2": "Littérature", "t-3": "Littérature"}
    assert themes() == {("millionnaire", "Géographie"), ("millionnaire", "Littérature")}


def test_a_file_whose_theme_differs_only_by_accents_changes_nothing(editor_client, editor):
    question = with_theme(editor, "Géographie")
    headers = ["ref", "genre", "texte", "difficulte", "palier", "theme", "statut"]
    row = [question.ref, "echelle", question.text, question.difficulty, question.step,
           "geographie", "brouillon"]

    preview = upload(editor_client, csv_file(headers, [row]))

    assert "0 modifiée(s), 1 inchangée(s)" in page_text(preview)


def test_the_question_form_offers_the_game_s_themes_and_only_those(editor_client, editor):
    with_theme(editor, "Géographie")
    with_theme(editor, "Cinéma", kind="coup-de-maitre")

    page = editor_client.get(reverse("admin:cms_question_add"), {"game": "millionnaire"})

    html = page.content.decode()
    assert 'list="plateau-themes-millionnaire"' in html
    millionnaire = html.split('<datalist id="plateau-themes-millionnaire">')[1]
    assert '<option value="Géographie">' in millionnaire.split("</datalist>")[0]
    assert "Cinéma" not in millionnaire.split("</datalist>")[0]


def test_the_question_form_takes_a_new_theme(editor_client, editor):
    question = make_question("echelle")
    url = reverse("admin:cms_question_change", args=[question.pk])
    data = form_data(editor_client.get(url), theme="Sciences et nature", _save="1")

    editor_client.post(url, data)

    assert Question.objects.get(pk=question.pk).theme == "Sciences et nature"
    assert ("millionnaire", "Sciences et nature") in themes()


def test_the_theme_list_counts_each_theme_s_questions(reviewer_client, editor):
    for _n in range(3):
        with_theme(editor, "Géographie")
    with_theme(editor, "Cinéma")
    with_theme(editor, "Géographie", kind="coup-de-maitre")  # another game's

    page = reviewer_client.get(reverse("admin:cms_theme_changelist"), {"game": "millionnaire"})

    rows = {theme.name: theme.question_count for theme in page.context["cl"].result_list}
    assert rows == {"Géographie": 3, "Cinéma": 1}


def test_renaming_a_theme_renames_it_on_every_question_with_history(reviewer_client, editor,
                                                                    reviewer):
    published = with_theme(reviewer, "Geo", status=Status.PUBLISHED)
    draft = with_theme(editor, "geo")
    elsewhere = with_theme(editor, "Geo", kind="coup-de-maitre")
    theme = Theme.objects.get(game="millionnaire")
    url = reverse("admin:cms_theme_change", args=[theme.pk])
    versions = Version.objects.get_for_object(published).count()

    response = reviewer_client.post(url, form_data(reviewer_client.get(url),
                                                   name="Géographie", _save="1"))

    assert response.status_code == 302
    assert Question.objects.get(pk=published.pk).theme == "Géographie"
    assert Question.objects.get(pk=draft.pk).theme == "Géographie"
    assert Question.objects.get(pk=elsewhere.pk).theme == "Geo"
    assert Question.objects.get(pk=published.pk).status == Status.PUBLISHED
    history = Version.objects.get_for_object(published)
    assert history.count() == versions + 1
    assert "Géographie" in history.first().revision.comment
    assert Question.objects.filter(search_text__contains="geographie").count() == 2


def test_renaming_a_theme_to_another_of_the_game_is_refused_with_a_word_of_merging(
        reviewer_client, editor):
    with_theme(editor, "Géographie")
    with_theme(editor, "Histoire")
    theme = Theme.objects.get(name="Histoire")
    url = reverse("admin:cms_theme_change", args=[theme.pk])

    page = reviewer_client.post(url, form_data(reviewer_client.get(url), name="geographie",
                                               _save="1"))

    assert page.status_code == 200
    assert "fusionnez" in page_text(page)
    assert Theme.objects.get(pk=theme.pk).name == "Histoire"


def test_merging_themes_moves_every_question_and_keeps_history(reviewer_client, editor,
                                                               reviewer):
    kept = [with_theme(editor, "Géographie") for _n in range(2)]
    moved = with_theme(reviewer, "Géo", status=Status.PUBLISHED)
    pending = make_question("echelle", status=Status.PUBLISHED, theme="Géo")
    services.content_save(obj=pending, data={**snapshots.of_object(pending),
                                             "text": "Où est Brest ?"}, user=editor)
    into = Theme.objects.get(name="Géographie")
    gone = Theme.objects.get(name="Géo")
    changelist = reverse("admin:cms_theme_changelist")
    choose = reviewer_client.post(changelist, {"action": "merge",
                                               "_selected_action": [into.pk, gone.pk]})
    assert "Fusionner des thèmes" in page_text(choose)

    done = reviewer_client.post(changelist, {
        "action": "merge", "_selected_action": [into.pk, gone.pk], "apply": "1",
        "into": into.pk}, follow=True)

    assert "Thèmes fusionnés dans" in page_text(done)
    assert not Theme.objects.filter(pk=gone.pk).exists()
    assert {q.theme for q in Question.objects.filter(pk__in=[q.pk for q in kept] + [moved.pk])
            } == {"Géographie"}
    assert Version.objects.get_for_object(moved).first().revision.comment.endswith(
        "«\u202fGéographie\u202f»")
    assert Question.objects.get(pk=pending.pk).pending_correction().data["theme"] == "Géographie"


def test_a_theme_still_used_cannot_be_deleted(reviewer, editor):
    with_theme(editor, "Géographie")

    with pytest.raises(ValidationError):
        services.theme_delete(theme=Theme.objects.get(), user=reviewer)

    assert Theme.objects.count() == 1


def test_an_editor_may_not_rename_themes(editor):
    with_theme(editor, "Géographie")

    with pytest.raises(PermissionDenied):
        services.theme_rename(theme=Theme.objects.get(), name="Géo", user=editor)


def test_the_admin_index_has_each_game_s_themes(reviewer_client):
    page = reviewer_client.get(reverse("admin:index"))

    assert f'{reverse("admin:cms_theme_changelist")}?game=millionnaire' in page.content.decode()
