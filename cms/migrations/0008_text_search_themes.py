"""Search text, themes as a list per game, and French typography on stored text.

The stored text is brought to the typography every write now applies (cms.services): no
version is added to history and no `version` is counted, as nobody edited anything; a page
or an import preview open across the upgrade saves as before. History keeps the versions
as they were typed. Pending corrections get the same typography, their revision unchanged.
Each game's themes become `Theme` rows, one per name whatever its accents or case, spelt
as most of its questions spell it; questions spelling it otherwise take that spelling.
"""

from collections import Counter

from django.contrib.auth.management import create_permissions
from django.contrib.postgres.operations import UnaccentExtension
from django.db import migrations, models

import cms.models
from cms import search
from cms.games import KINDS
from cms.typography import typeset

QUESTION_TEXTS = ("text", "answer", "variants", "anecdote", "theme")
BATCH = 500

GROUP_PERMISSIONS = {
    "Rédacteur": ("view_theme",),
    # Renaming or merging a theme changes published questions: a Relecteur's job.
    "Relecteur": ("view_theme", "add_theme", "change_theme", "delete_theme"),
    "Lecteur": ("view_theme",),
}


def theme_key(name):
    return search.fold(name) or " ".join(name.casefold().split())


def spelling(names: Counter) -> str:
    """Return the spelling most questions use; among equals, the accented, capitalised one."""
    return max(names, key=lambda n: (names[n], any(ord(c) > 127 for c in n), n[:1].isupper(), n))


def batches(queryset):
    pks = list(queryset.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), BATCH):
        yield queryset.filter(pk__in=pks[start:start + BATCH])


def typeset_questions(apps):
    Question = apps.get_model("cms", "Question")
    Proposition = apps.get_model("cms", "Proposition")
    for batch in batches(Question.objects.all()):
        changed = []
        for question in batch:
            before = [getattr(question, name) for name in QUESTION_TEXTS]
            for name in QUESTION_TEXTS:
                setattr(question, name, typeset(getattr(question, name) or ""))
            if before != [getattr(question, name) for name in QUESTION_TEXTS]:
                changed.append(question)
        Question.objects.bulk_update(changed, QUESTION_TEXTS)
    for batch in batches(Proposition.objects.all()):
        changed = [p for p in batch if typeset(p.text) != p.text]
        for proposition in changed:
            proposition.text = typeset(proposition.text)
        Proposition.objects.bulk_update(changed, ["text"])
    Card = apps.get_model("cms", "Card")
    for batch in batches(Card.objects.all()):
        changed = [c for c in batch if typeset(c.title) != c.title]
        for card in changed:
            card.title = typeset(card.title)
        Card.objects.bulk_update(changed, ["title"])


def make_themes(apps) -> dict:
    """Create each game's themes; return their names by (game, key)."""
    Question = apps.get_model("cms", "Question")
    Theme = apps.get_model("cms", "Theme")
    found: dict[tuple[str, str], Counter] = {}
    for kind, theme in Question.objects.exclude(theme="").values_list("kind", "theme"):
        if kind in KINDS:
            found.setdefault((KINDS[kind][0].slug, theme_key(theme)), Counter())[theme] += 1
    names = {place: spelling(spellings) for place, spellings in found.items()}
    Theme.objects.bulk_create([Theme(game=game, key=key, name=name)
                               for (game, key), name in names.items()])
    for (game, key), spellings in found.items():
        kinds = [slug for slug, (spec, _kind) in KINDS.items() if spec.slug == game]
        for other in spellings:
            if other != names[game, key]:
                Question.objects.filter(kind__in=kinds, theme=other).update(
                    theme=names[game, key])
    return names


def typeset_corrections(apps, names: dict) -> None:
    Correction = apps.get_model("cms", "Correction")
    for correction in Correction.objects.filter(state="pending"):
        data = dict(correction.data)
        texts = QUESTION_TEXTS if correction.question_id else ("title",)
        for name in texts:
            if isinstance(data.get(name), str):
                data[name] = typeset(data[name])
        if correction.question_id:
            data["propositions"] = [{**row, "text": typeset(row.get("text") or "")}
                                    for row in data.get("propositions") or []]
            if data.get("theme") and data.get("kind") in KINDS:
                place = (KINDS[data["kind"]][0].slug, theme_key(data["theme"]))
                data["theme"] = names.get(place, data["theme"])
        if data != correction.data:
            correction.data = data
            correction.save(update_fields=["data"])


def fill_search_texts(apps) -> None:
    Question = apps.get_model("cms", "Question")
    Card = apps.get_model("cms", "Card")
    Correction = apps.get_model("cms", "Correction")
    pending = Correction.objects.filter(state="pending")
    waiting_q = dict(pending.filter(question__isnull=False).values_list("question", "data"))
    waiting_c = dict(pending.filter(card__isnull=False).values_list("card", "data"))
    texts = {}
    for batch in batches(Question.objects.all()):
        rows = list(batch.prefetch_related("propositions"))
        for question in rows:
            propositions = [p.text for p in sorted(question.propositions.all(),
                                                   key=lambda p: (p.position, p.pk))]
            question.search_text = search.question_search_text(
                question, propositions, waiting_q.get(question.pk))
            texts[question.pk] = question.text
        Question.objects.bulk_update(rows, ["search_text"])
    for batch in batches(Card.objects.all()):
        rows = list(batch.prefetch_related("slots"))
        for card in rows:
            slots = sorted(card.slots.all(), key=lambda s: (s.position, s.pk))
            waiting = waiting_c.get(card.pk)
            card.search_text = search.card_search_text(
                card, [texts.get(s.question_id, "") for s in slots], waiting,
                [texts.get(pk, "") for pk in (waiting or {}).get("slots") or []])
        Card.objects.bulk_update(rows, ["search_text"])


def theme_permissions(apps) -> None:
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in GROUP_PERMISSIONS.items():
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label="cms", codename__in=codenames))


def forwards(apps, schema_editor):
    typeset_questions(apps)
    names = make_themes(apps)
    typeset_corrections(apps, names)
    fill_search_texts(apps)
    theme_permissions(apps)


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0007_registry_choices_read_when_asked'),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(
            model_name='card',
            name='search_text',
            field=models.TextField(blank=True, editable=False, verbose_name='texte de recherche'),
        ),
        migrations.AddField(
            model_name='question',
            name='search_text',
            field=models.TextField(blank=True, editable=False, verbose_name='texte de recherche'),
        ),
        migrations.CreateModel(
            name='Theme',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=cms.models.game_choices, db_index=True, max_length=40, verbose_name='jeu')),
                ('name', models.CharField(max_length=120, verbose_name='nom')),
                ('key', models.CharField(editable=False, max_length=120, verbose_name='clé')),
            ],
            options={
                'verbose_name': 'thème',
                'verbose_name_plural': 'thèmes',
                'ordering': ['game', 'key'],
                'constraints': [models.UniqueConstraint(fields=('game', 'key'), name='theme_once_per_game', violation_error_code='theme_exists', violation_error_message='Ce jeu a déjà ce thème (aux accents et majuscules près).')],
            },
        ),
        # PostgreSQL's unaccent, which cms.search uses there; nothing on SQLite.
        UnaccentExtension(),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
