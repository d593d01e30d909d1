"""Writing the files the box keeps (the chip registry, taught logo faces, the config the
dice calibration writes) so that a power cut mid-write leaves the old file or the new one,
never half of one."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: a temporary file in the same folder, fsync, os.replace,
    then fsync of the folder (where the filesystem allows it).

    A file that is replaced keeps its permission bits (and its owner, where this process
    may set it: a config edited with sudo stays the service's); a new one gets the usual
    ones (0666 less the umask), as a plain ``open`` would. A symbolic link is followed (the
    file it names is replaced, the link stays).
    """
    path = Path(os.path.realpath(path))
    try:
        old = path.stat()
    except FileNotFoundError:
        old = None
    tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if old is not None:
                os.fchmod(f.fileno(), old.st_mode & 0o7777)
                with contextlib.suppress(OSError):
                    os.fchown(f.fileno(), old.st_uid, old.st_gid)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent, missing_ok=True)


def sync_folder(folder: Path, *, missing_ok: bool = False) -> None:
    """Make the names made, renamed and removed in ``folder`` durable. ``missing_ok``:
    where the filesystem cannot (some refuse to open or fsync a folder), carry on; the
    data itself was synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        if missing_ok:
            return
        raise
    try:
        os.fsync(fd)
    except OSError:
        if not missing_ok:
            raise
    finally:
        os.close(fd)
