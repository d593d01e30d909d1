"""Ten-sided and percentile dice: every real photographed face, real d10s of other colours
that training never saw, and fresh synthetic dice at all rotations."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import Calibration, DiceReader, calibrate_from_frames, load_image
from companion.vision.nets_meta import DIGIT_CROP, normalise_crop_batch
from companion.vision.synth import render_ten_sided


@pytest.fixture(scope="module")
def d10_reader(d10_dir: Path) -> DiceReader:
    # The die size is given, as `companion dice calibrate --die-px` would: the empty tray
    # shows no die to measure (this camera sees the d10 about 230 px across).
    cal, _ = calibrate_from_frames([load_image(d10_dir / "background-empty-tray.jpg")],
                                   die_px=230)
    assert cal.tray is not None
    return DiceReader(cal, kinds=("d10",))


def test_d10_die_is_found_at_its_place(d10_reader: DiceReader, d10_dir: Path) -> None:
    """Detection (not reading) works on the d10 photos: one die, where the die is."""
    for face in range(10):
        out = d10_reader.read(load_image(d10_dir / f"d10-face{face}.jpg"))
        boxes = [d.box for d in out.dice] + [u.box for u in out.unreadable]
        assert len(boxes) == 1, out
        x, y, w, h = boxes[0]
        assert 1150 < x + w / 2 < 1450 and 850 < y + h / 2 < 1100 and 150 < w < 300


@pytest.mark.parametrize("face", range(10))
def test_every_photographed_d10_face(d10_reader: DiceReader, d10_dir: Path, face: int) -> None:
    out = d10_reader.read(load_image(d10_dir / f"d10-face{face}.jpg"))
    assert [(d.kind, d.value) for d in out.dice] == [("d10", face)], out
    assert not out.unreadable


@pytest.fixture(scope="module")
def numeral_d6_readers(d10_dir: Path) -> dict[int, DiceReader]:
    """d6 readers calibrated on the empty tray with the numeral d6's size (~200 px across)
    and with the d10's (230 px): a die size given a little off must not turn a refusal into
    a wrong value."""
    empty = load_image(d10_dir / "background-empty-tray.jpg")
    return {px: DiceReader(calibrate_from_frames([empty], die_px=px)[0], kinds=("d6",))
            for px in (200, 230)}


@pytest.mark.parametrize(
    ("face", "die_px"),
    [(f, px) for px in (200, 230) for f in range(1, 7)],
)
def test_numeral_d6_face_read_right_or_refused(
    numeral_d6_readers: dict[int, DiceReader], d10_dir: Path, face: int, die_px: int
) -> None:
    """The orange numeral d6 in the middle of the tray: its value, or a refusal, never a
    wrong number (the d6 network alone read the 2 as 1 and the 6 as 2)."""
    out = numeral_d6_readers[die_px].read(load_image(d10_dir / f"d6numeral-face{face}.jpg"))
    assert [d.value for d in out.dice] in ([face], []), out
    assert len(out.dice) + len(out.unreadable) == 1, out


def test_numeral_d6_faces_mostly_read(
    numeral_d6_readers: dict[int, DiceReader], d10_dir: Path
) -> None:
    """Measured: 1, 2, 3 and 5 read, 4 and 6 refused at 200 px (4 read too at 230 px).
    Not all six yet: the digit network reads this 4 weakly and this 6 not at all (docs/
    vision.md, Limits)."""
    reader = numeral_d6_readers[200]
    read = {f: [d.value for d in reader.read(load_image(d10_dir / f"d6numeral-face{f}.jpg")).dice]
            for f in range(1, 7)}
    assert sum(v == [f] for f, v in read.items()) >= 4, read


def _die_by_colour(img: np.ndarray, x0: int, y0: int, hue: tuple[int, int]
                   ) -> tuple[float, float, float]:
    """Centre and outline size of the largest saturated blob of ``hue`` right of / below
    (x0, y0): where a real die of that colour lies in the photo."""
    hsv = cv2.cvtColor(img[y0:, x0:], cv2.COLOR_BGR2HSV)
    mask = ((hsv[..., 0] >= hue[0]) & (hsv[..., 0] <= hue[1]) & (hsv[..., 1] > 100)
            & (hsv[..., 2] > 60)).astype(np.uint8)
    _n, _lab, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)))
    x, y, w, h, _area = stats[1 + int(np.argmax(stats[1:, 4]))]
    return x0 + x + w / 2, y0 + y + h / 2, float(max(w, h))


def test_blue_d10_never_seen_in_training(d10_dir: Path) -> None:
    """The blue d10 lying on the table in the six d6numeral photos (showing 8): a colour,
    a font and a background (wood, seen at an angle) no training sample came from.

    The detector does not find dice on that wood (docs/vision.md, Limits), so the digit
    network is pointed at the die: the reader's crop (the die's outline, 48x48) at four
    quarter turns, decided as the reader decides (best d10 class, refused under 0.5).
    """
    reader = DiceReader(kinds=("d10",))
    decided = []
    for k in range(1, 7):
        img = load_image(d10_dir / f"d6numeral-face{k}.jpg")
        cx, cy, die = _die_by_colour(img[650:1300], 2100, 0, (85, 115))
        cy += 650
        half = int(die / 2)
        crop = cv2.resize(img[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half],
                          (DIGIT_CROP, DIGIT_CROP), interpolation=cv2.INTER_AREA)
        turns = np.stack([np.ascontiguousarray(np.rot90(crop, t)) for t in range(4)])
        probs, _ = reader.models.classify_digits(normalise_crop_batch(turns))
        for p in probs:
            q = np.concatenate([p[:10], p[20:]])
            q /= q.sum()
            best = int(np.argmax(q))
            decided.append(best if best < 10 and q[best] >= 0.5 else None)
    assert decided.count(8) >= 20, decided
    assert set(decided) <= {8, None}, decided


# ---------------------------------------------------------------- synthetic dice

#: Plain tray colours for the synthetic frames (the renders also cover textured ones).
_TRAYS = ((40, 40, 40), (200, 200, 200), (30, 90, 40), (120, 60, 20))


def _frame(dice: list[tuple[int, bool, float]], rng: random.Random,
           tray: tuple[int, int, int]) -> np.ndarray:
    """A 360x(120 x n) frame with each (value, percentile, angle) die in its own cell."""
    frame = np.empty((120, 120 * len(dice), 3), np.uint8)
    frame[:] = tray
    for i, (value, pct, angle) in enumerate(dice):
        crop = render_ten_sided(value, rng, 96, pct, angle=angle, die_frac=0.6,
                                background=tray)
        frame[12:108, 120 * i + 12:120 * i + 108] = crop
    return np.vstack([np.full((120, frame.shape[1], 3), tray, np.uint8), frame,
                      np.full((120, frame.shape[1], 3), tray, np.uint8)])


def _synthetic_scores(kind: str, seed: int, step: float = 30.0) -> tuple[int, int, int]:
    """(right, wrong, total) over every face at every rotation (a random angle in each
    ``step``-degree sector), fresh random die styles (seed unused by training)."""
    reader = DiceReader(Calibration(frame_size=(1200, 360), die_px=58), kinds=(kind,))
    rng = random.Random(seed)
    right = wrong = total = 0
    pct = kind == "percentile"
    for sector in range(int(360 / step)):
        dice = [(v, pct, sector * step + rng.uniform(0, step)) for v in range(10)]
        out = reader.read(_frame(dice, rng, _TRAYS[sector % len(_TRAYS)]))
        for d in out.dice:
            truth = dice[int(d.box[0] + d.box[2] / 2) // 120][0]
            right += d.kind == kind and d.value == truth
            wrong += d.kind != kind or d.value != truth
        total += len(dice)
    return right, wrong, total


@pytest.mark.parametrize(("kind", "bar"), [("d10", 0.9), ("percentile", 0.8)])
def test_synthetic_faces_at_all_rotations(kind: str, bar: float) -> None:
    """Bars a little under the measured rates (tools/vision/bench_digits.py: d10 96.5 %
    right, 0.4 % wrong; percentile 83.1 % right, 0.4 % wrong, over 480 dice each)."""
    right, wrong, total = _synthetic_scores(kind, 1234)
    # Refusing a face now and then is allowed; reading a wrong value much less so.
    assert right / total >= bar, (right, wrong, total)
    assert wrong / total <= 0.02, (right, wrong, total)


def test_d10_and_percentile_together_are_told_apart() -> None:
    """A d10 and a percentile die thrown together: each comes back with its own kind."""
    reader = DiceReader(Calibration(frame_size=(1200, 360), die_px=58),
                        kinds=("d10", "percentile"))
    rng = random.Random(7)
    right = wrong = total = 0
    for n in range(4):
        dice = [(rng.randrange(10), i % 2 == 1, rng.uniform(0, 360)) for i in range(10)]
        out = reader.read(_frame(dice, rng, _TRAYS[n]))
        for d in out.dice:
            value, pct, _angle = dice[int(d.box[0] + d.box[2] / 2) // 120]
            assert d.kind == ("percentile" if pct else "d10"), (n, d)
            right += d.value == value
            wrong += d.value != value
        total += len(dice)
    assert right / total >= 0.85, (right, wrong, total)
    assert wrong <= 1, (right, wrong, total)


def test_zero_conventions() -> None:
    """A d10's 0 is reported as 0 and a percentile die's 00 as 0 (tens): what they mean is
    for the rules."""
    reader = DiceReader(Calibration(frame_size=(1200, 360), die_px=58),
                        kinds=("d10", "percentile"))
    rng = random.Random(11)
    dice = [(0, i % 2 == 1, 36.0 * i) for i in range(10)]
    got = [(d.kind, d.value) for d in reader.read(_frame(dice, rng, (40, 40, 40))).dice]
    assert got.count(("d10", 0)) >= 4 and got.count(("percentile", 0)) >= 4, got


def test_no_number_on_top_is_refused_not_guessed() -> None:
    """A d10 whose top face carries no readable number is never given a value."""
    reader = DiceReader(Calibration(frame_size=(1200, 360), die_px=58),
                        kinds=("d10", "percentile"))
    rng = random.Random(3)
    frame = np.empty((360, 1200, 3), np.uint8)
    read = seen = 0
    for n in range(3):
        frame[:] = _TRAYS[n]
        for i in range(10):
            crop = render_ten_sided(rng.randrange(10), rng, 96, i % 2 == 1,
                                    angle=rng.uniform(0, 360), die_frac=0.6,
                                    background=_TRAYS[n], blank_top=True)
            frame[132:228, 120 * i + 12:120 * i + 108] = crop
        out = reader.read(frame)
        read += len(out.dice)
        seen += len(out.dice) + len(out.unreadable)
    assert read <= 1, (read, seen)
