"""`tabula-cluster`: Tabula's long computations on a Ray cluster.

    tabula-cluster book connect4 --plies 4 --out 7x6.book --checkpoint 7x6.progress
    tabula-cluster samegame --boards standard --seconds 60 --records records/

With no `--address` the jobs start Ray on this machine's cores; with one
(`ray start --head` printed it) they join that cluster. docs/CLUSTER.md says more.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional, Tuple

SAMEGAME = "samegame"
STANDARD = "standard"


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tabula-cluster",
        description="Run Tabula's long computations on a Ray cluster (or on this machine's cores).",
    )
    jobs = top.add_subparsers(dest="job", required=True, metavar="JOB")

    book = jobs.add_parser("book", help="make a game's opening book: every position of the first plies, solved")
    book.add_argument("game", help="the game whose book to make (connect4)")
    book.add_argument("--plies", type=int, required=True, help="every position with at most this many moves played")
    book.add_argument("--width", type=int, help="columns of the board (the game's usual board if left out)")
    book.add_argument("--height", type=int, help="rows of the board")
    book.add_argument("--connect", type=int, help="discs in a row that win")
    book.add_argument("--out", type=Path, required=True, help="the book file to write")
    book.add_argument("--checkpoint", type=Path, required=True,
                      help="a folder that keeps each result as it comes: run again with it to go on after a stop")
    book.add_argument("--positions-per-task", type=int, help="positions each task solves (chosen for you if left out)")

    hunt = jobs.add_parser(SAMEGAME, help="hunt SameGame records with distributed NRPA")
    hunt.add_argument("--boards", default=STANDARD,
                      help="'standard' (the 20 boards of the literature) or a file of boards")
    hunt.add_argument("--seconds", type=float, required=True, help="wall time for each board")
    hunt.add_argument("--records", type=Path, required=True,
                      help="a folder that keeps the best line of each board across runs")
    hunt.add_argument("--level", type=int, default=2, help="the level of each worker's search (default 2)")
    hunt.add_argument("--iterations", type=int, default=100, help="iterations of each level (default 100)")
    hunt.add_argument("--seed", type=int, default=1, help="seeds the searches (default 1)")
    hunt.add_argument("--json", action="store_true", help="print the result as JSON, not in words")

    for job in (book, hunt):
        job.add_argument("--address", help="join the Ray cluster at this address (default: start Ray on this machine)")
        job.add_argument("--workers", type=int, help="use this many processors (default: all the cluster has)")
    return top


def _variant(args: argparse.Namespace) -> str:
    parts = [f"{name}={value}" for name in ("width", "height", "connect")
             if (value := getattr(args, name)) is not None]
    return ",".join(parts)


def _samegame_boards(which: str) -> List[Tuple[str, str]]:
    """`(variant, position)` of each board: the standard set or a file's."""
    from ._native import PolicySearch

    search = PolicySearch(SAMEGAME, "")
    if which == STANDARD:
        positions = search.test_set()
    else:
        try:
            text = Path(which).read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"the boards file {which} could not be read: {e.strerror}") from e
        positions = search.read_positions(text)
    out = []
    for position in positions:
        rows = position.split()[0].split("/")
        colours = max(int(c) for c in "".join(rows) if c.isdigit())
        out.append((f"size={len(rows[0])}x{len(rows)},colours={max(colours, 2)}", position))
    return out


def _book(args: argparse.Namespace) -> int:
    from .cluster_book import build_book

    last = [-1]

    def progress(solved: int, total: int) -> None:
        if solved != last[0]:
            last[0] = solved
            print(f"\r{solved:,} of {total:,} positions solved", end="", file=sys.stderr, flush=True)

    done = build_book(args.game, _variant(args), args.plies, args.out, args.checkpoint,
                      address=args.address, workers=args.workers,
                      per_task=args.positions_per_task, progress=progress)
    print(file=sys.stderr)
    print(f"Wrote the book of {done['positions']:,} positions ({done['bytes']:,} bytes) to {args.out} "
          f"in {done['seconds']} s on {done['processors']} processor{'' if done['processors'] == 1 else 's'}"
          + (f"; {done['from_checkpoint']:,} came from the checkpoint." if done["from_checkpoint"] else "."))
    return 0


def _hunt(args: argparse.Namespace) -> int:
    from .cluster_records import hunt_records

    done = hunt_records(SAMEGAME, _samegame_boards(args.boards), args.seconds, args.records,
                        address=args.address, workers=args.workers, level=args.level,
                        iterations=args.iterations, seed=args.seed, bar=not args.json)
    if args.json:
        print(json.dumps(done))
        return 0
    for board in done["boards"]:
        note = " (a new record)" if board["improved"] else ""
        print(f"Board {board['board']}: {board['score']:,} points in {len(board['moves'])} moves{note}")
    workers = "1 worker" if done["workers"] == 1 else f"{done['workers']} workers"
    print(f"Total: {done['total']:,} on {workers}, {done['seconds_a_board']:g} s a board.")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.job == "book":
            if args.positions_per_task is not None and args.positions_per_task < 1:
                raise ValueError("a task solves at least 1 position")
            return _book(args)
        return _hunt(args)
    except ImportError as e:
        print(f"tabula-cluster: {e}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"tabula-cluster: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ntabula-cluster: stopped; what was finished is kept, run the same command again to go on",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
