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


def _die_on_light_tray(body: tuple[int, int, int], pip: tuple[int, int, int]
                       ) -> tuple[np.ndarray, np.ndarray]:
    """A 40 px die turned 30 degrees on a light grey tray, with its five pips near the
    corners, drawn 4x larger and shrunk so its outline blends into the tray as a
    photographed one does. Returns the photo and the die's own mask."""
    big = np.full((800, 800, 3), 205, np.uint8)
    mask = np.zeros((800, 800), np.uint8)
    corners = cv2.boxPoints(((400.0, 400.0), (160.0, 160.0), 30.0)).astype(np.int32)
    cv2.fillConvexPoly(big, corners, (150, 150, 150), cv2.LINE_AA)  # the die's edge
    inside = cv2.boxPoints(((400.0, 400.0), (148.0, 148.0), 30.0)).astype(np.int32)
    cv2.fillConvexPoly(big, inside, body, cv2.LINE_AA)
    cv2.fillConvexPoly(mask, corners, 1)
    for fx, fy in ((-0.3, -0.3), (0.3, -0.3), (0.0, 0.0), (-0.3, 0.3), (0.3, 0.3)):
        t = np.radians(30.0)
        x = 400 + 160 * (fx * np.cos(t) - fy * np.sin(t))
        y = 400 + 160 * (fx * np.sin(t) + fy * np.cos(t))
        cv2.circle(big, (round(x), round(y)), 14, pip, -1, cv2.LINE_AA)
    photo = cv2.resize(big, (200, 200), interpolation=cv2.INTER_AREA)
    return photo, cv2.resize(mask, (200, 200), interpolation=cv2.INTER_NEAREST)


def _green_floor() -> np.ndarray:
    floor = np.zeros((200, 200, 3), np.float32)
    floor[..., 1] = 150
    return floor


def _greenish(pixels: np.ndarray) -> np.ndarray:
    b, g, r = pixels.astype(np.float32).T
    return (g - r > 40) & (g - b > 40)


def test_replace_floor_keeps_a_white_die_whole() -> None:
    # A white die on a white tray has no colour to tell it from the floor; until
    # 2026-11-25 only a disc round its middle was kept, so it came out a round token
    # with its corner pips bitten off.
    photo, die = _die_on_light_tray((235, 235, 235), (20, 20, 20))
    out = replace_floor(photo, [(100.0, 100.0, 40.0)], _green_floor())
    body = cv2.erode(die, np.ones((5, 5), np.uint8)) > 0
    assert _greenish(out[body]).mean() < 0.03
    dark = (out[body].max(axis=1) < 80).sum()
    assert dark >= 5 * 0.8 * np.pi * 3.5 ** 2  # all five pips, the corner ones too
    assert _greenish(out[:20, :20]).all()


def test_replace_floor_leaves_no_light_rim_round_a_coloured_die() -> None:
    photo, die = _die_on_light_tray((40, 40, 200), (235, 235, 235))
    out = replace_floor(photo, [(100.0, 100.0, 40.0)], _green_floor())
    ring = (cv2.dilate(die, np.ones((7, 7), np.uint8)) > 0) & (die == 0)
    assert _greenish(out[ring]).mean() > 0.95
    # The white pips, wholly inside the die, are the die's and stay.
    assert (out[die > 0].min(axis=1) > 180).sum() >= 5 * 0.8 * np.pi * 3.5 ** 2


def test_replace_floor_with_a_die_centred_off_the_picture() -> None:
    photo, _die = _die_on_light_tray((235, 235, 235), (20, 20, 20))
    out = replace_floor(photo, [(100.0, 100.0, 40.0), (-15.0, 50.0, 40.0)], _green_floor())
    assert out.shape == photo.shape
