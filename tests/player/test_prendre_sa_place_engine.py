"""Tout le monde veut prendre sa place, played through its engine as a table would play it.

The tests know the right answers the way the Champion does (they wrote the cards: the right
proposition of question N reads « Bonne N »), read only what the screen shows, and count
the points from the rules of the game.
"""

import json

import pytest

from cms.games.prendre_sa_place import COMPET_SLOTS, FORMATS, RULES, SPEC
from player.engines.base import ANSWERED, OVERRIDDEN, Choice, Item, NotEnoughContent, Refused, Unit
from player.engines.prendre_sa_place import ENGINE

DUO, CARRE, CASH = (FORMATS[slug].points for slug in ("duo", "carre", "cash"))
SUPER = RULES.super_cash_points
FIRST, SECOND, OTHERS = RULES.compet_starts[0], RULES.compet_starts[1], RULES.compet_starts[-1]
PLAYED = COMPET_SLOTS[: RULES.compet_played]
ALL_RIGHT_COMPET = sum(FORMATS[slot].points for slot in PLAYED)
THEMES = ("Cinéma", "Sport", "Histoire", "Musique", "Géographie")
NBSP, NNBSP = "\u00a0", "\u202f"


def right_text(question: int) -> str:
    return f"Bonne {question}"


def item(question: int, *, answer: str = "", variants=()) -> Item:
    return Item(
        id=question, text=f"Question {question}", difficulty=2,
        choices=(Choice(f"Faux {question} a", False), Choice(right_text(question), True),
                 Choice(f"Faux {question} b", False), Choice(f"Faux {question} c", False)),
        answer=answer or right_text(question), variants=variants,
        anecdote=f"Anecdote {question}.")


def card(kind: str, number: int, questions: int, title: str = "") -> Unit:
    card_id = {"qualifs": 100, "compet": 200, "defi": 300}[kind] + number
    return Unit(id=card_id, kind=kind, title=title or f"{kind} {number}",
                items=tuple(item(card_id * 100 + k) for k in range(1, questions + 1)))


def deck(qualifs: int = 5, compet: int = 2, defi: int = RULES.defi_themes_drawn) -> dict:
    return {
        "qualifs": tuple(card("qualifs", n, RULES.qualifs_questions) for n in range(qualifs)),
        "compet": tuple(card("compet", n, len(COMPET_SLOTS), THEMES[n]) for n in range(compet)),
        "defi": tuple(card("defi", n, RULES.defi_questions, THEMES[n]) for n in range(defi)),
    }


def place_on_card(question: int) -> int:
    """Return a question's number on its card (1 for the first), as the tests built it."""
    return question % 100


class Table:
    """One screen, and the players around it: they act only through what the view shows."""

    def __init__(self, players=("Chloé", "Alex", "Bea"), *, seed=7, content=None):
        self.now = 100.0
        self.state = ENGINE.start(SPEC, content or deck(), list(players), seed, now=self.now)
        self.saved = json.dumps(self.state)  # what the state was before each action
        self.events = []

    def keep(self, state: dict) -> None:
        """Save the state and load it back, as the server does between two requests."""
        self.saved = json.dumps(state)
        self.state = json.loads(self.saved)

    @property
    def view(self) -> dict:
        return ENGINE.view(self.state)

    def act(self, type_: str, *, wait: float = 2.0, **fields) -> list:
        """Send a form: every value a string, "now" set by the server."""
        self.now += wait
        action = {"type": type_, "now": self.now, **{k: str(v) for k, v in fields.items()}}
        state, events = ENGINE.apply(self.state, action)
        assert json.dumps(self.state) == self.saved, "apply changed its input"
        self.keep(state)
        self.events += events
        return events

    def refused(self, type_: str, **fields) -> str:
        """Return the code of a refused action, after checking that it changed nothing."""
        with pytest.raises(Refused) as refusal:
            ENGINE.apply(self.state, {"type": type_, "now": self.now + 1, **fields})
        assert json.dumps(self.state) == self.saved
        return refusal.value.code

    def seat(self) -> int:
        return self.view["turn"]["seat"]

    def choose(self, fmt: str, **fields) -> list:
        return self.act("format", seat=self.seat(), question=self.view["question_id"],
                        format=fmt, **fields)

    def answer(self, right: bool = True, fmt: str | None = None, *, text: str | None = None,
               wait: float = 2.0) -> list:
        """Answer the question on screen, choosing its format first when asked to."""
        if self.view["step"] == "format":
            self.choose(fmt)
        view = self.view
        seat, question = view["turn"]["seat"], view["question_id"]
        if view["question"]["free"]:
            if text is None:
                text = right_text(question) if right else "Aucune idée"
            return self.act("answer", seat=seat, question=question, text=text, wait=wait)
        choice = next(p["index"] for p in view["question"]["propositions"]
                      if (p["text"] == right_text(question)) == right)
        return self.act("answer", seat=seat, question=question, choice=choice, wait=wait)

    def next(self) -> list:
        return self.act("next", question=self.view["question_id"])

    def ready(self) -> list:
        return self.act("ready", seat=self.view["handover"]["seat"])

    def player(self, name: str) -> dict:
        return next(p for p in self.view["players"] if p["name"] == name)

    def seat_of(self, name: str) -> int:
        return self.player(name)["seat"]

    # --- whole rounds, as planned by a test ------------------------------------------------

    def qualifs(self, plan: dict[str, list[tuple[str, bool]]] | None = None) -> None:
        """Play Les Qualifs: plan[name] lists (format, right) per question; DUO wrong else."""
        plans = {name: list(answers) for name, answers in (plan or {}).items()}
        while self.view["phase"] == "qualifs":
            name = self.view["turn"]["name"]
            queue = plans.get(name)
            fmt, right = queue.pop(0) if queue else ("duo", False)
            self.answer(right, fmt)
            self.next()

    def compet(self, plan: dict[str, list[bool] | bool] | None = None) -> None:
        """Write La Compet' answers: plan[name] is right or wrong per question (or for all)."""
        plan = plan or {}
        while self.view["phase"] in ("compet-handover", "compet"):
            if self.view["phase"] == "compet-handover":
                self.ready()
                continue
            wanted = plan.get(self.view["turn"]["name"], False)
            if isinstance(wanted, list):
                wanted = wanted[self.view["question"]["number"] - 1]
            self.answer(wanted)

    def count(self) -> None:
        while self.view["phase"] in ("compet-count", "defi-count"):
            self.next()

    def super_cash(self, plan: dict[str, bool] | None = None) -> None:
        while self.view["phase"] == "super-cash":
            self.answer((plan or {}).get(self.view["turn"]["name"], False))
            self.next()

    def defi(self, plan: dict[str, list[tuple[str, bool]]]) -> None:
        """Write Le Défi answers: plan[name] lists (format, right) per question."""
        plans = {name: list(answers) for name, answers in plan.items()}
        while self.view["phase"] in ("defi-handover", "defi"):
            if self.view["phase"] == "defi-handover":
                self.ready()
                continue
            fmt, right = plans[self.view["turn"]["name"]].pop(0)
            self.answer(right, fmt)

    def to_defi(self, challenger: str = "Alex") -> None:
        """Play up to Le Défi's theme, the named player winning La Compet'."""
        self.qualifs()
        self.compet({challenger: True})
        self.count()
        self.super_cash()

    def pick(self, index: int = 0) -> list:
        return self.act("pick-theme", seat=self.view["champion"]["seat"], card=index)


def six(fmt: str, right: int) -> list[tuple[str, bool]]:
    """Return six Défi answers in one format, the first `right` of them right."""
    return [(fmt, n < right) for n in range(RULES.defi_questions)]


def defi_table(challenger_plan, champion_plan) -> Table:
    """Return a game of three at the bluff, Alex against the Champion Chloé."""
    table = Table()
    table.to_defi("Alex")
    table.pick(0)
    table.defi({"Alex": challenger_plan, "Chloé": champion_plan})
    return table


# --- setting up -------------------------------------------------------------------------------

def test_the_first_player_named_is_the_champion_with_the_red_armchair():
    view = Table().view
    assert view["champion"] == {"seat": 0, "name": "Chloé"}
    assert view["armchair"]["name"] == "Chloé"
    assert [p["role"] for p in view["players"]] == ["champion", "candidate", "candidate"]
    assert "Chloé est le Champion" in view["say"]


def test_the_champion_does_not_play_les_qualifs():
    table = Table()
    assert table.view["turn"]["name"] == "Alex"
    assert table.refused("format", seat="0", question=str(table.view["question_id"]),
                         format="duo") == "not_your_turn"


def test_a_game_draws_a_qualifs_card_per_challenger_one_compet_card_and_the_defi_themes():
    assert ENGINE.needs(4) == {"qualifs": 3, "compet": 1, "defi": RULES.defi_themes_drawn}
    assert ENGINE.needs(6)["qualifs"] == 5


def test_a_game_of_two_draws_a_qualifs_and_a_compet_card_for_each_player():
    assert ENGINE.needs(2) == {"qualifs": 2, "compet": 2, "defi": RULES.defi_themes_drawn}


def test_a_library_too_small_is_refused_with_what_is_missing():
    with pytest.raises(NotEnoughContent) as short:
        ENGINE.start(SPEC, deck(defi=2), ["Chloé", "Alex", "Bea"], 1)
    assert (short.value.kind, short.value.needed, short.value.available) == (
        "defi", RULES.defi_themes_drawn, 2)


def test_a_card_missing_questions_is_not_counted_as_playable():
    content = deck()
    content["compet"] = (Unit(id=299, kind="compet", title="Court",
                              items=tuple(item(29900 + k) for k in range(1, 9))),)
    with pytest.raises(NotEnoughContent) as short:
        ENGINE.start(SPEC, content, ["Chloé", "Alex", "Bea"], 1)
    assert (short.value.kind, short.value.available) == ("compet", 0)


@pytest.mark.parametrize("players", [["Seul"], [f"J{n}" for n in range(7)]])
def test_a_table_outside_two_to_six_players_is_refused(players):
    with pytest.raises(Refused):
        ENGINE.start(SPEC, deck(qualifs=6), players, 1)


def test_the_state_is_plain_json():
    table = Table()
    assert json.loads(json.dumps(table.state)) == table.state
    assert json.loads(json.dumps(table.view)) == table.view


def test_there_is_never_a_clock():
    table = Table()
    assert ENGINE.deadline(table.state) is None


# --- Les Qualifs ------------------------------------------------------------------------------

def test_the_question_is_read_before_the_format_is_chosen_and_propositions_come_after():
    table = Table()
    view = table.view
    assert view["step"] == "format"
    assert view["question"]["text"] == f"Question {view['question_id']}"
    assert view["question"]["propositions"] == []
    assert [f["label"] for f in view["formats"]] == ["DUO", "CARRÉ", "CASH"]
    table.choose("carre")
    assert len(table.view["question"]["propositions"]) == 4


def test_duo_shows_the_right_answer_and_one_wrong_one():
    table = Table()
    table.choose("duo")
    texts = [p["text"] for p in table.view["question"]["propositions"]]
    assert len(texts) == 2
    assert right_text(table.view["question_id"]) in texts


def test_carre_shows_the_four_propositions():
    table = Table()
    table.choose("carre")
    question = table.view["question_id"]
    texts = {p["text"] for p in table.view["question"]["propositions"]}
    assert texts == {right_text(question), *(f"Faux {question} {x}" for x in "abc")}


def test_cash_shows_no_proposition_and_asks_a_free_answer():
    table = Table()
    table.choose("cash")
    assert table.view["question"]["free"] is True
    assert table.view["question"]["propositions"] == []


def test_the_right_proposition_is_not_always_in_the_same_place():
    places = set()
    for seed in range(12):
        table = Table(seed=seed)
        table.choose("carre")
        texts = [p["text"] for p in table.view["question"]["propositions"]]
        places.add(texts.index(right_text(table.view["question_id"])))
    assert len(places) > 1


def test_the_propositions_are_dealt_the_same_way_on_every_replay():
    first, again = Table(seed=3), Table(seed=3)
    first.choose("duo")
    again.choose("duo")
    assert first.view["question"]["propositions"] == again.view["question"]["propositions"]


@pytest.mark.parametrize("fmt, points", [("duo", DUO), ("carre", CARRE), ("cash", CASH)])
def test_a_right_answer_scores_its_format_points(fmt, points):
    table = Table()
    table.answer(True, fmt)
    assert table.player("Alex")["qualifs"] == points
    assert table.view["reveal"]["right"] is True


@pytest.mark.parametrize("fmt", ["duo", "carre", "cash"])
def test_a_wrong_answer_scores_nothing(fmt):
    table = Table()
    table.answer(False, fmt)
    assert table.player("Alex")["qualifs"] == 0
    assert table.view["reveal"]["right"] is False


def test_each_challenger_answers_two_questions_of_their_own_card():
    table = Table()
    seen = []
    while table.view["phase"] == "qualifs":
        seen.append((table.view["turn"]["name"], table.view["question_id"]))
        table.answer(True, "duo")
        table.next()
    assert [name for name, _ in seen] == ["Alex"] * RULES.qualifs_questions + [
        "Bea"] * RULES.qualifs_questions
    alex_card = {q // 100 for name, q in seen if name == "Alex"}
    bea_card = {q // 100 for name, q in seen if name == "Bea"}
    assert len(alex_card) == len(bea_card) == 1 and alex_card != bea_card


def test_the_qualifs_scores_add_up_over_the_two_questions():
    table = Table()
    table.qualifs({"Alex": [("carre", True), ("cash", True)], "Bea": [("duo", True),
                                                                    ("cash", False)]})
    assert table.player("Alex")["qualifs"] == CARRE + CASH
    assert table.player("Bea")["qualifs"] == DUO


def test_a_cash_answer_with_a_listed_variant_or_a_small_typo_is_right():
    content = deck()
    first = content["qualifs"][0]
    content["qualifs"] = (Unit(id=first.id, kind="qualifs", title="Cuisine", items=(
        item(5001, answer="Le reblochon", variants=("Reblochon de Savoie",)),
        item(5002, answer="Le paris-brest"))), *content["qualifs"][1:])
    table = Table(content=content)
    table.answer(fmt="cash", text="reblochon de savoie")
    assert table.view["reveal"]["right"] is True
    table.next()
    table.answer(fmt="cash", text="paris brestt")
    assert table.player("Alex")["qualifs"] == 2 * CASH


def test_the_best_qualifs_starts_on_minus_one_the_second_on_minus_two_the_others_on_minus_three():
    names = ["Chloé", "Alex", "Bea", "Cyril", "Dina"]
    table = Table(names)
    table.qualifs({"Alex": [("duo", True)], "Bea": [("cash", True), ("cash", True)],
                   "Cyril": [("carre", True)], "Dina": []})
    starts = {name: table.player(name)["track"] for name in names[1:]}
    assert starts == {"Bea": FIRST, "Cyril": SECOND, "Alex": OTHERS, "Dina": OTHERS}


def test_equal_best_qualifs_scores_share_minus_one_and_the_next_starts_on_minus_three():
    table = Table(["Chloé", "Alex", "Bea", "Cyril"])
    table.qualifs({"Alex": [("carre", True)], "Bea": [("carre", True)],
                   "Cyril": [("duo", True)]})
    assert [table.player(n)["track"] for n in ("Alex", "Bea", "Cyril")] == [FIRST, FIRST, OTHERS]


def test_equal_second_qualifs_scores_share_minus_two():
    table = Table(["Chloé", "Alex", "Bea", "Cyril"])
    table.qualifs({"Alex": [("cash", True)], "Bea": [("duo", True)], "Cyril": [("duo", True)]})
    assert [table.player(n)["track"] for n in ("Alex", "Bea", "Cyril")] == [FIRST, SECOND,
                                                                            SECOND]


# --- La Compet' -------------------------------------------------------------------------------

def test_la_compet_announces_its_theme_and_hands_the_screen_to_the_first_challenger():
    table = Table()
    table.qualifs()
    view = table.view
    assert view["phase"] == "compet-handover"
    assert view["handover"]["name"] == "Alex"
    assert f"«{NNBSP}{THEMES[0]}{NNBSP}»" in view["say"]
    assert table.refused("ready", seat=str(table.seat_of("Bea"))) == "not_your_turn"


def test_la_compet_asks_questions_one_to_nine_in_the_formats_of_the_card():
    table = Table()
    table.qualifs()
    table.ready()
    modes, numbers = [], []
    while table.view["phase"] == "compet":
        modes.append(table.view["question"]["mode"])
        numbers.append(place_on_card(table.view["question_id"]))
        table.answer(False)
    assert modes == list(PLAYED)
    assert numbers == list(range(1, RULES.compet_played + 1))


def test_the_champion_does_not_answer_la_compet():
    table = Table()
    table.qualifs()
    assert table.refused("ready", seat="0") == "not_your_turn"
    table.ready()
    question = str(table.view["question_id"])
    assert table.refused("answer", seat="0", question=question, choice="0") == "not_your_turn"


def test_la_compet_keeps_every_answer_hidden_until_the_count():
    table = Table()
    table.qualifs()
    table.events.clear()
    table.ready()
    for _ in range(RULES.compet_played):
        table.answer(True)
        view = table.view
        shown = json.dumps(view, ensure_ascii=False)
        assert '"right"' not in shown.replace('"right": null', "")
        assert view["reveal"] is None and view["count"] is None
        assert table.player("Alex")["track"] == FIRST
    assert table.view["phase"] == "compet-handover"
    assert table.view["answered"] == [{"seat": 1, "name": "Alex"}]
    assert "Bonne" not in json.dumps(table.view, ensure_ascii=False)
    assert table.events == []  # nothing recorded, nor sent to a page, before the count


def test_the_count_reveals_each_question_with_every_answer_and_the_right_one():
    table = Table()
    table.qualifs()
    table.compet({"Alex": True, "Bea": False})
    count = table.view["count"]
    assert table.view["phase"] == "compet-count" and count["number"] == 1
    (question,) = count["questions"]
    assert question["answer"] == right_text(question["id"])
    assert question["anecdote"] == f"Anecdote {question['id']}."
    assert [(e["name"], e["right"]) for e in question["entries"]] == [("Alex", True),
                                                                     ("Bea", False)]
    assert "bonne réponse pour Alex" in table.view["say"]


def test_the_count_moves_each_pawn_by_its_right_answers_format_points():
    table = Table()
    table.qualifs({"Alex": [("duo", True)]})
    right_on = [True, False, True, False, True, True, False, False, True]
    table.compet({"Alex": right_on, "Bea": True})
    table.count()
    expected = FIRST + sum(FORMATS[slot].points for slot, right in zip(PLAYED, right_on,
                                                                       strict=True) if right)
    assert table.player("Alex")["track"] == expected
    assert table.player("Bea")["track"] == SECOND + ALL_RIGHT_COMPET


def test_the_pawns_move_as_the_count_goes_question_by_question():
    table = Table()
    table.qualifs()
    table.compet({"Alex": True})
    assert table.player("Alex")["track"] == FIRST + FORMATS[PLAYED[0]].points
    table.next()
    assert table.player("Alex")["track"] == FIRST + sum(FORMATS[s].points for s in PLAYED[:2])


def test_a_right_super_cash_moves_the_pawn_five_forward():
    table = Table()
    table.qualifs()
    table.compet()
    table.count()
    assert table.view["phase"] == "super-cash" and table.view["turn"]["name"] == "Alex"
    table.answer(True)
    assert table.player("Alex")["track"] == FIRST + SUPER


def test_a_wrong_super_cash_moves_the_pawn_five_back():
    table = Table()
    table.qualifs()
    table.compet()
    table.count()
    table.answer(False)
    assert table.player("Alex")["track"] == FIRST - SUPER
    assert table.view["reveal"]["signed"] == f"\u2212{SUPER}"  # a true minus sign
    assert table.view["question"]["answer"] == right_text(table.view["question_id"])


def test_each_challenger_gets_a_different_super_cash_whose_answer_was_not_heard_in_the_count():
    table = Table(["Chloé", "Alex", "Bea", "Cyril", "Dina", "Elie"])
    table.qualifs()
    table.compet()
    table.count()
    numbers = []
    while table.view["phase"] == "super-cash":
        assert table.view["question"]["free"] is True
        numbers.append(place_on_card(table.view["question_id"]))
        table.answer(False)
        table.next()
    assert len(numbers) == len(set(numbers)) == 5
    assert all(n in RULES.super_cash_pool and n > RULES.compet_played for n in numbers)


def test_the_best_total_after_the_super_cash_becomes_challenger():
    table = Table()
    # Bea leads after La Compet'; her Super Cash fails and Alex's succeeds.
    table.qualifs({"Bea": [("duo", True)]})
    table.compet({"Bea": [True] + [False] * 8})
    table.count()
    assert table.player("Bea")["track"] == FIRST + DUO > table.player("Alex")["track"] == SECOND
    table.super_cash({"Alex": True, "Bea": False})
    assert table.player("Alex")["track"] == SECOND + SUPER
    assert table.player("Bea")["track"] == FIRST + DUO - SUPER
    assert table.view["challenger"]["name"] == "Alex"
    assert table.view["phase"] == "defi-theme"
    assert table.player("Bea")["out"] is True


def test_a_tie_after_la_compet_lets_the_champion_choose_among_the_tied():
    table = Table(["Chloé", "Alex", "Bea", "Cyril"])
    table.qualifs({"Cyril": [("duo", True)]})
    table.compet({"Alex": True, "Bea": True})
    table.count()
    table.super_cash({"Alex": True, "Bea": True})
    view = table.view
    assert view["phase"] == "challenger-choice"
    assert [t["name"] for t in view["tied"]] == ["Alex", "Bea"]
    assert table.refused("choose-challenger", seat="1", challenger="1") == "not_your_turn"
    assert table.refused("choose-challenger", seat="0", challenger="3") == "not_tied"
    table.act("choose-challenger", seat=0, challenger=table.seat_of("Bea"))
    assert table.view["challenger"]["name"] == "Bea"


# --- Le Défi ----------------------------------------------------------------------------------

def test_le_defi_offers_the_drawn_themes_and_the_champion_picks_one():
    table = Table()
    table.to_defi()
    themes = table.view["themes"]
    assert [t["title"] for t in themes] == list(THEMES[: RULES.defi_themes_drawn])
    assert table.refused("pick-theme", seat="1", card="0") == "not_your_turn"
    table.pick(2)
    assert table.view["phase"] == "defi-handover"
    assert table.view["handover"]["name"] == "Alex"
    assert THEMES[2] in table.view["say"]


def test_le_defi_starts_both_at_zero():
    table = Table()
    table.qualifs({"Alex": [("cash", True), ("cash", True)]})
    table.compet({"Alex": True})
    table.count()
    table.super_cash()
    defi = {p["name"]: p["defi"] for p in table.view["players"]}
    assert defi == {"Chloé": 0, "Alex": 0, "Bea": None}


def test_the_challenger_answers_the_chosen_theme_then_the_champion_the_same_questions():
    table = Table()
    table.to_defi()
    table.pick(1)
    asked = []
    while table.view["phase"] in ("defi-handover", "defi"):
        if table.view["phase"] == "defi-handover":
            table.ready()
            continue
        asked.append((table.view["turn"]["name"], table.view["question_id"]))
        assert table.view["question"]["theme"] == THEMES[1]
        table.answer(True, "duo")
    challenger = [q for name, q in asked if name == "Alex"]
    assert [name for name, _ in asked] == (["Alex"] * RULES.defi_questions
                                           + ["Chloé"] * RULES.defi_questions)
    assert challenger == [q for name, q in asked if name == "Chloé"]
    assert len(set(challenger)) == RULES.defi_questions


def test_in_le_defi_the_format_is_chosen_before_each_answer():
    table = Table()
    table.to_defi()
    table.pick(0)
    table.ready()
    assert table.view["step"] == "format" and table.view["question"]["propositions"] == []
    table.answer(True, "carre")
    assert table.view["step"] == "format"


def test_le_defi_answers_stay_hidden_until_the_count():
    table = defi_table(six("cash", 6), six("cash", 6))
    table.events.clear()
    view = table.view
    assert view["phase"] == "bluff"
    assert view["count"] is None
    assert {p["name"]: p["defi"] for p in view["players"] if p["defi"] is not None} == {
        "Chloé": 0, "Alex": 0}
    assert "Bonne" not in json.dumps(view, ensure_ascii=False)
    assert table.events == []


def test_the_defi_count_shows_both_answers_to_each_question():
    table = defi_table(six("carre", 6), six("duo", 0))
    table.act("no-bluff", seat=0)
    (question,) = table.view["count"]["questions"]
    assert [(e["name"], e["mode"], e["right"]) for e in question["entries"]] == [
        ("Alex", "carre", True), ("Chloé", "duo", False)]


def test_the_champion_keeps_the_seat_on_a_tie():
    table = defi_table(six("carre", 2), six("duo", 6))
    assert 2 * CARRE == 6 * DUO
    table.act("no-bluff", seat=0)
    table.count()
    view = table.view
    assert view["finished"] and view["winner"]["name"] == "Chloé"
    assert view["result"]["kept"] is True
    assert "garde sa place" in view["say"]


def test_the_challenger_takes_the_seat_with_a_better_score():
    table = defi_table(six("cash", 1), six("duo", 4))
    table.act("no-bluff", seat=0)
    table.count()
    view = table.view
    assert (view["result"]["challenger_score"], view["result"]["champion_score"]) == (CASH,
                                                                                    4 * DUO)
    assert view["winner"]["name"] == "Alex" and view["result"]["kept"] is False
    assert "Alex prend la place du Champion Chloé" in view["say"]


def test_the_winner_takes_the_red_armchair():
    table = defi_table(six("cash", 6), six("duo", 0))
    table.act("no-bluff", seat=0)
    table.count()
    assert table.view["armchair"]["name"] == "Alex"
    assert table.player("Alex")["armchair"] and not table.player("Chloé")["armchair"]


def test_a_right_bluff_keeps_the_seat_whatever_the_scores():
    table = defi_table(six("cash", 3), six("duo", 0))
    table.act("bluff", seat=0, score=3 * CASH)
    assert table.view["phase"] == "bluff-reply" and table.view["turn"]["name"] == "Alex"
    table.act("accept-bluff", seat=1)
    table.count()
    assert table.view["winner"]["name"] == "Chloé"
    assert table.view["result"]["by_bluff"] is True


def test_a_wrong_bluff_loses_the_seat_whatever_the_scores():
    table = defi_table(six("duo", 1), six("cash", 6))
    table.act("bluff", seat=0, score=DUO + 1)
    table.act("accept-bluff", seat=1)
    table.count()
    assert table.view["winner"]["name"] == "Alex"
    assert "Coup de bluff manqué" in table.view["say"]


def test_a_refused_bluff_leaves_the_scores_to_decide():
    table = defi_table(six("duo", 1), six("cash", 6))
    table.act("bluff", seat=0, score=DUO + 1)
    table.act("refuse-bluff", seat=1)
    table.count()
    assert table.view["winner"]["name"] == "Chloé"
    assert table.view["result"]["by_bluff"] is False


def test_only_the_champion_bluffs_and_only_the_challenger_answers_the_bluff():
    table = defi_table(six("duo", 1), six("duo", 1))
    assert table.refused("bluff", seat="1", score="1") == "not_your_turn"
    assert table.refused("no-bluff", seat="2") == "not_your_turn"
    table.act("bluff", seat=0, score=1)
    assert table.refused("accept-bluff", seat="0") == "not_your_turn"
    assert table.refused("refuse-bluff", seat="2") == "not_your_turn"


def test_a_bluff_on_an_impossible_score_is_refused():
    table = defi_table(six("duo", 1), six("duo", 1))
    top = RULES.defi_questions * CASH
    assert table.refused("bluff", seat="0", score=str(top + 1)) == "bad_value"
    assert table.refused("bluff", seat="0", score="-1") == "bad_value"
    table.act("bluff", seat=0, score=top)
    assert table.view["bluff"] == {"score": top, "accepted": None}


def test_the_bluff_comes_only_once_both_have_answered():
    table = Table()
    table.to_defi()
    table.pick(0)
    table.ready()
    for _ in range(RULES.defi_questions):
        table.answer(True, "duo")
    assert table.view["phase"] == "defi-handover"
    assert table.refused("bluff", seat="0", score="3") == "not_now"


# --- accepting a free answer anyway -----------------------------------------------------------

def test_the_table_may_accept_a_cash_answer_judged_wrong():
    table = Table()
    table.answer(fmt="cash", text="Reblochon")  # the table knows it is the same answer
    view = table.view
    assert view["reveal"]["right"] is False and view["reveal"]["overridable"] is True
    events = table.act("override", question=view["question_id"], player=1)
    assert events == [{"type": OVERRIDDEN, "question": view["question_id"], "seat": 1}]
    assert table.player("Alex")["qualifs"] == CASH
    assert table.view["reveal"]["overridden"] is True


def test_an_accepted_super_cash_turns_five_back_into_five_forward():
    table = Table()
    table.qualifs()
    table.compet()
    table.count()
    table.answer(False)
    table.act("override", question=table.view["question_id"], player=1)
    assert table.player("Alex")["track"] == FIRST + SUPER


def test_an_answer_is_accepted_anyway_only_once():
    table = Table()
    table.answer(False, "cash")
    question = table.view["question_id"]
    table.act("override", question=question, player=1)
    assert table.refused("override", question=str(question), player="1") == "not_overridable"
    assert table.player("Alex")["qualifs"] == CASH


def test_only_the_last_judged_answer_can_be_accepted_anyway():
    table = Table()
    table.answer(False, "cash")
    question = table.view["question_id"]
    table.next()
    assert table.refused("override", question=str(question), player="1") == "not_overridable"


@pytest.mark.parametrize("right, fmt", [(True, "cash"), (False, "carre"), (False, "duo")])
def test_a_right_answer_or_a_chosen_proposition_cannot_be_accepted_anyway(right, fmt):
    table = Table()
    table.answer(right, fmt)
    assert table.view["reveal"]["overridable"] is False
    assert table.refused("override", question=str(table.view["question_id"]),
                         player="1") == "not_overridable"


def test_a_cash_answer_of_the_compet_can_be_accepted_during_its_count():
    table = Table()
    table.qualifs()
    table.compet()
    for _ in range(RULES.compet_played - 1):
        table.next()
    (question,) = table.view["count"]["questions"]
    assert [e["overridable"] for e in question["entries"]] == [True, True]
    table.act("override", question=question["id"], player=table.seat_of("Bea"))
    # Both scored nothing in Les Qualifs: both started on the best place.
    assert table.player("Bea")["track"] == FIRST + FORMATS[PLAYED[-1]].points
    assert table.player("Alex")["track"] == FIRST


def test_the_override_names_the_player_whose_answer_is_accepted():
    table = Table()
    table.answer(False, "cash")
    assert table.refused("override", question=str(table.view["question_id"]),
                         player="2") == "not_overridable"


# --- what is recorded -------------------------------------------------------------------------

def test_every_answer_is_recorded_with_its_mode_and_the_time_it_took():
    table = Table()
    table.choose("carre", wait=3.0)
    events = table.answer(True, wait=4.5)
    question = table.view["question_id"]
    assert events == [{"type": ANSWERED, "question": question, "seat": 1, "right": True,
                       "mode": "carre", "seconds": 7.5, "given": right_text(question)}]


def test_a_free_answer_is_recorded_as_typed():
    table = Table()
    events = table.answer(fmt="cash", text="  Bonne réponse peut-être ")
    assert events[0]["given"] == "Bonne réponse peut-être" and events[0]["mode"] == "cash"


def test_compet_answers_are_recorded_at_their_count_with_the_time_each_took():
    table = Table()
    table.qualifs()
    table.events.clear()
    table.ready()
    table.answer(True, wait=6.0)
    while table.view["phase"] != "compet-count":
        if table.view["phase"] == "compet-handover":
            table.ready()
        else:
            table.answer(False, wait=1.0)
    first = [e for e in table.events if e["type"] == ANSWERED]
    assert [(e["seat"], e["mode"], e["right"], e["seconds"]) for e in first] == [
        (1, PLAYED[0], True, 6.0), (2, PLAYED[0], False, 1.0)]


def test_a_super_cash_is_recorded_as_such():
    table = Table()
    table.qualifs()
    table.compet()
    table.count()
    (event,) = table.answer(True)
    assert event["mode"] == "super-cash" and event["right"] is True


# --- two players ------------------------------------------------------------------------------

def duel(seed: int = 7) -> Table:
    return Table(["Lou", "Max"], seed=seed)


def test_at_two_there_is_no_champion_until_le_defi():
    view = duel().view
    assert view["champion"] is None and view["armchair"] is None
    assert [p["role"] for p in view["players"]] == ["candidate", "candidate"]
    assert "pas de Champion" in view["say"]


def test_at_two_each_answers_the_qualifs_card_the_other_drew():
    table = duel()
    asked = []
    while table.view["phase"] == "qualifs":
        asked.append((table.view["turn"]["name"], table.view["question_id"] // 100))
        table.answer(True, "duo")
        table.next()
    assert [name for name, _ in asked] == ["Lou"] * 2 + ["Max"] * 2
    assert asked[0][1] != asked[2][1]


def test_at_two_the_better_qualifs_asks_first_so_the_other_answers_la_compet_first():
    table = duel()
    table.qualifs({"Max": [("duo", True)]})
    assert (table.player("Max")["track"], table.player("Lou")["track"]) == (FIRST, SECOND)
    assert table.view["handover"]["name"] == "Lou"
    table.ready()
    lou_card = table.view["question_id"] // 100
    table.compet()
    assert table.view["count"]["questions"][0]["entries"][0]["name"] == "Lou"
    max_card = table.view["count"]["questions"][1]["id"] // 100
    assert lou_card != max_card


def test_at_two_the_better_after_la_compet_becomes_champion_and_picks_both_themes():
    table = duel()
    table.qualifs({"Max": [("duo", True)]})
    table.compet({"Lou": True})
    table.count()
    table.super_cash()
    view = table.view
    assert view["champion"]["name"] == "Lou" and view["challenger"]["name"] == "Max"
    assert view["armchair"]["name"] == "Lou"
    assert view["picking"] == "own"
    table.pick(3)
    assert table.view["picking"] == "opponent"
    assert table.refused("pick-theme", seat="0", card="3") == "picked"
    table.pick(1)
    table.defi({"Max": six("duo", 0), "Lou": six("duo", 0)})
    table.act("no-bluff", seat=0)
    themes = {q["entries"][0]["name"]: q["theme"] for q in table.view["count"]["questions"]}
    assert themes == {"Lou": THEMES[3], "Max": THEMES[1]}


def test_at_two_a_tie_after_la_compet_goes_to_the_better_qualifs():
    table = duel()
    table.qualifs({"Max": [("duo", True)]})
    # Lou starts one place behind and answers one DUO more: equal totals.
    table.compet({"Lou": [True] + [False] * 8})
    table.count()
    table.super_cash()
    assert SECOND + DUO == FIRST
    assert table.view["champion"]["name"] == "Max"


def test_at_two_le_defi_ends_as_at_three():
    table = duel()
    table.qualifs({"Max": [("duo", True)]})
    table.compet({"Max": True})
    table.count()
    table.super_cash()
    table.pick(0)
    table.pick(1)
    table.defi({"Lou": six("carre", 2), "Max": six("duo", 6)})
    table.act("no-bluff", seat=table.seat_of("Max"))
    table.count()
    assert table.view["winner"]["name"] == "Max" and table.view["result"]["kept"] is True


# --- forged, stale and replayed actions -------------------------------------------------------

def test_answering_twice_is_refused():
    table = Table()
    table.choose("duo")
    seat, question = str(table.seat()), str(table.view["question_id"])
    choice = str(table.view["question"]["propositions"][0]["index"])
    table.act("answer", seat=seat, question=question, choice=choice)
    assert table.refused("answer", seat=seat, question=question, choice=choice) == "not_now"


def test_choosing_a_format_twice_is_refused():
    table = Table()
    table.choose("duo")
    assert table.refused("format", seat=str(table.seat()), question=str(table.view["question_id"]),
                         format="cash") == "not_now"


def test_an_answer_about_another_question_is_refused():
    table = Table()
    table.choose("duo")
    assert table.refused("answer", seat="1", question=str(table.view["question_id"] + 1),
                         choice="0") == "not_current"


def test_a_replayed_next_in_the_count_is_refused():
    table = Table()
    table.qualifs()
    table.compet()
    stale = str(table.view["question_id"])
    table.next()
    assert table.refused("next", question=stale) == "not_current"


@pytest.mark.parametrize("fields", [
    {"seat": "1", "choice": "abc"},
    {"seat": "1", "choice": "-1"},
    {"seat": "1", "choice": "2"},
    {"seat": "1", "choice": "1.0"},
    {"seat": "1"},
    {"seat": "one", "choice": "0"},
    {"seat": "9", "choice": "0"},
    {"choice": "0"},
    {"seat": ["1"], "choice": "0"},
    {"seat": True, "choice": "0"},
])
def test_a_forged_proposition_answer_is_refused(fields):
    table = Table()
    table.choose("duo")
    fields = {"question": str(table.view["question_id"]), **fields}
    assert table.refused("answer", **fields) in ("bad_value", "not_your_turn")


@pytest.mark.parametrize("text", [None, 42, "x" * 201])
def test_a_forged_free_answer_is_refused(text):
    table = Table()
    table.choose("cash")
    fields = {"seat": "1", "question": str(table.view["question_id"])}
    if text is not None:
        fields["text"] = text
    assert table.refused("answer", **fields) == "bad_value"


@pytest.mark.parametrize("fmt", ["", "quatre", "super-cash", "DUO"])
def test_an_unknown_format_is_refused(fmt):
    table = Table()
    assert table.refused("format", seat="1", question=str(table.view["question_id"]),
                         format=fmt) == "bad_value"


@pytest.mark.parametrize("action_type", ["timeout", "", "win", None, ["next"]])
def test_an_unknown_action_is_refused(action_type):
    assert Table().refused(action_type) == "unknown_action"


def test_an_action_out_of_its_phase_is_refused():
    table = Table()
    assert table.refused("ready", seat="1") == "not_now"
    assert table.refused("next", question=str(table.view["question_id"])) == "not_now"
    assert table.refused("pick-theme", seat="0", card="0") == "not_now"
    assert table.refused("choose-challenger", seat="0", challenger="1") == "not_now"
    assert table.refused("accept-bluff", seat="1") == "not_now"


def test_nothing_is_accepted_once_the_game_is_over():
    table = defi_table(six("duo", 1), six("duo", 1))
    table.act("no-bluff", seat=0)
    table.count()
    assert ENGINE.finished(table.state)
    assert table.refused("next", question=str(table.view["question_id"])) == "over"


def test_the_game_is_not_finished_before_the_defi_count():
    table = defi_table(six("duo", 1), six("duo", 1))
    assert not ENGINE.finished(table.state) and table.view["finished"] is False


# --- what the screen says ---------------------------------------------------------------------

def test_the_view_tells_no_right_answer_before_the_reveal_and_tells_it_after():
    table = Table()
    table.choose("carre")
    before = table.view
    assert all(set(p) == {"index", "text"} for p in before["question"]["propositions"])
    assert before["question"]["answer"] == "" and before["question"]["anecdote"] == ""
    table.answer(False)
    after = table.view
    question = after["question_id"]
    assert after["question"]["answer"] == right_text(question)
    assert after["question"]["anecdote"] == f"Anecdote {question}."
    assert [p["text"] for p in after["question"]["propositions"] if p["right"]] == [
        right_text(question)]


def test_a_cash_question_shows_nothing_of_its_answer_before_the_reveal():
    table = Table()
    table.choose("cash")
    assert right_text(table.view["question_id"]) not in json.dumps(table.view,
                                                                   ensure_ascii=False)


def test_the_sentence_said_uses_french_spaces():
    say = Table().view["say"]
    assert f"commencent{NBSP}:" in say and say.endswith(f"CASH{NNBSP}?")
