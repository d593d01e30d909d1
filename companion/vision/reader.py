"""The dice reader: one frame in, dice out.

Pipeline (all OpenCV + numpy; the networks run through cv2.dnn from ONNX files shipped in
``companion/vision/models``):

1. Lighting normalisation (calibrated per-channel gains) and the tray region; a tray
   calibrated with its corners (camera at an angle) is straightened first (``perspective``).
   Uncalibrated, a frame whose tray floor is clearly seen at an angle is also read
   straightened, and that reading kept unless it reads fewer dice (``_read_straightened``).
2. Scale: the frame is resized so that a die is ~22 px across for the detector; the die
   size comes from the calibration, or from a first detector pass when uncalibrated.
3. Detector: a small stride-4 centre-heatmap network (CenterNet style) gives each die's
   centre, box size and a score. It is class-agnostic: it finds dice, not values.
4. Reader: each die is cropped square from the full-resolution frame and classified by a
   small CNN (d6: faces 1-6 or "not a face"; digits: d10 0-9, percentile 00-90 or "not a
   face"). Taught logo faces are matched on the same CNN's embedding and on the face's
   picture (``logos``). A d6 the d6 CNN is unsure of is also shown to the digit CNN,
   which reads numeral d6s (``_with_numerals``).
5. Refusal: dice that cannot be read safely are reported as UnreadableDie with a reason
   instead of a guessed value (see ``_judge``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .imageio import check_frame
from .logos import PATCH_SIDE, PATCH_SPAN, READ_SIDE, LogoStore
from .models import Models, load_models
from .nets_meta import (
    D6_CROP,
    D6_CROP_SCALE,
    DET_DIE_PX,
    DET_STRIDE,
    DIGIT_CROP,
    DIGIT_CROP_SCALE,
    normalise_crop_batch,
    normalise_frame,
)
from .perspective import MARGIN as STRAIGHTENING_MARGIN
from .perspective import Straightening
from .tray import clearly_tilted, find_tray_corners
from .types import (
    KINDS,
    Box,
    Calibration,
    DieReading,
    FrameReading,
    UnreadableDie,
    VisionError,
)

#: Heatmap peak score for a detection to be considered at all.
DET_THRESHOLD = 0.3
#: Detector score from which a candidate is taken to be a die even when no network reads a
#: face on it: it is then refused as "unclear face" rather than left out. Lower lets in
#: the wooden blocks at the edge of the dice-d10-single tray (0.50-0.53); the numeral "6"
#: photo scored 0.55 with the detector before the floors stage and was left out.
SURE_DIE_SCORE = 0.6
#: A detection under SURE_DIE_SCORE is dropped, unread, when no face reaches this
#: probability in its upright view (d6 only; nor like a taught logo). train/: its 58 such
#: candidates were all dropped later anyway. The wood floor of bench_views: 2,333 of its
#: 2,513 candidates under 0.6 (60 photos); 5 had been refused as "unclear face", the rest
#: dropped after the costlier looks (114 -> 42 ms a frame).
FIRST_LOOK_FACE = 0.3
#: Two boxes overlapping by this share of the smaller are touching (or stacked) dice.
TOUCHING_OVERLAP = 0.45
#: In such a pair, a box this much larger than the frame's median die is shrunk to it
#: before the shape rules (``_rein_in_sizes``). train/: 1,457 -> 1,463 dice right, 175 ->
#: 178 exact rolls (6 touching dice no longer refused as "stacked"), no more misread; the
#: tilted, close, wide and other-floor views and the composed d10 trays moved by 2 dice
#: at most (40 degrees +2, 50 degrees -1).
CLUSTER_REIN_IN = 1.2
#: A candidate with less of its box than this inside the calibrated tray is a spare die on
#: the table, ignored; one with more is part of the throw (refused if it straddles the
#: edge). It was the box's centre being inside, which let a die half over the edge, centre
#: just outside, vanish from the throw.
IN_TRAY_FROM = 0.25
#: Below this detector score a candidate is reported only when it is read: a faint
#: detection with an unclear face is dropped, not refused.
FAINT_DETECTION = 0.4
#: Below this class probability a die is "unclear face" rather than a guess.
MIN_CLASS_PROB = 0.5
#: Below this class probability the crop is also classified at three quarter turns.
SECOND_LOOK_BELOW = 0.9
#: A ten-sided die the digit network is unsure of (under SECOND_LOOK_BELOW after its four
#: turns) is also read from crops this many times its box, four turns each, and all the
#: views averaged. The usual 1.15 x crop holds the whole die, with the neighbouring faces'
#: numbers at its edges; a tighter one centres the top face. Chosen without test/: renders
#: at all rotations d10 / percentile / both 96.2 / 82.5 / 91.0 -> 97.9 / 93.8 / 96.5 %
#: right (wrong 0.42 / 0.42 / 0.21 -> 0.21 / 0.42 / 0.21 %), composed trays 79.5 / 95.7 /
#: 87.6 -> 98.0 / 99.7 / 98.6 % right (wrong 0.57 / 0.57 / 0.29 -> 0 / 0.14 / 0 %), the
#: pink d10 photos 10/10 as before, at about the same median time.
DIGIT_TIGHTER_SCALES = (0.9, 1.0)
#: Uncalibrated, the first detector pass guesses the scale; when the dice it finds say the
#: right scale is outside this band around the guess, a second pass runs at that scale.
#: The detector sizes dice best at DET_DIE_PX: dice it sees at 16 px come out ~20 % too
#: large, and their crops then hold so much table that the digit network refuses them
#: (composed d10 trays: 72.6 -> 77.3 % read right, d10 wrong unchanged, percentile wrong
#: 0.7 -> 1.0 %; train/ d6: 1,451 -> 1,466 right). It was (0.75, 1.35), which rarely ran
#: the second pass.
RESCALE_BAND = (0.9, 1.1)
#: Uncalibrated, the first detector pass sees the frame at this many pixels on its long
#: side, which suits dice of 1/10 to 1/25 of it (a tray that fills the frame).
UNCALIBRATED_DETECTOR_SIDE = 320.0
#: The coarse pass that looks for a close-up's dice around what the first pass found runs
#: at this factor smaller a scale.
CLOSE_UP_STEP = 3.0
#: ... and takes what the first pass found inside a die of the coarse pass for its pips
#: only when a network reads that die as a face at least this surely (a cluster of touching
#: dice, which the coarse pass may take for one die, reads at 0.16-0.74; the close-ups'
#: dice at 0.89-0.97).
CLOSE_UP_FACE_PROB = 0.8
#: Uncalibrated, at most this many passes correct the scale after the guess; a second one
#: only when the first one's dice say the scale is still outside this band. The detector
#: sizes dice it sees far from DET_DIE_PX poorly, so a correction from a far guess (a
#: close-up, a wide view) can fall short; a near one is right to within a few per cent,
#: and correcting it again read a train/ die fewer.
MAX_RESCALES = 2
SECOND_RESCALE_BAND = (0.75, 1.35)
#: The detector input never exceeds this many pixels on its long side (time budget).
MAX_DET_SIDE = 960
#: Sharpness (Laplacian variance / crop variance) below which a die is "blurred". The
#: sharpest-to-blurriest train/ die spans 0.14..3; a 2-pixel Gaussian blur puts half the
#: dice under 0.05.
BLUR_THRESHOLD = 0.1
#: Crop side (pixels, for a crop of D6_CROP_SCALE x the die) at which sharpness is measured;
#: BLUR_THRESHOLD and FEATURELESS_BELOW were chosen at this size.
SHARPNESS_SIDE = 32
#: Below this sharpness a candidate that no network takes for a face is a featureless blob
#: (a magnet, a screw head, a smudge), not a die. On train/ the tray's grey magnets score
#: 0.09-0.18 and 99.5 % of the labelled dice 0.19 or more.
FEATURELESS_BELOW = 0.2
#: The digit network "sees a numeral" on a die when its not-a-face share, renormalised over
#: its classes 1-6, is under this. It was trained with pip d6s as negatives: on train/ it
#: gets there for 1 pip die of 1,447 (no class over 0.5 then, so that die is refused).
NUMERAL_BELOW = 0.5
#: A reading that the second look overturned (the upright view's best face is not the
#: average's) needs this probability instead of MIN_CLASS_PROB: the views disagree, so a
#: bare majority is not enough (train/: refuses 3 right and 1 wrong pip reading; the
#: numeral "6" photo, which the d6 network alone reads "2" at 0.51).
OVERTURNED_MIN_PROB = 0.55
#: Taught logo faces are looked for only on dice whose pip reading is weaker than this: the
#: synthetic skull reads as a pip face at 0.6 at most, and a firm pip reading must not be
#: overturned by a picture match (d6 probabilities rarely pass 0.97, the old bar).
LOGO_CONSULT_BELOW = 0.7
#: A pip reading is refused when the digit network, though not calling it a numeral, gives
#: another face 1-6 at least this share (the numeral "4" photo at a wrong die size: d6
#: network "3" at 0.6, digit network "4" at 0.39). train/: refuses 1 right pip reading.
CONTRADICTED_FROM = 0.3
#: A candidate refused as "unclear face" that has no sharp detail (sharpness under
#: PATTERN_SHARPNESS) and whose middle differs from the floor around it by less than
#: STANDS_OUT_FROM times that floor's own variation (``_standing_out``) is a pattern of the
#: floor, not a die, and is left out: on the wooden table of bench_views.py knots and
#: streaks of grain made almost every throw be asked again. Both cues are needed. A white
#: die on a white tray blends into the floor, but its pips and edges are sharp; a die with
#: big, contrasting pips scores a low sharpness, but its middle stands out. Chosen without
#: test/: of the candidates refused on the wood, black tray, generated floors, tilted
#: views and train/, 61 of 112 that are no die are left out, and none of 84 real dice.
STANDS_OUT_FROM = 4.0
PATTERN_SHARPNESS = 0.6
#: ``_standing_out`` compares the middle of the die with a ring around it, in a window this
#: many times the die's box, resampled to STAND_OUT_SIDE pixels.
STAND_OUT_WINDOW = 1.8
STAND_OUT_SIDE = 36


@dataclass
class _Candidate:
    cx: float
    cy: float
    w: float
    h: float
    score: float

    @property
    def box(self) -> Box:
        return (
            round(self.cx - self.w / 2), round(self.cy - self.h / 2),
            round(self.w), round(self.h),
        )


@dataclass(frozen=True)
class _View:
    image: np.ndarray
    tray: Box | None
    die_px: float
    straightening: Straightening | None
    frame_size: tuple[int, int]

    def box_back(self, box: Box) -> Box:
        if self.straightening is None:
            return box
        return self.straightening.box_back(box, *self.frame_size)


#: The dice read in a frame and the dice refused.
_Read = tuple[tuple[DieReading, ...], tuple[UnreadableDie, ...]]


def _better_of(
    as_seen: _Read,
    straightened: _Read,
) -> _Read:
    """A frame of a tray seen at an angle, read as seen and straightened: the straightened
    reading unless it reads fewer dice, or as many with more refused. Straightened, the
    top faces are square, as the networks learned them; but a die's sides, seen the more
    obliquely the farther it lies, are stretched there too (by the tangent of the angle
    they are seen at), so beyond ~30 degrees real dice can read better as seen. On dice
    drawn in 3D (tools/vision/bench_cubes.py --corners) at 20 / 35 / 50 degrees the
    straightened readings alone got 90.6 / 58.1 / 6.7 % of the dice right, as seen 91.0 /
    69.8 / 19.2 %, the better of the two 92.9 / 72.5 / 19.6 %. A floor outline bitten by
    dice against a wall can also give a skewed outline of a tray seen from above."""
    (dice, unreadable), (sdice, sunreadable) = as_seen, straightened
    if (len(sdice), -len(sunreadable)) < (len(dice), -len(unreadable)):
        return as_seen
    return straightened


def _reading_order(d: DieReading | UnreadableDie) -> tuple[int, int]:
    return (d.box[1], d.box[0])


class DiceReader:
    """Reads dice from BGR frames. Not thread-safe (cv2.dnn nets hold state); one per thread."""

    def __init__(
        self,
        calibration: Calibration | None = None,
        kinds: tuple[str, ...] = ("d6",),
        logo_faces_dir: Path | None = None,
        *,
        models: Models | None = None,
        straighten_uncalibrated: bool = True,
    ) -> None:
        """A reader of ``kinds`` (``KINDS``). ``calibration`` is checked as the config's
        is (``Calibration.from_dict``). ``logo_faces_dir``: a folder of taught logo faces,
        which must exist (``LogoStore.load``). ``models``: networks already loaded by
        another reader of this thread (``load_models``), to save loading them again.
        ``straighten_uncalibrated``: with no tray or corners calibrated, read a frame whose
        tray is clearly seen at an angle straightened too (``_read_straightened``).

        Raises VisionError, naming the file or setting, when a model it needs is missing
        or damaged, or the calibration or the logo store cannot be used.
        """
        if not kinds:
            raise VisionError(f"no dice kinds given; choose from {', '.join(KINDS)}")
        bad = [k for k in kinds if k not in KINDS]
        if bad:
            raise VisionError(
                f"unknown dice kind(s) {', '.join(map(str, bad))}; choose from "
                f"{', '.join(KINDS)}"
            )
        self.calibration = (calibration or Calibration()).checked()
        self.kinds = tuple(kinds)
        self.straighten_uncalibrated = straighten_uncalibrated
        # Digit classes (d10 0-9, percentile 00-90, not a face) allowed by ``kinds``.
        self._digit_classes = np.array(
            [k in self.kinds for k in ["d10"] * 10 + ["percentile"] * 10] + [True], np.float32
        )
        # Every model the kinds need is loaded and checked here, so that a reader that
        # cannot read is refused when it is made (at the box's start), not mid-game.
        needs_digits = "d10" in self.kinds or "percentile" in self.kinds
        if models is None:
            models = load_models(need_digits=needs_digits)
        elif needs_digits and models.digits is None:
            raise VisionError("the d10/percentile model is missing; reinstall companion")
        self.models: Models = models
        self.logos = (LogoStore.load(logo_faces_dir, self.models.d6_id,
                                     self.models.embedding_width)
                      if logo_faces_dir else LogoStore.empty())
        self._light_lut: tuple[tuple[float, float, float], np.ndarray | None] | None = None

    # ------------------------------------------------------------------ public

    def read(self, frame_bgr: np.ndarray) -> FrameReading:
        t0 = time.perf_counter()
        view = self._view(frame_bgr)
        dice, unreadable = self._read_view(view)
        if view.straightening is not None:
            dice, unreadable = _better_of(self._read_view(self._as_seen(frame_bgr)),
                                          (dice, unreadable))
        elif self._searches_whole_frame():
            dice, unreadable = self._read_straightened(view, (dice, unreadable))
        return FrameReading(dice, unreadable, (time.perf_counter() - t0) * 1000)

    def _as_seen(self, frame_bgr: np.ndarray) -> _View:
        """A frame of a tray calibrated with corners, not straightened: the box around the
        corners (grown as ``perspective.MARGIN`` grows the straightened floor), the die
        size found in the frame (a calibrated one holds in the straightened view only)."""
        frame = self._normalise_light(check_frame(frame_bgr))
        h, w = frame.shape[:2]
        corners = np.array(self.calibration.scaled_corners(w, h), np.float64)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        mx, my = STRAIGHTENING_MARGIN * (x1 - x0), STRAIGHTENING_MARGIN * (y1 - y0)
        x0, y0 = max(0.0, x0 - mx), max(0.0, y0 - my)
        x1, y1 = min(float(w), x1 + mx), min(float(h), y1 + my)
        tray = (round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        return _View(frame, tray, 0.0, None, (w, h))

    def _read_view(self, view: _View) -> _Read:
        """The dice of a view, their boxes in the camera's own frame, top to bottom."""
        cands = self._detect_all(view.image, view.tray, view.die_px)
        dice, unreadable = self._read_candidates(view.image, cands, view.tray)
        return (tuple(sorted((replace(d, box=view.box_back(d.box)) for d in dice),
                             key=_reading_order)),
                tuple(sorted((replace(u, box=view.box_back(u.box)) for u in unreadable),
                             key=_reading_order)))

    def _searches_whole_frame(self) -> bool:
        """No tray and no corners calibrated: where the tray is, and at what angle the
        camera sees it, are for the reader to find."""
        return (self.straighten_uncalibrated and self.calibration.tray is None
                and self.calibration.corners is None)

    def _read_straightened(self, view: _View, as_seen: _Read) -> _Read:
        """An uncalibrated frame whose tray floor is clearly seen at an angle
        (``tray.clearly_tilted``), read again straightened as calibrated corners would;
        the better of the two readings is kept (``_better_of``)."""
        corners = find_tray_corners(view.image)
        h, w = view.image.shape[:2]
        if corners is None or not clearly_tilted(corners, (w, h)):
            return as_seen
        straightening = Straightening.from_corners(corners)
        # A die size calibrated in the camera's frame does not hold in the straightened
        # view, so it is found again there.
        straight = self._read_view(_View(straightening.view(view.image), None, 0.0,
                                         straightening, (w, h)))
        return _better_of(as_seen, straight)

    def find_dice(self, frame_bgr: np.ndarray) -> list[tuple[Box, float]]:
        """(box, detector score) of every die-like object, before any reading or refusal."""
        view = self._view(frame_bgr)
        h, w = view.image.shape[:2]
        return [(view.box_back(_clip_box(c.box, w, h)), c.score)
                for c in self._detect_all(view.image, view.tray, view.die_px)]

    def embed_dice(
        self, frame_bgr: np.ndarray, min_score: float = 0.5
    ) -> list[tuple[Box, np.ndarray, np.ndarray]]:
        """For teaching logo faces: (box, 4 embeddings at quarter turns, the face's picture
        for ``LogoStore``) per die."""
        view = self._view(frame_bgr)
        image = view.image
        h, w = image.shape[:2]
        out = []
        for c in self._detect_all(image, view.tray, view.die_px):
            if c.score < min_score:
                continue
            crop = _crop(image, c, D6_CROP)
            turns = np.stack([np.rot90(crop, k) for k in range(4)])
            _, emb = self.models.classify_d6(normalise_crop_batch(turns))
            out.append((view.box_back(_clip_box(c.box, w, h)), emb,
                        _crop(image, c, PATCH_SIDE, PATCH_SPAN)))
        return out

    # ------------------------------------------------------------------ steps

    def view_of(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame as the reader searches it (light-normalised; straightened when the
        calibration has the tray's corners)."""
        return self._view(frame_bgr).image

    def _view(self, frame_bgr: np.ndarray) -> _View:
        """``view_of``, with where to search, the die size, and the way back to the
        camera's frame."""
        frame = self._normalise_light(check_frame(frame_bgr))
        h, w = frame.shape[:2]
        die_px = self.calibration.scaled_die_px(w, h)
        corners = self.calibration.scaled_corners(w, h)
        if corners is None:
            return _View(frame, self.calibration.scaled_tray(w, h), die_px, None, (w, h))
        straightening = Straightening.from_corners(np.array(corners, np.float32))
        return _View(straightening.view(frame), None, die_px, straightening, (w, h))

    def _normalise_light(self, frame: np.ndarray) -> np.ndarray:
        lut = self._gains_lut()
        return frame if lut is None else cv2.LUT(frame, lut)

    def _gains_lut(self) -> np.ndarray | None:
        """The calibrated gains as one 256x1x3 table (None: no correction), made once per
        calibration: one cv2.LUT pass over the three channels."""
        g = self.calibration.gains
        if self._light_lut is None or self._light_lut[0] != g:
            lut = None
            if not all(abs(x - 1.0) < 1e-3 for x in g):
                lut = np.stack([np.clip(np.arange(256) * gi, 0, 255).astype(np.uint8)
                                for gi in g], axis=1).reshape(256, 1, 3)
            self._light_lut = (g, lut)
        return self._light_lut[1]

    def _detect_all(
        self, frame: np.ndarray, tray: Box | None, die_px: float
    ) -> list[_Candidate]:
        h, w = frame.shape[:2]
        # Only the tray (plus a margin, to see dice half outside it) is searched.
        x0, y0, x1, y1 = 0, 0, w, h
        if tray is not None:
            m = int(0.04 * max(tray[2], tray[3]))
            x0, y0 = max(0, tray[0] - m), max(0, tray[1] - m)
            x1, y1 = min(w, tray[0] + tray[2] + m), min(h, tray[1] + tray[3] + m)
            if x1 - x0 < 16 or y1 - y0 < 16:
                raise VisionError("the calibrated tray lies outside this frame; recalibrate")
        roi = frame[y0:y1, x0:x1]
        if die_px > 0:
            scale = DET_DIE_PX / die_px
            cands = self._detect(roi, scale)
        else:
            cands = self._detect_uncalibrated(roi)
        for c in cands:
            c.cx += x0
            c.cy += y0
        return cands

    def _detect_uncalibrated(self, roi: np.ndarray) -> list[_Candidate]:
        """Detect with no calibrated die size: guess it, then correct it from the dice found.

        The guess suits a tray that fills the frame (dice 1/10-1/25 of its long side). When
        it finds no die, the frame is searched again at finer scales (a camera that sees a
        whole table). When the "dice" it finds are the pips of a close-up, a coarse pass
        finds the real dice around them. Each correction is measured on the dice found,
        twice at most: the detector sizes dice far from DET_DIE_PX poorly.
        """
        guess = UNCALIBRATED_DETECTOR_SIDE / max(roi.shape[:2])
        scale = self._clamped_scale(roi, guess)
        cands = self._detect(roi, scale)
        for finer in (2.0, 4.0):
            if _strong(cands):
                break
            wider = self._clamped_scale(roi, guess * finer)
            if wider > scale:
                scale, cands = wider, self._detect(roi, wider)
        pips: list[_Candidate] = []
        if _strong(cands):
            coarse = self._clamped_scale(roi, scale / CLOSE_UP_STEP)
            around = self._detect(roi, coarse)
            held = _pips_among(_strong(cands), _strong(around))
            if held:
                faces = self._face_probabilities(roi, [big for big, _ in held])
                for (_, inside), face in zip(held, faces, strict=True):
                    if face >= CLOSE_UP_FACE_PROB:
                        pips += [pip for pip in inside if pip not in pips]
            if len(pips) >= 0.6 * len(_strong(cands)):
                scale, cands, pips = coarse, around, []
        band = RESCALE_BAND
        for _ in range(MAX_RESCALES):
            # Pips of dice seen whole only by the coarse pass (a close-up's edge) do not
            # count towards the dice's size.
            strong = [c for c in _strong(cands) if c not in pips]
            if not strong:
                break
            want = self._clamped_scale(
                roi, DET_DIE_PX / float(np.median([max(c.w, c.h) for c in strong])))
            if band[0] < want / scale < band[1]:
                break
            scale, cands = want, self._detect(roi, want)
            band = SECOND_RESCALE_BAND
        return cands

    def _face_probabilities(self, frame: np.ndarray, cands: list[_Candidate]) -> list[float]:
        """How sure a network is that each candidate shows a die face (of any value)."""
        if "d6" in self.kinds:
            crops = np.stack([_crop(frame, c, D6_CROP) for c in cands])
            probs = self.models.classify_d6(normalise_crop_batch(crops))[0]
        else:
            crops = np.stack([_crop(frame, c, DIGIT_CROP, DIGIT_CROP_SCALE) for c in cands])
            probs = self.models.classify_digits(normalise_crop_batch(crops))[0]
        return [float(p) for p in probs[:, :-1].max(axis=1)]

    @staticmethod
    def _clamped_scale(img: np.ndarray, scale: float) -> float:
        return min(scale, MAX_DET_SIDE / float(max(img.shape[:2])), 4.0)

    def _detect(self, img: np.ndarray, scale: float) -> list[_Candidate]:
        h, w = img.shape[:2]
        scale = self._clamped_scale(img, scale)
        dw = max(DET_STRIDE * 4, round(w * scale / 32) * 32)
        dh = max(DET_STRIDE * 4, round(h * scale / 32) * 32)
        sx, sy = w / dw, h / dh
        small = cv2.resize(img, (dw, dh), interpolation=cv2.INTER_AREA if sx > 1 else
                           cv2.INTER_LINEAR)
        out = self.models.detect(normalise_frame(small)[None])
        heat = out[0, 0]
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > DET_THRESHOLD)
        ys, xs = np.nonzero(peaks)
        cands: list[_Candidate] = []
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            lw, lh, ox, oy = out[0, 1:5, y, x]
            cx = (x + float(ox)) * DET_STRIDE * sx
            cy = (y + float(oy)) * DET_STRIDE * sy
            bw = float(np.exp(np.clip(lw, 0, 6))) * sx
            bh = float(np.exp(np.clip(lh, 0, 6))) * sy
            cands.append(_Candidate(cx, cy, bw, bh, float(heat[y, x])))
        return _suppress(cands)

    def _read_candidates(
        self, frame: np.ndarray, cands: list[_Candidate], tray: Box | None
    ) -> tuple[list[DieReading], list[UnreadableDie]]:
        if not cands:
            return [], []
        h, w = frame.shape[:2]
        # Dice (nearly) wholly outside the tray are not part of the roll (spares on the
        # table); one straddling its edge is, and is refused as "outside tray" below.
        if tray is not None:
            cands = [c for c in cands if _share_inside(c, tray) >= IN_TRAY_FROM]
        want_d6 = "d6" in self.kinds
        want_digits = "d10" in self.kinds or "percentile" in self.kinds
        p6 = e6 = pd = None
        crops = np.stack([_crop(frame, c, D6_CROP) for c in cands])
        if want_d6:
            p6, e6 = self.models.classify_d6(normalise_crop_batch(crops))
        sized = _typical_dice(cands, None if p6 is None else p6[:, :6].max(axis=1))
        if len(sized) >= 3:
            reined = _rein_in_sizes(cands, float(np.median([max(c.w, c.h) for c in sized])))
            if reined:
                crops[reined] = np.stack([_crop(frame, cands[i], D6_CROP) for i in reined])
                if p6 is not None and e6 is not None:
                    p6[reined], e6[reined] = self.models.classify_d6(
                        normalise_crop_batch(crops[reined]))
        if p6 is not None and e6 is not None and not want_digits:
            # Dropped before the costlier looks: on a grainy floor there are dozens.
            keep = ((np.array([c.score for c in cands]) >= SURE_DIE_SCORE)
                    | (p6[:, :6].max(axis=1) >= FIRST_LOOK_FACE) | self.logos.near(e6))
            if not keep.all():
                cands = [c for c, k in zip(cands, keep, strict=True) if k]
                crops, p6, e6 = crops[keep], p6[keep], e6[keep]
                if not cands:
                    return [], []
        sharp = [_sharpness(_crop(frame, c, SHARPNESS_SIDE)) for c in cands]
        # The class probability each die's reading needs (higher where the views or the
        # two networks disagree).
        need = np.full(len(cands), MIN_CLASS_PROB)
        overturned = np.zeros(len(cands), bool)
        numeral = np.zeros(len(cands), bool)
        if p6 is not None:
            upright = p6[:, :6].argmax(axis=1)
            p6 = _second_look(p6, crops, lambda x: self.models.classify_d6(x)[0])
            overturned = p6[:, :6].argmax(axis=1) != upright
        # The digit network reads every die when ten-sided dice are asked for; for d6 only,
        # just those the d6 network is not sure of a face on (numeral d6s, non-dice), and
        # only if it is installed (a d6-only reader works without it).
        if want_digits or p6 is None:
            consult = np.arange(len(cands))
        elif self.models.digits is not None:
            consult = np.nonzero(p6[:, :6].max(axis=1) < SECOND_LOOK_BELOW)[0]
        else:
            consult = np.zeros(0, int)
        if len(consult):
            dcrops = np.stack([_crop(frame, cands[i], DIGIT_CROP, DIGIT_CROP_SCALE)
                               for i in consult])
            pdc, _ = self.models.classify_digits(normalise_crop_batch(dcrops))
            pdc = _second_look(pdc, dcrops, lambda x: self.models.classify_digits(x)[0])
            if want_digits:
                pdc = self._tighter_look(frame, [cands[i] for i in consult], pdc)
            pd = np.zeros((len(cands), pdc.shape[1]), np.float32)
            pd[:, -1] = 1.0  # not consulted: no numeral seen
            pd[consult] = pdc
        if p6 is not None and pd is not None:
            p6, numeral, contradicted = _with_numerals(p6, pd)
            need[overturned & ~numeral] = OVERTURNED_MIN_PROB
            need[contradicted] = np.inf
        dice: list[DieReading] = []
        unreadable: list[UnreadableDie] = []
        geometry = _geometry_flags(cands)
        for i, c in enumerate(cands):
            kind, value, prob = self._best_label(
                None if p6 is None else p6[i], pd[i] if want_digits and pd is not None else None
            )
            min_prob = float(need[i]) if kind == "d6" else MIN_CLASS_PROB
            if self.logos and e6 is not None and (kind != "d6" or prob < LOGO_CONSULT_BELOW):
                logo = self.logos.match(e6[i], _crop(frame, c, READ_SIDE, 1.0))
                if logo is not None:
                    kind, value, prob = "d6", logo[0], logo[1]
                    min_prob = MIN_CLASS_PROB
            if kind is None and (c.score < SURE_DIE_SCORE or prob > 0.95
                                 or (sharp[i] < FEATURELESS_BELOW and not numeral[i])):
                # Most likely not a die at all (a crumb, a magnet, a screw head, a pattern
                # on the tray). A die the detector is sure of, with sharp detail, that the
                # reader is not sure is "not a face" (an untaught logo, an odd angle) is
                # reported as "unclear face".
                continue
            if c.score < FAINT_DETECTION and prob < min_prob:
                # A faint detection that no network can read is a floor pattern far more
                # often than a die (the wood and the black tray of dice-d10-single).
                continue
            reason = self._judge(frame, c, tray, geometry[i], kind, prob, sharp[i], min_prob)
            if (reason == "unclear face" and sharp[i] < PATTERN_SHARPNESS
                    and _standing_out(frame, c, cands) < STANDS_OUT_FROM):
                continue
            if reason is not None:
                unreadable.append(UnreadableDie(_clip_box(c.box, w, h), reason))
                continue
            assert kind is not None and value is not None
            conf = float(np.clip(prob * min(1.0, c.score / SURE_DIE_SCORE) ** 0.5, 0.0, 1.0))
            dice.append(DieReading(kind, value, _clip_box(c.box, w, h), conf))
        return dice, unreadable

    def _tighter_look(self, frame: np.ndarray, cands: list[_Candidate], pd: np.ndarray
                      ) -> np.ndarray:
        """Average in crops of DIGIT_TIGHTER_SCALES x the box, at four turns each, for the
        ten-sided dice the digit network is still unsure of."""
        unsure = np.nonzero(pd.max(axis=1) < SECOND_LOOK_BELOW)[0]
        if len(unsure) == 0:
            return pd
        total = pd[unsure] * 4
        for scale in DIGIT_TIGHTER_SCALES:
            crops = np.stack([_crop(frame, cands[i], DIGIT_CROP, scale) for i in unsure])
            turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(4)])
            p = self.models.classify_digits(normalise_crop_batch(np.ascontiguousarray(turned)))[0]
            total += p.reshape(4, len(unsure), -1).sum(axis=0)
        pd = pd.copy()
        pd[unsure] = total / (4 * (1 + len(DIGIT_TIGHTER_SCALES)))
        return pd

    def _best_label(
        self, p6: np.ndarray | None, pd: np.ndarray | None
    ) -> tuple[str | None, int | None, float]:
        """The most probable (kind, value, probability) among the kinds asked for."""
        options: list[tuple[float, str, int]] = []
        none_p = []
        if p6 is not None:
            k = int(np.argmax(p6[:6]))
            options.append((float(p6[k]), "d6", k + 1))
            none_p.append(float(p6[6]))
        if pd is not None:
            # A kind not asked for is not on the tray: its classes' share goes to the rest
            # (a "1" the network half takes for a percentile "10" is a sure d10 "1").
            pd = pd * self._digit_classes
            pd = pd / max(float(pd.sum()), 1e-9)
            if "d10" in self.kinds:
                k = int(np.argmax(pd[:10]))
                options.append((float(pd[k]), "d10", k))
            if "percentile" in self.kinds:
                k = int(np.argmax(pd[10:20]))
                options.append((float(pd[10 + k]), "percentile", k))
            none_p.append(float(pd[20]))
        best = max(options)
        # "Not a die face" must win in every model asked for to reject the die outright.
        if none_p and min(none_p) > best[0]:
            return None, None, min(none_p)
        return best[1], best[2], best[0]

    def _judge(
        self, frame: np.ndarray, c: _Candidate, tray: Box | None,
        geometry: str | None, kind: str | None, prob: float, sharpness: float,
        min_prob: float = MIN_CLASS_PROB,
    ) -> str | None:
        """Why this die must be re-rolled, or None when its reading can be trusted."""
        h, w = frame.shape[:2]
        tx, ty, tw, th = tray if tray is not None else (0, 0, w, h)
        bx, by, bw, bh = c.box
        # More than a sliver of the die beyond the tray edge (or the picture's edge).
        slack = 0.15
        if (bx < tx - slack * bw or by < ty - slack * bh or bx + bw > tx + tw + slack * bw
                or by + bh > ty + th + slack * bh):
            return "outside tray"
        if tray is None and (bx <= 1 or by <= 1 or bx + bw >= w - 1 or by + bh >= h - 1):
            return "outside tray"
        if geometry is not None:
            return geometry
        if sharpness < BLUR_THRESHOLD:
            return "blurred"
        if kind is None or not prob >= min_prob:  # NaN-safe: a NaN is never enough
            return "unclear face"
        return None


# ---------------------------------------------------------------------- helpers


def _second_look(
    probs: np.ndarray, crops: np.ndarray, classify: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """Average in three more quarter-turned views of the crops the network is unsure of.

    Test-time augmentation only where it matters: a confident die costs nothing extra, a
    doubtful one four classifier runs, which settles most pip/numeral confusions.
    """
    unsure = np.nonzero(probs.max(axis=1) < SECOND_LOOK_BELOW)[0]
    if len(unsure) == 0:
        return probs
    turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in (1, 2, 3)])
    p = classify(normalise_crop_batch(np.ascontiguousarray(turned)))
    probs = probs.copy()
    n = len(unsure)
    probs[unsure] = (probs[unsure] + p[:n] + p[n:2 * n] + p[2 * n:]) / 4
    return probs


def _with_numerals(
    p6: np.ndarray, pd: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """d6 face probabilities with numeral d6s read by the digit network; which dice those
    are; and which pip readings the digit network contradicts (CONTRADICTED_FROM).

    The d6 network learned pips well and numerals poorly (the photographed numeral d6 reads
    2 as 1 and 6 as 2). The digit network learned numerals and was taught pip d6s as "not a
    face", so when it sees a numeral 1-6 (its not-a-face share, renormalised over classes
    1-6, under NUMERAL_BELOW) its reading replaces the d6 network's. There is no 6/9
    question on a d6, but the network's "9" is not taken for a 6: it never said 9 on the
    numeral photos, so the evidence for that rule is missing.
    """
    q = np.concatenate([pd[:, 1:7], pd[:, -1:]], axis=1)
    q /= np.maximum(q.sum(axis=1, keepdims=True), 1e-9)
    numeral = q[:, 6] < NUMERAL_BELOW
    contradicted = (~numeral & (q[:, :6].max(axis=1) >= CONTRADICTED_FROM)
                    & (q[:, :6].argmax(axis=1) != p6[:, :6].argmax(axis=1)))
    out = p6.copy()
    out[numeral] = q[numeral]
    return out, numeral, contradicted


def _strong(cands: list[_Candidate]) -> list[_Candidate]:
    return [c for c in cands if c.score > 0.5]


def _pips_among(
    small: list[_Candidate], large: list[_Candidate]
) -> list[tuple[_Candidate, list[_Candidate]]]:
    """Which large candidates may be a close-up's dice whose pips are the small ones: each
    such large one with the small ones inside it.

    A pip lies inside a large die 2.5-7 times its size, at most six to a die: a tray seen
    whole, or a cluster of dice that a coarse pass takes for one, is also a large box
    around small dice, but holds more of them or is much larger (the caller also asks a
    network whether each large box is a die face).
    """
    held: list[tuple[_Candidate, list[_Candidate]]] = []
    for big in large:
        side = max(big.w, big.h)
        inside = [c for c in small if abs(c.cx - big.cx) < big.w / 2
                  and abs(c.cy - big.cy) < big.h / 2 and max(c.w, c.h) * 2.5 <= side]
        if 0 < len(inside) <= 6 and side <= 7 * float(np.median([max(c.w, c.h) for c in inside])):
            held.append((big, inside))
    return held


def _suppress(cands: list[_Candidate]) -> list[_Candidate]:
    """Drop weaker detections whose centre falls inside a stronger one's core."""
    cands.sort(key=lambda c: -c.score)
    kept: list[_Candidate] = []
    for c in cands:
        if all(
            abs(c.cx - k.cx) > 0.35 * max(k.w, c.w) or abs(c.cy - k.cy) > 0.35 * max(k.h, c.h)
            for k in kept
        ):
            kept.append(c)
    return kept


def _typical_dice(cands: list[_Candidate], face: np.ndarray | None) -> list[_Candidate]:
    """The candidates that set the frame's typical die size: those the detector is fairly
    sure of and, when the d6 network has looked, that it reads as a face.

    On a grainy or speckled floor most of the detector's fairly sure finds are the floor's
    pattern, smaller than the dice: their median shrank every real die's box to ~2/3 of
    it (bench_views' wooden table, 2026-11-25)."""
    strong = [i for i, c in enumerate(cands) if c.score > 0.5]
    if face is not None:
        strong = [i for i in strong if face[i] >= MIN_CLASS_PROB]
    chosen = strong or ([] if face is not None else list(range(len(cands))))
    return [cands[i] for i in chosen]


def _rein_in_sizes(cands: list[_Candidate], median_size: float) -> list[int]:
    """Shrink boxes far larger than the frame's typical die to that size, keeping centres.

    In clusters of touching dice the size regression sometimes spans two dice while the
    centre is right (on train/ and test/ the oversized boxes were 1.4-2.7 x the die with
    centres within a few pixels). A box that large would also crop the neighbours into the
    classifier's view. Dice in one roll are near one size (mixed 12/16 mm sets differ by
    1.33 x, under the 1.35 x limit). A box over CLUSTER_REIN_IN x that overlaps a
    neighbour as touching dice do is shrunk too: such a box had swallowed part of the
    neighbour, and the two were refused as "stacked" though both faces were in view.
    Returns the indexes of the boxes shrunk (their crops must be taken again).
    """
    reined = []
    for i, c in enumerate(cands):
        side = max(c.w, c.h)
        if side > 1.35 * median_size or (side > CLUSTER_REIN_IN * median_size and any(
                o is not c and _overlap(c, o) >= TOUCHING_OVERLAP for o in cands)):
            k = median_size / side
            c.w *= k
            c.h *= k
            reined.append(i)
    return reined


def _share_inside(c: _Candidate, tray: Box) -> float:
    """How much of the candidate's box lies inside the tray (0-1)."""
    tx, ty, tw, th = tray
    ix = min(c.cx + c.w / 2, tx + tw) - max(c.cx - c.w / 2, tx)
    iy = min(c.cy + c.h / 2, ty + th) - max(c.cy - c.h / 2, ty)
    return max(0.0, ix) * max(0.0, iy) / max(1e-6, c.w * c.h)


def _overlap(a: _Candidate, b: _Candidate) -> float:
    """Intersection area over the smaller box's area."""
    ix = min(a.cx + a.w / 2, b.cx + b.w / 2) - max(a.cx - a.w / 2, b.cx - b.w / 2)
    iy = min(a.cy + a.h / 2, b.cy + b.h / 2) - max(a.cy - a.h / 2, b.cy - b.h / 2)
    if ix <= 0 or iy <= 0:
        return 0.0
    return ix * iy / min(a.w * a.h, b.w * b.h)


def _geometry_flags(cands: list[_Candidate]) -> list[str | None]:
    """Shape-based refusals: cocked (elongated outline), stacked or touching (outlines that
    overlap so much that the two dice cannot be told apart).

    Thresholds were set on train/'s labelled boxes, with a margin: there, no flat readable
    die has an aspect over 1.55 or overlaps a neighbour's box by over 32 % of the smaller.
    A die on top of another hides most of it (overlap over 60 %), or looks clearly bigger
    (nearer the camera). See docs/vision.md for their limits.
    """
    flags: list[str | None] = [None] * len(cands)
    for i, c in enumerate(cands):
        aspect = max(c.w, c.h) / max(1.0, min(c.w, c.h))
        if aspect > 1.75:
            flags[i] = "cocked"
    for i, a in enumerate(cands):
        for j in range(i + 1, len(cands)):
            b = cands[j]
            ov = _overlap(a, b)
            if ov < TOUCHING_OVERLAP:
                continue
            sa, sb = max(a.w, a.h), max(b.w, b.h)
            reason = "stacked" if ov > 0.6 or max(sa, sb) > 1.25 * min(sa, sb) else "touching"
            flags[i] = flags[i] or reason
            flags[j] = flags[j] or reason
    return flags


def _crop(
    frame: np.ndarray, c: _Candidate, out: int, scale: float | None = None
) -> np.ndarray:
    side = max(c.w, c.h) * (D6_CROP_SCALE if scale is None else scale)
    s = out / side
    m = np.array([[s, 0, out / 2 - c.cx * s], [0, s, out / 2 - c.cy * s]], np.float32)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    if s < 0.5:
        # INTER_AREA is not supported by warpAffine; pre-shrink the region instead.
        x0, y0 = int(c.cx - side / 2), int(c.cy - side / 2)
        x1, y1 = int(c.cx + side / 2) + 1, int(c.cy + side / 2) + 1
        region = _padded(frame, x0, y0, x1, y1)
        return cv2.resize(region, (out, out), interpolation=cv2.INTER_AREA)
    return cv2.warpAffine(frame, m, (out, out), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def _padded(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    h, w = frame.shape[:2]
    px0, py0, px1, py1 = max(0, -x0), max(0, -y0), max(0, x1 - w), max(0, y1 - h)
    region = frame[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    if px0 or py0 or px1 or py1:
        region = cv2.copyMakeBorder(region, py0, py1, px0, px1, cv2.BORDER_REPLICATE)
    return region


def _sharpness(crop_bgr: np.ndarray) -> float:
    """Edge energy of a die crop relative to its contrast.

    Normalising by the crop's variance makes it independent of the die's colour and of the
    lighting; the crop is taken at one size (SHARPNESS_SIDE) relative to the die, so it is
    also independent of resolution and of the classifier's crop size.
    """
    crop = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    _mean, std = cv2.meanStdDev(crop)
    var = float(std[0, 0]) ** 2
    if var < 4.0:
        return 0.0
    _, lstd = cv2.meanStdDev(cv2.Laplacian(crop, cv2.CV_32F))
    return float(lstd[0, 0]) ** 2 / var


def _standing_out(frame: np.ndarray, c: _Candidate, cands: list[_Candidate]) -> float:
    """How far the middle of the candidate differs in colour (Lab) from the floor around
    it, in units of that floor's own variation; infinite when too little floor is in view.

    The floor is a ring from 1.4 to 1.8 die boxes across, less the boxes of the other
    candidates (in a cluster the ring is mostly neighbouring dice).
    """
    side = STAND_OUT_SIDE
    lab = cv2.cvtColor(_crop(frame, c, side, STAND_OUT_WINDOW), cv2.COLOR_BGR2LAB)
    lab = lab.reshape(-1, 3).astype(np.float32)
    px = side / (STAND_OUT_WINDOW * max(c.w, c.h))  # window pixels per frame pixel
    grid = np.arange(side, dtype=np.float32) - (side - 1) / 2
    gx, gy = np.meshgrid(grid, grid)
    gx, gy = gx.ravel(), gy.ravel()
    reach = np.maximum(np.abs(gx), np.abs(gy)) / (side / 2)  # 1 at the window's edge
    ring = reach >= 0.7 / (STAND_OUT_WINDOW / 2)
    for o in cands:
        if o is not c:
            ox, oy = (o.cx - c.cx) * px, (o.cy - c.cy) * px
            ring &= ~((np.abs(gx - ox) < o.w * px / 2) & (np.abs(gy - oy) < o.h * px / 2))
    if ring.sum() < 0.25 * np.count_nonzero(reach >= 0.7 / (STAND_OUT_WINDOW / 2)):
        return float("inf")
    middle = reach < 0.25 / (STAND_OUT_WINDOW / 2)
    floor = np.median(lab[ring], axis=0)
    spread = float(np.linalg.norm(np.median(np.abs(lab[ring] - floor), axis=0)))
    return float(np.linalg.norm(np.median(lab[middle], axis=0) - floor)) / (spread + 3.0)


def _clip_box(box: Box, w: int, h: int) -> Box:
    x, y, bw, bh = box
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(w, x + bw), min(h, y + bh)
    return (x0, y0, max(1, x1 - x0), max(1, y1 - y0))
