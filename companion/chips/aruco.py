"""Chips marked with ArUco stickers, read by the camera.

Dictionary: DICT_4X4_50. A 4x4-bit marker has the biggest cells for a given sticker
size (6x6 cells with its border), so it survives blur and a small image; 50 ids are
more chips than any of our games use; and a small dictionary leaves a wide Hamming
distance between ids, so a misread gives "no marker", not a wrong unit. Marker id N
is chip uid "ARUCO-N".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from companion.chips.base import ChipReaderError, TagRead, aruco_uid

log = logging.getLogger(__name__)

DICTIONARY = cv2.aruco.DICT_4X4_50
DICTIONARY_NAME = "DICT_4X4_50"
DICTIONARY_SIZE = 50


@dataclass(frozen=True)
class MarkerSighting:
    marker_id: int
    corners: np.ndarray  # 4x2 float32, image pixels, clockwise from the marker's top-left

    @property
    def side_px(self) -> float:
        """Mean side length: how big (how near) the marker is."""
        c = self.corners
        return float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1)))

    @property
    def uid(self) -> str:
        return aruco_uid(self.marker_id)


@lru_cache(maxsize=1)
def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners are not needed to read an id; the defaults are tuned for
    # speed. A wider range of threshold windows keeps blurred and large markers.
    params.adaptiveThreshWinSizeMax = 53
    return cv2.aruco.ArucoDetector(dictionary(), params)


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect_markers(image: np.ndarray) -> list[MarkerSighting]:
    """Every marker of our dictionary in a BGR or gray image, largest first."""
    corners, ids, _rejected = _detector().detectMarkers(to_gray(image))
    if ids is None:
        return []
    found = [
        MarkerSighting(int(i), np.asarray(c, dtype=np.float32).reshape(4, 2))
        for c, i in zip(corners, ids.flatten(), strict=True)
    ]
    return sorted(found, key=lambda s: -s.side_px)


def render_marker(marker_id: int, side_px: int) -> np.ndarray:
    """The marker alone (no quiet zone), black on white, uint8 gray."""
    if not 0 <= marker_id < DICTIONARY_SIZE:
        raise ValueError(f"marker id {marker_id} is outside {DICTIONARY_NAME} (0-49)")
    image: np.ndarray = cv2.aruco.generateImageMarker(dictionary(), marker_id, side_px)
    return image


@runtime_checkable
class FrameSource(Protocol):
    """The camera's frames, numbered: the runner's LatestFrame."""

    def wait_newer(self, after: int, timeout: float) -> tuple[int, np.ndarray | None]:
        """The newest frame and its number once that number is not `after`, waiting up
        to `timeout` seconds; the current ones if none came. None: no frame (the camera
        is closed or not started)."""
        ...


class PolledFrames:
    """A plain callable of the camera's newest frame as a FrameSource: a frame is new
    when it is not the object returned before; the callable is asked every `interval`
    seconds while waiting."""

    def __init__(self, frames: Callable[[], np.ndarray | None], clock: Callable[[], float],
                 sleep: Callable[[float], None], interval: float) -> None:
        self._frames = frames
        self._clock = clock
        self._sleep = sleep
        self._interval = interval
        self._last: np.ndarray | None = None
        self._seq = 0

    def wait_newer(self, after: int, timeout: float) -> tuple[int, np.ndarray | None]:
        deadline = self._clock() + max(0.0, timeout)
        while True:
            frame = self._frames()
            if frame is not self._last:
                self._last, self._seq = frame, self._seq + 1
            if self._seq != after or self._clock() >= deadline:
                return self._seq, self._last
            self._sleep(min(self._interval, max(0.0, deadline - self._clock())))


class ArucoReader:
    """Reads the largest marker in each camera frame (the chip held nearest).

    A marker must be seen in `confirm_frames` frames in a row before it is reported:
    one odd frame (a die's pips, a shadow) then never activates a unit. Each frame is
    looked at once: `poll` waits for the camera's next frame rather than reading the
    same one again (one still frame is not several sightings, and an idle reader does
    not spin a core).
    """

    def __init__(
        self,
        frames: FrameSource | Callable[[], np.ndarray | None],
        *,
        confirm_frames: int = 2,
        min_side_px: float = 20.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        idle_interval: float = 0.03,
    ) -> None:
        """`frames`: a FrameSource, or a callable of the newest frame (None: no frame),
        asked every `idle_interval` seconds while waiting for a new one."""
        self._frames: FrameSource = (
            frames if isinstance(frames, FrameSource)
            else PolledFrames(frames, clock, sleep, idle_interval)
        )
        self._confirm = max(1, confirm_frames)
        self._min_side = min_side_px
        self._clock = clock
        self._seq = 0  # the number of the last frame looked at
        self._candidate: int | None = None
        self._streak = 0

    def poll(self, timeout: float) -> TagRead | None:
        deadline = self._clock() + max(0.0, timeout)
        while True:
            try:
                seq, frame = self._frames.wait_newer(
                    self._seq, max(0.0, deadline - self._clock()))
            except Exception as exc:  # the camera port's errors vary by backend
                raise ChipReaderError(
                    f"aruco reader: the camera failed ({exc}); check the [camera] settings"
                ) from None
            if seq != self._seq:
                self._seq = seq
                if frame is None:  # the camera closed: no sighting carries over
                    self._candidate, self._streak = None, 0
                else:
                    read = self._look(frame)
                    if read is not None:
                        return read
            if self._clock() >= deadline:
                return None

    def _look(self, frame: np.ndarray) -> TagRead | None:
        sightings = [s for s in detect_markers(frame) if s.side_px >= self._min_side]
        if not sightings:
            self._candidate, self._streak = None, 0
            return None
        best = sightings[0].marker_id
        if best == self._candidate:
            self._streak += 1
        else:
            self._candidate, self._streak = best, 1
        if self._streak >= self._confirm:
            return TagRead(aruco_uid(best), "aruco", self._clock())
        return None

    def close(self) -> None:
        """The camera belongs to the camera port; nothing of ours to release."""
