"""The reader never crashes: random bytes, empty trays, huge, tiny and non-image inputs give
a clear VisionError or an empty result."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.vision import DiceReader, FrameReading, VisionError, imageio, load_image
from companion.vision.imageio import decode_image


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=0, max_size=4096))
def test_random_bytes_are_a_clear_error(data: bytes) -> None:
    try:
        img = decode_image(data, "fuzz")
    except VisionError as e:
        assert str(e)
    else:
        assert img.ndim == 3 and img.dtype == np.uint8


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=1, max_value=400), st.integers(min_value=1, max_value=400),
    st.sampled_from(["noise", "flat", "stripes"]), st.integers(0, 2**31 - 1),
)
def test_random_frames_never_crash(
    reader: DiceReader, h: int, w: int, pattern: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    if pattern == "noise":
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    elif pattern == "flat":
        frame = np.full((h, w, 3), rng.integers(0, 256), np.uint8)
    else:
        frame = np.zeros((h, w, 3), np.uint8)
        frame[:, ::4] = 255
    try:
        out = reader.read(frame)
    except VisionError as e:
        assert "small" in str(e)
        assert min(h, w) < 32
    else:
        assert isinstance(out, FrameReading)
        for d in out.dice:
            assert 0.0 <= d.confidence <= 1.0
            x, y, bw, bh = d.box
            assert x >= 0 and y >= 0 and x + bw <= w and y + bh <= h


def test_empty_trays_read_nothing(reader: DiceReader) -> None:
    for v in (0, 40, 128, 200, 255):
        out = reader.read(np.full((480, 640, 3), v, np.uint8))
        assert out.dice == () and out.unreadable == ()


@pytest.mark.parametrize(
    "frame",
    [np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.uint8),
     np.zeros((64, 64, 5), np.uint8), np.zeros((64, 64, 3), np.complex64)],
)
def test_bad_frames_are_clear_errors(reader: DiceReader, frame: np.ndarray) -> None:
    with pytest.raises(VisionError):
        reader.read(frame)


def test_non_array_frame(reader: DiceReader) -> None:
    with pytest.raises(VisionError, match="numpy"):
        reader.read("not a frame")  # type: ignore[arg-type]


def test_huge_frame_is_refused(reader: DiceReader) -> None:
    # A view, so the test itself does not need gigabytes.
    frame = np.broadcast_to(np.zeros((1, 1, 3), np.uint8), (9000, 9000, 3))
    with pytest.raises(VisionError, match="too large"):
        reader.read(frame)


def test_grey_and_float_frames_are_accepted(reader: DiceReader) -> None:
    assert isinstance(reader.read(np.zeros((100, 100), np.uint8)), FrameReading)
    assert isinstance(reader.read(np.zeros((100, 100, 3), np.float32)), FrameReading)


def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0"))


def test_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("hello, not a picture")
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_header(100_000, 100_000))
    for path, words in [(empty, "empty"), (text, "not an image"), (bomb, "too large"),
                        (tmp_path / "missing.png", "no such file"), (tmp_path, "folder")]:
        with pytest.raises(VisionError, match=words):
            load_image(path)


def test_a_jpeg_over_the_limit_is_decoded_smaller_anything_else_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imageio, "MAX_PIXELS", 100_000)
    frame = np.zeros((480, 640, 3), np.uint8)  # 307,200 pixels: a quarter fits the limit
    photo, drawing = tmp_path / "photo.jpg", tmp_path / "drawing.png"
    cv2.imwrite(str(photo), frame)
    cv2.imwrite(str(drawing), frame)
    assert load_image(photo).shape == (240, 320, 3)
    assert imageio.image_reduction(photo) == 2
    with pytest.raises(VisionError, match=r"too large.*save it as JPEG"):
        load_image(drawing)
    # Even an eighth of this one is over: refused, not decoded.
    cv2.imwrite(str(photo), np.zeros((2000, 4000, 3), np.uint8))
    with pytest.raises(VisionError, match="4000x2000 pixels, too large; use at most"):
        load_image(photo)
