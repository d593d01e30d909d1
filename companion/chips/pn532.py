"""PN532 over SPI or I2C: a small in-house frame codec over an injected transport.

Why not adafruit-circuitpython-pn532: it needs Adafruit Blinka (board, busio,
digitalio), a whole hardware layer with its own Pi 5 caveats, to move a few bytes;
its read loop sleeps in fixed steps; and faking it means faking busio. The PN532
protocol is small (user manual UM0701-02, section 6.2), so the codec is here, the
transports are spidev and smbus2 (both already Pi extras), and tests fake the
frames on the wire.

Normal information frame:
    00 00 FF LEN LCS TFI PD0..PDn DCS 00
    LEN = len(TFI + PD), LCS = -LEN, TFI = D4 (to the PN532) / D5 (from it),
    DCS = -(TFI + sum(PD)), all mod 256.
ACK = 00 00 FF 00 FF 00. Over SPI every byte is LSB first; the Pi's SPI block cannot
do that, so bytes are bit-reversed in software. Over SPI a leading byte says what
the transfer is (01 data write, 02 status read, 03 data read); over I2C every read
starts with a status byte (bit 0: ready).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

from companion.chips.base import ChipReaderError, TagRead, uid_from_bytes

log = logging.getLogger(__name__)

HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ACK = bytes((0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00))
NACK = bytes((0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00))

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
BAUD_106_TYPE_A = 0x00

SPI_DATA_WRITE = 0x01
SPI_STATUS_READ = 0x02
SPI_DATA_READ = 0x03

MAX_FRAME = 64  # long enough for any answer we ask for (InListPassiveTarget: ~25 bytes)


class FrameError(Exception):
    """A frame that does not check out (noise, a half-read answer): retry, not fatal."""


def reverse_bits(byte: int) -> int:
    return int(f"{byte & 0xFF:08b}"[::-1], 2)


_REVERSED = bytes(reverse_bits(b) for b in range(256))


def encode_frame(data: bytes, tfi: int = HOST_TO_PN532) -> bytes:
    body = bytes((tfi,)) + data
    if len(body) > 255:
        raise ValueError("extended frames are not needed here")
    length = len(body)
    return bytes((0x00, 0x00, 0xFF, length, (-length) & 0xFF, *body, (-sum(body)) & 0xFF, 0x00))


def decode_frame(raw: bytes, tfi: int = PN532_TO_HOST) -> bytes:
    """The PD bytes of the first frame in `raw` (leading zero padding allowed)."""
    start = raw.find(b"\x00\xff")
    if start < 0:
        raise FrameError("no start code 00 FF")
    rest = raw[start + 2 :]
    if len(rest) < 2:
        raise FrameError("frame cut short before LEN")
    length, lcs = rest[0], rest[1]
    if (length + lcs) & 0xFF:
        raise FrameError(f"length checksum wrong (LEN {length:#04x}, LCS {lcs:#04x})")
    if length == 0:
        raise FrameError("ACK frame where an answer was expected")
    body = rest[2 : 2 + length]
    if len(body) < length or len(rest) < 3 + length:
        raise FrameError("frame cut short")
    dcs = rest[2 + length]
    if (sum(body) + dcs) & 0xFF:
        raise FrameError("data checksum wrong")
    if body[0] == 0x7F:
        raise FrameError("the PN532 sent an error frame (it could not parse our command)")
    if body[0] != tfi:
        raise FrameError(f"frame identifier {body[0]:#04x}, expected {tfi:#04x}")
    return bytes(body[1:])


def is_ack(raw: bytes) -> bool:
    start = raw.find(b"\x00\xff")
    return start >= 0 and raw[start + 2 : start + 4] == b"\x00\xff"


def parse_target(answer: bytes) -> bytes | None:
    """InListPassiveTarget answer (after the 0x4B code) -> NFCID1, or None for no tag."""
    if not answer:
        raise FrameError("empty InListPassiveTarget answer")
    count = answer[0]
    if count == 0:
        return None
    # Tg, SENS_RES (2), SEL_RES (1), NFCIDLength, NFCID1...
    if len(answer) < 6:
        raise FrameError("target record cut short")
    id_length = answer[5]
    nfcid = answer[6 : 6 + id_length]
    if len(nfcid) != id_length or id_length not in (4, 7, 10):
        raise FrameError(f"NFCID length {id_length} does not fit")
    return bytes(nfcid)


class Pn532Transport(Protocol):
    where: str

    def wakeup(self) -> None: ...
    def write(self, frame: bytes) -> None: ...
    def ready(self) -> bool: ...
    def read(self, count: int) -> bytes: ...
    def close(self) -> None: ...


class SpiTransport:
    """Over spidev's `xfer2`; chip select is the kernel's CE line for the device."""

    def __init__(
        self,
        xfer: Callable[[list[int]], list[int]],
        where: str = "SPI",
        close: Callable[[], None] | None = None,
    ) -> None:
        self._xfer = xfer
        self.where = where
        self._close = close

    def _transfer(self, data: bytes) -> bytes:
        out = self._xfer(list(data.translate(_REVERSED)))
        return bytes(out).translate(_REVERSED)

    def wakeup(self) -> None:
        # Any CS-framed transfer wakes it from power-down; it then needs ~2 ms.
        self._transfer(b"\x00")
        time.sleep(0.002)

    def write(self, frame: bytes) -> None:
        self._transfer(bytes((SPI_DATA_WRITE,)) + frame)

    def ready(self) -> bool:
        return bool(self._transfer(bytes((SPI_STATUS_READ, 0x00)))[1] & 0x01)

    def read(self, count: int) -> bytes:
        return self._transfer(bytes((SPI_DATA_READ,)) + bytes(count))[1:]

    def close(self) -> None:
        if self._close is not None:
            self._close()
            self._close = None


class I2cTransport:
    """Over two callables: write raw bytes to the address, read n bytes from it."""

    def __init__(
        self,
        write: Callable[[bytes], None],
        read: Callable[[int], bytes],
        where: str = "I2C",
        close: Callable[[], None] | None = None,
    ) -> None:
        self._write = write
        self._read = read
        self.where = where
        self._close = close

    def wakeup(self) -> None:
        # The first addressed write after power-down may be NACKed while it wakes.
        with contextlib.suppress(OSError):
            self._write(b"\x00")
        time.sleep(0.002)

    def write(self, frame: bytes) -> None:
        self._write(frame)

    def ready(self) -> bool:
        try:
            return bool(self._read(1)[0] & 0x01)
        except OSError:
            return False  # it NACKs its address while busy

    def read(self, count: int) -> bytes:
        data = self._read(count + 1)
        if not data or not data[0] & 0x01:
            raise FrameError("read while not ready")
        return bytes(data[1:])

    def close(self) -> None:
        if self._close is not None:
            self._close()
            self._close = None


class Pn532:
    def __init__(
        self,
        transport: Pn532Transport,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.transport = transport
        self._clock = clock
        self._sleep = sleep

    def _wait_ready(self, timeout: float) -> bool:
        deadline = self._clock() + timeout
        while not self.transport.ready():
            if self._clock() >= deadline:
                return False
            self._sleep(0.002)
        return True

    def call(self, command: int, params: bytes = b"", timeout: float = 0.1) -> bytes:
        """Send a command, take the ACK, return the answer's bytes after its code."""
        self.transport.write(encode_frame(bytes((command,)) + params))
        if not self._wait_ready(0.05):
            raise FrameError(f"no ACK for command {command:#04x}")
        if not is_ack(self.transport.read(len(ACK))):
            raise FrameError(f"no ACK for command {command:#04x}")
        if not self._wait_ready(timeout):
            raise FrameError(f"no answer to command {command:#04x}")
        answer = decode_frame(self.transport.read(MAX_FRAME))
        if not answer or answer[0] != command + 1:
            raise FrameError(f"answer {answer[:1].hex()} to command {command:#04x}")
        return answer[1:]

    def begin(self) -> bytes:
        """Wake, check firmware, configure. Returns (IC, Ver, Rev, Support)."""
        self.transport.wakeup()
        firmware = self.call(CMD_GET_FIRMWARE_VERSION)
        self.call(CMD_SAM_CONFIGURATION, bytes((0x01, 0x14, 0x01)))  # normal mode, no SAM
        # MaxRetries: one passive activation try, so InListPassiveTarget answers
        # "no tag" at once instead of waiting forever (its default is 0xFF = forever).
        self.call(CMD_RF_CONFIGURATION, bytes((0x05, 0xFF, 0x01, 0x01)))
        return firmware

    def read_passive_target(self) -> bytes | None:
        answer = self.call(CMD_IN_LIST_PASSIVE_TARGET, bytes((0x01, BAUD_106_TYPE_A)), 0.2)
        return parse_target(answer)


class Pn532Reader:
    def __init__(
        self,
        transport: Pn532Transport,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        poll_interval: float = 0.05,
    ) -> None:
        self._pn532 = Pn532(transport, clock=clock, sleep=sleep)
        self._clock = clock
        self._sleep = sleep
        self._interval = poll_interval
        self.where = transport.where
        try:
            firmware = self._pn532.begin()
        except (FrameError, OSError) as exc:
            transport.close()
            raise ChipReaderError(
                f"pn532 reader on {self.where}: it does not answer ({exc}). Check the "
                "mode switches (I2C: SEL0 on/SEL1 off; SPI: SEL0 off/SEL1 on on the "
                "common red board), the wiring, 3.3 V power, and that the bus is enabled "
                "in config.txt."
            ) from None
        if not firmware or firmware[0] != 0x32:
            log.warning("pn532 on %s: unexpected firmware %s", self.where, firmware.hex())

    def poll(self, timeout: float) -> TagRead | None:
        deadline = self._clock() + max(0.0, timeout)
        while True:
            try:
                uid = self._pn532.read_passive_target()
            except FrameError as exc:
                # Bad frames happen on long wires and with a tag half on the antenna.
                log.debug("pn532: %s", exc)
                uid = None
            except OSError as exc:
                raise ChipReaderError(
                    f"pn532 reader on {self.where}: bus transfer failed ({exc}); check "
                    "the cable and the mode switches"
                ) from None
            if uid is not None:
                return TagRead(uid_from_bytes(uid), "pn532", self._clock())
            if self._clock() >= deadline:
                return None
            self._sleep(min(self._interval, max(0.0, deadline - self._clock())))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._pn532.transport.close()


def spi_device_for_cs(cs_pin: int) -> int:
    """The kernel's SPI chip-select lines: CE0 is GPIO8, CE1 is GPIO7."""
    if cs_pin == 8:
        return 0
    if cs_pin == 7:
        return 1
    raise ChipReaderError(
        f"pn532 reader: pn532_cs_pin = {cs_pin}; wire the PN532's SS to GPIO8 (CE0) or "
        "GPIO7 (CE1), the kernel SPI driver's chip-select lines, and set it to 8 or 7"
    )


def open_pn532_spi(spi_bus: int, cs_pin: int) -> Pn532Reader:
    device = spi_device_for_cs(cs_pin)
    where = f"SPI bus {spi_bus} CE{device} (/dev/spidev{spi_bus}.{device})"
    try:
        import spidev  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ChipReaderError(
            "pn532 reader: the spidev package is not installed; install the Pi extras "
            "(pip install 'companion[pi]') or choose another [chips] reader"
        ) from None
    spi = spidev.SpiDev()
    try:
        spi.open(spi_bus, device)
    except FileNotFoundError:
        raise ChipReaderError(
            f"pn532 reader: {where} does not exist; enable SPI (dtparam=spi=on in "
            "/boot/firmware/config.txt, then reboot)"
        ) from None
    except OSError as exc:
        raise ChipReaderError(f"pn532 reader: cannot open {where} ({exc})") from None
    spi.max_speed_hz = 1_000_000  # the PN532 allows up to 5 MHz
    spi.mode = 0
    return Pn532Reader(SpiTransport(spi.xfer2, where=where, close=spi.close))


def open_pn532_i2c(address: int, bus: int = 1) -> Pn532Reader:
    where = f"I2C bus {bus} address {address:#04x} (/dev/i2c-{bus})"
    try:
        from smbus2 import SMBus, i2c_msg
    except ImportError:
        raise ChipReaderError(
            "pn532 reader: the smbus2 package is not installed; install the Pi extras "
            "(pip install 'companion[pi]') or choose another [chips] reader"
        ) from None
    try:
        smbus = SMBus(bus)
    except FileNotFoundError:
        raise ChipReaderError(
            f"pn532 reader: {where} does not exist; enable I2C (dtparam=i2c_arm=on in "
            "/boot/firmware/config.txt, then reboot)"
        ) from None
    except OSError as exc:
        raise ChipReaderError(f"pn532 reader: cannot open {where} ({exc})") from None

    def write(data: bytes) -> None:
        smbus.i2c_rdwr(i2c_msg.write(address, data))

    def read(count: int) -> bytes:
        msg = i2c_msg.read(address, count)
        smbus.i2c_rdwr(msg)
        return bytes(msg)

    return Pn532Reader(I2cTransport(write, read, where=where, close=smbus.close))
