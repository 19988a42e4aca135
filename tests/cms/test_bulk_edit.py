"""Bulk edit: theme, difficulty, step and kind for a selection of questions, shown first
(what changes, what would break), then written whole or not at all, each question as its
own edit would be."""

import pytest
from reversion.models import Version

from cms import services
from cms.models import CorrectionState, Question, Status
from tests.admin_forms import changelist_url
from tests.builders import make_card, make_question
from tests.cms.test_roles import browser as logged_in

pytestmark = pytest.mark.django_db


def bulk(client, questions, *, confirm=False, previewed="", **fields):
    data = {"action": "bulk_edit", "_selected_action": [q.pk for q in questions],
            "index": "0", "theme": "", "difficulty": "", "step": "", "kind": "",
            "previewed": previewed, **{k: str(v) for k, v in fields.items()}}
    data["_bulk_confirm" if confirm else "_bulk_preview"] = "1"
    return client.post(changelist_url(Question), data)


def preview_then_confirm(client, questions, **fields):
    """Preview as the page does, then confirm what the preview signed."""
    page = bulk(client, questions, **fields)
    assert page.status_code == 200
    signed = page.context["form"]["previewed"].value()
    return bulk(client, questions, confirm=True, previewed=signed, **fields)


def live(question):
    return Question.objects.get(pk=question.pk)


def ladder(n=3, **fields):
    return [make_question("echelle", step=2, difficulty=1, **fields) for _ in range(n)]


def test_the_preview_lists_the_changes_and_writes_nothing(editor):
    questions = ladder(theme="Histoire")
    page = bulk(logged_in(editor), questions, theme="Géographie", difficulty=2)
    text = page.content.decode()
    assert text.count("Thème\u00a0: Histoire → Géographie") == 3
    assert text.count("Difficulté\u00a0: 1 → 2") == 3
    assert 'name="_bulk_confirm"' in text
    assert [(q.theme, q.difficulty, q.version) for q in map(live, questions)] == [
        ("Histoire", 1, 1)] * 3


def test_confirming_writes_only_the_fields_filled_in_each_with_its_history(editor):
    questions = ladder(theme="Histoire")
    response = preview_then_confirm(logged_in(editor), questions, difficulty=2)
    assert response.status_code == 302
    for question in map(live, questions):
        assert (question.theme, question.difficulty, question.step) == ("Histoire", 2, 2)
        assert question.updated_by == editor
        assert Version.objects.get_for_object(question).first().revision.get_comment() == (
            "Modification groupée")


def test_a_confirmation_for_other_values_than_previewed_shows_the_preview_again(editor):
    questions = ladder(1)
    client = logged_in(editor)
    signed = bulk(client, questions, difficulty=2).context["form"]["previewed"].value()
    page = bulk(client, questions, confirm=True, previewed=signed, difficulty=5)
    assert page.status_code == 200 and "Difficulté\u00a0: 1 → 5" in page.content.decode()
    assert live(questions[0]).difficulty == 1


def test_published_questions_edited_by_an_editor_get_corrections_and_stay_live(editor):
    published = ladder(2, status=Status.PUBLISHED, theme="Histoire")
    preview_then_confirm(logged_in(editor), published, theme="Sciences")
    for question in map(live, published):
        assert question.theme == "Histoire"  # still what is played and printed
        correction = question.pending_correction()
        assert correction.state == CorrectionState.PENDING
        assert correction.data["theme"] == "Sciences"


def test_a_kind_change_that_leaves_wrong_proposition_counts_is_shown_before_writing(editor):
    questions = ladder(2)  # four propositions each; a coup d'envoi takes two
    page = bulk(logged_in(editor), questions, kind="coup-d-envoi", step="")
    rows = page.context["rows"]
    # The step goes with the ladder, as in the question's own form: only the counts break.
    assert [sorted(p.code for p in row.new_errors) for row in rows] == [
        ["hidden_count", "proposition_count"]] * 2
    assert "Ce qui casserait" in page.content.decode()


def test_a_kind_change_empties_the_fields_the_new_kind_does_not_have(editor):
    questions = ladder(2)
    services.questions_bulk_edit(questions=questions, changes={"kind": "coup-d-envoi"},
                                 user=editor)
    assert [(live(q).kind, live(q).step) for q in questions] == [("coup-d-envoi", None)] * 2


def test_one_refusal_writes_nothing_and_names_the_question(editor):
    drafts = ladder(2)
    published = make_question("echelle", step=2, difficulty=1, status=Status.PUBLISHED,
                              text="Question déjà publiée ?")
    client = logged_in(editor)
    page = bulk(client, [*drafts, published], kind="coup-d-envoi")
    assert 'name="_bulk_confirm"' not in page.content.decode()
    refused = [row for row in page.context["rows"] if row.refusal]
    assert [row.question for row in refused] == [published]
    assert "Le type d’un contenu publié ne change pas" in refused[0].refusal[0]

    with pytest.raises(services.EditRefused) as refusal:
        services.questions_bulk_edit(questions=[*drafts, published],
                                     changes={"kind": "coup-d-envoi"}, user=editor)
    assert len(refusal.value.reasons) == 1
    assert refusal.value.reasons[0].startswith("«\u202fQuestion déjà publiée ?\u202f»")
    assert [live(q).kind for q in drafts] == ["echelle", "echelle"]
    assert [live(q).version for q in drafts] == [1, 1]


def test_a_step_off_the_ladder_is_refused_by_name(editor):
    questions = ladder(2)
    page = bulk(logged_in(editor), questions, step=16)
    rows = page.context["rows"]
    assert [row.refusal for row in rows] == [
        ["Palier\u00a0: Assurez-vous que cette valeur est inférieure ou égale à 15."]] * 2
    assert [live(q).step for q in questions] == [2, 2]


def test_a_step_whose_difficulty_band_does_not_fit_is_what_would_break(editor):
    question = make_question("echelle", step=1, difficulty=1)
    rows = bulk(logged_in(editor), [question], step=15).context["rows"]
    assert [p.code for p in rows[0].new_errors] == ["step_difficulty_band"]


def test_a_difficulty_that_breaks_the_order_of_their_card_is_what_would_break(editor):
    card = make_card("coup-de-maitre")  # difficulties 1 to 5
    second, third = [slot.question for slot in card.ordered_slots()[1:3]]
    page = bulk(logged_in(editor), [second, third], difficulty=5)
    rows = page.context["rows"]
    assert [{p.code for p in row.new_errors} for row in rows] == [{"difficulty_order"}] * 2
    # The editor is told which card it is.
    assert f"Sur la carte «\u202f{card}\u202f»\u00a0:" in page.content.decode()


def test_nothing_filled_in_is_asked_again(editor):
    page = bulk(logged_in(editor), ladder(1))
    assert "Remplissez au moins un champ à changer." in page.content.decode()


def test_a_reader_cannot_bulk_edit_and_cards_have_no_bulk_edit(reader, editor):
    question = make_question("echelle", step=1, difficulty=1, theme="Histoire")
    preview_page = bulk(logged_in(reader), [question], theme="Sciences")
    assert preview_page.status_code in (302, 200)
    assert "rows" not in (preview_page.context or {})
    assert live(question).theme == "Histoire"
    with pytest.raises(services.EditRefused):
        services.questions_bulk_edit(questions=[question], changes={"theme": "Sciences"},
                                     user=reader)
    cards = logged_in(editor).get(changelist_url(Question).replace("question", "card"))
    assert 'value="bulk_edit"' not in cards.content.decode()
