"""The demo library's variety, measured as issue 17 defines it, from fixtures/<game>/.

What the rows say is read from them: a question's theme, its years, its answer. What only a
reader can tell is annotated beside the rows in `variete.json`, one entry per question:

- `personnes`: the people named in the answer, `[name as written, "f" | "m" | "x"]`;
- `auteur`: the question asks who made a work (wrote, painted, composed, directed…);
- `genres`: when the propositions are people, their genders in order (`"ffmm"`), else null;
- `genre_question`: the gender the wording gives the person asked for (« Quelle
  romancière »), else null.

Cms.validation needs Django set up: it is imported where it is used, so that
`python -m tests.demo_variety` can print the figures of every game.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# A year: four digits from 1000 to 2029 standing alone. Digit groups are stored with a
# narrow no-break space (« 1 500 mètres »), so a quantity does not read as one.
_YEAR = re.compile(r"(?<![\d\u202f\u00a0])(1\d{3}|20[0-2]\d)(?![\d\u202f\u00a0]\d)")
RECENT_AFTER = 1980
# Words too common to say two questions ask the same thing.
_COMMON = frozenset(re.findall(r"\w+", """
    le la les l un une des de du d en a au aux et ou est quel quelle quels quelles qui que qu
    dans sur par pour ce ces cet cette se s son sa ses il elle on ne pas plus y t avec sous
    comme combien comment ont sont etait"""))


def game_rows(game: str) -> tuple[list[dict], list[dict], dict[str, dict]]:
    """Return a game's question rows, card rows and variety annotations."""
    folder = FIXTURES / game

    def read(name: str, empty):
        path = folder / name
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else empty

    return read("questions.json", []), read("cartes.json", []), read("variete.json", {})


def _propositions(row: dict) -> list[str]:
    found = []
    for n in itertools.count(1):
        text = row.get(f"proposition_{n}")
        if text is None:
            return found
        found.append(text)
    return found


def answers(row: dict) -> list[str]:
    """Return what the player must find: the written answer, else the right propositions; a
    coup par coup has the player judge all seven, so all seven count."""
    if row.get("reponse"):
        return [row["reponse"]]
    offered = _propositions(row)
    right = [int(n) for n in str(row.get("bonnes", "")).split()]
    if len(right) > 1 and len(offered) > 4:  # a statement the player checks one by one
        return offered
    return [offered[n - 1] for n in right if 0 < n <= len(offered)]


def year(row: dict) -> int | None:
    """Return the latest year the question or its answer names (None: not dated)."""
    found = [int(y) for text in (row["texte"], *answers(row)) for y in _YEAR.findall(text)]
    return max(found, default=None)


def giveaway(row: dict, note: dict) -> bool:
    """Whether the wording gives a gender that a proposition does not share."""
    wanted, genders = note.get("genre_question"), note.get("genres")
    return bool(wanted and genders and any(g != wanted for g in genders))


@dataclass
class Variety:
    game: str
    questions: int = 0
    themes: Counter = field(default_factory=Counter)
    dated: int = 0
    recent: int = 0  # dated after RECENT_AFTER
    people: Counter = field(default_factory=Counter)  # by gender
    naming_people: int = 0  # questions whose answer names a person
    authorship: int = 0  # of those, "who wrote / painted / composed X"
    giveaways: list[str] = field(default_factory=list)

    @property
    def top_theme(self) -> tuple[str, float]:
        theme, count = self.themes.most_common(1)[0]
        return theme, count / self.questions

    @property
    def recent_share(self) -> float:
        return self.recent / self.dated if self.dated else 1.0

    @property
    def women_share(self) -> float:
        named = self.people["f"] + self.people["m"]
        return self.people["f"] / named if named else 1.0

    @property
    def authorship_share(self) -> float:
        return self.authorship / self.naming_people if self.naming_people else 0.0


def variety(game: str) -> Variety:
    rows, _cards, notes = game_rows(game)
    measured = Variety(game, len(rows), Counter(row["theme"] for row in rows))
    for row in rows:
        note = notes.get(row["ref"], {})
        when = year(row)
        if when is not None:
            measured.dated += 1
            measured.recent += when > RECENT_AFTER
        named = note.get("personnes") or []
        for _name, gender in named:
            measured.people[gender] += 1
        if named:
            measured.naming_people += 1
            measured.authorship += bool(note.get("auteur"))
        if giveaway(row, note):
            measured.giveaways.append(row["ref"])
    return measured


def annotation_faults(game: str) -> list[str]:
    """Return what is wrong with a game's annotations: a question without one, one without a
    question, a name its answer does not hold, a gender per proposition that does not add up."""
    from cms.validation import normalise

    rows, _cards, notes = game_rows(game)
    faults = [f"{ref}: pas de question" for ref in notes.keys() - {row["ref"] for row in rows}]
    for row in rows:
        note = notes.get(row["ref"])
        if note is None:
            faults.append(f"{row['ref']}: pas d’annotation")
            continue
        said = normalise(" ".join(answers(row)))
        for name, gender in note.get("personnes") or []:
            if f" {normalise(name)} " not in f" {said} " or gender not in ("f", "m", "x"):
                faults.append(f"{row['ref']}: « {name} » ({gender}) hors de la réponse")
        genders = note.get("genres")
        if genders is not None and (len(genders) != len(_propositions(row))
                                    or set(genders) - set("fmx")):
            faults.append(f"{row['ref']}: genres « {genders} » pour "
                          f"{len(_propositions(row))} propositions")
    return faults


def _content_words(text: str) -> frozenset[str]:
    from cms.validation import normalise

    return frozenset(w for w in normalise(text).split() if w not in _COMMON)


def same_questions(games: list[str]) -> list[tuple[str, str]]:
    """Return the pairs of questions, within a game or across games, that ask the same thing:
    texts that are near duplicates, or the same answer asked with two telling words alike
    (« Quel organe produit l’insuline ? » twice, worded apart)."""
    from cms.validation import normalise, similar_pairs

    texts, by_answer = {}, defaultdict(list)
    for game in games:
        for row in game_rows(game)[0]:
            if row.get("image"):  # a mystery picture: the answer is the question
                continue
            texts[row["ref"]] = row["texte"]
            for answer in answers(row):
                key = " ".join(sorted(_content_words(answer) or {normalise(answer)}))
                by_answer[key].append(row["ref"])
    pairs = {tuple(sorted((a, b))) for a, b, _similarity in similar_pairs(texts)}
    for refs in by_answer.values():
        for a, b in itertools.combinations(sorted(set(refs)), 2):
            if len(_content_words(texts[a]) & _content_words(texts[b])) >= 2:
                pairs.add((a, b))
    return sorted(pairs)


def main() -> None:
    from tests.demo import demo_games

    for game in demo_games():
        v = variety(game)
        theme, share = v.top_theme
        print(f"{game}: {v.questions} questions")
        print(f"  thème le plus fréquent : {theme} {share:.0%}")
        print(f"  datées après {RECENT_AFTER} : {v.recent}/{v.dated} = {v.recent_share:.0%}")
        print(f"  femmes parmi les personnes des réponses : {v.people['f']}/"
              f"{v.people['f'] + v.people['m']} = {v.women_share:.0%}")
        print(f"  « qui a écrit… » : {v.authorship}/{v.naming_people} questions nommant "
              f"quelqu’un = {v.authorship_share:.0%}")
        print(f"  questions qui se trahissent : {len(v.giveaways)} {' '.join(v.giveaways)}")
        for fault in annotation_faults(game):
            print(f"  ! {fault}")
    for a, b in same_questions(demo_games()):
        print(f"même question : {a} et {b}")


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")
    django.setup()
    main()
