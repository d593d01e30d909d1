"""`companion run`: the long-running box.

Resumes the game in the journal, opens the hardware of the configured backend,
and handles inputs on one thread until SIGTERM. Under systemd it reports
READY, STATUS and WATCHDOG through sdnotify. A device that is missing or fails
is reported once and the box carries on without it (manual dice entry, chips
picked by hand), retrying it in the background.
"""

from __future__ import annotations

import argparse
import logging
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from companion.box import Box, ButtonPressed, DeviceBack, DeviceFault, TagSeen
from companion.config import Config
from companion.errors import CompanionError, HardwareError, JournalError
from companion.ports.display import Display
from companion.session.journal import Journal
from companion.session.session import GameSession
from companion.simtable import SimTable, sim_uid
from companion.ui.screens import Screen, render
from companion.ui.tunes import TUNES

log = logging.getLogger(__name__)


class Notifier:
    """systemd notifications; does nothing outside systemd (no NOTIFY_SOCKET)."""

    def __init__(self) -> None:
        self.notifier: Any = None
        try:
            import sdnotify

            self.notifier = sdnotify.SystemdNotifier()
        except ImportError:
            self.notifier = None

    def send(self, message: str) -> None:
        if self.notifier is not None:
            self.notifier.notify(message)


class Stopper:
    """SIGTERM and SIGINT ask the loop to finish the current input and stop."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def install(self) -> None:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.event.set()


def open_session(cfg: Config) -> tuple[Journal, GameSession]:
    path = cfg.journal_path
    if not path.exists():
        raise JournalError(
            f"no game at {path}; start one with 'companion new --system NAME' "
            "or 'companion new --scenario FILE'"
        )
    journal = Journal(path)
    try:
        return journal, GameSession.resume(journal)
    except JournalError:
        journal.close()
        raise


def open_display(cfg: Config, frames_dir: Path | None, print_frames: bool) -> Display:
    from companion.ports.display import SimDisplay, open_pi_display, terminal_art

    settings = cfg["display"]
    if cfg.hardware == "pi":
        return open_pi_display(
            settings["driver"],
            settings["i2c_port"],
            settings["i2c_address"],
            settings["rotate"],
            settings["contrast"],
        )
    configured = settings["frames_dir"]
    directory = frames_dir or (Path(configured).expanduser() if configured else None)
    printer = (
        (lambda art: print(art, flush=True)) if print_frames or settings["print_frames"] else None
    )
    del terminal_art
    return SimDisplay(directory, printer, rotate=settings["rotate"])


class Outputs:
    """The display and the buzzer, as the box sees them: failures never stop a game."""

    def __init__(self, display: Display | None, sounder: Any, on_fault: Callable[[str, str], None]):
        self.display = display
        self.sounder = sounder
        self.on_fault = on_fault

    def show(self, screen: Screen) -> None:
        if self.display is None:
            return
        try:
            self.display.show(render(screen), screen.kind)
        except Exception as exc:
            self.display = None
            self.on_fault("display", str(exc))

    def play(self, name: str) -> None:
        if self.sounder is not None:
            self.sounder.play(name, TUNES[name])


def run(args: argparse.Namespace, cfg: Config) -> int:
    from companion.ports.controls import Controls, FakeClock, key_to_press
    from companion.ports.pins import mock_factory, pi_factory
    from companion.ports.sounder import Sounder, make_buzzer

    journal, session = open_session(cfg)
    is_pi = cfg.hardware == "pi"
    factory = pi_factory() if is_pi else mock_factory()
    faults: list[tuple[str, str]] = []
    try:
        display: Display | None = open_display(cfg, None, False)
    except HardwareError as exc:
        display = None
        faults.append(("display", str(exc)))
    sounder = Sounder(
        make_buzzer(cfg["sounder"]["pin"], factory),
        mute=cfg["sounder"]["mute"],
        octave_shift=cfg["sounder"]["octave_shift"],
        sleep=time.sleep if is_pi else (lambda s: None),
        background=is_pi,
    )
    ack = bool(args.ack)

    def say(line: str) -> None:
        if not ack:
            print(line, flush=True)

    box_ref: list[Box] = []
    outputs = Outputs(display, sounder, lambda d, m: box_ref[0].post(DeviceFault(d, m)))
    box = Box(session, show=outputs.show, play=outputs.play, say=say)
    box_ref.append(box)
    clock = FakeClock() if not is_pi else time.monotonic
    controls = Controls(
        cfg["controls"], factory, lambda p: box.post(ButtonPressed(p.button, p.long)), clock=clock
    )
    stopper = Stopper()
    stopper.install()
    notifier = Notifier()
    for device, message in faults:
        box.post(DeviceFault(device, message))
    kinds = tuple(kind.value for kind in session.ruleset.dice)
    threads = _start_inputs(cfg, box, stopper, kinds) if is_pi else []
    box.start()
    if ack:
        print(f"resumed {session.record.events} {session.record.fingerprint()}", flush=True)
    notifier.send("READY=1")
    notifier.send(f"STATUS=refereeing {session.ruleset.title}")
    acked = 0
    inputs = 0
    table = SimTable(box, random.Random(args.autoplay)) if args.autoplay is not None else None
    script = _script_lines(args.script) if args.script else None
    if not is_pi and table is None and script is None:
        if args.keyboard:
            threading.Thread(
                target=_keyboard, args=(box, key_to_press, stopper), daemon=True
            ).start()
        else:
            print(
                "simulated box waiting with nothing to press its buttons: add --keyboard, "
                "--script FILE or --autoplay SEED (Ctrl-C stops)",
                file=sys.stderr,
                flush=True,
            )
    last_watchdog = 0.0
    code = 0
    try:
        while not stopper.event.is_set():
            if table is not None:
                if table.finished():
                    break
                table.act()
                inputs += 1
            elif script is not None:
                line = next(script, None)
                if line is None:
                    break
                _script_input(box, line)
                inputs += 1
            box.pump(timeout=None if table or script else 0.2)
            while ack and acked < len(box.acknowledged):
                print(f"ack {box.acknowledged[acked]}", flush=True)
                acked += 1
            now = time.monotonic()
            if now - last_watchdog > 5.0:  # the unit's WatchdogSec is 30
                notifier.send("WATCHDOG=1")
                last_watchdog = now
            if args.max_inputs and inputs >= args.max_inputs:
                break
    except CompanionError:
        code = 1
        raise
    finally:
        notifier.send("STOPPING=1")
        stopper.event.set()
        for thread in threads:
            thread.join(timeout=2.0)
        controls.close()
        sounder.close()
        if display is not None:
            display.close()
        journal.close()
    if not ack:
        print("\n".join(session.describe()))
    return code


def _script_lines(path: Path) -> Any:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CompanionError(f"cannot read the input script {path} ({exc})") from None
    return iter([ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")])


def _script_input(box: Box, line: str) -> None:
    """One scripted input: 'press select', 'long select', 'chip NAME', 'tag UID',
    'dice d6:6,d6:5', 'fail camera', 'back camera'."""
    from companion.box import DiceSeen, SeenDie

    word, _, rest = line.partition(" ")
    if word in ("press", "long"):
        box.handle(ButtonPressed(rest.strip(), word == "long"))
    elif word == "chip":
        box.handle(TagSeen(sim_uid(rest.strip()), rest.strip()))
    elif word == "tag":
        box.handle(TagSeen(rest.strip(), None))
    elif word == "dice":
        dice = []
        for i, item in enumerate(rest.replace(" ", "").split(",")):
            kind, _, value = item.partition(":")
            dice.append(SeenDie(kind, int(value), (i * 40, 0, 30, 30)))
        box.handle(DiceSeen(tuple(dice)))
    elif word == "fail":
        box.handle(DeviceFault(rest.strip(), "simulated failure"))
    elif word == "back":
        box.handle(DeviceBack(rest.strip()))
    else:
        raise CompanionError(f"input script: cannot understand {line!r}")


def _keyboard(box: Box, key_to_press: Callable[[str], Any], stopper: Stopper) -> None:
    import termios
    import tty

    if not sys.stdin.isatty():
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while not stopper.event.is_set():
            key = sys.stdin.read(1)
            if not key:
                break
            press = key_to_press(key)
            if press is not None:
                box.post(ButtonPressed(press.button, press.long))
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


class LatestFrame:
    """The camera's newest frame, shared with the ArUco chip reader."""

    def __init__(self) -> None:
        self.frame: Any = None
        self.lock = threading.Lock()

    def put(self, frame: Any) -> None:
        with self.lock:
            self.frame = frame

    def get(self) -> Any:
        with self.lock:
            return self.frame


def _start_inputs(
    cfg: Config, box: Box, stopper: Stopper, kinds: tuple[str, ...]
) -> list[threading.Thread]:
    """Reader and camera threads: they post to the box and retry failed devices."""
    latest = LatestFrame()
    threads = [
        threading.Thread(
            target=_chip_loop, args=(cfg, box, stopper, latest), name="chips", daemon=True
        ),
        threading.Thread(
            target=_camera_loop, args=(cfg, box, stopper, latest), name="camera", daemon=True
        ),
    ]
    for thread in threads:
        thread.start()
    return threads


def _chip_loop(cfg: Config, box: Box, stopper: Stopper, latest: LatestFrame) -> None:
    from companion.chips import ChipRegistry, DrawDetector, open_reader

    settings = cfg["chips"]
    registry_path = Path(settings["registry"] or cfg.state_dir / "chips.toml")
    detector = DrawDetector(float(settings["repeat_seconds"]))
    while not stopper.event.is_set():
        try:
            registry = ChipRegistry.load(registry_path)
            reader = open_reader(settings["reader"], settings, camera_frames=latest.get)
        except CompanionError as exc:
            box.post(DeviceFault("chip reader", str(exc)))
            stopper.event.wait(10.0)
            continue
        box.post(DeviceBack("chip reader"))
        try:
            while not stopper.event.is_set():
                read = reader.poll(0.5)
                if read is None:
                    continue
                draw = detector.feed(read)
                if draw is not None:
                    entry = registry.lookup(draw.uid)
                    box.post(TagSeen(draw.uid, entry.name if entry else None))
        except Exception as exc:
            box.post(DeviceFault("chip reader", str(exc)))
            stopper.event.wait(5.0)
        finally:
            reader.close()


def _camera_loop(
    cfg: Config, box: Box, stopper: Stopper, latest: LatestFrame, kinds: tuple[str, ...]
) -> None:
    from companion.ports.camera import open_camera
    from companion.vision_bridge import reading_to_seen, settle_detector

    while not stopper.event.is_set():
        try:
            camera = open_camera(cfg["camera"], cfg.hardware)
        except HardwareError as exc:
            box.post(DeviceFault("camera", str(exc)))
            stopper.event.wait(10.0)
            continue
        box.post(DeviceBack("camera"))
        detector = settle_detector(cfg, kinds)
        try:
            while not stopper.event.is_set():
                frame = camera.capture()
                latest.put(frame)
                reading = detector.feed(frame, time.monotonic())
                if reading is not None:
                    box.post(reading_to_seen(reading))
        except Exception as exc:
            box.post(DeviceFault("camera", str(exc)))
            stopper.event.wait(5.0)
        finally:
            camera.close()
