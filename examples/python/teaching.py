"""Teaching with tabula_games: Nim sums, and a matchbox machine learning Hexapawn.

    python examples/python/teaching.py            # the full lesson
    python examples/python/teaching.py --games 40 # a quicker machine

Part 1 works out Bouton's rule for Nim: the first player wins exactly when the
nim-sum (exclusive or) of the heaps is not zero, and the winning move makes it
zero. Tabula's exact solver and its sums-of-games calculator agree.

Part 2 is Martin Gardner's Hexapawn machine (1962): 24 matchboxes of beads play
Black, and a bead is taken away after every loss. The learning curve shows the
losses dying out.
"""

import argparse
from functools import reduce

import tabula_games


def nim_sums() -> None:
    print("Part 1. Nim: who wins, and how\n")
    for heaps in ([1, 2, 3], [3, 4, 5], [2, 5, 6], [1, 4, 9, 16]):
        nim_sum = reduce(lambda a, b: a ^ b, heaps)
        game = tabula_games.load_game("nim", {"heaps": heaps})
        solved = game.solve()["value"]["value"]  # for the player to move: win or loss
        print(f"  Heaps {' '.join(map(str, heaps))}: nim-sum {nim_sum} "
              f"({' xor '.join(format(h, 'b') for h in heaps)} in binary)")
        print(f"    Bouton's rule says the first player {'wins' if nim_sum else 'loses'};"
              f" the solver says the first player has a {solved}.")
        assert (nim_sum != 0) == (solved == "win")
        if nim_sum:
            # Every winning move leaves a nim-sum of zero.
            analysis = game.analyze()
            winning = [m["move"] for m in analysis["moves"] if m["grade"]["value"] == "win"]
            print(f"    Winning moves (heap:from->to): {', '.join(winning)}")
        expression = " + ".join(f"{h}*" for h in heaps)
        lines, _ = tabula_games.tool("cgt", expression)
        print(f"    As a sum of games: {lines[0]}")
        print()


def matchbox(games: int) -> None:
    print("Part 2. A matchbox machine learns Hexapawn\n")
    hexapawn = tabula_games.load_game("hexapawn")
    block = max(1, games // 10)
    report, _ = tabula_games.train(hexapawn, games=games, opponent="exploit", block=block, seed=1)
    print("  " + report["summary"])
    print(f"\n  Losses in each block of {block} games (one # per loss):")
    for point in report["curve"]["points"]:
        bar = "#" * point["losses"]
        print(f"    games {point['from']:>4}-{point['to']:<4} {point['losses']:>3} {bar}")
    counts = report["counts"]
    if counts.get("unbeatable_after") is not None:
        print(f"\n  No line of play beats its beads after game {counts['unbeatable_after']}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="training games for the machine")
    args = parser.parse_args()
    nim_sums()
    matchbox(args.games)


if __name__ == "__main__":
    main()
