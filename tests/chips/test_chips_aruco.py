from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.chips import ChipReaderError, DrawDetector, open_reader
from companion.chips.aruco import ArucoReader, detect_markers
from companion.chips.sheet import (
    Sticker,
    as_array,
    page_grid,
    render_sheets,
    render_sticker,
    save_sheets,
)


def scene(sticker: np.ndarray, angle: float, scale: float, blur: float) -> np.ndarray:
    """The sticker on a mid-grey table, turned, scaled and out of focus."""
    size = int(sticker.shape[0] * scale * 1.6) + 40
    canvas: np.ndarray = np.full((size, size), 110, np.uint8)
    small = cv2.resize(sticker, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    y = x = (size - small.shape[0]) // 2
    canvas[y : y + small.shape[0], x : x + small.shape[1]] = small
    turn = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    canvas = cv2.warpAffine(canvas, turn, (size, size), borderValue=110)
    if blur:
        canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    return canvas


@pytest.fixture(scope="module")
def sticker17() -> np.ndarray:
    return as_array(render_sticker(Sticker(17, "Legion 1")))


@pytest.mark.parametrize("angle", [0, 23, 90, 145, 200, 315])
@pytest.mark.parametrize("scale", [0.25, 0.5, 1.0, 1.5])
@pytest.mark.parametrize("blur", [0.0, 1.5, 3.0])
def test_sticker_read_under_rotation_scale_blur(
    sticker17: np.ndarray, angle: float, scale: float, blur: float
) -> None:
    found = detect_markers(scene(sticker17, angle, scale, blur))
    assert [s.marker_id for s in found] == [17]


def test_sticker_read_in_perspective_with_noise(sticker17: np.ndarray) -> None:
    image = scene(sticker17, 30, 0.6, 1.0)
    h, w = image.shape
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    dst = np.array([[w * 0.1, h * 0.05], [w * 0.85, 0], [w, h], [0, h * 0.9]], dtype=np.float32)
    tilted = cv2.warpPerspective(
        image, cv2.getPerspectiveTransform(src, dst), (w, h), borderValue=110
    )
    noise = np.random.default_rng(3).normal(0, 8, tilted.shape)
    noisy = np.clip(tilted + noise, 0, 255).astype(np.uint8)
    assert [s.uid for s in detect_markers(cv2.cvtColor(noisy, cv2.COLOR_GRAY2BGR))] == ["ARUCO-17"]


def test_every_marker_on_the_printed_sheet_is_read(tmp_path: Path) -> None:
    cols, rows = page_grid()
    assert (cols, rows) == (4, 6)
    stickers = [Sticker(i, f"Unit {i}") for i in range(30)]  # two pages
    written = save_sheets(render_sheets(stickers), tmp_path / "sheet.png")
    assert [p.name for p in written] == ["sheet.png", "sheet-2.png"]
    seen: list[int] = []
    for path in written:
        image = Image.open(path)
        assert image.size == (2480, 3508) and round(image.info["dpi"][0]) == 300
        seen += [s.marker_id for s in detect_markers(np.asarray(image.convert("L")))]
    assert sorted(seen) == list(range(30))


def test_a_photo_of_the_printed_sheet_is_read(tmp_path: Path) -> None:
    """The sheet as the box's camera would see it held up: the whole A4 page in a
    1280x960 frame, turned a little, out of focus, with sensor noise."""
    stickers = [Sticker(i, f"Unit {i}") for i in range(24)]
    (path,) = save_sheets(render_sheets(stickers), tmp_path / "sheet.png")
    page = np.asarray(Image.open(path).convert("L"))
    small = cv2.resize(page, None, fx=900 / page.shape[0], fy=900 / page.shape[0],
                       interpolation=cv2.INTER_AREA)
    frame = np.full((960, 1280), 90, np.uint8)
    y, x = (960 - small.shape[0]) // 2, (1280 - small.shape[1]) // 2
    frame[y : y + small.shape[0], x : x + small.shape[1]] = small
    turn = cv2.getRotationMatrix2D((640, 480), 7, 1.0)
    frame = cv2.warpAffine(frame, turn, (1280, 960), borderValue=90)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    noise = np.random.default_rng(5).normal(0, 5, frame.shape)
    photo = np.clip(frame + noise, 0, 255).astype(np.uint8)
    assert sorted(s.marker_id for s in detect_markers(photo)) == list(range(24))


def test_sheet_pdf(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    save_sheets(render_sheets([Sticker(0, "A"), Sticker(1, "B")]), out)
    assert out.read_bytes().startswith(b"%PDF")


def test_sheet_rejects_duplicate_and_out_of_range_ids() -> None:
    with pytest.raises(ValueError, match="same marker id"):
        render_sheets([Sticker(1, "A"), Sticker(1, "B")])
    with pytest.raises(ValueError, match="outside DICT_4X4_50"):
        render_sheets([Sticker(50, "A")])


def test_long_names_fit_inside_the_circle() -> None:
    image = as_array(render_sticker(Sticker(3, "The Very Long Named Company of Spahis")))
    # Nothing dark outside the cut circle (corners of the square are white).
    size = image.shape[0]
    yy, xx = np.mgrid[0:size, 0:size]
    outside = (xx - size / 2) ** 2 + (yy - size / 2) ** 2 > (size / 2) ** 2
    assert image[outside].min() > 200
    assert [s.marker_id for s in detect_markers(image)] == [3]


class Frames:
    """The camera's newest frame as the runner's LatestFrame gives it, on a fake clock:
    the same frame until the camera stores another; a wait for a newer one that does
    not come takes its whole timeout."""

    def __init__(self) -> None:
        self.now = 0.0
        self.seq = 0
        self.frame: np.ndarray | None = None
        self.waits = 0

    def put(self, frame: np.ndarray | None) -> None:
        self.seq, self.frame = self.seq + 1, frame

    def wait_newer(self, after: int, timeout: float) -> tuple[int, np.ndarray | None]:
        self.waits += 1
        if self.seq == after:
            self.now += timeout
        return self.seq, self.frame


def test_reader_confirms_over_two_frames_and_reports_largest(sticker17: np.ndarray) -> None:
    near = scene(sticker17, 10, 1.0, 0.0)
    far = as_array(render_sticker(Sticker(4, "Far")))
    far = cv2.resize(far, None, fx=0.3, fy=0.3)
    both = near.copy()
    both[: far.shape[0], : far.shape[1]] = far
    frames = Frames()
    reader = ArucoReader(frames, clock=lambda: frames.now)
    detector = DrawDetector()
    reads = [reader.poll(0.0)]  # no frame yet
    for frame in [both, np.full_like(near, 110), both, both, both]:
        frames.put(frame.copy())
        reads.append(reader.poll(0.0))
    assert [r.uid if r else None for r in reads] == [None, None, None, None, "ARUCO-17", "ARUCO-17"]
    assert sum(1 for r in reads if r and detector.feed(r)) == 1


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry each time the reader runs marker detection on a frame."""
    import companion.chips.aruco as aruco

    seen: list[int] = []
    detect = aruco.detect_markers

    def counted(image: np.ndarray) -> list[aruco.MarkerSighting]:
        seen.append(1)
        return detect(image)

    monkeypatch.setattr(aruco, "detect_markers", counted)
    return seen


def test_one_still_frame_is_one_sighting_and_poll_waits_for_the_next(
    sticker17: np.ndarray, looks: list[int]
) -> None:
    """The camera stores a frame with a chip in it, then none for a while (a slow frame,
    or the camera thread held up): read again and again it would confirm the chip on its
    own, and an idle reader would spin a core re-reading it."""
    frames = Frames()
    reader = ArucoReader(frames, clock=lambda: frames.now)
    frames.put(scene(sticker17, 0, 1.0, 0.0))
    assert [reader.poll(0.5) for _ in range(10)] == [None] * 10
    assert len(looks) == 1  # looked at once ...
    assert frames.waits <= 11 and frames.now == pytest.approx(5.0)  # ... then waited
    frames.put(None)  # the camera closed: what it saw last is no sighting to confirm
    assert reader.poll(0.5) is None
    frames.put(scene(sticker17, 0, 1.0, 0.0))
    assert reader.poll(0.5) is None
    frames.put(scene(sticker17, 2, 1.0, 0.0))
    read = reader.poll(0.5)
    assert read is not None and read.uid == "ARUCO-17"  # two frames of it: confirmed


def test_reader_waits_on_the_runners_latest_frame_without_spinning(
    sticker17: np.ndarray, looks: list[int]
) -> None:
    import threading
    import time

    from companion.runner import LatestFrame

    latest = LatestFrame()
    reader = open_reader("aruco", {}, camera_frames=latest)
    latest.put(scene(sticker17, 0, 1.0, 0.0))
    started = time.monotonic()
    assert reader.poll(0.3) is None
    assert time.monotonic() - started >= 0.25 and len(looks) == 1
    later = threading.Timer(0.1, lambda: latest.put(scene(sticker17, 3, 1.0, 0.0)))
    later.start()
    started = time.monotonic()
    read = reader.poll(2.0)  # woken by the next frame, not by the timeout
    later.join()
    assert read is not None and read.uid == "ARUCO-17" and len(looks) == 2
    assert time.monotonic() - started < 1.5


def test_a_plain_callable_of_the_newest_frame_is_asked_again_not_re_read(
    sticker17: np.ndarray,
) -> None:
    frame = scene(sticker17, 0, 1.0, 0.0)
    clock = [0.0]
    calls: list[int] = []

    def newest() -> np.ndarray:
        calls.append(1)
        return frame

    def sleep(s: float) -> None:
        clock[0] += s

    reader = ArucoReader(newest, clock=lambda: clock[0], sleep=sleep)
    assert [reader.poll(1.0) for _ in range(3)] == [None] * 3  # the same frame, once
    assert clock[0] == pytest.approx(3.0) and len(calls) < 200


def test_open_reader_aruco_needs_frames() -> None:
    with pytest.raises(ChipReaderError, match="no camera frames"):
        open_reader("aruco", {})
    assert isinstance(open_reader("aruco", {}, camera_frames=lambda: None), ArucoReader)


def test_camera_failure_is_a_reader_error() -> None:
    def broken() -> np.ndarray | None:
        raise OSError("picamera2 gone")

    with pytest.raises(ChipReaderError, match="camera failed"):
        ArucoReader(broken).poll(0)
