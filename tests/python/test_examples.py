"""The example scripts run, quickly, with small numbers."""

import subprocess
import sys

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"


def run(script, *args):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_teaching():
    out = run("teaching.py", "--games", "40")
    assert "Bouton's rule says the first player loses; the solver says the first player has a loss." in out
    assert "1* + 2* + 3* = 0" in out
    assert "games    1-4" in out


def test_research():
    out = run("research.py", "--games", "2", "--simulations", "20", "--max-plies", "30")
    assert "MCTS won 0" in out


def test_speed():
    out = run("speed.py", "--seconds", "0.1", "--rounds", "1", "--simulations", "20")
    assert "pyspiel tic_tac_toe" in out and "pyspiel connect_four" in out and "tabula_games" in out
    assert "tabula_connect4, rollouts in the engine" in out
    assert "of C++" in out


def test_costs():
    out = run("costs.py", "--plies", "100", "300")
    assert "repetition=0,progress=off" in out and "300" in out


def test_the_install_docs_say_it_takes_minutes_and_how_to_watch_it():
    """A first `pip install .` compiles the engine for minutes, mostly silently:
    docs/PYTHON.md says so, how to see its progress, and how a release would
    ship prebuilt wheels instead."""
    text = (ROOT / "docs" / "PYTHON.md").read_text()
    install = text[text.index("## Install") : text.index("## The API")]
    assert "minutes" in install
    assert "pip install -v ." in install
    assert "maturin build --release" in install and "wheel" in install
