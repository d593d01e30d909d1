"""`companion doctor`: what is present and working on this box, with a fix for each failure.

On a Raspberry Pi every missing part is a failure (exit 1). On any other machine the
hardware is reported as *absent* and the exit code stays 0, so the command runs on a
desktop and in CI. Problems that are not hardware (a bad config file, a damaged journal,
too little disk) fail everywhere. Nothing here raises: every check catches its own errors
and reports them as a result.
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import importlib.util
import json
import os
import pwd
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from companion import config as config_module
from companion.argtypes import config_option, hardware_option
from companion.chips.base import ChipReaderError
from companion.chips.readers import PN532_I2C_BUS, spi_node
from companion.errors import CompanionError, HardwareError
from companion.session.journal import Unwritable, lost_wal, unwritable
from companion.session.salvage import wal_damage

Status = Literal["ok", "absent", "skip", "warn", "fail"]

SERVICE_USER = "companion"
DEVICE_GROUPS = ("gpio", "spi", "i2c", "video", "input")
MIN_FREE_FAIL = 200 * 1024 * 1024
MIN_FREE_WARN = 1024 * 1024 * 1024
INSTALL = "sudo /opt/companion/tools/install/install.sh"


@dataclass
class Check:
    """One line of the report."""

    name: str
    status: Status
    detail: str
    fix: str = ""


@dataclass
class System:
    """Where the doctor looks; tests swap each part for a fake."""

    root: Path = Path("/")
    which: Callable[[str], str | None] = shutil.which
    run: Callable[[Sequence[str]], tuple[int, str]] | None = None
    i2c_probe: Callable[[int, int], bool | None] | None = None
    user: str = field(default_factory=lambda: _current_user())

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    def glob(self, pattern: str) -> list[Path]:
        directory, _, name = pattern.rpartition("/")
        base = self.path(directory)
        if not base.is_dir():
            return []
        return sorted(base.glob(name))

    def command(self, argv: Sequence[str]) -> tuple[int, str]:
        if self.run is not None:
            return self.run(argv)
        try:
            done = subprocess.run(
                list(argv), capture_output=True, text=True, timeout=15, check=False
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return 127, str(exc)
        return done.returncode, (done.stdout or "") + (done.stderr or "")

    def probe(self, port: int, address: int) -> bool | None:
        """True: a device answered; False: nothing did; None: cannot tell here."""
        if self.i2c_probe is not None:
            return self.i2c_probe(port, address)
        return _smbus_probe(port, address)


def _current_user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def _smbus_probe(port: int, address: int) -> bool | None:
    if importlib.util.find_spec("smbus2") is None:
        return None
    from smbus2 import SMBus  # only on the Pi (extra `pi`)

    try:
        with SMBus(port) as bus:
            try:
                bus.write_quick(address)  # what i2cdetect does for 0x3C and 0x24
            except OSError as exc:
                if exc.errno in (5, 6, 121):  # EIO, ENXIO, EREMOTEIO: no ACK
                    return False
                bus.read_byte(address)  # adapter without SMBus quick command
            return True
    except OSError:
        return False


# ---- the checks --------------------------------------------------------------------


def board_model(system: System) -> str | None:
    try:
        raw = system.path("/proc/device-tree/model").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\x00", b"").decode("utf-8", "replace").strip() or None


def _missing(on_pi: bool, name: str, detail: str, fix: str) -> Check:
    """A part that is not there: a failure on a Pi, merely absent elsewhere."""
    if on_pi:
        return Check(name, "fail", detail, fix)
    return Check(name, "absent", f"{detail} (not a Raspberry Pi: expected)")


def check_board(system: System) -> Check:
    model = board_model(system)
    if model is None:
        return Check("board", "absent", "not a Raspberry Pi (no /proc/device-tree/model)")
    if not model.startswith("Raspberry Pi"):
        return Check("board", "absent", f"not a Raspberry Pi: {model}")
    supported = ("Raspberry Pi 4", "Raspberry Pi 5", "Raspberry Pi Zero 2")
    if not model.startswith(supported):
        return Check(
            "board",
            "warn",
            model,
            "the box is built and tested on a Pi 4, Pi 5 or Zero 2 W; others may work",
        )
    return Check("board", "ok", model)


def check_os(system: System) -> Check:
    try:
        text = system.path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Check("os", "warn", "no /etc/os-release", "install Raspberry Pi OS Bookworm 64-bit")
    info = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#")
    )
    pretty = info.get("PRETTY_NAME", "unknown").strip('"')
    codename = info.get("VERSION_CODENAME", "").strip('"')
    if codename and codename != "bookworm" and board_model(system) is not None:
        return Check(
            "os", "warn", pretty, "the install script targets Raspberry Pi OS Bookworm 64-bit"
        )
    return Check("os", "ok", pretty)


def check_i2c_bus(system: System, on_pi: bool, port: int) -> Check:
    dev = system.path(f"/dev/i2c-{port}")
    if not dev.exists():
        return _missing(
            on_pi,
            "i2c",
            f"/dev/i2c-{port} is missing",
            "turn I2C on: dtparam=i2c_arm=on and dtparam=i2c_arm_baudrate=400000 in "
            f"/boot/firmware/config.txt and i2c-dev in /etc/modules-load.d ({INSTALL} "
            "does both), then reboot",
        )
    if not os.access(dev, os.R_OK | os.W_OK):
        return Check(
            "i2c",
            "warn",
            f"/dev/i2c-{port} exists but {system.user} cannot open it",
            f"sudo usermod -aG i2c {system.user}, then log in again "
            "(the service user gets it from sysusers)",
        )
    return Check("i2c", "ok", f"/dev/i2c-{port}")


def check_i2c_device(
    system: System, on_pi: bool, name: str, what: str, port: int, address: int, wiring: str
) -> Check:
    if not system.path(f"/dev/i2c-{port}").exists():
        return _missing(on_pi, name, f"{what}: no I2C bus {port} to look on", "see the i2c line")
    found = system.probe(port, address)
    if found is None:
        return Check(
            name,
            "skip" if on_pi else "absent",
            f"{what}: cannot probe 0x{address:02X} (smbus2 not installed)",
            f"{INSTALL} installs smbus2; or look with: i2cdetect -y {port}" if on_pi else "",
        )
    if found:
        return Check(name, "ok", f"{what} answers at 0x{address:02X} on /dev/i2c-{port}")
    return _missing(
        on_pi,
        name,
        f"{what}: nothing answers at 0x{address:02X} on /dev/i2c-{port}",
        f"check the wiring ({wiring}; see hardware/wiring.md) and the address with "
        f"`i2cdetect -y {port}`; if it shows another address, set it in the config",
    )


def check_spi(system: System, on_pi: bool, needed: str | None, bus: int, dev: int) -> Check:
    nodes = [p.name for p in system.glob("/dev/spidev*")]
    want = f"spidev{bus}.{dev}"
    fix = (
        "turn SPI on: dtparam=spi=on in /boot/firmware/config.txt "
        f"({INSTALL} does it), then reboot"
    )
    if needed is None:
        if nodes:
            return Check("spi", "ok", f"{', '.join(nodes)} (not used by this config)")
        if on_pi:
            return Check("spi", "warn", "SPI is off (not needed by this config's chip reader)", fix)
        return Check("spi", "absent", "no /dev/spidev* (not a Raspberry Pi: expected)")
    if want not in nodes:
        return _missing(on_pi, "spi", f"/dev/{want} for the {needed} is missing", fix)
    if not os.access(system.path(f"/dev/{want}"), os.R_OK | os.W_OK):
        return Check(
            "spi",
            "warn",
            f"/dev/{want} exists but {system.user} cannot open it",
            f"sudo usermod -aG spi {system.user}, then log in again",
        )
    return Check("spi", "ok", f"/dev/{want} for the {needed}")


def check_gpio(system: System, on_pi: bool) -> Check:
    chips = [p.name for p in system.glob("/dev/gpiochip*")]
    if not chips:
        return _missing(
            on_pi,
            "gpio",
            "no /dev/gpiochip*",
            "update Raspberry Pi OS (sudo apt full-upgrade) and reboot",
        )
    return Check("gpio", "ok", ", ".join(chips))


def check_camera(system: System, on_pi: bool, source: str, needed_by: str,
                 path: str = "") -> Check:
    if source == "files":
        return _check_camera_files(path)
    if source != "picamera2" and needed_by != "aruco":
        return Check("camera", "skip", f"config uses camera source '{source}'"
                     + (f" ({path})" if path else ""))
    fix = (
        "check the ribbon cable (contacts facing the board at both ends, latch closed), "
        "camera_auto_detect=1 in /boot/firmware/config.txt, then reboot; "
        "`rpicam-hello --list-cameras` must list it"
    )
    for tool in ("rpicam-hello", "libcamera-hello"):
        if system.which(tool):
            code, out = system.command([tool, "--list-cameras"])
            lines = [ln.strip() for ln in out.splitlines() if ln.strip()[:1].isdigit()]
            if code == 0 and lines:
                return Check("camera", "ok", lines[0])
            return _missing(on_pi, "camera", f"{tool} --list-cameras finds no camera", fix)
    videos = [p.name for p in system.glob("/dev/video*")]
    if on_pi:
        return Check(
            "camera",
            "fail",
            "rpicam-hello is not installed, so the camera cannot be checked"
            + (f" ({', '.join(videos)} present)" if videos else ""),
            "sudo apt install rpicam-apps-lite (the install script does it)",
        )
    if videos:
        return Check("camera", "absent", f"no Pi camera; video devices: {', '.join(videos)}")
    return Check("camera", "absent", "no camera (not a Raspberry Pi: expected)")


def _check_camera_files(path: str) -> Check:
    from companion.ports.camera import FileCamera

    fix = ('set [camera] path to an image or a folder of images, or source = "picamera2" '
           "for the Pi camera")
    if not path:
        return Check("camera", "fail", '[camera] source = "files" but no path is set', fix)
    try:
        frames = FileCamera(Path(path).expanduser())
    except HardwareError as exc:
        return Check("camera", "fail", str(exc), fix)
    count = len(frames.paths)
    return Check("camera", "ok", f"{count} image{'s' if count != 1 else ''} from {path}")


def check_chip_reader(system: System, on_pi: bool, chips: Any) -> Check:
    reader = str(chips["reader"])
    if reader == "sim":
        return Check("chip reader", "skip", "simulated reader ([chips] reader = \"sim\")")
    if reader == "aruco":
        return Check("chip reader", "ok", "ArUco markers through the camera (see camera)")
    if reader in ("rc522", "pn532-spi"):
        try:
            bus, line = spi_node(reader, chips)
        except ChipReaderError as exc:  # a chip-select pin with no SPI line
            return Check("chip reader", "fail", str(exc))
        node = f"/dev/spidev{bus}.{line}"
        if system.path(node).exists():
            return Check("chip reader", "ok", f"{reader} on {node} (SPI; not probed)")
        setting = "spi_device" if reader == "rc522" else "pn532_cs_pin"
        return _missing(
            on_pi,
            "chip reader",
            f"{reader}: {node} is missing",
            f"turn SPI on (dtparam=spi=on, reboot) and check [chips] spi_bus / {setting}",
        )
    if reader == "pn532-i2c":
        return check_i2c_device(
            system,
            on_pi,
            "chip reader",
            "PN532",
            PN532_I2C_BUS,
            int(chips["pn532_i2c_address"]),
            "SDA GPIO2 pin 3, SCL GPIO3 pin 5, and the PN532's I2C switch setting",
        )
    # usb-hid
    device = str(chips["device"])
    if device:
        path = system.path(device)
        if not path.exists():
            return _missing(
                on_pi,
                "chip reader",
                f"USB reader {device} is missing",
                "plug the reader in; list readers with `ls /dev/input/by-id/` and set "
                "[chips] device to the one ending in -event-kbd",
            )
        if not os.access(path, os.R_OK):
            return Check(
                "chip reader",
                "warn",
                f"{device} exists but {system.user} cannot read it",
                f"sudo usermod -aG input {system.user}, then log in again",
            )
        return Check("chip reader", "ok", f"USB reader {device}")
    keyboards = [p.name for p in system.glob("/dev/input/by-id/*-event-kbd")]
    if keyboards:
        return Check(
            "chip reader",
            "ok",
            f"USB HID devices: {', '.join(keyboards)} (the daemon takes the first reader)",
        )
    return _missing(
        on_pi,
        "chip reader",
        "no USB HID reader found in /dev/input/by-id",
        "plug in the 13.56 MHz USB reader (a 125 kHz one cannot read NTAG213), "
        "or set [chips] reader to what you have",
    )


def check_chip_registry(path: Path) -> Check:
    """The enrolled chips: a broken file would otherwise show up at the table as a fault."""
    from companion.chips.registry import ChipRegistry

    if not path.exists():
        return Check("chip registry", "warn", f"{path}: no chips enrolled yet",
                     "enrol the chips: companion chips enroll --names-from SCENARIO")
    try:
        entries = ChipRegistry.load(path).entries()
    except CompanionError as exc:
        return Check("chip registry", "fail", str(exc),
                     "fix the line it names, or enrol the chips again (companion chips enroll)")
    return Check("chip registry", "ok", f"{path}: {len(entries)} chips enrolled")


def _groups_of(user: str) -> set[str] | None:
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None
    names = {g.gr_name for g in grp.getgrall() if user in g.gr_mem}
    with contextlib.suppress(KeyError):
        names.add(grp.getgrgid(entry.pw_gid).gr_name)
    return names


def check_groups(system: System, on_pi: bool) -> list[Check]:
    results = []
    service = _groups_of(SERVICE_USER)
    if service is None:
        results.append(
            _missing(
                on_pi,
                "service user",
                f"no user '{SERVICE_USER}'",
                "sudo systemd-sysusers /etc/sysusers.d/companion.conf "
                f"(file from firmware-config/; {INSTALL} does it)",
            )
        )
    else:
        lacking = [g for g in DEVICE_GROUPS if g not in service]
        if lacking:
            results.append(
                Check(
                    "service user",
                    "fail" if on_pi else "warn",
                    f"'{SERVICE_USER}' is not in: {', '.join(lacking)}",
                    f"sudo usermod -aG {','.join(lacking)} {SERVICE_USER} && "
                    "sudo systemctl restart companion",
                )
            )
        else:
            results.append(
                Check("service user", "ok", f"'{SERVICE_USER}' in {', '.join(DEVICE_GROUPS)}")
            )
    if system.user not in (SERVICE_USER, "root"):
        mine = _groups_of(system.user) or set()
        lacking = [g for g in DEVICE_GROUPS if g not in mine]
        if not lacking:
            results.append(Check("your groups", "ok", f"{system.user} in all device groups"))
        elif on_pi:
            results.append(
                Check(
                    "your groups",
                    "warn",
                    f"{system.user} is not in: {', '.join(lacking)} "
                    "(only matters to run the box by hand)",
                    f"sudo usermod -aG {','.join(lacking)} {system.user}, then log in again",
                )
            )
        else:
            results.append(
                Check("your groups", "skip", "device groups are not needed off the Pi")
            )
    return results


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_disk(state_dir: Path) -> Check:
    where = _existing(state_dir)
    usage = shutil.disk_usage(where)
    free_mb = usage.free // (1024 * 1024)
    detail = f"{free_mb} MB free at {where}"
    fix = "free space: sudo apt clean; sudo journalctl --vacuum-size=50M; remove old frames"
    if usage.free < MIN_FREE_FAIL:
        return Check("disk", "fail", detail, fix)
    if usage.free < MIN_FREE_WARN:
        return Check("disk", "warn", detail, fix)
    return Check("disk", "ok", detail)


def check_journal(path: Path) -> Check:
    if path.is_dir():
        return Check("journal", "fail", f"{path} is a folder, not a journal file",
                     f"move it out of the way (mv {path} {path}.folder), or set [box] "
                     "state_dir to the folder that holds the game's journal.sqlite3")
    if not path.exists():
        if path.parent.exists() and not os.access(path.parent, os.X_OK):
            return Check(
                "journal",
                "warn",
                f"cannot look inside {path.parent}",
                f"run as the service user: sudo -u {SERVICE_USER} "
                "/opt/companion/venv/bin/companion doctor",
            )
        return Check("journal", "ok", f"no game recorded yet ({path})")
    if not os.access(path, os.R_OK):
        return Check(
            "journal",
            "warn",
            f"{path} is not readable by this user",
            f"run as the service user: sudo -u {SERVICE_USER} "
            "/opt/companion/venv/bin/companion doctor",
        )
    fix = (
        "stop the box (sudo systemctl stop companion), then run `companion journal salvage`: "
        "it copies every readable event to a fresh journal and keeps the damaged file"
    )
    wal = Path(f"{path}-wal")
    damage = wal_damage(wal) if wal.is_file() else None
    if damage is not None:
        return Check("journal", "fail", f"{path}: {damage}", fix)
    if lost_wal(path) is not None:  # asked first: opening it makes an empty -wal file
        return Check("journal", "fail", f"{path} holds no game, but its -wal file is missing "
                     "or empty: a copied journal's game may be in that file",
                     f"copy {path.name}-wal from beside the original journal to {path.parent}; "
                     "only if it really holds no game, `companion new --force` starts one")
    result: str | None = None
    tables: set[str] = set()
    error = ""
    for query in ("mode=ro", "immutable=1"):
        try:
            with contextlib.closing(
                sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, timeout=2)
            ) as db:
                row = db.execute("PRAGMA quick_check").fetchone()
                result = str(row[0]) if row else "no answer"
                tables = {name for (name,) in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
                break
        except sqlite3.DatabaseError as exc:
            error = str(exc)
    if result is None:
        return Check("journal", "fail", f"{path}: cannot be read as SQLite ({error})", fix)
    if not tables:
        return Check("journal", "warn", f"{path} holds no game (an empty file)",
                     "pick a game on the box's list (it offers one when it starts), or start "
                     "one with `companion new --system NAME` (or --scenario FILE)")
    if "events" not in tables:
        return Check("journal", "fail", f"{path} is an SQLite file but not a game journal",
                     "set [box] state_dir to the folder of the game's journal.sqlite3")
    if result != "ok":
        return Check("journal", "fail", f"{path}: quick_check says {result}", fix)
    why = unwritable(path)
    if why is not None and why.cause == "filesystem":
        return _unwritable_journal(path, why)  # first: a game in progress may not even read
    replayed = _replay_journal(path, fix)
    if isinstance(replayed, Check):
        return replayed
    if why is not None:
        return _unwritable_journal(path, why)
    size_kb = path.stat().st_size // 1024
    return Check("journal", "ok",
                 f"{path} ({size_kb} KB, quick_check ok, {replayed} events replay)")


def _replay_journal(path: Path, fix: str) -> int | Check:
    """How many events the journal holds when every one reads and the game replays; else
    the failed check, with what to do. Read-only: a running box is not disturbed."""
    from companion.errors import JournalError
    from companion.session.journal import Journal, misfit_event
    from companion.session.session import replay_journal

    try:
        journal = Journal(path, readonly=True)
        try:
            if journal.is_empty():
                return Check("journal", "warn", f"{path} holds no game (no event recorded)",
                             "pick a game on the box's list (it offers one when it starts), "
                             "or start one with `companion new --system NAME` (or "
                             "--scenario FILE)")
            return replay_journal(journal).events
        finally:
            journal.close()
    except JournalError as exc:
        message = str(exc)
        number = misfit_event(exc)
        if number is not None and number > 1:  # two boxes wrote it, or the rules changed
            return Check("journal", "fail", message,
                         "stop the box (sudo systemctl stop companion), then run `companion "
                         f"journal salvage`: it keeps the {number - 1} events before event "
                         f"{number} in a fresh journal and keeps this file aside")
        return Check("journal", "fail", message, fix)


def _unwritable_journal(path: Path, why: Unwritable) -> Check:
    """A journal the box cannot write (a read-only card, an immutable file) is no damage,
    but the game cannot go on: say which."""
    detail = f"{path} cannot be written: {why.detail}"
    if why.cause == "filesystem":
        return Check("journal", "fail", detail,
                     "remount it read-write, or set [box] state_dir to a writable folder "
                     "holding the journal (with its -wal file)")
    if os.geteuid() != 0 and _current_user() != SERVICE_USER:
        return Check("journal", "warn", f"{path} is not writable by this user",
                     f"run as the service user: sudo -u {SERVICE_USER} "
                     "/opt/companion/venv/bin/companion doctor")
    return Check("journal", "fail", detail,
                 f"make it writable: sudo chattr -i {path}; sudo chown -R "
                 f"{SERVICE_USER}: {path.parent}")


def check_python(on_pi: bool) -> Check:
    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    numpy = version("numpy")
    opencv = version("opencv-python-headless") or version("opencv-python")
    detail = f"numpy {numpy or 'missing'}, OpenCV {opencv or 'missing'}"
    if on_pi and numpy and int(numpy.split(".")[0]) >= 2:
        return Check(
            "python",
            "fail",
            detail + " (apt's picamera2 needs numpy 1.x)",
            "/opt/companion/venv/bin/pip uninstall -y numpy && /opt/companion/venv/bin/pip "
            "install 'opencv-python-headless==4.11.0.86' (or re-run the install script)",
        )
    if numpy is None or opencv is None:
        return Check("python", "fail" if on_pi else "warn", detail, f"re-run {INSTALL}")
    return Check("python", "ok", detail)


def check_service(system: System, on_pi: bool) -> Check:
    if not system.which("systemctl") or not system.path("/run/systemd/system").is_dir():
        return Check("service", "absent" if not on_pi else "skip", "systemd is not running here")
    code, out = system.command(
        ["systemctl", "show", "companion.service", "-p", "LoadState,ActiveState,StatusText"]
    )
    props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    if code != 0 or props.get("LoadState") != "loaded":
        return _missing(
            on_pi, "service", "companion.service is not installed", f"run {INSTALL}"
        )
    state = props.get("ActiveState", "unknown")
    status = props.get("StatusText", "")
    detail = f"companion.service {state}" + (f": {status}" if status else "")
    if state == "active":
        return Check("service", "ok", detail)
    return Check(
        "service",
        "fail" if state == "failed" else "warn",
        detail,
        "see why: journalctl -u companion -b; then sudo systemctl restart companion",
    )


# ---- running them --------------------------------------------------------------------


def _spi_node_to_check(reader: str, chips: Any) -> tuple[int, int]:
    """The reader's SPI node; with a chip-select pin that has none (the chip reader check
    says so), the [chips] spi_device one, so the bus itself is still looked at."""
    try:
        return spi_node(reader, chips)
    except ChipReaderError:
        return int(chips["spi_bus"]), int(chips["spi_device"])


def _guard(name: str, produce: Callable[[], Check | list[Check]]) -> Iterator[Check]:
    try:
        out = produce()
    except Exception as exc:  # a doctor never shows a traceback
        yield Check(name, "fail", f"the check itself failed: {type(exc).__name__}: {exc}",
                    "report this as a bug, with the output of `companion doctor --json`")
        return
    yield from out if isinstance(out, list) else [out]


def _hardware_setting(cfg: config_module.Config, hardware: str | None,
                      wanted: str) -> tuple[str, str]:
    """Where the box's hardware setting comes from, and how to make it `wanted` there."""
    if hardware:
        return f"--hw {hardware}", f"give --hw {wanted} (or leave it out)"
    override = os.environ.get(config_module.HW_ENV)
    if override:
        return (f"${config_module.HW_ENV}={override}",
                f"set {config_module.HW_ENV}={wanted} (or unset it)")
    where = cfg.path or config_module.DEFAULT_PATH
    return f"hardware = {cfg.hardware}", f'set [box] hardware = "{wanted}" in {where}'


def check_config(cfg: config_module.Config, on_pi: bool, hardware: str | None) -> Check:
    where = cfg.path or f"{config_module.DEFAULT_PATH} absent: defaults"
    setting, change = _hardware_setting(cfg, hardware, "pi" if on_pi else "sim")
    if on_pi and cfg.hardware != "pi":
        return Check("config", "warn", f"{where}: {setting}, so the box ignores its devices",
                     change)
    if not on_pi and cfg.hardware == "pi":
        return Check("config", "fail",
                     f"{where}: {setting}, but this is not a Raspberry Pi: the box would stop "
                     "at start with no GPIO",
                     f"run it on the Pi, or {change} to play with simulated hardware here")
    return Check("config", "ok", f"{where} ({setting})")


def _not_checked(name: str) -> Check:
    """A check of what the config alone decides (which chip reader, where the journal is),
    when the config cannot be read: the defaults would report on another box's setup."""
    return Check(name, "skip", "not checked: it depends on the config, which is refused "
                 "(see the config line)")


def run_checks(config_path: str | None, system: System | None = None,
               hardware: str | None = None) -> list[Check]:
    system = system or System()
    results: list[Check] = []
    results.extend(_guard("board", lambda: check_board(system)))
    on_pi = results[-1].status in ("ok", "warn")
    results.extend(_guard("os", lambda: check_os(system)))
    loaded: config_module.Config | None = None
    try:
        loaded = config_module.load(config_path, hardware=hardware)
    except CompanionError as exc:
        results.append(Check("config", "fail", str(exc), "fix the file, or leave out --config"))
    except Exception as exc:
        results.append(Check("config", "fail", f"cannot load the config: {exc}"))
    else:
        results.append(check_config(loaded, on_pi, hardware))
    # With the config refused, the devices are looked for where the defaults say: most
    # boxes are wired so, and a missing part is worth knowing while the file is fixed.
    cfg = loaded or config_module.validate({})

    display, chips, camera = cfg["display"], cfg["chips"], cfg["camera"]
    port = int(display["i2c_port"])
    reader = str(chips["reader"])
    spi_user = {"rc522": "RC522", "pn532-spi": "PN532"}.get(reader)
    results.extend(_guard("gpio", lambda: check_gpio(system, on_pi)))
    results.extend(_guard("i2c", lambda: check_i2c_bus(system, on_pi, port)))
    results.extend(
        _guard(
            "display",
            lambda: check_i2c_device(
                system,
                on_pi,
                "display",
                f"{str(display['driver']).upper()} display",
                port,
                int(display["i2c_address"]),
                "SDA GPIO2 pin 3, SCL GPIO3 pin 5, VCC 3.3 V pin 1, GND pin 9",
            ),
        )
    )
    results.extend(
        _guard(
            "spi",
            lambda: check_spi(system, on_pi, spi_user, *_spi_node_to_check(reader, chips)),
        )
    )
    results.extend(_guard("camera", lambda: check_camera(
        system, on_pi, str(camera["source"]), reader, str(camera["path"]))))
    if loaded is None:
        results.extend(_not_checked(name) for name in ("chip reader", "chip registry"))
    else:
        registry = loaded.chip_registry_path
        results.extend(_guard("chip reader",
                              lambda: check_chip_reader(system, on_pi, chips)))
        if reader != "sim":
            results.extend(_guard("chip registry", lambda: check_chip_registry(registry)))
    results.extend(_guard("groups", lambda: check_groups(system, on_pi)))
    if loaded is None:
        results.extend(_not_checked(name) for name in ("disk", "journal"))
    else:
        jpath = loaded.journal_path
        results.extend(_guard("disk", lambda: check_disk(jpath.parent)))
        results.extend(_guard("journal", lambda: check_journal(jpath)))
    results.extend(_guard("python", lambda: check_python(on_pi)))
    results.extend(_guard("service", lambda: check_service(system, on_pi)))
    return results


LABELS: dict[str, str] = {
    "ok": "ok",
    "absent": "absent",
    "skip": "skip",
    "warn": "WARN",
    "fail": "FAIL",
}


def exit_code(results: Sequence[Check]) -> int:
    return 1 if any(r.status == "fail" for r in results) else 0


def report(results: Sequence[Check]) -> str:
    width = max(len(r.name) for r in results)
    lines = []
    for r in results:
        lines.append(f"{LABELS[r.status]:<6}  {r.name:<{width}}  {r.detail}")
        if r.fix:
            lines.append(f"{'':<6}  {'':<{width}}  fix: {r.fix}")
    failures = sum(r.status == "fail" for r in results)
    warnings = sum(r.status == "warn" for r in results)
    verdict = "all good" if not failures else f"{failures} failure(s)"
    lines.append(f"\n{verdict}, {warnings} warning(s)")
    return "\n".join(lines)


def handle(args: argparse.Namespace, system: System | None = None) -> int:
    """The `doctor` command: print the report, return the exit code."""
    try:
        results = run_checks(getattr(args, "config", None), system, getattr(args, "hw", None))
        code = exit_code(results)
        if getattr(args, "json", False):
            print(json.dumps({"exit_code": code, "checks": [asdict(r) for r in results]},
                             indent=2))
        else:
            print(report(results))
        return code
    except Exception as exc:  # never a traceback
        print(f"companion doctor: internal error: {type(exc).__name__}: {exc}")
        return 2


def add_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "doctor",
        help="check the box's hardware, config and journal, with a fix for each failure",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    hardware_option(config_option(parser))
    parser.set_defaults(func=handle)
