"""Qui veut gagner des millions ?, party mode as in the box: played in a room, a phone a player.

Rounds rotate: in each, one seat is the game master (the shared screen shows the question)
and every other seat climbs the ladder. Each contestant chooses A, B, C or D secretly on
their phone, may use their jokers (each once per game), confirms (« C'est votre dernier
mot ? ») and, once every contestant still climbing has confirmed or stopped, all answers are
revealed together: right answers climb, wrong ones fall to their safe level. Before
answering the next question, a contestant may stop and bank the last step won. A round ends
when nobody climbs any more; the game ends when every seat has been the master or someone
won the top of the ladder. The totals over the rounds decide.

Jokers: the 50:50 takes two wrong answers away from the asker's phone only; the public is
the other players (the master excepted), each giving a card secretly, with the master's
card for the right answer added, as in the box; the friend is a player the asker chooses.
At two players (one contestant) the public gives 3 tries and the friend 2 instead.

Nothing of an answer reaches a phone before the reveal: not the right answer (not even the
master's phone), not another contestant's choice.
"""

from __future__ import annotations

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cms.games import GAMES
from cms.games.millionnaire import RULES

from .base import (
    ANSWERED,
    TABLE,
    Refused,
    State,
    Step,
    check_question,
    dice,
    evolve,
    int_field,
    text_field,
)
from .millionnaire import KIND, LETTERS, euros

ANSWERING = "answering"
REVEALED = "revealed"
OVER = "over"

IN, STOPPED, OUT = "in", "stopped", "out"  # a contestant's place in the round
FIFTY, PUBLIC, FRIEND = "cinquante", "public", "ami"


class MillionnairePartyEngine:
    slug = "millionnaire"
    min_players = GAMES["millionnaire"].players.minimum
    # The box sets no maximum; six phones around one screen is a full party.
    max_players = 6
    private_hands = True  # each answer is secret until the reveal: a phone a player
    waits_for_everyone = False  # answers are secret and untimed: the others go on
    has_bots = False  # a quiz party is people's

    def needs(self, players: int) -> dict[str, int]:
        # A question per step for each round (a round a player).
        return {KIND: len(GAMES[self.slug].ladder) * players}

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise Refused("players", _("De %(a)s à %(b)s joueurs.") % {
                "a": self.min_players, "b": self.max_players})
        by_step: dict[int, list] = {}
        for unit in content.get(KIND, ()):
            if unit.items and unit.items[0].step is not None:
                by_step.setdefault(unit.items[0].step, []).append(unit.items[0])
        most = min(len(by_step.get(s.number, ())) for s in spec.ladder)
        if most < len(players):
            # A round a player, a question per step each round.
            raise Refused("not_enough_content", _(
                "Les questions publiées suffisent pour %(most)s joueurs au plus, une manche "
                "chacun : la table en compte %(n)s.") % {"most": most, "n": len(players)})
        state: State = {
            "seed": seed, "players": list(players),
            "ladder": [{"amount": s.amount, "safe": s.safe} for s in spec.ladder],
            "rounds": [], "round": 0, "step": 1, "phase": ANSWERING,
            "jokers": [{slug: None for slug in RULES.jokers} for _ in players],
            "totals": [0] * len(players), "result": "",
        }
        for number in range(len(players)):
            questions = []
            for step in spec.ladder:
                item = by_step[step.number][number]
                order = list(range(len(item.choices)))
                dice(state, "order", number, step.number).shuffle(order)
                questions.append({
                    "id": item.id, "text": item.text, "anecdote": item.anecdote,
                    "difficulty": item.difficulty,
                    "choices": [item.choices[i].text for i in order],
                    "right": next(k for k, i in enumerate(order) if item.choices[i].right)})
            state["rounds"].append(questions)
        _new_round(state, 0)
        return state

    # --- actions ---------------------------------------------------------------------------

    def apply(self, state: State, action: dict):
        kind = action.get("type")
        handler = {"choose": self._choose, "confirm": self._confirm, "joker": self._joker,
                   "vote": self._vote, "stop": self._stop, "next": self._next,
                   }.get(kind if isinstance(kind, str) else "")
        if handler is None or state["phase"] == OVER:
            raise Refused("unknown_action")
        step = Step(evolve(state))
        seat = int_field(action, "seat", low=0, high=len(state["players"]) - 1)
        handler(step, seat, action)
        return step.state, step.events

    def _climbing(self, state: State, seat: int, action: dict) -> dict:
        """Return the seat's line of the round, refusing unless it is answering now."""
        if state["phase"] != ANSWERING:
            raise Refused("wrong_phase")
        check_question(action, _question(state)["id"])
        line = state["lines"][seat]
        if line is None:
            raise Refused("master", _("Le maître du jeu pose les questions, il n’y répond pas."))
        if line["status"] != IN:
            raise Refused("not_climbing", _("Vous ne jouez plus cette manche."))
        if line["confirmed"]:
            raise Refused("confirmed", _("Votre dernier mot est donné."))
        return line

    def _choose(self, step: Step, seat: int, action: dict) -> None:
        line = self._climbing(step.state, seat, action)
        choice = int_field(action, "choice", low=0, high=len(LETTERS) - 1)
        if choice in line["removed"]:
            raise Refused("removed", _("Cette réponse n’est plus possible."))
        line["choice"] = choice

    def _confirm(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        line = self._climbing(state, seat, action)
        if line["choice"] is None:
            raise Refused("no_choice", _("Choisissez d’abord une réponse."))
        question = _question(state)
        if line["tries"] > 1 and line["choice"] != question["right"]:
            # Two-player variant: a joker's extra try, told to this phone alone.
            line["tries"] -= 1
            line["removed"] = sorted({*line["removed"], line["choice"]})
            line["told"] = ngettext(
                "Ce n’est pas la réponse %(letter)s : encore %(n)s essai.",
                "Ce n’est pas la réponse %(letter)s : encore %(n)s essais.",
                line["tries"]) % {"letter": LETTERS[line["choice"]], "n": line["tries"]}
            line["choice"] = None
            return
        line["confirmed"] = True
        self._reveal_if_all_done(step)

    def _stop(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        line = self._climbing(state, seat, action)
        if line["won"] <= 0:
            raise Refused("nothing_won", _("Il faut une bonne réponse avant de s’arrêter."))
        line["status"] = STOPPED
        line["choice"] = None
        step.emit("stopped", seat=seat, won=line["won"])
        self._reveal_if_all_done(step)

    def _joker(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        line = self._climbing(state, seat, action)
        joker = text_field(action, "joker", max_length=20)
        jokers = state["jokers"][seat]
        if joker not in jokers:
            raise Refused("bad_value")
        if jokers[joker] is not None:
            raise Refused("joker_used", _("Ce joker a déjà servi."))
        question = _question(state)
        master = state["round"]
        two = len(state["players"]) == 2
        if joker == FIFTY:
            wrong = [i for i in range(len(question["choices"]))
                     if i != question["right"] and i not in line["removed"]]
            count = max(0, min(RULES.fifty_fifty_removes, len(wrong) - 1))
            removed = dice(state, "fifty", state["round"], state["step"], seat).sample(wrong, count)
            line["removed"] = sorted({*line["removed"], *removed})
            if line["choice"] in line["removed"]:
                line["choice"] = None
        elif two:
            # Several jokers on one question do not add up: the most generous counts.
            line["tries"] = max(line["tries"], RULES.public_tries_two_players
                                if joker == PUBLIC else RULES.friend_tries_two_players)
        elif joker == PUBLIC:
            voters = [s for s in range(len(state["players"])) if s not in (seat, master)]
            state["polls"].append({"asker": seat, "joker": PUBLIC, "voters": voters,
                                   "cards": {}})
        else:
            friend = int_field(action, "friend", low=0, high=len(state["players"]) - 1)
            if friend in (seat, master):
                raise Refused("bad_friend", _("Choisissez un ami parmi les autres joueurs, "
                                              "sauf le maître du jeu."))
            state["polls"].append({"asker": seat, "joker": FRIEND, "voters": [friend],
                                   "cards": {}})
        jokers[joker] = [state["round"], state["step"]]
        step.emit("joker", seat=seat, joker=joker)

    def _vote(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != ANSWERING:
            raise Refused("wrong_phase")
        check_question(action, _question(state)["id"])
        poll = next((p for p in state["polls"]
                     if seat in p["voters"] and str(seat) not in p["cards"]), None)
        if poll is None:
            raise Refused("not_asked", _("Personne ne vous demande votre avis."))
        choice = int_field(action, "choice", low=0, high=len(LETTERS) - 1)
        poll["cards"][str(seat)] = choice

    def _next(self, step: Step, seat: int, action: dict) -> None:
        state = step.state
        if state["phase"] != REVEALED:
            raise Refused("wrong_phase")
        if seat != state["round"]:
            raise Refused("not_master", _("Le maître du jeu passe à la suite."))
        check_question(action, _question(state)["id"])
        climbing = [line for line in state["lines"] if line and line["status"] == IN]
        if climbing and state["step"] < len(state["ladder"]):
            state["step"] += 1
            state["phase"] = ANSWERING
            state["polls"] = []
            # Every answer belongs to its question: none follows a player to the next one.
            for line in state["lines"]:
                if line is not None:
                    line.update(choice=None, answer=None, confirmed=False, removed=[],
                                tries=1, told="")
            return
        # The round is over: what each contestant kept goes to their total.
        for number, line in enumerate(state["lines"]):
            if line is not None:
                state["totals"][number] += line["won"]
        top = state["ladder"][-1]["amount"]
        if state["round"] + 1 >= len(state["players"]) or any(
                line and line["won"] >= top for line in state["lines"]):
            state["phase"] = OVER
            best = max(state["totals"])
            state["result"] = "won"
            step.emit("game_over", winners=[n for n, t in enumerate(state["totals"])
                                            if t == best])
            return
        _new_round(state, state["round"] + 1)
        step.emit("round", master=state["round"])

    def _reveal_if_all_done(self, step: Step) -> None:
        state = step.state
        lines = [line for line in state["lines"] if line is not None]
        if any(line["status"] == IN and not line["confirmed"] for line in lines):
            return
        question = _question(state)
        amount = state["ladder"][state["step"] - 1]["amount"]
        for seat, line in enumerate(state["lines"]):
            if line is None or line["status"] != IN:
                continue
            right = line["choice"] == question["right"]
            line["answer"] = line["choice"]
            step.emit(ANSWERED, question=question["id"], seat=seat, right=right, mode=KIND,
                      seconds=None, given=question["choices"][line["choice"]])
            if right:
                line["won"] = amount
            else:
                line["status"] = OUT
                line["won"] = _safe_below(state)
                line["told"] = ""
        state["phase"] = REVEALED
        step.emit("revealed", step=state["step"])

    # --- reading ---------------------------------------------------------------------------

    def view(self, state: State, seat=TABLE) -> dict:
        question = _question(state)
        revealed = state["phase"] in (REVEALED, OVER)
        master = state["round"]
        mine = None if seat is TABLE else state["lines"][seat]
        removed = mine["removed"] if mine else []
        chosen = mine["choice"] if mine else None
        choices = [{"index": i, "letter": LETTERS[i], "text": text,
                    "removed": i in removed, "chosen": chosen == i,
                    "right": revealed and i == question["right"]}
                   for i, text in enumerate(question["choices"])]
        players = []
        for number, name in enumerate(state["players"]):
            line = state["lines"][number]
            players.append({
                "seat": number, "name": name, "master": number == master,
                "status": line["status"] if line else "master",
                "confirmed": bool(line and line["confirmed"]),
                "won": euros(line["won"]) if line else "",
                "total": euros(state["totals"][number]),
                # Another's answer is told only with everyone's, at the reveal.
                "answer": LETTERS[line["answer"]] if revealed and line
                and line.get("answer") is not None and line["status"] != STOPPED else "",
                "right": bool(revealed and line and line.get("answer") == question["right"]),
                "jokers_used": [str(RULES.jokers[slug]) for slug, used
                                in state["jokers"][number].items() if used is not None],
                "waiting_for": [state["players"][v] for p in state["polls"]
                                if p["asker"] == number for v in p["voters"]
                                if str(v) not in p["cards"]],
            })
        view = {
            "phase": state["phase"], "seat": seat, "round": state["round"] + 1,
            "rounds": len(state["players"]), "master": state["players"][master],
            "is_master": seat == master, "step": state["step"],
            "steps": len(state["ladder"]),
            "amount": euros(state["ladder"][state["step"] - 1]["amount"]),
            "question": {"id": question["id"], "text": question["text"],
                         "anecdote": question["anecdote"] if revealed else ""},
            "choices": choices,
            "right_letter": LETTERS[question["right"]] if revealed else "",
            "players": players,
            "ladder": [{"number": n, "amount": euros(s["amount"]), "safe": s["safe"],
                        "current": n == state["step"]}
                       for n, s in reversed(list(enumerate(state["ladder"], start=1)))],
            "finished": state["phase"] == OVER,
            "winners": [],
            "asked": None, "mine": None,
        }
        if state["phase"] == OVER:
            best = max(state["totals"])
            view["winners"] = [name for name, total in zip(state["players"], state["totals"],
                                                           strict=True) if total == best]
            view["winners_text"] = get_text_list(view["winners"], _("et"))  # « Paul et Léa »
        if seat is TABLE:
            return view
        poll = next((p for p in state["polls"] if seat in p["voters"]
                     and str(seat) not in p["cards"]), None)
        if poll is not None and state["phase"] == ANSWERING:
            view["asked"] = {"asker": state["players"][poll["asker"]], "joker": poll["joker"]}
        if mine is not None:
            help_ = []
            for poll in state["polls"]:
                if poll["asker"] != seat:
                    continue
                waiting = [state["players"][v] for v in poll["voters"]
                           if str(v) not in poll["cards"]]
                cards = sorted(LETTERS[c] for c in poll["cards"].values())
                if poll["joker"] == PUBLIC and not waiting:
                    cards = sorted([*cards, LETTERS[question["right"]]])  # the master's card
                help_.append({"joker": poll["joker"], "waiting": waiting,
                              "cards": cards if not waiting else []})
            view["mine"] = {
                "status": mine["status"], "confirmed": mine["confirmed"],
                "chosen_letter": LETTERS[mine["choice"]] if mine["choice"] is not None else "",
                "won": euros(mine["won"]), "can_stop": mine["won"] > 0,
                "tries": mine["tries"], "told": mine["told"], "help": help_,
                "jokers": [{"slug": slug, "label": str(RULES.jokers[slug]),
                            "used": used is not None}
                           for slug, used in state["jokers"][seat].items()],
                "friends": [{"seat": n, "name": name}
                            for n, name in enumerate(state["players"])
                            if n not in (seat, master)],
                "fall": euros(_safe_below(state)),
            }
        return view

    def deadline(self, state: State):
        return None

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER

    def bot_action(self, state: State, bots) -> None:
        return None

    def simulated_action(self, state: State, rng, knows) -> tuple[float, dict]:
        """Return what a simulated table does next (player.coverage): each contestant picks
        an answer, right as `knows` says, and confirms it; nobody walks away or uses a
        joker, so the ladder is climbed as far as answers allow."""
        question = _question(state)
        asked = {"question": question["id"]}
        if state["phase"] == REVEALED:
            return 2.0, {"type": "next", "seat": state["round"], **asked}
        for seat, line in enumerate(state["lines"]):
            if line is None or line["status"] != IN or line["confirmed"]:
                continue
            if line["choice"] is not None:
                return 1.0, {"type": "confirm", "seat": seat, **asked}
            count = len(question["choices"])
            right = knows(question.get("difficulty", 3), 1 / count)
            wrong = [i for i in range(count) if i != question["right"]]
            choice = question["right"] if right else rng.choice(wrong)
            return 5.0, {"type": "choose", "seat": seat, "choice": choice, **asked}
        raise ValueError("No contestant has anything left to do.")


def _question(state: State) -> dict:
    return state["rounds"][state["round"]][state["step"] - 1]


def _safe_below(state: State) -> int:
    """What a fall at the current step keeps: the last safe level below it."""
    safe = [s["amount"] for s in state["ladder"][: state["step"] - 1] if s["safe"]]
    return safe[-1] if safe else 0


def _new_round(state: State, master: int) -> None:
    state["round"] = master
    state["step"] = 1
    state["phase"] = ANSWERING
    state["polls"] = []
    state["lines"] = [None if number == master else {
        "status": IN, "choice": None, "confirmed": False, "removed": [], "tries": 1,
        "told": "", "won": 0, "answer": None} for number in range(len(state["players"]))]


ROOM_ENGINE = MillionnairePartyEngine()
