"""Tabula's games as OpenSpiel games: OpenSpiel's own tests and algorithms run on
them, and their values agree with OpenSpiel's own Tic-tac-toe and Nim."""

import pickle
import random
import re

import pyspiel
import pytest
from conftest import run_capped
from open_spiel.python.algorithms import get_all_states, minimax

import tabula_games
from tabula_games import openspiel



def openspiel_string(name, variant):
    """The registered OpenSpiel game of a Tabula game and variant (its string form)."""
    short = openspiel.short_name(name)
    return f"{short}({variant})" if variant else short


def checked_games():
    """Every registered game in its usual variant and each variant it declares
    (`tabula_games.test_cases`): a new game is checked with no edit here."""
    out = []
    for name in tabula_games.games():
        variants = [""] + [c["variant"] for c in tabula_games.test_cases(name)["variants"]]
        for variant in dict.fromkeys(variants):
            out.append(openspiel_string(name, variant))
    return out


def openspiel_cases():
    """Every OpenSpiel counterpart a game declares, with its Tabula game."""
    return [
        pytest.param(name, case, id=f"{name}-{case['game']}")
        for name in tabula_games.games()
        for case in tabula_games.test_cases(name)["openspiel"]
    ]


def test_register_names_every_game_once(registered):
    assert registered == [openspiel.short_name(n) for n in tabula_games.games()]
    assert "tabula_mu_torere" in registered
    assert openspiel.register() == registered  # a second call registers nothing twice
    for name in registered:
        assert name in pyspiel.registered_names()


def check_random_playout(game, seed):
    """One game of uniformly random moves (and chance outcomes by their
    probabilities), checking at every step what OpenSpiel's random_sim_test
    checks, and a few laws beside: legal actions and their mask, chance
    outcomes, observation sizes, clones and serialisation that give the same
    state, a length within the game's bound, and returns within its utilities
    that add up its rewards. Returns the number of decisions played."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    rewards = [0.0] * game.num_players()
    plies = 0  # decisions, as OpenSpiel's max_game_length counts them
    steps = 0
    while not state.is_terminal():
        chance = state.is_chance_node()
        if chance:
            outcomes = state.chance_outcomes()
            assert sorted(a for a, _ in outcomes) == state.legal_actions()
            assert all(0.0 < p <= 1.0 for _, p in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            actions, probs = zip(*outcomes)
            action = rng.choices(actions, weights=probs)[0]
        else:
            player = state.current_player()
            actions = state.legal_actions()
            assert actions and actions == sorted(set(actions))
            assert 0 <= actions[0] and actions[-1] < game.num_distinct_actions()
            mask = state.legal_actions_mask()
            assert [i for i, on in enumerate(mask) if on] == actions
            assert len(state.observation_tensor(player)) == game.observation_tensor_size()
            action = rng.choice(actions)
        if steps % 97 == 0:
            for copy in (state.clone(), game.deserialize_state(state.serialize())):
                assert str(copy) == str(state) and copy.history() == state.history()
        state.apply_action(action)
        rewards = [r + x for r, x in zip(rewards, state.rewards())]
        steps += 1
        plies += 0 if chance else 1
        assert plies <= game.max_game_length()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    for player, value in enumerate(state.returns()):
        assert game.min_utility() <= value <= game.max_utility()
        assert abs(value - rewards[player]) < 1e-9
    return plies


@pytest.mark.parametrize("name", checked_games())
def test_random_playouts_keep_openspiels_laws(registered, name):
    check_random_playout(pyspiel.load_game(name), seed=1)


# What OpenSpiel's random_sim_test may use, all games together, in one process.
SIM_TEST_MEMORY = 1 << 30

SIM_TEST_SCRIPT = """
import resource, sys, time
import pyspiel
from tabula_games import openspiel
openspiel.register()
for name in sys.argv[1:]:
    began = time.perf_counter()
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=5, serialize=True, verbose=False)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"{name}\t{time.perf_counter() - began:.2f}\t{peak}", flush=True)
"""


def test_random_sim_test_on_every_game_fits_in_memory(registered):
    """OpenSpiel's first test as a user runs it: `random_sim_test(num_sims=5,
    serialize=True)` on every registered game and every variant it declares,
    one after another in one process, whose peak resident memory stays under
    1 GiB. (Random games of Northcott and Poggle used to run to the 20,000-move
    cap, and the test, which keeps every state with its history, grew past the
    machine's memory.)"""
    games = checked_games()
    run = run_capped(SIM_TEST_SCRIPT, games)
    done = [line.split("\t") for line in run.stdout.splitlines() if line.count("\t") == 2]
    print("game, seconds, peak resident bytes:", *done, sep="\n  ")
    assert run.returncode == 0, (
        f"random_sim_test stopped after {[d[0] for d in done]}:\n{run.stderr[-3000:]}"
    )
    assert [d[0] for d in done] == games
    peak = max(int(d[2]) for d in done)
    assert peak < SIM_TEST_MEMORY, f"peak resident memory {peak} bytes"


@pytest.mark.parametrize(
    "text", ["tabula_poggle(start=random,seed=3)", "tabula_samegame(seed=7)", "tabula_poggle(seed=0)"]
)
def test_seeded_games_load_again_from_their_own_strings(registered, text):
    """A board number is a whole number in OpenSpiel, so the game's own string
    (which OpenSpiel's parser reads back with `seed` as an integer) loads the
    same game: in random_sim_test's serialisation, pickling and
    serialize_game_and_state. (Poggle's seed was declared as text: "Wrong type
    for parameter seed".)"""
    game = pyspiel.load_game(text)
    assert isinstance(game.get_parameters()["seed"], int)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert str(again.new_initial_state()) == str(game.new_initial_state())
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text_form = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text_form)
    assert str(game_back) == str(game)
    assert str(state_back) == str(state) and state_back.history() == state.history()
    pickled = pickle.loads(pickle.dumps(state))
    assert str(pickled) == str(state) and pickled.history() == state.history()
    # The board numbered 3 is the one Tabula deals for seed=3.
    seed = game.get_parameters()["seed"]
    variant = openspiel.parameters_to_variant(openspiel.tabula_name(text.partition("(")[0]), game.get_parameters())
    assert f"seed={seed}" in variant
    # No board number given: -1 for OpenSpiel, none for Tabula.
    usual = pyspiel.load_game(text.partition("(")[0])
    assert usual.get_parameters()["seed"] == -1
    assert "seed" not in openspiel.parameters_to_variant(
        openspiel.tabula_name(text.partition("(")[0]), usual.get_parameters()
    )


def test_game_types(registered):
    ttt = pyspiel.load_game("tabula_tictactoe").get_type()
    assert ttt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ttt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert ttt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    for dice in ("tabula_auto120", "tabula_pig"):
        assert pyspiel.load_game(dice).get_type().chance_mode == (
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        )
    for puzzle in ("tabula_samegame", "tabula_poggle"):
        game = pyspiel.load_game(puzzle)
        assert game.num_players() == 1
        assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
        assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # Games that could go on for ever declare the bound their draw rules give:
    # Kono's 150 plies without a capture, at most 16 captures.
    kono = pyspiel.load_game("tabula_kono")
    assert kono.max_game_length() == tabula_games.load_game("kono").max_game_length() == 17 * 150
    assert pyspiel.load_game("tabula_kono(nocapture=20)").max_game_length() == 17 * 20


def test_parameters_in_openspiel_string_form(registered):
    hexapawn = pyspiel.load_game("tabula_hexapawn(columns=4)")
    assert hexapawn.num_distinct_actions() == tabula_games.load_game(
        "hexapawn", {"columns": 4}
    ).num_distinct_actions()
    assert hexapawn.new_initial_state().legal_actions() != pyspiel.load_game(
        "tabula_hexapawn"
    ).new_initial_state().legal_actions()
    nim = pyspiel.load_game("tabula_nim(heaps=1-2-3,play=misere)")
    assert str(nim.new_initial_state()) == "1 2 3"
    assert nim.get_parameters()["play"] == "misere"
    # The game's own string loads the same game again (OpenSpiel's parser reads it).
    again = pyspiel.load_game(str(nim))
    assert str(again) == str(nim)
    assert pyspiel.load_game("tabula_nim", {"heaps": "1-2-3"}).new_initial_state().legal_actions() == (
        nim.new_initial_state().legal_actions()
    )
    assert str(pyspiel.load_game("tabula_nim(heaps=5)").new_initial_state()) == "5"
    # Pig's start=random is kept as 0, a whole number for OpenSpiel's parser.
    assert pyspiel.load_game("tabula_pig(start=random)").get_parameters()["start"] == 0
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game("tabula_nim(bogus=1)")
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game("tabula_hexapawn(columns=99)")


def test_bots_and_players_meet(registered):
    """Tabula's perfect player steps OpenSpiel states of its game."""
    game = pyspiel.load_game("tabula_tictactoe")
    perfect = tabula_games.player(game.tabula, "perfect")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(perfect.step(state))
    assert state.returns() == [0.0, 0.0]


def openspiel_values(game):
    """Every state of an OpenSpiel game (by its string) with its value for player 0,
    found by OpenSpiel's own alpha-beta search from that state."""
    states = get_all_states.get_all_states(
        game,
        depth_limit=-1,
        include_terminals=True,
        include_chance_states=False,
        stop_if_encountered=True,
        to_string=str,
    )
    values = {}
    for key, state in states.items():
        if state.is_terminal():
            values[key] = state.returns()[0]
        else:
            value, _ = minimax.alpha_beta_search(game, state=state.clone(), maximizing_player_id=0)
            values[key] = value
    return states, values


def tabula_value(state):
    """The value of a Tabula state for player 0, from its analysis: +1, -1 or 0."""
    if state.is_terminal():
        return state.returns()[0]
    value = state.analyze()["value"]
    assert value["kind"] == "solved", value
    mover = {"win": 1.0, "loss": -1.0, "draw": 0.0}[value["value"]]
    return mover if state.current_player() == 0 else -mover


def compare_position(name, key, state, spiel_state, to_tabula, same_observation):
    """One position of a game and of its OpenSpiel counterpart: the same legal
    actions (through the declared map), the same end and returns."""
    assert sorted(to_tabula(a) for a in spiel_state.legal_actions()) == state.legal_actions(), (name, key)
    assert state.is_terminal() == spiel_state.is_terminal(), (name, key)
    if state.is_terminal():
        assert state.returns() == spiel_state.returns(), (name, key)
    elif same_observation:
        player = spiel_state.current_player()
        assert state.observation_tensor(player) == spiel_state.observation_tensor(player), (name, key)


@pytest.mark.parametrize("name,case", openspiel_cases())
def test_games_match_their_openspiel_counterparts(name, case):
    """Every game that declares an OpenSpiel counterpart (Tic-tac-toe's
    `tic_tac_toe`, with the same cells as action ids) is the same game: at every
    reachable state, or along the declared lines, with the values of solved
    positions equal to OpenSpiel's own alpha-beta search."""
    spiel = pyspiel.load_game(case["game"])
    game = tabula_games.load_game(name, case["variant"])
    table = case["actions"]

    def to_tabula(action):
        return table[action] if table else action

    def replay(history):
        state = game.new_initial_state()
        for action in history:
            state.apply_action(to_tabula(action))
        return state

    compared = 0
    if case["every_state"]:
        states, values = openspiel_values(spiel)
        for key, spiel_state in states.items():
            state = replay(spiel_state.history())
            compare_position(name, key, state, spiel_state, to_tabula, case["same_observation"])
            assert tabula_value(state) == values[key], (name, key)
            compared += 1
    for line in case["lines"]:
        spiel_state = spiel.new_initial_state()
        state = game.new_initial_state()
        for ply, action in enumerate([None] + list(line)):
            if action is not None:
                spiel_state.apply_action(action)
                state.apply_action(to_tabula(action))
            key = spiel_state.history_str()
            compare_position(name, key, state, spiel_state, to_tabula, case["same_observation"])
            start = case["values_from_ply"]
            if start is not None and ply >= start:
                if spiel_state.is_terminal():
                    value = spiel_state.returns()[0]
                else:
                    value, _ = minimax.alpha_beta_search(
                        spiel, state=spiel_state.clone(), maximizing_player_id=0
                    )
                assert tabula_value(state) == value, (name, key)
            compared += 1
    assert compared > 0, f"{name}: the case compares no position"


def test_tic_tac_toe_is_compared_at_every_state():
    """Tic-tac-toe declares OpenSpiel's `tic_tac_toe`, compared at all its 5,478 states."""
    cases = tabula_games.test_cases("tictactoe")["openspiel"]
    assert [(c["game"], c["every_state"], c["actions"]) for c in cases] == [("tic_tac_toe", True, [])]
    states, _ = openspiel_values(pyspiel.load_game("tic_tac_toe"))
    assert len(states) == 5478


def test_mu_torere_through_pyspiel_ends_drawn_by_repetition(registered):
    """The rules of actual play hold in OpenSpiel: perfect players draw Mu Torere
    on the third occurrence of a position, far below the engine's cap."""
    game = pyspiel.load_game("tabula_mu_torere")
    assert game.max_game_length() == 2 * 1260
    players = [tabula_games.player(game.tabula, "perfect", seed) for seed in (1, 2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].step(state))
    assert state.returns() == [0.0, 0.0]
    assert state.tabula_state.play_end() == "repetition"
    assert state.move_number() < 100


def test_options_of_actual_play_are_honoured(registered):
    """Northcott's `repetition` ends a game in OpenSpiel as in a match: O and X
    stepping back and forth on one row repeat the start at ply 4, 8, ..."""
    for variant, plies in [("size=6x1", 8), ("size=6x1,repetition=2", 4)]:
        game = pyspiel.load_game(f"tabula_northcott({variant})")
        state = game.new_initial_state()
        line = ["1:1->2", "1:6->5", "1:2->1", "1:5->6"]
        while not state.is_terminal():
            state.apply_action(state.tabula_state.string_to_action(line[state.move_number() % 4]))
        assert state.move_number() == plies, variant
        assert state.returns() == [0.0, 0.0]


def nim_action_text(state, spiel_state, action):
    """OpenSpiel's Nim move (`pile:2, take:1;`) in Tabula's notation in `state`
    (`heap 2 to 1`)."""
    text = spiel_state.action_to_string(action)
    pile, take = map(int, re.match(r"pile:(\d+), take:(\d+)", text).groups())
    heaps = [int(h) for h in str(state).split() if h.isdigit()]
    return f"heap {pile} to {heaps[pile - 1] - take}"


@pytest.mark.parametrize("piles", ["1;2;3", "3;4;5"])
@pytest.mark.parametrize("misere", [False, True])
def test_nim_values_match_openspiel_everywhere(piles, misere):
    ours = pyspiel.load_game(f"nim(pile_sizes={piles},is_misere={misere})")
    states, values = openspiel_values(ours)
    game = tabula_games.load_game(
        "nim", {"heaps": piles.replace(";", "-"), "play": "misere" if misere else "normal"}
    )
    for key, spiel_state in states.items():
        state = game.new_initial_state()
        replay = ours.new_initial_state()
        for action in spiel_state.history():
            state.apply_action(state.string_to_action(nim_action_text(state, replay, action)))
            replay.apply_action(action)
        assert len(state.legal_actions()) == len(spiel_state.legal_actions()), key
        assert state.is_terminal() == spiel_state.is_terminal(), key
        assert tabula_value(state) == values[key], key
    assert len(states) > 20


@pytest.mark.parametrize(
    "name,depth",
    [("tictactoe", 30), ("hexapawn", 30), ("mu-torere", 12)],
)
def test_openspiel_search_on_the_registered_game_finds_the_solved_value(registered, name, depth):
    """alpha-beta of OpenSpiel, run on the registered Tabula game, agrees with
    `tabula solve`. Mu Torere has cycles: its search stops at a depth past its
    longest forced win (remoteness 5), counting what lies beyond as a draw, which
    finds every forced win and so the exact value."""
    game = pyspiel.load_game(openspiel.short_name(name))
    value, _ = minimax.alpha_beta_search(game, maximum_depth=depth, value_function=lambda s: 0.0)
    solved = tabula_games.load_game(name).solve()
    assert solved["counts"]["max_remoteness"] < depth
    expected = {"win": 1.0, "loss": -1.0, "draw": 0.0}[solved["value"]["value"]]
    assert value == expected


def test_other_games_load_as_before(registered):
    """register() reads Tabula's parameters itself; other games' strings, nested
    ones too, reach OpenSpiel unchanged."""
    nested = pyspiel.load_game("turn_based_simultaneous_game(game=goofspiel(num_cards=4))")
    assert nested.num_players() == 2
    assert pyspiel.load_game("nim(pile_sizes=1;2;3)").num_distinct_actions() == 10
    assert pyspiel.load_game("tic_tac_toe", {}).num_distinct_actions() == 9


@pytest.mark.parametrize("text", checked_games())
def test_registered_games_pickle_even_into_a_fresh_process(registered, text):
    """A registered game pickles (multiprocessing, OpenSpiel's own tools) and
    loads again from the pickle, in this process and in one that has not
    registered Tabula's games."""
    import subprocess
    import sys

    game = pyspiel.load_game(text)
    data = pickle.dumps(game)
    again = pickle.loads(data)
    assert str(again) == str(game) and type(again) is type(game)
    state = again.new_initial_state()
    assert state.legal_actions() == game.new_initial_state().legal_actions()
    if text in ("tabula_connect4", "tabula_nim(heaps=1-2-3,play=misere)"):
        fresh = subprocess.run(
            [sys.executable, "-c", "import pickle, sys; print(pickle.loads(sys.stdin.buffer.read()))"],
            input=data,
            capture_output=True,
            timeout=120,
        )
        assert fresh.stdout.decode().strip() == str(game), fresh.stderr.decode()


def test_python_callers_skip_the_crossings_with_the_same_answers(registered, monkeypatch):
    """`legal_actions`, its mask, `is_chance_node` and `is_player_node` asked from
    Python are answered by the engine in one call (not through pyspiel's C++
    base, which calls back into Python for `_legal_actions` and the current
    player), and give what the C++ base gives, on random games of every game."""
    crossings = []
    original = openspiel.TabulaState._legal_actions

    def counted(self, player):
        crossings.append(player)
        return original(self, player)

    monkeypatch.setattr(openspiel.TabulaState, "_legal_actions", counted)
    for text in checked_games():
        game = pyspiel.load_game(text)
        rng = random.Random(17)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            del crossings[:]
            ours = state.legal_actions()
            assert crossings == [], "legal_actions() went through pyspiel's C++ base"
            assert ours == pyspiel.State.legal_actions(state), text
            assert state.legal_actions_mask() == pyspiel.State.legal_actions_mask(state), text
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat), text
                if state.is_chance_node():
                    # OpenSpiel's C++ base would write the dice's outcome ids into a
                    # mask as long as the seat's actions (past its end with two dice).
                    assert not any(state.legal_actions_mask(seat)), text
                else:
                    assert state.legal_actions_mask(seat) == pyspiel.State.legal_actions_mask(state, seat)
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(ours))
    assert crossings, "the C++ base was asked at least once, so the count above counts"


def test_rollouts_inside_the_engine_evaluate_as_openspiels(registered):
    """`openspiel.RandomRolloutEvaluator` plays its random games inside the engine:
    at a position one move from the end it gives the exact result, in a dice game
    the mean of returns within the utilities, and OpenSpiel's MCTS with it takes
    a win in one move."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("tabula_tictactoe")
    state = game.new_initial_state()
    for action in (0, 4, 1, 8):  # X on 0 and 1, O on 4 and 8: X wins on 2
        state.apply_action(action)
    evaluator = openspiel.RandomRolloutEvaluator(4, np.random.RandomState(1))
    won = state.child(2)
    assert list(evaluator.evaluate(won)) == won.returns() == [1.0, -1.0]
    values = evaluator.evaluate(state)
    assert len(values) == 2 and values[0] == -values[1] and -1.0 <= values[0] <= 1.0
    bot = mcts.MCTSBot(game, 2.0, 200, evaluator, random_state=np.random.RandomState(3))
    assert bot.step(state) == 2

    pig = pyspiel.load_game("tabula_pig")
    mean = openspiel.RandomRolloutEvaluator(20, np.random.RandomState(2)).evaluate(pig.new_initial_state())
    assert all(pig.min_utility() <= v <= pig.max_utility() for v in mean) and abs(sum(mean)) < 1e-9
    with pytest.raises(ValueError, match="Tabula's games"):
        evaluator.evaluate(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(ValueError, match="rollouts must be"):
        state.tabula_state.random_rollouts(0)


@pytest.mark.parametrize(
    "text", ["tabula_tictactoe", "tabula_connect4", "tabula_pig", "tabula_samegame(seed=7)", "tabula_kono"]
)
def test_actions_applied_from_python_keep_the_whole_history(registered, monkeypatch, text):
    """`apply_action`, `clone` and `child` asked from Python go to the engine
    alone, not through pyspiel's C++ base (which calls back into Python twice an
    action); every question about the history asked from Python is answered as
    the base answers it for the same game played through the base: history, its
    string, the move number, the full history with players, initial-state
    questions, serialisation, copies and pickles."""
    import copy

    game = pyspiel.load_game(text)
    crossings = []
    original = openspiel.TabulaState._apply_action

    def counted(self, action):
        crossings.append(action)
        return original(self, action)

    monkeypatch.setattr(openspiel.TabulaState, "_apply_action", counted)
    dice = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    ours = game.new_initial_state()
    base = game.new_initial_state()
    rng = random.Random(5)
    for step in range(40):
        assert ours.history() == pyspiel.State.history(base)
        assert ours.history_str() == pyspiel.State.history_str(base)
        assert ours.move_number() == pyspiel.State.move_number(base) == step
        assert ours.is_initial_state() == pyspiel.State.is_initial_state(base)
        if dice:  # OpenSpiel asks this of games with chance only
            assert ours.is_initial_non_chance_state() == pyspiel.State.is_initial_non_chance_state(base)
        pairs = [(p.player, p.action) for p in ours.full_history()]
        assert pairs == [(p.player, p.action) for p in pyspiel.State.full_history(base)]
        assert ours.serialize() == pyspiel.State.serialize(base)
        assert ours.get_game() is game and pyspiel.State.get_game(ours) is game
        # pyspiel's C++ copy (what its C++ algorithms and tests make) carries the
        # engine's state over in the instance dictionary.
        assert str(pyspiel.State.clone(ours)) == str(ours)
        for twin in (ours.clone(), copy.copy(ours), copy.deepcopy(ours), pickle.loads(pickle.dumps(ours))):
            assert type(twin) is type(ours) and twin.get_game() == game
            assert str(twin) == str(ours) and twin.history() == ours.history()
            # A pickle is replayed through the base: its C++ history is whole too.
        assert pyspiel.State.history(pickle.loads(pickle.dumps(ours))) == ours.history()
        if ours.is_terminal():
            break
        if ours.is_chance_node():
            actions, probs = zip(*ours.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(ours.legal_actions())
        child = ours.child(action)
        del crossings[:]
        ours.apply_action(action)
        assert crossings == [], "apply_action() went through pyspiel's C++ base"
        pyspiel.State.apply_action(base, action)
        assert crossings == [action]
        assert str(child) == str(ours) == str(base) and child.history() == ours.history()
        assert ours.returns() == base.returns()
    with pytest.raises(ValueError):
        ours.apply_action(game.num_distinct_actions() + 7)
    assert ours.history() == pyspiel.State.history(base)
