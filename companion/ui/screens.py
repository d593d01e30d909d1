"""Screens for a 128x64 one-bit OLED, drawn with Pillow.

A `Screen` is plain data (what to show); `layout` decides where every piece of
text goes and `render` draws it. The frame is cut into fixed regions (title
bar, body, footer) and every text is shortened or wrapped until its glyphs
lie inside its own slot, so nothing is clipped at the edge or drawn over
anything else; tests check that property over generated strings.

Sizes were chosen for a 0.96-1.3" panel read at arm's length: the headline
(dice to roll, hits scored, the unit drawn) is 14-18 px, body text 10 px
(9 px loses the colon in some words when drawn without anti-aliasing).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
MARGIN = 2

TITLE_SIZE, BODY_SIZE, FOOTER_SIZE, ITEM_SIZE = 11, 10, 10, 11
BIG_SIZES = (18, 14)

# Regions: (top, bottom) rows, bottom exclusive.
TITLE = (0, 13)
BODY = (14, 52)
FOOTER_RULE = 52
FOOTER = (53, 64)
MENU_PITCH = 12

KINDS = (
    "idle", "chip", "menu", "roll", "reading", "result", "check", "summary",
    "error", "warning", "secret", "entry", "status",
)

# Characters the box writes that the bundled font draws badly or not at all.
_PLAIN = str.maketrans({
    "\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'",
    "\u201c": '"', "\u201d": '"', "\u2033": '"', "\u2032": "'", "\u00d7": "x",
    "\u2192": ">", "\t": " ", "\n": " ", "\r": " ",
})


# Everything the box draws is made of these; anything else becomes "?".
DRAWABLE = "".join(chr(c) for c in range(32, 127)) + "ÀÂÄÇÈÉÊËÎÏÔÖÙÛÜàâäçèéêëîïôöùûüñß°·…"


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


# Measuring on a one-bit image: glyphs drawn without anti-aliasing are hinted
# differently (often wider) than the font's own getlength/getbbox report.
_SCRATCH = ImageDraw.Draw(Image.new("1", (1, 1)))


def bbox(text: str, size: int, x: int = 0, y: int = 0) -> tuple[int, int, int, int]:
    """Where the text's ink falls when drawn at (x, y) on a one-bit frame."""
    left, top, right, bottom = _bbox(text, size)
    return left + x, top + y, right + x, bottom + y


@lru_cache(maxsize=8192)
def _bbox(text: str, size: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = _SCRATCH.textbbox((0, 0), text, font=font(size))
    return int(left), int(top), int(right), int(bottom)


@cache
def _extent(size: int) -> tuple[int, int]:
    """Rows (top, bottom exclusive) any glyph of this size occupies below the draw origin."""
    top, bottom = 99, 0
    for char in DRAWABLE.strip():
        box = bbox(char, size)
        top, bottom = min(top, box[1]), max(bottom, box[3])
    return top, bottom


def line_height(size: int) -> int:
    top, bottom = _extent(size)
    return bottom - top


@dataclass(frozen=True)
class Screen:
    """What one OLED frame shows.

    kind: one of KINDS (it picks the frame style). `big` is the large headline;
    `lines` the body, wrapped; `items` + `cursor` a menu (or, for `entry`, the
    dice being entered with the cursor on the current one); `scroll` the first
    body line shown on long pages (status, summary).
    """

    kind: str
    title: str
    big: str = ""
    lines: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    cursor: int = 0
    footer: str = ""
    scroll: int = 0


@dataclass(frozen=True)
class Text:
    """One piece of text placed on the frame, and the slot it must stay inside."""

    text: str
    size: int
    x: int
    y: int  # draw origin
    slot: tuple[int, int, int, int]  # left, top, right, bottom (exclusive)
    inverted: bool = False


@dataclass(frozen=True)
class Layout:
    texts: tuple[Text, ...]
    boxes: tuple[tuple[tuple[int, int, int, int], int], ...]  # filled/outlined rects: (rect, fill)
    lines: tuple[tuple[int, int, int, int], ...]
    outline: bool = False


def plain(text: str) -> str:
    """The text with typographic characters replaced by ones the font draws."""
    return "".join(c if c in DRAWABLE else "?" for c in text.translate(_PLAIN))


def text_width(text: str, size: int) -> int:
    return bbox(text, size)[2] if text else 0


def fits(text: str, size: int, width: int) -> bool:
    if not text:
        return True
    box = bbox(text, size)
    return box[0] >= 0 and box[2] <= width


def fit(text: str, size: int, width: int) -> str:
    """The text, shortened with an ellipsis until it fits the width."""
    text = plain(text)
    if fits(text, size, width):
        return text
    while text and not fits(text.rstrip() + "…", size, width):
        text = text[:-1]
    return text.rstrip() + "…" if fits(text.rstrip() + "…", size, width) else ""


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most `max_lines` lines that each fit the width.

    A word too long for a line is cut; when text is left over, the last line
    ends with an ellipsis.
    """
    if max_lines <= 0:
        return []
    words = plain(text).split()
    lines: list[str] = []
    current = ""
    index = 0
    while index < len(words):
        word = words[index]
        candidate = f"{current} {word}" if current else word
        if fits(candidate, size, width):
            current = candidate
            index += 1
            continue
        if not current:  # a single word wider than the line: cut it
            cut = len(word)
            while cut > 0 and not fits(word[:cut], size, width):
                cut -= 1
            if cut == 0:  # not even one letter fits this width
                return lines
            current, words[index] = word[:cut], word[cut:]
            if not words[index]:
                index += 1
        lines.append(current)
        current = ""
        if len(lines) == max_lines:
            break
    if current and len(lines) < max_lines:
        lines.append(current)
    if index < len(words) and lines:
        rest = " ".join(words[index:])
        lines[-1] = fit(f"{lines[-1]} {rest}", size, width)
    return lines


def wrap_all(paragraphs: tuple[str, ...], size: int, width: int, max_lines: int,
             skip: int = 0) -> list[str]:
    """Several paragraphs wrapped into `max_lines` lines, the first `skip` lines
    scrolled away; an ellipsis marks the last line shown when more remain."""
    every: list[str] = []
    for text in paragraphs:
        every.extend(wrap(text, size, width, 50))
    shown = every[skip : skip + max_lines]
    if len(every) > skip + max_lines and shown:
        shown[-1] = fit(shown[-1] + " …", size, width)
    return shown


def body_rows(screen: Screen) -> int:
    """How many wrapped body lines exist (for scrolling long pages)."""
    return len(wrap_all(screen.lines, BODY_SIZE, WIDTH - 2 * MARGIN, 999))


def _text(text: str, size: int, left: int, top: int, right: int, *, center: bool = False,
          inverted: bool = False) -> Text:
    """Place one line whose glyphs fill the rows [top, top + line_height)."""
    width = right - left
    text = fit(text, size, width)
    ink_top, _ = _extent(size)
    x = left + (int((width - text_width(text, size)) // 2) if center else 0)
    return Text(text, size, x, top - ink_top, (left, top, right, top + line_height(size)),
                inverted)


@lru_cache(maxsize=256)
def layout(screen: Screen) -> Layout:
    texts: list[Text] = []
    boxes: list[tuple[tuple[int, int, int, int], int]] = []
    rules: list[tuple[int, int, int, int]] = []
    alarm = screen.kind in ("error", "warning", "secret")
    inner = WIDTH - 2 * MARGIN
    # Title: an inverted bar, or for alarms plain text inside a full outline.
    if not alarm:
        boxes.append(((0, TITLE[0], WIDTH - 1, TITLE[1] - 1), 1))
    title_top = TITLE[0] + 1
    title = ("! " if screen.kind == "error" else "") + screen.title
    texts.append(_text(title, TITLE_SIZE, MARGIN, title_top, WIDTH - MARGIN, inverted=not alarm))
    bottom = BODY[1]
    if screen.footer:
        rules.append((0, FOOTER_RULE, WIDTH - 1, FOOTER_RULE))
        texts.append(_text(screen.footer, FOOTER_SIZE, MARGIN, FOOTER[0], WIDTH - MARGIN))
    else:
        bottom = HEIGHT - 2
    top = BODY[0]
    if screen.kind == "entry":
        texts += _entry(screen, top, boxes)
        top += 21
    elif screen.items:
        texts += _menu(screen, top, bottom, boxes)
        return Layout(tuple(texts), tuple(boxes), tuple(rules), alarm)
    elif screen.big:
        room_small = (bottom - top - line_height(BIG_SIZES[-1]) - 1) // line_height(BODY_SIZE)
        wanted = min(len(wrap_all(screen.lines, BODY_SIZE, inner, room_small)), room_small)
        size = BIG_SIZES[-1]
        for candidate in BIG_SIZES:
            room = (bottom - top - line_height(candidate) - 1) // line_height(BODY_SIZE)
            if fits(plain(screen.big), candidate, inner) and room >= wanted:
                size = candidate
                break
        texts.append(_text(screen.big, size, MARGIN, top, WIDTH - MARGIN, center=True))
        top += line_height(size) + 1
    pitch = line_height(BODY_SIZE)
    room = max(0, (bottom - top) // pitch)
    for line in wrap_all(screen.lines, BODY_SIZE, inner, room, screen.scroll):
        texts.append(_text(line, BODY_SIZE, MARGIN, top, WIDTH - MARGIN))
        top += pitch
    return Layout(tuple(texts), tuple(boxes), tuple(rules), alarm)


def _menu(screen: Screen, top: int, bottom: int,
          boxes: list[tuple[tuple[int, int, int, int], int]]) -> list[Text]:
    texts: list[Text] = []
    count = len(screen.items)
    rows = max(1, (bottom - top) // MENU_PITCH)
    cursor = min(max(0, screen.cursor), count - 1)
    first = min(max(0, cursor - rows + 1), max(0, count - rows))
    scrollbar = count > rows
    right = WIDTH - (7 if scrollbar else 2)
    for row, index in enumerate(range(first, min(count, first + rows))):
        y = top + row * MENU_PITCH
        selected = index == cursor
        if selected:
            boxes.append(((0, y, right - 1, y + MENU_PITCH - 1), 1))
        texts.append(_text(screen.items[index], ITEM_SIZE, 3, y, right - 1, inverted=selected))
    if scrollbar:  # so the referee knows there is more above or below
        span = rows * MENU_PITCH
        bar = max(4, span * rows // count)
        at = top + (span - bar) * first // max(1, count - rows)
        boxes.append(((WIDTH - 4, top, WIDTH - 2, top + span - 1), 0))
        boxes.append(((WIDTH - 4, at, WIDTH - 2, at + bar - 1), 1))
    return texts


ENTRY_CELL = 20


def _entry(screen: Screen, top: int,
           boxes: list[tuple[tuple[int, int, int, int], int]]) -> list[Text]:
    """The dice being entered as a row of cells, the current one inverted."""
    texts: list[Text] = []
    count = len(screen.items)
    cells = (WIDTH - 2 * MARGIN) // ENTRY_CELL
    cursor = min(max(0, screen.cursor), max(0, count - 1))
    first = min(max(0, cursor - cells // 2), max(0, count - cells))
    size = BIG_SIZES[-1]
    height = line_height(size) + 4
    span = min(count, cells) * ENTRY_CELL
    left = (WIDTH - span) // 2
    for column, index in enumerate(range(first, min(count, first + cells))):
        x = left + column * ENTRY_CELL
        selected = index == cursor
        boxes.append(((x, top, x + ENTRY_CELL - 2, top + height - 1), 1 if selected else 2))
        texts.append(_text(screen.items[index], size, x + 1, top + 2, x + ENTRY_CELL - 2,
                           center=True, inverted=selected))
    if first > 0:
        boxes.append(((0, top + height // 2 - 1, 1, top + height // 2 + 1), 1))
    if first + cells < count:
        boxes.append(((WIDTH - 2, top + height // 2 - 1, WIDTH - 1, top + height // 2 + 1), 1))
    return texts


def render(screen: Screen) -> Image.Image:
    """The frame for a screen (a fresh copy: callers may draw on it)."""
    return _render(screen).copy()


@lru_cache(maxsize=512)
def _render(screen: Screen) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    plan = layout(screen)
    if plan.outline:
        draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
        draw.line((0, TITLE[1] - 1, WIDTH - 1, TITLE[1] - 1), fill=1)
    for rect, fill in plan.boxes:
        if fill == 2:
            draw.rectangle(rect, outline=1)
        else:
            draw.rectangle(rect, fill=fill)
    for rule in plan.lines:
        draw.line(rule, fill=1)
    for text in plan.texts:
        draw.text((text.x, text.y), text.text, font=font(text.size), fill=0 if text.inverted else 1)
    return image


def enlarge(image: Image.Image, factor: int = 4) -> Image.Image:
    """A frame scaled up with nearest-neighbour, for people to look at."""
    return image.convert("L").resize((image.width * factor, image.height * factor),
                                     Image.Resampling.NEAREST)
