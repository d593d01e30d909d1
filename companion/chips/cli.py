"""`companion chips enroll | list | print`.

Handlers take the parsed args and return an exit status; a referee's mistake raises
a CompanionError subclass, which the main CLI prints without a traceback.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from companion import config as config_module
from companion.argtypes import config_option
from companion.chips.aruco import DICTIONARY_SIZE
from companion.chips.base import (
    ChipReader,
    DrawDetector,
    TagRead,
    UidError,
    aruco_marker_id,
    aruco_uid,
    normalize_uid,
)
from companion.chips.readers import READER_KINDS, open_reader
from companion.chips.registry import ROLES, ChipRegistry, ChipRegistryError, check_role
from companion.chips.sheet import DEFAULT_DIAMETER_MM, Sticker, render_sheets, save_sheets
from companion.errors import CompanionError


class ChipsError(CompanionError):
    """A bad argument or input file for a chips command."""


# ---------------------------------------------------------------- wiring


def add_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    chips = subparsers.add_parser(
        "chips",
        help="activation chips: enroll, list, print stickers",
        description="Activation chips: enroll each chip under its unit's name, list the "
        "enrolled chips, or print ArUco stickers for chips the camera reads.",
    )
    sub = chips.add_subparsers(dest="chips_command", required=True, metavar="COMMAND")

    enroll = sub.add_parser(
        "enroll",
        help="present each chip and name it",
        description="Walks you through presenting each chip to the reader and naming it. "
        "The registry is saved after every chip.",
    )
    _registry_arg(config_option(enroll))
    enroll.add_argument(
        "--reader", choices=READER_KINDS, help="reader kind (default: [chips] reader)"
    )
    enroll.add_argument(
        "--names-from",
        type=Path,
        metavar="FILE",
        help="scenario, registry or text file: ask for each of its chips in turn",
    )
    enroll.add_argument(
        "--role", default="unit", choices=ROLES, help="default role offered (default: unit)"
    )
    enroll.add_argument("--count", type=int, default=0, help="stop after this many chips")
    enroll.add_argument(
        "--allow-same-name",
        action="store_true",
        help="let two chips share a name (a spare chip for the same unit)",
    )
    enroll.set_defaults(func=cmd_enroll)

    listing = sub.add_parser("list", help="show the enrolled chips")
    _registry_arg(config_option(listing))
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(func=cmd_list)

    printing = sub.add_parser(
        "print",
        help="a printable sheet of ArUco chip stickers",
        description="Lays out round ArUco stickers for poker chips on A4 at 300 dpi, the "
        "chip's name under each. Print at 100 % (no scaling).",
    )
    printing.add_argument(
        "--names-from",
        type=Path,
        required=True,
        metavar="SCENARIO_OR_REGISTRY",
        help="scenario TOML, chip registry TOML, or a text file with one name a line",
    )
    printing.add_argument(
        "--out", type=Path, required=True, help="sheet.pdf, or sheet.png (one PNG per page)"
    )
    printing.add_argument(
        "--registry",
        type=Path,
        metavar="FILE",
        help="also enroll the printed stickers (ARUCO-N -> name) in this registry",
    )
    printing.add_argument(
        "--diameter-mm", type=float, default=DEFAULT_DIAMETER_MM, help="sticker size (39)"
    )
    printing.set_defaults(func=cmd_print)


def _registry_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--registry",
        type=Path,
        metavar="FILE",
        help="chip registry (default: [chips] registry, else chips.toml in the state dir)",
    )


def _config(args: argparse.Namespace) -> config_module.Config:
    return config_module.load(getattr(args, "config", None))


def registry_path(args: argparse.Namespace) -> Path:
    if getattr(args, "registry", None):
        return Path(args.registry)
    return _config(args).chip_registry_path


# ---------------------------------------------------------------- names files


@dataclass(frozen=True)
class NamedChip:
    name: str
    role: str = "unit"
    marker_id: int | None = None  # fixed by a registry's ARUCO-N uid


def load_names(path: Path) -> list[NamedChip]:
    """Chip names from a registry TOML ([[chip]]), a scenario TOML (`chips = [...]`,
    else its units' `chip` names, else its units' names) or a text file (one a line).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ChipsError(f"{path}: cannot read it ({exc})") from None
    if Path(path).suffix.lower() != ".toml":
        names = [line.strip() for line in text.splitlines()]
        found = [NamedChip(n) for n in names if n and not n.startswith("#")]
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ChipsError(f"{path}: not valid TOML: {exc}") from None
        if "chip" in data:
            found = [
                NamedChip(e.name, e.role, aruco_marker_id(e.uid))
                for e in ChipRegistry.load(path).entries()
            ]
        else:
            found = _scenario_chips(data, path)
    if not found:
        raise ChipsError(f"{path}: no chip names found in it")
    seen: set[str] = set()
    unique = []
    for chip in found:  # a chip shared by two units is printed once
        if chip.name.casefold() not in seen:
            seen.add(chip.name.casefold())
            unique.append(chip)
    return unique


def _scenario_chips(data: Mapping[str, Any], path: Path) -> list[NamedChip]:
    chips = data.get("chips")
    if isinstance(chips, list):
        out = []
        for n, item in enumerate(chips, start=1):
            if isinstance(item, str):
                out.append(NamedChip(item))
            elif isinstance(item, dict) and isinstance(item.get("name"), str):
                try:
                    role = check_role(str(item.get("role", "unit")))
                except ChipRegistryError as exc:
                    raise ChipsError(f"{path}: chips entry {n}: {exc}") from None
                out.append(NamedChip(item["name"], role))
            else:
                raise ChipsError(f"{path}: chips entry {n} needs a name")
        return out
    units = data.get("units", data.get("unit", []))
    if not isinstance(units, list):
        raise ChipsError(f"{path}: [[units]] must be an array of tables")
    tables = [u for u in units if isinstance(u, dict)]
    with_chip = [u for u in tables if isinstance(u.get("chip"), str)]
    if with_chip:
        return [NamedChip(u["chip"]) for u in with_chip]
    return [NamedChip(u["name"]) for u in tables if isinstance(u.get("name"), str)]


def assign_markers(chips: list[NamedChip], registry: ChipRegistry | None = None) -> list[Sticker]:
    """Marker ids for the chips: a registry's ARUCO-N keeps N; a name already printed
    into `registry` keeps its id; the rest take the lowest free ids."""
    taken: set[int] = {c.marker_id for c in chips if c.marker_id is not None}
    known: dict[str, int] = {}
    for entry in registry.entries() if registry else ():
        marker = aruco_marker_id(entry.uid)
        if marker is not None:
            taken.add(marker)
            known.setdefault(entry.name.casefold(), marker)
    stickers = []
    free = (i for i in range(DICTIONARY_SIZE) if i not in taken)
    for chip in chips:
        marker_id = chip.marker_id
        if marker_id is None:
            marker_id = known.get(chip.name.casefold())
        if marker_id is None:
            marker_id = next(free, None)
            if marker_id is None:
                raise ChipsError(
                    f"more chips than the {DICTIONARY_SIZE} markers of the ArUco dictionary"
                )
        stickers.append(Sticker(marker_id, chip.name))
    return stickers


# ---------------------------------------------------------------- handlers


def cmd_list(args: argparse.Namespace) -> int:
    path = registry_path(args)
    entries = ChipRegistry.load(path).entries()
    out = sys.stdout
    if args.json:
        json.dump([{"uid": e.uid, "name": e.name, "role": e.role} for e in entries], out, indent=2)
        out.write("\n")
        return 0
    if not entries and not path.exists():
        out.write(
            f"No chip registry at {path}: check the path, or enroll chips with "
            "`companion chips enroll`.\n"
        )
        return 1
    if not entries:
        out.write(f"No chips enrolled in {path}. Enroll them with `companion chips enroll`.\n")
        return 0
    width = max(len(e.uid) for e in entries)
    out.write(f"{'CHIP':<{width}}  {'ROLE':<7}  NAME\n")
    for e in entries:
        out.write(f"{e.uid:<{width}}  {e.role:<7}  {e.name}\n")
    out.write(f"{len(entries)} chip(s) in {path}\n")
    return 0


def cmd_print(args: argparse.Namespace) -> int:
    if args.out.suffix.lower() not in (".pdf", ".png"):
        raise ChipsError(f"--out {args.out}: write the sheet as .pdf or .png")
    if not 20.0 <= args.diameter_mm <= 80.0:
        raise ChipsError("--diameter-mm: stickers from 20 to 80 mm")
    chips = load_names(args.names_from)
    registry = ChipRegistry.load(args.registry) if args.registry else None
    stickers = assign_markers(chips, registry)
    pages = render_sheets(stickers, diameter_mm=args.diameter_mm)
    written = save_sheets(pages, args.out)
    if registry is not None:
        for chip, sticker in zip(chips, stickers, strict=True):
            # The same name may already be on an RFID chip: a second chip for a unit.
            registry = registry.enroll(
                aruco_uid(sticker.marker_id), chip.name, chip.role, allow_same_name=True
            )
        registry.save(args.registry)
    out = sys.stdout
    out.write(f"{len(stickers)} sticker(s) on {len(pages)} page(s): ")
    out.write(", ".join(str(p) for p in written) + "\n")
    if registry is not None:
        out.write(f"Enrolled them in {args.registry}.\n")
    return 0


def _refuse_while_the_box_runs(cfg: config_module.Config, kind: str) -> None:
    """A running box polls the same reader (or camera): two processes taking turns on one
    SPI or I2C bus garble each other's frames, and the box would take every chip shown
    for enrolment as a draw. The box holds its journal's writer lock while it runs."""
    from companion.errors import JournalError
    from companion.session.journal import JournalBusy, writer_lock

    try:
        lock = writer_lock(cfg.journal_path)
    except JournalBusy:
        raise CompanionError(
            f"the box is running and reading the {kind} reader itself; stop it first "
            "('sudo systemctl stop companion', or Ctrl+C in the terminal of "
            "'companion run'), enrol the chips, then start it again: it reads the new "
            "registry when it starts") from None
    except JournalError:  # no state folder yet, or not writable: no box can be running
        return
    lock.release()


def cmd_enroll(args: argparse.Namespace) -> int:
    path = registry_path(args)
    registry = ChipRegistry.load(path)
    cfg = _config(args)
    kind = args.reader or str(cfg["chips"]["reader"])
    plan = load_names(args.names_from) if args.names_from else None
    out, inp = sys.stdout, sys.stdin
    reader: ChipReader | None = None
    next_uid: Callable[[str], str | None]
    settle: Callable[[], None] = _nothing
    if kind == "sim":
        next_uid = functools.partial(_typed_uid, inp=inp, out=out)
    else:
        _refuse_while_the_box_runs(cfg, kind)
        reader = open_reader(kind, cfg["chips"])
        chips = _PresentedChips(reader, DrawDetector(float(cfg["chips"]["repeat_seconds"])), out)
        next_uid, settle = chips.next, chips.settle
    out.write(f"Enrolling chips into {path} (reader: {kind}).\n")
    enrolled = 0
    try:
        while True:
            if plan is not None:
                if enrolled >= len(plan):
                    break
                target = plan[enrolled]
                prompt = f"Present the chip for {target.name} ({target.role})"
            else:
                target = None
                prompt = "Present the next chip"
            uid = next_uid(prompt)
            if uid is None:
                break
            existing = registry.lookup(uid)
            if target is not None:
                name, role = target.name, target.role
                if existing is not None and existing.name != name:
                    out.write(f"  {uid} was {existing.name}; it becomes {name}.\n")
            else:
                answer = _ask_name_role(
                    uid, existing.name if existing else None, args.role, inp, out
                )
                if answer is None:
                    break
                name, role = answer
            settle()  # after the prompt: the chip still on the reader is the same draw
            try:
                registry = registry.enroll(uid, name, role, allow_same_name=args.allow_same_name)
            except ChipRegistryError as exc:
                out.write(f"  Not enrolled: {exc}\n")
                continue
            registry.save(path)
            enrolled += 1
            out.write(f"  Enrolled {uid} as {name} ({role}).\n")
            if args.count and enrolled >= args.count:
                break
    except KeyboardInterrupt:
        out.write("\n")
    finally:
        if reader is not None:
            reader.close()
    out.write(f"{enrolled} chip(s) enrolled; {len(registry)} in {path}.\n")
    return 0


def _nothing() -> None:
    """Typed ids need no settling: nothing repeats them."""


def _typed_uid(prompt: str, inp: TextIO, out: TextIO) -> str | None:
    while True:
        out.write(f"{prompt}: type its id (empty line to finish): ")
        out.flush()
        line = inp.readline()
        if not line.strip():
            out.write("\n")
            return None
        try:
            return normalize_uid(line)
        except UidError as exc:
            out.write(f"  {exc}\n")


class _PresentedChips:
    """Chips presented to a real reader, one draw at a time.

    While the referee types a name the chip often stays on the reader: a USB reader
    queues its repeats and an RC522 sees it again at the next poll. `settle()` after
    each prompt counts the chip as seen until now, so those reads are the same draw,
    not the next chip (which would otherwise be enrolled under the next name).
    """

    def __init__(self, reader: ChipReader, detector: DrawDetector, out: TextIO) -> None:
        self._reader = reader
        self._detector = detector
        self._out = out
        self._last: TagRead | None = None
        self._read_at = 0.0

    def next(self, prompt: str) -> str | None:
        self._out.write(f"{prompt} (Ctrl-C to finish)...\n")
        self._out.flush()
        while True:
            read = self._reader.poll(0.25)
            if read is not None and self._detector.feed(read) is not None:
                self._last, self._read_at = read, time.monotonic()
                return read.uid

    def settle(self) -> None:
        if self._last is not None:
            waited = time.monotonic() - self._read_at
            last = self._last
            self._detector.feed(TagRead(last.uid, last.reader, last.timestamp + waited))


def _ask_name_role(
    uid: str, current: str | None, default_role: str, inp: TextIO, out: TextIO
) -> tuple[str, str] | None:
    shown = f" [{current}]" if current else ""
    while True:
        out.write(f"  Name for {uid}{shown}: ")
        out.flush()
        line = inp.readline()
        if not line:
            return None  # end of input: stop enrolling
        name = line.strip() or (current or "")
        if name:
            break
        out.write("  A chip needs a name.\n")
    while True:
        out.write(f"  Role ({'/'.join(ROLES)}) [{default_role}]: ")
        out.flush()
        role = inp.readline().strip().lower() or default_role
        if role in ROLES:
            return name, role
        out.write(f"  Role is one of: {', '.join(ROLES)}.\n")
