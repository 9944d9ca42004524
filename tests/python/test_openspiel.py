"""Tabula's games as OpenSpiel games: OpenSpiel's own tests and algorithms run on
them, and their values agree with OpenSpiel's own Tic-tac-toe and Nim."""

import re

import pyspiel
import pytest
from open_spiel.python.algorithms import get_all_states, minimax

import tabula_games
from tabula_games import openspiel

# Every registered game in its usual variant, and the variants the issue names.
# A random game of Northcott or Poggle runs to the engine's cap of moves (random
# play neither blocks a Northcott piece for good nor lights a Poggle board), and
# OpenSpiel's test does work proportional to the history at every step: one game each.
SIMS = {
    "tabula_tictactoe": 5,
    "tabula_hexapawn": 5,
    "tabula_kono": 5,
    "tabula_mu_torere": 5,
    "tabula_nim": 5,
    "tabula_northcott": 1,
    "tabula_auto120": 3,
    "tabula_samegame": 3,
    "tabula_poggle": 1,
    "tabula_pig": 5,
    "tabula_hexapawn(columns=4)": 5,
    "tabula_nim(heaps=1-2-3,play=misere)": 5,
    "tabula_auto120(markers=1)": 5,
    "tabula_poggle(colours=3,size=3)": 1,
    "tabula_samegame(size=5x5)": 5,
    "tabula_pig(start=random,dice=2)": 3,
}


def test_register_names_every_game_once(registered):
    assert registered == [openspiel.short_name(n) for n in tabula_games.games()]
    assert "tabula_mu_torere" in registered
    assert openspiel.register() == registered  # a second call registers nothing twice
    for name in registered:
        assert name in pyspiel.registered_names()


def test_every_game_is_covered(registered):
    assert set(registered) <= set(SIMS)


@pytest.mark.parametrize("name", list(SIMS))
def test_random_sim_test(registered, name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=SIMS[name], serialize=True, verbose=False)


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
    # Games without a natural bound declare the engine's cap.
    kono = pyspiel.load_game("tabula_kono")
    assert kono.max_game_length() == tabula_games.load_game("kono").max_game_length()


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


def test_tic_tac_toe_values_match_openspiel_everywhere():
    states, values = openspiel_values(pyspiel.load_game("tic_tac_toe"))
    assert len(states) == 5478
    game = tabula_games.load_game("tictactoe")
    for key, spiel_state in states.items():
        state = game.new_initial_state()
        for action in spiel_state.history():
            state.apply_action(action)
        assert state.legal_actions() == spiel_state.legal_actions(), key
        assert state.is_terminal() == spiel_state.is_terminal(), key
        assert tabula_value(state) == values[key], key


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
