"""Calibration: where the tray is, how big a die looks, and the lighting's colour cast.

``calibrate_from_frames`` works from one or more frames of the tray (empty, or with a few
dice lying flat, which also gives the die size):

- Tray: the floor is the large uniform region around the picture's centre. It is found by
  flood-filling a blurred thumbnail from a few seeds near the centre and taking the biggest
  fill's bounding box; when nothing sensible is found, the whole frame is the tray.
- Lighting: per-channel gains that make the floor's median colour neutral grey (a white
  balance), only for floors bright enough for the colour to be meaningful.
- Scale: the median size of the dice the detector finds; 0 (unknown) with an empty tray.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .imageio import check_frame
from .reader import DiceReader
from .types import Calibration, VisionError

THUMB = 200


def find_tray(frame: np.ndarray) -> tuple[int, int, int, int] | None:
    """Bounding box (x, y, w, h) of the tray floor, or None when it cannot be told apart."""
    h, w = frame.shape[:2]
    s = THUMB / max(h, w)
    small = cv2.resize(frame, (max(8, int(w * s)), max(8, int(h * s))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 5)
    sh, sw = small.shape[:2]
    best: tuple[int, tuple[int, int, int, int]] | None = None
    for fx in (0.4, 0.5, 0.6):
        for fy in (0.4, 0.5, 0.6):
            mask = np.zeros((sh + 2, sw + 2), np.uint8)
            seed = (int(sw * fx), int(sh * fy))
            # Floating range: neighbour-to-neighbour steps under 4 grey levels, so the
            # fill follows the floor's slow light falloff and its bevels but stops at the
            # walls' edges.
            flags = 4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
            cv2.floodFill(small, mask, seed, (0, 0, 0), (4, 4, 4), (4, 4, 4), flags)
            region = mask[1:-1, 1:-1]
            area = int(np.count_nonzero(region))
            if best is None or area > best[0]:
                x, y, bw, bh = cv2.boundingRect(region)
                best = (area, (x, y, bw, bh))
    if best is None:
        return None
    area, (x, y, bw, bh) = best
    # A fill covering little of its own bounding box leaked along something thin, and one
    # covering under a tenth of the frame is a patch of floor, not the tray.
    if area < 0.1 * sh * sw or area < 0.5 * bw * bh:
        return None
    # Grow by 6 % a side: the fill stops where sloped walls or bevels start to shade, but
    # dice lying against the wall are still in the tray.
    gx, gy = 0.06 * bw, 0.06 * bh
    x0, y0 = max(0.0, x - gx), max(0.0, y - gy)
    x1, y1 = min(float(sw), x + bw + gx), min(float(sh), y + bh + gy)
    return (round(x0 / s), round(y0 / s), round((x1 - x0) / s), round((y1 - y0) / s))


def white_balance(frame: np.ndarray, tray: tuple[int, int, int, int] | None
                  ) -> tuple[float, float, float]:
    x, y, w, h = tray if tray is not None else (0, 0, frame.shape[1], frame.shape[0])
    floor = frame[y:y + h, x:x + w].reshape(-1, 3)
    med = np.median(floor, axis=0).astype(np.float64)
    if med.mean() < 60:
        return (1.0, 1.0, 1.0)  # a dark floor's colour is mostly noise
    gains = np.clip(med.mean() / np.maximum(med, 1.0), 0.7, 1.4)
    return (round(float(gains[0]), 4), round(float(gains[1]), 4), round(float(gains[2]), 4))


def calibrate_from_frames(
    frames: Sequence[np.ndarray],
    tray: tuple[int, int, int, int] | None = None,
    die_px: float | None = None,
    white_balance_on: bool = True,
    kinds: tuple[str, ...] = ("d6", "d10"),
) -> tuple[Calibration, np.ndarray]:
    """Calibration from frames of the tray, and a picture showing what was found.

    ``tray`` and ``die_px`` override the automatic values (in the frames' pixels).
    """
    if not frames:
        raise VisionError("calibration needs at least one frame of the tray")
    checked = [check_frame(f) for f in frames]
    first = checked[0]
    h, w = first.shape[:2]
    if any(f.shape != first.shape for f in checked):
        raise VisionError("all calibration frames must have the same size (same camera mode)")
    # The median of several frames removes a passing hand or a flicker.
    frame = np.median(np.stack(checked), axis=0).astype(np.uint8) if len(checked) > 2 \
        else first
    found_tray = tray if tray is not None else find_tray(frame)
    if found_tray is not None:
        x, y, tw, th = found_tray
        if tw <= 0 or th <= 0 or x < 0 or y < 0 or x + tw > w or y + th > h:
            raise VisionError(f"the tray {found_tray} does not fit in the {w}x{h} frame")
    gains = white_balance(frame, found_tray) if white_balance_on else (1.0, 1.0, 1.0)
    cal = Calibration(frame_size=(w, h), tray=found_tray, die_px=0.0, gains=gains)
    picture = frame.copy()
    if die_px is None:
        # Only dice actually read count: a screw head or a stain must not set the scale.
        found = [d.box for d in DiceReader(cal, kinds=kinds).read(frame).dice]
        die_px = float(np.median([max(b[2], b[3]) for b in found])) if found else 0.0
        for b in found:
            cv2.rectangle(picture, (b[0], b[1]), (b[0] + b[2], b[1] + b[3]), (0, 200, 255), 2)
    cal = Calibration(frame_size=(w, h), tray=found_tray, die_px=round(float(die_px), 2),
                      gains=gains)
    if found_tray is not None:
        x, y, tw, th = found_tray
        cv2.rectangle(picture, (x, y), (x + tw, y + th), (0, 255, 0), max(2, w // 400))
    label = (f"tray {found_tray or 'whole frame'}  die {cal.die_px:.0f}px  "
             f"gains {gains[0]:.2f},{gains[1]:.2f},{gains[2]:.2f}")
    scale = max(0.5, w / 1280)
    cv2.putText(picture, label, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (0, 0, 0), int(4 * scale), cv2.LINE_AA)
    cv2.putText(picture, label, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (255, 255, 255), max(1, int(1.5 * scale)), cv2.LINE_AA)
    return cal, picture
