"""A referee box on simulated hardware for tests: journal on disk, luma's dummy
display, the buzzer on a recording mock PWM pin, buttons on mock pins pressed
through SimPresser, chips through the sim reader, draw detector and registry,
dice through the camera path (composed tray frames read by the vision package)
when its models are installed, straight DiceSeen otherwise.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.box import Box, ButtonPressed, DiceSeen, SeenDie, TagSeen
from companion.config import DEFAULTS
from companion.ports.controls import Controls, FakeClock, SimPresser
from companion.ports.display import SimDisplay
from companion.ports.pins import mock_factory
from companion.ports.sounder import Sounder, make_buzzer
from companion.rules.core import DieKind
from companion.session.events import Event
from companion.session.journal import Journal
from companion.session.session import GameSession
from companion.simtable import Fingers, SimTable, scenario_chips, sim_uid
from companion.ui.screens import Screen, render
from companion.ui.tunes import TUNES

BUZZER_PIN = int(DEFAULTS["sounder"]["pin"])


def vision_reader() -> Any | None:
    """The project's dice reader, or None while its models are not installed."""
    try:
        from companion.vision_bridge import make_reader

        return make_reader()
    except Exception:  # the vision package or its models are not there yet
        return None


class Rig:
    def __init__(self, tmp: Path, scenario_toml: str, *, mute: bool = False,
                 controls: str = "buttons") -> None:
        # The journal fsyncs every event; on tmpfs (when there is one) that costs nothing.
        shm = Path("/dev/shm")
        self.tmp = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp
        self.journal = Journal(self.tmp / "journal.sqlite3")
        self.session = GameSession.new(self.journal, scenario_toml, "test")
        self.factory = mock_factory()
        self.display = SimDisplay()
        self.screens: list[Screen] = []
        self.sounder = Sounder(make_buzzer(BUZZER_PIN, self.factory), mute=mute,
                               sleep=lambda s: None, background=False)
        self.tunes: list[str] = []
        self.said: list[str] = []
        self.box = Box(self.session, show=self._show, play=self._play, say=self.said.append)
        self.clock = FakeClock()
        settings = dict(DEFAULTS["controls"])
        settings["kind"] = controls
        self.controls = Controls(settings, self.factory,
                                 lambda p: self.box.post(ButtonPressed(p.button, p.long)),
                                 clock=self.clock)
        self.presser = SimPresser(self.controls, self.factory, self.clock)
        self.box.start()

    def _show(self, screen: Screen) -> None:
        self.screens.append(screen)
        self.display.show(render(screen), screen.kind)

    def _play(self, name: str) -> None:
        self.tunes.append(name)
        self.sounder.play(name, TUNES[name])

    # ---------------------------------------------------------------- inputs

    def press(self, button: str, long: bool = False) -> None:
        """A finger on a button: mock pin driven low then high, then the queue pumped."""
        self.presser.press(button, long)
        self.box.pump()

    def chip(self, chip: str, uid: str | None = None) -> None:
        self.box.handle(TagSeen(uid or sim_uid(chip), chip))

    def dice(self, *dice: tuple[str, int]) -> None:
        self.box.handle(DiceSeen(tuple(
            SeenDie(kind, value, (i * 40, 0, 30, 30)) for i, (kind, value) in enumerate(dice)
        )))

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
        self.journal.close()
        if self.tmp.parent == Path("/dev/shm"):
            shutil.rmtree(self.tmp, ignore_errors=True)


class TableHardware:
    """The table's devices for a whole game: the chip bag with its reader, the
    dice tray with its camera (which can be unplugged after some rolls)."""

    def __init__(self, rig: Rig, rng: random.Random, camera_fails_after: int | None = None,
                 camera_throws: int = 6):
        from companion.chips import ChipRegistry, DrawDetector, SimReader

        self.rig = rig
        self.rng = rng
        registry = ChipRegistry()
        for chip in scenario_chips(rig.session.record.scenario):
            registry = registry.enroll(sim_uid(chip), chip, "unit")
        self.registry = registry
        self.reader = SimReader(clock=rig.clock)
        self.detector = DrawDetector(float(DEFAULTS["chips"]["repeat_seconds"]))
        self.vision = vision_reader()
        self.camera_fails_after = camera_fails_after
        self.rolls = 0
        self.paths: Counter[str] = Counter()
        self.camera_throws = camera_throws
        self.blind: set[str] = set()  # kinds the camera path cannot do yet

    def draw_chip(self, chip: str) -> None:
        self.rig.clock.now += 5.0  # a player takes a few seconds to draw
        self.reader.present(sim_uid(chip), repeats=self.rng.randint(1, 3))
        while (read := self.reader.poll(0.0)) is not None:
            draw = self.detector.feed(read)
            if draw is not None:
                entry = self.registry.lookup(draw.uid)
                self.rig.box.post(TagSeen(draw.uid, entry.name if entry else None))
        self.rig.box.pump()

    def throw(self, kinds: list[DieKind], rng: random.Random) -> DiceSeen:
        self.rolls += 1
        truth = [rng.choice(k.faces) for k in kinds]
        names = {k.value for k in kinds}
        kind = next(iter(names))
        # Real frames cost ~0.1 s a throw: the first few go through the camera path,
        # the rest straight in, so a whole game stays a second or two.
        framed = self.paths["camera"] < self.camera_throws
        if self.vision is not None and framed and len(names) == 1 and kind not in self.blind:
            try:
                seen = self._camera(truth, kind, rng)
            except Exception:  # VisionError: no model or no sample photos for this kind
                self.blind.add(kind)
                seen = None
            if seen is not None:
                self.paths["camera"] += 1
                return seen
        self.paths["direct"] += 1
        return DiceSeen(tuple(SeenDie(k.value, v, (i * 40, 0, 30, 30))
                              for i, (k, v) in enumerate(zip(kinds, truth, strict=True))))

    def _camera(self, truth: list[int], kind: str, rng: random.Random) -> DiceSeen | None:
        from companion.vision import SettleDetector, compose_tray
        from companion.vision_bridge import reading_to_seen

        assert self.vision is not None
        detector = SettleDetector(self.vision)
        frames = [compose_tray(truth, kind, random.Random(rng.random())) for _ in range(2)]
        still = compose_tray(truth, kind, random.Random(rng.random()))
        now = 0.0
        for frame in [*frames, *[still] * 30]:
            now += 1 / 30
            reading = detector.feed(frame, now)
            if reading is not None:
                return reading_to_seen(reading)
        return None

    def table(self, rng: random.Random) -> SimTable:
        rig = self.rig
        return SimTable(rig.box, rng, fingers=Fingers(lambda b, long: rig.press(b, long)),
                        draw_chip=self.draw_chip, throw=self.throw)

    def camera_failed(self) -> bool:
        return self.camera_fails_after is not None and self.rolls >= self.camera_fails_after

    def close(self) -> None:
        self.reader.close()


def play_through(rig: Rig, hardware: TableHardware, rng: random.Random,
                 max_inputs: int = 4000,
                 each: Callable[[SimTable], None] | None = None) -> SimTable:
    """Play the game to its end as the table would; the camera fails on cue."""
    from companion.box import DeviceFault

    table = hardware.table(rng)
    reported = False
    for _ in range(max_inputs):
        if table.finished():
            break
        if hardware.camera_failed() and not reported:
            reported = True
            table.camera_ok = False
            rig.box.post(DeviceFault("camera", "simulated camera unplugged"))
            rig.box.pump()
        table.act()
        if each is not None:
            each(table)
    return table
