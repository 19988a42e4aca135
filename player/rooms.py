"""Rooms: a game played by several devices, each on its own seat, the server the only authority.

Every write of a room goes through here, whatever the door (a page's form, a WebSocket
intent, a bot's timer, a command). A device is its browser id (the player's signed cookie);
a seat is a device's for the whole room, so a phone that slept comes back to the same seat.

An intent from a device carries a sequence number: the seat keeps the highest it took, and
a number not above it is a replay or a duplicate, answered and never applied again. The seat
is the server's to say (a device never names one), the engine checks the phase and the state.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from . import services
from .engines import ROOM_ENGINES
from .engines.base import Refused
from .models import ROOM_CODE_LENGTH, ROOM_CODE_LETTERS, Play, Room, Seat

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
# Intents a device's sequence numbers may reach: a JavaScript number stays exact below 2**53.
MAX_SEQ = 2**53


def group_name(code: str) -> str:
    """The channel layer's group of a room's devices, on every server process."""
    return f"room.{code}"


def changed() -> dict:
    """The message that tells a room's devices it changed. Its stamp names this change: the
    devices of one process that receive it read the room once between them."""
    return {"type": "room.changed", "stamp": secrets.token_hex(8)}


class RoomGone(Exception):
    """No room has this code (never had, or cleaned up since)."""


@dataclass(frozen=True)
class Result:
    """What became of an intent: applied (the room changed), refused (why), or a duplicate."""

    changed: bool = False
    duplicate: bool = False
    code: str = ""
    message: str = ""
    last_seq: int = 0  # the seat's highest number taken, told with a duplicate


@dataclass
class Snapshot:
    """A room as it stands: what a device's page is drawn from."""

    room: Room
    seats: list[Seat]
    play: Play | None
    phase: str
    version: int
    bots: list[int] = field(default_factory=list)

    def seat_of(self, browser: str | None) -> Seat | None:
        return next((s for s in self.seats if browser and s.browser == browser), None)


def engine_for(game: str):
    return ROOM_ENGINES[game]


def normal_code(code: str) -> str:
    """Return a code as typed by a person (« bcd f », "BCDF") as stored: "BCDF"."""
    return "".join(str(code or "").split()).upper()[:ROOM_CODE_LENGTH * 2]


def find(code: str, *, lock: bool = False) -> Room:
    """Return the room of `code`: locked, inside a transaction, for a write to its seats;
    else with its game, read in the same query."""
    rooms = Room.objects.select_for_update() if lock else Room.objects.select_related("play")
    try:
        return rooms.get(code=normal_code(code))
    except Room.DoesNotExist:
        raise RoomGone(code) from None


def create_room(*, game: str, browser: str) -> Room:
    """Open a room for `game`, hosted by `browser`, with a code no open room has."""
    if game not in ROOM_ENGINES:
        raise Refused("not_in_room", _("Ce jeu ne se joue pas en salle."))
    clean_idle()
    for _attempt in range(20):
        code = "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ROOM_CODE_LENGTH))
        try:
            with transaction.atomic():
                return Room.objects.create(code=code, game=game, host=browser)
        except IntegrityError:
            continue
    raise Refused("no_code", _("Trop de salles ouvertes : réessayez dans un instant."))


def clean_idle(*, now=None) -> int:
    """Delete the rooms nobody has played in for PLATEAU_ROOM_IDLE_HOURS, and their games."""
    now = now or timezone.now()
    idle = Room.objects.filter(
        active_at__lt=now - timedelta(hours=settings.PLATEAU_ROOM_IDLE_HOURS))
    plays = list(idle.exclude(play=None).values_list("play", flat=True))
    count, _by_model = idle.delete()
    Play.objects.filter(pk__in=plays).delete()
    return count


def of_browser(browser: str, *, limit: int = 5) -> list[Room]:
    """The open rooms a browser hosts or has a seat in, the latest played first."""
    return list(Room.objects.filter(Q(host=browser) | Q(seats__browser=browser))
                .distinct().order_by("-active_at")[:limit])


def phase_of(room: Room, play: Play | None) -> str:
    if play is None:
        return LOBBY
    return OVER if play.finished else PLAYING


def snapshot(code: str) -> Snapshot:
    """Return the room, its seats and its game, read together."""
    room = find(code)
    play = room.play
    seats = list(room.seats.all())
    bots = [s.index for s in seats if s.bot]
    return Snapshot(room=room, seats=seats, play=play, phase=phase_of(room, play),
                    version=play.version if play else 0, bots=bots)


# A page pings every PING_EVERY seconds; a seat unheard of for this long is offline.
PING_EVERY = 20
SILENT = timedelta(seconds=3 * PING_EVERY)


def online(seat: Seat, *, now=None) -> bool:
    """Whether a device holds this seat now (a bot always does)."""
    if seat.bot:
        return True
    now = now or timezone.now()
    return seat.connections > 0 and seat.seen_at is not None and now - seat.seen_at < SILENT


def _lobby(room: Room) -> None:
    if room.play_id is not None:
        raise Refused("started", _("La partie a déjà commencé."))


def _host(room: Room, browser: str) -> None:
    if room.host != browser:
        raise Refused("not_host", _("Seul l’hôte de la salle peut faire cela."))


def _touch(room: Room) -> None:
    """Mark the room played in now (what idle cleaning reads), at most once a minute: a
    write less for most intents."""
    now = timezone.now()
    if room.active_at is None or now - room.active_at > timedelta(minutes=1):
        Room.objects.filter(pk=room.pk).update(active_at=now)


def _free_index(room: Room) -> int:
    engine = engine_for(room.game)
    taken = room.seats.count()
    if taken >= engine.max_players:
        raise Refused("full", _("La salle est complète (%(n)s places).")
                      % {"n": engine.max_players})
    return taken  # the seats are numbered from 0 without a gap (see _renumber)


def join(*, code: str, name: str, browser: str) -> Seat:
    """Give `browser` a seat under `name`; a device already seated keeps its seat."""
    with transaction.atomic():
        room = find(code, lock=True)
        seat = room.seats.filter(browser=browser).first()
        if seat is not None:
            return seat
        _lobby(room)
        name = services.visible(name)
        if not name:
            raise Refused("no_name", _("Indiquez votre nom."))
        if len(name) > services.MAX_NAME:
            raise Refused("name_too_long", _("Un nom tient en %(n)s caractères au plus.")
                          % {"n": services.MAX_NAME})
        if any(s.name.casefold() == name.casefold() for s in room.seats.all()):
            raise Refused("same_name", _("Quelqu’un porte déjà ce nom dans la salle."))
        seat = Seat.objects.create(room=room, index=_free_index(room), name=name,
                                   browser=browser)
        _touch(room)
        return seat


def leave(*, code: str, browser: str) -> None:
    """Give up one's seat before the game starts; the seats after it move up."""
    with transaction.atomic():
        room = find(code, lock=True)
        _lobby(room)
        seat = room.seats.filter(browser=browser).first()
        if seat is None:
            return
        seat.delete()
        _renumber(room)
        _touch(room)


def _renumber(room: Room) -> None:
    for index, seat in enumerate(room.seats.order_by("index")):
        if seat.index != index:
            Seat.objects.filter(pk=seat.pk).update(index=index)


def add_bot(*, code: str, browser: str) -> Seat:
    """Seat a bot (the host only, before the game starts)."""
    with transaction.atomic():
        room = find(code, lock=True)
        _host(room, browser)
        _lobby(room)
        if not engine_for(room.game).has_bots:
            raise Refused("no_bots", _("Ce jeu se joue sans robot."))
        index = _free_index(room)
        taken = {s.name.casefold() for s in room.seats.all()}
        name = next(name for n in range(1, index + 2)
                    if (name := _("Robot %(n)s") % {"n": n}).casefold() not in taken)
        seat = Seat.objects.create(room=room, index=index, bot=True, name=name)
        _touch(room)
        return seat


def remove_bot(*, code: str, browser: str) -> None:
    """Take the last bot off its seat (the host only, before the game starts)."""
    with transaction.atomic():
        room = find(code, lock=True)
        _host(room, browser)
        _lobby(room)
        bot = room.seats.filter(bot=True).order_by("-index").first()
        if bot is None:
            raise Refused("no_bot", _("Aucun robot à retirer."))
        bot.delete()
        _renumber(room)
        _touch(room)


def remove_seat(*, code: str, browser: str, index: int) -> None:
    """Take a person off their seat before the game starts (the host only, never their own
    seat): a player who left for good, or sat by mistake."""
    with transaction.atomic():
        room = find(code, lock=True)
        _host(room, browser)
        _lobby(room)
        seat = room.seats.filter(index=index, bot=False).exclude(browser=browser).first()
        if seat is None:
            raise Refused("no_seat", _("Personne à retirer à cette place."))
        seat.delete()
        _renumber(room)
        _touch(room)


def abandon(*, code: str, browser: str) -> None:
    """Stop the room's game and go back to the lobby (the host only): a table stuck waiting
    for a player who will not come back, or that wants to change its seats."""
    with transaction.atomic():
        room = find(code, lock=True)
        _host(room, browser)
        if room.play_id is None:
            raise Refused("not_playing", _("Aucune partie en cours."))
        old = room.play
        room.play = None
        room.save(update_fields=["play", "active_at"])
        if old is not None:
            old.delete()


def start(*, code: str, browser: str, seed: int | None = None) -> Play:
    """Start the room's game with its seats (the host only); after a game, start another."""
    with transaction.atomic():
        room = find(code, lock=True)
        _host(room, browser)
        old = Play.objects.filter(pk=room.play_id).first() if room.play_id else None
        if old is not None and not old.finished:
            raise Refused("started", _("La partie a déjà commencé."))
        engine = engine_for(room.game)
        seats = list(room.seats.all())
        if not engine.min_players <= len(seats) <= engine.max_players:
            raise Refused("players", services.players_label(engine))
        names = [s.name for s in seats]
        seed = secrets.randbits(48) if seed is None else seed
        state = services.started(engine, game=room.game, players=names, browser=room.host,
                                 seed=seed)
        play = Play.objects.create(game=room.game, browser=room.host, players=names, seed=seed,
                                   state=state, finished=engine.finished(state), in_room=True)
        room.play = play
        room.save(update_fields=["play", "active_at"])
        if old is not None:
            old.delete()
        return play


class _Moved(Exception):
    """The room changed between an intent's read and its write: read it again."""


def intent(*, code: str, browser: str, seq, action: dict) -> Result:
    """Apply one device's intent to the room's game, once, as its seat; say what became of it."""
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 < seq < MAX_SEQ:
        return Result(code="bad_seq", message=_("Ce message n’est pas valable."))
    for _attempt in range(10):
        try:
            return _intent_once(code=code, browser=browser, seq=seq, action=action)
        except (_Moved, services.Stale):
            continue
    return Result(code="busy", message=_("La salle est très sollicitée : réessayez."))


def _intent_once(*, code: str, browser: str, seq: int, action: dict) -> Result:
    """Read the room, work out what becomes of the intent, then write it in one short
    transaction that finds the room as it was read, or raises _Moved or Stale (the intent is
    read again). A database with one writer at a time (SQLite) is held for the write alone,
    not for the reading and the engine's work."""
    room = find(code)
    seats = list(room.seats.all())
    seat = next((s for s in seats if browser and s.browser == browser), None)
    if seat is None:
        return Result(code="not_seated", message=_("Vous n’avez pas de place dans cette "
                                                   "salle."))
    if seq <= seat.last_seq:
        return Result(duplicate=True, last_seq=seat.last_seq)
    play = room.play

    def claim() -> None:
        """Take the seat's number, once (another tab of the seat may have just taken it)."""
        if not Seat.objects.filter(pk=seat.pk, last_seq__lt=seq).update(last_seq=seq):
            raise _Moved()
        _touch(room)

    away = [s.name for s in seats if not online(s)]
    if play is None:  # a finished game may go on (The Mind's blind mode): its engine says
        refusal = Result(code="not_playing", message=_("Aucune partie en cours."))
    elif away and engine_for(room.game).waits_for_everyone:
        # The table waits for a player whose phone slept, as around a real one.
        refusal = Result(code="waiting", message=_(
            "La partie attend : %(names)s (hors ligne).") % {"names": ", ".join(away)})
    elif action.get("type") == "timeout":  # a clock running out is the server's to say
        refusal = Result(code="bad_message", message=_("Ce message n’est pas valable."))
    else:
        # The seat is the server's to say: whatever a device wrote there is replaced.
        try:
            services.act(play=play, version=play.version,
                         action={**action, "seat": seat.index}, also=claim)
            return Result(changed=True)
        except Refused as refused:
            refusal = Result(code=refused.code, message=refused.message)
    # A refused intent takes its number too, if the game is still the one it was refused by.
    with transaction.atomic():
        same = Room.objects.filter(pk=room.pk, play=room.play_id)
        if play is not None:
            same = same.filter(play__version=play.version)
        if not same.exists():
            raise _Moved()
        claim()
    return refusal


def next_bot_action(snap: Snapshot) -> tuple[float, dict] | None:
    """What the room's bots do next and after how many seconds, if they play at all now:
    only while a game is on and every person at the table is connected (the table waits
    for a player whose phone slept)."""
    if snap.phase == LOBBY or not snap.bots or snap.play is None:
        return None  # a game over may still want them (The Mind's blind mode)
    if not all(online(s) for s in snap.seats):
        return None
    return engine_for(snap.room.game).bot_action(snap.play.state, snap.bots)


def bot_step(*, code: str, version: int) -> bool:
    """Let the bots do what they would do at `version`, if the game is still there; say
    whether they did."""
    try:
        snap = snapshot(code)
    except RoomGone:
        return False
    if snap.play is None or snap.version != version:
        return False
    planned = next_bot_action(snap)
    if planned is None:
        return False
    _wait, action = planned
    try:
        services.act(play=snap.play, version=version, action=action)
    except (services.Stale, Refused):
        return False
    _touch(snap.room)
    return True


def seen(*, code: str, browser: str, event: str) -> bool:
    """Count a connection of the device's seat opened ("connect") or closed ("disconnect"),
    or a page's ping ("ping"); say whether the seat went from offline to online or back,
    which the others must be shown."""
    with transaction.atomic():
        seat = (Seat.objects.select_for_update()
                .filter(room__code=normal_code(code), browser=browser).exclude(browser="")
                .first())
        if seat is None:
            return False
        now = timezone.now()
        before = online(seat, now=now)
        if event == "connect":
            seat.connections += 1
            seat.seen_at = now
        elif event == "disconnect":
            seat.connections = max(0, seat.connections - 1)
            seat.left_at = now
        else:
            seat.seen_at = now
            seat.connections = max(1, seat.connections)  # a page that pings is connected
        Seat.objects.filter(pk=seat.pk).update(connections=seat.connections,
                                               seen_at=seat.seen_at, left_at=seat.left_at)
        return online(seat, now=now) != before
