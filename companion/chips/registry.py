"""Chip registry: chip id -> what it activates, one small TOML file per game.

File format (written by `companion chips enroll`, editable by hand):

    # companion chip registry
    version = 1

    [[chip]]
    uid = "04A1B2C3D4E5F6"
    name = "Legion 1"
    role = "unit"

Decisions:
- Immutable: `enroll` returns a new registry, so a failed save never leaves a
  half-changed registry in memory.
- Re-enrolling a uid replaces its entry (a chip was relabelled).
- One name on two uids is refused unless the caller passes `allow_same_name=True`:
  usually it is a typing slip, but a spare chip for a lost one, or an RFID chip and
  an ArUco sticker for the same unit, are real uses. The file itself may hold such
  pairs (the flag was given when they were enrolled), so `load` accepts them.
- Names compare case-insensitively and trimmed for that check.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.chips.base import UidError, normalize_uid
from companion.errors import CompanionError
from companion.files import write_atomically

ROLES: tuple[str, ...] = ("unit", "leader", "weapon", "special")
MAX_NAME_LENGTH = 40
FORMAT_VERSION = 1


class ChipRegistryError(CompanionError):
    """The registry file is broken, or an enrolment is not allowed."""


@dataclass(frozen=True)
class ChipEntry:
    uid: str
    name: str
    role: str  # "unit" | "leader" | "weapon" | "special"


def check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise ChipRegistryError("a chip needs a name")
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise ChipRegistryError(f"chip name {cleaned!r} has control characters; retype it")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ChipRegistryError(
            f"chip name {cleaned!r} is {len(cleaned)} characters; keep it to "
            f"{MAX_NAME_LENGTH} (18 fit on one line of the display)"
        )
    return cleaned


def check_role(role: str) -> str:
    cleaned = role.strip().lower()
    if cleaned not in ROLES:
        raise ChipRegistryError(f"role {role!r} is not one of: {', '.join(ROLES)}")
    return cleaned


class ChipRegistry:
    """Chip id -> ChipEntry for one game. Insertion order is kept (enrolment order)."""

    def __init__(self, entries: Iterable[ChipEntry] = ()) -> None:
        self._by_uid: dict[str, ChipEntry] = {}
        for entry in entries:
            self._by_uid[entry.uid] = entry

    # ------------------------------------------------------------------ queries

    def lookup(self, uid: str) -> ChipEntry | None:
        """The chip's entry, or None: "unknown chip" (the session shows it and
        sounds the error tone; nothing in the game changes)."""
        try:
            key = normalize_uid(uid)
        except UidError:
            return None
        return self._by_uid.get(key)

    def entries(self) -> tuple[ChipEntry, ...]:
        return tuple(self._by_uid.values())

    def uids_named(self, name: str) -> tuple[str, ...]:
        key = _name_key(name)
        return tuple(e.uid for e in self._by_uid.values() if _name_key(e.name) == key)

    def __len__(self) -> int:
        return len(self._by_uid)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChipRegistry) and self.entries() == other.entries()

    def __hash__(self) -> int:
        return hash(self.entries())

    def __repr__(self) -> str:
        return f"ChipRegistry({list(self.entries())!r})"

    # ------------------------------------------------------------------ changes

    def enroll(
        self, uid: str, name: str, role: str = "unit", *, allow_same_name: bool = False
    ) -> ChipRegistry:
        """A new registry with `uid` -> (name, role). Re-enrolling a uid replaces it."""
        try:
            key = normalize_uid(uid)
        except UidError as exc:
            raise ChipRegistryError(str(exc)) from None
        entry = ChipEntry(uid=key, name=check_name(name), role=check_role(role))
        if not allow_same_name:
            clash = [u for u in self.uids_named(entry.name) if u != key]
            if clash:
                raise ChipRegistryError(
                    f"{entry.name!r} is already the name of chip {clash[0]}; choose another "
                    "name, or allow the same name (a spare chip for the same unit)"
                )
        entries = dict(self._by_uid)
        entries[key] = entry  # replacing keeps the chip's place in the list
        return ChipRegistry(entries.values())

    def remove(self, uid: str) -> ChipRegistry:
        key = normalize_uid(uid)
        return ChipRegistry(e for e in self._by_uid.values() if e.uid != key)

    # ------------------------------------------------------------------ files

    @classmethod
    def load(cls, path: Path) -> ChipRegistry:
        """Missing file -> empty registry; a broken one -> ChipRegistryError naming the
        file and the line."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except (OSError, UnicodeDecodeError) as exc:
            raise ChipRegistryError(f"{path}: cannot read the chip registry ({exc})") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            # tomllib puts "(at line N, column M)" in its message.
            raise ChipRegistryError(f"{path}: not valid TOML: {exc}") from None
        return cls._from_data(data, path, text)

    @classmethod
    def _from_data(cls, data: dict[str, Any], path: Path, text: str) -> ChipRegistry:
        version = data.get("version", FORMAT_VERSION)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ChipRegistryError(
                f"{path}: version must be a whole number, written version = {FORMAT_VERSION} "
                f"(without quotes), not {version!r}")
        if version != FORMAT_VERSION:
            raise ChipRegistryError(
                f"{path}: registry version {version!r} is not supported (expected "
                f"{FORMAT_VERSION}); was it written by a newer companion?"
            )
        unknown = set(data) - {"version", "chip"}
        if unknown:
            raise ChipRegistryError(
                f"{path}: unknown key(s) {', '.join(sorted(unknown))}; a registry has "
                "'version' and [[chip]] tables"
            )
        chips = data.get("chip", [])
        if not isinstance(chips, list):
            raise ChipRegistryError(f"{path}: 'chip' must be [[chip]] tables")
        header_lines = _table_lines(text, "chip")
        entries: list[ChipEntry] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(chips):
            line = header_lines[index] if index < len(header_lines) else 0
            where = (
                f"{path}: line {line} (chip {index + 1})" if line else f"{path}: chip {index + 1}"
            )
            if not isinstance(raw, dict):
                raise ChipRegistryError(f"{where}: must be a [[chip]] table")
            extra = set(raw) - {"uid", "name", "role"}
            if extra:
                raise ChipRegistryError(
                    f"{where}: unknown key(s) {', '.join(sorted(extra))}; use uid, name, role"
                )
            for key in ("uid", "name"):
                if not isinstance(raw.get(key), str):
                    raise ChipRegistryError(f'{where}: needs {key} = "..."')
            try:
                uid = normalize_uid(raw["uid"])
                entry = ChipEntry(
                    uid=uid,
                    name=check_name(raw["name"]),
                    role=check_role(str(raw.get("role", "unit"))),
                )
            except (UidError, ChipRegistryError) as exc:
                raise ChipRegistryError(f"{where}: {exc}") from None
            if uid in seen:
                raise ChipRegistryError(
                    f"{where}: uid {uid} is already enrolled by chip {seen[uid]}; remove one"
                )
            seen[uid] = index + 1
            entries.append(entry)
        return cls(entries)

    def dumps(self) -> str:
        lines = [
            "# companion chip registry: chip id -> what it activates.",
            "# Written by `companion chips enroll`; safe to edit by hand.",
            f"version = {FORMAT_VERSION}",
        ]
        for e in self.entries():
            lines += [
                "",
                "[[chip]]",
                f"uid = {_toml_string(e.uid)}",
                f"name = {_toml_string(e.name)}",
                f"role = {_toml_string(e.role)}",
            ]
        return "\n".join(lines) + "\n"

    def save(self, path: Path) -> None:
        """Atomic (`write_atomically`), so a pulled plug leaves the old file or the new
        one, never half of one."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, self.dumps().encode("utf-8"))


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _table_lines(text: str, table: str) -> list[int]:
    """1-based line numbers of each `[[table]]` header, to point errors at a line."""
    pattern = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
    return [n for n, line in enumerate(text.splitlines(), start=1) if pattern.match(line)]


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(value: str) -> str:
    """A TOML basic string (no TOML writer in the standard library)."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
