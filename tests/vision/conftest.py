"""Shared fixtures for the vision tests.

The real photographs live in ../shared/datasets beside the repository (CI has them there);
tests that need them are skipped, with the reason, when they are absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision import DiceReader

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO.parent / "shared" / "datasets"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"dataset {path} not found (expected ../shared/datasets beside the repo)")
    return path


@pytest.fixture(scope="session")
def d6_test_dir() -> Path:
    return _need(DATASETS / "dice-d6-tray" / "test")


@pytest.fixture(scope="session")
def d6_train_dir() -> Path:
    return _need(DATASETS / "dice-d6-tray" / "train")


@pytest.fixture(scope="session")
def d10_dir() -> Path:
    return _need(DATASETS / "dice-d10-single")


@pytest.fixture(scope="session")
def reader() -> DiceReader:
    return DiceReader()
