"""hardware/wiring.md matches the config defaults, and the wiring diagram agrees."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from companion.config import DEFAULTS, SCHEMA

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"

# BCM GPIO -> physical header pin, for the 40-pin header of every Pi since the B+.
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
CHIP_SELECT = {"CE0": (0, 8), "CE1": (1, 7)}  # spi_device, GPIO


def signal_rows() -> list[dict[str, str]]:
    text = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    section = text.split("## Signals", 1)[1].split("\n## ", 1)[0]
    lines = [ln.strip() for ln in section.splitlines() if ln.strip().startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == len(header), line
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def parse_value(key: str, value: str) -> tuple[int, int | None]:
    """The table's value as the config's number, and the GPIO it uses if any."""
    if match := re.fullmatch(r"GPIO(\d+)", value):
        return int(match[1]), int(match[1])
    if match := re.fullmatch(r"(CE[01]) \(GPIO(\d+)\)", value):
        device, gpio = CHIP_SELECT[match[1]]
        assert int(match[2]) == gpio, f"{value}: {match[1]} is GPIO{gpio}"
        return device, gpio
    if value.startswith("0x"):
        return int(value, 16), None
    return int(value), None


def config_key(row: dict[str, str]) -> tuple[str, str]:
    section, _, key = row["Config key"].strip("`").partition(".")
    return section, key


def test_every_row_matches_the_defaults() -> None:
    rows = signal_rows()
    assert rows
    for row in rows:
        section, key = config_key(row)
        assert key in SCHEMA.get(section, {}), f"{row['Config key']} is not a config key"
        value, gpio = parse_value(key, row["Value"])
        assert value == DEFAULTS[section][key], (
            f"wiring.md says {row['Config key']} = {row['Value']}, "
            f"config default is {DEFAULTS[section][key]}"
        )
        if gpio is not None:
            pins = [int(p) for p in re.findall(r"\d+", row["Header pin"])]
            assert pins == [HEADER[gpio]], f"GPIO{gpio} is header pin {HEADER[gpio]}: {row}"


def test_every_pin_default_is_in_the_table() -> None:
    listed = {config_key(row) for row in signal_rows()}
    wanted = {
        (section, key)
        for section, keys in SCHEMA.items()
        for key in keys
        if key.endswith("_pin") or key == "pin" or key.endswith("_address")
        or key in ("i2c_port", "spi_bus", "spi_device")
    }
    assert wanted - listed == set(), f"not in hardware/wiring.md: {sorted(wanted - listed)}"


def test_no_gpio_used_twice() -> None:
    used: dict[int, str] = {}
    for row in signal_rows():
        _, gpio = parse_value("", row["Value"])
        if gpio is None:
            continue
        assert gpio not in used, f"GPIO{gpio}: {used.get(gpio)} and {row['Config key']}"
        used[gpio] = row["Config key"]
    # and none of the config's pins sit on the I2C or SPI bus lines
    assert not set(used) & {2, 3, 9, 10, 11}


def svg_labels() -> list[str]:
    tree = ET.parse(HARDWARE / "wiring.svg")
    return ["".join(el.itertext()) for el in tree.iter() if el.tag.endswith("text")]


@pytest.mark.parametrize(
    "section,key",
    [(s, k) for s, keys in SCHEMA.items() for k in keys if k.endswith("pin") and s != "chips"]
    + [("chips", "rst_pin"), ("chips", "irq_pin")],
)
def test_diagram_labels_each_default_gpio(section: str, key: str) -> None:
    gpio: Any = DEFAULTS[section][key]
    labels = " ".join(svg_labels())
    assert re.search(rf"\bGPIO{gpio}\b", labels), f"wiring.svg has no GPIO{gpio} ({key})"


def test_diagram_shows_display_address() -> None:
    labels = " ".join(svg_labels())
    assert f"0x{DEFAULTS['display']['i2c_address']:02X}" in labels
