"""The scripted reader: for tests, demos and a box without a reader.

`SimReader(["04A1B2C3D4E5F6", (2.0, "ARUCO-3")])`: a plain uid is read on the next
poll; `(delay, uid)` is read `delay` seconds after the previous scripted read.
`present(uid, repeats=3)` injects a noisy burst at any time (from a test or a
keyboard thread) and wakes a waiting `poll`.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Iterable

from companion.chips.base import TagRead, normalize_uid


class SimReader:
    def __init__(
        self,
        script: Iterable[str | tuple[float, str]] = (),
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        """`clock`/`sleep` let tests run scripts in virtual time; with the default
        (no `sleep`) a waiting poll is woken at once by `present`."""
        self._clock = clock
        self._sleep = sleep
        self._cond = threading.Condition()
        self._injected: collections.deque[str] = collections.deque()
        self._script: collections.deque[tuple[float, str]] = collections.deque()
        for item in script:
            delay, uid = (0.0, item) if isinstance(item, str) else item
            if delay < 0:
                raise ValueError(f"script delay for {uid!r} cannot be negative")
            self._script.append((float(delay), normalize_uid(uid)))
        self._due: float | None = None  # when the head of the script is read
        self._closed = False

    def present(self, uid: str, repeats: int = 3) -> None:
        """Queue `repeats` raw reads of `uid`, like a reader that reports a tag
        several times while it passes over the antenna."""
        key = normalize_uid(uid)
        with self._cond:
            self._injected.extend([key] * max(1, repeats))
            self._cond.notify_all()

    @property
    def exhausted(self) -> bool:
        """Nothing scripted or injected is left to read."""
        with self._cond:
            return not self._script and not self._injected

    def poll(self, timeout: float) -> TagRead | None:
        deadline = self._clock() + max(0.0, timeout)
        with self._cond:
            while not self._closed:
                now = self._clock()
                if self._injected:
                    return TagRead(self._injected.popleft(), "sim", now)
                if self._script:
                    if self._due is None:
                        self._due = now + self._script[0][0]
                    if now >= self._due:
                        uid = self._script.popleft()[1]
                        # The next delay counts from this read, not from the next poll.
                        self._due = now + self._script[0][0] if self._script else None
                        return TagRead(uid, "sim", now)
                    wake = min(deadline, self._due)
                else:
                    wake = deadline
                if now >= deadline:
                    return None
                self._wait(wake - now)
        return None

    def _wait(self, seconds: float) -> None:
        if self._sleep is None:
            self._cond.wait(seconds)
        else:
            self._sleep(seconds)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
