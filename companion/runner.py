"""`companion run`: the long-running box.

Resumes the game in the journal (with none yet, the box offers its list of games),
opens the hardware of the configured backend, and handles inputs on one thread until
SIGTERM. The journal is held here (`GameKeeper`): a new game started from the box's
menu archives the game so far through it. Under systemd it reports
READY, STATUS and WATCHDOG through sdnotify. A device that is missing or fails
is reported once and the box carries on without it (manual dice entry, chips
picked by hand), retrying it in the background.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import random
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from companion.box import (
    Box,
    BoxInput,
    ButtonPressed,
    DeviceBack,
    DeviceFault,
    DiceSeen,
    NewGames,
    SeenDie,
    TagSeen,
    per_throw,
)
from companion.config import Config
from companion.errors import CompanionError, ConfigError, HardwareError, JournalError
from companion.ports.display import Display
from companion.rules.core import DieKind
from companion.session.journal import JournalBusy
from companion.session.keeper import GameKeeper
from companion.session.session import GameSession
from companion.simtable import SimTable, sim_uid
from companion.ui.screens import Screen, render
from companion.ui.tunes import notes_of

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


def why_no_game_can_be_picked(args: argparse.Namespace, cfg: Config) -> str | None:
    """Why a box with no game cannot offer its list of games in this run, or None: a
    simulated box with nothing to press its buttons would wait for ever, and --autoplay
    plays the game in the journal rather than pick one of its own (a soak or crash test
    meant for one game would quietly play another)."""
    path = cfg.journal_path
    if args.autoplay is not None:
        return (f"no game at {path} for --autoplay to play; start one first with 'companion "
                "new --system NAME' or 'companion new --scenario FILE'")
    if cfg.hardware == "pi" or args.keyboard or args.script:
        return None
    return (f"no game at {path}; start one with 'companion new --system NAME' or 'companion "
            "new --scenario FILE', or pick one from the simulated box's list with --keyboard "
            "or --script FILE")


def open_display(cfg: Config) -> Display:
    from companion.ports.display import SimDisplay, open_pi_display

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
    directory = Path(configured).expanduser() if configured else None
    printer = (lambda art: print(art, flush=True)) if settings["print_frames"] else None
    try:
        return SimDisplay(directory, printer, rotate=settings["rotate"])
    except OSError as exc:  # the folder for the frames: a file in the way, no permission
        if isinstance(exc, (FileExistsError, NotADirectoryError)):  # "File exists" misleads
            problem = "a file is where a folder should be"
        else:
            where = "" if exc.filename in (None, str(directory)) else f"{exc.filename}: "
            problem = f"{where}{exc.strerror or exc}"
        raise ConfigError(f"[display] frames_dir = {configured!r}: {problem}; set it to a "
                          "folder that can be written, or leave it empty to keep no frames"
                          ) from None


class SetupFault(CompanionError):
    """A device cannot start because of what it needs, not the device: a setting in the
    config, the chip registry file. The box's screen names that (`title`, `text`)
    instead of saying the device is lost, which sends the referee to the cables."""

    def __init__(self, message: str, title: str, text: str = "") -> None:
        super().__init__(message)
        self.title = title
        self.text = text


#: How often a device held up by a setup fault (a bad setting, a broken file) is tried again.
SETUP_RETRY_SECONDS = 60.0


def _sentence(text: str) -> str:
    """An error's message as a sentence for the screen: paths by their file names (the
    log has them whole; the OLED has three short lines)."""
    text = text.strip().rstrip(".")
    first_word = text.split(maxsplit=1)[0] if text else ""
    if not re.search(r"[./]", first_word):  # a file's name keeps its case
        text = f"{text[:1].upper()}{text[1:]}"
    text = f"{text}."
    return re.sub(r"(?<![^\s'\"(])~?/(?:[^\s/]+/)*([^\s/]+)", r"\1", text)


def show_start_error(cfg: Config, message: str, title: str = "Cannot start") -> None:
    """A box that cannot start (no game, a damaged journal) says why on its display
    when it has one: nobody at the table reads the log. The frame stays on the panel
    after the process exits."""
    try:
        display = open_display(cfg)
    except Exception:  # no display either: the log has the error
        log.debug("no display for the start-up error", exc_info=True)
        return
    try:
        display.show(render(Screen("error", title, lines=(_sentence(message),))),
                     "error")
        device = getattr(display, "device", None)
        if device is not None:
            device.persist = True  # else luma blanks the panel at exit
    except Exception:
        log.debug("the start-up error did not reach the display", exc_info=True)
    finally:
        display.close()


class DeviceFeed:
    """One device as an input of the box, stepped by its own thread on the Pi (or
    by the sim, in order). A device missing at start or failing later is reported
    once, closed, and opened again every `retry_seconds` until it answers; then
    the box is told it is back. Subclasses say how to open and read it."""

    device = "device"

    def __init__(self, post: Callable[[BoxInput], None], clock: Callable[[], float],
                 retry_seconds: float) -> None:
        self.post = post
        self.clock = clock
        self.retry_seconds = retry_seconds
        self.handle: Any = None
        self.retry_at = 0.0
        self.down = False  # reported as lost, not yet back

    def step(self) -> bool:
        """Open the device if it is due, then read it once; False while it is down
        (the caller waits before the next step)."""
        now = self.clock()
        if self.handle is None:
            if now < self.retry_at:
                return False
            try:
                self.handle = self._open()
            except SetupFault as exc:
                self._lost(str(exc), now, exc.title, exc.text)
                return False
            except Exception as exc:  # whatever a driver raises: the device is down
                if not isinstance(exc, (CompanionError, ValueError)):  # not a user's error
                    log.warning("%s did not open", self.device, exc_info=True)
                self._lost(str(exc) or type(exc).__name__, now)
                return False
            if self.down:
                self.down = False
                self.post(DeviceBack(self.device))
        try:
            self._read(now)
        except SetupFault as exc:  # the device answers, but what reads it cannot
            self._lost(str(exc), now, exc.title, exc.text)
            self.close()
            return False
        except Exception as exc:  # unplugged mid-game: anything the driver raises
            # Said before the close: closing a wedged device can block for a long time,
            # and the table should hear of it at once.
            self._lost(str(exc) or type(exc).__name__, now)
            self.close()
            return False
        return True

    def _lost(self, message: str, now: float, title: str = "", text: str = "") -> None:
        # A setup fault mends only when someone edits a file: try it again less often
        # (each try of the camera's loads the dice models).
        self.retry_at = now + (max(self.retry_seconds, SETUP_RETRY_SECONDS) if title
                               else self.retry_seconds)
        if not self.down:
            self.down = True
            self.post(DeviceFault(self.device, message, title, text))

    def close(self) -> None:
        handle, self.handle = self.handle, None
        if handle is not None:
            try:
                handle.close()
            except Exception:  # already gone: nothing left to release
                log.debug("%s close failed", self.device, exc_info=True)

    def _open(self) -> Any:
        raise NotImplementedError

    def _read(self, now: float) -> None:
        raise NotImplementedError


class CameraFeed(DeviceFeed):
    """Tray frames through the settle detector and the dice reader.

    Each open makes a new detector, disarmed: the dice lying in the tray when the camera
    starts (a reconnect, a restart of the box) are the last throw, not a new one; only
    the next throw (movement, then stillness) is reported. `on_frame` gets each frame,
    and None when the camera closes (its frames are gone)."""

    device = "camera"

    def __init__(self, open_camera: Callable[[], Any], make_detector: Callable[[], Any],
                 post: Callable[[BoxInput], None], *, clock: Callable[[], float] = time.monotonic,
                 retry_seconds: float = 5.0, on_frame: Callable[[Any], None] | None = None) -> None:
        super().__init__(post, clock, retry_seconds)
        self.open_camera = open_camera
        self.make_detector = make_detector
        self.on_frame = on_frame
        self.detector: Any = None
        self._renew = threading.Event()

    def renew(self) -> None:
        """Start the camera again before its next frame, with a dice reader made anew: a
        new game may roll other dice. Any thread may ask; the camera's own does it."""
        self._renew.set()

    def step(self) -> bool:
        if self._renew.is_set():
            self._renew.clear()
            self.close()  # opened again at once, below
        return super().step()

    def _open(self) -> Any:
        try:  # a fresh start: the tray may have moved
            detector = self.make_detector()
        except Exception as exc:  # a bad [dice] setting: VisionError, a ValueError
            if not isinstance(exc, (CompanionError, ValueError)):  # not a user's error
                log.warning("the dice reader did not start", exc_info=True)
            detail = str(exc) or type(exc).__name__
            raise SetupFault(f"the dice reader cannot start: {detail}", "Dice reader broken",
                             _sentence(detail)) from exc
        camera = self.open_camera()
        detector.disarm()  # what the tray holds now was thrown before this camera looked
        self.detector = detector
        return camera

    def close(self) -> None:
        super().close()
        if self.on_frame is not None:
            self.on_frame(None)  # no frame while closed: the chip reader must not see the last

    def _read(self, now: float) -> None:
        from companion.vision_bridge import reading_to_seen

        frame = self.handle.capture()
        if self.on_frame is not None:
            self.on_frame(frame)
        try:
            reading = self.detector.feed(frame, now)
        except Exception as exc:
            # The reader, not the camera: a frame of another shape than the calibration
            # (the [camera] size changed), a model giving nonsense. The screen says so
            # rather than sending the referee to the cable.
            if not isinstance(exc, (CompanionError, ValueError)):  # not a user's error
                log.warning("the dice reader failed on a frame", exc_info=True)
            detail = str(exc) or type(exc).__name__
            raise SetupFault(f"the dice reader failed: {detail}", "Dice reader broken",
                             _sentence(detail)) from exc
        if reading is not None:
            self.post(reading_to_seen(reading, self.detector.last_report_nudged))


class ChipFeed(DeviceFeed):
    """Tag reads through the draw detector (one draw, one event) and the registry."""

    device = "chip reader"

    def __init__(self, open_reader: Callable[[], Any], load_registry: Callable[[], Any],
                 post: Callable[[BoxInput], None], *, repeat_seconds: float = 1.5,
                 clock: Callable[[], float] = time.monotonic, retry_seconds: float = 10.0,
                 poll_seconds: float = 0.5,
                 registry_stamp: Callable[[], object] = lambda: None) -> None:
        from companion.chips import DrawDetector

        super().__init__(post, clock, retry_seconds)
        self.open_reader = open_reader
        self.load_registry = load_registry
        self.registry_stamp = registry_stamp
        self.detector = DrawDetector(repeat_seconds)
        self.poll_seconds = poll_seconds
        self.registry: Any = None
        self.loaded_stamp: object = None  # the registry file as it was when loaded
        self.refused_stamp: object = None  # a changed file that could not be loaded

    def _open(self) -> Any:
        try:
            self.loaded_stamp = self.registry_stamp()
            self.registry = self.load_registry()
        except Exception as exc:  # the registry file, not the reader: say so on the screen
            detail = str(exc) or type(exc).__name__
            raise SetupFault(f"the chip registry cannot be used: {detail}",
                             "Chip registry broken",
                             f"{_sentence(detail)} Fix the file or enrol the chips "
                             "again.") from exc
        return self.open_reader()

    def _read(self, now: float) -> None:
        read = self.handle.poll(self.poll_seconds)
        while read is not None:
            draw = self.detector.feed(read)
            if draw is not None:
                entry = self._current_registry().lookup(draw.uid)
                self.post(TagSeen(draw.uid, entry.name if entry else None))
            read = self.handle.poll(0.0)


    def _current_registry(self) -> Any:
        """The registry as its file is now: chips enrolled while the box runs (a sticker
        sheet printed with --registry, a file copied in) are known at their first draw.
        A changed file that cannot be loaded (half copied, a typo) leaves the last good
        registry in use; the log says why, once per version of the file."""
        stamp = self.registry_stamp()
        if stamp == self.loaded_stamp:
            return self.registry
        try:
            registry = self.load_registry()
        except Exception as exc:  # the file being edited: not a reason to lose the reader
            if stamp != self.refused_stamp:
                self.refused_stamp = stamp
                log.warning("the chip registry changed but cannot be used, so the one "
                            "loaded before stays in use: %s", exc)
            return self.registry
        self.registry, self.loaded_stamp = registry, stamp
        return registry


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when a file is written or replaced (modified time, size, inode);
    None while there is none."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


class Outputs:
    """The display and the buzzer, as the box sees them: failures never stop a game.

    A display that is missing or fails is reported once; the box carries on
    (the buzzer still sounds) and the display is opened again every
    `retry_seconds`, showing the current screen as soon as it answers.
    """

    device = "display"

    def __init__(self, open_display: Callable[[], Display], sounder: Any,
                 post: Callable[[BoxInput], None], *, clock: Callable[[], float] = time.monotonic,
                 retry_seconds: float = 5.0) -> None:
        self.open_display = open_display
        self.sounder = sounder
        self.post = post
        self.clock = clock
        self.retry_seconds = retry_seconds
        self.display: Display | None = None
        self.retry_at = 0.0
        self.down = False
        self.screen: Screen | None = None

    def show(self, screen: Screen) -> None:
        self.screen = screen
        if self.display is None and not self._reopen():
            return
        assert self.display is not None
        try:
            self.display.show(render(screen), screen.kind)
        except Exception as exc:  # unplugged, I2C error: anything luma raises
            self._lost(str(exc) or type(exc).__name__)

    def tick(self) -> None:
        """Try a lost display again when it is due (the main loop calls this)."""
        if self.display is None and self.screen is not None and self._reopen():
            self.show(self.screen)

    def _reopen(self) -> bool:
        if self.clock() < self.retry_at:
            return False
        try:
            self.display = self.open_display()
        except Exception as exc:  # whatever a driver raises: the game goes on without it
            if not isinstance(exc, (CompanionError, ValueError)):  # not a user's error
                log.warning("the display did not open", exc_info=True)
            self._lost(str(exc) or type(exc).__name__)
            return False
        if self.down:
            self.down = False
            self.post(DeviceBack(self.device))
        return True

    def _lost(self, message: str) -> None:
        if self.display is not None:
            try:
                self.display.close()
            except Exception:
                log.debug("display close failed", exc_info=True)
        self.display = None
        self.retry_at = self.clock() + self.retry_seconds
        if not self.down:
            self.down = True
            self.post(DeviceFault(self.device, message))

    def play(self, name: str) -> None:
        if self.sounder is not None:
            self.sounder.play(name, notes_of(name))

    def close(self) -> None:
        if self.display is not None:
            self.display.close()


#: Every kind of die, for the camera and scripted photos while no game says which it rolls.
ALL_DICE = tuple(kind.value for kind in DieKind)


def open_pins(cfg: Config) -> Any:
    """The GPIO pin factory: the Pi's, or a mock one that records what the pins do."""
    from companion.ports.pins import mock_factory, pi_factory

    return pi_factory() if cfg.hardware == "pi" else mock_factory()


def open_sounder(cfg: Config, factory: Any) -> tuple[Any, DeviceFault | None]:
    """The buzzer, or None and the fault to report when its pin cannot be used: the box
    then carries on silent, as without any other lost device."""
    from companion.ports.sounder import Sounder, make_buzzer

    settings = cfg["sounder"]
    is_pi = cfg.hardware == "pi"
    try:
        buzzer = make_buzzer(settings["pin"], factory)
    except Exception as exc:  # whatever gpiozero or the pin library raises
        log.warning("the buzzer did not open", exc_info=True)
        pin = int(settings["pin"])
        return None, DeviceFault("buzzer", f"[sounder] pin = {pin} (GPIO{pin}) cannot be used "
                                 f"({_gpio_problem(exc)}); check the buzzer's wiring and the "
                                 "setting, then restart the box")
    return Sounder(buzzer, mute=settings["mute"], octave_shift=settings["octave_shift"],
                   sleep=time.sleep if is_pi else (lambda s: None), background=is_pi), None


def control_pins(settings: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The [controls] settings in use and their pins, in the order the controls open them."""
    from companion.ports.controls import BUTTONS

    kind = settings["kind"]
    keys = [f"{name}_pin" for name in BUTTONS] if kind in ("buttons", "both") else []
    if kind in ("encoder", "both"):
        keys += ["encoder_a_pin", "encoder_b_pin"]
    if kind == "encoder":
        keys.append("encoder_push_pin")
    return [(key, int(settings[key])) for key in keys]


def _gpio_problem(exc: Exception) -> str:
    """What a pin library said, without the device's repr gpiozero adds to "in use"."""
    return re.sub(r" by <.*", "", str(exc)).strip() or type(exc).__name__


def open_controls(cfg: Config, factory: Any, on_press: Callable[[Any], None],
                  clock: Callable[[], float]) -> Any:
    """The buttons (or the encoder); HardwareError naming the setting and pin that failed
    (taken by another process or device, not a GPIO of this board) when they cannot be
    used: a box without its buttons cannot be refereed with."""
    from companion.ports.controls import Controls

    settings = cfg["controls"]
    try:
        return Controls(settings, factory, on_press, clock=clock)
    except Exception as exc:  # GPIOPinInUse, PinInvalidPin, lgpio's "GPIO busy"...
        log.warning("the controls did not open", exc_info=True)
        pins = control_pins(settings)
        failed = _failed_pin(exc, factory, pins)
        where = f" in {cfg.path}" if cfg.path else ""
        if failed is None:
            listed = ", ".join(f"{key} = {pin}" for key, pin in pins)
            raise HardwareError(
                f"the buttons cannot be used ({_gpio_problem(exc)}); check the [controls] "
                f"pins{where} ({listed}) against the wiring (hardware/wiring.md)") from None
        key, pin = failed
        raise HardwareError(
            f"[controls] {key} = {pin} (GPIO{pin}) cannot be used: {_gpio_problem(exc)}; "
            f"check that no other program or device uses GPIO{pin} (another box process, a "
            "dtoverlay in /boot/firmware/config.txt) and that the setting"
            f"{where} matches the wiring (hardware/wiring.md)") from None


def _failed_pin(exc: Exception, factory: Any, pins: list[tuple[str, int]]
                ) -> tuple[str, int] | None:
    """Which of the controls' pins failed: the one the error names, else the first the
    factory still cannot open (those opened before it answer from its cache)."""
    named = {int(number) for number in re.findall(r"\bGPIO(\d+)\b", str(exc))}
    found = next((item for item in pins if item[1] in named), None)
    if found is not None:
        return found
    for item in pins:
        try:
            factory.pin(item[1])
        except Exception:  # the same failure again: this is the pin
            return item
    return None


@dataclass
class Running:
    """A started box and what its main loop drives: inputs from the table (`table`, a
    simulated one for --autoplay), a `script`, or the buttons and devices."""

    keeper: GameKeeper
    box: Box
    outputs: Outputs
    stopper: Stopper
    notifier: Notifier
    table: SimTable | None = None
    script: Iterator[BoxInput] | None = None


def run(args: argparse.Namespace, cfg: Config) -> int:
    """The box until SIGTERM (or the end of a script or an autoplayed game). Whatever it
    opened is closed however it ends, and why it could not start, or stopped, is said on
    the display too: nobody at the table reads the log."""
    if args.keyboard and cfg.hardware != "pi" and not sys.stdin.isatty():
        raise CompanionError("--keyboard reads keys from a terminal, but standard input is "
                             "not one: run it in a terminal, or give --script FILE")
    running: Running | None = None
    try:
        with contextlib.ExitStack() as stack:
            running = _start(args, cfg, stack)
            _serve(args, running)
    except CompanionError as exc:
        if running is not None:  # a journal that stopped taking events (a full card)
            show_start_error(cfg, str(exc), title="Box stopped")
        raise
    session = running.keeper.session
    if not args.ack and session is not None:
        print("\n".join(session.describe()))
    return 0


def _start(args: argparse.Namespace, cfg: Config, stack: contextlib.ExitStack) -> Running:
    """Open the journal, the hardware and the inputs, each closed by `stack` however the
    run ends, and start the box. A start it cannot make is said on the display."""
    from companion.ports.controls import FakeClock, key_to_press
    from companion.session.scenario_files import scenario_choices
    from companion.vision_bridge import photo_reader

    is_pi = cfg.hardware == "pi"
    try:
        keeper = GameKeeper.open(cfg.journal_path)
    except JournalBusy:
        raise  # the display belongs to the box process that holds the journal
    except CompanionError as exc:
        show_start_error(cfg, str(exc))
        raise
    stack.callback(keeper.close)
    refusal = why_no_game_can_be_picked(args, cfg) if keeper.session is None else None
    if refusal is not None:
        show_start_error(cfg, refusal)
        raise JournalError(refusal)
    try:
        factory = open_pins(cfg)
    except CompanionError as exc:
        show_start_error(cfg, str(exc))
        raise
    stack.callback(factory.close)
    sounder, buzzer_fault = open_sounder(cfg, factory)
    if sounder is not None:
        stack.callback(sounder.close)
    ack = bool(args.ack)

    def say(line: str) -> None:
        if not ack:
            print(line, flush=True)

    boxes: list[Box] = []  # the box, once made: the outputs post to it
    outputs = Outputs(lambda: open_display(cfg), sounder, lambda item: boxes[0].post(item))
    stack.callback(outputs.close)
    notifier = Notifier()
    camera: CameraFeed | None = None

    def dice_kinds() -> tuple[str, ...]:
        session = keeper.session
        return tuple(k.value for k in session.ruleset.dice) if session else ALL_DICE

    def start_game(scenario_toml: str, scenario_name: str) -> GameSession:
        session, archived = keeper.start(scenario_toml, scenario_name)
        if archived is not None:
            say(f"  the last game is archived at {archived}")
        notifier.send(f"STATUS=refereeing {session.ruleset.title}")
        if camera is not None:
            camera.renew()  # its dice reader, for the dice of this game
        return session

    box = Box(keeper.session, show=outputs.show, play=outputs.play, say=say,
              most_per_throw=per_throw(cfg["dice"]),
              games=NewGames(lambda: scenario_choices(cfg.scenarios_dir), start_game))
    boxes.append(box)
    clock = FakeClock() if not is_pi else time.monotonic
    try:
        controls = open_controls(cfg, factory,
                                 lambda p: box.post(ButtonPressed(p.button, p.long)), clock)
    except CompanionError as exc:
        show_start_error(cfg, str(exc))
        raise
    stack.callback(controls.close)
    stopper = Stopper()
    stopper.install()
    if is_pi:
        threads, camera = _start_inputs(cfg, box, stopper, dice_kinds, factory)
        stack.callback(_join_all, threads)
    stack.callback(stopper.event.set)  # before the threads are joined
    stack.callback(notifier.send, "STOPPING=1")
    box.start()
    if buzzer_fault is not None:
        box.handle(buzzer_fault)
    session = keeper.session
    if ack and session is not None:
        print(f"resumed {session.record.events} {session.record.fingerprint()}", flush=True)
    notifier.send("READY=1")
    notifier.send(f"STATUS=refereeing {session.ruleset.title}" if session is not None
                  else "STATUS=waiting for a game to be picked on the box")
    running = Running(keeper, box, outputs, stopper, notifier)
    if args.autoplay is not None:
        running.table = SimTable(box, random.Random(args.autoplay))
    elif args.script:
        running.script = iter(read_script(args.script, chip_name=enrolled_names(cfg),
                                          read_photo=photo_reader(cfg, dice_kinds())))
    elif args.keyboard and not is_pi:
        terminal = _keys_unbuffered(sys.stdin.fileno())
        # here, not in the keyboard thread: it is stuck reading when the box stops
        stack.callback(_restore_terminal, sys.stdin.fileno(), terminal)
        threading.Thread(target=_keyboard, args=(box, key_to_press, stopper),
                         daemon=True).start()
    elif not is_pi:
        print("simulated box waiting with nothing to press its buttons: add --keyboard, "
              "--script FILE or --autoplay SEED (Ctrl-C stops)", file=sys.stderr, flush=True)
    return running


def _serve(args: argparse.Namespace, running: Running) -> None:
    """The main loop: one input from the table or the script at a time, or what the
    buttons and devices post, until stopped."""
    box, table, script = running.box, running.table, running.script
    acked = 0
    inputs = 0
    last_watchdog = 0.0
    while not running.stopper.event.is_set():
        if table is not None:
            if table.finished():
                break
            table.act()
            inputs += 1
        elif script is not None:
            scripted = next(script, None)
            if scripted is None:
                break
            box.handle(scripted)
            inputs += 1
        box.pump(timeout=None if table or script else 0.2)
        running.outputs.tick()
        while args.ack and acked < len(box.acknowledged):
            print(f"ack {box.acknowledged[acked]}", flush=True)
            acked += 1
        now = time.monotonic()
        if now - last_watchdog > 5.0:  # the unit's WatchdogSec is 30
            running.notifier.send("WATCHDOG=1")
            last_watchdog = now
        if args.max_inputs and inputs >= args.max_inputs:
            break


def _join_all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(timeout=2.0)


SCRIPT_LINES = ("'press BUTTON', 'long BUTTON', 'chip NAME', 'tag UID', "
                "'dice KIND:VALUE,KIND:VALUE...', 'image PHOTO', 'fail DEVICE' or "
                "'back DEVICE'")

#: The devices a script may fail and bring back: those the box watches.
DEVICES = (CameraFeed.device, ChipFeed.device, Outputs.device)


def _nobody_enrolled(uid: str) -> str | None:
    return None


def read_script(path: Path, *, chip_name: Callable[[str], str | None] = _nobody_enrolled,
                read_photo: Callable[[Path], DiceSeen] | None = None) -> list[BoxInput]:
    """Every input of a script, checked before the game is touched, so that a bad line is
    named by its number and no event of the script is journaled before it is found.

    `chip_name` is the enrolled name of a chip id (a `tag` line); `read_photo` reads the
    dice in a photo (an `image` line, its path taken from the script's folder)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CompanionError(f"cannot read the input script {path} ({exc})") from None
    inputs = []
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            inputs.append(_script_input(line, path.parent, chip_name, read_photo))
        except ValueError as exc:
            raise CompanionError(
                f"input script {path} line {number}: {exc}; a line is {SCRIPT_LINES}, "
                "and # starts a comment") from None
    return inputs


def _script_input(line: str, folder: Path, chip_name: Callable[[str], str | None],
                  read_photo: Callable[[Path], DiceSeen] | None) -> BoxInput:
    from companion.argtypes import tens_die
    from companion.chips import normalize_uid
    from companion.ports.controls import BUTTONS

    word, _, rest = line.partition(" ")
    rest = rest.strip()
    if word in ("press", "long"):
        if rest not in BUTTONS:
            raise ValueError(f"there is no button {rest!r} (the buttons: {', '.join(BUTTONS)})")
        return ButtonPressed(rest, word == "long")
    if word == "chip" and rest:
        return TagSeen(sim_uid(rest), rest)
    if word == "tag" and rest:
        uid = normalize_uid(rest)  # what a reader would report, as `chips enroll` takes it
        return TagSeen(uid, chip_name(uid))
    if word in ("fail", "back") and rest:
        if rest not in DEVICES:
            raise ValueError(f"there is no device {rest!r} (the devices: {', '.join(DEVICES)})")
        return DeviceFault(rest, "simulated failure") if word == "fail" else DeviceBack(rest)
    if word == "image" and rest and read_photo is not None:
        return read_photo(folder / Path(rest).expanduser())
    if word == "dice" and rest:
        dice = []
        for index, item in enumerate(rest.replace(" ", "").split(",")):
            kind, _, value = item.partition(":")
            if not kind or not value.lstrip("-").isdigit():
                raise ValueError(f"{item!r} is not a die written KIND:VALUE such as d6:5")
            # A tens die as the box shows it (percentile:70), or as the rules count it (:7).
            face = tens_die(value) if kind == "percentile" else int(value)
            dice.append(SeenDie(kind, face, (index * 40, 0, 30, 30)))
        return DiceSeen(tuple(dice))
    raise ValueError(f"cannot understand {line!r}")


def enrolled_names(cfg: Config) -> Callable[[str], str | None]:
    """A chip id's enrolled name, from the registry the chip reader's feed uses; read at
    the first look-up, so that a script without tags runs whatever the registry holds."""
    from companion.chips import ChipRegistry

    registry = functools.cache(lambda: ChipRegistry.load(cfg.chip_registry_path))

    def name(uid: str) -> str | None:
        entry = registry().lookup(uid)
        return entry.name if entry else None

    return name


def _keys_unbuffered(fd: int) -> list[Any]:
    """Each key as it is pressed, not echoed; the terminal's settings as they were, for
    `_restore_terminal` on the main thread (the keyboard thread is a daemon blocked in a
    read when the box stops: its own clean-up would never run)."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    return saved


def _restore_terminal(fd: int, saved: list[Any]) -> None:
    import termios

    try:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    except termios.error:  # the terminal went away (a closed ssh session): nothing to mend
        log.debug("terminal settings not restored", exc_info=True)


def _keyboard(box: Box, key_to_press: Callable[[str], Any], stopper: Stopper) -> None:
    while not stopper.event.is_set():
        key = sys.stdin.read(1)
        if not key:
            break
        press = key_to_press(key)
        if press is not None:
            box.post(ButtonPressed(press.button, press.long))


class LatestFrame:
    """The camera's newest frame, shared with the ArUco chip reader. Each frame is
    numbered, so that a reader waits for a new one (`wait_newer`) instead of reading the
    same frame again; the camera's close stores None (no frame while it is down)."""

    def __init__(self) -> None:
        self.frame: Any = None
        self.seq = 0
        self.changed = threading.Condition()

    def put(self, frame: Any) -> None:
        with self.changed:
            self.frame = frame
            self.seq += 1
            self.changed.notify_all()

    def get(self) -> Any:
        with self.changed:
            return self.frame

    __call__ = get  # a source of frames as `open_reader` takes it

    def wait_newer(self, after: int, timeout: float) -> tuple[int, Any]:
        """The frame numbered after `after` and its number, waiting up to `timeout`
        seconds for it; the current one if none came."""
        with self.changed:
            self.changed.wait_for(lambda: self.seq != after, max(0.0, timeout))
            return self.seq, self.frame


def make_feeds(
    cfg: Config, post: Callable[[BoxInput], None], kinds: Callable[[], tuple[str, ...]],
    pin_factory: Any = None,
) -> tuple[CameraFeed, ChipFeed]:
    """The camera and the chip reader as configured; the ArUco chip reader sees the
    camera's newest frame, and a reader with a GPIO pin of its own (the RC522's reset)
    drives it through the box's `pin_factory`. `kinds` are the dice the game rolls,
    asked each time the camera opens (`CameraFeed.renew` opens it again for a new game)."""
    from companion.chips import ChipRegistry, open_reader
    from companion.ports.camera import open_camera
    from companion.vision_bridge import settle_detector

    latest = LatestFrame()
    camera = CameraFeed(lambda: open_camera(cfg["camera"], cfg.hardware),
                        lambda: settle_detector(cfg, kinds()), post, on_frame=latest.put)
    settings = cfg["chips"]
    registry_path = cfg.chip_registry_path
    chips = ChipFeed(
        lambda: open_reader(settings["reader"], settings, camera_frames=latest,
                            pin_factory=pin_factory),
        lambda: ChipRegistry.load(registry_path), post,
        repeat_seconds=float(settings["repeat_seconds"]),
        registry_stamp=lambda: file_stamp(registry_path),
    )
    return camera, chips


def _start_inputs(
    cfg: Config, box: Box, stopper: Stopper, kinds: Callable[[], tuple[str, ...]],
    pin_factory: Any,
) -> tuple[list[threading.Thread], CameraFeed]:
    """Reader and camera threads: they post to the box and retry failed devices. The
    camera's feed too, to renew when a new game rolls other dice."""
    camera, chips = make_feeds(cfg, box.post, kinds, pin_factory)
    frame_seconds = 1.0 / float(cfg["camera"]["fps"])
    threads = [
        threading.Thread(target=_run_feed, args=(feed, stopper, pace), name=feed.device,
                         daemon=True)
        for feed, pace in ((camera, frame_seconds), (chips, 0.0))
    ]
    for thread in threads:
        thread.start()
    return threads, camera


def _run_feed(feed: DeviceFeed, stopper: Stopper, pace: float) -> None:
    """Step the feed until stopped: at most one step every `pace` seconds (a camera
    that returns frames at once, like the files camera, must not spin a core)."""
    try:
        while not stopper.event.is_set():
            started = time.monotonic()
            try:
                stepped = feed.step()
            except Exception:  # a bug in the feed itself: keep the thread, try again
                log.exception("%s feed failed", feed.device)
                stepped = False
            if not stepped:
                stopper.event.wait(1.0)  # down: the feed retries when its time comes
            else:
                stopper.event.wait(max(0.0, pace - (time.monotonic() - started)))
    finally:
        feed.close()
