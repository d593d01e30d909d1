"""The tray camera: picamera2 on the Pi; files, a folder or cv2.VideoCapture elsewhere."""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.errors import HardwareError

log = logging.getLogger(__name__)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")

#: Longest wait for one frame before the Pi camera counts as hung. picamera2's capture
#: can block for ever when the sensor or its driver wedges (raspberrypi/picamera2 issues
#: 794 and 1004); a healthy camera at the configured 10-30 fps answers in under 0.1 s.
CAPTURE_TIMEOUT_SECONDS = 2.0


class Camera(Protocol):
    def capture(self) -> np.ndarray:
        """One BGR frame; HardwareError if the camera is gone."""
        ...

    def close(self) -> None: ...


class Picamera2Camera:
    def __init__(self, width: int, height: int) -> None:
        try:
            from picamera2 import Picamera2  # only on the Pi (apt python3-picamera2)
        except ImportError:
            raise HardwareError(
                "picamera2 is not available; on Raspberry Pi OS run "
                "'sudo apt install python3-picamera2' and make the venv with "
                '--system-site-packages, or set [camera] source = "files"'
            ) from None
        self.camera: Any = None
        self.wait_takes_timeout = False
        try:
            self.camera = Picamera2()
            # picamera2 names formats as the kernel's DRM does, by the order of a
            # little-endian word: "RGB888" arrives as [B, G, R] bytes, OpenCV's order,
            # and "BGR888" as [R, G, B], which would swap red and blue for the reader.
            config = self.camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}
            )
            self.camera.configure(config)
            self.camera.start()
            self.wait_takes_timeout = "timeout" in inspect.signature(self.camera.wait).parameters
        except Exception as exc:
            # Picamera2() holds the camera until closed; the retry a few seconds
            # later would find it busy if the failed start kept it.
            self.close()
            raise HardwareError(
                f"camera did not start ({exc}); check the ribbon cable and run "
                "'rpicam-hello --list-cameras'"
            ) from None

    def capture(self) -> np.ndarray:
        try:
            frame = self._next_frame()
        except TimeoutError:
            # The job stays queued in picamera2's event loop; dropping it lets close()
            # stop the camera instead of finishing a capture that will never come.
            cancel = getattr(self.camera, "cancel_all_and_flush", None)
            if cancel is not None:
                with contextlib.suppress(Exception):
                    cancel()
            raise HardwareError(
                f"camera sent no frame for {CAPTURE_TIMEOUT_SECONDS:g} s; it is restarted. "
                "If this repeats, check the ribbon cable and the power supply") from None
        except Exception as exc:
            raise HardwareError(f"camera stopped delivering frames ({exc})") from None
        return np.ascontiguousarray(frame[:, :, :3])

    def _next_frame(self) -> Any:
        if not self.wait_takes_timeout:  # an older picamera2: no way to bound the wait
            return self.camera.capture_array("main")
        job = self.camera.capture_array("main", wait=False)
        return self.camera.wait(job, timeout=CAPTURE_TIMEOUT_SECONDS)

    def close(self) -> None:
        if self.camera is None:
            return
        try:
            self.camera.stop()
        except Exception:
            log.debug("camera stop failed", exc_info=True)
        try:
            self.camera.close()
        except Exception:
            log.debug("camera close failed", exc_info=True)


class FileCamera:
    """An image file, or a folder of them played in name order (looping)."""

    def __init__(self, path: Path, loop: bool = True) -> None:
        if path.is_dir():
            self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        elif path.is_file():
            self.paths = [path]
        else:
            raise HardwareError(f"camera source {path} does not exist; set [camera] path")
        if not self.paths:
            raise HardwareError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {path}")
        self.loop = loop
        self.index = 0

    def capture(self) -> np.ndarray:
        import cv2

        if self.index >= len(self.paths):
            if not self.loop:
                raise HardwareError("the image folder has no more frames")
            self.index = 0
        path = self.paths[self.index]
        self.index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise HardwareError(f"{path} is not a readable image")
        return frame

    def close(self) -> None:
        pass


class VideoCamera:
    """A USB webcam or a video file through cv2.VideoCapture."""

    def __init__(self, source: str, width: int, height: int) -> None:
        import cv2

        target: int | str = int(source) if source.isdigit() else source
        self.capture_device = cv2.VideoCapture(target)
        if not self.capture_device.isOpened():
            self.capture_device.release()
            raise HardwareError(f"cannot open video source {source!r}; check [camera] path")
        self.capture_device.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.capture_device.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def capture(self) -> np.ndarray:
        ok, frame = self.capture_device.read()
        if not ok or frame is None:
            raise HardwareError("the video source gave no frame")
        return frame

    def close(self) -> None:
        self.capture_device.release()


def open_camera(settings: Mapping[str, Any], hardware: str) -> Camera:
    source = settings["source"]
    if source == "picamera2":
        if hardware != "pi":
            raise HardwareError(
                '[camera] source = "picamera2" needs the Pi; in sim mode use '
                'source = "files" with a path, or "video"'
            )
        return Picamera2Camera(int(settings["width"]), int(settings["height"]))
    if source == "files":
        if not settings["path"]:
            raise HardwareError('[camera] source = "files" needs path = an image or folder')
        return FileCamera(Path(settings["path"]).expanduser())
    return VideoCamera(
        str(settings["path"] or "0"), int(settings["width"]), int(settings["height"])
    )
