"""Benchmark: teams of bots alone at The Mind, over many seeded games.

Run `make bench` or `python bench/the_mind_bots.py [GAMES]` (default 300 per table). Each
game goes through the engine as a room would drive it (`bot_action`): everyone ready,
then the bot whose wait (from the pile's last change) runs out first plays; a bot votes
for a shuriken when it wants one, thrown only if all agree. Prints,
for 2, 3 and 4 bots, the share of games won, the mean level reached and how often a team
cleared level 4.
"""

import statistics
import sys

import _throwaway

_throwaway.setup()

from cms.games import GAMES  # noqa: E402
from player.engines.the_mind import ENGINE, bot_action  # noqa: E402


def play(players: int, seed: int) -> dict:
    state = ENGINE.start(GAMES["the-mind"], {}, [f"Bot {n + 1}" for n in range(players)], seed)
    cleared = 0
    while not ENGINE.finished(state):
        _wait, action = bot_action(state, range(players))
        level = state["level"]
        state, _events = ENGINE.apply(state, action)
        if state["level"] > level or state["result"] == "won":
            cleared = level
    return {"won": state["result"] == "won", "cleared": cleared}


def main(games: int) -> None:
    print(f"{'bots':>4} {'games':>6} {'won':>6} {'mean level cleared':>19} {'cleared 4+':>11}")
    for players in (2, 3, 4):
        results = [play(players, seed) for seed in range(games)]
        won = sum(r["won"] for r in results) / games
        mean = statistics.mean(r["cleared"] for r in results)
        four = sum(r["cleared"] >= 4 for r in results) / games
        print(f"{players:>4} {games:>6} {won:>6.0%} {mean:>19.1f} {four:>11.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
