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
