"""The content rules, written once: pure functions that return problems.

The admin, the publish services, the importers, `manage.py validate_content` and
the printer all call these. Rules about one field live in field validators and
model constraints; the rules here look across rows (a card's questions, a ladder,
a whole game). They take model instances and the relations they read, passed in
(`GameContent`, loaded by `cms.selectors`), and never query the database: content built
in memory is checked as well as content loaded. `cms.rules` lists every rule and runs them.
Play calibrates the content too: `check_calibration` sets a question's rated difficulty
against the share of right answers players gave it in the web player.
A rule of another layer gives its problems their sentence itself (`Problem.of(...,
sentence=...)`): nothing is added to this module's table from outside.

A problem is data, not a sentence: a code, what it is about, the params that tell it
apart from any other problem (`key`), the values it measured and how bad it is
(`magnitude`). Its sentence is rendered when shown, in the active language, so two
validations compare by identity (`new_errors`), never by wording.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from statistics import mean
from typing import Any, NamedTuple

from django.db.models import Field
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from .games import GAMES, KINDS, kind_of, paired_kinds
from .games.spec import DIFFICULTY_MAX, ORDER_BY_SLOT_FORMAT, ORDER_STRICTLY_INCREASING, GameSpec
from .models import STATUS_RANK, Card, Question, Status

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)
NEAR_DUPLICATE_THRESHOLD = 0.8
# Averages of small integers differ in their last bits when computed from other numbers:
# a gap this much larger is the same gap, not a worse one.
MAGNITUDE_TOLERANCE = 1e-9


def _items(pairs: Mapping | Iterable) -> tuple:
    """Return a mapping or (name, value) pairs as a tuple of pairs sorted by name."""
    if isinstance(pairs, str):
        raise TypeError(f"Params and values are a dict, not the text {pairs!r}.")
    if isinstance(pairs, Mapping):
        pairs = pairs.items()
    return tuple(sorted(((str(name), value) for name, value in pairs),
                        key=lambda item: item[0]))


@dataclass(frozen=True, eq=False)
class Problem:
    """One thing wrong with the content, about one question or card (None: the game).

    `params` identify the problem and `values` measure it; both are given as dicts and
    kept as tuples of (name, value) sorted by name. `slot` is set when a question's
    problem is shown under its card (`Report.about`).
    """

    code: str
    severity: str
    target: Question | Card | None
    game: str
    params: tuple = ()
    values: tuple = ()
    magnitude: float = 0.0
    slot: int | None = None
    # The sentence of a code this module does not know (another layer's rule); not part of
    # what the problem is.
    sentence: Callable[[Problem], str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "params", _items(self.params))
        object.__setattr__(self, "values", _items(self.values))
        if self.sentence is None and self.code not in MESSAGES:
            raise ValueError(f"No message is registered for the problem code {self.code!r}.")
        if self.severity not in SEVERITIES:
            raise ValueError(f"Unknown severity {self.severity!r} for {self.code!r}.")
        shared = {name for name, _value in self.params} & {name for name, _value in self.values}
        if shared:
            raise ValueError(f"{self.code}: {sorted(shared)} are both params and values.")
        try:
            hash(self.params)
        except TypeError:
            raise ValueError(f"{self.code}: params must be hashable, {self.params!r}") from None

    @classmethod
    def of(cls, code: str, severity: str, target: Question | Card | None, game: str, *,
           params: Mapping[str, Any] | None = None, values: Mapping[str, Any] | None = None,
           magnitude: float = 0.0, slot: int | None = None,
           sentence: Callable[[Problem], str] | None = None) -> Problem:
        """Build a problem from dicts of params and values."""
        return cls(code, severity, target, game, _items(params or {}), _items(values or {}),
                   magnitude, slot, sentence)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def target_key(self) -> tuple[str, int] | None:
        if self.target is None:
            return None
        return (type(self.target).__name__.lower(), self.target.pk)

    @property
    def key(self) -> tuple:
        """Return what tells this problem apart from any other, whatever its wording."""
        return (self.code, self.target_key, self.params)

    @property
    def args(self) -> dict[str, Any]:
        """Return params and values together, by name: what a message is rendered from."""
        return {**dict(self.params), **dict(self.values)}

    @property
    def step(self) -> int | None:
        """Return the ladder step the problem is about, if any."""
        return dict(self.params).get("step")

    @property
    def message(self) -> str:
        """Return the problem's sentence, rendered now in the active language."""
        text = (self.sentence or MESSAGES[self.code])(self)
        if self.slot is not None:
            text = _("Question n°%(n)s : %(msg)s") % {"n": self.slot, "msg": text}
        return text

    def __str__(self) -> str:
        return self.message


# The sentence of each code of this module's rules, rendered from the problem.
MESSAGES: dict[str, Callable[[Problem], str]] = {}


def _problems(found) -> list[Problem]:
    return found.problems if isinstance(found, Report) else list(found)


def new_errors(after: Report | Iterable[Problem],
               before: Report | Iterable[Problem]) -> list[Problem]:
    """Return the errors of `after` that `before` did not have, or had less badly."""
    worst: dict[tuple, float] = {}
    for problem in _problems(before):
        if problem.is_error:
            worst[problem.key] = max(problem.magnitude, worst.get(problem.key, -math.inf))
    return [p for p in _problems(after) if p.is_error and (
        p.key not in worst or p.magnitude > worst[p.key] + MAGNITUDE_TOLERANCE)]


def euros(amount: int) -> str:
    return f"{number_format(amount, force_grouping=True)}\u00a0€"


def decimal(value: float) -> str:
    return number_format(value, decimal_pos=1)


# --- the sentences ------------------------------------------------------------------------
# Each renders one code's sentence from the problem's params and values, with the labels
# the registry gives (kinds, statuses, steps, formats) in the active language.


def _kind(problem: Problem, name: str = "kind") -> str:
    return str(kind_of(problem.args[name]).label)


def _target(problem: Problem) -> Question | Card:
    """Return the question or card a problem is about, for a code never about the game."""
    if problem.target is None:
        raise ValueError(f"{problem.code}: the problem names no question or card.")
    return problem.target


def _target_kind(problem: Problem) -> str:
    return str(_target(problem).spec.label)


def _proposition_count(p: Problem) -> str:
    a = p.args
    if a["expected"]:
        return ngettext(
            "%(kind)s : il faut %(n)s proposition, il y en a %(found)s.",
            "%(kind)s : il faut %(n)s propositions, il y en a %(found)s.",
            a["expected"],
        ) % {"kind": _kind(p), "n": a["expected"], "found": a["found"]}
    return _(
        "%(kind)s : pas de propositions, la réponse est libre (%(found)s à retirer)."
    ) % {"kind": _kind(p), "found": a["found"]}


def _right_count(p: Problem) -> str:
    return _(
        "%(kind)s : il faut exactement %(n)s bonne(s) réponse(s), il y en a %(found)s."
    ) % {"kind": _kind(p), "n": p.args["expected"], "found": p.args["found"]}


def _hidden_count(p: Problem) -> str:
    return _(
        "%(kind)s : il faut exactement %(n)s proposition(s) cachée(s), il y en a "
        "%(found)s."
    ) % {"kind": _kind(p), "n": p.args["expected"], "found": p.args["found"]}


def _step_difficulty_band(p: Problem) -> str:
    step = GAMES[p.game].step(p.args["step"])
    low, high = step.difficulty_band
    return _(
        "Palier %(step)s (%(amount)s) : la difficulté doit aller de %(low)s à %(high)s, "
        "elle est de %(d)s."
    ) % {"step": step.number, "amount": euros(step.amount), "low": low, "high": high,
         "d": p.args["difficulty"]}


def _question_count(p: Problem) -> str:
    a = p.args
    return ngettext(
        "%(kind)s : il faut %(n)s question sur la carte, il y en a %(found)s.",
        "%(kind)s : il faut %(n)s questions sur la carte, il y en a %(found)s.",
        a["expected"],
    ) % {"kind": _kind(p), "n": a["expected"], "found": a["found"]}


def _question_kind(p: Problem) -> str:
    return _(
        "La question n°%(n)s est une question « %(found)s », pas « %(kind)s »."
    ) % {"n": p.args["position"], "found": _kind(p, "found"), "kind": _kind(p)}


def _question_status_behind(p: Problem) -> str:
    return _(
        "La carte est « %(card)s » mais la question n°%(n)s est « %(q)s »."
    ) % {"card": Status(p.args["card_status"]).label, "n": p.args["position"],
         "q": Status(p.args["status"]).label}


def _difficulty_order(p: Problem) -> str:
    a = p.args
    return _(
        "%(kind)s : la difficulté doit croître strictement ; la question n°%(n)s "
        "(difficulté %(d2)s) n’est pas plus difficile que la n°%(p)s (difficulté %(d1)s)."
    ) % {"kind": _kind(p), "n": a["position"], "p": a["position"] - 1,
         "d1": a["previous_difficulty"], "d2": a["difficulty"]}


def _slot_difficulty_order(p: Problem) -> str:
    a = p.args
    formats = GAMES[p.game].answer_formats
    return _(
        "%(kind)s : les questions %(harder)s (difficulté moyenne %(h)s) sont plus "
        "faciles que les questions %(easier)s (difficulté moyenne %(e)s)."
    ) % {"kind": _kind(p), "harder": formats[a["harder"]].label,
         "easier": formats[a["easier"]].label, "h": decimal(a["harder_average"]),
         "e": decimal(a["easier_average"])}


def _ladder_difficulty_down(p: Problem) -> str:
    a = p.args
    game = GAMES[p.game]
    return _(
        "Échelle : les questions publiées du palier %(up)s (%(up_amount)s, difficulté "
        "moyenne %(up_avg)s) sont plus faciles que celles du palier %(low)s "
        "(%(low_amount)s, difficulté moyenne %(low_avg)s)."
    ) % {"up": a["step"], "up_amount": euros(game.step(a["step"]).amount),
         "up_avg": decimal(a["step_average"]), "low": a["lower"],
         "low_amount": euros(game.step(a["lower"]).amount),
         "low_avg": decimal(a["lower_average"])}


def _near_duplicate(p: Problem) -> str:
    return _(
        "Presque le même texte que la question « %(other)s » (%(ref)s), "
        "%(pct)s %% de mots en commun."
    ) % {"other": p.args["other_text"], "ref": p.args["other"], "pct": p.args["pct"]}


def _coverage(p: Problem) -> str:
    a = p.args
    kind = kind_of(a["kind"])
    # What the need was measured by: the rules played many times, or the registry's guess.
    how = (_("simulation des règles") if a.get("simulated", True)
           else _("estimation fixe, faute de simulation"))
    if kind.ladder:
        means, needs = dict(a.get("means", ())), dict(a.get("needs", ()))
        detail = " ; ".join(
            _("palier %(n)s : %(missing)s de plus (%(need)s pour 9 parties sur 10, "
              "%(mean)s en moyenne)") % {"n": n, "missing": missing,
                                         "need": needs.get(n, a.get("need")),
                                         "mean": decimal(means.get(n, a.get("need", 0)))}
            for n, missing in a["short"]
        )
        return _(
            "« %(kind)s » : il manque %(total)s question(s) publiée(s) pour "
            "qu’une partie complète à %(players)s joueurs ne tombe pas à court (%(how)s)"
            " — %(detail)s."
        ) % {"kind": kind.label_plural, "total": sum(m for _n, m in a["short"]),
             "players": a["players"], "how": how, "detail": detail}
    return _(
        "« %(kind)s » : %(have)s carte(s) publiée(s) ; une partie "
        "complète à %(players)s joueurs en utilise %(mean)s en moyenne, jusqu’à "
        "%(need)s dans 9 parties sur 10 (%(how)s) : il en manque %(missing)s, sinon la "
        "pioche peut s’épuiser en pleine partie."
    ) % {"kind": kind.label_plural, "missing": a["need"] - a["have"],
         "players": a["players"], "have": a["have"], "need": a["need"],
         "mean": decimal(a.get("mean", a["need"])), "how": how}


def _difficulty_disagrees(p: Problem) -> str:
    a = p.args
    return ngettext(
        "Difficulté notée %(rated)s, observée %(observed)s en jeu : %(rate)s %% de "
        "bonnes réponses sur %(count)s réponse.",
        "Difficulté notée %(rated)s, observée %(observed)s en jeu : %(rate)s %% de "
        "bonnes réponses sur %(count)s réponses.",
        a["count"],
    ) % {"rated": a["rated"], "observed": a["observed"], "rate": a["rate"], "count": a["count"]}


MESSAGES.update({
    "proposition_count": _proposition_count,
    "right_count": _right_count,
    "hidden_count": _hidden_count,
    "proposition_repeated": lambda p: _("Deux propositions sont identiques."),
    "answer_missing": lambda p: _("%(kind)s : la réponse libre manque.") % {
        "kind": _kind(p)},
    "image_missing": lambda p: _("%(kind)s : l’image manque.") % {"kind": _kind(p)},
    "step_missing": lambda p: _("Le palier manque (1 à %(n)s).") % {
        "n": len(GAMES[p.game].ladder)},
    "step_difficulty_band": _step_difficulty_band,
    "step_unexpected": lambda p: _("Seules les questions de l’échelle ont un palier."),
    "question_unplaced": lambda p: _(
        "Cette question n’est sur aucune carte « %(kind)s »."
    ) % {"kind": _kind(p)},
    "question_count": _question_count,
    "question_kind": _question_kind,
    "question_status_behind": _question_status_behind,
    "difficulty_order": _difficulty_order,
    "slot_difficulty_order": _slot_difficulty_order,
    "pair_unexpected": lambda p: _("Seules les cartes %(kinds)s vont par paires.") % {
        "kinds": ", ".join(str(kind.label) for kind in paired_kinds())},
    "pair_colour_missing": lambda p: _("%(kind)s : la couleur de la paire manque.") % {
        "kind": _target_kind(p)},
    "pair_missing": lambda p: _("%(kind)s : cette carte n’a pas de jumelle.") % {
        "kind": _target_kind(p)},
    "pair_kind": lambda p: _("%(kind)s : la jumelle doit être une carte %(kind)s.") % {
        "kind": _target_kind(p)},
    "pair_not_mutual": lambda p: _(
        "%(kind)s : la jumelle « %(p)s » ne désigne pas cette carte en retour."
    ) % {"kind": _target_kind(p), "p": p.args["partner_title"] or p.args["partner"]},
    "pair_mismatch": lambda p: _(
        "%(kind)s : les deux cartes d’une paire ont le même titre et la même couleur.") % {
        "kind": _target_kind(p)},
    "ladder_difficulty_down": _ladder_difficulty_down,
    "duplicate": lambda p: _("Même texte que la question « %(other)s » (%(ref)s).") % {
        "other": p.args["other_text"], "ref": p.args["other"]},
    "near_duplicate": _near_duplicate,
    "duplicate_answer": lambda p: _("Même réponse que « %(ref)s » : « %(answer)s ».") % {
        "ref": p.args["other"], "answer": p.args["answer"]},
    "coverage": _coverage,
    "difficulty_disagrees": _difficulty_disagrees,
    # A refusal whose reason is already a sentence (the services wrap plain refusals so).
    "refused": lambda p: str(p.args["reason"]),
})


# --- text that cannot be printed as typed -------------------------------------------------

# Invisible characters the printer would keep (a word that will not wrap, a search that
# fails) and direction controls it cannot honour, by their French names.
INVISIBLE_CHARACTERS = {
    "\u200b": gettext_noop("espace sans chasse"),
    "\u200c": gettext_noop("antiliant sans chasse"),
    "\u200d": gettext_noop("liant sans chasse"),
    "\u2060": gettext_noop("gluon de mots"),
    "\ufeff": gettext_noop("indicateur d’ordre des octets"),
    "\u200e": gettext_noop("marque gauche à droite"),
    "\u200f": gettext_noop("marque droite à gauche"),
    "\u061c": gettext_noop("marque de lettre arabe"),
    "\u202a": gettext_noop("enchâssement gauche à droite"),
    "\u202b": gettext_noop("enchâssement droite à gauche"),
    "\u202c": gettext_noop("dépilement de formatage directionnel"),
    "\u202d": gettext_noop("forçage gauche à droite"),
    "\u202e": gettext_noop("forçage droite à gauche"),
    "\u2066": gettext_noop("isolat gauche à droite"),
    "\u2067": gettext_noop("isolat droite à gauche"),
    "\u2068": gettext_noop("isolat de direction première"),
    "\u2069": gettext_noop("dépilement d’isolat directionnel"),
    "\u00ad": gettext_noop("trait d’union conditionnel"),
    "\u2028": gettext_noop("séparateur de lignes"),
    "\u2029": gettext_noop("séparateur de paragraphes"),
    "\u180e": gettext_noop("séparateur de voyelles mongol"),
}
# Other characters of Unicode's "format" class, and the variation selectors (which pick an
# emoji's or an ideogram's look, drawn by nothing here): invisible, and not printed as typed.
INVISIBLE_CATEGORIES = {"Cf", "Zl", "Zp"}
VARIATION_SELECTORS = (range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0))
# The printer lays text out left to right: a right-to-left script comes out reversed.
RIGHT_TO_LEFT = {"R", "AL", "AN"}
RIGHT_TO_LEFT_SCRIPTS = {"HEBREW": gettext_noop("lettre hébraïque"),
                         "ARABIC": gettext_noop("caractère arabe")}
QUESTION_TEXTS = ("text", "theme", "answer", "variants", "anecdote", "source")
CARD_TEXTS = ("title",)


def is_invisible(char: str) -> bool:
    code = ord(char)
    return (char in INVISIBLE_CHARACTERS or unicodedata.category(char) in INVISIBLE_CATEGORIES
            or any(code in selectors for selectors in VARIATION_SELECTORS))


@lru_cache(maxsize=4096)
def is_unprintable(char: str) -> bool:
    """Tell whether the printer cannot show this character as typed (once per character)."""
    return is_invisible(char) or unicodedata.bidirectional(char) in RIGHT_TO_LEFT


# Characters found printable so far: most text is made only of them, and is passed at once.
_PRINTABLE: set[str] = set()


def unprintable_characters(text: str) -> list[str]:
    """Return each character of text the printer cannot show as typed, once, in order."""
    if not text or _PRINTABLE.issuperset(text):
        return []
    found = []
    for char in dict.fromkeys(text):
        if is_unprintable(char):
            found.append(char)
        elif len(_PRINTABLE) < 4096:  # as many as is_unprintable's cache remembers
            _PRINTABLE.add(char)
    return found


def character_label(char: str) -> str:
    """Return a character as the editor can find it: « U+200B (espace sans chasse) »."""
    code = f"U+{ord(char):04X}"
    if char in INVISIBLE_CHARACTERS:
        return f"{code} ({_(INVISIBLE_CHARACTERS[char])})"
    if is_invisible(char):
        label = _("caractère invisible")
        return f"{code} ({label})"
    script = unicodedata.name(char, "").split(" ")[0]
    name = _(RIGHT_TO_LEFT_SCRIPTS.get(script, gettext_noop("écriture de droite à gauche")))
    return _("%(code)s (%(name)s « %(char)s »)") % {
        "code": code, "name": name, "char": char}


def check_printable_text(obj: Question | Card, *, propositions=None) -> list[Problem]:
    """Return a problem for each text field of obj holding a character that cannot print."""
    game = obj.game.slug
    found: list[tuple[str, int, list[str]]] = []
    for name in QUESTION_TEXTS if isinstance(obj, Question) else CARD_TEXTS:
        chars = unprintable_characters(getattr(obj, name, ""))
        if chars:
            found.append((name, 0, chars))
    for number, row in enumerate(propositions or [], start=1):
        chars = unprintable_characters(row.text)
        if chars:
            found.append(("proposition", number, chars))
    # "char": every such character of the field, « U+200B U+05E9 », so one refusal names all.
    return [Problem.of("unprintable_character", ERROR, obj, game,
                       params={"field": name, "position": number,
                               "char": " ".join(f"U+{ord(char):04X}" for char in chars)})
            for name, number, chars in found]


def _verbose_name(model: type[Question] | type[Card], name: str) -> str:
    """Return the label the admin shows for one of the model's own fields."""
    model_field = model._meta.get_field(name)
    if not isinstance(model_field, Field):
        raise ValueError(f"{model.__name__}.{name} is a reverse relation, not a field.")
    return str(model_field.verbose_name)


def _unprintable_character(p: Problem) -> str:
    a = p.args
    if a["field"] == "proposition":
        where = _("proposition %(n)s") % {"n": a["position"]}
    else:
        where = _verbose_name(type(_target(p)), a["field"])
    chars = [chr(int(code[2:], 16)) for code in a["char"].split()]
    field = where[:1].upper() + where[1:]
    if len(chars) > 1:
        return _("%(field)s : %(chars)s ne s’impriment pas correctement (caractères invisibles "
                 "ou écriture de droite à gauche) ; retirez-les.") % {
            "field": field, "chars": ", ".join(character_label(char) for char in chars)}
    [char] = chars
    sentence = (_("%(field)s : %(char)s ne s’imprime pas correctement ; retirez-le.")
                if is_invisible(char) else
                _("%(field)s : %(char)s, une écriture de droite à gauche que l’impression "
                  "ne sait pas mettre en page ; retirez-la."))
    return sentence % {"field": field, "char": character_label(char)}


MESSAGES["unprintable_character"] = _unprintable_character


# --- one question -------------------------------------------------------------------------


def check_question(question: Question, *, propositions, placed: bool) -> list[Problem]:
    """Return the problems of one question against its kind's composition.

    `propositions` (rows with text, is_right, is_hidden, in order) and `placed` (is it on
    a card) are its relations, loaded by the caller (`cms.selectors.load_game`).
    """
    kind = question.spec
    game = question.game
    problems: list[Problem] = []

    def problem(code, severity=ERROR, values=None, **params):
        problems.append(Problem.of(code, severity, question, game.slug, params=params,
                                   values=values))

    if len(propositions) != kind.propositions:
        problem("proposition_count", kind=kind.slug, expected=kind.propositions,
                values={"found": len(propositions)})
    if kind.propositions:
        right = sum(p.is_right for p in propositions)
        if right != kind.right:
            problem("right_count", kind=kind.slug, expected=kind.right,
                    values={"found": right})
        hidden = sum(p.is_hidden for p in propositions)
        if hidden != kind.hidden:
            problem("hidden_count", kind=kind.slug, expected=kind.hidden,
                    values={"found": hidden})
        texts = [" ".join(p.text.casefold().split()) for p in propositions]
        if len(set(texts)) != len(texts):
            problem("proposition_repeated")
    if kind.free_answer and not question.answer.strip():
        problem("answer_missing", kind=kind.slug)
    if kind.needs_image and not question.image:
        problem("image_missing", kind=kind.slug)
    if kind.ladder:
        problems.extend(_check_step(question, game))
    elif question.step is not None:
        problem("step_unexpected")
    if kind.is_card and not placed:
        problem("question_unplaced", WARNING, kind=kind.slug)
    problems.extend(check_printable_text(question, propositions=propositions))
    return problems


def _check_step(question: Question, game: GameSpec) -> list[Problem]:
    if question.step is None:
        return [Problem.of("step_missing", ERROR, question, game.slug)]
    low, high = game.step(question.step).difficulty_band
    if low <= question.difficulty <= high:
        return []
    return [Problem.of("step_difficulty_band", ERROR, question, game.slug,
                       params={"step": question.step},
                       values={"difficulty": question.difficulty})]


# --- one card -----------------------------------------------------------------------------


def check_card(card: Card, *, questions: list[Question], partner: Card | None) -> list[Problem]:
    """Return the problems of one card: composition, order, pairing.

    `questions` (in card order) and `partner` (its twin, if any) are its relations, loaded
    by the caller (`cms.selectors.load_game`).
    """
    kind = card.spec
    game = card.game
    problems: list[Problem] = []

    def problem(code, severity=ERROR, values=None, **params):
        problems.append(Problem.of(code, severity, card, game.slug, params=params,
                                   values=values))

    if len(questions) != kind.questions_per_card:
        problem("question_count", kind=kind.slug, expected=kind.questions_per_card,
                values={"found": len(questions)})
    for number, question in enumerate(questions, start=1):
        if question.kind != card.kind:
            problem("question_kind", kind=kind.slug, position=number,
                    values={"found": question.kind})
        if STATUS_RANK[question.status] < STATUS_RANK[card.status]:
            problem("question_status_behind", WARNING, position=number,
                    values={"card_status": card.status, "status": question.status})
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING:
        problems.extend(_check_strictly_increasing(card, questions))
    elif kind.difficulty_order == ORDER_BY_SLOT_FORMAT:
        problems.extend(_check_slot_formats(card, questions))
    if kind.paired:
        problems.extend(_check_pair(card, partner))
    elif card.pair_id is not None:
        problem("pair_unexpected")
    problems.extend(check_printable_text(card))
    return problems


def _check_strictly_increasing(card: Card, questions: list[Question]) -> list[Problem]:
    problems = []
    for number, (before, after) in enumerate(itertools.pairwise(questions),
                                             start=2):
        if after.difficulty <= before.difficulty:
            problems.append(Problem.of(
                "difficulty_order", ERROR, card, card.game.slug,
                params={"kind": card.kind, "position": number},
                values={"previous_difficulty": before.difficulty,
                        "difficulty": after.difficulty},
                magnitude=before.difficulty - after.difficulty))
    return problems


def _check_slot_formats(card: Card, questions: list[Question]) -> list[Problem]:
    """Check that DUO slots are no harder than CARRÉ ones, and CARRÉ no harder than CASH."""
    formats = card.game.answer_formats  # in play order; other slots (a pool) don't count
    groups: dict[str, list[int]] = {slug: [] for slug in formats}
    for fmt, question in zip(card.spec.slot_formats, questions, strict=False):
        if fmt in groups:
            groups[fmt].append(question.difficulty)
    ordered = [slug for slug in formats if groups[slug]]
    problems = []
    for easier, harder in itertools.pairwise(ordered):
        harder_average, easier_average = mean(groups[harder]), mean(groups[easier])
        if harder_average < easier_average:
            problems.append(Problem.of(
                "slot_difficulty_order", ERROR, card, card.game.slug,
                params={"kind": card.kind, "harder": harder, "easier": easier},
                values={"harder_average": harder_average, "easier_average": easier_average},
                magnitude=easier_average - harder_average))
    return problems


def _check_pair(card: Card, partner: Card | None) -> list[Problem]:
    slug = card.game.slug
    problems = [] if card.colour else [Problem.of("pair_colour_missing", ERROR, card, slug)]
    if partner is None:
        return [*problems, Problem.of("pair_missing", ERROR, card, slug)]
    twin = {"partner": partner.ref}
    if partner.kind != card.kind:
        problems.append(Problem.of("pair_kind", ERROR, card, slug, params=twin))
    if partner.pair_id != card.pk:
        problems.append(Problem.of("pair_not_mutual", ERROR, card, slug, params=twin,
                                   values={"partner_title": partner.title}))
    if partner.title.strip() != card.title.strip() or partner.colour != card.colour:
        problems.append(Problem.of("pair_mismatch", ERROR, card, slug, params=twin))
    return problems


# --- a whole game -------------------------------------------------------------------------


def check_ladder(game: GameSpec, questions: list[Question]) -> list[Problem]:
    """Check that the published questions never get easier from one step to the next.

    A problem is the pair of steps; how much easier the upper one is (the gap of their
    average difficulties) is its magnitude, so a change that narrows the gap is no new
    error.
    """
    by_step: dict[int, list[int]] = defaultdict(list)
    for question in questions:
        if question.spec.ladder and question.status == Status.PUBLISHED and question.step:
            by_step[question.step].append(question.difficulty)
    problems = []
    steps = sorted(by_step)
    for lower, upper in itertools.pairwise(steps):
        # Whole numbers: their sum over their count is the correctly rounded mean, as
        # statistics.mean gives it, without its exact fractions (a large ladder's cost).
        upper_average = sum(by_step[upper]) / len(by_step[upper])
        lower_average = sum(by_step[lower]) / len(by_step[lower])
        if upper_average < lower_average:
            problems.append(Problem.of(
                "ladder_difficulty_down", ERROR, None, game.slug,
                params={"step": upper, "lower": lower},
                values={"step_average": upper_average, "lower_average": lower_average},
                magnitude=lower_average - upper_average))
    return problems


def normalise(text: str) -> str:
    """Return text folded for comparison: no accents, case, punctuation or extra spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.findall(r"[a-z0-9]+", bare))


class SimilarTexts:
    """Pairs of texts whose word sets overlap at least `threshold`, kept as texts change.

    A text x meets another y with Jaccard >= t only if they share one of any
    |x| - ceil(t*|x|) + 1 words of x: each changed text is compared only with the texts
    holding its rarest such words (an index by word), never with the whole game.
    """

    def __init__(self, threshold: float = NEAR_DUPLICATE_THRESHOLD):
        self.threshold = threshold
        self.words: dict[Any, frozenset[str]] = {}
        self.holders: dict[str, set] = defaultdict(set)  # word -> keys of the texts
        self.pairs: dict[Any, dict[Any, float]] = defaultdict(dict)  # key -> {other: sim}

    def update(self, texts: Mapping[Any, str], removed: Iterable = ()) -> None:
        """Set these texts (by key) and forget the `removed` keys, then find their pairs."""
        for key in [*texts, *removed]:
            for other in self.pairs.pop(key, {}):
                self.pairs[other].pop(key, None)
                if not self.pairs[other]:
                    del self.pairs[other]
            for word in self.words.pop(key, ()):
                self.holders[word].discard(key)
        for key, text in texts.items():
            words = frozenset(normalise(text).split())
            self.words[key] = words
            for word in words:
                self.holders[word].add(key)
        for key in texts:
            self._pair(key)

    def _pair(self, key) -> None:
        words = self.words[key]
        if not words:
            return
        prefix = sorted(words, key=lambda w: (len(self.holders[w]), w))[
            : len(words) - math.ceil(self.threshold * len(words)) + 1]
        for other in {o for word in prefix for o in self.holders[word]} - {key}:
            union = len(words | self.words[other])
            similarity = len(words & self.words[other]) / union
            if similarity >= self.threshold:
                self.pairs[key][other] = self.pairs[other][key] = similarity

    def each_pair(self):
        """Yield (a, b, similarity) once for each pair, in the order the texts came."""
        order = {key: n for n, key in enumerate(self.words)}
        for key, others in self.pairs.items():
            for other, similarity in others.items():
                if order[other] < order[key]:
                    yield other, key, similarity


def similar_pairs(texts: dict, threshold: float = NEAR_DUPLICATE_THRESHOLD):
    """Yield (a, b, similarity) for keys whose word sets overlap at least `threshold`."""
    index = SimilarTexts(threshold)
    index.update(texts)
    yield from index.each_pair()


class KeptDuplicates:
    """The duplicates rule kept up to date as questions change (`cms.report_store`).

    It finds the same problems as `check_duplicates` over the whole game, comparing only
    the changed questions' texts with the others.
    """

    def __init__(self, content: GameContent):
        self.index = SimilarTexts()
        self.questions: dict[int, Question] = {}
        self.images: dict[int, Question] = {}  # the questions whose answer must not repeat
        self.update(content, {q.pk: q for q in content.questions})

    def update(self, content: GameContent,
               changed: Mapping[int, Question | None]) -> list[Problem]:
        """Take the changed questions (by pk; None: gone); return the rule's problems."""
        texts = {}
        for pk, question in changed.items():
            self.questions.pop(pk, None)
            self.images.pop(pk, None)
            if question is None:
                continue
            self.questions[pk] = question
            if question.spec.needs_image:
                self.images[pk] = question
            else:
                texts[pk] = question.text
        self.index.update(texts, removed=changed.keys() - texts.keys())
        return [*_text_duplicates(content.game, self.index, self.questions),
                *_answer_duplicates(content.game, self.images.values())]


def check_duplicates(game: GameSpec, questions: list[Question]) -> list[Problem]:
    """Warn about questions of one game that say the same thing twice."""
    index = SimilarTexts()
    by_key = {q.pk if q.pk is not None else id(q): q for q in questions}
    index.update({key: q.text for key, q in by_key.items() if not q.spec.needs_image})
    return [*_text_duplicates(game, index, by_key), *_answer_duplicates(game, questions)]


def _text_duplicates(game: GameSpec, index: SimilarTexts, by_key: Mapping) -> list[Problem]:
    problems = []
    for first_key, second_key, similarity in index.each_pair():
        first, second = by_key[first_key], by_key[second_key]
        exact = normalise(first.text) == normalise(second.text)
        for one, other in ((first, second), (second, first)):
            values = {"other_text": str(other)}
            if not exact:
                values["pct"] = round(similarity * 100)
            problems.append(Problem.of("duplicate" if exact else "near_duplicate", WARNING,
                                       one, game.slug, params={"other": other.ref},
                                       values=values))
    return problems


def _answer_duplicates(game: GameSpec, questions: Iterable[Question]) -> list[Problem]:
    # Mystery images share one prompt: the answer is what must not repeat. The oldest
    # question keeps it; the later ones are warned.
    problems = []
    answers = defaultdict(list)
    for question in questions:
        if question.spec.needs_image and question.answer.strip():
            answers[normalise(question.answer)].append(question)
    for same in answers.values():
        same.sort(key=lambda q: (q.pk is None, q.pk or 0))
        for question in same[1:]:
            problems.append(Problem.of("duplicate_answer", WARNING, question, game.slug,
                                       params={"other": same[0].ref},
                                       values={"answer": question.answer}))
    return problems


@dataclass(frozen=True)
class Need:
    """How many units of a kind one full game uses: on average, in 9 games out of 10, at most.

    `simulated` is False when no simulation could play the kind: the figures are then the
    registry's guess (`ContentKind.full_game`). A ladder kind's figures are per question of
    a step, each step's in `steps`.
    """

    mean: float
    p90: int
    most: int
    simulated: bool = True
    steps: Mapping[int, Need] = field(default_factory=dict)


@dataclass(frozen=True)
class Needs:
    """What one full game at a table of `players` needs of each kind, by kind slug."""

    players: int
    kinds: Mapping[str, Need]
    games: int = 0  # games simulated (0: the registry's guesses only)
    seconds: float = 0.0  # how long the simulation took


def guessed_needs(game: GameSpec) -> Needs:
    """Return the registry's guess of a full game, for content no simulation plays."""
    return Needs(game.players.coverage, {kind.slug: guessed_need(game, kind)
                                         for kind in game.kinds})


def guessed_need(game: GameSpec, kind) -> Need:
    need = Need(kind.full_game, kind.full_game, kind.full_game, simulated=False)
    if kind.ladder:
        return dataclasses.replace(need, steps={step.number: need for step in game.ladder})
    return need


def check_coverage(game: GameSpec, cards: list[Card], questions: list[Question],
                   needs: Needs | None = None) -> list[Problem]:
    """Warn when the published deck may run dry in a full game at the coverage table size:
    below what 9 games out of 10 use (`needs`, by default the registry's guess)."""
    needs = needs or guessed_needs(game)
    problems = []
    players = needs.players
    for kind in game.kinds:
        need = needs.kinds.get(kind.slug) or guessed_need(game, kind)
        if not need.p90 and not need.steps:
            continue
        measured = {"players": players, "simulated": need.simulated}
        if kind.ladder:
            counts = Counter(q.step for q in questions
                             if q.kind == kind.slug and q.status == Status.PUBLISHED)
            steps = {step.number: need.steps.get(step.number, need) for step in game.ladder}
            short = tuple((n, step_need.p90 - counts[n]) for n, step_need in steps.items()
                          if counts[n] < step_need.p90)
            if short:
                problems.append(Problem.of(
                    "coverage", WARNING, None, game.slug, params={"kind": kind.slug},
                    values={**measured, "short": short,
                            "means": tuple((n, steps[n].mean) for n, _m in short),
                            "needs": tuple((n, steps[n].p90) for n, _m in short)},
                    magnitude=sum(missing for _n, missing in short)))
            continue
        published = [c for c in cards if c.kind == kind.slug and c.status == Status.PUBLISHED]
        if kind.paired:
            ids = {c.pk for c in published}
            have = sum(1 for c in published if c.pair_id in ids)
        else:
            have = len(published)
        if have < need.p90:
            problems.append(Problem.of(
                "coverage", WARNING, None, game.slug, params={"kind": kind.slug},
                values={**measured, "have": have, "need": need.p90, "mean": need.mean},
                magnitude=need.p90 - have))
    return problems


# --- play calibrates the content ---------------------------------------------------------
# How often players answer a question right says how hard it really is. An answer the table
# accepted anyway (`overridden`) counts as right: the players, who heard it, judged it so.

# Below this many answers, luck speaks louder than difficulty: nothing is flagged.
CALIBRATION_MIN_ANSWERS = 20
# (lowest success rate in %, observed difficulty), easiest first: the first band a question
# reaches is its observed difficulty; below the last one it is the hardest. Five even bands
# of 20 points from a question nearly everyone knows (85 % and more) down to one answered
# no better than a guess among four (under 25 %). They read the raw rate, whatever the
# kind: on a two-way question guessing alone scores about 50 %, so it reads 3 at worst.
CALIBRATION_BANDS = ((85, 1), (65, 2), (45, 3), (25, 4))
CALIBRATION_BELOW_BANDS = DIFFICULTY_MAX
# One step apart is the noise of a small sample near a band's edge; two steps is a question
# rated wrong.
CALIBRATION_GAP = 2


def success_rate(answers: int, right: int) -> int | None:
    """Return the share of right answers in whole percent, rounded down (None: no answers).

    Rounded down, the percentage shown falls in the same band as the exact rate: 84.9 %
    reads 84 % and is observed 2, as the bands say.
    """
    _check_counts(answers, right)
    return right * 100 // answers if answers else None


def observed_difficulty(answers: int, right: int) -> int | None:
    """Return the difficulty, 1 to 5, that play observes (None: no answers yet)."""
    _check_counts(answers, right)
    if not answers:
        return None
    for lowest, difficulty in CALIBRATION_BANDS:
        # In whole numbers, so that a rate on a band's edge lands in that band exactly.
        if right * 100 >= lowest * answers:
            return difficulty
    return CALIBRATION_BELOW_BANDS


def _check_counts(answers: int, right: int) -> None:
    if answers < 0 or not 0 <= right <= answers:
        raise ValueError(f"{right} right answers out of {answers} cannot be.")


@dataclass(frozen=True)
class Calibration:
    """A question's rated difficulty beside what play observed."""

    rated: int
    answers: int
    right: int
    # A fiche whose answers are picks among many right propositions (the coup par coup:
    # 6 VRAI, 1 FAUX) is not rated by its success: a blind pick is right 6 times in 7.
    judged: bool = True

    def __post_init__(self):
        _check_counts(self.answers, self.right)

    @property
    def rate(self) -> int | None:
        return success_rate(self.answers, self.right)

    @property
    def observed(self) -> int | None:
        return observed_difficulty(self.answers, self.right)

    @property
    def enough(self) -> bool:
        """Return whether there are enough answers to judge the rated difficulty."""
        return self.answers >= CALIBRATION_MIN_ANSWERS

    @property
    def gap(self) -> int:
        return abs(self.observed - self.rated) if self.observed is not None else 0

    @property
    def disagrees(self) -> bool:
        return self.judged and self.enough and self.gap >= CALIBRATION_GAP


def judged_by_play(kind: str) -> bool:
    """Return whether play's success rate measures a question of this kind's difficulty."""
    spec = KINDS[kind][1] if kind in KINDS else None
    return spec is None or spec.right <= 1 or not spec.propositions


def calibration_of(question: Question) -> Calibration:
    """Return a question's calibration from the counts `selectors.answer_counts` annotated."""
    return Calibration(question.difficulty, getattr(question, "answer_count", 0) or 0,
                       getattr(question, "right_count", 0) or 0,
                       judged_by_play(question.kind))


def check_calibration(question: Question, *, answers: int, right: int) -> list[Problem]:
    """Warn when enough answers in play put a question CALIBRATION_GAP or more off its rating."""
    calibration = Calibration(question.difficulty, answers, right, judged_by_play(question.kind))
    if not calibration.disagrees:
        return []
    return [Problem.of(
        "difficulty_disagrees", WARNING, question, question.game.slug,
        # Measures, not identity: each new answer moves them, the problem stays the same.
        values={"rated": calibration.rated, "observed": calibration.observed,
                "rate": calibration.rate, "count": answers},
        magnitude=calibration.gap)]


@dataclass
class Report:
    """Every problem of one game, with lookups for the admin."""

    game: GameSpec
    problems: list[Problem] = field(default_factory=list)
    # (position on the card, question pk) by card pk: a card answers for its questions.
    slots_by_card: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @cached_property
    def _by_target(self) -> dict[tuple[str, int] | None, list[Problem]]:
        index = defaultdict(list)
        for problem in self.problems:
            index[problem.target_key].append(problem)
        return index

    def about(self, obj) -> list[Problem]:
        """Return the problems of one question or card (a card's include its questions')."""
        own = list(self._by_target.get((type(obj).__name__.lower(), obj.pk), []))
        if isinstance(obj, Card):
            for number, question_pk in self.slots_by_card.get(obj.pk, []):
                own += [dataclasses.replace(p, slot=number)
                        for p in self._by_target.get(("question", question_pk), [])]
        return own

    def game_wide(self) -> list[Problem]:
        return list(self._by_target.get(None, []))

    def keys_with_problems(self, model, *, errors_only=False) -> set[int]:
        name = model.__name__.lower()
        return {key[1] for key, problems in self._by_target.items()
                if key and key[0] == name and any(p.is_error or not errors_only
                                                  for p in problems)}


class PropositionRow(NamedTuple):
    text: str
    is_right: bool
    is_hidden: bool


@dataclass
class GameContent:
    """One game's content as the rules read it: loaded by `cms.selectors`, or built in memory."""

    game: GameSpec
    cards: list[Card]  # each with its twin (`pair`) at hand: the pairing rule reads it
    questions: list[Question]
    propositions: dict[int, list[PropositionRow]]  # by question pk, in order
    card_questions: dict[int, list[Question]]  # by card pk, in order
    placed: set[int]  # pks of the questions that sit on a card
    # (answers, right answers) in play by question pk; a question never answered is absent.
    answers: dict[int, tuple[int, int]] = field(default_factory=dict)
