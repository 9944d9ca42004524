"""What a state costs as its game grows long: bytes per state (serialized,
pickled and in memory) and time per step, at a few lengths of one random game.

The game is Northcott's without its progress rule, whose random games run to the
engine's cap of 20,000 moves, so any length can be measured: with its repetition
rule off (the state keeps its history), and on (it keeps a count of the
positions seen besides). A step is what
OpenSpiel's random_sim_test does at every move of a game: a clone of the state,
the information-state string (the history), the legal actions, and the move.

    python examples/python/costs.py                    # at 1,000 and 10,000 moves
    python examples/python/costs.py --plies 100 1000   # quicker
"""

import argparse
import os
import pickle
import random
import time

import pyspiel

import tabula_games
from tabula_games import openspiel

VARIANTS = ["repetition=0,progress=off", "progress=off"]
# States held at once to measure the memory one takes.
HELD = 200
# Steps timed at each length.
STEPS = 200


def resident_bytes() -> int:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def bytes_in_memory(state) -> float:
    """Memory one more copy of `state` takes, from the growth of the process
    while it holds HELD copies."""
    before = resident_bytes()
    held = [state.clone() for _ in range(HELD)]
    grown = resident_bytes() - before
    del held
    return grown / HELD


def seconds_per_step(state, player_of, steps: int, seed: int) -> float:
    """Mean time of a random_sim_test step at this length: clone the state,
    write its information state, list the legal actions, play one."""
    rng = random.Random(seed)
    clones = []
    began = time.perf_counter()
    for _ in range(steps):
        clones.append(state.clone())
        player_of(state)
        state.apply_action(rng.choice(state.legal_actions()))
    return (time.perf_counter() - began) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    openspiel.register(["northcott"])
    print(f"Northcott, one random game a variant; {HELD} states held, {STEPS} steps timed:")
    print(f"  {'variant':<26} {'moves':>6} {'serialized':>11} {'pickled':>9} {'in memory':>10}"
          f" {'step (native)':>14} {'step (pyspiel)':>15} {'serialize+read':>15}")
    for variant in VARIANTS:
        native_game = tabula_games.load_game("northcott", variant)
        spiel_game = pyspiel.load_game(f"tabula_northcott({variant})")
        rng = random.Random(1)
        native = native_game.new_initial_state()
        spiel = spiel_game.new_initial_state()
        for plies in sorted(args.plies):
            while native.move_number() < plies:
                action = rng.choice(native.legal_actions())
                native.apply_action(action)
                spiel.apply_action(action)
            serialized = len(native.serialize().encode())
            pickled = len(pickle.dumps(native))
            memory = bytes_in_memory(native)
            native_step = seconds_per_step(native.clone(), lambda s: s.history_str(), STEPS, plies)
            spiel_step = seconds_per_step(
                spiel.clone(), lambda s: s.information_state_string(0), STEPS, plies
            )
            began = time.perf_counter()
            text = pyspiel.serialize_game_and_state(spiel_game, spiel)
            pyspiel.deserialize_game_and_state(text)
            round_trip = time.perf_counter() - began
            print(f"  {variant:<26} {plies:>6,} {serialized:>9,} B {pickled:>7,} B {memory:>8,.0f} B"
                  f" {native_step * 1e6:>11,.1f} us {spiel_step * 1e6:>12,.1f} us"
                  f" {round_trip * 1e3:>12,.2f} ms")

if __name__ == "__main__":
    main()
