"""The shipped networks, run with OpenCV's dnn module (no PyTorch or ONNX Runtime needed).

Files in ``companion/vision/models/`` are produced by ``tools/vision/train_models.py`` and
``tools/vision/train_digits.py``. ``models/SHA256SUMS.txt`` lists their SHA-256 checksums
(``sha256sum`` format): a model is loaded only from bytes that match it, since a damaged
file can load and still run, reading every die as a 1 at confidence NaN, or none at all.
After retraining, ``tools/vision/model_manifest.py`` writes the list again.

Each network is also run once on a blank input when loaded, and its outputs' shapes and
values are checked, so that a reader that cannot work fails when it is made (the box shows
"Dice reader broken" at start), not at the first throw. The check costs ~1.5 MB of hashing
and three tiny forward passes per load (docs/vision.md gives the times).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .nets_meta import D6_CROP, DET_STRIDE, DIGIT_CROP
from .types import VisionError

MODEL_DIR = Path(__file__).resolve().parent / "models"
#: The checksums of the shipped models, in ``sha256sum`` format (``HEX  NAME`` a line), so
#: ``cd companion/vision/models && sha256sum -c SHA256SUMS.txt`` checks them by hand too.
MANIFEST = "SHA256SUMS.txt"
DETECTOR = "detector.onnx"
DIGITS = "digits.onnx"
#: The d6 networks whose face probabilities are averaged. The first also gives the
#: embedding that taught logo faces are matched on. The second was fine-tuned from the first
#: with dice foreshortened as a tilted camera sees them (docs/vision.md): alone it reads
#: tilted trays better but makes other mistakes than the first, and the average makes
#: fewer than either on every set we have outside test/.
D6_NETWORKS = ("d6.onnx", "d6-second.onnx")
#: Classes of the d6 networks (faces 1-6, not a face) and of the digit network (d10 0-9,
#: percentile 00-90, not a face).
D6_CLASSES = 7
DIGIT_CLASSES = 21
_REINSTALL = "reinstall companion"
_AFTER_RETRAINING = ("reinstall companion (after retraining a model, run "
                     "tools/vision/model_manifest.py)")


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=1, keepdims=True)
    e = np.exp(x)
    probabilities: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probabilities


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(model_dir: Path) -> dict[str, str]:
    """File name -> SHA-256 (hex) of the models in ``model_dir``, from its manifest."""
    path = model_dir / MANIFEST
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise VisionError(f"the list of the dice models' checksums {path} is missing; "
                          f"{_AFTER_RETRAINING}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise VisionError(f"the list of the dice models' checksums {path} cannot be read "
                          f"({e}); {_REINSTALL}") from None
    sums: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if (len(parts) != 2 or len(parts[0]) != 64
                or any(c not in "0123456789abcdef" for c in parts[0])):
            raise VisionError(f"{path} line {number} is not 'SHA256  NAME'; {_REINSTALL}")
        sums[parts[1].lstrip("*")] = parts[0]
    return sums


def write_manifest(model_dir: Path = MODEL_DIR) -> Path:
    """Write the manifest of every ``*.onnx`` in ``model_dir`` (after retraining)."""
    lines = [f"{digest(p.read_bytes())}  {p.name}\n" for p in sorted(model_dir.glob("*.onnx"))]
    path = model_dir / MANIFEST
    path.write_text("".join(lines), encoding="ascii")
    return path


def _verified_bytes(name: str, sums: dict[str, str], model_dir: Path, needed_for: str) -> bytes:
    path = model_dir / name
    if not path.is_file():
        raise VisionError(f"the dice model {path} is missing{needed_for}; {_REINSTALL} or run "
                          "tools/vision/train_models.py (see docs/vision.md)")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise VisionError(f"the dice model {path} cannot be read ({e.strerror}); "
                          f"{_REINSTALL}") from None
    if name not in sums:
        raise VisionError(f"the dice model {path} is not in {model_dir / MANIFEST}; "
                          f"{_AFTER_RETRAINING}")
    if digest(data) != sums[name]:
        raise VisionError(f"the dice model {path} is damaged (its SHA-256 checksum is not "
                          f"the one it was shipped with); {_AFTER_RETRAINING}")
    return data


def _load(data: bytes, path: Path) -> cv2.dnn.Net:
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
    except cv2.error as e:
        raise VisionError(f"the dice model {path} cannot be loaded ({e.msg.strip()}); "
                          f"{_REINSTALL}") from e
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net


def _finite(arrays: Sequence[np.ndarray], name: str) -> None:
    """Refuse NaN or infinite network outputs: they pass every ``p < threshold`` test, so a
    damaged model would read dice (as 1s at confidence NaN) instead of failing."""
    if not all(bool(np.isfinite(a).all()) for a in arrays):
        raise VisionError(f"the dice model {name} gave outputs that are not numbers (NaN or "
                          f"infinite): its file is damaged or this OpenCV cannot run it; "
                          f"{_REINSTALL}")


def _run_classifier(net: cv2.dnn.Net, x: np.ndarray, name: str
                    ) -> tuple[np.ndarray, np.ndarray]:
    net.setInput(x)
    logits, embed = net.forward(["logits", "embed"])
    logits, embed = np.asarray(logits, np.float32), np.asarray(embed, np.float32)
    _finite((logits, embed), name)
    return _softmax(logits), embed


@dataclass
class Models:
    detector: cv2.dnn.Net
    d6: tuple[cv2.dnn.Net, ...]
    digits: cv2.dnn.Net | None
    #: Fingerprint of d6.onnx: taught logo faces are only valid for the model that made them.
    d6_id: str
    #: Length of the first d6 network's embedding (what taught logo faces store).
    embedding_width: int = 0

    def detect(self, x: np.ndarray) -> np.ndarray:
        """1x3xHxW normalised frame -> 1x5x(H/4)x(W/4): heat, log w, log h, dx, dy."""
        self.detector.setInput(x)
        out = np.asarray(self.detector.forward())
        _finite((out,), DETECTOR)
        return out

    @staticmethod
    def _classify(net: cv2.dnn.Net, x: np.ndarray, name: str = "a dice classifier"
                  ) -> tuple[np.ndarray, np.ndarray]:
        return _run_classifier(net, x, name)

    def classify_d6(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nx3xSxS crops (S = D6_CROP) -> (N x 7 probabilities: faces 1-6, not-a-face,
        averaged over the d6 networks; N x D embedding of the first)."""
        probabilities, embedding = self._classify(self.d6[0], x, D6_NETWORKS[0])
        for net, name in zip(self.d6[1:], D6_NETWORKS[1:], strict=True):
            probabilities = probabilities + self._classify(net, x, name)[0]
        return probabilities / len(self.d6), embedding

    def classify_digits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nx3x48x48 crops -> (N x 21: d10 0-9, percentile 00-90, not-a-face; embedding)."""
        if self.digits is None:
            raise VisionError("the d10/percentile model is missing; reinstall companion")
        return self._classify(self.digits, x, DIGITS)


def _self_check(net: cv2.dnn.Net, name: str, path: Path) -> int:
    """Run a network once on a blank input; check its outputs. Returns the embedding width
    of a classifier (0 for the detector)."""
    def wrong(what: str) -> VisionError:
        return VisionError(f"the dice model {path} {what}; {_REINSTALL}")

    try:
        if name == DETECTOR:
            side = DET_STRIDE * 8
            net.setInput(np.zeros((1, 3, side, side), np.float32))
            out = np.asarray(net.forward())
            _finite((out,), name)
            if out.shape != (1, 5, 8, 8):
                raise wrong(f"is not the dice detector (it gives {out.shape} for a "
                            f"{side}x{side} frame, not (1, 5, 8, 8))")
            return 0
        side, classes = (DIGIT_CROP, DIGIT_CLASSES) if name == DIGITS else (D6_CROP,
                                                                           D6_CLASSES)
        probabilities, embed = _run_classifier(
            net, np.zeros((1, 3, side, side), np.float32), name)
    except cv2.error as e:
        raise wrong(f"does not run ({e.msg.strip()})") from e
    if probabilities.shape != (1, classes) or embed.ndim != 2 or embed.shape[0] != 1:
        raise wrong(f"is not the {name} network (it gives {probabilities.shape[1:]} classes, "
                    f"not {classes})")
    return int(embed.shape[1])


def load_models(need_digits: bool = False) -> Models:
    """Load and check the networks (``models/SHA256SUMS.txt``, one run each).

    The digit network is needed for d10 and percentile dice (``need_digits``); a d6-only
    reader uses it when it is installed (numeral d6s) and works without it.
    """
    model_dir = MODEL_DIR
    names = [DETECTOR, *D6_NETWORKS]
    if need_digits or (model_dir / DIGITS).exists():
        names.append(DIGITS)
    sums = read_manifest(model_dir)
    nets: dict[str, cv2.dnn.Net] = {}
    widths: dict[str, int] = {}
    d6_id = ""
    for name in names:
        needed_for = " (it reads d10 and percentile dice)" if name == DIGITS else ""
        data = _verified_bytes(name, sums, model_dir, needed_for)
        if name == D6_NETWORKS[0]:
            d6_id = sums[name][:16]
        nets[name] = _load(data, model_dir / name)
        widths[name] = _self_check(nets[name], name, model_dir / name)
    return Models(nets[DETECTOR], tuple(nets[n] for n in D6_NETWORKS), nets.get(DIGITS),
                  d6_id, widths[D6_NETWORKS[0]])
