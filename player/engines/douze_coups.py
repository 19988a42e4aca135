"""Les 12 Coups de Midi on one shared screen: 2 to 4 players, four rounds, two duels, a star.

As GAMES.md §1 tells it: the coup d'envoi (pick a number on the card, keep the visible
proposition or take the hidden one) until a second error turns a star red and its owner
provokes a duel on one card of the pair drawn at set-up; the coup par coup (name one of
seven propositions, avoid the intruder) until a second FAUX brings the duel on the pair's
other card; the coup fatal, face-à-face on two clocks the server runs from the actions'
"now"; the final, coup de maître questions that open the étoile's panels while anyone
still in the final may guess it. Every number is the registry's, copied into the state at
start so a game keeps the rules it began with.

Settled where the texts are silent:
- a deck that runs out before a star turns red ends the round: the player with the most
  errors loses it (then the one with less money, then the youngest);
- the duel's loser starts the coup par coup (the rule text); after any answer of rounds 1
  and 2 the turn passes to the next player, a new card or fiche included;
- face-à-face: the richer player starts (the rule text; tie: the younger); the loser only
  pays, everyone goes to the final; at three players the two richest meet first (tie: the
  younger); each face-à-face reads its own share of the coup fatal cards, and if its
  questions run out the player with less time left loses (equal: the one whose clock runs);
- a wrong guess of the étoile puts the player out of the final and out of the running
  for Maître de Midi; the game ends right after the last coup de maître question;
  players equally rich at the end share the title.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games import GAMES
from cms.games.douze_coups import (
    PAIRING_ONE_DUEL,
    PAIRING_POOREST_PICKS,
    PAIRING_RICHEST_THEN_WINNER,
)

from ..judging import judge
from .base import (
    ANSWERED,
    OVERRIDDEN,
    SHOWN,
    TABLE,
    Item,
    NotEnoughContent,
    Refused,
    State,
    Step,
    Unit,
    check_question,
    dice,
    evolve,
    int_field,
    pack,
    text_field,
    unpack,
)

SLUG = "douze-coups"

# Content kinds, as the registry names them.
ENVOI = "coup-d-envoi"
DUEL = "duel"
COUP_PAR_COUP = "coup-par-coup"
FATAL = "coup-fatal"
MAITRE = "coup-de-maitre"
ETOILE = "etoile-mysterieuse"

# Phases: the rounds, then the final and the end.
FINAL = "final"
OVER = "over"

# Steps within a phase.
PICK = "pick"  # a number on the card (coup d'envoi), a card of the pair (duel 1)
ANSWER = "answer"
CHALLENGE = "challenge"  # choose an opponent
READY = "ready"  # a face-à-face about to start its clock
RUN = "run"  # a face-à-face whose clock runs

HIDDEN = "hidden"  # the choice that takes the hidden proposition
ETOILE_MODE = "etoile"
STARS = ("vert", "orange", "rouge")
STAR_LABELS = {"vert": gettext_lazy("étoile verte"), "orange": gettext_lazy("étoile orange"),
               "rouge": gettext_lazy("étoile rouge")}
ROUND_LABELS = {
    ENVOI: gettext_lazy("Le coup d’envoi"),
    DUEL: gettext_lazy("Le duel"),
    COUP_PAR_COUP: gettext_lazy("Le coup par coup"),
    FATAL: gettext_lazy("Le coup fatal"),
    FINAL: gettext_lazy("Le coup de maître et l’étoile mystérieuse"),
    OVER: gettext_lazy("Fin de la partie"),
}
# How many face-à-face each pairing makes.
BOUTS = {PAIRING_ONE_DUEL: 1, PAIRING_RICHEST_THEN_WINNER: 2, PAIRING_POOREST_PICKS: 2}

# What `say` tells, by code; the params are names, numbers and amounts (formatted when said).
NEWS = {
    "start": gettext_lazy("La partie commence par le coup d’envoi : %(name)s choisit une "
                          "question."),
    "envoi_pick": gettext_lazy("%(name)s prend la question n° %(number)s."),
    "envoi_right": gettext_lazy("Bonne réponse pour %(name)s."),
    "envoi_wrong": gettext_lazy("Mauvaise réponse pour %(name)s : étoile orange."),
    "turn": gettext_lazy("À %(name)s de jouer."),
    "red": gettext_lazy("Deuxième erreur pour %(name)s : étoile rouge, la manche est perdue."),
    "deck_out": gettext_lazy("Plus de questions : %(name)s, qui a le plus d’erreurs, perd la "
                             "manche."),
    "choose_duel": gettext_lazy("%(name)s choisit qui provoquer en duel."),
    "challenged": gettext_lazy("%(name)s provoque %(other)s en duel."),
    "card_picked": gettext_lazy("%(name)s choisit la carte %(number)s."),
    "duel_won": gettext_lazy("%(other)s gagne le duel : %(name)s lui donne %(amount)s."),
    "duel_lost": gettext_lazy("%(other)s perd le duel et donne %(amount)s à %(name)s."),
    "cpc_starts": gettext_lazy("Le coup par coup commence : à %(name)s de jouer."),
    "cpc_right": gettext_lazy("VRAI pour %(name)s."),
    "cpc_all": gettext_lazy("VRAI pour %(name)s : tous les VRAI sont ouverts."),
    "cpc_wrong": gettext_lazy("FAUX : %(name)s a ouvert l’intrus, étoile orange."),
    "next_fiche": gettext_lazy("Fiche suivante : à %(name)s de jouer."),
    "fatal_pick": gettext_lazy("Le coup fatal commence : %(name)s, qui a le moins d’argent, "
                               "choisit son adversaire."),
    "fatal_ready": gettext_lazy("Face-à-face : %(name)s contre %(other)s ; %(name)s commence."),
    "fatal_begin": gettext_lazy("Chrono en marche pour %(name)s."),
    "fatal_right": gettext_lazy("Bonne réponse pour %(name)s : chrono en marche pour "
                                "%(other)s."),
    "fatal_wrong": gettext_lazy("Mauvaise réponse pour %(name)s : question suivante."),
    "fatal_pass": gettext_lazy("%(name)s passe : question suivante."),
    "fatal_accepted": gettext_lazy("Réponse acceptée pour %(name)s : chrono en marche pour "
                                   "%(other)s."),
    "fatal_timeout": gettext_lazy("Temps écoulé pour %(name)s, qui donne %(amount)s à "
                                  "%(other)s."),
    "fatal_no_questions": gettext_lazy("Plus de questions : %(name)s a le moins de temps et "
                                       "donne %(amount)s à %(other)s."),
    "final_starts": gettext_lazy("La finale commence : %(name)s répond à la question n° 1."),
    "maitre_right": gettext_lazy("Bonne réponse pour %(name)s : %(amount)s et un grand volet "
                                 "s’ouvre."),
    "maitre_wrong": gettext_lazy("Mauvaise réponse pour %(name)s : un petit volet s’ouvre."),
    "guess_wrong": gettext_lazy("%(name)s se trompe sur l’étoile mystérieuse et quitte la "
                                "finale."),
    "guess_right": gettext_lazy("%(name)s trouve l’étoile mystérieuse et gagne %(amount)s !"),
    "no_guess": gettext_lazy("Personne n’a trouvé l’étoile mystérieuse."),
    "all_out": gettext_lazy("Personne n’est plus en lice : la cagnotte reste à la banque."),
    "master": gettext_lazy("%(name)s est Maître de Midi !"),
    "masters": gettext_lazy("%(name)s sont Maîtres de Midi ex æquo !"),
}


def euros(amount: int) -> str:
    """Return an amount the French way: « 10 000 € » (narrow no-break spaces)."""
    return f"{amount:,}".replace(",", "\u202f") + "\u00a0€"


class DouzeCoupsEngine:
    slug = SLUG
    min_players = 2
    max_players = 4
    private_hands = False  # the whole table plays on one shared screen

    def needs(self, players: int) -> dict[str, int]:
        """Return the most units of each kind a game draws: the registry's full game."""
        return _most(GAMES[SLUG])

    def start(self, spec, content, players, seed, *, now=0.0) -> State:
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Refused("players", _(
                "Les 12 Coups de Midi se jouent de %(a)s à %(b)s joueurs.") % {
                "a": self.min_players, "b": self.max_players})
        rules = _rules(spec, len(players))
        counts = _most(spec)
        # The least each round needs to be played at all; past it, a deck that runs out
        # ends its round (see the module docstring).
        least = {ENVOI: 1, COUP_PAR_COUP: 1, FATAL: rules["bouts"],
                 MAITRE: rules["coup_de_maitre_questions"], ETOILE: 1}
        decks = {}
        for kind, needed in least.items():
            units = tuple(content.get(kind, ()))[:counts[kind]]
            if kind == MAITRE:
                units = tuple(_maitre_cards(units, rules["coup_de_maitre_questions"]))
            if len(units) < needed:
                raise NotEnoughContent(kind, needed, len(units))
            decks[kind] = [_packed(unit) for unit in units]
        duels = tuple(content.get(DUEL, ()))
        pair = _first_pair(duels)
        if pair is None:
            raise NotEnoughContent(DUEL, 2, len(duels))
        decks[DUEL] = [_packed(unit) for unit in pair]
        _shuffle_choices(decks, seed)
        state: State = {
            "game": SLUG,
            "seed": seed,
            "rules": rules,
            "players": [{"name": name, "money": rules["start_money"], "errors": 0,
                         "out": False} for name in players],
            "decks": decks,
            "phase": ENVOI,
            "step": PICK,
            "turn": 0,  # the setup lists the youngest first: the youngest starts
            "question": None,  # where the question in play lies, and when it was shown
            "envoi": {"card": 0, "number": None},
            "duel": {"number": 1, "provoker": None, "provoked": None, "card": None},
            "cpc": {"fiche": 0, "opened": []},
            "fatal": None,
            "final": None,
            "last": None,  # the reveal of the last answer, for the table to read
            "news": [],
            "winners": [],
            "etoile_winner": None,
            "now": now,
        }
        _news(state, "start", name=players[0])
        return state

    def apply(self, state: State, action: dict):
        if not isinstance(action, dict):
            raise Refused("bad_value")
        if state["phase"] == OVER:
            raise Refused("finished", _("La partie est terminée."))
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ACTIONS:
            raise Refused("unknown_action")
        handler = HANDLERS.get((state["phase"], state["step"]), {}).get(kind)
        if handler is None:
            raise Refused("not_now")
        now = action.get("now")
        if isinstance(now, bool) or not isinstance(now, int | float):
            raise Refused("bad_value")
        step = Step(evolve(state))
        step.state["news"] = []
        handler(step, action, float(now))
        step.state["now"] = float(now)
        return step.state, step.events

    def view(self, state: State, seat=TABLE) -> dict:
        # One shared screen: every seat sees what the table sees.
        rules = state["rules"]
        phase, stage = state["phase"], state["step"]
        over = phase == OVER
        players = []
        for number, player in enumerate(state["players"]):
            star = _star(player["errors"], rules["errors_before_duel"])
            players.append({
                "seat": number, "name": player["name"], "money": player["money"],
                "money_label": euros(player["money"]), "star": star,
                "star_label": str(STAR_LABELS[star]), "current": number == state["turn"],
                "out": player["out"], "winner": number in state["winners"]})
        turn = state["turn"]
        shown = {
            "game": SLUG,
            "phase": phase,
            "step": stage,
            "round": str(ROUND_LABELS[phase]),
            "say": _say(state),
            "players": players,
            "turn": turn,
            "turn_name": _name(state, turn) if turn is not None else "",
            "question": _question_view(state),
            "last": dict(state["last"]) if state["last"] else None,
            "finished": over,
            "winners": list(state["winners"]),
            "masters": [_name(state, s) for s in state["winners"]],
            "etoile_winner": state["etoile_winner"],
        }
        if phase == ENVOI:
            envoi = state["envoi"]
            card = state["decks"][ENVOI][envoi["card"]]
            shown["card"] = {"number": envoi["card"] + 1, "of": len(state["decks"][ENVOI])}
            shown["numbers"] = list(range(1, len(card["items"]) + 1))
        elif phase == DUEL:
            shown["duel"] = _duel_view(state)
        elif phase == COUP_PAR_COUP:
            cpc = state["cpc"]
            fiche = state["decks"][COUP_PAR_COUP][cpc["fiche"]]
            shown["fiche"] = {"number": cpc["fiche"] + 1, "of": len(state["decks"][COUP_PAR_COUP]),
                              "title": fiche["title"]}
        elif phase == FATAL:
            shown.update(_fatal_view(state))
        if stage == CHALLENGE:
            shown["targets"] = [{"seat": s, "name": _name(state, s)}
                                for s in range(len(state["players"])) if s != turn]
        if state["final"] is not None:
            shown["image"] = _image_view(state)
            shown["etoile"] = _etoile_view(state)
            shown["final"] = {"number": min(state["final"]["asked"] + 1,
                                            rules["coup_de_maitre_questions"]),
                              "of": rules["coup_de_maitre_questions"],
                              "panels": rules["large_panels"] + rules["small_panels"]}
        return shown

    def deadline(self, state: State) -> float | None:
        if state["phase"] != FATAL or state["step"] != RUN:
            return None
        return _deadline(state)

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER

    def simulated_action(self, state: State, rng, knows) -> tuple[float, dict]:
        """Return what a simulated table does next (player.coverage): numbers, cards and
        opponents picked at random, each answer right as `knows` says."""
        phase, stage, seat = state["phase"], state["step"], state["turn"]
        if stage == PICK and phase == ENVOI:
            card = state["decks"][ENVOI][state["envoi"]["card"]]
            return SIM_PICK, {"type": "pick", "seat": seat,
                              "number": rng.randint(1, len(card["items"]))}
        if stage == PICK:
            return SIM_PICK, {"type": "pick_card", "seat": seat,
                              "card": rng.randint(1, len(state["decks"][DUEL]))}
        if stage == CHALLENGE:
            others = [s for s in _seats(state) if s != seat]
            return SIM_PICK, {"type": "challenge", "seat": seat, "target": rng.choice(others)}
        if stage == READY:
            return SIM_PICK, {"type": "begin", "seat": seat}
        where = state["question"]
        item = state["decks"][where["kind"]][where["unit"]]["items"][where["item"]]
        asked = {"seat": seat, "question": item["id"]}
        if phase == FATAL:
            right = knows(item["difficulty"], 0.0)
            return rng.uniform(*SIM_FATAL_SECONDS), {
                "type": "answer", **asked, "text": item["answer"] if right else ""}
        if phase == COUP_PAR_COUP:
            closed = [i for i in range(len(item["choices"])) if i not in state["cpc"]["opened"]]
            true = [i for i in closed if item["choices"][i]["right"]]
            right = bool(true) and knows(item["difficulty"], len(true) / len(closed))
            false = [i for i in closed if i not in true]
            chosen = rng.choice(true if right or not false else false)
            return SIM_ANSWER, {"type": "answer", **asked, "choice": chosen}
        if phase == FINAL:
            final, rules = state["final"], state["rules"]
            # The more panels are open, the likelier someone dares a guess.
            opened = (final["large"] + final["small"]) / (
                rules["large_panels"] + rules["small_panels"])
            if rng.random() < opened / 2 and not state["players"][seat]["out"]:
                etoile = _etoile(state)
                right = knows(etoile.difficulty, 0.0)
                return SIM_ANSWER, {"type": "guess", "seat": seat, "question": etoile.id,
                                    "text": etoile.answer if right else "?"}
        choices = item["choices"]
        right = knows(item["difficulty"], 1 / len(choices))
        pool = [i for i, c in enumerate(choices) if c["right"] == right] or list(
            range(len(choices)))
        chosen = rng.choice(pool)
        visible = sum(1 for c in choices if not c["hidden"])
        return SIM_ANSWER, {"type": "answer", **asked,
                            "choice": chosen if chosen < visible else HIDDEN}


# Seconds a simulated table takes to pick, to answer, and to answer a coup fatal question.
SIM_PICK = 2.0
SIM_ANSWER = 5.0
SIM_FATAL_SECONDS = (2.0, 6.0)


# --- set-up ----------------------------------------------------------------------------------


def _rules(spec, players: int) -> dict:
    """Return the numbers this table plays with, JSON-ready."""
    rules = spec.rules
    pairing = rules.face_a_face_pairings.get(players)
    if pairing not in BOUTS:
        raise ValueError(f"douze-coups: no face-à-face pairing for {players} players")
    return {
        "start_money": rules.start_money,
        "duel_stake": rules.duel_stake,
        "face_a_face_stake": rules.face_a_face_stake,
        "face_a_face_seconds": float(rules.face_a_face_seconds),
        "pairing": pairing,
        "bouts": BOUTS[pairing],
        "coup_de_maitre_questions": rules.coup_de_maitre_questions,
        "coup_de_maitre_gain": rules.coup_de_maitre_gain,
        "etoile_jackpot": rules.etoile_jackpot,
        "errors_before_duel": rules.errors_before_duel,
        "large_panels": rules.large_panels,
        "small_panels": rules.small_panels,
        "large_panel_width": rules.large_panel_width,
        "duel_colours": dict(rules.duel_colours),
    }


def _most(spec) -> dict[str, int]:
    """Return the units of each kind one game may draw; past them, a round's deck is out."""
    counts = {kind.slug: kind.full_game for kind in spec.kinds}
    # Question n is read from card n: more cards than questions let the final pick, for
    # each n, a card whose question n this browser has not been asked yet.
    counts[MAITRE] = spec.rules.coup_de_maitre_questions * 5
    return counts


def _maitre_cards(units: tuple[Unit, ...], questions: int) -> list[Unit]:
    """Return the cards the final reads, card n for question n, unseen questions first."""
    chosen: list[Unit] = []
    for n in range(questions):
        left = [u for u in units if u not in chosen and len(u.items) > n]
        fresh = [u for u in left if not u.items[n].seen]
        if fresh or left:
            chosen.append((fresh or left)[0])
    return chosen


def _packed(unit: Unit) -> dict:
    # Lists, not tuples: the state must come back equal from JSON.
    data = pack(unit)
    for item in data["items"]:
        item["choices"] = [dict(choice) for choice in item["choices"]]
        item["variants"] = list(item["variants"])
    data["items"] = list(data["items"])
    return data


def _shuffle_choices(decks: dict, seed: int) -> None:
    """Deal each question's propositions in a seeded order, the hidden ones kept last.

    An editor's habit (the right answer first, the intruder last) must not tell a player
    on screen which one it is; the printed card keeps the editor's order.
    """
    for kind, units in decks.items():
        for unit in units:
            for item in unit["items"]:
                visible = [c for c in item["choices"] if not c["hidden"]]
                hidden = [c for c in item["choices"] if c["hidden"]]
                dice({"seed": seed}, "order", kind, unit["id"], item["id"]).shuffle(visible)
                item["choices"] = visible + hidden


def _first_pair(duels: tuple[Unit, ...]) -> tuple[Unit, Unit] | None:
    """Return the first drawn duel card with its partner, if both were drawn."""
    by_id = {unit.id: unit for unit in duels}
    for unit in duels:
        partner = by_id.get(unit.pair) if unit.pair is not None else None
        if partner is not None and partner.id != unit.id:
            return unit, partner
    return None


# --- helpers ---------------------------------------------------------------------------------


def _name(state: State, seat: int) -> str:
    return state["players"][seat]["name"]


def _news(state: State, code: str, **params) -> None:
    state["news"].append([code, params])


def _say(state: State) -> str:
    sentences = []
    for code, params in state["news"]:
        values = {k: euros(v) if k == "amount" else _listed(v) if isinstance(v, list) else v
                  for k, v in params.items()}
        sentences.append(str(NEWS[code]) % values)
    return " ".join(sentences)


def _listed(names: list[str]) -> str:
    """Return names as French lists them: « Léa, Hugo et Inès »."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s et %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _star(errors: int, limit: int) -> str:
    if errors >= limit:
        return STARS[2]
    return STARS[1] if errors else STARS[0]


def _seats(state: State) -> range:
    return range(len(state["players"]))


def _next_seat(state: State, seat: int) -> int:
    """Return the next player clockwise still in the game."""
    count = len(state["players"])
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not state["players"][candidate]["out"]:
            return candidate
    return seat


def _poorest(state: State, seats=None) -> int:
    """Return the player with the least money; the younger (lower seat) among equals."""
    seats = _seats(state) if seats is None else seats
    return min(seats, key=lambda s: (state["players"][s]["money"], s))


def _richest_first(state: State, seats) -> list[int]:
    return sorted(seats, key=lambda s: (-state["players"][s]["money"], s))


def _pay(state: State, payer: int, payee: int, amount: int) -> int:
    """Move money between players; nobody pays more than they have. Return what was paid."""
    paid = min(amount, state["players"][payer]["money"])
    state["players"][payer]["money"] -= paid
    state["players"][payee]["money"] += paid
    return paid


def _reset_stars(state: State) -> None:
    for player in state["players"]:
        player["errors"] = 0


def _in_turn(state: State, action: dict) -> int:
    """Return the acting seat, or refuse a player whose turn it is not."""
    seat = int_field(action, "seat", low=0, high=len(state["players"]) - 1)
    if seat != state["turn"]:
        raise Refused("not_your_turn", _("%(name)s doit attendre son tour.") % {
            "name": _name(state, seat)})
    return seat


def _ask(state: State, kind: str, unit: int, item: int, now: float) -> None:
    state["question"] = {"id": state["decks"][kind][unit]["items"][item]["id"], "kind": kind,
                         "unit": unit, "item": item, "asked_at": now}


def _unit(state: State, kind: str, index: int) -> Unit:
    return unpack(state["decks"][kind][index])


def _item(state: State, where: dict) -> Item:
    return _unit(state, where["kind"], where["unit"]).items[where["item"]]


def _asked(state: State, action: dict) -> Item:
    """Return the question in play, or refuse an action about another one."""
    where = state["question"]
    check_question(action, where["id"] if where else None)
    return _item(state, where)


def _chosen(action: dict, item: Item):
    """Return the proposition chosen: a visible one by its rank, or the hidden one."""
    visible = [c for c in item.choices if not c.hidden]
    hidden = [c for c in item.choices if c.hidden]
    choice = action.get("choice")
    if isinstance(choice, str) and choice.strip() == HIDDEN:
        if not hidden:
            raise Refused("bad_value")
        return hidden[0]
    return visible[int_field(action, "choice", low=0, high=len(visible) - 1)]


def _answered(step: Step, item: Item, seat: int, right: bool, mode: str, now: float,
              given: str) -> None:
    asked_at = (step.state["question"] or {}).get("asked_at")
    seconds = None if asked_at is None else round(max(0.0, now - asked_at), 2)
    step.emit(ANSWERED, question=item.id, seat=seat, right=right, mode=mode,
              seconds=seconds, given=given)


def _reveal(state: State, mode: str, item: Item, seat: int, given: str, right: bool, *,
            answer: str | None, anecdote: bool = True) -> None:
    """Keep what the table may now read about the question just answered."""
    hidden = [c.text for c in item.choices if c.hidden]
    state["last"] = {
        "mode": mode, "seat": seat, "name": _name(state, seat), "question": item.text,
        "given": given, "right": right, "answer": answer,
        "hidden": hidden[0] if hidden and answer is not None else None,
        "anecdote": item.anecdote if anecdote and answer is not None else "",
        "accepted": False,
    }


def _right_text(item: Item) -> str:
    return next((c.text for c in item.choices if c.right), "")


def _add_error(state: State, seat: int) -> bool:
    """Turn a star one colour further; return whether it is now red."""
    player = state["players"][seat]
    player["errors"] += 1
    return player["errors"] >= state["rules"]["errors_before_duel"]


def _deck_out(step: Step, now: float) -> None:
    """End a round whose deck ran out: the player with the most errors loses it."""
    state = step.state
    loser = min(_seats(state), key=lambda s: (-state["players"][s]["errors"],
                                              state["players"][s]["money"], s))
    state["players"][loser]["errors"] = state["rules"]["errors_before_duel"]
    _news(state, "deck_out", name=_name(state, loser))
    _to_duel(step, loser, now)


# --- round 1: the coup d'envoi ---------------------------------------------------------------


def _envoi_pick(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    envoi = state["envoi"]
    card = state["decks"][ENVOI][envoi["card"]]
    number = int_field(action, "number", low=1, high=len(card["items"]))
    envoi["number"] = number
    _ask(state, ENVOI, envoi["card"], number - 1, now)
    state["step"] = ANSWER
    _news(state, "envoi_pick", name=_name(state, seat), number=number)


def _envoi_answer(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    chosen = _chosen(action, item)
    _answered(step, item, seat, chosen.right, ENVOI, now, chosen.text)
    _reveal(state, ENVOI, item, seat, chosen.text, chosen.right, answer=_right_text(item))
    envoi = state["envoi"]
    envoi["number"] = None
    state["question"] = None
    if not chosen.right and _add_error(state, seat):
        _news(state, "red", name=_name(state, seat))
        _to_duel(step, seat, now)
        return
    _news(state, "envoi_right" if chosen.right else "envoi_wrong", name=_name(state, seat))
    # The rules draw a fresh card for every turn: the next player picks among its four.
    if envoi["card"] + 1 >= len(state["decks"][ENVOI]):
        _deck_out(step, now)
        return
    envoi["card"] += 1
    state["turn"] = _next_seat(state, seat)
    state["step"] = PICK
    _news(state, "turn", name=_name(state, state["turn"]))


# --- the duels -------------------------------------------------------------------------------


def _to_duel(step: Step, provoker: int, now: float) -> None:
    state = step.state
    state["phase"] = DUEL
    state["question"] = None
    duel = state["duel"]
    duel["provoker"], duel["provoked"] = provoker, None
    state["turn"] = provoker
    others = [s for s in _seats(state) if s != provoker]
    if len(others) == 1:
        _challenged(step, others[0], now)
    else:
        state["step"] = CHALLENGE
        _news(state, "choose_duel", name=_name(state, provoker))


def _challenged(step: Step, target: int, now: float) -> None:
    state = step.state
    duel = state["duel"]
    duel["provoked"] = target
    state["turn"] = target
    _news(state, "challenged", name=_name(state, duel["provoker"]), other=_name(state, target))
    if duel["number"] == 1:
        state["step"] = PICK
    else:
        _ask(state, DUEL, 1 - duel["card"], 0, now)
        state["step"] = ANSWER


def _duel_challenge(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    target = _opponent(state, action, seat)
    _challenged(step, target, now)


def _opponent(state: State, action: dict, seat: int) -> int:
    target = int_field(action, "target", low=0, high=len(state["players"]) - 1)
    if target == seat:
        raise Refused("self", _("Choisissez un autre joueur."))
    return target


def _duel_pick(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    card = int_field(action, "card", low=1, high=len(state["decks"][DUEL]))
    state["duel"]["card"] = card - 1
    _ask(state, DUEL, card - 1, 0, now)
    state["step"] = ANSWER
    _news(state, "card_picked", name=_name(state, seat), number=card)


def _duel_answer(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    chosen = _chosen(action, item)
    _answered(step, item, seat, chosen.right, DUEL, now, chosen.text)
    _reveal(state, DUEL, item, seat, chosen.text, chosen.right, answer=_right_text(item))
    duel = state["duel"]
    provoker, stake = duel["provoker"], state["rules"]["duel_stake"]
    if chosen.right:
        paid, loser = _pay(state, provoker, seat, stake), provoker
        _news(state, "duel_won", name=_name(state, provoker), other=_name(state, seat),
              amount=paid)
    else:
        paid, loser = _pay(state, seat, provoker, stake), seat
        _news(state, "duel_lost", name=_name(state, provoker), other=_name(state, seat),
              amount=paid)
    state["question"] = None
    _reset_stars(state)
    if duel["number"] == 1:
        duel["number"] = 2
        state["phase"] = COUP_PAR_COUP
        state["turn"] = loser  # the rule text: the duel's loser starts the coup par coup
        _ask(state, COUP_PAR_COUP, state["cpc"]["fiche"], 0, now)
        state["step"] = ANSWER
        _news(state, "cpc_starts", name=_name(state, loser))
    else:
        _to_fatal(step, now)


# --- round 2: the coup par coup --------------------------------------------------------------


def _cpc_answer(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    cpc = state["cpc"]
    index = int_field(action, "choice", low=0, high=len(item.choices) - 1)
    if index in cpc["opened"]:
        raise Refused("already_open", _("Cette proposition est déjà ouverte."))
    cpc["opened"].append(index)
    chosen = item.choices[index]
    _answered(step, item, seat, chosen.right, COUP_PAR_COUP, now, chosen.text)
    fiche_over = not chosen.right or all(
        i in cpc["opened"] for i, c in enumerate(item.choices) if c.right)
    # The intruder and the anecdote (which may name it) wait for the fiche's end.
    intruder = next((c.text for c in item.choices if not c.right), "")
    _reveal(state, COUP_PAR_COUP, item, seat, chosen.text, chosen.right,
            answer=intruder if fiche_over else None)
    if not chosen.right and _add_error(state, seat):
        _news(state, "red", name=_name(state, seat))
        _to_duel(step, seat, now)
        return
    verdict = "cpc_wrong" if not chosen.right else "cpc_all" if fiche_over else "cpc_right"
    _news(state, verdict, name=_name(state, seat))
    state["turn"] = _next_seat(state, seat)
    if fiche_over:
        if cpc["fiche"] + 1 >= len(state["decks"][COUP_PAR_COUP]):
            state["question"] = None
            _deck_out(step, now)
            return
        cpc["fiche"] += 1
        cpc["opened"] = []
        _news(state, "next_fiche", name=_name(state, state["turn"]))
    else:
        _news(state, "turn", name=_name(state, state["turn"]))
    _ask(state, COUP_PAR_COUP, cpc["fiche"], 0, now)


# --- round 3: the coup fatal -----------------------------------------------------------------


def _to_fatal(step: Step, now: float) -> None:
    state = step.state
    state["phase"] = FATAL
    state["fatal"] = {"bout": 0, "seats": [], "next": [], "results": [], "remaining": [],
                      "running": 0, "since": None, "card": 0, "item": 0, "end": 0,
                      "override": None}
    pairing = state["rules"]["pairing"]
    if pairing == PAIRING_POOREST_PICKS:
        picker = _poorest(state)
        state["step"] = CHALLENGE
        state["turn"] = picker
        _news(state, "fatal_pick", name=_name(state, picker))
    elif pairing == PAIRING_RICHEST_THEN_WINNER:
        _ready(state, _richest_first(state, _seats(state))[:2])
    else:
        _ready(state, list(_seats(state)))


def _ready(state: State, pair: list[int]) -> None:
    """Set up the next face-à-face: the richer starts, both clocks full."""
    fatal, rules = state["fatal"], state["rules"]
    fatal["seats"] = _richest_first(state, pair)
    fatal["remaining"] = [rules["face_a_face_seconds"]] * 2
    fatal["running"] = 0
    fatal["since"] = None
    fatal["override"] = None
    # Each face-à-face reads its own share of the cards, so the last one has questions too.
    cards, bouts, bout = len(state["decks"][FATAL]), rules["bouts"], fatal["bout"]
    fatal["card"], fatal["item"] = bout * cards // bouts, 0
    fatal["end"] = (bout + 1) * cards // bouts
    state["question"] = None
    state["step"] = READY
    state["turn"] = fatal["seats"][0]
    _news(state, "fatal_ready", name=_name(state, fatal["seats"][0]),
          other=_name(state, fatal["seats"][1]))


def _fatal_challenge(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    target = _opponent(state, action, seat)
    state["fatal"]["next"] = [s for s in _seats(state) if s not in (seat, target)]
    _ready(state, [seat, target])


def _fatal_begin(step: Step, action: dict, now: float) -> None:
    state = step.state
    fatal = state["fatal"]
    fatal["since"] = now
    state["step"] = RUN
    state["last"] = None  # the screen is the face-à-face's now: its own reveals only
    _news(state, "fatal_begin", name=_name(state, fatal["seats"][0]))
    _fatal_continue(step, now)


def _fatal_ask(state: State, now: float) -> bool:
    """Show the next question of this face-à-face's cards; return False if none is left."""
    fatal = state["fatal"]
    while fatal["card"] < fatal["end"]:
        if fatal["item"] < len(state["decks"][FATAL][fatal["card"]]["items"]):
            _ask(state, FATAL, fatal["card"], fatal["item"], now)
            fatal["item"] += 1
            return True
        fatal["card"] += 1
        fatal["item"] = 0
    return False


def _fatal_continue(step: Step, now: float) -> None:
    if not _fatal_ask(step.state, now):
        _bout_by_time(step, now)


def _time_left(state: State, now: float) -> float:
    fatal = state["fatal"]
    return fatal["remaining"][fatal["running"]] - (now - fatal["since"])


def _deadline(state: State) -> float:
    fatal = state["fatal"]
    return fatal["since"] + fatal["remaining"][fatal["running"]]


def _in_time(state: State, now: float) -> None:
    # Compared with the deadline itself: the server applies a timeout at exactly that time.
    if now >= _deadline(state):
        raise Refused("time_up", _("Le temps est écoulé."))


def _switch_clock(state: State, now: float) -> None:
    fatal = state["fatal"]
    fatal["remaining"][fatal["running"]] = _time_left(state, now)
    fatal["running"] = 1 - fatal["running"]
    fatal["since"] = now
    state["turn"] = fatal["seats"][fatal["running"]]


def _fatal_answer(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    _in_time(state, now)
    given = text_field(action, "text")
    if not given:
        _fatal_pass(step, action, now)
        return
    right = judge(given, item.answer, item.variants).right
    _answered(step, item, seat, right, FATAL, now, given)
    _reveal(state, FATAL, item, seat, given, right, answer=item.answer)
    fatal = state["fatal"]
    if right:
        fatal["override"] = None
        _switch_clock(state, now)
        _news(state, "fatal_right", name=_name(state, seat), other=_name(state, state["turn"]))
    else:
        fatal["override"] = {"question": item.id, "seat": seat}
        _news(state, "fatal_wrong", name=_name(state, seat))
    _fatal_continue(step, now)


def _fatal_pass(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    _in_time(state, now)
    _answered(step, item, seat, False, FATAL, now, "")
    _reveal(state, FATAL, item, seat, "", False, answer=item.answer)
    state["fatal"]["override"] = None
    _news(state, "fatal_pass", name=_name(state, seat))
    _fatal_continue(step, now)


def _fatal_override(step: Step, action: dict, now: float) -> None:
    state = step.state
    fatal = state["fatal"]
    accepted = fatal["override"]
    if accepted is None:
        raise Refused("nothing_to_accept", _("Il n’y a pas de réponse à accepter."))
    check_question(action, accepted["question"])
    _in_time(state, now)
    step.emit(OVERRIDDEN, question=accepted["question"], seat=accepted["seat"])
    fatal["override"] = None
    state["last"]["right"] = True
    state["last"]["accepted"] = True
    # The question shown since goes unasked: the other player gets a fresh one.
    _switch_clock(state, now)
    _news(state, "fatal_accepted", name=_name(state, accepted["seat"]),
          other=_name(state, state["turn"]))
    _fatal_continue(step, now)


def _fatal_timeout(step: Step, action: dict, now: float) -> None:
    state = step.state
    fatal = state["fatal"]
    if now < _deadline(state):
        raise Refused("not_yet", _("Le temps n’est pas encore écoulé."))
    fatal["remaining"][fatal["running"]] = 0.0
    fatal["since"] = now
    loser = fatal["seats"][fatal["running"]]
    winner = fatal["seats"][1 - fatal["running"]]
    _bout_over(step, loser, winner, "fatal_timeout", now)


def _bout_by_time(step: Step, now: float) -> None:
    """End a face-à-face whose questions ran out: the one with less time left loses."""
    state = step.state
    fatal = state["fatal"]
    running = fatal["running"]
    fatal["remaining"][running] = max(0.0, _time_left(state, now))
    fatal["since"] = now
    loses = running if fatal["remaining"][running] <= fatal["remaining"][1 - running] \
        else 1 - running
    _bout_over(step, fatal["seats"][loses], fatal["seats"][1 - loses], "fatal_no_questions",
               now)


def _bout_over(step: Step, loser: int, winner: int, code: str, now: float) -> None:
    state = step.state
    fatal = state["fatal"]
    paid = _pay(state, loser, winner, state["rules"]["face_a_face_stake"])
    _news(state, code, name=_name(state, loser), other=_name(state, winner), amount=paid)
    fatal["results"].append({"winner": winner, "loser": loser, "paid": paid})
    fatal["override"] = None
    state["question"] = None
    played = fatal["seats"]
    fatal["bout"] += 1
    if fatal["bout"] >= state["rules"]["bouts"]:
        _to_final(step, now)
    elif state["rules"]["pairing"] == PAIRING_RICHEST_THEN_WINNER:
        third = next(s for s in _seats(state) if s not in played)
        _ready(state, [winner, third])
    else:
        _ready(state, fatal["next"])


# --- the final: coup de maître and étoile mystérieuse ----------------------------------------


def _etoile(state: State) -> Item:
    return _unit(state, ETOILE, 0).items[0]


def _to_final(step: Step, now: float) -> None:
    state = step.state
    state["phase"] = FINAL
    state["step"] = ANSWER
    first = _poorest(state)
    state["turn"] = first
    state["final"] = {"asked": 0, "large": 0, "small": 0, "shown_at": now}
    _ask_maitre(state, now)
    step.emit(SHOWN, question=_etoile(state).id)
    _news(state, "final_starts", name=_name(state, first))


def _ask_maitre(state: State, now: float) -> None:
    # Question n is read from the n-th card drawn: each card offers its own question n.
    asked = state["final"]["asked"]
    items = state["decks"][MAITRE][asked]["items"]
    _ask(state, MAITRE, asked, min(asked, len(items) - 1), now)


def _final_answer(step: Step, action: dict, now: float) -> None:
    state = step.state
    seat = _in_turn(state, action)
    item = _asked(state, action)
    chosen = _chosen(action, item)
    rules, final = state["rules"], state["final"]
    _answered(step, item, seat, chosen.right, MAITRE, now, chosen.text)
    _reveal(state, MAITRE, item, seat, chosen.text, chosen.right, answer=_right_text(item))
    final["asked"] += 1
    if chosen.right:
        state["players"][seat]["money"] += rules["coup_de_maitre_gain"]
        final["large"] = min(final["large"] + 1, rules["large_panels"])
        _news(state, "maitre_right", name=_name(state, seat),
              amount=rules["coup_de_maitre_gain"])
    else:
        final["small"] = min(final["small"] + 1, rules["small_panels"])
        _news(state, "maitre_wrong", name=_name(state, seat))
    if final["asked"] >= rules["coup_de_maitre_questions"]:
        _news(state, "no_guess")
        _game_over(state, None)
        return
    state["turn"] = _next_seat(state, seat)
    _ask_maitre(state, now)


def _guess(step: Step, action: dict, now: float) -> None:
    state = step.state
    # Anyone still in the final may guess, whoever's turn it is.
    seat = int_field(action, "seat", low=0, high=len(state["players"]) - 1)
    if state["players"][seat]["out"]:
        raise Refused("out", _("%(name)s ne peut plus proposer de réponse.") % {
            "name": _name(state, seat)})
    etoile = _etoile(state)
    check_question(action, etoile.id)
    given = text_field(action, "text")
    if not given:
        raise Refused("empty", _("Écrivez ce que représente l’étoile mystérieuse."))
    right = judge(given, etoile.answer, etoile.variants).right
    seconds = round(max(0.0, now - state["final"]["shown_at"]), 2)
    step.emit(ANSWERED, question=etoile.id, seat=seat, right=right, mode=ETOILE_MODE,
              seconds=seconds, given=given)
    if right:
        jackpot = state["rules"]["etoile_jackpot"]
        state["players"][seat]["money"] += jackpot
        _reveal(state, ETOILE_MODE, etoile, seat, given, True, answer=etoile.answer)
        _news(state, "guess_right", name=_name(state, seat), amount=jackpot)
        _game_over(state, seat)
        return
    state["players"][seat]["out"] = True
    _reveal(state, ETOILE_MODE, etoile, seat, given, False, answer=None)
    _news(state, "guess_wrong", name=_name(state, seat))
    if all(player["out"] for player in state["players"]):
        _news(state, "all_out")
        _game_over(state, None)
    elif state["turn"] == seat:
        # The question in play passes, unanswered, to the next player still in.
        state["turn"] = _next_seat(state, seat)
        state["question"]["asked_at"] = now


def _game_over(state: State, etoile_winner: int | None) -> None:
    state["phase"] = OVER
    state["step"] = None
    state["question"] = None
    state["turn"] = None
    state["etoile_winner"] = etoile_winner
    if etoile_winner is not None:
        winners = [etoile_winner]
    else:
        still_in = [s for s in _seats(state) if not state["players"][s]["out"]]
        candidates = still_in or list(_seats(state))
        top = max(state["players"][s]["money"] for s in candidates)
        winners = [s for s in candidates if state["players"][s]["money"] == top]
    state["winners"] = winners
    _news(state, "master" if len(winners) == 1 else "masters",
          name=[_name(state, s) for s in winners])


# --- views -----------------------------------------------------------------------------------


def _question_view(state: State) -> dict | None:
    """Return the question in play without anything that tells its answer."""
    where = state["question"]
    if where is None:
        return None
    item = _item(state, where)
    kind = where["kind"]
    shown = {"id": item.id, "kind": kind, "text": item.text, "theme": item.theme}
    if kind == COUP_PAR_COUP:
        opened = state["cpc"]["opened"]
        shown["propositions"] = [
            {"choice": str(i), "text": c.text, "open": i in opened,
             # Only an opened proposition says VRAI (a FAUX opened ends the fiche).
             "verdict": "vrai" if i in opened else None}
            for i, c in enumerate(item.choices)]
    elif kind == FATAL:
        shown["free"] = True
    else:
        shown["propositions"] = [{"choice": str(i), "text": c.text} for i, c in
                                 enumerate(c for c in item.choices if not c.hidden)]
        shown["hidden"] = any(c.hidden for c in item.choices)
    if kind == ENVOI:
        shown["number"] = state["envoi"]["number"]
    elif kind == MAITRE:
        shown["number"] = state["final"]["asked"] + 1
        shown["of"] = state["rules"]["coup_de_maitre_questions"]
    return shown


def _duel_view(state: State) -> dict:
    duel = state["duel"]
    first = state["decks"][DUEL][0]
    colour = first["colour"]
    shown = {"number": duel["number"],
             "title": first["title"], "colour": colour,
             "colour_hex": state["rules"]["duel_colours"].get(colour, ""),
             "provoker": duel["provoker"], "provoker_name": _name(state, duel["provoker"]),
             "provoked": duel["provoked"],
             "provoked_name": _name(state, duel["provoked"]) if duel["provoked"] is not None
             else "",
             "stake": euros(state["rules"]["duel_stake"])}
    if state["step"] == PICK:
        shown["cards"] = list(range(1, len(state["decks"][DUEL]) + 1))
    return shown


def _fatal_view(state: State) -> dict:
    fatal = state["fatal"]
    shown: dict[str, Any] = {
        "results": [{**r, "winner_name": _name(state, r["winner"]),
                     "loser_name": _name(state, r["loser"]), "paid": euros(r["paid"])}
                    for r in fatal["results"]],
        "stake": euros(state["rules"]["face_a_face_stake"])}
    if state["step"] in (READY, RUN):
        shown["bout"] = {"number": fatal["bout"] + 1, "of": state["rules"]["bouts"],
                         "seats": list(fatal["seats"]),
                         "names": [_name(state, s) for s in fatal["seats"]]}
        running = state["step"] == RUN
        shown["clock"] = [
            {"seat": s, "name": _name(state, s), "remaining": round(fatal["remaining"][i], 3),
             "running": running and i == fatal["running"], "at": fatal["since"]}
            for i, s in enumerate(fatal["seats"])]
        accepted = fatal["override"]
        shown["override"] = None if accepted is None else {
            "question": accepted["question"], "seat": accepted["seat"],
            "name": _name(state, accepted["seat"])}
    return shown


def _image_view(state: State) -> dict:
    """Return the étoile's opened panels, as fractions of its square, top to bottom."""
    rules, final = state["rules"], state["final"]
    over = state["phase"] == OVER
    large = rules["large_panels"] if over else final["large"]
    small = rules["small_panels"] if over else final["small"]
    width = rules["large_panel_width"]
    panels = [[0.0, i / rules["large_panels"], width, 1 / rules["large_panels"]]
              for i in range(large)]
    panels += [[width, i / rules["small_panels"], 1 - width, 1 / rules["small_panels"]]
               for i in range(small)]
    return {"question": _etoile(state).id, "panels": panels}


def _etoile_view(state: State) -> dict:
    etoile = _etoile(state)
    shown = {"question": etoile.id, "text": etoile.text,
             "jackpot": euros(state["rules"]["etoile_jackpot"]),
             "guessers": [{"seat": s, "name": _name(state, s)} for s in _seats(state)
                          if not state["players"][s]["out"]]}
    if state["phase"] == OVER:
        shown["answer"] = etoile.answer
        shown["anecdote"] = etoile.anecdote
    return shown


HANDLERS = {
    (ENVOI, PICK): {"pick": _envoi_pick},
    (ENVOI, ANSWER): {"answer": _envoi_answer},
    (DUEL, CHALLENGE): {"challenge": _duel_challenge},
    (DUEL, PICK): {"pick_card": _duel_pick},
    (DUEL, ANSWER): {"answer": _duel_answer},
    (COUP_PAR_COUP, ANSWER): {"answer": _cpc_answer},
    (FATAL, CHALLENGE): {"challenge": _fatal_challenge},
    (FATAL, READY): {"begin": _fatal_begin},
    (FATAL, RUN): {"answer": _fatal_answer, "pass": _fatal_pass, "override": _fatal_override,
                   "timeout": _fatal_timeout},
    (FINAL, ANSWER): {"answer": _final_answer, "guess": _guess},
}
ACTIONS = {kind for handlers in HANDLERS.values() for kind in handlers}

ENGINE = DouzeCoupsEngine()
