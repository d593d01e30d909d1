"""Settling, frame by frame, on trays built from the shipped die photos: which motions of
one die keep the tray from being read, and which still trays are a new throw.

Most scenes are at the box camera's geometry (1280x960, a d6 about 56 px across, the
reader calibrated with that size), where one die covers a quarter of a percent of the
picture."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache, lru_cache

import cv2
import numpy as np
import pytest

from companion.vision import Calibration, DiceReader, FrameReading, SettleDetector
from companion.vision.compose import (
    BOX_D10_PX,
    BOX_FRAME,
    D6_SIZE,
    D10_SIZE,
    DATA_DIR,
    _assets,
    _paste,
)

FPS = 30.0
#: A d6 as the box's camera sees it (px).
D6 = D6_SIZE * BOX_D10_PX / D10_SIZE
#: A die: its photo (companion/data/dice/d6/NAME.png), centre x, centre y, turn (degrees).
Die = tuple[str, float, float, float]
#: Three dice lying still (a 3, a 4 and a 6) beside the one each scene moves.
LYING: list[Die] = [("red-3-1", 400, 300, 20), ("blue-4-0", 820, 640, 70),
                    ("green-6-0", 980, 260, 40)]
STILL = 0.2


@pytest.fixture(scope="module")
def box_reader() -> DiceReader:
    return DiceReader(Calibration(frame_size=BOX_FRAME, die_px=D6), kinds=("d6",))


@cache
def _photo(name: str) -> np.ndarray:
    img = cv2.imread(str(DATA_DIR / "d6" / f"{name}.png"), cv2.IMREAD_UNCHANGED)
    assert img is not None, name
    return img


@lru_cache(maxsize=2)
def _floor(size: tuple[int, int]) -> np.ndarray:
    tray = _assets()[0]
    return tray if tray.shape[1::-1] == size else cv2.resize(tray, size)


def _tray(dice: Iterable[Die], size: tuple[int, int] = BOX_FRAME, die: float = D6,
          blurred: Iterable[int] = ()) -> np.ndarray:
    """The tray with ``dice`` on it; those numbered in ``blurred`` out of focus."""
    frame = _floor(size).copy()
    rng = random.Random(0)  # the depth of each die's shadow
    blur = set(blurred)
    for i, (name, cx, cy, turn) in enumerate(dice):
        _paste(frame, _photo(name), cx, cy, die, turn, rng)
        if i in blur:
            m = round(die * 0.8)
            x0, y0 = round(cx) - m, round(cy) - m
            patch = frame[y0:y0 + 2 * m, x0:x0 + 2 * m]
            frame[y0:y0 + 2 * m, x0:x0 + 2 * m] = cv2.GaussianBlur(patch, (0, 0), die / 16)
    return frame


def _hand(frame: np.ndarray, x: float) -> np.ndarray:
    """A skin-coloured hand, a fifth of the tray across, at ``x`` (px)."""
    out = frame.copy()
    s = frame.shape[1] / 640
    cx, cy = round(x), frame.shape[0] // 2
    cv2.ellipse(out, (cx, cy), (round(90 * s), round(140 * s)), 20, 0, 360, (120, 150, 210), -1)
    for k in range(4):
        cv2.ellipse(out, (cx + round((60 + 12 * k) * s), cy - round((130 - 25 * k) * s)),
                    (round(15 * s), round(60 * s)), -30, 0, 360, (110, 140, 200), -1)
    return out


def _light(frame: np.ndarray, gain: float) -> np.ndarray:
    out: np.ndarray = np.clip(frame.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return out


class Camera:
    """Frames as a camera delivers them to the detector: timestamps at ``fps`` and sensor
    noise of ``noise`` grey levels (sigma), a new draw each frame."""

    def __init__(self, det: SettleDetector, fps: float = FPS, noise: float = 2.0) -> None:
        self.det, self.fps = det, fps
        rng = np.random.default_rng(0)
        # Four draws, each as the saturating additions a uint8 frame takes cheaply.
        draws = [np.round(rng.normal(0, noise, (*BOX_FRAME[::-1], 3))) for _ in range(4)]
        self.noise = [(np.clip(d, 0, 255).astype(np.uint8), np.clip(-d, 0, 255).astype(np.uint8))
                      for d in draws] if noise else []
        self.n = 0
        self.t = 0.0
        self.reports: list[tuple[float, FrameReading]] = []

    def show(self, frame: np.ndarray, seconds: float = 0.0) -> None:
        """``frame`` for ``seconds`` (at least one frame)."""
        for _ in range(max(1, round(seconds * self.fps))):
            seen = frame
            if self.noise:
                up, down = self.noise[self.n % len(self.noise)]
                h, w = frame.shape[:2]
                seen = cv2.subtract(cv2.add(frame, up[:h, :w]), down[:h, :w])
            out = self.det.feed(seen, self.t)
            if out is not None:
                self.reports.append((self.t, out))
            self.n += 1
            self.t += 1 / self.fps

    def values(self) -> list[list[int]]:
        return [sorted(d.value for d in r.dice) for _, r in self.reports]

    def throw(self, dice: list[Die], size: tuple[int, int] = BOX_FRAME, die: float = D6) -> None:
        """A hand passes and the dice tumble across the tray (a third of a second)."""
        w, h = size
        self.show(_hand(_tray([], size), w * 0.2))
        for k in range(8, -1, -1):
            self.show(_tray([(n, min(max(x - 0.02 * w * k, 0.1 * w), 0.9 * w),
                              min(max(y + 0.012 * h * k, 0.1 * h), 0.9 * h), t + 40 * k)
                             for n, x, y, t in dice], size, die))


# ------------------------------------------------------------------ one die's motion


@pytest.mark.parametrize("rest", [0.1, 0.27])
def test_a_die_toppling_in_place_is_read_again_with_its_final_face(
    box_reader: DiceReader, rest: float,
) -> None:
    """The die lands on 2, rests a moment, then tips over to 5 where it lies. After a short
    rest only the 5 is read; after a rest longer than ``still_seconds`` the 2 was a roll
    and the 5 is reported again, as the final reading."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL))
    cam.throw([*LYING, ("red-2-0", 640, 480, 10)])
    cam.show(_tray([*LYING, ("red-2-0", 640, 480, 10)]), rest)
    toppled = cam.t
    cam.show(_tray([*LYING, ("red-5-0", 640, 480, 25)]), 1.0)
    values = cam.values()
    assert values[-1] == [3, 4, 5, 6], values
    assert values == ([[3, 4, 5, 6]] if rest < STILL else [[2, 3, 4, 6], [3, 4, 5, 6]])
    assert cam.reports[-1][0] - toppled <= STILL + 1.5 / FPS
    # nobody threw between the two reports: the box must not take the second for a roll
    assert cam.det.last_report_nudged is (rest >= STILL)


def test_a_die_rocking_between_two_faces_is_not_read_until_it_lies_still(
    box_reader: DiceReader,
) -> None:
    """A cocked die rocking from one face to the other every 0.13 s is motion, though
    it stays in its place: nothing is read until it settles."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL))
    faces = [_tray([*LYING, (name, 640, 480, 30)]) for name in ("white-2-0", "white-5-0")]
    cam.throw([*LYING, ("white-2-0", 640, 480, 30)])
    for k in range(12):
        cam.show(faces[k % 2], 4 / FPS)
    assert cam.reports == []
    cam.show(faces[1], 0.5)
    assert cam.values() == [[3, 4, 5, 6]]


def test_a_die_spinning_flat_is_not_read_until_it_stops(box_reader: DiceReader) -> None:
    """Spinning flat on one face, 10 degrees a frame, the die keeps its place and value
    but is not still."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL))
    cam.throw([*LYING, ("blue-1-0", 640, 480, 0)])
    for k in range(30):
        cam.show(_tray([*LYING, ("blue-1-0", 640, 480, 10 * k)]))
    assert cam.reports == []
    stopped = cam.t
    cam.show(_tray([*LYING, ("blue-1-0", 640, 480, 300)]), 0.5)
    assert cam.values() == [[1, 3, 4, 6]]
    assert cam.reports[0][0] - stopped <= STILL + 1.5 / FPS


@pytest.mark.parametrize("fps", [30.0, 120.0])
def test_a_die_sliding_slowly_is_not_read_until_it_stops(box_reader: DiceReader,
                                                         fps: float) -> None:
    """A die sliding 60 px (about 15 mm) a second: 2 px a frame at 30 fps, half a pixel
    at 120 fps. Each frame is compared with the first of the still spell too, so the
    slide is seen however little it moves from one frame to the next."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL), fps=fps)
    cam.throw([*LYING, ("red-4-1", 500, 500, 15)])
    steps = round(2.0 * fps)
    for k in range(steps):
        cam.show(_tray([*LYING, ("red-4-1", 500 + 60 * k / fps, 500, 15)]))
    assert cam.reports == [], "read while the die was still sliding"
    stopped = cam.t
    cam.show(_tray([*LYING, ("red-4-1", 620, 500, 15)]), 0.5)
    assert cam.values() == [[3, 4, 4, 6]]
    t, reading = cam.reports[0]
    assert t - stopped <= STILL + 1.5 / fps
    slid = [d for d in reading.dice if abs(d.box[1] + d.box[3] / 2 - 500) < 20]
    assert len(slid) == 1 and abs(slid[0].box[0] + slid[0].box[2] / 2 - 620) < 10


def test_a_hand_filling_most_of_the_picture_is_motion(box_reader: DiceReader) -> None:
    """A hand (or an arm) close to the camera, covering most of the picture, reaches in
    just after the dice land: it is not read, however much of the picture it fills."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL))
    dice = [*LYING, ("white-6-0", 640, 480, 15)]
    cam.throw(dice)
    tray = _tray(dice)
    cam.show(tray, 0.1)
    for k in range(12):
        arm = tray.copy()
        cv2.ellipse(arm, (640 + 4 * k, 520), (560, 420), 10, 0, 360, (120, 150, 210), -1)
        cam.show(arm)
    gone = cam.t
    cam.show(tray, 0.5)
    assert cam.values() == [[3, 4, 6, 6]]
    assert cam.reports[0][0] >= gone


# ------------------------------------------------------------------ camera and light


@pytest.mark.parametrize("noise", [3.0, 6.0])
def test_sensor_noise_does_not_stop_settling(box_reader: DiceReader, noise: float) -> None:
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL), noise=noise)
    dice = [*LYING, ("white-5-0", 640, 480, 0)]
    cam.throw(dice)
    landed = cam.t
    cam.show(_tray(dice), 1.0)
    assert cam.values() == [[3, 4, 5, 6]]
    assert cam.reports[0][0] - landed <= STILL + 1.5 / FPS


def test_flicker_and_a_change_of_light_neither_stop_settling_nor_make_a_throw(
    box_reader: DiceReader,
) -> None:
    """The light flickers 8 % up and down from frame to frame: the tray still settles
    as soon as the dice lie still. A lamp then dims it by 10 % for good, and a hand
    passes: the same throw, not reported again."""
    cam = Camera(SettleDetector(box_reader, still_seconds=STILL))
    dice = [*LYING, ("green-2-0", 640, 480, 60)]
    cam.throw(dice)
    landed = cam.t
    tray = _tray(dice)
    for k in range(30):
        cam.show(_light(tray, 1.08 if k % 2 else 0.92))
    assert cam.values() == [[2, 3, 4, 6]]
    assert cam.reports[0][0] - landed <= STILL + 1.5 / FPS
    dim = _light(tray, 0.9)
    cam.show(dim, 0.5)
    for x in range(-200, 1500, 120):
        cam.show(_hand(dim, x))
    cam.show(dim, 1.0)
    assert cam.values() == [[2, 3, 4, 6]]


# ------------------------------------------------------------------ the same throw


def _shaded(frame: np.ndarray, upto: float, depth: float) -> np.ndarray:
    """A person leaning over the tray: the part left of ``upto`` (share of the width) in
    shadow, ``depth`` of the light left."""
    out = frame.astype(np.float32)
    out[:, :round(upto * frame.shape[1])] *= depth
    return out.astype(np.uint8)


# Throws of the shipped dice (seed of compose_tray) whose reading changes under the
# shadow: a die lost ([2,2,2,2] read as [2,2,2]) or a refused die read ([5,5,5] and
# "unclear face", then [5,5,5,5]).
@pytest.mark.parametrize("seed", [8, 17, 18, 23, 29, 30, 1, 2])
def test_a_hand_or_a_shadow_over_unmoved_dice_is_not_a_new_throw(reader: DiceReader,
                                                                  seed: int) -> None:
    from companion.vision.compose import compose_tray_with_boxes

    values = [random.Random(seed).randint(1, 6) for _ in range(4)]
    tray, _ = compose_tray_with_boxes(values, "d6", random.Random(seed))
    empty = np.full_like(tray, 150)
    patch = tray.copy()
    patch[100:500, 100:500] = 30  # a hand-sized dark blur passing close over the dice
    cam = Camera(SettleDetector(reader, still_seconds=STILL))
    for depth in (0.55, 0.7):
        cam.show(empty, 0.1)
        cam.show(patch, 2 / FPS)
        cam.show(tray, 0.4)
        assert len(cam.reports) == 1
        for upto in (0.5, 0.3):
            cam.show(patch, 2 / FPS)
            cam.show(_shaded(tray, upto, depth), 0.4)  # someone leans over the tray
        for x in range(-100, 800, 60):  # a hand passes, the light comes back
            cam.show(_hand(tray, x))
        cam.show(tray, 0.4)
        knock = np.array([[1, 0, 2], [0, 1, 1]], np.float32)
        shifted = cv2.warpAffine(tray, knock, tray.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
        cam.show(shifted, 0.4)  # the table is knocked: the camera moves 2 px
        assert len(cam.reports) == 1, (values, depth, cam.values())
        cam.det.reset()
        cam.reports.clear()


REFUSED_AT = (300.0, 420.0)


@pytest.mark.parametrize("again", [
    ("green-2-0", 470.0, 480.0, 30.0, True),  # refused again, elsewhere
    ("green-2-0", 470.0, 480.0, 30.0, False),  # read this time
    ("green-5-0", 318.0, 430.0, 75.0, True),  # refused again, almost where it was
])
def test_throwing_only_the_refused_die_again_is_a_new_throw(
    reader: DiceReader, again: tuple[str, float, float, float, bool],
) -> None:
    """Two dice read and one refused (blurred); only the refused die is picked up and
    thrown again, the other two do not move. The new throw is reported, even when that
    die is refused again, and even when it lands almost where it lay."""
    size, die = (640, 640), float(D6_SIZE)
    kept: list[Die] = [("red-3-1", 150, 150, 20), ("blue-5-0", 480, 200, 50)]
    first = _tray([*kept, ("green-4-0", *REFUSED_AT, 10)], size, die, blurred=[2])
    name, x, y, turn, blurred = again
    second = _tray([*kept, (name, x, y, turn)], size, die, blurred=[2] if blurred else [])
    cam = Camera(SettleDetector(reader, still_seconds=STILL))
    cam.throw([*kept, ("green-4-0", *REFUSED_AT, 10)], size, die)
    cam.show(first, 0.5)
    cam.show(_hand(first, 200), 1 / FPS)  # the refused die is picked up ...
    cam.show(_hand(_tray(kept, size, die), 300), 2 / FPS)
    cam.show(second, 0.5)  # ... and thrown again
    assert cam.values() == [[3, 5], [3, 5] if blurred else [2, 3, 5]]
    first_reading, second_reading = (r for _, r in cam.reports)
    assert [u.reason for u in first_reading.unreadable] == ["blurred"]
    assert [u.reason for u in second_reading.unreadable] == (["blurred"] if blurred else [])
    assert cam.det.last_report_nudged is False  # a hand threw it: a throw, not a nudge
