"""`companion run` as a service: scripted input, SIGTERM, and systemd notifications."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from companion.box import ButtonPressed, DeviceBack, DeviceFault, DiceSeen, TagSeen
from companion.runner import read_script
from companion.simtable import sim_uid

if TYPE_CHECKING:
    from companion.ports.display import SimDisplay


def companion(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        input=stdin,
        check=False,
    )


@pytest.fixture
def game() -> None:
    result = companion("new", "--system", "on_the_frontier")
    assert result.returncode == 0, result.stderr


def test_scripted_inputs_play_and_are_journaled(game: None, tmp_path: Path) -> None:
    script = tmp_path / "inputs.txt"
    # On the Frontier opens with the initiative roll: one d6 per side, thrown apart.
    script.write_text("# initiative\ndice d6:2\ndice d6:5\npress select\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "Tribesmen go first" in result.stdout  # the verb agrees with the side
    status = companion("status", "--json")
    # the game, the first throw (journaled: a power cut then asks for the second), the roll
    assert '"events": 3' in status.stdout


def test_unknown_chip_in_a_script_is_refused_and_nothing_recorded(
    game: None, tmp_path: Path
) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("tag 04DEADBEEF0001\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 0
    assert "Unknown chip" in result.stdout and "04DEADBEEF0001" in result.stdout
    assert '"events": 1' in companion("status", "--json").stdout


@pytest.mark.parametrize(("line", "complaint"), [
    ("juggle three dice", "cannot understand 'juggle three dice'"),
    ("press enter", "there is no button 'enter' (the buttons: up, down, select, back)"),
    ("dice d6:six", "'d6:six' is not a die written KIND:VALUE such as d6:5"),
    ("chip", "cannot understand 'chip'"),
    ("tag 04AABBCCDD", "'04AABBCCDD' has 5 bytes; an NFC chip id has 4, 7 or 10"),
    ("fail printer", "there is no device 'printer' (the devices: camera, chip reader, display)"),
    ("dice percentile:45, d10:3", "a tens die reads 00, 10, ..., 90, got 45"),
])
def test_a_bad_script_line_is_named_before_anything_is_played(
    game: None, tmp_path: Path, line: str, complaint: str
) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text(f"# initiative\ndice d6:2\ndice d6:5\n{line}\npress select\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 2
    assert f"input script {script} line 4: {complaint}" in result.stderr
    assert '"events": 1' in companion("status", "--json").stdout


def test_read_script_makes_each_line_its_input(tmp_path: Path) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("long select\nchip L1\ntag 04:ab:cd:ef\ndice d6:6, d10:0\n"
                      "fail camera\nback camera\n")
    inputs = read_script(script)
    assert inputs[:3] == [ButtonPressed("select", True), TagSeen(sim_uid("L1"), "L1"),
                          TagSeen("04ABCDEF", None)]
    assert isinstance(inputs[3], DiceSeen)
    assert [(d.kind, d.value) for d in inputs[3].dice] == [("d6", 6), ("d10", 0)]
    assert inputs[4:] == [DeviceFault("camera", "simulated failure"), DeviceBack("camera")]


def test_a_tens_die_is_scripted_as_the_box_shows_it_or_as_the_rules_count_it(
    tmp_path: Path,
) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("dice percentile:70, d10:8\ndice percentile:00, d10:5\n"
                      "dice percentile:7, d10:8\n")
    rolls = read_script(script)
    assert [[d.value for d in roll.dice] for roll in rolls if isinstance(roll, DiceSeen)] == [
        [7, 8], [0, 5], [7, 8]]


def test_a_scripted_tag_is_looked_up_among_the_enrolled_chips(tmp_path: Path) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("tag 04:aa:bb:cc\ntag 04DDEEFF\n")
    enrolled = {"04AABBCC": "Legion 1"}
    assert read_script(script, chip_name=enrolled.get) == [
        TagSeen("04AABBCC", "Legion 1"), TagSeen("04DDEEFF", None)]


def test_an_image_line_is_the_dice_read_in_that_photo_beside_the_script(tmp_path: Path) -> None:
    from companion import config
    from companion.errors import CompanionError
    from companion.vision_bridge import photo_reader

    script = tmp_path / "inputs.txt"
    script.write_text("image tray.jpg\n")
    read: list[Path] = []
    seen = DiceSeen((), (((10, 10, 30, 30), "cocked"),))

    def read_photo(path: Path) -> DiceSeen:
        read.append(path)
        return seen

    assert read_script(script, read_photo=read_photo) == [seen]
    assert read == [tmp_path / "tray.jpg"]
    with pytest.raises(CompanionError, match=f"line 1: {tmp_path / 'tray.jpg'}: no such file"):
        read_script(script, read_photo=photo_reader(config.validate({}), ("d6",)))


def test_a_run_reads_enrolled_chips_and_photos_as_the_box_does(tmp_path: Path) -> None:
    import random

    import cv2

    from companion.chips import ChipRegistry
    from companion.vision import compose_tray

    config = tmp_path / "box.toml"
    config.write_text(f'[box]\nstate_dir = "{tmp_path / "state"}"\n')
    assert companion("new", "--system", "on_the_frontier", "--config", str(config)
                     ).returncode == 0
    ChipRegistry().enroll("04AABBCC", "Ghazis", "unit").save(tmp_path / "state" / "chips.toml")
    cv2.imwrite(str(tmp_path / "two.png"), compose_tray([2], "d6", random.Random(1)))
    script = tmp_path / "inputs.txt"
    # The opening roll waits for dice: the chip is read by name, and not wanted yet.
    script.write_text("tag 04AABBCC\nimage two.png\n")
    result = companion("run", "--config", str(config), "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "Unknown chip" not in result.stdout
    assert "Chip not wanted: Ghazis read" in result.stdout
    assert "read 2 for British (throw 1 of 2)" in result.stdout


def test_a_keyboard_without_a_terminal_is_refused_not_waited_on(game: None) -> None:
    result = companion("run", "--keyboard", stdin="")
    assert result.returncode == 2
    assert "--keyboard reads keys from a terminal, but standard input is not one" in (
        result.stderr)


def test_sigterm_stops_cleanly_and_tells_systemd(game: None, tmp_path: Path) -> None:
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(30)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run"],
        env={**os.environ, "NOTIFY_SOCKET": address},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    messages = []
    try:
        while not any(m.startswith("WATCHDOG=1") for m in messages):
            messages.append(listener.recv(4096).decode())
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, err
    assert "READY=1" in messages
    assert any(m.startswith("STATUS=refereeing On the Frontier") for m in messages)
    assert "Traceback" not in err
    assert "turn" in out.lower()  # the state is printed on the way out


def test_autoplay_plays_a_whole_game(game: None) -> None:
    started = time.monotonic()
    result = companion("run", "--autoplay", "5")
    assert result.returncode == 0, result.stderr
    assert "game over" in result.stdout.lower()
    assert time.monotonic() - started < 120


# ------------------------------------------------------------------ device feeds
#
# The service's device threads step these feeds; here they are stepped by hand on
# a fake clock. A device missing or failing is reported once, retried every
# `retry_seconds`, and reported back when it answers.


class Recorder:
    def __init__(self) -> None:
        self.items: list[object] = []

    def __call__(self, item: object) -> None:
        self.items.append(item)

    def of(self, kind: type) -> list[object]:
        return [i for i in self.items if isinstance(i, kind)]


class Cable:
    """A device's cable: `plugged` decides whether it opens and answers."""

    def __init__(self) -> None:
        self.plugged = True
        self.opens = 0


class Table:
    """A tray in front of a camera on a cable, through a CameraFeed stepped on a fake
    clock at 10 frames a second. The dice reader is a perfect fake (the feed is under
    test here, not the reader): it says which dice each composed frame holds."""

    def __init__(self, values: list[int], on_frame: object = None) -> None:
        import random

        from companion.errors import HardwareError
        from companion.ports.controls import FakeClock
        from companion.runner import CameraFeed
        from companion.vision import SettleDetector, compose_tray
        from companion.vision.types import DieReading, FrameReading

        self.clock, self.posted, self.cable = FakeClock(), Recorder(), Cable()
        self.random, self.compose, self.seed = random.Random, compose_tray, 0
        self.dice: dict[int, list[int]] = {}
        self.frame = self.tray(values)
        dice, table = self.dice, self

        class Reader:
            def read(self, frame: object) -> FrameReading:
                return FrameReading(tuple(DieReading("d6", v, (i * 50, 10, 40, 40), 0.99)
                                          for i, v in enumerate(dice[id(frame)])), (), 1.0)

        class Camera:
            def capture(self) -> object:
                if not table.cable.plugged:
                    raise HardwareError("camera stopped delivering frames")
                return table.frame

            def close(self) -> None:
                pass

        def open_camera() -> Camera:
            self.cable.opens += 1
            if not self.cable.plugged:
                raise HardwareError("camera did not start")
            return Camera()

        self.feed = CameraFeed(open_camera, lambda: SettleDetector(Reader()),  # type: ignore[arg-type]
                               self.posted, clock=self.clock, retry_seconds=5.0,
                               on_frame=on_frame)  # type: ignore[arg-type]

    def tray(self, values: list[int]) -> object:
        self.seed += 1
        frame = self.compose(values, "d6", self.random(self.seed))
        self.dice[id(frame)] = values
        return frame

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds * 10)):
            self.clock.now += 0.1
            self.feed.step()

    def throw(self, values: list[int]) -> None:
        """The dice tumble (two frames with them elsewhere), then lie still for 1 s."""
        for _ in range(2):
            self.frame = self.tray(values)
            self.run(0.1)
        self.frame = self.tray(values)
        self.run(1.0)

    def seen(self) -> list[list[int]]:
        return [sorted(d.value for d in s.dice) for s in self.posted.of(DiceSeen)]  # type: ignore[attr-defined]


def test_camera_feed_reads_dice_reports_a_lost_camera_once_and_picks_it_up_again() -> None:
    table = Table([])
    table.run(1.0)
    table.throw([2, 5])
    assert table.seen() == [[2, 5]]
    table.cable.plugged = False
    table.run(30.0)
    assert len(table.posted.of(DeviceFault)) == 1  # reported once ...
    assert 5 <= table.cable.opens <= 8  # ... retried every 5 s meanwhile
    table.cable.plugged = True
    table.frame = table.tray([6])  # thrown while the camera was out: nobody saw it land
    table.run(6.0)
    assert len(table.posted.of(DeviceBack)) == 1
    assert table.seen() == [[2, 5]]
    table.throw([4])  # thrown again, in front of the camera
    assert table.seen() == [[2, 5], [4]]


def test_dice_lying_in_the_tray_across_a_camera_reconnect_are_not_a_new_throw() -> None:
    table = Table([])
    table.run(1.0)
    table.throw([2, 5])
    assert table.seen() == [[2, 5]]
    table.cable.plugged = False  # the ribbon cable slips; the dice stay where they are
    table.run(10.0)
    table.cable.plugged = True
    table.run(10.0)
    assert len(table.posted.of(DeviceBack)) == 1
    assert table.seen() == [[2, 5]]  # the same dice: not journaled as the next throw
    table.throw([3])
    assert table.seen() == [[2, 5], [3]]


def test_a_camera_opened_on_dice_already_in_the_tray_waits_for_a_throw() -> None:
    """A restart of the box while it waits for throw 2 of 2: throw 1 still lies there."""
    table = Table([5, 2])
    table.run(10.0)
    assert table.seen() == []
    table.frame = table.tray([5, 2])  # a hand sweeps the same dice aside ...
    table.run(0.1)
    table.frame = table.tray([])  # ... picks them up ...
    table.run(1.0)
    assert table.seen() == []
    table.throw([6, 1])  # ... and throws
    assert table.seen() == [[1, 6]]


def test_a_closed_camera_leaves_no_frame_for_the_chip_reader() -> None:
    from companion.runner import LatestFrame

    latest = LatestFrame()
    table = Table([], on_frame=latest.put)
    table.run(0.5)
    seq, frame = latest.wait_newer(0, 0.0)
    assert frame is table.frame and seq == 5
    assert latest.wait_newer(seq, 0.05) == (seq, frame)  # no new frame: the same, in time
    table.cable.plugged = False
    table.run(0.1)
    assert latest.get() is None and latest.wait_newer(seq, 0.0)[0] == seq + 1


def test_keyboard_mode_gives_the_terminal_back_after_ctrl_c(game: None) -> None:
    """The keyboard thread is blocked in a read when the box stops: the main thread puts
    the terminal's settings back (echo and line editing), not that thread."""
    import pty
    import termios

    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--keyboard"],
                               stdin=slave, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while termios.tcgetattr(slave)[3] & termios.ICANON:  # until the box takes the keys
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)  # Ctrl-C
        _, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        lflag = termios.tcgetattr(slave)[3]
        assert lflag & termios.ECHO and lflag & termios.ICANON
    finally:
        process.kill()
        os.close(master)
        os.close(slave)


def test_chip_feed_one_draw_per_burst_unknown_chips_and_a_pulled_reader() -> None:
    from companion.box import DeviceBack, DeviceFault, TagSeen
    from companion.chips import ChipReaderError, ChipRegistry, SimReader
    from companion.ports.controls import FakeClock
    from companion.runner import ChipFeed

    clock, posted, cable = FakeClock(), Recorder(), Cable()
    reader = SimReader(clock=clock)

    class Reader:
        def poll(self, timeout: float) -> object:
            if not cable.plugged:
                raise ChipReaderError("usb-hid reader: read failed; was it unplugged?")
            return reader.poll(timeout)

        def close(self) -> None:
            pass

    def open_reader() -> Reader:
        cable.opens += 1
        if not cable.plugged:
            raise ChipReaderError("usb-hid reader: no such device")
        return Reader()

    registry = ChipRegistry().enroll("04A1B2C3D4E5F6", "Legion 1", "unit")
    feed = ChipFeed(open_reader, lambda: registry, posted, repeat_seconds=1.5, clock=clock,
                    retry_seconds=10.0, poll_seconds=0.0)
    reader.present("04:a1:b2:c3:d4:e5:f6", repeats=5)  # a 7-byte UID read five times
    feed.step()
    reader.present("04A1B2C3D4E5F6", repeats=2)  # still lying on the reader
    clock.now += 1.0
    feed.step()
    assert posted.of(TagSeen) == [TagSeen("04A1B2C3D4E5F6", "Legion 1")]
    clock.now += 5.0
    reader.present("A1B2C3D4", repeats=3)  # 4 bytes, not enrolled
    feed.step()
    assert posted.of(TagSeen)[-1] == TagSeen("A1B2C3D4", None)
    cable.plugged = False
    for _ in range(25):
        clock.now += 1.0
        feed.step()
    assert len(posted.of(DeviceFault)) == 1 and cable.opens in (3, 4)
    cable.plugged = True
    clock.now += 10.0
    feed.step()
    assert posted.of(DeviceBack) == [DeviceBack("chip reader")]


def test_outputs_carry_on_without_a_display_and_show_the_screen_when_it_returns() -> None:
    from companion.box import DeviceBack, DeviceFault
    from companion.errors import HardwareError
    from companion.ports.controls import FakeClock
    from companion.ports.display import SimDisplay
    from companion.runner import Outputs
    from companion.ui.screens import Screen

    clock, posted, cable = FakeClock(), Recorder(), Cable()
    cable.plugged = False
    display = SimDisplay()

    def open_display() -> SimDisplay:
        cable.opens += 1
        if not cable.plugged:
            raise HardwareError("no ssd1306 display at I2C bus 1 address 0x3c")
        return display

    outputs = Outputs(open_display, None, posted, clock=clock, retry_seconds=5.0)
    for n in range(4):
        outputs.show(Screen("idle", f"Turn {n}"))
        clock.now += 2.0
    assert len(posted.of(DeviceFault)) == 1 and cable.opens == 2 and not display.frames
    cable.plugged = True
    clock.now += 5.0
    outputs.tick()
    assert posted.of(DeviceBack) == [DeviceBack("display")]
    assert len(display.frames) == 1  # the screen of the moment, at once


def test_a_frames_folder_in_a_file_is_a_lost_display_naming_the_setting(
    tmp_path: Path,
) -> None:
    from companion import config
    from companion.errors import ConfigError
    from companion.ports.controls import FakeClock
    from companion.runner import Outputs, open_display
    from companion.ui.screens import Screen

    in_the_way = tmp_path / "afile"
    in_the_way.write_text("not a folder")
    frames = in_the_way / "sub"
    cfg = config.validate({"display": {"frames_dir": str(frames)}})
    with pytest.raises(ConfigError) as refused:
        open_display(cfg)
    assert str(refused.value).startswith(
        f"[display] frames_dir = '{frames}': a file is where a folder should be; set it")
    posted = Recorder()
    outputs = Outputs(lambda: open_display(cfg), None, posted, clock=FakeClock())
    outputs.show(Screen("idle", "Turn 1"))  # the box carries on, as without a display
    [fault] = posted.of(DeviceFault)
    assert isinstance(fault, DeviceFault) and fault.device == "display"
    assert "[display] frames_dir" in fault.message

    def unplugged() -> SimDisplay:
        raise OSError(121, "Remote I/O error")

    posted = Recorder()
    Outputs(unplugged, None, posted, clock=FakeClock()).show(Screen("idle", "Turn 1"))
    assert [f.message for f in posted.of(DeviceFault)] == ["[Errno 121] Remote I/O error"]


def test_input_threads_open_the_configured_camera_and_reader(tmp_path: Path) -> None:
    """The service's own threads, as `companion run` starts them on the Pi (here
    with the files camera and the sim reader): a throw filmed frame by frame comes in
    as dice. (The tray the camera first sees is not a throw: here it is empty.)"""
    import random

    import cv2

    from companion import config
    from companion.box import DiceSeen
    from companion.runner import Stopper, _start_inputs
    from companion.vision import compose_tray

    frames = tmp_path / "frames"
    frames.mkdir()
    film = ([compose_tray([], "d6", random.Random(0))] * 15
            + [compose_tray([4], "d6", random.Random(seed)) for seed in (1, 2)]
            + [compose_tray([4], "d6", random.Random(3))] * 15)
    for number, frame in enumerate(film):
        cv2.imwrite(str(frames / f"{number:02}.png"), frame)
    (tmp_path / "box.toml").write_text(
        f'[camera]\nsource = "files"\npath = "{frames}"\n'
        '[chips]\nreader = "sim"\n'
    )
    cfg = config.load(tmp_path / "box.toml")

    class Inbox:
        def __init__(self) -> None:
            self.items: list[object] = []

        def post(self, item: object) -> None:
            self.items.append(item)

    inbox, stopper = Inbox(), Stopper()
    threads, _ = _start_inputs(cfg, inbox, stopper, lambda: ("d6",), None)  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 20
        while not any(isinstance(i, DiceSeen) for i in inbox.items):
            assert time.monotonic() < deadline, inbox.items
            time.sleep(0.05)
    finally:
        stopper.event.set()
        for thread in threads:
            thread.join(timeout=5)
    seen = next(i for i in inbox.items if isinstance(i, DiceSeen))
    assert len(seen.dice) + len(seen.unreadable) == 1  # the one die on the photo
    assert not any(t.is_alive() for t in threads)


# ------------------------------------------------------------------ setup faults
#
# A device held up by what it needs (a setting in the config, the chip registry
# file) goes down like a lost device, its thread carrying on, and the fault names
# the cause so that the screen does not send the referee to the cables.


def test_a_camera_whose_open_raises_a_vision_error_is_reported_lost() -> None:
    from companion.ports.controls import FakeClock
    from companion.runner import CameraFeed
    from companion.vision import VisionError

    clock, posted, cable = FakeClock(), Recorder(), Cable()

    def open_camera() -> object:
        cable.opens += 1
        raise VisionError("the frames folder holds no image")  # a ValueError, not ours

    feed = CameraFeed(open_camera, lambda: None, posted, clock=clock, retry_seconds=5.0)
    for _ in range(12):
        clock.now += 1.0
        assert feed.step() is False
    faults = posted.of(DeviceFault)
    assert faults == [DeviceFault("camera", "the frames folder holds no image")]
    assert cable.opens in (2, 3)  # still retried every 5 s


def test_a_dice_setting_the_reader_refuses_posts_a_fault_and_the_thread_lives(
    tmp_path: Path,
) -> None:
    """The config checks what it can (the calibration whole); the reader finds the rest
    (here: a logo-face folder that is not there) when the camera thread opens it."""
    import threading

    from companion import config
    from companion.runner import Stopper, _run_feed, make_feeds

    (tmp_path / "box.toml").write_text(
        f'[camera]\nsource = "files"\npath = "{tmp_path}"\n'
        f'[dice]\nlogo_faces_dir = "{tmp_path / "no-such-folder"}"\n'
    )
    cfg = config.load(tmp_path / "box.toml")  # accepted: the folder may be made later
    posted, stopper = Recorder(), Stopper()
    camera, _ = make_feeds(cfg, posted, lambda: ("d6",))
    thread = threading.Thread(target=_run_feed, args=(camera, stopper, 0.05), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not posted.of(DeviceFault):
            assert time.monotonic() < deadline and thread.is_alive(), posted.items
            time.sleep(0.05)
        time.sleep(0.3)
        assert thread.is_alive()
    finally:
        stopper.event.set()
        thread.join(timeout=5)
    assert not thread.is_alive()
    [fault] = posted.of(DeviceFault)
    assert isinstance(fault, DeviceFault) and fault.device == "camera"
    assert fault.message.startswith("the dice reader cannot start: the logo-face folder")
    assert fault.title == "Dice reader broken" and "does not exist" in fault.text


def test_a_broken_chip_registry_is_named_and_the_reader_left_alone(tmp_path: Path) -> None:
    from companion.chips import ChipRegistry
    from companion.ports.controls import FakeClock
    from companion.runner import SETUP_RETRY_SECONDS, ChipFeed

    clock, posted, cable = FakeClock(), Recorder(), Cable()
    registry = tmp_path / "state" / "chips.toml"
    registry.parent.mkdir()
    registry.write_text("[[[ broken\n")

    class Reader:
        def poll(self, timeout: float) -> object:
            return None

        def close(self) -> None:
            pass

    def open_reader() -> Reader:
        cable.opens += 1
        return Reader()

    feed = ChipFeed(open_reader, lambda: ChipRegistry.load(registry), posted, clock=clock,
                    retry_seconds=10.0, poll_seconds=0.0)
    assert feed.step() is False
    [fault] = posted.of(DeviceFault)
    assert isinstance(fault, DeviceFault) and fault.device == "chip reader"
    assert fault.title == "Chip registry broken"
    assert fault.text.startswith("chips.toml: not valid TOML")  # the file, by its name
    assert str(registry) in fault.message and "line 1" in fault.message
    assert cable.opens == 0  # the reader is not to blame
    registry.write_text('version = 1\n')  # mended (or enrolled again)
    clock.now += SETUP_RETRY_SECONDS
    assert feed.step() is True
    assert posted.of(DeviceBack) == [DeviceBack("chip reader")] and cable.opens == 1


def test_chips_enrolled_while_the_box_runs_are_known_at_their_first_draw(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.chips import ChipRegistry, SimReader
    from companion.ports.controls import FakeClock
    from companion.runner import ChipFeed, file_stamp

    clock, posted = FakeClock(), Recorder()
    reader = SimReader(clock=clock)
    registry = tmp_path / "chips.toml"
    ChipRegistry().enroll("04A1B2C3D4E5F6", "Legion 1", "unit").save(registry)
    feed = ChipFeed(lambda: reader, lambda: ChipRegistry.load(registry), posted, clock=clock,
                    poll_seconds=0.0, registry_stamp=lambda: file_stamp(registry))

    def draw(uid: str) -> object:
        clock.now += 5.0  # a new draw, not the same chip still on the reader
        reader.present(uid)
        feed.step()
        return posted.of(TagSeen)[-1]

    assert draw("A1B2C3D4") == TagSeen("A1B2C3D4", None)
    ChipRegistry.load(registry).enroll("A1B2C3D4", "Capt Dupont", "leader").save(registry)
    assert draw("A1B2C3D4") == TagSeen("A1B2C3D4", "Capt Dupont")  # no restart needed
    registry.write_text("[[[ half copied\n")
    assert draw("A1B2C3D4") == TagSeen("A1B2C3D4", "Capt Dupont")  # the last good one
    assert draw("04A1B2C3D4E5F6") == TagSeen("04A1B2C3D4E5F6", "Legion 1")
    assert [r.levelname for r in caplog.records if "cannot be used" in r.message] == ["WARNING"]
    assert not posted.of(DeviceFault)  # the reader itself is fine


def test_the_chip_readers_own_pin_is_driven_through_the_boxs_pin_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    from gpiozero.pins.mock import MockFactory

    from companion import config
    from companion.runner import make_feeds

    class SpiDev:  # an RC522 that answers its version register, as a real one does
        def open(self, bus: int, device: int) -> None:
            pass

        def xfer2(self, data: list[int]) -> list[int]:
            return [0, 0x92][: len(data)]

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=SpiDev))
    (tmp_path / "box.toml").write_text('[chips]\nreader = "rc522"\nrst_pin = 25\n')
    factory = MockFactory()
    _, chips = make_feeds(config.load(tmp_path / "box.toml"), Recorder(), lambda: ("d6",),
                          factory)
    assert chips.step() is True  # the reader opened and polled
    assert factory.pin(25).state == 1  # the box's factory, not gpiozero's global one
    chips.close()


def test_a_reader_that_fails_on_a_frame_is_named_not_called_a_lost_camera() -> None:
    from companion.ports.controls import FakeClock
    from companion.runner import SETUP_RETRY_SECONDS, CameraFeed
    from companion.vision.types import VisionError

    clock, posted, cable = FakeClock(), Recorder(), Cable()

    class Camera:
        def capture(self) -> object:
            return "frame"

        def close(self) -> None:
            pass

    class Detector:
        def disarm(self) -> None:
            pass

        def feed(self, frame: object, now: float) -> object:
            raise VisionError("this 640x480 frame is not the 640x640 of the calibration")

    def open_camera() -> Camera:
        cable.opens += 1
        return Camera()

    feed = CameraFeed(open_camera, Detector, posted, clock=clock, retry_seconds=5.0)
    assert feed.step() is False
    [fault] = posted.of(DeviceFault)
    assert isinstance(fault, DeviceFault) and fault.title == "Dice reader broken"
    assert fault.text.startswith("This 640x480 frame is not")
    clock.now += 10.0  # a camera retry would come now; a setting is mended by a person
    feed.step()
    assert cable.opens == 1
    clock.now += SETUP_RETRY_SECONDS
    feed.step()
    assert cable.opens == 2


def test_a_failing_device_is_reported_before_it_is_closed() -> None:
    """Closing a wedged device (a hung camera) can block: the table hears first."""
    from companion.ports.controls import FakeClock
    from companion.runner import CameraFeed

    happened: list[str] = []

    class HungCamera:
        def capture(self) -> object:
            raise OSError("camera sent no frame for 2 s")

        def close(self) -> None:
            happened.append("closed")

    class Detector:
        def disarm(self) -> None:
            pass

    feed = CameraFeed(HungCamera, Detector, lambda item: happened.append(type(item).__name__),
                      clock=FakeClock())
    assert feed.step() is False
    assert happened == ["DeviceFault", "closed"]


@pytest.fixture
def displays(monkeypatch: pytest.MonkeyPatch) -> list[SimDisplay]:
    """Every display the runner opens, a simulated one that keeps its frames: the box's
    own, then the one a stopped or refused box says why on."""
    from companion import runner
    from companion.ports.display import SimDisplay

    opened: list[SimDisplay] = []

    def open_display(cfg: object) -> SimDisplay:
        opened.append(SimDisplay())
        return opened[-1]

    monkeypatch.setattr(runner, "open_display", open_display)
    return opened


def test_a_box_that_cannot_start_says_why_on_its_display(
    tmp_path: Path, displays: list[SimDisplay]
) -> None:
    import argparse

    from companion import config, runner
    from companion.errors import JournalError

    cfg = config.validate({"box": {"state_dir": str(tmp_path / "state")}})
    with pytest.raises(JournalError, match="no game at"):
        runner.run(argparse.Namespace(ack=False, autoplay=None, script=None,
                                          keyboard=False), cfg)
    [display] = displays
    assert display.names == ["error"] and display.device.persist  # stays lit after exit
    from companion.ui.screens import Screen, render

    shown = Screen("error", "Cannot start",
                   lines=("No game at journal.sqlite3; start one with 'companion new --system "
                          "NAME' or 'companion new --scenario FILE', or pick one from the "
                          "simulated box's list with --keyboard or --script FILE.",))
    assert display.frames[0].tobytes() == render(shown).tobytes()


def test_a_second_box_process_leaves_the_running_boxs_display_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from companion import config, runner
    from companion.session.journal import Journal, JournalBusy

    opened: list[object] = []
    monkeypatch.setattr(runner, "open_display", lambda *args: opened.append(args))
    cfg = config.validate({"box": {"state_dir": str(tmp_path / "state")}})
    cfg.journal_path.parent.mkdir(parents=True)
    holder = Journal(cfg.journal_path)  # the service, writing its game
    try:
        with pytest.raises(JournalBusy, match="another box process"):
            runner.run(argparse.Namespace(ack=False, autoplay=None, script=None,
                                          keyboard=False), cfg)
    finally:
        holder.close()
    assert opened == []


@pytest.mark.parametrize(("message", "on_screen"), [
    ("no game at /var/lib/companion/journal.sqlite3; start one",
     "No game at journal.sqlite3; start one."),
    ("/etc/companion/companion.toml: not valid TOML.", "companion.toml: not valid TOML."),
    ("~/box.toml: [sounder] pin = 99", "box.toml: [sounder] pin = 99."),
])
def test_a_start_up_error_reads_as_a_sentence_with_files_by_their_names(
    message: str, on_screen: str
) -> None:
    from companion.runner import _sentence

    assert _sentence(message) == on_screen


def test_a_new_game_opens_the_camera_again_with_a_reader_made_anew() -> None:
    """A new game may roll other dice: the camera's reader is made again for it, and
    the dice lying in the tray then are not taken for a throw."""
    table = Table([])
    made: list[object] = []
    make = table.feed.make_detector
    table.feed.make_detector = lambda: made.append(make()) or made[-1]
    table.run(1.0)
    table.throw([2, 5])
    assert table.cable.opens == 1 and len(made) == 1
    table.feed.renew()  # from the main thread, as `companion run` does on a new game
    table.run(1.0)
    assert table.cable.opens == 2 and len(made) == 2
    assert table.posted.of(DeviceFault) == [] and table.seen() == [[2, 5]]
    table.throw([3])
    assert table.seen() == [[2, 5], [3]]


# ------------------------------------------------------------------ no game yet
#
# `companion run` with no game offers the box's list of games (the service on the Pi,
# a simulated box driven by a script or the keyboard), and starts the one picked.


def test_a_run_with_no_game_offers_the_list_and_a_script_picks_one(tmp_path: Path) -> None:
    import json

    script = tmp_path / "inputs.txt"
    # The list holds the five systems' examples: On the Frontier is the fifth.
    script.write_text("press down\n" * 4 + "press select\n# its opening roll\n"
                      "dice d6:2\ndice d6:5\npress select\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "new game: On the Frontier: The Ford at Kotal Drift" in result.stdout
    assert "Tribesmen go first" in result.stdout
    status = json.loads(companion("status", "--json").stdout)
    assert status["system"] == "on_the_frontier" and status["events"] == 3


def test_a_journal_whose_scenario_never_reached_it_offers_the_list(
    tmp_path: Path, isolated_box_env: Path
) -> None:
    """The power went as a game was being started: the journal was made, its first event
    (the scenario) never written. Nothing was recorded, so the box offers the list."""
    from companion.session.journal import Journal

    journal = isolated_box_env / "companion" / "journal.sqlite3"
    journal.parent.mkdir(parents=True)
    Journal(journal).close()
    script = tmp_path / "inputs.txt"
    script.write_text("press select\n")  # the first game on the list
    result = companion("run", "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "new game: Tenir le Fort: Fort Zinderneuf, two attacks" in result.stdout
    assert list(journal.parent.glob("journal-*")) == []  # nothing to archive


def test_autoplay_with_no_game_is_refused_and_writes_nothing(isolated_box_env: Path) -> None:
    result = companion("run", "--autoplay", "1")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: no game at {isolated_box_env}")
    assert "for --autoplay to play; start one first with 'companion new --system NAME'" in (
        result.stderr)
    assert list((isolated_box_env / "companion").iterdir()) == []  # no journal, no lock


# ------------------------------------------------------------------ hardware at start
#
# On a Pi the GPIO, the buzzer and the buttons open before the game is shown. Whatever
# fails, what was opened is closed (the journal's lock first of all), and the display
# says why; a buzzer alone lets the box carry on, silent.


@pytest.fixture
def handlers_restored() -> Iterator[None]:
    """`run` installs its own SIGTERM and SIGINT handlers: pytest's come back after."""
    saved = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    yield
    for number, handler in saved.items():
        signal.signal(number, handler)


class PiBox:
    """A box configured for the Pi, with gpiozero's mock pins for its GPIO and luma's
    dummy device for its display: what `companion run` showed and left behind."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pins: object) -> None:
        from companion import runner
        from companion.cli import main
        from companion.ports import pins as pin_factories
        from companion.ports.display import SimDisplay

        self.config = tmp_path / "box.toml"
        self.config.write_text(f'[box]\nhardware = "pi"\nstate_dir = "{tmp_path / "state"}"\n')
        self.journal = tmp_path / "state" / "journal.sqlite3"
        assert main(["new", "--system", "on_the_frontier", "--config", str(self.config)]) == 0
        self.displays: list[SimDisplay] = []

        def open_display(cfg: object) -> SimDisplay:
            self.displays.append(SimDisplay())
            return self.displays[-1]

        def pi_factory() -> object:
            if isinstance(pins, Exception):
                raise pins
            return pins

        monkeypatch.setattr(runner, "open_display", open_display)
        monkeypatch.setattr(pin_factories, "pi_factory", pi_factory)

    def run(self) -> int:
        from companion.cli import main

        return main(["run", "--config", str(self.config)])

    def shown(self, message: str) -> bool:
        """Whether the display shows the start-up error `message`, as a sentence."""
        from companion.runner import _sentence
        from companion.ui.screens import Screen, render

        [display] = self.displays
        expected = render(Screen("error", "Cannot start", lines=(_sentence(message),)))
        return display.names == ["error"] and display.frames[0].tobytes() == expected.tobytes()

    def journal_closed(self) -> bool:
        from companion.session.journal import writer_lock

        writer_lock(self.journal).release()  # JournalBusy if the run had kept it
        return True


def test_no_gpio_on_the_pi_is_said_on_the_display_and_the_journal_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    handlers_restored: object,
) -> None:
    from companion.errors import HardwareError

    message = ("no GPIO available (cannot open /dev/gpiochip0); on a Raspberry Pi install the "
               "'pi' extra and add the user to the gpio group, elsewhere run with COMPANION_HW=sim")
    box = PiBox(tmp_path, monkeypatch, HardwareError(message))
    assert box.run() == HardwareError.exit_code == 3
    assert capsys.readouterr().err == f"error: {message}\n"
    assert box.shown(message) and box.journal_closed()


def test_a_button_pin_in_use_is_named_on_the_display_and_everything_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    handlers_restored: object,
) -> None:
    from gpiozero import Button

    from companion.ports.pins import mock_factory

    pins = mock_factory()
    other = Button(13, pin_factory=pins)  # something else holds GPIO13, SELECT's pin
    box = PiBox(tmp_path, monkeypatch, pins)
    assert box.run() == 3
    message = capsys.readouterr().err.removeprefix("error: ").strip()
    assert message.startswith("[controls] select_pin = 13 (GPIO13) cannot be used: pin GPIO13 "
                              "is already in use; check that no other program or device uses "
                              "GPIO13")
    assert str(box.config) in message and "hardware/wiring.md" in message
    assert box.shown(message) and box.journal_closed()
    assert pins.pins == {}  # the factory closed: the buzzer's and buttons' pins let go
    other.close()


def test_a_pin_the_gpio_library_refuses_is_found_among_the_buttons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    handlers_restored: object,
) -> None:
    """lgpio's "GPIO busy" (another process has the pin) names no pin: the box finds it."""
    from gpiozero.pins.mock import MockFactory

    from companion.ports.pins import RecordingPWMPin

    class BusyDownPin(RecordingPWMPin):
        def __init__(self, factory: object, info: object) -> None:
            if getattr(info, "name", "") == "GPIO6":
                raise OSError("GPIO busy")
            super().__init__(factory, info)

    box = PiBox(tmp_path, monkeypatch, MockFactory(pin_class=BusyDownPin))
    assert box.run() == 3
    message = capsys.readouterr().err.removeprefix("error: ").strip()
    assert message.startswith("[controls] down_pin = 6 (GPIO6) cannot be used: GPIO busy;")
    assert box.shown(message) and box.journal_closed()


def test_a_buzzer_that_cannot_be_opened_leaves_the_box_silent_and_says_so(
    game: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], handlers_restored: object, displays: list[SimDisplay],
) -> None:
    import json

    from gpiozero.pins.mock import MockFactory, MockPin

    from companion.cli import main
    from companion.ports import pins
    from companion.ui.screens import Screen, render

    # Pins without PWM: the buttons work, a TonalBuzzer cannot.
    monkeypatch.setattr(pins, "mock_factory", lambda: MockFactory(pin_class=MockPin))
    script = tmp_path / "inputs.txt"
    script.write_text("press select\ndice d6:2\ndice d6:5\n")
    assert main(["run", "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert ("! Buzzer lost: buzzer failed: [sounder] pin = 18 (GPIO18) cannot be used "
            "(PinPWMUnsupported); check the buzzer's wiring and the setting, then restart the "
            "box. The box carries on silent.") in out
    assert "Tribesmen go first" in out  # the game goes on
    [display] = displays
    notice = render(Screen("error", "Buzzer lost", lines=("The box carries on silent.",),
                           footer="any button"))
    assert display.frames[1].tobytes() == notice.tobytes()  # after the game's first screen
    assert main(["status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == 3


def test_a_journal_that_stops_taking_events_stops_the_box_saying_why(
    game: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], handlers_restored: object, displays: list[SimDisplay],
) -> None:
    from companion import runner
    from companion.cli import main
    from companion.errors import JournalError
    from companion.session.journal import Journal, writer_lock
    from companion.ui.screens import Screen, render

    full = "cannot write to the journal (database or disk is full); free some space"

    def card_full(self: Journal, event: object, at: float | None = None) -> int:
        raise JournalError(full)

    monkeypatch.setattr(Journal, "append", card_full)
    script = tmp_path / "inputs.txt"
    script.write_text("dice d6:2\n")
    assert main(["run", "--script", str(script)]) == 2
    assert capsys.readouterr().err == f"error: {full}\n"
    playing, stopped = displays  # the box's own display, closed; then the last word
    assert playing.names == ["roll"]
    expected = render(Screen("error", "Box stopped", lines=(runner._sentence(full),)))
    assert stopped.frames[0].tobytes() == expected.tobytes() and stopped.device.persist
    from companion import config

    writer_lock(config.load().journal_path).release()  # the journal was let go
