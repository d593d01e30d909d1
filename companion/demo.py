"""`companion demo`: a whole scripted game on simulated hardware.

Chips are drawn from a simulated bag and read through the sim reader, the
draw detector and the chip registry; buttons are pressed on gpiozero mock
pins; dice are real die photographs composed into a tray frame, watched by
the settle detector and read by the project's dice reader; screens go through
luma's dummy device; tunes are recorded from the buzzer's mock pin. The
play-by-play is what a referee would follow.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from companion.box import Box, ButtonPressed, DiceSeen, TagSeen
from companion.config import DEFAULTS
from companion.errors import CompanionError
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, DieKind, GameOver, Step
from companion.session.events import DiceAccepted
from companion.session.journal import Journal
from companion.session.scenario_files import example_scenario_text, parse_scenario
from companion.session.session import GameSession
from companion.simtable import Fingers, SimTable, scenario_chips, sim_uid
from companion.ui.screens import render
from companion.ui.tunes import THEN, notes_of
from companion.ui.wording import counted, odds_line

FRAME_SECONDS = 1 / 30


@dataclass
class CameraStats:
    rolls: int = 0
    dice: int = 0
    misread: int = 0
    refused: int = 0
    unseen: int = 0
    manual: int = 0
    millis: list[float] = field(default_factory=list)


class SimCameraTray:
    """Composes real die photos into tray frames and reads them like the box does."""

    def __init__(
        self, stats: CameraStats, fails_after: int | None, kinds: tuple[str, ...]
    ) -> None:
        from companion.vision import SettleDetector, VisionError, compose_tray
        from companion.vision_bridge import make_reader

        for kind in kinds:  # a kind with no sample photos: say so now, not mid-game
            try:
                compose_tray([DieKind(kind).faces[0]], kind, random.Random(0))
            except VisionError as exc:
                raise CompanionError(
                    f"the simulated camera cannot show {kind} dice ({exc}); "
                    "the demo needs sample photos of every kind of die the system rolls"
                ) from None
        self.reader = make_reader(kinds=kinds)
        self.settle_class = SettleDetector
        self.stats = stats
        self.fails_after = fails_after
        self.clock = 0.0

    @property
    def failed(self) -> bool:
        return self.fails_after is not None and self.stats.rolls >= self.fails_after

    def read(self, kinds: list[DieKind], truth: list[int], rng: random.Random) -> DiceSeen | None:
        """Frames of the dice tumbling then at rest, through the settle detector and
        the dice reader; None when the reader found no dice in the still tray."""
        from companion.vision import compose_tray
        from companion.vision_bridge import reading_to_seen

        names = [k.value for k in kinds]
        detector = self.settle_class(self.reader)
        # Tumbling frames (dice in other places), then the dice at rest.
        frames = [compose_tray(truth, names, random.Random(rng.random())) for _ in range(2)]
        still = compose_tray(truth, names, random.Random(rng.random()))
        reading = None
        started = time.perf_counter()
        for frame in [*frames, *[still] * 30]:
            self.clock += FRAME_SECONDS
            reading = detector.feed(frame, self.clock)
            if reading is not None:
                break
        self.stats.millis.append((time.perf_counter() - started) * 1000)
        self.stats.rolls += 1
        if reading is None:
            self.stats.unseen += 1
            return None
        seen = reading_to_seen(reading)
        self.stats.dice += len(truth)
        read = sorted(d.value for d in seen.dice)
        if seen.unreadable:
            self.stats.refused += 1
        elif read != sorted(truth):
            self.stats.misread += sum((Counter(truth) - Counter(read)).values()) or 1
        return seen


def describe_step(step: Step) -> str:
    if isinstance(step, AwaitChip):
        return f"[bag] {step.prompt} ({counted(len(step.in_bag), 'chip')} in the bag)"
    if isinstance(step, AwaitChoice):
        about = f"{step.about}: " if step.about and not step.prompt.startswith(step.about) else ""
        return f"[choose] {about}{step.prompt}"
    if isinstance(step, AwaitRoll):
        request = step.request
        secret = " (secret)" if request.secret else ""
        odds = "" if request.secret else odds_line(step.odds, request.groups)
        return f"[roll {request.summary()}]{secret} {request.reason}" + (odds and f" — {odds}")
    assert isinstance(step, GameOver)
    return "[game over]"


def demo(args: argparse.Namespace) -> int:
    from companion.chips import ChipRegistry, DrawDetector, SimReader
    from companion.ports.controls import Controls, FakeClock, SimPresser
    from companion.ports.display import SimDisplay
    from companion.ports.pins import mock_factory
    from companion.ports.sounder import Sounder, make_buzzer

    started = time.perf_counter()
    rng = random.Random(args.seed)
    text = example_scenario_text(args.system)
    ruleset, scenario = parse_scenario(text, f"example {args.system}")
    stats = CameraStats()
    camera = SimCameraTray(
        stats, args.camera_fails_after, tuple(kind.value for kind in ruleset.dice)
    )
    path = args.journal or Path(tempfile.mkdtemp(prefix="companion-demo-")) / "journal.sqlite3"
    journal = Journal(path)
    session = GameSession.new(journal, text, f"example {args.system}")

    factory = mock_factory()
    display = SimDisplay(args.frames, print if args.show_frames else None)
    sounder = Sounder(
        make_buzzer(DEFAULTS["sounder"]["pin"], factory), sleep=lambda s: None, background=False
    )
    tunes: Counter[str] = Counter()

    def play(name: str) -> None:
        tunes.update(name.split(THEN))
        sounder.play(name, notes_of(name))

    box = Box(session, show=lambda s: display.show(render(s), s.kind), play=play, say=print)
    clock = FakeClock()
    controls = Controls(
        DEFAULTS["controls"],
        factory,
        lambda p: box.post(ButtonPressed(p.button, p.long)),
        clock=clock,
    )
    presser = SimPresser(controls, factory, clock)

    registry = ChipRegistry()
    for chip in scenario_chips(scenario):
        registry = registry.enroll(sim_uid(chip), chip, "unit")
    reader = SimReader(clock=clock)
    detector = DrawDetector(float(DEFAULTS["chips"]["repeat_seconds"]))

    def draw_chip(chip: str) -> None:
        clock.now += 5.0  # a player takes a few seconds to draw: a new draw, not a repeat
        reader.present(sim_uid(chip), repeats=rng.randint(1, 4))  # readers repeat a tag
        while (read := reader.poll(0.0)) is not None:
            draw = detector.feed(read)
            if draw is not None:
                entry = registry.lookup(draw.uid)
                box.post(TagSeen(draw.uid, entry.name if entry else None))
        box.pump()

    def press(button: str, long: bool) -> None:
        presser.press(button, long)
        box.pump()

    table = SimTable(box, rng, fingers=Fingers(press), draw_chip=draw_chip, camera=camera.read,
                     on_choice=lambda label: print(f"  > {label}"))

    print(f"=== {ruleset.title}: {scenario.title} (simulated box, seed {args.seed}) ===")
    box.start()
    last_step = None
    inputs = 0
    camera_reported = False
    while not table.finished() and inputs < args.max_inputs:
        step = box.step
        if step != last_step and box.ui.mode == "normal" and box.ui.message is None:
            print(describe_step(step))
            last_step = step
        if camera.failed and not camera_reported:
            camera_reported = True
            from companion.box import DeviceFault

            box.handle(DeviceFault("camera", "simulated camera unplugged"))
        table.act()
        inputs += 1
    reader.close()
    elapsed = time.perf_counter() - started
    final = box.step
    print()
    print("=== Summary ===")
    if isinstance(final, GameOver):
        print(f"Result: {final.winner or 'no winner'}")
        for line in final.summary:
            print(f"  {line}")
    else:
        print(f"stopped after {counted(inputs, 'input')} without reaching the end")
        for line in session.describe():
            print(f"  {line}")
    stats.manual = sum(
        1 for entry in journal.entries()
        if isinstance(entry.event, DiceAccepted) and entry.event.source == "manual"
    )
    median = sorted(stats.millis)[len(stats.millis) // 2] if stats.millis else 0.0
    print(f"Journal: {counted(session.record.events, 'event')} in {journal.path}")
    print(
        f"Camera: {counted(stats.rolls, 'throw')}, {counted(stats.dice, 'die', 'dice')} read, "
        f"{stats.misread} misread, {stats.refused} refused, {stats.unseen} not seen; "
        f"{counted(stats.manual, 'roll')} entered by hand; "
        f"median {median:.0f} ms from throw to reading"
    )
    print(
        f"Screens: {counted(len(display.frames), 'frame')}"
        + (f" saved in {args.frames}" if args.frames else "")
    )
    played = ", ".join(f"{name} x{count}" for name, count in sorted(tunes.items()))
    print(f"Tunes: {played or 'none'}")
    print(f"Wall time: {elapsed:.1f} s")
    journal.close()
    sounder.close()
    controls.close()
    return 0  # the game over, or stopped at --max-inputs as asked: neither is a failure
