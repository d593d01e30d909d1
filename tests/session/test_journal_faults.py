"""The journal against the faults of a real box: two processes writing one game, events
that no longer fit the game, a folder or a lone file where the journal should be, and a
read-only card (audit D1, D2, D9, D10, D6)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from journal_copies import journal_keeping_its_wal, pretend_read_only_file_system

from companion.cli import main
from companion.errors import JournalError
from companion.session.events import ChoiceMade, Event, GameStarted, encode
from companion.session.journal import (
    Journal,
    JournalBusy,
    Misfit,
    salvage,
    with_salvage_advice,
)
from companion.session.session import GameSession, replay

EVENTS: list[Event] = [
    GameStarted("tenir_le_fort", 'system = "tenir_le_fort"\n', "example"),
    *(ChoiceMade(f"choice-{n}") for n in range(6)),
]


def _journal(path: Path, events: list[Event] = EVENTS) -> Path:
    journal = Journal(path)
    for event in events:
        journal.append(event)
    journal.close()
    return path


def _played(path: Path, inputs: int = 60) -> list[Event]:
    """A real game of the demo in the journal at ``path``; its events."""
    assert main(["demo", "--max-inputs", str(inputs), "--journal", str(path)]) == 0
    journal = Journal(path, readonly=True)
    try:
        return [entry.event for entry in journal.entries()]
    finally:
        journal.close()


def _make_a_choice_misfit(path: Path, after: int = 5) -> int:
    """Turn the first choice after event ``after`` into one the game does not offer, as a
    second box writing the same journal (or a rules update) leaves it: its number."""
    kind, payload = encode(ChoiceMade("no-such-option"))
    db = sqlite3.connect(path)
    (seq,) = db.execute("SELECT seq FROM events WHERE kind = 'ChoiceMade' AND seq > ? "
                        "ORDER BY seq LIMIT 1", (after,)).fetchone()
    db.execute("UPDATE events SET payload = ?, crc = ? WHERE seq = ?",
               (payload, zlib.crc32(f"{kind}\n{payload}".encode()), seq))
    db.commit()
    db.close()
    return int(seq)


# ------------------------------------------------------------ D1: one writer at a time


def test_a_second_writer_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    first = Journal(path, create=False)
    seconds: list[Callable[[], object]] = [lambda: Journal(path, create=False),
                                          lambda: Journal(path)]
    for second in seconds:
        with pytest.raises(JournalBusy, match=(
                rf"the journal {path} is being written by another box process "
                rf"\(pid {os.getpid()}\).*sudo systemctl stop companion.*companion run")):
            second()
    # Reading is not writing: status and check work while the game runs.
    reader = Journal(path, readonly=True)
    assert [entry.event for entry in reader.entries()] == EVENTS
    reader.close()
    first.append(ChoiceMade("more"))
    first.close()
    assert not Path(f"{path}.lock").exists()  # a clean close leaves nothing behind
    again = Journal(path, create=False)
    assert len(again.entries()) == len(EVENTS) + 1
    again.close()


def test_the_lock_dies_with_the_process_that_held_it(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; "
         "from companion.session.journal import Journal; "
         "j = Journal(Path(sys.argv[1]), create=False); print('open', flush=True); "
         "time.sleep(60)", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(JournalBusy, match=f"pid {holder.pid}"):
            Journal(path, create=False)
    finally:
        holder.send_signal(signal.SIGKILL)  # a pulled plug: no clean close
        holder.wait(timeout=30)
    Journal(path, create=False).close()


def test_a_session_cannot_be_resumed_twice(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    from companion.session.scenario_files import example_scenario_text

    GameSession.new(journal, example_scenario_text("tenir_le_fort"), "example")
    with pytest.raises(JournalBusy, match="only one may write a game at a time"):
        GameSession.resume(Journal(path, create=False))
    journal.close()
    GameSession.resume(Journal(path, create=False)).journal.close()


def test_salvage_is_refused_while_a_box_writes_the_journal(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    writer = Journal(path, create=False)
    with pytest.raises(JournalBusy):
        salvage(path)
    writer.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite3"]


# ------------------------------------------------- D2: events that no longer fit the game


def test_salvage_keeps_the_events_before_one_that_does_not_fit(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    seen: list[list[Event]] = []

    def fourth_does_not_fit(events: list[Event]) -> Misfit:
        seen.append(events)
        return Misfit(4, "ChoiceMade", "'choice-2' is not an option")

    done = salvage(path, check=fourth_does_not_fit)
    assert seen == [EVENTS]
    assert (done.kept, done.after_gap, done.after_misfit) == (3, 0, len(EVENTS) - 4)
    assert done.misfit is not None and str(done.misfit) == (
        "event 4 (ChoiceMade) does not fit the game: 'choice-2' is not an option")
    assert [e.event for e in Journal(path, readonly=True).entries()] == EVENTS[:3]
    kept_aside = sqlite3.connect(done.backup)
    assert kept_aside.execute("SELECT COUNT(*) FROM events").fetchone() == (len(EVENTS),)
    kept_aside.close()


def test_salvage_keeps_nothing_when_the_first_event_does_not_fit(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"first event 1 \(GameStarted\) does not fit.*"
                       r"left as it is.*companion new --force"):
        salvage(path, check=lambda events: Misfit(1, "GameStarted", "no such system"))
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


def test_a_named_scenario_the_events_do_not_fit_moves_nothing(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET crc = crc + 1 WHERE seq = 1")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match=r"do not fit the scenario named.*nothing was moved"):
        salvage(path, EVENTS[0], check=lambda events: Misfit(5, "ChoiceMade", "no"))
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_real_game_that_stops_fitting_is_salvaged_up_to_that_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite3"
    played = _played(path)
    bad = _make_a_choice_misfit(path)
    assert len(played) > bad + 1
    capsys.readouterr()
    assert main(["journal", "check", "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"journal event {bad} (ChoiceMade) does not fit the game" in err
    assert f"run 'companion journal salvage' to keep the {bad - 1} events before it" in err
    assert main(["journal", "salvage", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"kept {bad - 1} events in {path} (events 1 to {bad - 1}, which replay)" in out
    assert "the original file is kept at" in out
    assert (f"left out event {bad} (ChoiceMade) and the {len(played) - bad} events after it: "
            "it does not fit the game (") in out
    assert "'no-such-option' is not an option" in out
    kept = [e.event for e in Journal(path, readonly=True).entries()]
    assert kept == played[: bad - 1]
    replay(kept)
    assert main(["journal", "check", "--journal", str(path)]) == 0


def test_advice_is_added_only_to_a_misfit_after_the_first_event() -> None:
    late = JournalError("j: journal event 25 (ChoiceMade) does not fit the game: no")
    assert str(with_salvage_advice(late)).endswith(
        "run 'companion journal salvage' to keep the 24 events before it in a fresh journal "
        "(the whole file is kept aside)")
    for other in ("j: journal event 1 (GameStarted) does not fit the game: no",
                  "event 3 of the journal j is damaged (checksum); run 'companion journal "
                  "salvage'"):
        assert str(with_salvage_advice(JournalError(other))) == other


# -------------------------------------------- D9: a folder where the journal should be


def test_a_folder_in_place_of_the_journal_is_named_as_one(tmp_path: Path) -> None:
    folder = tmp_path / "journal.sqlite3"
    folder.mkdir()
    openings: list[Callable[[], object]] = [
        lambda: Journal(folder), lambda: Journal(folder, create=False),
        lambda: Journal(folder, readonly=True), lambda: salvage(folder)]
    for opening in openings:
        with pytest.raises(JournalError, match=(
                rf"{folder} is a folder, not a journal file; move it out of the way")):
            opening()
    assert sorted(tmp_path.iterdir()) == [folder]


# --------------------------------------------- D10: the journal file without its -wal


def _copied_without_its_wal(folder: Path, live: Journal | None = None) -> Path:
    """The journal file of a running game copied alone, its -wal left behind."""
    live = live or journal_keeping_its_wal(folder / "live.sqlite3")
    for event in EVENTS:
        live.append(event)
    copy = folder / "copy.sqlite3"
    shutil.copy(live.path, copy)
    live.close()
    return copy


def test_a_journal_copied_without_its_wal_still_holds_the_game(tmp_path: Path) -> None:
    """The audit's case: a copy taken off the card after a pulled plug read as a game at
    its first event, every check saying it was fine. Each event now reaches the main
    file as it is written."""
    copy = _copied_without_its_wal(tmp_path, Journal(tmp_path / "live.sqlite3"))
    assert [e.event for e in Journal(copy, readonly=True).entries()] == list(EVENTS)


def test_a_journal_copied_without_its_wal_says_where_the_game_may_be(tmp_path: Path) -> None:
    copy = _copied_without_its_wal(tmp_path)
    before = copy.read_bytes()
    openings: list[Callable[[], object]] = [
        lambda: Journal(copy, create=False), lambda: Journal(copy, readonly=True),
        lambda: Journal(copy)]  # `companion new` does not write over it either
    for opening in openings:
        with pytest.raises(JournalError, match=(
                r"holds no game, but its write-ahead log copy.sqlite3-wal is (missing|empty):"
                r".*copy its -wal file from beside the original.*companion new --force")):
            opening()
    with pytest.raises(JournalError, match="copy its -wal file"):
        salvage(copy)
    assert copy.read_bytes() == before


def test_an_empty_file_is_still_no_game_and_not_a_missing_wal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.touch()
    with pytest.raises(JournalError, match=r"empty file \(0 bytes\)") as raised:
        Journal(path, create=False)
    assert "-wal" not in str(raised.value)


# ------------------------------------------------------------ D6: a read-only location


def test_a_read_only_folder_is_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    real_access = os.access

    def no_writing_here(target: object, mode: int, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(str(target)) in (tmp_path, path):
            return False
        return real_access(target, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", no_writing_here)
    with pytest.raises(JournalError, match=(
            rf"the journal {path} cannot be written: its folder {tmp_path} is read-only for "
            r"this user; run the box as the user that owns it.*It is not damaged")) as raised:
        Journal(path, create=False)
    assert "damaged (" not in str(raised.value) and "salvage" not in str(raised.value)
    with pytest.raises(JournalError, match="cannot be written"):
        salvage(path)
    reader = Journal(path, readonly=True)  # status and check still read the game
    assert len(reader.entries()) == len(EVENTS)
    reader.close()


def test_a_read_only_file_system_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    pretend_read_only_file_system(monkeypatch)
    with pytest.raises(JournalError, match=(
            rf"cannot be written: {tmp_path} is on a read-only file system; remount it "
            "read-write")):
        Journal(path, create=False)


def test_an_immutable_journal_is_read_only_not_damaged(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.sqlite3")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True,
                      check=False).returncode != 0:
        pytest.skip("chattr +i needs root on a file system that has it")
    try:
        with pytest.raises(JournalError, match=r"j.sqlite3 is read-only \(or immutable\)"):
            Journal(path, create=False)
        reader = Journal(path, readonly=True)
        assert len(reader.entries()) == len(EVENTS)
        reader.close()
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_full_card_says_what_to_do_and_keeps_what_was_recorded(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append(ChoiceMade("first"))
    real = journal.db

    class FullCard:
        def execute(self, *args: object) -> object:
            raise sqlite3.OperationalError("database or disk is full")

        def close(self) -> None:
            real.close()

    journal.db = FullCard()  # type: ignore[assignment]
    with pytest.raises(JournalError, match=(
            r"\(database or disk is full\); free some space on the card \('companion doctor' "
            r"shows how much is left\), then 'companion run' resumes the game: every event "
            r"recorded before is kept")):
        journal.append(ChoiceMade("second"))
    journal.close()
    reader = Journal(tmp_path / "j.sqlite3", readonly=True)
    assert [entry.event for entry in reader.entries()] == [ChoiceMade("first")]
    reader.close()
