"""The box's behaviour through its physical inputs: buttons on mock pins, chip
reads, dice seen by the camera, device faults. Uses the fixed uifake game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from uifake import FIRE, MORALE, SCENARIO_TOML, use_fake_rules
from uirig import Rig

from companion.box import DeviceBack, DeviceFault, TagSeen, throws
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, DiceGroup, DieKind, RollRequest
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    GameStarted,
    SecretRevealed,
    Undone,
)


@pytest.fixture
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    use_fake_rules(monkeypatch)
    made = Rig(tmp_path, SCENARIO_TOML)
    yield made
    made.close()


def to_fire(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("select")  # past the chip screen
    rig.press("select")  # Fire


def menu_to(rig: Rig, label: str) -> None:
    rig.press("select", long=True)
    labels = [text for _, text in rig.box.ui.menu]
    for _ in range(labels.index(label)):
        rig.press("down")
    rig.press("select")


def test_unknown_chip_is_an_error_and_changes_nothing(rig: Rig) -> None:
    before = rig.session.record.fingerprint()
    rig.box.handle(TagSeen("04DEADBEEF0001", None))
    assert rig.screen.kind == "error" and "not enrolled" in rig.screen.lines[0]
    assert rig.tunes == ["error"]
    assert rig.session.record.fingerprint() == before
    assert len(rig.events()) == 1  # only GameStarted
    rig.press("back")
    assert rig.screen.kind == "idle"


def test_chip_drawn_twice_is_a_warning(rig: Rig) -> None:
    rig.chip("Red 1")
    assert rig.screen.kind == "chip" and rig.screen.big == "Legion"
    assert "FFL" in rig.screen.lines[0] and rig.tunes == ["chip"]
    rig.press("select")
    rig.press("down")
    rig.press("select")  # Hold
    rig.chip("Red 1")
    assert rig.screen.kind == "warning" and rig.screen.title == "Already drawn"
    assert [type(e) for e in rig.events()] == [GameStarted, ChipAccepted, ChoiceMade]


def test_chip_picked_by_hand(rig: Rig) -> None:
    menu_to(rig, "Pick chip")
    assert rig.screen.title == "Pick chip"
    rig.press("down")
    rig.press("select")
    assert rig.events()[-1] == ChipAccepted("Blue 1", "")
    assert rig.screen.kind == "chip" and rig.screen.big == "Arabs"


def test_split_throw_reads_twice_and_keeps_group_order(rig: Rig) -> None:
    to_fire(rig)
    assert rig.screen.kind == "roll" and rig.screen.big == "Roll 3d6"
    assert rig.screen.title.startswith("Throw 1 of 2")
    rig.dice(("d6", 2), ("d6", 6), ("d6", 5))
    assert rig.screen.kind == "reading" and "2, 6, 5" in rig.screen.lines[0]
    assert rig.screen.big == "Roll 2d6" and rig.tunes[-1] == "dice"
    rig.dice(("d6", 1), ("d6", 6))
    assert rig.events()[-1] == DiceAccepted((2, 6, 5, 1, 6), "camera")
    assert rig.screen.kind == "result" and rig.screen.big == "1 hit"
    assert rig.screen.footer == "Next: resolve check 2d6"
    assert rig.tunes[-1] == "death"


def test_wrong_or_unreadable_dice_are_refused(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 2), ("d6", 6))
    assert rig.screen.kind == "error" and rig.screen.title == "Wrong dice"
    rig.press("select")
    rig.box.handle(__import__("companion.box", fromlist=["DiceSeen"]).DiceSeen(
        (), (((10, 20, 30, 30), "cocked"),)))
    assert rig.screen.title == "Reroll" and "cocked" in rig.screen.lines[0]
    assert len(rig.events()) == 3
    assert isinstance(rig.box.step, AwaitRoll)


def test_manual_entry_and_correction_keep_both_in_the_journal(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))
    rig.dice(("d6", 1), ("d6", 1))  # 3 hits
    rig.press("select")
    menu_to(rig, "Correct dice")
    assert rig.screen.kind == "entry" and rig.screen.items == ("5", "5", "5", "1", "1")
    for _ in range(3):  # first die 5 -> 2
        rig.press("down")
    for _ in range(5):
        rig.press("select")
    events = rig.events()
    assert events[-3:] == [DiceAccepted((5, 5, 5, 1, 1), "camera"), Undone("correction"),
                           DiceAccepted((2, 5, 5, 1, 1), "correction")]
    assert rig.screen.big == "2 hits"


def test_menu_enter_dice_by_hand_and_undo(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 4), ("d6", 4), ("d6", 4))  # first throw read, then the referee types
    menu_to(rig, "Enter dice")
    assert rig.screen.items == ("4", "4", "4", "1", "1")
    for _ in range(5):
        rig.press("select")
    assert rig.events()[-1] == DiceAccepted((4, 4, 4, 1, 1), "manual")
    rig.press("select")
    menu_to(rig, "Undo last")
    assert rig.events()[-1] == Undone("undo")
    assert isinstance(rig.box.step, AwaitRoll)


def test_dice_seen_while_the_menu_is_open_close_it(rig: Rig) -> None:
    to_fire(rig)
    rig.press("select", long=True)
    assert rig.box.ui.mode == "menu"
    rig.dice(("d6", 1), ("d6", 1), ("d6", 1))
    rig.dice(("d6", 1), ("d6", 1))
    assert rig.box.ui.mode == "normal" and rig.screen.kind == "result"


def test_buttons_on_a_result_only_dismiss_it(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("down")  # dismisses the chip screen; must not move the hidden cursor
    assert isinstance(rig.box.step, AwaitChoice) and rig.screen.cursor == 0
    rig.press("select")
    assert rig.events()[-1] == ChoiceMade("fire")


def test_secret_roll_is_recorded_unseen_and_revealed_by_holding(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("select")
    rig.press("down")
    rig.press("select")
    rig.chip("Blue 1")
    rig.press("select")
    rig.press("down")
    rig.press("select")  # end of turn 1
    assert rig.screen.kind == "check" and rig.screen.title == "End of turn 1"
    assert rig.tunes[-1] == "turn_end"
    rig.press("select")
    assert rig.screen.title == "Secret roll" and not rig.screen.footer.startswith("avg")
    rig.dice(("d6", 1))
    shown = [s for s in rig.screens[-1:]]
    assert shown[0].kind == "secret" and "5" not in " ".join(shown[0].lines)
    assert not any("day 5" in line for line in rig.said)
    rig.press("select")  # go on without revealing
    assert isinstance(rig.box.step, AwaitChip)
    menu_to(rig, "Reveal secret")
    assert rig.screen.kind == "secret"
    rig.press("select", long=True)
    assert rig.events()[-1] == SecretRevealed(0)
    assert rig.screen.big == "1" and "day 5" in " ".join(rig.screen.lines)


def test_camera_fault_is_reported_once_and_comes_back(rig: Rig) -> None:
    rig.box.handle(DeviceFault("camera", "gone"))
    rig.box.handle(DeviceFault("camera", "gone"))
    assert rig.tunes.count("error") == 1
    rig.press("select")
    to_fire(rig)
    assert rig.screen.footer == "camera down: hold SEL"
    rig.box.handle(DeviceBack("camera"))
    assert rig.screen.title == "Camera back"
    rig.press("select")
    assert rig.screen.footer.startswith("avg")


def test_rotary_encoder_moves_the_menu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_fake_rules(monkeypatch)
    rig = Rig(tmp_path, SCENARIO_TOML, controls="encoder")
    rig.chip("Red 1")
    rig.press("select")
    rig.presser.turn(1)
    rig.box.pump()
    rig.press("select")
    assert rig.events()[-1] == ChoiceMade("hold")
    rig.close()


def test_mute_from_the_menu_silences_the_buzzer(rig: Rig) -> None:
    menu_to(rig, "Sound off")
    rig.factory.pin(18).clear_states()
    rig.chip("Red 1")
    assert rig.tunes == [] and not [e for e in rig.pwm_events() if e.duty > 0]


def test_throws_split_same_kinds_and_skip_empty_groups() -> None:
    assert throws(FIRE) == [[0], [1]]
    assert throws(MORALE) == [[0, 1]]
    empty = RollRequest("x", (DiceGroup(DieKind.D6, 2, "a", ""), DiceGroup(DieKind.D6, 0, "b", "")))
    assert throws(empty) == [[0]]
