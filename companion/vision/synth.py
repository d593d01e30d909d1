"""Synthetic die faces drawn with OpenCV.

Used to train the numeral classifiers (d10, percentile, numeral d6) and to test the reader
at every rotation. The real photographs we have cover one d10 and one numeral d6, so the
digit models learn mostly from these renders: many fonts, colours, sizes, neighbouring
faces and an underline under 6 and 9, which is how real d10s tell them apart when upside
down.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


def _colour_pair(rng: random.Random) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A body colour and a contrasting ink colour (lighter or darker than the body)."""
    body_v = rng.uniform(0, 1)
    h = rng.randrange(180)
    s = rng.randrange(0, 256)
    v = int(40 + 200 * body_v)
    body = cv2.cvtColor(np.array([[[h, s, v]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    ink_v = rng.randrange(0, 70) if v > 140 else rng.randrange(190, 256)
    ink_s = rng.randrange(0, 120)
    ink = cv2.cvtColor(
        np.array([[[rng.randrange(180), ink_s, ink_v]]], np.uint8), cv2.COLOR_HSV2BGR
    )[0, 0]
    return (
        (int(body[0]), int(body[1]), int(body[2])),
        (int(ink[0]), int(ink[1]), int(ink[2])),
    )


def _put_centered(
    img: np.ndarray,
    text: str,
    centre: tuple[float, float],
    height: float,
    angle_deg: float,
    colour: tuple[int, int, int],
    font: int,
    thick_frac: float,
    underline: bool,
) -> None:
    """Draw ``text`` about ``centre`` at ``height`` pixels, rotated by ``angle_deg``."""
    size = int(max(8, height * 3))
    canvas = np.zeros((size * 2, size * 2), np.uint8)
    scale = 1.0
    (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
    scale = height / max(th, 1)
    thick = max(1, round(height * thick_frac))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (size - tw // 2, size + th // 2)
    cv2.putText(canvas, text, org, font, scale, 255, thick, cv2.LINE_AA)
    if underline:
        y = size + th // 2 + max(2, int(height * 0.22))
        cv2.line(canvas, (size - tw // 3, y), (size + tw // 3, y), 255, thick, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((size, size), angle_deg, 1.0)
    m[0, 2] += centre[0] - size
    m[1, 2] += centre[1] - size
    h, w = img.shape[:2]
    mask = cv2.warpAffine(canvas, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    ink = np.array(colour, np.float32)
    img[:] = (img * (1 - mask[..., None]) + ink * mask[..., None]).astype(np.uint8)


def _finish(img: np.ndarray, rng: random.Random, out_size: int, angle: float) -> np.ndarray:
    """Rotate, light, blur, add noise and shrink a rendered die crop."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    img = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # A lighting gradient: real trays are lit from one side.
    gx, gy = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img = np.clip(img.astype(np.float32) * grad[..., None], 0, 255)
    if rng.random() < 0.5:
        k = rng.choice((3, 5))
        img = cv2.GaussianBlur(img, (k, k), 0)
    img = cv2.resize(img, (out_size, out_size), interpolation=cv2.INTER_AREA)
    img = img + np.random.default_rng(rng.randrange(1 << 30)).normal(
        0, rng.uniform(0, 8), img.shape
    )
    return np.clip(img, 0, 255).astype(np.uint8)


def _background(rng: random.Random, size: int) -> np.ndarray:
    v = rng.randrange(256)
    bg = np.full((size, size, 3), v, np.uint8)
    bg[:] = [rng.randrange(256) if rng.random() < 0.4 else v for _ in range(3)]
    return bg


def render_ten_sided(
    value: int, rng: random.Random, out_size: int = 48, percentile: bool = False,
    angle: float | None = None, die_frac: float | None = None, *,
    tilt: float | None = None, background: tuple[int, int, int] | None = None,
    blank_top: bool = False, offset: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """A ten-sided die resting on a face, seen from above, showing ``value`` on top.

    ``value`` is 0-9; a percentile die shows ``value`` tens ("00" ... "90"). The die is a
    true pentagonal trapezohedron drawn in 3D (kite faces, each with its own number, shaded
    by a random light), so the neighbouring faces' numbers appear at the kite's edges turned
    and foreshortened as on a real die. 6 and 9 of a d10 carry an underline or a dot.

    ``angle``: the die's turn in the picture (degrees counter-clockwise, 0 = top number
    upright; random if None). ``die_frac``: the die's outline (its longer side) as a fraction
    of ``out_size`` (random 0.68-0.86 if None: the reader crops 1.3 x the die's box).
    ``tilt``: degrees the die is seen off vertical (camera at an angle, or a die leaning;
    random 0-12 if None). ``background``: a plain colour instead of a random surface.
    ``blank_top``: no number on the top face (a die the reader must refuse). ``offset``:
    the die's centre off the crop's centre, in die widths.
    """
    style = _D10Style.random(rng, percentile)
    return _render_d10(value, rng, out_size, style,
                       rng.uniform(0, 360) if angle is None else angle,
                       rng.uniform(0.68, 0.86) if die_frac is None else die_frac,
                       rng.uniform(0, 12) if tilt is None else tilt,
                       background, blank_top, offset)[0]


def render_ten_sided_rgba(
    value: int, style_seed: int, out_size: int, percentile: bool,
    body: tuple[int, int, int], ink: tuple[int, int, int],
) -> np.ndarray:
    """A sample die for compose_tray: BGRA, the die upright and flat, transparent around it.

    The same ``style_seed``, ``body`` and ``ink`` give the same die (font, shape, layout)
    for every ``value``, as the ten faces of one physical die.
    """
    rng = random.Random(style_seed)
    style = replace(_D10Style.random(rng, percentile), body=body, ink=ink, ink_alpha=1.0,
                    marbling=0.0, numbers=_standard_numbers(rng),
                    digit_height=0.26 if percentile else 0.32, digit_pos=0.45, digit_width=1.0)
    img, alpha = _render_d10(value, random.Random(style_seed), out_size, style, 0.0, 0.9, 0.0,
                             (0, 0, 0), False, (0.0, 0.0))
    return np.dstack([img, alpha])


# ---------------------------------------------------------------- ten-sided die in 3D

#: d10 numbering around each pole (opposite faces add up to 9), as on common dice.
_POLE_CYCLES = ((0, 4, 6, 2, 8), (1, 7, 3, 5, 9))
_TTF_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/TTF", "/Library/Fonts",
             "C:/Windows/Fonts")


@lru_cache(maxsize=1)
def _ttf_fonts() -> tuple[str, ...]:
    """TrueType fonts on this machine (any may be missing: Hershey fonts always work)."""
    found: list[str] = []
    for d in _TTF_DIRS:
        # Not monospaced fonts: their dotted or slashed zero is not what dice carry.
        found += sorted(str(p) for p in Path(d).glob("**/*.ttf")
                        if not any(k in p.name for k in ("Math", "ExtraLight", "Mono")))
    return tuple(found[:40])


def font_count() -> int:
    """Number of distinct fonts the renders draw from (TrueType, Pillow's own, Hershey)."""
    return len(_ttf_fonts()) + 1 + len(_FONTS)


@lru_cache(maxsize=8192)
def _glyph(text: str, font: int, mark: str, bold: int) -> np.ndarray:
    """A tight float mask (1 = ink) of ``text`` about 64 px high, with a 6/9 mark.

    font < len(_FONTS): a Hershey font; next Pillow's built-in font; then TrueType files.
    """
    h = 64
    if font < len(_FONTS):
        scale = cv2.getFontScaleFromHeight(_FONTS[font], h, 2 + bold)
        (tw, th), base = cv2.getTextSize(text, _FONTS[font], scale, 2 + bold)
        canvas = np.zeros((th + base + 40, tw + 40), np.uint8)
        cv2.putText(canvas, text, (20, th + 20), _FONTS[font], scale, 255, 2 + bold,
                    cv2.LINE_AA)
    else:
        from PIL import Image, ImageDraw, ImageFont

        ttf = _ttf_fonts()
        k = font - len(_FONTS)
        pil_font = (ImageFont.load_default(size=h) if k == 0 or k > len(ttf)
                    else ImageFont.truetype(ttf[k - 1], h))
        img = Image.new("L", (h * len(text) + 80, 2 * h + 40), 0)
        ImageDraw.Draw(img).text((20, 10), text, fill=255, font=pil_font,
                                 stroke_width=bold, stroke_fill=255)
        canvas = np.asarray(img).copy()
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        return np.zeros((h, h // 2), np.float32)
    canvas = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    gh, gw = canvas.shape
    pad = gh // 3
    out = np.zeros((gh + 2 * pad, gw + 2 * pad), np.uint8)
    out[pad:pad + gh, pad:pad + gw] = canvas
    thick = max(3, gh // 12 + bold)
    if mark == "underline":
        y = pad + gh + pad // 2
        cv2.line(out, (pad + gw // 6, y), (pad + gw - gw // 6, y), 255, thick, cv2.LINE_AA)
    elif mark == "dot":
        cv2.circle(out, (pad + gw + pad // 2, pad + gh - thick), thick, 255, -1, cv2.LINE_AA)
    ys, xs = np.nonzero(out)
    return out[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255


@dataclass(frozen=True)
class _D10Style:
    """Everything about one die's look that stays the same on all its faces."""

    percentile: bool
    flatness: float          # ring zig-zag height; the pole height follows from it
    body: tuple[int, int, int]
    ink: tuple[int, int, int]
    ink_alpha: float
    font: int
    bold: int
    mark: str                # how 6 and 9 are told apart: underline or dot
    digit_height: float      # of the kite's length
    digit_pos: float         # centre, from the kite's short end, of its length
    digit_width: float       # horizontal squeeze of the glyph
    numbers: tuple[int, ...]  # face index -> number
    marbling: float
    edge: float              # edge highlight (+) or darkening (-)

    @staticmethod
    def random(rng: random.Random, percentile: bool) -> _D10Style:
        body, ink = _d10_colours(rng)
        if rng.random() < 0.5:
            # Standard layout: the top face's pole neighbours follow the usual cycle.
            numbers = _standard_numbers(rng)
        else:
            perm = list(range(10))
            rng.shuffle(perm)
            numbers = tuple(perm)
        return _D10Style(
            percentile=percentile,
            flatness=rng.uniform(0.08, 0.14),
            body=body, ink=ink, ink_alpha=rng.uniform(0.75, 1.0),
            font=rng.randrange(font_count()), bold=rng.choice((0, 0, 1, 2)),
            mark=rng.choice(("underline", "underline", "dot")),
            digit_height=rng.uniform(0.26, 0.36) * (0.85 if percentile else 1.0),
            digit_pos=rng.uniform(0.36, 0.52),
            digit_width=rng.uniform(0.8, 1.15),
            numbers=numbers,
            marbling=rng.uniform(0, 0.35) if rng.random() < 0.3 else 0.0,
            edge=rng.uniform(-0.25, 0.25),
        )


def _luma(bgr: tuple[int, int, int]) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def _d10_colours(rng: random.Random) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Body and number colours of a d10: white, black, gold or coloured numbers, always
    clearly lighter or darker than the body (dice makers paint them to be read)."""
    body = ink = (0, 0, 0)
    for _ in range(30):
        hsv = np.array([[[rng.randrange(180), rng.randrange(256), rng.randrange(30, 256)]]],
                       np.uint8)
        b = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
        body = (int(b[0]), int(b[1]), int(b[2]))
        r = rng.random()
        if r < 0.45:
            w = rng.randrange(215, 256)
            ink = (w - rng.randrange(20), w - rng.randrange(20), w - rng.randrange(20))
        elif r < 0.75:
            k = rng.randrange(0, 50)
            ink = (k, k, k)
        elif r < 0.87:
            ink = (rng.randrange(0, 80), rng.randrange(150, 220), rng.randrange(190, 256))
        else:
            i = cv2.cvtColor(np.array([[[rng.randrange(180), rng.randrange(256),
                                         rng.randrange(256)]]], np.uint8), cv2.COLOR_HSV2BGR)
            ink = (int(i[0, 0, 0]), int(i[0, 0, 1]), int(i[0, 0, 2]))
        if abs(_luma(body) - _luma(ink)) >= 75:
            break
    return body, ink


def _standard_numbers(rng: random.Random) -> tuple[int, ...]:
    """Face index (0-4 around one pole, 5-9 around the other) -> number, real-die layout."""
    cycle = _POLE_CYCLES[0] if rng.random() < 0.5 else _POLE_CYCLES[1]
    if rng.random() < 0.5:
        cycle = cycle[::-1]
    numbers = [0] * 10
    for i, n in enumerate(cycle):
        numbers[i] = n
        numbers[5 + (i + 2) % 5] = 9 - n  # the face opposite upper face i
    return tuple(numbers)


@lru_cache(maxsize=16)
def _d10_mesh(flatness: float) -> tuple[np.ndarray, tuple[tuple[int, int, int, int], ...]]:
    """Vertices and kite faces (far pole, side, near end, side) of a trapezohedron.

    Vertex 0/1: poles; 2-6 the upper ring, 7-11 the lower ring. The kites are planar when
    the pole height is flatness x (1 + cos 36) / (1 - cos 36).
    """
    c = math.cos(math.pi / 5)
    a = flatness
    b = a * (1 + c) / (1 - c)
    v = [(0.0, 0.0, b), (0.0, 0.0, -b)]
    v += [(math.cos(2 * math.pi * i / 5), math.sin(2 * math.pi * i / 5), a) for i in range(5)]
    v += [(math.cos(2 * math.pi * i / 5 + math.pi / 5),
           math.sin(2 * math.pi * i / 5 + math.pi / 5), -a) for i in range(5)]
    faces = tuple((0, 2 + i, 7 + i, 2 + (i + 1) % 5) for i in range(5)) + tuple(
        (1, 7 + j, 2 + (j + 1) % 5, 7 + (j + 1) % 5) for j in range(5))
    return np.array(v, np.float64), faces


def _rotation(axis: np.ndarray, deg: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    rvec = (axis * math.radians(deg)).reshape(3, 1)
    r, _ = cv2.Rodrigues(rvec)
    return np.asarray(r, np.float64)


@lru_cache(maxsize=8)
def _face_frames(flatness: float) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, float], ...]:
    """Per face: (outward normal, unit 'up' of its number (towards the kite's short end),
    the short end's vertex, the kite's length)."""
    verts, faces = _d10_mesh(flatness)
    out = []
    for face in faces:
        p = verts[list(face)]
        n = np.cross(p[1] - p[0], p[3] - p[0])
        if np.dot(n, p.mean(axis=0)) < 0:
            n = -n
        n /= np.linalg.norm(n)
        up = p[2] - p[0]
        length = float(np.linalg.norm(up))
        out.append((n, up / length, p[2], length))
    return tuple(out)


def _render_d10(
    value: int, rng: random.Random, out_size: int, style: _D10Style, angle: float,
    die_frac: float, tilt: float, background: tuple[int, int, int] | None, blank_top: bool,
    offset: tuple[float, float],
) -> tuple[np.ndarray, np.ndarray]:
    """(BGR picture, alpha of the die) at ``out_size``."""
    flat = round(style.flatness, 2)
    verts, faces = _d10_mesh(flat)
    frames = _face_frames(flat)
    # The face showing ``value`` goes on top; numbers of the others follow the style.
    top = style.numbers.index(value)
    n_top, up_top, _near, _len = frames[top]
    # Rotate so the top face's normal is +z and its number's up is +y (picture up).
    z = n_top
    y = up_top - np.dot(up_top, z) * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    rest = np.stack([x, y, z])
    rot = _rotation(np.array([0.0, 0.0, 1.0]), angle) @ rest
    if tilt > 0:
        t_axis = rng.uniform(0, 2 * math.pi)
        rot = _rotation(np.array([math.cos(t_axis), math.sin(t_axis), 0.0]), tilt) @ rot
    pv = verts @ rot.T
    # Mild perspective: the camera sits 8-40 die radii above the die.
    cam = rng.uniform(8, 40)
    persp = cam / (cam - pv[:, 2])
    xy = pv[:, :2] * persp[:, None]
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    ss = 2
    size = out_size * ss
    scale = die_frac * size / float(max(hi - lo))
    centre = (lo + hi) / 2 - np.array(offset) * float(max(hi - lo))

    def to_px(p: np.ndarray) -> np.ndarray:
        q = p @ rot.T
        f = cam / (cam - q[..., 2])
        xy_ = q[..., :2] * f[..., None]
        return np.stack([size / 2 + (xy_[..., 0] - centre[0]) * scale,
                         size / 2 - (xy_[..., 1] - centre[1]) * scale], axis=-1)

    img = (np.full((size, size, 3), background, np.float32) if background is not None
           else tray_surface(rng, size))
    # Light from a random side; the die's shadow falls away from it.
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    if background is None:
        hull = cv2.convexHull(to_px(verts).astype(np.float32)).reshape(-1, 2)
        silhouette = np.zeros((size, size), np.float32)
        off = light[:2] * np.array([-1, 1]) * rng.uniform(0.03, 0.12) * die_frac * size
        cv2.fillPoly(silhouette, [np.round(hull + off).astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(silhouette, (0, 0), 1 + 0.04 * size)
        img *= 1 - shadow[..., None] * rng.uniform(0.2, 0.6)
    # Each visible face is painted flat into a label map; colours come from a table.
    label = np.zeros((size, size), np.uint8)
    ambient = rng.uniform(0.45, 0.75)
    shine = rng.uniform(0, 0.35)
    shades = np.ones(11, np.float32)
    specs = np.zeros(11, np.float32)
    ink_alpha = np.zeros((size, size), np.float32)
    for fi, face in enumerate(faces):
        n, up, near, length = frames[fi]
        nr = rot @ n
        if nr[2] <= 0.02:
            continue  # faces away from the camera
        cv2.fillPoly(label, [np.round(to_px(verts[list(face)])).astype(np.int32)], fi + 1)
        lit = max(0.0, float(np.dot(nr, light)))
        shades[fi + 1] = ambient + (1 - ambient) * lit
        specs[fi + 1] = 255 * shine * lit**12
        if not (blank_top and fi == top):
            ink_alpha += (_number_on_face(style, fi, n, up, near, length, to_px, size)
                          * (label == fi + 1))
    on_die = label > 0
    shade = shades[label][..., None]
    body = np.array(style.body, np.float32) * shade + specs[label][..., None]
    if style.marbling:
        body *= _marbling(rng, size, style.marbling)[..., None]
    if style.edge:
        edge = (cv2.morphologyEx(label, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0)
        body += (style.edge * 255 * (edge & on_die))[..., None]
    a = np.clip(ink_alpha, 0, 1)[..., None] * style.ink_alpha
    die = body * (1 - a) + np.array(style.ink, np.float32) * shade * a
    img = np.where(on_die[..., None], die, img)
    img = np.clip(img, 0, 255)
    small = cv2.resize(img, (out_size, out_size), interpolation=cv2.INTER_AREA).astype(np.uint8)
    alpha = cv2.resize(on_die.astype(np.uint8) * 255, (out_size, out_size),
                       interpolation=cv2.INTER_AREA)
    return small, alpha


def _number_on_face(
    style: _D10Style, fi: int, n: np.ndarray, up: np.ndarray, near: np.ndarray, length: float,
    to_px: Callable[[np.ndarray], np.ndarray], size: int,
) -> np.ndarray:
    """Alpha (size x size) of face ``fi``'s number, mapped onto the face in the picture."""
    num = style.numbers[fi]
    text = f"{num}0" if style.percentile else str(num)
    mark = style.mark if (not style.percentile and num in (6, 9)) else "none"
    glyph = _glyph(text, style.font, mark, style.bold)
    gh, gw = glyph.shape
    right = np.cross(up, n)
    h3 = style.digit_height * length
    w3 = h3 * gw / gh * style.digit_width
    # Two-digit numbers are printed smaller to fit the kite (its width is 2 sin 36 deg).
    fit = 0.6 * 2 * math.sin(math.pi / 5) / w3
    if fit < 1:
        h3, w3 = h3 * fit, w3 * fit
    centre = near - up * style.digit_pos * length
    u, r = up * h3 / 2, right * w3 / 2
    corners3 = np.array([centre + u - r, centre + u + r, centre - u + r, centre - u - r])
    src = np.array([[0, 0], [gw, 0], [gw, gh], [0, gh]], np.float32)
    dst = to_px(corners3).astype(np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(glyph, hmat, (size, size), flags=cv2.INTER_LINEAR)


def _marbling(rng: random.Random, size: int, amount: float) -> np.ndarray:
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    noise = np.asarray(cv2.GaussianBlur(nrng.normal(0, 1, (size, size)).astype(np.float32),
                                        (0, 0), size * rng.uniform(0.03, 0.1)), np.float32)
    texture: np.ndarray = 1 + amount * noise / (float(np.abs(noise).max()) + 1e-6)
    return texture


def tray_surface(rng: random.Random, size: int) -> np.ndarray:
    """A tray floor: plain, gradient, felt-like noise, wood-like stripes or speckled black,
    with uneven light (float32, 0-255). Shared by the dice renders and the detector's
    training composites (tools/vision/train_models.py), so both cover the same trays."""
    kind = rng.random()
    base = np.array([rng.randrange(256) for _ in range(3)], np.float32)
    if rng.random() < 0.5:
        base = np.full(3, rng.randrange(256), np.float32) + np.array(
            [rng.uniform(-25, 25) for _ in range(3)], np.float32)
    img = np.ones((size, size, 3), np.float32) * base
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    if kind < 0.25:
        yy = np.arange(size, dtype=np.float32)[:, None]
        stripes = np.sin(yy * rng.uniform(0.05, 0.4) + nrng.normal(0, 1, (1, size)).cumsum(1)
                         * 0.08) * rng.uniform(10, 40)
        img += stripes[..., None]
        if rng.random() < 0.5:
            img = img.transpose(1, 0, 2).copy()
    elif kind < 0.5:
        noise = cv2.GaussianBlur(nrng.normal(0, 1, (size, size)).astype(np.float32), (0, 0),
                                 rng.uniform(0.7, 2.5))
        img += noise[..., None] * rng.uniform(5, 35)
    elif kind < 0.65:
        img *= 0.15
        dots = nrng.random((size, size)) < 0.004
        img[dots] = rng.uniform(100, 255)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    img *= (1 + rng.uniform(-0.4, 0.4) * (xx - 0.5) + rng.uniform(-0.4, 0.4) * (yy - 0.5))[
        ..., None]
    surface: np.ndarray = np.clip(img, 0, 255)
    return surface


def replace_floor(
    photo: np.ndarray, dice: list[tuple[float, float, float]], floor: np.ndarray
) -> np.ndarray:
    """A photo of dice on a light, plain tray moved onto another ``floor`` (float32 image of
    at least the photo's size), the old floor's shading and the dice's shadows kept.

    The old floor is what is low in saturation, not much darker than the local floor level
    and connected to the floor outside the dice's bodies (`_die_bodies`); the thin rim
    round each die, where die and old floor blend, goes too, so no light halo is left.
    ``dice``: (centre x, centre y, size) of each die, in pixels.
    """
    h, w = photo.shape[:2]
    die = float(np.median([d[2] for d in dice])) if dice else 40.0
    # The floor level: a median over ~2.5 dice, taken at a quarter of the size (10x faster).
    small = cv2.resize(photo, (max(8, w // 4), max(8, h // 4)), interpolation=cv2.INTER_AREA)
    level = cv2.resize(cv2.medianBlur(small, max(3, int(2.5 * die / 4) | 1)), (w, h))
    level = cv2.GaussianBlur(level.astype(np.float32), (0, 0), max(1.0, die / 4))
    lum, level_lum = photo.astype(np.float32).mean(axis=2), level.mean(axis=2) + 1
    saturation = cv2.cvtColor(photo, cv2.COLOR_BGR2HSV)[..., 1]
    floorlike = ((saturation < 45) & (lum > 0.5 * level_lum)).astype(np.uint8)
    bodies, rims = _die_bodies(photo, dice, lum, level, floorlike)
    n, parts = cv2.connectedComponents(floorlike, connectivity=4)
    outer = np.zeros(n, bool)
    outer[np.unique(parts[(floorlike > 0) & ~bodies])] = True
    outer[0] = False
    old_floor = (outer[parts] & ~bodies) | rims
    mask = cv2.GaussianBlur(old_floor.astype(np.float32), (0, 0), 0.8)
    shade = np.clip(lum / level_lum, 0, 1.2)[..., None]
    out = photo * (1 - mask[..., None]) + floor[:h, :w] * shade * mask[..., None]
    moved: np.ndarray = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return moved


def _die_bodies(
    photo: np.ndarray, dice: list[tuple[float, float, float]], lum: np.ndarray,
    level: np.ndarray, floorlike: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the dice's bodies, which the new floor must not cover, and of the rims
    round them, where die and old floor blend (boolean masks).

    A die's outline is the convex hull of what stands out from the floor round its middle:
    colour, a dark body, a face brighter than the floor, or a sharp edge. A white die on
    the light tray is "floorlike" all over, so its whole hull is kept; keeping only a disc
    round its middle, as this did until 2026-11-25, cut white dice down to round tokens
    with their outer pips bitten off. A coloured or dark die keeps its hull less the pale
    patches that reach past it (the tray in a gap between touching dice), so white pips
    stay and the gaps become floor.
    """
    h, w = photo.shape[:2]
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY).astype(np.float32)
    edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    level_lum = level.mean(axis=2) + 1
    brighter = (lum > level_lum) & (np.abs(photo.astype(np.float32) - level).max(axis=2) > 20)
    stands_out = ((floorlike == 0) | (lum < 0.6 * level_lum) | brighter
                  | (edges > 60)).astype(np.uint8)
    bodies = np.zeros((h, w), bool)
    rims = np.zeros((h, w), bool)
    for cx, cy, size in dice:
        r = 0.58 * size
        x0, y0 = int(max(0, cx - r)), int(max(0, cy - r))
        x1, y1 = int(min(w, cx + r + 1)), int(min(h, cy + r + 1))
        if x1 <= x0 or y1 <= y0:
            continue
        middle = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(middle, (int(cx - x0), int(cy - y0)), int(0.3 * size), 1, -1)
        if not middle.any():  # its middle is outside the picture
            continue
        local_floorlike = floorlike[y0:y1, x0:x1]
        white = local_floorlike[middle > 0].mean() >= 0.5
        found = cv2.morphologyEx(stands_out[y0:y1, x0:x1], cv2.MORPH_CLOSE,
                                 np.ones((3, 3), np.uint8))
        if white:
            # Its face does not stand out from the tray; its pips and edges do.
            found = np.maximum(found, middle)
        _n, parts = cv2.connectedComponents(found, connectivity=8)
        touching_middle = np.unique(parts[middle > 0])
        die = np.isin(parts, touching_middle[touching_middle > 0]).astype(np.uint8)
        if not die.any():
            die = middle
        hull = np.zeros_like(die)
        cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(die)), 1)
        k = 2 * max(1, round(size / 20)) + 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        inner = cv2.erode(hull, disc) > 0
        if not white:
            # Light patches that reach past the body are floor seen in a gap or a
            # translucent edge; those wholly inside it are the die's (white pips).
            _n, patches = cv2.connectedComponents(local_floorlike, connectivity=8)
            reaching = np.unique(patches[(local_floorlike > 0) & ~inner])
            inner &= ~np.isin(patches, reaching[reaching > 0])
        bodies[y0:y1, x0:x1] |= inner
        rims[y0:y1, x0:x1] |= (cv2.dilate(hull, disc) > 0) & ~inner
    return bodies, rims & ~bodies


def render_numeral_d6(
    value: int, rng: random.Random, out_size: int = 32, angle: float | None = None
) -> np.ndarray:
    """A six-sided die with a printed numeral (1-6) on its top face."""
    size = 160
    img = _background(rng, size)
    body, ink = _colour_pair(rng)
    side = size * rng.uniform(0.55, 0.68)
    c = size / 2
    p0, p1 = int(c - side / 2), int(c + side / 2)
    shadow_off = rng.randrange(2, 8)
    cv2.rectangle(img, (p0 + shadow_off, p0 + shadow_off), (p1 + shadow_off, p1 + shadow_off),
                  (20, 20, 20), -1)
    cv2.rectangle(img, (p0, p0), (p1, p1), body, -1)
    font = rng.choice(_FONTS)
    _put_centered(
        img, str(value), (c, c), side * rng.uniform(0.4, 0.6), rng.uniform(-5, 5), ink, font,
        rng.uniform(0.08, 0.15), value == 6 and rng.random() < 0.7,
    )
    a = rng.uniform(0, 360) if angle is None else angle
    return _finish(img, rng, out_size, a)


def render_pip_d6(
    value: int, rng: random.Random, out_size: int = 32, angle: float | None = None
) -> np.ndarray:
    """A plain pip die; used for tests and as extra variety, not as the main training data."""
    size = 160
    img = _background(rng, size)
    body, ink = _colour_pair(rng)
    side = size * rng.uniform(0.55, 0.68)
    c = size / 2
    p0, p1 = int(c - side / 2), int(c + side / 2)
    cv2.rectangle(img, (p0, p0), (p1, p1), body, -1)
    layout = {
        1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    r = side * rng.uniform(0.07, 0.1)
    for dx, dy in layout:
        cv2.circle(img, (int(c + dx * side * 0.28), int(c + dy * side * 0.28)), int(r), ink, -1,
                   cv2.LINE_AA)
    a = rng.uniform(0, 360) if angle is None else angle
    return _finish(img, rng, out_size, a)


def rotation_angles(step: float = 15.0) -> list[float]:
    """Angles (degrees) used by the all-rotations tests."""
    return [i * step for i in range(math.ceil(360 / step))]


def camera_turn(width: int, height: int, degrees: float, about_vertical: bool) -> np.ndarray:
    """Homography of a pinhole camera (focal length = the long side) turned in place."""
    f = float(max(width, height))
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    turn = (np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]) if about_vertical
            else np.array([[1, 0, 0], [0, c, -s], [0, s, c]]))
    h = k @ turn @ np.linalg.inv(k)
    # Fit the warped picture back into the original long side.
    corners = np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64)
    warped = cv2.perspectiveTransform(corners, h)[0]
    (x0, y0), (x1, y1) = warped.min(axis=0), warped.max(axis=0)
    scale = max(width, height) / max(x1 - x0, y1 - y0)
    fit = np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1.0]])
    turned: np.ndarray = fit @ h
    return turned


def tray_on_table(tray: np.ndarray, table_side: int = 900) -> tuple[np.ndarray, tuple[int, int]]:
    """A tray picture in the middle of a square, dark, slightly noisy table; and where its
    top-left corner went."""
    noise = np.random.default_rng(table_side).normal(0, 6, (table_side, table_side, 3))
    table = np.clip(np.array([70, 60, 50]) + noise, 0, 255).astype(np.uint8)
    h, w = tray.shape[:2]
    x, y = (table_side - w) // 2, (table_side - h) // 2
    table[y:y + h, x:x + w] = tray
    return table, (x, y)


def seen_at_an_angle(img: np.ndarray, degrees: float, about_vertical: bool
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The picture as a camera turned by ``degrees`` sees it (``camera_turn``), and the
    homography used."""
    h, w = img.shape[:2]
    turn = camera_turn(w, h, degrees, about_vertical)
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), turn)[0]
    size = (round(float(corners[:, 0].max())), round(float(corners[:, 1].max())))
    return cv2.warpPerspective(img, turn, size, borderMode=cv2.BORDER_REPLICATE), turn

