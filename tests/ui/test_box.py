"""The box's behaviour through its physical inputs: buttons on mock pins, chip
reads, dice seen by the camera, device faults. Uses the fixed uifake game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from uifake import FIRE, MORALE, SCENARIO_TOML, SMALL_TRAY, use_fake_rules
from uirig import Rig, tones, written

from companion.box import (
    Box,
    DeviceBack,
    DeviceFault,
    DiceSeen,
    Part,
    SeenDie,
    TagSeen,
    dice_order,
    throws,
)
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    DiceGroup,
    DieKind,
    RollRequest,
)
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    GameStarted,
    SecretRevealed,
    ThrowAccepted,
    Undone,
)
from companion.session.session import GameSession
from companion.ui.screens import Screen, layout


def to_fire(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("select")  # past the chip screen
    rig.press("select")  # Fire


def both_units_pass(rig: Rig) -> None:
    """Both units hold: the end of the turn (turn 1's brings a secret roll)."""
    for chip in ("Red 1", "Blue 1"):
        rig.hold(chip)


def test_unknown_chip_is_an_error_and_changes_nothing(rig: Rig) -> None:
    before = rig.session.record.fingerprint()
    rig.box.handle(TagSeen("04DEADBEEF0001", None))
    assert rig.screen.kind == "error" and "not enrolled" in rig.screen.lines[0]
    assert rig.tunes == ["error"]
    assert rig.session.record.fingerprint() == before
    assert len(rig.events()) == 1  # only GameStarted
    rig.press("back")
    assert rig.screen.kind == "idle"


@pytest.mark.parametrize("waiting", ["a choice", "a roll"])
def test_an_unknown_chip_while_none_is_wanted_is_ignored_not_to_be_picked(
    rig: Rig, waiting: str
) -> None:
    rig.chip("Red 1")
    rig.press("select")
    if waiting == "a roll":
        rig.press("select")  # Fire
    rig.box.handle(TagSeen("04DEADBEEF0001", None))
    assert rig.screen.title == "Unknown chip"
    assert rig.screen.lines == ("Tag 04DEADBEEF0001 is not enrolled. No chip is wanted now: "
                                "ignored.",)
    assert "companion chips enroll" in rig.said[-1] and "by hand" not in rig.said[-1]
    assert len(rig.events()) == (2 if waiting == "a choice" else 3)  # nothing journaled


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


def test_the_pick_list_names_each_chip_s_unit_where_it_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_fake_rules(monkeypatch)
    long_name = "The Arab riflemen of the oasis of Bir Sidi and their camels"
    rig = Rig(tmp_path, SCENARIO_TOML.replace('name = "Arabs"', f'name = "{long_name}"'))
    try:
        rig.menu_to("Pick chip")
        # A name too long for the two rows the chosen entry may take: the code alone.
        assert rig.screen.items == ("Red 1: Legion", "Blue 1")
        assert layout(rig.screen).cut == ()
    finally:
        rig.close()


def test_chip_picked_by_hand(rig: Rig) -> None:
    rig.menu_to("Pick chip")
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
    assert rig.screen.kind == "reading" and "2 6 5" in rig.screen.lines[0]
    assert rig.screen.big == "Roll 2d6" and rig.tunes[-1] == "dice"
    rig.dice(("d6", 1), ("d6", 6))
    assert rig.events()[-1] == DiceAccepted((2, 6, 5, 1, 6), "camera")
    assert rig.screen.kind == "result" and rig.screen.big == "1 hit"
    assert rig.screen.footer == "Next: resolve check 2d6"
    assert rig.tunes[-1] == "death"


def test_a_stray_die_of_another_kind_is_read_around_and_named(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 2), ("d10", 7), ("d6", 6), ("d6", 5))
    assert rig.screen.kind == "reading" and "2 6 5" in rig.screen.lines[0]
    assert "  ignored 1 d10 in the tray, not asked for" in rig.said


def test_wrong_or_unreadable_dice_are_refused(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 2), ("d6", 6))
    assert rig.screen.kind == "error" and rig.screen.title == "Wrong dice"
    assert rig.screen.lines == ("Saw 2 d6, need 3d6. Roll again.",)
    assert rig.screen.footer == "any button" and rig.tunes[-1] == "error"
    rig.press("select")
    assert rig.screen.kind == "roll" and len(rig.events()) == 3
    assert isinstance(rig.box.step, AwaitRoll)


def test_unreadable_die_is_named_by_its_place_not_its_pixels(rig: Rig) -> None:
    to_fire(rig)
    read = (SeenDie("d6", 5, (10, 300, 30, 30)), SeenDie("d6", 2, (400, 20, 30, 30)))
    rig.box.handle(DiceSeen(read, (((200, 40, 30, 30), "cocked"),)))
    assert rig.screen.title == "Reroll"
    assert rig.screen.lines == ("Cannot read the die 2nd from the left (cocked). Roll again.",)
    assert rig.said[-1] == ("! Reroll: Cannot read 1 of 3 dice: the die 2nd from the left: "
                            "cocked. Roll again or enter by hand.")
    assert not any("x200" in line or "y40" in line for line in rig.said)


def test_dice_that_moved_without_a_throw_are_not_a_roll(rig: Rig) -> None:
    """The camera saw a die of the last throw topple over: nobody threw."""
    to_fire(rig)
    events = len(rig.events())
    three = tuple(SeenDie("d6", v, (i * 40, 0, 30, 30)) for i, v in enumerate((2, 6, 5)))
    rig.box.handle(DiceSeen(three, nudged=True))
    assert rig.screen.kind == "warning" and rig.screen.title == "Dice moved"
    assert len(rig.events()) == events and isinstance(rig.box.step, AwaitRoll)
    rig.press("select")
    rig.box.handle(DiceSeen(three))  # thrown
    assert len(rig.events()) == events + 1


def test_a_refused_throw_is_completed_by_its_cocked_die_falling_flat(rig: Rig) -> None:
    to_fire(rig)
    events = len(rig.events())
    two = (SeenDie("d6", 5, (0, 0, 30, 30)), SeenDie("d6", 2, (80, 0, 30, 30)))
    rig.box.handle(DiceSeen(two, (((40, 0, 30, 30), "cocked"),)))
    assert rig.screen.title == "Reroll"
    rig.box.handle(DiceSeen((*two, SeenDie("d6", 4, (40, 0, 30, 30))), nudged=True))
    assert len(rig.events()) == events + 1  # the throw, now whole, is taken


def test_unreadable_dice_agree_in_number(rig: Rig) -> None:
    to_fire(rig)
    rig.box.handle(DiceSeen((), (((0, 0, 0, 0), "cocked"),)))
    assert rig.screen.lines == ("Cannot read 1 die (cocked). Roll again.",)
    assert rig.said[-1].startswith("! Reroll: Cannot read the die: cocked.")
    rig.press("select")
    rig.box.handle(DiceSeen((), (((0, 0, 30, 30), "cocked"), ((90, 0, 30, 30), "stacked"))))
    assert rig.screen.lines[0].startswith("Cannot read 2 dice (cocked, stacked).")
    assert "1 dice" not in " ".join(rig.said)


def test_second_refusal_offers_entry_by_hand(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 3), ("d6", 5), ("d6", 6))  # the first throw is read
    rig.box.handle(DiceSeen((SeenDie("d6", 1, (0, 0, 30, 30)),), (((90, 0, 30, 30), "cocked"),)))
    assert rig.screen.title == "Reroll" and rig.screen.footer == "any button"
    rig.press("select")
    assert rig.screen.footer == "hold SEL: menu"  # once is not yet "repeatedly"
    rig.box.handle(DiceSeen((SeenDie("d6", 1, (0, 0, 30, 30)),), (((90, 0, 30, 30), "blurred"),)))
    assert rig.screen.title == "Reroll (2nd time)" and rig.screen.footer == "SEL: enter by hand"
    assert "enter" in rig.screen.lines[0]
    rig.press("select")
    # The throw already read is kept; the two dice of the refused throw start at 1,
    # and the cursor waits on the first of them.
    assert rig.screen.kind == "entry" and rig.screen.items == ("3", "5", "6", "1", "1")
    assert rig.screen.cursor == 3 and rig.screen.title == "Enter 4/5: Arab saves"
    rig.press("up")
    rig.press("select")
    rig.press("select")
    assert rig.events()[-1] == DiceAccepted((3, 5, 6, 2, 1), "manual")
    assert not [e for e in rig.events() if isinstance(e, DiceAccepted) and e.source == "camera"]


def test_after_two_refusals_the_roll_screen_offers_entry_too(rig: Rig) -> None:
    to_fire(rig)
    for _ in range(2):
        rig.box.handle(DiceSeen((), (((0, 0, 30, 30), "cocked"),)))
    rig.press("back")  # not now: the table rolls again
    assert rig.screen.kind == "roll" and rig.screen.footer == "SEL: enter by hand"
    rig.press("select")
    assert rig.screen.kind == "entry"
    rig.press("back")  # backs out of entry: the camera is listened to again
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))
    rig.dice(("d6", 1), ("d6", 1))
    assert rig.events()[-1] == DiceAccepted((5, 5, 5, 1, 1), "camera")
    rig.press("select")  # the result
    rig.press("select")  # the resolve check comes next: a new roll, nothing refused yet
    assert rig.screen.footer == "hold SEL: menu"
    rig.press("select")
    assert rig.screen.kind != "entry"  # a stray SELECT does not leave the camera unheard


def test_manual_entry_and_correction_keep_both_in_the_journal(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))
    rig.dice(("d6", 1), ("d6", 1))  # 3 hits
    rig.press("select")
    rig.menu_to("Correct dice")
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
    rig.menu_to("Enter dice")
    assert rig.screen.items == ("4", "4", "4", "1", "1") and rig.screen.cursor == 3
    rig.press("back")  # the dice read are there to correct too
    rig.press("up")
    for _ in range(3):
        rig.press("select")
    assert rig.events()[-1] == DiceAccepted((4, 4, 5, 1, 1), "manual")
    rig.press("select")
    rig.menu_to("Undo last")
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


def test_secret_roll_is_recorded_unseen_and_revealed_only_by_up_when_asked(rig: Rig) -> None:
    both_units_pass(rig)
    assert rig.screen.kind == "check" and rig.screen.title == "End of turn 1"
    assert rig.tunes[-1] == "turn_end"
    rig.press("select")
    assert rig.screen.title == "Secret roll" and not rig.screen.footer.startswith("avg")
    rig.dice(("d6", 1))
    shown = [s for s in rig.screens[-1:]]
    assert shown[0].kind == "secret" and "5" not in " ".join(shown[0].lines)
    assert not any("day 5" in line for line in rig.said)
    assert rig.screen.footer == "hold SEL: menu"
    rig.press("select", long=True)  # the menu, as on every screen: no reveal
    assert rig.box.ui.mode == "menu" and SecretRevealed(0) not in rig.events()
    rig.press("back")
    assert isinstance(rig.box.step, AwaitChip)
    # Every button but UP, held or not, leaves the secret hidden.
    for button, long in (("select", False), ("select", True), ("back", False), ("down", False)):
        rig.menu_to("Reveal secret")
        assert rig.screen.title == "Reveal secret?" and rig.screen.lines == ("Reinforcement day",)
        assert rig.screen.footer == "UP reveals; any other button keeps it hidden"
        rig.press(button, long)
        assert rig.box.ui.mode == "normal" and SecretRevealed(0) not in rig.events()
    rig.menu_to("Reveal secret")
    rig.press("up")
    assert rig.events()[-1] == SecretRevealed(0)
    assert rig.screen.big == "1" and "day 5" in " ".join(rig.screen.lines)
    rig.press("select", long=True)
    assert "Reveal secret" not in [label for _, label in rig.box.ui.menu]


def test_the_menu_s_fixed_items_keep_their_places_whatever_the_state(rig: Rig) -> None:
    """Hold SELECT, DOWN, SELECT undid a step in one state and opened "Reveal secret" in
    another, where the next hold of SELECT revealed the secret roll."""
    fixed = ["Back to game", "Undo last", "Game status", "Sound off"]
    menus: list[list[str]] = []

    def menu_now() -> None:
        rig.press("select", long=True)
        menus.append([label for _, label in rig.box.ui.menu])
        rig.press("up")  # the first item stays chosen: the menu does not wrap round
        assert rig.screen.cursor == 0
        rig.press("back")

    menu_now()  # the first draw: nothing to undo yet
    to_fire(rig)
    menu_now()  # a roll waits
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))
    menu_now()  # the first throw read
    rig.dice(("d6", 1), ("d6", 2))
    rig.press("select")  # the result
    menu_now()  # after a roll
    rig.dice(("d6", 1), ("d6", 1))  # the resolve check
    rig.press("select")
    rig.hold("Blue 1")  # the end of turn 1
    rig.press("select")
    rig.dice(("d6", 1))  # the secret roll
    rig.press("select")
    rig.chip("Red 1")
    rig.press("select")
    menu_now()  # a choice, with a secret roll hidden
    assert all(menu[:4] == fixed for menu in menus), menus
    # "New game" comes last: every item before it keeps the place it had without it.
    assert menus[0] == [*fixed, "Pick chip", "New game"]
    assert menus[1] == menus[2] == [*fixed, "Enter dice", "New game"]
    assert menus[3] == [*fixed, "Enter dice", "Correct dice", "New game"]
    assert menus[4] == [*fixed, "Reveal secret", "New game"]
    rig.press("select", long=True)  # the habit: hold SELECT, DOWN, SELECT to undo
    rig.press("down")
    rig.press("select")
    assert rig.events()[-1] == Undone("undo") and isinstance(rig.box.step, AwaitChip)
    rig.press("select", long=True)
    assert rig.box.ui.mode == "menu" and SecretRevealed(0) not in rig.events()


def test_undo_with_nothing_to_undo_says_so(rig: Rig) -> None:
    rig.menu_to("Undo last")
    assert rig.screen.title == "Nothing to undo" and len(rig.events()) == 1


def test_undo_says_what_it_took_back_in_words_and_no_secret_dice(rig: Rig) -> None:
    to_fire(rig)
    rig.menu_to("Undo last")
    assert rig.said[-1] == "  undone: the choice Fire"
    rig.press("select")  # Fire again
    rig.dice(("d6", 1), ("d6", 1), ("d6", 1))
    rig.dice(("d6", 1), ("d6", 2))  # a jam: no hits
    rig.menu_to("Correct dice")
    assert rig.said[-1] == ("  undone to correct it: the dice 1 1 1 1 2 for FFL fire at 20 "
                            "Arabs in light cover")
    for _ in range(5):
        rig.press("select")
    rig.press("select")  # the result
    rig.hold("Blue 1")
    rig.menu_to("Undo last")
    assert rig.said[-1] == "  undone: the choice Hold"
    rig.menu_to("Undo last")
    assert rig.said[-1] == "  undone: the chip Blue 1"
    rig.hold("Blue 1")  # the end of turn 1
    rig.press("select")
    rig.dice(("d6", 4))  # the secret roll
    rig.press("select")
    rig.menu_to("Undo last")
    assert rig.said[-1] == "  undone: the secret roll for Reinforcement day"
    assert not any("Rolled" in line or "Chosen" in line or "(4,)" in line for line in rig.said)


def test_camera_fault_is_reported_once_and_comes_back(rig: Rig) -> None:
    rig.box.handle(DeviceFault("camera", "gone"))
    rig.box.handle(DeviceFault("camera", "gone"))
    assert rig.tunes.count("error") == 1
    assert rig.screen.title == "Camera lost" and "by hand" in rig.screen.lines[0]
    rig.press("select")
    assert rig.screen.kind == "idle" and "Camera down" in rig.screen.lines
    to_fire(rig)
    assert rig.screen.footer == "No camera: SEL enter"
    rig.press("select")
    assert rig.screen.kind == "entry"
    rig.press("back")
    rig.box.handle(DeviceBack("camera"))
    assert rig.screen.title == "Camera back"
    rig.press("select")
    assert rig.screen.footer == "hold SEL: menu"
    rig.press("select")
    assert rig.screen.kind == "roll"  # SELECT opens entry only while it is offered


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
    rig.menu_to("Sound off")
    rig.factory.pin(18).clear_states()
    rig.chip("Red 1")
    assert rig.tunes == [] and not [e for e in rig.pwm_events() if e.duty > 0]


def test_throws_split_same_kinds_and_skip_empty_groups() -> None:
    assert throws(FIRE) == [(Part(0, 0, 3),), (Part(1, 0, 2),)]
    assert throws(MORALE) == [(Part(0, 0, 1), Part(1, 0, 1))]
    empty = RollRequest("x", (DiceGroup(DieKind.D6, 2, "a", ""), DiceGroup(DieKind.D6, 0, "b", "")))
    assert throws(empty) == [(Part(0, 0, 2),)]


D6, D10, TENS = DieKind.D6, DieKind.D10, DieKind.PERCENTILE


@pytest.mark.parametrize(("groups", "most", "sizes"), [
    ([(D6, 40)], {D6: 12}, [[10], [10], [10], [10]]),  # nearly equal, never over the limit
    ([(D6, 40), (D6, 2)], {D6: 15}, [[14], [13], [13], [2]]),
    ([(D6, 12)], {D6: 12}, [[12]]),
    ([(D6, 13)], {D6: 12}, [[7], [6]]),
    ([(TENS, 1), (D10, 1)], {TENS: 10, D10: 10}, [[1, 1]]),  # a percentile roll: one throw
    ([(TENS, 6), (D10, 6)], {TENS: 10, D10: 10}, [[6], [6]]),  # together they overfill it
    ([(D10, 20), (D6, 3)], {D10: 8, D6: 12}, [[7], [7], [6, 3]]),  # 6/8 + 3/12 of a tray
])
def test_big_groups_are_split_into_throws_the_tray_holds(
        groups: list[tuple[DieKind, int]], most: dict[DieKind, int],
        sizes: list[list[int]]) -> None:
    request = RollRequest("x", tuple(DiceGroup(kind, n, f"group {i}", "")
                                     for i, (kind, n) in enumerate(groups)))
    plan = throws(request, most)
    assert [[p.count for p in throw] for throw in plan] == sizes
    for throw in plan:  # no two parts of one kind in a throw (the camera cannot tell them apart)
        kinds = [request.groups[p.group].kind for p in throw]
        assert len(set(kinds)) == len(kinds)
    order = dice_order(request, plan)  # every die of the request thrown exactly once
    assert sorted(order) == list(range(request.dice_count))


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    use_fake_rules(monkeypatch)
    made = Rig(tmp_path, SCENARIO_TOML, most_per_throw=SMALL_TRAY)
    yield made
    made.close()


def test_a_group_bigger_than_the_tray_is_thrown_in_parts_and_journaled_once(small: Rig) -> None:
    to_fire(small)
    assert (small.screen.title, small.screen.big) == ("Throw 1 of 3: FFL fire", "Roll 2d6")
    small.dice(("d6", 6), ("d6", 5))
    assert (small.screen.title, small.screen.big) == ("Throw 2 of 3: FFL fire", "Roll 1d6")
    assert small.screen.kind == "reading" and small.screen.lines[0] == "Read so far: 6 5"
    small.dice(("d6", 6), ("d6", 5))  # two dice where one is wanted: refused
    assert small.screen.title == "Wrong dice" and small.box.ui.partial == [6, 5]
    small.press("back")
    small.dice(("d6", 2))
    assert small.screen.title == "Throw 3/3: Arab saves"  # "of" does not fit
    assert small.said[-1] == "  read 2 for FFL fire (throw 2 of 3)"
    small.dice(("d6", 6), ("d6", 1))
    dice = [e for e in small.events() if isinstance(e, DiceAccepted)]
    assert dice == [DiceAccepted((6, 5, 2, 6, 1), "camera")]  # the rules' order, one event
    assert small.screen.kind == "result"


def test_throws_read_are_journaled_and_a_restart_asks_for_the_next_throw(small: Rig) -> None:
    """A power cut between the throws of a roll lost the throws read: the box asked for
    throw 1 again, with those dice maybe off the tray by then."""
    to_fire(small)
    small.dice(("d6", 6), ("d6", 5))
    assert small.events()[-1] == ThrowAccepted((6, 5))
    small.box.handle(DiceSeen((), (((0, 0, 30, 30), "cocked"),)))  # refused: not journaled
    assert small.events()[-1] == ThrowAccepted((6, 5))
    shown: list[Screen] = []
    restarted = Box(GameSession.resume(small.journal), show=shown.append,
                    play=lambda tune: None, most_per_throw=SMALL_TRAY)
    restarted.start()
    assert (shown[-1].title, shown[-1].big) == ("Throw 2 of 3: FFL fire", "Roll 1d6")
    assert shown[-1].lines[0] == "Read so far: 6 5"
    restarted.handle(DiceSeen((SeenDie("d6", 4),)))
    restarted.handle(DiceSeen((SeenDie("d6", 6, (0, 0, 30, 30)),
                               SeenDie("d6", 1, (90, 0, 30, 30)))))
    assert small.events()[-3:] == [ThrowAccepted((6, 5)), ThrowAccepted((4,)),
                                   DiceAccepted((6, 5, 4, 6, 1), "camera")]
    assert restarted.session.record.throws == () and shown[-1].kind == "result"


def test_undo_takes_back_the_last_throw_of_a_roll_not_yet_whole(small: Rig) -> None:
    to_fire(small)
    small.dice(("d6", 6), ("d6", 5))
    small.dice(("d6", 4))
    small.press("select", long=True)
    assert "Correct dice" not in [label for _, label in small.box.ui.menu]  # no roll is whole
    small.press("back")
    small.menu_to("Undo last")
    assert small.events()[-1] == Undone("undo") and small.box.ui.partial == [6, 5]
    assert small.said[-1] == "  undone: the throw 4 for FFL fire (throw 2 of 3)"
    assert small.screen.title == "Throw 2 of 3: FFL fire"
    small.dice(("d6", 3))
    small.dice(("d6", 6), ("d6", 1))
    assert small.events()[-1] == DiceAccepted((6, 5, 3, 6, 1), "camera")


def test_a_refused_later_throw_keeps_the_throws_read_and_names_its_own_die(rig: Rig) -> None:
    """A die misread on throw 2 threw away throw 1, and was named by its place in the
    whole roll ("die 4")."""
    to_fire(rig)
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))
    rig.dice(("d6", 0), ("d6", 1))
    assert rig.screen.title == "Wrong face"
    assert rig.screen.lines == ("Arab saves die 1 read 0; a d6 reads 1-6. Roll again.",)
    assert rig.box.ui.partial == [5, 5, 5] and rig.events()[-1] == ThrowAccepted((5, 5, 5))
    rig.press("select")
    assert rig.screen.title == "Throw 2/2: Arab saves"
    rig.dice(("d6", 1), ("d6", 1))
    assert rig.events()[-1] == DiceAccepted((5, 5, 5, 1, 1), "camera")


def test_refusals_are_counted_per_throw(small: Rig) -> None:
    to_fire(small)
    small.box.handle(DiceSeen((), (((0, 0, 30, 30), "cocked"),)))
    small.press("back")
    small.dice(("d6", 6), ("d6", 5))
    small.box.handle(DiceSeen((), (((0, 0, 30, 30), "cocked"),)))
    small.press("back")  # once at each throw: not yet "again", the camera is trusted
    assert small.screen.footer == "hold SEL: menu" and not small.box.entry_offered()
    small.box.handle(DiceSeen((), (((0, 0, 30, 30), "blurred"),)))
    assert small.box.ui.offer == "enter"


def test_entry_after_some_throws_keeps_them_and_waits_on_the_next_die(small: Rig) -> None:
    to_fire(small)
    small.dice(("d6", 6), ("d6", 5))
    small.dice(("d6", 4))
    small.menu_to("Enter dice")
    assert small.screen.items == ("6", "5", "4", "1", "1") and small.screen.cursor == 3
    assert small.screen.title == "Enter 4/5: Arab saves"
    small.press("back")  # a die the camera read can be fixed too
    small.press("down")
    small.press("select")
    small.press("up")
    small.press("select")
    small.press("select")
    assert small.events()[-1] == DiceAccepted((6, 5, 3, 2, 1), "manual")


def test_correction_and_undo_of_a_roll_thrown_in_parts(small: Rig) -> None:
    to_fire(small)
    for dice in ((5, 5), (5,), (1, 1)):
        small.dice(*(("d6", d) for d in dice))
    small.press("select")  # the result
    small.menu_to("Correct dice")
    assert small.screen.items == ("5", "5", "5", "1", "1") and small.screen.cursor == 0
    small.press("down")
    for _ in range(5):
        small.press("select")
    assert small.events()[-2:] == [Undone("correction"), DiceAccepted((4, 5, 5, 1, 1),
                                                                      "correction")]
    small.press("select")  # the result; the resolve check waits
    small.menu_to("Undo last")  # back to the fire roll, every throw to make again
    assert isinstance(small.box.step, AwaitRoll) and small.box.step.request == FIRE
    assert small.screen.title == "Throw 1 of 3: FFL fire" and small.box.ui.partial == []
    small.dice(("d6", 3), ("d6", 3))
    small.menu_to("Undo last")  # halfway through: the throw read is the last step
    assert small.box.ui.partial == [] and small.box.step.request == FIRE
    small.menu_to("Undo last")
    assert isinstance(small.box.step, AwaitChoice)


# ------------------------------------------------------------------ sounds


def notes(rig: Rig) -> list[int]:
    """The notes the buzzer's mock PWM pin played since it was last cleared (Hz)."""
    played = [round(f) for f in tones(rig.pwm_events())]
    rig.factory.pin(18).clear_states()
    return played


def tune(name: str) -> list[int]:
    return [round(f) for f in written(name)]


def test_each_event_plays_its_tune_on_the_buzzer_pin(rig: Rig) -> None:
    notes(rig)
    rig.chip("Red 1")
    assert notes(rig) == tune("chip")
    rig.press("select")
    rig.press("select")  # Fire
    rig.dice(("d6", 1), ("d6", 1), ("d6", 1))
    assert notes(rig) == tune("dice")  # the first of two throws read
    rig.dice(("d6", 2), ("d6", 2))
    assert notes(rig) == tune("jam")
    rig.box.handle(TagSeen("04DEADBEEF0001", None))
    assert notes(rig) == tune("error")
    rig.press("select")
    rig.chip("Red 1")
    assert notes(rig) == tune("warning")  # already drawn
    rig.press("select")
    rig.chip("Blue 1")
    rig.press("select")
    rig.press("select")  # Fire
    rig.dice(("d6", 6), ("d6", 6), ("d6", 6))
    notes(rig)
    rig.dice(("d6", 1), ("d6", 1))
    # The berserk, then the end of the turn that came with it: both heard, in order.
    assert notes(rig) == tune("berserk") + tune("turn_end")
    assert rig.tunes[-1] == "berserk+turn_end"
    rig.press("select")
    rig.press("select")
    assert notes(rig) == [] and rig.screen.title == "Secret roll"  # reading is silent


def test_a_refused_throw_on_a_secret_roll_keeps_its_faces_off_the_log(rig: Rig) -> None:
    both_units_pass(rig)
    rig.press("select")
    assert rig.screen.title == "Secret roll"
    rig.dice(("d6", 5), ("d6", 2))
    assert rig.screen.title == "Wrong dice"
    refused = [line for line in rig.said if "Saw 2 dice" in line]
    assert refused and not any("d6:5" in line or "d6:2" in line for line in refused)


def test_pins_deaths_failed_resolve_secret_and_game_over_sound(rig: Rig) -> None:
    to_fire(rig)
    rig.dice(("d6", 6), ("d6", 6), ("d6", 1))
    notes(rig)
    rig.dice(("d6", 6), ("d6", 6))  # two 6s pin; both hits saved
    assert notes(rig) == tune("pin")
    rig.press("select")
    rig.chip("Blue 1")
    rig.press("select")
    rig.press("select")  # Fire
    rig.dice(("d6", 5), ("d6", 5), ("d6", 1))
    notes(rig)
    rig.dice(("d6", 1), ("d6", 1))  # 2 hits: a death, then a resolve check
    assert notes(rig) == tune("death")
    rig.press("select")
    rig.dice(("d6", 6), ("d6", 6))
    assert notes(rig) == tune("resolve_failed") + tune("turn_end")  # the turn ended too
    rig.press("select")
    rig.press("select")
    rig.dice(("d6", 3))  # the secret roll
    assert notes(rig) == tune("secret")
    rig.press("select")
    both_units_pass(rig)  # turn 2
    rig.press("select")  # the end of turn 2
    assert isinstance(rig.box.step, AwaitRoll) and rig.box.step.request == MORALE
    notes(rig)
    rig.dice(("percentile", 9), ("d10", 9))  # morale 99: routed, game over
    assert notes(rig) == tune("game_over")


# ------------------------------------------------------------ screen wording


def test_a_long_result_scrolls_with_up_and_down_and_any_other_button_goes_on(
    rig: Rig,
) -> None:
    to_fire(rig)
    rig.dice(("d6", 5), ("d6", 5), ("d6", 6))
    rig.dice(("d6", 1), ("d6", 2))
    page = rig.screen
    assert page.kind == "result" and layout(page).scroll_max > 0
    rig.press("down")
    assert rig.screen.kind == "result" and rig.screen.scroll == 1
    rig.press("down")
    shown = [t.text for t in layout(rig.screen).texts]
    assert "Arabs lose 3 figures" in shown
    for _ in range(5):  # scrolling stops at the last line
        rig.press("down")
    assert rig.screen.scroll == layout(page).scroll_max
    rig.press("up")
    assert rig.screen.scroll == layout(page).scroll_max - 1
    rig.press("select")
    assert rig.screen.kind == "check" and rig.screen.scroll == 0  # a new page, at its top


def test_idle_select_picks_a_chip_and_a_lost_reader_says_so(rig: Rig) -> None:
    rig.box.handle(DeviceFault("chip reader", "usb-hid reader: read failed"))
    assert rig.screen.title == "Chip reader lost" and "by hand" in rig.screen.lines[0]
    rig.press("select")
    assert rig.screen.kind == "idle" and "Chip reader down" in rig.screen.lines
    assert rig.screen.footer == "SEL: pick chip"
    rig.press("select")
    assert rig.screen.title == "Pick chip"
    assert rig.screen.items == ("Red 1: Legion", "Blue 1: Arabs")  # picked by name too
    rig.press("select")
    assert rig.events()[-1] == ChipAccepted("Red 1", "")


def test_a_lost_display_is_reported_once_and_the_game_goes_on(rig: Rig) -> None:
    rig.box.handle(DeviceFault("display", "I2C error"))
    rig.box.handle(DeviceFault("display", "I2C error"))
    assert rig.tunes == ["error"] and rig.screen.title == "Display lost"
    rig.press("select")
    assert rig.screen.kind == "idle" and "Display down" not in rig.screen.lines
    rig.chip("Red 1")
    assert rig.screen.kind == "chip"


def test_the_chip_screen_names_the_unit_its_side_and_its_state(rig: Rig) -> None:
    rig.chip("Red 1")
    assert rig.screen.title == "Chip: Red 1" and rig.screen.big == "Legion"
    assert rig.screen.lines == ("FFL · infantry", "Now: Legion: 12 figures")
    assert rig.screen.footer == "Next: Order?"


def test_choice_footer_drops_the_unit_name_the_title_already_shows(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("select")
    assert rig.screen.title == "Legion" and rig.screen.footer == "Order?"


def test_the_maxim_s_roll_screen_shows_the_6s_dice_average_first_and_loses_no_word(
    rig: Rig,
) -> None:
    from companion.rules.tenir_le_fort.actions import ACTIONS

    action = ACTIONS["maxim-fire"]
    params = action.complete_params({"side": "FFL", "cover": "none"})
    screen = rig.box.step_screen(AwaitRoll(action.request(params), action.odds(params)))
    plan = layout(screen)
    assert plan.cut == ()  # longer odds wrap and scroll; nothing is cut short
    first_page = " ".join(t.text for t in plan.texts)
    assert "avg 4.0 hits (4.8 with 6s'" in first_page


# ------------------------------------------------------------ chips not in the bag


def test_a_chip_of_no_unit_in_this_game_says_so(rig: Rig) -> None:
    rig.chip("Green 9")  # enrolled, but under a name no unit of the scenario has
    assert rig.screen.kind == "warning" and rig.screen.title == "Not in this game"
    assert "Green 9" in rig.screen.lines[0] and "drawn" not in rig.screen.lines[0]
    assert "companion chips list" in rig.said[-1]
    assert len(rig.events()) == 1


def test_a_chip_of_a_unit_out_of_play_says_so_not_already_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uifake

    from companion.rules.core import Step

    class ArabsGone(uifake.FakeRules):
        """The Arabs leave the game at the end of turn 1: their chip is not refilled."""

        def next_step(self, state: object) -> Step:
            step = super().next_step(state)
            if isinstance(step, AwaitChip) and getattr(state, "turn", 1) == 2:
                return AwaitChip(step.prompt, tuple(c for c in step.in_bag if c != "Blue 1"))
            return step

    use_fake_rules(monkeypatch)
    monkeypatch.setattr(uifake, "FAKE", ArabsGone())
    rig = Rig(tmp_path, SCENARIO_TOML)
    try:
        both_units_pass(rig)  # turn 1
        rig.press("select")  # the end of turn 1
        rig.dice(("d6", 3))  # the secret roll
        rig.press("select")
        assert isinstance(rig.box.step, AwaitChip) and rig.box.step.in_bag == ("Red 1",)
        rig.chip("Blue 1")
        assert rig.screen.kind == "warning" and rig.screen.title == "Out of play"
        assert rig.screen.lines == ("Arabs is out of play. Put Blue 1 aside.",)
        rig.press("select")
        rig.chip("Red 1")
        rig.press("select")
        rig.press("down")
        rig.press("select")  # Hold: the turn goes on with Red 1 drawn
        rig.chip("Red 1")  # this one was drawn this turn
        assert rig.screen.title == "Already drawn"
        events = len(rig.events())
        rig.press("select")
        rig.chip("Blue 1")
        assert rig.screen.title == "Out of play" and len(rig.events()) == events
    finally:
        rig.close()


def test_a_broken_registry_or_dice_setting_is_named_not_called_a_lost_device(
    rig: Rig, tmp_path: Path
) -> None:
    from companion.chips import ChipRegistry
    from companion.runner import CameraFeed, ChipFeed
    from companion.vision import Calibration

    registry = tmp_path / "chips.toml"
    registry.write_text("[[[ broken\n")
    chips = ChipFeed(lambda: None, lambda: ChipRegistry.load(registry), rig.box.post,
                     clock=rig.clock)
    camera = CameraFeed(lambda: None, lambda: Calibration.from_dict({"die_px": -5}),
                        rig.box.post, clock=rig.clock)
    assert chips.step() is False and camera.step() is False
    rig.box.pump()
    errors = [s for s in rig.screens if s.kind == "error"]
    assert [s.title for s in errors] == ["Chip registry broken", "Dice reader broken"]
    assert errors[0].lines[0].startswith("chips.toml: not valid TOML")
    assert errors[0].lines[0].endswith("Pick chips by hand: SEL on the draw screen.")
    assert errors[1].lines[0].startswith("[dice.calibration] die_px = -5 is not a die size")
    assert errors[1].lines[0].endswith("Enter the dice by hand: SEL on the roll screen.")
    assert not any("lost" in s.title for s in rig.screens)
    assert any(str(registry) in line for line in rig.said)  # the whole story in the log
    rig.press("select")
    assert "Chip reader down" in rig.screen.lines and rig.screen.footer == "SEL: pick chip"
    rig.press("select")
    assert rig.screen.title == "Pick chip"  # chips by hand
    rig.press("select")
    rig.press("select")  # past the chip screen
    rig.press("select")  # Fire
    assert rig.screen.footer == "No camera: SEL enter"  # dice by hand


def test_a_units_state_in_brackets_is_not_cut_at_its_commas() -> None:
    from companion.box.views import _outside_brackets_split

    assert _outside_brackets_split("FFL: Maxim 3 (1 wounded) [jammed, hero], Legion 1 7") == [
        "FFL: Maxim 3 (1 wounded) [jammed, hero]", "Legion 1 7"]
    assert _outside_brackets_split("Arabs: Band 6; Horse 4") == ["Arabs: Band 6", "Horse 4"]
    assert _outside_brackets_split("one part") == ["one part"]


def test_a_secret_roll_thrown_in_parts_says_secret_on_every_throw(small: Rig) -> None:
    """Split in throws, the sentry's secret roll was titled "Throw 1 of 2: sentry"."""
    request = RollRequest("sentry", (DiceGroup(DieKind.D6, 3, "sentry", ""),), secret=True)
    screen = small.box.step_screen(AwaitRoll(request, None))
    assert screen.title == "Secret roll 1 of 2" and screen.big == "Roll 2d6"


def test_a_footer_gives_the_question_rather_than_a_bare_unit_name() -> None:
    from companion.rules.core import Choice
    from companion.ui.wording import next_hint

    step = AwaitChoice("Tribesmen: which unit?", (Choice("a", "A"),), about="Tribesmen")
    assert next_hint(step) == "Tribesmen: which unit?"  # "Next: Tribesmen" said less
    short = AwaitChoice("Which unit?", (Choice("a", "A"),), about="Tribesmen")
    assert next_hint(short) == "Next: Which unit?"
