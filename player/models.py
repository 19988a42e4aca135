"""Games in progress, kept on the server, and every answer given, for the editors."""

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from cms.games import GAMES


def new_token() -> str:
    """Return an unguessable public name for a game."""
    return secrets.token_urlsafe(16)


class Play(models.Model):
    """One game at one table: the engine's state, versioned so a stale action is refused."""

    token = models.CharField(_("jeton"), max_length=32, unique=True, default=new_token,
                             editable=False)
    game = models.CharField(_("jeu"), max_length=40)  # a slug of cms.games.GAMES
    browser = models.CharField(_("navigateur"), max_length=64, db_index=True)
    players = models.JSONField(_("joueurs"))
    seed = models.BigIntegerField(_("graine"))
    state = models.JSONField(_("état"))
    version = models.PositiveIntegerField(_("version"), default=1)
    finished = models.BooleanField(_("terminée"), default=False, db_index=True)
    # Played in a room, a device a seat, by the game's room engine: never on one screen.
    in_room = models.BooleanField(_("en salle"), default=False)
    created_at = models.DateTimeField(_("commencée le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("jouée le"), auto_now=True)

    class Meta:
        verbose_name = _("partie")
        verbose_name_plural = _("parties")
        ordering = ["-updated_at"]

    def __str__(self):
        return f"{GAMES[self.game].name} · {', '.join(self.players)}"

    @property
    def spec(self):
        return GAMES[self.game]


class Answer(models.Model):
    """An answer given in play: what calibrates a question's difficulty."""

    play = models.ForeignKey(Play, verbose_name=_("partie"), null=True,
                             on_delete=models.SET_NULL, related_name="answers")
    question = models.ForeignKey("cms.Question", verbose_name=_("question"),
                                 on_delete=models.CASCADE, related_name="answers")
    browser = models.CharField(_("navigateur"), max_length=64, db_index=True)
    seat = models.PositiveSmallIntegerField(_("place"), default=0)
    mode = models.CharField(_("mode"), max_length=20)
    right = models.BooleanField(_("juste"))
    overridden = models.BooleanField(
        _("accepté par la table"), default=False,
        help_text=_("Jugée fausse, puis acceptée quand même par les joueurs."))
    given = models.CharField(_("réponse donnée"), max_length=200, blank=True)
    seconds = models.FloatField(_("temps de réponse (s)"), null=True, blank=True)
    answered_at = models.DateTimeField(_("répondue le"), auto_now_add=True)

    class Meta:
        verbose_name = _("réponse")
        verbose_name_plural = _("réponses")
        ordering = ["-answered_at"]

    def __str__(self):
        return f"{self.question_id} · {'✓' if self.right else '✗'}"


class Seen(models.Model):
    """A question a browser has been shown, so it comes back only when the pool runs out."""

    browser = models.CharField(_("navigateur"), max_length=64)
    question = models.ForeignKey("cms.Question", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(_("vue le"), auto_now=True)

    class Meta:
        verbose_name = _("question vue")
        verbose_name_plural = _("questions vues")
        constraints = [models.UniqueConstraint(fields=["browser", "question"],
                                               name="seen_once_per_browser")]

    def __str__(self):
        return f"{self.browser[:6]} · {self.question_id}"


ROOM_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowel: no word, no 0/O or 1/I to confuse
ROOM_CODE_LENGTH = 4


class Room(models.Model):
    """A game played by several devices: a short code to join, a seat a device."""

    code = models.CharField(_("code"), max_length=8, unique=True)
    game = models.CharField(_("jeu"), max_length=40)  # a slug of cms.games.GAMES
    host = models.CharField(_("hôte"), max_length=64)  # the browser that created it
    play = models.OneToOneField(Play, verbose_name=_("partie"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="room")
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    active_at = models.DateTimeField(_("active le"), auto_now=True, db_index=True)

    class Meta:
        verbose_name = _("salle")
        verbose_name_plural = _("salles")
        ordering = ["-active_at"]

    def __str__(self):
        return f"{self.code} · {GAMES[self.game].name}"

    @property
    def spec(self):
        return GAMES[self.game]


class Seat(models.Model):
    """A place in a room: a person's device (its browser id) or a bot."""

    room = models.ForeignKey(Room, verbose_name=_("salle"), on_delete=models.CASCADE,
                             related_name="seats")
    index = models.PositiveSmallIntegerField(_("place"))
    name = models.CharField(_("nom"), max_length=30)
    browser = models.CharField(_("navigateur"), max_length=64, blank=True)  # "" for a bot
    bot = models.BooleanField(_("robot"), default=False)
    # The last intent this seat's devices sent that the server took: a replay or a
    # duplicate (a number not above it) changes nothing.
    last_seq = models.BigIntegerField(_("dernier message"), default=0)
    seen_at = models.DateTimeField(_("vue le"), null=True, blank=True)
    left_at = models.DateTimeField(_("partie le"), null=True, blank=True)
    # The seat's open connections (a phone may have the room in two tabs): online while one
    # is, and while its pages' pings keep `seen_at` fresh (a server that stopped dead never
    # counted its connections down).
    connections = models.PositiveSmallIntegerField(_("connexions"), default=0)

    class Meta:
        verbose_name = _("place")
        verbose_name_plural = _("places")
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(fields=["room", "browser"], name="one_seat_per_browser",
                                    condition=~models.Q(browser="")),
        ]

    def __str__(self):
        return f"{self.room.code} · {self.index} · {self.name}"
