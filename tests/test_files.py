"""Files written whole or not at all (companion/files.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from companion.files import write_atomically


def test_a_file_written_whole_keeps_its_link_and_mode(tmp_path: Path) -> None:
    real = tmp_path / "etc" / "companion.toml"
    real.parent.mkdir()
    real.write_text("old\n")
    real.chmod(0o600)
    link = tmp_path / "companion.toml"
    link.symlink_to(real)
    write_atomically(link, b"new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert os.listdir(real.parent) == ["companion.toml"]
    fresh = tmp_path / "fresh.txt"
    write_atomically(fresh, b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_a_power_cut_before_the_rename_leaves_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "chips.toml"
    target.write_text("old\n")

    def power_cut(fd: int) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "fsync", power_cut)
    with pytest.raises(OSError, match="power cut"):
        write_atomically(target, b"new\n")
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["chips.toml"]
