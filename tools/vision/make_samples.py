"""Build the small sample set shipped in companion/data/dice/ for compose_tray and the demo.

    .venv/bin/python tools/vision/make_samples.py

- d6/: real die crops from dice-d6-tray/train (BSD-3, notice kept beside them), with an
  alpha mask, labelled by their true face, two per (colour, face) for four colours.
- d10/: the pink d10 of dice-d10-single (MIT), one crop per face, downscaled.
- percentile/: rendered percentile dice (no photo of one exists), two colours, faces 00-90.
- tray.jpg: a train/ photo with its dice painted out (cv2.inpaint), the empty tray.
- sample-*.jpg/.txt: two train/ photos with their labels, for `companion dice read` demos.
Total well under 1.5 MB.
"""

from __future__ import annotations

import glob
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "vision"))
from train_models import die_mask, load_train  # noqa: E402

SHARED = ROOT.parent / "shared" / "datasets"
OUT = ROOT / "companion" / "data" / "dice"


def colour_name(crop: np.ndarray, mask: np.ndarray) -> str:
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    px = hsv[mask > 128]
    if len(px) == 0:
        return "unknown"
    h, s, v = np.median(px, axis=0)
    if v < 70:
        return "black"
    if s < 60 and v > 140:
        return "white"
    if h < 8 or h > 165:
        return "red"
    if h < 22:
        return "orange"
    if h < 38:
        return "yellow"
    if h < 90:
        return "green"
    if h < 135:
        return "blue"
    return "purple"


def _reads_back(rgba: np.ndarray, face: int) -> bool:
    import random

    from companion.vision import DiceReader
    from companion.vision.compose import _paste

    global _READER, _TRAY
    if _READER is None:
        _READER = DiceReader()
        data = load_train()
        _TRAY = min(data, key=lambda d: (len(d[1]), -float(d[0].mean())))[0][:440, 100:540]
        _TRAY = cv2.resize(_TRAY, (640, 640))
    rng = random.Random(face)
    for k in range(8):
        frame = _TRAY.copy()
        _paste(frame, rgba, 320, 320, 40, 45 * k + rng.uniform(0, 10), rng)
        got = [d.value for d in _READER.read(frame).dice]
        if got != [face]:
            return False
    return True


_READER = None
_TRAY: np.ndarray | None = None

#: Rendered percentile sample dice: name, body colour, number colour (BGR), style seed.
PERCENTILE_STYLES = (("ivory", (214, 232, 240), (25, 25, 25), 3),
                     ("blue", (150, 70, 25), (245, 245, 245), 8))


def percentile_samples(manifest: dict[str, list[dict[str, object]]]) -> None:
    """Write percentile/<colour>-<tens>.png (renders: dice-d10-single has no percentile die)."""
    from companion.vision.synth import render_ten_sided_rgba

    (OUT / "percentile").mkdir(parents=True, exist_ok=True)
    manifest["percentile"] = []
    for colour, body, ink, seed in PERCENTILE_STYLES:
        for tens in range(10):
            rgba = render_ten_sided_rgba(tens, seed, 96, True, body, ink)
            name = f"percentile/{colour}-{tens}.png"
            cv2.imwrite(str(OUT / name), rgba, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            manifest["percentile"].append({"file": name, "value": tens, "colour": colour,
                                           "rendered": True})


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "d6").mkdir(parents=True)
    (OUT / "d10").mkdir(parents=True)
    data = load_train()
    groups: dict[tuple[str, int], list[tuple[float, np.ndarray]]] = defaultdict(list)
    for img, boxes in data:
        for c, cx, cy, bw, bh in boxes:
            s = 1.15
            x0, y0 = int(cx - bw * s / 2), int(cy - bh * s / 2)
            x1, y1 = int(cx + bw * s / 2), int(cy + bh * s / 2)
            if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
                continue
            others = [b for b in boxes if abs(b[1] - cx) > 1 or abs(b[2] - cy) > 1]
            if any(abs(b[1] - cx) < (b[3] / 2 + bw * s / 2) and
                   abs(b[2] - cy) < (b[4] / 2 + bh * s / 2) for b in others):
                continue  # a neighbour reaches into the crop
            crop = img[y0:y1, x0:x1].copy()
            mask = die_mask(crop)
            frac = float((mask > 128).mean())
            if not 0.45 < frac < 0.85:
                continue  # fallback rectangle or bad mask: not good enough to paste
            # Prefer square-ish (axis-aligned) dice: they rotate cleanly when pasted.
            groups[(colour_name(crop, mask), int(c) + 1)].append(
                (abs(bw - bh) + abs(frac - 0.7) * 20, np.dstack([crop, mask]))
            )
    colours = [c for c in ("white", "red", "green", "blue", "yellow", "black", "purple")
               if all(groups.get((c, f)) for f in range(1, 7))][:4]
    manifest: dict[str, list[dict[str, object]]] = {"d6": [], "d10": []}
    for col in colours:
        for face in range(1, 7):
            ranked = sorted(groups[(col, face)], key=lambda t: t[0])[:10]
            # Keep crops that still read as their face once pasted, at eight turns: a
            # badly masked crop (a neighbour's corner, a clipped pip) makes a composed
            # frame that even a person would misread.
            good = [t for t in ranked if _reads_back(t[1], face)] or ranked
            for k, (_, rgba) in enumerate(good[:2]):
                name = f"d6/{col}-{face}-{k}.png"
                cv2.imwrite(str(OUT / name), rgba, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                manifest["d6"].append({"file": name, "value": face, "colour": col})
    # d10 crops.
    for face in range(10):
        img = cv2.imread(str(SHARED / "dice-d10-single" / f"d10-face{face}.jpg"))
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        m = ((hsv[..., 1] > 80) & (hsv[..., 2] > 80)).astype(np.uint8)
        z = np.zeros_like(m)
        z[300:1800, 600:2000] = m[300:1800, 600:2000]
        _n, lab, st, _ = cv2.connectedComponentsWithStats(z)
        i = 1 + int(np.argmax(st[1:, 4]))
        x, y, w, h, _ = st[i]
        pad = 12
        crop = img[y - pad:y + h + pad, x - pad:x + w + pad]
        mask = np.zeros(crop.shape[:2], np.uint8)
        hull = cv2.convexHull(cv2.findNonZero((lab[y - pad:y + h + pad, x - pad:x + w + pad]
                                               == i).astype(np.uint8)))
        cv2.fillConvexPoly(mask, hull, 255)
        rgba = np.dstack([crop, mask])
        scale = 72 / max(rgba.shape[:2])
        rgba = cv2.resize(rgba, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        name = f"d10/pink-{face}.png"
        cv2.imwrite(str(OUT / name), rgba, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        manifest["d10"].append({"file": name, "value": face, "colour": "pink"})
    percentile_samples(manifest)
    # Empty tray: the first train photo whose dice sit well inside; paint them out.
    tray_img, boxes = min(data, key=lambda d: (len(d[1]), -float(d[0].mean())))
    mask = np.zeros(tray_img.shape[:2], np.uint8)
    for _, cx, cy, bw, bh in boxes:
        cv2.rectangle(mask, (int(cx - bw * 0.75), int(cy - bh * 0.75)),
                      (int(cx + bw * 0.75), int(cy + bh * 0.75)), 255, -1)
    tray = cv2.inpaint(tray_img, mask, 5, cv2.INPAINT_TELEA)
    # The chosen photo has a hand at the bottom edge: keep the clean upper part.
    tray = cv2.resize(tray[:440, 100:540], (640, 640), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(OUT / "tray.jpg"), tray, [cv2.IMWRITE_JPEG_QUALITY, 80])
    # Two labelled real photos for demos of `companion dice read`.
    files = sorted(glob.glob(str(SHARED / "dice-d6-tray" / "train" / "*.jpg")))
    for k, f in enumerate((files[10], files[60])):
        shutil.copy(f, OUT / f"sample-{k + 1}.jpg")
        shutil.copy(Path(f).with_suffix(".txt"), OUT / f"sample-{k + 1}.txt")
    shutil.copy(SHARED / "dice-d6-tray" / "LICENSE", OUT / "LICENSE-dice-d6-tray.txt")
    shutil.copy(SHARED / "dice-d10-single" / "LICENSE", OUT / "LICENSE-dice-d10-single.txt")
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    (OUT / "README.md").write_text(
        "# Sample dice for compose_tray and the demo\n\n"
        "Built by `tools/vision/make_samples.py`.\n\n"
        "- `d6/`, `tray.jpg`, `sample-*.jpg`: cropped from / copied from the dice-d6-tray "
        "photos (train split), BSD-3-Clause, see `LICENSE-dice-d6-tray.txt`.\n"
        "- `d10/`: cropped and downscaled from dice-d10-single, MIT, see "
        "`LICENSE-dice-d10-single.txt`.\n"
        "- `percentile/`: rendered, not photographed (no photo of a percentile die exists "
        "in ../shared), by `companion.vision.synth.render_ten_sided_rgba`; part of this "
        "project, same licence as the project.\n"
        "- `manifest.json`: each crop's true face value and colour.\n"
    )
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"colours {colours}; {len(manifest['d6'])} d6 crops; total {total / 1024:.0f} kB")


if __name__ == "__main__":
    if sys.argv[1:] == ["--percentile-only"]:
        # Add or refresh only the rendered percentile dice, keeping the other samples.
        kept = json.loads((OUT / "manifest.json").read_text())
        percentile_samples(kept)
        (OUT / "manifest.json").write_text(json.dumps(kept, indent=1) + "\n")
    else:
        main()
