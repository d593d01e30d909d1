"""RC522 (NXP MFRC522) over SPI: a small in-house driver over one `xfer2` callable.

Why not pi-rc522 or mfrc522 from PyPI: mfrc522 stops at cascade level 1, so it
cannot read the 7-byte UIDs of NTAG213 stickers. pi-rc522 can, but it imports
RPi.GPIO at import time (not on a Pi 5 without rpi-lgpio), owns its spidev and GPIO
objects, and so can only be tested by faking three modules at once. This driver
needs nothing but `xfer2(list[int]) -> list[int]` (spidev's), so tests fake the SPI
bytes themselves, with a register-level MFRC522 + NTAG simulator beneath it.
The RST pin is driven high by gpiozero (already a dependency); IRQ is not used:
polling a few times a second is plenty for a chip held at the bag's mouth.

ISO 14443A flow per poll: WUPA -> ATQA; for each cascade level (0x93, 0x95, 0x97):
ANTICOLLISION -> 4 bytes + BCC; SELECT (with CRC_A) -> SAK; a UID that starts with
the cascade tag 0x88 continues at the next level. Then HLTA, so the next WUPA finds
the tag again while it stays on the antenna (raw repeats; the DrawDetector joins them).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from companion.chips.base import ChipReaderError, TagRead, uid_from_bytes

log = logging.getLogger(__name__)

Xfer = Callable[[list[int]], list[int]]

# Registers (MFRC522 datasheet, section 9).
CommandReg = 0x01
ComIEnReg = 0x02
ComIrqReg = 0x04
ErrorReg = 0x06
FIFODataReg = 0x09
FIFOLevelReg = 0x0A
ControlReg = 0x0C
BitFramingReg = 0x0D
CollReg = 0x0E
ModeReg = 0x11
TxControlReg = 0x14
TxASKReg = 0x15
TModeReg = 0x2A
TPrescalerReg = 0x2B
TReloadRegH = 0x2C
TReloadRegL = 0x2D
VersionReg = 0x37

# Commands.
PCD_IDLE = 0x00
PCD_TRANSCEIVE = 0x0C
PCD_SOFTRESET = 0x0F

# ComIrqReg bits.
IRQ_TIMER = 0x01
IRQ_IDLE = 0x10
IRQ_RX = 0x20

# ErrorReg bits.
ERR_PROTOCOL, ERR_PARITY, ERR_CRC, ERR_COLL, ERR_BUFFER = 0x01, 0x02, 0x04, 0x08, 0x10

# PICC commands (ISO 14443-3).
PICC_REQA = 0x26
PICC_WUPA = 0x52
PICC_HLTA = 0x50
CASCADE_LEVELS = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_UID_INCOMPLETE = 0x04

# 0x91/0x92: NXP v1/v2; 0x88: FM17522 clone; 0x12, 0xB2: other common clones.
KNOWN_VERSIONS = frozenset({0x91, 0x92, 0x88, 0x12, 0xB2})


def crc_a(data: bytes | list[int]) -> bytes:
    """ISO 14443A CRC_A (reflected CRC-16/0x8408, initial 0x6363), LSB first."""
    crc = 0x6363
    for byte in data:
        b = (byte ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class Rc522Error(Exception):
    """One exchange with a tag failed (timeout, collision, bad CRC): not fatal."""


class Mfrc522:
    """Register access and one transceive, nothing more."""

    def __init__(self, xfer: Xfer, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._xfer = xfer
        self._sleep = sleep

    def write(self, reg: int, value: int) -> None:
        self._xfer([(reg << 1) & 0x7E, value & 0xFF])

    def read(self, reg: int) -> int:
        return self._xfer([((reg << 1) & 0x7E) | 0x80, 0])[1] & 0xFF

    def set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) & ~mask)

    def reset(self) -> int:
        """Soft reset and set up timer/antenna; returns the chip version."""
        self.write(CommandReg, PCD_SOFTRESET)
        self._sleep(0.05)
        # Timer: TAuto, prescaler 0x0D3E -> ~40 kHz; reload 1000 -> 25 ms tag timeout.
        self.write(TModeReg, 0x8D)
        self.write(TPrescalerReg, 0x3E)
        self.write(TReloadRegL, 0xE8)
        self.write(TReloadRegH, 0x03)
        self.write(TxASKReg, 0x40)  # 100 % ASK, as ISO 14443A needs
        self.write(ModeReg, 0x3D)  # CRC preset 0x6363
        self.set_bits(TxControlReg, 0x03)  # antenna on
        return self.read(VersionReg)

    def transceive(self, data: list[int], tx_last_bits: int = 0) -> tuple[list[int], int]:
        """Send `data`, return (received bytes, valid bits in the last byte; 0 = 8)."""
        self.write(CommandReg, PCD_IDLE)
        self.write(ComIrqReg, 0x7F)  # clear all interrupt flags
        self.write(FIFOLevelReg, 0x80)  # flush the FIFO
        for byte in data:
            self.write(FIFODataReg, byte)
        self.write(BitFramingReg, tx_last_bits & 0x07)
        self.write(CommandReg, PCD_TRANSCEIVE)
        self.set_bits(BitFramingReg, 0x80)  # StartSend
        irq = 0
        for _ in range(200):  # the chip's own 25 ms timer ends this, not our count
            irq = self.read(ComIrqReg)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
            self._sleep(0.0005)
        self.clear_bits(BitFramingReg, 0x80)
        if not irq & (IRQ_RX | IRQ_IDLE):
            raise Rc522Error("no answer")
        error = self.read(ErrorReg)
        if error & ERR_COLL:
            raise Rc522Error("collision: more than one tag on the antenna")
        if error & (ERR_BUFFER | ERR_PARITY | ERR_PROTOCOL):
            raise Rc522Error(f"receive error 0x{error:02X}")
        count = self.read(FIFOLevelReg) & 0x7F
        last_bits = self.read(ControlReg) & 0x07
        return [self.read(FIFODataReg) for _ in range(count)], last_bits


def read_uid(chip: Mfrc522) -> bytes | None:
    """One activation attempt. None: no tag. Rc522Error: a tag, but a bad exchange."""
    # ValuesAfterColl=0: bits after a collision read as 0, never as a made-up uid.
    chip.write(CollReg, 0x00)
    try:
        atqa, bits = chip.transceive([PICC_WUPA], tx_last_bits=7)
    except Rc522Error as exc:
        if str(exc) == "no answer":
            return None
        raise
    if len(atqa) != 2 or bits != 0:
        raise Rc522Error(f"bad ATQA {atqa}")
    uid: list[int] = []
    for level in CASCADE_LEVELS:
        answer, _ = chip.transceive([level, 0x20])  # ANTICOLLISION, NVB = 2 bytes
        if len(answer) != 5:
            raise Rc522Error(f"cascade 0x{level:02X}: {len(answer)} bytes, want 5")
        part, bcc = answer[:4], answer[4]
        if part[0] ^ part[1] ^ part[2] ^ part[3] != bcc:
            raise Rc522Error(f"cascade 0x{level:02X}: BCC mismatch")
        frame = [level, 0x70, *part, bcc]
        sak_frame, _ = chip.transceive([*frame, *crc_a(frame)])  # SELECT
        if len(sak_frame) != 3 or bytes(sak_frame[1:]) != crc_a(sak_frame[:1]):
            raise Rc522Error(f"cascade 0x{level:02X}: bad SAK")
        sak = sak_frame[0]
        if sak & SAK_UID_INCOMPLETE:
            if part[0] != CASCADE_TAG:
                raise Rc522Error("SAK says more UID follows but no cascade tag")
            uid += part[1:]
            continue
        uid += part
        break
    else:
        raise Rc522Error("UID longer than three cascade levels")
    with contextlib.suppress(Rc522Error):
        # HLTA has no answer by design: the "no answer" error is the success case.
        chip.transceive([PICC_HLTA, 0x00, *crc_a([PICC_HLTA, 0x00])])
    return bytes(uid)


class Rc522Reader:
    def __init__(
        self,
        xfer: Xfer,
        *,
        where: str = "RC522",
        close: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        poll_interval: float = 0.05,
    ) -> None:
        self._chip = Mfrc522(xfer, sleep=sleep)
        self._where = where
        self._close = close
        self._clock = clock
        self._sleep = sleep
        self._interval = poll_interval
        version = self._chip.reset()
        if version in (0x00, 0xFF):
            self.close()
            raise ChipReaderError(
                f"rc522 reader on {where}: no answer on SPI (version register reads "
                f"0x{version:02X}). Check the wiring (SDA->CE0, SCK, MOSI, MISO, 3.3 V not "
                "5 V, RST) and that SPI is on (dtparam=spi=on in config.txt)."
            )
        if version not in KNOWN_VERSIONS:
            log.warning("rc522 on %s: unknown chip version 0x%02X; trying anyway", where, version)

    def poll(self, timeout: float) -> TagRead | None:
        deadline = self._clock() + max(0.0, timeout)
        while True:
            try:
                uid = read_uid(self._chip)
            except Rc522Error as exc:
                # A tag sliding over the antenna gives partial reads: skip, try again.
                log.debug("rc522: %s", exc)
                uid = None
            except OSError as exc:
                raise ChipReaderError(
                    f"rc522 reader on {self._where}: SPI transfer failed ({exc}); "
                    "check the cable and that nothing else uses this SPI device"
                ) from None
            if uid is not None:
                return TagRead(uid_from_bytes(uid), "rc522", self._clock())
            if self._clock() >= deadline:
                return None
            self._sleep(min(self._interval, max(0.0, deadline - self._clock())))

    def close(self) -> None:
        if self._close is not None:
            with contextlib.suppress(Exception):
                self._close()
            self._close = None


def open_rc522(spi_bus: int, spi_device: int, rst_pin: int,
               pin_factory: Any = None) -> Rc522Reader:
    """The reader on /dev/spidevBUS.DEVICE, its RST pin held high through `pin_factory`
    (the box's own; None: gpiozero's default, for a command run on its own)."""
    where = f"SPI bus {spi_bus} device {spi_device} (/dev/spidev{spi_bus}.{spi_device})"
    try:
        import spidev  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ChipReaderError(
            "rc522 reader: the spidev package is not installed; install the Pi extras "
            "(pip install 'companion[pi]') or choose another [chips] reader"
        ) from None
    reset_pin = _hold_reset_high(rst_pin, pin_factory)
    spi = spidev.SpiDev()
    try:
        spi.open(spi_bus, spi_device)
    except FileNotFoundError:
        _close_quietly(reset_pin)
        raise ChipReaderError(
            f"rc522 reader: {where} does not exist; enable SPI (dtparam=spi=on in "
            "/boot/firmware/config.txt, then reboot) and check [chips] spi_bus/spi_device"
        ) from None
    except PermissionError:
        _close_quietly(reset_pin)
        raise ChipReaderError(
            f"rc522 reader: permission denied on {where}; add the service user to the 'spi' group"
        ) from None
    except OSError as exc:
        _close_quietly(reset_pin)
        raise ChipReaderError(f"rc522 reader: cannot open {where} ({exc})") from None
    spi.max_speed_hz = 1_000_000  # well under the MFRC522's 10 MHz; long jumper wires
    spi.mode = 0

    def close() -> None:
        spi.close()
        _close_quietly(reset_pin)

    try:
        return Rc522Reader(spi.xfer2, where=where, close=close)
    except OSError as exc:
        close()
        raise ChipReaderError(f"rc522 reader on {where}: SPI transfer failed ({exc})") from None


def _hold_reset_high(pin: int, pin_factory: Any) -> object | None:
    """NRSTPD low powers the MFRC522 down, so RST is held high while we run."""
    try:
        from gpiozero import DigitalOutputDevice
    except ImportError:
        return None
    try:
        device: object = DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)
    except Exception as exc:  # gpiozero raises many kinds; none should stop us here
        # Many RC522 boards pull RST up themselves; say so, but carry on.
        log.warning("rc522: cannot drive RST on GPIO%d (%s); relying on the board", pin, exc)
        return None
    return device


def _close_quietly(device: object | None) -> None:
    close = getattr(device, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):
            close()
