"""Hardware fakes at the lowest practical level for the chip readers.

- evdev: an InputDevice whose fd is a real pipe (so select() works) and whose read()
  yields (type, code, value) key events;
- MFRC522: a register-level chip simulator behind `xfer2`, with an ISO 14443A tag
  (IDLE/READY/ACTIVE/HALT states, cascade levels, CRC_A, BCC);
- PN532: frames on the wire, over SPI (bit-reversed bytes, DW/SR/DR) or I2C.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.chips import hid
from companion.chips.rc522 import crc_a

# ---------------------------------------------------------------- evdev


@dataclass
class FakeEvent:
    type: int
    code: int
    value: int
    sec: int = 0
    usec: int = 0


def key_events(text: str, *, enter: bool = True, shift_letters: bool = False) -> list[FakeEvent]:
    """What a keyboard-wedge reader emits for `text`: down/up per key, SYN after each."""
    codes = {
        v: k for k, v in hid.KEY_CHARS.items() if k not in (71, 72, 73, 75, 76, 77, 79, 80, 81, 82)
    }
    events: list[FakeEvent] = []
    for ch in text.upper():
        code = codes[ch]
        shifted = shift_letters and ch.isalpha()
        if shifted:
            events.append(FakeEvent(hid.EV_KEY, 42, 1))
        events += [FakeEvent(hid.EV_KEY, code, 1), FakeEvent(0, 0, 0)]
        events += [FakeEvent(hid.EV_KEY, code, 0), FakeEvent(0, 0, 0)]
        if shifted:
            events.append(FakeEvent(hid.EV_KEY, 42, 0))
    if enter:
        events += [FakeEvent(hid.EV_KEY, hid.KEY_ENTER, 1), FakeEvent(hid.EV_KEY, hid.KEY_ENTER, 0)]
    return events


class FakeInputDevice:
    """evdev.InputDevice as the reader uses it."""

    def __init__(
        self,
        path: str = "/dev/input/event7",
        name: str = "IC Reader IC Reader",
        grab_error: int | None = None,
    ) -> None:
        self.path = path
        self.name = name
        self.grabbed = False
        self.closed = False
        self.grab_error = grab_error
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self._queue: list[FakeEvent] = []

    @property
    def fd(self) -> int:
        return self._r

    def capabilities(self) -> dict[int, list[int]]:
        return {hid.EV_KEY: [*hid.KEY_CHARS, hid.KEY_ENTER]}

    def grab(self) -> None:
        if self.grab_error is not None:
            raise OSError(self.grab_error, os.strerror(self.grab_error))
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def push(self, events: Iterable[FakeEvent]) -> None:
        self._queue.extend(events)
        os.write(self._w, b"x")

    def read(self) -> Iterable[FakeEvent]:
        with contextlib.suppress(BlockingIOError):
            os.read(self._r, 4096)
        if not self._queue:
            raise BlockingIOError(errno.EAGAIN, "no events")
        events, self._queue = self._queue, []
        return iter(events)

    def close(self) -> None:
        if not self.closed:
            os.close(self._r)
            os.close(self._w)
            self.closed = True


# ---------------------------------------------------------------- ISO 14443A tag + MFRC522


@dataclass
class Tag:
    """An ISO 14443A tag: NTAG213 (7-byte UID) by default."""

    uid: bytes
    state: str = "IDLE"
    level: int = 0
    faults: list[str] = field(default_factory=list)  # next exchanges to spoil: "bcc", "mute"

    def respond(self, frame: list[int], bits: int) -> list[int] | None:
        fault = self.faults.pop(0) if self.faults else None
        if fault == "mute":
            return None
        answer = self._respond(frame, bits)
        if fault == "bcc" and answer is not None and len(answer) == 5:
            answer = [*answer[:4], answer[4] ^ 0xFF]
        return answer

    def _levels(self) -> list[list[int]]:
        u = list(self.uid)
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [[0x88, *u[:3]], u[3:]]
        return [[0x88, *u[:3]], [0x88, *u[3:6]], u[6:]]

    def _respond(self, frame: list[int], bits: int) -> list[int] | None:
        if bits == 7 and len(frame) == 1:
            if frame[0] == 0x52 and self.state in ("IDLE", "HALT"):
                self.state, self.level = "READY", 0
                return [0x44, 0x00] if len(self.uid) == 7 else [0x04, 0x00]
            if frame[0] == 0x26 and self.state == "IDLE":
                self.state, self.level = "READY", 0
                return [0x44, 0x00]
            if self.state in ("READY", "ACTIVE"):
                self.state = "IDLE"  # unexpected here: back to IDLE, no answer
            return None
        levels = self._levels()
        cascade = (0x93, 0x95, 0x97)[self.level]
        if self.state == "READY" and frame == [cascade, 0x20]:
            part = levels[self.level]
            return [*part, part[0] ^ part[1] ^ part[2] ^ part[3]]
        if self.state == "READY" and len(frame) == 9 and frame[1] == 0x70:
            part = levels[self.level]
            ok = (
                frame[0] == (0x93, 0x95, 0x97)[self.level]
                and frame[2:6] == part
                and bytes(frame[7:]) == crc_a(frame[:7])
            )
            if ok:
                last = self.level == len(levels) - 1
                sak = (0x00 if len(self.uid) == 7 else 0x08) if last else 0x04
                if last:
                    self.state = "ACTIVE"
                else:
                    self.level += 1
                return [sak, *crc_a([sak])]
        if (
            self.state == "ACTIVE"
            and frame[:2] == [0x50, 0x00]
            and bytes(frame[2:]) == crc_a([0x50, 0])
        ):
            self.state = "HALT"
            return None
        self.state = "IDLE"  # ISO 14443-3: anything unexpected sends a tag back to IDLE
        return None


class FakeMfrc522:
    """Register-level MFRC522 behind spidev's xfer2."""

    def __init__(self, tag: Tag | None = None, version: int = 0x92) -> None:
        self.tag = tag
        self.version = version
        self.regs: dict[int, int] = {}
        self.fifo: list[int] = []
        self.transfers = 0
        self.reset()

    def reset(self) -> None:
        self.regs = {0x37: self.version, 0x0C: 0x10, 0x14: 0x80}
        self.fifo = []

    def xfer2(self, data: list[int]) -> list[int]:
        self.transfers += 1
        addr = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            out = [0]
            for _ in data[1:]:
                if addr == 0x09:
                    out.append(self.fifo.pop(0) if self.fifo else 0)
                elif addr == 0x0A:
                    out.append(len(self.fifo))
                else:
                    out.append(self.regs.get(addr, 0))
            return out
        for value in data[1:]:
            self._write(addr, value)
        return [0] * len(data)

    def _write(self, addr: int, value: int) -> None:
        if addr == 0x09:
            self.fifo.append(value)
        elif addr == 0x0A:
            if value & 0x80:
                self.fifo = []
        elif addr == 0x04:  # ComIrqReg: writing bit 7 = 0 clears the flags set in value
            if not value & 0x80:
                self.regs[0x04] = self.regs.get(0x04, 0) & ~value
        elif addr == 0x01:
            self.regs[0x01] = value
            if value == 0x0F:
                self.reset()
        elif addr == 0x0D:
            self.regs[0x0D] = value
            if value & 0x80 and self.regs.get(0x01) == 0x0C:
                self._transceive(value & 0x07)
        else:
            self.regs[addr] = value

    def _transceive(self, bits: int) -> None:
        frame, self.fifo = self.fifo, []
        answer = self.tag.respond(frame, bits) if self.tag is not None else None
        self.regs[0x06] = 0
        if answer is None:
            self.regs[0x04] = self.regs.get(0x04, 0) | 0x01  # TimerIRq
            return
        self.fifo = list(answer)
        self.regs[0x0C] = 0x10  # all bits of the last byte valid
        self.regs[0x04] = self.regs.get(0x04, 0) | 0x30  # RxIRq | IdleIRq


# ---------------------------------------------------------------- PN532


def frame(data: bytes, tfi: int = 0xD5) -> bytes:
    body = bytes((tfi,)) + data
    n = len(body)
    return bytes((0, 0, 0xFF, n, (-n) & 0xFF, *body, (-sum(body)) & 0xFF, 0))


ACK = bytes((0, 0, 0xFF, 0, 0xFF, 0))


def rev(b: int) -> int:
    return int(f"{b:08b}"[::-1], 2)


class FakePn532:
    """The PN532's side of the wire. `tags` is a list of NFCIDs to answer with, one per
    InListPassiveTarget (None: no tag); `corrupt` spoils the DCS of the next answers."""

    def __init__(self, tags: Iterable[bytes | None] = (), *, mute: bool = False) -> None:
        self.tags = list(tags)
        self.mute = mute
        self.corrupt = 0
        self.commands: list[bytes] = []
        self.outbox: list[bytes] = []

    def handle(self, raw: bytes) -> None:
        if self.mute:
            return
        start = raw.index(b"\x00\xff")
        n = raw[start + 2]
        assert (n + raw[start + 3]) & 0xFF == 0, "bad LCS from host"
        body = raw[start + 4 : start + 4 + n]
        assert (sum(body) + raw[start + 4 + n]) & 0xFF == 0, "bad DCS from host"
        assert body[0] == 0xD4
        cmd, params = body[1], body[2:]
        self.commands.append(bytes(body[1:]))
        self.outbox.append(ACK)
        if cmd == 0x02:
            answer = bytes((0x03, 0x32, 0x01, 0x06, 0x07))
        elif cmd in (0x14, 0x32):
            answer = bytes((cmd + 1,))
        elif cmd == 0x4A:
            assert params == b"\x01\x00"
            tag = self.tags.pop(0) if self.tags else None
            answer = bytes((75, 0)) if tag is None else bytes((75, 1, 1, 0, 68, 0, len(tag), *tag))
        else:
            answer = bytes((0x7F,))
        out = frame(answer)
        if self.corrupt:
            self.corrupt -= 1
            out = out[:-2] + bytes(((out[-2] + 1) & 0xFF, 0))
        self.outbox.append(out)

    def take(self, count: int) -> bytes:
        data = self.outbox.pop(0) if self.outbox else b""
        return (data + bytes(count))[:count]

    # SPI: bytes on the wire are LSB first; the host bit-reverses them.
    def xfer2(self, data: list[int]) -> list[int]:
        plain = bytes(rev(b) for b in data)
        op = plain[0]
        if op == 0x01:
            self.handle(plain[1:])
            reply = bytes(len(plain))
        elif op == 0x02:
            reply = bytes((0, 0x01 if self.outbox else 0x00))
        elif op == 0x03:
            reply = b"\x00" + self.take(len(plain) - 1)
        else:
            reply = bytes(len(plain))  # wake-up byte
        return [rev(b) for b in reply]

    # I2C: every read starts with the status byte.
    def i2c_write(self, data: bytes) -> None:
        if data == b"\x00":
            return
        self.handle(data)

    def i2c_read(self, count: int) -> bytes:
        if not self.outbox:
            return bytes(count)
        if count == 1:
            return b"\x01"
        return b"\x01" + self.take(count - 1)


def fake_module(name: str, **attrs: Any) -> Any:
    import types

    module = types.ModuleType(name)
    for key, value in attrs.items():
        setattr(module, key, value)
    return module
