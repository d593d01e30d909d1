"""13.56 MHz USB HID ("keyboard wedge") reader through evdev.

The reader is a keyboard: it types the tag id and presses Enter. We `grab()` the
input device so those keystrokes never reach the console or another program, and
assemble them into lines ourselves.

Line formats seen on cheap readers, all accepted:
- hex, 8 characters (4-byte UID) or 14 (7-byte) or 20 (10-byte), card byte order;
- decimal, 10 digits (a 4-byte UID as one 32-bit number, zero-padded), or 17 digits
  (a 7-byte UID as one 56-bit number).
Decimal byte order: most of these readers print the UID *little-endian* (the
first UID byte is the least significant), so "decimal" defaults to little-endian;
`HidLineParser(decimal_order="big")` is there for the others. Either way the uid
is turned back into card byte order, so a chip has the same id on every reader
kind. Enrol and play with the same reader and the order cannot bite you.

Key codes are the Linux input ABI (include/uapi/linux/input-event-codes.h): they are
fixed by the kernel, so we do not need evdev.ecodes, and tests need no evdev.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import select
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from companion.chips.base import ChipReaderError, TagRead, uid_from_bytes

log = logging.getLogger(__name__)

EV_KEY = 1
KEY_UP, KEY_DOWN, KEY_HOLD = 0, 1, 2  # event.value for EV_KEY

_DIGITS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0"}
_KEYPAD = {79: "1", 80: "2", 81: "3", 75: "4", 76: "5", 77: "6", 71: "7", 72: "8", 73: "9", 82: "0"}
_HEX_LETTERS = {30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F"}
KEY_CHARS: dict[int, str] = {**_DIGITS, **_KEYPAD, **_HEX_LETTERS}
KEY_ENTER, KEY_KPENTER, KEY_TAB = 28, 96, 15
LINE_ENDS = frozenset({KEY_ENTER, KEY_KPENTER, KEY_TAB})
# Shift, Caps Lock, Num Lock: some readers shift hex letters; they carry no data.
MODIFIERS = frozenset({42, 54, 58, 69})

# A reader types a whole id in a few tens of ms; a longer pause mid-line means we
# joined in the middle of one (or keys were lost), so the partial line is dropped.
LINE_GAP_SECONDS = 0.5

class InputEventLike(Protocol):
    type: int
    code: int
    value: int


def parse_line(line: str, decimal_order: str = "little") -> str | None:
    """A typed line -> canonical uid, or None if it is not a tag id we understand."""
    text = line.strip().upper()
    if text.isdigit() and len(text) in (10, 17):
        nbytes = 4 if len(text) == 10 else 7
        value = int(text)
        if value >= 1 << (8 * nbytes):
            return None
        raw = value.to_bytes(nbytes, "little" if decimal_order == "little" else "big")
        return uid_from_bytes(raw)
    if len(text) in (8, 14, 20) and all(c in "0123456789ABCDEF" for c in text):
        return text
    return None


class HidLineParser:
    """Key events in, uids out. Pure, so the whole decoding is tested without evdev."""

    def __init__(self, decimal_order: str = "little") -> None:
        if decimal_order not in ("little", "big"):
            raise ValueError("decimal_order is 'little' or 'big'")
        self.decimal_order = decimal_order
        self._chars: list[str] = []
        self._last_key: float | None = None
        self.rejected: list[str] = []  # lines that were not ids, for the probe tool

    def feed(self, event: InputEventLike, now: float) -> str | None:
        if event.type != EV_KEY or event.value != KEY_DOWN:
            return None  # key-up, auto-repeat and SYN events carry nothing new
        if self._last_key is not None and now - self._last_key > LINE_GAP_SECONDS:
            self._chars.clear()
        self._last_key = now
        if event.code in LINE_ENDS:
            line = "".join(self._chars)
            self._chars.clear()
            if not line:
                return None
            uid = parse_line(line, self.decimal_order)
            if uid is None:
                self.rejected.append(line)
                log.warning("usb-hid reader typed %r, which is not a tag id; ignored", line)
            return uid
        char = KEY_CHARS.get(event.code)
        if char is not None:
            self._chars.append(char)
        elif event.code not in MODIFIERS:
            # An unexpected key means this is not a clean id line.
            self._chars.append("?")
        return None


class InputDeviceLike(Protocol):
    """The part of evdev.InputDevice we use."""

    @property
    def path(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def fd(self) -> int: ...

    def grab(self) -> None: ...
    def ungrab(self) -> None: ...
    def read(self) -> Iterable[InputEventLike]: ...
    def close(self) -> None: ...


class UsbHidReader:
    def __init__(
        self,
        device: InputDeviceLike,
        *,
        decimal_order: str = "little",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._device = device
        self._clock = clock
        self._parser = HidLineParser(decimal_order)
        self._pending: list[TagRead] = []
        try:
            device.grab()
        except OSError as exc:
            device.close()
            busy = exc.errno == errno.EBUSY
            raise ChipReaderError(
                f"usb-hid reader {device.path} ({device.name}): cannot grab it ({exc}). "
                + (
                    "Another program holds it: stop it (an old companion? a kiosk?)."
                    if busy
                    else "Check the service user may open /dev/input (group 'input')."
                )
            ) from None

    @property
    def rejected_lines(self) -> list[str]:
        return self._parser.rejected

    def poll(self, timeout: float) -> TagRead | None:
        deadline = self._clock() + max(0.0, timeout)
        while True:
            if self._pending:
                return self._pending.pop(0)
            remaining = max(0.0, deadline - self._clock())
            try:
                ready, _, _ = select.select([self._device.fd], [], [], remaining)
            except (OSError, ValueError) as exc:
                raise self._gone(exc) from None
            if ready:
                self._read_available()
                if self._pending:
                    continue
            if self._clock() >= deadline:
                return None

    def _read_available(self) -> None:
        try:
            events = list(self._device.read())
        except BlockingIOError:
            return  # woken, but the kernel had nothing whole yet
        except OSError as exc:
            raise self._gone(exc) from None
        now = self._clock()
        for event in events:
            uid = self._parser.feed(event, now)
            if uid is not None:
                self._pending.append(TagRead(uid, "usb-hid", now))

    def _gone(self, exc: BaseException) -> ChipReaderError:
        return ChipReaderError(
            f"usb-hid reader {self._device.path}: read failed ({exc}); "
            "was it unplugged? Check the USB cable and `ls /dev/input/by-id/`."
        )

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._device.ungrab()
        with contextlib.suppress(OSError):
            self._device.close()


# Name fragments of 13.56 MHz keyboard-wedge readers; used only when no device is set.
_READER_HINTS = ("rfid", "reader", "nfc", "id&ic", "ic card", "sycreader", "card")


def _looks_like_reader(device: Any) -> bool:
    name = str(getattr(device, "name", "")).lower()
    if not any(hint in name for hint in _READER_HINTS):
        return False
    try:
        keys = set(device.capabilities().get(EV_KEY, ()))
    except (OSError, AttributeError):
        return True
    return KEY_ENTER in keys and all(code in keys for code in _DIGITS)


def open_usb_hid(device_path: str, *, decimal_order: str = "little") -> UsbHidReader:
    """Open the configured device, or find the first input device that looks like a
    tag reader. evdev is imported here so the package imports off the Pi."""
    try:
        import evdev  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ChipReaderError(
            "usb-hid reader: the evdev package is not installed; install the Pi extras "
            "(pip install 'companion[pi]') or choose another [chips] reader"
        ) from None
    path = device_path
    if not path:
        found: list[str] = []
        for candidate in evdev.list_devices():
            try:
                dev = evdev.InputDevice(candidate)
            except OSError:
                continue
            found.append(f"{candidate} ({dev.name})")
            if _looks_like_reader(dev):
                path = candidate
                dev.close()
                break
            dev.close()
        if not path:
            seen = "; ".join(found) or "none readable (is the user in the 'input' group?)"
            raise ChipReaderError(
                "usb-hid reader: no input device looks like a tag reader. Plug it in, "
                "or set [chips] device to its /dev/input/by-id/...-event-kbd path. "
                f"Input devices seen: {seen}"
            )
    try:
        device = evdev.InputDevice(path)
    except FileNotFoundError:
        raise ChipReaderError(
            f"usb-hid reader {path}: no such device; is the reader plugged in? "
            "List them with `ls -l /dev/input/by-id/`."
        ) from None
    except PermissionError:
        raise ChipReaderError(
            f"usb-hid reader {path}: permission denied; add the service user to the "
            "'input' group (see firmware-config/ udev rules)"
        ) from None
    except OSError as exc:
        raise ChipReaderError(f"usb-hid reader {path}: cannot open it ({exc})") from None
    return UsbHidReader(device, decimal_order=decimal_order)
