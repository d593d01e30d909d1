"""The referee box's eyes: frames in, dice out. Knows nothing of game rules.

See docs/vision.md for how it works, how to calibrate and teach, and how the shipped
models were trained.

The names below are imported when first used: ``companion.vision.types`` (the calibration
and its validator) is what the box's config check needs, and it must not pull in OpenCV,
numpy and the models for that.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calibrate import calibrate_from_frames
    from .compose import compose_tray
    from .imageio import load_image
    from .reader import DiceReader
    from .settle import SettleDetector
    from .types import (
        KINDS,
        UNREADABLE_REASONS,
        Calibration,
        DieReading,
        FrameReading,
        UnreadableDie,
        VisionError,
    )

_HOME = {
    "KINDS": ".types",
    "UNREADABLE_REASONS": ".types",
    "Calibration": ".types",
    "DiceReader": ".reader",
    "DieReading": ".types",
    "FrameReading": ".types",
    "SettleDetector": ".settle",
    "UnreadableDie": ".types",
    "VisionError": ".types",
    "calibrate_from_frames": ".calibrate",
    "compose_tray": ".compose",
    "load_image": ".imageio",
}

__all__ = [
    "KINDS",
    "UNREADABLE_REASONS",
    "Calibration",
    "DiceReader",
    "DieReading",
    "FrameReading",
    "SettleDetector",
    "UnreadableDie",
    "VisionError",
    "calibrate_from_frames",
    "compose_tray",
    "load_image",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
