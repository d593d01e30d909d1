"""Input conventions shared by the runtime and the training script.

Kept in one place so a retrained model and the reader can never disagree about crop size
or normalisation (a silent mismatch would cost accuracy without failing any check).
"""

from __future__ import annotations

import cv2
import numpy as np

#: Detector output stride (heatmap cell = 4 input pixels).
DET_STRIDE = 4
#: Die size, in detector-input pixels, the detector is run at when the scale is known.
DET_DIE_PX = 22.0
#: Side of the square crop fed to the d6 classifier and to the digit classifier.
D6_CROP = 40
DIGIT_CROP = 48
#: The d6 reader's crop side as a multiple of the die's box (some margin for box error).
D6_CROP_SCALE = 1.3
#: The digit reader's crop side as a multiple of the detector's box (the d6 reader's is
#: ``D6_CROP_SCALE``). Tighter: the detector's box of a d10 is ~0.87 x its outline, so this is
#: about the whole die, and the middle number gets more pixels than with a looser crop.
DIGIT_CROP_SCALE = 1.15


def normalise_frame(img_bgr: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 -> 3xHxW float32, zero mean / unit variance over the whole frame.

    Per-frame standardisation is the lighting normalisation the detector relies on: a dim
    or bright tray looks the same to it.
    """
    mean, std = cv2.meanStdDev(img_bgr)
    m = float(mean.mean())
    var = float(np.mean(std.ravel() ** 2 + mean.ravel() ** 2)) - m * m
    s = float(np.sqrt(max(var, 0.0))) + 8.0
    # blobFromImage does (x - mean) * scale and the HWC -> CHW transpose in one C++ pass.
    blob = cv2.dnn.blobFromImage(
        img_bgr, scalefactor=1.0 / s, mean=(m, m, m), swapRB=False, crop=False, ddepth=cv2.CV_32F
    )
    return np.ascontiguousarray(blob[0])


def normalise_crop_batch(crops: np.ndarray) -> np.ndarray:
    """Nx H x W x 3 uint8 -> Nx3xHxW float32, each crop standardised on its own."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / (std + 8.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))
