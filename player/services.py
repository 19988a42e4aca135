"""Start a game, apply an action with a version check, record what was answered.

Every write of the player goes through here, whatever the door (a page, a test, a bench).
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from cms import change_log
from cms.games import GAMES
from cms.models import Question

from . import content as library
from .engines import ENGINES, ROOM_ENGINES
from .engines.base import ANSWERED, OVERRIDDEN, SHOWN, Event, NotEnoughContent, Refused
from .models import Answer, Play

MAX_NAME = 30


class Stale(Exception):
    """The action was built on a version of the game that is no longer the current one."""


@dataclass(frozen=True)
class Outcome:
    play: Play
    events: list[Event]


def clean_players(game_slug: str, names: list[str]) -> list[str]:
    """Return the players' names, stripped, or refuse a table the game cannot seat."""
    engine = ENGINES[game_slug]
    players = [name for name in (visible(n) for n in names) if name]
    if any(len(name) > MAX_NAME for name in players):
        raise Refused("name_too_long", _("Un nom tient en %(n)s caractères au plus.")
                      % {"n": MAX_NAME})
    if len({name.casefold() for name in players}) != len(players):
        raise Refused("same_name", _("Deux joueurs ne peuvent pas avoir le même nom."))
    if not engine.min_players <= len(players) <= engine.max_players:
        raise Refused("players", players_label(engine))
    return players


def visible(name: str) -> str:
    """Return a name as people see it: one Unicode form, no invisible or control characters."""
    name = unicodedata.normalize("NFC", name or "")
    name = "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cf", "Co", "Cs"))
    return " ".join(name.split())


def players_label(engine) -> str:
    """Return how many play, as the setup page says it: « De 2 à 4 joueurs. »"""
    if engine.max_players == 1:
        return _("Un seul joueur.")
    return _("De %(a)s à %(b)s joueurs.") % {"a": engine.min_players, "b": engine.max_players}


def on_one_screen(game: str) -> bool:
    """Whether a game is played by a whole table on one shared screen (a browser's `Play`)."""
    return game in ENGINES and not ENGINES[game].private_hands


def start_play(*, game: str, players: list[str], browser: str, seed: int | None = None,
               now: float | None = None, options: dict[str, bool] | None = None) -> Play:
    """Draw the content and start a game for this browser; refuse a table or a library too small."""
    if not on_one_screen(game):
        raise Refused("not_on_one_screen",
                      _("Ce jeu se joue en salle, chacun sur son téléphone."))
    engine = ENGINES[game]
    players = clean_players(game, players)
    seed = secrets.randbits(48) if seed is None else seed
    state = started(engine, game=game, players=players, browser=browser, seed=seed, now=now,
                    options=options)
    return Play.objects.create(game=game, browser=browser, players=players, seed=seed,
                               state=state, finished=engine.finished(state))


def started(engine, *, game: str, players: list[str], browser: str, seed: int,
            now: float | None = None, options: dict[str, bool] | None = None) -> dict:
    """Draw the content for `browser` and return the engine's first state, or refuse a
    library too small for one game. `options` are the variants chosen, for an engine that
    offers some (any other key is left out)."""
    drawn = library.draw(game, engine.needs(len(players)), seed=seed, browser=browser)
    extra = {}
    if getattr(engine, "options", ()):
        extra["options"] = {o.slug: bool((options or {}).get(o.slug)) for o in engine.options}
    try:
        return engine.start(GAMES[game], drawn, players, seed,
                            now=time.time() if now is None else now, **extra)
    except NotEnoughContent as short:
        raise Refused("not_enough_content", _(
            "Pas assez de contenu publié pour une partie : il faut %(needed)s « %(kind)s », "
            "la bibliothèque en a %(available)s.") % {
            "needed": short.needed, "kind": GAMES[game].kind(short.kind).label_plural,
            "available": short.available}) from None


def play_again(play: Play) -> Play:
    """Start the same table's next game in the same browser: the same players and variants,
    in the order the engine's rules give for a next game (`next_table`), else the same."""
    engine = ENGINES[play.game]
    if play.in_room or not play.finished:
        raise Refused("not_over", _("La partie n’est pas finie."))
    players, options = (engine.next_table(play.state) if hasattr(engine, "next_table")
                        else (list(play.players), {}))
    return start_play(game=play.game, players=players, browser=play.browser, options=options)


def engine_of(play: Play):
    """Return the engine that plays `play`: the game's room engine for a room's game."""
    return ROOM_ENGINES[play.game] if play.in_room else ENGINES[play.game]


def catch_up(play: Play, *, now: float | None = None) -> Play:
    """Apply a clock that ran out since the last action; return the game as it stands now."""
    engine = engine_of(play)
    now = time.time() if now is None else now
    while (deadline := engine.deadline(play.state)) is not None and now >= deadline:
        try:
            play = act(play=play, version=play.version, action={"type": "timeout"},
                       now=deadline).play
        except Stale:
            play.refresh_from_db()
    return play


def act(*, play: Play, version, action: dict, now: float | None = None,
        also: Callable[[], None] | None = None) -> Outcome:
    """Apply one action to the game at `version`; refuse it if the game has moved on since.

    The engine works out the new state before the write, so the write's transaction is
    short: a database with one writer at a time (SQLite) is held only for it. `also` runs
    in that transaction, first: another write that stands or falls with this one (an
    exception from it cancels both)."""
    engine = engine_of(play)
    if str(version) != str(play.version):
        raise Stale()
    # The server's clock, always: whatever "now" a client sent is overwritten.
    action = {**action, "now": time.time() if now is None else now}
    if action.get("type") != "timeout":
        play = catch_up(play, now=action["now"])
        if str(version) != str(play.version):
            raise Stale()
    state, events = engine.apply(play.state, action)
    finished = engine.finished(state)
    with transaction.atomic():
        if also is not None:
            also()
        moved = Play.objects.filter(pk=play.pk, version=play.version).update(
            state=state, version=play.version + 1, finished=finished)
        if not moved:
            raise Stale()
        record(play, events)
    play.state, play.version, play.finished = state, play.version + 1, finished
    return Outcome(play, events)


def record(play: Play, events: list[Event]) -> None:
    """Keep every answer given and every question shown, for the editors and the next draw."""
    if not any(e["type"] in (ANSWERED, SHOWN, OVERRIDDEN) for e in events):
        return
    # A question deleted since the game drew it is played to the end, not recorded.
    exists = set(Question.objects.filter(pk__in={e.get("question") for e in events})
                 .values_list("pk", flat=True))
    events = [e for e in events if e.get("question") in exists]
    answers = [Answer(play=play, question_id=e["question"], browser=play.browser,
                      seat=e.get("seat") or 0, mode=str(e.get("mode", ""))[:20],
                      right=bool(e["right"]), given=str(e.get("given", ""))[:200],
                      seconds=e.get("seconds"))
               for e in events if e["type"] == ANSWERED]
    Answer.objects.bulk_create(answers)
    for event in events:
        if event["type"] == OVERRIDDEN:
            last = (Answer.objects.filter(play=play, question_id=event["question"],
                                          seat=event.get("seat") or 0)
                    .order_by("-answered_at", "-pk").first())
            if last is not None:
                Answer.objects.filter(pk=last.pk).update(overridden=True)
    # Answers calibrate the questions: the editors' kept problems follow.
    change_log.record_questions({e["question"] for e in events
                                 if e["type"] in (ANSWERED, OVERRIDDEN)})
    library.mark_seen(play.browser, [e["question"] for e in events
                                     if e["type"] in (ANSWERED, SHOWN)])
