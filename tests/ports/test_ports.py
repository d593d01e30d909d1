"""The hardware ports on their simulated backends, asserting on what the fakes recorded."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from companion.config import DEFAULTS, SCHEMA
from companion.errors import HardwareError
from companion.ports.camera import CAPTURE_TIMEOUT_SECONDS, FileCamera, open_camera
from companion.ports.controls import Controls, FakeClock, Press, SimPresser, key_to_press
from companion.ports.display import SimDisplay, terminal_art
from companion.ports.pins import mock_factory
from companion.ports.sounder import Sounder, make_buzzer
from companion.ui.tunes import TUNES


def frame_with_box() -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((10, 10, 20, 20), fill=1)
    return image


def test_sim_display_keeps_every_frame_as_png(tmp_path: Path) -> None:
    display = SimDisplay(tmp_path)
    display.show(frame_with_box(), "roll")
    display.show(Image.new("1", (128, 64), 0), "idle")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["frame-0001-roll.png", "frame-0002-idle.png"]
    saved = Image.open(tmp_path / files[0]).convert("1")
    assert saved.getpixel((15, 15)) and not saved.getpixel((30, 30))
    assert display.last.size == (128, 64)


def test_sim_display_prints_frames_in_the_terminal() -> None:
    printed: list[str] = []
    SimDisplay(printer=printed.append).show(frame_with_box())
    art = printed[0].splitlines()
    assert len(art) == 2 + 32 and all(len(line) == 130 for line in art)
    assert "█" in art[6] and "█" not in art[20]


def test_rotation_from_the_config_turns_the_frame() -> None:
    upside_down = SimDisplay(rotate=2)  # a box mounted with its header at the bottom
    upside_down.show(frame_with_box())
    frame = upside_down.last
    assert frame.getpixel((127 - 15, 63 - 15)) and not frame.getpixel((15, 15))


class I2cBus:
    """The I2C bus luma writes to: records every command and every data transfer."""

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.opened: tuple[int, int] | None = None
        self.commands: list[tuple[int, ...]] = []
        self.sent: list[list[int]] = []

    def open(self, port: int, address: int) -> I2cBus:
        if self.fails:
            raise OSError(121, "Remote I/O error")
        self.opened = (port, address)
        return self

    def command(self, *cmd: int) -> None:
        self.commands.append(cmd)

    def data(self, data: list[int]) -> None:
        self.sent.append(list(data))

    def cleanup(self) -> None:
        pass


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_real_oled_driver_gets_the_configured_bus_rotation_and_contrast(
    driver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import luma.core.interface.serial as serial

    from companion.ports.display import open_pi_display

    bus = I2cBus()
    monkeypatch.setattr(serial, "i2c", lambda port, address: bus.open(port, address))
    display = open_pi_display(driver, 1, 0x3D, 2, 200)
    device = display.device  # type: ignore[attr-defined]
    assert type(device).__name__ == driver and device.rotate == 2
    assert bus.opened == (1, 0x3D) and (0x81, 200) in bus.commands  # contrast
    display.show(frame_with_box())
    assert any(any(chunk) for chunk in bus.sent)  # the box's pixels went down the bus


@pytest.mark.parametrize("rotate", [1, 3])
def test_a_quarter_turn_is_refused_with_a_reason(rotate: int) -> None:
    from companion.ports.display import open_pi_display

    with pytest.raises(HardwareError, match="use 0, or 2 for a panel mounted upside down"):
        open_pi_display("ssd1306", 1, 0x3C, rotate, 255)
    with pytest.raises(HardwareError, match="64x128"):
        SimDisplay(rotate=rotate)


def test_a_missing_oled_says_how_to_check_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import luma.core.interface.serial as serial

    from companion.ports.display import open_pi_display

    bus = I2cBus(fails=True)
    monkeypatch.setattr(serial, "i2c", lambda port, address: bus.open(port, address))
    with pytest.raises(HardwareError, match=r"no sh1106 display at I2C bus 1 address 0x3c.*i2cdet"):
        open_pi_display("sh1106", 1, 0x3C, 0, 255)


def test_terminal_art_of_a_blank_frame_is_blank() -> None:
    assert set(terminal_art(Image.new("1", (128, 64), 0))) <= {"+", "-", "|", " ", "\n"}


def tune_frequencies(pin: object) -> list[float]:
    events = pin.pwm_events  # type: ignore[attr-defined]
    out: list[float] = []
    sounding: float | None = None
    for event in events:
        # A note starts when the pin begins to sound, or sounds at a new pitch.
        now = event.frequency if event.duty > 0 else None
        if now and now != sounding:
            out.append(round(now, 1))
        sounding = now
    return out


def test_sounder_plays_the_notes_on_the_pin() -> None:
    factory = mock_factory()
    sounder = Sounder(make_buzzer(18, factory), sleep=lambda s: None, background=False)
    sounder.play("test", [("A4", 0.1), (None, 0.05), ("E5", 0.1)])
    assert tune_frequencies(factory.pin(18)) == [440.0, 659.3]
    assert factory.pin(18).state == 0  # silent afterwards
    assert sounder.played == ["test"]


def test_muted_sounder_touches_no_pin() -> None:
    factory = mock_factory()
    sounder = Sounder(make_buzzer(18, factory), mute=True, sleep=lambda s: None, background=False)
    factory.pin(18).clear_states()
    sounder.play("chip", [("A4", 0.1)])
    assert tune_frequencies(factory.pin(18)) == []
    assert sounder.played == ["chip"]


def test_octave_shift_doubles_frequencies() -> None:
    factory = mock_factory()
    sounder = Sounder(
        make_buzzer(18, factory), octave_shift=1, sleep=lambda s: None, background=False
    )
    sounder.play("x", [("A4", 0.1)])
    assert tune_frequencies(factory.pin(18)) == [880.0]


@pytest.mark.parametrize("shift", [-2, 2])
def test_every_tune_plays_at_the_ends_of_the_octave_shift_range(
        shift: int, caplog: pytest.LogCaptureFixture) -> None:
    assert shift in SCHEMA["sounder"]["octave_shift"][1]  # the range's (min, max)
    factory = mock_factory()
    sounder = Sounder(make_buzzer(18, factory), octave_shift=shift, sleep=lambda s: None,
                      background=False)
    for name, notes in TUNES.items():
        sounder.play(name, notes)
    assert "buzzer failed" not in caplog.text  # a note out of range silences the tune
    played = [n for notes in TUNES.values() for n, _ in notes if n is not None]
    assert len(tune_frequencies(factory.pin(18))) >= len(set(played))


def test_a_new_tune_cuts_a_long_note_short_at_once() -> None:
    factory = mock_factory()
    sounder = Sounder(make_buzzer(18, factory), sleep=time.sleep)
    sounder.play("long", [("A4", 30.0)])
    first = sounder._thread
    sounder.play("next", [("C5", 0.01)])  # joins the first for 1 s at most
    assert first is not None and not first.is_alive()
    sounder.close()


def test_background_tune_finishes_without_blocking() -> None:
    factory = mock_factory()
    sounder = Sounder(make_buzzer(18, factory), sleep=lambda s: None)
    sounder.play("x", [("C5", 0.01), ("G5", 0.01)])
    sounder.wait()
    sounder.close()
    assert tune_frequencies(factory.pin(18)) == [523.3, 784.0]


def make_controls(kind: str = "buttons") -> tuple[Controls, SimPresser, list[Press]]:
    settings = {**DEFAULTS["controls"], "kind": kind}
    factory = mock_factory()
    clock = FakeClock()
    presses: list[Press] = []
    controls = Controls(settings, factory, presses.append, clock=clock)
    return controls, SimPresser(controls, factory, clock), presses


def test_buttons_on_their_configured_pins() -> None:
    controls, presser, presses = make_controls()
    assert controls.pins == {"up": 5, "down": 6, "select": 13, "back": 19}
    for name in ("up", "down", "select", "back"):
        presser.press(name)
    assert presses == [Press("up"), Press("down"), Press("select"), Press("back")]


def test_long_press_is_told_apart_from_a_tap() -> None:
    _, presser, presses = make_controls()
    presser.press("select", long=True)
    presser.press("select")
    assert presses == [Press("select", long=True), Press("select")]


def test_encoder_turns_move_and_push_selects() -> None:
    controls, presser, presses = make_controls("encoder")
    assert controls.pins["select"] == 26
    presser.turn(2)
    presser.turn(-1)
    presser.press("select", long=True)
    assert presses == [Press("down"), Press("down"), Press("up"), Press("select", long=True)]


def test_keyboard_stand_in() -> None:
    assert key_to_press("w") == Press("up")
    assert key_to_press("\n") == Press("select")
    assert key_to_press("M") == Press("select", long=True)
    assert key_to_press("x") is None


def test_file_camera_plays_a_folder_in_order(tmp_path: Path) -> None:
    for index in range(2):
        cv2.imwrite(str(tmp_path / f"{index}.png"), np.full((8, 8, 3), index * 100, np.uint8))
    camera = FileCamera(tmp_path)
    assert [int(camera.capture()[0, 0, 0]) for _ in range(3)] == [0, 100, 0]


def test_camera_errors_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(HardwareError, match="does not exist"):
        FileCamera(tmp_path / "nope")
    (tmp_path / "junk.jpg").write_bytes(b"not an image")
    with pytest.raises(HardwareError, match="not a readable image"):
        FileCamera(tmp_path / "junk.jpg").capture()
    with pytest.raises(HardwareError, match="needs the Pi"):
        open_camera(DEFAULTS["camera"], "sim")
    with pytest.raises(HardwareError, match="needs path"):
        open_camera({**DEFAULTS["camera"], "source": "files"}, "sim")


def test_picamera2_missing_off_the_pi_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # on a Pi too: never the real camera
    with pytest.raises(HardwareError, match="python3-picamera2"):
        open_camera(DEFAULTS["camera"], "pi")


class _FakePicamera2:
    """Records what the port asks of picamera2; `fail_on` makes one call raise."""

    made: ClassVar[list[_FakePicamera2]] = []
    fail_on: ClassVar[str] = ""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.requested: dict[str, object] = {}
        _FakePicamera2.made.append(self)

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if name == self.fail_on:
            raise RuntimeError(f"{name} failed")

    def create_video_configuration(self, main: dict[str, object]) -> dict[str, object]:
        self.requested = main
        return {"main": main}

    def configure(self, config: object) -> None:
        self._call("configure")

    def start(self) -> None:
        self._call("start")

    def capture_array(self, stream: str, wait: bool | None = None) -> object:
        self.calls.append("capture_array" if wait is None else "capture_array(wait=False)")
        return np.zeros((4, 6, 4), np.uint8) if wait is None else "job"

    def wait(self, job: object, timeout: float | None = None) -> np.ndarray:
        self.calls.append(f"wait(timeout={timeout:g})")
        if self.fail_on == "wait":
            raise TimeoutError  # what picamera2's Job.get_result raises when no frame came
        return np.zeros((4, 6, 4), np.uint8)

    def cancel_all_and_flush(self) -> None:
        self._call("cancel_all_and_flush")

    def stop(self) -> None:
        self._call("stop")

    def close(self) -> None:
        self._call("close")


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[_FakePicamera2]:
    module = type(sys)("picamera2")
    module.Picamera2 = _FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(_FakePicamera2, "made", [])
    monkeypatch.setattr(_FakePicamera2, "fail_on", "")
    return _FakePicamera2


def test_the_pi_camera_delivers_opencv_byte_order(fake_picamera2: type[_FakePicamera2]) -> None:
    camera = open_camera({**DEFAULTS["camera"], "source": "picamera2"}, "pi")
    (made,) = fake_picamera2.made
    # picamera2's "RGB888" is [B, G, R] in memory: what cv2 and the reader expect
    assert made.requested["format"] == "RGB888"
    assert camera.capture().shape == (4, 6, 3)
    camera.close()
    assert made.calls == ["configure", "start", "capture_array(wait=False)",
                          f"wait(timeout={CAPTURE_TIMEOUT_SECONDS:g})", "stop", "close"]


def test_a_hung_pi_camera_is_reported_instead_of_blocking_the_feed(
        fake_picamera2: type[_FakePicamera2]) -> None:
    camera = open_camera({**DEFAULTS["camera"], "source": "picamera2"}, "pi")
    fake_picamera2.fail_on = "wait"
    with pytest.raises(HardwareError, match=r"no frame for 2 s.*ribbon cable"):
        camera.capture()
    camera.close()
    (made,) = fake_picamera2.made
    # the stuck capture is dropped before the camera is stopped, so close() does not wait on it
    assert made.calls[-3:] == ["cancel_all_and_flush", "stop", "close"]


class _OldPicamera2(_FakePicamera2):
    """A picamera2 whose wait() takes no timeout: frames are captured as before."""

    def wait(self, job: object) -> np.ndarray:  # type: ignore[override]
        raise AssertionError("an older picamera2 is never asked to wait on a job")


def test_an_older_picamera2_still_delivers_frames(
        fake_picamera2: type[_FakePicamera2], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules["picamera2"], "Picamera2", _OldPicamera2)
    camera = open_camera({**DEFAULTS["camera"], "source": "picamera2"}, "pi")
    assert camera.capture().shape == (4, 6, 3)
    (made,) = fake_picamera2.made
    assert made.calls[-1] == "capture_array"


def test_a_pi_camera_that_fails_to_start_is_released(
        fake_picamera2: type[_FakePicamera2]) -> None:
    fake_picamera2.fail_on = "start"
    with pytest.raises(HardwareError, match="rpicam-hello"):
        open_camera({**DEFAULTS["camera"], "source": "picamera2"}, "pi")
    (made,) = fake_picamera2.made
    assert made.calls[-1] == "close"  # else the retry finds the camera busy
