"""Generic content models, shaped by the registry in cms.games."""

import re
import uuid

import reversion
from django.conf import settings
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from .games import GAMES, KINDS, MAX_STEP, PAIR_COLOURS, game_of, kind_of
from .games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN
from .validators import validate_question_image

SPACE_RUNS = re.compile(r"\s+")
NO_BREAK_SPACES = ("\u202f", "\u00a0")  # French typography's, as stored (cms.typography)


def new_ref() -> str:
    """Return a fresh stable reference for a question or card."""
    return uuid.uuid4().hex[:12]


def _kind_choices(*, cards_only: bool) -> list:
    return [
        (game.name, [(k.slug, k.label) for k in game.kinds if k.is_card or not cards_only])
        for game in GAMES.values()
        if any(k.is_card or not cards_only for k in game.kinds)
    ]


# Choices read from the registry when asked for (Django calls them), not frozen into a
# migration: a new game's kinds are valid without one.
def question_kinds() -> list:
    """Every content kind, grouped by game."""
    return _kind_choices(cards_only=False)


def card_kinds() -> list:
    """The kinds composed as cards, grouped by game."""
    return _kind_choices(cards_only=True)


def pair_colours() -> list:
    """The colours a paired card may take."""
    return [(name, name.capitalize()) for name in PAIR_COLOURS]


class Status(models.TextChoices):
    DRAFT = "draft", _("Brouillon")
    REVIEW = "review", _("En relecture")
    PUBLISHED = "published", _("Publié")


# By the plain string a status field holds (a Status is one).
STATUS_RANK: dict[str, int] = {Status.DRAFT: 0, Status.REVIEW: 1, Status.PUBLISHED: 2}


class ContentQuerySet(models.QuerySet):
    def for_game(self, slug: str):
        return self.filter(kind__in=[k.slug for k in GAMES[slug].kinds])

    def published(self):
        return self.filter(status=Status.PUBLISHED)


class Content(models.Model):
    """What questions and cards share: a kind from the registry, a status, a trail."""

    ref = models.SlugField(
        _("référence"), max_length=64, unique=True, default=new_ref,
        help_text=_("Identifiant stable, utilisé par les imports et exports."),
    )
    status = models.CharField(
        _("statut"), max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("créé par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("modifié par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    # Counts the writes of the live row: a page or an import preview built on an older count
    # is refused instead of overwriting what was written since.
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    first_published_at = models.DateTimeField(
        _("publié pour la première fois le"), null=True, blank=True, editable=False,
    )

    objects = ContentQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def game(self):
        return game_of(self.kind)

    @property
    def spec(self):
        return kind_of(self.kind)

    @property
    def was_published(self) -> bool:
        return self.first_published_at is not None or self.status == Status.PUBLISHED

    def pending_correction(self):
        """Return the correction waiting beside this live content, or None."""
        if self.pk is None:
            return None
        cache = self.__dict__.get("_pending_correction", ...)
        if cache is ...:
            cache = self.corrections.filter(state=CorrectionState.PENDING).first()
            self.__dict__["_pending_correction"] = cache
        return cache


# The search text is derived from the rest (cms.search): history keeps what editors wrote.
@reversion.register(follow=["propositions"], exclude=["search_text"])
class Question(Content):
    kind = models.CharField(
        _("type"), max_length=40, choices=question_kinds, db_index=True
    )
    text = models.TextField(_("question"))
    difficulty = models.PositiveSmallIntegerField(
        _("difficulté"),
        validators=[MinValueValidator(DIFFICULTY_MIN), MaxValueValidator(DIFFICULTY_MAX)],
        help_text=_("De 1 (facile) à 5 (difficile)."),
    )
    theme = models.CharField(_("thème"), max_length=120, blank=True, db_index=True)
    step = models.PositiveSmallIntegerField(
        _("palier"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_STEP)],
        help_text=format_lazy(_("Questions d’une échelle des gains : leur marche, de 1 à {n}."),
                              n=MAX_STEP),
    )
    answer = models.CharField(
        _("réponse libre"), max_length=200, blank=True,
        help_text=_("La réponse attendue, pour les questions à réponse libre."),
    )
    variants = models.TextField(
        _("variantes acceptées"), blank=True,
        help_text=_("Une réponse acceptée par ligne."),
    )
    image = models.ImageField(
        _("image"), upload_to="questions/%Y/%m/", blank=True,
        validators=[validate_question_image],
        help_text=_("Étoile mystérieuse : JPEG, PNG ou WebP."),
    )
    anecdote = models.TextField(_("anecdote"), blank=True)
    source = models.CharField(_("source"), max_length=300, blank=True)
    search_text = models.TextField(_("texte de recherche"), blank=True, editable=False)

    class Meta:
        verbose_name = _("question")
        verbose_name_plural = _("questions")
        ordering = ["kind", "step", "id"]
        permissions = [
            ("submit_question", _("Peut envoyer une question en relecture")),
            ("publish_question", _("Peut publier une question")),
            ("import_question", _("Peut importer des questions")),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(difficulty__gte=DIFFICULTY_MIN, difficulty__lte=DIFFICULTY_MAX),
                name="question_difficulty_1_5",
                violation_error_code="difficulty_range",
                violation_error_message=_("La difficulté va de 1 à 5."),
            ),
            models.CheckConstraint(
                condition=Q(step__isnull=True) | Q(step__gte=1, step__lte=MAX_STEP),
                name="question_step_on_ladder",
                violation_error_code="step_range",
                violation_error_message=format_lazy(_("Le palier va de 1 à {n}."), n=MAX_STEP),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=list(KINDS)),
                name="question_kind_known",
                violation_error_code="unknown_kind",
                violation_error_message=_("Type de contenu inconnu."),
            ),
        ]

    def __str__(self):
        # Line breaks and runs of spaces become one space; a no-break space alone stays.
        text = SPACE_RUNS.sub(
            lambda run: run[0] if run[0] in NO_BREAK_SPACES else " ", self.text.strip())
        return text if len(text) <= 80 else text[:79] + "…"

    @property
    def variant_list(self) -> list[str]:
        return [line.strip() for line in self.variants.splitlines() if line.strip()]


@reversion.register()
class Proposition(models.Model):
    question = models.ForeignKey(
        Question, verbose_name=_("question"), on_delete=models.CASCADE,
        related_name="propositions",
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    text = models.CharField(_("proposition"), max_length=300)
    is_right = models.BooleanField(_("bonne réponse"), default=False,
                                   help_text=_("Coup par coup : VRAI."))
    is_hidden = models.BooleanField(_("cachée"), default=False,
                                    help_text=_("Dévoilée seulement après le choix."))

    class Meta:
        verbose_name = _("proposition")
        verbose_name_plural = _("propositions")
        ordering = ["position", "id"]

    def __str__(self):
        return self.text


@reversion.register(follow=["slots"], exclude=["search_text"])
class Card(Content):
    kind = models.CharField(
        _("type"), max_length=40, choices=card_kinds, db_index=True
    )
    title = models.CharField(_("titre ou thème"), max_length=200, blank=True)
    colour = models.CharField(
        _("couleur"), max_length=20, blank=True,
        choices=pair_colours,
        help_text=_("Cartes par paires : les deux cartes d’une paire ont la même couleur."),
    )
    pair = models.ForeignKey(
        "self", verbose_name=_("carte jumelle"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
        help_text=_("Cartes par paires : l’autre carte de la paire."),
    )
    questions = models.ManyToManyField(Question, through="CardQuestion", related_name="cards")
    search_text = models.TextField(_("texte de recherche"), blank=True, editable=False)

    class Meta:
        verbose_name = _("carte")
        verbose_name_plural = _("cartes")
        ordering = ["kind", "title", "id"]
        permissions = [
            ("submit_card", _("Peut envoyer une carte en relecture")),
            ("publish_card", _("Peut publier une carte")),
            ("import_card", _("Peut importer des cartes")),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[slug for slug, (_g, k) in KINDS.items() if k.is_card]),
                name="card_kind_known",
                violation_error_code="unknown_kind",
                violation_error_message=_("Type de carte inconnu."),
            ),
            models.CheckConstraint(
                condition=~Q(pair=models.F("id")),
                name="card_not_its_own_pair",
                violation_error_code="pair_self",
                violation_error_message=_("Une carte ne peut pas être sa propre jumelle."),
            ),
        ]

    def __str__(self):
        label = self.title or self.ref
        return f"{self.spec.label} · {label}"

    def ordered_slots(self):
        return sorted(self.slots.all(), key=lambda slot: (slot.position, slot.id or 0))


@reversion.register()
class CardQuestion(models.Model):
    """A question's place on a card."""

    card = models.ForeignKey(Card, verbose_name=_("carte"), on_delete=models.CASCADE,
                             related_name="slots")
    question = models.ForeignKey(Question, verbose_name=_("question"),
                                 on_delete=models.CASCADE, related_name="slots")
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("question de la carte")
        verbose_name_plural = _("questions de la carte")
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["question"],
                name="question_on_one_card",
                violation_error_code="question_on_another_card",
                violation_error_message=_("Cette question est déjà sur une autre carte."),
            ),
        ]

    def __str__(self):
        return _("n°%(n)s") % {"n": self.position}


def game_choices() -> list:
    return [(game.slug, game.name) for game in GAMES.values() if game.kinds]


class Theme(models.Model):
    """A theme questions of a game share: one per game and name, whatever the accents or case.

    A question holds its theme's name (`Question.theme`): cms.services creates the theme a
    write names, spells it as the theme already known, and renames or merges themes with
    every question that holds them.
    """

    game = models.CharField(_("jeu"), max_length=40, choices=game_choices, db_index=True)
    name = models.CharField(_("nom"), max_length=120)
    # The name folded (cms.search.fold): « Géographie » and « geographie » are one theme.
    key = models.CharField(_("clé"), max_length=120, editable=False)

    class Meta:
        verbose_name = _("thème")
        verbose_name_plural = _("thèmes")
        ordering = ["game", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "key"], name="theme_once_per_game",
                violation_error_code="theme_exists",
                violation_error_message=_("Ce jeu a déjà ce thème (aux accents et "
                                          "majuscules près)."),
            ),
        ]

    def __str__(self):
        return self.name


class CorrectionState(models.TextChoices):
    PENDING = "pending", _("En attente")
    PUBLISHED = "published", _("Publiée")
    DISCARDED = "discarded", _("Abandonnée")


class Correction(models.Model):
    """A change to published content, waiting beside the live version for a Relecteur.

    `data` holds the whole proposed state (fields, propositions or slots) as
    cms.snapshots writes it; printing and play keep reading the live row meanwhile.
    """

    question = models.ForeignKey(Question, verbose_name=_("question"), null=True, blank=True,
                                 on_delete=models.CASCADE, related_name="corrections")
    card = models.ForeignKey(Card, verbose_name=_("carte"), null=True, blank=True,
                             on_delete=models.CASCADE, related_name="corrections")
    data = models.JSONField(_("contenu proposé"))
    base_version = models.PositiveIntegerField(
        _("version publiée corrigée"),
        help_text=_("La version de la publication sur laquelle la correction a été écrite."))
    base_data = models.JSONField(_("version publiée corrigée, telle quelle"), null=True,
                                 blank=True)
    revision = models.PositiveIntegerField(_("révision"), default=1)
    state = models.CharField(_("état"), max_length=10, choices=CorrectionState.choices,
                             default=CorrectionState.PENDING, db_index=True)
    created_at = models.DateTimeField(_("proposée le"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("proposée par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("modifiée par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("décidée par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("motif"), blank=True)

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(question__isnull=False, card__isnull=True)
                | Q(question__isnull=True, card__isnull=False),
                name="correction_of_one_thing",
                violation_error_code="correction_target",
                violation_error_message=_("Une correction porte sur une question ou une carte."),
            ),
            models.UniqueConstraint(
                fields=["question"], condition=Q(state="pending"),
                name="one_pending_correction_per_question",
                violation_error_code="correction_pending",
                violation_error_message=_("Cette question a déjà une correction en attente."),
            ),
            models.UniqueConstraint(
                fields=["card"], condition=Q(state="pending"),
                name="one_pending_correction_per_card",
                violation_error_code="correction_pending",
                violation_error_message=_("Cette carte a déjà une correction en attente."),
            ),
        ]

    def __str__(self):
        return _("Correction de « %(obj)s »") % {"obj": self.target}

    @property
    def target(self):
        return self.question if self.question_id else self.card


COMMENT_MAX_LENGTH = 2000


class CommentKind(models.TextChoices):
    NOTE = "note", _("Commentaire")
    CHANGES_REQUESTED = "changes", _("Demande de corrections")


class Comment(models.Model):
    """A remark on a question or card, open until someone resolves it.

    A « demande de corrections » is the reason a Relecteur sent content back to its author;
    comments belong to the content, not to a version: they stay across edits and corrections.
    """

    question = models.ForeignKey(Question, verbose_name=_("question"), null=True, blank=True,
                                 on_delete=models.CASCADE, related_name="comments")
    card = models.ForeignKey(Card, verbose_name=_("carte"), null=True, blank=True,
                             on_delete=models.CASCADE, related_name="comments")
    kind = models.CharField(_("nature"), max_length=10, choices=CommentKind.choices,
                            default=CommentKind.NOTE)
    text = models.TextField(_("commentaire"), max_length=COMMENT_MAX_LENGTH,
                            validators=[MaxLengthValidator(COMMENT_MAX_LENGTH)])
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("auteur"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("écrit le"), auto_now_add=True, db_index=True)
    resolved_at = models.DateTimeField(_("résolu le"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("résolu par"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("commentaire")
        verbose_name_plural = _("commentaires")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(question__isnull=False, card__isnull=True)
                | Q(question__isnull=True, card__isnull=False),
                name="comment_on_one_thing",
                violation_error_code="comment_target",
                violation_error_message=_("Un commentaire porte sur une question ou une carte."),
            ),
        ]

    def __str__(self):
        text = " ".join(self.text.split())
        return text if len(text) <= 60 else text[:59] + "…"

    @property
    def target(self):
        return self.question if self.question_id else self.card

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
class ContentGeneration(models.Model):
    """How many writes a game's content has seen, and a stamp naming the last one.

    Written in the same transaction as each write (`cms.change_log`): the admin's kept reports
    (`cms.report_store`) compare it with the one they were computed at.
    """

    game = models.SlugField(_("jeu"), max_length=50, unique=True)
    number = models.PositiveIntegerField(_("numéro"), default=0)
    # Random, so that a generation rolled back and written again is never taken for the
    # one a report was computed at.
    stamp = models.CharField(_("marque"), max_length=32)

    class Meta:
        verbose_name = _("génération du contenu")
        verbose_name_plural = _("générations du contenu")

    def __str__(self):
        return f"{self.game} #{self.number}"


class ContentChange(models.Model):
    """A question or card one generation of a game changed (neither: the whole game)."""

    game = models.SlugField(_("jeu"), max_length=50)
    generation = models.PositiveIntegerField(_("génération"))
    stamp = models.CharField(_("marque"), max_length=32)
    # Plain numbers, not foreign keys: a deletion is a change too.
    question_id = models.PositiveIntegerField(_("question"), null=True, blank=True)
    card_id = models.PositiveIntegerField(_("carte"), null=True, blank=True)

    class Meta:
        verbose_name = _("changement du contenu")
        verbose_name_plural = _("changements du contenu")
        indexes = [models.Index(fields=["game", "generation"], name="change_game_generation")]

    def __str__(self):
        return f"{self.game} #{self.generation}"


class JobState(models.TextChoices):
    QUEUED = "queued", _("En attente")
    RUNNING = "running", _("En cours")
    DONE = "done", _("Terminé")
    FAILED = "failed", _("Échoué")


class Job(models.Model):
    """A background job (a big import, a print): queued, run by a worker, kept with its file.

    `cms.jobs` writes it; its kinds are registered there by the apps that run them. The key
    is random: a job's page address cannot be guessed from another's.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(_("genre"), max_length=40)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="jobs", verbose_name=_("demandé par"))
    label = models.CharField(_("travail"), max_length=300)
    params = models.JSONField(default=dict, blank=True)
    # The uploaded file a job reads (an import), in the media storage; deleted when it ends.
    upload = models.CharField(max_length=300, blank=True)
    state = models.CharField(_("état"), max_length=10, choices=JobState.choices,
                             default=JobState.QUEUED)
    # Runs begun: a run may finish the job only while it holds the last attempt.
    attempts = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # What the job found (an import's report, a refused print's problems) and why it failed.
    report = models.JSONField(default=dict, blank=True)
    message = models.TextField(blank=True)
    # Its result, in the media storage under travaux/, and the name it is downloaded as.
    file = models.CharField(max_length=300, blank=True)
    file_name = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(_("demandé le"), auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(_("fini le"), null=True, blank=True)
    expires = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("travail en arrière-plan")
        verbose_name_plural = _("travaux en arrière-plan")
        ordering = ["-created"]
        indexes = [models.Index(fields=["owner", "-created"]),
                   models.Index(fields=["state"])]

    def __str__(self):
        return self.label

    @property
    def ended(self) -> bool:
        return self.state in (JobState.DONE, JobState.FAILED)
