"""The shipped networks: every one loads, the d6 readings are the networks' average, and a
missing or damaged file, or a network that gives no numbers, is a clear error when the
reader is made."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.vision import DiceReader, VisionError
from companion.vision import models as vision_models
from companion.vision.compose import compose_tray
from companion.vision.nets_meta import D6_CROP

REPO = Path(__file__).resolve().parents[2]


def _crops(n: int) -> np.ndarray:
    return np.random.default_rng(7).normal(size=(n, 3, D6_CROP, D6_CROP)).astype(np.float32)


def test_d6_probabilities_are_the_average_of_the_d6_networks() -> None:
    models = vision_models.load_models()
    assert len(models.d6) == len(vision_models.D6_NETWORKS) == 2
    x = _crops(5)
    each = [vision_models.Models._classify(net, x) for net in models.d6]
    probabilities, embedding = models.classify_d6(x)
    assert probabilities.shape == (5, 7)
    np.testing.assert_allclose(probabilities, (each[0][0] + each[1][0]) / 2, rtol=1e-6)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    # Logo faces are matched on the first network's embedding (its fingerprint is d6_id).
    np.testing.assert_array_equal(embedding, each[0][1])
    # The two networks are not the same network twice.
    assert not np.allclose(each[0][0], each[1][0])


def _copy_models(to: Path, monkeypatch: pytest.MonkeyPatch, leave_out: str = "") -> Path:
    """The shipped models and their checksums in ``to``, which the loader then reads."""
    for shipped in vision_models.MODEL_DIR.iterdir():
        if shipped.name != leave_out:
            shutil.copy(shipped, to / shipped.name)
    monkeypatch.setattr(vision_models, "MODEL_DIR", to)
    return to


def _flip_bytes(path: Path, count: int) -> None:
    """What a failing SD card does: bytes changed in the middle of the file."""
    data = bytearray(path.read_bytes())
    rng = np.random.default_rng(0)
    for i in rng.integers(int(len(data) * 0.3), int(len(data) * 0.95), count):
        data[i] ^= 0x40
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("name", ["detector.onnx", *vision_models.D6_NETWORKS])
def test_a_missing_model_says_which_file_and_what_to_do(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _copy_models(tmp_path, monkeypatch, leave_out=name)
    with pytest.raises(VisionError, match=rf"{name}.* is missing; reinstall companion"):
        vision_models.load_models()


def test_the_checksum_list_matches_the_shipped_models() -> None:
    listed = vision_models.read_manifest(vision_models.MODEL_DIR)
    shipped = {p.name: vision_models.digest(p.read_bytes())
               for p in vision_models.MODEL_DIR.glob("*.onnx")}
    assert listed == shipped
    assert set(shipped) == {"detector.onnx", "digits.onnx", *vision_models.D6_NETWORKS}
    # The d6 model's fingerprint (what taught logo faces record) is its checksum's start.
    assert vision_models.load_models().d6_id == listed["d6.onnx"][:16]
    check = subprocess.run([sys.executable, str(REPO / "tools/vision/model_manifest.py"),
                            "--check"], capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize(("name", "count", "kinds"), [
    ("d6-second.onnx", 200, ("d6",)),     # loaded and ran: every die a 1 at confidence NaN
    ("detector.onnx", 50, ("d6",)),       # loaded and ran: no die on any frame
    ("digits.onnx", 1, ("d6", "d10")),
    ("d6.onnx", 1, ("d6",)),
])
def test_a_damaged_model_is_refused_when_the_reader_is_made(
    name: str, count: int, kinds: tuple[str, ...], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _flip_bytes(_copy_models(tmp_path, monkeypatch) / name, count)
    with pytest.raises(VisionError, match=rf"{name} is damaged.*reinstall companion"):
        DiceReader(kinds=kinds)


def test_models_without_their_checksum_list_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _copy_models(tmp_path, monkeypatch, leave_out=vision_models.MANIFEST)
    with pytest.raises(VisionError, match=r"SHA256SUMS.txt is missing; reinstall companion"):
        DiceReader()
    # A retrained model: the list is written again, and the reader takes it.
    vision_models.write_manifest(tmp_path)
    assert DiceReader().models.d6_id


def test_a_d10_reader_needs_the_digit_model_when_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _copy_models(tmp_path, monkeypatch, leave_out="digits.onnx")
    for kinds in (("d6", "d10"), ("d10",), ("percentile",)):
        with pytest.raises(VisionError, match=r"digits.onnx is missing \(it reads d10"):
            DiceReader(kinds=kinds)
    # d6 only: the digit network is a help with numeral d6s, not a need.
    reading = DiceReader(kinds=("d6",)).read(compose_tray([2, 5], "d6", random.Random(3)))
    assert sorted(d.value for d in reading.dice) == [2, 5]


class _NaNNet:
    """A network that runs but gives NaN, as a damaged one did (after its checksum passed:
    a model that needs another OpenCV can do the same)."""

    def __init__(self, net: Any) -> None:
        self.net = net

    def setInput(self, x: np.ndarray) -> None:  # cv2's name
        self.net.setInput(x)

    def forward(self, names: object = None) -> object:
        out = self.net.forward() if names is None else self.net.forward(names)
        if isinstance(out, tuple):
            return tuple(np.full_like(np.asarray(o), np.nan) for o in out)
        return np.full_like(np.asarray(out), np.nan)


@pytest.mark.parametrize("which", ["detector", "d6 second", "digits"])
def test_outputs_that_are_not_numbers_are_refused_not_read(which: str) -> None:
    reader = DiceReader(kinds=("d6", "d10"))
    models: Any = reader.models
    if which == "detector":
        models.detector = _NaNNet(models.detector)
    elif which == "d6 second":
        models.d6 = (models.d6[0], _NaNNet(models.d6[1]))
    else:
        models.digits = _NaNNet(models.digits)
    frame = compose_tray([1, 2, 3, 4], "d6", random.Random(1))
    with pytest.raises(VisionError, match=r"gave outputs that are not numbers.*reinstall"):
        reader.read(frame)


def test_the_check_on_loading_costs_little() -> None:
    """The reader is made again at every camera reopen: hashing 1.5 MB and three tiny runs
    must stay a small part of loading (a few ms here)."""
    import time

    vision_models.load_models(need_digits=True)
    start = time.perf_counter()
    for _ in range(5):
        vision_models.load_models(need_digits=True)
    assert (time.perf_counter() - start) / 5 < 0.5
