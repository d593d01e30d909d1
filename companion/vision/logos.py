"""Taught logo faces: many wargame dice print a logo instead of the 6 (or the 1).

``companion dice teach`` crops dice showing the logo from a few frames and stores the d6
network's embedding of each crop at four quarter turns (the embedding is not rotation
invariant, and a die can land any way round). At read time a die whose embedding is close
(cosine similarity) to a stored one reads as the taught value. Each taught face records
which d6 model made it: another model's embeddings mean nothing, so a face taught before
the model was retrained is refused with a request to teach it again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .types import VisionError

#: Cosine similarity needed to accept a logo match; set so that on train/ no pip face
#: matches a logo taught from another pip face of a different value (see tests).
MATCH_THRESHOLD = 0.9


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    unit: np.ndarray = v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-6)
    return unit


@dataclass
class LogoStore:
    """Embeddings (N x D, unit length) with the face value each stands for."""

    embeddings: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    values: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))

    @classmethod
    def empty(cls) -> LogoStore:
        return cls()

    def __bool__(self) -> bool:
        return len(self.values) > 0

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
        embs, vals = [], []
        for f in sorted(directory.glob("*.npz")):
            try:
                with np.load(f) as z:
                    e = np.asarray(z["embeddings"], np.float32)
                    v = int(z["value"])
                    taught_with = str(z["model"]) if "model" in z.files else "an older model"
            except (OSError, KeyError, ValueError) as ex:
                raise VisionError(f"the taught logo face {f} is damaged ({ex}); delete it and "
                                  "teach again") from ex
            if taught_with != model_id:
                raise VisionError(f"the taught logo face {f} was taught with another version "
                                  "of the dice model; delete it and teach that face again")
            if e.ndim != 2 or not 1 <= v <= 6:
                raise VisionError(f"the taught logo face {f} is damaged (bad embeddings or "
                                  "value); delete it and teach again")
            embs.append(_unit(e))
            vals += [v] * len(e)
        if not embs:
            return cls.empty()
        return cls(np.concatenate(embs), np.array(vals, np.int64))

    def match(self, embedding: np.ndarray) -> tuple[int, float] | None:
        """(value, similarity) of the closest taught face, or None when none is close."""
        if not self:
            return None
        sims = self.embeddings @ _unit(embedding)
        k = int(np.argmax(sims))
        s = float(sims[k])
        if s < MATCH_THRESHOLD:
            return None
        return int(self.values[k]), s

    @staticmethod
    def save(directory: Path, name: str, value: int, embeddings: np.ndarray, model_id: str,
             preview: np.ndarray | None = None) -> Path:
        """Write one taught face; returns the file written."""
        import cv2

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
                            model=np.str_(model_id))
        if preview is not None:
            cv2.imwrite(str(path.with_suffix(".png")), preview)
        (directory / f"{safe}-{value}.json").write_text(
            json.dumps({"value": value, "samples": len(embeddings)}) + "\n"
        )
        return path
