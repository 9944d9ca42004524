"""Connect Four against OpenSpiel's own `connect_four`: the same action ids, the
same legal actions, the same observation tensors, position for position, and the
same values near the end of the 7x6 game, mapped action by action.

Run with the package installed (as `scripts/python-test` installs it):
`target/py-venv/bin/python -m pytest crates/games/connect4/tests/python`.
"""

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import minimax

import tabula_games

# Boards and line lengths OpenSpiel's game takes as parameters.
BOARDS = [
    ({}, {}),
    ({"width": 4, "height": 4}, {"columns": 4, "rows": 4}),
    ({"width": 5, "height": 4, "connect": 3}, {"columns": 5, "rows": 4, "x_in_row": 3}),
]


def pair(ours, theirs):
    return tabula_games.load_game("connect4", ours), pyspiel.load_game("connect_four", theirs)


@pytest.mark.parametrize("ours,theirs", BOARDS)
def test_the_same_game_position_for_position(ours, theirs):
    game, spiel = pair(ours, theirs)
    assert game.num_distinct_actions() == spiel.num_distinct_actions()
    assert list(game.observation_tensor_shape()) == list(spiel.observation_tensor_shape())
    assert game.max_game_length() == spiel.max_game_length()
    rng = random.Random(7)
    for _ in range(40):
        state, other = game.new_initial_state(), spiel.new_initial_state()
        while True:
            assert state.is_terminal() == other.is_terminal()
            for player in (0, 1):
                assert np.array_equal(
                    np.array(state.observation_tensor(player)),
                    np.array(other.observation_tensor(player)),
                ), (str(state), str(other))
            if other.is_terminal():
                assert state.returns() == other.returns()
                break
            assert state.current_player() == other.current_player()
            assert state.legal_actions() == other.legal_actions()
            action = rng.choice(other.legal_actions())
            state.apply_action(action)
            other.apply_action(action)


def tabula_value(state):
    """The value for player 0 that Tabula's analysis gives: +1, -1 or 0."""
    if state.is_terminal():
        return state.returns()[0]
    value = state.analyze()["value"]
    assert value is not None and value["kind"] == "solved", value
    mover = {"win": 1.0, "loss": -1.0, "draw": 0.0}[value["value"]]
    return mover if state.current_player() == 0 else -mover


def positions_near_the_end(spiel, count, empty, seed):
    """`count` positions of the 7x6 game with `empty` cells left, reached by
    random play that has not ended the game."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = spiel.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 42 - empty:
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


def test_values_near_the_end_of_the_classic_game_match_openspiel():
    game, spiel = pair({}, {})
    checked = 0
    for spiel_state in positions_near_the_end(spiel, 16, empty=9, seed=31):
        state = game.new_initial_state()
        for action in spiel_state.history():
            state.apply_action(action)
        expected, _ = minimax.alpha_beta_search(spiel, state=spiel_state.clone(), maximizing_player_id=0)
        assert tabula_value(state) == expected, spiel_state.history()
        # Each move's value, action by action.
        for action in spiel_state.legal_actions():
            child, spiel_child = state.clone(), spiel_state.clone()
            child.apply_action(action)
            spiel_child.apply_action(action)
            if spiel_child.is_terminal():
                value = spiel_child.returns()[0]
            else:
                value, _ = minimax.alpha_beta_search(spiel, state=spiel_child, maximizing_player_id=0)
            assert tabula_value(child) == value, (spiel_state.history(), action)
            checked += 1
    assert checked >= 40
