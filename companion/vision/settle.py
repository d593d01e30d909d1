"""Turning a camera stream into rolls: report each settled roll exactly once.

Motion is measured cheaply on every frame (a 96-pixel-wide blurred grey thumbnail compared
with the previous one), so the dice reader itself runs only when the tray has been still
for ``still_seconds``. Hands and tumbling dice are motion, so they are never read.

Exactly-once: after a report the detector is disarmed. It re-arms only when something moves
AND the tray, once still again, looks different from the reported frame and reads
differently (a hand passing over the tray without touching the dice changes nothing, so
there is no second report).

A detector made with ``armed=False`` (or after ``disarm()``) takes the first tray it sees
settle as already reported: a camera opened anew (a reconnect, a restart) does not
report the dice left lying in the tray, only the next throw (movement, then stillness).
"""

from __future__ import annotations

import cv2
import numpy as np

from .imageio import check_frame
from .reader import DiceReader
from .types import FrameReading

THUMB_W = 96


class SettleDetector:
    """Feed frames in time order; ``feed`` returns a FrameReading once per settled roll."""

    def __init__(
        self,
        reader: DiceReader,
        still_seconds: float = 0.2,
        motion_threshold: float = 0.004,
        pixel_threshold: int = 14,
        report_empty: bool = False,
        armed: bool = True,
    ) -> None:
        """
        still_seconds: how long the tray must be unchanged before it is read.
        motion_threshold: fraction of thumbnail pixels that must change for "motion".
        pixel_threshold: grey-level change (0-255) that counts a thumbnail pixel as changed;
            above camera noise, below a die moving.
        report_empty: also report a settled tray with no dice (normally not a roll).
        armed: False to take the first settled tray as already reported (see ``disarm``).
        """
        self.reader = reader
        self.still_seconds = still_seconds
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self.report_empty = report_empty
        self._prev: np.ndarray | None = None
        self._prev_ts: float | None = None
        self._still_since: float | None = None
        self._armed = True
        self._reported_thumb: np.ndarray | None = None
        self._reported: FrameReading | None = None
        #: Timestamp of the first still frame of the last reported roll (for latency).
        self.last_still_start: float | None = None
        if not armed:
            self.disarm()

    def disarm(self) -> None:
        """Take the next settled tray as already reported: whatever lies in it when a
        camera is opened anew is not a throw. Only something moving and the tray then
        settling differently (a new throw) is reported."""
        self._armed = False
        self._still_since = None
        self._reported_thumb = None
        self._reported = None

    def _thumb(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        th = max(8, round(h * THUMB_W / w))
        small = cv2.resize(frame, (THUMB_W, th), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(grey, (3, 3), 0).astype(np.int16)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> bool:
        if a.shape != b.shape:
            return True
        frac = float(np.mean(np.abs(a - b) > self.pixel_threshold))
        return frac > self.motion_threshold

    def reset(self, armed: bool = True) -> None:
        """Forget everything (e.g. after the camera was moved)."""
        self.__init__(  # type: ignore[misc]
            self.reader, self.still_seconds, self.motion_threshold, self.pixel_threshold,
            self.report_empty, armed,
        )

    def feed(self, frame_bgr: np.ndarray, timestamp: float) -> FrameReading | None:
        frame = check_frame(frame_bgr)
        thumb = self._thumb(frame)
        prev, prev_ts = self._prev, self._prev_ts
        self._prev, self._prev_ts = thumb, timestamp
        if prev is None or prev_ts is None:
            self._still_since = timestamp
            return None
        if self._changed(prev, thumb):
            self._still_since = None
            if self._reported_thumb is not None:
                self._armed = True
            return None
        if self._still_since is None:
            # This frame equals the previous one: stillness began at the previous frame.
            self._still_since = prev_ts
        if timestamp - self._still_since < self.still_seconds:
            return None
        if not self._armed and self._reported_thumb is None:
            # Disarmed with nothing reported yet: the first settled tray (the dice left
            # in it) counts as reported, whatever moved before it settled.
            reading = self.reader.read(frame)
            self._reported_thumb = thumb
            if reading.dice or reading.unreadable or self.report_empty:
                self._reported = reading
            return None
        if not self._armed:
            return None
        self._armed = False
        if self._reported_thumb is not None and not self._changed(self._reported_thumb, thumb):
            return None  # Something moved over the tray but left it as it was.
        reading = self.reader.read(frame)
        if not reading.dice and not reading.unreadable and not self.report_empty:
            self._reported_thumb = thumb
            return None
        if self._reported is not None and _same_roll(self._reported, reading):
            self._reported_thumb = thumb
            return None
        self._reported_thumb = thumb
        self._reported = reading
        self.last_still_start = self._still_since
        return reading


def _same_roll(a: FrameReading, b: FrameReading) -> bool:
    """Same dice, same values, each within half a die of where it was."""
    if len(a.dice) != len(b.dice) or len(a.unreadable) != len(b.unreadable):
        return False
    used: set[int] = set()
    for d in a.dice:
        for j, e in enumerate(b.dice):
            if j in used or (d.kind, d.value) != (e.kind, e.value):
                continue
            tol = max(d.box[2], d.box[3]) / 2
            if (abs(d.box[0] - e.box[0]) <= tol and abs(d.box[1] - e.box[1]) <= tol):
                used.add(j)
                break
        else:
            return False
    return True
