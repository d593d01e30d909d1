"""A camera at an angle: calibration finds the tray's corners, and the reader straightens
the tray before reading, then gives boxes in the camera's own frame."""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import Calibration, DiceReader, VisionError, calibrate_from_frames
from companion.vision.bench import iou
from companion.vision.cli import add_commands
from companion.vision.compose import DATA_DIR, compose_tray_with_boxes
from companion.vision.perspective import Straightening, order_corners
from companion.vision.reader import _better_of
from companion.vision.synth import seen_at_an_angle, tray_on_table
from companion.vision.synth_d6 import render_d6_scene
from companion.vision.tray import clearly_tilted
from companion.vision.types import DieReading, UnreadableDie


def _on_table(tray: np.ndarray) -> np.ndarray:
    return tray_on_table(tray)[0]


def _moved(points: np.ndarray, h: np.ndarray) -> np.ndarray:
    moved: np.ndarray = cv2.perspectiveTransform(points[None].astype(np.float64), h)[0]
    return moved


def _tray_corners(h: np.ndarray, tray_side: int = 640) -> np.ndarray:
    (x, y) = tray_on_table(np.zeros((tray_side, tray_side, 3), np.uint8))[1]
    return _moved(np.array([[x, y], [x + tray_side, y], [x + tray_side, y + tray_side],
                            [x, y + tray_side]]), h)


ANGLES = [(40.0, False), (-40.0, False), (40.0, True), (-40.0, True)]


@pytest.fixture(scope="module")
def empty_tray() -> np.ndarray:
    return cv2.imread(str(DATA_DIR / "tray.jpg"), cv2.IMREAD_COLOR)


def test_corners_are_ordered_from_the_top_left_clockwise() -> None:
    square = [(10, 10), (110, 12), (108, 110), (12, 108)]
    for start in range(4):
        shuffled = square[start:] + square[:start]
        np.testing.assert_array_equal(order_corners(shuffled[::-1]), np.float32(square))


@pytest.mark.parametrize("points", [
    [(0, 0), (10, 0), (10, 10)],                     # three
    [(0, 0), (100, 0), (10, 10), (0, 100)],          # not convex
    [(0, 0), (100, 0), (200, 0), (300, 0)],          # a line
])
def test_corners_that_outline_no_tray_are_refused(points: list[tuple[int, int]]) -> None:
    with pytest.raises(VisionError, match="corners"):
        order_corners(points)


def test_calibration_keeps_its_corners_and_refuses_bad_ones() -> None:
    cal = Calibration(frame_size=(800, 600), corners=((100, 80), (700, 90), (650, 500),
                                                      (150, 510)))
    again = Calibration.from_dict(cal.to_dict())
    assert again.corners == cal.corners
    assert again.scaled_corners(1600, 1200) == [(200, 160), (1400, 180), (1300, 1000),
                                                 (300, 1020)]
    for bad in ([[0, 0], [1, 1]], [[0, 0], [100, 0], [10, 10], [0, 100]], [[0, 0], "x"]):
        with pytest.raises(VisionError, match=r"recalibrate|calibrate` again"):
            Calibration.from_dict({**cal.to_dict(), "corners": bad})


def test_a_box_in_the_straightened_view_maps_back_around_the_same_place() -> None:
    corners = np.float32([[100, 80], [700, 90], [650, 500], [150, 510]])
    straight = Straightening.from_corners(corners)
    # The view's floor starts at the margin: its corner box maps back onto the corner.
    mx = round(0.06 * (straight.size[0] / 1.12))
    my = round(0.06 * (straight.size[1] / 1.12))
    x, y, w, h = straight.box_back((mx, my, 40, 40), 800, 600)
    assert abs(x - 100) <= 2 and abs(y - 80) <= 2 and w > 20 and h > 20


@pytest.mark.parametrize("degrees, about_vertical", ANGLES)
def test_calibration_finds_the_corners_of_a_trayseen_at_an_angle(
    empty_tray: np.ndarray, degrees: float, about_vertical: bool
) -> None:
    frame, h = seen_at_an_angle(_on_table(empty_tray), degrees, about_vertical)
    cal, picture = calibrate_from_frames([frame])
    assert cal.corners is not None
    truth = _tray_corners(h)
    # Within 4 % of the tray's size: the fill stops where the floor's light falls off.
    assert np.abs(np.array(cal.corners) - truth).max() < 0.04 * np.ptp(truth, axis=0).max()
    assert picture.shape == frame.shape


def test_a_tray_seen_from_above_is_not_straightened() -> None:
    frame = cv2.imread(str(DATA_DIR / "sample-1.jpg"), cv2.IMREAD_COLOR)
    cal, _ = calibrate_from_frames([frame])
    assert cal.tray is not None and cal.corners is None


@pytest.mark.parametrize("degrees, about_vertical", ANGLES[::3])
def test_straightened_trays_read_better_and_boxes_stay_in_the_cameras_frame(
    empty_tray: np.ndarray, degrees: float, about_vertical: bool
) -> None:
    empty, h = seen_at_an_angle(_on_table(empty_tray), degrees, about_vertical)
    straightened = DiceReader(calibrate_from_frames([empty])[0])
    as_seen = DiceReader(calibrate_from_frames([empty], tray=(0, 0, *empty.shape[1::-1]))[0])
    tray_at = np.array(tray_on_table(empty_tray)[1])
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    boxes_found = dice = 0
    for seed in range(6):
        rng = random.Random(seed)
        values = [rng.randint(1, 6) for _ in range(rng.randint(3, 7))]
        tray, boxes = compose_tray_with_boxes(values, "d6", rng)
        frame, _ = seen_at_an_angle(_on_table(tray), degrees, about_vertical)
        dice += len(values)
        for name, reader in (("straightened", straightened), ("as seen", as_seen)):
            reading = reader.read(frame)
            got, want = Counter(d.value for d in reading.dice), Counter(values)
            right[name] += sum((got & want).values())
            wrong[name] += sum((got - want).values())
            if name == "straightened":
                for x, y, w, bh in boxes:
                    quad = _moved(np.array([[x, y], [x + w, y], [x + w, y + bh], [x, y + bh]])
                                  + tray_at, h)
                    (qx0, qy0), (qx1, qy1) = quad.min(axis=0), quad.max(axis=0)
                    truth = (qx0, qy0, qx1 - qx0, qy1 - qy0)
                    boxes_found += any(iou(b, truth) >= 0.5 for b in [d.box for d in reading.dice]
                                        + [u.box for u in reading.unreadable])
    assert wrong["straightened"] == 0, wrong
    assert right["straightened"] >= 0.9 * dice, (right, dice)
    assert right["straightened"] > right["as seen"], right
    assert boxes_found >= 0.9 * dice, (boxes_found, dice)


@pytest.mark.parametrize("corners, tilted", [
    ([(100, 100), (500, 100), (500, 400), (100, 400)], False),   # upright
    ([(300, 50), (550, 300), (300, 550), (50, 300)], False),     # turned 45 degrees
    ([(150, 100), (450, 100), (520, 400), (80, 400)], True),     # keystone: sides 1.47
    ([(100, 100), (500, 160), (500, 460), (100, 400)], True),    # corners 81.5 and 98.5
    ([(100, 100), (505, 104), (510, 400), (100, 390)], False),   # within 3 degrees, 1.04
    ([(150, 100), (450, 100), (520, 599), (80, 599)], False),    # cut by the frame's edge
])
def test_only_a_whole_floor_far_from_a_rectangle_is_a_camera_at_an_angle(
    corners: list[tuple[int, int]], tilted: bool
) -> None:
    assert clearly_tilted(order_corners(corners), (640, 600)) is tilted


@pytest.mark.parametrize("degrees, about_vertical", ANGLES[1:3])
def test_an_uncalibrated_reader_straightens_a_tray_seen_at_an_angle(
    empty_tray: np.ndarray, degrees: float, about_vertical: bool
) -> None:
    straightening, as_seen = DiceReader(), DiceReader(straighten_uncalibrated=False)
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    dice = 0
    for seed in range(6):
        rng = random.Random(seed)
        values = [rng.randint(1, 6) for _ in range(rng.randint(3, 7))]
        frame, _ = seen_at_an_angle(_on_table(compose_tray_with_boxes(values, "d6", rng)[0]),
                                    degrees, about_vertical)
        dice += len(values)
        for name, reader in (("straightening", straightening), ("as seen", as_seen)):
            got, want = Counter(d.value for d in reader.read(frame).dice), Counter(values)
            right[name] += sum((got & want).values())
            wrong[name] += sum((got - want).values())
    assert right["straightening"] >= 0.9 * dice, (right, dice)
    assert right["straightening"] > right["as seen"], right
    assert wrong["straightening"] <= wrong["as seen"], wrong


def test_an_uncalibrated_reader_reads_a_tray_seen_from_above_as_it_is() -> None:
    frame = _on_table(cv2.imread(str(DATA_DIR / "sample-1.jpg"), cv2.IMREAD_COLOR))
    assert DiceReader().read(frame).dice == DiceReader(
        straighten_uncalibrated=False).read(frame).dice


def test_calibrate_takes_corners_from_the_command_line(tmp_path: Path,
                                                       empty_tray: np.ndarray) -> None:
    img = tmp_path / "tray.png"
    frame, h = seen_at_an_angle(_on_table(empty_tray), 40.0, False)
    cv2.imwrite(str(img), frame)
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    given = ",".join(f"{v:.0f}" for v in _tray_corners(h).ravel())
    for text, error in ((given, None), ("1,2,3", "8 numbers"), ("a,b", "X1,Y1")):
        args = parser.parse_args(["dice", "calibrate", "--from", str(img), "--picture",
                                  str(tmp_path / "seen.jpg"), "--corners", text])
        if error is None:
            assert args.func(args) == 0
        else:
            with pytest.raises(VisionError, match=error):
                args.func(args)


def _reading(dice: int, refused: int, value: int
             ) -> tuple[tuple[DieReading, ...], tuple[UnreadableDie, ...]]:
    return (tuple(DieReading("d6", value, (10 * i, 0, 8, 8), 0.9) for i in range(dice)),
            tuple(UnreadableDie((10 * i, 20, 8, 8), "unclear face") for i in range(refused)))


@pytest.mark.parametrize("as_seen, straightened, kept", [
    ((3, 0), (4, 0), "straightened"),   # more dice read
    ((4, 0), (3, 1), "as seen"),        # fewer dice read
    ((3, 0), (3, 1), "as seen"),        # as many, more refused
    ((3, 1), (3, 0), "straightened"),   # as many, fewer refused
    ((3, 1), (3, 1), "straightened"),   # a tie goes to the square top faces
])
def test_the_better_of_the_straightened_and_the_as_seen_reading_is_kept(
    as_seen: tuple[int, int], straightened: tuple[int, int], kept: str
) -> None:
    seen, straight = _reading(*as_seen, value=1), _reading(*straightened, value=2)
    assert _better_of(seen, straight) == (straight if kept == "straightened" else seen)


def test_a_reader_calibrated_with_corners_also_reads_the_frame_as_seen() -> None:
    """Dice drawn in 3D at 35 degrees, their sides stretched by the straightening: the
    calibrated reader reads them at least as well as either reading alone would."""
    straight_only = right = plain_right = total = 0
    plain = DiceReader(straighten_uncalibrated=False)
    for seed in range(6):
        rng = random.Random(seed)
        frame, dice, tray = render_d6_scene([rng.randint(1, 6) for _ in range(6)], rng, 35.0)
        calibrated = DiceReader(Calibration(frame_size=(640, 640), corners=tuple(
            (float(x), float(y)) for x, y in tray)), models=plain.models)
        want = Counter(d.value for d in dice)
        total += len(dice)
        right += sum((Counter(d.value for d in calibrated.read(frame).dice) & want).values())
        plain_right += sum((Counter(d.value for d in plain.read(frame).dice) & want).values())
        straight_only += sum((Counter(d.value for d in calibrated._read_view(
            calibrated._view(frame))[0]) & want).values())
    assert right >= max(straight_only, plain_right), (right, straight_only, plain_right)
    assert right > straight_only
