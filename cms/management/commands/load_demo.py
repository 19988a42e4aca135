"""Load the demo content of fixtures/demo/ as published content, idempotently.

What editors changed since is theirs: content already in the database is left alone,
unless --update asks to bring it back to the files.
"""

import hashlib
import json
from pathlib import Path

import reversion
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cms.games import KINDS
from cms.models import Card, CardQuestion, Proposition, Question, Status
from cms.validation import validate_game

DEMO_DIR = settings.BASE_DIR / "fixtures" / "demo"


class Command(BaseCommand):
    help = ("Load fixtures/demo/*.json as published content, adding only what is missing; "
            "running it twice changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=DEMO_DIR)
        parser.add_argument("--update", action="store_true",
                            help="Also bring content already loaded back to the files.")

    def handle(self, *args, dir: Path, update: bool, **options):
        self.update = update
        self.touched: set[str] = set()
        files = sorted(dir.glob("*.json"))
        changed = 0
        games = set()
        with transaction.atomic(), reversion.create_revision():
            reversion.set_comment("Contenu de démonstration")
            for path in files:
                data = json.loads(path.read_text(encoding="utf-8"))
                for item in data.get("questions", []):
                    question, did = self.sync_question(item, item["kind"], dir)
                    changed += did
                    games.add(question.game.slug)
                pairs = []
                for item in data.get("cards", []):
                    card, did = self.sync_card(item, dir)
                    changed += did
                    games.add(card.game.slug)
                    if item.get("pair") and did:
                        pairs.append((card, item["pair"]))
                for card, partner_ref in pairs:
                    partner = Card.objects.get(ref=partner_ref)
                    if card.pair_id != partner.pk:
                        card.pair = partner
                        card.save(update_fields=["pair"])
                        changed += 1
            # Only what this run wrote must be clean; the editors' drafts are theirs.
            errors = [p for slug in sorted(games) for p in validate_game(slug).errors
                      if p.target is None or p.target.ref in self.touched]
            if errors:
                raise CommandError("Le contenu de démonstration a des erreurs :\n" + "\n".join(
                    f"  - {p.target.ref if p.target else p.game} : {p.message}" for p in errors))
        self.stdout.write(f"Démo : {len(files)} fichier(s), {changed} élément(s) créé(s) ou "
                          "mis à jour.")

    def sync_question(self, item: dict, kind: str, base: Path) -> tuple[Question, bool]:
        if kind not in KINDS:
            raise CommandError(f"{item.get('ref')} : type inconnu « {kind} ».")
        wanted = {
            "kind": kind, "text": item["text"], "difficulty": item["difficulty"],
            "theme": item.get("theme", ""), "step": item.get("step"),
            "answer": item.get("answer", ""), "variants": "\n".join(item.get("variants", [])),
            "anecdote": item.get("anecdote", ""), "source": item.get("source", ""),
            "status": Status.PUBLISHED,
        }
        propositions = [(i, p["text"], p.get("right", False), p.get("hidden", False))
                        for i, p in enumerate(item.get("propositions", []), start=1)]
        question = Question.objects.filter(ref=item["ref"]).first() or Question(ref=item["ref"])
        if question.pk and not self.update:
            return question, False
        image_name = self.image_name(item, base)
        current = [(p.position, p.text, p.is_right, p.is_hidden)
                   for p in question.propositions.all()] if question.pk else None
        if (question.pk and all(getattr(question, f) == v for f, v in wanted.items())
                and current == propositions and question.image.name == image_name):
            return question, False
        for field, value in wanted.items():
            setattr(question, field, value)
        if image_name:
            self.store_image(item, base, image_name)
        question.image.name = image_name
        question.full_clean(validate_unique=False)
        question.save()
        self.touched.add(question.ref)
        question.propositions.all().delete()
        Proposition.objects.bulk_create(
            Proposition(question=question, position=pos, text=text, is_right=right,
                        is_hidden=hidden) for pos, text, right, hidden in propositions)
        return question, True

    def sync_card(self, item: dict, base: Path) -> tuple[Card, bool]:
        kind = item["kind"]
        wanted = {"kind": kind, "title": item.get("title", ""), "colour": item.get("colour", ""),
                  "status": Status.PUBLISHED}
        card = Card.objects.filter(ref=item["ref"]).first() or Card(ref=item["ref"])
        if card.pk and not self.update:
            return card, False
        changed = False
        if not card.pk or any(getattr(card, f) != v for f, v in wanted.items()):
            for field, value in wanted.items():
                setattr(card, field, value)
            card.save()
            changed = True
        self.touched.add(card.ref)
        questions = []
        for q in item["questions"]:
            question, did = self.sync_question(q, kind, base)
            questions.append(question)
            changed |= did
        order = [q.pk for q in questions]
        if [s.question_id for s in card.ordered_slots()] != order:
            card.slots.all().delete()
            CardQuestion.objects.filter(question_id__in=order).delete()
            CardQuestion.objects.bulk_create(
                CardQuestion(card=card, question=q, position=i)
                for i, q in enumerate(questions, start=1))
            changed = True
        return card, changed

    @staticmethod
    def image_name(item: dict, base: Path) -> str:
        if not item.get("image"):
            return ""
        content = (base / item["image"]).read_bytes()
        digest = hashlib.sha256(content).hexdigest()[:12]
        return f"questions/demo/{digest}-{Path(item['image']).name}"

    @staticmethod
    def store_image(item: dict, base: Path, name: str) -> None:
        if not default_storage.exists(name):
            saved = default_storage.save(name, ContentFile((base / item["image"]).read_bytes()))
            if saved != name:
                raise CommandError(f"Image enregistrée sous un autre nom : {saved}")
