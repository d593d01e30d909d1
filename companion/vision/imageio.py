"""Loading and checking frames: every failure becomes a VisionError the user can act on."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np

from .types import VisionError

#: Files larger than this are refused before decoding (a 12 MP JPEG is ~5 MB).
MAX_FILE_BYTES = 60 * 1024 * 1024
#: Decoded frames with more pixels than this are refused (memory budget 200 MB).
MAX_PIXELS = 40_000_000
#: Smaller than this cannot hold a readable die.
MIN_SIDE = 32


def check_frame(frame: object) -> np.ndarray:
    """Return ``frame`` as a contiguous HxWx3 uint8 BGR array, or raise VisionError."""
    if not isinstance(frame, np.ndarray):
        raise VisionError(f"a frame must be a numpy image array, not {type(frame).__name__}")
    return _as_bgr(frame)


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if frame.size == 0:
        raise VisionError("the frame is empty (0 pixels); check the camera")
    if frame.ndim == 2:
        frame = frame[..., None]
    if frame.ndim != 3 or frame.shape[2] not in (1, 3, 4):
        raise VisionError(
            f"the frame has shape {frame.shape}; expected height x width x 3 (BGR)"
        )
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise VisionError(f"the frame is {w}x{h} pixels, too small to read dice "
                          f"(need at least {MIN_SIDE}x{MIN_SIDE})")
    if h * w > MAX_PIXELS:
        raise VisionError(f"the frame is {w}x{h} pixels, too large; use at most "
                          f"{MAX_PIXELS // 1_000_000} megapixels (lower the camera resolution)")
    if frame.dtype != np.uint8:
        if frame.dtype == np.uint16:
            frame = (frame >> 8).astype(np.uint8)
        elif np.issubdtype(frame.dtype, np.floating):
            f = np.nan_to_num(frame.astype(np.float32))
            scale = 255.0 if f.max(initial=0) <= 1.0 else 1.0
            frame = np.clip(f * scale, 0, 255).astype(np.uint8)
        else:
            raise VisionError(f"frames must be 8-bit images, got {frame.dtype}")
    if frame.shape[2] == 1:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(frame)


def load_image(path: Path) -> np.ndarray:
    """Read an image file as BGR uint8; raise VisionError for anything that is not usable."""
    path = Path(path)
    if not path.exists():
        raise VisionError(f"{path}: no such file")
    if path.is_dir():
        raise VisionError(f"{path} is a folder; give image files")
    try:
        size = path.stat().st_size
    except OSError as e:
        raise VisionError(f"{path}: cannot read ({e.strerror})") from e
    if size == 0:
        raise VisionError(f"{path} is empty (0 bytes)")
    if size > MAX_FILE_BYTES:
        raise VisionError(f"{path} is {size // (1024 * 1024)} MB; images over "
                          f"{MAX_FILE_BYTES // (1024 * 1024)} MB are refused")
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as e:
        raise VisionError(f"{path}: cannot read ({e.strerror})") from e
    return decode_image(data, str(path))


def _check_header_size(buf: np.ndarray, name: str) -> None:
    """Refuse images whose header claims too many pixels, before decoding them.

    A tiny file can claim to be 100000x100000 pixels (a "decompression bomb"); Pillow reads
    only the header here, so this costs microseconds.
    """
    try:
        from PIL import Image
    except ImportError:  # Pillow is a dependency, but the reader must not need it.
        return
    try:
        with Image.open(io.BytesIO(buf.tobytes())) as im:
            w, h = im.size
    except Image.DecompressionBombError as e:
        raise VisionError(f"{name} claims a huge size, too large to decode safely; use at "
                          f"most {MAX_PIXELS // 1_000_000} megapixels") from e
    except Exception:  # unknown to Pillow: let OpenCV have its say
        return
    if w * h > MAX_PIXELS:
        raise VisionError(f"{name} is {w}x{h} pixels, too large; use at most "
                          f"{MAX_PIXELS // 1_000_000} megapixels")


def decode_image(data: np.ndarray | bytes, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) with the same checks as load_image."""
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data
    if buf.size == 0:
        raise VisionError(f"{name} is empty")
    # Check the header's claimed size before decoding so a tiny file that claims to be
    # 100000x100000 pixels (a "decompression bomb") cannot exhaust memory.
    _check_header_size(buf, name)
    try:
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except cv2.error as e:
        raise VisionError(f"{name} is not an image OpenCV can decode ({e.msg.strip()})") from e
    if img is None:
        raise VisionError(f"{name} is not an image (or is corrupt); use a JPEG or PNG photo")
    return check_frame(img)
