"""The opening book job: every position of the first plies solved exactly on a
Ray cluster and put together in the game's own book file.

Plies are solved deepest first, as the single-machine command does: the
positions of one ply are shared out in tasks, each of which reads the scores
of the deeper plies from the book made so far (sent once to the cluster's
object store). Each task's scores go to the checkpoint folder the moment
they come back, one small file per task; a job run again with the same
folder reads them and solves only the rest. Every score is exact, so the
file is the same bytes as the single-machine command's, however the work
was shared out, stopped or retried.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import ray

from ._native import BookWork
from .cluster import TASK_RETRIES, connect, read_json, write_atomically

__all__ = ["build_book"]

#: The checkpoint folder's description of its job.
JOB_FILE = "job.json"
#: Most positions one task solves: small enough that a lost task costs little.
MOST_PER_TASK = 64
#: Tasks per processor for each ply, so that the slow positions spread out.
TASKS_PER_CPU = 8
#: How long the driver waits for a task before it looks again (for Ctrl-C).
WAIT_SECONDS = 1.0


@ray.remote(max_retries=TASK_RETRIES, num_cpus=1)
def _solve(game: str, variant: str, positions: List[str], deeper: bytes) -> List[Tuple[int, int]]:
    """A task: the exact scores of `positions`, reading the deeper plies' book."""
    return BookWork(game, variant).solve(positions, deeper)


def _read_checkpoint(folder: Path, job: Dict) -> Dict[int, int]:
    """The scores the folder holds, after checking it is this job's folder."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = read_json(folder / JOB_FILE)
    if kept is None:
        write_atomically(folder / JOB_FILE, json.dumps(job).encode())
    elif kept != job:
        raise ValueError(
            f"the checkpoint folder {folder} holds the progress of another book "
            f"({kept.get('game')} {kept.get('variant') or 'usual game'}, {kept.get('plies')} plies): "
            "name another folder"
        )
    scores: Dict[int, int] = {}
    for path in sorted(folder.glob("ply-*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) == 2:
                scores[int(parts[0])] = int(parts[1])
    return scores


def _tasks(todo: List[Tuple[int, str]], cpus: int, per_task: Optional[int]) -> List[List[Tuple[int, str]]]:
    size = per_task or max(1, min(MOST_PER_TASK, math.ceil(len(todo) / (cpus * TASKS_PER_CPU))))
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def build_book(
    game: str,
    variant: str,
    plies: int,
    out: Path,
    checkpoint: Path,
    address: Optional[str] = None,
    workers: Optional[int] = None,
    per_task: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict:
    """Makes the book of `game` (in `variant`) of every position up to `plies`
    moves and writes it to `out`, keeping each result in the folder
    `checkpoint` as it comes. Returns what it did: positions, bytes,
    positions read back from the checkpoint, seconds, processors.

    `progress(solved, total)` hears after each task."""
    started = time.monotonic()
    work = BookWork(game, variant)
    if not 0 <= plies <= work.max_plies():
        raise ValueError(f"a book of this board goes 0 to {work.max_plies()} plies deep")
    out, checkpoint = Path(out), Path(checkpoint)
    job = {"game": game, "variant": variant, "plies": plies}
    scores = _read_checkpoint(checkpoint, job)
    layers = {p: work.positions(p) for p in range(plies, -1, -1)}
    wanted = {key for layer in layers.values() for key, _ in layer}
    total = len(wanted)
    cpus = connect(address, workers)
    solved = resumed = len(wanted & scores.keys())
    if progress:
        progress(solved, total)
    for ply in range(plies, -1, -1):
        todo = [(k, t) for k, t in layers[ply] if k not in scores]
        if not todo:
            continue
        deeper = ray.put(work.assemble(plies, sorted(scores.items())))
        pending = {}
        for n, task in enumerate(_tasks(todo, cpus, per_task)):
            ref = _solve.remote(game, variant, [t for _, t in task], deeper)
            pending[ref] = (n, task)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=WAIT_SECONDS)
            for ref in ready:
                n, task = pending.pop(ref)
                results = ray.get(ref)
                if [k for k, _ in results] != [k for k, _ in task]:
                    raise RuntimeError("a task answered for other positions than it was given")
                name = f"ply-{ply:02d}-{task[0][0]:016x}.txt"
                write_atomically(checkpoint / name, "".join(f"{k} {s}\n" for k, s in results).encode())
                scores.update(results)
                solved += len(results)
                if progress:
                    progress(solved, total)
    data = work.assemble(plies, sorted((k, s) for k, s in scores.items() if k in wanted))
    write_atomically(out, data)
    return {
        "plies": plies,
        "positions": total,
        "bytes": len(data),
        "from_checkpoint": resumed,
        "seconds": round(time.monotonic() - started, 1),
        "processors": cpus,
    }
