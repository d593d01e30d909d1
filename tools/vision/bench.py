"""Benchmarks for docs/benchmarks.md: accuracy, speed on one core, peak memory, settle latency.

    .venv/bin/python tools/vision/bench.py                      # all, on ../shared test/
    .venv/bin/python tools/vision/bench.py --dir DIR --json
    .venv/bin/python tools/vision/bench.py --settle             # settling figures only

Runs in a fresh process so the peak-memory figure (ru_maxrss) is that of a process that
only reads dice: interpreter + numpy + OpenCV + models + frames.
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

from companion.vision import Calibration, DiceReader, SettleDetector, load_image  # noqa: E402
from companion.vision.bench import run_bench  # noqa: E402
from companion.vision.compose import (  # noqa: E402
    BOX_D10_PX,
    BOX_FRAME,
    D6_SIZE,
    D10_SIZE,
    compose_tray_with_boxes,
)

DEFAULT_DIR = ROOT.parent / "shared" / "datasets" / "dice-d6-tray" / "test"
D10_DIR = ROOT.parent / "shared" / "datasets" / "dice-d10-single"


#: The die size the dice-d10-single photos are calibrated with (their empty tray shows no
#: die to measure), as tests/vision/test_vision_d10.py does: the d10 is ~230 px across, the
#: numeral d6 ~200 px.
D10_DIE_PX = 230
D6_NUMERAL_DIE_PX = 200


def _single_die(reader: DiceReader, path: Path) -> list[object]:
    r = reader.read(load_image(path))
    return [(d.value, round(d.confidence, 3)) for d in r.dice] + [u.reason for u in r.unreadable]


def d10_check() -> dict[str, object]:
    """Each photographed die, read as the tests read it: right, wrong or refused."""
    from companion.vision import calibrate_from_frames

    if not D10_DIR.is_dir():
        return {"skipped": "dice-d10-single not found"}
    empty = load_image(D10_DIR / "background-empty-tray.jpg")
    out: dict[str, object] = {}
    for name, kind, faces, die_px in (("d10", "d10", range(10), D10_DIE_PX),
                                      ("d6numeral", "d6", range(1, 7), D6_NUMERAL_DIE_PX)):
        cal, _ = calibrate_from_frames([empty], die_px=die_px)
        reader = DiceReader(cal, kinds=(kind,))
        got = {f: _single_die(reader, D10_DIR / f"{name}-face{f}.jpg") for f in faces}
        read = {f: v[0][0] for f, v in got.items() if len(v) == 1 and isinstance(v[0], tuple)}
        out[name] = got
        out[f"{name}_correct"] = sum(1 for f, v in read.items() if v == f)
        out[f"{name}_wrong"] = sum(1 for f, v in read.items() if v != f)
    return out


def _settle_throw(det: SettleDetector, frames: list[np.ndarray], final: np.ndarray,
                  fps: float, noise: np.random.Generator, sigma: float = 2.0) -> float:
    """Feed a throw (``frames`` tumbling, the last of them the dice's final place) and then
    ``final`` under camera noise; the time from the first still frame to the report, as
    the stream's time to the reporting frame plus our processing of it."""
    ts = 0.0
    first_still = None
    for i in range(len(frames) + round(2 * fps)):
        if i < len(frames):
            f = frames[i]
        else:
            f = np.clip(final + noise.normal(0, sigma, final.shape), 0, 255).astype(np.uint8)
            if first_still is None:
                first_still = ts - 1 / fps  # frames[-1] was the first still frame
        t0 = time.perf_counter()
        out = det.feed(f, ts)
        spent = time.perf_counter() - t0
        if out is not None:
            assert first_still is not None
            return ts - first_still + spent
        ts += 1 / fps
    raise AssertionError("the throw was never reported")


def settle_latency(fps: float = 30.0, trials: int = 5) -> dict[str, float]:
    """Seconds from the first still frame to the report, over composed tumbling sequences:
    640x640 frames with an uncalibrated reader, and the box camera's 1280x960 frames with
    the die size calibrated (as `companion dice calibrate` leaves it)."""
    out: dict[str, float] = {}
    box_die = D6_SIZE * BOX_D10_PX / D10_SIZE
    setups = (("", (640, 640), D10_SIZE, DiceReader()),
              ("box_", BOX_FRAME, BOX_D10_PX,
               DiceReader(Calibration(frame_size=BOX_FRAME, die_px=box_die))))
    for prefix, size, d10_px, reader in setups:
        lat = []
        for t in range(trials):
            rng = random.Random(t)
            det = SettleDetector(reader, still_seconds=0.2)
            values = [rng.randint(1, 6) for _ in range(rng.randint(1, 8))]
            frames = [compose_tray_with_boxes(values, "d6", random.Random(rng.random()),
                                              frame_size=size, d10_px=d10_px)[0]
                      for _ in range(8)]
            lat.append(_settle_throw(det, frames, frames[-1], fps, np.random.default_rng(t)))
        out[f"{prefix}median_s"] = statistics.median(lat)
        out[f"{prefix}max_s"] = max(lat)
        out[f"{prefix}trials"] = len(lat)
    return out


def settle_frame_cost(frames: int = 300) -> dict[str, float]:
    """Milliseconds ``SettleDetector.feed`` takes on a 1280x960 frame when the reader does
    not run: the tray still (under camera noise; each frame compared with the previous
    one and with the first of the still spell) and dice moving (every frame differs)."""

    class NoReader:
        def read(self, frame: np.ndarray) -> None:
            raise AssertionError("the reader is not timed here")

    moving = [compose_tray_with_boxes([1, 2, 3, 4, 5, 6], "d6", random.Random(s),
                                      frame_size=BOX_FRAME, d10_px=BOX_D10_PX)[0]
              for s in range(4)]
    noise = np.random.default_rng(0)
    still = [np.clip(moving[0] + noise.normal(0, 2, moving[0].shape), 0, 255).astype(np.uint8)
             for _ in range(4)]
    out: dict[str, float] = {}
    for name, seq in (("still", still), ("moving", moving)):
        det = SettleDetector(NoReader(), still_seconds=1e9)  # type: ignore[arg-type]
        spent = []
        for i in range(frames):
            f = seq[i % len(seq)]
            t0 = time.perf_counter()
            det.feed(f, i / 30)
            spent.append(time.perf_counter() - t0)
        out[f"{name}_ms"] = statistics.median(spent[10:]) * 1000
    return out


def _settle_text(s: dict[str, float], c: dict[str, float]) -> str:
    return (f"settle latency    median {s['median_s'] * 1000:.0f} ms, max {s['max_s'] * 1000:.0f}"
            f" ms (first still frame -> report, 30 fps, still_seconds 0.2, 640x640); "
            f"box camera 1280x960: median {s['box_median_s'] * 1000:.0f} ms, "
            f"max {s['box_max_s'] * 1000:.0f} ms\n"
            f"settle per frame  {c['still_ms']:.2f} ms still, {c['moving_ms']:.2f} ms moving "
            f"(SettleDetector.feed on 1280x960, reader not run, "
            f"{cv2.getNumThreads()} OpenCV thread(s))")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--settle", action="store_true",
                    help="only the settling figures (latency, cost of a frame)")
    a = ap.parse_args()
    cv2.setNumThreads(a.threads)
    if a.settle:
        settle = {"settle_latency": settle_latency(), "settle_frame": settle_frame_cost()}
        if a.json:
            print(json.dumps(settle, indent=1))
        else:
            print(_settle_text(settle["settle_latency"], settle["settle_frame"]))
        return
    res = run_bench(a.dir)
    # Speed on exactly 640x640 frames (the test photos are 640x640 already).
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"dir": str(a.dir), **res.to_dict(), "peak_rss_mb": peak_mb, "d10": d10_check()}
    # Before the settling figures, which compose and keep frames of their own: the peak of
    # a process that reads, not of this benchmark.
    out["peak_rss_mb_after_d10"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.update(settle_latency=settle_latency(), settle_frame=settle_frame_cost(),
               opencv_threads=cv2.getNumThreads())
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(res.text())
    print(f"peak memory       {peak_mb:.0f} MB (after the bench), "
          f"{out['peak_rss_mb_after_d10']:.0f} MB after the d10 photos too")
    d10 = out["d10"]
    print(f"d10 photos        {d10.get('d10_correct')}/10 correct, {d10.get('d10_wrong')} wrong; "
          f"{d10.get('d10')}")
    print(f"d6 numeral photos {d10.get('d6numeral_correct')}/6 correct, "
          f"{d10.get('d6numeral_wrong')} wrong; {d10.get('d6numeral')}")
    print(_settle_text(out["settle_latency"], out["settle_frame"]))
    if res.failures:
        print("failures:")
        for f in res.failures:
            print("  ", json.dumps(f))


if __name__ == "__main__":
    main()
