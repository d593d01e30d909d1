"""How the uncalibrated d6 reader copes with other cameras and light, measured without test/.

    .venv/bin/python tools/vision/bench_views.py                  # every view
    .venv/bin/python tools/vision/bench_views.py --views close-2x wide-50 --photos 200

dice-d6-tray is shot by one camera from one height under one light. This rewrites the last
PHOTOS photos of its train/ folder (by default the 30 the d6 networks never trained on
plus 30 more) as another camera would see them, moves the labelled boxes with them, and
runs the ordinary bench (no calibration) over each set:

- close-2x, close-3x: the middle of the photo blown up (dice ~1/7 and ~1/5 of the frame);
  only the dice wholly in view are labelled, the cut ones may be refused or left out;
- wide-100, wide-70, wide-50: the photo at 100/70/50 % on a 1280x960 table (the tray
  floors of `synth.tray_surface`), dice down to ~1/60 of the frame;
- low-res: 384x384 instead of 640x640; high-res: 1920x1920 (upscaled, so no new detail);
- dim-warm: a third of the light, tungsten-coloured, with sensor noise; bright: 1.5x gain,
  clipped; soft-noisy: a slightly out-of-focus, noisy camera;
- synthetic-floors: the white tray floor replaced (`synth.replace_floor`, shading and
  shadows kept) by the generated floors of `synth.tray_surface`: plain, felt, wood-like
  stripes, speckled black; black-tray, wood: by real floors cut from the dice-d10-single
  empty-tray photo (its black tray; the wooden table beside it), which no network trained on.

It is a proxy: the dice, their lighting and the tray inside the photo stay those of the
dataset. Tilted cameras are bench_tilt.py's.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench_tilt import bench_table  # noqa: E402  (beside this script)

from companion.vision import synth  # noqa: E402
from companion.vision.bench import load_labels, save_labelled  # noqa: E402

D10_DIR = ROOT.parent / "shared" / "datasets" / "dice-d10-single"

#: A view: (photo, its dice as (cx, cy, size), rng) -> (new picture, scale, dx, dy), with
#: new = old * scale + (dx, dy).
Dice = list[tuple[float, float, float]]
View = Callable[[np.ndarray, Dice, random.Random], tuple[np.ndarray, float, float, float]]


def close_up(zoom: float) -> View:
    def view(img: np.ndarray, dice: Dice, rng: random.Random
             ) -> tuple[np.ndarray, float, float, float]:
        h, w = img.shape[:2]
        cw, ch = int(w / zoom), int(h / zoom)
        x0, y0 = (w - cw) // 2, (h - ch) // 2
        big = cv2.resize(img[y0:y0 + ch, x0:x0 + cw], (w, h), interpolation=cv2.INTER_CUBIC)
        return big, zoom, -x0 * zoom, -y0 * zoom
    return view


def wide(scale: float) -> View:
    def view(img: np.ndarray, dice: Dice, rng: random.Random
             ) -> tuple[np.ndarray, float, float, float]:
        table = synth.tray_surface(rng, 1280)[:960].astype(np.uint8)
        h, w = img.shape[:2]
        sw, sh = int(w * scale), int(h * scale)
        x0, y0 = rng.randrange(0, 1280 - sw), rng.randrange(0, 960 - sh)
        table[y0:y0 + sh, x0:x0 + sw] = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
        return table, scale, x0, y0
    return view


def resized(scale: float) -> View:
    def view(img: np.ndarray, dice: Dice, rng: random.Random
             ) -> tuple[np.ndarray, float, float, float]:
        h, w = img.shape[:2]
        out = cv2.resize(img, (round(w * scale), round(h * scale)),
                         interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        return out, scale, 0.0, 0.0
    return view


def relit(change: Callable[[np.ndarray, np.random.Generator], np.ndarray]) -> View:
    def view(img: np.ndarray, dice: Dice, rng: random.Random
             ) -> tuple[np.ndarray, float, float, float]:
        out = change(img.astype(np.float32), np.random.default_rng(rng.randrange(1 << 30)))
        return np.clip(out, 0, 255).astype(np.uint8), 1.0, 0.0, 0.0
    return view


def floor_from(source: Callable[[random.Random, int], np.ndarray]) -> View:
    def view(img: np.ndarray, dice: Dice, rng: random.Random
             ) -> tuple[np.ndarray, float, float, float]:
        floor = source(rng, max(img.shape[:2])).astype(np.float32)
        return synth.replace_floor(img, dice, floor), 1.0, 0.0, 0.0
    return view


def photo_floor(region: tuple[int, int, int, int]) -> Callable[[random.Random, int], np.ndarray]:
    """A floor cut from the dice-d10-single empty tray photo (x, y, w, h at 2592x1944)."""
    def source(rng: random.Random, size: int) -> np.ndarray:
        photo = cv2.imread(str(D10_DIR / "background-empty-tray.jpg"))
        if photo is None:
            raise SystemExit(f"{D10_DIR} not found (../shared/datasets beside the repo)")
        x, y, w, h = region
        side = min(w, h)
        x0, y0 = x + rng.randrange(w - side + 1), y + rng.randrange(h - side + 1)
        patch = photo[y0:y0 + side, x0:x0 + side]
        return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    return source


VIEWS: dict[str, View] = {
    "close-2x": close_up(2.0),
    "close-3x": close_up(3.0),
    "wide-100": wide(1.0),
    "wide-70": wide(0.7),
    "wide-50": wide(0.5),
    "low-res": resized(0.6),
    "high-res": resized(3.0),
    "dim-warm": relit(lambda f, g: 255 * (f / 255) ** 1.4 * np.array([0.35, 0.5, 0.62])
                      + g.normal(0, 3, f.shape)),
    "bright": relit(lambda f, g: f * np.array([1.5, 1.45, 1.35]) + 10),
    "soft-noisy": relit(lambda f, g: cv2.GaussianBlur(f, (0, 0), 1.1)
                        + g.normal(0, 6, f.shape)),
    "synthetic-floors": floor_from(synth.tray_surface),
    "black-tray": floor_from(photo_floor((560, 320, 1360, 1300))),
    "wood": floor_from(photo_floor((2150, 0, 440, 1940))),
}


def rewritten(_k: int, photo: Path, out_dir: Path, view: View, rng: random.Random) -> None:
    """Write the photo as the view sees it, with the labels of the dice wholly in view."""
    img = cv2.imread(str(photo))
    labels = load_labels(photo.with_suffix(".txt"), img.shape[1], img.shape[0])
    dice = [(x + w / 2, y + h / 2, max(w, h)) for _, (x, y, w, h) in labels]
    new, scale, dx, dy = view(img, dice, rng)
    height, width = new.shape[:2]
    in_view = []
    for value, (x, y, w, h) in labels:
        x, y, w, h = x * scale + dx, y * scale + dy, w * scale, h * scale
        if x >= 0 and y >= 0 and x + w <= width and y + h <= height:
            in_view.append((value, (x, y, w, h)))
    save_labelled(out_dir, photo.name, new, in_view, quality=92)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", nargs="+", choices=sorted(VIEWS), default=list(VIEWS))
    ap.add_argument("--photos", type=int, default=60)
    a = ap.parse_args()
    # Each view draws its floors and placements from the same seed, whatever runs before it.
    bench_table("no calibration", a.photos,
                {name: partial(rewritten, view=VIEWS[name], rng=random.Random(7))
                 for name in a.views})


if __name__ == "__main__":
    main()
