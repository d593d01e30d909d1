"""The shipped networks: every one loads, the d6 readings are the networks' average, and a
missing file is a clear error."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.vision import VisionError
from companion.vision import models as vision_models
from companion.vision.nets_meta import D6_CROP


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


@pytest.mark.parametrize("name", ["detector.onnx", *vision_models.D6_NETWORKS])
def test_a_missing_model_says_which_file_and_what_to_do(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for shipped in vision_models.MODEL_DIR.glob("*.onnx"):
        if shipped.name != name:
            shutil.copy(shipped, tmp_path / shipped.name)
    monkeypatch.setattr(vision_models, "MODEL_DIR", tmp_path)
    with pytest.raises(VisionError, match=rf"{name}.* is missing; reinstall companion"):
        vision_models.load_models()
