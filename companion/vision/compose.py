"""Build realistic tray frames from real die photographs (for the desktop demo and tests).

The crops in ``companion/data/dice/`` are real dice cut from the dataset photos with an
alpha mask and labelled by their true face (d6 and the pink d10), plus rendered percentile
dice, of which no photo exists (see tools/vision/make_samples.py and the README and licence
files beside them). ``compose_tray`` pastes them, turned at random, at random non-touching
places on a photo of an empty tray, with a soft shadow, so a frame with known values exists
on any machine. One frame may mix kinds (a percentile die and a d10 thrown together).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .types import Box, VisionError

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "dice"

#: Die size (box side, pixels) in composed 640x640 frames: the dataset's typical size.
D6_SIZE = 40
#: A d10 is wider than a 16 mm d6 (about 20 mm across its outline).
D10_SIZE = 56
#: What the box's camera sees (hardware/camera-geometry.md): 1280x960 frames at about 3.9
#: pixels per millimetre, so a d10 (about 20 mm across its outline) is about 78 px across.
BOX_FRAME = (1280, 960)
BOX_D10_PX = 78.0


@lru_cache(maxsize=1)
def _assets() -> tuple[np.ndarray, dict[str, dict[int, list[np.ndarray]]]]:
    try:
        manifest = json.loads((DATA_DIR / "manifest.json").read_text())
        tray = cv2.imread(str(DATA_DIR / "tray.jpg"), cv2.IMREAD_COLOR)
    except (OSError, ValueError) as e:
        raise VisionError(f"the sample dice in {DATA_DIR} are missing ({e}); reinstall "
                          "companion") from e
    if tray is None:
        raise VisionError(f"{DATA_DIR / 'tray.jpg'} is missing or damaged; reinstall companion")
    crops: dict[str, dict[int, list[np.ndarray]]] = {}
    for kind, items in manifest.items():
        for item in items:
            img = cv2.imread(str(DATA_DIR / item["file"]), cv2.IMREAD_UNCHANGED)
            if img is None or img.ndim != 3 or img.shape[2] != 4:
                raise VisionError(f"sample die {item['file']} is damaged; reinstall companion")
            crops.setdefault(kind, {}).setdefault(int(item["value"]), []).append(img)
    return tray, crops


def sample_kinds() -> tuple[str, ...]:
    """Kinds compose_tray can build."""
    return tuple(sorted(_assets()[1]))


def compose_tray(
    values: Sequence[int], kind: str | Sequence[str], rng: random.Random
) -> np.ndarray:
    """A 640x640 BGR tray frame showing dice with the given face ``values``.

    ``kind``: one kind for all dice, or one per value ("d6", "d10", "percentile"). Faces:
    d6 1..6, d10 0..9, percentile 0..9 (tens: 00..90). Dice do not touch and lie fully
    inside the frame. Use ``compose_tray_with_boxes`` to also get where each die went, or
    to compose at another frame size and die size (e.g. ``BOX_FRAME``, ``BOX_D10_PX``).
    """
    return compose_tray_with_boxes(values, kind, rng)[0]


def compose_tray_with_boxes(
    values: Sequence[int], kind: str | Sequence[str], rng: random.Random, *,
    frame_size: tuple[int, int] = (640, 640), d10_px: float = D10_SIZE,
) -> tuple[np.ndarray, list[Box]]:
    """``compose_tray`` in a ``frame_size`` (width, height) frame with ten-sided dice
    ``d10_px`` across (d6s in proportion), and each die's box (x, y, w, h)."""
    tray, crops = _assets()
    if frame_size != tray.shape[1::-1]:
        tray = cv2.resize(tray, frame_size, interpolation=cv2.INTER_LINEAR)
    d6_px = D6_SIZE * d10_px / D10_SIZE
    kinds = [kind] * len(values) if isinstance(kind, str) else list(kind)
    if len(kinds) != len(values):
        raise VisionError(f"compose_tray got {len(values)} values but {len(kinds)} kinds")
    for k, v in zip(kinds, values, strict=True):
        if k not in crops:
            raise VisionError(f"compose_tray has no sample dice of kind {k!r}; "
                              f"it has {', '.join(sorted(crops))}")
        lo, hi = (1, 6) if k == "d6" else (0, 9)
        if not lo <= int(v) <= hi:
            raise VisionError(f"a {k} has no face {v} (faces are {lo}..{hi})")
    if len(values) > 30:
        raise VisionError("compose_tray places at most 30 dice")
    frame = tray.copy()
    if rng.random() < 0.5:
        frame = cv2.flip(frame, 1)
    # Mild global light change so repeated frames are not identical.
    frame = np.clip(frame.astype(np.float32) * rng.uniform(0.9, 1.05), 0, 255).astype(np.uint8)
    h, w = frame.shape[:2]
    placed: list[tuple[float, float, float]] = []
    boxes: list[Box] = []
    margin = max(d6_px if k == "d6" else d10_px for k in kinds) if kinds else d6_px
    for k, v in zip(kinds, values, strict=True):
        sprite = rng.choice(crops[k][int(v)])
        size = (d6_px if k == "d6" else d10_px) * rng.uniform(0.92, 1.08)
        for _ in range(500):
            cx, cy = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
            if all(math.hypot(cx - px, cy - py) > 1.9 * max(size, ps) for px, py, ps in placed):
                break
        else:
            raise VisionError(f"cannot place {len(values)} dice without touching")
        placed.append((cx, cy, size))
        boxes.append(_paste(frame, sprite, cx, cy, size, rng.uniform(0, 360), rng))
    return frame, boxes


def _paste(
    frame: np.ndarray, sprite: np.ndarray, cx: float, cy: float, size: float, angle: float,
    rng: random.Random,
) -> Box:
    """Paste an RGBA die crop centred at (cx, cy), the die's outline ``size`` across."""
    alpha = sprite[..., 3]
    ys, xs = np.nonzero(alpha > 128)
    die_extent = max(xs.max() - xs.min() + 1, ys.max() - ys.min() + 1)
    scale = size / die_extent
    sh, sw = sprite.shape[:2]
    out = math.ceil(max(sh, sw) * scale * 1.5) + 4
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, scale)
    m[0, 2] += out / 2 - sw / 2
    m[1, 2] += out / 2 - sh / 2
    warped = cv2.warpAffine(sprite, m, (out, out), flags=cv2.INTER_AREA, borderValue=0)
    a = warped[..., 3].astype(np.float32) / 255
    x0, y0 = round(cx - out / 2), round(cy - out / 2)
    h, w = frame.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + out > w or y0 + out > h:
        raise VisionError("internal: die pasted outside the frame")
    region: np.ndarray = frame[y0:y0 + out, x0:x0 + out].astype(np.float32)
    # Shadow: the die's alpha, shifted down-right and blurred (light from the top left).
    off = max(1, int(size * 0.08))
    offset_alpha = np.zeros_like(a)
    offset_alpha[off:, off:] = a[:-off, :-off]
    shadow = cv2.GaussianBlur(offset_alpha, (0, 0), max(1.0, size * 0.06)) * rng.uniform(0.25, 0.4)
    region *= 1 - shadow[..., None]
    region = region * (1 - a[..., None]) + warped[..., :3].astype(np.float32) * a[..., None]
    frame[y0:y0 + out, x0:x0 + out] = np.clip(region, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(a > 0.5)
    return (int(x0 + xs.min()), int(y0 + ys.min()), int(xs.max() - xs.min() + 1),
            int(ys.max() - ys.min() + 1))
