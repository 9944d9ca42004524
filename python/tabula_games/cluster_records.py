"""The record hunt: distributed nested rollout policy adaptation (NRPA) on a
Ray cluster, board after board, keeping the best line of each across runs.

As in Negrevergne and Cazenave's distributed NRPA (2017), the top level of
the search runs on the driver and the iterations below it on the workers:
each round sends the top level's policy with one level-(L-1) search to every
worker at once; each line that comes back is one iteration of the top level,
which keeps the best line so far and moves its policy towards it before the
next round. A record found before is the top level's first best line, so a
new run goes on from it.

Every line is checked by replaying it with the game's own rules before it is
kept; a record file whose line does not replay to its score is set aside.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import ray

from ._native import Game, PolicySearch
from .cluster import TASK_RETRIES, connect, read_json, write_atomically

__all__ = ["hunt_records", "replayed_score"]

#: The driver looks for Ctrl-C this often while it waits for a round.
WAIT_SECONDS = 1.0
#: A round is not started with less time than this left (seconds).
LEAST_ROUND_SECONDS = 0.05


@ray.remote(max_retries=TASK_RETRIES, num_cpus=1)
def _search(game, variant, position, policy, level, iterations, seed, seconds):
    """A task: one level-`level` search from the top level's policy."""
    return PolicySearch(game, variant).search(position, policy, level, iterations, seed, seconds)


def replayed_score(game: str, variant: str, position: str, moves: Sequence[str]) -> int:
    """The score of `moves` played from `position` by the game's own rules
    (ValueError when a move is not legal or the game is not over after them)."""
    state = Game(game, variant).state_from_position(position)
    for n, move in enumerate(moves):
        if state.is_terminal():
            raise ValueError(f"the game is over before move {n + 1}")
        state.apply_action(state.string_to_action(move))
    if not state.is_terminal():
        raise ValueError("the game is not over after the line's last move")
    return int(state.returns()[0])


def _seed(seed: int, board: int, task: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + board * 0xBF58476D1CE4E5B9 + task) % (1 << 64)


def _record_path(folder: Path, position: str) -> Path:
    return folder / (hashlib.sha256(position.encode()).hexdigest()[:16] + ".json")


def _read_record(game: str, variant: str, path: Path, position: str) -> Optional[Dict]:
    """The record kept for `position`, when its line replays to its score."""
    try:
        record = read_json(path)
        if record is None:
            return None
        if record.get("position") != position:
            raise ValueError("it is for another board")
        if replayed_score(game, variant, position, record["moves"]) != record["score"]:
            raise ValueError("its line does not reach its score")
        return record
    except (ValueError, KeyError, TypeError) as e:
        aside = path.with_suffix(".rejected")
        path.replace(aside)
        print(f"tabula-cluster: the record {path} was set aside as {aside.name}: {e}", file=sys.stderr)
        return None


def _wait(refs: List) -> List:
    pending = list(refs)
    while pending:
        _, pending = ray.wait(pending, num_returns=len(pending), timeout=WAIT_SECONDS)
    return ray.get(refs)


def hunt_records(
    game: str,
    boards: Sequence[Tuple[str, str]],
    seconds: float,
    records: Path,
    address: Optional[str] = None,
    workers: Optional[int] = None,
    level: int = 2,
    iterations: int = 100,
    seed: int = 1,
    bar: bool = True,
) -> Dict:
    """Searches each of `boards` (`(variant, position)` pairs) for `seconds`
    of wall time with distributed NRPA: level-`level` searches of
    `iterations` iterations a level on the workers, the level above them on
    this machine. Keeps the best line of each board in the folder `records`
    (across runs). Returns each board's best score and line and the total."""
    if not (seconds > 0 and seconds < 1e7):
        raise ValueError("the time a board must be a number of seconds above 0")
    if not 0 <= level <= 5 or not 1 <= iterations <= 10_000:
        raise ValueError("the level must be 0 to 5 and the iterations 1 to 10000")
    if not boards:
        raise ValueError("there is no board to search")
    searches = [PolicySearch(game, variant) for variant, _ in boards]
    records = Path(records)
    records.mkdir(parents=True, exist_ok=True)
    cpus = connect(address, workers)
    progress = None
    if bar:
        from tqdm import tqdm

        progress = tqdm(total=round(seconds * len(boards)), unit="s", desc="searching", leave=True)
    found = []
    total = 0
    for index, ((variant, position), search) in enumerate(zip(boards, searches)):
        path = _record_path(records, position)
        kept = _read_record(game, variant, path, position)
        best = (kept["score"], kept["moves"]) if kept else None
        policy = search.adapt(position, b"", best[1]) if best else b""
        started = time.monotonic()
        deadline = started + seconds
        rounds = playouts = 0
        while True:
            left = deadline - time.monotonic()
            if left < LEAST_ROUND_SECONDS and rounds > 0:
                break
            shared = ray.put(policy)
            refs = [
                _search.remote(game, variant, position, shared, level, iterations,
                               _seed(seed, index, rounds * cpus + j), max(left, 0.0))
                for j in range(cpus)
            ]
            for score, moves, count in _wait(refs):
                playouts += count
                if best is None or score >= best[0]:
                    best = (score, moves)
                policy = search.adapt(position, policy, best[1])
            rounds += 1
            if progress is not None:
                done = min(seconds, time.monotonic() - started)
                progress.n = round(index * seconds + done)
                progress.set_description(f"board {index + 1} of {len(boards)}, total so far {total + best[0]:,}")
                progress.refresh()
        score, moves = best
        if replayed_score(game, variant, position, moves) != score:
            raise RuntimeError(f"board {index + 1}: the line found does not replay to its score {score}")
        improved = kept is None or score > kept["score"]
        if improved:
            record = {"board": index + 1, "position": position, "score": score, "moves": moves}
            write_atomically(path, json.dumps(record, indent=1).encode())
        total += score
        found.append({"board": index + 1, "score": score, "moves": moves, "improved": improved,
                      "rounds": rounds, "playouts": playouts})
    if progress is not None:
        progress.n = progress.total
        progress.set_description(f"{len(boards)} boards, total {total:,}")
        progress.close()
    return {"boards": found, "total": total, "workers": cpus, "seconds_a_board": seconds}
