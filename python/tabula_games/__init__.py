"""Tabula's classic mathematical games and puzzles, in Python.

Every game of the `tabula` program (GAMES) is here in the shape of OpenSpiel's
API: integer actions, chance nodes with explicit probabilities, returns and
observation tensors. Beside that API are Tabula's own
tools: exact solving, graded analysis, computer players by name, simulation,
and matchbox (MENACE) training with its learning curve.

    >>> import tabula_games
    >>> game = tabula_games.load_game("nim", {"heaps": "1-2-3"})
    >>> state = game.new_initial_state()
    >>> state.legal_actions()[:3]
    [0, 3, 4]
    >>> game.solve()["value"]["value"]
    'loss'

`tabula_games.openspiel.register()` makes every game an OpenSpiel game as well
(`pyspiel.load_game("tabula_nim(heaps=1-2-3)")`).

Bad input (an unknown game, option or player, an illegal action, a position that
does not read) raises `ValueError` with the same words as the `tabula` program.
Long computations release the interpreter, Ctrl-C stops them
(`KeyboardInterrupt`), and solvers keep to a memory budget (`set_max_memory`,
1 GiB unless set, as the program's `--max-memory`). Games pickle (for
multiprocessing); states compare and hash by game, start and history, and draw
themselves in notebooks (`_repr_svg_`, `_repr_html_`).
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._native import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    Player,
    State,
    __version__,
    max_memory,
    set_max_memory,
    tool,
    tools,
)



def _name_the_games(doc: str) -> str:
    """The docstring with its paragraph on the games naming every registered
    game, from the registry, so that the list stays whole as games come."""
    titles = ", ".join(info["title"] for info in _native.game_infos())
    paragraphs = doc.split("\n\n")
    for i, paragraph in enumerate(paragraphs):
        if "GAMES" in paragraph:
            text = " ".join(paragraph.split()).replace("GAMES", titles)
            paragraphs[i] = textwrap.fill(text, width=80)
    return "\n\n".join(paragraphs)


__doc__ = _name_the_games(__doc__ or "")

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Game",
    "Player",
    "State",
    "__version__",
    "games",
    "game_info",
    "load_game",
    "max_memory",
    "options",
    "player",
    "set_max_memory",
    "simulate",
    "test_cases",
    "tool",
    "tools",
    "train",
    "variant_text",
]

Options = Union[None, str, Mapping[str, Any]]


def variant_text(options: Options = None) -> str:
    """The variant text (`"heaps=1-2-3,play=misere"`) of options given as a dict.

    Values are written as the `tabula` program reads them: `True`/`False` as
    `on`/`off`, numbers as digits, lists and tuples of numbers joined with `-`
    (`{"heaps": [1, 2, 3]}` is `heaps=1-2-3`). A string is taken as it is.
    """
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    if not isinstance(options, Mapping):
        raise ValueError("variant options must be a dict like {'heaps': '1-2-3'} or text")
    items = []
    for key, value in options.items():
        if isinstance(value, bool):
            text = "on" if value else "off"
        elif isinstance(value, (list, tuple)):
            text = "-".join(str(v) for v in value)
        else:
            text = str(value)
        key = str(key)
        for part in (key, text):
            if not part or any(c in part for c in ", ="):
                raise ValueError(
                    f"variant option {key!r}={text!r}: names and values may not be empty "
                    "or contain commas, spaces or '='"
                )
        items.append(f"{key}={text}")
    return ",".join(items)


def load_game(name: str, options: Options = None) -> Game:
    """A game by its name (`tabula games` lists them) in a variant.

    `options` is a dict of the game's variant options (`{"rules": "gamesman"}`),
    or the variant text as the program takes it (`"size=5,colours=3"`).
    Names are read leniently: `mu-torere`, `mu_torere` and `mutorere` are one game.
    """
    return Game(name, variant_text(options))


def games() -> List[str]:
    """The registered games' names, in the order `tabula games` lists them."""
    return list(_native.game_names())


def game_info(name: Optional[str] = None) -> Any:
    """What `tabula games --json` shows: every game's facts, or one game's."""
    if name is None:
        return _native.game_infos()
    return load_game(name).info()


def options(name: str) -> List[Dict[str, str]]:
    """A game's variant options: `[{name, label, default, help}]`."""
    return _native.game_options(name)


def test_cases(name: str) -> Dict[str, Any]:
    """What a game declares for the shared tests: `variants` to check (with
    `exact` and the words of their summary), published `counts`, `positions` with
    known values, and its `openspiel` counterparts (OpenSpiel's game string, the
    map of action ids, the states or lines of actions to compare)."""
    return _native.test_cases(name)


def player(game: Game, name: str, seed: int = 0) -> Player:
    """A computer player by name: `"perfect"`, `"random"`, `"matchbox"`, `"search"`, ...

    `game.info()["players"]` lists the names a game offers; options follow a colon
    (`"alphabeta:depth=4"`, `"level:50"`). `player.step(state)` returns the id of
    its move in `state`.
    """
    return game.player(name, seed)


def simulate(
    game: Game, players: Sequence[str], games: int = 1000, seed: int = 1
) -> Dict[str, Any]:
    """`tabula simulate --json`: many games between two computer players.

    Returns the wins of each, draws, the first player's win rate with its 95%
    confidence interval, the mean length and the time taken.
    """
    if len(players) != 2:
        raise ValueError("a simulation takes exactly two players, e.g. ('perfect', 'random')")
    return game.simulate((str(players[0]), str(players[1])), games, seed)


def train(
    game: Game,
    games: int = 100,
    opponent: str = "exploit",
    learner: str = "matchbox",
    seat: Union[str, int] = "second",
    symmetry: bool = True,
    options: Optional[str] = None,
    block: int = 0,
    seed: int = 1,
    learned: Any = None,
) -> Tuple[Dict[str, Any], Any]:
    """`tabula train --json`: a matchbox machine learns the game against a trainer.

    As the program's options: `opponent` is `random`, `perfect`, `exploit` or
    `self`; `learner` `matchbox` (Gardner: remove the losing bead) or `menace`
    (bead counts); `seat` `first` or `second`; `options` further matchbox options
    (`"initial=4:3:2:1,win=3,draw=1,loss=1"`); `block` the games per point of the
    learning curve (0: about 20 points); `learned` the matchboxes of an earlier
    run to go on from.

    Returns `(report, learned)`: the report with its learning curve
    (`report["curve"]["points"]`: wins, losses and draws per block of games) and
    the matchboxes after training, to pass back as `learned`.
    """
    if isinstance(seat, str):
        seat_value: Union[str, int] = {"first": 0, "second": 1}.get(seat.lower(), seat)
    else:
        seat_value = seat
    opts = f"symmetry={'on' if symmetry else 'off'}"
    if options:
        opts += "," + options
    request: Dict[str, Any] = {
        "games": games,
        "opponent": opponent,
        "player": learner,
        "seat": seat_value,
        "options": opts,
        "block": block,
        "seed": seed,
    }
    if learned is not None:
        request["learned"] = learned
    return game.train(json.dumps(request))
