"""Time from a chip read to the new OLED frame, in sim mode.

Measures the box's own processing for each draw: the reader's raw read through
the draw detector and registry, the session (rules + journal commit with
synchronous=FULL), rendering the screen and luma's dummy device. Prints the
median and 95th percentile; the target is a median under 50 ms.

    .venv/bin/python benchmarks/chip_to_screen.py [--draws 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.box import Box, TagSeen
from companion.chips import ChipRegistry, DrawDetector, SimReader
from companion.ports.display import SimDisplay
from companion.rules.core import AwaitChip
from companion.session.journal import Journal
from companion.session.scenario_files import example_scenario_text, parse_scenario
from companion.session.session import GameSession
from companion.simtable import SimTable, scenario_chips, sim_uid
from companion.ui.screens import render


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--system", default="tenir_le_fort")
    args = parser.parse_args()
    text = example_scenario_text(args.system)
    _, scenario = parse_scenario(text)
    registry = ChipRegistry()
    for chip in scenario_chips(scenario):
        registry = registry.enroll(sim_uid(chip), chip, "unit")
    now = [0.0]
    reader = SimReader(clock=lambda: now[0])
    detector = DrawDetector(1.5)
    display = SimDisplay()
    timings: list[float] = []
    rng = random.Random(7)
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.sqlite3")
        box = Box(
            GameSession.new(journal, text),
            show=lambda s: display.show(render(s)),
            play=lambda name: None,
        )
        table = SimTable(box, rng)
        box.start()
        while len(timings) < args.draws:
            step = box.step
            if not isinstance(step, AwaitChip) or box.ui.message or box.ui.result:
                if table.finished():
                    if not timings:
                        raise SystemExit(f"{args.system} draws no chips; use a chip-bag system")
                    games += 1
                    journal.close()
                    journal = Journal(Path(tmp) / f"journal-{games}.sqlite3")
                    box = Box(
                        GameSession.new(journal, text),
                        show=lambda s: display.show(render(s)),
                        play=lambda name: None,
                    )
                    table = SimTable(box, rng)
                    box.start()
                else:
                    table.act()
                continue
            chip = rng.choice(step.in_bag)
            now[0] += 5.0
            reader.present(sim_uid(chip), repeats=3)
            frames_before = len(display.frames)
            started = time.perf_counter()
            while (read := reader.poll(0.0)) is not None:
                draw = detector.feed(read)
                if draw is not None:
                    entry = registry.lookup(draw.uid)
                    box.handle(TagSeen(draw.uid, entry.name if entry else None))
            assert len(display.frames) > frames_before
            timings.append((time.perf_counter() - started) * 1000)
        journal.close()
    timings.sort()
    print(f"chip read -> new screen, sim mode, {len(timings)} draws ({args.system})")
    print(
        f"  median {statistics.median(timings):.1f} ms, "
        f"p95 {timings[int(len(timings) * 0.95)]:.1f} ms, max {timings[-1]:.1f} ms "
        "(target: median under 50 ms)"
    )


if __name__ == "__main__":
    main()
