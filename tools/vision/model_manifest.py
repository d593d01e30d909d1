"""Write (or check) companion/vision/models/SHA256SUMS.txt, the checksums the reader loads
the shipped models against (docs/vision.md, "The models and how they are trained").

    .venv/bin/python tools/vision/model_manifest.py           # after retraining a model
    .venv/bin/python tools/vision/model_manifest.py --check   # exit 1 if a file differs

The box refuses a model whose checksum is not listed ("the dice model ... is damaged"), so
run this after every retraining, before the benchmarks, and commit the list with the model.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.models import (  # noqa: E402
    MANIFEST,
    MODEL_DIR,
    digest,
    read_manifest,
    write_manifest,
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare the models with the list instead of writing it")
    ap.add_argument("--dir", type=Path, default=MODEL_DIR, help="the models' folder")
    a = ap.parse_args()
    if not a.check:
        print(f"wrote {write_manifest(a.dir)}")
        return 0
    listed = read_manifest(a.dir)
    present = {p.name: digest(p.read_bytes()) for p in sorted(a.dir.glob("*.onnx"))}
    bad = sorted(name for name in listed.keys() | present.keys()
                 if listed.get(name) != present.get(name))
    for name in bad:
        print(f"{name}: listed {listed.get(name, '-')[:16]}, file {present.get(name, '-')[:16]}")
    print(f"{a.dir / MANIFEST}: {'differs' if bad else 'matches'} ({len(present)} models)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
