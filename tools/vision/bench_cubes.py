"""The d6 reader on dice drawn in 3D and seen from an angle, their sides in view.

    .venv/bin/python tools/vision/bench_cubes.py                 # 0, 20, 35 and 50 degrees
    .venv/bin/python tools/vision/bench_cubes.py --degrees 45 --frames 100 --save /tmp/cubes

dice-d6-tray is shot from straight above; `bench_tilt.py` warps its photos, which
foreshortens the top faces but shows no die's sides. Here every frame is drawn by
`companion.vision.synth_d6.render_d6_scene`: 3-10 rounded pip cubes of random looks
(white, coloured, dark, translucent; black, white, red or gold pips) on the generated
floors of `synth.tray_surface`, with shadows, seen by a pinhole camera 14-40 die sides
away and tilted by DEGREES, the dice anywhere on the largest floor rectangle in view.
With --corners each frame is also read calibrated with that rectangle's corners, as
`dice calibrate` finds a tray's: the reader straightens the view first. Each die's label
is its top face and the box of the whole die (with dice-d6-tray's ~10 % margin). Pips are
drawn from small and central to large and near the edges; the last columns give the dice
read right per band of pip spread (centre to an outer pip, of the side; dice-d6-tray's
dice lie at ~0.2-0.27). The second d6 network was fine-tuned on other frames drawn so
(other seeds: `train_models.py --cubes`); the detector and the first d6 network never saw
any. They are drawn, not photographed: read them as a measure of the geometry (pip
layouts, sides in view, perspective), not of real dice's looks.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision import Calibration, DiceReader  # noqa: E402
from companion.vision.bench import BenchResult, match_labels, score_frame  # noqa: E402
from companion.vision.synth_d6 import DrawnDie, render_d6_scene  # noqa: E402

#: The drawn boxes are tight; dice-d6-tray's leave ~10 % of margin, and so does the
#: detector trained on them.
BOX_MARGIN = 1.1
#: Bands of pip spread (centre to an outer pip, of the die's side) for the breakdown.
SPREAD_BANDS = ((0.0, 0.26), (0.26, 0.29), (0.29, 1.0))


def with_margin(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return (x - w * (BOX_MARGIN - 1) / 2, y - h * (BOX_MARGIN - 1) / 2,
            w * BOX_MARGIN, h * BOX_MARGIN)


def bench(reader: DiceReader, degrees: float, frames: int, save: Path | None,
          corners: bool = False) -> tuple[BenchResult, Counter[str]]:
    """The bench's figures over ``frames`` drawn frames, and per spread band the dice
    drawn ("n ...") and read right ("right ..."). ``corners``: each frame read by a
    reader calibrated with the corners of the floor the dice lie on (straightened)."""
    res = BenchResult()
    bands: Counter[str] = Counter()
    for seed in range(frames):
        rng = random.Random(seed * 1000 + round(degrees))
        values = [rng.randint(1, 6) for _ in range(rng.randint(3, 10))]
        frame, drawn, tray = render_d6_scene(values, rng, degrees, die_px=rng.uniform(30, 48))
        labels = [(d.value, with_margin(d.box)) for d in drawn]
        if corners:
            calibration = Calibration(frame_size=(frame.shape[1], frame.shape[0]), corners=tuple(
                (float(x), float(y)) for x, y in tray))
            reading = DiceReader(calibration, models=reader.models).read(frame)
        else:
            reading = reader.read(frame)
        name = f"cubes-{degrees:g}-{seed:03d}"
        score_frame(reading, labels, res, name)
        for die, i in zip(drawn, match_labels(reading, labels), strict=True):
            band = spread_band(die)
            bands[f"n {band}"] += 1
            bands[f"right {band}"] += int(i is not None and reading.dice[i].value == die.value)
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(save / f"{name}.jpg"), frame)
    return res, bands


def spread_band(die: DrawnDie) -> str:
    lo, hi = next(b for b in SPREAD_BANDS if b[0] <= die.pip_spread < b[1])
    return f"{lo:.2f}-{hi:.2f}" if hi < 1 else f">= {lo:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--degrees", type=float, nargs="+", default=[0.0, 20.0, 35.0, 50.0])
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--save", type=Path, help="also save the frames drawn here")
    ap.add_argument("--corners", action="store_true",
                    help="also read each frame calibrated with the corners of the floor")
    a = ap.parse_args()
    reader = DiceReader()
    print(f"{a.frames} drawn frames per row; per-die right by pip spread")
    names = [spread_band(DrawnDie(1, (0, 0, 0, 0), lo, 0.0)) for lo, _ in SPREAD_BANDS]
    print(f"{'':12s}  {BenchResult.ROW_HEAD}  " + "  ".join(f"{n:>9s}" for n in names))
    for corners in (False, True) if a.corners else (False,):
        print("calibrated with the floor's corners" if corners else "no calibration")
        for d in a.degrees:
            res, bands = bench(reader, d, a.frames, a.save, corners)
            by_band = "  ".join(f"{bands['right ' + n] / max(1, bands['n ' + n]):9.1%}"
                                for n in names)
            print(f"{d:4g} degrees  {res.row()}  {by_band}  ({res.dice} dice)", flush=True)


if __name__ == "__main__":
    main()
