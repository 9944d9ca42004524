"""tabula_games' objects as Python code expects them: games that pickle (for
multiprocessing), states that compare and hash, masks that are lists, pictures for
notebooks, a module docstring that names every game, long simulations that
Ctrl-C stops at once, and type stubs of every name the extension exports."""

import concurrent.futures
import html
import multiprocessing
import pickle
import random
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from conftest import ALL_GAMES

import tabula_games

SVG = "{http://www.w3.org/2000/svg}"


def random_states(game, seed, most=40):
    """The states of one random game (chance by its probabilities), up to `most`."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and len(states) < most:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("name", ALL_GAMES)
def test_legal_actions_and_their_mask_are_openspiels(name):
    """`legal_actions_mask()` is a list of ints (as pyspiel's), as long as
    OpenSpiel makes it; `legal_actions(player)` has OpenSpiel's meaning: a seat
    not to move has none, chance's outcomes are given to whoever asks."""
    game = tabula_games.load_game(name)
    for state in random_states(game, seed=5):
        mask = state.legal_actions_mask()
        assert type(mask) is list and all(type(m) is int and m in (0, 1) for m in mask), type(mask)
        now = state.current_player()
        length = game.max_chance_outcomes() if now == tabula_games.CHANCE_PLAYER else game.num_distinct_actions()
        assert len(mask) == length
        assert [i for i, m in enumerate(mask) if m] == state.legal_actions()
        assert state.legal_actions(now) == state.legal_actions()
        for seat in range(game.num_players()):
            if now >= 0 and seat != now:
                assert state.legal_actions(seat) == [] and not any(state.legal_actions_mask(seat))
            elif now < 0:
                # Chance's outcomes go to whoever asks, as in OpenSpiel; a seat's
                # mask (of its own action ids) stays empty.
                assert state.legal_actions(seat) == state.legal_actions()
                assert not any(state.legal_actions_mask(seat))
        if now >= 0:
            with pytest.raises(ValueError, match="not a seat"):
                state.legal_actions(-1)


def first_legal_actions(game):
    """Run in another process by the multiprocessing test: needs the game pickled."""
    return game.name, game.variant, game.new_initial_state().legal_actions()[:3]


def test_games_pickle_and_go_to_other_processes():
    games = [tabula_games.load_game(name) for name in ALL_GAMES]
    games.append(tabula_games.load_game("nim", {"heaps": [1, 2, 3], "play": "misere"}))
    for game in games:
        again = pickle.loads(pickle.dumps(game))
        assert again == game and hash(again) == hash(game), game
        assert (again.name, again.variant) == (game.name, game.variant)
    assert tabula_games.load_game("nim") != tabula_games.load_game("nim", "heaps=1-2-3")
    # The multiprocessing recipe: games sent to worker processes started afresh.
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        answers = list(pool.map(first_legal_actions, games[-3:], timeout=300))
    assert answers == [first_legal_actions(g) for g in games[-3:]]


@pytest.mark.parametrize("name", ALL_GAMES)
def test_states_compare_and_hash_by_game_start_and_history(name):
    game = tabula_games.load_game(name)
    states = random_states(game, seed=11, most=12)
    for i, state in enumerate(states):
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state and hash(copy) == hash(state)
        assert state.clone() == state and not (state.clone() != state)
        for other in states[i + 1 :]:
            assert other != state
    assert len(set(states)) == len(states)
    assert states[0] != "a state" and states[0] != game
    # A state's game matters, not only its history: the same actions in another variant.
    if name == "nim":
        assert game.new_initial_state() != tabula_games.load_game("nim", "heaps=1-2-3").new_initial_state()


@pytest.mark.parametrize("name", ALL_GAMES)
def test_states_draw_themselves_for_notebooks(name):
    """`_repr_svg_` is an SVG picture of the board the view declares (a shape per
    cell, a piece per piece on a cell), `_repr_html_` the same with the title
    and the position in words."""
    game = tabula_games.load_game(name)
    for state in random_states(game, seed=3, most=6)[::5]:
        view = state.view()
        root = ET.fromstring(state._repr_svg_())
        assert root.tag == SVG + "svg"
        assert float(root.get("width")) > 0 and float(root.get("height")) > 0
        shapes = root.findall(SVG + "rect") + root.findall(SVG + "circle")
        cells = {c["id"] for c in view["cells"]}
        pieces = [p for p in view["pieces"] if p["cell"] in cells]
        assert len(shapes) >= len(view["cells"]) + len(pieces)
        assert root.find(SVG + "title").text == "; ".join(view["status"])
        page = state._repr_html_()
        assert state._repr_svg_() in page and html.escape(game.title) in page
        for line in view["status"]:
            assert html.escape(line) in page


def test_the_module_docstring_names_every_game():
    doc = " ".join(tabula_games.__doc__.split())
    for name in ALL_GAMES:
        assert tabula_games.load_game(name).title in doc, name
    assert max(len(line) for line in tabula_games.__doc__.splitlines()) <= 80


# Run in a process of its own, so that its Ctrl-C reaches nothing else.
INTERRUPTED_SIMULATION = """
import signal, time, tabula_games
signal.signal(signal.SIGINT, signal.default_int_handler)
game = tabula_games.load_game("tictactoe")
print("ready", flush=True)
began = time.perf_counter()
try:
    tabula_games.simulate(game, ("random", "random"), games=10**9)
    print("finished", time.perf_counter() - began, flush=True)
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - began, flush=True)
"""


def test_ctrl_c_stops_a_long_simulation_at_once():
    """SIGINT a second into a billion games raises KeyboardInterrupt within a
    moment: the games not yet started are never visited (they once were, one by
    one, for seconds)."""
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_SIMULATION],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = child.communicate(timeout=120)
        stopped = time.perf_counter() - sent
    finally:
        child.kill()
    assert out.startswith("interrupted"), (out, err)
    assert stopped < 2.0, f"the simulation stopped {stopped:.1f} s after Ctrl-C"


def stubbed(path):
    """The names a stub file declares at its top level, and each class's members."""
    import ast

    names, members = set(), {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {
                item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.module != "typing":
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names, members


def test_every_native_name_and_method_has_a_stub():
    """`_native.pyi` declares every name the extension exports and every method
    of its classes (an editor or type checker sees the whole API), and nothing
    the extension does not have; `__init__.pyi` every name of `__all__`."""
    from pathlib import Path

    from tabula_games import _native

    folder = Path(tabula_games.__file__).parent
    names, members = stubbed(folder / "_native.pyi")
    exported = {n for n in dir(_native) if not (n.startswith("__") and n != "__version__")}
    exported -= {"tabula_games"}  # the extension module's own name, kept by PyO3
    assert exported - names == set(), "exported without a stub"
    assert names - exported == set(), "stubbed but not exported"
    for cls_name, declared in members.items():
        cls = getattr(_native, cls_name)
        public = {n for n in vars(cls) if not n.startswith("__")}
        assert public - declared == set(), f"{cls_name}: methods without a stub"
        assert declared - set(dir(cls)) == set(), f"{cls_name}: stubs of methods it does not have"
    package_names, _ = stubbed(folder / "__init__.pyi")
    assert set(tabula_games.__all__) - package_names == set()
