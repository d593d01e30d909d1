from __future__ import annotations

import threading
import time

from companion.chips import DrawDetector, SimReader, open_reader


class VirtualClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_script_runs_in_virtual_time() -> None:
    clock = VirtualClock()
    reader = SimReader(
        ["a1b2c3d4", (2.0, "04A1B2C3D4E5F6"), (0.5, "aruco-3")], clock=clock, sleep=clock.sleep
    )
    first = reader.poll(1.0)
    assert first is not None and (first.uid, first.timestamp) == ("A1B2C3D4", 0.0)
    assert reader.poll(1.0) is None and clock.now == 1.0
    second = reader.poll(5.0)
    assert second is not None and (second.uid, second.timestamp) == ("04A1B2C3D4E5F6", 2.0)
    third = reader.poll(5.0)
    assert third is not None and (third.uid, third.timestamp) == ("ARUCO-3", 2.5)
    assert reader.exhausted and reader.poll(0.5) is None


def test_present_injects_noisy_repeats() -> None:
    clock = VirtualClock()
    reader = SimReader(clock=clock, sleep=clock.sleep)
    reader.present("04a1b2c3d4e5f6", repeats=4)
    detector = DrawDetector(1.5)
    raw = [reader.poll(0) for _ in range(5)]
    assert [r.uid for r in raw if r] == ["04A1B2C3D4E5F6"] * 4
    assert sum(1 for r in raw if r and detector.feed(r)) == 1


def test_present_from_another_thread_wakes_poll() -> None:
    reader = SimReader()
    threading.Timer(0.05, reader.present, args=("A1B2C3D4", 1)).start()
    started = time.monotonic()
    read = reader.poll(5.0)
    assert read is not None and read.uid == "A1B2C3D4"
    assert time.monotonic() - started < 2.0


def test_open_reader_sim() -> None:
    reader = open_reader("sim", {})
    assert isinstance(reader, SimReader)
    assert reader.poll(0) is None
    reader.close()
