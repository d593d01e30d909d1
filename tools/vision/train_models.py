"""Train the dice reader's small networks and export them to ONNX for cv2.dnn.

    .venv/bin/pip install torch==2.13.0 onnx     # training only; the runtime needs neither
    .venv/bin/python tools/vision/train_models.py det --minutes 34 --seed 5
    TRAIN_THREADS=2 .venv/bin/python tools/vision/train_models.py det --minutes 22 --seed 9 \
        --from-onnx
    TRAIN_THREADS=2 .venv/bin/python tools/vision/train_models.py d6 --minutes 45 --holdout 30
    TRAIN_THREADS=1 .venv/bin/python tools/vision/train_models.py d6 --minutes 35 --seed 3 \
        --holdout 30 --from-onnx --out d6-second.onnx
    TRAIN_THREADS=1 .venv/bin/python tools/vision/train_models.py d6 --minutes 25 --seed 6 \
        --holdout 30 --from-onnx d6-second.onnx --out d6-second.onnx
    TRAIN_THREADS=1 .venv/bin/python tools/vision/train_models.py det --minutes 30 --seed 21 \
        --from-onnx --other-floors
    TRAIN_THREADS=1 .venv/bin/python tools/vision/train_models.py d6 --minutes 30 --seed 22 \
        --holdout 30 --from-onnx d6-second.onnx --out d6-second.onnx --other-floors

(the sequence that produced the shipped detector and the two d6 networks; the digit model
comes from tools/vision/train_digits.py, see docs/vision.md). The first d6 run predates the
foreshortened crops (TILTED_SHARE), and the first d6-second stage drew 74 % of its samples
from train/ crops and 7 % from numeral renders instead of today's 70 % and 11 %.

Data: ../shared/datasets/dice-d6-tray/train ONLY (never test/), plus synthetic renders from
companion.vision.synth and composites of real die crops on procedural backgrounds (so the
detector sees dark trays, felt, wood-ish textures it never saw in the photos), and the ten
d10 photographs of dice-d10-single for the digit model (see docs/vision.md).

Outputs land in companion/vision/models/ (about 100 kB each).
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from companion.vision import synth  # noqa: E402
from companion.vision.nets_meta import (  # noqa: E402
    D6_CROP,
    D6_CROP_SCALE,
    DET_STRIDE,
    DIGIT_CROP,
    normalise_crop_batch,
    normalise_frame,
)
from companion.vision.synth_d6 import render_d6_scene  # noqa: E402

TRAIN_DIR = ROOT.parent / "shared" / "datasets" / "dice-d6-tray" / "train"
MODEL_DIR = ROOT / "companion" / "vision" / "models"
#: PyTorch checkpoints (to resume training); not shipped, not in the repo.
CKPT_DIR = Path(os.environ.get("DICE_CKPT_DIR", "/tmp/dice-train"))
CKPT_DIR.mkdir(parents=True, exist_ok=True)
torch.set_num_threads(int(os.environ.get("TRAIN_THREADS", "1")))


# ----------------------------------------------------------------------------- data


def load_train(holdout: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(image, boxes) with boxes as rows of class, cx, cy, w, h in pixels."""
    out = []
    for jpg in sorted(glob.glob(str(TRAIN_DIR / "*.jpg"))):
        img = cv2.imread(jpg)
        h, w = img.shape[:2]
        rows = []
        txt = Path(jpg).with_suffix(".txt")
        for line in txt.read_text().split("\n"):
            p = line.split()
            if len(p) == 5:
                c, x, y, bw, bh = int(p[0]), *map(float, p[1:])
                rows.append((c, x * w, y * h, bw * w, bh * h))
        out.append((img, np.array(rows, np.float32).reshape(-1, 5)))
    if holdout:
        return out[:-holdout]
    return out


def die_mask(crop: np.ndarray) -> np.ndarray:
    """Alpha mask of the die in a crop of a plain-background photo (for compositing)."""
    h, w = crop.shape[:2]
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.float32)
    bg = np.median(border, axis=0)
    diff = np.abs(crop.astype(np.float32) - bg).max(axis=2)
    m = (diff > 28).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, lab, st, _ = cv2.connectedComponentsWithStats(m)
    out = np.zeros((h, w), np.uint8)
    if n > 1:
        i = 1 + int(np.argmax(st[1:, 4]))
        pts = cv2.findNonZero((lab == i).astype(np.uint8))
        hull = cv2.convexHull(pts)
        cv2.fillConvexPoly(out, hull, 255)
    if out.sum() < 0.45 * 255 * h * w:
        out[:] = 0
        pad = max(1, int(0.08 * min(h, w)))
        cv2.rectangle(out, (pad, pad), (w - pad, h - pad), 255, -1)
    return cv2.GaussianBlur(out, (3, 3), 0)


def die_sprites(data: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Masked crops (bgr, alpha) of every labelled die, for compositing."""
    sprites = []
    for img, boxes in data:
        for _, cx, cy, bw, bh in boxes:
            s = 1.1
            x0, y0 = int(cx - bw * s / 2), int(cy - bh * s / 2)
            x1, y1 = int(cx + bw * s / 2), int(cy + bh * s / 2)
            if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
                continue
            crop = img[y0:y1, x0:x1].copy()
            sprites.append((crop, die_mask(crop)))
    return sprites


#: Share of train/ photo samples (detector windows, d6 crops and their negatives) whose
#: white tray floor is replaced by another floor: every train/ photo shows the same white
#: tray, and networks that never saw another floor find dice in a speckled mat's specks.
OTHER_FLOOR_SHARE = 0.3


def set_other_floor_share(share: float) -> None:
    global OTHER_FLOOR_SHARE
    OTHER_FLOOR_SHARE = share


def with_other_floors(
    data: list[tuple[np.ndarray, np.ndarray]], rng: random.Random, n: int = 2
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` random train/ photos on other floors (drawn afresh for each batch)."""
    out = []
    for _ in range(n):
        img, b = data[rng.randrange(len(data))]
        dice = [(float(cx), float(cy), float(max(bw, bh))) for _, cx, cy, bw, bh in b]
        floor = synth.tray_surface(rng, max(img.shape[:2]))
        out.append((synth.replace_floor(img, dice, floor), b))
    return out


#: Share of d6 photo samples drawn from frames of dice drawn in 3D (``--cubes``).
CUBE_SHARE = 0.0
CUBE_PHOTOS: list[tuple[np.ndarray, np.ndarray]] = []
#: dice-d6-tray's boxes leave a margin around the die; the drawn dice's boxes are tight.
CUBE_BOX_MARGIN = 1.1


def draw_cube_photos(share: float, frames: int = 600) -> None:
    """Frames of pip dice drawn in 3D (``synth_d6.render_d6_scene``), labelled as train/
    photos are: pips small to large, central to near the edges (train/'s dice have
    central pips only), seen from above and at up to 50 degrees, sides in view. Their
    seeds are not those of tools/vision/bench_cubes.py."""
    global CUBE_SHARE
    CUBE_SHARE = share
    for k in range(frames):
        rng = random.Random(1_000_003 + k)
        values = [rng.randint(1, 6) for _ in range(rng.randint(2, 10))]
        img, dice, _ = render_d6_scene(values, rng, rng.uniform(0, 50),
                                    die_px=rng.uniform(24, 56))
        rows = [(d.value - 1, x + w / 2, y + h / 2, w * CUBE_BOX_MARGIN, h * CUBE_BOX_MARGIN)
                for d in dice for x, y, w, h in (d.box,)]
        CUBE_PHOTOS.append((img, np.array(rows, np.float32).reshape(-1, 5)))
    print(f"{len(CUBE_PHOTOS)} frames of drawn dice, "
          f"{sum(len(b) for _, b in CUBE_PHOTOS)} dice", flush=True)


def colour_jitter(img: np.ndarray, rng: random.Random, invert_p: float = 0.15) -> np.ndarray:
    """Colour changes that keep dice readable: hue, gains, gamma, channel order, inversion."""
    img = img.astype(np.float32)
    if rng.random() < 0.5:
        img = img[..., rng.sample(range(3), 3)]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + rng.randrange(180)) % 180
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    img = img * np.array([rng.uniform(0.75, 1.25) for _ in range(3)], np.float32)
    img = img * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    if rng.random() < 0.15:
        g = img.mean(axis=2, keepdims=True)
        img = np.repeat(g, 3, axis=2)
    if rng.random() < invert_p:
        img = 255 - img
    img = np.clip(img, 0, 255)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.6, 1.6)
        img = 255 * (img / 255) ** gamma
    return img.astype(np.uint8)


def degrade(img: np.ndarray, rng: random.Random) -> np.ndarray:
    if rng.random() < 0.25:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
    if rng.random() < 0.5:
        img = np.clip(
            img + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 8),
                                                                         img.shape),
            0, 255,
        ).astype(np.uint8)
    if rng.random() < 0.3:
        q = rng.randrange(40, 95)
        _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def degrade_crop(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """Milder than ``degrade`` for 32 px die crops: a pip is only ~4 px there, and a blur or
    a downscale that erases it turns the sample into label noise (the first d6 model,
    trained with ``degrade``, underfit: 92 % on its own training crops)."""
    if rng.random() < 0.15:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.6))
    if rng.random() < 0.5:
        img = np.clip(
            img + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 6),
                                                                         img.shape),
            0, 255,
        ).astype(np.uint8)
    if rng.random() < 0.2:
        q = rng.randrange(60, 95)
        _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    if rng.random() < 0.2:
        out = img.shape[0]
        small = cv2.resize(img, (int(out * rng.uniform(0.75, 0.95)),) * 2,
                           interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (out, out), interpolation=cv2.INTER_LINEAR)
    return img


#: Share of training dice foreshortened as if seen by a camera at an angle.
TILTED_SHARE = 0.35


def foreshortening(rng: random.Random, p: float, least: float = 0.6) -> np.ndarray:
    """With probability ``p``, a 2x2 map that squashes by a factor in [least, 1] along a
    random direction; otherwise the identity.

    A camera at an angle sees a die's top face shortened by the cosine of its tilt (0.6 is
    about 53 degrees). train/ is all top-down, so without this the networks had never seen
    a squashed face: on train/ photos warped to a 40-degree camera the reader read 88 % of
    the dice (99 % straight on).
    """
    if rng.random() >= p:
        return np.eye(2)
    phi = rng.uniform(0, math.pi)
    turn = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    return turn @ np.diag([1.0, rng.uniform(least, 1.0)]) @ turn.T


def affine_about(
    centre: tuple[float, float], ang: float, scale: float, squash: np.ndarray,
    to: tuple[float, float],
) -> np.ndarray:
    """2x3 map: squash, turn by ``ang`` degrees and scale about ``centre``; ``centre`` lands
    on ``to``."""
    a = cv2.getRotationMatrix2D((0.0, 0.0), ang, scale)[:, :2] @ squash
    shift = np.array(to) - a @ np.array(centre)
    return np.hstack([a, shift[:, None]])


# ----------------------------------------------------------------------------- detector


class Detector(nn.Module):
    """Stride-4 CenterNet-style head: centre heatmap, log box size, sub-cell offset."""

    def __init__(self, w: int = 24) -> None:
        super().__init__()

        def cbr(i: int, o: int, s: int = 1, g: int = 1, d: int = 1) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(i, o, 3, s, d, dilation=d, groups=g, bias=False),
                nn.BatchNorm2d(o), nn.ReLU(inplace=True),
            )

        def pw(i: int, o: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU(inplace=True))

        self.body = nn.Sequential(
            cbr(3, 16, 2), cbr(16, w, 2),
            cbr(w, w, 1, w), pw(w, 2 * w),
            cbr(2 * w, 2 * w, 1, 2 * w, 2), pw(2 * w, 2 * w),
            cbr(2 * w, 2 * w, 1, 2 * w, 3), pw(2 * w, 2 * w),
        )
        self.head = nn.Conv2d(2 * w, 5, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.head(self.body(x))
        # heat (sigmoid), log w, log h, dx, dy (sigmoid)
        return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:3], torch.sigmoid(y[:, 3:5])], 1)


def det_sample(
    data: list[tuple[np.ndarray, np.ndarray]], sprites: list, rng: random.Random, size: int,
    floored: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """One training crop and its die boxes (cx, cy, w, h in crop pixels)."""
    target_die = rng.uniform(11, 36)
    if rng.random() < 0.35:
        img = synth.tray_surface(rng, size).astype(np.uint8)
        boxes: list[tuple[float, float, float, float]] = []
        for _ in range(rng.randrange(0, 14)):
            if rng.random() < 0.12:
                v = rng.randrange(10)
                spr = synth.render_ten_sided(v, rng, 64, percentile=rng.random() < 0.3,
                                             die_frac=0.7)
                alpha = np.zeros((64, 64), np.uint8)
                cv2.circle(alpha, (32, 32), 22, 255, -1)
                spr, alpha = spr[9:55, 9:55], alpha[9:55, 9:55]
            else:
                spr, alpha = sprites[rng.randrange(len(sprites))]
            d = target_die * rng.uniform(0.85, 1.15)
            sc = d / max(spr.shape[:2])
            ang = rng.uniform(0, 360)
            hw = max(4, int(max(spr.shape[:2]) * sc * 1.5))
            m = cv2.getRotationMatrix2D((spr.shape[1] / 2, spr.shape[0] / 2), ang, sc)
            m[0, 2] += hw / 2 - spr.shape[1] / 2
            m[1, 2] += hw / 2 - spr.shape[0] / 2
            s_img = cv2.warpAffine(spr, m, (hw, hw))
            s_a = cv2.warpAffine(alpha, m, (hw, hw)).astype(np.float32) / 255
            if boxes and rng.random() < 0.5:
                # Right beside a die already placed: real rolls land in touching clusters,
                # and a detector that never saw one merges two dice into one peak.
                bx, by, bw_, bh_ = boxes[rng.randrange(len(boxes))]
                a = rng.uniform(0, 2 * math.pi)
                dist = (d + max(bw_, bh_)) / 2 * rng.uniform(0.95, 1.15)
                cx, cy = bx + math.cos(a) * dist, by + math.sin(a) * dist
                x, y = int(cx - hw / 2), int(cy - hw / 2)
            else:
                x = rng.randrange(-hw // 3, size - hw // 2)
                y = rng.randrange(-hw // 3, size - hw // 2)
                cx, cy = x + hw / 2, y + hw / 2
            if any(math.hypot(cx - b[0], cy - b[1]) < 0.45 * (d + max(b[2], b[3]))
                   for b in boxes):
                continue
            x0, y0, x1, y1 = max(0, x), max(0, y), min(size, x + hw), min(size, y + hw)
            if x1 <= x0 or y1 <= y0:
                continue
            sa = s_a[y0 - y:y1 - y, x0 - x:x1 - x, None]
            # Drop shadow.
            off = max(1, int(d * 0.08))
            sh = np.zeros_like(s_a)
            sh[off:, off:] = s_a[:-off, :-off]
            sh = sh[y0 - y:y1 - y, x0 - x:x1 - x, None] * rng.uniform(0.1, 0.5)
            region = img[y0:y1, x0:x1].astype(np.float32)
            region = region * (1 - sh)
            region = region * (1 - sa) + s_img[y0 - y:y1 - y, x0 - x:x1 - x] * sa
            img[y0:y1, x0:x1] = region.astype(np.uint8)
            ys, xs = np.nonzero(s_a > 0.5)
            if len(xs) == 0:
                continue
            bx0, bx1 = xs.min() + x, xs.max() + x
            by0, by1 = ys.min() + y, ys.max() + y
            boxes.append(((bx0 + bx1) / 2, (by0 + by1) / 2, bx1 - bx0 + 1, by1 - by0 + 1))
        return colour_jitter(degrade(img, rng), rng, 0.1), boxes
    if CUBE_PHOTOS and rng.random() < CUBE_SHARE:
        img, b = CUBE_PHOTOS[rng.randrange(len(CUBE_PHOTOS))]
    elif floored and rng.random() < OTHER_FLOOR_SHARE:
        img, b = floored[rng.randrange(len(floored))]
    else:
        img, b = data[rng.randrange(len(data))]
    med = float(np.median(np.maximum(b[:, 3], b[:, 4]))) if len(b) else 40.0
    sc = target_die / med
    ang = rng.choice((0, 90, 180, 270)) + (rng.uniform(-20, 20) if rng.random() < 0.3 else 0)
    cx0 = rng.uniform(0, img.shape[1])
    cy0 = rng.uniform(0, img.shape[0])
    if len(b) and rng.random() < 0.7:
        k = rng.randrange(len(b))
        if len(b) > 1 and rng.random() < 0.5:
            # A die with a close neighbour (touching clusters are where detection fails).
            d = np.hypot(b[:, None, 1] - b[None, :, 1], b[:, None, 2] - b[None, :, 2])
            np.fill_diagonal(d, np.inf)
            close = np.nonzero(d.min(1) < 1.3 * med)[0]
            if len(close):
                k = int(close[rng.randrange(len(close))])
        cx0, cy0 = b[k, 1] + rng.uniform(-100, 100), b[k, 2] + rng.uniform(-100, 100)
    m = cv2.getRotationMatrix2D((cx0, cy0), ang, sc)
    m[0, 2] += size / 2 - cx0
    m[1, 2] += size / 2 - cy0
    out = cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT)
    boxes = []
    rad = math.radians(ang)
    for _, cx, cy, bw, bh in b:
        px, py = m @ np.array([cx, cy, 1.0])
        # Rotated box extents: for 90-degree turns w and h swap.
        ca, sa_ = abs(math.cos(rad)), abs(math.sin(rad))
        w2 = (bw * ca + bh * sa_) * sc
        h2 = (bw * sa_ + bh * ca) * sc
        if 0 <= px < size and 0 <= py < size:
            boxes.append((px, py, w2, h2))
    return colour_jitter(degrade(out, rng), rng), boxes


def det_targets(
    boxes: list[tuple[float, float, float, float]], size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = size // DET_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, w, h in boxes:
        gx, gy = cx / DET_STRIDE, cy / DET_STRIDE
        sigma = max(0.6, min(w, h) / DET_STRIDE / 5)
        ix, iy = int(gx), int(gy)
        hm = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, hm)
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
            reg[:, iy, ix] = (math.log(w), math.log(h), gx - ix, gy - iy)
            mask[iy, ix] = 1
    return heat, reg, mask


def load_folded_onnx(net: nn.Module, path: Path) -> None:
    """Start from a shipped ONNX model: its convolutions carry the batch norms folded in.

    Each conv gets the folded weight and each BatchNorm becomes "+ folded bias" (running
    mean 0, variance 1 - eps, scale 1); freeze_batch_norm keeps it so while fine-tuning.
    """
    import onnx
    from onnx import numpy_helper

    inits = [numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer]
    head = inits[:2]  # the exporter lists the named head (fc/head) first
    body = inits[2:]
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d | nn.Linear)]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        for k, (conv, bn) in enumerate(zip(convs[:-1], norms, strict=True)):
            conv.weight.copy_(torch.from_numpy(body[2 * k]))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(body[2 * k + 1]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        convs[-1].weight.copy_(torch.from_numpy(head[0]))
        convs[-1].bias.copy_(torch.from_numpy(head[1]))
    print(f"started from {path.name} ({len(convs)} layers)", flush=True)


def freeze_batch_norm(net: nn.Module) -> None:
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train_detector(minutes: float, seed: int = 0, init: bool = False,
                   from_onnx: str | None = None, out_name: str | None = None,
                   other_floors: bool = False) -> None:
    rng = random.Random(seed)
    data = load_train()
    sprites = die_sprites(data)
    print(f"{len(data)} images, {len(sprites)} sprites", flush=True)
    net = Detector()
    lr = 3e-3
    if init and (CKPT_DIR / "det.pt").is_file():
        net.load_state_dict(torch.load(CKPT_DIR / "det.pt"))
        print("resumed from checkpoint", flush=True)
    if from_onnx is not None:
        load_folded_onnx(net, MODEL_DIR / (from_onnx or "detector.onnx"))
        lr = 1e-3
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    size, bs = 160, 16
    t0 = time.time()
    step = 0
    total = minutes * 60
    while time.time() - t0 < total:
        frac = (time.time() - t0) / total
        for gparam in opt.param_groups:
            gparam["lr"] = lr * 0.5 * (1 + math.cos(math.pi * frac))
        if from_onnx is not None:
            freeze_batch_norm(net)
        xs, hs, rs, ms = [], [], [], []
        floored = with_other_floors(data, rng) if other_floors else None
        for _ in range(bs):
            img, boxes = det_sample(data, sprites, rng, size, floored)
            xs.append(normalise_frame(img))
            h, r, m = det_targets(boxes, size)
            hs.append(h)
            rs.append(r)
            ms.append(m)
        x = torch.from_numpy(np.stack(xs))
        heat = torch.from_numpy(np.stack(hs))[:, None]
        reg = torch.from_numpy(np.stack(rs))
        mask = torch.from_numpy(np.stack(ms))[:, None]
        out = net(x)
        p = out[:, :1].clamp(1e-4, 1 - 1e-4)
        pos = heat.eq(1).float()
        neg_w = (1 - heat) ** 4
        fl = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg_w * p**2 * torch.log(1 - p))
        npos = pos.sum().clamp(min=1)
        loss_h = fl.sum() / npos
        loss_r = (F.l1_loss(out[:, 1:5], reg, reduction="none") * mask).sum() / npos
        loss = loss_h + loss_r
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"det step {step} t={time.time() - t0:.0f}s heat {loss_h.item():.3f} "
                  f"reg {loss_r.item():.3f}", flush=True)
    torch.save(net.state_dict(), CKPT_DIR / "det.pt")
    export(net, MODEL_DIR / (out_name or "detector.onnx"), (1, 3, 320, 320), dynamic=True)


# ----------------------------------------------------------------------------- classifiers


class Classifier(nn.Module):
    """Small CNN for die crops; outputs logits and a 64-d embedding (logo matching).

    Sized for the time budget: the d6 shape (D6_WIDTHS, deep, 40x40 crops) is ~13 M
    multiply-adds per crop, so 25 dice cost a few milliseconds in cv2.dnn on one core.
    ``deep`` repeats the conv at the third scale, where it is cheap.
    """

    def __init__(
        self, n_classes: int, widths: tuple[int, ...] = (16, 32, 64, 64), spatial_in: int = 0,
        deep: bool = False,
    ) -> None:
        """spatial_in: crop size for a position-aware head (flattened map, not averaged).

        The digit reader needs it: a d10 shows its neighbours' digits beside the top one,
        and after global averaging the network cannot tell which digit is in the middle.
        """
        super().__init__()

        def cbr(i: int, o: int) -> list[nn.Module]:
            return [nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o),
                    nn.ReLU(inplace=True)]

        w0, w1, w2, w3 = widths
        self.body = nn.Sequential(
            *cbr(3, w0), nn.MaxPool2d(2),
            *cbr(w0, w1), *cbr(w1, w1), nn.MaxPool2d(2),
            *cbr(w1, w2), *(cbr(w2, w2) if deep else []), nn.MaxPool2d(2),
            *cbr(w2, w3),
        )
        self.spatial = spatial_in > 0
        cells = (spatial_in // 8) ** 2 if self.spatial else 1
        self.fc = nn.Linear(w3 * cells, n_classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.body(x)
        e = f.mean(dim=(2, 3))
        return self.fc(torch.flatten(f, 1) if self.spatial else e), e


def crop_from(
    img: np.ndarray, cx: float, cy: float, die: float, out: int, ang: float,
    jitter: float, rng: random.Random, squash: np.ndarray | None = None,
) -> np.ndarray:
    """Square crop of the die, as the runtime takes it, with training jitter.

    ``squash`` foreshortens the die as a tilted camera would; the crop keeps the die's
    unsquashed size, as the runtime's crop follows the box's longer side.
    """
    d = die * rng.uniform(1 - jitter, 1 + jitter)
    cx += rng.uniform(-jitter, jitter) * die
    cy += rng.uniform(-jitter, jitter) * die
    side = d * D6_CROP_SCALE
    m = affine_about((cx, cy), ang, out / side, np.eye(2) if squash is None else squash,
                     (out / 2, out / 2))
    return cv2.warpAffine(img, m, (out, out), flags=cv2.INTER_AREA if side > out else
                          cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


HARD_NEGATIVES: list[tuple[int, float, float, float]] = []


def mine_hard_negatives(data: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Run the shipped detector over train/ and keep its detections that are not dice."""
    from companion.vision.reader import DiceReader

    reader = DiceReader()
    for k, (img, b) in enumerate(data):
        for (x, y, w, h), _score in reader.find_dice(img):
            cx, cy = x + w / 2, y + h / 2
            if len(b) and np.min(np.hypot(b[:, 1] - cx, b[:, 2] - cy)
                                 - 0.5 * np.maximum(b[:, 3], b[:, 4])) < 0:
                continue  # its centre lies on a labelled die
            HARD_NEGATIVES.append((k, cx, cy, float(max(w, h))))
    print(f"{len(HARD_NEGATIVES)} hard negatives from the detector on train/", flush=True)


def d6_batch(
    data: list[tuple[np.ndarray, np.ndarray]], rng: random.Random, bs: int,
    floored: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Classes 0-5 = face 1-6, 6 = not a readable d6 face (background, off-centre, d10)."""
    xs, ys = [], []

    def photo() -> tuple[np.ndarray, np.ndarray]:
        if CUBE_PHOTOS and rng.random() < CUBE_SHARE:
            return CUBE_PHOTOS[rng.randrange(len(CUBE_PHOTOS))]
        if floored and rng.random() < OTHER_FLOOR_SHARE:
            return floored[rng.randrange(len(floored))]
        return data[rng.randrange(len(data))]

    for _ in range(bs):
        r = rng.random()
        if r < 0.70:
            img, b = photo()
            if not len(b):
                continue
            c, cx, cy, bw, bh = b[rng.randrange(len(b))]
            die = max(bw, bh)
            crop = crop_from(img, cx, cy, die, D6_CROP, rng.uniform(0, 360), 0.1, rng,
                             foreshortening(rng, TILTED_SHARE))
            label = int(c)
        elif r < 0.81:
            v = rng.randrange(1, 7)
            crop = synth.render_numeral_d6(v, rng, D6_CROP)
            label = v - 1
        elif r < 0.85:
            crop = synth.render_ten_sided(rng.randrange(10), rng, D6_CROP,
                                          percentile=rng.random() < 0.4)
            label = 6
        elif r < 0.91 and HARD_NEGATIVES:
            # Something the shipped detector mistook for a die in a train/ photo (screw
            # heads, tray print, shadows): the reader must learn to say "not a face".
            k, cx, cy, die = HARD_NEGATIVES[rng.randrange(len(HARD_NEGATIVES))]
            img = data[int(k)][0]
            crop = crop_from(img, cx, cy, die, D6_CROP, rng.uniform(0, 360), 0.1, rng)
            label = 6
        else:
            img, b = photo()
            die = float(np.median(np.maximum(b[:, 3], b[:, 4]))) if len(b) else 40.0
            for _ in range(20):
                if len(b) and rng.random() < 0.5:
                    # Off-centre view of a die or a gap between two dice.
                    k = rng.randrange(len(b))
                    a = rng.uniform(0, 2 * math.pi)
                    dist = rng.uniform(0.6, 1.0) * die
                    cx, cy = b[k, 1] + math.cos(a) * dist, b[k, 2] + math.sin(a) * dist
                else:
                    cx = rng.uniform(die, img.shape[1] - die)
                    cy = rng.uniform(die, img.shape[0] - die)
                dists = np.hypot(b[:, 1] - cx, b[:, 2] - cy) if len(b) else np.array([1e9])
                if dists.min() > 0.55 * die:
                    break
            crop = crop_from(img, cx, cy, die, D6_CROP, rng.uniform(0, 360), 0.1, rng)
            label = 6
        crop = degrade_crop(colour_jitter(crop, rng, 0.3), rng)
        xs.append(crop)
        ys.append(label)
    return normalise_crop_batch(np.stack(xs)), np.array(ys, np.int64)


D10_DIR = ROOT.parent / "shared" / "datasets" / "dice-d10-single"
D10_REAL: list[tuple[np.ndarray, float, float, float, int]] = []


def load_d10_photos() -> None:
    """The ten photographed d10 faces (die located by colour on the black tray).

    Used by the digit model since synthetic renders alone did not reach a usable accuracy
    in the training time we had; this makes the d10 photo check an in-sample one (see
    docs/vision.md), while the synthetic all-rotations test stays out-of-sample.
    """
    for face in range(10):
        img = cv2.imread(str(D10_DIR / f"d10-face{face}.jpg"))
        if img is None:
            continue
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        m = ((hsv[..., 1] > 80) & (hsv[..., 2] > 80)).astype(np.uint8)
        z = np.zeros_like(m)
        z[300:1800, 600:2000] = m[300:1800, 600:2000]
        _n, _lab, st, _ = cv2.connectedComponentsWithStats(z)
        i = 1 + int(np.argmax(st[1:, 4]))
        x, y, w, h, _a = st[i]
        D10_REAL.append((img, x + w / 2, y + h / 2, float(max(w, h)), face))
    print(f"{len(D10_REAL)} real d10 photos", flush=True)


def digits_batch(
    data: list[tuple[np.ndarray, np.ndarray]], rng: random.Random, bs: int
) -> tuple[np.ndarray, np.ndarray]:
    """Classes 0-9 = d10 digit, 10-19 = percentile tens (00-90), 20 = not a ten-sided face."""
    xs, ys = [], []
    for _ in range(bs):
        r = rng.random()
        if D10_REAL and r < 0.2:
            img, cx, cy, die, label = D10_REAL[rng.randrange(len(D10_REAL))]
            crop = crop_from(img, cx, cy, die, DIGIT_CROP, rng.uniform(0, 360), 0.1, rng)
        elif r < 0.45:
            v = rng.randrange(10)
            crop = synth.render_ten_sided(v, rng, DIGIT_CROP)
            label = v
        elif r < 0.8:
            v = rng.randrange(10)
            crop = synth.render_ten_sided(v, rng, DIGIT_CROP, percentile=True)
            label = 10 + v
        else:
            img, b = data[rng.randrange(len(data))]
            if len(b) and rng.random() < 0.7:
                _c, cx, cy, bw, bh = b[rng.randrange(len(b))]
                die = max(bw, bh)
            else:
                die = 40.0
                cx = rng.uniform(die, img.shape[1] - die)
                cy = rng.uniform(die, img.shape[0] - die)
            crop = crop_from(img, cx, cy, die, DIGIT_CROP, rng.uniform(0, 360), 0.1, rng)
            if rng.random() < 0.3:
                crop = synth.render_numeral_d6(rng.randrange(1, 7), rng, DIGIT_CROP)
            label = 20
        crop = degrade_crop(colour_jitter(crop, rng, 0.3), rng)
        xs.append(crop)
        ys.append(label)
    return normalise_crop_batch(np.stack(xs)), np.array(ys, np.int64)


#: The d6 network's shape. The first one, (16, 32, 64, 64) without ``deep`` on 32 px crops,
#: underfit: it was unsure of marbled and dark dice with coloured pips.
D6_WIDTHS = (16, 32, 64, 96)


def holdout_accuracy(net: nn.Module, held: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Face accuracy on held-out train/ photos, crops at the labelled boxes, upright."""
    rng = random.Random(0)
    crops, labels = [], []
    for img, b in held:
        for c, cx, cy, bw, bh in b:
            crops.append(crop_from(img, cx, cy, max(bw, bh), D6_CROP, 0.0, 0.0, rng))
            labels.append(int(c))
    net.eval()
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(normalise_crop_batch(np.stack(crops))))
    p = F.softmax(logits, 1).numpy()
    y = np.array(labels)
    best = p.argmax(1)
    sure = p.max(1) >= 0.5
    print(f"holdout: {len(y)} dice, argmax right {np.mean(best == y):.4f}, "
          f"sure and right {np.mean(sure & (best == y)):.4f}, "
          f"sure and wrong {np.mean(sure & (best != y)):.4f}", flush=True)
    net.train()


def train_classifier(
    which: str, minutes: float, seed: int = 1, init: bool = False, holdout: int = 0,
    out: str | None = None, from_onnx: str | None = None, other_floors: bool = False,
) -> None:
    rng = random.Random(seed)
    everything = load_train()
    data = everything[:-holdout] if holdout else everything
    held = everything[-holdout:] if holdout else []
    if which == "d6":
        mine_hard_negatives(data)
        net = Classifier(7, widths=D6_WIDTHS, deep=True)
        batch, n_in, name = d6_batch, D6_CROP, "d6.onnx"
    else:
        load_d10_photos()
        net = Classifier(21, spatial_in=DIGIT_CROP)
        batch, n_in, name = digits_batch, DIGIT_CROP, "digits.onnx"
    name = out or name
    ckpt = CKPT_DIR / f"{Path(name).stem}.pt"
    if init and ckpt.is_file():
        state = torch.load(ckpt)
        own = net.state_dict()
        # A head of another shape (GAP -> spatial) starts fresh; the convolutions carry on.
        kept = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(kept, strict=False)
        print(f"resumed from checkpoint ({len(kept)}/{len(own)} tensors)", flush=True)
    lr = 3e-3
    if from_onnx is not None:
        load_folded_onnx(net, MODEL_DIR / (from_onnx or f"{which}.onnx"))
        lr = 1e-3
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    t0 = time.time()
    total = minutes * 60
    step = 0
    acc_hist: list[float] = []
    while time.time() - t0 < total:
        frac = (time.time() - t0) / total
        for gparam in opt.param_groups:
            gparam["lr"] = lr * 0.5 * (1 + math.cos(math.pi * frac))
        if from_onnx is not None:
            freeze_batch_norm(net)
        if other_floors:
            x, y = d6_batch(data, rng, 64, with_other_floors(data, rng))
        else:
            x, y = batch(data, rng, 64)
        logits, _ = net(torch.from_numpy(x))
        loss = F.cross_entropy(logits, torch.from_numpy(y), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc_hist.append(float((logits.argmax(1).numpy() == y).mean()))
        step += 1
        if step % 100 == 0:
            print(f"{which} step {step} t={time.time() - t0:.0f}s loss {loss.item():.3f} "
                  f"acc {np.mean(acc_hist[-100:]):.3f}", flush=True)
        if held and step % 1000 == 0:
            holdout_accuracy(net, held)
            torch.save(net.state_dict(), ckpt)
    if held:
        holdout_accuracy(net, held)
    torch.save(net.state_dict(), ckpt)
    export(net, MODEL_DIR / name, (1, 3, n_in, n_in), dynamic=False, two_outputs=True)


def export(
    net: nn.Module, path: Path, shape: tuple[int, int, int, int], dynamic: bool,
    two_outputs: bool = False,
) -> None:
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    axes = {"x": {0: "b", 2: "h", 3: "w"}} if dynamic else {"x": {0: "b"}}
    outs = ["logits", "embed"] if two_outputs else ["y"]
    torch.onnx.export(net, torch.zeros(shape), str(path), dynamo=False, input_names=["x"],
                      output_names=outs, dynamic_axes=axes, opset_version=13)
    print(f"wrote {path} ({path.stat().st_size} bytes)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", choices=["det", "d6", "digits"])
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resume", action="store_true", help="start from the last checkpoint")
    ap.add_argument("--from-onnx", nargs="?", const="", default=None, metavar="NAME",
                    help="fine-tune a model of companion/vision/models/ (default: the "
                         "shipped detector.onnx, d6.onnx or digits.onnx)")
    ap.add_argument("--holdout", type=int, default=0,
                    help="keep the last N train/ photos out of training and report on them")
    ap.add_argument("--out", default=None,
                    help="file name in companion/vision/models/ to write (default "
                         "detector.onnx / d6.onnx / digits.onnx); another name trains a "
                         "candidate beside the shipped model")
    ap.add_argument("--other-floors", nargs="?", type=float, const=OTHER_FLOOR_SHARE,
                    default=0.0, metavar="SHARE",
                    help="det and d6: put this share (default OTHER_FLOOR_SHARE) of the "
                         "train/ photo samples on other floors (synth.replace_floor)")
    ap.add_argument("--cubes", type=float, default=0.0, metavar="SHARE",
                    help="det and d6: draw this share of the photo samples from frames of "
                         "dice drawn in 3D (synth_d6), pips spread wider than train/'s")
    a = ap.parse_args()
    if a.cubes and a.which == "digits":
        ap.error("--cubes is for det and d6")
    if a.cubes:
        draw_cube_photos(a.cubes)
    if a.other_floors and a.which == "digits":
        ap.error("--other-floors is for det and d6 (the digit model has its own floors)")
    if a.other_floors:
        set_other_floor_share(a.other_floors)
    if a.which == "det":
        train_detector(a.minutes or 15, a.seed, a.resume, a.from_onnx, a.out,
                       bool(a.other_floors))
    else:
        train_classifier(a.which, a.minutes or 6, a.seed + 1, a.resume, a.holdout,
                         a.out, a.from_onnx, bool(a.other_floors))


if __name__ == "__main__":
    main()
