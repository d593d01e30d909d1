"""Starting a new game from the box's buttons: the list of games, the question before the
game so far is archived (only UP goes on), a scenario file refused without a change, a
box started with no game; and correcting a secret roll, which must not show its dice."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pytest
from uifake import SCENARIO_TOML, use_fake_rules
from uirig import Rig, tones, written

from companion.box import Box, ButtonPressed, DeviceFault, DiceSeen, NewGames, SeenDie, TagSeen
from companion.rules.core import AwaitChoice, AwaitRoll, GameOver
from companion.session import journal as journal_module
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    Event,
    GameStarted,
    Undone,
)
from companion.session.journal import Journal
from companion.session.keeper import GameKeeper
from companion.session.scenario_files import scenario_choices
from companion.session.session import GameSession
from companion.ui.screens import Screen, layout

EXAMPLES = ["Tenir le Fort", "Scrubs of the Desert", "FortBoard v1.6",
            "Fighting Swashbucklers", "On the Frontier"]
TENIR = resources.files("companion.scenarios").joinpath("tenir_le_fort.toml").read_text("utf-8")


def play_to_the_end(rig: Rig) -> None:
    """The fake game's shortest way to its end: every unit holds for two turns, the
    secret roll between them, then the morale roll that ends it."""
    for chip in ("Red 1", "Blue 1"):
        rig.hold(chip)
    rig.press("select")  # the end of turn 1
    rig.dice(("d6", 4))  # the secret roll
    rig.press("select")
    for chip in ("Red 1", "Blue 1"):
        rig.hold(chip)
    rig.press("select")  # the end of turn 2
    rig.dice(("percentile", 2), ("d10", 5))
    rig.press("select")  # the result


def game_files(rig: Rig) -> list[str]:
    """The journals in the rig's folder, by name: the game's and any archive."""
    return sorted(p.name for p in rig.tmp.glob("journal*.sqlite3"))


def events_of(path: Path) -> list[Event]:
    journal = Journal(path, readonly=True)
    try:
        return [entry.event for entry in journal.entries()]
    finally:
        journal.close()


def notes(rig: Rig) -> list[int]:
    played = [round(f) for f in tones(rig.pwm_events())]
    rig.factory.pin(18).clear_states()
    return played


def open_the_list(rig: Rig) -> None:
    rig.menu_to("New game")
    assert rig.screen.kind == "menu" and rig.screen.title == "New game"


def pick(rig: Rig, label: str) -> None:
    """On the list of games, DOWN to the one named and SELECT it."""
    for _ in range(rig.screen.items.index(label)):
        rig.press("down")
    rig.press("select")


def test_a_new_game_from_the_menu_archives_the_game_whole_and_starts_afresh(rig: Rig) -> None:
    rig.chip("Red 1")
    rig.press("select")
    rig.press("select")  # Fire
    rig.dice(("d6", 5), ("d6", 5), ("d6", 5))  # a throw read: the roll half done
    before = rig.events()
    open_the_list(rig)
    assert rig.screen.items == ("Same again", *EXAMPLES)
    assert rig.screen.cursor == 0 and rig.screen.footer == "SEL pick  BACK cancel"
    pick(rig, "Tenir le Fort")
    assert rig.screen == Screen("warning", "Start a new game?",
                                lines=("Fort Zinderneuf, two attacks", "This game is archived."),
                                footer="UP yes, any other no")
    assert layout(rig.screen).scroll_max == 0  # all of it shows: nothing to scroll with UP
    assert rig.events() == before and game_files(rig) == ["journal.sqlite3"]
    notes(rig)
    rig.press("up")
    [archived] = rig.archived
    assert archived is not None and archived.parent == rig.tmp
    assert game_files(rig) == sorted(["journal.sqlite3", archived.name])
    assert events_of(archived) == before  # the old game whole, its last throw included
    assert rig.events() == [GameStarted("tenir_le_fort", TENIR, "example tenir_le_fort")]
    assert rig.session.record.events == 1 and isinstance(rig.box.step, AwaitChoice)
    assert rig.box.ui.partial == []  # nothing of the old roll carried over
    assert rig.screen == Screen(
        "start", "New game",
        lines=("Tenir le Fort: Fort Zinderneuf, two attacks", "Last game archived."),
        footer="Arab days to prepare?")
    assert layout(rig.screen).scroll_max == 0
    assert rig.tunes[-1] == "new_game" and notes(rig) == [round(f) for f in written("new_game")]
    assert rig.said[-1] == ("new game: Tenir le Fort: Fort Zinderneuf, two attacks; the last "
                            "game is archived")
    rig.press("select")
    assert rig.screen.kind == "menu" and rig.screen.items == ("1 day", "2 days", "3 days")


@pytest.mark.parametrize(("button", "long"), [
    ("select", False), ("select", True), ("back", False), ("down", False)])
def test_only_up_starts_the_new_game(rig: Rig, button: str, long: bool) -> None:
    rig.chip("Red 1")
    before = rig.events()
    open_the_list(rig)
    pick(rig, "On the Frontier")
    assert rig.screen.title == "Start a new game?"
    rig.press(button, long)
    # Back on the list, where it was: the game so far goes on, nothing moved.
    assert rig.screen.title == "New game" and rig.screen.cursor == 5
    assert rig.events() == before and game_files(rig) == ["journal.sqlite3"]
    assert rig.archived == []
    rig.press("back")
    assert rig.screen.kind == "menu" and rig.screen.title == "Legion"  # the game's choice
    rig.press("select")  # Fire: the game goes on, in the same journal
    assert rig.events() == [*before, ChoiceMade("fire")]


def test_same_again_starts_the_game_s_own_scenario_again(rig: Rig) -> None:
    rig.hold("Red 1")
    open_the_list(rig)
    rig.press("select")  # Same again
    assert rig.screen.lines == ("Fort Zinderneuf", "This game is archived.")
    rig.press("up")
    assert rig.events() == [GameStarted("ui_fake", SCENARIO_TOML, "test")]
    [archived] = rig.archived
    assert archived is not None and len(events_of(archived)) == 3


def test_a_scenario_file_in_the_folder_is_offered_by_its_name(rig: Rig) -> None:
    rig.scenarios.mkdir()
    mine = rig.scenarios / "zinderneuf-at-night.toml"
    mine.write_text(TENIR.replace("Fort Zinderneuf, two attacks", "Zinderneuf at night"))
    (rig.scenarios / "notes.txt").write_text("not a scenario")
    (rig.scenarios / ".zinderneuf-at-night.toml.swp").write_text("an editor's file")
    open_the_list(rig)
    assert rig.screen.items == ("Same again", *EXAMPLES, "zinderneuf-at-night.toml")
    pick(rig, "zinderneuf-at-night.toml")
    assert rig.screen.lines[0] == "Zinderneuf at night"
    rig.press("up")
    [started] = rig.events()
    assert isinstance(started, GameStarted) and started.scenario_name == str(mine)
    assert rig.session.record.scenario.title == "Zinderneuf at night"


@pytest.mark.parametrize(("write", "shown"), [
    (lambda path: path.write_text("system = \n"), "broken.toml: not valid TOML"),
    (lambda path: path.write_bytes(b"system = '\xff'\n"), "broken.toml: cannot be read"),
    (lambda path: path.write_text('system = "warhammer"\n'),
     "broken.toml: unknown rule system 'warhammer'"),
    (lambda path: path.unlink(), "broken.toml: no longer in the scenarios folder"),
], ids=["not-toml", "not-utf8", "unknown-system", "removed-meanwhile"])
def test_a_scenario_file_refused_is_named_and_nothing_changes(
    rig: Rig, write: Callable[[Path], None], shown: str,
) -> None:
    rig.chip("Red 1")
    before = rig.events()
    rig.scenarios.mkdir()
    broken = rig.scenarios / "broken.toml"
    broken.write_text(TENIR)
    open_the_list(rig)  # listed while it was sound...
    write(broken)  # ... spoilt (or taken away) before it is picked
    pick(rig, "broken.toml")
    assert rig.screen.kind == "error" and rig.screen.title == "Scenario refused"
    assert rig.screen.lines[0].startswith(shown) and rig.screen.lines[0].endswith("Pick another.")
    assert str(rig.scenarios) not in rig.screen.lines[0]  # the file by its name, on three lines
    assert rig.tunes[-1] == "error"
    assert rig.events() == before and rig.archived == [] and game_files(rig) == [
        "journal.sqlite3"]
    rig.press("select")  # dismissed: the list again, to pick another
    assert rig.screen.title == "New game" and rig.screen.items[-1] == "broken.toml"


def test_a_long_refusal_scrolls_before_it_is_dismissed(rig: Rig) -> None:
    rig.scenarios.mkdir()
    (rig.scenarios / "broken.toml").write_text(
        TENIR.replace("turn_limit = 2", 'turn_limit = "at nightfall on the second day"', 1))
    open_the_list(rig)
    pick(rig, "broken.toml")
    page = rig.screen
    assert page.title == "Scenario refused" and layout(page).scroll_max > 0
    rig.press("down")
    assert rig.screen.title == "Scenario refused" and rig.screen.scroll == 1
    rig.press("back")
    assert rig.screen.title == "New game"


def test_a_game_that_cannot_be_archived_goes_on_where_it_was(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig.chip("Red 1")
    before = rig.events()

    def read_only(source: object, target: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(journal_module.os, "rename", read_only)
    open_the_list(rig)
    pick(rig, "Tenir le Fort")
    rig.press("up")
    assert rig.screen.kind == "error" and rig.screen.title == "Game not started"
    assert "Read-only file system" in rig.screen.lines[0]
    assert rig.screen.lines[0].endswith("The game goes on as it was.")
    monkeypatch.undo()
    use_fake_rules(monkeypatch)
    assert rig.events() == before and game_files(rig) == ["journal.sqlite3"]
    rig.press("select")  # dismissed: the game's own screen, its cursor at the top
    assert rig.screen.title == "Legion" and rig.screen.cursor == 0
    rig.press("select")  # Fire: written to the game's own journal, reopened
    assert rig.events() == [*before, ChoiceMade("fire")]


def test_at_the_end_of_a_game_select_opens_the_list_of_games(rig: Rig) -> None:
    play_to_the_end(rig)
    assert isinstance(rig.box.step, GameOver)
    assert rig.screen.kind == "summary" and rig.screen.footer == "SEL: new game"
    rig.press("down")  # the summary scrolls as before
    rig.press("select")
    assert rig.screen.title == "New game" and rig.screen.items[0] == "Same again"
    rig.press("back")
    assert rig.screen.kind == "summary"
    rig.press("select", long=True)  # the menu has it too, last
    assert [label for _, label in rig.box.ui.menu][-1] == "New game"


def test_device_faults_and_dice_on_the_list_change_nothing_there(rig: Rig) -> None:
    open_the_list(rig)
    rig.box.handle(DeviceFault("camera", "camera stopped delivering frames"))
    assert rig.screen.title == "Camera lost"
    rig.press("select")  # dismisses the fault only
    assert rig.screen.title == "New game" and len(rig.events()) == 1
    pick(rig, "On the Frontier")
    rig.press("up")
    rig.press("select")  # past the new game's screen: its opening roll
    assert rig.screen.footer == "No camera: SEL enter"  # still reported in the new game


# ------------------------------------------------------------------ no game yet


EmptyBox = tuple[Box, GameKeeper, list[Screen]]


@pytest.fixture
def empty_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EmptyBox]:
    """A box started with no game in its journal, as `companion run` starts it; the
    screens it showed."""
    use_fake_rules(monkeypatch)
    keeper = GameKeeper.open(tmp_path / "state" / "journal.sqlite3")
    shown: list[Screen] = []

    def start(toml: str, name: str) -> GameSession:
        session, archived = keeper.start(toml, name)
        assert archived is None
        return session

    box = Box(keeper.session, show=shown.append, play=lambda name: None,
              games=NewGames(lambda: scenario_choices(tmp_path / "scenarios"), start))
    box.start()
    yield box, keeper, shown
    keeper.close()


def test_a_box_with_no_game_offers_the_list_and_starts_the_one_picked_at_once(
    empty_box: EmptyBox,
) -> None:
    box, keeper, shown = empty_box
    assert shown[-1] == Screen("menu", "Start a game", items=tuple(EXAMPLES), footer="SEL start")
    assert not keeper.path.exists()  # nothing written until a game is picked
    box.handle(TagSeen("04A1B2C3D4E5F6", "L1"))
    assert shown[-1].title == "Chip not wanted"
    assert shown[-1].lines == ("No game yet: pick one first.",)
    box.handle(ButtonPressed("select"))  # dismisses the warning
    box.handle(DiceSeen((SeenDie("d6", 4),)))  # dice thrown for fun: nothing
    box.handle(ButtonPressed("back"))  # nothing to go back to
    box.handle(ButtonPressed("select", long=True))  # no menu (no game), and no pick
    assert shown[-1].title == "Start a game" and box.ui.mode == "games"
    assert not keeper.path.exists()
    for _ in range(4):
        box.handle(ButtonPressed("down"))
    box.handle(ButtonPressed("select"))  # On the Frontier: nothing to archive, no question
    assert shown[-1].kind == "start" and shown[-1].lines == (
        "On the Frontier: The Ford at Kotal Drift",)
    assert isinstance(box.step, AwaitRoll)  # the opening roll, as the example has it
    assert [type(e) for e in events_of(keeper.path)] == [GameStarted]


# ------------------------------------------------------------------ secret rolls


def test_a_secret_roll_not_revealed_is_not_corrected_and_its_dice_stay_hidden(
    rig: Rig,
) -> None:
    for chip in ("Red 1", "Blue 1"):
        rig.hold(chip)
    rig.press("select")
    rig.dice(("d6", 1))  # the secret roll: day 5
    before = rig.events()
    screens = len(rig.screens)
    rig.menu_to("Correct dice")
    assert rig.screen.kind == "warning" and rig.screen.title == "Secret roll"
    assert rig.screen.lines == ("Reveal it first, or undo it and roll again.",)
    assert rig.events() == before and rig.box.ui.mode == "normal"
    shown = rig.screens[screens:]
    assert not any(s.kind == "entry" for s in shown)
    assert not any("1" in " ".join((*s.items, s.big)) for s in shown)
    rig.press("select")
    rig.menu_to("Reveal secret")
    rig.press("up")
    rig.press("select")
    rig.menu_to("Correct dice")  # shown already: it may be corrected like any roll
    assert rig.screen.kind == "entry" and rig.screen.items == ("1",)
    rig.press("up")
    rig.press("select")
    assert rig.events()[-2:] == [Undone("correction"), DiceAccepted((2,), "correction")]


def test_undo_of_a_secret_roll_is_still_allowed(rig: Rig) -> None:
    for chip in ("Red 1", "Blue 1"):
        rig.hold(chip)
    rig.press("select")
    rig.dice(("d6", 1))
    rig.menu_to("Undo last")
    assert rig.events()[-1] == Undone("undo") and isinstance(rig.box.step, AwaitRoll)
    assert rig.box.step.request.secret


def test_the_chip_accepted_before_a_new_game_is_in_the_archive_only(rig: Rig) -> None:
    rig.chip("Red 1")
    open_the_list(rig)
    pick(rig, "Tenir le Fort")
    rig.press("up")
    [archived] = rig.archived
    assert archived is not None
    assert [type(e) for e in events_of(archived)] == [GameStarted, ChipAccepted]
    assert os.path.exists(f"{rig.tmp / 'journal.sqlite3'}.lock")  # the box holds it still


def test_a_scenarios_folder_that_cannot_be_listed_leaves_the_examples_and_a_warning(
    rig: Rig, caplog: pytest.LogCaptureFixture,
) -> None:
    rig.scenarios.write_text("a file where the folder should be")
    open_the_list(rig)
    assert rig.screen.items == ("Same again", *EXAMPLES)
    [warning] = [r for r in caplog.records if r.levelname == "WARNING"]
    assert warning.getMessage().startswith(
        f"the scenarios folder {rig.scenarios} cannot be listed (Not a directory)")
