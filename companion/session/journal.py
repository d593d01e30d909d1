"""The journal: an append-only SQLite log of accepted events.

WAL with synchronous=FULL: once `append` returns, the event survives a pulled
plug, so the session appends *before* it shows or sounds anything. Each row
carries a CRC32 of its payload so a damaged row is found rather than replayed.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.errors import JournalError
from companion.session.events import Event, decode, encode
from companion.session.salvage import scan_rows, wal_damage

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Entry:
    seq: int
    event: Event
    at: float  # wall-clock seconds, for the referee's record only (never replayed)


def _crc(kind: str, payload: str) -> int:
    return zlib.crc32(f"{kind}\n{payload}".encode())


class Journal:
    """Open the journal at ``path``; ``create=False`` for commands that only read or resume a
    game, so that an empty file is refused as it is rather than made into an empty journal."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.is_file():
            raise JournalError(f"no journal at {path}; start a game with 'companion new'")
        wal = Path(f"{path}-wal")
        problem = wal_damage(wal) if wal.is_file() else None
        if problem is not None:
            # Opening it would let SQLite drop the events past the damage for good.
            raise JournalError(
                f"the journal {path} is damaged ({problem}); run 'companion journal salvage' "
                "to copy every readable event to a fresh journal (the damaged file is kept)")
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
            tables = {row[0] for row in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "events" not in tables:
                self.db.close()
                raise JournalError(
                    f"{path} is an SQLite file but not a game journal (its tables: "
                    f"{', '.join(sorted(tables))}); it was left as it is: name the journal "
                    "file, or another file for a new game")
            if not tables and not create:
                self.db.close()
                what = ("an empty file (0 bytes)" if path.stat().st_size == 0
                        else "an SQLite file without tables")
                raise JournalError(
                    f"{path} is {what}: no game was ever recorded in it, and it was left as "
                    "it is; name the game's journal, or start a game there with "
                    "'companion new'")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS events ("
                " seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL,"
                " crc INTEGER NOT NULL, at REAL NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"the journal {path} is damaged ({exc}); run 'companion journal salvage' "
                "to copy every readable event to a fresh journal (the damaged file is kept)"
            ) from None

    def append(self, event: Event, at: float | None = None) -> int:
        """Store the event durably and return its sequence number. ``at`` (wall-clock
        seconds) is now unless given: salvage keeps each event's original time."""
        kind, payload = encode(event)
        try:
            cursor = self.db.execute(
                "INSERT INTO events (kind, payload, crc, at) VALUES (?, ?, ?, ?)",
                (kind, payload, _crc(kind, payload), time.time() if at is None else at),
            )
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot write to the journal {self.path} ({exc})") from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def entries(self) -> list[Entry]:
        """Every event in order; JournalError at the first damaged one."""
        return list(self._entries(strict=True))

    def _entries(self, strict: bool) -> Iterator[Entry]:
        try:
            rows = self.db.execute(
                "SELECT seq, kind, payload, crc, at FROM events ORDER BY seq"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"the journal {self.path} cannot be read ({exc}); run "
                "'companion journal salvage' to recover what can be read"
            ) from None
        for expected, (seq, kind, payload, crc, at) in enumerate(rows, start=1):
            if strict and seq != expected:
                raise JournalError(
                    f"event {expected} of the journal {self.path} is missing (the next one "
                    f"read is numbered {seq}); run 'companion journal salvage'"
                )
            if _crc(kind, payload) != crc:
                if strict:
                    raise JournalError(
                        f"event {seq} of the journal {self.path} is damaged (checksum); "
                        "run 'companion journal salvage'"
                    )
                continue
            try:
                yield Entry(seq, decode(kind, payload), at)
            except JournalError:
                if strict:
                    raise
                continue

    def is_empty(self) -> bool:
        row = self.db.execute("SELECT COUNT(*) FROM events").fetchone()
        return bool(row[0] == 0)

    def close(self) -> None:
        self.db.close()


def unused_name(path: Path) -> Path:
    """``path``, or ``path`` with -2, -3... before its suffixes if that is taken (with its
    WAL), so a second backup in the same second never replaces the first."""
    candidate, number = path, 1
    while any(Path(f"{candidate}{side}").exists() for side in ("", "-wal", "-shm")):
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def salvage(
    path: Path, first: Event | None = None,
    check: Callable[[list[Event]], object] | None = None,
) -> tuple[Path, int, int]:
    """Copy every readable event of a damaged journal into a fresh one.

    The damaged file is renamed aside (never deleted). Rows are read straight
    from the file's pages, so a journal cut short keeps every event that is
    still on disk. Only the unbroken run from the first event is replayable, so
    that is what the fresh journal gets; events found after a gap stay in the
    kept damaged file. Returns the backup path, events kept, events left out.

    The first event holds the scenario. When it is the one lost, ``first`` (the
    game's scenario, given again by the referee) takes its place; without it
    nothing is moved and the error says how to give it. ``check`` sees the
    events before anything is moved (the caller replays them) and may refuse.
    """
    found: dict[int, Event] = {}
    times: dict[int, float] = {}
    for seq, kind, payload, crc, at in scan_rows(path):
        if _crc(kind, payload) != crc:
            continue
        try:
            found[seq] = decode(kind, payload)
        except JournalError:
            continue
        if at is not None:
            times[seq] = at
    if first is not None:
        if 1 in found:
            raise JournalError(
                f"{path}: its first event (the scenario) is still readable; salvage it "
                "without naming a scenario")
        if 2 not in found:
            raise JournalError(
                f"{path}: the events right after the scenario are lost too, so nothing "
                "would show that this is the game's scenario; start again with "
                "'companion new --force' (which archives this file)")
        found[1] = first
    elif found and 1 not in found:
        raise JournalError(
            f"{path}: its first event, which holds the scenario, is lost ({len(found)} later "
            "events are readable); salvage again naming the scenario the game was started "
            "with: --system NAME or --scenario FILE")
    elif not found:
        raise JournalError(
            f"{path}: no event can be read from it; it is left as it is. Start a new game "
            "with 'companion new --force' (which archives this file)")
    events: list[Event] = []
    while len(events) + 1 in found:
        events.append(found[len(events) + 1])
    if check is not None:
        check(events)
    backup = unused_name(path.with_name(f"{path.name}.damaged-{int(time.time())}"))
    shutil.move(str(path), str(backup))
    for suffix in ("-wal", "-shm"):
        side = Path(str(path) + suffix)
        if side.exists():
            shutil.move(str(side), str(backup) + suffix)
    fresh = Journal(path)
    for seq, event in enumerate(events, start=1):
        fresh.append(event, times.get(seq))
    fresh.close()
    return backup, len(events), len(found) - len(events)
