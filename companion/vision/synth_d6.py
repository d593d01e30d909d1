"""Whole frames of six-sided pip dice drawn in 3D, seen by a camera at any angle.

dice-d6-tray is shot from straight above, so its dice show only their top faces. A camera
at an angle also sees two or three sides of every die, each with its own pips, and sees
the near dice larger than the far ones. ``render_d6_scene`` draws that: rounded cubes
lying on a floor (``synth.tray_surface``) with their shadows, a pinhole camera tilted by
any angle, and the box of each whole die in the picture with the value on its top face.

Used by ``tools/vision/bench_cubes.py`` to measure the reader on dice whose sides are in
view, which neither the photos nor the warped proxy of ``bench_tilt.py`` show.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from .synth import tray_surface

#: Pip places on a face, in units of the pips' spread from its centre.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

#: Supersampling: everything is drawn at this multiple of the output size, then shrunk.
_SS = 2


@dataclass(frozen=True)
class _D6Look:
    body: tuple[float, float, float]
    pips: tuple[float, float, float]
    pip_radius: float        # of the die's side
    pip_spread: float        # centre to an outer pip, of the side
    rounding: float          # corner radius, of the side
    see_through: float       # share of the floor seen through a translucent body


def _hsv(h: float, s: float, v: float) -> tuple[float, float, float]:
    bgr = cv2.cvtColor(np.array([[[h, s, v]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return float(bgr[0]), float(bgr[1]), float(bgr[2])


def _random_look(rng: random.Random) -> _D6Look:
    """White, coloured, dark and translucent dice with black, white, red or gold pips,
    as a convention table has them."""
    kind = rng.random()
    if kind < 0.3:
        body = _hsv(rng.randrange(180), rng.randrange(0, 30), rng.randrange(215, 256))
        pips = rng.choice(((25.0, 25.0, 25.0), (40.0, 40.0, 170.0), (150.0, 60.0, 30.0)))
    elif kind < 0.65:
        body = _hsv(rng.randrange(180), rng.randrange(120, 256), rng.randrange(110, 230))
        pips = rng.choice(((240.0, 240.0, 240.0), (20.0, 20.0, 20.0)))
    else:
        body = _hsv(rng.randrange(180), rng.randrange(40, 256), rng.randrange(25, 90))
        pips = rng.choice(((235.0, 235.0, 235.0), (40.0, 40.0, 200.0), (60.0, 190.0, 220.0)))
    # Pips from small and central to large and near the edges: dice makers differ, and
    # dice-d6-tray's dice lie at the central end (spread ~0.2-0.27).
    return _D6Look(
        body=body, pips=pips, pip_radius=rng.uniform(0.065, 0.11),
        pip_spread=rng.uniform(0.22, 0.32), rounding=rng.uniform(0.08, 0.2),
        see_through=rng.uniform(0.15, 0.4) if rng.random() < 0.25 else 0.0,
    )


@dataclass(frozen=True)
class DrawnDie:
    """A die of a drawn frame: the value on its top face, the box around the whole die
    (tight: dice-d6-tray's boxes leave a margin of ~10 %), and how its pips are laid out."""

    value: int
    box: tuple[float, float, float, float]
    pip_spread: float        # centre to an outer pip, of the side
    pip_radius: float        # of the side


class DrawnFrame(NamedTuple):
    """A drawn frame (BGR), the dice in it, and the floor they lie on."""

    image: np.ndarray
    dice: list[DrawnDie]
    #: The floor rectangle the dice were thrown in, as the picture shows it (4 x 2
    #: pixels): the corners of a tray a reader could be calibrated with.
    tray_corners: np.ndarray


@dataclass(frozen=True)
class _Camera:
    """A pinhole camera: world (die sides, floor z=0) to picture pixels (supersampled)."""

    position: np.ndarray
    axes: np.ndarray          # rows: right, up, forward
    focal: float
    centre: tuple[float, float]

    @staticmethod
    def looking_at(target: np.ndarray, tilt_deg: float, azimuth: float, distance: float,
                   focal: float, size: tuple[int, int]) -> _Camera:
        away = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
        t = math.radians(tilt_deg)
        position = target - distance * math.sin(t) * away + np.array(
            [0.0, 0.0, distance * math.cos(t)])
        forward = (target - position) / np.linalg.norm(target - position)
        up = away - float(np.dot(away, forward)) * forward
        up /= np.linalg.norm(up)
        right = np.cross(forward, up)
        return _Camera(position, np.stack([right, up, forward]), focal,
                       (size[0] / 2, size[1] / 2))

    def project(self, points: np.ndarray) -> np.ndarray:
        q = (points - self.position) @ self.axes.T
        return np.stack([self.centre[0] + self.focal * q[..., 0] / q[..., 2],
                         self.centre[1] - self.focal * q[..., 1] / q[..., 2]], axis=-1)

    def depth(self, point: np.ndarray) -> float:
        return float(np.dot(point - self.position, self.axes[2]))

    def floor_in_view(self, size: tuple[int, int], margin: float
                      ) -> tuple[np.ndarray, np.ndarray, tuple[float, float, float, float]]:
        """The largest floor rectangle square to the view whose picture lies ``margin``
        pixels inside the frame: two floor axes (away from the camera, across) and its
        extent along them (lo, hi, lo, hi)."""
        to_floor = np.linalg.inv(self.floor_homography())
        w, h = size
        px = np.array([[margin, margin, 1], [w - margin, margin, 1], [w - margin, h - margin, 1],
                       [margin, h - margin, 1]], np.float64)
        q = px @ to_floor.T
        pts = q[:, :2] / q[:, 2:]
        away = np.array([self.axes[1, 0], self.axes[1, 1]])
        away /= np.linalg.norm(away)
        across = np.array([-away[1], away[0]])
        a, b = pts @ away, pts @ across
        near, far = np.argsort(a)[:2], np.argsort(a)[2:]
        low, high = np.argsort(b)[:2], np.argsort(b)[2:]
        return away, across, (float(a[near].max()), float(a[far].min()),
                              float(b[low].max()), float(b[high].min()))

    def floor_homography(self) -> np.ndarray:
        """Floor (x, y) to picture pixels."""
        floor = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], np.float64)
        src = floor[:, :2].astype(np.float32)
        return np.asarray(cv2.getPerspectiveTransform(src, self.project(floor).astype(
            np.float32)), np.float64)


@dataclass(frozen=True)
class _Die:
    centre: np.ndarray        # of the cube, z = 0.5
    yaw: float
    faces: dict[tuple[int, int], int]   # (axis, sign) in the die's frame -> value
    turns: dict[tuple[int, int], int]   # quarter turns of each face's pip layout
    look: _D6Look

    def frame(self) -> np.ndarray:
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])

    def outline_points(self) -> np.ndarray:
        """Points of the rounded cube whose hull is its outline from any side."""
        r = self.look.rounding
        inner = 0.5 - r
        dirs = np.array([(x, y, z) for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1)
                         if (x, y, z) != (0, 0, 0)], np.float64)
        dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
        corners = np.array([(x, y, z) for x in (-inner, inner) for y in (-inner, inner)
                            for z in (-inner, inner)])
        local = (corners[:, None, :] + r * dirs[None, :, :]).reshape(-1, 3)
        return np.asarray(self.centre + local @ self.frame().T, np.float64)


def _random_faces(value: int, rng: random.Random) -> dict[tuple[int, int], int]:
    """Values on the six faces with ``value`` on top; opposite faces add up to 7."""
    others = [v for v in range(1, 7) if v not in (value, 7 - value)]
    first = rng.choice(others)
    second = rng.choice([v for v in others if v not in (first, 7 - first)])
    return {(2, 1): value, (2, -1): 7 - value, (0, 1): first, (0, -1): 7 - first,
            (1, 1): second, (1, -1): 7 - second}


def _face_basis(axis: int, sign: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(outward normal, two in-face directions) of a face in the die's frame."""
    n = np.zeros(3)
    n[axis] = sign
    u = np.zeros(3)
    u[(axis + 1) % 3] = 1
    v = np.cross(n, u)
    return n, u, v


def _rounded_square(rounding: float, steps: int = 6) -> np.ndarray:
    """A face's outline, (x, y) in side units about its centre."""
    inner = 0.5 - rounding
    pts = []
    for cx, cy, a0 in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180),
                       (inner, -inner, 270)):
        for k in range(steps + 1):
            a = math.radians(a0 + 90 * k / steps)
            pts.append((cx + rounding * math.cos(a), cy + rounding * math.sin(a)))
    return np.array(pts)


def _circle(radius: float, steps: int = 16) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, steps, endpoint=False)
    return np.stack([radius * np.cos(a), radius * np.sin(a)], axis=1)


def _paint_die(img: np.ndarray, die: _Die, cam: _Camera, light: np.ndarray,
               ambient: float, floor: np.ndarray) -> None:
    look = die.look
    rot = die.frame()
    hull = cv2.convexHull(cam.project(die.outline_points()).astype(np.float32))
    edge_shade = ambient * 0.8
    _fill(img, hull.reshape(-1, 2), np.array(look.body) * edge_shade, look.see_through, floor)
    outline = _rounded_square(look.rounding)
    for (axis, sign), value in die.faces.items():
        n, u, v = (rot @ w for w in _face_basis(axis, sign))
        centre = die.centre + 0.5 * n
        if np.dot(cam.position - centre, n) <= 1e-3:
            continue
        shade = ambient + (1 - ambient) * max(0.0, float(np.dot(n, light)))
        face = centre + outline[:, :1] * u + outline[:, 1:] * v
        _fill(img, cam.project(face), np.array(look.body) * shade, look.see_through, floor)
        turn = die.turns[(axis, sign)]
        cu, cv_ = (u, v) if turn % 2 == 0 else (v, -u)
        pip = _circle(look.pip_radius)
        for dx, dy in PIP_LAYOUT[value]:
            at = centre + look.pip_spread * (dx * cu + dy * cv_)
            ring = at + pip[:, :1] * u + pip[:, 1:] * v
            _fill(img, cam.project(ring), np.array(look.pips) * (0.85 * shade), 0.0, floor)


def _fill(img: np.ndarray, polygon: np.ndarray, colour: np.ndarray, see_through: float,
          floor: np.ndarray) -> None:
    pts = np.round(polygon).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0) - 1, 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 2, (img.shape[1], img.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [pts - (x0, y0)], 1)
    where = mask > 0
    region = img[y0:y1, x0:x1]
    region[where] = (1 - see_through) * colour + see_through * floor[y0:y1, x0:x1][where]


def render_d6_scene(
    values: list[int], rng: random.Random, tilt_deg: float,
    size: tuple[int, int] = (640, 640), die_px: float = 40.0,
) -> DrawnFrame:
    """A frame of pip dice showing ``values`` on top, seen ``tilt_deg`` off vertical.

    ``die_px``: a die's side in pixels at the middle of the frame (nearer dice are larger).
    The dice lie in the largest floor rectangle, square to the view, that the frame shows
    whole. Returns the BGR frame, each die placed (dice that find no free place are left
    out, so fewer may come back than were asked) and that rectangle's corners.
    """
    w, h = size
    distance = rng.uniform(14, 40)
    target = np.array([0.0, 0.0, 0.5])
    cam = _Camera.looking_at(target, tilt_deg, rng.uniform(0, 2 * math.pi), distance,
                             die_px * distance * _SS, (w * _SS, h * _SS))
    away, across, (a0, a1, b0, b1) = cam.floor_in_view((w * _SS, h * _SS), 4.0 * _SS)
    placed: list[_Die] = []
    drawn: list[DrawnDie] = []
    for value in values:
        for _ in range(200):
            # 0.9 of a side keeps a die, however turned, inside the rectangle.
            at = (rng.uniform(a0 + 0.9, a1 - 0.9) * away + rng.uniform(b0 + 0.9, b1 - 0.9)
                  * across)
            centre = np.array([at[0], at[1], 0.5])
            if any(np.linalg.norm(centre - d.centre) < 1.75 for d in placed):
                continue
            die = _Die(centre, rng.uniform(0, 2 * math.pi), _random_faces(value, rng),
                       {(a, s): rng.randrange(4) for a in range(3) for s in (1, -1)},
                       _random_look(rng))
            pts = cam.project(die.outline_points()) / _SS
            (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
            if x0 < 4 or y0 < 4 or x1 > w - 4 or y1 > h - 4:
                continue
            placed.append(die)
            drawn.append(DrawnDie(value, (float(x0), float(y0), float(x1 - x0),
                                          float(y1 - y0)),
                                  die.look.pip_spread, die.look.pip_radius))
            break
    img = _floor(rng, cam, (w * _SS, h * _SS))
    floor = img.copy()
    light = np.array([rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), 1.0])
    light /= np.linalg.norm(light)
    _shadows(img, placed, cam, light, rng.uniform(0.25, 0.55))
    ambient = rng.uniform(0.45, 0.7)
    for die in sorted(placed, key=lambda d: -cam.depth(d.centre)):
        _paint_die(img, die, cam, light, ambient, floor)
    tray = np.array([[*(a * away + b * across).tolist(), 0.0]
                     for a, b in ((a0, b0), (a1, b0), (a1, b1), (a0, b1))])
    return DrawnFrame(_as_photo(img, rng, (w, h)), drawn, cam.project(tray) / _SS)


def _floor(rng: random.Random, cam: _Camera, size: tuple[int, int]) -> np.ndarray:
    """The floor plane as the camera sees it, its texture ~60 px a die side, tiled."""
    texture = tray_surface(rng, 512)
    per_unit = 60.0
    to_texture = np.array([[per_unit, 0, 256], [0, per_unit, 256], [0, 0, 1.0]])
    hmat = cam.floor_homography() @ np.linalg.inv(to_texture)
    out = cv2.warpPerspective(texture, hmat, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    return np.asarray(out, np.float32)


def _shadows(img: np.ndarray, dice: list[_Die], cam: _Camera, light: np.ndarray,
             darkness: float) -> None:
    mask = np.zeros(img.shape[:2], np.float32)
    for die in dice:
        pts = die.outline_points()
        on_floor = pts - (pts[:, 2:] / light[2]) * light
        hull = cv2.convexHull(cam.project(on_floor).astype(np.float32))
        cv2.fillPoly(mask, [np.round(hull.reshape(-1, 2)).astype(np.int32)], 1.0)
    soft = cv2.GaussianBlur(mask, (0, 0), 3 * _SS)
    img *= (1 - darkness * soft)[..., None]


def _as_photo(img: np.ndarray, rng: random.Random, size: tuple[int, int]) -> np.ndarray:
    """Shrink, light unevenly, add noise and JPEG, as a camera would."""
    small = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[0:size[1], 0:size[0]].astype(np.float32)
    small *= (1 + rng.uniform(-0.25, 0.25) * (xx / size[0] - 0.5)
              + rng.uniform(-0.25, 0.25) * (yy / size[1] - 0.5))[..., None]
    if rng.random() < 0.3:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.4, 0.9))
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 5),
                                                                 small.shape)
    frame = np.clip(small + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, rng.randrange(70, 95)])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    return frame if decoded is None else np.asarray(decoded)
