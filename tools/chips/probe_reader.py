"""Bring-up aid: show what a chip reader sees, raw reads and draws.

    python tools/chips/probe_reader.py --reader rc522 [--config FILE] [--seconds 60]

Prints every raw read (to see repeats and noise) and marks the ones the
DrawDetector counts as a new draw. For a USB reader it also prints typed lines
that were not understood, to learn an unknown reader's line format.
"""

from __future__ import annotations

import argparse
import sys
import time

from companion import config
from companion.chips import DrawDetector, open_reader
from companion.errors import CompanionError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config")
    parser.add_argument("--reader", help="reader kind (default: [chips] reader)")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    try:
        cfg = config.load(args.config)
        settings = cfg["chips"]
        reader = open_reader(args.reader or str(settings["reader"]), settings)
    except CompanionError as exc:
        print(exc, file=sys.stderr)
        return 2
    detector = DrawDetector(float(settings["repeat_seconds"]))
    end = time.monotonic() + args.seconds
    shown_rejects = 0
    try:
        while time.monotonic() < end:
            read = reader.poll(0.5)
            rejected = getattr(reader, "rejected_lines", [])
            for line in rejected[shown_rejects:]:
                print(f"  typed line not understood: {line!r}")
            shown_rejects = len(rejected)
            if read is not None:
                mark = "DRAW" if detector.feed(read) is not None else ""
                print(f"{read.timestamp:10.3f}  {read.reader:7}  {read.uid:20}  {mark}")
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
