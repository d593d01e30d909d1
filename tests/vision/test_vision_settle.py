"""Settling: tumbling dice, then still, then a hand passing: exactly one roll is reported."""

from __future__ import annotations

import random

import cv2
import numpy as np

from companion.vision import DiceReader, FrameReading, SettleDetector, compose_tray

FPS = 30.0


def _hand(frame: np.ndarray, x: int) -> np.ndarray:
    """A skin-coloured hand-sized blob entering from the side."""
    out = frame.copy()
    cv2.ellipse(out, (x, 330), (90, 140), 20, 0, 360, (120, 150, 210), -1)
    for k in range(4):
        cv2.ellipse(out, (x + 60 + 12 * k, 200 + 25 * k), (15, 60), -30, 0, 360,
                    (110, 140, 200), -1)
    return out


def _sequence(values: list[int], seed: int) -> tuple[list[np.ndarray], int]:
    """Frames at 30 fps and the index of the first still frame."""
    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    tumbling = [compose_tray(values, "d6", random.Random(rng.random())) for _ in range(10)]
    final = tumbling[-1]

    def still() -> np.ndarray:
        return np.clip(final + noise.normal(0, 2.0, final.shape), 0, 255).astype(np.uint8)

    frames = tumbling + [still() for _ in range(20)]
    frames += [_hand(final, x) for x in range(-100, 800, 60)]  # a hand passes over
    frames += [still() for _ in range(30)]
    return frames, len(tumbling) - 1


def test_exactly_one_roll_is_reported(reader: DiceReader) -> None:
    values = [3, 5, 1, 6]
    frames, first_still = _sequence(values, 1)
    det = SettleDetector(reader, still_seconds=0.2)
    reports: list[tuple[int, FrameReading]] = []
    for i, f in enumerate(frames):
        out = det.feed(f, i / FPS)
        if out is not None:
            reports.append((i, out))
    assert len(reports) == 1
    i, reading = reports[0]
    assert sorted(d.value for d in reading.dice) == sorted(values)
    # Reported within 0.2 s of stillness plus one frame of measurement, at 30 fps.
    assert (i - first_still) / FPS <= 0.2 + 1.5 / FPS


def test_a_new_roll_is_reported_again(reader: DiceReader) -> None:
    det = SettleDetector(reader, still_seconds=0.2)
    reports = 0
    t = 0.0
    for seed, values in ((1, [2, 4]), (2, [6, 6, 1])):
        frames, _ = _sequence(values, seed)
        for f in frames:
            reports += det.feed(f, t) is not None
            t += 1 / FPS
    assert reports == 2


def test_empty_tray_is_not_a_roll(reader: DiceReader) -> None:
    det = SettleDetector(reader, still_seconds=0.1)
    frame = np.full((480, 640, 3), 200, np.uint8)
    assert all(det.feed(frame, i / FPS) is None for i in range(20))
