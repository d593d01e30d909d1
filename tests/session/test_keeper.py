"""The game a running box keeps: archiving it for a new game (`archive_journal`, shared
with `companion new --force`), with no moment at which a power cut leaves the game
split, lost, or replaced by an empty one; and a box started with no game."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from journal_copies import crash_copy, damage_the_middle_of_its_wal, journal_keeping_its_wal

from companion.errors import JournalError
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll
from companion.session import journal as journal_module
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    Event,
    GameStarted,
)
from companion.session.journal import Journal, archive_journal, writer_lock
from companion.session.keeper import GameKeeper, NewGameRefused
from companion.session.scenario_files import example_scenario_text
from companion.session.session import GameSession

FRONTIER = example_scenario_text("on_the_frontier")
FORTBOARD = example_scenario_text("fortboard")


def events_at(path: Path) -> list[Event] | None:
    """The events of the journal at ``path`` as a reader sees them, None if no file."""
    if not path.exists():
        return None
    journal = Journal(path, readonly=True)
    try:
        return [entry.event for entry in journal.entries()]
    finally:
        journal.close()


def archives(folder: Path) -> list[Path]:
    """The archived games in the folder (a second one in the same second ends "-2")."""
    return sorted(p for p in folder.glob("journal-*.sqlite3*")
                  if not p.name.endswith(("-wal", "-shm")))


def test_an_archive_keeps_the_events_a_crashed_box_left_in_the_wal(tmp_path: Path) -> None:
    copy = crash_copy(tmp_path, 200)  # as a pulled plug leaves it: the events in the WAL
    game = tmp_path / "journal.sqlite3"
    for side in ("", "-wal"):
        os.rename(f"{copy}{side}", f"{game}{side}")
    assert Path(f"{game}-wal").stat().st_size > 100_000
    lock = writer_lock(game)
    try:
        archived = archive_journal(game, lock)
    finally:
        lock.release()
    assert archived is not None and archived.name.startswith("journal-")
    assert not game.exists() and not Path(f"{game}-wal").exists()
    assert not Path(f"{game}-shm").exists()
    assert len(events_at(archived) or []) == 200


def test_a_damaged_journal_is_archived_as_it_is_for_salvage(tmp_path: Path) -> None:
    game = crash_copy(tmp_path, 200).rename(tmp_path / "journal.sqlite3")
    os.rename(tmp_path / "copy.sqlite3-wal", f"{game}-wal")
    damaged = damage_the_middle_of_its_wal(game)
    lock = writer_lock(game)
    try:
        archived = archive_journal(game, lock)
    finally:
        lock.release()
    assert archived is not None and Path(f"{archived}-wal").read_bytes() == damaged


def test_archiving_needs_the_writer_lock_and_leaves_no_game_alone(tmp_path: Path) -> None:
    game = tmp_path / "journal.sqlite3"
    Journal(game).close()
    other = writer_lock(tmp_path / "other.sqlite3")
    try:
        with pytest.raises(JournalError, match="must be locked before it is archived"):
            archive_journal(game, other)
    finally:
        other.release()
    assert game.exists()
    lock = writer_lock(tmp_path / "none.sqlite3")
    try:
        assert archive_journal(tmp_path / "none.sqlite3", lock) is None
    finally:
        lock.release()


def test_two_archives_in_one_second_keep_both(tmp_path: Path) -> None:
    keeper = GameKeeper.open(tmp_path / "journal.sqlite3")
    try:
        keeper.start(FRONTIER, "first")
        archived = [keeper.start(FRONTIER, name)[1] for name in ("second", "third")]
    finally:
        keeper.close()
    assert len(set(archived)) == 2 and sorted(archived) == archives(tmp_path)  # type: ignore[type-var]
    firsts = [(events_at(path) or [None])[0] for path in archives(tmp_path)]
    assert sorted(e.scenario_name for e in firsts if isinstance(e, GameStarted)) == [
        "first", "second"]


@pytest.fixture
def keeper(tmp_path: Path) -> Iterator[GameKeeper]:
    made = GameKeeper.open(tmp_path / "state" / "journal.sqlite3")
    yield made
    made.close()


def test_a_box_with_no_game_holds_the_journal_s_place_and_writes_nothing(
    keeper: GameKeeper, tmp_path: Path,
) -> None:
    assert keeper.session is None
    assert sorted(p.name for p in keeper.path.parent.iterdir()) == ["journal.sqlite3.lock"]
    with pytest.raises(JournalError, match="being written by another box process"):
        GameKeeper.open(keeper.path)  # a `companion new` typed meanwhile is refused too
    session, archived = keeper.start(FRONTIER, "example on_the_frontier")
    assert archived is None and session.record.events == 1
    assert events_at(keeper.path) == [
        GameStarted("on_the_frontier", FRONTIER, "example on_the_frontier")]


def test_a_refused_scenario_changes_nothing(keeper: GameKeeper) -> None:
    session, _ = keeper.start(FORTBOARD, "fortboard")
    play(session, 3)
    before = events_at(keeper.path)
    with pytest.raises(NewGameRefused, match=r"mine\.toml: needs system"):
        keeper.start('title = "no system"\n', "mine.toml")
    assert keeper.session is session and events_at(keeper.path) == before
    assert archives(keeper.path.parent) == []


def test_a_game_that_cannot_be_moved_goes_on_in_its_own_file(
    keeper: GameKeeper, monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, _ = keeper.start(FORTBOARD, "fortboard")
    play(session, 3)

    def refused(source: Any, target: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(journal_module.os, "rename", refused)
    with pytest.raises(NewGameRefused, match=r"Permission denied.*nothing was moved"):
        keeper.start(FORTBOARD, "fortboard")
    monkeypatch.undo()
    assert keeper.session is session and archives(keeper.path.parent) == []
    with pytest.raises(JournalError, match="being written by another box process"):
        writer_lock(keeper.path)  # still locked: the same box goes on writing it
    play(session, 1)  # the game goes on, written to its own journal, reopened
    assert len(events_at(keeper.path) or []) == session.record.events == 5


def test_a_journal_whose_scenario_never_reached_it_is_no_game(tmp_path: Path) -> None:
    """The power went between the new journal's making and its first event."""
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    keeper = GameKeeper.open(path)
    try:
        assert keeper.session is None
        session, archived = keeper.start(FORTBOARD, "fortboard")
        assert archived is None and session.record.events == 1
    finally:
        keeper.close()
    assert archives(tmp_path) == [] and len(events_at(path) or []) == 1


def play(session: GameSession, steps: int) -> None:
    """Answer the game's next steps with the first chip, choice or faces on offer."""
    for _ in range(steps):
        step = session.step
        if isinstance(step, AwaitChip):
            session.submit(ChipAccepted(step.in_bag[0]))
        elif isinstance(step, AwaitChoice):
            session.submit(ChoiceMade(step.options[0].key))
        elif isinstance(step, AwaitRoll):
            session.submit(DiceAccepted(tuple(k.faces[0] for k in step.request.kinds)))


def crashed_game(folder: Path, steps: int) -> tuple[Path, list[Event]]:
    """The journal of a box that was playing a game when the plug was pulled, its last
    events in the WAL only (as the files were at that moment); and its events. (Reading
    them from the copy would fold its WAL into it: a reader closing last does that.)"""
    live = journal_keeping_its_wal(folder / "live.sqlite3")
    play(GameSession.new(live, FORTBOARD, "fortboard"), steps)
    game = folder / "state" / "journal.sqlite3"
    game.parent.mkdir()
    for side in ("", "-wal"):
        shutil.copy(f"{live.path}{side}", f"{game}{side}")
    events = [entry.event for entry in live.entries()]
    live.close()
    return game, events


class PowerCut(BaseException):
    """The power going: nothing after it runs, no clean-up (`except OSError` included)."""


def cut_at(step: int, monkeypatch: pytest.MonkeyPatch, *,
           append: bool = False) -> list[str]:
    """Cut the power as a new game is about to take its ``step``-th step touching the
    card; the steps taken before it. `append`: writing the new game's first event is a
    step too."""
    taken: list[str] = []

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            if len(taken) == step:
                raise PowerCut(name)
            taken.append(name)
            return real(*args, **kwargs)
        return run

    for name in ("_copy_synced", "sync_folder"):
        monkeypatch.setattr(journal_module, name, counted(name, getattr(journal_module, name)))
    monkeypatch.setattr(journal_module.os, "rename", counted("rename", os.rename))
    monkeypatch.setattr(Path, "unlink", counted("unlink", Path.unlink))
    if append:
        monkeypatch.setattr(Journal, "append", counted("append", Journal.append))
    return taken


def assert_whole_somewhere(path: Path, events: list[Event], taken: list[str]) -> None:
    """The game is whole at ``path`` or in its one archive, never split or lost."""
    here = events_at(path)
    kept = [events_at(archive) for archive in archives(path.parent)]
    assert here == events or kept == [events], (taken, here, kept)


def assert_a_box_started_again_carries_on(path: Path, events: list[Event]) -> None:
    """Restarted, the box resumes the game where it is, whole; or, the game archived, it
    offers the list of games and a new one starts in an empty journal."""
    box = GameKeeper.open(path)
    try:
        if box.session is not None:
            assert box.session.record.events == len(events)
            return
        session, archived = box.start(FRONTIER, "after the cut")
        assert archived is None and session.record.events == 1
    finally:
        box.close()
    assert events_at(path) == [GameStarted("on_the_frontier", FRONTIER, "after the cut")]
    assert [events_at(archive) for archive in archives(path.parent)] == [events]


#: `companion new --force` on a crashed box's journal: copy the -wal, sync the folder,
#: rename, remove the -wal and the -shm, sync the folder.
FORCE_STEPS = 6


@pytest.mark.parametrize("step", range(FORCE_STEPS + 1))
def test_a_power_cut_while_a_crashed_game_is_archived_never_splits_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: int,
) -> None:
    path, events = crashed_game(tmp_path, 30)
    assert Path(f"{path}-wal").stat().st_size > 50_000 and len(events) == 31
    lock = writer_lock(path)
    taken = cut_at(step, monkeypatch)
    try:
        archive_journal(path, lock)
    except PowerCut:
        pass
    finally:
        monkeypatch.undo()
        lock.release()
    assert len(taken) == min(step, FORCE_STEPS)
    assert_whole_somewhere(path, events, taken)
    assert_a_box_started_again_carries_on(path, events)


#: A new game from the box's menu: the journal closed (SQLite folds its -wal into it),
#: rename, remove the -wal and the -shm, sync the folder, the new game's first event.
BOX_STEPS = 5


@pytest.mark.parametrize("step", range(BOX_STEPS + 1))
def test_a_power_cut_while_the_box_starts_a_new_game_never_loses_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: int,
) -> None:
    path = tmp_path / "state" / "journal.sqlite3"
    keeper = GameKeeper.open(path)
    session, _ = keeper.start(FORTBOARD, "fortboard")
    play(session, 30)
    events = events_at(path)
    assert events is not None and len(events) == 31
    taken = cut_at(step, monkeypatch, append=True)
    try:
        keeper.start(FRONTIER, "the next game")
    except PowerCut:
        pass
    finally:
        monkeypatch.undo()
        keeper.close()  # the process dies: its lock goes with it
    assert len(taken) == min(step, BOX_STEPS)
    assert_whole_somewhere(path, events, taken)
    if step == BOX_STEPS:  # not cut: the new game is there, from its first event
        assert events_at(path) == [GameStarted("on_the_frontier", FRONTIER, "the next game")]
        return
    assert_a_box_started_again_carries_on(path, events)
