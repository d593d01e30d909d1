from __future__ import annotations

import errno
import sys
from collections.abc import Iterator

import pytest
from chipfakes import FakeEvent, FakeInputDevice, fake_module, key_events

from companion.chips import ChipReaderError, DrawDetector, open_reader
from companion.chips.hid import HidLineParser, UsbHidReader, parse_line


@pytest.mark.parametrize(
    ("line", "uid"),
    [
        ("04A1B2C3D4E5F6", "04A1B2C3D4E5F6"),  # 7-byte hex
        ("a1b2c3d4", "A1B2C3D4"),  # 4-byte hex
        # 4-byte decimal, little-endian: 0xD4C3B2A1 = 3569595041 -> card order A1 B2 C3 D4
        ("3569595041", "A1B2C3D4"),
        ("0000000001", "01000000"),
        # 7-byte decimal (17 digits), little-endian
        (
            str(int.from_bytes(bytes.fromhex("04A1B2C3D4E5F6"), "little")).zfill(17),
            "04A1B2C3D4E5F6",
        ),
        ("12345", None),
        ("9999999999", None),  # more than 32 bits
        ("04A1B2C3D4E5", None),  # 6 bytes
    ],
)
def test_parse_line(line: str, uid: str | None) -> None:
    assert parse_line(line) == uid


def test_parse_line_big_endian_decimal() -> None:
    assert parse_line("2712847316", decimal_order="big") == "A1B2C3D4"


def feed_all(parser: HidLineParser, events: list[FakeEvent], t0: float = 0.0) -> list[str]:
    return [u for e in events if (u := parser.feed(e, t0)) is not None]


def test_parser_ignores_key_up_repeat_and_shift() -> None:
    parser = HidLineParser()
    events = key_events("04a1b2c3d4e5f6", shift_letters=True)
    events.insert(3, FakeEvent(1, 11, 2))  # an auto-repeat of KEY_0: value 2, ignored
    assert feed_all(parser, events) == ["04A1B2C3D4E5F6"]


def test_parser_drops_a_partial_line_after_a_pause() -> None:
    parser = HidLineParser()
    first = key_events("04A1B2", enter=False)
    for e in first:
        parser.feed(e, 0.0)
    # We joined mid-line; the next id comes 2 s later and must not be glued on.
    assert [u for e in key_events("A1B2C3D4") if (u := parser.feed(e, 2.0))] == ["A1B2C3D4"]


def test_parser_rejects_garbage_lines() -> None:
    parser = HidLineParser()
    events = [FakeEvent(1, 16, 1), *key_events("A1B2C3D4")]  # KEY_Q first: not an id
    assert feed_all(parser, events) == []
    assert parser.rejected == ["?A1B2C3D4"]


@pytest.fixture
def device() -> Iterator[FakeInputDevice]:
    dev = FakeInputDevice()
    yield dev
    dev.close()


def test_reader_grabs_and_reads_7_byte_uid(device: FakeInputDevice) -> None:
    reader = UsbHidReader(device)
    assert device.grabbed
    assert reader.poll(0.01) is None
    device.push(key_events("04A1B2C3D4E5F6"))
    read = reader.poll(1.0)
    assert read is not None and (read.uid, read.reader) == ("04A1B2C3D4E5F6", "usb-hid")
    reader.close()
    assert not device.grabbed


def test_reader_decimal_4_byte(device: FakeInputDevice) -> None:
    reader = UsbHidReader(device)
    device.push(key_events("3569595041"))
    read = reader.poll(1.0)
    assert read is not None and read.uid == "A1B2C3D4"


def test_noisy_repeats_through_the_detector(device: FakeInputDevice) -> None:
    clock = [100.0]
    reader = UsbHidReader(device, clock=lambda: clock[0])
    detector = DrawDetector(1.5)
    # The reader types the id three times in one batch (one swipe), then twice later.
    device.push(key_events("04A1B2C3D4E5F6") * 3)
    raw = [reader.poll(0) for _ in range(3)]
    assert all(r is not None for r in raw)
    draws = [detector.feed(r) for r in raw if r is not None]
    clock[0] = 101.0
    device.push(key_events("04A1B2C3D4E5F6"))
    r4 = reader.poll(0)
    assert r4 is not None
    draws.append(detector.feed(r4))
    clock[0] = 105.0
    device.push(key_events("04A1B2C3D4E5F6"))
    r5 = reader.poll(0)
    assert r5 is not None
    draws.append(detector.feed(r5))
    assert [d.timestamp for d in draws if d] == [100.0, 105.0]


def test_grab_busy_is_a_clear_error() -> None:
    dev = FakeInputDevice(grab_error=errno.EBUSY)
    with pytest.raises(ChipReaderError, match="Another program holds it"):
        UsbHidReader(dev)
    assert dev.closed


def install_fake_evdev(
    monkeypatch: pytest.MonkeyPatch, devices: dict[str, FakeInputDevice]
) -> None:
    def input_device(path: str) -> FakeInputDevice:
        if path not in devices:
            raise FileNotFoundError(path)
        return devices[path]

    monkeypatch.setitem(
        sys.modules,
        "evdev",
        fake_module("evdev", InputDevice=input_device, list_devices=lambda: list(devices)),
    )


def test_open_reader_finds_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard = FakeInputDevice("/dev/input/event0", "AT Translated Set 2 keyboard")
    tag_reader = FakeInputDevice("/dev/input/event5", "Sycreader RFID Technology Co., Ltd")
    install_fake_evdev(
        monkeypatch, {"/dev/input/event0": keyboard, "/dev/input/event5": tag_reader}
    )
    reader = open_reader("usb-hid", {"device": ""})
    try:
        assert tag_reader.grabbed and not keyboard.grabbed
    finally:
        reader.close()
        keyboard.close()


def test_open_reader_missing_device(monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard = FakeInputDevice("/dev/input/event0", "AT Translated Set 2 keyboard")
    install_fake_evdev(monkeypatch, {"/dev/input/event0": keyboard})
    try:
        with pytest.raises(ChipReaderError, match="no input device looks like a tag reader"):
            open_reader("usb-hid", {"device": ""})
        with pytest.raises(ChipReaderError, match="no such device"):
            open_reader("usb-hid", {"device": "/dev/input/by-id/usb-reader-event-kbd"})
    finally:
        keyboard.close()


def test_open_reader_without_evdev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "evdev", None)  # import evdev -> ImportError
    with pytest.raises(ChipReaderError, match="evdev package is not installed"):
        open_reader("usb-hid", {})
