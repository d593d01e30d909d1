"""Shared test setup.

- Tests marked `pi` need a real Raspberry Pi and are skipped elsewhere.
- Any ERROR log record fails the test that produced it.
- Each test gets its own state and config location, and the environment
  variables the box reads are restored afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import config


def _on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _on_a_pi():
        return
    skip = pytest.mark.skip(reason="needs a real Raspberry Pi with the hardware attached")
    for item in items:
        if "pi" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("ERROR logged: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture(autouse=True)
def isolated_box_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep the box's journal and config out of the user's home."""
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_HW", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    # on a Pi with the service installed, tests must not find its journal
    monkeypatch.setattr(config, "SERVICE_STATE_DIR", tmp_path / "no-service")
    return state


@pytest.fixture
def shared_datasets() -> Path:
    """../shared/datasets beside the repo (CI has it); skip clearly if absent."""
    path = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
    if not path.is_dir():
        pytest.skip(f"{path} not found: the shared datasets sit beside the repo in CI")
    return path
