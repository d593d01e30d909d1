"""After the pip step: apt's picamera2, the system numpy 1.x and OpenCV 4.11 import together.

Run by tools/install/install.sh with the venv's python; exits non-zero with the fix.
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        import cv2
        import numpy
        import picamera2  # noqa: F401  (apt's python3-picamera2, via system site-packages)
    except ImportError as exc:
        print(f"check_pins: {exc}; re-run tools/install/install.sh (apt step)", file=sys.stderr)
        return 1
    major = int(numpy.__version__.split(".")[0])
    if major >= 2:
        print(
            f"check_pins: numpy {numpy.__version__} in the venv shadows the system numpy 1.x "
            "that picamera2 needs; fix: /opt/companion/venv/bin/pip uninstall -y numpy "
            "&& /opt/companion/venv/bin/pip install 'opencv-python-headless==4.11.0.86'",
            file=sys.stderr,
        )
        return 1
    print(f"numpy {numpy.__version__}, OpenCV {cv2.__version__}, picamera2: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
