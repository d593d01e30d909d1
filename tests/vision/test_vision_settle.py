"""Settling: tumbling dice, then still, then a hand passing: exactly one roll is reported.

Single dice moving, light, shadows and dice thrown again: test_vision_settle_scenes.py."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

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


@pytest.mark.parametrize("fps", [30.0, 25.0, 120.0])
def test_the_report_comes_still_seconds_after_the_first_still_frame(
    reader: DiceReader, fps: float,
) -> None:
    """As docs/vision.md says: the first frame of the dice at rest starts the wait, and
    the frame ``still_seconds`` later (to the next frame) is read and reported, also with
    timestamps summed frame by frame, as a camera's clock gives them."""
    frames, first_still = _sequence([2, 6, 3], 4)
    lying = frames[first_still + 1:first_still + 21]  # the dice at rest, camera noise
    frames = frames[:first_still + 1] + lying * 3
    det = SettleDetector(reader, still_seconds=0.2)
    t, times, reported = 0.0, [], None
    for f in frames:
        times.append(t)
        if det.feed(f, t) is not None:
            reported = t
            break
        t += 1 / fps
    assert reported is not None and det.last_still_start == times[first_still]
    assert 0.2 - 1e-9 <= reported - times[first_still] < 0.2 + 1 / fps - 1e-9


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


def test_a_disarmed_detector_takes_the_dice_it_first_sees_as_reported(
    reader: DiceReader,
) -> None:
    """A camera opened anew (armed=False): the dice of the last throw, lying in the tray
    (a hand even passing over them), are not reported; the next throw is."""
    lying = compose_tray([5, 2], "d6", random.Random(7))
    det = SettleDetector(reader, still_seconds=0.2, armed=False)
    t = 0.0
    reports = []
    frames = [lying] * 20 + [_hand(lying, x) for x in range(-100, 800, 60)] + [lying] * 20
    for f in frames:
        reports.append(det.feed(f, t))
        t += 1 / FPS
    assert not any(reports)
    next_throw, _ = _sequence([6, 1], 3)
    found = []
    for f in next_throw:
        found += [r for r in [det.feed(f, t)] if r is not None]
        t += 1 / FPS
    assert [sorted(d.value for d in r.dice) for r in found] == [[1, 6]]


def test_armed_by_default_a_still_tray_is_reported(reader: DiceReader) -> None:
    lying = compose_tray([5, 2], "d6", random.Random(7))
    det = SettleDetector(reader, still_seconds=0.2)
    reports = [r for r in (det.feed(lying, i / FPS) for i in range(20)) if r is not None]
    assert [sorted(d.value for d in r.dice) for r in reports] == [[2, 5]]
    det.reset(armed=False)
    assert all(det.feed(lying, 1 + i / FPS) is None for i in range(20))
