"""tabula_games' own API: every game stepped with integer actions, the solvers,
players, simulation, training and tools, and bad input refused with ValueError."""

import copy
import json
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import tabula_games
from conftest import ALL_GAMES


def test_import_and_games():
    assert tabula_games.__version__
    assert ALL_GAMES[:2] == ["tictactoe", "hexapawn"]
    assert {"nim", "mu-torere", "auto120", "pig", "samegame", "poggle"} <= set(ALL_GAMES)
    infos = tabula_games.game_info()
    assert [i["name"] for i in infos] == ALL_GAMES
    assert any(o["name"] == "heaps" for o in tabula_games.options("nim"))


def check_state(game, state, facts):
    """The laws every state keeps, whatever the game."""
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions sorted and distinct"
    if not state.is_chance_node():
        assert all(0 <= a < facts["num_distinct_actions"] for a in legal)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    if state.is_terminal():
        assert state.current_player() == tabula_games.TERMINAL_PLAYER
        assert legal == []
    elif state.is_chance_node():
        assert state.current_player() == tabula_games.CHANCE_PLAYER
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(0 <= a < max(facts["max_chance_outcomes"], 1) for a in legal)
    else:
        assert 0 <= state.current_player() < facts["num_players"]
        assert legal, "a player to move has a move"
        for a in legal[:20]:
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a, (text, a)
        mask = state.legal_actions_mask()
        assert [i for i, m in enumerate(mask) if m] == legal


@pytest.mark.parametrize("name", ALL_GAMES)
def test_random_playouts(name):
    game = tabula_games.load_game(name)
    facts = game.facts()
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if steps < 200 or steps % 997 == 0:
                check_state(game, state, facts)
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                action = rng.choices(actions, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply_action(action)
            assert before.move_number() + 1 == state.move_number()
            steps += 1
            assert steps <= facts["max_game_length"]
            if steps in (1, 5, 50):
                again = game.deserialize_state(state.serialize())
                assert str(again) == str(state)
                assert again.history() == state.history()
        check_state(game, state, facts)
        returns = state.returns()
        assert len(returns) == facts["num_players"]
        assert all(facts["min_utility"] <= r <= facts["max_utility"] for r in returns)
        if facts["zero_sum"]:
            assert sum(returns) == 0
        again = game.deserialize_state(state.serialize())
        assert again.is_terminal() and again.returns() == returns and str(again) == str(state)


def test_clone_copy_and_pickle_are_independent():
    game = tabula_games.load_game("tictactoe")
    state = game.new_initial_state()
    state.apply_action(4)
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert str(other) == str(state) and other.history() == [4]
        other.apply_action(0)
        assert state.history() == [4]


def test_tic_tac_toe_actions_are_openspiel_cells():
    state = tabula_games.load_game("tictactoe").new_initial_state()
    assert state.legal_actions() == list(range(9))
    state.apply_action(4)  # the centre, as in OpenSpiel: row * 3 + column
    assert state.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    assert str(state) == ".../.X./... O"


def test_options_as_dict_or_text():
    by_dict = tabula_games.load_game("kono", {"rules": "gamesman"})
    by_text = tabula_games.load_game("kono", "rules=gamesman")
    assert by_dict.variant == by_text.variant
    assert "gamesman" in by_dict.variant
    nim = tabula_games.load_game("nim", {"heaps": [1, 2, 3], "play": "misere"})
    assert nim.variant == "heaps=1-2-3,play=misere"
    assert str(nim.new_initial_state()) == "1 2 3"
    assert tabula_games.load_game("mu_torere").name == "mu-torere"


def strip_times(value):
    """A result without its timings (they differ from run to run)."""
    if isinstance(value, dict):
        return {k: strip_times(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [strip_times(v) for v in value]
    return value


@pytest.mark.parametrize(
    "name,variant",
    [("tictactoe", ""), ("hexapawn", "columns=4"), ("mu-torere", ""), ("nim", "heaps=1-2-3,play=misere"), ("poggle", "colours=3")],
)
def test_solve_gives_the_cli_figures(tabula_bin, name, variant):
    cli = json.loads(
        subprocess.run(
            [tabula_bin, "solve", name, "--variant", variant, "--json"],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    mine = tabula_games.load_game(name, variant).solve()
    assert strip_times(mine) == strip_times(cli)


def test_analyze_gives_the_cli_figures(tabula_bin):
    cli = json.loads(
        subprocess.run(
            [tabula_bin, "analyze", "hexapawn", "--json"],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    game = tabula_games.load_game("hexapawn")
    assert game.analyze() == cli
    assert game.new_initial_state().analyze() == cli


def test_solvers_of_the_puzzles():
    poggle = tabula_games.load_game("poggle", {"colours": 3}).solve()
    assert poggle["solution"]["kind"] == "presses"
    # Pressing the presses it names solves the board, through the state's own actions.
    game = tabula_games.load_game("poggle", {"colours": 3})
    state = game.new_initial_state()
    size = len(poggle["solution"]["grid"])
    for row, counts in enumerate(poggle["solution"]["grid"]):
        for col, count in enumerate(counts):
            for _ in range(count):
                state.apply_action(row * size + col)
    assert state.is_terminal() and state.returns() == [1.0]
    assert poggle["solution"]["total"] == state.move_number()

    samegame = tabula_games.load_game("samegame", {"size": "5x5"})
    found = samegame.solve(seconds=0.3, seed=3)
    assert found["solution"]["kind"] == "line"
    state = samegame.new_initial_state()
    for move in found["solution"]["moves"]:
        state.apply_action(state.string_to_action(move))
    assert state.returns() == [float(found["solution"]["score"])]


def test_players_by_name():
    game = tabula_games.load_game("tictactoe")
    perfect = tabula_games.player(game, "perfect")
    random_player = tabula_games.player(game, "random", seed=3)
    for first in (perfect, random_player):
        second = random_player if first is perfect else perfect
        for _ in range(5):
            state = game.new_initial_state()
            seats = [first, second]
            while not state.is_terminal():
                state.apply_action(seats[state.current_player()].step(state))
            perfect_seat = seats.index(perfect)
            assert state.returns()[perfect_seat] >= 0, "the perfect player never loses"
    assert "matchbox" in [p["name"] for p in game.info()["players"]]
    matchbox = game.player("matchbox", 1)
    assert matchbox.step(game.new_initial_state()) in range(9)
    search = tabula_games.load_game("samegame", {"size": "5x5"}).player("search")
    sg = tabula_games.load_game("samegame", {"size": "5x5"}).new_initial_state()
    assert search.step(sg) in sg.legal_actions()


def test_simulate_and_train():
    game = tabula_games.load_game("tictactoe")
    report = tabula_games.simulate(game, ["perfect", "random"], games=50, seed=2)
    assert report["games"] == 50 and report["wins"][1] == 0
    hexapawn = tabula_games.load_game("hexapawn")
    report, learned = tabula_games.train(hexapawn, games=60, block=10)
    points = report["curve"]["points"]
    assert len(points) == 6 and points[-1]["to"] == 60
    assert sum(p["wins"] + p["losses"] + p["draws"] for p in points) == 60
    # Gardner's machine learns: fewer losses at the end than at the start.
    assert points[-1]["losses"] < points[0]["losses"]
    more, _ = tabula_games.train(hexapawn, games=10, learned=learned)
    assert more["counts"]["games"] == 10


def test_tools():
    names = [t["name"] for t in tabula_games.tools()]
    assert "cgt" in names
    lines, data = tabula_games.tool("cgt", "1* + 2* + 3*")
    assert data["nimber"] == 0 and lines


BAD = [
    lambda: tabula_games.load_game("chess"),
    lambda: tabula_games.load_game("nim", {"heaps": "x"}),
    lambda: tabula_games.load_game("nim", {"bogus": 1}),
    lambda: tabula_games.load_game("hexapawn", {"columns": 99}),
    lambda: tabula_games.load_game("nim").new_initial_state().apply_action(10**6),
    lambda: tabula_games.load_game("nim").new_initial_state().apply_action(-1),
    lambda: tabula_games.load_game("nim").new_initial_state().action_to_string(10**6),
    lambda: tabula_games.load_game("nim").new_initial_state().string_to_action("nonsense"),
    lambda: tabula_games.load_game("nim").new_initial_state().observation_tensor(5),
    lambda: tabula_games.load_game("nim").deserialize_state("garbage\n"),
    lambda: tabula_games.load_game("nim").deserialize_state("999999\n"),
    lambda: tabula_games.load_game("nim").state_from_position("3 x 5"),
    lambda: tabula_games.load_game("nim").analyze("not a position"),
    lambda: tabula_games.load_game("tictactoe").player("grandmaster"),
    lambda: tabula_games.load_game("tictactoe").player("lookahead:depth=1e9"),
    lambda: tabula_games.load_game("tictactoe").player("random:seed=-1"),
    lambda: tabula_games.load_game("auto120").player("perfect"),
    lambda: tabula_games.load_game("samegame").solve(seconds=-1),
    lambda: tabula_games.load_game("tictactoe").simulate(("perfect", "random"), 0),
    lambda: tabula_games.load_game("tictactoe").solve(max_memory="lots"),
    lambda: tabula_games.set_max_memory("lots"),
    lambda: tabula_games.tool("cgt", "1* +"),
    lambda: tabula_games.tool("no-such-tool", "1"),
    lambda: tabula_games.simulate(tabula_games.load_game("tictactoe"), ["perfect"]),
    lambda: tabula_games.load_game("tictactoe").player("perfect").step(
        tabula_games.load_game("nim").new_initial_state()
    ),
]


@pytest.mark.parametrize("call", BAD)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError) as err:
        call()
    message = str(err.value)
    assert message and "panick" not in message and "Traceback" not in message


def computer_players(name):
    game = tabula_games.load_game(name)
    return game, [p["name"] for p in game.info()["players"] if p["name"] != "human"]


def declared_options(game, player):
    """The options a player names when asked for one it does not have (none: it takes none)."""
    with pytest.raises(ValueError) as err:
        game.player(f"{player}:nosuch=1")
    message = str(err.value)
    found = re.search(r"its options: ([^)]*)\)", message)
    assert found or "takes no options" in message, message
    return found.group(1).split(", ") if found else []


@pytest.mark.parametrize("name", ALL_GAMES)
def test_a_players_bad_options_are_refused_in_words(name):
    """Every computer player of every game: an option it does not have, and a value
    it cannot read for each option it has, raise ValueError saying what the option
    is and what it takes, never a bare refusal."""
    game, players = computer_players(name)
    for player in players:
        for option in declared_options(game, player):
            with pytest.raises(ValueError) as err:
                game.player(f"{player}:{option}=abc")
            message = str(err.value)
            assert "must be" in message or "a word on its own" in message, message
            assert "panick" not in message and "Err(" not in message, message


def test_errors_use_the_cli_words(tabula_bin):
    cli = subprocess.run(
        [tabula_bin, "solve", "chess"], capture_output=True, text=True, timeout=60
    ).stderr
    with pytest.raises(ValueError) as err:
        tabula_games.load_game("chess")
    assert str(err.value) in cli


def test_a_solve_over_its_memory_budget_is_refused():
    with pytest.raises(ValueError, match="MiB|KiB|memory"):
        tabula_games.load_game("hexapawn", {"columns": 4, "rows": 5}).solve(max_memory="1M")


def test_long_calls_release_the_interpreter():
    """While a solve runs in one thread, Python code runs in another."""
    game = tabula_games.load_game("hexapawn", {"columns": 5, "rows": 4})
    done = threading.Event()

    def work():
        game.solve()
        done.set()

    began = time.perf_counter()
    worker = threading.Thread(target=work)
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    took = time.perf_counter() - began
    assert took > 0.05, f"the solve took {took:.3f} s, too short to show anything"
    # Holding the interpreter, the solve would have let this loop run once or twice.
    assert ticks >= 20, (ticks, took)


# Run in a process of its own, so that its Kono table is built from nothing (an
# empty cache directory, no table in memory) and its Ctrl-C reaches nothing else.
INTERRUPTED_SOLVE = """
import signal, time, tabula_games
# Ctrl-C at a terminal: a Python started from a shell's background job (or any
# parent ignoring SIGINT) inherits the ignored signal and never raises
# KeyboardInterrupt, so the test sets the handler a terminal's Python has.
signal.signal(signal.SIGINT, signal.default_int_handler)
game = tabula_games.load_game("kono")
print("ready", flush=True)
began = time.perf_counter()
try:
    game.solve()
    print("finished", time.perf_counter() - began, flush=True)
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - began, flush=True)
# The process goes on: a bounded solve stops at its bound.
began = time.perf_counter()
try:
    game.solve(seconds=0.5)
    print("solved", flush=True)
except TimeoutError as e:
    print("timeout", time.perf_counter() - began, str(e), flush=True)
"""


def test_ctrl_c_stops_a_long_solve_at_once(tmp_path):
    """SIGINT 1.5 s into Kono's solve (tens of seconds from an empty cache) raises
    KeyboardInterrupt within a moment, not when the solve ends."""
    env = dict(os.environ, TABULA_CACHE_DIR=str(tmp_path))
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_SOLVE],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    lines = out.splitlines()
    assert lines and lines[0].startswith("interrupted"), (out, err)
    took = float(lines[0].split()[1])
    assert took < 4.0, f"KeyboardInterrupt came {took:.1f} s into the solve: {out}"
    assert lines[1].startswith("timeout"), (out, err)
    assert float(lines[1].split()[1]) < 3.0, out
    assert not any(tmp_path.iterdir()), "the stopped solve wrote no table"


def test_seconds_bounds_every_solve():
    """The generic solver stops at `seconds` too (Hexapawn 6x4: millions of
    positions), with TimeoutError, not only SameGame's search."""
    game = tabula_games.load_game("hexapawn", {"columns": 6, "rows": 4})
    began = time.perf_counter()
    with pytest.raises(TimeoutError, match="0.2 s"):
        game.solve(seconds=0.2)
    assert time.perf_counter() - began < 2.0
    # An anytime search still answers with its best by then.
    began = time.perf_counter()
    found = tabula_games.load_game("samegame").solve(seconds=0.5, seed=3)
    assert found["solution"]["kind"] == "line" and found["solution"]["moves"], found
    assert time.perf_counter() - began < 3.0


def test_docstring_sessions():
    import doctest

    from tabula_games import openspiel

    for module in (tabula_games, openspiel):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_readme_session():
    """The README's Python session gives what it shows."""
    import doctest

    from conftest import ROOT

    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Python") : text.index("## Limits")]
    # A code fence ends the expected output of the example before it.
    section = "\n".join("" if line.startswith("```") else line for line in section.splitlines())
    test = doctest.DocTestParser().get_doctest(section, {}, "README Python", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples and runner.failures == 0
