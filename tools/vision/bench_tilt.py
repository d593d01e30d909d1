"""How the d6 reader copes with a camera at an angle, measured without test/.

    .venv/bin/python tools/vision/bench_tilt.py            # 30, 40 and 50 degrees
    .venv/bin/python tools/vision/bench_tilt.py --degrees 0 45 --photos 200

dice-d6-tray is all shot from above. This warps the last PHOTOS photos of its train/ folder
(by default the 30 the d6 network never saw in training plus 30 more) as if the camera were
turned by DEGREES about the picture's horizontal or vertical axis (alternating, both
directions), moves the labelled boxes with them, and runs the ordinary bench over each set.

It is a proxy: a warp foreshortens the dice's top faces as a tilted camera would, but does
not show their sides, and the far dice get fewer pixels than a real camera would give them.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.bench import (  # noqa: E402
    BenchResult,
    bench_rewritten,
    load_labels,
    save_labelled,
)

TRAIN_DIR = ROOT.parent / "shared" / "datasets" / "dice-d6-tray" / "train"


def camera_turn(width: int, height: int, degrees: float, about_vertical: bool) -> np.ndarray:
    """Homography of a pinhole camera (focal length = the long side) turned in place."""
    f = float(max(width, height))
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    turn = (np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]) if about_vertical
            else np.array([[1, 0, 0], [0, c, -s], [0, s, c]]))
    h = k @ turn @ np.linalg.inv(k)
    # Fit the warped picture back into the original long side.
    corners = np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64)
    warped = cv2.perspectiveTransform(corners, h)[0]
    (x0, y0), (x1, y1) = warped.min(axis=0), warped.max(axis=0)
    scale = max(width, height) / max(x1 - x0, y1 - y0)
    fit = np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1.0]])
    return fit @ h


def tilted_copy(k: int, photo: Path, out_dir: Path, degrees: float) -> None:
    """Write the ``k``-th photo warped and its YOLO labels (each die's ellipse, warped,
    boxed); the camera turns about alternate axes, in alternate directions."""
    img = cv2.imread(str(photo))
    height, width = img.shape[:2]
    h = camera_turn(width, height, degrees * (1 if k % 2 == 0 else -1), k % 4 >= 2)
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64), h)[0]
    out_w, out_h = (round(float(v)) for v in corners.max(axis=0))
    warped = cv2.warpPerspective(img, h, (out_w, out_h), borderMode=cv2.BORDER_REPLICATE)
    rim = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    labels = []
    for value, (x, y, w, bh) in load_labels(photo.with_suffix(".txt"), width, height):
        ellipse = np.stack([x + w / 2 * (1 + np.cos(rim)), y + bh / 2 * (1 + np.sin(rim))], 1)
        pts = cv2.perspectiveTransform(ellipse[None], h)[0]
        (px0, py0), (px1, py1) = pts.min(axis=0), pts.max(axis=0)
        labels.append((value, (float(px0), float(py0), float(px1 - px0), float(py1 - py0))))
    save_labelled(out_dir, photo.name, warped, labels)


def bench_table(
    what: str, photo_count: int, rows: dict[str, Callable[[int, Path, Path], None]]
) -> None:
    """Print one bench row per rewrite of the last ``photo_count`` train/ photos (the d6
    networks' 30 held-out photos and the ones before them); test/ is never used."""
    photos = sorted(TRAIN_DIR.glob("*.jpg"))[-photo_count:]
    print(f"{len(photos)} train/ photos, {what}")
    print(f"{'':16s}  {BenchResult.ROW_HEAD}")
    for name, rewrite in rows.items():
        print(f"{name:16s}  {bench_rewritten(photos, rewrite).row()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--degrees", type=float, nargs="+", default=[30.0, 40.0, 50.0])
    ap.add_argument("--photos", type=int, default=60)
    a = ap.parse_args()
    bench_table("camera turned about alternate axes", a.photos,
                {f"{d:g} degrees": partial(tilted_copy, degrees=d) for d in a.degrees})


if __name__ == "__main__":
    main()
