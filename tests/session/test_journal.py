from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from journal_copies import crash_copy, damage_the_middle_of_its_wal

from companion.errors import JournalError
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    GameStarted,
    SecretRevealed,
    Undone,
    decode,
    encode,
)
from companion.session.journal import Journal, salvage, unused_name

EVENTS = [
    GameStarted("tenir_le_fort", 'system = "tenir_le_fort"\n', "example"),
    ChipAccepted("L1", "04A1B2C3D4E5F6"),
    ChoiceMade("fire"),
    DiceAccepted((6, 5, 1), "camera"),
    Undone("correction"),
    DiceAccepted((6, 5, 2), "correction"),
    SecretRevealed(0),
]


def _journal_of_events(path: Path, then: str = "") -> Journal:
    """A journal holding EVENTS, open, with ``then`` (SQL) run on it: the damage."""
    journal = Journal(path)
    for event in EVENTS:
        journal.append(event)
    if then:
        journal.db.execute(then)
    return journal


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_survives_encoding(event: object) -> None:
    assert decode(*encode(event)) == event  # type: ignore[arg-type]


def test_journal_is_wal_with_full_sync(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()


def test_events_come_back_in_order_after_reopening(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    seqs = [journal.append(e) for e in EVENTS]
    journal.close()
    again = Journal(tmp_path / "j.sqlite3")
    entries = again.entries()
    assert [e.seq for e in entries] == seqs
    assert [e.event for e in entries] == EVENTS


@pytest.mark.parametrize(("damage", "message"), [
    ('UPDATE events SET payload = \'{"key": "charge"}\' WHERE seq = 3',
     r"event 3 .* damaged .*companion journal salvage"),
    ("DELETE FROM events WHERE seq = 3",
     r"event 3 of the journal .* is missing .*companion journal salvage"),
], ids=["tampered", "missing"])
def test_a_damaged_or_missing_row_is_named_not_replayed(
    tmp_path: Path, damage: str, message: str
) -> None:
    journal = _journal_of_events(tmp_path / "j.sqlite3", damage)
    with pytest.raises(JournalError, match=message):
        journal.entries()
    journal.close()


def test_salvage_keeps_every_readable_event_and_the_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _journal_of_events(path, "UPDATE events SET crc = crc + 1 WHERE seq = 4").close()
    done = salvage(path)
    assert done.backup.exists()
    assert (done.kept, done.after_gap) == (3, len(EVENTS) - 4)  # replay stops at the gap
    assert [e.event for e in Journal(path).entries()] == EVENTS[:3]


def test_truncated_journal_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for _ in range(200):
        journal.append(ChoiceMade("fire" * 50))
    journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(JournalError, match="salvage"):
        Journal(path).entries()


def test_garbage_file_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match=r"damaged|cannot be read"):
        Journal(path).entries()


def test_salvage_of_truncated_journal_keeps_the_readable_start(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for index in range(300):
        journal.append(ChoiceMade(f"choice-{index}-" + "x" * 60))
    journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    kept = salvage(path).kept
    events = [e.event for e in Journal(path).entries()]
    assert kept == len(events) and 0 < kept < 300
    assert events == [ChoiceMade(f"choice-{i}-" + "x" * 60) for i in range(kept)]


def _with_first_row_damaged(path: Path) -> None:
    _journal_of_events(path, "UPDATE events SET crc = crc + 1 WHERE seq = 1").close()


def test_salvage_without_the_scenario_moves_nothing_and_says_what_to_give(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    _with_first_row_damaged(path)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"first event, which holds the scenario, is lost "
                       r"\(6 later events are readable\).*--system NAME or --scenario FILE"):
        salvage(path)
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]


def test_salvage_given_the_scenario_keeps_the_events_after_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _with_first_row_damaged(path)
    checked: list[list[object]] = []
    done = salvage(path, EVENTS[0], check=checked.append)
    assert (done.kept, done.after_gap) == (len(EVENTS), 0) and done.backup.exists()
    assert checked == [EVENTS]
    assert [e.event for e in Journal(path).entries()] == EVENTS


def test_salvage_refuses_a_scenario_when_its_own_is_readable(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.append(EVENTS[0])
    journal.close()
    with pytest.raises(JournalError, match="still readable"):
        salvage(path, EVENTS[0])


def test_salvage_of_nothing_readable_leaves_the_file_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(JournalError, match=r"no event can be read.*companion new --force"):
        salvage(path)
    assert path.read_bytes() == b"not a database" * 100


def test_a_check_that_refuses_moves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _with_first_row_damaged(path)

    def refuse(events: list[object]) -> None:
        raise JournalError("does not fit the game")

    with pytest.raises(JournalError, match="does not fit"):
        salvage(path, EVENTS[0], check=refuse)
    assert list(tmp_path.iterdir()) == [path]


def test_a_journal_left_by_a_pulled_plug_opens_with_every_event(tmp_path: Path) -> None:
    copy = crash_copy(tmp_path, 200)
    assert Path(f"{copy}-wal").stat().st_size > 100_000
    assert len(Journal(copy).entries()) == 200


def test_an_event_torn_by_the_plug_is_not_damage(tmp_path: Path) -> None:
    copy = crash_copy(tmp_path, 200)
    wal = Path(f"{copy}-wal")
    wal.write_bytes(wal.read_bytes()[:-3000])  # the last write cut short
    assert len(Journal(copy).entries()) == 199


def test_a_wal_damaged_in_the_middle_is_refused_and_salvaged_whole(tmp_path: Path) -> None:
    # SQLite itself would replay the log up to the damage and drop the rest for good.
    copy = crash_copy(tmp_path, 200)
    damaged = damage_the_middle_of_its_wal(copy)
    with pytest.raises(JournalError, match=r"write-ahead log is damaged.*journal salvage"):
        Journal(copy)
    assert Path(f"{copy}-wal").read_bytes() == damaged  # nothing checkpointed away
    assert salvage(copy).kept == 200


def test_salvage_reads_on_when_the_first_page_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for index in range(200):
        journal.append(ChoiceMade(f"choice-{index}-" + "x" * 50))
    journal.close()
    data = bytearray(path.read_bytes())
    data[:4096] = bytes(4096)  # the header and the schema
    path.write_bytes(bytes(data))
    assert salvage(path).kept > 150


def test_a_second_salvage_keeps_the_first_backup(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    backups = []
    for _ in range(2):
        _journal_of_events(path, "UPDATE events SET crc = crc + 1 WHERE seq = 4").close()
        backups.append(salvage(path).backup)
    assert backups[0] != backups[1] and all(b.exists() for b in backups)
    assert unused_name(backups[0]) != backups[0]


def test_a_second_archive_in_the_same_second_is_numbered_before_its_ending(
        tmp_path: Path) -> None:
    taken = tmp_path / "game-20261125-101010.sqlite3"
    taken.touch()
    assert unused_name(taken) == tmp_path / "game-20261125-101010-2.sqlite3"
    (tmp_path / "game-20261125-101010-2.sqlite3-wal").touch()  # a WAL alone takes the name
    assert unused_name(taken) == tmp_path / "game-20261125-101010-3.sqlite3"


def test_a_named_scenario_needs_the_event_after_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _journal_of_events(path, "UPDATE events SET crc = crc + 1 WHERE seq IN (1, 2)").close()
    with pytest.raises(JournalError, match="right after the scenario are lost too"):
        salvage(path, EVENTS[0])
    assert list(tmp_path.iterdir()) == [path]


def test_unknown_event_type_is_named(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append(ChoiceMade("fire"))
    journal.db.execute("UPDATE events SET kind = 'Teleported'")
    import zlib

    row = journal.db.execute("SELECT kind, payload FROM events").fetchone()
    journal.db.execute("UPDATE events SET crc = ?", (zlib.crc32(f"{row[0]}\n{row[1]}".encode()),))
    with pytest.raises(JournalError, match="unknown type 'Teleported'"):
        journal.entries()


def test_sqlite_is_really_used(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append(ChoiceMade("fire"))
    journal.close()
    rows = sqlite3.connect(tmp_path / "j.sqlite3").execute("SELECT kind FROM events").fetchall()
    assert rows == [("ChoiceMade",)]


def test_another_sqlite_file_is_not_taken_for_a_journal(tmp_path: Path) -> None:
    other = tmp_path / "inventory.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE figures (name TEXT)")
    db.close()
    before = other.read_bytes()
    with pytest.raises(JournalError, match=r"not a game journal \(its tables: figures\)"):
        Journal(other)
    assert other.read_bytes() == before


def test_an_empty_file_is_not_made_into_a_journal_by_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.touch()
    with pytest.raises(JournalError, match=r"empty file \(0 bytes\).*left as it is"):
        Journal(path, create=False)
    assert path.read_bytes() == b"" and list(tmp_path.iterdir()) == [path]
    Journal(path).close()  # 'companion new' takes it as it is
    assert path.stat().st_size > 0
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "absent.sqlite3", create=False)
    assert not (tmp_path / "absent.sqlite3").exists()


def test_salvage_keeps_each_event_s_time(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for index, event in enumerate(EVENTS):
        journal.append(event, at=1_700_000_000.0 + 60 * index)
    journal.db.execute("UPDATE events SET crc = crc + 1 WHERE seq = 5")
    journal.close()
    salvage(path)
    kept = Journal(path).entries()
    assert [entry.at for entry in kept] == [1_700_000_000.0 + 60 * i for i in range(4)]
