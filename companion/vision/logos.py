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

Each picture becomes TURNS x len(ZOOMS) = 120 templates of 1,848 numbers (0.9 MB), so at
most MAX_PICTURES_PER_VALUE pictures are kept per face value, when teaching and when
loading a store taught before that cap (one taught from 120 dice took 106 MB and 24 ms per
die compared).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.files import write_atomically

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
#: Pictures kept per face value (when teaching, and when loading a store taught before the
#: cap). docs/vision.md calls three or four frames of two or three dice "plenty": 6-12
#: pictures. A match takes the best of all templates, and each picture's 120 templates
#: already cover every turn and the detector's box errors, so more pictures of the same
#: face add near-copies: the skull of the tests is matched from 6. Eight keep 7 MB of
#: templates per value (43 MB with all six values taught, within the box's 200 MB) and
#: ~2 ms per die compared. The pictures kept are spread evenly over those taught, so
#: that they come from all the frames. Embeddings (4 x 96 numbers a die) are all kept.
MAX_PICTURES_PER_VALUE = 8

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


def spread(count: int, keep: int) -> np.ndarray:
    """Indices of ``keep`` of ``count`` items spread evenly (all of them if ``count`` is at
    most ``keep``)."""
    if count <= keep:
        return np.arange(count)
    return np.unique(np.linspace(0, count - 1, keep).round().astype(np.int64))


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
    def load(cls, directory: Path, model_id: str, embedding_width: int = 0) -> LogoStore:
        """Load every ``*.npz`` face taught into ``directory``.

        ``model_id`` names the d6 model now in use; faces taught with another are refused.
        ``embedding_width`` is that model's embedding length (0: not checked). A folder
        that does not exist, or a face file that cannot be used, is a VisionError naming
        it and what to do: a reader given a logo store must not read as if it had none.
        At most MAX_PICTURES_PER_VALUE pictures per value are kept (``spread``).
        """
        directory = Path(directory).expanduser()
        if not directory.exists():
            raise VisionError(
                f"the logo-face folder {directory} does not exist; teach a logo face into it "
                f"(`companion dice teach --store {directory}`) or name the folder the faces "
                "were taught into ([dice] logo_faces_dir; empty for none)")
        if not directory.is_dir():
            raise VisionError(f"the logo-face store {directory} is not a folder")
        embs: list[np.ndarray] = []
        emb_vals: list[int] = []
        pictures: dict[int, list[np.ndarray]] = {}
        for f in sorted(directory.glob("*.npz")):
            e, v, p = _read_face(f, model_id, embedding_width)
            if embs and e.shape[1] != embs[0].shape[1]:
                raise _damaged(f, f"its embeddings are {e.shape[1]} long, those of the other "
                               f"faces {embs[0].shape[1]}")
            embs.append(_unit(e))
            emb_vals += [v] * len(e)
            pictures.setdefault(v, []).append(p)
        if not embs:
            return cls.empty()
        tmpls, tmpl_vals = [], []
        for v, taught in sorted(pictures.items()):
            kept = np.concatenate(taught)
            kept = kept[spread(len(kept), MAX_PICTURES_PER_VALUE)]
            t = np.concatenate([face_templates(p) for p in kept])
            tmpls.append(t)
            tmpl_vals += [v] * len(t)
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
        """Write one taught face (and a preview of its pictures); returns the file written.

        Keeps at most MAX_PICTURES_PER_VALUE of the pictures, spread over those given, and
        every embedding. Each file is written whole or not at all (``write_atomically``):
        a power cut while teaching leaves the face as it was, not a damaged file.
        """
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
        patches = np.asarray(patches, np.uint8)
        patches = patches[spread(len(patches), MAX_PICTURES_PER_VALUE)]
        packed = io.BytesIO()
        np.savez_compressed(packed, embeddings=_unit(embeddings), value=np.int64(value),
                            model=np.str_(model_id), patches=patches,
                            format=np.int64(FORMAT))
        try:
            write_atomically(path, packed.getvalue())
            ok, preview = cv2.imencode(".png", np.hstack(list(patches[:12])))
            if ok:
                write_atomically(path.with_suffix(".png"), preview.tobytes())
            write_atomically(directory / f"{safe}-{value}.json", (json.dumps(
                {"value": value, "samples": len(patches)}) + "\n").encode())
        except OSError as e:
            raise VisionError(f"cannot save the taught face in {directory}: "
                              f"{e.strerror or e}") from e
        return path


def _damaged(f: Path, what: str) -> VisionError:
    return VisionError(f"the taught logo face {f} is damaged ({what}); delete it and teach "
                       "that face again (`companion dice teach`)")


def _scalar(z: np.lib.npyio.NpzFile, key: str, kind: str) -> np.ndarray:
    """A one-value field of a face file: integer (kind "iu") or text ("U")."""
    a = z[key]
    if a.shape != () or a.dtype.kind not in kind:
        raise TypeError(f"{key} is {a.dtype} {a.shape}, not one value")
    return a


def _read_face(f: Path, model_id: str, embedding_width: int
               ) -> tuple[np.ndarray, int, np.ndarray]:
    """(embeddings, value, pictures) of one face file, checked."""
    try:
        with np.load(f, allow_pickle=False) as z:
            fmt = int(_scalar(z, "format", "iu")) if "format" in z.files else 1
            taught_with = str(_scalar(z, "model", "U")) if "model" in z.files else ""
            v = int(_scalar(z, "value", "iu"))
            e = np.asarray(z["embeddings"])
            patches = np.asarray(z["patches"]) if fmt >= FORMAT else None
    except (OSError, EOFError, ValueError, KeyError, TypeError, zipfile.BadZipFile,
            zlib.error) as ex:
        # The first sentence of what numpy or zipfile says ("File is not a zip file").
        said = str(ex).split(". ")[0][:100]
        raise _damaged(f, f"{type(ex).__name__}: {said}" if said else type(ex).__name__) \
            from ex
    if taught_with != model_id or patches is None:
        raise VisionError(f"the taught logo face {f} was taught with another version of "
                          "the dice model; delete it and teach that face again")
    if not 1 <= v <= 6:
        raise _damaged(f, f"value {v} is not a d6 face")
    if e.ndim != 2 or not len(e) or e.dtype.kind != "f" or not np.isfinite(e).all():
        raise _damaged(f, f"its embeddings are {e.dtype} {e.shape}")
    if embedding_width and e.shape[1] != embedding_width:
        raise _damaged(f, f"its embeddings are {e.shape[1]} long, the dice model's "
                       f"{embedding_width}")
    if (patches.dtype != np.uint8 or patches.ndim != 4
            or patches.shape[1:] != (PATCH_SIDE, PATCH_SIDE, 3) or not len(patches)):
        raise _damaged(f, f"its pictures are {patches.dtype} {patches.shape}")
    return e.astype(np.float32), v, patches
