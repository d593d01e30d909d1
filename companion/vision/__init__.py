"""The referee box's eyes: frames in, dice out. Knows nothing of game rules.

See docs/vision.md for how it works, how to calibrate and teach, and how the shipped
models were trained.
"""

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
