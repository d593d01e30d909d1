"""What every chip reader shares: the read record, the port, errors and the draw detector.

Readers report raw sightings: a tag lying on an RC522 is seen on every poll and a
USB reader may type the same id three times. `DrawDetector` turns those sightings
into physical draws. Everything here is pure apart from the reader protocol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from companion.errors import CompanionError, HardwareError

ARUCO_PREFIX = "ARUCO-"

# ISO 14443A UIDs are single (4), double (7) or triple (10) size.
UID_BYTE_LENGTHS: tuple[int, ...] = (4, 7, 10)


@dataclass(frozen=True)
class TagRead:
    """One sighting of a tag by a reader (raw: the same tag may be seen many times)."""

    uid: str  # upper-case hex, no separators ("04A1B2C3D4E5F6"), or "ARUCO-17"
    reader: str  # "usb-hid", "rc522", "pn532", "aruco", "sim"
    timestamp: float  # time.monotonic() when read


class ChipReader(Protocol):
    """The chip-reader port. `poll` blocks up to `timeout` seconds."""

    def poll(self, timeout: float) -> TagRead | None: ...

    def close(self) -> None: ...


class ChipReaderError(HardwareError):
    """A reader is missing or failed. The message names the device, what failed and
    what to check. A HardwareError, so the CLI prints it without a traceback."""


class UidError(CompanionError, ValueError):
    """Text that is not a chip id."""


_SEPARATORS = re.compile(r"[\s:\-]")
_ARUCO = re.compile(r"^ARUCO-?(\d{1,4})$")


def uid_from_bytes(data: bytes | bytearray | list[int]) -> str:
    """Card-order UID bytes as the canonical upper-case hex string."""
    return bytes(data).hex().upper()


def aruco_uid(marker_id: int) -> str:
    return f"{ARUCO_PREFIX}{marker_id}"


def aruco_marker_id(uid: str) -> int | None:
    """The marker id in "ARUCO-N", or None for an RFID uid."""
    m = _ARUCO.match(uid)
    return int(m.group(1)) if m else None


def normalize_uid(text: str) -> str:
    """Accept a chip id as a person types it ("04:a1:b2...", "aruco-7") and make it
    canonical. Raises UidError with what is allowed."""
    raw = text.strip().upper()
    m = _ARUCO.match(raw.replace(" ", ""))
    if m:
        return aruco_uid(int(m.group(1)))
    compact = _SEPARATORS.sub("", raw)
    if not re.fullmatch(r"[0-9A-F]+", compact or "-") or len(compact) % 2:
        raise UidError(
            f"{text.strip()!r} is not a chip id: use hex like 04A1B2C3D4E5F6 "
            "(4, 7 or 10 bytes) or ARUCO-N"
        )
    if len(compact) // 2 not in UID_BYTE_LENGTHS:
        raise UidError(
            f"{text.strip()!r} has {len(compact) // 2} bytes; an NFC chip id has 4, 7 or 10"
        )
    return compact


class DrawDetector:
    """One physical draw is one event.

    A uid seen again within `repeat_seconds` of its *last* sighting belongs to the
    same draw (a chip lying on the reader keeps refreshing its window); a chip that
    has been away longer than that is a new draw. Per uid, so two chips read in
    quick succession are two draws. Whether a second draw of the same chip in a turn
    is legal is the rules' bag's business, not this class's.
    """

    def __init__(self, repeat_seconds: float = 1.5) -> None:
        if repeat_seconds < 0:
            raise ValueError("repeat_seconds cannot be negative")
        self.repeat_seconds = repeat_seconds
        self._last_seen: dict[str, float] = {}

    def feed(self, read: TagRead) -> TagRead | None:
        """The read if it starts a new draw, else None."""
        last = self._last_seen.get(read.uid)
        # max(): a reader clock that steps back must not re-open a draw.
        self._last_seen[read.uid] = read.timestamp if last is None else max(last, read.timestamp)
        self._forget_before(read.timestamp - self.repeat_seconds)
        if last is not None and read.timestamp - last <= self.repeat_seconds:
            return None
        return read

    def _forget_before(self, horizon: float) -> None:
        # Bounded memory over a long convention day: stale sightings decide nothing.
        if len(self._last_seen) > 64:
            self._last_seen = {u: t for u, t in self._last_seen.items() if t >= horizon}
