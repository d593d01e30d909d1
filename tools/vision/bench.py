"""Benchmarks for docs/benchmarks.md: accuracy, speed on one core, peak memory, settle latency.

    .venv/bin/python tools/vision/bench.py                      # all, on ../shared test/
    .venv/bin/python tools/vision/bench.py --dir DIR --json

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

from companion.vision import DiceReader, SettleDetector, load_image  # noqa: E402
from companion.vision.bench import run_bench  # noqa: E402
from companion.vision.compose import compose_tray  # noqa: E402

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


def settle_latency(fps: float = 30.0, trials: int = 5) -> dict[str, float]:
    """Seconds from the first still frame to the report, over composed tumbling sequences."""
    reader = DiceReader()
    lat = []
    for t in range(trials):
        rng = random.Random(t)
        det = SettleDetector(reader, still_seconds=0.2)
        values = [rng.randint(1, 6) for _ in range(rng.randint(1, 8))]
        frames = [compose_tray(values, "d6", random.Random(rng.random())) for _ in range(8)]
        final = frames[-1]
        noise = np.random.default_rng(t)
        ts = 0.0
        first_still = None
        for i in range(60):
            if i < len(frames):
                f = frames[i]
            else:
                n = noise.normal(0, 2, final.shape)
                f = np.clip(final + n, 0, 255).astype(np.uint8)
                if first_still is None:
                    first_still = ts - 1 / fps  # frames[-1] was the first still frame
            t0 = time.perf_counter()
            out = det.feed(f, ts)
            spent = time.perf_counter() - t0
            if out is not None:
                assert first_still is not None
                # Wall time: the stream's time to this frame plus our processing of it.
                lat.append(ts - first_still + spent)
                break
            ts += 1 / fps
    return {"median_s": statistics.median(lat), "max_s": max(lat), "trials": len(lat)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    cv2.setNumThreads(a.threads)
    res = run_bench(a.dir)
    # Speed on exactly 640x640 frames (the test photos are 640x640 already).
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"dir": str(a.dir), **res.to_dict(), "peak_rss_mb": peak_mb,
           "d10": d10_check(), "settle_latency": settle_latency(),
           "opencv_threads": cv2.getNumThreads()}
    out["peak_rss_mb_after_all"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(res.text())
    print(f"peak memory       {peak_mb:.0f} MB (after the bench), "
          f"{out['peak_rss_mb_after_all']:.0f} MB after d10 photos too")
    d10 = out["d10"]
    print(f"d10 photos        {d10.get('d10_correct')}/10 correct, {d10.get('d10_wrong')} wrong; "
          f"{d10.get('d10')}")
    print(f"d6 numeral photos {d10.get('d6numeral_correct')}/6 correct, "
          f"{d10.get('d6numeral_wrong')} wrong; {d10.get('d6numeral')}")
    s = out["settle_latency"]
    print(f"settle latency    median {s['median_s'] * 1000:.0f} ms, max {s['max_s'] * 1000:.0f}"
          f" ms (first still frame -> report, 30 fps, still_seconds 0.2)")
    if res.failures:
        print("failures:")
        for f in res.failures:
            print("  ", json.dumps(f))


if __name__ == "__main__":
    main()
