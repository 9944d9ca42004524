"""Every Tabula game as an OpenSpiel game.

    >>> import pyspiel
    >>> from tabula_games import openspiel
    >>> openspiel.register()                         # doctest: +ELLIPSIS
    ['tabula_tictactoe', 'tabula_hexapawn', ...]
    >>> game = pyspiel.load_game("tabula_nim(heaps=1-2-3,play=misere)")
    >>> pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

`register()` registers each game under `tabula_<name>` (`-` as `_`:
`tabula_mu_torere`) as a Python game of pyspiel: sequential, perfect
information; zero-sum for two players with terminal returns +1/-1/0; the
one-player puzzles (SameGame, Poggle) general-sum with a reward per action (the
points it scored); explicit chance (the dice as the chance player, with exact
probabilities) for Multiplication Ludo (Auto120) and Pig. OpenSpiel's algorithms
and tests then run on them unchanged.

Game parameters are Tabula's variant options (`tabula games` lists them), in
OpenSpiel's usual string form: `tabula_hexapawn(columns=4)`,
`tabula_nim(heaps=1-2-3,play=misere)`. Numbers are integers. OpenSpiel's own
parser reads text made only of digits and dashes as a number, so:

* Nim's heaps are kept as `1;2;3` (OpenSpiel's Nim writes piles that way);
  `heaps=1-2-3` is read too through `pyspiel.load_game` once `register()` has
  run, and a single heap is written `5;`.
* Pig's `start=random` is `start=0` (1 and 2 as in Tabula).
* An option that has no default (SameGame's and Poggle's `seed`, a board
  number) is a whole number in OpenSpiel, -1 when none is given; so every
  value OpenSpiel's parser reads back (`seed=3` is an integer) has the type
  the game declared, and a seeded game survives `str(game)`, pickling and
  `pyspiel.serialize_game_and_state`.

Games that could go on for ever declare the bound their rules of actual play
give as `max_game_length` (Kono, Mu Torere and Northcott by their draw rules,
Poggle by its press limit); the dice games (Pig, Auto120) declare the engine's
cap of 20,000 moves, where a game is cut off with returns of 0.

Registered games pickle (as their game string; unpickling registers the game
if need be), so `multiprocessing` can send them to other processes. A state's
questions and moves asked from Python (its legal actions and their mask,
whether chance acts, applying an action, copies, the history) are answered by
the engine in one call, not through pyspiel's C++ base, so random playouts and
OpenSpiel's MCTS run about as fast as on OpenSpiel's own C++ games (the base's
record of the history, which OpenSpiel's C++ code reads, holds only the actions
applied from C++); `RandomRolloutEvaluator` plays MCTS's random rollouts inside
the engine.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as _mcts

from . import CHANCE_PLAYER, TERMINAL_PLAYER, Game, games, load_game, options

__all__ = [
    "register",
    "short_name",
    "tabula_name",
    "parameters_to_variant",
    "RandomRolloutEvaluator",
    "TabulaGame",
    "TabulaState",
]

PREFIX = "tabula_"

# Options read as words in Tabula but kept as integers for OpenSpiel, whose
# parser turns "1" into an integer: {(game, option): {word: integer}}.
_WORD_CODES: Dict[Tuple[str, str], Dict[str, int]] = {
    ("pig", "start"): {"random": 0},
}
# An option without a default (a board number given or not) is a whole number
# for OpenSpiel, this one standing for "none given": OpenSpiel's parser reads
# `seed=3` as an integer, so declaring the option as text would make every game
# string with a seed fail to load again (in pickling, serialize_game_and_state).
_NONE_GIVEN = -1
# Options whose values are lists of numbers ("1-2-3"), kept as "1;2;3".
_NUMBER_LISTS = {("nim", "heaps")}

_registered: Dict[str, type] = {}
_original_load_game: Optional[Callable[..., Any]] = None


def short_name(name: str) -> str:
    """OpenSpiel's name of a Tabula game: `mu-torere` is `tabula_mu_torere`."""
    return PREFIX + name.replace("-", "_")


def tabula_name(short: str) -> str:
    """The Tabula game of an OpenSpiel name (`tabula_mu_torere` is `mu-torere`)."""
    if not short.startswith(PREFIX):
        raise ValueError(f"'{short}' is not the name of a Tabula game in OpenSpiel")
    wanted = short[len(PREFIX):]
    for name in games():
        if name.replace("-", "_") == wanted:
            return name
    raise ValueError(f"unknown game '{wanted}' (try tabula_games.games())")


def _is_int(text: str) -> bool:
    try:
        int(text)
        return True
    except ValueError:
        return False


def _spec(name: str) -> Dict[str, Any]:
    """The parameter specification of a game: each option's default, typed."""
    spec: Dict[str, Any] = {}
    for option in options(name):
        key = (name, option["name"])
        default = option["default"]
        if default == "":
            spec[option["name"]] = _NONE_GIVEN
        elif key in _NUMBER_LISTS:
            spec[option["name"]] = _number_list_for_openspiel(default)
        elif key in _WORD_CODES and default in _WORD_CODES[key]:
            spec[option["name"]] = _WORD_CODES[key][default]
        elif _is_int(default):
            spec[option["name"]] = int(default)
        else:
            spec[option["name"]] = default
    return spec


def _number_list_for_openspiel(text: str) -> str:
    """`1-2-3` or `1;2;3` as `1;2;3`, and one number `5` as `5;` (not read as a number)."""
    parts = [p for p in text.replace("-", ";").split(";") if p.strip()]
    joined = ";".join(p.strip() for p in parts)
    return joined + ";" if len(parts) == 1 else joined


def parameters_to_variant(name: str, params: Mapping[str, Any]) -> str:
    """Tabula's variant text of OpenSpiel parameters of game `name`."""
    spec = _spec(name)
    items = []
    for key, value in params.items():
        if key not in spec:
            raise ValueError(
                f"unknown option '{key}' for {name} (known: {', '.join(spec) or 'none'})"
            )
        if value == spec[key] or (
            (name, key) in _NUMBER_LISTS
            and _number_list_for_openspiel(str(value)) == spec[key]
        ):
            # Defaults are left to the game: some options may only be given
            # with others (Mu Torere's best_plies only with rules=best).
            continue
        codes = _WORD_CODES.get((name, key), {})
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int) and value in codes.values():
            text = next(word for word, code in codes.items() if code == value)
        elif (name, key) in _NUMBER_LISTS:
            text = "-".join(p.strip() for p in str(value).replace(";", "-").split("-") if p.strip())
        else:
            text = str(value)
        if text == "":
            continue
        items.append(f"{key}={text}")
    return ",".join(items)


def _openspiel_params(name: str, params: Mapping[str, Any]) -> Dict[str, Any]:
    """Parameters as OpenSpiel keeps them (and writes them into the game's name)."""
    spec = _spec(name)
    out: Dict[str, Any] = {}
    for key, value in params.items():
        if key not in spec:
            raise ValueError(
                f"unknown option '{key}' for {name} (known: {', '.join(spec) or 'none'})"
            )
        codes = _WORD_CODES.get((name, key), {})
        if isinstance(value, str) and value.strip().lower() in codes:
            value = codes[value.strip().lower()]
        elif (name, key) in _NUMBER_LISTS:
            value = _number_list_for_openspiel(str(value))
        elif isinstance(spec[key], int) and not isinstance(value, bool):
            if isinstance(value, str) and value.strip() == "" and spec[key] == _NONE_GIVEN:
                value = _NONE_GIVEN
            elif isinstance(value, str):
                if not _is_int(value.strip()):
                    raise ValueError(f"option '{key}' of {name} takes a whole number, not '{value}'")
                value = int(value.strip())
        out[key] = value
    return out


def _parse_game_string(text: str) -> Tuple[str, Dict[str, str]]:
    """`tabula_nim(heaps=1-2-3,play=misere)` as its name and its parameters, as text."""
    text = text.strip()
    if "(" not in text:
        return text, {}
    if not text.endswith(")"):
        raise ValueError(f"cannot read the game '{text}': its parameters end with ')'")
    name, _, rest = text.partition("(")
    params: Dict[str, str] = {}
    for item in rest[:-1].split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"cannot read the parameter '{item}': write name=value")
        params[key.strip()] = value.strip()
    return name.strip(), params


class TabulaState(pyspiel.State):
    """An OpenSpiel state over a `tabula_games.State` (its `tabula_state`)."""

    # Slots, not an instance dictionary (one more object to make and free for
    # every state: MCTS copies a state twice a simulation). The game is kept so
    # that `get_game()` and copies need not ask pyspiel's C++ base for it.
    __slots__ = ("tabula_state", "_game")

    @property
    def __dict__(self) -> Dict[str, Any]:  # type: ignore[override]
        # What pyspiel's C++ side copies (`Clone`: deep-copied into a new
        # state) and serializes (pickled) as a Python state's own data: the
        # engine's state. The copy, or the state read back, gets its game from
        # `new_initial_state`.
        return {"tabula_state": self.tabula_state}

    def __init__(self, game: "TabulaGame", native: Any) -> None:
        super().__init__(game)
        self.tabula_state = native
        self._game = game

    def current_player(self) -> int:
        return self.tabula_state.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        return self.tabula_state.legal_actions()

    # The methods below answer Python callers (OpenSpiel's Python algorithms:
    # MCTS, rollouts) straight from the engine, in one call each, as OpenSpiel's
    # own states do. Through pyspiel's base class each would go Python -> C++ ->
    # Python -> Rust, asking for the current player on the way, at about 0.7 us
    # a crossing: most of the cost of a random playout. C++ callers (OpenSpiel's
    # C++ algorithms and tests) still come through the methods above and below
    # the "C++ callers" line; both give the same answers
    # (test_python_callers_skip_the_crossings_with_the_same_answers).
    #
    # Applying an action from Python goes to the engine alone, so the history
    # pyspiel's C++ base keeps does not see it: every question about the
    # history asked from Python (history, move number, serialisation, pickling,
    # copies) is answered from the engine's, which holds every action however
    # it was applied (test_actions_applied_from_python_keep_the_whole_history).

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        if player is None:  # the engine's quickest call: no argument to read
            return self.tabula_state.legal_actions()
        return self.tabula_state.legal_actions(player)

    def legal_actions_mask(self, player: Optional[int] = None) -> List[int]:
        return self.tabula_state.legal_actions_mask(player)

    def is_chance_node(self) -> bool:
        return self.tabula_state.is_chance_node()

    def is_player_node(self) -> bool:
        return self.tabula_state.is_player_node()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return self.tabula_state.chance_outcomes()

    def apply_action(self, action: int) -> None:
        self.tabula_state.apply_action(action)

    def get_game(self) -> "TabulaGame":
        return self._game

    def clone(self) -> "TabulaState":
        # _wrap's work written out: MCTS copies a state twice a simulation.
        state = _new_state(TabulaState)
        game = self._game
        _base_init(state, game)
        state.tabula_state = self.tabula_state.clone()
        state._game = game
        return state

    def child(self, action: int) -> "TabulaState":
        return _wrap(self._game, self.tabula_state.child(action))

    def __copy__(self) -> "TabulaState":
        return self.clone()

    def __deepcopy__(self, memo: Any) -> "TabulaState":
        return self.clone()

    def history(self) -> List[int]:
        return self.tabula_state.history()

    def history_str(self) -> str:
        return self.tabula_state.history_str()

    def move_number(self) -> int:
        return self.tabula_state.move_number()

    def is_initial_state(self) -> bool:
        return self.tabula_state.move_number() == 0

    def full_history(self) -> List[Any]:
        return pyspiel.State.full_history(self._through_the_base())

    def is_initial_non_chance_state(self) -> bool:
        return pyspiel.State.is_initial_non_chance_state(self._through_the_base())

    def serialize(self) -> str:
        return pyspiel.State.serialize(self._through_the_base())

    def __reduce__(self) -> Tuple[Any, Tuple[str, List[int]]]:
        # Pickled as the game's string and the actions, replayed through the C++
        # base on loading, so that the C++ side's history is whole there too.
        return (_replayed_state, (str(self.get_game()), self.tabula_state.history()))

    def _through_the_base(self) -> "TabulaState":
        """This state again, its actions applied through pyspiel's C++ base,
        which records each one with its player (`pyspiel.PlayerAction` has no
        constructor in Python): for the rare questions only the base answers."""
        return _replay(self.get_game(), self.tabula_state.history())

    # C++ callers.

    def _apply_action(self, action: int) -> None:
        self.tabula_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.tabula_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.tabula_state.is_terminal()

    def returns(self) -> List[float]:
        return self.tabula_state.returns()

    def rewards(self) -> List[float]:
        # Puzzles score as they go; a two-player game's only reward is its
        # return at the end (OpenSpiel's convention for terminal rewards).
        rewards = self.tabula_state.rewards()  # zeros in two-player games
        if len(rewards) > 1 and self.tabula_state.is_terminal():
            return self.tabula_state.returns()
        return rewards

    def __str__(self) -> str:
        return self.tabula_state.position()

    def _repr_svg_(self) -> str:
        return self.tabula_state._repr_svg_()

    def _repr_html_(self) -> str:
        return self.tabula_state._repr_html_()


_new_state = TabulaState.__new__
# pyspiel's constructor itself, not the `instancemethod` around it, which would
# pack its arguments into a tuple on every call: a new state's every bit counts.
_base_init = getattr(pyspiel.State.__init__, "__func__", pyspiel.State.__init__)


def _wrap(game: Any, native: Any) -> TabulaState:
    """`TabulaState(game, native)` without its Python `__init__` and `super()`:
    half a microsecond less a state, a good part of a new state's cost (MCTS
    copies a state a simulation, a random playout starts from a new one)."""
    state = _new_state(TabulaState)
    _base_init(state, game)
    state.tabula_state = native
    state._game = game
    return state


def _replay(game: Any, actions: Sequence[int]) -> TabulaState:
    """A new state of `game` with `actions` applied through pyspiel's C++ base."""
    state = game.new_initial_state()
    for action in actions:
        pyspiel.State.apply_action(state, action)
    return state


def _replayed_state(game_string: str, actions: Sequence[int]) -> TabulaState:
    """An unpickled state: its game loaded (registered first if need be), its
    actions replayed."""
    return _replay(_load_registered(game_string), actions)


class _Observer:
    """The observation tensor of a Tabula game (its `observation_tensor`), and the
    position in the game's notation as the observation string."""

    def __init__(self, shape: Sequence[int]) -> None:
        size = int(np.prod(shape)) if len(shape) else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": np.reshape(self.tensor, tuple(shape))}

    def set_from(self, state: TabulaState, player: int) -> None:
        self.tensor[:] = state.tabula_state.observation_tensor(player)

    def string_from(self, state: TabulaState, player: int) -> str:
        return state.tabula_state.position()


class _HistoryObserver:
    """The information state of a perfect-information game with perfect recall:
    the history of actions (OpenSpiel's `IIGObserverForPublicInfoGame`, with the
    history written by the engine: a game capped at 20,000 moves asks for it at
    every step of OpenSpiel's tests)."""

    def __init__(self, public_info: bool) -> None:
        self._public_info = public_info
        self.tensor = None
        self.dict: Dict[str, Any] = {}

    def set_from(self, state: TabulaState, player: int) -> None:
        pass

    def string_from(self, state: TabulaState, player: int) -> str:
        return state.tabula_state.history_str() if self._public_info else ""


class TabulaGame(pyspiel.Game):
    """Base of the registered games; `register()` makes one subclass per game."""

    tabula_game_name = ""
    game_type: Any = None

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        name = self.tabula_game_name
        kept = _openspiel_params(name, dict(params or {}))
        native = load_game(name, parameters_to_variant(name, kept))
        facts = native.facts()
        info = pyspiel.GameInfo(
            num_distinct_actions=facts["num_distinct_actions"],
            max_chance_outcomes=facts["max_chance_outcomes"],
            num_players=facts["num_players"],
            min_utility=float(facts["min_utility"]),
            max_utility=float(facts["max_utility"]),
            utility_sum=facts["utility_sum"],
            max_game_length=facts["max_game_length"],
        )
        super().__init__(self.game_type, info, kept)
        self.tabula = native
        self._shape = list(facts["observation_shape"])

    def new_initial_state(self) -> TabulaState:
        # _wrap's work written out: a random playout starts from a new state.
        state = _new_state(TabulaState)
        _base_init(state, self)
        state.tabula_state = self.tabula.new_initial_state()
        state._game = self
        return state

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        # Pickling (multiprocessing, OpenSpiel's own serialisation): the game's
        # string, loaded again in a process that may not have registered it yet.
        return (_load_registered, (str(self),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported (given {params})")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self._shape)
        return _HistoryObserver(iig_obs_type.public_info)


class RandomRolloutEvaluator(_mcts.Evaluator):
    """OpenSpiel's `mcts.RandomRolloutEvaluator` for Tabula's games, its random
    games played inside the engine (`State.random_rollouts`): one call an
    evaluation, where OpenSpiel's makes a few calls a move. The same estimate
    (each player's mean return over `n_rollouts` random games), for any
    registered game's state:

        bot = mcts.MCTSBot(game, 2.0, 100, openspiel.RandomRolloutEvaluator(1, rng))
    """

    def __init__(self, n_rollouts: int = 1, random_state: Optional[np.random.RandomState] = None) -> None:
        if n_rollouts < 1:
            raise ValueError("n_rollouts must be at least 1")
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: Any) -> np.ndarray:
        native = getattr(state, "tabula_state", None)
        if native is None:
            raise ValueError("this evaluator plays the states of Tabula's games only")
        seed = int(self._random_state.randint(0, 2**62))
        return np.array(native.random_rollouts(self.n_rollouts, seed)) / self.n_rollouts

    def prior(self, state: Any) -> List[Tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def _game_type(name: str) -> Any:
    native = load_game(name)
    facts = native.facts()
    players = facts["num_players"]
    one_player = facts["one_player"]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Tabula {facts['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if facts["explicit_chance"]
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if facts["zero_sum"]
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=(
            pyspiel.GameType.RewardModel.REWARDS
            if one_player
            else pyspiel.GameType.RewardModel.TERMINAL
        ),
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_spec(name),
    )


def _load_game(game: Any, params: Any = None) -> Any:
    """`pyspiel.load_game`, reading Tabula games' parameters as Tabula writes them
    (`heaps=1-2-3`, `start=random`) before OpenSpiel's parser sees them."""
    assert _original_load_game is not None
    if isinstance(game, str) and params is None and game.partition("(")[0].strip() in _registered:
        # Only Tabula's games are read here: other games' strings (nested ones,
        # such as turn_based_simultaneous_game(game=...)) go to OpenSpiel as given.
        name, text_params = _parse_game_string(game)
        tabula = _registered[name].tabula_game_name
        return _original_load_game(name, _openspiel_params(tabula, text_params))
    if params is None:
        return _original_load_game(game)
    if isinstance(game, str) and game in _registered and isinstance(params, Mapping):
        tabula = _registered[game].tabula_game_name
        return _original_load_game(game, _openspiel_params(tabula, params))
    return _original_load_game(game, params)


def _load_registered(text: str) -> Any:
    """`pyspiel.load_game(text)` for a Tabula game's string, registering the
    game first if this process has not (an unpickled game)."""
    register([tabula_name(_parse_game_string(text)[0])])
    return pyspiel.load_game(text)


def register(names: Optional[Sequence[str]] = None) -> List[str]:
    """Registers Tabula's games with pyspiel (all, or those named); returns their
    OpenSpiel names. Calling it again registers nothing twice."""
    global _original_load_game
    out = []
    for name in names if names is not None else games():
        name = load_game(name).name
        short = short_name(name)
        out.append(short)
        if short in _registered:
            continue
        cls = type(
            f"Tabula_{name.replace('-', '_')}",
            (TabulaGame,),
            {"tabula_game_name": name, "game_type": _game_type(name)},
        )
        pyspiel.register_game(cls.game_type, cls)
        _registered[short] = cls
    if _original_load_game is None:
        _original_load_game = pyspiel.load_game
        pyspiel.load_game = _load_game
    return out
