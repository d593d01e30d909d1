"""Glue between the dice reader (which knows nothing of rules or the box) and the box."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.box import DiceSeen, SeenDie
from companion.config import Config


def reading_to_seen(reading: Any, nudged: bool = False) -> DiceSeen:
    """A vision FrameReading as the box's DiceSeen input; `nudged`: the settle detector
    saw too little movement before it for a throw (`SettleDetector.last_report_nudged`)."""
    return DiceSeen(
        tuple(SeenDie(d.kind, int(d.value), tuple(d.box)) for d in reading.dice),
        tuple((tuple(u.box), u.reason) for u in reading.unreadable),
        nudged,
    )


def make_reader(cfg: Config | None = None, kinds: tuple[str, ...] = ("d6", "d10")) -> Any:
    from companion.vision import Calibration, DiceReader

    calibration = None
    logo_dir = None
    if cfg is not None:
        stored = cfg["dice"]["calibration"]
        calibration = Calibration.from_dict(stored) if stored else None
        logo_dir = (
            Path(cfg["dice"]["logo_faces_dir"]).expanduser()
            if cfg["dice"]["logo_faces_dir"]
            else None
        )
    return DiceReader(calibration=calibration, kinds=kinds, logo_faces_dir=logo_dir)


def settle_detector(cfg: Config, kinds: tuple[str, ...] = ("d6", "d10")) -> Any:
    from companion.vision import SettleDetector

    return SettleDetector(
        make_reader(cfg, kinds), still_seconds=float(cfg["dice"]["still_seconds"])
    )


def photo_reader(cfg: Config, kinds: tuple[str, ...]) -> Callable[[Path], DiceSeen]:
    """The dice in a photo, read as the camera's frames are (with the config's calibration
    and logo faces), for a rehearsed roll: an unreadable die is refused as at the table.
    The reader is made for the first photo: it loads OpenCV and the dice models."""
    reader = functools.cache(lambda: make_reader(cfg, kinds))

    def read(path: Path) -> DiceSeen:
        from companion.vision import load_image

        return reading_to_seen(reader().read(load_image(path)))

    return read
