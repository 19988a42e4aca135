"""Who may do what: the README's table of roles, one test per cell.

Each action is tried through the admin as a browser posts it, and judged on what the
database holds afterwards, not on the page's status code alone.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from reversion.models import Version

from cms import services, snapshots
from cms.models import Correction, CorrectionState, Question, Status
from tests.admin_forms import change_url, changelist_url, form_data
from tests.builders import make_question
from tests.cms.test_import_admin import confirm, export, ladder_file, ladder_row, upload

ROLES = ("Lecteur", "Rédacteur", "Relecteur")

# (action as the README names it, allowed for Lecteur, Rédacteur, Relecteur)
TABLE = [
    ("Lire les contenus, leurs problèmes et leur historique", (True, True, True)),
    ("Exporter", (True, True, True)),
    ("Créer une question ou une carte", (False, True, False)),
    ("Modifier un brouillon ou un contenu en relecture", (False, True, True)),
    ("Proposer une correction d’un contenu publié", (False, True, True)),
    ("Importer un fichier", (False, True, True)),
    ("Envoyer en relecture", (False, True, True)),
    ("Repasser en brouillon un contenu non publié", (False, True, True)),
    ("Publier", (False, False, True)),
    ("Publier une correction", (False, False, True)),
    ("Abandonner sa propre correction", (False, True, True)),
    ("Abandonner la correction d’un autre", (False, False, True)),
    ("Retirer du jeu, avec un motif", (False, False, True)),
    ("Supprimer son brouillon jamais publié", (False, True, True)),
    ("Supprimer un contenu publié ou écrit par un autre", (False, False, True)),
    ("Restaurer une version", (False, True, True)),
    ("Récupérer un contenu supprimé", (False, True, True)),
]


def someone_else() -> User:
    user = User.objects.create_user("autre-redacteur", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Rédacteur"))
    return user


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def live(obj):
    return type(obj).objects.get(pk=obj.pk)


def action(client, name, objects, **extra):
    return client.post(changelist_url(Question), {
        "action": name, "_selected_action": [o.pk for o in objects], "index": "0", **extra})


def post_form(client, url, **changes):
    """GET a form page and POST it back with changes, if the page opens at all."""
    page = client.get(url)
    if page.status_code != 200:
        return page
    data = form_data(page, **changes)
    data["_save"] = "1"
    return client.post(url, data)


# --- each action, tried by one user: did it happen? --------------------------------------


def read(user):
    client = browser(user)
    question = make_question("echelle")
    pages = [changelist_url(Question), change_url(question),
             reverse("admin:cms_question_history", args=[question.pk]),
             reverse("admin:cms_game_problems", args=["millionnaire"])]
    return all(client.get(page).status_code == 200 for page in pages)


def export_file(user):
    make_question("echelle", text="Exportée\u202f?")
    return "Exportée\u202f?" in export(browser(user), "question", "0").decode("utf-8")


def create(user):
    client = browser(user)
    url = reverse("admin:cms_question_add")
    page = client.get(url, {"kind": "echelle"})
    if page.status_code != 200:
        return False
    data = form_data(page, text="Question créée\u202f?", difficulty="1", step="1", _save="1")
    for i, text in enumerate(["Un", "Deux", "Trois", "Quatre"]):
        data[f"propositions-{i}-text"] = text
        data[f"propositions-{i}-position"] = str(i + 1)
    data["propositions-0-is_right"] = "on"
    client.post(url, data)
    return Question.objects.filter(text="Question créée\u202f?").exists()


def edit_draft(user):
    question = make_question("echelle", status=Status.REVIEW)
    post_form(browser(user), change_url(question), text="Modifiée\u202f?")
    return live(question).text == "Modifiée\u202f?"


def propose_correction(user):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    post_form(browser(user), change_url(question), text="Corrigée\u202f?")
    pending = question.corrections.filter(state=CorrectionState.PENDING).first()
    return live(question).text == "Corrigée\u202f?" or (
        pending is not None and pending.data["text"] == "Corrigée\u202f?")


def import_file(user):
    client = browser(user)
    preview = upload(client, ladder_file(ladder_row("importee", status="brouillon")))
    if preview.status_code == 200 and b"process_import" in preview.content:
        confirm(client, preview)
    return Question.objects.filter(ref="importee").exists()


def submit(user):
    question = make_question("echelle")
    action(browser(user), "send_to_review", [question])
    return live(question).status == Status.REVIEW


def back_to_draft(user):
    question = make_question("echelle", status=Status.REVIEW)
    action(browser(user), "back_to_draft", [question])
    return live(question).status == Status.DRAFT


def publish(user):
    question = make_question("echelle")
    action(browser(user), "publish", [question])
    return live(question).status == Status.PUBLISHED


def _corrected_by(author):
    question = make_question("echelle", status=Status.PUBLISHED, text="En jeu\u202f?")
    services.content_save(obj=question, data={**snapshots.of_object(question),
                                              "text": "Corrigée\u202f?"},
                          user=author, as_correction=True)
    return question


def publish_correction(user):
    question = _corrected_by(someone_else())
    client = browser(user)
    # The button posts the page's form to the correction's address (formaction).
    page = client.get(change_url(question))
    client.post(reverse("admin:cms_question_correction_publish", args=[question.pk]),
                form_data(page) if page.status_code == 200 else {})
    return live(question).text == "Corrigée\u202f?"


def _discard(user, question):
    client = browser(user)
    url = reverse("admin:cms_question_correction_discard", args=[question.pk])
    page = client.get(url)
    token = re.search(r'name="token" value="([^"]*)"', page.content.decode())
    client.post(url, {"reason": "Inutile", "token": token.group(1) if token else ""})
    return Correction.objects.get(question=question).state == CorrectionState.DISCARDED


def discard_own_correction(user):
    question = _corrected_by(someone_else())
    # Theirs (a Lecteur's, say, from the days they wrote).
    Correction.objects.filter(question=question).update(created_by=user)
    return _discard(user, question)


def discard_others_correction(user):
    return _discard(user, _corrected_by(someone_else()))


def withdraw(user):
    question = make_question("echelle", status=Status.PUBLISHED)
    browser(user).post(reverse("admin:cms_question_withdraw", args=[question.pk]),
                       {"reason": "Réponse contestée"})
    return live(question).status == Status.DRAFT


def _delete(user, question):
    browser(user).post(reverse("admin:cms_question_delete", args=[question.pk]),
                       {"post": "yes"})
    return not Question.objects.filter(pk=question.pk).exists()


def delete_own_draft(user):
    return _delete(user, make_question("echelle", created_by=user))


def delete_others_or_published(user):
    others = make_question("echelle", created_by=someone_else())
    published = make_question("echelle", created_by=user, status=Status.PUBLISHED)
    return _delete(user, others) | _delete(user, published)


def restore(user):
    question = make_question("echelle", text="Ancienne\u202f?")
    author = someone_else()
    services.content_save(obj=question, data=snapshots.of_object(question) | {
        "text": "Intermédiaire\u202f?"}, user=author)
    services.content_save(obj=live(question), data=snapshots.of_object(live(question)) | {
        "text": "Récente\u202f?"}, user=author)
    old = Version.objects.get_for_object(question).order_by("pk").first()
    post_form(browser(user), reverse("admin:cms_question_revision", args=[question.pk, old.pk]))
    return live(question).text == "Intermédiaire\u202f?"


def recover(user):
    question = make_question("echelle", text="Supprimée\u202f?", created_by=someone_else())
    pk = question.pk
    services.content_delete(obj=question, user=User.objects.create_superuser("chef", "", "x"))
    [version] = Version.objects.get_deleted(Question)
    post_form(browser(user), reverse("admin:cms_question_recover", args=[version.pk]))
    found = Question.objects.filter(pk=pk).first()
    return found is not None and found.status == Status.DRAFT


ATTEMPTS = [read, export_file, create, edit_draft, propose_correction, import_file, submit,
            back_to_draft, publish, publish_correction, discard_own_correction,
            discard_others_correction, withdraw, delete_own_draft, delete_others_or_published,
            restore, recover]

CELLS = [pytest.param(attempt, role, allowed[ROLES.index(role)],
                      id=f"{attempt.__name__}-{role}")
         for (_name, allowed), attempt in zip(TABLE, ATTEMPTS, strict=True) for role in ROLES]


@pytest.mark.parametrize(("attempt", "role", "allowed"), CELLS)
def test_each_role_may_do_exactly_what_the_table_says(db, attempt, role, allowed):
    user = User.objects.create_user(f"un-{role.lower()}", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name=role))

    assert attempt(user) is allowed


def test_the_readme_shows_the_same_table():
    readme = Path(settings.BASE_DIR, "README.md").read_text(encoding="utf-8")
    rows = []
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] in ("✓", "—"):
            rows.append((cells[0], tuple(c == "✓" for c in cells[1:])))
    header = re.search(r"\| *action *\| *Lecteur *\| *Rédacteur *\| *Relecteur *\|", readme)

    assert header, "the README has no roles table"
    assert rows == TABLE
