"""compose_tray builds frames from real die photos; the reader must read them back."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from companion.vision import DiceReader, VisionError, compose_tray
from companion.vision.compose import BOX_FRAME, DATA_DIR, compose_tray_with_boxes


def test_shipped_samples_are_small_and_licensed() -> None:
    total = sum(p.stat().st_size for p in DATA_DIR.rglob("*") if p.is_file())
    assert total < 1.5 * 1024 * 1024
    assert (DATA_DIR / "LICENSE-dice-d6-tray.txt").read_text().startswith("BSD 3-Clause")


def test_frame_shape_and_boxes_do_not_touch() -> None:
    frame, boxes = compose_tray_with_boxes([1, 2, 3, 4, 5, 6], "d6", random.Random(0))
    assert frame.shape == (640, 640, 3)
    assert len(boxes) == 6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart_x = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
            apart_y = a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
            assert apart_x or apart_y


def test_reader_reads_composed_d6_back(reader: DiceReader) -> None:
    """Composed frames read back: refusals allowed now and then, wrong values hardly ever.

    The bar reflects the shipped model (about 84 % of composed dice read, 1 % misread over
    30 frames when measured); see docs/vision.md 'Limits'.
    """
    total = read = wrong = 0
    for seed in range(10):
        rng = random.Random(seed)
        values = [rng.randint(1, 6) for _ in range(rng.randint(1, 12))]
        out = reader.read(compose_tray(values, "d6", rng))
        got = Counter(d.value for d in out.dice)
        total += len(values)
        read += len(out.dice)
        wrong += sum((got - Counter(values)).values())
        assert len(out.dice) + len(out.unreadable) >= len(values) - 1, out
    assert read / total >= 0.75, (read, total)
    assert wrong / total <= 0.03, (wrong, total)


@pytest.mark.parametrize("kinds", [("d10",), ("percentile",), ("percentile", "d10")])
def test_reader_reads_composed_ten_sided_dice_back(kinds: tuple[str, ...]) -> None:
    """The demo's d10s (real photos) and percentile dice (renders), alone or thrown together
    (a percentile roll): read back with their kinds, wrong values rare. Measured on composed
    trays at six die sizes (tools/vision/bench_digits.py, 701 dice each): d10 98 %,
    percentile 99.7 %, both 98.6 % read right, 0.14 % wrong or under; the rest refused
    (77 / 94 / 85 % right before the tighter look at unsure ten-sided dice)."""
    reader = DiceReader(kinds=kinds)
    total = right = wrong = 0
    for seed in range(6):
        rng = random.Random(seed)
        values = [rng.randrange(10) for _ in range(rng.randint(2, 6))]
        per_die = [kinds[i % len(kinds)] for i in range(len(values))]
        out = reader.read(compose_tray(values, per_die, rng))
        want = Counter(zip(per_die, values, strict=True))
        got = Counter((d.kind, d.value) for d in out.dice)
        total += len(values)
        right += sum((want & got).values())
        wrong += sum((got - want).values())
    assert right / total >= 0.9, (right, wrong, total)
    assert wrong <= 1, (right, wrong, total)


def test_uncalibrated_reader_looks_again_at_the_detectors_own_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """d10s 62 px across in the box camera's 1280x960 frame: the first pass guesses a die
    is 1/16 of the long side (80 px), so the detector sees them at ~16 px, under its own
    22 px. The dice it finds put the right scale ~20 % off the guess, so a second pass
    runs larger (RESCALE_BAND); with the old -25 %/+35 % band it did not, and these crops
    were refused more often than read. (Between the two, a small coarse pass looks for a
    close-up's dice.)"""
    reader = DiceReader(kinds=("d10",))
    widths: list[int] = []
    detect = reader.models.detect

    def recording_detect(x: np.ndarray) -> np.ndarray:
        widths.append(x.shape[3])
        return detect(x)

    monkeypatch.setattr(reader.models, "detect", recording_detect)
    values = [2, 5, 8, 0]
    frame, _ = compose_tray_with_boxes(values, "d10", random.Random(3), frame_size=BOX_FRAME,
                                       d10_px=62)
    out = reader.read(frame)
    assert len(widths) == 3 and widths[1] < widths[0] and widths[2] >= 1.1 * widths[0], widths
    assert len(out.dice) + len(out.unreadable) == len(values), out
    assert all(d.value in values for d in out.dice), out


def test_mixed_kinds_in_one_frame() -> None:
    frame, boxes = compose_tray_with_boxes([0, 9], ["percentile", "d10"], random.Random(1))
    assert frame.shape == (640, 640, 3) and len(boxes) == 2
    with pytest.raises(VisionError, match="2 values but 1 kinds"):
        compose_tray([0, 9], ["d10"], random.Random(0))


def test_bad_requests_are_clear() -> None:
    with pytest.raises(VisionError, match="no face 7"):
        compose_tray([7], "d6", random.Random(0))
    with pytest.raises(VisionError, match="kind"):
        compose_tray([1], "d20", random.Random(0))
