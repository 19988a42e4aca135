"""Every admin save is kept in history, and any earlier state can be brought back."""

from django.urls import reverse
from reversion.models import Version

from cms.models import Card, Proposition, Question
from tests.admin_forms import change_url, form_data, save
from tests.builders import make_card, make_question


def versions_of(obj) -> list[Version]:
    """Return the versions of obj, oldest first."""
    return list(Version.objects.get_for_object(obj).order_by("pk"))


def revision_url(obj, version) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_revision",
                   args=[obj.pk, version.pk])


def propositions_of(question) -> list[tuple[str, bool, bool]]:
    return [(p.text, p.is_right, p.is_hidden) for p in question.propositions.all()]


def restore(client, obj, version):
    """Open the revision from the history page and POST its form, as an editor would."""
    history = client.get(reverse(f"admin:cms_{type(obj).__name__.lower()}_history",
                                 args=[obj.pk]))
    assert history.status_code == 200
    url = revision_url(obj, version)
    assert f'href="{url}"' in history.content.decode()
    data = form_data(client.get(url))
    data["_save"] = "1"
    return client.post(url, data)


def test_an_admin_save_of_a_question_keeps_a_version_with_the_user(editor_client, editor):
    question = make_question("echelle")

    save(editor_client, question, text="Quel est le plus haut sommet d’Europe\u202f?")

    [version] = versions_of(question)
    assert version.revision.user == editor
    assert version.field_dict["text"] == "Quel est le plus haut sommet d’Europe\u202f?"


def test_an_admin_save_of_a_card_keeps_a_version_with_the_user(reviewer_client, reviewer):
    card = make_card("coup-de-maitre")

    save(reviewer_client, card, title="Les montagnes")

    [version] = versions_of(card)
    assert version.revision.user == reviewer
    slots = version.revision.version_set.filter(content_type__model="cardquestion")
    assert slots.count() == 5


def test_each_admin_save_adds_a_version(editor_client, editor):
    question = make_question("echelle")

    save(editor_client, question, text="Première rédaction\u202f?")
    save(editor_client, question, text="Deuxième rédaction\u202f?")

    versions = versions_of(question)
    assert [v.field_dict["text"] for v in versions] == ["Première rédaction\u202f?",
                                                        "Deuxième rédaction\u202f?"]
    assert {v.revision.user for v in versions} == {editor}


def test_an_admin_add_keeps_a_version_with_the_user(editor_client, editor):
    add = reverse("admin:cms_question_add")
    data = form_data(editor_client.get(add, {"kind": "echelle"}),
                     text="Combien de départements compte la France\u202f?", difficulty="1",
                     step="1", _save="1")
    for i, text in enumerate(["101", "95", "96", "100"]):
        data[f"propositions-{i}-text"] = text
        data[f"propositions-{i}-position"] = str(i + 1)
    data["propositions-0-is_right"] = "on"

    editor_client.post(add, data)

    question = Question.objects.get(text="Combien de départements compte la France\u202f?")
    [version] = versions_of(question)
    assert version.revision.user == editor


def test_restoring_a_question_brings_back_its_text_and_propositions(editor_client):
    question = make_question("echelle", text="Quelle est la capitale de l’Australie\u202f?",
                             propositions=[("Canberra", True, False), ("Sydney", False, False),
                                           ("Melbourne", False, False), ("Perth", False, False)])
    save(editor_client, question)
    [before] = versions_of(question)
    original = propositions_of(question)
    # Rewrite the text, move the right answer, replace Perth by Brisbane.
    data = form_data(editor_client.get(change_url(question)),
                     text="Quelle est la plus grande ville d’Australie\u202f?", _save="1")
    data.pop("propositions-0-is_right")
    data["propositions-1-is_right"] = "on"
    data["propositions-3-DELETE"] = "on"
    data["propositions-TOTAL_FORMS"] = "5"
    data.update({"propositions-4-text": "Brisbane", "propositions-4-position": "4",
                 "propositions-4-question": str(question.pk)})
    assert editor_client.post(change_url(question), data).status_code == 302
    question.refresh_from_db()
    assert question.text == "Quelle est la plus grande ville d’Australie\u202f?"
    assert propositions_of(question) != original

    response = restore(editor_client, question, before)

    assert response.status_code == 302
    question.refresh_from_db()
    assert question.text == "Quelle est la capitale de l’Australie\u202f?"
    assert propositions_of(question) == original
    assert not Proposition.objects.filter(text="Brisbane").exists()


def test_restoring_a_question_is_itself_kept_in_history(editor_client, editor):
    question = make_question("echelle", text="Texte d’origine\u202f?")
    save(editor_client, question)
    [before] = versions_of(question)
    save(editor_client, question, text="Texte modifié\u202f?")

    restore(editor_client, question, before)

    latest = versions_of(question)[-1]
    assert len(versions_of(question)) == 3
    assert latest.revision.user == editor
    assert latest.field_dict["text"] == "Texte d’origine\u202f?"


def test_restoring_a_card_brings_back_its_question_order(editor_client):
    card = make_card("coup-de-maitre")
    order = [slot.question_id for slot in card.ordered_slots()]
    save(editor_client, card)
    [before] = versions_of(card)
    data = form_data(editor_client.get(change_url(card)), _save="1")
    data["slots-0-position"], data["slots-4-position"] = "5", "1"
    editor_client.post(change_url(card), data)
    card.refresh_from_db()
    assert [slot.question_id for slot in card.ordered_slots()] != order

    response = restore(editor_client, card, before)

    assert response.status_code == 302
    card.refresh_from_db()
    assert [slot.question_id for slot in card.ordered_slots()] == order


def test_a_deleted_question_can_be_recovered(editor_client, editor):
    question = make_question("echelle",
                             text="Quel peintre a signé «\u202fLes Nymphéas\u202f»\u202f?",
                             created_by=editor,
                             propositions=[("Monet", True, False), ("Manet", False, False),
                                           ("Degas", False, False), ("Renoir", False, False)])
    save(editor_client, question)
    [version] = versions_of(question)
    pk = question.pk
    delete = reverse("admin:cms_question_delete", args=[pk])
    assert editor_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Question.objects.filter(pk=pk).exists()
    assert not Proposition.objects.filter(question_id=pk).exists()

    recover_list = editor_client.get(reverse("admin:cms_question_recoverlist"))
    recover_url = reverse("admin:cms_question_recover", args=[version.pk])
    assert recover_list.status_code == 200
    assert f'href="{recover_url}"' in recover_list.content.decode()
    data = form_data(editor_client.get(recover_url))
    data["_save"] = "1"
    response = editor_client.post(recover_url, data)

    assert response.status_code == 302
    recovered = Question.objects.get(pk=pk)
    assert recovered.text == "Quel peintre a signé «\u202fLes Nymphéas\u202f»\u202f?"
    assert propositions_of(recovered) == [("Monet", True, False), ("Manet", False, False),
                                          ("Degas", False, False), ("Renoir", False, False)]


def test_a_deleted_card_can_be_recovered_with_its_questions_in_order(editor_client, editor):
    card = make_card("coup-de-maitre", created_by=editor)
    order = [slot.question_id for slot in card.ordered_slots()]
    save(editor_client, card)
    [version] = versions_of(card)
    editor_client.post(reverse("admin:cms_card_delete", args=[card.pk]), {"post": "yes"})
    assert not Card.objects.filter(pk=card.pk).exists()

    recover_url = reverse("admin:cms_card_recover", args=[version.pk])
    data = form_data(editor_client.get(recover_url))
    data["_save"] = "1"
    response = editor_client.post(recover_url, data)

    assert response.status_code == 302
    recovered = Card.objects.get(pk=card.pk)
    assert [slot.question_id for slot in recovered.ordered_slots()] == order
