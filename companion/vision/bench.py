"""Benchmark the reader on a labelled folder (YOLO txt beside each image, class 0-5 = 1-6).

Definitions (all per die unless said; a die is a labelled box):
- accuracy: dice read with the right value / all labelled dice. Strict: a missed die, or one
  reported unreadable, counts as wrong.
- value accuracy: right value / dice that were read (matched with IoU >= 0.5).
- recall: labelled dice matched by a reading / labelled dice.
- precision: readings matched to a labelled die / all readings.
- exact-roll rate: images whose sorted list of read values equals the labelled one and with
  nothing reported unreadable.
- ms per frame: DiceReader.read wall time, median (and 90th percentile) over the images.
"""

from __future__ import annotations

import math
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .imageio import load_image
from .reader import DiceReader
from .types import Calibration, FrameReading, VisionError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass
class BenchResult:
    images: int = 0
    dice: int = 0
    readings: int = 0
    matched: int = 0
    correct: int = 0
    unreadable: int = 0
    exact_rolls: int = 0
    millis: list[float] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.dice if self.dice else 1.0

    @property
    def value_accuracy(self) -> float:
        return self.correct / self.matched if self.matched else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.dice if self.dice else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.readings if self.readings else 1.0

    @property
    def exact_roll_rate(self) -> float:
        return self.exact_rolls / self.images if self.images else 1.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.millis) if self.millis else 0.0

    @property
    def p90_ms(self) -> float:
        if not self.millis:
            return 0.0
        s = sorted(self.millis)
        return s[min(len(s) - 1, int(0.9 * len(s)))]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("millis")
        d.update(
            accuracy=self.accuracy, value_accuracy=self.value_accuracy, recall=self.recall,
            precision=self.precision, exact_roll_rate=self.exact_roll_rate,
            median_ms=self.median_ms, p90_ms=self.p90_ms,
        )
        return d

    #: Column heads of ``row``, for tables of several benchmark runs.
    ROW_HEAD = "per-die  recall  value acc  refused  exact roll  median ms"

    def row(self) -> str:
        """The headline figures on one line, under ROW_HEAD."""
        return (f"{self.accuracy:7.2%}  {self.recall:6.2%}  {self.value_accuracy:9.2%}  "
                f"{self.unreadable:7d}  {self.exact_roll_rate:10.2%}  {self.median_ms:9.1f}")

    def text(self) -> str:
        return "\n".join([
            f"images            {self.images}",
            f"dice (labelled)   {self.dice}",
            f"per-die accuracy  {self.accuracy:.2%}  ({self.correct}/{self.dice}, strict: "
            "missed or unreadable = wrong)",
            f"value accuracy    {self.value_accuracy:.2%}  (of dice read)",
            f"recall            {self.recall:.2%}",
            f"precision         {self.precision:.2%}",
            f"unreadable        {self.unreadable}",
            f"exact-roll rate   {self.exact_roll_rate:.2%}  ({self.exact_rolls}/{self.images})",
            f"ms per frame      median {self.median_ms:.1f}, p90 {self.p90_ms:.1f}",
        ])


def load_labels(txt: Path, width: int, height: int) -> list[tuple[int, tuple[float, ...]]]:
    """(value 1-6, (x, y, w, h) pixels) for each line of a YOLO label file.

    A line is ``CLASS XC YC W H`` (class 0-5 = face 1-6, the rest normalised to 0-1); a
    segmentation line, ``CLASS X1 Y1 X2 Y2 ...``, counts as the box around its points.
    """
    out: list[tuple[int, tuple[float, ...]]] = []
    try:
        text = txt.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise VisionError(f"{txt}: not a text file of YOLO labels") from None
    for n, line in enumerate(text.splitlines(), 1):
        p = line.split()
        if not p:
            continue
        where = f"{txt}:{n}"
        try:
            numbers = [float(v) for v in p]
        except ValueError:
            numbers = []
        if not numbers or not all(math.isfinite(v) for v in numbers):
            raise VisionError(f"{where}: expected numbers 'CLASS XC YC W H', got {line!r}")
        c = numbers[0]
        if c != int(c) or not 0 <= c <= 5:
            raise VisionError(f"{where}: class {p[0]} is not a d6 face; classes 0-5 mean faces "
                              f"1-6")
        if len(numbers) == 5:
            xc, yc, w, h = numbers[1:]
            x, y = xc - w / 2, yc - h / 2
        elif len(numbers) >= 7 and len(numbers) % 2 == 1:
            xs, ys = numbers[1::2], numbers[2::2]
            x, y, w, h = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
        else:
            raise VisionError(f"{where}: expected 'CLASS XC YC W H' (or a polygon 'CLASS X1 Y1 "
                              f"X2 Y2 ...'), got {line!r}")
        out.append((int(c) + 1, (x * width, y * height, w * width, h * height)))
    return out


def save_labelled(
    directory: Path, name: str, image: np.ndarray,
    labels: list[tuple[int, tuple[float, float, float, float]]], quality: int = 95,
) -> None:
    """Write ``name`` (a .jpg) and its YOLO label file, as ``load_labels`` reads them:
    (value 1-6, (x, y, w, h) pixels) per die."""
    height, width = image.shape[:2]
    lines = [f"{value - 1} {(x + w / 2) / width:.6f} {(y + h / 2) / height:.6f} "
             f"{w / width:.6f} {h / height:.6f}" for value, (x, y, w, h) in labels]
    cv2.imwrite(str(directory / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (directory / Path(name).with_suffix(".txt")).write_text("\n".join(lines) + "\n")


def iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    ix = max(0.0, min(ax0 + aw, bx0 + bw) - max(ax0, bx0))
    iy = max(0.0, min(ay0 + ah, by0 + bh) - max(ay0, by0))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def match_labels(
    reading: FrameReading, labels: Sequence[tuple[int, tuple[float, ...]]]
) -> list[int | None]:
    """For each label, the index of the die read at its place (IoU >= 0.5, best pairs
    first, each die read matched once), or None."""
    pairs = sorted(
        ((iou(d.box, lb[1]), i, j) for i, d in enumerate(reading.dice)
         for j, lb in enumerate(labels)),
        reverse=True,
    )
    matches: list[int | None] = [None] * len(labels)
    used: set[int] = set()
    for v, i, j in pairs:
        if v < 0.5:
            break
        if i in used or matches[j] is not None:
            continue
        used.add(i)
        matches[j] = i
    return matches


def score_frame(
    reading: FrameReading, labels: Sequence[tuple[int, tuple[float, ...]]], res: BenchResult,
    name: str,
) -> None:
    res.images += 1
    res.dice += len(labels)
    res.readings += len(reading.dice)
    res.unreadable += len(reading.unreadable)
    res.millis.append(reading.millis)
    errors = []
    matches = match_labels(reading, labels)
    used_l = {j for j, i in enumerate(matches) if i is not None}
    used_p = {i for i in matches if i is not None}
    for j, i in enumerate(matches):
        if i is None:
            continue
        res.matched += 1
        if reading.dice[i].value == labels[j][0]:
            res.correct += 1
        else:
            errors.append({"box": list(reading.dice[i].box), "read": reading.dice[i].value,
                           "true": labels[j][0]})
    exact = (sorted(d.value for d in reading.dice) == sorted(lb[0] for lb in labels)
             and not reading.unreadable)
    res.exact_rolls += int(exact)
    if not exact or errors or len(used_l) < len(labels):
        res.failures.append({
            "image": name, "wrong": errors,
            "missed": [[round(x) for x in labels[j][1]] + [labels[j][0]]
                       for j in range(len(labels)) if j not in used_l],
            "extra": [[*list(reading.dice[i].box), reading.dice[i].value]
                      for i in range(len(reading.dice)) if i not in used_p],
            "unreadable": [[*u.box, u.reason] for u in reading.unreadable],
        })


def labelled_images(directory: Path) -> list[tuple[Path, Path]]:
    """(image, YOLO label file) pairs: the labels beside the images, or, as YOLO exports
    lay them out, in a ``labels/`` folder beside an ``images/`` one."""
    directory = Path(directory)
    if not directory.is_dir():
        raise VisionError(f"{directory} is not a folder of labelled images")
    images, labels = directory, directory
    if (directory / "images").is_dir() and (directory / "labels").is_dir():
        images, labels = directory / "images", directory / "labels"
    pairs = [
        (p, labels / f"{p.stem}.txt") for p in sorted(images.iterdir())
        if p.suffix.lower() in IMAGE_SUFFIXES and (labels / f"{p.stem}.txt").is_file()
    ]
    if not pairs:
        raise VisionError(f"{directory} has no images with a YOLO .txt label beside them "
                          f"(or in labels/ beside images/)")
    return pairs


def bench_rewritten(
    photos: list[Path], rewrite: Callable[[int, Path, Path], None],
    reader: DiceReader | Callable[[int], DiceReader] | None = None,
) -> BenchResult:
    """Bench labelled photos as ``rewrite(k, photo, directory)`` saves them into a scratch
    directory (as ``save_labelled`` does, under the photo's name): the photos warped,
    relit, moved onto another floor... with their labels moved to match. ``reader`` may be
    a function of k, for rewrites that each need their own calibration."""
    if callable(reader):
        readers = reader
    else:
        one = reader or DiceReader()

        def readers(_k: int) -> DiceReader:
            return one

    res = BenchResult()
    with tempfile.TemporaryDirectory() as scratch:
        for k, photo in enumerate(photos):
            rewrite(k, photo, Path(scratch))
            saved = Path(scratch) / photo.name
            frame = load_image(saved)
            labels = load_labels(saved.with_suffix(".txt"), frame.shape[1], frame.shape[0])
            score_frame(readers(k).read(frame), labels, res, saved.name)
    return res


def run_bench(
    directory: Path, reader: DiceReader | None = None, calibration: Calibration | None = None
) -> BenchResult:
    reader = reader or DiceReader(calibration)
    res = BenchResult()
    for img_path, txt in labelled_images(directory):
        frame = load_image(img_path)
        labels = load_labels(txt, frame.shape[1], frame.shape[0])
        reading = reader.read(frame)
        score_frame(reading, labels, res, img_path.name)
    return res
