"""Type stubs of tabula_games."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ._native import (
    CHANCE_PLAYER as CHANCE_PLAYER,
    TERMINAL_PLAYER as TERMINAL_PLAYER,
    Game as Game,
    Player as Player,
    State as State,
    __version__ as __version__,
    max_memory as max_memory,
    set_max_memory as set_max_memory,
    tool as tool,
    tools as tools,
)

Options = Union[None, str, Mapping[str, Any]]

def variant_text(options: Options = None) -> str: ...
def load_game(name: str, options: Options = None) -> Game: ...
def games() -> List[str]: ...
def game_info(name: Optional[str] = None) -> Any: ...
def options(name: str) -> List[Dict[str, str]]: ...
def test_cases(name: str) -> Dict[str, Any]: ...
def player(game: Game, name: str, seed: int = 0) -> Player: ...
def simulate(game: Game, players: Sequence[str], games: int = 1000, seed: int = 1) -> Dict[str, Any]: ...
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
) -> Tuple[Dict[str, Any], Any]: ...
