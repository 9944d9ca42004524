"""Research with tabula_games and OpenSpiel: OpenSpiel's MCTS bot against
Tabula's perfect player on Mu Torere.

    python examples/python/research.py                      # 10 games, 300 simulations a move
    python examples/python/research.py --games 2 --simulations 50

Mu Torere is a draw with perfect play (`tabula solve mu-torere`), so the perfect
player never loses: the question is how often MCTS, with random rollouts, falls
into one of the forced wins. The players swap seats every game. Mu Torere could go
round for ever, but actual play is drawn when a position comes up a third time
(the game's own rule, applied by the OpenSpiel game too), so every game ends. With
`--max-plies` a game still going after that many moves is stopped and counted as
cut off: no result, never a draw.
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import tabula_games
from tabula_games import openspiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=300, help="MCTS simulations a move")
    parser.add_argument("--max-plies", type=int, default=None,
                        help="stop a game after this many moves (counted as cut off)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    openspiel.register()
    game = pyspiel.load_game("tabula_mu_torere")
    rng = np.random.RandomState(args.seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    perfect = tabula_games.player(game.tabula, "perfect")

    tally = {"MCTS won": 0, "perfect won": 0, "drawn": 0, "cut off": 0}
    most = args.max_plies or game.max_game_length()
    for number in range(args.games):
        mcts_seat = number % 2
        state = game.new_initial_state()
        while not state.is_terminal() and state.move_number() < most:
            if state.current_player() == mcts_seat:
                action = bot.step(state)
            else:
                action = perfect.step(state)
            state.apply_action(action)
        ended_by = state.tabula_state.play_end() if state.is_terminal() else "cut_off"
        returns = state.returns()
        if ended_by == "cut_off":
            result = "cut off"
        elif returns[mcts_seat] > 0:
            result = "MCTS won"
        elif returns[mcts_seat] < 0:
            result = "perfect won"
        else:
            result = "drawn"
        tally[result] += 1
        print(f"game {number + 1}: MCTS {'first' if mcts_seat == 0 else 'second'}, "
              f"{state.move_number()} moves, {result}"
              + (" (the same position a third time)" if ended_by == "repetition" else ""))
    print(f"\n{args.games} games, MCTS with {args.simulations} simulations a move: "
          + ", ".join(f"{k} {v}" for k, v in tally.items()))
    assert tally["MCTS won"] == 0, "the perfect player never loses"


if __name__ == "__main__":
    main()
