"""The box's one config file (TOML), validated at start.

Found at `--config FILE`, else `$COMPANION_CONFIG`, else the default path;
a missing default file means all defaults. Every error names the file, the
key and what is allowed. docs/config.example.toml is the annotated example and
a test checks it matches `DEFAULTS`.
"""

from __future__ import annotations

import contextlib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

DEFAULT_PATH = Path("/etc/companion/companion.toml")
HW_ENV = "COMPANION_HW"
CONFIG_ENV = "COMPANION_CONFIG"


#: The installed service's StateDirectory (systemd/companion.service).
SERVICE_STATE_DIR = Path("/var/lib/companion")


def default_state_dir() -> Path:
    """Where the journal lives: systemd's StateDirectory for the service; on a box where
    the service is installed, that same folder for every command (else `companion new`
    typed over SSH would start a game the service never sees); else XDG."""
    if "STATE_DIRECTORY" in os.environ:
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    if SERVICE_STATE_DIR.is_dir():
        return SERVICE_STATE_DIR
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "companion"


# Each key: (default, allowed). `allowed` is a tuple of choices, a (min, max)
# range for numbers, or a type for free values. The wiring table in hardware/
# is tested against the pin numbers here (BCM numbering).
_Spec = tuple[Any, Any]
SCHEMA: dict[str, dict[str, _Spec]] = {
    "box": {
        "hardware": ("sim", ("sim", "pi")),
        "state_dir": ("", str),  # empty: default_state_dir()
        "log_level": ("info", ("debug", "info", "warning", "error")),
        "scenarios_dir": ("", str),  # the box's "New game" list; empty: state_dir/scenarios
    },
    "display": {
        "driver": ("ssd1306", ("ssd1306", "sh1106")),
        "i2c_port": (1, (0, 10)),
        "i2c_address": (0x3C, (0x03, 0x77)),
        "rotate": (0, (0, 2)),  # quarter turns, as luma counts them; 1 is refused
        "contrast": (255, (0, 255)),
        "frames_dir": ("", str),  # sim: keep every frame as PNG here
        "print_frames": (False, bool),  # sim: draw frames in the terminal
    },
    "sounder": {
        "pin": (18, (2, 27)),
        "mute": (False, bool),
        "octave_shift": (0, (-2, 2)),
    },
    "controls": {
        "kind": ("buttons", ("buttons", "encoder", "both")),
        "up_pin": (5, (2, 27)),
        "down_pin": (6, (2, 27)),
        "select_pin": (13, (2, 27)),
        "back_pin": (19, (2, 27)),
        "encoder_a_pin": (20, (2, 27)),
        "encoder_b_pin": (21, (2, 27)),
        "encoder_push_pin": (26, (2, 27)),
        "long_press_seconds": (0.8, (0.2, 5.0)),
        "bounce_seconds": (0.02, (0.0, 0.5)),
    },
    "camera": {
        "source": ("picamera2", ("picamera2", "files", "video")),
        "path": ("", str),  # files: an image or a folder; video: a device index or URL
        "width": (1280, (160, 4608)),
        "height": (960, (120, 3456)),
        "fps": (30, (1, 120)),
    },
    "dice": {
        "still_seconds": (0.2, (0.05, 5.0)),
        # Bigger rolls are asked for in several throws (docs/config.example.toml).
        "d6_per_throw": (12, (1, 30)),
        "d10_per_throw": (10, (1, 30)),  # percentile dice count as d10s
        "logo_faces_dir": ("", str),
        "calibration": ({}, dict),  # written by `companion dice calibrate`
    },
    "chips": {
        "reader": ("sim", ("sim", "usb-hid", "rc522", "pn532-spi", "pn532-i2c", "aruco")),
        "device": ("", str),  # usb-hid: /dev/input/by-id/... (empty: first HID reader found)
        "hid_decimal_order": (
            "little",
            ("little", "big"),
        ),  # how decimal-typing readers order UID bytes
        "spi_bus": (0, (0, 1)),
        "spi_device": (0, (0, 1)),  # chip select: CE0 for the RC522
        "rst_pin": (25, (2, 27)),
        "irq_pin": (24, (2, 27)),
        "pn532_cs_pin": (7, (2, 27)),  # CE1
        "pn532_i2c_address": (0x24, (0x03, 0x77)),
        "repeat_seconds": (1.5, (0.1, 30.0)),  # the same tag again within this is one draw
        "registry": ("", str),  # chip id -> name file; empty: in the state dir
    },
}

DEFAULTS: dict[str, dict[str, Any]] = {
    section: {key: spec[0] for key, spec in keys.items()} for section, keys in SCHEMA.items()
}


@dataclass(frozen=True)
class Config:
    """Validated settings; `raw` keeps every section with defaults filled in."""

    path: Path | None
    raw: Mapping[str, Mapping[str, Any]]

    def __getitem__(self, section: str) -> Mapping[str, Any]:
        return self.raw[section]

    @property
    def hardware(self) -> str:
        return str(self.raw["box"]["hardware"])

    @property
    def state_dir(self) -> Path:
        configured = str(self.raw["box"]["state_dir"])
        return Path(configured).expanduser() if configured else default_state_dir()

    @property
    def journal_path(self) -> Path:
        return self.state_dir / "journal.sqlite3"

    @property
    def scenarios_dir(self) -> Path:
        """[box] scenarios_dir, else the scenarios folder in the state folder: the scenario
        files the box offers when a referee starts a new game from its buttons."""
        configured = str(self["box"]["scenarios_dir"])
        return Path(configured).expanduser() if configured else self.state_dir / "scenarios"

    @property
    def chip_registry_path(self) -> Path:
        """[chips] registry, else chips.toml in the state folder (one answer for the box,
        the chips commands and doctor)."""
        configured = str(self["chips"]["registry"])
        return Path(configured).expanduser() if configured else self.state_dir / "chips.toml"


def _check(where: str, key: str, value: Any, spec: _Spec) -> Any:
    default, allowed = spec
    name = f"{where}: [{key.split('.')[0]}] {key.split('.')[1]}"
    if isinstance(allowed, tuple) and all(isinstance(a, str) for a in allowed):
        if value not in allowed:
            raise ConfigError(
                f"{name} = {value!r} is not allowed; use one of: {', '.join(allowed)}"
            )
        return value
    if isinstance(allowed, tuple):
        low, high = allowed
        wanted = float if isinstance(default, float) else int
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{name} = {value!r} must be a number from {low} to {high}")
        if wanted is int and not isinstance(value, int):
            raise ConfigError(f"{name} = {value!r} must be a whole number from {low} to {high}")
        if not low <= value <= high:
            raise ConfigError(f"{name} = {value!r} is out of range; use {low} to {high}")
        return wanted(value)
    if allowed is bool and not isinstance(value, bool):
        raise ConfigError(f"{name} = {value!r} must be true or false")
    if allowed is str and not isinstance(value, str):
        raise ConfigError(f"{name} = {value!r} must be a quoted string")
    if allowed is dict and not isinstance(value, dict):
        raise ConfigError(f"{name} must be a table")
    return value


def validate(data: Mapping[str, Any], where: str = "config") -> Config:
    raw: dict[str, dict[str, Any]] = {s: dict(v) for s, v in DEFAULTS.items()}
    for section, values in data.items():
        if section not in SCHEMA:
            raise ConfigError(
                f"{where}: unknown section [{section}]; sections are: {', '.join(SCHEMA)}"
            )
        if not isinstance(values, dict):
            raise ConfigError(f"{where}: {section} must be a table, written [{section}]")
        for key, value in values.items():
            if key not in SCHEMA[section]:
                raise ConfigError(
                    f"{where}: unknown key {key!r} in [{section}]; "
                    f"keys are: {', '.join(SCHEMA[section])}"
                )
            raw[section][key] = _check(where, f"{section}.{key}", value, SCHEMA[section][key])
    _check_pins(where, raw)
    _check_dice(where, raw["dice"])
    scenarios = raw["box"]["scenarios_dir"]
    if scenarios and Path(scenarios).expanduser().exists() and not Path(
            scenarios).expanduser().is_dir():
        raise ConfigError(
            f"{where}: [box] scenarios_dir = {scenarios!r} is a file, not a folder; name the "
            "folder you copy scenario files into, or leave it empty for the scenarios folder "
            "in the state folder")
    problem = rotation_problem(raw["display"]["rotate"])
    if problem:  # here, not when the panel opens: that would read as a lost display
        raise ConfigError(f"{where}: {problem}")
    return Config(path=None, raw=raw)


def rotation_problem(rotate: int) -> str:
    """Why an OLED rotation cannot be used, or "": only half turns, since a quarter
    turn makes the panel 64 wide and 128 tall and the screens are laid out for 128x64."""
    if rotate in (0, 2):
        return ""
    return (f"[display] rotate = {rotate} stands the OLED on its side (64x128) and the "
            "screens are 128x64: use 0, or 2 for a panel mounted upside down")


def _check_dice(where: str, dice: Mapping[str, Any]) -> None:
    """The calibration table and the logo-face folder, checked here: the camera thread
    meets them only on the Pi, where a bad one would leave the box without dice. The
    calibration's rules are the dice reader's own (`Calibration.from_dict`, pure Python:
    no OpenCV is loaded for it), so the config accepts exactly what the reader reads."""
    from companion.vision.types import Calibration, VisionError

    logo_dir = dice["logo_faces_dir"]
    if logo_dir and Path(logo_dir).expanduser().exists() and not Path(
            logo_dir).expanduser().is_dir():
        raise ConfigError(
            f"{where}: [dice] logo_faces_dir = {logo_dir!r} is a file, not a folder; name the "
            "folder `companion dice teach --store` writes to, or leave it empty"
        )
    try:
        Calibration.from_dict(dice["calibration"])
    except VisionError as exc:
        raise ConfigError(f"{where}: {exc}") from None


#: GPIO pins the buses take: I2C bus 1 (the display), and SPI 0 when a chip reader uses it.
I2C1_PINS = {2: "I2C SDA", 3: "I2C SCL"}
SPI0_PINS = {9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK", 8: "SPI CE0", 7: "SPI CE1"}


def _check_pins(where: str, raw: Mapping[str, Mapping[str, Any]]) -> None:
    """Each GPIO pin in use does one job: two buttons on one pin (or a button on the
    display's bus) would fail only when the box starts, with a driver's error."""
    jobs: dict[int, str] = {} if raw["display"]["i2c_port"] != 1 else dict(I2C1_PINS)
    reader = raw["chips"]["reader"]
    if reader in ("rc522", "pn532-spi"):
        cs = 8 if raw["chips"]["spi_device"] == 0 else 7
        if reader == "pn532-spi":
            cs = int(raw["chips"]["pn532_cs_pin"])
        jobs.update({pin: job for pin, job in SPI0_PINS.items() if pin in (9, 10, 11, cs)})
    used = [("sounder", "pin")]
    kind = raw["controls"]["kind"]
    if kind in ("buttons", "both"):
        used += [("controls", f"{name}_pin") for name in ("up", "down", "select", "back")]
    if kind in ("encoder", "both"):
        used += [("controls", f"encoder_{name}_pin") for name in ("a", "b", "push")]
    if reader == "rc522":
        used.append(("chips", "rst_pin"))
    for section, key in used:
        pin = int(raw[section][key])
        if pin in jobs:
            raise ConfigError(
                f"{where}: [{section}] {key} = {pin} is also {jobs[pin]}; each GPIO pin can do "
                "one job (docs/config.example.toml lists the defaults)"
            )
        jobs[pin] = f"[{section}] {key}"


def _config_file(path: Path | str | None) -> tuple[Path, bool]:
    """The file to read and whether it was named (a named one must exist)."""
    explicit = path if path is not None else os.environ.get(CONFIG_ENV) or None
    return (Path(explicit) if explicit else DEFAULT_PATH), bool(explicit)


#: Where Linux names the board; a Raspberry Pi's says "Raspberry Pi 5 Model B Rev 1.0".
BOARD_MODEL_FILE = Path("/proc/device-tree/model")


def settings_for_an_error_screen(
    path: Path | str | None = None, *, hardware: str | None = None,
    board_model_file: Path = BOARD_MODEL_FILE,
) -> Config:
    """What a box whose config was refused can still use to say so on its display.

    The referee reads the OLED, not the log, and a refused config otherwise leaves the
    panel dark. Each [box] hardware and [display] setting of the file that passes on its
    own is kept and the rest are defaults (a file that is not TOML at all gives all
    defaults); with no usable hardware setting, a Raspberry Pi is taken to be the box.
    """
    file, _named = _config_file(path)
    try:
        data: Any = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        data = {}
    raw = {section: dict(values) for section, values in DEFAULTS.items()}
    try:
        on_a_pi = board_model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        on_a_pi = False
    raw["box"]["hardware"] = "pi" if on_a_pi else "sim"
    for section, keys in (("box", ("hardware",)), ("display", tuple(SCHEMA["display"]))):
        values = data.get(section)
        for key in keys if isinstance(values, dict) else ():
            # A setting that fails its own check is (part of) what was refused.
            with contextlib.suppress(ConfigError):
                if key in values:
                    raw[section][key] = _check("", f"{section}.{key}", values[key],
                                               SCHEMA[section][key])
    if rotation_problem(raw["display"]["rotate"]):
        raw["display"]["rotate"] = DEFAULTS["display"]["rotate"]
    override = hardware or os.environ.get(HW_ENV)
    if override in SCHEMA["box"]["hardware"][1]:
        raw["box"]["hardware"] = override
    return Config(path=None, raw=raw)


def load(path: Path | str | None = None, *, hardware: str | None = None) -> Config:
    """Load and validate the config: explicit path, then $COMPANION_CONFIG, then default.

    An explicitly named file must exist; the default one may be absent.
    `hardware` or $COMPANION_HW overrides [box] hardware.
    """
    file, explicit = _config_file(path)
    data: dict[str, Any] = {}
    if file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: not valid TOML ({exc}); fix the line it names") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file}: cannot be read ({exc})") from None
    elif explicit:
        raise ConfigError(
            f"{file}: config file not found; create it (see docs/config.example.toml) "
            "or leave out --config to use the defaults"
        )
    config = validate(data, where=str(file))
    override = hardware or os.environ.get(HW_ENV)
    raw = {s: dict(v) for s, v in config.raw.items()}
    if override:
        raw["box"]["hardware"] = _check(
            f"${HW_ENV}", "box.hardware", override, SCHEMA["box"]["hardware"]
        )
    return Config(path=file if file.exists() else None, raw=raw)
