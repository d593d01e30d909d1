"""Journals as a pulled plug or a failing SD card leave them (shared by the journal and
doctor tests)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.session.events import ChoiceMade
from companion.session.journal import Journal


def journal_keeping_its_wal(path: Path) -> Journal:
    """A journal whose events stay in its WAL (tables included), as in one written before
    each event was checkpointed, or while a reader holds an old snapshot."""
    saved = Journal.checkpoint_pages
    Journal.checkpoint_pages = 0
    try:
        return Journal(path)
    finally:
        Journal.checkpoint_pages = saved


def crash_copy(folder: Path, events: int) -> Path:
    """A journal copied while the box was writing it: its last events still in the WAL."""
    live = journal_keeping_its_wal(folder / "live.sqlite3")
    for index in range(events):
        live.append(ChoiceMade(f"choice-{index}-" + "x" * 50))
    copy = folder / "copy.sqlite3"
    for suffix in ("", "-wal"):
        shutil.copy(f"{live.path}{suffix}", f"{copy}{suffix}")
    live.close()
    return copy


def damage_the_middle_of_its_wal(journal: Path) -> bytes:
    """Zero 5,000 bytes a third of the way into the journal's WAL; the damaged bytes."""
    wal = Path(f"{journal}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) // 3 : len(data) // 3 + 5000] = bytes(5000)
    wal.write_bytes(bytes(data))
    return bytes(data)


def pretend_read_only_file_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every folder reports itself mounted read-only (as a card remounted so after errors)."""
    real_statvfs = os.statvfs

    class ReadOnly:
        def __init__(self, real: os.statvfs_result) -> None:
            self.f_flag = real.f_flag | os.ST_RDONLY

    def statvfs(path: Any) -> ReadOnly:
        return ReadOnly(real_statvfs(path))

    monkeypatch.setattr(os, "statvfs", statvfs)
