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

import re
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
ITEM_WIDTH = WIDTH - 7 - 4  # a menu item's text beside the scroll bar

KINDS = (
    "idle", "chip", "menu", "roll", "reading", "result", "check", "summary",
    "error", "warning", "secret", "entry", "status", "start",
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
    """Where everything of one screen goes.

    `cut` names every text that had to be shortened to fit (empty on a good
    screen: the tests check the box's own screens against it); `scroll_max` is
    how far the body can scroll (0: it all shows at once), and `arrows` the
    marks saying there is more above or below.
    """

    texts: tuple[Text, ...]
    boxes: tuple[tuple[tuple[int, int, int, int], int], ...]  # filled/outlined rects: (rect, fill)
    lines: tuple[tuple[int, int, int, int], ...]
    outline: bool = False
    body: tuple[int, int] = BODY  # rows (top, bottom exclusive) of the body region
    footer: tuple[int, int] = FOOTER
    arrows: tuple[tuple[str, int, int], ...] = ()  # ("up" | "down", left, top) of a 5x3 mark
    scroll_max: int = 0
    cut: tuple[str, ...] = ()


def plain(text: str) -> str:
    """The text with typographic characters replaced by ones the font draws."""
    return "".join(c if c in DRAWABLE else "?" for c in text.translate(_PLAIN))


def text_width(text: str, size: int) -> int:
    return bbox(text, size)[2] if text else 0


def fits(text: str, size: int, width: int) -> bool:
    if not text:
        return True
    # a glyph may reach left of the origin ("/" by a pixel): `_text` shifts such a line in
    left, _, right, _ = bbox(text, size)
    return right - min(left, 0) <= width


def fits_line(kind: str, text: str) -> bool:
    """Whether the text fits, unshortened, as a screen's "title", "footer" (one
    line) or "big" headline (at its smaller size)."""
    size = {"title": TITLE_SIZE, "footer": FOOTER_SIZE, "big": BIG_SIZES[-1]}[kind]
    return fits(plain(text), size, WIDTH - 2 * MARGIN)


def fits_item(text: str) -> bool:
    """Whether a menu item shows whole when the cursor is on it: on the two rows it
    then may take (`_menu`), beside a scroll bar."""
    return " ".join(wrap(text, ITEM_SIZE, ITEM_WIDTH, 2)) == " ".join(plain(text).split())


def body_rows(text: str) -> int:
    """How many lines of a page's body the text takes (its width less no scroll marks)."""
    return len(wrap(text, BODY_SIZE, WIDTH - 2 * MARGIN, 99))


def fit(text: str, size: int, width: int) -> str:
    """The text, shortened with an ellipsis until it fits the width."""
    text = plain(text)
    if fits(text, size, width):
        return text
    while text and not fits(text.rstrip() + "…", size, width):
        text = text[:-1]
    return text.rstrip() + "…" if fits(text.rstrip() + "…", size, width) else ""


_NUMBER = re.compile(r"^[\d.,/]+$")
_COUNT_ON = re.compile(r"^\d+\+$")  # "1+": at least one
_NUMERIC = re.compile(r"^(?:[+-]?\d|\d*d\d|>|<)")  # 75, 33%, +1, 3+1, d10, >99%


_CHANCE = re.compile(r"(?:\d%|\d\+),?$")


def _units(words: list[str]) -> list[str]:
    """The words with each number bound to the word before it, so that a line
    never ends between a label and its figure ("tie / 14%", "ML / 75"): a number
    after a word, or "1+" after a chance; and an odds part ("loser falls back
    3%,") kept whole. A list of numbers (the dice) still breaks between them,
    and so does anything after a comma, colon or semicolon."""
    units: list[str] = []
    part: list[str] = []
    for word in words:
        part.append(word)
        if not word.endswith(","):
            continue
        units += [" ".join(part)] if _CHANCE.search(word) and len(part) <= 4 else part
        part = []
    if part and _CHANCE.search(part[-1]) and len(part) <= 4 and len(units) > 0:
        units.append(" ".join(part))  # the last part of a list of odds
    else:
        units += part
    return _bind_numbers(units)


def _bind_numbers(words: list[str]) -> list[str]:
    units: list[str] = []
    for word in words:
        previous = units[-1].rsplit(" ", 1)[-1] if units else ""
        bound = previous and not previous.endswith((",", ";", ":")) and (
            _COUNT_ON.match(word) or (_NUMERIC.match(word) and not _NUMBER.match(previous)))
        if bound:
            units[-1] = f"{units[-1]} {word}"
        else:
            units.append(word)
    return units


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most `max_lines` lines that each fit the width.

    A word too long for a line is cut; when text is left over, the last line
    ends with an ellipsis.
    """
    if max_lines <= 0:
        return []
    words = _units(plain(text).split())
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
        if not current and " " in word:  # a bound unit wider than the line: its words
            words[index : index + 1] = word.split(" ")
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


def wrap_all(paragraphs: tuple[str, ...], size: int, width: int) -> list[str]:
    """Several paragraphs wrapped into lines that each fit the width."""
    every: list[str] = []
    for text in paragraphs:
        every.extend(wrap(text, size, width, 999))
    return every


ARROW_ROOM = 6  # the body's right margin kept for the scroll marks (no room in the footer)
FOOTER_MARK_ROOM = 13  # the footer line's end, where both marks go when its words leave room


def _text(text: str, size: int, left: int, top: int, right: int, *, center: bool = False,
          inverted: bool = False) -> Text:
    """Place one line whose glyphs fill the rows [top, top + line_height)."""
    width = right - left
    text = fit(text, size, width)
    ink_top, _ = _extent(size)
    x = left + (int((width - text_width(text, size)) // 2) if center else 0)
    x -= min(bbox(text, size)[0], 0)  # ink that would stray left of the area
    return Text(text, size, x, top - ink_top, (left, top, right, top + line_height(size)),
                inverted)


def _shortened(placed: Text, original: str) -> bool:
    return placed.text.strip() != plain(original).strip()


@lru_cache(maxsize=256)
def layout(screen: Screen) -> Layout:
    texts: list[Text] = []
    boxes: list[tuple[tuple[int, int, int, int], int]] = []
    rules: list[tuple[int, int, int, int]] = []
    cut: list[str] = []
    alarm = screen.kind in ("error", "warning", "secret")
    inner = WIDTH - 2 * MARGIN
    # Title: an inverted bar, or for alarms plain text inside a full outline.
    if not alarm:
        boxes.append(((0, TITLE[0], WIDTH - 1, TITLE[1] - 1), 1))
    title = ("! " if screen.kind == "error" else "") + screen.title
    texts.append(_text(title, TITLE_SIZE, MARGIN, TITLE[0] + 1, WIDTH - MARGIN,
                       inverted=not alarm))
    if _shortened(texts[-1], title):
        cut.append(f"title: {screen.title}")
    # Footer: one line, or two when its words need them (the body gives up the room).
    footer = FOOTER
    bottom = BODY[1]
    if screen.footer:
        pitch = line_height(FOOTER_SIZE)
        words = wrap(screen.footer, FOOTER_SIZE, inner, 2)
        footer = (HEIGHT - pitch * len(words), HEIGHT)
        bottom = footer[0] - 1
        rules.append((0, bottom, WIDTH - 1, bottom))
        for row, words_line in enumerate(words):
            texts.append(_text(words_line, FOOTER_SIZE, MARGIN, footer[0] + row * pitch,
                               WIDTH - MARGIN))
        footer_last = len(texts) - 1 if words else None
        if " ".join(words) != " ".join(plain(screen.footer).split()):
            cut.append(f"footer: {screen.footer}")
    else:
        footer, bottom = (HEIGHT, HEIGHT), HEIGHT - 2
        footer_last = None
    top = BODY[0]
    if screen.kind == "entry":
        # UP/DOWN set the die here, so nothing scrolls: one line of context.
        texts += _entry(screen, top, boxes)
        top += 21
        if screen.lines and bottom - top >= line_height(BODY_SIZE):
            texts.append(_text(" ".join(screen.lines), BODY_SIZE, MARGIN, top, WIDTH - MARGIN))
        return Layout(tuple(texts), tuple(boxes), tuple(rules), alarm, (BODY[0], bottom),
                      footer, cut=tuple(cut))
    if screen.items:
        texts += _menu(screen, top, bottom, boxes, cut)
        return Layout(tuple(texts), tuple(boxes), tuple(rules), alarm, (BODY[0], bottom),
                      footer, cut=tuple(cut))
    if screen.big:
        room_small = (bottom - top - line_height(BIG_SIZES[-1]) - 1) // line_height(BODY_SIZE)
        wanted = min(len(wrap_all(screen.lines, BODY_SIZE, inner)), room_small)
        size = BIG_SIZES[-1]
        for candidate in BIG_SIZES:
            room = (bottom - top - line_height(candidate) - 1) // line_height(BODY_SIZE)
            if fits(plain(screen.big), candidate, inner) and room >= wanted:
                size = candidate
                break
        texts.append(_text(screen.big, size, MARGIN, top, WIDTH - MARGIN, center=True))
        if _shortened(texts[-1], screen.big):
            cut.append(f"big: {screen.big}")
        top += line_height(size) + 1
    # Body: wrapped lines; when they do not all fit, UP/DOWN scroll them and a
    # mark at the right says there is more above or below.
    pitch = line_height(BODY_SIZE)
    room = max(0, (bottom - top) // pitch)
    every = wrap_all(screen.lines, BODY_SIZE, inner)
    arrows: list[tuple[str, int, int]] = []
    scroll_max = 0
    first = 0
    marks_in_body = False
    if len(every) > room:
        if room == 0:
            cut.append(f"lines: {' '.join(screen.lines)}")
        elif footer_last is not None and fits(texts[footer_last].text, FOOTER_SIZE,
                                              inner - FOOTER_MARK_ROOM):
            # The marks at the end of the footer's line, so the body keeps its width
            # ("avg 4.0 command points" wrapped only for the marks' sake).
            last = texts[footer_last]
            texts[footer_last] = _text(last.text, FOOTER_SIZE, MARGIN, last.slot[1],
                                       WIDTH - MARGIN - FOOTER_MARK_ROOM)
            scroll_max = len(every) - room
            first = min(max(0, screen.scroll), scroll_max)
            y = last.slot[1] + (line_height(FOOTER_SIZE) - 3) // 2
            if first > 0:
                arrows.append(("up", WIDTH - 12, y))
            if first < scroll_max:
                arrows.append(("down", WIDTH - 6, y))
        else:
            marks_in_body = True
            every = wrap_all(screen.lines, BODY_SIZE, inner - ARROW_ROOM)
            scroll_max = len(every) - room
            first = min(max(0, screen.scroll), scroll_max)
            if first > 0:
                arrows.append(("up", WIDTH - 5, top + 1))
            if first < scroll_max:
                arrows.append(("down", WIDTH - 5, top + room * pitch - 4))
    right = WIDTH - MARGIN - (ARROW_ROOM if marks_in_body else 0)
    for line in every[first : first + room]:
        texts.append(_text(line, BODY_SIZE, MARGIN, top, right))
        top += pitch
    return Layout(tuple(texts), tuple(boxes), tuple(rules), alarm, (BODY[0], bottom), footer,
                  tuple(arrows), scroll_max, tuple(cut))


def _menu(screen: Screen, top: int, bottom: int,
          boxes: list[tuple[tuple[int, int, int, int], int]], cut: list[str]) -> list[Text]:
    """The items, the chosen one inverted; when its label is too long for one row it
    takes two, so the item about to be chosen is always read in full."""
    texts: list[Text] = []
    count = len(screen.items)
    rows = max(1, (bottom - top) // MENU_PITCH)
    cursor = min(max(0, screen.cursor), count - 1)
    chosen = screen.items[cursor]
    span = 1
    if rows > 1 and not fits(plain(chosen), ITEM_SIZE, ITEM_WIDTH):  # even beside a bar
        span = 2
    scrollbar = count + span - 1 > rows
    right = WIDTH - (7 if scrollbar else 2)
    first = min(max(0, cursor - rows + span), max(0, count + span - 1 - rows))
    row = 0
    index = first
    while index < count and row < rows:
        y = top + row * MENU_PITCH
        if index != cursor:
            texts.append(_text(screen.items[index], ITEM_SIZE, 3, y, right - 1))
            row += 1
            index += 1
            continue
        parts = wrap(chosen, ITEM_SIZE, right - 4, span)
        boxes.append(((0, y, right - 1, y + span * MENU_PITCH - 1), 1))
        for offset, part in enumerate(parts):
            texts.append(_text(part, ITEM_SIZE, 3, y + offset * MENU_PITCH, right - 1,
                               inverted=True))
        if " ".join(parts) != " ".join(plain(chosen).split()):
            cut.append(f"item: {chosen}")
        row += span
        index += 1
    if scrollbar:  # so the referee knows there is more above or below
        span_px = rows * MENU_PITCH
        bar = max(4, span_px * rows // (count + span - 1))
        at = top + (span_px - bar) * first // max(1, count + span - 1 - rows)
        boxes.append(((WIDTH - 4, top, WIDTH - 2, top + span_px - 1), 0))
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
    for direction, x, y in plan.arrows:
        tip, base = (y, y + 2) if direction == "up" else (y + 2, y)
        draw.polygon([(x, base), (x + 4, base), (x + 2, tip)], fill=1)
    for text in plan.texts:
        draw.text((text.x, text.y), text.text, font=font(text.size), fill=0 if text.inverted else 1)
        if text.size in CLEAR_DIGIT_SIZES:
            _clear_digits(image, text)
    return image


#: Digits drawn from these bitmaps instead of the font's at the small sizes: drawn
#: one-bit at 10-11 px the font's 6 and 9 curl shut and read as 8, and the Dice line
#: is how the referee checks what the camera read. Same cell and ink rows as the
#: font's digits (columns 1-5 of 6, eight rows), so layout is unchanged.
CLEAR_DIGIT_SIZES = (BODY_SIZE, TITLE_SIZE)
_DIGIT_ROWS = {
    "0": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "1": ("..#..", ".##..", "#.#..", "..#..", "..#..", "..#..", "..#..", "#####"),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#....", "#####"),
    "3": (".###.", "#...#", "....#", "..##.", "....#", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#.", "...#."),
    "5": ("#####", "#....", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "...#.", "..#..", "..#..", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
}


@cache
def _font_digit(char: str, size: int) -> tuple[tuple[int, int], ...]:
    """The pixels (column, row) the font inks for one digit drawn at the origin."""
    scratch = Image.new("1", (16, 24), 0)
    ImageDraw.Draw(scratch).text((0, 0), char, font=font(size), fill=1)
    return tuple((x, y) for y in range(24) for x in range(16) if scratch.getpixel((x, y)))


def _clear_digits(image: Image.Image, text: Text) -> None:
    """Swap the font's digits in a placed text for the clear bitmaps, in place.

    Each digit is found where the font drew it (its advance from the line start, a
    pixel either way for hinting); only the font glyph's own pixels are cleared, so a
    neighbouring comma or letter is left as it was. A digit not found is left alone.
    """
    ink, blank = (0, 1) if text.inverted else (1, 0)
    pixels = image.load()
    assert pixels is not None
    face = font(text.size)
    digit_top = text.y + bbox("0", text.size)[1]
    for index, char in enumerate(text.text):
        rows = _DIGIT_ROWS.get(char)
        if rows is None:
            continue
        start = text.x + _SCRATCH.textlength(text.text[: index + 1], font=face) \
            - _SCRATCH.textlength(char, font=face)
        glyph = _font_digit(char, text.size)
        for x in (round(start), round(start) - 1, round(start) + 1):
            at = [(x + gx, text.y + gy) for gx, gy in glyph]
            if all(0 <= px < WIDTH and 0 <= py < HEIGHT and pixels[px, py] == ink
                   for px, py in at):
                break
        else:
            continue
        for px, py in at:
            pixels[px, py] = blank
        for row, pattern in enumerate(rows):
            for column, mark in enumerate(pattern):
                if mark == "#" and 0 <= x + 1 + column < WIDTH and 0 <= digit_top + row < HEIGHT:
                    pixels[x + 1 + column, digit_top + row] = ink


def enlarge(image: Image.Image, factor: int = 4) -> Image.Image:
    """A frame scaled up with nearest-neighbour, for people to look at."""
    return image.convert("L").resize((image.width * factor, image.height * factor),
                                     Image.Resampling.NEAREST)
