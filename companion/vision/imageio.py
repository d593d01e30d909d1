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


#: JPEGs over MAX_PIXELS are decoded at 1/2, 1/4 or 1/8 of their size (libjpeg scales
#: while decoding, so the full-size picture never exists in memory): a 48 or 50 MP phone
#: photo shows its dice at several hundred pixels, far more than the reader needs.
JPEG_REDUCTIONS = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                   (8, cv2.IMREAD_REDUCED_COLOR_8))


def _header(buf: np.ndarray, name: str) -> tuple[int, int, str] | None:
    """(width, height, format) from the image's header alone, or None if Pillow cannot tell.

    Read before decoding, so a tiny file that claims to be 100000x100000 pixels (a
    "decompression bomb") costs microseconds, not gigabytes.
    """
    try:
        from PIL import Image
    except ImportError:  # Pillow is a dependency, but the reader must not need it.
        return None
    try:
        with Image.open(io.BytesIO(buf.tobytes())) as im:
            return im.size[0], im.size[1], str(im.format)
    except Image.DecompressionBombError as e:
        raise VisionError(f"{name} claims a huge size, too large to decode safely; use at "
                          f"most {MAX_PIXELS // 1_000_000} megapixels") from e
    except Exception:  # unknown to Pillow: let OpenCV have its say
        return None


def decoding_reduction(width: int, height: int, image_format: str, name: str) -> tuple[int, int]:
    """(factor, cv2 imread flag) to decode an image of this size within MAX_PIXELS.

    Factor 1 for most; a JPEG too large for that is decoded smaller; anything else too
    large is refused.
    """
    if width * height <= MAX_PIXELS:
        return 1, cv2.IMREAD_COLOR
    if image_format == "JPEG":
        for factor, flag in JPEG_REDUCTIONS:
            if (width // factor) * (height // factor) <= MAX_PIXELS:
                return factor, flag
    advice = "" if image_format == "JPEG" else " (or save it as JPEG, which is read smaller)"
    raise VisionError(f"{name} is {width}x{height} pixels, too large; use at most "
                      f"{MAX_PIXELS // 1_000_000} megapixels{advice}")


def image_reduction(path: Path) -> int:
    """By how much `load_image` shrinks this file as it decodes it (1: not at all)."""
    buf = np.fromfile(str(path), dtype=np.uint8)
    header = _header(buf, str(path))
    return 1 if header is None else decoding_reduction(*header, str(path))[0]


def decode_image(data: np.ndarray | bytes, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) with the same checks as load_image."""
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data
    if buf.size == 0:
        raise VisionError(f"{name} is empty")
    header = _header(buf, name)
    flag = cv2.IMREAD_COLOR if header is None else decoding_reduction(*header, name)[1]
    try:
        img = cv2.imdecode(buf, flag)
    except cv2.error as e:
        raise VisionError(f"{name} is not an image OpenCV can decode ({e.msg.strip()})") from e
    if img is None:
        raise VisionError(f"{name} is not an image (or is corrupt); use a JPEG or PNG photo")
    return check_frame(img)
