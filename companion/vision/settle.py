"""Turning a camera stream into rolls: report each settled roll exactly once.

Motion is measured on every frame, cheaply, on a grey thumbnail fine enough that a die
spans about a dozen of its pixels (1280x960 frames are shrunk 4x). A frame has moved when,
after the global brightness change between the two thumbnails is taken out (a gain and an
offset fitted to the unchanged pixels: flicker, auto-exposure), more than a quarter of one
die's area changed by more than the camera's noise. Each frame is compared with the
previous one and with the first frame of the still spell, so a die creeping a pixel a frame
or a camera running at 120 fps does not hide motion. The dice reader runs only once the
tray has been still for ``still_seconds``; hands and tumbling dice are motion, so they are
never read.

Exactly once: a still tray is reported only when dice moved since the last report. A die
read as it was reported, where it was, is the same die. Any other die of the new reading
(read otherwise, refused, or somewhere new) is looked for at its place in the reported
frame: the same die is there when the picture inside its box (high-passed, so light and
shadow do not count) correlates with what was there, allowing for a small shift. A die not
found there moved: it was thrown again, toppled over, or landed in a new place, and the
whole reading is reported. A hand or a shadow passing over unmoved dice can change how a
die reads, but not the picture of the die, so nothing is reported.

A detector made with ``armed=False`` (or after ``disarm()``) takes the first tray it sees
settle as already reported: a camera opened anew (a reconnect, a restart) does not
report the dice left lying in the tray, only the next throw.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .imageio import check_frame
from .reader import DiceReader
from .types import Box, DieReading, FrameReading

#: The motion thumbnail's long side, in pixels: frames are shrunk by a whole factor (4x
#: for 1280x960, 2x for 640x640), so a d6 of a 1280x960 box camera (~55 px) is ~14 px.
THUMB_LONG = 320
#: A calibrated die is at least this many thumbnail pixels across (a finer thumbnail
#: otherwise).
THUMB_DIE_MIN = 8
#: The die size assumed before one is known (no calibration, nothing read yet): 1/40 of
#: the frame's long side, smaller than the box's dice (1/23), so it errs towards motion.
DEFAULT_DIE_FRACTION = 1 / 40
#: A thumbnail pixel has changed when it differs by more than ``pixel_threshold`` grey
#: levels and by more than this many times the noise of the difference (robust sigma) ...
NOISE_K = 5.0
#: ... the noise raising the threshold to at most this many times ``pixel_threshold`` (a
#: hand filling most of the picture must not pass for noise).
NOISE_CAP = 3.0
#: Fewest changed thumbnail pixels that are motion, whatever the die size.
MIN_CHANGED_PX = 6
#: A fitted gain outside this range is not a light change but a different picture.
GAIN_RANGE = (0.5, 2.0)

#: Same die: each die is compared at about this many pixels across.
SAME_DIE_PX = 48
#: ... inside its box less this share of its side on each edge (the face, not the floor
#: around it, whose shadows and neighbours can change).
SAME_DIE_INSET = 0.15
#: ... after a high-pass that keeps what is smaller than this share of its side (pips,
#: numerals, edges), so a shadow or a change of light does not count;
SAME_DIE_HIGHPASS = 0.1
#: ... looked for up to this share of its side away (a camera nudged, a die pushed a
#: little without turning);
SAME_DIE_SEARCH = 0.3
#: ... and it is the same die at a normalised correlation of at least this. Measured on
#: composed trays at 640x640 and 1280x960: the same die under a hard shadow edge, light
#: changed 20 %, camera noise (sigma 8) or the camera shifted 1-3 px scores 0.78 or more
#: (mostly over 0.95); another face in the same place at most 0.60, a die where there was
#: none at most 0.41.
SAME_DIE_CORRELATION = 0.7
#: A place whose high-passed picture varies less than this share of its brightness held
#: no die (the shipped dice 0.13 or more, in any light; the tray's floor 0.02 at most).
SAME_DIE_STRUCTURE = 0.03
#: A report after less movement than this many dice's areas in all (frame to frame) since
#: the last one is a nudge, not a throw: a die toppling over (0.5-0.9 of a die's area a
#: frame, for a few frames) or pushed. A throw brings a hand or dice tumbling across the
#: tray, dozens of dice's areas.
NUDGE_DIE_AREAS = 4.0
#: Timestamps are floats: a spell of exactly ``still_seconds`` counts.
_EPS = 1e-6


class SettleDetector:
    """Feed frames in time order; ``feed`` returns a FrameReading once per settled roll."""

    def __init__(
        self,
        reader: DiceReader,
        still_seconds: float = 0.2,
        motion_threshold: float = 0.25,
        pixel_threshold: float = 10.0,
        report_empty: bool = False,
        armed: bool = True,
        *,
        die_px: float | None = None,
    ) -> None:
        """
        still_seconds: how long the tray must be unchanged before it is read.
        motion_threshold: the share of one die's area that must change for "motion".
        pixel_threshold: grey-level change (0-255) that counts a thumbnail pixel as changed,
            once the global light change is taken out (raised on a noisy camera: see
            ``NOISE_K``).
        report_empty: also report a settled tray with no dice (normally not a roll).
        armed: False to take the first settled tray as already reported (see ``disarm``).
        die_px: the dice's size (box side) in the frames' pixels; by default the reader's
            calibrated size, else that of the dice last read, else 1/40 of the frame.
        """
        if not still_seconds >= 0:
            raise ValueError(f"still_seconds must be 0 or more, not {still_seconds}")
        if not motion_threshold > 0 or not pixel_threshold > 0:
            raise ValueError("motion_threshold and pixel_threshold must be positive")
        self.reader = reader
        self.still_seconds = still_seconds
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self.report_empty = report_empty
        self.die_px = die_px
        #: Timestamp of the first still frame of the last reported roll (for latency).
        self.last_still_start: float | None = None
        #: Whether the last report came after too little movement for a throw (see
        #: ``NUDGE_DIE_AREAS``): dice of the reported throw moved (a die toppled over),
        #: nobody threw. The box does not take such a report for the next roll.
        self.last_report_nudged = False
        self._start(armed)

    def _start(self, armed: bool) -> None:
        self._shape: tuple[int, int] | None = None
        self._factor = 1
        self._prev: np.ndarray | None = None
        self._prev_ts = 0.0
        self._anchor: np.ndarray | None = None  # the first frame of the still spell
        self._anchor_ts = 0.0
        self._pending = True  # the still spell has not been looked at yet
        self._armed = armed
        self._ref_grey: np.ndarray | None = None  # the frame last reported (or adopted)
        self._ref_thumb: np.ndarray | None = None
        self._reported: FrameReading | None = None
        self._seen_die_px: float | None = None
        self._stirred = math.inf  # dice's areas moved since the last report (unknown yet)
        self._calibrated_px = 0.0  # the reader's calibrated die size in these frames
        self._die_side = 1.0  # one die's side in thumbnail pixels
        self.last_still_start = None

    def disarm(self) -> None:
        """Take the next settled tray as already reported: whatever lies in it when a
        camera is opened anew is not a throw. Only dice moving and settling afterwards
        (a new throw) are reported."""
        self._armed = False
        self._ref_grey = self._ref_thumb = None
        self._reported = None
        self._anchor = None  # the still spell starts again
        self._pending = True

    def reset(self, armed: bool = True) -> None:
        """Forget everything (e.g. after the camera was moved)."""
        self._start(armed)

    @property
    def armed(self) -> bool:
        """Whether the first settled tray will be reported (nothing reported or adopted
        yet, and not disarmed)."""
        return self._armed and self._ref_grey is None

    # ------------------------------------------------------------------ frames

    def feed(self, frame_bgr: np.ndarray, timestamp: float) -> FrameReading | None:
        """The reading of a new throw, or None. A throw is read at the first frame
        ``still_seconds`` (timestamps in seconds) after the first frame of its still
        spell, the frame with the dice at rest in their final places."""
        frame = check_frame(frame_bgr)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if grey.shape != self._shape:
            self._new_geometry(grey.shape[0], grey.shape[1])
        thumb = self._thumb(grey)
        prev, prev_ts = self._prev, self._prev_ts
        self._prev, self._prev_ts = thumb, timestamp
        anchor = self._anchor
        if anchor is None or prev is None or timestamp < prev_ts:
            self._stirred = math.inf  # what happened meanwhile is not known
            moved = True
        else:
            changed = self._changed_px(prev, thumb)
            moved = changed >= self._motion_px()
            if moved:
                self._stirred += changed / (self._die_side * self._die_side)
            elif anchor is not prev:
                moved = self._moved(anchor, thumb)
        if moved:
            # Motion (or a first frame, or a clock that went back): this frame is the
            # first of a new still spell.
            self._anchor, self._anchor_ts = thumb, timestamp
            self._pending = True
            return None
        if not self._pending or timestamp - self._anchor_ts < self.still_seconds - _EPS:
            return None
        self._pending = False
        return self._settled(frame, grey, thumb)

    def _settled(self, frame: np.ndarray, grey: np.ndarray,
                 thumb: np.ndarray) -> FrameReading | None:
        """The tray has been still for ``still_seconds``: read it, report it if new."""
        if self._ref_thumb is not None and not self._moved(self._ref_thumb, thumb):
            return None  # as it was when reported: a hand passed, nothing to read
        reading = self.reader.read(frame)
        boxes = _boxes(reading)
        if boxes:
            # The smallest die read: motion is measured against it.
            long_side = max(frame.shape[:2])
            self._seen_die_px = float(np.clip(min(max(b[2], b[3]) for b in boxes),
                                              long_side / 80, long_side / 8))
            self._die_side = self._die_px() / self._factor
        if self._ref_grey is None:
            if not self._armed:
                # Disarmed: the first settled tray (the dice left in it) counts as
                # reported, whatever moved before it settled.
                self._adopt(grey, thumb, reading)
                return None
            if not boxes and not self.report_empty:
                return None  # an empty tray is not a roll
        else:
            if not boxes and not self.report_empty:
                return None  # the dice were picked up (or are all hidden)
            if not self._dice_moved(grey, reading):
                return None  # the same dice where they lay: the same throw
        self.last_report_nudged = (self._ref_grey is not None
                                   and self._stirred < NUDGE_DIE_AREAS)
        self._adopt(grey, thumb, reading)
        self.last_still_start = self._anchor_ts
        return reading

    def _adopt(self, grey: np.ndarray, thumb: np.ndarray, reading: FrameReading) -> None:
        self._ref_grey, self._ref_thumb, self._reported = grey, thumb, reading
        self._stirred = 0.0

    # ------------------------------------------------------------------ motion

    def _new_geometry(self, h: int, w: int) -> None:
        """A first frame, or the camera changed its resolution: what lies in the tray
        now is taken as it was (as for a camera opened anew)."""
        had_ref = self._ref_grey is not None
        self._shape = (h, w)
        self._seen_die_px = None
        self._calibrated_px = self._calibrated_die_px(w, h)
        factor = max(1, round(max(h, w) / THUMB_LONG))
        known = self.die_px or self._calibrated_px
        if known:
            factor = max(1, min(factor, int(known // THUMB_DIE_MIN)))
        self._factor = factor
        self._die_side = self._die_px() / factor
        self._prev = self._anchor = None
        self._pending = True
        if had_ref:
            self.disarm()

    def _thumb(self, grey: np.ndarray) -> np.ndarray:
        h, w = grey.shape
        f = self._factor
        small = grey if f == 1 else cv2.resize(grey, (w // f, h // f),
                                               interpolation=cv2.INTER_AREA)
        out: np.ndarray = cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)
        return out

    def _die_px(self) -> float:
        """One die's side in the frames' pixels: given, calibrated, last read, assumed."""
        h, w = self._shape or (0, 0)
        return (self.die_px or self._calibrated_px or self._seen_die_px
                or max(h, w) * DEFAULT_DIE_FRACTION)

    def _calibrated_die_px(self, w: int, h: int) -> float:
        """The reader's calibrated die size in this frame, where the far side of a tray
        seen at an angle makes dice smallest; 0 when not calibrated."""
        cal = getattr(self.reader, "calibration", None)
        if cal is None or not getattr(cal, "die_px", 0):
            return 0.0
        die = float(cal.scaled_die_px(w, h))
        corners = cal.scaled_corners(w, h)
        if corners is not None and len(corners) == 4:
            from .perspective import order_corners

            tl, tr, br, bl = order_corners(corners)
            pairs = ((tr - tl, br - bl), (bl - tl, br - tr))
            for a, b in pairs:
                la, lb = float(np.hypot(*a)), float(np.hypot(*b))
                if max(la, lb) > 0:
                    die *= min(la, lb) / max(la, lb)
        return die

    def _motion_px(self) -> float:
        """Fewest changed thumbnail pixels that are motion: a share of one die's area."""
        side = self._die_side
        return max(MIN_CHANGED_PX, self.motion_threshold * side * side)

    def _moved(self, a: np.ndarray, b: np.ndarray) -> bool:
        return self._changed_px(a, b) >= self._motion_px()

    def _changed_px(self, a: np.ndarray, b: np.ndarray) -> int:
        """Thumbnail pixels that changed from ``a`` to ``b`` beyond a global light change
        (a gain and an offset fitted to the unchanged pixels) and beyond noise."""
        if a.shape != b.shape:
            return a.size
        x, y = a.ravel(), b.ravel()
        gain, offset = _fit(x, y)
        r = np.abs(y - (gain * x + offset))
        # The noise of the difference, from its median (changes cover few pixels).
        sigma = 1.4826 * float(np.median(r[::5]))
        threshold = min(max(self.pixel_threshold, NOISE_K * sigma),
                        NOISE_CAP * self.pixel_threshold)
        still = r <= threshold
        if np.count_nonzero(still) < r.size // 2:
            return r.size  # most of the picture changed
        gain, offset = _fit(x[still], y[still])
        if not GAIN_RANGE[0] <= gain <= GAIN_RANGE[1]:
            return r.size
        r = np.abs(y - (gain * x + offset))
        return int(np.count_nonzero(r > threshold))

    # ------------------------------------------------------------------ same dice

    def _dice_moved(self, grey: np.ndarray, reading: FrameReading) -> bool:
        """Whether a die of ``reading`` (of ``grey``) is not one that lay still since the
        report. A die read as before, where it was, is the same die; any other (read
        otherwise, refused, or somewhere new) is looked for in the reported frame."""
        reported = self._reported
        before = reported.dice if reported is not None else ()
        if not reading.dice and not reading.unreadable:
            # An empty tray (report_empty) is new when the reported dice have gone.
            gone = _boxes(reported) if reported is not None else []
            return any(not self._same_die(grey, b) for b in gone)
        for die in reading.dice:
            if any(_read_alike(die, old) for old in before):
                continue
            if not self._same_die(grey, die.box):
                return True
        return any(not self._same_die(grey, u.box) for u in reading.unreadable)

    def _same_die(self, grey: np.ndarray, box: Box) -> bool:
        """Whether the die in ``box`` of ``grey`` lay there, unmoved and showing the same
        face, in the reported frame (see ``SAME_DIE_*``)."""
        ref = self._ref_grey
        if ref is None or ref.shape != grey.shape:
            return False
        x, y, w, h = (int(v) for v in box)
        side = max(w, h)
        if side < 4:
            return False
        scale = max(1.0, side / SAME_DIE_PX)
        sigma = SAME_DIE_HIGHPASS * side / scale
        search = max(2.0, SAME_DIE_SEARCH * side)
        margin = math.ceil(search + 3 * SAME_DIE_HIGHPASS * side) + 2
        H, W = grey.shape
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(W, x + w + margin), min(H, y + h + margin)
        a, a_low = _highpass(ref[y0:y1, x0:x1], scale, sigma)
        b, _ = _highpass(grey[y0:y1, x0:x1], scale, sigma)
        inset = SAME_DIE_INSET * side

        def at(v: float) -> int:
            return max(0, round(v / scale))

        tx0, ty0 = at(x - x0 + inset), at(y - y0 + inset)
        tx1, ty1 = at(x + w - x0 - inset), at(y + h - y0 - inset)
        template = a[ty0:ty1, tx0:tx1]
        if min(template.shape) < 4:
            return False
        brightness = float(a_low[ty0:ty1, tx0:tx1].mean())
        if float(template.std()) < max(1.0, SAME_DIE_STRUCTURE * brightness):
            return False  # no die lay there
        r = round(search / scale)
        area = b[max(0, ty0 - r):ty1 + r, max(0, tx0 - r):tx1 + r]
        if area.shape[0] < template.shape[0] or area.shape[1] < template.shape[1]:
            return False
        score = cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED)
        return float(score.max()) >= SAME_DIE_CORRELATION


def _read_alike(a: DieReading, b: DieReading) -> bool:
    """The same kind and value, within half a die of the same place."""
    if (a.kind, a.value) != (b.kind, b.value):
        return False
    tol = max(b.box[2], b.box[3]) / 2
    return (abs(a.box[0] + a.box[2] / 2 - b.box[0] - b.box[2] / 2) <= tol
            and abs(a.box[1] + a.box[3] / 2 - b.box[1] - b.box[3] / 2) <= tol)


def _boxes(reading: FrameReading) -> list[Box]:
    return [d.box for d in reading.dice] + [u.box for u in reading.unreadable]


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least-squares gain and offset taking ``x`` to ``y``."""
    n = x.size
    if n == 0:
        return 1.0, 0.0
    sx, sy = float(x.sum()), float(y.sum())
    sxx, sxy = float(np.dot(x, x)), float(np.dot(x, y))
    den = n * sxx - sx * sx
    # A flat picture has no gain to measure: only an offset.
    gain = (n * sxy - sx * sy) / den if den > 1e-3 * n * n else 1.0
    return gain, (sy - gain * sx) / n


def _highpass(patch: np.ndarray, scale: float,
              sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """``patch`` shrunk ``scale`` times, split into what is finer than ``sigma`` and its
    blur."""
    p: np.ndarray = patch.astype(np.float32)
    if scale > 1:
        size = (max(1, round(p.shape[1] / scale)), max(1, round(p.shape[0] / scale)))
        p = cv2.resize(p, size, interpolation=cv2.INTER_AREA)
    low: np.ndarray = cv2.GaussianBlur(p, (0, 0), sigma)
    return p - low, low
