"""Plain data types of the vision package: what a frame reading looks like."""

from __future__ import annotations

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


@dataclass(frozen=True)
class Calibration:
    """What the reader knows about the camera and tray.

    All geometry is stored in the pixels of a reference frame of ``frame_size`` (width,
    height) and scaled to the frames actually read, so changing the capture resolution keeps
    the calibration valid.

    tray: x, y, w, h of the tray floor, or None for "the whole frame".
    die_px: typical die size (box side) in reference pixels, 0 when unknown (the reader then
        estimates it from each frame, which costs a second detector pass on unusual scales).
    gains: per-channel (B, G, R) multipliers that make the empty tray neutral grey; the
        lighting normalisation applied before reading.
    corners: the tray floor's four corners (top-left, top-right, bottom-right, bottom-left)
        when the camera sees it at an angle, or None. The reader then straightens the tray
        before reading (``perspective``), and ``die_px`` is in the straightened view.
    """

    frame_size: tuple[int, int] = (640, 640)
    tray: tuple[int, int, int, int] | None = None
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
    def from_dict(cls, d: dict[str, Any]) -> Calibration:
        try:
            fs = d.get("frame_size", [640, 640])
            tray = d.get("tray")
            gains = d.get("gains", [1.0, 1.0, 1.0])
            corners = d.get("corners")
            cal = cls(
                frame_size=(int(fs[0]), int(fs[1])),
                tray=None if tray is None else (int(tray[0]), int(tray[1]), int(tray[2]),
                                                int(tray[3])),
                die_px=float(d.get("die_px", 0.0)),
                gains=(float(gains[0]), float(gains[1]), float(gains[2])),
                corners=None if corners is None else tuple(
                    (float(x), float(y)) for x, y in corners),
                version=int(d.get("version", 1)),
            )
        except (TypeError, ValueError, IndexError, KeyError) as e:
            raise VisionError(
                f"the [dice] calibration in the config is malformed ({e}); "
                "run `companion dice calibrate` again"
            ) from e
        if cal.frame_size[0] <= 0 or cal.frame_size[1] <= 0:
            raise VisionError("calibration frame_size must be positive; recalibrate")
        if not 0 <= cal.die_px < 10 * max(cal.frame_size):
            raise VisionError(f"calibration die_px = {cal.die_px} is not a die size in pixels "
                              "(0 = measure it in each frame); recalibrate")
        if cal.tray is not None and (cal.tray[2] <= 0 or cal.tray[3] <= 0):
            raise VisionError("calibration tray has zero size; recalibrate")
        if cal.corners is not None:
            from .perspective import order_corners

            order_corners(cal.corners)
        return cal

    def scaled_tray(self, width: int, height: int) -> tuple[int, int, int, int] | None:
        """The tray rectangle in the pixels of a frame of ``width`` x ``height``."""
        if self.tray is None:
            return None
        sx, sy = width / self.frame_size[0], height / self.frame_size[1]
        x, y, w, h = self.tray
        return (round(x * sx), round(y * sy), round(w * sx), round(h * sy))

    def scaled_corners(self, width: int, height: int) -> list[tuple[float, float]] | None:
        """The tray floor's corners in the pixels of a frame of ``width`` x ``height``."""
        if self.corners is None:
            return None
        sx, sy = width / self.frame_size[0], height / self.frame_size[1]
        return [(x * sx, y * sy) for x, y in self.corners]

    def scaled_die_px(self, width: int, height: int) -> float:
        if self.die_px <= 0:
            return 0.0
        area_scale = (width / self.frame_size[0]) * (height / self.frame_size[1])
        return float(self.die_px * area_scale**0.5)
