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
    angle: float | None = None, die_frac: float | None = None,
) -> np.ndarray:
    """A top-down ten-sided die showing ``value`` (0-9; percentile shows ``value``0).

    The outline is the elongated hexagon a d10 shows from above, with the top kite face in
    the middle and parts of two neighbouring faces (with their own digits) either side.
    """
    size = 128
    img = _background(rng, size)
    body, ink = _colour_pair(rng)
    dw = size * (die_frac if die_frac is not None else rng.uniform(0.62, 0.78))
    dh = dw * rng.uniform(0.72, 0.88)
    cx, cy = size / 2, size / 2
    x0, y0 = cx - dw / 2, cy - dh / 2
    outline = np.array(
        [
            (x0, y0 + 0.45 * dh), (x0 + 0.3 * dw, y0), (x0 + 0.7 * dw, y0),
            (x0 + dw, y0 + 0.45 * dh), (x0 + 0.65 * dw, y0 + dh), (x0 + 0.35 * dw, y0 + dh),
        ],
        np.int32,
    )
    # A soft shadow under the die.
    shadow = img.copy()
    cv2.fillPoly(shadow, [outline + rng.randrange(2, 8)], (0, 0, 0))
    img = cv2.addWeighted(img, 0.6, shadow, 0.4, 0)
    cv2.fillPoly(img, [outline], body)
    kite = np.array(
        [(cx, y0 + 0.02 * dh), (x0 + 0.22 * dw, y0 + 0.5 * dh), (cx, y0 + dh),
         (x0 + 0.78 * dw, y0 + 0.5 * dh)],
        np.int32,
    )
    shade = tuple(int(c * rng.uniform(0.75, 0.95)) for c in body)
    side_l = np.array([outline[0], outline[1], kite[0], kite[1], kite[2], outline[5]], np.int32)
    side_r = np.array([outline[2], outline[3], outline[4], kite[2], kite[3], kite[0]], np.int32)
    cv2.fillPoly(img, [side_l], shade)
    cv2.fillPoly(img, [side_r], shade)
    font = rng.choice(_FONTS)
    thick = rng.uniform(0.08, 0.16)
    digit_h = dh * rng.uniform(0.28, 0.38)
    text = f"{value}0" if percentile else str(value)
    if percentile:
        digit_h *= 0.8
    underline = (not percentile) and value in (6, 9)
    tilt = rng.uniform(-8, 8)
    _put_centered(img, text, (cx, cy + dh * 0.04), digit_h, tilt, ink, font, thick, underline)
    # Neighbouring faces' digits, smaller and turned, as on the real die.
    for side, ang in ((-1, 60), (1, -60)):
        other = rng.randrange(10)
        t = f"{other}0" if percentile else str(other)
        _put_centered(
            img, t, (cx + side * dw * 0.34, cy - dh * 0.05), digit_h * 0.7,
            ang + rng.uniform(-10, 10), ink, font, thick, False,
        )
    a = rng.uniform(0, 360) if angle is None else angle
    return _finish(img, rng, out_size, a)


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
