"""Whole games of each system in sim mode, played as a table would: buttons on
mock pins, chips through the sim reader and the runner's chip feed, dice as
composed tray frames through the runner's camera feed, settle detector and dice
reader. Then the same games with devices failing: the camera unplugged mid-game
(finished by manual entry, picked up again when it returns), and the display
and the chip reader missing at start or failing mid-game. Each fault is
reported once and the box carries on."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from uirig import Rig, TableHardware, play_through

from companion.rules import SYSTEM_NAMES
from companion.rules.core import GameOver
from companion.session.events import ChipAccepted, DiceAccepted
from companion.session.session import replay
from companion.simtable import SimTable
from companion.ui.screens import layout


def scenario_text(system: str) -> str:
    return resources.files("companion.scenarios").joinpath(f"{system}.toml").read_text("utf-8")


def finish(rig: Rig, table: SimTable, system: str) -> None:
    """The game reached its end through the box, and the journal alone replays it."""
    assert table.finished(), f"{system}: no end after {len(rig.screens)} screens"
    assert isinstance(rig.box.step, GameOver)
    assert rig.screen.kind == "summary"
    summary = rig.screen
    assert len(set(summary.lines)) == len(summary.lines), f"{system}: {summary.lines}"
    winner = rig.box.step.winner
    assert summary.big in ("Draw", f"{winner} won", winner)
    assert "game_over" in rig.tunes
    assert replay(rig.events()).fingerprint() == rig.session.record.fingerprint()
    cut = {c for screen in rig.screens for c in layout(screen).cut}
    assert not cut, f"{system}: text shortened on the OLED: {sorted(cut)[:5]}"


def test_all_five_systems_are_covered() -> None:
    assert len(SYSTEM_NAMES) == 5


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_whole_game_through_the_hardware(system: str, tmp_path: Path) -> None:
    rig = Rig(tmp_path, scenario_text(system))
    hardware = TableHardware(rig, random.Random(7))
    table = play_through(rig, hardware, random.Random(11))
    hardware.close()
    finish(rig, table, system)
    assert hardware.paths["camera"] == hardware.camera_throws  # real frames were read
    dice = [e for e in rig.events() if isinstance(e, DiceAccepted)]
    assert dice and {e.source for e in dice} <= {"camera", "manual"}
    if rig.session.record.scenario.units[0].chip:  # a chip-bag system: chips were read
        assert [e for e in rig.events() if isinstance(e, ChipAccepted) and e.uid]
    assert not [s for s in rig.said if s.startswith("! ") and " lost" in s]
    assert rig.display.frames  # every screen reached the OLED
    rig.close()


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_camera_unplugged_mid_game_then_back(system: str, tmp_path: Path) -> None:
    rig = Rig(tmp_path, scenario_text(system))
    hardware = TableHardware(rig, random.Random(7), camera_throws=2)
    marks: dict[str, int] = {}

    def cable(table: SimTable, n: int) -> None:
        if n == 12:
            hardware.camera_plugged = False
            marks["opens"] = hardware.camera_opens
        if n == 12 + 60:
            hardware.camera_plugged = True
            marks["events"] = len(rig.events())
            hardware.camera_throws = hardware.paths["camera"] + 2  # frames again

    table = play_through(rig, hardware, random.Random(11), each=cable)
    hardware.close()
    finish(rig, table, system)
    lost = [s for s in rig.said if s.startswith("! Camera lost")]
    assert len(lost) == 1, lost  # reported once ...
    assert hardware.camera_opens > marks["opens"] + 3  # ... though retried all along
    assert "  camera is back" in rig.said
    sources = [e.source for e in rig.events() if isinstance(e, DiceAccepted)]
    while_down = [e.source for e in rig.events()[: marks["events"]]
                  if isinstance(e, DiceAccepted)]
    assert "manual" in while_down, f"{system}: no die entered by hand while the camera was out"
    after = [e for e in rig.events()[marks["events"]:] if isinstance(e, DiceAccepted)]
    assert any(e.source == "camera" for e in after), f"{system}: the camera was not used again"
    assert hardware.paths["camera"] >= 3 and "camera" in sources
    rig.close()


# Two systems suffice here (the display is the same for all): the chip-bag one,
# and one without chips, where a reader fault must not get in the way either.
@pytest.mark.parametrize("system", ["tenir_le_fort", "on_the_frontier"])
def test_display_missing_then_chip_reader_failing(system: str, tmp_path: Path) -> None:
    """The OLED is missing at start and plugged in later; the chip reader fails
    mid-game and stays out: chips are picked by hand. The game goes on."""
    rig = Rig(tmp_path, scenario_text(system), display_plugged=False)
    hardware = TableHardware(rig, random.Random(5), camera_throws=1)

    def cables(table: SimTable, n: int) -> None:
        if n == 20:
            rig.display_plugged = True
        if n == 30:
            hardware.chip_reader_plugged = False  # its next poll fails like a pulled plug

    table = play_through(rig, hardware, random.Random(3), each=cables)
    hardware.close()
    finish(rig, table, system)
    assert [s for s in rig.said if s.startswith("! Display lost")] == [
        "! Display lost: display failed: no ssd1306 display at I2C bus 1 address 0x3c "
        "(simulated). The box carries on without it."]
    assert rig.display_opens > 3 and "  display is back" in rig.said
    assert rig.display.frames[-1] is not None and len(rig.display.frames) < len(rig.screens)
    assert len([s for s in rig.said if s.startswith("! Chip reader lost")]) == 1
    if rig.session.record.scenario.units[0].chip:
        by_hand = [e for e in rig.events() if isinstance(e, ChipAccepted) and not e.uid]
        assert by_hand, f"{system}: no chip picked by hand after the reader failed"
    rig.close()
