"""Dice drawn in 3D (companion.vision.synth_d6): faces, pips, boxes and the camera."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, synth_d6
from companion.vision.synth_d6 import PIP_LAYOUT, render_d6_scene


@pytest.mark.parametrize("value", range(1, 7))
def test_faces_put_the_value_on_top_and_opposite_faces_add_up_to_seven(value: int) -> None:
    faces = synth_d6._random_faces(value, random.Random(value))
    assert faces[(2, 1)] == value
    assert sorted(faces.values()) == [1, 2, 3, 4, 5, 6]
    for axis in range(3):
        assert faces[(axis, 1)] + faces[(axis, -1)] == 7


@pytest.mark.parametrize("value", range(1, 7))
def test_pip_layouts_have_as_many_pips_as_the_value(value: int) -> None:
    assert len(PIP_LAYOUT[value]) == len(set(PIP_LAYOUT[value])) == value


def _white_die_from_above(value: int, tilt: float) -> tuple[np.ndarray, np.ndarray]:
    """A white die with black pips at the middle of a black picture, and the outline in
    the picture of the middle 0.8 of its top face (the pips, not the rounded corners)."""
    look = synth_d6._D6Look(body=(240.0, 240.0, 240.0), pips=(0.0, 0.0, 0.0),
                            pip_radius=0.1, pip_spread=0.27, rounding=0.1, see_through=0.0)
    die = synth_d6._Die(np.array([0.0, 0.0, 0.5]), 0.3, synth_d6._random_faces(
        value, random.Random(0)), {(a, s): 0 for a in range(3) for s in (1, -1)}, look)
    cam = synth_d6._Camera.looking_at(np.array([0.0, 0.0, 0.5]), tilt, 0.0, 40.0,
                                      40.0 * 100, (400, 400))
    img = np.zeros((400, 400, 3), np.float32)
    light = np.array([0.0, 0.0, 1.0])
    synth_d6._paint_die(img, die, cam, light, 1.0, img.copy())
    top = die.centre + np.array([0.0, 0.0, 0.5]) + np.array(
        [[x, y, 0.0] for x, y in ((-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4))]
    ) @ die.frame().T
    return img.astype(np.uint8), cam.project(top)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("tilt", [0.0, 40.0])
def test_the_top_face_shows_the_value_in_pips(value: int, tilt: float) -> None:
    img, top = _white_die_from_above(value, tilt)
    face = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(face, [np.round(top).astype(np.int32)], 1)
    dark = ((img.max(axis=2) < 100) & (face > 0)).astype(np.uint8)
    _count, _labels, stats, _ = cv2.connectedComponentsWithStats(dark)
    pips = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] >= 20]
    assert len(pips) == value


def test_a_tilted_camera_sees_the_sides_and_foreshortens_the_top() -> None:
    def top_and_whole(tilt: float) -> tuple[float, float]:
        img, top = _white_die_from_above(5, tilt)
        return cv2.contourArea(top.astype(np.float32)), float((img.max(axis=2) > 0).sum())

    flat_top, flat_whole = top_and_whole(0.0)
    tilted_top, tilted_whole = top_and_whole(50.0)
    assert tilted_top < 0.75 * flat_top
    assert tilted_whole / tilted_top > 1.4 * flat_whole / flat_top


def test_scenes_are_repeatable_and_their_boxes_lie_in_the_frame() -> None:
    first, dice, _ = render_d6_scene([1, 2, 3, 4, 5, 6], random.Random(7), 35.0)
    again, _, _ = render_d6_scene([1, 2, 3, 4, 5, 6], random.Random(7), 35.0)
    assert np.array_equal(first, again)
    assert first.shape == (640, 640, 3)
    assert 1 <= len(dice) <= 6
    for d in dice:
        x, y, w, h = d.box
        assert min(x, y) >= 0 and x + w <= 640 and y + h <= 640
        assert 15 < w < 120 and 15 < h < 120
        assert d.value in range(1, 7)
        assert 0.2 <= d.pip_spread <= 0.33


@pytest.mark.parametrize("spread, share", [(0.24, 0.85), (0.30, 0.8)])
def test_the_reader_reads_drawn_dice_seen_from_above(
    reader: DiceReader, monkeypatch: pytest.MonkeyPatch, spread: float, share: float
) -> None:
    """Pips as central as the photos' dice (0.24 of the side from the middle) and near the
    edges (0.30), which the d6 networks misread as fewer pips until the second one saw
    drawn dice (33 of 48 at 0.30; docs/vision.md, "Dice drawn in 3D")."""
    looks = synth_d6._random_look
    monkeypatch.setattr(synth_d6, "_random_look",
                        lambda rng: replace(looks(rng), pip_spread=spread))
    right = total = 0
    for seed in range(8):
        rng = random.Random(seed)
        frame, dice, _ = render_d6_scene([rng.randint(1, 6) for _ in range(6)], rng, 0.0)
        read = sorted(d.value for d in reader.read(frame).dice)
        drawn = sorted(d.value for d in dice)
        total += len(drawn)
        right += sum(min(read.count(v), drawn.count(v)) for v in set(drawn))
    assert right >= share * total, (right, total)
