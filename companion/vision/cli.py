"""`companion dice ...`: read, bench, teach, calibrate.

Wired into the main CLI with ``add_commands(subparsers)``; each subcommand sets
``func=handler`` where ``handler(args) -> int``. User errors raise VisionError (the main
CLI prints ``error: <message>`` and exits 2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.argtypes import hardware_option, whole_number
from companion.files import write_atomically

from .bench import IMAGE_SUFFIXES, run_bench
from .calibrate import calibrate_from_frames
from .imageio import MAX_PIXELS, check_frame, image_reduction, load_image
from .logos import MAX_PICTURES_PER_VALUE, LogoStore
from .reader import DiceReader
from .types import KINDS, Box, Calibration, FrameReading, VisionError

if TYPE_CHECKING:
    from companion.config import Config
    from companion.ports.camera import Camera

DEFAULT_STORE = Path("~/.local/share/companion/logo-faces")
#: `--camera` with no number: the camera of the box's config ([camera]).
BOX_CAMERA = "box"
#: Frames dropped after a live camera starts, while its exposure settles.
WARM_UP_FRAMES = 5


def _positive_pixels(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 100_000:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a die size in pixels (a number over 0 and under 100000)")
    return value


def _camera_index(text: str) -> int | str:
    """``--camera N``: a USB camera's index; ``--camera`` alone (or ``box``): BOX_CAMERA."""
    if text == BOX_CAMERA:
        return text
    if not text.isdigit():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a camera index; give --camera alone for the box's camera, or "
            "--camera N for USB camera N")
    return int(text)


def _face_value(text: str) -> int:
    if text.strip() not in ("1", "2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a d6 face value; a logo stands "
                                         "for a value from 1 to 6")
    return int(text)


def add_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    dice = subparsers.add_parser("dice", help="read dice with the camera (vision tools)")
    sub = dice.add_subparsers(dest="dice_command", required=True, metavar="ACTION")

    def common(p: argparse.ArgumentParser, kinds: bool = True) -> None:
        p.add_argument("--config", type=Path, default=None,
                       help="the box's config file: its [dice.calibration] table is used "
                            "(and its [camera] with --camera)")
        if kinds:
            p.add_argument("--kinds", default="d6",
                           help=f"comma-separated dice kinds to expect ({', '.join(KINDS)})")
        p.add_argument("--store", type=Path, default=None,
                       help=f"folder of taught logo faces (default {DEFAULT_STORE}, when it "
                            "exists)")

    def camera(p: argparse.ArgumentParser) -> None:
        p.add_argument("--camera", nargs="?", const=BOX_CAMERA, default=None,
                       type=_camera_index, metavar="N",
                       help="grab frames from the box's camera, as [camera] of the config "
                            "sets it (picamera2 on the Pi, its resolution); --camera N: "
                            "USB camera N instead, at [camera] width x height")
        hardware_option(p)

    p = sub.add_parser("read", help="read dice in image files")
    p.add_argument("images", nargs="+", type=Path)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--overlay", type=Path, default=None,
                   help="write each image with dice boxed and labelled into this folder")
    common(p)
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("bench", help="accuracy and speed on a YOLO-labelled folder")
    p.add_argument("directory", type=Path)
    p.add_argument("--json", action="store_true")
    p.add_argument("--threads", type=whole_number(1), default=1,
                   help="OpenCV threads (default 1: the one-core figure)")
    common(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("teach", help="learn a logo face from a few frames")
    p.add_argument("--from", dest="source", type=Path, nargs="*", default=[],
                   help="image files or folders showing dice with the logo face up")
    camera(p)
    p.add_argument("--frames", type=whole_number(1), default=5,
                   help="frames to grab from the camera")
    p.add_argument("--value", type=_face_value, default=6,
                   help="the d6 value the logo stands for, 1-6 (default %(default)s)")
    p.add_argument("--name", default="logo", help="a name for this dice set")
    common(p, kinds=False)
    p.set_defaults(func=cmd_teach)

    p = sub.add_parser("calibrate", help="find the tray, die size and lighting; save them")
    p.add_argument("--from", dest="source", type=Path, nargs="*", default=[],
                   help="image files or folders of the tray (empty, or a few dice lying flat)")
    camera(p)
    p.add_argument("--frames", type=whole_number(1), default=5,
                   help="frames to grab from the camera (three or more are median-combined)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--tray", default=None, help="tray floor as X,Y,W,H pixels (override)")
    where.add_argument("--corners", default=None,
                       help="the tray floor's four corners as X1,Y1,...,X4,Y4 pixels, for a "
                            "camera at an angle (override; found by itself when it can be; "
                            "the tray is then the box around them)")
    p.add_argument("--die-px", type=_positive_pixels, default=None,
                   help="die size in pixels (override)")
    p.add_argument("--picture", type=Path, default=Path("dice-calibration.jpg"),
                   help="where to save the annotated picture (default %(default)s)")
    p.add_argument("--config", type=Path, default=None,
                   help="the box's config file, to write the [dice.calibration] table into "
                        "(default: print it); its [camera] is used with --camera")
    p.set_defaults(func=cmd_calibrate)


# ------------------------------------------------------------------------- helpers


def parse_kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise VisionError(f"--kinds: unknown kind(s) {', '.join(bad) or '(none)'}; "
                          f"choose from {', '.join(KINDS)}")
    return kinds


def load_calibration(config: Path | None) -> Calibration | None:
    if config is None:
        return None
    try:
        data = tomllib.loads(Path(config).read_text())
    except FileNotFoundError as e:
        raise VisionError(f"{config}: no such config file; run `companion dice calibrate "
                          f"--config {config}` first") from e
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise VisionError(f"{config}: not a readable TOML file ({e})") from e
    dice = data.get("dice")
    if not isinstance(dice, dict):
        return None
    table = dice.get("calibration")
    if table is None:
        if "frame_size" in dice:
            raise VisionError(f"{config}: the [dice] table holds a calibration in an old "
                              f"layout the box refuses; run `companion dice calibrate "
                              f"--config {config}` again (it writes [{CALIBRATION_TABLE}])")
        return None
    if not isinstance(table, dict):
        raise VisionError(f"{config}: [dice] calibration must be a table; run `companion "
                          f"dice calibrate --config {config}` again")
    try:
        return Calibration.from_dict(table)
    except VisionError as e:
        raise VisionError(f"{config}: {e}") from None


def logo_store(args: argparse.Namespace) -> Path | None:
    """The logo-face folder to read with: ``--store`` (which must exist), else the default
    one if anything was ever taught into it."""
    if args.store is not None:
        return Path(args.store).expanduser()
    default = DEFAULT_STORE.expanduser()
    return default if default.is_dir() else None


def make_reader(args: argparse.Namespace) -> DiceReader:
    return DiceReader(load_calibration(args.config), parse_kinds(args.kinds), logo_store(args))


def image_paths(sources: list[Path]) -> list[Path]:
    out: list[Path] = []
    for s in sources:
        if s.is_dir():
            out += sorted(p for p in s.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            out.append(s)
    return out


def box_config(args: argparse.Namespace) -> Config:
    """The box's config named by ``--config`` (else $COMPANION_CONFIG or the default file),
    with ``--hw``, for its [camera]. A named file that does not exist yet (``dice
    calibrate`` will create it) counts as the defaults, and one the box refuses only for
    its calibration is read without it: calibrating again is how that is mended."""
    from companion import config as config_module
    from companion.errors import ConfigError

    path, hardware = args.config, getattr(args, "hw", None)
    if path is None:
        return config_module.load(None, hardware=hardware)
    data: dict[str, Any] = {}
    if Path(path).exists():
        try:
            return config_module.load(path, hardware=hardware)
        except ConfigError:
            data = _without_calibration(Path(path))
            if not data:
                raise
    hardware = hardware or os.environ.get(config_module.HW_ENV)
    if hardware:
        data.setdefault("box", {})["hardware"] = hardware
    try:
        return config_module.validate(data, where=str(path))
    except ConfigError:
        if not data or not Path(path).exists():
            raise
        # Not the calibration after all: the box's own message about the file.
        return config_module.load(path, hardware=hardware)


def _without_calibration(path: Path) -> dict[str, Any]:
    """The config file's tables less any dice calibration (this layout's or an older one),
    or {} when it cannot be read as TOML."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    dice = data.get("dice")
    if isinstance(dice, dict):
        for key in ("calibration", *_OLD_CALIBRATION_KEYS):
            dice.pop(key, None)
    return data


def open_frames_camera(args: argparse.Namespace) -> tuple[Camera, int]:
    """The camera ``--camera`` names, opened as the box opens it (``open_camera``), and how
    many frames to drop while its exposure settles.

    ``--camera``: the config's [camera] (picamera2 on the Pi, at its width and height, so
    that a calibration is made at the resolution the box reads). ``--camera N``: USB camera
    N (cv2.VideoCapture) at [camera] width x height, for a desktop.
    """
    from companion.errors import HardwareError
    from companion.ports import camera as camera_port

    cfg = box_config(args)
    settings = dict(cfg["camera"])
    if args.camera != BOX_CAMERA:
        settings.update(source="video", path=str(args.camera))
    try:
        opened = camera_port.open_camera(settings, cfg.hardware)
    except HardwareError as e:
        hint = ("" if args.camera != BOX_CAMERA else
                "; or name a USB camera with --camera N")
        raise HardwareError(f"{e}{hint}") from None
    return opened, 0 if settings["source"] == "files" else WARM_UP_FRAMES


def grab_frames(sources: list[Path], count: int,
                open_camera: Callable[[], tuple[Camera, int]] | None = None
                ) -> Iterator[np.ndarray]:
    """The images of ``sources`` (files or folders), else ``count`` frames of the camera
    that ``open_camera`` opens (None: no camera was named)."""
    if sources:
        paths = image_paths(sources)
        if not paths:
            raise VisionError("no images found in " + ", ".join(map(str, sources)))
        for p in paths:
            yield load_image(p)
        return
    if open_camera is None:
        raise VisionError("give image files with --from PATH, or a camera: --camera for the "
                          "box's, --camera N for USB camera N")
    camera, warm_up = open_camera()
    try:
        for _ in range(warm_up):  # let auto-exposure settle
            camera.capture()
        for i in range(max(1, count)):
            if i:
                time.sleep(0.1)
            yield check_frame(camera.capture())
    finally:
        camera.close()


def _frames(args: argparse.Namespace) -> Iterator[np.ndarray]:
    opener = None if args.camera is None else (lambda: open_frames_camera(args))
    return grab_frames(args.source, args.frames, opener)


def draw_overlay(frame: np.ndarray, reading: FrameReading) -> np.ndarray:
    """The frame with each die boxed (green: read, red: to roll again) and labelled, the
    labels placed where they cover no die and no other label when there is room."""
    out = frame.copy()
    th = max(1, round(max(frame.shape[:2]) / 500))
    fs = max(0.4, max(frame.shape[:2]) / 1400)
    font = cv2.FONT_HERSHEY_SIMPLEX
    marks: list[tuple[Box, str, tuple[int, int, int]]] = []
    for d in reading.dice:
        value = f"{d.value * 10:02d}" if d.kind == "percentile" else f"{d.value}"
        marks.append((d.box, f"{d.kind}:{value} {d.confidence:.2f}", (0, 220, 0)))
    marks += [(u.box, u.reason, (0, 0, 255)) for u in reading.unreadable]
    metrics = [cv2.getTextSize(text, font, fs, th + 2) for _box, text, _colour in marks]
    sizes = [(tw, text_h + base) for (tw, text_h), base in metrics]
    places = label_places([m[0] for m in marks], sizes, frame.shape[1], frame.shape[0])
    for (box, text, colour), (lx, ly, _lw, _lh), ((_tw, text_h), _base) in zip(
            marks, places, metrics, strict=True):
        x, y, w, h = box
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, th)
        cv2.putText(out, text, (lx, ly + text_h), font, fs, (0, 0, 0), th + 2, cv2.LINE_AA)
        cv2.putText(out, text, (lx, ly + text_h), font, fs, colour, th, cv2.LINE_AA)
    return out


def label_places(boxes: Sequence[Box], sizes: Sequence[tuple[int, int]], width: int,
                 height: int) -> list[Box]:
    """Where each box's label (its size as width, height) goes: above the box, below it,
    to its right or to its left, whichever is first to lie in the picture and cover no box
    and no label already placed; failing that, the one that covers least."""
    taken: list[Box] = list(boxes)
    places: list[Box] = []
    for (x, y, w, h), (lw, lh) in zip(boxes, sizes, strict=True):
        gap = 2
        options = [(x, y - lh - gap), (x, y + h + gap), (x + w + gap, y),
                   (x - lw - gap, y), (x + w + gap, y + h - lh), (x - lw - gap, y + h - lh)]
        inside = [(ox, oy) for ox, oy in options
                  if ox >= 0 and oy >= 0 and ox + lw <= width and oy + lh <= height]
        candidates = [(min(max(ox, 0), max(0, width - lw)), min(max(oy, 0), max(0, height - lh)))
                      for ox, oy in (inside or options)]
        best = min(candidates, key=lambda o: sum(_overlap_area((*o, lw, lh), t) for t in taken))
        place = (best[0], best[1], lw, lh)
        places.append(place)
        taken.append(place)
    return places


def _overlap_area(a: Box, b: Box) -> int:
    ix = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    iy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, ix) * max(0, iy)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def toml_table(name: str, d: dict[str, Any]) -> str:
    return f"[{name}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in d.items())


#: Keys an older ``dice calibrate`` wrote straight into [dice] (the box refuses them there).
_OLD_CALIBRATION_KEYS = ("version", "frame_size", "die_px", "gains", "tray")
CALIBRATION_TABLE = "dice.calibration"


def write_calibration(config: Path, calibration: dict[str, Any]) -> None:
    """Replace (or add) the [dice.calibration] table of ``config``, keeping everything else
    (the other [dice] settings included); refuse to write a file the box would not load."""
    from companion.config import validate
    from companion.errors import ConfigError

    text = config.read_text(encoding="utf-8") if config.exists() else ""
    out: list[str] = []
    section = ""
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped.split("#", 1)[0].replace(" ", "")
        if section == f"[{CALIBRATION_TABLE}]":
            continue
        key = stripped.split("=", 1)[0].strip() if "=" in stripped else ""
        if section == "[dice]" and key in ("calibration", *_OLD_CALIBRATION_KEYS):
            continue  # an inline calibration, or one in an older calibrate's layout
        out.append(line)
    body = "".join(out).rstrip()
    new = (body + "\n\n" if body else "") + toml_table(CALIBRATION_TABLE, calibration)
    try:
        validate(tomllib.loads(new), where=str(config))
    except tomllib.TOMLDecodeError as e:
        raise VisionError(f"{config} would not be valid TOML after the update ({e}); "
                          "fix it by hand") from e
    except ConfigError as e:
        raise VisionError(f"{e}; fix {config} by hand, then calibrate again") from e
    # Whole or not at all (a power cut must not leave the box half a config), with the
    # file's permissions kept.
    write_atomically(config, new.encode("utf-8"))


# ------------------------------------------------------------------------- handlers


def cmd_read(args: argparse.Namespace) -> int:
    reader = make_reader(args)
    if args.overlay is not None:
        args.overlay.mkdir(parents=True, exist_ok=True)
    results = []
    status = 0
    for path in args.images:
        try:
            frame = load_image(path)
            reading = reader.read(frame)
        except VisionError as e:
            # in a batch, name the file (a frame's own checks do not know it) and go on
            message = str(e) if str(path) in str(e) else f"{path}: {e}"
            if len(args.images) == 1:
                raise VisionError(message) from None
            print(f"error: {message}", file=sys.stderr)
            status = 1
            continue
        if args.overlay is not None:
            cv2.imwrite(str(args.overlay / (path.stem + ".overlay.jpg")),
                        draw_overlay(frame, reading))
        # Boxes in the file's own pixels, even where it was decoded smaller.
        reduced = image_reduction(path)
        reading = reading.scaled(reduced)
        if args.json:
            results.append({"image": str(path), **reading.to_dict(), "decoded_at": 1 / reduced})
            continue
        print(f"{path}: {len(reading.dice)} dice, {len(reading.unreadable)} unreadable "
              f"({reading.millis:.1f} ms)")
        if reduced > 1:
            h, w = frame.shape[:2]
            print(f"  (over {MAX_PIXELS // 1_000_000} megapixels: read at 1/{reduced} size, "
                  f"{w}x{h}; boxes are in the photo's own pixels)")
        for d in reading.dice:
            shown = f"{d.value * 10:02d}" if d.kind == "percentile" else str(d.value)
            print(f"  {d.kind:10s} {shown:>3s}  box {d.box}  confidence {d.confidence:.2f}")
        for u in reading.unreadable:
            print(f"  unreadable     box {u.box}  ({u.reason}: roll it again)")
    if args.json:
        print(json.dumps(results, indent=1))
    return status


def cmd_bench(args: argparse.Namespace) -> int:
    cv2.setNumThreads(max(1, args.threads))
    res = run_bench(args.directory, make_reader(args))
    if args.json:
        print(json.dumps(res.to_dict(), indent=1))
    else:
        print(f"{args.directory}")
        print(res.text())
    return 0


def cmd_teach(args: argparse.Namespace) -> int:
    reader = DiceReader(load_calibration(args.config), ("d6",))
    embs, patches = [], []
    for frame in _frames(args):
        for _box, emb, patch in reader.embed_dice(frame):
            embs.append(emb)
            patches.append(patch)
    if not embs:
        raise VisionError("no dice found in the frames; put the dice logo-up in the tray, "
                          "well lit and apart, and try again")
    store = DEFAULT_STORE if args.store is None else args.store
    path = LogoStore.save(store, args.name, args.value, np.concatenate(embs),
                          np.stack(patches), reader.models.d6_id)
    kept = ("" if len(patches) <= MAX_PICTURES_PER_VALUE else
            f" (keeping the pictures of {MAX_PICTURES_PER_VALUE}, spread over the frames)")
    print(f"learned the {args.name!r} logo face as {args.value} from {len(embs)} dice{kept}; "
          f"saved {path}")
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    tray = None
    if args.tray:
        try:
            x, y, w, h = (int(v) for v in args.tray.split(","))
        except ValueError as e:
            raise VisionError("--tray must be X,Y,W,H in pixels, e.g. 40,30,560,580") from e
        tray = (x, y, w, h)
    corners = None
    if args.corners:
        try:
            v = [float(x) for x in args.corners.split(",")]
        except ValueError as e:
            raise VisionError("--corners must be X1,Y1,X2,Y2,X3,Y3,X4,Y4 in pixels") from e
        if len(v) != 8:
            raise VisionError("--corners must be X1,Y1,X2,Y2,X3,Y3,X4,Y4 in pixels "
                              f"(8 numbers, not {len(v)})")
        corners = list(zip(v[::2], v[1::2], strict=True))
    frames = list(_frames(args))
    if len(frames) == 2:
        print("two frames: only the first is used (the median of two would keep half of "
              "anything passing in one); give three or more to have them median-combined",
              file=sys.stderr)
    die_px = args.die_px
    reduced = max(map(image_reduction, image_paths(args.source)), default=1)
    if reduced > 1:  # photos decoded smaller: what was given in their pixels comes along
        tray = None if tray is None else (tray[0] // reduced, tray[1] // reduced,
                                          tray[2] // reduced, tray[3] // reduced)
        corners = None if corners is None else [(x / reduced, y / reduced) for x, y in corners]
        die_px = die_px / reduced if die_px else die_px
        print(f"the photos are over {MAX_PIXELS // 1_000_000} megapixels and are read at "
              f"1/{reduced} size; --tray, --corners and --die-px are taken in their own "
              "pixels", file=sys.stderr)
    cal, picture = calibrate_from_frames(frames, tray=tray, die_px=die_px, corners=corners)
    if not cv2.imwrite(str(args.picture), picture):
        raise VisionError(f"cannot write the calibration picture to {args.picture}")
    if args.config is None:
        print(toml_table(CALIBRATION_TABLE, cal.to_dict()), end="")
    else:
        write_calibration(args.config, cal.to_dict())
        print(f"saved the [{CALIBRATION_TABLE}] table to {args.config}")
    print(f"picture of what the camera sees: {args.picture}"
          + ("" if cal.tray else "  (no tray found: the whole frame is used; "
             "give --tray X,Y,W,H to set it)"), file=sys.stderr)
    if cal.corners is not None:
        print("the camera sees the tray at an angle: the reader will straighten it; check "
              "that the green outline in the picture follows the tray floor's edges (or "
              "give --corners)", file=sys.stderr)
    if cal.die_px == 0:
        print("no dice seen, so the die size is unknown; calibrate with a few dice lying "
              "flat in the tray for faster, surer reading", file=sys.stderr)
    return 0
