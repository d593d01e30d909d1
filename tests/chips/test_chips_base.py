from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.chips import DrawDetector, TagRead, UidError, normalize_uid
from companion.chips.base import aruco_marker_id


@pytest.mark.parametrize(
    ("text", "uid"),
    [
        ("04:a1:b2:c3:d4:e5:f6", "04A1B2C3D4E5F6"),
        ("a1b2c3d4", "A1B2C3D4"),
        (" 04-A1-B2-C3-D4-E5-F6 ", "04A1B2C3D4E5F6"),
        ("aruco-7", "ARUCO-7"),
        ("ARUCO-007", "ARUCO-7"),
    ],
)
def test_normalize_uid(text: str, uid: str) -> None:
    assert normalize_uid(text) == uid


@pytest.mark.parametrize("text", ["", "xyz", "A1B2C", "A1B2C3", "0102030405"])
def test_normalize_uid_rejects(text: str) -> None:
    with pytest.raises(UidError):
        normalize_uid(text)


def test_aruco_marker_id() -> None:
    assert aruco_marker_id("ARUCO-17") == 17
    assert aruco_marker_id("04A1B2C3D4E5F6") is None


def reads(uid: str, times: list[float]) -> list[TagRead]:
    return [TagRead(uid, "rc522", t) for t in times]


def test_noisy_repeats_are_one_draw() -> None:
    detector = DrawDetector(repeat_seconds=1.5)
    # A tag lying on the antenna for 4 s, read every 0.1-0.3 s: one draw.
    times = [0.0, 0.1, 0.2, 0.5, 0.6, 1.0, 1.9, 2.5, 3.3, 4.0]
    events = [detector.feed(r) for r in reads("04A1B2C3D4E5F6", times)]
    assert [e.timestamp for e in events if e] == [0.0]


def test_same_chip_after_a_gap_is_a_new_draw() -> None:
    detector = DrawDetector(repeat_seconds=1.5)
    events = [detector.feed(r) for r in reads("A1B2C3D4", [0.0, 0.4, 2.0, 2.1, 5.0])]
    # 0.4 -> 2.0 is 1.6 s since the *last* sighting: a new draw.
    assert [e.timestamp for e in events if e] == [0.0, 2.0, 5.0]


def test_two_chips_interleaved_are_two_draws() -> None:
    detector = DrawDetector()
    seq = [
        TagRead("AAAAAAAA", "sim", 0.0),
        TagRead("BBBBBBBB", "sim", 0.1),
        TagRead("AAAAAAAA", "sim", 0.2),
        TagRead("BBBBBBBB", "sim", 0.3),
    ]
    assert [r.uid for r in seq if detector.feed(r)] == ["AAAAAAAA", "BBBBBBBB"]


def test_clock_stepping_back_does_not_reopen_a_draw() -> None:
    detector = DrawDetector(1.0)
    assert detector.feed(TagRead("AAAAAAAA", "sim", 10.0))
    assert detector.feed(TagRead("AAAAAAAA", "sim", 9.0)) is None
    assert detector.feed(TagRead("AAAAAAAA", "sim", 10.5)) is None


@given(
    gaps=st.lists(st.floats(min_value=0.0, max_value=5.0), min_size=1, max_size=60),
    repeat=st.floats(min_value=0.1, max_value=3.0),
)
def test_draw_count_matches_gaps(gaps: list[float], repeat: float) -> None:
    detector = DrawDetector(repeat)
    t, times = 0.0, []
    for gap in gaps:
        t += gap
        times.append(t)
    draws = sum(1 for r in reads("A1B2C3D4", times) if detector.feed(r))
    expected = 1 + sum(1 for a, b in itertools.pairwise(times) if b - a > repeat)
    assert draws == expected


def test_many_chips_memory_stays_bounded() -> None:
    detector = DrawDetector(1.0)
    for n in range(1000):
        detector.feed(TagRead(f"{n:08X}", "sim", float(n)))
    assert len(detector._last_seen) <= 65
