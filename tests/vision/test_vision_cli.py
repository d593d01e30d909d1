"""The `companion dice` handlers, called directly (the main CLI wires them later)."""

from __future__ import annotations

import argparse
import json
import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from companion import config
from companion.vision import VisionError, compose_tray, imageio
from companion.vision.cli import add_commands, draw_overlay, label_places
from companion.vision.compose import DATA_DIR
from companion.vision.types import Box, DieReading, FrameReading, UnreadableDie
from companion.vision_bridge import make_reader

REPO = Path(__file__).resolve().parents[2]


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion")
    add_commands(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def _run(argv: list[str]) -> int:
    args = _parse(argv)
    return int(args.func(args))


def test_read_json_and_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = tmp_path / "tray.png"
    cv2.imwrite(str(img), compose_tray([1, 6, 3], "d6", random.Random(2)))
    assert _run(["dice", "read", str(img), "--json", "--overlay", str(tmp_path / "ov"),
                 "--store", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["image"] == str(img)
    # Every die is either read correctly or refused; never a wrong value.
    assert not Counter(d["value"] for d in data[0]["dice"]) - Counter([1, 3, 6])
    assert len(data[0]["dice"]) + len(data[0]["unreadable"]) == 3
    assert all(len(d["box"]) == 4 and 0 <= d["confidence"] <= 1 for d in data[0]["dice"])
    assert (tmp_path / "ov" / "tray.overlay.jpg").is_file()


def test_read_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["dice", "read", str(DATA_DIR / "sample-1.jpg"), "--store",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "dice" in out and "confidence" in out


def test_read_non_image_is_a_vision_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.jpg"
    bad.write_text("nope")
    with pytest.raises(VisionError):
        _run(["dice", "read", str(bad)])


def test_a_batch_names_the_frame_it_cannot_read_and_reads_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))  # an image, but no tray in it
    sample = DATA_DIR / "sample-1.jpg"
    assert _run(["dice", "read", str(tiny), str(sample), "--store", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert f"error: {tiny}: the frame is 1x1 pixels, too small to read dice" in err
    assert out.startswith(f"{sample}: ")


def test_bench_on_shipped_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["dice", "bench", str(DATA_DIR), "--json", "--store", str(tmp_path)]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["images"] == 2 and res["dice"] > 0
    for key in ("accuracy", "recall", "precision", "exact_roll_rate", "median_ms"):
        assert key in res


def test_calibrate_prints_and_saves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = tmp_path / "frame.png"
    cv2.imwrite(str(img), compose_tray([2, 5], "d6", random.Random(3)))
    pic = tmp_path / "seen.jpg"
    assert _run(["dice", "calibrate", "--from", str(img), "--picture", str(pic)]) == 0
    table = tomllib.loads(capsys.readouterr().out)["dice"]["calibration"]
    assert table["frame_size"] == [640, 640]
    assert 30 < table["die_px"] < 60
    assert pic.is_file()
    cfg = tmp_path / "companion.toml"
    # A box config with other dice settings, and a calibration in the layout an older
    # `dice calibrate` wrote (straight into [dice], which the box refuses).
    cfg.write_text('[chips]\nreader = "sim"\n\n[dice]\nstill_seconds = 0.3\n'
                   'version = 1\nframe_size = [640, 640]\ndie_px = 40.0\n')
    with pytest.raises(VisionError, match=r"old layout.*dice calibrate --config"):
        _run(["dice", "read", str(img), "--config", str(cfg)])
    for tray in ("10,10,600,600", "12,12,590,590"):  # the second replaces the first
        assert _run(["dice", "calibrate", "--from", str(img), "--picture", str(pic),
                     "--config", str(cfg), "--tray", tray]) == 0
    data = tomllib.loads(cfg.read_text())
    assert data["chips"] == {"reader": "sim"}
    assert data["dice"]["still_seconds"] == 0.3
    assert data["dice"]["calibration"]["tray"] == [12, 12, 590, 590]
    assert "frame_size" not in data["dice"]
    # The box loads that file, and its reader and `dice read` both use the calibration.
    box_config = config.load(cfg)
    assert box_config["dice"]["calibration"]["tray"] == [12, 12, 590, 590]
    assert make_reader(box_config).calibration.tray == (12, 12, 590, 590)
    assert _run(["dice", "read", str(img), "--config", str(cfg), "--store",
                 str(tmp_path)]) == 0


def test_calibrate_into_the_example_config(tmp_path: Path) -> None:
    img = tmp_path / "frame.png"
    cv2.imwrite(str(img), compose_tray([2, 5], "d6", random.Random(3)))
    cfg = tmp_path / "companion.toml"
    cfg.write_text((REPO / "docs" / "config.example.toml").read_text())
    assert _run(["dice", "calibrate", "--from", str(img), "--picture",
                 str(tmp_path / "seen.jpg"), "--config", str(cfg), "--tray", "5,6,600,610"]) == 0
    assert config.load(cfg)["dice"]["calibration"]["tray"] == [5, 6, 600, 610]


def test_calibrate_will_not_write_a_config_the_box_refuses(tmp_path: Path) -> None:
    img = tmp_path / "frame.png"
    cv2.imwrite(str(img), compose_tray([2, 5], "d6", random.Random(3)))
    cfg = tmp_path / "companion.toml"
    cfg.write_text("[dice]\nd6_per_throw = 99\n")
    with pytest.raises(VisionError, match=r"d6_per_throw = 99 is out of range.*by hand"):
        _run(["dice", "calibrate", "--from", str(img), "--picture",
              str(tmp_path / "seen.jpg"), "--config", str(cfg)])
    assert cfg.read_text() == "[dice]\nd6_per_throw = 99\n"


def test_calibrate_needs_a_source() -> None:
    with pytest.raises(VisionError, match="--from"):
        _run(["dice", "calibrate"])


def test_bad_tray_and_kinds(tmp_path: Path) -> None:
    img = tmp_path / "f.png"
    cv2.imwrite(str(img), np.full((100, 100, 3), 200, np.uint8))
    with pytest.raises(VisionError, match="X,Y,W,H"):
        _run(["dice", "calibrate", "--from", str(img), "--tray", "1,2"])
    with pytest.raises(VisionError, match="kind"):
        _run(["dice", "read", str(img), "--kinds", "d20"])


@pytest.mark.parametrize(("argv", "says"), [
    (["dice", "bench", "no-such-folder"], "no-such-folder is not a folder of labelled images"),
    (["dice", "read", "no-such-photo.jpg"], "no-such-photo.jpg: no such file"),
    (["dice", "calibrate", "--from", "x.jpg", "--tray", "1,2,3"], "--tray must be X,Y,W,H"),
    (["dice", "read", "x.jpg", "--kinds", "d7"], "--kinds: unknown kind(s) d7"),
])
def test_the_main_cli_gives_one_line_not_a_traceback(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"error: {says}")


def test_a_photo_over_the_pixel_limit_is_read_smaller_with_boxes_in_its_own_pixels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 48 MP phone photo, played by a sample doubled in size under a limit that the
    # doubled photo is over and the sample is not.
    sample = cv2.imread(str(DATA_DIR / "sample-1.jpg"))
    h, w = sample.shape[:2]
    phone = tmp_path / "phone.jpg"
    cv2.imwrite(str(phone), cv2.resize(sample, (2 * w, 2 * h)), [cv2.IMWRITE_JPEG_QUALITY, 95])
    monkeypatch.setattr(imageio, "MAX_PIXELS", w * h)
    as_decoded = tmp_path / "as-decoded.png"  # the very pixels the reader gets, losslessly
    cv2.imwrite(str(as_decoded), imageio.load_image(phone))
    store = str(tmp_path)
    assert _run(["dice", "read", str(as_decoded), str(phone), "--json", "--store", store]) == 0
    small, large = json.loads(capsys.readouterr().out)
    assert small["decoded_at"] == 1 and large["decoded_at"] == 0.5
    assert len(large["dice"]) == len(small["dice"]) > 10
    for a, b in zip(small["dice"], large["dice"], strict=True):
        assert b["box"] == [2 * v for v in a["box"]] and b["value"] == a["value"]
    assert _run(["dice", "read", str(phone), "--store", store]) == 0
    assert f"read at 1/2 size, {w}x{h}; boxes are in the photo's own pixels" in \
        capsys.readouterr().out


def test_calibrating_from_a_photo_read_smaller_takes_the_tray_in_its_own_pixels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    phone = tmp_path / "phone.jpg"  # 1280x1280, over the limit below: read at 640x640
    cv2.imwrite(str(phone), cv2.resize(compose_tray([2, 5], "d6", random.Random(3)),
                                       (1280, 1280)))
    monkeypatch.setattr(imageio, "MAX_PIXELS", 640 * 640)
    assert _run(["dice", "calibrate", "--from", str(phone), "--picture",
                 str(tmp_path / "seen.jpg"), "--tray", "24,24,1180,1180"]) == 0
    out, err = capsys.readouterr()
    table = tomllib.loads(out)["dice"]["calibration"]
    assert table["frame_size"] == [640, 640] and table["tray"] == [12, 12, 590, 590]
    assert "read at 1/2 size; --tray, --corners and --die-px are taken in their own" in err


# ---- the box's camera, the config file, the options -----------------------------------


class _FakeCamera:
    """What `companion.ports.camera.open_camera` returns, recording how it was opened."""

    opened: ClassVar[list[tuple[dict[str, object], str]]] = []

    def __init__(self, settings: dict[str, object], hardware: str) -> None:
        _FakeCamera.opened.append((dict(settings), hardware))
        self.frame = compose_tray([2, 5], "d6", random.Random(3))
        self.captured = 0
        self.closed = False

    def capture(self) -> np.ndarray:
        self.captured += 1
        return self.frame

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_camera(monkeypatch: pytest.MonkeyPatch) -> type[_FakeCamera]:
    from companion.ports import camera as camera_port

    _FakeCamera.opened = []
    monkeypatch.setattr(camera_port, "open_camera", _FakeCamera)
    monkeypatch.setattr("companion.vision.cli.time.sleep", lambda s: None)
    monkeypatch.delenv(config.CONFIG_ENV, raising=False)
    monkeypatch.delenv(config.HW_ENV, raising=False)
    return _FakeCamera


def test_the_camera_commands_open_the_boxs_camera_as_configured(
    tmp_path: Path, fake_camera: type[_FakeCamera], capsys: pytest.CaptureFixture[str]
) -> None:
    """`--camera` was a bare cv2.VideoCapture(N) at the driver's default size: a Pi camera
    could not be reached, and a calibration was made at another resolution than the box's."""
    cfg = tmp_path / "companion.toml"
    cfg.write_text('[box]\nhardware = "pi"\n[camera]\nwidth = 640\nheight = 640\n')
    assert _run(["dice", "calibrate", "--camera", "--frames", "3", "--config", str(cfg),
                 "--picture", str(tmp_path / "seen.jpg")]) == 0
    settings, hardware = fake_camera.opened[-1]
    assert (settings["source"], settings["width"], settings["height"], hardware) == \
        ("picamera2", 640, 640, "pi")
    assert tomllib.loads(cfg.read_text())["dice"]["calibration"]["frame_size"] == [640, 640]
    # --camera N: that USB camera (desktop), at the configured size; --hw as for `run`.
    assert _run(["dice", "teach", "--camera", "2", "--frames", "2", "--config", str(cfg),
                 "--hw", "sim", "--store", str(tmp_path / "faces")]) == 0
    settings, hardware = fake_camera.opened[-1]
    assert (settings["source"], settings["path"], settings["width"], hardware) == \
        ("video", "2", 640, "sim")
    assert "learned" in capsys.readouterr().out


def test_a_camera_that_cannot_open_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import main

    monkeypatch.delenv(config.CONFIG_ENV, raising=False)
    monkeypatch.delenv(config.HW_ENV, raising=False)
    cfg = tmp_path / "companion.toml"
    cfg.write_text('[box]\nhardware = "sim"\n')  # picamera2, the default, needs the Pi
    assert main(["dice", "calibrate", "--camera", "--config", str(cfg)]) != 0
    err = capsys.readouterr().err
    assert err.startswith('error: [camera] source = "picamera2" needs the Pi')
    assert "--camera N" in err


@pytest.mark.parametrize(("argv", "says"), [
    (["dice", "calibrate", "--from", "x.jpg", "--tray", "1,2,3,4", "--corners", "1,2,3,4,5,6,7,8"],
     "argument --corners: not allowed with argument --tray"),
    (["dice", "teach", "--camera", "--value", "7"], "argument --value: '7' is not a d6 face"),
    (["dice", "teach", "--from", "x.jpg", "--kinds", "d10"], "unrecognized arguments: --kinds"),
    (["dice", "calibrate", "--camera", "usb"], "argument --camera: 'usb' is not a camera index"),
])
def test_options_that_cannot_work_are_refused_before_any_frame(
    argv: list[str], says: str, fake_camera: type[_FakeCamera],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from companion.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err
    assert not fake_camera.opened


def test_calibrate_writes_the_config_whole_and_keeps_its_permissions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import stat

    img = tmp_path / "frame.png"
    cv2.imwrite(str(img), compose_tray([2, 5], "d6", random.Random(3)))
    cfg = tmp_path / "companion.toml"
    cfg.write_text('[dice]\nstill_seconds = 0.3\n')
    cfg.chmod(0o640)
    argv = ["dice", "calibrate", "--from", str(img), "--picture", str(tmp_path / "seen.jpg"),
            "--config", str(cfg)]
    assert _run(argv) == 0
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o640
    written = cfg.read_text()
    assert "[dice.calibration]" in written

    def power_cut(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", power_cut)  # files.write_atomically's
    with pytest.raises(OSError, match="Input/output"):
        _run([*argv, "--tray", "12,12,590,590"])
    assert cfg.read_text() == written  # the old file whole, nothing left beside it
    assert sorted(os.listdir(tmp_path)) == ["companion.toml", "frame.png", "seen.jpg"]


def test_two_frames_are_not_median_combined_and_calibrate_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for k in range(2):
        cv2.imwrite(str(tmp_path / f"f{k}.png"), compose_tray([2, 5], "d6", random.Random(3)))
    assert _run(["dice", "calibrate", "--from", str(tmp_path), "--picture",
                 str(tmp_path / "seen.jpg")]) == 0
    assert "two frames: only the first is used" in capsys.readouterr().err


def test_a_named_logo_store_must_exist_the_default_one_need_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.vision import cli as vision_cli

    img = str(DATA_DIR / "sample-1.jpg")
    with pytest.raises(VisionError, match=r"logo-face folder .*typo does not exist"):
        _run(["dice", "read", img, "--store", str(tmp_path / "typo")])
    monkeypatch.setattr(vision_cli, "DEFAULT_STORE", tmp_path / "never-taught")
    assert _run(["dice", "read", img]) == 0


def test_calibrating_from_the_camera_mends_a_calibration_the_box_refuses(
    tmp_path: Path, fake_camera: type[_FakeCamera]
) -> None:
    cfg = tmp_path / "companion.toml"
    cfg.write_text('[camera]\nsource = "video"\nwidth = 640\nheight = 640\n'
                   "[dice.calibration]\ngains = [0.0, 0.0, 0.0]\n")
    with pytest.raises(config.ConfigError, match="gains"):
        config.load(cfg)
    assert _run(["dice", "calibrate", "--camera", "--frames", "3", "--config", str(cfg),
                 "--picture", str(tmp_path / "seen.jpg")]) == 0
    assert fake_camera.opened[-1][0]["width"] == 640
    assert config.load(cfg)["dice"]["calibration"]["gains"] != [0.0, 0.0, 0.0]
    # A fault elsewhere in the file is still the box's to report.
    cfg.write_text('[camera]\nwidth = 5\n')
    with pytest.raises(config.ConfigError, match=r"\[camera\] width = 5"):
        _run(["dice", "calibrate", "--camera", "--config", str(cfg)])


def _overlaps(a: Box, b: Box) -> bool:
    return (min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])
            and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1]))


def test_overlay_labels_of_a_tight_cluster_cover_no_die_and_no_other_label() -> None:
    # Four touching dice: every label above its box would sit on the die above.
    boxes: list[Box] = [(300, 300, 36, 36), (300, 338, 36, 36), (338, 300, 36, 36),
                        (338, 338, 36, 36), (319, 376, 36, 36)]
    sizes = [(110, 18)] * len(boxes)
    places = label_places(boxes, sizes, 640, 640)
    for i, place in enumerate(places):
        assert place[2:] == sizes[i]
        assert 0 <= place[0] <= 640 - place[2] and 0 <= place[1] <= 640 - place[3]
        assert not any(_overlaps(place, b) for b in boxes), (i, place)
        assert not any(_overlaps(place, other) for other in places[:i]), (i, place)


def test_overlay_labels_stay_in_a_picture_with_no_room() -> None:
    places = label_places([(0, 0, 40, 40), (0, 40, 40, 40)], [(200, 20)] * 2, 60, 90)
    for x, y, w, h in places:
        assert x >= 0 and y >= 0
        assert (w, h) == (200, 20)


def test_overlay_draws_read_dice_green_and_refused_dice_red() -> None:
    frame = np.full((200, 200, 3), 255, np.uint8)
    reading = FrameReading((DieReading("d6", 5, (20, 40, 30, 30), 0.93),),
                           (UnreadableDie((120, 120, 30, 30), "cocked"),), 1.0)
    out = draw_overlay(frame, reading)
    b, g, r = (int(v) for v in out[40, 35])  # the read die's top edge
    assert g > 150 and r < 100 and b < 100
    b, g, r = (int(v) for v in out[120, 135])  # the refused die's top edge
    assert r > 150 and g < 100 and b < 100
    assert np.array_equal(frame, np.full((200, 200, 3), 255, np.uint8))  # not drawn on
