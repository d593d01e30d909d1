from __future__ import annotations

import sys

import pytest
from chipfakes import FakePn532, fake_module

from companion.chips import ChipReaderError, DrawDetector, open_reader
from companion.chips.pn532 import (
    FrameError,
    I2cTransport,
    Pn532Reader,
    SpiTransport,
    decode_frame,
    encode_frame,
    parse_target,
    spi_device_for_cs,
)

NTAG = bytes.fromhex("04A1B2C3D4E5F6")


def test_encode_get_firmware_version_matches_the_manual() -> None:
    # UM0701-02: GetFirmwareVersion is 00 00 FF 02 FE D4 02 2A 00.
    assert encode_frame(b"\x02") == bytes.fromhex("0000FF02FED4022A00")


def test_decode_in_list_passive_target_with_7_byte_nfcid() -> None:
    body = bytes((0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, *NTAG))
    raw = bytes(
        (0x00, 0x00, 0xFF, len(body), (-len(body)) & 0xFF, *body, (-sum(body)) & 0xFF, 0x00)
    )
    answer = decode_frame(b"\x00\x00" + raw + b"\x00\x00\x00")  # padding either side
    assert answer[0] == 0x4B
    assert parse_target(answer[1:]) == NTAG


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (bytes.fromhex("0000FF03FED5030000"), "length checksum"),
        (bytes.fromhex("0000FF02FED503"), "cut short"),
        (bytes.fromhex("0000FF02FED5030000"), "data checksum"),
        (bytes.fromhex("0000FF01FF7F8100"), "error frame"),
        (bytes.fromhex("123456"), "no start code"),
    ],
)
def test_decode_rejects_bad_frames(raw: bytes, message: str) -> None:
    with pytest.raises(FrameError, match=message):
        decode_frame(raw)


def test_parse_target_no_tag() -> None:
    assert parse_target(b"\x00") is None


def virtual_time() -> tuple[list[float], dict[str, object]]:
    clock = [0.0]

    def sleep(s: float) -> None:
        clock[0] += max(s, 0.001)

    return clock, {"clock": lambda: clock[0], "sleep": sleep}


def spi_reader(fake: FakePn532) -> Pn532Reader:
    _, kw = virtual_time()
    return Pn532Reader(SpiTransport(fake.xfer2), **kw)  # type: ignore[arg-type]


def i2c_reader(fake: FakePn532) -> Pn532Reader:
    _, kw = virtual_time()
    return Pn532Reader(I2cTransport(fake.i2c_write, fake.i2c_read), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [spi_reader, i2c_reader], ids=["spi", "i2c"])
def test_reads_7_byte_uid(make) -> None:  # type: ignore[no-untyped-def]
    fake = FakePn532([None, NTAG])
    reader = make(fake)
    # begin(): firmware, SAM config (normal mode), RF config (one activation retry)
    assert [c[0] for c in fake.commands] == [0x02, 0x14, 0x32]
    assert fake.commands[2] == bytes((0x32, 0x05, 0xFF, 0x01, 0x01))
    assert reader.poll(0) is None  # first InListPassiveTarget: no tag
    read = reader.poll(0)
    assert read is not None and (read.uid, read.reader) == ("04A1B2C3D4E5F6", "pn532")
    assert fake.commands[-1] == bytes((0x4A, 0x01, 0x00))


@pytest.mark.parametrize("make", [spi_reader, i2c_reader], ids=["spi", "i2c"])
def test_bad_frames_are_retried(make) -> None:  # type: ignore[no-untyped-def]
    fake = FakePn532([NTAG, NTAG, NTAG])
    reader = make(fake)
    fake.corrupt = 2  # the next two answers have a wrong DCS
    read = reader.poll(1.0)
    assert read is not None and read.uid == "04A1B2C3D4E5F6"
    assert fake.tags == []  # it took three tries


def test_noisy_repeats_are_one_draw() -> None:
    fake = FakePn532([NTAG] * 6 + [None] * 3 + [NTAG])
    clock, kw = virtual_time()
    reader = Pn532Reader(SpiTransport(fake.xfer2), **kw)  # type: ignore[arg-type]
    detector = DrawDetector(1.5)
    events = []
    for _ in range(10):
        read = reader.poll(0)
        if read is not None:
            events.append(detector.feed(read))
        clock[0] += 0.5
    assert sum(1 for e in events if e) == 2  # the tag came back after 2 s away


def test_silent_pn532_is_a_clear_error() -> None:
    fake = FakePn532(mute=True)
    with pytest.raises(ChipReaderError, match=r"does not answer.*mode switches"):
        spi_reader(fake)


def test_cs_pin_maps_to_kernel_chip_select() -> None:
    assert spi_device_for_cs(8) == 0
    assert spi_device_for_cs(7) == 1
    with pytest.raises(ChipReaderError, match="GPIO8 \\(CE0\\) or GPIO7 \\(CE1\\)"):
        spi_device_for_cs(22)


def test_open_pn532_spi_with_fake_spidev(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakePn532([NTAG])
    opened = []

    class SpiDev:
        max_speed_hz = 0
        mode = 3

        def open(self, bus: int, device: int) -> None:
            opened.append((bus, device))

        def xfer2(self, data: list[int]) -> list[int]:
            return fake.xfer2(data)

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "spidev", fake_module("spidev", SpiDev=SpiDev))
    reader = open_reader("pn532-spi", {"spi_bus": 0, "pn532_cs_pin": 7})
    try:
        assert opened == [(0, 1)]
        read = reader.poll(0)
        assert read is not None and read.uid == "04A1B2C3D4E5F6"
    finally:
        reader.close()


def test_open_pn532_i2c_missing_bus(monkeypatch: pytest.MonkeyPatch) -> None:
    def smbus(bus: int) -> None:
        raise FileNotFoundError(f"/dev/i2c-{bus}")

    monkeypatch.setitem(sys.modules, "smbus2", fake_module("smbus2", SMBus=smbus, i2c_msg=None))
    with pytest.raises(ChipReaderError, match=r"/dev/i2c-1\) does not exist.*dtparam=i2c_arm=on"):
        open_reader("pn532-i2c", {"pn532_i2c_address": 0x24})
