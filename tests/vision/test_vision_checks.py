"""Small guarantees of the reader and the calibration: the kinds it is asked for, the light
correction, NaN-safe refusals, narrow frames, the median of calibration frames, and the
models loaded once per calibration."""

from __future__ import annotations

import random
import tracemalloc

import cv2
import numpy as np
import pytest

from companion.vision import Calibration, DiceReader, VisionError, calibrate_from_frames
from companion.vision import reader as reader_module
from companion.vision.calibrate import median_frame
from companion.vision.compose import compose_tray
from companion.vision.tray import find_tray


@pytest.mark.parametrize(("kinds", "says"), [
    ((), r"no dice kinds given; choose from d6, d10, percentile"),
    (("d6", "d20"), r"unknown dice kind\(s\) d20; choose from"),
])
def test_the_kinds_asked_for_are_named(kinds: tuple[str, ...], says: str) -> None:
    with pytest.raises(VisionError, match=says):
        DiceReader(kinds=kinds)


def test_the_light_correction_is_one_table_with_the_same_result() -> None:
    gains = (0.9, 1.0, 1.2)
    reader = DiceReader(Calibration(gains=gains))
    frame = np.random.default_rng(0).integers(0, 256, (96, 128, 3), np.uint8)
    per_channel = cv2.merge([
        cv2.LUT(frame[..., i], np.clip(np.arange(256) * g, 0, 255).astype(np.uint8))
        for i, g in enumerate(gains)])
    np.testing.assert_array_equal(reader._normalise_light(frame), per_channel)
    table = reader._gains_lut()
    assert table is not None and table.shape == (256, 1, 3)
    assert reader._gains_lut() is table  # made once, not on every read
    assert DiceReader()._normalise_light(frame) is frame  # no gains: nothing to do


def test_a_nan_probability_is_never_enough_to_read_a_die() -> None:
    """`p < threshold` is False for NaN: a damaged network's NaN passed every refusal."""
    reader = DiceReader()
    frame = np.full((200, 200, 3), 128, np.uint8)
    cand = reader_module._Candidate(100, 100, 40, 40, 0.9)
    assert reader._judge(frame, cand, None, None, "d6", float("nan"), 1.0) == "unclear face"
    assert reader._judge(frame, cand, None, None, "d6", 0.9, 1.0) is None


@pytest.mark.parametrize("shape", [(32, 960), (33, 990), (32, 1280), (40, 1600), (960, 32)])
def test_the_tray_of_a_narrow_frame_stays_inside_it(shape: tuple[int, int]) -> None:
    """A 30:1 frame's thumbnail is padded to 8 pixels: the tray came back larger than the
    frame (960x32 gave a tray 38 high)."""
    h, w = shape
    tray = find_tray(np.full((h, w, 3), 180, np.uint8))
    assert tray is not None
    x, y, tw, th = tray
    assert x >= 0 and y >= 0 and x + tw <= w and y + th <= h


def test_the_tray_found_never_crosses_the_frames_edge() -> None:
    rng = np.random.default_rng(5)
    for w in (640, 1296, 2028, 4056):
        h = w * 3 // 4
        for _ in range(3):
            frame = np.full((h, w, 3), 40, np.uint8)
            x0, y0 = int(rng.integers(0, w // 3)), int(rng.integers(0, h // 3))
            x1, y1 = int(rng.integers(2 * w // 3, w + 1)), int(rng.integers(2 * h // 3, h + 1))
            frame[y0:y1, x0:x1] = 200
            tray = find_tray(frame)
            assert tray is not None
            assert tray[0] + tray[2] <= w and tray[1] + tray[3] <= h, (w, tray)


def test_the_median_of_calibration_frames_is_taken_in_strips() -> None:
    """The same pixels as np.median over the whole stack, without its memory: five 12 MP
    photos took +633 MB that way."""
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, (300, 200, 3), np.uint8) for _ in range(4)]
    whole = np.median(np.stack(frames), axis=0).astype(np.uint8)
    np.testing.assert_array_equal(median_frame(frames), whole)
    assert median_frame(frames[:2]) is frames[0]  # the median of two is their mean
    big = [rng.integers(0, 256, (1500, 2000, 3), np.uint8) for _ in range(5)]  # 9 MB each
    tracemalloc.start()
    try:
        median_frame(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 9e6 + 8e6, peak  # the result and a strip, not the stack


def test_calibrating_a_tray_seen_at_an_angle_loads_the_models_once(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.vision.models import Models, load_models

    loads = []

    def counted(**kwargs: bool) -> Models:
        loads.append(kwargs)
        return load_models(**kwargs)

    monkeypatch.setattr("companion.vision.reader.load_models", counted)
    frame = compose_tray([2, 5, 3], "d6", random.Random(3))
    corners = [(20.0, 30.0), (610.0, 10.0), (630.0, 620.0), (10.0, 600.0)]
    cal, _ = calibrate_from_frames([frame], corners=corners)
    assert cal.corners is not None and cal.die_px > 0
    assert len(loads) == 1


def test_calibrate_refuses_what_the_box_would_refuse() -> None:
    frame = compose_tray([2, 5], "d6", random.Random(3))
    with pytest.raises(VisionError, match=r"corners = .* do not outline a tray floor.*"
                                          r"check --tray, --corners and --die-px"):
        calibrate_from_frames([frame], corners=[(0, 0), (640, 0), (640, 3), (0, 3)])
    with pytest.raises(VisionError, match=r"die_px = 1.0 is not a die size"):
        calibrate_from_frames([frame], die_px=1.0)
