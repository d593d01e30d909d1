"""Screens for a 128x64 one-bit OLED, drawn with Pillow.

A `Screen` is plain data (what to show); `render` draws it. Text is wrapped
and shortened to fit so nothing is clipped or overlaps, in a scalable font
big enough to read at arm's length.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
TITLE_HEIGHT = 13


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Screen:
    """What one OLED frame shows.

    kind: idle, chip, menu, roll, reading, result, check, summary, error,
    warning, secret, entry. `big` is the large headline; `lines` the body;
    `items` + `cursor` a menu.
    """

    kind: str
    title: str
    big: str = ""
    lines: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    cursor: int = 0
    footer: str = ""


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def fit(text: str, size: int, width: int) -> str:
    """Shorten with an ellipsis until it fits the width."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap; the last line gets an ellipsis if text remains."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        candidate = f"{current} {word}".strip()
        if text_width(candidate, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        if len(lines) == max_lines:
            rest = " ".join(words[index:])
            lines[-1] = fit(lines[-1] + " " + rest, size, width)
            return lines
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + [fit(" ".join(lines[max_lines - 1 :]), size, width)]
    return [fit(line, size, width) for line in lines]


def render(screen: Screen) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    inverted_title = screen.kind in ("error", "warning", "secret")
    _title(draw, screen.title, inverted=not inverted_title)
    if inverted_title:
        draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    body_top = TITLE_HEIGHT + 2
    footer_top = HEIGHT - 11 if screen.footer else HEIGHT
    if screen.items:
        _menu(draw, screen, body_top, footer_top)
    else:
        y = body_top
        if screen.big:
            size = 22 if text_width(screen.big, 22) <= WIDTH - 4 else 16
            big = fit(screen.big, size, WIDTH - 4)
            draw.text(((WIDTH - text_width(big, size)) / 2, y - 2), big, font=font(size), fill=1)
            y += size + 1
        room = max(0, (footer_top - y) // 11)
        lines = [ln for text in screen.lines for ln in wrap(text, 10, WIDTH - 4, room)]
        for line in lines[:room]:
            draw.text((2, y), line, font=font(10), fill=1)
            y += 11
    if screen.footer:
        draw.line((0, HEIGHT - 12, WIDTH - 1, HEIGHT - 12), fill=1)
        draw.text((2, HEIGHT - 11), fit(screen.footer, 9, WIDTH - 4), font=font(9), fill=1)
    return image


def _title(draw: ImageDraw.ImageDraw, title: str, inverted: bool) -> None:
    if inverted:
        draw.rectangle((0, 0, WIDTH - 1, TITLE_HEIGHT - 1), fill=1)
    draw.text((2, 0), fit(title, 11, WIDTH - 4), font=font(11), fill=0 if inverted else 1)


def _menu(draw: ImageDraw.ImageDraw, screen: Screen, top: int, bottom: int) -> None:
    rows = max(1, (bottom - top) // 12)
    first = min(max(0, screen.cursor - rows + 1), max(0, len(screen.items) - rows))
    for row, index in enumerate(range(first, min(len(screen.items), first + rows))):
        y = top + row * 12
        label = fit(screen.items[index], 11, WIDTH - 14)
        if index == screen.cursor:
            draw.rectangle((0, y - 1, WIDTH - 7, y + 10), fill=1)
            draw.text((3, y - 1), label, font=font(11), fill=0)
        else:
            draw.text((3, y - 1), label, font=font(11), fill=1)
    if len(screen.items) > rows:  # scroll bar, so the referee knows there is more
        span = bottom - top
        bar = max(4, span * rows // len(screen.items))
        at = top + (span - bar) * first // max(1, len(screen.items) - rows)
        draw.rectangle((WIDTH - 4, at, WIDTH - 2, at + bar), fill=1)
