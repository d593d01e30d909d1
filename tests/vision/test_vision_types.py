"""Calibration round-trips through TOML-friendly dicts; bad tables give clear errors."""

from __future__ import annotations

import tomllib

import pytest

from companion.vision import Calibration, VisionError
from companion.vision.cli import toml_table


def test_calibration_round_trip_through_toml() -> None:
    cal = Calibration(frame_size=(1280, 720), tray=(100, 50, 1000, 600), die_px=41.5,
                      gains=(1.1, 1.0, 0.9))
    text = toml_table("dice", cal.to_dict())
    back = Calibration.from_dict(tomllib.loads(text)["dice"])
    assert back == cal


def test_calibration_without_tray_has_no_none_values() -> None:
    d = Calibration().to_dict()
    assert None not in d.values()
    assert Calibration.from_dict(d) == Calibration()


def test_scaled_geometry_follows_resolution() -> None:
    cal = Calibration(frame_size=(640, 480), tray=(10, 20, 600, 400), die_px=40)
    assert cal.scaled_tray(1280, 960) == (20, 40, 1200, 800)
    assert cal.scaled_die_px(1280, 960) == pytest.approx(80)


@pytest.mark.parametrize(
    "bad",
    [{"frame_size": "x"}, {"frame_size": [0, 10]}, {"tray": [1, 2]}, {"gains": [1]},
     {"tray": [0, 0, 0, 5]}, {"die_px": -5}, {"die_px": float("nan")}],
)
def test_malformed_calibration_is_a_vision_error(bad: dict[str, object]) -> None:
    with pytest.raises(VisionError):
        Calibration.from_dict(bad)


#: Tables the box must refuse, with what the message has to say. The config check calls
#: ``Calibration.from_dict``, so its messages name the setting and say to calibrate again.
REFUSED = [
    ({"gains": [0, 0, 0]}, r"gains = \[0, 0, 0\] is out of range; each gain is from 0.25"),
    ({"gains": [float("nan"), 1.0, 1.0]}, r"gains = \[nan, 1.0, 1.0\] holds a number that is "
                                          "not finite"),
    ({"gains": [float("inf"), 1.0, 1.0]}, r"gains = .* not finite"),
    ({"gains": [True, 1.0, 1.0]}, r"gains = .* must be three numbers"),
    ({"die_px": 0.01}, r"die_px = 0.01 is not a die size in pixels; use 0"),
    ({"die_px": 5000}, r"die_px = 5000 is not a die size"),
    ({"frame_size": [640.7, 640.2]}, r"frame_size = .* must be \[WIDTH, HEIGHT\] in whole"),
    ({"frame_size": [10**9, 10**9]}, r"is not the size of a camera frame"),
    ({"frame_size": [640, 480], "tray": [0, 0, 700, 480]}, r"tray = .* does not fit in the "
                                                           r"640x480 frame_size"),
    ({"tray": [300, 300, 1, 1]}, r"tray = .* is too small to hold a die.*16 pixels"),
    ({"corners": [[0, 0], [640, 0], [640, 1], [0, 1]]},
     r"corners = .* do not outline a tray floor: the outline is only 1 px across"),
    ({"corners": [[319, 0], [321, 0], [640, 640], [0, 640]]}, r"only 2 px across"),
    ({"corners": [[0, 0], [600, 0], [640, 5], [40, 5]]}, r"only 5 px across"),  # flat
    ({"corners": [[0, 0], [100, 0], [10, 10], [0, 100]]}, r"not outline a convex"),
    ({"corners": [[1000, 1000], [1640, 1000], [1640, 1640], [1000, 1640]]},
     r"corners point \[1000, 1000\] is outside the 640x640 frame_size"),
    ({"corners": [[float("nan"), 0], [640, 0], [640, 640], [0, 640]]}, r"not finite"),
    ({"corners": "abc"}, r"corners = 'abc' must be four \[X, Y\] points"),
    ({"version": 0}, r"version = 0 must be a whole number from 1"),
    ({"die_pixels": 40}, r"has unknown key\(s\) die_pixels; its keys are"),
]


@pytest.mark.parametrize(("table", "says"), REFUSED)
def test_calibration_from_dict_is_the_complete_check(table: dict[str, object], says: str
                                                     ) -> None:
    with pytest.raises(VisionError, match=says) as caught:
        Calibration.from_dict(table)
    message = str(caught.value)
    assert message.startswith("[dice.calibration] ")
    assert message.endswith("run `companion dice calibrate` again")


def test_a_reader_checks_a_calibration_made_in_code() -> None:
    from companion.vision import DiceReader

    with pytest.raises(VisionError, match=r"gains = \[0.0, 0.0, 0.0\] is out of range"):
        DiceReader(Calibration(gains=(0.0, 0.0, 0.0)))


def test_tables_as_calibrate_writes_them_pass() -> None:
    for cal in (Calibration(),
                Calibration(frame_size=(1280, 960), tray=(40, 30, 1200, 900), die_px=61.5,
                            gains=(0.7, 1.0, 1.4)),
                Calibration(frame_size=(800, 600), corners=((100, 80), (700, 90),
                                                            (650, 500), (150, 510)))):
        assert Calibration.from_dict(cal.to_dict()) == cal
    # The smallest tray: 1 % of the frame's longer side, and never under 16 px.
    assert Calibration.from_dict({"frame_size": [4000, 3000], "tray": [0, 0, 40, 40]})
    with pytest.raises(VisionError, match="at least 40 pixels"):
        Calibration.from_dict({"frame_size": [4000, 3000], "tray": [0, 0, 39, 400]})


def test_checking_a_calibration_needs_neither_opencv_nor_numpy() -> None:
    """The box's config check calls it: `companion status` must not load OpenCV for that."""
    import subprocess
    import sys

    code = ("import sys; from companion.vision.types import Calibration; "
            "Calibration.from_dict({'gains': [1, 1, 1]}); "
            "print(sorted(m for m in ('cv2', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("size", [(640, 640), (1280, 720), (480, 640)])
def test_a_calibration_of_another_frame_shape_is_refused(size: tuple[int, int]) -> None:
    """A 640x360 calibration stretched onto 640x640 frames read 2 of 4 dice, silently."""
    cal = Calibration(frame_size=(640, 360), tray=(100, 50, 440, 260), die_px=45)
    if size == (1280, 720):  # the same shape at another resolution scales
        assert cal.scaled_tray(*size) == (200, 100, 880, 520)
        return
    for scaled in (cal.scaled_tray, cal.scaled_die_px):
        with pytest.raises(VisionError, match=r"made on 640x360 frames, another shape.*"
                                              r"calibrate` again for this camera resolution"):
            scaled(*size)


def test_a_frame_of_another_shape_is_refused_by_the_reader() -> None:
    import random

    from companion.vision import DiceReader, compose_tray

    frame = compose_tray([1, 2, 3, 4], "d6", random.Random(1))  # 640x640
    with pytest.raises(VisionError, match="another shape"):
        DiceReader(Calibration(frame_size=(640, 360), tray=(100, 50, 440, 260),
                               die_px=45)).read(frame)
    # A crop of a few pixels (the same sensor mode) and a calibration of the light alone
    # read on.
    assert DiceReader(Calibration(frame_size=(644, 640), die_px=40)).read(frame).dice
    assert len(DiceReader(Calibration(frame_size=(640, 360), gains=(0.9, 1.0, 1.1)))
               .read(frame).dice) == 4
