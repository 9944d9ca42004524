"""Shared fixtures of the Python package's tests (run by scripts/python-test)."""

import os
import shutil
from pathlib import Path

import pytest

import tabula_games

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def registered():
    """Every Tabula game registered with pyspiel; returns their OpenSpiel names."""
    from tabula_games import openspiel

    return openspiel.register()


@pytest.fixture(scope="session")
def tabula_bin():
    """The `tabula` program, to compare the package's figures with the CLI's.

    scripts/python-test builds it and names it in TABULA_BIN."""
    named = os.environ.get("TABULA_BIN")
    if named:
        return named
    for candidate in (ROOT / "target" / "debug" / "tabula", ROOT / "target" / "release" / "tabula"):
        if candidate.exists():
            return str(candidate)
    found = shutil.which("tabula")
    if found:
        return found
    pytest.fail("the tabula program was not found: build it (cargo build) or set TABULA_BIN")


ALL_GAMES = tabula_games.games()


# Address space a child process running many random games may reserve: past
# this it fails at once instead of taking the machine's memory (as random games
# of Northcott and Poggle once did, running to 20,000 moves). Room beyond the
# 1 GiB the tests allow for the reservations of the interpreter, NumPy and the
# engine's threads.
CHILD_ADDRESS_SPACE = 4 << 30
# A deadline for such a child, so that a regression cannot hang the suite (the
# runs take seconds; this is no timing check).
CHILD_DEADLINE = 900


def run_capped(script, args):
    """Runs Python `script` with `args` in a child process whose address space
    is capped (CHILD_ADDRESS_SPACE) and which is stopped at CHILD_DEADLINE."""
    import resource
    import subprocess
    import sys

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))

    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=CHILD_DEADLINE,
        preexec_fn=cap,
    )
