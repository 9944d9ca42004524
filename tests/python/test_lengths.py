"""Random games of every game end soon and fit in memory, through tabula_games
alone: the work of OpenSpiel's random_sim_test done with the package's own
stepping API, so the property is checked without OpenSpiel too."""

from conftest import run_capped

import tabula_games

# Peak resident memory allowed for all games together in one process.
MEMORY = 1 << 30

# As random_sim_test: five random games of each, keeping a copy of every state
# met, reading back the serialized state at the first ten moves and at every
# power of two; each game within its declared length.
SCRIPT = """
import random, resource, sys, time
import tabula_games
rng = random.Random(1)
for spec in sys.argv[1:]:
    name, _, variant = spec.partition(":")
    game = tabula_games.load_game(name, variant)
    began = time.perf_counter()
    longest = 0
    for _ in range(5):
        state = game.new_initial_state()
        kept = []
        while not state.is_terminal():
            moves = len(kept)
            kept.append(state.clone())
            if moves < 10 or moves & (moves - 1) == 0:
                back = game.deserialize_state(state.serialize())
                assert str(back) == str(state) and back.history() == state.history()
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.history_str()
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.move_number() <= game.max_game_length(), spec
        longest = max(longest, state.move_number())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"{spec}\\t{longest}\\t{time.perf_counter() - began:.2f}\\t{peak}", flush=True)
"""


def checked_variants():
    """Every registered game in its usual variant and each variant it declares."""
    out = []
    for name in tabula_games.games():
        variants = [""] + [c["variant"] for c in tabula_games.test_cases(name)["variants"]]
        out.extend(f"{name}:{v}" for v in dict.fromkeys(variants))
    return out


def test_random_games_of_every_game_fit_in_memory_without_openspiel():
    """Every game and declared variant, one after another in one process,
    under 1 GiB of resident memory; no game of these reaches the engine's
    cap of 20,000 moves (Northcott and Poggle did, before their rules of
    actual play ended random games)."""
    games = checked_variants()
    run = run_capped(SCRIPT, games)
    done = [line.split("\t") for line in run.stdout.splitlines() if line.count("\t") == 3]
    print("game:variant, longest game, seconds, peak resident bytes:", *done, sep="\n  ")
    assert run.returncode == 0, f"stopped after {[d[0] for d in done]}:\n{run.stderr[-3000:]}"
    assert [d[0] for d in done] == games
    assert max(int(d[1]) for d in done) < 20_000
    assert max(int(d[3]) for d in done) < MEMORY
