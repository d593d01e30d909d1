"""Reading events out of a damaged SQLite journal page by page.

When the file is cut short (a copy interrupted, a full SD card) SQLite's own
reader gives up on the whole table, though most leaf pages are intact. This
walks every page of the file and of its WAL, decodes table-leaf cells as in
the SQLite file format, and keeps rows whose CRC matches, so nothing that was
recorded and survives on disk is lost.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

Row = tuple[int, str, str, int, float | None]  # seq, kind, payload, crc, at (when readable)

LEAF_TABLE = 0x0D


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        if at + i >= len(data):
            raise ValueError("varint runs off the page")
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    raise ValueError("bad varint")


def _pages(path: Path, page_size: int) -> Iterator[tuple[int, bytes]]:
    data = path.read_bytes()
    for number, start in enumerate(range(0, len(data), page_size), start=1):
        yield number, data[start : start + page_size]


def _wal_pages(path: Path, page_size: int) -> Iterator[tuple[int, bytes]]:
    wal = Path(str(path) + "-wal")
    if not wal.exists():
        return
    data = wal.read_bytes()
    at = 32
    while at + 24 + page_size <= len(data):
        number = struct.unpack(">I", data[at : at + 4])[0]
        yield number, data[at + 24 : at + 24 + page_size]
        at += 24 + page_size


def _payload(page: bytes, at: int, size: int, usable: int, pages: dict[int, bytes]) -> bytes | None:
    max_local = usable - 35
    if size <= max_local:
        return page[at : at + size]
    min_local = ((usable - 12) * 32 // 255) - 23
    local = min_local + ((size - min_local) % (usable - 4))
    if local > max_local:
        local = min_local
    out = bytearray(page[at : at + local])
    next_page = struct.unpack(">I", page[at + local : at + local + 4])[0]
    seen = set()
    while len(out) < size and next_page and next_page not in seen:
        seen.add(next_page)
        overflow = pages.get(next_page)
        if overflow is None:
            return None  # the chain runs into the lost part of the file
        next_page = struct.unpack(">I", overflow[:4])[0]
        out += overflow[4:usable]
    return bytes(out[:size]) if len(out) >= size else None


def _record(payload: bytes) -> list[object]:
    header_size, at = _varint(payload, 0)
    types = []
    while at < header_size:
        serial, at = _varint(payload, at)
        types.append(serial)
    values: list[object] = []
    at = header_size
    widths = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
    for serial in types:
        if serial == 0:
            values.append(None)
        elif serial in widths:
            width = widths[serial]
            values.append(int.from_bytes(payload[at : at + width], "big", signed=True))
            at += width
        elif serial == 7:
            values.append(struct.unpack(">d", payload[at : at + 8])[0])
            at += 8
        elif serial in (8, 9):
            values.append(serial - 8)
        elif serial >= 12:
            length = (serial - 12) // 2
            raw = payload[at : at + length]
            values.append(raw.decode("utf-8", "replace") if serial % 2 else raw)
            at += length
        else:
            raise ValueError("reserved serial type")
    return values


WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums little- / big-endian
#: SQLite's page size unless told otherwise: the guess when the file's header is lost.
DEFAULT_PAGE_SIZE = 4096


def _wal_checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> str | None:
    """Why the write-ahead log beside a journal would lose committed events, or None.

    SQLite replays the log up to its first frame with a bad checksum and silently drops the
    rest, so a log damaged in the middle reads as a shorter, healthy game. Frames of an
    older log generation (another salt) are normal leftovers; so is one torn transaction
    at the end (the plug pulled while an event was being written, before it was recorded).
    What is not: more than one commit of the current generation after the break.
    """
    data = wal.read_bytes()
    if len(data) < 32:
        return None  # an empty log holds nothing committed
    magic, _version, page_size, _seq = struct.unpack(">4I", data[:16])
    if magic not in WAL_MAGIC:
        return "its write-ahead log has a damaged header"
    big_endian = magic == WAL_MAGIC[1]
    salt = data[16:24]
    checksum = _wal_checksum(data[:24], 0, 0, big_endian)
    if checksum != struct.unpack(">2I", data[24:32]):
        return "its write-ahead log has a damaged header"
    frame = 24 + page_size
    commits_after_break = 0
    broken = False
    for at in range(32, len(data) - frame + 1, frame):
        header = data[at : at + 24]
        if not broken:
            checksum = _wal_checksum(header[:8] + data[at + 24 : at + frame], *checksum,
                                     big_endian)
            broken = header[8:16] != salt or checksum != struct.unpack(">2I", header[16:24])
        if broken and header[8:16] == salt and header[4:8] != b"\0\0\0\0":
            commits_after_break += 1
    if commits_after_break > 1:
        return (f"its write-ahead log is damaged: {commits_after_break} later writes "
                "cannot be replayed")
    return None


def _page_size(path: Path) -> tuple[int, int]:
    """(page size, reserved bytes a page) from the file's header, else from its WAL's, else
    SQLite's default: a lost first page must not hide the rest of the file."""
    head = path.read_bytes()[:100]
    if len(head) >= 100 and head.startswith(b"SQLite format 3\x00"):
        size = struct.unpack(">H", head[16:18])[0]
        return (65536 if size == 1 else size), head[20]
    wal = Path(str(path) + "-wal")
    if wal.exists():
        wal_head = wal.read_bytes()[:12]
        if len(wal_head) == 12 and struct.unpack(">I", wal_head[:4])[0] in WAL_MAGIC:
            return struct.unpack(">I", wal_head[8:12])[0], 0
    return DEFAULT_PAGE_SIZE, 0


def scan_rows(path: Path) -> list[Row]:
    """Every intact events row found in the file and its WAL, by seq."""
    page_size, reserved = _page_size(path)
    if not 512 <= page_size <= 65536:
        return []
    usable = page_size - reserved
    pages = dict(_pages(path, page_size))
    pages.update(dict(_wal_pages(path, page_size)))  # later WAL frames are newer
    rows: dict[int, Row] = {}
    for number, page in pages.items():
        offset = 100 if number == 1 else 0
        if len(page) < offset + 8 or page[offset] != LEAF_TABLE:
            continue
        cells = struct.unpack(">H", page[offset + 3 : offset + 5])[0]
        for index in range(cells):
            pointer_at = offset + 8 + 2 * index
            try:
                cell = struct.unpack(">H", page[pointer_at : pointer_at + 2])[0]
                size, at = _varint(page, cell)
                rowid, at = _varint(page, at)
                payload = _payload(page, at, size, usable, pages)
                if payload is None:
                    continue
                values = _record(payload)
            except (ValueError, struct.error, IndexError):
                continue
            if len(values) != 5 or not isinstance(values[1], str) or not isinstance(values[2], str):
                continue
            checksum, stamp = values[3], values[4]
            if isinstance(checksum, int):
                rows[rowid] = (rowid, values[1], values[2], checksum,
                               float(stamp) if isinstance(stamp, (int, float)) else None)
    return [rows[seq] for seq in sorted(rows)]
