"""Random playouts and MCTS moves per second: Tabula's Tic-tac-toe and Connect
Four through tabula_games, against OpenSpiel's own (C++) tic_tac_toe and
connect_four through pyspiel, and Tabula's games registered with pyspiel (Python
games), all from the same Python loop.

    python examples/python/speed.py                      # 1 s a measurement, 5 rounds
    python examples/python/speed.py --seconds 0.1 --rounds 1

The measurements take turns (one round of each, OpenSpiel's C++ game first in
one round and last in the next), so that a machine busy with other work slows
them alike. Time is the thread's processor time, which other programs on the
machine do not add to; each figure is the median of the rounds, and each ratio
the median of the rounds' ratios to OpenSpiel's C++ game (above 1: faster).
"""

import argparse
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import tabula_games
from tabula_games import openspiel

# Tabula's game and OpenSpiel's C++ game of the same rules and action ids.
PAIRS = [("tictactoe", "tic_tac_toe"), ("connect4", "connect_four")]


def playouts_per_second(new_state, seconds: float, seed: int = 1) -> float:
    """Random games from the start to the end, as many as fit in `seconds`."""
    rng = random.Random(seed)
    choice = rng.choice
    games = 0
    began = time.thread_time()
    deadline = began + seconds
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        games += 1
        if games % 16 == 0 and time.thread_time() >= deadline:
            break
    return games / (time.thread_time() - began)


def searches_per_second(game, evaluator, seconds: float, simulations: int) -> float:
    """OpenSpiel's Python MCTS (one random rollout a simulation, by `evaluator`)
    choosing moves through a game from its start: the moves it chooses a second."""
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=evaluator(1, np.random.RandomState(1)),
        random_state=np.random.RandomState(2),
    )
    searches = 0
    began = time.thread_time()
    deadline = began + seconds
    while time.thread_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal() and time.thread_time() < deadline:
            state.apply_action(bot.step(state))
            searches += 1
    return searches / (time.thread_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time for each measurement")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of measurements; the median counts")
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations per move")
    args = parser.parse_args()

    openspiel.register([tabula for tabula, _ in PAIRS])
    for tabula, theirs in PAIRS:
        native = tabula_games.load_game(tabula)
        cpp = pyspiel.load_game(theirs)
        registered = pyspiel.load_game(openspiel.short_name(tabula))
        # OpenSpiel's C++ game first: the ratios are to it.
        cpp_name = f"pyspiel {theirs} (OpenSpiel's C++ game)"
        playouts = {
            cpp_name: cpp.new_initial_state,
            f"tabula_games ({native.title})": native.new_initial_state,
            f"pyspiel {openspiel.short_name(tabula)} (registered Python game)": registered.new_initial_state,
        }
        searches = {
            cpp_name: (cpp, mcts.RandomRolloutEvaluator),
            f"pyspiel {openspiel.short_name(tabula)} (registered Python game)": (
                registered,
                mcts.RandomRolloutEvaluator,
            ),
            f"pyspiel {openspiel.short_name(tabula)}, rollouts in the engine": (
                registered,
                openspiel.RandomRolloutEvaluator,
            ),
        }
        rates = {("playouts", k): [] for k in playouts}
        rates.update({("mcts", k): [] for k in searches})
        for turn in range(max(args.rounds, 1)):
            # The C++ game measured first in one round and last in the next.
            step = 1 if turn % 2 == 0 else -1
            for name in list(playouts)[::step]:
                rates["playouts", name].append(playouts_per_second(playouts[name], args.seconds))
            for name in list(searches)[::step]:
                game, evaluator = searches[name]
                rates["mcts", name].append(searches_per_second(game, evaluator, args.seconds, args.simulations))

        def ratio(kind: str, name: str) -> str:
            """The median over the rounds of the rate over the C++ game's."""
            if name == cpp_name:
                return ""
            pairs = zip(rates[kind, name], rates[kind, cpp_name])
            return f"{statistics.median(ours / theirs for ours, theirs in pairs):>6.2f} of C++"

        print(f"{native.title}: random playouts per second, one thread (median of {args.rounds} rounds)")
        for name in playouts:
            print(f"  {name:<62} {statistics.median(rates['playouts', name]):>10,.0f} {ratio('playouts', name)}")
        print(f"{native.title}: MCTS bot moves per second and simulations per second "
              f"({args.simulations} a move, random rollouts)")
        for name in searches:
            moves = statistics.median(rates["mcts", name])
            print(f"  {name:<62} {moves:>10,.1f} {moves * args.simulations:>10,.0f} {ratio('mcts', name)}")
        # For scale: the same games played inside the engine, no Python between moves.
        report = native.simulate(("random", "random"), 100_000, 1)
        print(f"  {'for scale: tabula simulate random,random (engine, all cores)':<62} "
              f"{report['games'] / max(report['seconds'], 1e-9):>10,.0f} playouts/s")


if __name__ == "__main__":
    main()
