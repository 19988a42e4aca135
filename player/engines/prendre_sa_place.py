"""Tout le monde veut prendre sa place on one screen: Qualifs, La Compet', Super Cash, Le Défi.

From three players, seat 0 is the Champion: master of the game, they play only Le Défi.
At two there is no Champion until Le Défi (the rule text's variant): both play Les Qualifs
and La Compet', each on their own cards, and the better after La Compet' becomes the
Champion who picks both Défi themes. Les Qualifs and the Super Cash are answered aloud and
judged at once; La Compet' and Le Défi are written answers, kept hidden until their count,
which reveals one question at a time. Ties between players go to the earlier seat, as the
setup page asks players to be named youngest first.
"""

from __future__ import annotations

import json
from typing import overload

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cms.games.prendre_sa_place import SPEC

from ..judging import MAX_LENGTH, judge
from .base import (
    ANSWERED,
    OVERRIDDEN,
    TABLE,
    NotEnoughContent,
    Refused,
    State,
    Step,
    check_question,
    dice,
    evolve,
    int_field,
    pack,
    text_field,
)

# Phases, in play order.
QUALIFS = "qualifs"
COMPET_HANDOVER = "compet-handover"  # « passez l'écran à … » before written answers
COMPET = "compet"
COMPET_COUNT = "compet-count"
SUPER_CASH = "super-cash"
CHALLENGER_CHOICE = "challenger-choice"  # a tie after La Compet': the Champion chooses
DEFI_THEME = "defi-theme"
DEFI_HANDOVER = "defi-handover"
DEFI = "defi"
BLUFF = "bluff"
BLUFF_REPLY = "bluff-reply"
DEFI_COUNT = "defi-count"
OVER = "over"

ANSWERING_PHASES = (QUALIFS, COMPET, SUPER_CASH, DEFI)
DEFI_PHASES = (DEFI_THEME, DEFI_HANDOVER, DEFI, BLUFF, BLUFF_REPLY, DEFI_COUNT, OVER)

# Steps of a question.
CHOOSING = "format"  # the question is read; DUO, CARRÉ or CASH?
ANSWERING = "answer"
REVEALED = "reveal"

SUPER = "super-cash"  # the mode of a Super Cash answer (and the phase of its record)


def _needs(rules, players: int) -> dict[str, int]:
    """Return the units of each kind a game at this table draws."""
    duel = players == 2
    contenders = players if duel else players - 1
    return {"qualifs": contenders, "compet": contenders if duel else 1,
            "defi": rules.defi_themes_drawn}


def _playable(unit, questions: int, widest: int) -> bool:
    """Return whether a card holds enough questions, each with a right and enough wrong ones."""
    if len(unit.items) < questions:
        return False
    for item in unit.items[:questions]:
        right = sum(1 for c in item.choices if c.right)
        if right < 1 or len(item.choices) - right < widest - 1:
            return False
    return True


class PrendreSaPlaceEngine:
    slug = SPEC.slug
    min_players = 2
    max_players = 6
    private_hands = False  # the whole table plays on one shared screen

    def __init__(self, spec):
        self.spec = spec

    def needs(self, players: int) -> dict[str, int]:
        return _needs(self.spec.rules, players)

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        players = [str(name) for name in players]
        if not self.min_players <= len(players) <= self.max_players:
            raise Refused("players", _("Tout le monde veut prendre sa place se joue de %(a)s "
                                       "à %(b)s joueurs.") % {"a": self.min_players,
                                                             "b": self.max_players})
        rules = spec.rules
        slots = list(spec.kind("compet").slot_formats[: rules.compet_played])
        if any(slot not in rules.formats for slot in slots):
            raise ValueError("La Compet' plays only DUO, CARRÉ and CASH slots")
        lengths = {"qualifs": rules.qualifs_questions,
                   "compet": max(rules.compet_played, *rules.super_cash_pool),
                   "defi": rules.defi_questions}
        widest = max(f.propositions for f in rules.formats.values())
        cards = {}
        for kind, needed in _needs(rules, len(players)).items():
            usable = [u for u in content.get(kind, ()) if _playable(u, lengths[kind], widest)]
            if len(usable) < needed:
                raise NotEnoughContent(kind, needed, len(usable))
            # Through JSON once, so the state holds lists as it will after being saved.
            cards[kind] = [json.loads(json.dumps(pack(u))) for u in usable[:needed]]
        duel = len(players) == 2
        contenders = [0, 1] if duel else list(range(1, len(players)))
        qualifs_card: list[int | None] = [None] * len(players)
        for position, seat in enumerate(contenders):
            qualifs_card[seat] = position
        return {
            "seed": seed,
            "players": players,
            "duel": duel,
            "rules": {
                "formats": [{"slug": f.slug, "label": f.label, "points": f.points,
                             "propositions": f.propositions} for f in rules.formats.values()],
                "qualifs_questions": rules.qualifs_questions,
                "compet_starts": list(rules.compet_starts),
                "compet_slots": slots,
                "super_cash_points": rules.super_cash_points,
                "super_cash_pool": list(rules.super_cash_pool),
                "defi_questions": rules.defi_questions,
            },
            "cards": cards,
            "contenders": contenders,
            "champion": None if duel else 0,
            "challenger": None,
            "armchair": None if duel else 0,
            "phase": QUALIFS,
            "order": list(contenders),  # who answers, in turn, in the current phase
            "index": 0,
            "turn": contenders[0],
            "number": 0,  # the question's place on its card, from 0
            "step": CHOOSING,
            "format": None,
            "shown_at": now,
            "count": 0,  # the question being counted, from 0
            "qualifs_card": qualifs_card,  # by seat: which card of each kind it answers
            "compet_card": [None] * len(players),
            "super_cash": [None] * len(players),  # by seat: the Super Cash's place on the card
            "defi_card": [None] * len(players),
            "starts": [None] * len(players),  # by seat: the Compet' track start
            "picked": [],  # Défi cards chosen so far
            "tied": [],
            "bluff": None,
            "overridable": [],  # free answers judged wrong that the table may still accept
            "answers": [],
            "result": None,
            "news": {"code": "start"},
        }

    # --- actions -------------------------------------------------------------------------

    def apply(self, state: State, action: dict):
        kind = action.get("type") if isinstance(action, dict) else None
        handler = {
            "format": self._choose_format, "answer": self._answer, "next": self._next,
            "ready": self._ready, "override": self._override,
            "choose-challenger": self._choose_challenger, "pick-theme": self._pick_theme,
            "bluff": self._bluff, "no-bluff": self._no_bluff,
            "accept-bluff": self._reply_bluff, "refuse-bluff": self._reply_bluff,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            raise Refused("unknown_action")
        if state["phase"] == OVER:
            raise Refused("over", _("La partie est finie."))
        step = Step(evolve(state))
        handler(step, action)
        return step.state, step.events

    def _choose_format(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, (QUALIFS, DEFI), CHOOSING)
        chosen = text_field(action, "format", max_length=20)
        if chosen not in {f["slug"] for f in state["rules"]["formats"]}:
            raise Refused("bad_value")
        state["format"] = chosen
        state["step"] = ANSWERING
        state["news"] = {"code": "format", "seat": state["turn"], "mode": chosen}

    def _answer(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, ANSWERING_PHASES, ANSWERING)
        seat, item, mode = state["turn"], _item_in_play(state), _mode_in_play(state)
        if _free(state, mode):
            if "text" not in action:
                raise Refused("bad_value")
            given = text_field(action, "text", max_length=MAX_LENGTH)
            right = judge(given, _answer_text(item), item["variants"]).right
        else:
            shown = _propositions(state, item, mode)
            choice = int_field(action, "choice", low=0, high=len(shown) - 1)
            given, right = shown[choice]["text"], shown[choice]["right"]
        phase = state["phase"]
        record = {"phase": phase, "seat": seat, "number": _number(state),
                  "question": item["id"], "mode": mode, "given": given, "right": right,
                  "seconds": _elapsed(state, action), "counted": False, "overridden": False}
        state["answers"].append(record)
        if phase in (QUALIFS, SUPER_CASH):
            _count(step, len(state["answers"]) - 1)
            state["step"] = REVEALED
            state["news"] = {"code": "judged", "seat": seat, "mode": mode, "right": right,
                             "points": abs(_points(state, record)),
                             "answer": _answer_text(item)}
        elif phase == COMPET:
            self._after_entry(step, action, len(state["rules"]["compet_slots"]))
        else:
            self._after_entry(step, action, state["rules"]["defi_questions"])

    def _after_entry(self, step: Step, action: dict, questions: int) -> None:
        """Move on after a hidden answer: the next question, the next player, or the count."""
        state = step.state
        state["format"] = None
        if state["number"] + 1 < questions:
            state["number"] += 1
            state["shown_at"] = _now(action)
            state["step"] = ANSWERING if state["phase"] == COMPET else CHOOSING
            state["news"] = {"code": "stored", "n": state["number"] + 1, "of": questions}
            return
        done = state["turn"]
        if state["index"] + 1 < len(state["order"]):
            state["index"] += 1
            state["turn"] = state["order"][state["index"]]
            state["phase"] = COMPET_HANDOVER if state["phase"] == COMPET else DEFI_HANDOVER
            state["step"] = None
            state["news"] = {"code": "handover", "done": done, "seat": state["turn"]}
        elif state["phase"] == COMPET:
            self._begin_count(step, COMPET_COUNT, "compet")
        else:
            state["phase"] = BLUFF
            state["step"] = None
            state["turn"] = state["champion"]
            state["news"] = {"code": "bluff-time"}

    def _ready(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] not in (COMPET_HANDOVER, DEFI_HANDOVER):
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["turn"])
        compet = state["phase"] == COMPET_HANDOVER
        state["phase"] = COMPET if compet else DEFI
        state["number"] = 0
        state["step"] = ANSWERING if compet else CHOOSING
        state["format"] = None
        state["shown_at"] = _now(action)
        of = len(state["rules"]["compet_slots"]) if compet else state["rules"]["defi_questions"]
        state["news"] = {"code": "ready", "seat": state["turn"], "of": of}

    def _next(self, step: Step, action: dict) -> None:
        state = step.state
        phase = state["phase"]
        if not ((phase in (QUALIFS, SUPER_CASH) and state["step"] == REVEALED)
                or phase in (COMPET_COUNT, DEFI_COUNT)):
            raise Refused("not_now", _("Ce n’est pas le moment."))
        check_question(action, _item_in_play(state)["id"])
        state["overridable"] = []  # « accepter quand même » only right after the verdict
        if phase == QUALIFS:
            self._next_qualifs(state, action)
        elif phase == SUPER_CASH:
            self._next_super_cash(state, action)
        elif phase == COMPET_COUNT:
            if state["count"] + 1 < len(state["rules"]["compet_slots"]):
                state["count"] += 1
                _reveal_count(step)
            else:
                self._begin_super_cash(state, action)
        elif state["count"] + 1 < state["rules"]["defi_questions"]:
            state["count"] += 1
            _reveal_count(step)
        else:
            self._finish(state)

    def _next_qualifs(self, state: State, action: dict) -> None:
        state["format"] = None
        state["step"] = CHOOSING
        state["shown_at"] = _now(action)
        if state["number"] + 1 < state["rules"]["qualifs_questions"]:
            state["number"] += 1
        elif state["index"] + 1 < len(state["order"]):
            state["index"] += 1
            state["turn"] = state["order"][state["index"]]
            state["number"] = 0
        else:
            self._end_qualifs(state)
            return
        state["news"] = {"code": "ask", "seat": state["turn"], "n": state["number"] + 1}

    def _end_qualifs(self, state: State) -> None:
        """Place each pawn on the Compet' track from the Qualifs ranking, and hand over."""
        starts = state["rules"]["compet_starts"]
        scores = {seat: _qualifs_score(state, seat) for seat in state["contenders"]}
        for seat, score in scores.items():
            # Equal scores share the better start; the next score down skips the places taken.
            above = sum(1 for other in scores.values() if other > score)
            state["starts"][seat] = starts[min(above, len(starts) - 1)]
        if state["duel"]:
            best, other = sorted(state["contenders"], key=lambda s: (-scores[s], s))
            # « Le meilleur des deux pose d'abord ses questions à l'autre »: the other answers
            # first, on the card the best drew.
            state["order"] = [other, best]
            state["compet_card"][other], state["compet_card"][best] = 0, 1
        else:
            state["order"] = list(state["contenders"])
            for seat in state["contenders"]:
                state["compet_card"][seat] = 0
        state["phase"] = COMPET_HANDOVER
        state["step"] = None
        state["index"] = 0
        state["turn"] = state["order"][0]
        state["news"] = {"code": "qualifs-over", "seat": state["turn"]}

    def _begin_count(self, step: Step, phase: str, intro: str) -> None:
        state = step.state
        state["phase"] = phase
        state["step"] = None
        state["turn"] = None
        state["count"] = 0
        _reveal_count(step, intro)

    def _begin_super_cash(self, state: State, action: dict) -> None:
        """Give each player a Super Cash from their card's pool, unheard ones first."""
        played = len(state["rules"]["compet_slots"])
        queues: dict[int, list[int]] = {}
        for position, seat in enumerate(state["order"]):
            card = state["compet_card"][seat]
            if card not in queues:
                pool = [n - 1 for n in state["rules"]["super_cash_pool"]]
                # A question already counted had its answer read out: it comes last.
                fresh = [n for n in pool if n >= played]
                heard = [n for n in pool if n < played]
                rng = dice(state, "super-cash", state["cards"]["compet"][card]["id"])
                rng.shuffle(fresh)
                rng.shuffle(heard)
                queues[card] = fresh + heard
            sharing = [s for s in state["order"][:position] if state["compet_card"][s] == card]
            queue = queues[card]
            state["super_cash"][seat] = queue[len(sharing) % len(queue)]
        state["phase"] = SUPER_CASH
        state["index"] = 0
        state["turn"] = state["order"][0]
        state["step"] = ANSWERING
        state["shown_at"] = _now(action)
        state["news"] = {"code": "super-ask", "seat": state["turn"]}

    def _next_super_cash(self, state: State, action: dict) -> None:
        if state["index"] + 1 < len(state["order"]):
            state["index"] += 1
            state["turn"] = state["order"][state["index"]]
            state["step"] = ANSWERING
            state["shown_at"] = _now(action)
            state["news"] = {"code": "super-ask", "seat": state["turn"]}
            return
        tracks = {seat: _placed_track(state, seat) for seat in state["contenders"]}
        best = max(tracks.values())
        tied = [seat for seat in state["contenders"] if tracks[seat] == best]
        if state["duel"]:
            # No one to choose: the better Qualifs, then the earlier seat, becomes Champion.
            champion = min(tied, key=lambda s: (-_qualifs_score(state, s), s))
            state["champion"] = state["armchair"] = champion
            state["challenger"] = next(s for s in state["contenders"] if s != champion)
            self._begin_defi_theme(state, {"code": "duel-champion", "seat": champion})
        elif len(tied) == 1:
            state["challenger"] = tied[0]
            self._begin_defi_theme(state, {"code": "challenger", "seat": tied[0]})
        else:
            state["phase"] = CHALLENGER_CHOICE
            state["step"] = None
            state["tied"] = tied
            state["turn"] = state["champion"]
            state["news"] = {"code": "tie", "seats": tied}

    def _choose_challenger(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != CHALLENGER_CHOICE:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["champion"])
        chosen = int_field(action, "challenger", low=0, high=len(state["players"]) - 1)
        if chosen not in state["tied"]:
            raise Refused("not_tied", _("Le Champion choisit parmi les ex æquo."))
        state["challenger"] = chosen
        state["tied"] = []
        self._begin_defi_theme(state, {"code": "chosen", "seat": chosen})

    def _begin_defi_theme(self, state: State, news: dict) -> None:
        state["phase"] = DEFI_THEME
        state["step"] = None
        state["turn"] = state["champion"]
        state["picked"] = []
        state["news"] = news

    def _pick_theme(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != DEFI_THEME:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["champion"])
        card = int_field(action, "card", low=0, high=len(state["cards"]["defi"]) - 1)
        if card in state["picked"]:
            raise Refused("picked", _("Ce thème est déjà pris."))
        state["picked"].append(card)
        champion, challenger = state["champion"], state["challenger"]
        if state["duel"] and len(state["picked"]) == 1:
            # The Champion first takes a theme for themself, then gives the other one.
            state["defi_card"][champion] = card
            state["news"] = {"code": "own-theme", "card": card, "seat": challenger}
            return
        state["defi_card"][challenger] = card
        if not state["duel"]:
            state["defi_card"][champion] = card
        state["phase"] = DEFI_HANDOVER
        state["order"] = [challenger, champion]
        state["index"] = 0
        state["turn"] = challenger
        state["news"] = {"code": "theme", "card": card, "seat": challenger}

    def _bluff(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != BLUFF:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["champion"])
        score = int_field(action, "score", low=0, high=_defi_max(state))
        state["bluff"] = {"score": score, "accepted": None}
        state["phase"] = BLUFF_REPLY
        state["turn"] = state["challenger"]
        state["news"] = {"code": "bluff", "score": score}

    def _no_bluff(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != BLUFF:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["champion"])
        self._begin_count(step, DEFI_COUNT, "no-bluff")

    def _reply_bluff(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != BLUFF_REPLY:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["challenger"])
        accepted = action["type"] == "accept-bluff"
        state["bluff"]["accepted"] = accepted
        self._begin_count(step, DEFI_COUNT, "bluff-accepted" if accepted else "bluff-refused")

    def _override(self, step: Step, action: dict) -> None:
        state = step.state
        if not state["overridable"]:
            raise Refused("not_overridable", _("Il n’y a pas de réponse à accepter."))
        player = int_field(action, "player", low=0, high=len(state["players"]) - 1)
        question = str(action.get("question", ""))
        entry = next((e for e in state["overridable"]
                      if e["seat"] == player and str(e["question"]) == question), None)
        if entry is None:
            raise Refused("not_overridable", _("Cette réponse ne peut plus être acceptée."))
        state["overridable"].remove(entry)
        record = state["answers"][entry["record"]]
        record["right"] = True
        record["overridden"] = True
        step.emit(OVERRIDDEN, question=record["question"], seat=record["seat"])
        state["news"] = {"code": "overridden", "seat": record["seat"]}

    def _finish(self, state: State) -> None:
        """Count Le Défi: the Champion keeps the seat on a tie or better, or by a right bluff."""
        champion, challenger = state["champion"], state["challenger"]
        theirs, ours = _defi_score(state, challenger), _defi_score(state, champion)
        bluff = state["bluff"]
        by_bluff = bool(bluff and bluff["accepted"])
        kept = bluff["score"] == theirs if by_bluff else ours >= theirs
        state["result"] = {"winner": champion if kept else challenger, "kept": kept,
                           "by_bluff": by_bluff, "champion_score": ours,
                           "challenger_score": theirs}
        state["armchair"] = state["result"]["winner"]
        state["phase"] = OVER
        state["turn"] = None
        state["news"] = {"code": "end"}

    def _expect(self, state: State, action: dict, phases, step: str) -> None:
        if state["phase"] not in phases or state["step"] != step:
            raise Refused("not_now", _("Ce n’est pas le moment."))
        self._expect_seat(state, action, state["turn"])
        check_question(action, _item_in_play(state)["id"])

    def _expect_seat(self, state: State, action: dict, seat: int) -> None:
        if int_field(action, "seat", low=0, high=len(state["players"]) - 1) != seat:
            raise Refused("not_your_turn", _("C’est à %(name)s de jouer.")
                          % {"name": state["players"][seat]})

    # --- reading ---------------------------------------------------------------------------

    def view(self, state: State, seat=TABLE) -> dict:
        """Return what the table may see; a seat sees no more than the table on one screen."""
        phase = state["phase"]
        item = _current_item(state)
        players = state["players"]
        view = {
            "phase": phase,
            "step": state["step"] if phase in ANSWERING_PHASES else None,
            "duel": state["duel"],
            "round": ("qualifs" if phase == QUALIFS else "defi" if phase in DEFI_PHASES
                      else "compet"),
            "players": [self._player_view(state, s) for s in range(len(players))],
            "champion": _person(state, state["champion"]),
            "challenger": _person(state, state["challenger"]),
            "armchair": _person(state, state["armchair"]),
            "turn": _person(state, state["turn"]),
            "question_id": item["id"] if item else None,
            "question": _question_view(state) if phase in ANSWERING_PHASES else None,
            "formats": [],
            "reveal": None,
            "count": _count_view(state) if phase in (COMPET_COUNT, DEFI_COUNT) else None,
            "handover": None,
            "answered": [],
            "themes": [],
            "picking": "",
            "tied": [],
            "bluff": dict(state["bluff"]) if state["bluff"] else None,
            "bluff_max": _defi_max(state),
            "result": None,
            "winner": None,
            "finished": phase == OVER,
            "say": _say(state),
        }
        if view["step"] == CHOOSING:
            view["formats"] = [{"slug": f["slug"], "label": f["label"], "points": f["points"]}
                               for f in state["rules"]["formats"]]
        if view["step"] == REVEALED:
            view["reveal"] = _reveal_view(state)
        if phase in (COMPET_HANDOVER, DEFI_HANDOVER, COMPET, DEFI):
            if phase in (COMPET_HANDOVER, DEFI_HANDOVER):
                view["handover"] = _person(state, state["turn"])
            view["answered"] = [_person(state, s) for s in state["order"][: state["index"]]]
        if phase == DEFI_THEME:
            view["themes"] = [{"index": i, "title": card["title"], "picked": i in state["picked"]}
                              for i, card in enumerate(state["cards"]["defi"])]
            view["picking"] = ("both" if not state["duel"]
                               else "opponent" if state["picked"] else "own")
        if phase == CHALLENGER_CHOICE:
            view["tied"] = [{**_person(state, s), "track": _track(state, s),
                             "track_label": _signed(_track(state, s), plus=False)}
                            for s in state["tied"]]
        if state["result"]:
            result = state["result"]
            view["winner"] = _person(state, result["winner"])
            view["result"] = {**result, "winner": view["winner"],
                              "bluff": state["bluff"]["score"] if result["by_bluff"] else None}
        return view

    def _player_view(self, state: State, seat: int) -> dict:
        role = ("champion" if seat == state["champion"]
                else "challenger" if seat == state["challenger"]
                else "candidate" if seat in state["contenders"] else "")
        in_defi = state["phase"] in DEFI_PHASES and seat in (state["champion"],
                                                             state["challenger"])
        return {
            "seat": seat,
            "name": state["players"][seat],
            "role": role,
            "qualifs": _qualifs_score(state, seat) if seat in state["contenders"] else None,
            "track": _track(state, seat),
            "track_label": _signed(_track(state, seat), plus=False),
            "defi": _defi_score(state, seat) if in_defi else None,
            "current": seat == state["turn"],
            "armchair": seat == state["armchair"],
            # From three players, those who did not become Challenger watch Le Défi.
            "out": state["phase"] in DEFI_PHASES and role == "candidate",
        }

    def deadline(self, state: State):
        return None

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER

    def simulated_action(self, state: State, rng, knows) -> tuple[float, dict]:
        """Return what a simulated table does next (player.coverage): formats, themes and
        Challengers picked at random, no bluff, each answer right as `knows` says."""
        phase, seat, champion = state["phase"], state["turn"], state["champion"]
        if phase in (COMPET_HANDOVER, DEFI_HANDOVER):
            return 2.0, {"type": "ready", "seat": seat}
        if phase == CHALLENGER_CHOICE:
            return 2.0, {"type": "choose-challenger", "seat": champion,
                         "challenger": rng.choice(state["tied"])}
        if phase == DEFI_THEME:
            left = [i for i in range(len(state["cards"]["defi"])) if i not in state["picked"]]
            return 2.0, {"type": "pick-theme", "seat": champion, "card": rng.choice(left)}
        if phase == BLUFF:
            return 2.0, {"type": "no-bluff", "seat": champion}
        item = _item_in_play(state)
        asked = {"seat": seat, "question": item["id"]}
        if phase in (COMPET_COUNT, DEFI_COUNT) or state["step"] == REVEALED:
            return 2.0, {"type": "next", **asked}
        if state["step"] == CHOOSING:
            chosen = rng.choice(state["rules"]["formats"])["slug"]
            return 2.0, {"type": "format", **asked, "format": chosen}
        mode = _mode_in_play(state)
        if _free(state, mode):
            right = knows(item["difficulty"], 0.0)
            return 5.0, {"type": "answer", **asked,
                         "text": _answer_text(item) if right else "?"}
        shown = _propositions(state, item, mode)
        right = knows(item["difficulty"], 1 / len(shown))
        pool = [i for i, c in enumerate(shown) if c["right"] == right]
        return 5.0, {"type": "answer", **asked, "choice": rng.choice(pool)}


# --- the state's questions and scores ------------------------------------------------------

def _item(state: State, kind: str, card: int, number: int) -> dict:
    return state["cards"][kind][card]["items"][number]


def _card_of(state: State, seat: int) -> tuple[str, int]:
    """Return the kind and card a seat answers in the current round."""
    phase = state["phase"]
    if phase == QUALIFS:
        return "qualifs", state["qualifs_card"][seat]
    if phase in DEFI_PHASES:
        return "defi", state["defi_card"][seat]
    return "compet", state["compet_card"][seat]


def _number(state: State) -> int:
    if state["phase"] == SUPER_CASH:
        return state["super_cash"][state["turn"]]
    if state["phase"] in (COMPET_COUNT, DEFI_COUNT):
        return state["count"]
    return state["number"]


def _current_item(state: State) -> dict | None:
    """Return the question in play: the one being answered, or the first one being counted."""
    phase = state["phase"]
    if phase in ANSWERING_PHASES:
        return _item(state, *_card_of(state, state["turn"]), _number(state))
    if phase in (COMPET_COUNT, DEFI_COUNT):
        return _item(state, *_card_of(state, state["order"][0]), state["count"])
    return None


def _item_in_play(state: State) -> dict:
    """Return the question in play, in a phase that has one."""
    item = _current_item(state)
    if item is None:
        raise ValueError(f"No question is in play in the phase {state['phase']!r}.")
    return item


def _mode(state: State) -> str | None:
    phase = state["phase"]
    if phase == COMPET:
        return state["rules"]["compet_slots"][state["number"]]
    if phase == SUPER_CASH:
        return SUPER
    return state["format"]


def _mode_in_play(state: State) -> str:
    """Return the format of the question being answered, once there is one."""
    mode = _mode(state)
    if mode is None:
        raise ValueError(f"No format is chosen in the phase {state['phase']!r}.")
    return mode


def _format(state: State, slug: str) -> dict:
    return next(f for f in state["rules"]["formats"] if f["slug"] == slug)


def _free(state: State, mode: str | None) -> bool:
    return mode == SUPER or (mode is not None and not _format(state, mode)["propositions"])


def _answer_text(item: dict) -> str:
    return item["answer"] or next(c["text"] for c in item["choices"] if c["right"])


def _propositions(state: State, item: dict, mode: str) -> list[dict]:
    """Return the propositions shown for a question in this format: the right one among them."""
    wanted = _format(state, mode)["propositions"]
    right = [c for c in item["choices"] if c["right"]][:1]
    wrong = [c for c in item["choices"] if not c["right"]]
    rng = dice(state, mode, item["id"])
    shown = right + rng.sample(wrong, wanted - len(right))
    rng.shuffle(shown)
    return shown


def _points(state: State, record: dict) -> int:
    if record["mode"] == SUPER:
        stake = state["rules"]["super_cash_points"]
        return stake if record["right"] else -stake
    return _format(state, record["mode"])["points"] if record["right"] else 0


def _scored(state: State, seat: int, phases: tuple[str, ...]) -> int:
    return sum(_points(state, r) for r in state["answers"]
               if r["seat"] == seat and r["phase"] in phases and r["counted"])


def _qualifs_score(state: State, seat: int) -> int:
    return _scored(state, seat, (QUALIFS,))


def _track(state: State, seat: int) -> int | None:
    """Return a pawn's place on the Compet' track, or None before it is placed there."""
    start = state["starts"][seat]
    return None if start is None else start + _scored(state, seat, (COMPET, SUPER_CASH))


def _placed_track(state: State, seat: int) -> int:
    """Return the place of a pawn already on the Compet' track."""
    track = _track(state, seat)
    if track is None:
        raise ValueError(f"Seat {seat} has no pawn on the Compet' track.")
    return track


def _defi_score(state: State, seat: int) -> int:
    return _scored(state, seat, (DEFI,))


def _defi_max(state: State) -> int:
    return state["rules"]["defi_questions"] * max(f["points"] for f in state["rules"]["formats"])


def _record_index(state: State, phase: str, seat: int, number: int) -> int:
    return next(i for i, r in enumerate(state["answers"])
                if r["phase"] == phase and r["seat"] == seat and r["number"] == number)


def _count(step: Step, index: int) -> None:
    """Judge a recorded answer in public: it scores, is announced, may be accepted anyway."""
    state = step.state
    record = state["answers"][index]
    record["counted"] = True
    step.emit(ANSWERED, question=record["question"], seat=record["seat"], right=record["right"],
              mode=record["mode"], seconds=record["seconds"], given=record["given"])
    if _free(state, record["mode"]) and not record["right"]:
        state["overridable"].append({"seat": record["seat"], "question": record["question"],
                                     "record": index})


def _reveal_count(step: Step, intro: str = "") -> None:
    """Reveal every player's answer to the question being counted."""
    state = step.state
    phase = COMPET if state["phase"] == COMPET_COUNT else DEFI
    right = []
    for seat in state["order"]:
        index = _record_index(state, phase, seat, state["count"])
        _count(step, index)
        if state["answers"][index]["right"]:
            right.append(seat)
    state["news"] = {"code": "count", "intro": intro, "n": state["count"] + 1, "seats": right}


def _now(action: dict) -> float | None:
    now = action.get("now")
    return now if isinstance(now, int | float) and not isinstance(now, bool) else None


def _elapsed(state: State, action: dict) -> float | None:
    now, shown = _now(action), state.get("shown_at")
    if now is None or not isinstance(shown, int | float):
        return None
    return max(0.0, round(now - shown, 2))


# --- views ---------------------------------------------------------------------------------

def _signed(number: int | None, *, plus: bool = True) -> str:
    """Return a number as the board prints it: a true minus sign, a plus for points won."""
    if number is None:
        return ""
    if number < 0:
        return f"\u2212{-number}"
    return f"+{number}" if plus and number > 0 else str(number)


@overload
def _person(state: State, seat: int) -> dict: ...
@overload
def _person(state: State, seat: int | None) -> dict | None: ...
def _person(state: State, seat: int | None) -> dict | None:
    return None if seat is None else {"seat": seat, "name": state["players"][seat]}


def _mode_label(state: State, mode: str | None) -> str:
    if mode is None:
        return ""
    return _("Super Cash") if mode == SUPER else _format(state, mode)["label"]


def _stake(state: State, mode: str | None) -> int | None:
    if mode is None:
        return None
    return state["rules"]["super_cash_points"] if mode == SUPER else _format(state, mode)["points"]


def _question_view(state: State) -> dict:
    """Return the question being answered; which proposition is right only once revealed."""
    phase = state["phase"]
    kind, card = _card_of(state, state["turn"])
    item, mode = _item_in_play(state), _mode(state)
    revealed = state["step"] == REVEALED
    given = state["answers"][-1]["given"] if revealed else None
    total = {QUALIFS: state["rules"]["qualifs_questions"], DEFI: state["rules"]["defi_questions"],
             COMPET: len(state["rules"]["compet_slots"])}.get(phase)
    propositions = []
    if mode is not None and not _free(state, mode):
        for index, choice in enumerate(_propositions(state, item, mode)):
            shown = {"index": index, "text": choice["text"]}
            if revealed:
                shown.update(right=choice["right"], chosen=choice["text"] == given)
            propositions.append(shown)
    return {
        "id": item["id"],
        "number": None if phase == SUPER_CASH else state["number"] + 1,
        "of": total,
        "text": item["text"],
        "theme": state["cards"][kind][card]["title"],
        "mode": mode,
        "mode_label": _mode_label(state, mode),
        "points": _stake(state, mode),
        "free": _free(state, mode),
        "propositions": propositions,
        "answer": _answer_text(item) if revealed else "",
        "anecdote": item["anecdote"] if revealed else "",
    }


def _reveal_view(state: State) -> dict:
    index = len(state["answers"]) - 1
    record = state["answers"][index]
    return {
        **_person(state, record["seat"]),
        "given": record["given"],
        "right": record["right"],
        "points": _points(state, record),
        "signed": _signed(_points(state, record)),
        "overridden": record["overridden"],
        "overridable": any(e["record"] == index for e in state["overridable"]),
    }


def _count_view(state: State) -> dict:
    """Return every answer to the question being counted, grouped by question."""
    phase = COMPET if state["phase"] == COMPET_COUNT else DEFI
    questions: list[dict] = []
    for seat in state["order"]:
        kind, card = _card_of(state, seat)
        item = _item(state, kind, card, state["count"])
        index = _record_index(state, phase, seat, state["count"])
        record = state["answers"][index]
        group = next((q for q in questions if q["id"] == item["id"]), None)
        if group is None:
            group = {"id": item["id"], "text": item["text"],
                     "theme": state["cards"][kind][card]["title"],
                     "answer": _answer_text(item), "anecdote": item["anecdote"], "entries": []}
            questions.append(group)
        group["entries"].append({
            **_person(state, seat),
            "mode": record["mode"], "mode_label": _mode_label(state, record["mode"]),
            "given": record["given"], "right": record["right"],
            "points": _points(state, record), "signed": _signed(_points(state, record)),
            "overridden": record["overridden"],
            "overridable": any(e["record"] == index for e in state["overridable"]),
        })
    total = (len(state["rules"]["compet_slots"]) if phase == COMPET
             else state["rules"]["defi_questions"])
    return {"number": state["count"] + 1, "of": total, "questions": questions}


def _names(state: State, seats) -> str:
    names = [state["players"][s] for s in seats]
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s et %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _theme_of(state: State, kind: str, card: int | None) -> str:
    return "" if card is None else state["cards"][kind][card]["title"]


def _say(state: State) -> str:
    """Return one French sentence of what just happened, for the screen readers."""
    news = state["news"]
    code = news["code"]
    name = state["players"][news["seat"]] if news.get("seat") is not None else ""
    champion = _names(state, [state["champion"]]) if state["champion"] is not None else ""
    challenger = _names(state, [state["challenger"]]) if state["challenger"] is not None else ""
    first = state["players"][state["turn"]] if state["turn"] is not None else ""
    if code == "start":
        if state["duel"]:
            return _("Partie à deux : pas de Champion avant Le Défi. Les Qualifs commencent : "
                     "%(name)s, DUO, CARRÉ ou CASH ?") % {"name": first}
        return _("%(champion)s est le Champion et garde le fauteuil rouge. Les Qualifs "
                 "commencent : %(name)s, DUO, CARRÉ ou CASH ?") % {"champion": champion,
                                                                  "name": first}
    if code == "ask":
        return _("Question %(n)s pour %(name)s : DUO, CARRÉ ou CASH ?") % {"n": news["n"],
                                                                         "name": name}
    if code == "format":
        return _("%(name)s répond en %(mode)s.") % {
            "name": name, "mode": _mode_label(state, news["mode"])}
    if code == "judged":
        values = {"name": name, "points": news["points"], "answer": news["answer"]}
        if news["mode"] == SUPER:
            if news["right"]:
                return _("Super Cash réussi : %(name)s avance de %(points)s cases.") % values
            return _("Super Cash manqué : %(name)s recule de %(points)s cases. La bonne "
                     "réponse était « %(answer)s ».") % values
        if news["right"]:
            return ngettext("%(name)s : bonne réponse, %(points)s point.",
                            "%(name)s : bonne réponse, %(points)s points.",
                            news["points"]) % values
        return _("%(name)s : mauvaise réponse. La bonne réponse était « %(answer)s ».") % values
    if code == "overridden":
        return _("La table accepte la réponse pour %(name)s : le score est corrigé.") % {
            "name": name}
    if code == "qualifs-over":
        return _("Fin des Qualifs. La Compet’ sur le thème « %(theme)s » : passez l’écran à "
                 "%(name)s.") % {"theme": _theme_of(state, "compet", 0), "name": name}
    if code == "handover":
        return _("%(done)s a répondu à tout. Passez l’écran à %(name)s.") % {
            "done": state["players"][news["done"]], "name": name}
    if code == "ready":
        return _("À %(name)s de répondre : question 1 sur %(of)s.") % {"name": name,
                                                                     "of": news["of"]}
    if code == "stored":
        return _("Réponse enregistrée. Question %(n)s sur %(of)s.") % news
    if code == "count":
        intro = {
            "compet": _("Toutes les réponses sont données : place au décompte."),
            "no-bluff": _("Pas de coup de bluff : place au décompte."),
            "bluff-accepted": _("%(name)s accepte le coup de bluff : place au décompte.")
            % {"name": challenger},
            "bluff-refused": _("%(name)s refuse le coup de bluff : place au décompte.")
            % {"name": challenger},
        }.get(news["intro"], "")
        if news["seats"]:
            told = _("Question %(n)s : bonne réponse pour %(names)s.") % {
                "n": news["n"], "names": _names(state, news["seats"])}
        else:
            told = _("Question %(n)s : aucune bonne réponse.") % {"n": news["n"]}
        return f"{intro} {told}".strip()
    if code == "super-ask":
        return _("Super Cash pour %(name)s : %(points)s cases en plus ou en moins.") % {
            "name": name, "points": state["rules"]["super_cash_points"]}
    if code == "challenger":
        return _("%(name)s devient Challenger. Le Champion choisit le thème du Défi.") % {
            "name": name}
    if code == "tie":
        return _("Égalité entre %(names)s : le Champion choisit son Challenger.") % {
            "names": _names(state, news["seats"])}
    if code == "chosen":
        return _("%(champion)s choisit %(name)s comme Challenger, puis le thème du Défi.") % {
            "champion": champion, "name": name}
    if code == "duel-champion":
        return _("%(name)s a le meilleur score et devient le Champion : à %(name)s de choisir "
                 "les thèmes du Défi.") % {"name": name}
    if code == "own-theme":
        return _("%(champion)s répondra sur « %(theme)s » ; reste à choisir le thème pour "
                 "%(name)s.") % {"champion": champion, "name": name,
                                 "theme": _theme_of(state, "defi", news["card"])}
    if code == "theme":
        return _("%(name)s répondra sur « %(theme)s » : passez-lui l’écran.") % {
            "name": name, "theme": _theme_of(state, "defi", news["card"])}
    if code == "bluff-time":
        return _("Toutes les réponses du Défi sont données : coup de bluff ou décompte ?")
    if code == "bluff":
        return _("Coup de bluff : %(champion)s annonce %(score)s points pour %(name)s, qui "
                 "accepte ou refuse.") % {"champion": champion, "score": news["score"],
                                          "name": challenger}
    if code != "end":
        return ""
    result = state["result"]
    values = {"champion": champion, "challenger": challenger,
              "a": result["champion_score"], "b": result["challenger_score"],
              "score": result["challenger_score"]}
    if result["by_bluff"]:
        if result["kept"]:
            return _("Coup de bluff réussi : %(challenger)s a bien %(score)s points, "
                     "%(champion)s garde sa place !") % values
        return _("Coup de bluff manqué : %(challenger)s a %(score)s points et prend la place "
                 "du Champion %(champion)s !") % values
    if result["kept"]:
        return _("%(champion)s garde sa place, %(a)s à %(b)s !") % values
    return _("%(challenger)s prend la place du Champion %(champion)s, %(b)s à %(a)s !") % values


ENGINE = PrendreSaPlaceEngine(SPEC)
