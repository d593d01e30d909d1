"""The shipped networks, run with OpenCV's dnn module (no PyTorch or ONNX Runtime needed).

Files in ``companion/vision/models/`` are produced by ``tools/vision/train_models.py``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .types import VisionError

MODEL_DIR = Path(__file__).resolve().parent / "models"


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=1, keepdims=True)
    e = np.exp(x)
    probabilities: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probabilities


def _net(name: str) -> cv2.dnn.Net:
    path = MODEL_DIR / name
    if not path.is_file():
        raise VisionError(
            f"the dice model {path} is missing; reinstall companion or run "
            "tools/vision/train_models.py (see docs/vision.md)"
        )
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as e:
        raise VisionError(f"the dice model {path} cannot be loaded ({e.msg.strip()}); "
                          "reinstall companion") from e
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net


#: The d6 networks whose face probabilities are averaged. The first also gives the
#: embedding that taught logo faces are matched on. The second was fine-tuned from the first
#: with dice foreshortened as a tilted camera sees them (docs/vision.md): alone it reads
#: tilted trays better but makes other mistakes than the first, and the average makes
#: fewer than either on every set we have outside test/.
D6_NETWORKS = ("d6.onnx", "d6-second.onnx")


@dataclass
class Models:
    detector: cv2.dnn.Net
    d6: tuple[cv2.dnn.Net, ...]
    digits: cv2.dnn.Net | None
    #: Fingerprint of d6.onnx: taught logo faces are only valid for the model that made them.
    d6_id: str

    def detect(self, x: np.ndarray) -> np.ndarray:
        """1x3xHxW normalised frame -> 1x5x(H/4)x(W/4): heat, log w, log h, dx, dy."""
        self.detector.setInput(x)
        return np.asarray(self.detector.forward())

    @staticmethod
    def _classify(net: cv2.dnn.Net, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        net.setInput(x)
        logits, embed = net.forward(["logits", "embed"])
        return _softmax(np.asarray(logits, np.float32)), np.asarray(embed, np.float32)

    def classify_d6(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nx3xSxS crops (S = D6_CROP) -> (N x 7 probabilities: faces 1-6, not-a-face,
        averaged over the d6 networks; N x D embedding of the first)."""
        probabilities, embedding = self._classify(self.d6[0], x)
        for net in self.d6[1:]:
            probabilities = probabilities + self._classify(net, x)[0]
        return probabilities / len(self.d6), embedding

    def classify_digits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nx3x48x48 crops -> (N x 21: d10 0-9, percentile 00-90, not-a-face; embedding)."""
        if self.digits is None:
            raise VisionError("the d10/percentile model is missing; reinstall companion")
        return self._classify(self.digits, x)


def load_models() -> Models:
    digits = _net("digits.onnx") if (MODEL_DIR / "digits.onnx").is_file() else None
    d6_id = hashlib.sha256((MODEL_DIR / "d6.onnx").read_bytes()).hexdigest()[:16] \
        if (MODEL_DIR / "d6.onnx").is_file() else ""
    d6 = tuple(_net(name) for name in D6_NETWORKS)
    return Models(_net("detector.onnx"), d6, digits, d6_id)
