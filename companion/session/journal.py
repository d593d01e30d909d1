"""The journal: an append-only SQLite log of accepted events.

WAL with synchronous=FULL: once `append` returns, the event survives a pulled
plug, so the session appends *before* it shows or sounds anything. Each row
carries a CRC32 of its payload so a damaged row is found rather than replayed.

One process writes a journal at a time: a writer holds an exclusive lock on
``<journal>.lock`` beside it for as long as it has the journal open, so the
service and a `companion run` started by hand cannot interleave two games in
one file. Readers (`status`, `journal check`, `doctor`) open it read-only and
take no lock, so they work while a game runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import sqlite3
import time
import weakref
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from companion.errors import JournalError
from companion.files import sync_folder
from companion.session.events import Event, decode, encode
from companion.session.salvage import scan_rows, wal_damage

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
#: How an archived game's file name ends, whatever the journal's own name.
JOURNAL_SUFFIX = ".sqlite3"

#: What to do when a second process wants to write a journal already being written.
STOP_THE_OTHER = (
    "stop the other one first: the service with 'sudo systemctl stop companion', or the "
    "other 'companion run' (Ctrl+C in its terminal); 'companion status' and 'companion "
    "journal check' can read the game meanwhile"
)


@dataclass(frozen=True)
class Entry:
    seq: int
    event: Event
    at: float  # wall-clock seconds, for the referee's record only (never replayed)


def _crc(kind: str, payload: str) -> int:
    return zlib.crc32(f"{kind}\n{payload}".encode())


def folder_error(path: Path) -> JournalError:
    """The error for a folder found where the journal file should be."""
    return JournalError(
        f"{path} is a folder, not a journal file; move it out of the way (for example "
        f"'mv {path} {path}.folder') or name another journal file, then run the command again")


@dataclass(frozen=True)
class Unwritable:
    """Why a journal cannot be written: ``filesystem`` (mounted read-only) or ``permission``
    (a folder or file this user may not write, or an immutable file)."""

    cause: Literal["filesystem", "permission"]
    detail: str

    def error(self, path: Path) -> JournalError:
        if self.cause == "filesystem":
            fix = ("remount it read-write, or copy the journal (with its -wal file) to a "
                   "writable folder and set [box] state_dir to it")
        else:
            fix = ("run the box as the user that owns it (the service runs as 'companion'), "
                   "or make it writable (chmod u+w; chattr -i if it was made immutable)")
        return JournalError(
            f"the journal {path} cannot be written: {self.detail}; {fix}. It is not "
            "damaged: 'companion status' and 'companion journal check' can still read it")


def unwritable(path: Path) -> Unwritable | None:
    """Why the journal at ``path`` (its folder, the file, its -wal and -shm) cannot be
    written by this process, or None."""
    folder = path.parent
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return None  # no folder yet: creating it says what is wrong
    if read_only:
        return Unwritable("filesystem", f"{folder} is on a read-only file system")
    if not os.access(folder, os.W_OK):
        return Unwritable("permission", f"its folder {folder} is read-only for this user")
    for side in ("", "-wal", "-shm"):
        file = Path(f"{path}{side}")
        if file.exists() and not os.access(file, os.W_OK):
            return Unwritable("permission",
                              f"{file} is read-only (or immutable) for this user")
    return None


class JournalBusy(JournalError):
    """Another process is writing the journal: no damage. The display belongs to that
    process, so a refused second one should only print the error, not draw it."""


class WriterLock:
    """A writer's exclusive hold on a journal: ``flock`` on ``<journal>.lock``.

    Non-blocking, so a second writer is refused at once with what to do. The kernel drops
    the lock when the process ends however it ends (a kill, a pulled plug), so a game is
    never left locked; a clean release also removes the file. Hand it to `Journal`
    (``lock=``) to keep the journal locked across a rename, as salvage does."""

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.path = Path(f"{journal}.lock")
        for _ in range(20):
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                pid = f" (pid {holder})" if holder else ""
                raise JournalBusy(
                    f"the journal {journal} is being written by another box process{pid}: "
                    f"only one may write a game at a time; {STOP_THE_OTHER}") from None
            except OSError as exc:
                os.close(fd)
                raise JournalError(
                    f"cannot lock the journal {journal} ({exc.strerror or exc}); keep it on "
                    "the box's own SD card or disk") from None
            # The last holder removes the file as it lets go: a lock taken on the removed
            # file would guard nothing, so take the one on the file now there.
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            if current is not None and os.path.samestat(os.fstat(fd), current):
                break
            os.close(fd)
        else:  # pragma: no cover - another process creating and removing it all along
            raise JournalBusy(f"cannot lock the journal {journal}; {STOP_THE_OTHER}")
        self._close = weakref.finalize(self, os.close, fd)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())

    def _open(self) -> int:
        flags = os.O_CLOEXEC
        try:
            return os.open(self.path, flags | os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:
            if not self.path.exists():
                raise
        # The service's lock file, seen by another user: reading is enough to lock it.
        return os.open(self.path, flags | os.O_RDONLY)

    @property
    def held(self) -> bool:
        return bool(self._close.alive)

    def release(self) -> None:
        """Let go (again is harmless). The file goes first, while it is still locked."""
        if self._close.alive:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            self._close()


def _holder(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(os.pread(fd, 32, 0).decode().strip())
    return None


def writer_lock(path: Path) -> WriterLock:
    """Lock the journal at ``path`` for writing: JournalError when it is a folder, cannot be
    written, or another process writes it."""
    if path.is_dir():
        raise folder_error(path)
    why = unwritable(path)
    if why is not None:
        raise why.error(path)
    try:
        return WriterLock(path)
    except OSError as exc:
        why = unwritable(path)
        if why is not None:
            raise why.error(path) from None
        raise JournalError(f"cannot lock the journal {path} ({exc.strerror or exc}); check "
                           "that its folder can be written") from None


_WAL_HEADER = re.compile(rb"\ASQLite format 3\x00.{2}\x02\x02", re.DOTALL)


def _without_its_wal(path: Path, wal_size: int | None) -> str | None:
    """For an SQLite file without tables: why its game may be in a -wal file not beside it.

    A game's events reach the file from ``<journal>-wal`` when checkpointed: each event
    now, but only at a clean close in journals written before, and never while a reader
    held an old snapshot. A file in WAL mode that holds no table was most likely copied
    alone."""
    if wal_size is not None and wal_size >= 32:
        return None
    with contextlib.suppress(OSError), path.open("rb") as file:
        if _WAL_HEADER.match(file.read(20)):
            state = "missing" if wal_size is None else "empty"
            return (f"{path} holds no game, but its write-ahead log {path.name}-wal is "
                    f"{state}: while a game runs, every event is in that file. If this "
                    "journal was copied (off the SD card, say), copy its -wal file from "
                    "beside the original too and run the command again; only if it really "
                    "holds no game, start one with 'companion new --force' (which archives "
                    "this file)")
    return None


def lost_wal(path: Path) -> str | None:
    """For a journal file holding no table: why its game may be in a -wal file that is not
    beside it (see `Journal`), or None. Ask before opening it: opening makes an empty one."""
    wal = Path(f"{path}-wal")
    lost = _without_its_wal(path, wal.stat().st_size if wal.is_file() else None)
    if lost is None:
        return None
    try:  # immutable: reads the file alone, and writes nothing beside it
        with contextlib.closing(sqlite3.connect(
                f"{path.resolve().as_uri()}?immutable=1", uri=True)) as db:
            tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError:
        return None  # damaged: salvage's business
    return lost if tables == 0 else None


class Journal:
    """Open the journal at ``path``; ``create=False`` for commands that only read or resume a
    game, so that an empty file is refused as it is rather than made into an empty journal.

    A writer (the default) locks the journal (see `WriterLock`) until `close`; ``lock`` hands
    it a lock already taken, which it then owns. ``readonly=True`` is for commands that
    only look (status, check, doctor): no lock, no change to the file, and it works on a
    read-only card or while a game runs."""

    #: WAL pages written before SQLite copies them into the main file. One: each event
    #: reaches the main file as it is written, not only when the box closes cleanly, so
    #: a journal file copied without its -wal (off the card after a pulled plug) still
    #: holds the game rather than its first events. A few milliseconds an event.
    checkpoint_pages = 1

    def __init__(self, path: Path, *, create: bool = True, readonly: bool = False,
                 lock: WriterLock | None = None) -> None:
        self.path = path
        self.readonly = readonly
        self._lock = lock
        try:
            if path.is_dir():
                raise folder_error(path)
            if readonly or not create:
                if not path.is_file():
                    raise JournalError(f"no journal at {path}; start a game with 'companion new'")
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
            if not readonly and self._lock is None:
                self._lock = writer_lock(path)
            self.db = self._open(create and not readonly)
        except BaseException:
            if self._lock is not None:
                self._lock.release()
            raise

    def _connect(self) -> sqlite3.Connection:
        path = self.path
        why = unwritable(path) if self.readonly else None
        if why is None:
            db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
            if self.readonly:
                # Not mode=ro: a reader that closes last must still tidy the -wal away.
                db.execute("PRAGMA query_only=ON")
            return db
        uri = path.resolve().as_uri()
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=5.0)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            pass
        # A read-only card: SQLite cannot make the -shm file it reads a WAL journal with.
        wal = Path(f"{path}-wal")
        if wal.is_file() and wal.stat().st_size >= 32:
            raise JournalError(
                f"the journal {path} cannot be read where it is: {why.detail}, and SQLite "
                f"needs to write beside it to read its write-ahead log {wal.name}; copy the "
                "journal with its -wal file to a writable folder and name that copy")
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)

    def _open(self, create: bool) -> sqlite3.Connection:
        path = self.path
        wal = Path(f"{path}-wal")
        wal_size = wal.stat().st_size if wal.is_file() else None
        problem = wal_damage(wal) if wal_size is not None else None
        if problem is not None:
            # Opening it would let SQLite drop the events past the damage for good.
            raise JournalError(
                f"the journal {path} is damaged ({problem}); run 'companion journal salvage' "
                "to copy every readable event to a fresh journal (the damaged file is kept)")
        db: sqlite3.Connection | None = None
        try:
            db = self._connect()
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "events" not in tables:
                raise JournalError(
                    f"{path} is an SQLite file but not a game journal (its tables: "
                    f"{', '.join(sorted(tables))}); it was left as it is: name the journal "
                    "file, or another file for a new game")
            if not tables:
                lost = _without_its_wal(path, wal_size)
                if lost is not None:
                    raise JournalError(lost)
                if not create:
                    what = ("an empty file (0 bytes)" if path.stat().st_size == 0
                            else "an SQLite file without tables")
                    raise JournalError(
                        f"{path} is {what}: no game was ever recorded in it, and it was left "
                        "as it is; name the game's journal, or start a game there with "
                        "'companion new'")
            if not self.readonly:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute(f"PRAGMA wal_autocheckpoint={int(self.checkpoint_pages)}")
                db.execute(
                    "CREATE TABLE IF NOT EXISTS events ("
                    " seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL,"
                    " crc INTEGER NOT NULL, at REAL NOT NULL)"
                )
                db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
                db.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),))
            return db
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            why = unwritable(path)
            if why is not None and not self.readonly:
                raise why.error(path) from None
            raise JournalError(
                f"the journal {path} is damaged ({exc}); run 'companion journal salvage' "
                "to copy every readable event to a fresh journal (the damaged file is kept)"
            ) from None
        except BaseException:
            if db is not None:
                db.close()
            raise

    def append(self, event: Event, at: float | None = None) -> int:
        """Store the event durably and return its sequence number. ``at`` (wall-clock
        seconds) is now unless given: salvage keeps each event's original time."""
        if self.readonly:
            raise JournalError(f"the journal {self.path} was opened read-only")
        kind, payload = encode(event)
        try:
            cursor = self.db.execute(
                "INSERT INTO events (kind, payload, crc, at) VALUES (?, ?, ?, ?)",
                (kind, payload, _crc(kind, payload), time.time() if at is None else at),
            )
        except sqlite3.DatabaseError as exc:
            full = "full" in str(exc)
            advice = ("free some space on the card ('companion doctor' shows how much is "
                      "left)" if full else "check the card ('companion doctor')")
            raise JournalError(
                f"cannot write to the journal {self.path} ({exc}); {advice}, then "
                "'companion run' resumes the game: every event recorded before is kept"
            ) from None
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
        if self._lock is not None:
            self._lock.release()

    def close_keeping_lock(self) -> WriterLock:
        """Close the file but go on holding its writer lock, which the caller then owns:
        to move the file aside (`archive_journal`) with no other process writing it in
        between. Closing the last connection copies SQLite's log into the file."""
        if self._lock is None:
            raise JournalError(f"the journal {self.path} was opened without a writer lock")
        lock, self._lock = self._lock, None
        self.db.close()
        return lock


_MISFIT = re.compile(r"journal event (\d+) \(\w+\) does not fit the game")


def misfit_event(error: JournalError) -> int | None:
    """The number of the event that does not fit the game, when that is what ``error`` (from
    replaying a journal) is about: two boxes wrote one journal, or the rules changed."""
    found = _MISFIT.search(str(error))
    return int(found.group(1)) if found else None


def with_salvage_advice(error: JournalError) -> JournalError:
    """``error``, saying what to do when it is about an event that does not fit the game:
    salvage keeps the events before it."""
    text = str(error)
    number = misfit_event(error)
    if number is None or number < 2 or "salvage" in text:
        return error
    return JournalError(
        f"{text}; run 'companion journal salvage' to keep the {number - 1} events before it "
        "in a fresh journal (the whole file is kept aside)")


def unused_name(path: Path) -> Path:
    """``path``, or with -2, -3... added if that is taken (with its WAL), so a second
    backup in the same second never replaces the first. The number goes before a
    ``.sqlite3`` ending, so that an archived game still looks like a journal."""
    head, tail = path.name, ""
    if path.suffix == JOURNAL_SUFFIX:
        head, tail = path.stem, path.suffix
    candidate, number = path, 1
    while any(Path(f"{candidate}{side}").exists() for side in ("", "-wal", "-shm")):
        number += 1
        candidate = path.with_name(f"{head}-{number}{tail}")
    return candidate


def _copy_synced(source: Path, target: Path) -> None:
    """Copy a file to a new name, on the card before this returns."""
    with source.open("rb") as reading, target.open("xb") as writing:  # never over a file
        shutil.copyfileobj(reading, writing)
        writing.flush()
        os.fsync(writing.fileno())


def archive_journal(path: Path, lock: WriterLock) -> Path | None:
    """Move the game at ``path`` aside, to ``<stem>-YYYYmmdd-HHMMSS.sqlite3`` beside it with
    its write-ahead log, so that a new game can start at ``path``; its new path, or None
    when there is no file at ``path``. The caller holds the writer lock (no box writes the
    game meanwhile) and has no connection open on it. JournalError, with nothing moved,
    when it cannot be moved.

    A power cut at any moment leaves the whole game in one place, at ``path`` or in the
    archive, never split between them:

    1. the -wal (events a crashed box left out of the main file) is copied to the
       archive's name and synced: the game is still whole at ``path``;
    2. the main file is renamed to the archive's name, one atomic step: from then on the
       archive holds the whole game;
    3. the -wal and -shm left at ``path`` are removed (SQLite itself drops a -wal it
       finds beside a missing or empty file, so one left by a cut here is harmless).

    Moving the -wal instead of copying it would split the game whichever went first:
    the main file without its last events at ``path``, or in the archive."""
    if not lock.held or lock.journal != path:
        raise JournalError(f"the journal {path} must be locked before it is archived")
    if path.is_dir():
        raise folder_error(path)
    if not path.exists():
        return None
    archived = unused_name(path.with_name(f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
                                          f"{JOURNAL_SUFFIX}"))
    wal, wal_kept = Path(f"{path}-wal"), Path(f"{archived}-wal")
    copied = False
    try:
        if wal.is_file() and wal.stat().st_size > 0:
            _copy_synced(wal, wal_kept)
            copied = True
            sync_folder(path.parent)  # the copy's name before the rename that needs it
        os.rename(path, archived)
    except OSError as exc:
        if copied:
            with contextlib.suppress(OSError):
                wal_kept.unlink()
        raise JournalError(
            f"cannot archive the game at {path} ({exc.strerror or exc}); nothing was moved: "
            "check that its folder can be written and the card has room ('companion "
            "doctor')") from None
    try:  # the game is archived whatever happens here: nothing to report as a failure
        for side in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{path}{side}").unlink()
        sync_folder(path.parent)
    except OSError:
        log.warning("archived the game at %s to %s, but could not tidy up after it",
                    path, archived, exc_info=True)
    return archived


@dataclass(frozen=True)
class Misfit:
    """The first event that does not fit the game the events before it make."""

    event: int  # its number, from 1
    kind: str  # its type, e.g. "ChoiceMade"
    reason: str  # what the rules said

    def __str__(self) -> str:
        return f"event {self.event} ({self.kind}) does not fit the game: {self.reason}"


@dataclass(frozen=True)
class Salvaged:
    """What `salvage` did."""

    backup: Path  # where the original file now is
    kept: int  # events in the fresh journal (1..kept)
    after_gap: int  # readable events after a lost one: they cannot be replayed
    misfit: Misfit | None = None  # the first event left out for not fitting the game
    after_misfit: int = 0  # events after it, left out with it


def salvage(
    path: Path, first: Event | None = None,
    check: Callable[[list[Event]], Misfit | None] | None = None,
) -> Salvaged:
    """Copy every readable event of a damaged journal into a fresh one.

    The damaged file is renamed aside (never deleted). Rows are read straight
    from the file's pages, so a journal cut short keeps every event that is
    still on disk. Only the unbroken run from the first event is replayable, so
    that is what the fresh journal gets; events found after a gap stay in the
    kept damaged file.

    The first event holds the scenario. When it is the one lost, ``first`` (the
    game's scenario, given again by the referee) takes its place; without it
    nothing is moved and the error says how to give it. ``check`` sees the
    events before anything is moved (the caller replays them): it may refuse
    (raise), or name the first event that does not fit the game, and then only
    the events before that one are kept (unless the scenario was given: then
    it is most likely the wrong one, and nothing is moved). The journal stays
    locked throughout, so a box cannot write it while it is moved.
    """
    lock = writer_lock(path)
    try:
        return _salvage(path, lock, first, check)
    finally:
        lock.release()


def _salvage(
    path: Path, lock: WriterLock, first: Event | None,
    check: Callable[[list[Event]], Misfit | None] | None,
) -> Salvaged:
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
        lost = lost_wal(path)
        if lost is not None:
            raise JournalError(lost)
        raise JournalError(
            f"{path}: no event can be read from it; it is left as it is. Start a new game "
            "with 'companion new --force' (which archives this file)")
    events: list[Event] = []
    while len(events) + 1 in found:
        events.append(found[len(events) + 1])
    misfit = check(events) if check is not None else None
    kept = events
    if misfit is not None:
        if misfit.event <= 1:
            raise JournalError(
                f"{path}: its first {misfit}, so no event can be kept; it is left as it "
                "is. Start a new game with 'companion new --force' (which archives this "
                "file)")
        if first is not None:  # most likely not the scenario the game was started with
            raise JournalError(
                f"{path}: the events do not fit the scenario named ({misfit}); nothing was "
                "moved: name the scenario the game was started with")
        kept = events[: misfit.event - 1]
    backup = unused_name(path.with_name(f"{path.name}.damaged-{int(time.time())}"))
    shutil.move(str(path), str(backup))
    for suffix in ("-wal", "-shm"):
        side = Path(str(path) + suffix)
        if side.exists():
            shutil.move(str(side), str(backup) + suffix)
    fresh = Journal(path, lock=lock)
    for seq, event in enumerate(kept, start=1):
        fresh.append(event, times.get(seq))
    fresh.close()
    return Salvaged(backup, len(kept), len(found) - len(events), misfit,
                    len(events) - len(kept) - 1 if misfit is not None else 0)
