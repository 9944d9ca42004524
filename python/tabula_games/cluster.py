"""Long computations on a Ray cluster: a game's opening book and a puzzle's
record hunt, shared out over every core of every machine that joins.

Install with the extra: ``pip install "tabula_games[cluster]"`` (Ray and tqdm).
The command ``tabula-cluster`` runs both jobs (``tabula-cluster --help``);
docs/CLUSTER.md says how to start a cluster and what each job costs.

The work itself is the games' own (``tabula_games._native.BookWork`` and
``PolicySearch``, reached by the game's name); this module only shares it
out with Ray's tasks and keeps what comes back. A task whose worker or
machine dies is run again by Ray (``max_retries``); the jobs keep every
result on disk as it comes, so a stopped job goes on from there.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional

try:
    import ray
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "the cluster jobs need Ray: install the package with its extra, "
        'pip install "tabula_games[cluster]"'
    ) from e

__all__ = ["connect", "write_atomically", "read_json", "TASK_RETRIES"]

#: How often Ray runs a task again after its worker process or machine died.
TASK_RETRIES = 5


def connect(address: Optional[str] = None, workers: Optional[int] = None) -> int:
    """Joins the Ray cluster at `address`, or starts a Ray runtime on this
    machine with `workers` processes (all its cores when None). Returns the
    processors the cluster offers. Does nothing when Ray is already running
    in this process (a test's cluster, a notebook's)."""
    if workers is not None and workers < 1:
        raise ValueError("the number of workers must be 1 or more")
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers or os.cpu_count() or 1,
                include_dashboard=False,
                logging_level="WARNING",
                log_to_driver=False,
            )
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(cpus, workers) if workers else cpus)


def write_atomically(path: Path, data: bytes) -> None:
    """Writes `data` to `path` so that a reader (or a job killed meanwhile)
    sees the old file or the new one whole, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path: Path) -> Optional[Any]:
    """The JSON in `path`, or None when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return json.loads(text)
    except ValueError as e:
        raise ValueError(f"{path} is not a file this job wrote ({e})") from e
