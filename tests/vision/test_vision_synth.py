"""Synthetic data helpers that training and the benchmarks share."""

from __future__ import annotations

import random

import cv2
import numpy as np

from companion.vision.bench import load_labels
from companion.vision.compose import DATA_DIR
from companion.vision.synth import replace_floor, tray_surface


def _sample() -> tuple[np.ndarray, list[tuple[float, float, float]]]:
    photo = cv2.imread(str(DATA_DIR / "sample-1.jpg"), cv2.IMREAD_COLOR)
    labels = load_labels(DATA_DIR / "sample-1.txt", photo.shape[1], photo.shape[0])
    return photo, [(x + w / 2, y + h / 2, max(w, h)) for _, (x, y, w, h) in labels]


def test_replace_floor_moves_the_dice_onto_the_new_floor() -> None:
    photo, dice = _sample()
    green = np.zeros((700, 700, 3), np.float32)
    green[..., 1] = 160
    out = replace_floor(photo, dice, green)
    assert out.shape == photo.shape and out.dtype == np.uint8
    # An open stretch of tray far from every die is now green...
    b, g, r = out[560:620, 300:400].reshape(-1, 3).mean(axis=0)
    assert g > 80 and g > r + 50 and g > b + 50, (b, g, r)
    # ...and the middle of every die is as it was.
    for cx, cy, size in dice:
        x, y, k = int(cx), int(cy), max(1, int(0.15 * size))
        assert np.array_equal(out[y - k:y + k, x - k:x + k], photo[y - k:y + k, x - k:x + k])


def test_replace_floor_keeps_the_dice_shadows() -> None:
    photo = np.full((200, 200, 3), 200, np.uint8)
    cv2.circle(photo, (112, 112), 22, (130, 130, 130), -1)  # the shadow, down-right
    cv2.rectangle(photo, (80, 80), (120, 120), (40, 40, 220), -1)  # a red die
    floor = np.zeros((200, 200, 3), np.float32)
    floor[..., 1] = 150
    out = replace_floor(photo, [(100.0, 100.0, 40.0)], floor).astype(np.float32)
    assert np.array_equal(out[90:110, 90:110], photo[90:110, 90:110])
    open_floor, shadow = out[20:40, 20:40, 1].mean(), out[126:130, 126:130, 1].mean()
    assert 140 < open_floor < 160
    assert 0.5 < shadow / open_floor < 0.9  # darker, as 130 was to 200


def test_replace_floor_without_dice_and_on_generated_floors() -> None:
    photo, _ = _sample()
    floor = tray_surface(random.Random(4), 640)
    out = replace_floor(photo, [], floor)
    assert out.shape == photo.shape and not np.array_equal(out, photo)
