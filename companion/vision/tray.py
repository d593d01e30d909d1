"""The tray floor in a frame: where it is, and whether the camera sees it at an angle.

The floor is the large uniform region around the picture's centre, found by flood-filling
a blurred thumbnail from a few seeds near the centre. ``find_tray`` gives its bounding box
(the calibrated tray), ``find_tray_corners`` its four corners when its outline is a clear
quadrilateral that is not an upright rectangle (``calibrate`` saves them), and
``clearly_tilted`` says whether such corners show a camera at an angle, rather than a tray
turned in the picture or cut by its edge (the reader straightens uncalibrated frames then).
"""

from __future__ import annotations

import cv2
import numpy as np

from .perspective import order_corners
from .types import Box, VisionError

#: Side of the thumbnail the floor is looked for in.
THUMB = 200
#: A floor whose corners all lie within this share of its size from its bounding box's is
#: taken as seen straight on (no straightening).
UPRIGHT_WITHIN = 0.05
#: Corners this far from square (degrees), or opposite sides this many times as long as
#: each other, are a camera at an angle: a tray merely turned in the picture is a
#: rectangle still, and the top-down photos' floors come out within 3 degrees and 1.09.
TILTED_FROM_DEGREES = 6.0
TILTED_FROM_RATIO = 1.2
#: A corner this close to the frame's edge (share of its side) is where the picture cuts
#: the tray, not the tray's own corner.
CUT_OFF_WITHIN = 0.015


def _floor(frame: np.ndarray) -> tuple[np.ndarray, float, float] | None:
    """The tray floor as a mask of a small thumbnail, and the thumbnail's scales (x, y).

    The scales are the same but for a frame so narrow that its short side would be under
    8 thumbnail pixels (the thumbnail is then taller, or wider, than the frame's shape)."""
    h, w = frame.shape[:2]
    s = THUMB / max(h, w)
    sx = s if int(w * s) >= 8 else 8 / w
    sy = s if int(h * s) >= 8 else 8 / h
    small = cv2.resize(frame, (max(8, int(w * s)), max(8, int(h * s))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 5)
    sh, sw = small.shape[:2]
    best: tuple[int, np.ndarray] | None = None
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
                best = (area, region.copy())
    if best is None:
        return None
    area, region = best
    _, _, bw, bh = cv2.boundingRect(region)
    # A fill covering little of its own bounding box leaked along something thin, and one
    # covering under a tenth of the frame is a patch of floor, not the tray.
    if area < 0.1 * sh * sw or area < 0.5 * bw * bh:
        return None
    return region, sx, sy


def find_tray(frame: np.ndarray) -> Box | None:
    """Bounding box (x, y, w, h) of the tray floor, or None when it cannot be told apart."""
    floor = _floor(frame)
    if floor is None:
        return None
    region, sx, sy = floor
    sh, sw = region.shape
    x, y, bw, bh = cv2.boundingRect(region)
    # Grow by 6 % a side: the fill stops where sloped walls or bevels start to shade, but
    # dice lying against the wall are still in the tray.
    gx, gy = 0.06 * bw, 0.06 * bh
    x0, y0 = max(0.0, x - gx), max(0.0, y - gy)
    x1, y1 = min(float(sw), x + bw + gx), min(float(sh), y + bh + gy)
    # Rounding the corner and the size apart can reach a pixel past the frame's edge.
    h, w = frame.shape[:2]
    tx, ty = round(x0 / sx), round(y0 / sy)
    return (tx, ty, min(round((x1 - x0) / sx), w - tx), min(round((y1 - y0) / sy), h - ty))


def find_tray_corners(frame: np.ndarray) -> np.ndarray | None:
    """The tray floor's four corners (4 x 2, top-left first, clockwise) when the camera
    sees it at an angle or turned; None when it looks like an upright rectangle (nothing
    to straighten) or its outline is not a clear four-sided one."""
    floor = _floor(frame)
    if floor is None:
        return None
    region, sx, sy = floor
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    if cv2.contourArea(hull) > 1.15 * np.count_nonzero(region):
        return None  # a ragged fill (dice or shadows bite into it): no clear outline
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for share in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
    if quad is None or cv2.contourArea(quad) < 0.9 * cv2.contourArea(hull):
        return None
    try:
        quad = order_corners(quad)
    except VisionError:
        return None
    x, y, bw, bh = cv2.boundingRect(region)
    upright = np.array([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]], np.float32)
    if np.abs(quad - upright).max() <= UPRIGHT_WITHIN * max(bw, bh):
        return None
    corners: np.ndarray = quad / np.array([sx, sy], np.float32)
    return corners


def clearly_tilted(corners: np.ndarray, frame_size: tuple[int, int]) -> bool:
    """Whether ``find_tray_corners``'s corners (top-left first, clockwise) show a camera at
    an angle: the whole floor in view, and far enough from a rectangle
    (``TILTED_FROM_DEGREES``, ``TILTED_FROM_RATIO``)."""
    w, h = frame_size
    xs, ys = corners[:, 0], corners[:, 1]
    if (xs < CUT_OFF_WITHIN * w).any() or (xs > (1 - CUT_OFF_WITHIN) * w).any() or (
            ys < CUT_OFF_WITHIN * h).any() or (ys > (1 - CUT_OFF_WITHIN) * h).any():
        return False
    sides = [float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4)]
    if min(sides) <= 0:
        return False
    ratios = (sides[0] / sides[2], sides[1] / sides[3])
    if max(max(r, 1 / r) for r in ratios) >= TILTED_FROM_RATIO:
        return True
    for i in range(4):
        before, after = corners[i - 1] - corners[i], corners[(i + 1) % 4] - corners[i]
        cosine = float(np.dot(before, after)) / (float(np.linalg.norm(before))
                                                 * float(np.linalg.norm(after)))
        if abs(float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0)))) - 90.0) \
                >= TILTED_FROM_DEGREES:
            return True
    return False
