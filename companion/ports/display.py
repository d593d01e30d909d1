"""The 128x64 OLED: luma.oled SSD1306/SH1106 on I2C, or luma's dummy device.

Both backends draw through the same luma device API; the sim backend keeps
every frame (PNG files and/or terminal art) so a person can read the screens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from companion.config import rotation_problem
from companion.errors import HardwareError

WIDTH, HEIGHT = 128, 64
log = logging.getLogger(__name__)


def check_rotation(rotate: int) -> None:
    problem = rotation_problem(rotate)
    if problem:
        raise HardwareError(problem)


class Display(Protocol):
    def show(self, image: Image.Image, name: str = "") -> None: ...

    def close(self) -> None: ...


class LumaDisplay:
    """Sends frames to any luma device (real OLED or dummy)."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def show(self, image: Image.Image, name: str = "") -> None:
        self.device.display(image.convert(self.device.mode))

    def close(self) -> None:
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup is not None:
            try:
                cleanup()
            except Exception:  # already gone: nothing to release
                log.debug("display cleanup failed", exc_info=True)


class SimDisplay(LumaDisplay):
    """luma's dummy device, keeping frames as PNGs and optionally printing them."""

    def __init__(
        self,
        frames_dir: Path | None = None,
        printer: Callable[[str], None] | None = None,
        rotate: int = 0,
    ) -> None:
        from luma.core.device import dummy

        check_rotation(rotate)
        super().__init__(dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1"))
        self.frames_dir = frames_dir
        self.printer = printer
        self.frames: list[Image.Image] = []
        self.names: list[str] = []
        if frames_dir is not None:
            frames_dir.mkdir(parents=True, exist_ok=True)

    @property
    def last(self) -> Image.Image:
        return self.device.image  # type: ignore[no-any-return]

    def show(self, image: Image.Image, name: str = "") -> None:
        super().show(image, name)
        frame = self.device.image.copy()
        self.frames.append(frame)
        self.names.append(name)
        if self.frames_dir is not None:
            label = f"-{name}" if name else ""
            frame.save(self.frames_dir / f"frame-{len(self.frames):04d}{label}.png")
        if self.printer is not None:
            self.printer(terminal_art(frame))


def terminal_art(image: Image.Image) -> str:
    """The frame as text, two pixel rows per character cell (half blocks)."""
    mono = image.convert("1")
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None
    rows = ["+" + "-" * width + "+"]
    for y in range(0, height, 2):
        line = []
        for x in range(width):
            top = bool(pixels[x, y])
            bottom = bool(pixels[x, y + 1]) if y + 1 < height else False
            line.append(
                {(True, True): "█", (True, False): "▀", (False, True): "▄"}.get((top, bottom), " ")
            )
        rows.append("|" + "".join(line) + "|")
    rows.append("+" + "-" * width + "+")
    return "\n".join(rows)


def open_pi_display(driver: str, port: int, address: int, rotate: int, contrast: int) -> Display:
    """The real OLED, or HardwareError saying how to check the wiring and I2C."""
    check_rotation(rotate)
    try:
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106, ssd1306
    except ImportError as exc:
        raise HardwareError(f"luma.oled is not installed ({exc}); pip install luma.oled") from None
    try:
        serial = i2c(port=port, address=address)
        device_class = ssd1306 if driver == "ssd1306" else sh1106
        device = device_class(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
        device.contrast(contrast)
    except Exception as exc:
        raise HardwareError(
            f"no {driver} display at I2C bus {port} address {address:#04x} ({exc}); "
            "check the wiring, that I2C is enabled (dtparam=i2c_arm=on) and run "
            f"'i2cdetect -y {port}'"
        ) from None
    return LumaDisplay(device)
