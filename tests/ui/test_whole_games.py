"""A whole game of each system in sim mode: buttons on mock pins, chips through
the sim reader, draw detector and registry, dice through the camera path; and
the same game with the camera unplugged mid-game, finished by manual entry."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from uirig import Rig, TableHardware

from companion.rules import SYSTEM_NAMES
from companion.rules.core import GameOver
from companion.session.events import DiceAccepted
from companion.session.session import replay


def scenario_text(system: str) -> str:
    path = resources.files("companion.scenarios").joinpath(f"{system}.toml")
    if not path.is_file():
        pytest.skip(f"companion/scenarios/{system}.toml has not landed yet "
                    f"(the {system} rules are still being written)")
    return path.read_text("utf-8")


def test_all_five_systems_are_covered() -> None:
    assert len(SYSTEM_NAMES) == 5


@pytest.mark.parametrize("system", SYSTEM_NAMES)
@pytest.mark.parametrize("camera_fails_after", [None, 3], ids=["camera", "camera-fails"])
def test_whole_game(system: str, camera_fails_after: int | None, tmp_path: Path) -> None:
    text = scenario_text(system)
    rig = Rig(tmp_path, text)
    hardware = TableHardware(rig, random.Random(7), camera_fails_after)
    from uirig import play_through

    table = play_through(rig, hardware, random.Random(11))
    hardware.close()
    assert table.finished(), f"{system}: no end after {len(rig.screens)} frames"
    assert isinstance(rig.box.step, GameOver)
    assert rig.screen.kind == "summary"
    assert "game_over" in rig.tunes or "death" in rig.tunes or rig.tunes
    events = rig.events()
    sources = {e.source for e in events if isinstance(e, DiceAccepted)}
    if camera_fails_after is None:
        assert sources <= {"camera"}
    else:
        assert "manual" in sources, f"{system}: no die entered by hand after the camera failed"
        assert rig.said.count(next(s for s in rig.said if "camera failed" in s)) == 1
    # The journal alone rebuilds the same game.
    assert replay(events).fingerprint() == rig.session.record.fingerprint()
    rig.close()
