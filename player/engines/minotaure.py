"""Le jeu du Minotaure on one shared screen: flick marbles, bluff, outlast the others.

The board is `cms.games.labyrinth`'s, the one printing draws; each flick is simulated on the
server by `minotaure_physics` (pymunk) and the page animates the trajectory it returns.

Each player secretly holds a colour (a Thésée card); a colour nobody holds is a neutral
marble. The device goes round once at the start: each player in turn sees their colour on a
screen that hides it again, and may look again later the same way. The table's view never
says who holds which colour until a prisoner is eaten.

Rules as settled in GAMES.md, and where the printed rules leave a gap:
- on a turn, flick any prisoner or the Minotaur (Thésée too, in its variant); a player whose
  prisoner was eaten flicks only the Minotaur;
- a foul (a marble jumping a wall) puts every marble back and ends the turn, Ariane's extra
  flick included;
- Thésée touching the Minotaur ends the game at once: the player who flicked wins,
  « quel que soit le nombre de prisonniers encore en jeu », as GAMES.md and the printed
  card say, even one whose prisoner was eaten (the variant's own rule is the particular one);
- prisoners eaten by one flick leave in the order they were touched, those eaten at the same
  moment (the Minotaur entering the room) in the order of play from the mover: that order
  says who was eliminated first, who starts the next game;
- Ariane: a player may discard their card on their turn, before a flick, for one more flick
  of any marble but the Minotaur; whoever flicked the move that eats a player's prisoner
  takes the Ariane cards that player still held (not their own: a move may eat the mover's).
"""

from __future__ import annotations

import math
import re
from functools import cache

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.labyrinth import Arc, standard_labyrinth
from cms.games.minotaure import COLOURS, MINOTAUR_COLOUR, RULES, THESEE_COLOUR

from . import minotaure_physics as physics
from .base import TABLE, Option, Refused, State, Step, dice, evolve, text_field
from .minotaure_physics import MINOTAUR, THESEE, Flick

DEAL = "deal"  # the device goes round: each player sees their colour
PLAY = "play"
OVER = "over"

# The prisoners' names, as the page says them (the palette's keys are French already).
LABELS = {
    "rouge": gettext_lazy("Rouge"), "orange": gettext_lazy("Orange"),
    "jaune": gettext_lazy("Jaune"), "vert": gettext_lazy("Vert"),
    "turquoise": gettext_lazy("Turquoise"), "bleu": gettext_lazy("Bleu"),
    "violet": gettext_lazy("Violet"), "rose": gettext_lazy("Rose"),
    "marron": gettext_lazy("Marron"), "blanc": gettext_lazy("Blanc"),
    MINOTAUR: gettext_lazy("le Minotaure"), THESEE: gettext_lazy("Thésée"),
}


DECIMAL = re.compile(r"-?[0-9]{1,4}(\.[0-9]{1,3})?")
MARBLE_ORDER = (*COLOURS, THESEE, MINOTAUR)  # as the page lists them
HEX = {**COLOURS, MINOTAUR: MINOTAUR_COLOUR, THESEE: THESEE_COLOUR}


def colour_label(colour: str) -> str:
    """Return a marble's name as the page says it: « Rouge », « le Minotaure »."""
    return str(LABELS[colour])


def _number(action: dict, key: str, *, low: float, high: float) -> float:
    """Return action[key] as a finite number in [low, high], or refuse the action."""
    value = action.get(key)
    if isinstance(value, bool):
        raise Refused("bad_value")
    if isinstance(value, str):
        # A decimal as a form writes it (a comma allowed): no exponent, no "_", no "inf".
        text = value.strip().replace(",", ".")
        if not DECIMAL.fullmatch(text):
            raise Refused("bad_value")
        value = float(text)
    if not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused("bad_value")
    if not low <= value <= high:
        raise Refused("bad_value")
    return float(value)


class MinotaureEngine:
    slug = "minotaure"
    min_players = 3
    max_players = RULES.thesee_cards
    # One shared screen: the secret colours are seen one player at a time, the device
    # passed round, and the table's view never carries them.
    private_hands = False
    options = (
        Option("thesee", gettext_lazy("Variante « Thésée »"),
               gettext_lazy("Une bille Thésée part avec les prisonniers ; si elle touche "
                            "le Minotaure, le joueur qui l’a poussé gagne aussitôt.")),
        Option("ariane", gettext_lazy("Variante « Ariane »"),
               gettext_lazy("Chaque joueur reçoit une carte Ariane : un coup de plus avec "
                            "une autre bille que le Minotaure. Qui élimine un joueur prend "
                            "sa carte s’il l’avait encore.")),
    )

    def needs(self, players: int) -> dict[str, int]:
        return {}  # no questions: the board and the marbles are the whole game

    def start(self, spec, content, players, seed, *, now=0.0, options=None) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise Refused("players", _("De %(a)s à %(b)s joueurs.") % {
                "a": self.min_players, "b": self.max_players})
        chosen = {o.slug for o in self.options if (options or {}).get(o.slug)}
        lab = standard_labyrinth()
        state: State = {
            "seed": seed,
            "players": list(players),
            "variants": sorted(chosen),
            "phase": DEAL,
            "owners": {},  # colour → seat: the secret
            "marbles": {name: list(xy) for name, xy in physics.starting_places(
                lab, thesee="thesee" in chosen).items()},
            "out": [],  # seats whose prisoner was eaten, in order
            "eaten": [],  # prisoners eaten, in order: {"marble", "seat", "by", "move"}
            "ariane": [1 if "ariane" in chosen else 0] * len(players),
            "extra": False,  # the current player has discarded an Ariane card
            "turn": 0,  # seat 0 plays first: the youngest, or the first eaten last time
            "move": 0,
            "peek": {"seat": 0, "shown": False},
            "last": None,
            "winner": None,
            "result": "",
            "say": "",
        }
        colours = list(COLOURS)[:RULES.thesee_cards]
        dice(state, "deal").shuffle(colours)
        state["owners"] = {colour: seat for seat, colour in enumerate(colours[:len(players)])}
        state["say"] = self._pass_sentence(state)
        return state

    def deadline(self, state: State) -> float | None:
        return None

    def finished(self, state: State) -> bool:
        return state["phase"] == OVER

    def next_table(self, state: State) -> tuple[list[str], dict[str, bool]]:
        """Return the next game's players and options: the first eaten now plays first."""
        players = list(state["players"])
        first = state["out"][0] if state["out"] else 0
        return players[first:] + players[:first], {v: True for v in state["variants"]}

    # --- actions -------------------------------------------------------------------------

    def apply(self, state: State, action: dict):
        kind = action.get("type")
        handler = {"peek": self._peek, "show": self._show, "hide": self._hide,
                   "flick": self._flick, "ariane": self._ariane}.get(
            kind if isinstance(kind, str) else "")
        if handler is None or state["phase"] == OVER:
            raise Refused("unknown_action")
        step = Step(evolve(state))
        handler(step, action)
        return step.state, step.events

    def _seat(self, state: State, action: dict) -> int:
        text = text_field(action, "seat", max_length=3)
        if not (text.isascii() and text.isdigit()) or int(text) >= len(state["players"]):
            raise Refused("bad_value")
        return int(text)

    def _peek(self, step: Step, action: dict) -> None:
        """Ask for the device to go to one player, to see their colour again."""
        state = step.state
        if state["phase"] != PLAY or state["peek"] is not None:
            raise Refused("not_now")
        state["peek"] = {"seat": self._seat(state, action), "shown": False}
        state["say"] = self._pass_sentence(state)

    def _show(self, step: Step, action: dict) -> None:
        state = step.state
        peek = state["peek"]
        if peek is None or peek["shown"] or self._seat(state, action) != peek["seat"]:
            raise Refused("not_now")
        peek["shown"] = True
        state["say"] = _("%(name)s, voici votre couleur. Cachez-la avant de rendre "
                         "l’appareil.") % {"name": state["players"][peek["seat"]]}

    def _hide(self, step: Step, action: dict) -> None:
        state = step.state
        peek = state["peek"]
        if peek is None or self._seat(state, action) != peek["seat"]:
            raise Refused("not_now")
        if state["phase"] == DEAL and not peek["shown"]:
            raise Refused("not_seen", _("Chacun voit sa couleur avant de passer l’appareil."))
        state["peek"] = None
        if state["phase"] == DEAL:
            if peek["seat"] + 1 < len(state["players"]):
                state["peek"] = {"seat": peek["seat"] + 1, "shown": False}
                state["say"] = self._pass_sentence(state)
                return
            state["phase"] = PLAY
        state["say"] = self._turn_sentence(state)

    def _ariane(self, step: Step, action: dict) -> None:
        state = step.state
        seat = state["turn"]
        self._expect_turn(state, action)
        if state["extra"]:
            raise Refused("ariane_played", _("Une carte Ariane est déjà jouée pour ce tour."))
        if seat in state["out"]:
            raise Refused("ariane_out", _("Un joueur éliminé ne pousse plus que le Minotaure : "
                                          "la carte Ariane ne lui sert plus."))
        if state["ariane"][seat] < 1:
            raise Refused("no_ariane", _("Vous n’avez pas de carte Ariane."))
        state["ariane"][seat] -= 1
        state["extra"] = True
        state["say"] = _("%(name)s joue une carte Ariane : un coup de plus, avec une autre "
                         "bille que le Minotaure.") % {"name": state["players"][seat]}

    def _expect_turn(self, state: State, action: dict) -> None:
        if state["phase"] != PLAY or state["peek"] is not None:
            raise Refused("not_now", _("Cachez d’abord la couleur secrète."))
        if str(action.get("move", "")) != str(state["move"]):
            raise Refused("not_current", _("Ce coup a déjà été joué."))

    def allowed(self, state: State) -> list[str]:
        """Return the marbles the player whose turn it is may flick now."""
        seat = state["turn"]
        if seat in state["out"]:
            return [MINOTAUR] if MINOTAUR in state["marbles"] else []
        names = [n for n in MARBLE_ORDER if n in state["marbles"]]
        return [n for n in names if n != MINOTAUR] if state["extra"] else names

    def _flick(self, step: Step, action: dict) -> None:
        state = step.state
        self._expect_turn(state, action)
        marble = text_field(action, "marble", max_length=20)
        if marble not in state["marbles"]:
            raise Refused("bad_value")
        seat = state["turn"]
        if marble not in self.allowed(state):
            if seat in state["out"]:
                raise Refused("only_minotaur", _("Votre prisonnier a été dévoré : vous ne "
                                                 "pouvez plus pousser que le Minotaure."))
            raise Refused("not_minotaur", _("Le coup de la carte Ariane se joue avec une "
                                            "autre bille que le Minotaure."))
        flick = Flick(marble, _number(action, "angle", low=-360, high=720) % 360,
                      _number(action, "strength", low=1, high=100) / 100)
        places = {name: (xy[0], xy[1]) for name, xy in state["marbles"].items()}
        outcome = physics.simulate(places, flick)
        extra = state["extra"]
        state["move"] += 1
        state["last"] = {"move": state["move"], "seat": seat, "marble": marble,
                         "angle": round(flick.angle, 1), "strength": round(flick.strength * 100),
                         "extra": extra, "foul": outcome.foul, "eaten": outcome.eaten,
                         "slain": outcome.thesee_won, "trajectory": outcome.trajectory()}
        state["extra"] = False
        if outcome.foul:
            state["say"] = _("Trop fort : %(marble)s a sauté un mur. Le coup est annulé, "
                             "les billes reprennent leur place et %(name)s passe son tour.") % {
                "marble": colour_label(outcome.foul), "name": state["players"][seat]}
            self._pass_turn(state)
            return
        state["marbles"] = {name: [x, y] for name, (x, y) in outcome.places.items()}
        said = [self._eat(state, name, seat) for name in self._eating_order(state, outcome)]
        if outcome.thesee_won:
            state["marbles"].pop(MINOTAUR, None)
            self._end(state, seat, "thesee")
            said.append(_("Thésée a terrassé le Minotaure !"))
        elif not self._settled(state):
            if not extra:
                self._pass_turn(state)
            said.append(self._turn_sentence(state))
        state["say"] = " ".join([*said, state["say"]] if state["phase"] == OVER else said)

    def _eating_order(self, state: State, outcome) -> list[str]:
        """Return the prisoners the flick ate: by the frame they were eaten at, then, eaten
        together, by their owners' order of play from the mover (neutrals last)."""
        frame = {e["marble"]: e["frame"] for e in outcome.events if e["type"] == "eaten"}
        players = len(state["players"])

        def key(marble: str) -> tuple[int, int]:
            owner = state["owners"].get(marble)
            after = players if owner is None else (owner - state["turn"]) % players
            return frame.get(marble, 0), after

        return sorted(outcome.eaten, key=key)

    def _eat(self, state: State, marble: str, by: int) -> str:
        owner = state["owners"].get(marble)
        state["marbles"].pop(marble, None)
        state["eaten"].append({"marble": marble, "seat": owner, "by": by,
                               "move": state["move"]})
        if owner is None:
            return _("%(marble)s est dévoré : c’était une bille neutre.") % {
                "marble": colour_label(marble)}
        state["out"].append(owner)
        if owner != by and state["ariane"][owner]:
            state["ariane"][by] += state["ariane"][owner]
            state["ariane"][owner] = 0
        return _("%(marble)s est dévoré : c’était la bille de %(name)s.") % {
            "marble": colour_label(marble), "name": state["players"][owner]}

    def _settled(self, state: State) -> bool:
        """End the game when one owned prisoner or none is left; tell whether it ended."""
        left = [seat for colour, seat in state["owners"].items() if colour in state["marbles"]]
        if len(left) > 1:
            return False
        self._end(state, left[0] if left else None, "last" if left else "nobody")
        return True

    def _end(self, state: State, winner: int | None, result: str) -> None:
        state["phase"] = OVER
        state["winner"] = winner
        state["result"] = result
        if winner is not None:
            state["say"] = _("%(name)s gagne la partie !") % {"name": state["players"][winner]}
        else:
            state["say"] = _("Personne ne gagne la partie.")

    def _pass_turn(self, state: State) -> None:
        state["turn"] = (state["turn"] + 1) % len(state["players"])

    # --- what the table sees -------------------------------------------------------------

    def _pass_sentence(self, state: State) -> str:
        return _("Passez l’appareil à %(name)s.") % {
            "name": state["players"][state["peek"]["seat"]]}

    def _turn_sentence(self, state: State) -> str:
        seat = state["turn"]
        name = state["players"][seat]
        if seat in state["out"]:
            return _("À %(name)s de jouer : le Minotaure seulement.") % {"name": name}
        return _("À %(name)s de jouer.") % {"name": name}

    def view(self, state: State, seat=TABLE) -> dict:
        lab = standard_labyrinth()
        revealed = {e["seat"]: e["marble"] for e in state["eaten"] if e["seat"] is not None}
        peek = state["peek"]
        peeking = None
        if peek is not None:
            peeking = {"seat": peek["seat"], "name": state["players"][peek["seat"]],
                       "shown": peek["shown"], "deal": state["phase"] == DEAL}
            if peek["shown"]:
                colour = next(c for c, s in state["owners"].items() if s == peek["seat"])
                peeking.update(colour=colour, label=colour_label(colour),
                               hex=COLOURS[colour], eaten=colour not in state["marbles"])
        over = state["phase"] == OVER
        players = []
        for index, name in enumerate(state["players"]):
            colour = revealed.get(index)
            players.append({
                "seat": index, "name": name, "out": index in state["out"],
                "current": state["phase"] == PLAY and index == state["turn"],
                "winner": index == state["winner"],
                "colour": colour, "label": colour_label(colour) if colour else "",
                "hex": COLOURS[colour] if colour else "",
                "ariane": state["ariane"][index],
            })
        if over:
            # The game is over: every card is turned up.
            for colour, index in state["owners"].items():
                players[index].update(colour=colour, label=colour_label(colour),
                                      hex=COLOURS[colour])
        pieces = {name: {"id": name, "label": colour_label(name),
                         "r": physics.radius_of(name, lab), "hex": HEX[name],
                         "kind": name if name in (MINOTAUR, THESEE) else "prisoner"}
                  for name in MARBLE_ORDER
                  if name != THESEE or "thesee" in state["variants"]}
        marbles = [{**pieces[name], "x": xy[0], "y": xy[1]}
                   for name in pieces if (xy := state["marbles"].get(name))]
        eaten = [{"marble": e["marble"], "label": colour_label(e["marble"]),
                  "hex": COLOURS[e["marble"]],
                  "owner": state["players"][e["seat"]] if e["seat"] is not None else "",
                  "by": state["players"][e["by"]]} for e in state["eaten"]]
        last = state["last"]
        turn = state["turn"]
        allowed = set(self.allowed(state)) if state["phase"] == PLAY and peek is None else set()
        return {
            "phase": state["phase"],
            "move": state["move"],
            "players": players,
            "turn": turn,
            "player": state["players"][turn],
            "out": turn in state["out"],
            "extra": state["extra"],
            "may_ariane": (state["phase"] == PLAY and peek is None and not state["extra"]
                           and turn not in state["out"] and state["ariane"][turn] > 0),
            "variants": state["variants"],
            "peek": peeking,
            "marbles": marbles,
            "pieces": pieces,  # every marble of the game, on the board or eaten
            "choices": [m for m in marbles if m["id"] in allowed],
            "eaten": eaten,
            "last": None if last is None else {
                **last, "by": state["players"][last["seat"]],
                "label": colour_label(last["marble"]),
                "foul_label": colour_label(last["foul"]) if last["foul"] else "",
                "eaten_labels": [colour_label(m) for m in last["eaten"]]},
            "winner": state["players"][state["winner"]] if state["winner"] is not None else "",
            "result": state["result"],
            "board": board_geometry(),
            "say": state["say"],
        }


@cache
def board_geometry() -> dict:
    """Return the board as the page draws it: the printed board's walls and marbles' sizes."""
    lab = standard_labyrinth()
    walls = []
    for wall in lab.walls():
        if isinstance(wall, Arc):
            walls.append({"arc": [wall.radius, wall.start, wall.end]})
        else:
            walls.append({"line": [wall.x1, wall.y1, wall.x2, wall.y2]})
    return {"labyrinth": lab.seed, "radius": lab.board_radius, "outer": lab.outer_radius,
            "room": lab.room_radius, "wall": lab.wall_thickness, "walls": walls,
            # Above this strength, a flick head on into a wall is a foul: the page warns.
            "foul_strength": math.floor(100 * physics.JUMP_SPEED / physics.TOP_SPEED)}


ENGINE = MinotaureEngine()
