"""A camera that sees the tray at an angle: straighten the tray before reading it.

The calibrated corners of the tray floor are mapped to a rectangle. The dice's top faces
lie in a plane parallel to the floor, so the same homography shows them square again (a
little shifted towards the camera by the dice's height, with a strip of their sides in
view), and the networks, trained on top-down photos, read them as they were trained to.
Boxes found in the straightened view are mapped back to the camera's frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .types import Box, VisionError

#: Kept around the floor's outline in the straightened view, as a share of its size: dice
#: against a wall stick out of the floor's outline (as ``tray.find_tray`` grows the
#: floor's box by 6 % a side).
MARGIN = 0.06


def order_corners(points: Sequence[tuple[float, float]] | np.ndarray) -> np.ndarray:
    """Four points as top-left, top-right, bottom-right, bottom-left (4 x 2 float32).

    Raises VisionError when they do not outline a convex quadrilateral of some size.
    """
    pts = np.asarray(points, np.float32).reshape(-1, 2)
    if pts.shape != (4, 2) or not np.isfinite(pts).all():
        raise VisionError("the tray corners must be four points X,Y; recalibrate")
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ring = pts[np.argsort(angles)]  # clockwise on screen (y grows downwards)
    start = int(np.argmin(ring.sum(axis=1)))
    ordered = np.roll(ring, -start, axis=0)
    area = cv2.contourArea(ordered)
    if not cv2.isContourConvex(ordered.reshape(-1, 1, 2)) or area < 1e-3 * np.ptp(
            ordered, axis=0).prod() or area < 16:
        raise VisionError("the tray corners do not outline a tray (four corners of a "
                          "convex outline are needed); recalibrate")
    return ordered


@dataclass(frozen=True)
class Straightening:
    """The homography from the camera's frame to the straightened view, and its size."""

    matrix: np.ndarray
    size: tuple[int, int]

    @classmethod
    def from_corners(cls, corners: np.ndarray) -> Straightening:
        tl, tr, br, bl = order_corners(corners)
        width = max(float(np.linalg.norm(tr - tl)), float(np.linalg.norm(br - bl)))
        height = max(float(np.linalg.norm(bl - tl)), float(np.linalg.norm(br - tr)))
        mx, my = MARGIN * width, MARGIN * height
        target = np.array([[mx, my], [mx + width, my], [mx + width, my + height],
                           [mx, my + height]], np.float32)
        matrix = cv2.getPerspectiveTransform(np.stack([tl, tr, br, bl]), target)
        return cls(matrix, (round(width + 2 * mx), round(height + 2 * my)))

    def view(self, frame: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.warpPerspective(frame, self.matrix, self.size,
                                              flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_REPLICATE)
        return out

    def box_back(self, box: Box, frame_width: int, frame_height: int) -> Box:
        """A box of the straightened view as the box around it in the camera's frame."""
        x, y, w, h = box
        quad = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float64)
        back = cv2.perspectiveTransform(quad, np.linalg.inv(self.matrix))[0]
        x0, y0 = np.clip(back.min(axis=0), 0, [frame_width, frame_height])
        x1, y1 = np.clip(back.max(axis=0), 0, [frame_width, frame_height])
        return (round(float(x0)), round(float(y0)), round(float(x1 - x0)),
                round(float(y1 - y0)))
