"""The Mind: 2 to 4 players lay the cards 1 to 100 in order together, without a word.

No turns: any seat plays its lowest card whenever it feels the moment has come, and the
server takes plays in the order it receives them. Each seat's hand is its own secret:
played in a room, a phone a player (`private_hands`), never on one shared screen.

Every number comes from `cms.games.the_mind.RULES`: the last level and the lives by
player count, the shuriken at start, the rewards and their caps. A level deals as many
cards to each player as its number, from the whole deck shuffled again. Before a level
starts, and again after each mistake, everyone puts a hand on the table (`ready`): the
concentration. A card played while a lower one is still in a hand costs a life, and every
lower card in every hand is discarded, shown to all; the level goes on. A shuriken needs
every player's agreement (`shuriken`, withdrawn by `shuriken_no`, dropped by any play):
each player then discards their lowest card, shown to all.

Blind mode: after a win, once every player agrees (`blind`), the table plays again from
level 1 with the lives and shurikens left, cards face down: no mistake is seen while a level
is played; once every card is down the pile is turned over, and each card laid on a higher
one costs a life (the interpretation settled here of « on les retourne pour vérifier
l'ordre »).
"""

from __future__ import annotations

from itertools import pairwise

from django.utils.translation import gettext as _

from cms.games.the_mind import LIFE, RULES, SHURIKEN

from .base import TABLE, Refused, State, Step, dice, evolve, int_field

CONCENTRATING = "concentrating"  # every hand on the table before playing (again)
PLAYING = "playing"
OVER = "over"

WON, LOST = "won", "lost"
NEWS = ("mistake", "shuriken", "level_won", "game_over", "checked", "blind")


class TheMindEngine:
    slug = "the-mind"
    min_players = min(RULES.levels_by_players)
    max_players = max(RULES.levels_by_players)
    private_hands = True  # each seat sees only its own cards: played in a room
    waits_for_everyone = True  # no one plays while a phone sleeps: the clock is shared
    has_bots = True  # bots fill the empty seats of a room

    def needs(self, players: int) -> dict[str, int]:
        return {}  # the numbers are the game's own cards, not content from the library

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise Refused("players", _("De %(a)s à %(b)s joueurs.") % {
                "a": self.min_players, "b": self.max_players})
        count = len(players)
        state: State = {
            "seed": seed, "players": list(players),
            "last_level": RULES.levels_by_players[count],
            "lives": RULES.lives_by_players[count], "shurikens": RULES.start_shurikens,
            "level": 0, "hands": [], "pile": [], "discarded": [], "ready": [],
            "votes": [], "mistakes": 0, "reward": "", "result": "", "phase": CONCENTRATING,
            "news": [],
        }
        _deal(state, 1)
        return state

    def apply(self, state: State, action: dict):
        kind = action.get("type")
        handler = {"ready": self._ready, "play": self._play, "shuriken": self._shuriken,
                   "shuriken_no": self._shuriken_no, "blind": self._blind,
                   }.get(kind if isinstance(kind, str) else "")
        if handler is None or (state["phase"] == OVER and kind != "blind"):
            raise Refused("unknown_action")
        step = Step(evolve(state))
        seat = int_field(action, "seat", low=0, high=len(state["players"]) - 1)
        handler(step, seat, action)
        # What the table must be told until the next level starts: a mistake and what it
        # cost, a shuriken's discards, a level won and its reward.
        news = [event for event in step.events if event["type"] in NEWS]
        if news:
            step.state["news"] = news
        return step.state, step.events

    def _ready(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != CONCENTRATING or state["ready"][seat]:
            raise Refused("wrong_phase")
        state["ready"][seat] = True
        step.emit("ready", seat=seat)
        if all(state["ready"]):
            state["phase"] = PLAYING
            state["news"] = []
            step.emit("started", level=state["level"])

    def _play(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != PLAYING:
            raise Refused("wrong_phase", _("Tout le monde doit d’abord poser la main."))
        hand = state["hands"][seat]
        card = int_field(action, "card", low=RULES.cards[0], high=RULES.cards[1])
        # The card names the play: sent twice, the second finds it gone and changes nothing.
        if not hand or card != hand[0]:
            raise Refused("not_lowest", _("On joue sa plus petite carte."))
        hand.pop(0)
        state["pile"].append(card)
        state["votes"] = [False] * len(state["players"])
        step.emit("played", seat=seat, card=card)
        if state.get("blind"):  # face down: the order is checked once every card is down
            self._after_cards_left(step, concentrate=False)
            return
        lower = [{"seat": other, "card": c} for other, cards in enumerate(state["hands"])
                 for c in cards if c < card]
        if lower:
            state["lives"] -= 1
            state["mistakes"] += 1
            for other, cards in enumerate(state["hands"]):
                state["hands"][other] = [c for c in cards if c > card]
            state["discarded"] += lower
            step.emit("mistake", seat=seat, card=card, discarded=lower, lives=state["lives"])
            if state["lives"] <= 0:
                self._end(step, LOST)
                return
        self._after_cards_left(step, concentrate=bool(lower))

    def _shuriken(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != PLAYING or state["votes"][seat]:
            raise Refused("wrong_phase")
        if state["shurikens"] <= 0:
            raise Refused("no_shuriken", _("Il ne reste aucun shuriken."))
        state["votes"][seat] = True
        step.emit("shuriken_vote", seat=seat)
        if not all(state["votes"]):
            return
        state["shurikens"] -= 1
        state["votes"] = [False] * len(state["players"])
        thrown = [{"seat": other, "card": cards.pop(0)}
                  for other, cards in enumerate(state["hands"]) if cards]
        state["discarded"] += thrown
        step.emit("shuriken", discarded=thrown, shurikens=state["shurikens"])
        self._after_cards_left(step, concentrate=False)

    def _shuriken_no(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != PLAYING or not state["votes"][seat]:
            raise Refused("wrong_phase")
        state["votes"][seat] = False
        step.emit("shuriken_withdrawn", seat=seat)

    def _after_cards_left(self, step: Step, *, concentrate: bool) -> None:
        """Close the level once every hand is empty; else concentrate again after a mistake."""
        state = step.state
        if any(state["hands"]):
            if concentrate:
                state["phase"] = CONCENTRATING
                state["ready"] = [False] * len(state["players"])
            return
        level = state["level"]
        if state.get("blind"):
            # The pile is turned over: each card laid on a higher one costs a life.
            pile = state["pile"]
            errors = sum(1 for below, above in pairwise(pile) if above < below)
            state["lives"] -= errors
            state["mistakes"] += errors
            step.emit("checked", pile=list(pile), errors=errors, lives=max(state["lives"], 0))
            if state["lives"] <= 0:
                state["lives"] = 0
                self._end(step, LOST)
                return
        reward = RULES.rewards.get(level, "")
        # At the cap, the reward card stays in the box: nothing is won, nothing is said.
        if reward == LIFE and state["lives"] < RULES.max_lives:
            state["lives"] += 1
        elif reward == SHURIKEN and state["shurikens"] < RULES.max_shurikens:
            state["shurikens"] += 1
        else:
            reward = ""
        state["reward"] = reward
        step.emit("level_won", level=level, reward=reward)
        if level >= state["last_level"]:
            self._end(step, WON)
            return
        _deal(state, level + 1)

    def _blind(self, step: Step, seat: int, action: dict) -> None:
        """After a win, everyone agrees to play again from level 1, cards face down, with
        the lives and shurikens left."""
        state = step.state
        if state["phase"] != OVER or state["result"] != WON or state.get("blind"):
            raise Refused("wrong_phase", _("Le mode aveugle se joue après une victoire."))
        if state["votes"][seat]:
            raise Refused("wrong_phase")
        state["votes"][seat] = True
        step.emit("blind_vote", seat=seat)
        if not all(state["votes"]):
            return
        state["blind"] = True
        state["result"] = ""
        state["mistakes"] = 0
        _deal(state, 1)
        step.emit("blind", level=1)

    def _end(self, step: Step, result: str) -> None:
        step.state["result"] = result
        step.state["phase"] = OVER
        step.state["votes"] = [False] * len(step.state["players"])  # for the blind mode
        step.emit("game_over", result=result)

    def view(self, state: State, seat=TABLE) -> dict:
        """What a seat may see: its own hand, and of the others only how many cards they hold."""
        mine = None if seat is TABLE else list(state["hands"][seat])
        blind = bool(state.get("blind"))
        # Face down, the pile is a count until it is turned over.
        pile = [] if blind else list(state["pile"])
        return {
            "blind": blind, "pile_count": len(state["pile"]),
            "can_blind": state["phase"] == OVER and state["result"] == WON and not blind,
            "phase": state["phase"], "level": state["level"], "last_level": state["last_level"],
            "lives": state["lives"], "shurikens": state["shurikens"],
            "pile": pile, "top": pile[-1] if pile else None,
            "discarded": [dict(d) for d in state["discarded"]],
            "players": [{"seat": n, "name": name, "cards": len(state["hands"][n]),
                         "ready": state["ready"][n], "shuriken": state["votes"][n]}
                        for n, name in enumerate(state["players"])],
            "votes": sum(state["votes"]),
            # Once the game is over, what was left in each hand is shown to all.
            "left": [{"name": name, "cards": list(state["hands"][n])}
                     for n, name in enumerate(state["players"]) if state["hands"][n]]
            if state["phase"] == OVER else [],
            "news": [_told(event, state["players"]) for event in state.get("news", [])],
            "seat": seat, "hand": mine, "reward": state["reward"], "result": state["result"],
            "finished": state["phase"] == OVER,
        }

    def deadline(self, state: State):
        return None

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER

    def bot_action(self, state: State, bots) -> tuple[float, dict] | None:
        return bot_action(state, bots)


# --- bots: they fill the empty seats of a room -------------------------------------------------

# A bot keeps the table's unspoken clock: it waits, from the moment the pile last changed,
# about BOT_PACE seconds for each number between the pile's top and its lowest card, give
# or take BOT_JITTER, then plays that card. Two close cards in different hands are where
# a team errs, bots as people.
BOT_PACE = 0.25
BOT_JITTER = 0.2
# A bot whose lowest card is this far above the pile agrees to a shuriken proposed.
BOT_SHURIKEN_GAP = 30


def bot_wait(state: State, seat: int) -> float | None:
    """Seconds the bot at `seat` waits, from the pile's last change, before playing its
    lowest card; None when it has nothing to play now."""
    hand = state["hands"][seat]
    if state["phase"] != PLAYING or not hand:
        return None
    top = state["pile"][-1] if state["pile"] else 0
    rng = dice(state, "bot", seat, state["level"], len(state["pile"]),
               len(state["discarded"]), state["mistakes"])
    return round(BOT_PACE * (hand[0] - top) * rng.uniform(1 - BOT_JITTER, 1 + BOT_JITTER), 3)


def bot_wants_shuriken(state: State, seat: int) -> bool:
    """Whether the bot at `seat` proposes, or agrees to, throwing a shuriken now.

    Only with a shuriken to spare and cards in its hand. It proposes one on the last
    life with several cards still to play at the table; it agrees to another's proposal
    then too, or when its own lowest card is far above the pile (a long, risky wait).
    """
    hand = state["hands"][seat]
    if state["phase"] != PLAYING or state["shurikens"] <= 0 or not hand:
        return False
    cards_left = sum(len(cards) for cards in state["hands"])
    if state["lives"] == 1 and cards_left >= 2 * len(state["players"]):
        return True
    top = state["pile"][-1] if state["pile"] else 0
    return any(state["votes"]) and hand[0] - top >= BOT_SHURIKEN_GAP


def bot_action(state: State, bots) -> tuple[float, dict] | None:
    """What the bots at the seats `bots` do next, and after how many seconds from the
    pile's last change: put their hands on the table at once, vote a shuriken they want
    at once, or play the first lowest card whose wait runs out. None: nothing to do."""
    seats = sorted(bots)
    if state["phase"] == OVER:  # after a win, the bots are game for the blind mode
        waiting = [seat for seat in seats if not state["votes"][seat]]
        if state["result"] == WON and not state.get("blind") and waiting:
            return 0.0, {"type": "blind", "seat": waiting[0]}
        return None
    if state["phase"] == CONCENTRATING:
        waiting = [seat for seat in seats if not state["ready"][seat]]
        return (0.0, {"type": "ready", "seat": waiting[0]}) if waiting else None
    for seat in seats:
        if not state["votes"][seat] and bot_wants_shuriken(state, seat):
            return 0.0, {"type": "shuriken", "seat": seat}
    waits = [(wait, seat) for seat in seats if (wait := bot_wait(state, seat)) is not None]
    if not waits:
        return None
    wait, seat = min(waits)
    return wait, {"type": "play", "seat": seat, "card": state["hands"][seat][0]}


def _told(event: dict, players: list[str]) -> dict:
    """Return an event as the table reads it: seats named."""
    told = {key: value for key, value in event.items() if key not in ("seat", "discarded")}
    if "seat" in event:
        told["name"] = players[event["seat"]]
    if "discarded" in event:
        told["discarded"] = [{"name": players[d["seat"]], "card": d["card"]}
                             for d in event["discarded"]]
    return told


def _deal(state: State, level: int) -> None:
    """Shuffle the whole deck again and deal `level` cards to each player, sorted."""
    low, high = RULES.cards
    deck = list(range(low, high + 1))
    dice(state, "level", level, state["mistakes"]).shuffle(deck)
    count = len(state["players"])
    state["level"] = level
    state["hands"] = [sorted(deck[n * level:(n + 1) * level]) for n in range(count)]
    state["pile"], state["discarded"] = [], []
    state["ready"] = [False] * count
    state["votes"] = [False] * count
    state["phase"] = CONCENTRATING


ENGINE = ROOM_ENGINE = TheMindEngine()
