"""Qui veut gagner des millions ?, solo: climb the ladder, three jokers, walk away or fall."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cms.games import GAMES
from cms.games.millionnaire import RULES

from .base import (
    ANSWERED,
    SHOWN,
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

KIND = "echelle"
LETTERS = "ABCD"

# Phases of a step.
ASKING = "asking"  # choosing a proposition, jokers allowed
CONFIRMING = "confirming"  # « C'est votre dernier mot ? »
REVEALED = "revealed"  # the right answer shown, with the anecdote
OVER = "over"


def euros(amount: int) -> str:
    """Return an amount as the show says it: « 1 000 000 € » (narrow no-break spaces)."""
    return f"{amount:,}".replace(",", "\u202f") + "\u00a0€"


class MillionnaireEngine:
    slug = "millionnaire"
    min_players = 1
    max_players = 1
    private_hands = False  # the whole table plays on one shared screen

    def needs(self, players: int) -> dict[str, int]:
        # A spare question per step beside the one played: the loader draws by step rank.
        return {KIND: 2 * len(GAMES[self.slug].ladder)}

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        if len(players) != 1:
            raise Refused("players", _("On joue seul à Qui veut gagner des millions ?"))
        chosen = []
        units = content.get(KIND, ())
        for step in spec.ladder:
            found = next((u for u in units if u.items and u.items[0].step == step.number), None)
            if found is not None:
                chosen.append(found.items[0])
        if len(chosen) < len(spec.ladder):
            have = {item.step for item in chosen}
            missing = [str(s.number) for s in spec.ladder if s.number not in have]
            raise Refused("not_enough_content", ngettext(
                "Pas de question publiée pour la marche %(steps)s de l’échelle : "
                "publiez-en une pour jouer.",
                "Pas de question publiée pour les marches %(steps)s de l’échelle : "
                "publiez-en une par marche pour jouer.", len(missing)) % {
                "steps": ", ".join(missing)})
        state: State = {
            "seed": seed,
            "players": list(players),
            "ladder": [{"amount": s.amount, "safe": s.safe} for s in spec.ladder],
            "questions": [],
            "step": 1,
            "phase": ASKING,
            "choice": None,
            "removed": [],
            "jokers": {slug: None for slug in spec.rules.jokers},  # None: not used yet
            "help": [],  # what the jokers said on the current step
            "won": 0,
            "result": "",
            "shown_at": now,
            "say": "",
            "rules": {"fifty_fifty_removes": spec.rules.fifty_fifty_removes,
                      "accuracy": {slug: [spec.rules.accuracy(slug, s.number, len(spec.ladder))
                                          for s in spec.ladder]
                                   for slug in ("public", "ami")}},
        }
        for number, item in enumerate(chosen, start=1):
            order = list(range(len(item.choices)))
            dice(state, "order", number).shuffle(order)
            state["questions"].append({
                "id": item.id, "text": item.text, "anecdote": item.anecdote,
                "choices": [item.choices[i].text for i in order],
                "right": next(k for k, i in enumerate(order) if item.choices[i].right),
            })
        state["say"] = self._ask_sentence(state)
        return state

    # --- actions -------------------------------------------------------------------------

    def apply(self, state: State, action: dict):
        kind = action.get("type")
        handler = {
            "choose": self._choose, "confirm": self._confirm, "cancel": self._cancel,
            "joker": self._joker, "walk": self._walk, "next": self._next,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None or state["phase"] == OVER:
            raise Refused("unknown_action")
        step = Step(evolve(state))
        handler(step, action)
        return step.state, step.events

    def _current(self, state: State) -> dict:
        return state["questions"][state["step"] - 1]

    def _choose(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, ASKING)
        choice = int_field(action, "choice", low=0, high=len(self._current(state)["choices"]) - 1)
        if choice in state["removed"]:
            raise Refused("removed", _("Le 50:50 a retiré cette réponse."))
        state["choice"] = choice
        state["phase"] = CONFIRMING
        state["say"] = _("Réponse %(letter)s. C’est votre dernier mot ?") % {
            "letter": LETTERS[choice]}

    def _cancel(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, CONFIRMING)
        state["choice"] = None
        state["phase"] = ASKING
        state["say"] = _("Réfléchissez encore.")

    def _confirm(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, CONFIRMING)
        question = self._current(state)
        right = state["choice"] == question["right"]
        step.emit(ANSWERED, question=question["id"], seat=0, right=right, mode=KIND,
                  seconds=_elapsed(state, action), given=question["choices"][state["choice"]])
        amount = state["ladder"][state["step"] - 1]["amount"]
        state["phase"] = REVEALED
        if right:
            state["won"] = amount
            if state["step"] == len(state["ladder"]):
                state["result"] = "top"
                state["say"] = _("Bonne réponse ! Vous gagnez %(amount)s !") % {
                    "amount": euros(amount)}
            else:
                state["say"] = _("Bonne réponse ! Vous avez %(amount)s.") % {
                    "amount": euros(amount)}
        else:
            state["won"] = self._fallback(state)
            state["result"] = "fell"
            state["say"] = _("Mauvaise réponse. La bonne réponse était %(letter)s : "
                             "%(text)s. Vous repartez avec %(amount)s.") % {
                "letter": LETTERS[question["right"]],
                "text": question["choices"][question["right"]], "amount": euros(state["won"])}

    def _next(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, REVEALED)
        if state["result"]:
            state["phase"] = OVER
            return
        state["step"] += 1
        state["phase"] = ASKING
        state["choice"] = None
        state["removed"] = []
        state["help"] = []
        state["shown_at"] = action.get("now")
        state["say"] = self._ask_sentence(state)

    def _walk(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, ASKING)
        question = self._current(state)
        # Its answer is shown: the same browser should not be asked it again soon.
        step.emit(SHOWN, question=question["id"])
        state["result"] = "walked"
        state["phase"] = REVEALED
        state["say"] = _("Vous vous arrêtez avec %(amount)s. La bonne réponse était "
                         "%(letter)s.") % {"amount": euros(state["won"]),
                                           "letter": LETTERS[question["right"]]}

    def _joker(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect(state, action, ASKING)
        joker = text_field(action, "joker", max_length=20)
        if joker not in state["jokers"]:
            raise Refused("bad_value")
        if state["jokers"][joker] is not None:
            raise Refused("joker_used", _("Ce joker a déjà servi."))
        state["jokers"][joker] = state["step"]
        question = self._current(state)
        number = state["step"]
        left = [i for i in range(len(question["choices"])) if i not in state["removed"]]
        wrong = [i for i in left if i != question["right"]]
        if joker == "cinquante":
            # At least one wrong answer stays beside the right one.
            count = max(0, min(state["rules"]["fifty_fifty_removes"], len(wrong) - 1))
            removed = dice(state, "fifty", number).sample(wrong, count)
            state["removed"] = sorted(state["removed"] + removed)
            state["say"] = _("Le 50:50 retire deux mauvaises réponses.")
            return
        accuracy = state["rules"]["accuracy"][joker][number - 1]
        rng = dice(state, joker, number)
        knows = rng.random() < accuracy
        favourite = question["right"] if knows or not wrong else rng.choice(wrong)
        if joker == "public":
            votes = _votes(rng, left, favourite)
            state["help"].append({"joker": "public", "votes": votes})
            state["say"] = _("Le public a voté.")
        else:
            sure = rng.randint(60, 95) if knows else rng.randint(30, 75)
            state["help"].append({"joker": "ami", "letter": LETTERS[favourite], "sure": sure})
            state["say"] = _("Votre ami pense que c’est la réponse %(letter)s, sûr à "
                             "%(sure)s %%.") % {"letter": LETTERS[favourite], "sure": sure}

    # --- reading ---------------------------------------------------------------------------

    def _expect(self, state: State, action: dict, phase: str) -> None:
        if state["phase"] != phase:
            raise Refused("wrong_phase")
        check_question(action, self._current(state)["id"])

    def _fallback(self, state: State) -> int:
        safe = [s["amount"] for s in state["ladder"][: state["step"] - 1] if s["safe"]]
        return safe[-1] if safe else 0

    def _ask_sentence(self, state: State) -> str:
        amount = state["ladder"][state["step"] - 1]["amount"]
        return _("Question %(n)s, pour %(amount)s.") % {"n": state["step"],
                                                        "amount": euros(amount)}

    def view(self, state: State, seat=TABLE) -> dict:
        question = self._current(state)
        revealed = state["phase"] in (REVEALED, OVER)
        choices = []
        for index, text in enumerate(question["choices"]):
            choices.append({
                "index": index, "letter": LETTERS[index],
                "text": "" if index in state["removed"] else text,
                "removed": index in state["removed"],
                "chosen": index == state["choice"],
                # Which one is right is told only once revealed.
                "right": revealed and index == question["right"],
            })
        # After a fall, what is won is the safe level: the steps above it are lost.
        kept = state["won"] if state["result"] == "fell" else None
        ladder = [{"number": n, "amount": euros(s["amount"]), "safe": s["safe"],
                   "current": n == state["step"],
                   "fell": n == state["step"] and state["result"] == "fell",
                   "won": (s["amount"] <= kept) if kept is not None else (
                       n < state["step"] or (n == state["step"] and revealed
                                             and state["result"] == "top"))}
                  for n, s in enumerate(state["ladder"], start=1)]
        return {
            "phase": state["phase"],
            "player": state["players"][0],
            "step": state["step"],
            "steps": len(state["ladder"]),
            "amount": euros(state["ladder"][state["step"] - 1]["amount"]),
            "question": {"id": question["id"], "text": question["text"],
                         "anecdote": question["anecdote"] if revealed else ""},
            "choices": choices,
            "chosen_letter": LETTERS[state["choice"]] if state["choice"] is not None else "",
            "right_letter": LETTERS[question["right"]] if revealed else "",
            "ladder": list(reversed(ladder)),
            "jokers": [{"slug": slug, "label": str(RULES.jokers[slug]),
                        "used": used is not None}
                       for slug, used in state["jokers"].items()],
            "help": state["help"],
            "won": euros(state["won"]),
            "result": state["result"],
            "finished": bool(state["result"]) and revealed,
            "say": state["say"],
        }

    def deadline(self, state: State):
        return None

    def finished(self, state: State) -> bool:
        return bool(state["result"])


def _elapsed(state: State, action: dict) -> float | None:
    now, shown = action.get("now"), state.get("shown_at")
    if not isinstance(now, int | float) or not isinstance(shown, int | float):
        return None
    return max(0.0, round(now - shown, 2))


def _votes(rng, left: list[int], favourite: int) -> list[dict]:
    """Return the audience's percentages over the propositions left, the favourite ahead."""
    weights = {i: rng.uniform(5, 30) for i in left}
    weights[favourite] = max(weights.values()) + rng.uniform(15, 40)
    total = sum(weights.values())
    shares = {i: round(100 * w / total) for i, w in weights.items()}
    shares[favourite] += 100 - sum(shares.values())  # rounding lands on the favourite
    return [{"letter": LETTERS[i], "percent": shares[i]} for i in sorted(left)]


ENGINE = MillionnaireEngine()

# The party mode, in a room (its module reads this one's ladder helpers, defined above).
from .millionnaire_party import ROOM_ENGINE  # noqa: E402, F401
