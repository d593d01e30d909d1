"""The game a running box keeps: its journal, locked from start to stop, and the game in it.

`companion run` resumes the game in the journal; with none there yet, the box offers a
list of games and starts the one picked. Later a referee may start a new game from the
box's menu: the game so far is archived beside the journal (`archive_journal`, as
`companion new --force` does) and the new one starts in a fresh journal at the same
place. The writer lock is held throughout, a box with no game included, so that no
other process starts or moves a game under it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from companion.errors import CompanionError, JournalError
from companion.session.journal import Journal, WriterLock, archive_journal, writer_lock
from companion.session.scenario_files import ScenarioFileError, parse_scenario
from companion.session.session import GameSession

log = logging.getLogger(__name__)


class NewGameRefused(CompanionError):
    """A new game that was not started, with nothing changed: the game before it, if
    any, goes on where it was."""


class GameKeeper:
    """The journal at ``path`` as the box holds it: a game (`session`), or the place for
    one (`session` None: no file yet, or a journal whose first event, the scenario, was
    never written because the power went as the game was being started)."""

    def __init__(self, path: Path, journal: Journal | None, lock: WriterLock | None,
                 session: GameSession | None) -> None:
        self.path = path
        self._journal = journal
        self._lock = lock  # held while there is no journal file to hold it
        self._session = session

    @classmethod
    def open(cls, path: Path) -> GameKeeper:
        """Resume the game at ``path``, or hold its place when there is none yet.

        JournalError, leaving every file as it is, when the journal cannot be used: it
        is damaged, another process writes it, a folder is in the way. A damaged game is
        never taken for no game."""
        if not path.exists() and not path.is_symlink():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(
                    f"cannot make the folder {path.parent} for the game's journal "
                    f"({exc.strerror or exc}); make it, or set [box] state_dir to a folder "
                    "that can be written") from None
            return cls(path, None, writer_lock(path), None)
        journal = Journal(path, create=False)
        try:
            session = None if journal.is_empty() else GameSession.resume(journal)
        except BaseException:
            journal.close()
            raise
        return cls(path, journal, None, session)

    @property
    def session(self) -> GameSession | None:
        return self._session

    def start(self, scenario_toml: str, scenario_name: str) -> tuple[GameSession, Path | None]:
        """Start a game of the scenario; the new session, and where the game before it
        was archived (None when there was none).

        NewGameRefused when nothing changed: the scenario is refused, or the game so far
        cannot be moved (it goes on as it was). Any other error comes after the game so
        far was archived, whole: a box started again offers the list of games."""
        try:  # refused here, before the game so far is moved, not by GameSession.new after
            parse_scenario(scenario_toml, scenario_name or "scenario")
        except ScenarioFileError as exc:
            raise NewGameRefused(str(exc)) from None
        archived = self._archive() if self._session is not None else None
        if self._journal is None:
            lock, self._lock = self._lock, None
            self._journal = Journal(self.path, lock=lock)
        self._session = GameSession.new(self._journal, scenario_toml, scenario_name)
        return self._session, archived

    def _archive(self) -> Path | None:
        assert self._journal is not None and self._session is not None
        lock = self._journal.close_keeping_lock()
        try:
            archived = archive_journal(self.path, lock)
        except JournalError as exc:
            # Nothing was moved: the game goes on in the same file, under the same lock.
            self._journal = None
            self._journal = Journal(self.path, create=False, lock=lock)
            self._session.journal = self._journal
            raise NewGameRefused(str(exc)) from None
        log.info("archived the game at %s to %s", self.path, archived)
        self._journal, self._session, self._lock = None, None, lock
        return archived

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None
