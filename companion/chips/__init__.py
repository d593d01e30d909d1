"""Activation chips: readers (RFID and camera), the draw detector and the registry.

The bag itself (what is still to draw this turn) belongs to the rules core; this
package turns a physical draw into one chip id and a chip id into a name.
Hardware libraries are imported only inside the backend that needs them.
"""

from companion.chips.base import (
    ChipReader,
    ChipReaderError,
    DrawDetector,
    TagRead,
    UidError,
    aruco_marker_id,
    aruco_uid,
    normalize_uid,
)
from companion.chips.readers import READER_KINDS, open_reader
from companion.chips.registry import ROLES, ChipEntry, ChipRegistry, ChipRegistryError
from companion.chips.sim import SimReader

__all__ = [
    "READER_KINDS",
    "ROLES",
    "ChipEntry",
    "ChipReader",
    "ChipReaderError",
    "ChipRegistry",
    "ChipRegistryError",
    "DrawDetector",
    "SimReader",
    "TagRead",
    "UidError",
    "aruco_marker_id",
    "aruco_uid",
    "normalize_uid",
    "open_reader",
]
