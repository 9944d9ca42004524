"""Random playouts per second: Tic-tac-toe through tabula_games against
OpenSpiel's own (C++) tic_tac_toe through pyspiel, side by side, with the same
Python loop; and Tabula's game registered with pyspiel as a Python game.

    python examples/python/speed.py              # 2 seconds each
    python examples/python/speed.py --seconds 0.2
"""

import argparse
import random
import time

import pyspiel

import tabula_games
from tabula_games import openspiel


def playouts_per_second(new_state, seconds: float, seed: int = 1) -> float:
    """Random games from the start to the end, as many as fit in `seconds`."""
    rng = random.Random(seed)
    choice = rng.choice
    games = 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        games += 1
        if games % 64 == 0 and time.perf_counter() >= deadline:
            break
    return games / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time for each measurement")
    args = parser.parse_args()

    openspiel.register(["tictactoe"])
    tabula = tabula_games.load_game("tictactoe")
    theirs = pyspiel.load_game("tic_tac_toe")
    registered = pyspiel.load_game("tabula_tictactoe")
    rows = [
        ("tabula_games (Tabula's Tic-tac-toe)", tabula.new_initial_state),
        ("pyspiel tic_tac_toe (OpenSpiel's C++ game)", theirs.new_initial_state),
        ("pyspiel tabula_tictactoe (registered Python game)", registered.new_initial_state),
    ]
    print(f"Random Tic-tac-toe playouts per second, {args.seconds:g} s each, one thread:")
    for name, new_state in rows:
        print(f"  {name:<52} {playouts_per_second(new_state, args.seconds):>10,.0f}")
    # For scale: the same games played inside the engine, no Python between moves.
    report = tabula.simulate(("random", "random"), 200_000, 1)
    print(f"  {'tabula simulate random,random (engine, all cores)':<52} "
          f"{report['games'] / max(report['seconds'], 1e-9):>10,.0f}")


if __name__ == "__main__":
    main()
