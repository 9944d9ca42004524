"""The cluster jobs (tabula_games.cluster*) on a two-node Ray cluster on
127.0.0.1: a small opening book equal byte for byte to the single-machine
command's, with a node killed in the middle and with the driver killed and
run again; a two-board record hunt whose lines replay by the game's rules.
Skipped when Ray is not installed (scripts/python-test installs it)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("tqdm")

from ray.cluster_utils import Cluster  # noqa: E402

import tabula_games  # noqa: E402
from tabula_games.cluster_book import build_book  # noqa: E402
from tabula_games.cluster_records import hunt_records  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

#: A small board and depth: 5 columns, 4 rows, every position of 5 plies.
BOARD = {"width": 5, "height": 4}
VARIANT = "width=5,height=4"
PLIES = 5


@pytest.fixture(scope="module")
def cluster():
    """A head node and a second node, one processor each, on loopback."""
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, logging_level="WARNING", log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture(scope="module")
def single_machine_book(tmp_path_factory):
    """The book the crate's own single-machine command writes."""
    program = os.environ.get("TABULA_BOOK_BIN") or str(ROOT / "target" / "release" / "examples" / "book")
    if not Path(program).exists():
        pytest.fail("the single-machine book command was not found: run "
                    "`cargo build --release -p tabula-connect4 --example book` or set TABULA_BOOK_BIN")
    folder = tmp_path_factory.mktemp("single")
    out = folder / "book"
    subprocess.run(
        [program, "--plies", str(PLIES), "--width", "5", "--height", "4", "--out", str(out),
         "--checkpoint", str(folder / "progress")],
        check=True, capture_output=True, timeout=300,
    )
    return out.read_bytes()


def test_the_book_equals_the_single_machine_book(cluster, single_machine_book, tmp_path):
    done = build_book("connect4", VARIANT, PLIES, tmp_path / "book", tmp_path / "checkpoint")
    assert (tmp_path / "book").read_bytes() == single_machine_book
    assert done["positions"] == (len(single_machine_book) - 16) // 8
    assert done["from_checkpoint"] == 0
    # Run again on the same folder: every score is read back, none solved again.
    again = build_book("connect4", VARIANT, PLIES, tmp_path / "book2", tmp_path / "checkpoint")
    assert again["from_checkpoint"] == done["positions"]
    assert (tmp_path / "book2").read_bytes() == single_machine_book


def test_a_node_killed_mid_job_leaves_the_book_unchanged(cluster, single_machine_book, tmp_path):
    spare = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    killed = []

    def progress(solved, total):
        # At the first result, the second node dies with its tasks running.
        if solved > 0 and not killed:
            killed.append((solved, total))
            cluster.remove_node(spare, allow_graceful=False)

    build_book("connect4", VARIANT, PLIES, tmp_path / "book", tmp_path / "checkpoint",
               per_task=2, progress=progress)
    solved, total = killed[0]
    assert solved < total
    assert (tmp_path / "book").read_bytes() == single_machine_book


def test_a_driver_killed_mid_job_goes_on_from_its_checkpoint(cluster, single_machine_book, tmp_path):
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    out, checkpoint = tmp_path / "book", tmp_path / "checkpoint"
    command = [sys.executable, "-m", "tabula_games.cluster_cli", "book", "connect4",
               "--plies", str(PLIES), "--width", "5", "--height", "4", "--out", str(out),
               "--checkpoint", str(checkpoint), "--address", cluster.address,
               "--positions-per-task", "2"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(checkpoint.glob("ply-*.txt"))) < 5:
        assert first.poll() is None, first.stderr.read().decode()
        assert time.monotonic() < deadline, "no result came within two minutes"
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    assert not out.exists()
    kept = len(list(checkpoint.glob("ply-*.txt")))
    second = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "came from the checkpoint" in second.stdout
    assert kept >= 5
    assert out.read_bytes() == single_machine_book


def test_a_checkpoint_of_another_job_is_refused(cluster, tmp_path):
    build_book("connect4", "width=4,height=4", 2, tmp_path / "book", tmp_path / "checkpoint")
    with pytest.raises(ValueError, match="another book"):
        build_book("connect4", "width=4,height=4", 3, tmp_path / "book", tmp_path / "checkpoint")


def _replayed(variant, position, moves):
    """The score of a line played by the rules, independently of the job."""
    state = tabula_games.load_game("samegame", variant).state_from_position(position)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    assert state.is_terminal()
    return int(state.returns()[0])


def test_a_two_board_record_hunt_keeps_lines_that_replay(cluster, tmp_path):
    boards = [("size=15x15,colours=5", p)
              for p in tabula_games._native.PolicySearch("samegame", "").test_set()[:2]]
    first = hunt_records("samegame", boards, 1.0, tmp_path, level=1, iterations=30, bar=False)
    assert first["workers"] >= 2
    for (variant, position), found in zip(boards, first["boards"]):
        assert found["score"] > 0 and found["rounds"] >= 1
        assert _replayed(variant, position, found["moves"]) == found["score"]
        assert found["improved"]
    assert first["total"] == sum(b["score"] for b in first["boards"])
    assert len(list(tmp_path.glob("*.json"))) == 2
    # A second run starts from the records: no board scores less.
    second = hunt_records("samegame", boards, 0.5, tmp_path, level=1, iterations=30, seed=2, bar=False)
    for before, after in zip(first["boards"], second["boards"]):
        assert after["score"] >= before["score"]


def test_a_record_that_does_not_replay_is_set_aside(cluster, tmp_path):
    import json

    boards = [("size=15x15,colours=5", tabula_games._native.PolicySearch("samegame", "").test_set()[0])]
    hunt_records("samegame", boards, 0.3, tmp_path, level=1, iterations=10, bar=False)
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    record["score"] += 1000
    path.write_text(json.dumps(record))
    again = hunt_records("samegame", boards, 0.3, tmp_path, level=1, iterations=10, bar=False)
    assert path.with_suffix(".rejected").exists()
    assert again["boards"][0]["score"] < record["score"]


def test_bad_requests_are_refused_in_words(tmp_path):
    command = [sys.executable, "-m", "tabula_games.cluster_cli"]
    nim = subprocess.run(command + ["book", "nim", "--plies", "2", "--out", str(tmp_path / "b"),
                                    "--checkpoint", str(tmp_path / "c")],
                         capture_output=True, text=True, timeout=60)
    assert nim.returncode == 2
    assert "makes no opening book" in nim.stderr
    deep = subprocess.run(command + ["book", "connect4", "--plies", "99", "--out", str(tmp_path / "b"),
                                     "--checkpoint", str(tmp_path / "c")],
                          capture_output=True, text=True, timeout=60)
    assert deep.returncode == 2 and "plies deep" in deep.stderr
    missing = subprocess.run(command + ["samegame", "--boards", str(tmp_path / "none.txt"), "--seconds", "1",
                                        "--records", str(tmp_path / "r")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "could not be read" in missing.stderr
    assert "Traceback" not in nim.stderr + deep.stderr + missing.stderr
