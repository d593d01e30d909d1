"""Calibration: where the tray is, how big a die looks, and the lighting's colour cast.

``calibrate_from_frames`` works from one or more frames of the tray (empty, or with a few
dice lying flat, which also gives the die size):

- Tray: the floor is the large uniform region around the picture's centre. It is found by
  flood-filling a blurred thumbnail from a few seeds near the centre and taking the biggest
  fill's bounding box; when nothing sensible is found, the whole frame is the tray.
- Corners: when that fill's outline is a clear quadrilateral that is not an upright
  rectangle (a camera at an angle, or turned), its four corners, so that the reader
  straightens the tray (``perspective``).
- Lighting: per-channel gains that make the floor's median colour neutral grey (a white
  balance), only for floors bright enough for the colour to be meaningful.
- Scale: the median size of the dice the detector finds (in the straightened view when
  there are corners); 0 (unknown) with an empty tray.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from .imageio import check_frame
from .perspective import order_corners
from .reader import DiceReader
from .tray import find_tray, find_tray_corners
from .types import Box, Calibration, VisionError

#: The median of several frames is taken this many rows at a time: a median over whole
#: 12 MP frames took +633 MB (numpy sorts a float64 copy of the stack).
MEDIAN_ROWS = 64
_ADVICE = ("check --tray, --corners and --die-px, or calibrate with the whole tray floor "
           "in view")


def white_balance(frame: np.ndarray, tray: Box | None
                  ) -> tuple[float, float, float]:
    x, y, w, h = tray if tray is not None else (0, 0, frame.shape[1], frame.shape[0])
    floor = frame[y:y + h, x:x + w].reshape(-1, 3)
    med = np.median(floor, axis=0).astype(np.float64)
    if med.mean() < 60:
        return (1.0, 1.0, 1.0)  # a dark floor's colour is mostly noise
    gains = np.clip(med.mean() / np.maximum(med, 1.0), 0.7, 1.4)
    return (round(float(gains[0]), 4), round(float(gains[1]), 4), round(float(gains[2]), 4))


def median_frame(frames: Sequence[np.ndarray]) -> np.ndarray:
    """The per-pixel median of three or more frames of one size (the first of one or two:
    the median of two is their mean, which keeps half of a hand seen in one of them).

    Taken MEDIAN_ROWS rows at a time, so it costs a few MB beyond the frames themselves
    whatever their size."""
    first = frames[0]
    if len(frames) < 3:
        return first
    out = np.empty_like(first)
    for y in range(0, first.shape[0], MEDIAN_ROWS):
        strip = np.stack([f[y:y + MEDIAN_ROWS] for f in frames])
        out[y:y + MEDIAN_ROWS] = np.median(strip, axis=0).astype(np.uint8)
    return out


def calibrate_from_frames(
    frames: Sequence[np.ndarray],
    tray: Box | None = None,
    die_px: float | None = None,
    white_balance_on: bool = True,
    kinds: tuple[str, ...] = ("d6", "d10"),
    corners: Sequence[tuple[float, float]] | None = None,
) -> tuple[Calibration, np.ndarray]:
    """Calibration from frames of the tray, and a picture showing what was found.

    ``tray``, ``corners`` (the floor's four corners, for a camera at an angle) and
    ``die_px`` override the automatic values (in the frames' pixels; ``die_px`` in the
    straightened view when there are corners). Corners are looked for only when no
    ``tray`` is given. Three or more frames are median-combined (``median_frame``); of two,
    the first is used. The result is checked as the box checks its config
    (``Calibration.from_dict``).
    """
    if not frames:
        raise VisionError("calibration needs at least one frame of the tray")
    checked = [check_frame(f) for f in frames]
    first = checked[0]
    h, w = first.shape[:2]
    if any(f.shape != first.shape for f in checked):
        raise VisionError("all calibration frames must have the same size (same camera mode)")
    # The median of several frames removes a passing hand or a flicker.
    frame = median_frame(checked)
    del checked
    quad = (order_corners(corners) if corners is not None
            else find_tray_corners(frame) if tray is None else None)
    if quad is not None:
        if (quad < 0).any() or (quad[:, 0] > w).any() or (quad[:, 1] > h).any():
            raise VisionError(f"the tray corners {quad.round().tolist()} do not fit in the "
                              f"{w}x{h} frame")
        x0, y0 = quad.min(axis=0)
        x1, y1 = quad.max(axis=0)
        found_tray: Box | None = (
            int(x0), int(y0), round(float(x1 - x0)), round(float(y1 - y0)))
    else:
        found_tray = tray if tray is not None else find_tray(frame)
    if found_tray is not None:
        x, y, tw, th = found_tray
        if tw <= 0 or th <= 0 or x < 0 or y < 0 or x + tw > w or y + th > h:
            raise VisionError(f"the tray {found_tray} does not fit in the {w}x{h} frame")
    gains = white_balance(frame, found_tray) if white_balance_on else (1.0, 1.0, 1.0)
    corner_list = None if quad is None else tuple(
        (round(float(x), 1), round(float(y), 1)) for x, y in quad)
    cal = Calibration(frame_size=(w, h), tray=found_tray, die_px=0.0, gains=gains,
                      corners=corner_list)
    # The box's own checks (a sliver of a tray, corners off the frame...), so that what is
    # saved is what it will load, said in terms of this command's options.
    Calibration.from_dict(cal.to_dict(), advice=_ADVICE)
    picture = frame.copy()
    if die_px is None:
        # Only dice actually read count: a screw head or a stain must not set the scale.
        # With corners the size is that in the straightened view, where the reader works.
        reader = DiceReader(cal, kinds=kinds)
        found = [d.box for d in reader.read(frame).dice]
        if quad is not None:
            view = reader.view_of(frame)
            found_in_view = DiceReader(Calibration(frame_size=(view.shape[1], view.shape[0])),
                                       kinds=kinds, models=reader.models).read(view).dice
            sizes = [max(d.box[2], d.box[3]) for d in found_in_view]
        else:
            sizes = [max(b[2], b[3]) for b in found]
        die_px = float(np.median(sizes)) if sizes else 0.0
        for b in found:
            cv2.rectangle(picture, (b[0], b[1]), (b[0] + b[2], b[1] + b[3]), (0, 200, 255), 2)
    cal = replace(cal, die_px=round(float(die_px), 2))
    Calibration.from_dict(cal.to_dict(), advice=_ADVICE)
    thickness = max(2, w // 400)
    if quad is not None:
        cv2.polylines(picture, [quad.round().astype(np.int32)], True, (0, 255, 0), thickness)
    elif found_tray is not None:
        x, y, tw, th = found_tray
        cv2.rectangle(picture, (x, y), (x + tw, y + th), (0, 255, 0), thickness)
    where = ("corners " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corner_list)
             if corner_list else f"tray {found_tray or 'whole frame'}")
    label = (f"{where}  die {cal.die_px:.0f}px  "
             f"gains {gains[0]:.2f},{gains[1]:.2f},{gains[2]:.2f}")
    scale = max(0.5, w / 1280)
    cv2.putText(picture, label, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (0, 0, 0), int(4 * scale), cv2.LINE_AA)
    cv2.putText(picture, label, (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (255, 255, 255), max(1, int(1.5 * scale)), cv2.LINE_AA)
    return cal, picture
