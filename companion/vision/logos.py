"""Taught logo faces: many wargame dice print a logo instead of the 6 (or the 1).

``companion dice teach`` keeps, for each die it sees logo-up in a few frames, two things:

- the first d6 network's embedding of the die at four quarter turns. On its own it tells a
  logo from pip faces too weakly: a synthetic skull matched new frames at 0.82-0.98, while
  pip dice that a store taught from other pip faces came to 0.9 as well;
- a colour picture of the face (``PATCH_SIDE`` px, ``PATCH_SPAN`` x the die's box). From it
  the store makes templates at ``TURNS`` rotations and ``ZOOMS`` sizes (a die lands any way
  round, and the detector's box is ~10-25 % off), compared by normalised correlation
  (Lab, mean removed) over a disc inside the face, with small shifts. The skull matches at
  0.94-0.99; no train/ die the reader consults scores over 0.82 against it.

A die matches a taught face when both agree (``EMBEDDING_MATCH`` and ``TEMPLATE_MATCH``),
and only dice the d6 networks do not read firmly are compared at all (``reader``). Each
taught face records which d6 model made it: another model's embeddings mean nothing, so
a face taught before the model was retrained is refused with a request to teach it again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .types import VisionError

#: Cosine similarity of d6 embeddings needed for a match (skull: 0.82-0.98 on new frames).
EMBEDDING_MATCH = 0.75
#: Normalised correlation of the face pictures needed for a match. Chosen on train/ with a
#: store taught from the synthetic skull (train/ dice at most 0.82, the skull at 0.94 or
#: more), and with stores taught from train/'s own pip faces as if they were logos (with
#: both cues, no die of another value among those the reader consults matched in 10 of 12
#: trials, 1 in the other two).
TEMPLATE_MATCH = 0.88
#: The taught picture: its side in pixels and in die boxes (wide enough to zoom out of).
PATCH_SIDE = 64
PATCH_SPAN = 1.6
#: The picture compared at read time: side in pixels (1 die box) and the disc's diameter.
READ_SIDE = 40
DISC_SIDE = 28
TURNS = 24
ZOOMS = (0.75, 0.87, 1.0, 1.15, 1.3)
#: Shifts of the disc inside the read picture (pixels apart).
SHIFT_STEP = 2
FORMAT = 2

_yy, _xx = np.mgrid[:DISC_SIDE, :DISC_SIDE] - (DISC_SIDE - 1) / 2
_DISC = (_xx**2 + _yy**2) <= (DISC_SIDE / 2) ** 2


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    unit: np.ndarray = v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-6)
    return unit


def _lab(picture_bgr: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(picture_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.GaussianBlur(lab, (0, 0), 1.0)


def _disc_vector(lab: np.ndarray) -> np.ndarray:
    v = lab[_DISC]
    return _unit((v - v.mean(axis=0)).ravel())


def face_templates(patch_bgr: np.ndarray) -> np.ndarray:
    """A taught picture (PATCH_SIDE px square) as TURNS x len(ZOOMS) disc vectors."""
    lab = _lab(patch_bgr)
    centre = (PATCH_SIDE - 1) / 2
    ppx = (PATCH_SIDE / PATCH_SPAN) / READ_SIDE  # taught pixels per read pixel
    offset = (DISC_SIDE - 1) / 2
    out = []
    for zoom in ZOOMS:
        for k in range(TURNS):
            m = np.asarray(cv2.getRotationMatrix2D((centre, centre), 360.0 * k / TURNS,
                                                   zoom / ppx), np.float64)
            m[:, 2] += offset - centre
            out.append(_disc_vector(cv2.warpAffine(
                lab, m, (DISC_SIDE, DISC_SIDE), flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE)))
    return np.stack(out)


def _shifted_discs(read_bgr: np.ndarray) -> np.ndarray:
    lab = _lab(read_bgr)
    span = range(0, READ_SIDE - DISC_SIDE + 1, SHIFT_STEP)
    return np.stack([_disc_vector(lab[y:y + DISC_SIDE, x:x + DISC_SIDE])
                     for y in span for x in span])


@dataclass
class LogoStore:
    """Taught faces: embeddings and templates (unit rows), each with its face value."""

    embeddings: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    embedding_values: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))
    templates: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    template_values: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))

    @classmethod
    def empty(cls) -> LogoStore:
        return cls()

    def __bool__(self) -> bool:
        return len(self.embedding_values) > 0

    @classmethod
    def load(cls, directory: Path, model_id: str) -> LogoStore:
        """Load every ``*.npz`` face taught into ``directory`` (missing folder: empty store).

        ``model_id`` names the d6 model now in use; faces taught with another are refused.
        """
        directory = Path(directory).expanduser()
        if not directory.exists():
            return cls.empty()
        if not directory.is_dir():
            raise VisionError(f"the logo-face store {directory} is not a folder")
        embs, emb_vals, tmpls, tmpl_vals = [], [], [], []
        for f in sorted(directory.glob("*.npz")):
            try:
                with np.load(f) as z:
                    e = np.asarray(z["embeddings"], np.float32)
                    v = int(z["value"])
                    taught_with = str(z["model"]) if "model" in z.files else "an older model"
                    fmt = int(z["format"]) if "format" in z.files else 1
                    patches = np.asarray(z["patches"], np.uint8) if fmt >= FORMAT else None
            except (OSError, KeyError, ValueError) as ex:
                raise VisionError(f"the taught logo face {f} is damaged ({ex}); delete it and "
                                  "teach again") from ex
            if taught_with != model_id or patches is None:
                raise VisionError(f"the taught logo face {f} was taught with another version "
                                  "of the dice model; delete it and teach that face again")
            if (e.ndim != 2 or not 1 <= v <= 6
                    or patches.shape[1:] != (PATCH_SIDE, PATCH_SIDE, 3) or not len(patches)):
                raise VisionError(f"the taught logo face {f} is damaged (bad embeddings, "
                                  "pictures or value); delete it and teach again")
            embs.append(_unit(e))
            emb_vals += [v] * len(e)
            t = np.concatenate([face_templates(p) for p in patches])
            tmpls.append(t)
            tmpl_vals += [v] * len(t)
        if not embs:
            return cls.empty()
        return cls(np.concatenate(embs), np.array(emb_vals, np.int64),
                   np.concatenate(tmpls), np.array(tmpl_vals, np.int64))

    def near(self, embeddings: np.ndarray) -> np.ndarray:
        """Which of N embeddings are close enough to a taught one to be worth a ``match``."""
        if not self:
            return np.zeros(len(embeddings), bool)
        close: np.ndarray = (_unit(embeddings) @ self.embeddings.T).max(axis=1) >= EMBEDDING_MATCH
        return close

    def match(self, embedding: np.ndarray, read_bgr: np.ndarray) -> tuple[int, float] | None:
        """(value, picture similarity) of the taught face that the die's embedding and
        picture (READ_SIDE px, one die box) both match, or None."""
        if not self:
            return None
        emb_sims = self.embeddings @ _unit(embedding)
        tmpl_sims = (_shifted_discs(read_bgr) @ self.templates.T).max(axis=0)
        best: tuple[int, float] | None = None
        for value in np.unique(self.template_values):
            if emb_sims[self.embedding_values == value].max() < EMBEDDING_MATCH:
                continue
            s = float(tmpl_sims[self.template_values == value].max())
            if s >= TEMPLATE_MATCH and (best is None or s > best[1]):
                best = (int(value), s)
        return best

    @staticmethod
    def save(directory: Path, name: str, value: int, embeddings: np.ndarray,
             patches: np.ndarray, model_id: str) -> Path:
        """Write one taught face (and a preview of its pictures); returns the file written."""
        if not 1 <= value <= 6:
            raise VisionError(f"a logo face stands for a d6 value 1-6, not {value}")
        directory = Path(directory).expanduser()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise VisionError(f"cannot create the logo-face store {directory}: {e.strerror}") \
                from e
        safe = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "logo"
        path = directory / f"{safe}-{value}.npz"
        np.savez_compressed(path, embeddings=_unit(embeddings), value=np.int64(value),
                            model=np.str_(model_id), patches=np.asarray(patches, np.uint8),
                            format=np.int64(FORMAT))
        cv2.imwrite(str(path.with_suffix(".png")), np.hstack(list(patches[:12])))
        (directory / f"{safe}-{value}.json").write_text(
            json.dumps({"value": value, "samples": len(patches)}) + "\n"
        )
        return path
