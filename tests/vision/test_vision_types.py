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
