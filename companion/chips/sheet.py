"""Printable sheets of round ArUco stickers for 39 mm poker chips.

Each sticker: the cut circle (thin grey line), the marker above centre with at
least one marker cell of white around it (the quiet zone the detector needs), the
chip's name under it, and "#N" (its marker id) so a person can match sticker and
registry. A4 pages at 300 dpi; PNG (one file per page) or PDF (Pillow's PDF writer,
one page per sheet). Print at 100 %: the footer has a 50 mm bar to check the scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.chips.aruco import DICTIONARY_NAME, DICTIONARY_SIZE, render_marker

A4_MM = (210.0, 297.0)
DEFAULT_DIAMETER_MM = 39.0
DEFAULT_DPI = 300
MARGIN_MM = 10.0
GAP_MM = 3.0

# Sticker layout as fractions of the diameter (measured on a 39 mm sticker: marker
# 16 mm with its centre 4 mm above the chip's, name line 7.5-11.5 mm below centre).
MARKER_FRACTION = 16.0 / 39.0
MARKER_CENTRE_FRACTION = -4.0 / 39.0
NAME_CENTRE_FRACTION = 9.5 / 39.0
NAME_HEIGHT_FRACTION = 4.0 / 39.0
ID_CENTRE_FRACTION = 13.6 / 39.0
ID_HEIGHT_FRACTION = 2.0 / 39.0


@dataclass(frozen=True)
class Sticker:
    marker_id: int
    name: str


def mm_to_px(mm: float, dpi: int = DEFAULT_DPI) -> int:
    return round(mm * dpi / 25.4)


def _font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's bundled scalable font: the same sheet on every machine, no font files.
    return ImageFont.load_default(size=max(6, size_px))


def _fit_text(
    draw: ImageDraw.ImageDraw, text: str, max_width: float, height_px: int, min_px: int
) -> tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]:
    """Shrink the font until `text` fits; below `min_px` cut the text with an ellipsis."""
    size = height_px
    while size > min_px:
        font = _font(size)
        if draw.textlength(text, font=font) <= max_width:
            return text, font
        size -= 1
    font = _font(min_px)
    shown = text
    while shown and draw.textlength(shown + "…", font=font) > max_width:
        shown = shown[:-1]
    return (shown.rstrip() + "…" if shown != text else text), font


def render_sticker(
    sticker: Sticker, diameter_mm: float = DEFAULT_DIAMETER_MM, dpi: int = DEFAULT_DPI
) -> Image.Image:
    """One round sticker on a white square of the sticker's diameter ("L" mode)."""
    size = mm_to_px(diameter_mm, dpi)
    image = Image.new("L", (size, size), 255)
    draw = ImageDraw.Draw(image)
    centre = size / 2
    radius = size / 2
    line = max(1, round(dpi / 150))
    draw.ellipse((line, line, size - 1 - line, size - 1 - line), outline=150, width=line)

    side = round(size * MARKER_FRACTION)
    marker = Image.fromarray(render_marker(sticker.marker_id, side))
    top = round(centre + size * MARKER_CENTRE_FRACTION - side / 2)
    image.paste(marker, (round(centre - side / 2), top))

    for text, centre_fraction, height_fraction, min_mm in (
        (sticker.name, NAME_CENTRE_FRACTION, NAME_HEIGHT_FRACTION, 2.2),
        (f"#{sticker.marker_id}", ID_CENTRE_FRACTION, ID_HEIGHT_FRACTION, 1.5),
    ):
        y = centre + size * centre_fraction
        half_height = size * height_fraction / 2
        # Width of the circle at the text's lower edge, less a margin for cutting.
        dy = min(radius, abs(y - centre) + half_height)
        max_width = 2 * math.sqrt(radius**2 - dy**2) - mm_to_px(3, dpi)
        shown, font = _fit_text(
            draw, text, max_width, round(size * height_fraction), mm_to_px(min_mm, dpi)
        )
        draw.text((centre, y), shown, fill=0, font=font, anchor="mm")
    return image


def page_grid(
    diameter_mm: float = DEFAULT_DIAMETER_MM, page_mm: tuple[float, float] = A4_MM
) -> tuple[int, int]:
    """(columns, rows) of stickers on one page."""
    cols = int((page_mm[0] - 2 * MARGIN_MM + GAP_MM) // (diameter_mm + GAP_MM))
    rows = int((page_mm[1] - 2 * MARGIN_MM - 8 + GAP_MM) // (diameter_mm + GAP_MM))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {diameter_mm} mm sticker does not fit on the page")
    return cols, rows


def render_sheets(
    stickers: Sequence[Sticker],
    diameter_mm: float = DEFAULT_DIAMETER_MM,
    dpi: int = DEFAULT_DPI,
) -> list[Image.Image]:
    """A4 pages ("L" mode, `dpi` dots per inch), as many as the stickers need."""
    ids = [s.marker_id for s in stickers]
    if len(set(ids)) != len(ids):
        raise ValueError("two stickers with the same marker id")
    for marker_id in ids:
        if not 0 <= marker_id < DICTIONARY_SIZE:
            raise ValueError(f"marker id {marker_id} is outside {DICTIONARY_NAME} (0-49)")
    cols, rows = page_grid(diameter_mm)
    per_page = cols * rows
    width, height = mm_to_px(A4_MM[0], dpi), mm_to_px(A4_MM[1], dpi)
    pitch = mm_to_px(diameter_mm + GAP_MM, dpi)
    grid_w = cols * pitch - mm_to_px(GAP_MM, dpi)
    grid_h = rows * pitch - mm_to_px(GAP_MM, dpi)
    left = (width - grid_w) // 2
    top = (height - mm_to_px(8, dpi) - grid_h) // 2
    pages: list[Image.Image] = []
    chunks = [stickers[i : i + per_page] for i in range(0, len(stickers), per_page)] or [[]]
    for number, chunk in enumerate(chunks, start=1):
        page = Image.new("L", (width, height), 255)
        for index, sticker in enumerate(chunk):
            row, col = divmod(index, cols)
            page.paste(
                render_sticker(sticker, diameter_mm, dpi), (left + col * pitch, top + row * pitch)
            )
        _footer(page, dpi, diameter_mm, number, len(chunks))
        pages.append(page)
    return pages


def _footer(page: Image.Image, dpi: int, diameter_mm: float, number: int, count: int) -> None:
    draw = ImageDraw.Draw(page)
    y = page.height - mm_to_px(MARGIN_MM, dpi)
    x = mm_to_px(MARGIN_MM, dpi)
    bar = mm_to_px(50, dpi)
    draw.rectangle((x, y - mm_to_px(1.5, dpi), x + bar, y), fill=0)
    text = (
        f"companion chip stickers, ArUco {DICTIONARY_NAME}, {diameter_mm:g} mm. "
        f"Print at 100 %: the bar is 50 mm. Page {number}/{count}"
    )
    draw.text(
        (x + bar + mm_to_px(3, dpi), y), text, fill=0, font=_font(mm_to_px(3, dpi)), anchor="ls"
    )


def save_sheets(pages: Sequence[Image.Image], out: Path, dpi: int = DEFAULT_DPI) -> list[Path]:
    """PDF: one file, a page per sheet. PNG: `out` for page 1, `out-2.png`... after."""
    out = Path(out)
    suffix = out.suffix.lower()
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".pdf":
        first, *rest = pages
        first.save(out, "PDF", resolution=float(dpi), save_all=True, append_images=list(rest))
        return [out]
    if suffix == ".png":
        written = []
        for number, page in enumerate(pages, start=1):
            path = out if number == 1 else out.with_name(f"{out.stem}-{number}{out.suffix}")
            page.save(path, "PNG", dpi=(dpi, dpi))
            written.append(path)
        return written
    raise ValueError(f"{out}: the sheet is written as .pdf or .png")


def as_array(image: Image.Image) -> np.ndarray:
    """A rendered sticker or page as the uint8 array OpenCV wants."""
    return np.asarray(image.convert("L"))
