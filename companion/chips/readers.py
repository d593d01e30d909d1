"""Choose a chip reader from the [chips] table of the config."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from companion.chips.base import ChipReader, ChipReaderError
from companion.config import DEFAULTS

READER_KINDS: tuple[str, ...] = ("sim", "usb-hid", "rc522", "pn532-spi", "pn532-i2c", "aruco")


#: The I2C bus a PN532 on I2C is opened on: the header's SDA/SCL pins (GPIO2/3).
PN532_I2C_BUS = 1


def _setting(settings: Mapping[str, Any], key: str) -> Any:
    return settings.get(key, DEFAULTS["chips"][key])


def spi_node(kind: str, settings: Mapping[str, Any]) -> tuple[int, int]:
    """(bus, device) of the /dev/spidevB.D an SPI reader opens: the RC522's
    [chips] spi_device; the PN532's chip-select pin's line (CE0 or CE1). One answer
    for the reader and for `companion doctor`, which looks for that node."""
    bus = int(_setting(settings, "spi_bus"))
    if kind == "pn532-spi":
        from companion.chips.pn532 import spi_device_for_cs

        return bus, spi_device_for_cs(int(_setting(settings, "pn532_cs_pin")))
    return bus, int(_setting(settings, "spi_device"))


def open_reader(
    kind: str,
    settings: Mapping[str, Any],
    camera_frames: Callable[[], np.ndarray | None] | None = None,
    pin_factory: Any = None,
) -> ChipReader:
    """The reader `kind` with its [chips] settings. Missing hardware or libraries give a
    ChipReaderError that says what to fix, never a traceback. Backends import their
    hardware libraries here, lazily, so this module imports on any machine. A reader
    with a GPIO pin of its own (the RC522's RST) drives it through `pin_factory`, the
    box's gpiozero factory, so that one process holds the GPIO chip once."""
    if kind == "sim":
        from companion.chips.sim import SimReader

        return SimReader()
    if kind == "usb-hid":
        from companion.chips.hid import open_usb_hid

        return open_usb_hid(
            str(_setting(settings, "device")),
            decimal_order=str(_setting(settings, "hid_decimal_order")),
        )
    if kind == "rc522":
        from companion.chips.rc522 import open_rc522

        return open_rc522(
            int(_setting(settings, "spi_bus")),
            int(_setting(settings, "spi_device")),
            int(_setting(settings, "rst_pin")),
            pin_factory,
        )
    if kind == "pn532-spi":
        from companion.chips.pn532 import open_pn532_spi

        return open_pn532_spi(
            int(_setting(settings, "spi_bus")), int(_setting(settings, "pn532_cs_pin"))
        )
    if kind == "pn532-i2c":
        from companion.chips.pn532 import open_pn532_i2c

        return open_pn532_i2c(int(_setting(settings, "pn532_i2c_address")), PN532_I2C_BUS)
    if kind == "aruco":
        if camera_frames is None:
            raise ChipReaderError(
                "aruco reader: it reads chips through the camera, but no camera frames were "
                "given; check the [camera] section, or choose another [chips] reader"
            )
        from companion.chips.aruco import ArucoReader

        return ArucoReader(camera_frames)
    raise ChipReaderError(
        f"chip reader {kind!r} is not known; [chips] reader is one of: {', '.join(READER_KINDS)}"
    )
