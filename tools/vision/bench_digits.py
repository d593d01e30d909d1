"""Figures of the ten-sided / percentile reader for docs/benchmarks.md.

    .venv/bin/python tools/vision/bench_digits.py            # ~2 minutes on one core
    .venv/bin/python tools/vision/bench_digits.py --sectors 72 --seeds 3 --json

- d10 photos: the ten faces of dice-d10-single (pink d10, black tray), read by the reader
  calibrated on the empty tray;
- held-out real d10s: the blue d10 (showing 8) and the purple one (showing 5, partly
  outside the picture) on the table in the six d6numeral photos, classified from the
  reader's crop at four quarter turns (the detector does not find dice on that wood);
- synthetic: fresh renders (seeds training never uses) of every face at every rotation
  (one random angle per sector), read from frames by the whole reader, per kind and mixed;
- composed: trays composed from the shipped d10 / percentile sample dice, as the box sees
  them (1280x960 frames, a d10 47-109 px across: 78 px +-40 %, hardware/camera-geometry.md)
  and as the demo composes them (640x640, 56 px), read by an uncalibrated reader;
- speed and memory: median ms per 640x640 frame of dice-d6-tray/test with
  kinds=("d6", "d10", "percentile") on one OpenCV thread, and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision import (  # noqa: E402
    Calibration,
    DiceReader,
    calibrate_from_frames,
    compose_tray,
    load_image,
)
from companion.vision.compose import BOX_FRAME, compose_tray_with_boxes  # noqa: E402
from companion.vision.nets_meta import DIGIT_CROP, normalise_crop_batch  # noqa: E402
from companion.vision.synth import render_ten_sided  # noqa: E402

SHARED = ROOT.parent / "shared" / "datasets"
D10_DIR = SHARED / "dice-d10-single"
D6_TEST = SHARED / "dice-d6-tray" / "test"
TRAYS = ((40, 40, 40), (200, 200, 200), (30, 90, 40), (120, 60, 20), (90, 90, 160))


def photos() -> dict[str, object]:
    if not D10_DIR.is_dir():
        return {"skipped": f"{D10_DIR} not found"}
    cal, _ = calibrate_from_frames([load_image(D10_DIR / "background-empty-tray.jpg")],
                                   die_px=230)
    reader = DiceReader(cal, kinds=("d10",))
    pink = {}
    for face in range(10):
        r = reader.read(load_image(D10_DIR / f"d10-face{face}.jpg"))
        pink[face] = [(d.value, round(d.confidence, 3)) for d in r.dice] + [
            u.reason for u in r.unreadable]
    blue: list[int | None] = []
    purple: list[int | None] = []
    for k in range(1, 7):
        img = load_image(D10_DIR / f"d6numeral-face{k}.jpg")
        blue += quarter_turns(reader, img, (650, 1300), (85, 115), 100)
        purple += quarter_turns(reader, img, (100, 650), (116, 160), 50)
    return {
        "pink_correct": sum(v == [(f, v[0][1])] for f, v in pink.items() if v
                            and isinstance(v[0], tuple)),
        "pink": pink,
        "blue_correct": sum(p == 8 for p in blue), "blue_crops": len(blue), "blue": blue,
        "purple_correct": sum(p == 5 for p in purple), "purple_crops": len(purple),
        "purple": purple,
    }


def quarter_turns(reader: DiceReader, img: np.ndarray, rows: tuple[int, int],
                  hue: tuple[int, int], min_sat: int) -> list[int | None]:
    """A d10 beside the tray (found by colour right of x=2100 in ``rows``), classified from
    the reader's crop at four quarter turns (the detector does not find it on the wood)."""
    hsv = cv2.cvtColor(img[rows[0]:rows[1], 2100:], cv2.COLOR_BGR2HSV)
    m = ((hsv[..., 0] >= hue[0]) & (hsv[..., 0] <= hue[1]) & (hsv[..., 1] > min_sat)
         & (hsv[..., 2] > 60)).astype(np.uint8)
    _n, _lab, st, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)))
    i = 1 + int(np.argmax(st[1:, 4]))
    x, y, w, h, _a = st[i]
    cx, cy, die = 2100 + x + w / 2, rows[0] + y + h / 2, float(max(w, h))
    side = int(die)  # the reader's crop is about the die's outline (DIGIT_CROP_SCALE)
    pad = cv2.copyMakeBorder(img, side, side, side, side, cv2.BORDER_REPLICATE)
    x0, y0 = int(cx - side / 2) + side, int(cy - side / 2) + side
    crop = cv2.resize(pad[y0:y0 + side, x0:x0 + side], (DIGIT_CROP, DIGIT_CROP),
                      interpolation=cv2.INTER_AREA)
    turns = np.stack([np.ascontiguousarray(np.rot90(crop, k)) for k in range(4)])
    p, _ = reader.models.classify_digits(normalise_crop_batch(turns))
    out: list[int | None] = []
    for row in p:
        q = np.concatenate([row[:10], row[20:]])
        q = q / q.sum()
        k = int(np.argmax(q))
        out.append(k if k < 10 and q[k] >= 0.5 else None)
    return out


def synthetic_frame(dice: list[tuple[int, bool, float]], rng: random.Random,
                    tray: tuple[int, int, int]) -> np.ndarray:
    frame = np.empty((360, 120 * len(dice), 3), np.uint8)
    frame[:] = tray
    for i, (value, pct, angle) in enumerate(dice):
        crop = render_ten_sided(value, rng, 96, pct, angle=angle, die_frac=0.6, background=tray)
        frame[132:228, 120 * i + 12:120 * i + 108] = crop
    return frame


def synthetic(sectors: int, seeds: int) -> dict[str, dict[str, float]]:
    """Right / wrong / refused rates over every face at ``sectors`` rotations, per kind."""
    out = {}
    step = 360 / sectors
    for kinds in (("d10",), ("percentile",), ("d10", "percentile")):
        reader = DiceReader(Calibration(frame_size=(1200, 360), die_px=58), kinds=kinds)
        right = wrong = total = 0
        for seed in range(seeds):
            rng = random.Random(900_000 + seed)
            for sector in range(sectors):
                dice = [(v, kinds[i % len(kinds)] == "percentile",
                         sector * step + rng.uniform(0, step)) for i, v in enumerate(range(10))]
                r = reader.read(synthetic_frame(dice, rng, TRAYS[sector % len(TRAYS)]))
                for d in r.dice:
                    value, pct, _a = dice[int(d.box[0] + d.box[2] / 2) // 120]
                    ok = d.value == value and d.kind == ("percentile" if pct else "d10")
                    right += ok
                    wrong += not ok
                total += len(dice)
        out["+".join(kinds)] = {"right": right / total, "wrong": wrong / total,
                                "refused": (total - right - wrong) / total, "dice": total}
    return out


#: (frame size, d10 size in px) of the composed trays: the box's camera at 78 px +-40 %,
#: and the demo's frames.
GEOMETRIES = (*((BOX_FRAME, px) for px in (47, 62, 78, 94, 109)), ((640, 640), 56))


def composed(frames: int) -> dict[str, dict[str, float]]:
    """Right / wrong / refused rates per kinds and geometry, and over the box's sizes."""
    out = {}
    for kinds in (("d10",), ("percentile",), ("percentile", "d10")):
        reader = DiceReader(kinds=kinds)
        box = [0, 0, 0]
        for size, px in GEOMETRIES:
            right = wrong = total = 0
            for seed in range(frames):
                rng = random.Random(500_000 + 1000 * px + seed)
                n = rng.randint(1, 8)
                values = [rng.randrange(10) for _ in range(n)]
                per_die = [kinds[i % len(kinds)] for i in range(n)]
                frame, _ = compose_tray_with_boxes(values, per_die, rng, frame_size=size,
                                                   d10_px=px)
                r = reader.read(frame)
                want = sorted(zip(per_die, values, strict=True))
                got = sorted((d.kind, d.value) for d in r.dice)
                hit = sum(min(want.count(x), got.count(x)) for x in set(got))
                right += hit
                wrong += len(got) - hit
                total += n
            out[f"{'+'.join(kinds)} {size[0]}x{size[1]} {px} px"] = {
                "right": right / total, "wrong": wrong / total,
                "refused": (total - right - wrong) / total, "dice": total}
            if size == BOX_FRAME:
                box = [box[0] + right, box[1] + wrong, box[2] + total]
        out[f"{'+'.join(kinds)} box, all sizes"] = {
            "right": box[0] / box[2], "wrong": box[1] / box[2],
            "refused": (box[2] - box[0] - box[1]) / box[2], "dice": box[2]}
    return out


def speed() -> dict[str, float]:
    reader = DiceReader(kinds=("d6", "d10", "percentile"))
    frames = [load_image(p) for p in sorted(D6_TEST.glob("*.jpg"))]
    if not frames:
        rng = random.Random(0)
        frames = [compose_tray([rng.randint(1, 6) for _ in range(8)], "d6", rng)
                  for _ in range(20)]
    for f in frames[:3]:
        reader.read(f)
    ms = []
    for f in frames:
        t0 = time.perf_counter()
        reader.read(f)
        ms.append((time.perf_counter() - t0) * 1000)
    return {"median_ms": statistics.median(ms), "max_ms": max(ms), "frames": len(frames),
            "frame_size": f"{frames[0].shape[1]}x{frames[0].shape[0]}"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sectors", type=int, default=24, help="rotations per face (default 24)")
    ap.add_argument("--seeds", type=int, default=2, help="die styles per face and angle")
    ap.add_argument("--frames", type=int, default=30, help="composed frames per geometry")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    res = {"speed": speed(), "photos": photos(), "synthetic": synthetic(a.sectors, a.seeds),
           "composed": composed(a.frames)}
    res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if a.json:
        print(json.dumps(res, indent=1))
        return
    s = res["speed"]
    print(f"speed, kinds d6+d10+percentile: median {s['median_ms']:.1f} ms per "
          f"{s['frame_size']} frame (max {s['max_ms']:.1f}, {s['frames']} frames, 1 thread)")
    print(f"peak memory: {res['peak_rss_mb']:.0f} MB")
    p = res["photos"]
    if "skipped" in p:
        print(f"photos: {p['skipped']}")
    else:
        print(f"pink d10 photos: {p['pink_correct']}/10 right  {p['pink']}")
        print(f"blue d10 (held out, crop, 4 turns x 6 photos): "
              f"{p['blue_correct']}/{p['blue_crops']} right  {p['blue']}")
        print(f"purple d10 (held out, crop, 4 turns x 6 photos): "
              f"{p['purple_correct']}/{p['purple_crops']} right  {p['purple']}")
    for name, table in (("synthetic, all rotations", res["synthetic"]),
                        ("composed sample dice", res["composed"])):
        for kinds, r in table.items():
            print(f"{name} {kinds}: right {100 * r['right']:.1f} %  wrong "
                  f"{100 * r['wrong']:.2f} %  refused {100 * r['refused']:.1f} %  "
                  f"({r['dice']} dice)")


if __name__ == "__main__":
    main()
