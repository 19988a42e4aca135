"""Quiz express in the browser: players answer in turn; a right answer scores a point."""

from __future__ import annotations

from django.utils.translation import gettext as _

from cms.games.quiz_express import RULES

from .base import ANSWERED, TABLE, NotEnoughContent, Refused, State, Step, evolve, int_field

KIND = "express"
LETTERS = "ABC"
ASKING, REVEALED, OVER = "asking", "revealed", "over"


class QuizExpressEngine:
    slug = "quiz-express"
    min_players = 2
    max_players = 4
    private_hands = False  # the whole table plays on one shared screen

    def needs(self, players: int) -> dict[str, int]:
        return {KIND: players * RULES.rounds}

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        units = content.get(KIND, ())
        needed = len(players) * RULES.rounds
        if len(units) < needed:
            raise NotEnoughContent(KIND, needed, len(units))
        questions = [{"id": item.id, "text": item.text,
                      "choices": [choice.text for choice in item.choices],
                      "right": next(i for i, c in enumerate(item.choices) if c.right)}
                     for item in (unit.items[0] for unit in units[:needed])]
        return {"seed": seed, "players": list(players), "scores": [0] * len(players),
                "questions": questions, "turn": 0, "phase": ASKING, "choice": None}

    def apply(self, state: State, action: dict):
        kind = action.get("type")
        if state["phase"] == OVER or kind not in ("choose", "next"):
            raise Refused("unknown_action")
        step = Step(evolve(state))
        if kind == "choose":
            self._choose(step, action)
        else:
            self._next(step)
        return step.state, step.events

    def _choose(self, step: Step, action: dict) -> None:
        state = step.state
        if state["phase"] != ASKING:
            raise Refused("phase")
        question = state["questions"][state["turn"]]
        choice = int_field(action, "choice", low=0, high=len(question["choices"]) - 1)
        seat = state["turn"] % len(state["players"])
        right = choice == question["right"]
        state["scores"][seat] += int(right)
        state["choice"] = choice
        state["phase"] = REVEALED
        step.emit(ANSWERED, question=question["id"], seat=seat, right=right, mode=KIND,
                  seconds=None, given=question["choices"][choice])

    def _next(self, step: Step) -> None:
        state = step.state
        if state["phase"] != REVEALED:
            raise Refused("phase")
        state["turn"] += 1
        state["choice"] = None
        state["phase"] = OVER if state["turn"] == len(state["questions"]) else ASKING

    def view(self, state: State, seat=TABLE) -> dict:
        turn = min(state["turn"], len(state["questions"]) - 1)
        question = state["questions"][turn]
        revealed = state["phase"] != ASKING
        return {
            "phase": state["phase"],
            "player": state["players"][turn % len(state["players"])],
            "question": {"id": question["id"], "text": question["text"]},
            # Which proposition is right is told only once revealed.
            "choices": [{"index": i, "letter": LETTERS[i], "text": text,
                         "right": revealed and i == question["right"]}
                        for i, text in enumerate(question["choices"])],
            "scores": [{"name": name, "points": points}
                       for name, points in zip(state["players"], state["scores"], strict=True)],
            "say": _("Bonne réponse !") if revealed and state["choice"] == question["right"]
            else "",
        }

    def deadline(self, state: State):
        return None

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER


ENGINE = QuizExpressEngine()
