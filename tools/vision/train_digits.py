"""Train the ten-sided / percentile dice reader: companion/vision/models/digits.onnx.

    .venv/bin/pip install torch==2.13.0 onnx          # training only; the runtime needs neither
    nice -n 10 .venv/bin/python tools/vision/train_digits.py --minutes 65 --seed 2
    nice -n 10 .venv/bin/python tools/vision/train_digits.py --minutes 32 --seed 3 \
        --resume --with-photos --lr 1.5e-3

(the two stages that produced the shipped model, one thread on a shared 2-core machine).

Classes: 0-9 = d10 digit, 10-19 = percentile tens ("00" ... "90"), 20 = not a readable
ten-sided face. Input: the reader's 48x48 crop (DIGIT_CROP_SCALE x the detector's box, about
the die's outline), standardised per crop.

Data, all generated on the fly (nothing is stored):

- positives: 3D renders of d10 and percentile dice from companion.vision.synth (many
  fonts, colours, sizes, flatness, light, camera tilt up to 30 degrees, neighbouring faces
  with their own numbers, 6/9 underlined or dotted) at any rotation, with the reader's box
  jitter, then heavy realistic degradation: low resolution, blur, noise, JPEG, colour and
  light changes;
- negatives: real d6 dice and tray background from ../shared/datasets/dice-d6-tray/train
  (never test/), what the shipped detector wrongly finds there, rendered d6s, d10s with a
  blank top face and d10s far off the crop's centre (so only the middle number counts).

No photograph of a ten-sided die is used for training unless --with-photos is given: the
pink d10 of dice-d10-single and the blue and purple d10s in its d6numeral photos are the
real test. Every few minutes the script prints the accuracy on a fixed held-out set of
renders (other random seeds) and the reading of every real d10 crop.

Checkpoints (to resume) go to $DICE_CKPT_DIR (default /tmp/dice-train)/digits-v2.pt.
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
    DIGIT_CROP,
    DIGIT_CROP_SCALE,
    normalise_crop_batch,
)

SHARED = ROOT.parent / "shared" / "datasets"
D6_TRAIN = SHARED / "dice-d6-tray" / "train"
D10_DIR = SHARED / "dice-d10-single"
MODEL_PATH = ROOT / "companion" / "vision" / "models" / "digits.onnx"
CKPT = Path(os.environ.get("DICE_CKPT_DIR", "/tmp/dice-train")) / "digits-v2.pt"
NOT_A_FACE = 20
N_CLASSES = 21
#: Below this probability the reader says "unclear face" (companion.vision.reader).
MIN_PROB = 0.5
#: Samples kept for replay (see Sampler.batch).
REPLAY = 20_000


# ----------------------------------------------------------------------------- network


class DigitNet(nn.Module):
    """~7 M multiply-adds per 48x48 crop (about 0.3 ms in cv2.dnn on one core).

    The head keeps the 6x6 feature map's layout (no global average): a d10 also shows its
    neighbours' numbers, and only the one in the middle counts. ``embed`` (the averaged
    map) is the second output the runtime expects from its classifiers.
    """

    def __init__(self) -> None:
        super().__init__()

        def cbr(i: int, o: int, stride: int = 1, groups: int = 1, k: int = 3) -> list[nn.Module]:
            return [nn.Conv2d(i, o, k, stride, k // 2, groups=groups, bias=False),
                    nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

        self.body = nn.Sequential(
            *cbr(3, 16), nn.MaxPool2d(2), *cbr(16, 24), nn.MaxPool2d(2),
            *cbr(24, 48), *cbr(48, 48, groups=48), *cbr(48, 64, k=1), nn.MaxPool2d(2),
            *cbr(64, 64),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(64 * (DIGIT_CROP // 8) ** 2, N_CLASSES)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.body(x)
        return self.fc(self.drop(torch.flatten(f, 1))), f.mean(dim=(2, 3))


# ----------------------------------------------------------------------------- real photos


def crop_at(img: np.ndarray, cx: float, cy: float, side: float, angle: float,
            out: int = DIGIT_CROP) -> np.ndarray:
    """A square crop of ``side`` pixels about (cx, cy), turned by ``angle``, shrunk to
    ``out`` without aliasing (the reader takes DIGIT_CROP_SCALE x the detector's box)."""
    big = side * 1.5
    x0, y0 = round(cx - big / 2), round(cy - big / 2)
    x1, y1 = x0 + round(big), y0 + round(big)
    h, w = img.shape[:2]
    region = img[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    region = cv2.copyMakeBorder(region, max(0, -y0), max(0, y1 - h), max(0, -x0),
                                max(0, x1 - w), cv2.BORDER_REPLICATE)
    work = int(out * 1.5 * 2)
    if region.shape[0] > work:
        region = cv2.resize(region, (work, work), interpolation=cv2.INTER_AREA)
    s = region.shape[0] / big
    c = region.shape[0] / 2
    m = cv2.getRotationMatrix2D((c, c), angle, out / (side * s))
    m[0, 2] += out / 2 - c
    m[1, 2] += out / 2 - c
    return cv2.warpAffine(region, m, (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _die_by_colour(img: np.ndarray, region: tuple[int, int, int, int],
                   hue: tuple[int, int], min_sat: int) -> tuple[float, float, float]:
    """Centre and size of the largest saturated blob of a hue range inside ``region``."""
    x0, y0, x1, y1 = region
    hsv = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    m = ((hsv[..., 0] >= hue[0]) & (hsv[..., 0] <= hue[1]) & (hsv[..., 1] > min_sat)
         & (hsv[..., 2] > 60)).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    _n, _lab, st, _ = cv2.connectedComponentsWithStats(m)
    i = 1 + int(np.argmax(st[1:, 4]))
    x, y, w, h, _a = st[i]
    return x0 + x + w / 2, y0 + y + h / 2, float(max(w, h))


def real_d10s() -> list[tuple[str, np.ndarray, float, float, float, int]]:
    """(name, photo, cx, cy, die size, value) of every real ten-sided die we have.

    pink-N: the pink d10 on the black tray (d10-faceN.jpg); blue-8-k / purple-5-k: the blue
    and purple d10s lying on the table beside the tray in d6numeral-facek.jpg (the purple
    one is partly outside the picture).
    """
    out = []
    if not D10_DIR.is_dir():
        return out
    for face in range(10):
        img = cv2.imread(str(D10_DIR / f"d10-face{face}.jpg"))
        if img is not None:
            cx, cy, d = _die_by_colour(img, (600, 300, 2000, 1800), (140, 179), 80)
            out.append((f"pink-{face}", img, cx, cy, d, face))
    for k in range(1, 7):
        img = cv2.imread(str(D10_DIR / f"d6numeral-face{k}.jpg"))
        if img is None:
            continue
        cx, cy, d = _die_by_colour(img, (2100, 650, 2592, 1300), (85, 115), 100)
        out.append((f"blue-8-{k}", img, cx, cy, d, 8))
        cx, cy, d = _die_by_colour(img, (2100, 100, 2592, 650), (116, 160), 50)
        out.append((f"purple-5-{k}", img, cx, cy, d, 5))
    return out


# ----------------------------------------------------------------------------- d6 photos


def load_d6_train() -> list[tuple[np.ndarray, np.ndarray]]:
    """(image, rows of class, cx, cy, w, h in pixels) of dice-d6-tray/train (never test/)."""
    out = []
    for jpg in sorted(glob.glob(str(D6_TRAIN / "*.jpg"))):
        img = cv2.imread(jpg)
        h, w = img.shape[:2]
        rows = []
        for line in Path(jpg).with_suffix(".txt").read_text().split("\n"):
            p = line.split()
            if len(p) == 5:
                rows.append((int(p[0]), float(p[1]) * w, float(p[2]) * h, float(p[3]) * w,
                             float(p[4]) * h))
        out.append((img, np.array(rows, np.float32).reshape(-1, 5)))
    return out


def hard_negatives(data: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[int, float, float,
                                                                            float]]:
    """What the shipped detector finds on train/ photos that is not a labelled die."""
    from companion.vision.reader import DiceReader

    reader = DiceReader()
    out = []
    for k, (img, b) in enumerate(data):
        for (x, y, w, h), _score in reader.find_dice(img):
            cx, cy = x + w / 2, y + h / 2
            if len(b) and np.min(np.hypot(b[:, 1] - cx, b[:, 2] - cy)
                                 - 0.5 * np.maximum(b[:, 3], b[:, 4])) < 0:
                continue
            out.append((k, cx, cy, float(max(w, h))))
    return out


# ----------------------------------------------------------------------------- augmentation


def augment(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """What other cameras, lights and trays do to a die crop."""
    out = img.shape[0]
    f = img.astype(np.float32)
    if rng.random() < 0.3:
        f = f[..., rng.sample(range(3), 3)]
    if rng.random() < 0.25:
        hsv = cv2.cvtColor(np.clip(f, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + rng.randrange(180)) % 180
        f = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.1:
        f = np.repeat(f.mean(axis=2, keepdims=True), 3, axis=2)
    # Light: colour cast, exposure, a gradient and sometimes a glare spot.
    f *= np.array([rng.uniform(0.75, 1.25) for _ in range(3)], np.float32)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-35, 35)
    yy, xx = np.mgrid[0:out, 0:out].astype(np.float32) / out - 0.5
    f *= (1 + rng.uniform(-0.4, 0.4) * xx + rng.uniform(-0.4, 0.4) * yy)[..., None]
    if rng.random() < 0.15:
        gx, gy, r = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(0.05, 0.15)
        f += (rng.uniform(40, 150) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[
            ..., None]
    if rng.random() < 0.05:
        f = 255 - f
    f = np.clip(f, 0, 255)
    if rng.random() < 0.25:
        f = 255 * (f / 255) ** rng.uniform(0.7, 1.4)
    img = f.astype(np.uint8)
    # Resolution: a die only 17-35 px across in the camera's frame, upsampled by the reader;
    # or a soft focus. Not both: a crop whose number a person could not read is label noise.
    r = rng.random()
    if r < 0.25:
        small = max(10, int(out * rng.uniform(0.5, 0.9)))
        img = cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA)
        img = cv2.resize(img, (out, out), interpolation=cv2.INTER_LINEAR)
    elif r < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.8))
    elif r < 0.54:
        k = 3
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1 / k
        m = cv2.getRotationMatrix2D((1.0, 1.0), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, m, (k, k)))
    if rng.random() < 0.6:
        noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 7),
                                                                      img.shape)
        img = np.clip(img + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randrange(45, 95)])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


# ----------------------------------------------------------------------------- samples


class Sampler:
    def __init__(self, rng: random.Random, with_photos: bool) -> None:
        self.rng = rng
        self.d6 = load_d6_train()
        self.hard = hard_negatives(self.d6) if self.d6 else []
        self.photos = [r for r in real_d10s() if r[0].startswith("pink")] if with_photos else []
        self._replay_x: list[np.ndarray] = []
        self._replay_y: list[int] = []
        print(f"{len(self.d6)} d6 train photos, {len(self.hard)} hard negatives, "
              f"{len(self.photos)} d10 photos used for training", flush=True)

    def _render(self, label: int, **kw: object) -> np.ndarray:
        rng = self.rng
        value, pct = (label, False) if label < 10 else (label - 10, True)
        jitter = (rng.uniform(-0.08, 0.08), rng.uniform(-0.08, 0.08))
        kw.setdefault("offset", jitter)
        tilt = rng.uniform(0, 10) if rng.random() < 0.7 else rng.uniform(10, 22)
        # The die's outline over the crop's side: the reader's crop is DIGIT_CROP_SCALE x a
        # detector box that is 0.8-0.95 x the outline.
        return synth.render_ten_sided(value, rng, DIGIT_CROP, pct,
                                      die_frac=rng.uniform(0.8, 1.1), tilt=tilt,
                                      **kw)  # type: ignore[arg-type]

    def _d6_crop(self, off_centre: bool) -> np.ndarray:
        rng = self.rng
        img, b = self.d6[rng.randrange(len(self.d6))]
        die = float(np.median(np.maximum(b[:, 3], b[:, 4]))) if len(b) else 40.0
        if len(b) and not off_centre:
            _c, cx, cy, bw, bh = b[rng.randrange(len(b))]
            die = max(bw, bh) * 0.9  # the detector's box is a little inside the labelled one
            cx += rng.uniform(-0.1, 0.1) * die
            cy += rng.uniform(-0.1, 0.1) * die
        elif self.hard and rng.random() < 0.4:
            _k, cx, cy, die = self.hard[rng.randrange(len(self.hard))]
            img = self.d6[int(_k)][0]
        else:
            cx = rng.uniform(die, img.shape[1] - die)
            cy = rng.uniform(die, img.shape[0] - die)
        side = die * DIGIT_CROP_SCALE * rng.uniform(0.9, 1.1)
        return crop_at(img, cx, cy, side, rng.uniform(0, 360))

    def sample(self) -> tuple[np.ndarray, int]:
        rng = self.rng
        r = rng.random()
        if self.photos and r < 0.08:
            _n, img, cx, cy, die, label = self.photos[rng.randrange(len(self.photos))]
            crop = crop_at(img, cx + rng.uniform(-0.08, 0.08) * die,
                           cy + rng.uniform(-0.08, 0.08) * die, die * rng.uniform(0.9, 1.12),
                           rng.uniform(0, 360))
            return augment(crop, rng), label
        if r < 0.72:
            label = rng.randrange(20)
            return augment(self._render(label), rng), label
        if r < 0.80:
            crop = self._d6_crop(off_centre=False) if self.d6 else self._render(0, blank_top=True)
        elif r < 0.85:
            crop = self._d6_crop(off_centre=True) if self.d6 else self._render(0, blank_top=True)
        elif r < 0.89:
            v = rng.randrange(1, 7)
            crop = (synth.render_numeral_d6(v, rng, DIGIT_CROP) if rng.random() < 0.6
                    else synth.render_pip_d6(v, rng, DIGIT_CROP))
        elif r < 0.94:
            # A ten-sided die with no number on top: only the middle number may count.
            crop = self._render(rng.randrange(20), blank_top=True)
        else:
            # Far off the crop's centre: a neighbour's view, not this die's top face.
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(0.45, 0.8)
            crop = self._render(rng.randrange(20), offset=(d * math.cos(a), d * math.sin(a)))
        return augment(crop, rng), NOT_A_FACE

    def batch(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``n`` fresh samples and ``n`` replayed ones (a random quarter turn of a sample from
        the last ``REPLAY`` drawn): rendering costs twice a training step on one core."""
        xs, ys = zip(*(self.sample() for _ in range(n)), strict=True)
        fresh = np.stack(xs)
        labels = np.array(ys, np.int64)
        if len(self._replay_y) < REPLAY:
            self._replay_x.extend(fresh)
            self._replay_y.extend(labels)
        else:
            for x, y in zip(fresh, labels, strict=True):
                i = self.rng.randrange(REPLAY)
                self._replay_x[i], self._replay_y[i] = x, y
        pick = [self.rng.randrange(len(self._replay_y)) for _ in range(n)]
        old = np.stack([np.rot90(self._replay_x[i], self.rng.randrange(1, 4)) for i in pick])
        x = np.concatenate([fresh, old])
        y = np.concatenate([labels, np.array([self._replay_y[i] for i in pick], np.int64)])
        return normalise_crop_batch(np.ascontiguousarray(x)), y


# ----------------------------------------------------------------------------- evaluation


def heldout_renders(seed: int, per_class: int) -> tuple[np.ndarray, np.ndarray]:
    """Fresh renders (a seed training never uses) at random rotations, mildly degraded."""
    rng = random.Random(seed)
    xs, ys = [], []
    for label in range(20):
        for _ in range(per_class):
            value, pct = (label, False) if label < 10 else (label - 10, True)
            crop = synth.render_ten_sided(value, rng, DIGIT_CROP, pct,
                                          die_frac=rng.uniform(0.85, 1.05),
                                          offset=(rng.uniform(-0.06, 0.06),
                                                  rng.uniform(-0.06, 0.06)))
            xs.append(augment(crop, rng) if rng.random() < 0.5 else crop)
            ys.append(label)
    return normalise_crop_batch(np.stack(xs)), np.array(ys)


def decide(p: np.ndarray, kinds: tuple[str, ...]) -> int | None:
    """The reader's decision for one crop's probabilities: a label, or None (refused)."""
    allowed = ([*range(10)] if "d10" in kinds else []) + (
        [*range(10, 20)] if "percentile" in kinds else [])
    q = p[[*allowed, NOT_A_FACE]]
    q = q / q.sum()
    k = int(np.argmax(q))
    if k == len(allowed) or q[k] < MIN_PROB:
        return None
    return allowed[k]


def probabilities(net: nn.Module, x: np.ndarray) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        p = torch.softmax(net(torch.from_numpy(x))[0], 1).numpy()
    net.train()
    return p


def evaluate(net: nn.Module, held: tuple[np.ndarray, np.ndarray],
             reals: list[tuple[str, np.ndarray, float, float, float, int]]) -> str:
    x, y = held
    p = probabilities(net, x)
    parts = []
    for kind, lo in (("d10", 0), ("percentile", 10)):
        sel = (y >= lo) & (y < lo + 10)
        got = [decide(pi, (kind,)) for pi in p[sel]]
        right = sum(g == t for g, t in zip(got, y[sel], strict=True))
        wrong = sum(g is not None and g != t for g, t in zip(got, y[sel], strict=True))
        parts.append(f"{kind} right {right / sel.sum():.3f} wrong {wrong / sel.sum():.3f}")
    mixed = [decide(pi, ("d10", "percentile")) for pi in p]
    parts.append(f"mixed right {np.mean([g == t for g, t in zip(mixed, y, strict=True)]):.3f}")
    if reals:
        crops = np.stack([crop_at(img, cx, cy, d, a) for _n, img, cx, cy, d, _v in reals
                          for a in (0, 90, 180, 270)])  # side = the die's outline
        pr = probabilities(net, normalise_crop_batch(crops)).reshape(len(reals), 4, -1)
        for group in ("pink", "blue", "purple"):
            rows = [(r, pr[i]) for i, r in enumerate(reals) if r[0].startswith(group)]
            ok = sum(decide(pi, ("d10",)) == r[5] for r, pp in rows for pi in pp)
            parts.append(f"{group} {ok}/{4 * len(rows)}")
    return "; ".join(parts)


# ----------------------------------------------------------------------------- training


def export(net: nn.Module, path: Path) -> None:
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, DIGIT_CROP, DIGIT_CROP), str(path), dynamo=False,
                      input_names=["x"], output_names=["logits", "embed"],
                      dynamic_axes={"x": {0: "b"}}, opset_version=13)
    net.train()
    print(f"wrote {path} ({path.stat().st_size} bytes)", flush=True)


def train(minutes: float, seed: int, resume: bool, with_photos: bool, lr: float,
          out: Path, from_onnx: bool = False) -> None:
    torch.manual_seed(seed)
    rng = random.Random(seed)
    sampler = Sampler(rng, with_photos)
    held = heldout_renders(10_000 + seed, 15)
    reals = real_d10s()
    net = DigitNet()
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=2e-4)
    step = 0
    if resume and CKPT.is_file():
        state = torch.load(CKPT)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
        print(f"resumed at step {step}", flush=True)
    if from_onnx:
        # The shipped file, batch norms folded in (kept frozen); see train_models.py.
        from train_models import freeze_batch_norm, load_folded_onnx

        load_folded_onnx(net, MODEL_PATH)
    total = minutes * 60
    t0 = last_eval = last_ckpt = time.time()
    losses: list[float] = []
    while time.time() - t0 < total:
        frac = (time.time() - t0) / total
        for g in opt.param_groups:
            g["lr"] = lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * frac)))
        if from_onnx:
            freeze_batch_norm(net)
        x, y = sampler.batch(64)
        logits, _ = net(torch.from_numpy(x))
        loss = F.cross_entropy(logits, torch.from_numpy(y), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        step += 1
        now = time.time()
        if now - last_eval > 300 or now - t0 >= total:
            print(f"step {step} t={now - t0:.0f}s loss {np.mean(losses[-200:]):.3f} | "
                  f"{evaluate(net, held, reals)}", flush=True)
            last_eval = now
        if now - last_ckpt > 300:
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step}, CKPT)
            export(net, CKPT.with_suffix(".onnx"))
            last_ckpt = now
    CKPT.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step}, CKPT)
    print(f"final: {evaluate(net, held, reals)}", flush=True)
    export(net, out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    ap.add_argument("--with-photos", action="store_true",
                    help="also train on the pink d10 photos (their test becomes in-sample)")
    ap.add_argument("--from-onnx", action="store_true",
                    help="fine-tune the shipped digits.onnx (its checkpoint is not needed)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    train(a.minutes, a.seed, a.resume, a.with_photos, a.lr, a.out, a.from_onnx)


if __name__ == "__main__":
    main()
