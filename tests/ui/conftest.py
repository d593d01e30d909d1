"""The box on simulated hardware with the fake rules (uifake), for screen and button tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from uifake import SCENARIO_TOML, use_fake_rules
from uirig import Rig


@pytest.fixture
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    use_fake_rules(monkeypatch)
    made = Rig(tmp_path, SCENARIO_TOML)
    yield made
    made.close()
