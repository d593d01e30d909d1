"""Plain data types of the vision package: what a frame reading looks like, and the
calibration with its one validator (``Calibration.from_dict``).

Pure Python on purpose: the box's config check imports this module, and must not pull in
OpenCV or numpy to do so."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

KINDS = ("d6", "d10", "percentile")
UNREADABLE_REASONS = ("cocked", "stacked", "touching", "blurred", "outside tray", "unclear face")

Box = tuple[int, int, int, int]


class VisionError(ValueError):
    """A user-facing problem: the message says what was wrong and what to do about it.

    A ValueError, as the rules' errors are: the main CLI prints such errors as one line
    (``error: ...``, exit status 2) instead of a traceback."""


@dataclass(frozen=True)
class DieReading:
    """One die read from the frame.

    kind: "d6" | "d10" | "percentile"; value: d6 1..6, d10 0..9, percentile tens digit 0..9
    (meaning 00..90); box: x, y, w, h in pixels of the frame given; confidence 0..1.
    A d10 showing 0 is value 0 and a percentile die showing "00" is value 0: whether either
    means 10 or 100 is for the rules, not the reader.
    """

    kind: str
    value: int
    box: Box
    confidence: float


@dataclass(frozen=True)
class UnreadableDie:
    """A die that was found but must be rolled again; ``reason`` is one of UNREADABLE_REASONS."""

    box: Box
    reason: str


@dataclass(frozen=True)
class FrameReading:
    dice: tuple[DieReading, ...]
    unreadable: tuple[UnreadableDie, ...]
    millis: float

    def scaled(self, factor: int) -> FrameReading:
        """The same reading with its boxes in the pixels of a picture `factor` times as
        large (a photo decoded at a reduced size, see `imageio.JPEG_REDUCTIONS`)."""

        def grown(box: Box) -> Box:
            x, y, w, h = box
            return x * factor, y * factor, w * factor, h * factor

        return replace(
            self,
            dice=tuple(replace(d, box=grown(d.box)) for d in self.dice),
            unreadable=tuple(replace(u, box=grown(u.box)) for u in self.unreadable),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form used by ``companion dice read --json``."""
        return {
            "dice": [
                {"kind": d.kind, "value": d.value, "box": list(d.box),
                 "confidence": round(d.confidence, 4)}
                for d in self.dice
            ],
            "unreadable": [{"box": list(u.box), "reason": u.reason} for u in self.unreadable],
            "millis": round(self.millis, 2),
        }


#: The keys of [dice.calibration], as `companion dice calibrate` writes them.
CALIBRATION_KEYS = ("version", "frame_size", "die_px", "gains", "tray", "corners")
CALIBRATION_TABLE = "[dice.calibration]"
RECALIBRATE = "run `companion dice calibrate` again"
#: Frame sides a calibration may be made on: the reader refuses smaller frames
#: (``imageio.MIN_SIDE``) and no image format holds larger ones.
FRAME_SIDES = (32, 65535)
#: A calibrated die size is 0 (unknown: measured in each frame) or at least this many
#: pixels: the detector enlarges a frame at most 4 times and needs a die of ~22 px.
MIN_DIE_PX = 4.0
#: Gains are a white balance: `companion dice calibrate` writes 0.7-1.4. Outside two stops
#: either way a channel is crushed or blown out, and nothing can be read.
GAIN_RANGE = (0.25, 4.0)
#: A tray, and every side and the width of a corner quadrilateral, must be at least this
#: share of the frame's longer side, and at least MIN_TRAY_PX: anything thinner holds no die
#: (a 640x1 sliver once passed as corners).
MIN_TRAY_SHARE = 0.01
MIN_TRAY_PX = 16.0
#: How far a frame's aspect ratio may differ from the calibration's ``frame_size`` (the
#: same sensor mode cropped by a few pixels); beyond it the calibration is for another
#: camera mode, and stretching it would misplace the tray (``Calibration.frame_scale``).
ASPECT_TOLERANCE = 0.01


def _is_number(value: Any, whole: bool = False) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, numbers.Integral if whole else numbers.Real)


def _corner_problem(points: Sequence[tuple[float, float]], least: float) -> str:
    """Why four points do not outline a tray floor, or "": a convex quadrilateral whose
    sides and width are all at least ``least`` pixels."""
    cx = sum(x for x, _ in points) / 4
    cy = sum(y for _, y in points) / 4
    ring = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    turns = []
    for i in range(4):
        (x0, y0), (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % 4], ring[(i + 2) % 4]
        turns.append((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1))
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        return "they do not outline a convex four-sided floor"
    sides = [math.dist(ring[i], ring[(i + 1) % 4]) for i in range(4)]
    area = abs(sum(ring[i][0] * ring[(i + 1) % 4][1] - ring[(i + 1) % 4][0] * ring[i][1]
                   for i in range(4))) / 2
    # Area over the longest side: how wide the outline is across (a sliver's is ~0).
    narrowest = min(*sides, area / max(sides))
    if narrowest < least:
        return (f"the outline is only {narrowest:.0f} px across at its narrowest, and a tray "
                f"floor is at least {least:.0f} px across (1 % of the frame)")
    return ""


@dataclass(frozen=True)
class Calibration:
    """What the reader knows about the camera and tray.

    All geometry is stored in the pixels of a reference frame of ``frame_size`` (width,
    height) and scaled to the frames actually read, so changing the capture resolution keeps
    the calibration valid, as long as the frame's shape stays the same (``frame_scale``).

    tray: x, y, w, h of the tray floor, or None for "the whole frame".
    die_px: typical die size (box side) in reference pixels, 0 when unknown (the reader then
        estimates it from each frame, which costs a second detector pass on unusual scales).
    gains: per-channel (B, G, R) multipliers that make the empty tray neutral grey; the
        lighting normalisation applied before reading.
    corners: the tray floor's four corners (top-left, top-right, bottom-right, bottom-left)
        when the camera sees it at an angle, or None. The reader then straightens the tray
        before reading (``perspective``), and ``die_px`` is in the straightened view.

    Build one from a config table with ``from_dict``, the one place where calibrations are
    validated (the box's config check, ``dice calibrate`` and the reader all use it).
    """

    frame_size: tuple[int, int] = (640, 640)
    tray: Box | None = None
    die_px: float = 0.0
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    corners: tuple[tuple[float, float], ...] | None = None
    version: int = 1
    extra: tuple[tuple[str, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """TOML-friendly: ints, floats, strings and lists only (no None)."""
        d: dict[str, Any] = {
            "version": self.version,
            "frame_size": [int(self.frame_size[0]), int(self.frame_size[1])],
            "die_px": float(self.die_px),
            "gains": [float(g) for g in self.gains],
        }
        if self.tray is not None:
            d["tray"] = [int(v) for v in self.tray]
        if self.corners is not None:
            d["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, advice: str = RECALIBRATE) -> Calibration:
        """A ``[dice.calibration]`` table, checked completely, or a VisionError whose message
        names the setting, what is wrong and ``advice`` (what to do).

        The messages start with ``[dice.calibration]``; a caller that knows the file puts
        its name in front.
        """
        name = CALIBRATION_TABLE

        def refuse(message: str) -> VisionError:
            return VisionError(f"{name} {message}; {advice}")

        if not isinstance(d, Mapping):
            raise refuse(f"must be a table, not {type(d).__name__}")
        unknown = sorted(str(k) for k in set(d) - set(CALIBRATION_KEYS))
        if unknown:
            raise refuse(f"has unknown key(s) {', '.join(unknown)}; its keys are: "
                         f"{', '.join(CALIBRATION_KEYS)}")

        def numbers_of(key: str, value: Any, count: int, what: str,
                       whole: bool = False) -> list[Any]:
            if (not isinstance(value, Sequence) or isinstance(value, str)
                    or len(value) != count or not all(_is_number(v, whole) for v in value)):
                raise refuse(f"{key} = {value!r} must be {what}")
            if not all(math.isfinite(v) for v in value):
                raise refuse(f"{key} = {value!r} holds a number that is not finite")
            return list(value)

        version = d.get("version", 1)
        if not _is_number(version, whole=True) or version < 1:
            raise refuse(f"version = {version!r} must be a whole number from 1")
        width, height = numbers_of("frame_size", d.get("frame_size", [640, 640]), 2,
                                   "[WIDTH, HEIGHT] in whole pixels", whole=True)
        if width <= 0 or height <= 0:
            raise refuse(f"frame_size = {[width, height]} must be positive")
        low, high = FRAME_SIDES
        if not (low <= width <= high and low <= height <= high):
            raise refuse(f"frame_size = {[width, height]} is not the size of a camera frame "
                         f"(each side {low} to {high} pixels)")
        longer = max(width, height)
        die_px = d.get("die_px", 0.0)
        if not _is_number(die_px) or not (die_px == 0 or MIN_DIE_PX <= die_px <= longer):
            raise refuse(f"die_px = {die_px!r} is not a die size in pixels; use 0 (the reader "
                         f"measures it in each frame) or {MIN_DIE_PX:g} to {longer}")
        gains = numbers_of("gains", d.get("gains", [1.0, 1.0, 1.0]), 3,
                           "three numbers, the blue, green and red gains")
        low_gain, high_gain = GAIN_RANGE
        if not all(low_gain <= g <= high_gain for g in gains):
            raise refuse(f"gains = {gains!r} is out of range; each gain is from {low_gain:g} "
                         f"to {high_gain:g} (`companion dice calibrate` writes 0.7 to 1.4)")
        least = max(MIN_TRAY_PX, MIN_TRAY_SHARE * longer)
        # Corners first: a tray found from corners is the box around them.
        corners = None
        if "corners" in d:
            value = d["corners"]
            if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 4:
                raise refuse(f"corners = {value!r} must be four [X, Y] points")
            points = [numbers_of("corners", p, 2, "an [X, Y] point") for p in value]
            for point in points:
                if not (-1 <= point[0] <= width + 1 and -1 <= point[1] <= height + 1):
                    raise refuse(f"corners point {point!r} is outside the {width}x{height} "
                                 "frame_size")
            problem = _corner_problem([(float(x), float(y)) for x, y in points], least)
            if problem:
                raise refuse(f"corners = {value!r} do not outline a tray floor: {problem}")
            corners = tuple((float(x), float(y)) for x, y in points)
        tray = None
        if "tray" in d:
            x, y, w, h = numbers_of("tray", d["tray"], 4,
                                    "[X, Y, WIDTH, HEIGHT] in whole pixels", whole=True)
            if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > width or y + h > height:
                raise refuse(f"tray = {d['tray']!r} does not fit in the {width}x{height} "
                             "frame_size")
            if min(w, h) < least:
                raise refuse(f"tray = {d['tray']!r} is too small to hold a die: each side "
                             f"must be at least {least:.0f} pixels (1 % of the frame)")
            tray = (int(x), int(y), int(w), int(h))
        return cls(frame_size=(int(width), int(height)), tray=tray, die_px=float(die_px),
                   gains=(float(gains[0]), float(gains[1]), float(gains[2])),
                   corners=corners, version=int(version))

    def checked(self) -> Calibration:
        """This calibration, after the checks of ``from_dict`` (for one built in code)."""
        Calibration.from_dict(self.to_dict())
        return self

    def frame_scale(self, width: int, height: int) -> tuple[float, float]:
        """How much larger a frame of ``width`` x ``height`` is than ``frame_size`` (x, y).

        Raises VisionError when its shape differs (by over ASPECT_TOLERANCE): a calibration
        made at 640x360 and stretched onto 640x640 frames puts the tray and the die size in
        the wrong place, and most dice go unread without any error."""
        fw, fh = self.frame_size
        if abs((width * fh) / (height * fw) - 1.0) > ASPECT_TOLERANCE:
            raise VisionError(
                f"the frame is {width}x{height} but the dice calibration was made on "
                f"{fw}x{fh} frames, another shape (camera mode): its tray and die size do not "
                "fit this frame; run `companion dice calibrate` again for this camera "
                "resolution")
        return width / fw, height / fh

    def scaled_tray(self, width: int, height: int) -> Box | None:
        """The tray rectangle in the pixels of a frame of ``width`` x ``height``."""
        if self.tray is None:
            return None
        sx, sy = self.frame_scale(width, height)
        x, y, w, h = self.tray
        return (round(x * sx), round(y * sy), round(w * sx), round(h * sy))

    def scaled_corners(self, width: int, height: int) -> list[tuple[float, float]] | None:
        """The tray floor's corners in the pixels of a frame of ``width`` x ``height``."""
        if self.corners is None:
            return None
        sx, sy = self.frame_scale(width, height)
        return [(x * sx, y * sy) for x, y in self.corners]

    def scaled_die_px(self, width: int, height: int) -> float:
        if self.die_px <= 0:
            return 0.0
        sx, sy = self.frame_scale(width, height)
        return float(self.die_px * (sx * sy) ** 0.5)
