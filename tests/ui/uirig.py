"""A referee box on simulated hardware for tests: journal on disk, held as `companion
run` holds it (GameKeeper: a game started from the box's menu archives the one before
it beside it), luma's dummy display behind the runner's Outputs (so it can be
unplugged), the buzzer on a
recording mock PWM pin, buttons on mock pins pressed through SimPresser, chips
through the sim reader and the runner's ChipFeed (draw detector, registry), dice
through the runner's CameraFeed: tray frames composed from real die photos, the
settle detector and the project's dice reader. Each device can be unplugged and
plugged back in mid-game.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from companion.box import (
    PER_THROW,
    Box,
    BoxInput,
    ButtonPressed,
    DiceSeen,
    NewGames,
    SeenDie,
    TagSeen,
)
from companion.chips import ChipReaderError, ChipRegistry, SimReader
from companion.config import DEFAULTS
from companion.errors import HardwareError
from companion.ports.controls import Controls, FakeClock, SimPresser
from companion.ports.display import SimDisplay
from companion.ports.pins import mock_factory
from companion.ports.sounder import Sounder, make_buzzer
from companion.rules.core import DieKind
from companion.runner import CameraFeed, ChipFeed, Outputs
from companion.session.events import Event
from companion.session.journal import Journal
from companion.session.keeper import GameKeeper
from companion.session.scenario_files import scenario_choices
from companion.session.session import GameSession
from companion.simtable import Fingers, SimTable, perfect_camera, scenario_chips, sim_uid
from companion.ui.screens import Screen

BUZZER_PIN = int(DEFAULTS["sounder"]["pin"])


def tones(pwm_events: list[Any]) -> list[float]:
    """The notes a buzzer's mock PWM pin played, in order (Hz): a note starts when
    the pin begins to sound, or sounds at a new pitch."""
    played: list[float] = []
    sounding, last = False, None
    for event in pwm_events:
        on = bool(event.duty > 0 and event.frequency)
        if on and (not sounding or event.frequency != last):
            played.append(event.frequency)
        sounding, last = on, (event.frequency if on else None)
    return played


def written(name: str) -> list[float]:
    """The notes of a tune (or of tunes named together, "death+turn_end") as TUNES
    writes them (Hz), as the pin should play them: the same note twice in a row
    is one sound; a rest in between makes two."""
    from gpiozero.tones import Tone

    from companion.ui.tunes import notes_of

    out: list[float] = []
    previous: str | None = None
    for note, _ in notes_of(name):
        if note is not None and note != previous:
            out.append(Tone(note).frequency)
        previous = note
    return out


class UnpluggableDisplay(SimDisplay):
    """luma's dummy device on a cable the test can pull."""

    def __init__(self, rig: Rig) -> None:
        super().__init__()
        self.rig = rig

    def show(self, image: Any, name: str = "") -> None:
        if not self.rig.display_plugged:
            raise OSError(121, "Remote I/O error")  # what the I2C bus says
        super().show(image, name)


class Rig:
    def __init__(self, tmp: Path, scenario_toml: str, *, mute: bool = False,
                 controls: str = "buttons", display_plugged: bool = True,
                 most_per_throw: Mapping[DieKind, int] = PER_THROW) -> None:
        # The journal fsyncs every event; on tmpfs (when there is one) that costs nothing.
        shm = Path("/dev/shm")
        self.tmp = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp
        self.keeper = GameKeeper.open(self.tmp / "journal.sqlite3")
        self.keeper.start(scenario_toml, "test")
        self.scenarios = self.tmp / "scenarios"  # the box's [box] scenarios_dir
        self.archived: list[Path | None] = []  # where each new game put the one before
        self.factory = mock_factory()
        self.clock = FakeClock()
        self.display_plugged = display_plugged
        self.display = UnpluggableDisplay(self)
        self.display_opens = 0
        self.screens: list[Screen] = []
        self.sounder = Sounder(make_buzzer(BUZZER_PIN, self.factory), mute=mute,
                               sleep=lambda s: None, background=False)
        self.tunes: list[str] = []
        self.said: list[str] = []
        self.outputs = Outputs(self._open_display, self.sounder, self._post, clock=self.clock)
        self.box = Box(self.session, show=self._show, play=self._play, say=self.said.append,
                       most_per_throw=most_per_throw,
                       games=NewGames(lambda: scenario_choices(self.scenarios), self._start))
        settings = dict(DEFAULTS["controls"])
        settings["kind"] = controls
        self.controls = Controls(settings, self.factory,
                                 lambda p: self.box.post(ButtonPressed(p.button, p.long)),
                                 clock=self.clock)
        self.presser = SimPresser(self.controls, self.factory, self.clock)
        self.box.start()
        self.box.pump()

    @property
    def session(self) -> GameSession:
        session = self.keeper.session
        assert session is not None
        return session

    @property
    def journal(self) -> Journal:
        return self.session.journal

    def _start(self, scenario_toml: str, scenario_name: str) -> GameSession:
        session, archived = self.keeper.start(scenario_toml, scenario_name)
        self.archived.append(archived)
        return session

    def _post(self, item: BoxInput) -> None:
        self.box.post(item)

    def _open_display(self) -> SimDisplay:
        self.display_opens += 1
        if not self.display_plugged:
            raise HardwareError("no ssd1306 display at I2C bus 1 address 0x3c (simulated)")
        return self.display

    def _show(self, screen: Screen) -> None:
        self.screens.append(screen)
        self.outputs.show(screen)

    def _play(self, name: str) -> None:
        self.tunes.append(name)
        self.outputs.play(name)

    # ---------------------------------------------------------------- inputs

    def press(self, button: str, long: bool = False) -> None:
        """A finger on a button: mock pin driven low then high, then the queue pumped."""
        self.presser.press(button, long)
        self.box.pump()

    def chip(self, chip: str, uid: str | None = None) -> None:
        self.box.handle(TagSeen(uid or sim_uid(chip), chip))

    def hold(self, chip: str) -> None:
        """The chip drawn, its unit holds (the fake game's second action)."""
        self.chip(chip)
        self.press("select")  # past the chip screen
        self.press("down")
        self.press("select")  # Hold

    def dice(self, *dice: tuple[str, int]) -> None:
        self.box.handle(DiceSeen(tuple(
            SeenDie(kind, value, (i * 40, 0, 30, 30)) for i, (kind, value) in enumerate(dice)
        )))

    def menu_to(self, label: str) -> None:
        """Hold SELECT for the box's menu, go DOWN to the item and SELECT it."""
        self.press("select", long=True)
        labels = [text for _, text in self.box.ui.menu]
        for _ in range(labels.index(label)):
            self.press("down")
        self.press("select")

    @property
    def screen(self) -> Screen:
        return self.screens[-1]

    def events(self) -> list[Event]:
        return [entry.event for entry in self.journal.entries()]

    def pwm_events(self) -> list[Any]:
        return list(self.factory.pin(BUZZER_PIN).pwm_events)

    def close(self) -> None:
        self.controls.close()
        self.sounder.close()
        self.keeper.close()
        if self.tmp.parent == Path("/dev/shm"):
            shutil.rmtree(self.tmp, ignore_errors=True)


class UnpluggableReader:
    """The sim reader on a USB cable the test can pull: polls fail while it is out."""

    def __init__(self, hardware: TableHardware) -> None:
        self.hardware = hardware

    def poll(self, timeout: float) -> Any:
        if not self.hardware.chip_reader_plugged:
            raise ChipReaderError("usb-hid reader /dev/input/event3: read failed ([Errno 19] "
                                  "No such device); was it unplugged? (simulated)")
        return self.hardware.reader.poll(timeout)

    def close(self) -> None:
        pass


class TrayCamera:
    """The camera over the tray: shows the frame the table put there; unpluggable."""

    def __init__(self, hardware: TableHardware, frame: np.ndarray) -> None:
        self.hardware = hardware
        self.frame = frame

    def capture(self) -> np.ndarray:
        if not self.hardware.camera_plugged:
            raise HardwareError("camera stopped delivering frames (simulated unplug)")
        return self.frame

    def close(self) -> None:
        pass


class TableHardware:
    """The table's devices for a whole game, stepped as their threads would be:
    the chip bag with its reader, the dice tray with its camera. Each can be
    unplugged and plugged back in."""

    def __init__(self, rig: Rig, rng: random.Random, *, camera_throws: int = 4,
                 chip_reader_plugged: bool = True) -> None:
        from companion.vision import SettleDetector, compose_tray
        from companion.vision_bridge import make_reader

        self.rig = rig
        self.rng = rng
        self.camera_plugged = True
        self.chip_reader_plugged = chip_reader_plugged
        self.camera_opens = 0
        self.reader_opens = 0
        registry = ChipRegistry()
        for chip in scenario_chips(rig.session.record.scenario):
            registry = registry.enroll(sim_uid(chip), chip, "unit")
        self.registry = registry
        self.reader = SimReader(clock=rig.clock)
        self.chip_feed = ChipFeed(self._open_reader, lambda: self.registry, rig.box.post,
                                  repeat_seconds=float(DEFAULTS["chips"]["repeat_seconds"]),
                                  clock=rig.clock, poll_seconds=0.0)
        kinds = tuple(k.value for k in rig.session.ruleset.dice)
        vision = make_reader(kinds=kinds)
        self.empty_tray = compose_tray([], "d6", random.Random(0))
        self.tray = TrayCamera(self, self.empty_tray)
        self.camera_feed = CameraFeed(self._open_camera, lambda: SettleDetector(vision),
                                      self._camera_saw, clock=rig.clock)
        self.compose = compose_tray
        self.seen: list[DiceSeen] = []
        self.throwing = False
        self.ticks = 0
        self.paths: Counter[str] = Counter()
        self.camera_throws = camera_throws  # throws through real frames (~0.1 s each)
        self.tick()

    # ------------------------------------------------------------ devices

    def _open_reader(self) -> UnpluggableReader:
        self.reader_opens += 1
        if not self.chip_reader_plugged:
            raise ChipReaderError("usb-hid reader /dev/input/event3: no such device (simulated)")
        return UnpluggableReader(self)

    def _open_camera(self) -> TrayCamera:
        self.camera_opens += 1
        if not self.camera_plugged:
            raise HardwareError("camera did not start (simulated: no ribbon cable)")
        return self.tray

    def _camera_saw(self, item: BoxInput) -> None:
        if isinstance(item, DiceSeen):
            if self.throwing:
                self.seen.append(item)
        else:
            self.rig.box.post(item)

    def tick(self, seconds: float = 1.0) -> None:
        """Time passes: the device threads run a step; the display is retried. (The
        camera looks at the idle tray every third tick: each frame costs a thumbnail.)"""
        self.rig.clock.now += seconds
        self.ticks += 1
        if self.ticks % 3 == 0:
            self.camera_feed.step()
        self.chip_feed.step()
        self.rig.outputs.tick()
        self.rig.box.pump()

    # ------------------------------------------------------------ the table

    def draw_chip(self, chip: str) -> None:
        self.rig.clock.now += 5.0  # a player takes a few seconds to draw
        self.reader.present(sim_uid(chip), repeats=self.rng.randint(1, 3))
        self.tick(0.1)

    def read(self, kinds: list[DieKind], truth: list[int], rng: random.Random) -> DiceSeen | None:
        """The dice tumble and settle in front of the camera, frame by frame."""
        if not self.camera_plugged:
            return None  # nobody is looking
        if self.paths["camera"] >= self.camera_throws:
            self.paths["direct"] += 1
            return perfect_camera(kinds, truth, rng)
        self.paths["camera"] += 1
        names = [k.value for k in kinds]
        frames = [self.compose(truth, names, random.Random(rng.random())) for _ in range(2)]
        still = self.compose(truth, names, random.Random(rng.random()))
        self.seen, self.throwing = [], True
        try:
            for frame in [*frames, *[still] * 30]:
                self.tray.frame = frame
                self.rig.clock.now += 1 / 30
                self.camera_feed.step()
                if self.seen:
                    break
        finally:
            self.throwing = False
            self.tray.frame = self.empty_tray  # the dice are picked up
        return self.seen[0] if self.seen else None

    def table(self, rng: random.Random) -> SimTable:
        rig = self.rig
        return SimTable(rig.box, rng, fingers=Fingers(lambda b, long: rig.press(b, long)),
                        draw_chip=self.draw_chip, camera=self.read)

    def close(self) -> None:
        self.camera_feed.close()
        self.chip_feed.close()
        self.reader.close()


def play_through(rig: Rig, hardware: TableHardware, rng: random.Random,
                 max_inputs: int = 4000,
                 each: Callable[[SimTable, int], None] | None = None) -> SimTable:
    """Play the game to its end as the table would, the devices running beside it;
    `each(table, n)` after the n-th action can unplug or plug things."""
    table = hardware.table(rng)
    for n in range(max_inputs):
        if table.finished():
            break
        table.act()
        hardware.tick()
        if each is not None:
            each(table, n)
    return table
