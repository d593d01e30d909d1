"""How the d6 reader copes with a camera at an angle, measured without test/.

    .venv/bin/python tools/vision/bench_tilt.py            # 30, 40 and 50 degrees
    .venv/bin/python tools/vision/bench_tilt.py --degrees 0 45 --photos 200
    .venv/bin/python tools/vision/bench_tilt.py --corners  # also calibrated with corners

dice-d6-tray is all shot from above. This warps the last PHOTOS photos of its train/ folder
(by default the 30 the d6 network never saw in training plus 30 more) as if the camera were
turned by DEGREES about the picture's horizontal or vertical axis (alternating, both
directions), moves the labelled boxes with them, and runs the ordinary bench over each set.

It is a proxy: a warp foreshortens the dice's top faces as a tilted camera would, but does
not show their sides, and the far dice get fewer pixels than a real camera would give them.
With --corners each tilted photo is also read calibrated with where its corners went, as
`dice calibrate` finds a tray's: the reader straightens the view first. On this proxy that
undoes the warp exactly (flat photos have no sides to show), so those rows are an upper
bound: what the straightening costs in resampling and boxes mapped back, not what a real
tilted camera would give.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision import (  # noqa: E402
    Calibration,
    DiceReader,
    calibrate_from_frames,
)
from companion.vision.bench import (  # noqa: E402
    BenchResult,
    bench_rewritten,
    load_labels,
    save_labelled,
)
from companion.vision.compose import DATA_DIR, compose_tray_with_boxes  # noqa: E402
from companion.vision.synth import camera_turn, seen_at_an_angle, tray_on_table  # noqa: E402

PHOTO_SIDE = 640  # dice-d6-tray's photos are 640x640
TRAIN_DIR = ROOT.parent / "shared" / "datasets" / "dice-d6-tray" / "train"


def turn_of(k: int, width: int, height: int, degrees: float) -> np.ndarray:
    """The ``k``-th photo's camera turn: about alternate axes, in alternate directions."""
    return camera_turn(width, height, degrees * (1 if k % 2 == 0 else -1), k % 4 >= 2)


def photo_corners(k: int, width: int, height: int, degrees: float) -> np.ndarray:
    """Where the ``k``-th photo's corners go (4 x 2, top-left first, clockwise)."""
    corners: np.ndarray = cv2.perspectiveTransform(
        np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64),
        turn_of(k, width, height, degrees))[0]
    return corners


def tilted_copy(k: int, photo: Path, out_dir: Path, degrees: float) -> None:
    """Write the ``k``-th photo warped (``turn_of``) and its YOLO labels (each die's
    ellipse, warped, boxed)."""
    img = cv2.imread(str(photo))
    height, width = img.shape[:2]
    h = turn_of(k, width, height, degrees)
    corners = photo_corners(k, width, height, degrees)
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


Rewrite = Callable[[int, Path, Path], None]


def bench_table(
    what: str, photo_count: int,
    rows: dict[str, Rewrite | tuple[Rewrite, Callable[[int], DiceReader]]],
) -> None:
    """Print one bench row per rewrite of the last ``photo_count`` train/ photos (the d6
    networks' 30 held-out photos and the ones before them); test/ is never used. A row may
    give, with its rewrite, the reader of each photo (k -> reader)."""
    photos = sorted(TRAIN_DIR.glob("*.jpg"))[-photo_count:]
    print(f"{len(photos)} train/ photos, {what}")
    print(f"{'':22s}  {BenchResult.ROW_HEAD}")
    for name, row in rows.items():
        rewrite, readers = row if isinstance(row, tuple) else (row, None)
        print(f"{name:22s}  {bench_rewritten(photos, rewrite, readers).row()}", flush=True)


def straightening_readers(degrees: float) -> Callable[[int], DiceReader]:
    """k -> a reader calibrated with where the k-th tilted photo's corners went."""
    def reader(k: int) -> DiceReader:
        corners = photo_corners(k, PHOTO_SIDE, PHOTO_SIDE, degrees)
        size = tuple(round(float(v)) for v in corners.max(axis=0))
        return DiceReader(Calibration(frame_size=(size[0], size[1]), corners=tuple(
            (float(x), float(y)) for x, y in corners)))
    return reader


def composed_trays_on_a_table(degrees: float, frames: int) -> None:
    """Composed trays on a table seen at ``degrees`` about each axis, both ways: dice read
    right / wrong when `dice calibrate` found the tray's corners on the empty tray, with
    no calibration, and with the whole frame as the tray."""
    empty = cv2.imread(str(DATA_DIR / "tray.jpg"), cv2.IMREAD_COLOR)
    counts: Counter[str] = Counter()
    for about_vertical in (False, True):
        for sign in (1, -1):
            seen, _ = seen_at_an_angle(tray_on_table(empty)[0], sign * degrees, about_vertical)
            readers = {
                "corners found": DiceReader(calibrate_from_frames([seen])[0]),
                "no calibration": DiceReader(),
                "frame as tray": DiceReader(calibrate_from_frames(
                    [seen], tray=(0, 0, seen.shape[1], seen.shape[0]))[0]),
            }
            for seed in range(frames):
                rng = random.Random(seed)
                values = [rng.randint(1, 6) for _ in range(rng.randint(3, 8))]
                tray, _ = compose_tray_with_boxes(values, "d6", rng)
                frame, _ = seen_at_an_angle(tray_on_table(tray)[0], sign * degrees,
                                            about_vertical)
                counts["dice"] += len(values)
                for name, reader in readers.items():
                    got = Counter(d.value for d in reader.read(frame).dice)
                    counts[f"{name} right"] += sum((got & Counter(values)).values())
                    counts[f"{name} wrong"] += sum((got - Counter(values)).values())
    print(f"composed trays on a table at {degrees:g} degrees, {4 * frames} frames, "
          f"{counts['dice']} dice:")
    for name in ("corners found", "no calibration", "frame as tray"):
        print(f"  {name:15s} {counts[name + ' right']:4d} right  "
              f"{counts[name + ' wrong']:3d} wrong")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--degrees", type=float, nargs="+", default=[30.0, 40.0, 50.0])
    ap.add_argument("--photos", type=int, default=60)
    ap.add_argument("--corners", action="store_true",
                    help="also read each tilted photo calibrated with its corners (straightened)")
    a = ap.parse_args()
    rows: dict[str, Rewrite | tuple[Rewrite, Callable[[int], DiceReader]]] = {
        f"{d:g} degrees": partial(tilted_copy, degrees=d) for d in a.degrees}
    if a.corners:
        rows.update({f"{d:g} degrees, corners": (partial(tilted_copy, degrees=d),
                                                 straightening_readers(d))
                     for d in a.degrees})
    bench_table("camera turned about alternate axes", a.photos, rows)
    if a.corners:
        for d in a.degrees:
            composed_trays_on_a_table(d, frames=10)


if __name__ == "__main__":
    main()
