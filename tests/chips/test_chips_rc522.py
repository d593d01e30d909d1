from __future__ import annotations

import sys

import pytest
from chipfakes import FakeMfrc522, Tag, fake_module
from gpiozero.pins.mock import MockFactory

from companion.chips import ChipReaderError, DrawDetector, open_reader
from companion.chips.rc522 import Mfrc522, Rc522Reader, crc_a, read_uid

NTAG = bytes.fromhex("04A1B2C3D4E5F6")
CLASSIC = bytes.fromhex("A1B2C3D4")


def make(tag: Tag | None, **kw: object) -> tuple[FakeMfrc522, Rc522Reader]:
    chip = FakeMfrc522(tag)
    clock = [0.0]

    def sleep(s: float) -> None:
        clock[0] += s

    reader = Rc522Reader(chip.xfer2, clock=lambda: clock[0], sleep=sleep, **kw)  # type: ignore[arg-type]
    return chip, reader


def test_crc_a_known_vector() -> None:
    # HLTA is sent as 50 00 57 CD (ISO 14443-3 example).
    assert crc_a([0x50, 0x00]) == bytes((0x57, 0xCD))


def test_reads_7_byte_ntag_through_two_cascade_levels() -> None:
    chip, reader = make(Tag(NTAG))
    read = reader.poll(0)
    assert read is not None and (read.uid, read.reader) == ("04A1B2C3D4E5F6", "rc522")
    assert chip.tag is not None and chip.tag.state == "HALT"  # halted, ready to be woken again


def test_reads_4_byte_uid() -> None:
    _, reader = make(Tag(CLASSIC))
    read = reader.poll(0)
    assert read is not None and read.uid == "A1B2C3D4"


def test_reads_10_byte_uid() -> None:
    _, reader = make(Tag(bytes(range(1, 11))))
    read = reader.poll(0)
    assert read is not None and read.uid == "0102030405060708090A"


def test_no_tag_returns_none_after_timeout() -> None:
    _, reader = make(None)
    assert reader.poll(0.3) is None


def test_noisy_exchanges_are_retried_not_raised() -> None:
    tag = Tag(NTAG, faults=["ok", "bcc"])  # second exchange (CL1 anticollision) spoiled
    _, reader = make(tag)
    read = reader.poll(1.0)
    assert read is not None and read.uid == "04A1B2C3D4E5F6"


def test_cascade_bcc_error_is_reported_by_read_uid() -> None:
    chip = FakeMfrc522(Tag(NTAG, faults=["ok", "ok", "ok", "bcc"]))  # CL2 anticollision
    mfrc = Mfrc522(chip.xfer2, sleep=lambda s: None)
    mfrc.reset()
    with pytest.raises(Exception, match="BCC"):
        read_uid(mfrc)
    # The half-selected tag ignores the next WUPA (ISO 14443-3 sends it back to IDLE),
    # so the poll after that reads it: one lost poll, no stuck tag.
    assert read_uid(mfrc) is None
    assert read_uid(mfrc) == NTAG


def test_tag_left_on_reader_is_one_draw_and_lifting_it_ends_it() -> None:
    chip, reader = make(Tag(NTAG), poll_interval=0.1)
    detector = DrawDetector(1.5)
    events = []
    for _ in range(20):  # 2 s on the antenna: a raw read every 0.1 s
        read = reader.poll(0.1)
        assert read is not None
        events.append(detector.feed(read))
    assert sum(1 for e in events if e) == 1
    chip.tag = None
    assert reader.poll(2.0) is None  # lifted for 2 s
    chip.tag = Tag(NTAG)
    read = reader.poll(0.1)
    assert read is not None and detector.feed(read) is not None


def test_dead_spi_is_a_clear_error() -> None:
    with pytest.raises(ChipReaderError, match=r"no answer on SPI.*0x00.*dtparam=spi=on"):
        Rc522Reader(lambda data: [0] * len(data), where="SPI bus 0 device 0", sleep=lambda s: None)


def test_open_reader_without_spi_device(monkeypatch: pytest.MonkeyPatch) -> None:
    class SpiDev:
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(f"/dev/spidev{bus}.{device}")

    monkeypatch.setitem(sys.modules, "spidev", fake_module("spidev", SpiDev=SpiDev))
    monkeypatch.setitem(sys.modules, "gpiozero", None)  # no GPIO on this desktop
    with pytest.raises(ChipReaderError, match=r"/dev/spidev0\.0\) does not exist.*dtparam=spi=on"):
        open_reader("rc522", {"spi_bus": 0, "spi_device": 0, "rst_pin": 25})


def test_open_reader_with_fake_spidev_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeMfrc522(Tag(NTAG))

    class SpiDev:
        max_speed_hz = 0
        mode = 3

        def open(self, bus: int, device: int) -> None:
            self.opened = (bus, device)

        def xfer2(self, data: list[int]) -> list[int]:
            return fake.xfer2(data)

        def close(self) -> None:
            self.closed = True

    monkeypatch.setitem(sys.modules, "spidev", fake_module("spidev", SpiDev=SpiDev))
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    reader = open_reader("rc522", {"spi_bus": 0, "spi_device": 0, "rst_pin": 25})
    try:
        read = reader.poll(0)
        assert read is not None and read.uid == "04A1B2C3D4E5F6"
    finally:
        reader.close()


def test_the_reset_pin_is_held_high_through_the_boxs_pin_factory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    chip = FakeMfrc522()

    class SpiDev:
        def open(self, bus: int, device: int) -> None:
            pass

        def xfer2(self, data: list[int]) -> list[int]:
            return chip.xfer2(data)

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "spidev", fake_module("spidev", SpiDev=SpiDev))
    factory = MockFactory()
    reader = open_reader("rc522", {"spi_bus": 0, "spi_device": 0, "rst_pin": 25},
                         pin_factory=factory)
    reset = factory.pin(25)
    assert reset.state == 1  # NRSTPD low would power the MFRC522 down
    reader.close()
    assert reset.function == "input"  # released: the pin is free again after close
