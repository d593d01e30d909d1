"""Every screen the box draws, compared pixel by pixel with a reference PNG, and
the layout rule that no text is clipped or drawn over anything else.

The screens come from driving a box (buttons on mock pins) through a small
fixed game (uifake), and are captured from luma's dummy device.

Regenerate the references after an intended change of the screens with

    COMPANION_REGEN_SCREENS=1 .venv/bin/pytest tests/ui/test_screens.py

which also rewrites the pictures of docs/referee-guide.md (docs/images, 3x);
then look at them (any image viewer) and commit them with the change.
"""

from __future__ import annotations

import os
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops
from uifake import MORALE, SCENARIO_TOML, SMALL_TRAY, use_fake_rules
from uirig import Rig

from companion.box import Box, DeviceBack, DeviceFault, DiceSeen, NewGames, SeenDie, TagSeen
from companion.ports.display import SimDisplay
from companion.rules.core import AwaitRoll, DiceGroup, DieKind, Odds, RollRequest
from companion.session.keeper import GameKeeper
from companion.session.scenario_files import scenario_choices
from companion.ui import screens
from companion.ui.screens import (
    DRAWABLE,
    FOOTER,
    HEIGHT,
    KINDS,
    TITLE,
    WIDTH,
    Screen,
    bbox,
    fit,
    layout,
    render,
    wrap,
)

REFERENCE = Path(__file__).parent / "reference"
GUIDE_IMAGES = Path(__file__).parents[2] / "docs" / "images"
UNDOCUMENTED = ("long-text", "footer-two-lines")
REGENERATE = os.environ.get("COMPANION_REGEN_SCREENS") == "1"


def drive(rig: Rig) -> dict[str, Screen]:
    """Play the fixed game through the box and keep the screens worth a reference."""
    shots: dict[str, Screen] = {}

    def shot(name: str) -> None:
        assert name not in shots
        shots[name] = rig.screen

    shot("idle")
    rig.chip("Red 1")
    shot("chip")
    rig.press("select")
    shot("action-menu")
    rig.press("select")  # Fire
    shot("roll-throw-1-of-2")
    rig.dice(("d6", 6), ("d6", 5), ("d6", 1))
    shot("reading")
    rig.box.handle(DiceSeen((SeenDie("d6", 2, (40, 200, 30, 30)),),
                            (((300, 220, 30, 30), "cocked"),)))
    shot("error-reroll")
    rig.press("select")
    rig.box.handle(DiceSeen((), (((40, 200, 30, 30), "stacked"), ((80, 200, 30, 30), "stacked"))))
    shot("error-reroll-offers-entry")
    rig.press("back")
    shot("reading-entry-offered")
    rig.dice(("d6", 2), ("d6", 3))
    shot("result")
    rig.press("down")
    shot("result-scrolled")
    rig.press("select")
    shot("check-resolve")
    rig.chip("Blue 1")
    shot("warning-chip-not-wanted")
    rig.press("select")
    rig.dice(("d6", 6), ("d6", 5))
    shot("result-resolve-failed")
    rig.press("select")
    rig.chip("Red 1")
    shot("warning-already-drawn")
    rig.press("select")
    rig.box.handle(TagSeen("04A1B2C3D4E5F6", None))
    shot("error-unknown-chip")
    rig.press("select")
    rig.chip("Blue 1")
    rig.press("select")
    rig.press("down")
    rig.press("down")
    shot("action-menu-long-label")
    rig.press("up")
    rig.press("select")  # Hold: the bag is empty, the turn ends
    shot("check-end-of-turn")
    rig.press("select")
    shot("roll-secret")
    rig.dice(("d6", 4))
    shot("secret-recorded")
    rig.menu_to("Correct dice")
    shot("warning-secret-not-corrected")
    rig.press("select")
    rig.menu_to("Reveal secret")
    shot("secret-reveal-asks")
    rig.press("up")
    shot("secret-revealed")
    rig.press("select")
    rig.box.handle(DeviceFault("chip reader", "usb-hid reader: read failed"))
    shot("error-chip-reader-lost")
    rig.press("select")
    shot("idle-reader-down")
    rig.box.handle(DeviceBack("chip reader"))
    shot("warning-device-back")
    rig.press("select")
    rig.press("select", long=True)
    shot("box-menu")
    rig.press("back")
    rig.menu_to("Pick chip")
    shot("pick-chip")
    rig.press("select")  # Red 1, picked by hand
    rig.press("select")
    rig.press("down")
    rig.press("select")  # Hold
    rig.chip("Blue 1")
    rig.press("select")
    rig.press("down")
    rig.press("select")  # Hold: end of turn 2
    rig.press("select")
    shot("check-morale-percentile")
    rig.box.handle(DeviceFault("camera", "camera stopped delivering frames"))
    shot("error-camera-lost")
    rig.press("select")
    shot("roll-camera-down")
    rig.press("select")  # Enter dice, as the footer offers
    for _ in range(7):
        rig.press("up")
    shot("entry")
    rig.press("select")
    for _ in range(3):
        rig.press("up")
    shot("entry-last-die")
    rig.press("select")
    shot("result-percentile")
    rig.menu_to("Correct dice")
    shot("entry-correction")
    rig.press("select")
    rig.press("select")
    rig.press("select")
    shot("summary")
    rig.menu_to("Game status")
    shot("status")
    rig.press("select")
    rig.scenarios.mkdir()
    (rig.scenarios / "broken.toml").write_text('system = "tenir_le_fort"\ntitle = \n')
    rig.press("select")  # on the summary: the list of games
    shot("new-game-list")
    for _ in range(len(rig.screen.items) - 1):
        rig.press("down")
    rig.press("select")  # broken.toml
    shot("error-scenario-refused")
    rig.press("select")
    for _ in range(len(rig.screen.items) - 2):
        rig.press("up")
    rig.press("select")  # Tenir le Fort
    shot("new-game-confirm")
    rig.press("up")
    shot("new-game-started")
    return shots


def drive_no_game(tmp: Path) -> dict[str, Screen]:
    """A box started with no game: its list of games."""
    keeper = GameKeeper.open(tmp / "no-game" / "journal.sqlite3")
    shown: list[Screen] = []
    box = Box(keeper.session, show=shown.append, play=lambda name: None,
              games=NewGames(lambda: scenario_choices(tmp / "no-game" / "scenarios"),
                             lambda toml, name: keeper.start(toml, name)[0]))
    box.start()
    keeper.close()
    return {"start-a-game": shown[-1]}


def drive_small_tray(rig: Rig) -> dict[str, Screen]:
    rig.chip("Red 1")
    rig.press("select")
    rig.press("select")  # Fire
    rig.dice(("d6", 6), ("d6", 5))
    return {"reading-throw-2-of-3": rig.screen}


# Rolls whose headline picks one outcome among several: who activates (names from
# the label's legend and the dice groups), which target (names from the rules).
TOSS = AwaitRoll(
    RollRequest("Activation toss: a d10 each, high total activates a unit", (
        DiceGroup(DieKind.D10, 1, "Legion", "high total activates"),
        DiceGroup(DieKind.D10, 1, "Arabs", "high total activates"))),
    Odds("side activating (0 = tie)", {1: Fraction(46, 100), 2: Fraction(46, 100),
                                       0: Fraction(8, 100)}))
TARGETS = {1: "N catapult", 2: "N camp", 3: "E siege tower", 4: "E camp", 5: "S ram",
           6: "S catapult"}
GUN = AwaitRoll(
    RollRequest("Left mangonel fires: the d6 picks its target", (DiceGroup(
        DieKind.D6, 1, "target", ", ".join(f"{n} {name}" for n, name in TARGETS.items())),)),
    Odds("target number", {n: Fraction(1, 6) for n in TARGETS}, names=TARGETS))


def roll_screens(rig: Rig) -> dict[str, Screen]:
    return {"roll-odds-by-name": rig.box.step_screen(TOSS),
            "roll-odds-each": rig.box.step_screen(GUN)}


def play_both(tmp: Path) -> tuple[dict[str, Screen], list[Screen]]:
    """The fixed game, then a fire roll into a small tray; the shots and every screen."""
    monkeypatch = pytest.MonkeyPatch()
    try:
        use_fake_rules(monkeypatch)
        rig = Rig(tmp, SCENARIO_TOML)
        found = drive(rig)
        rig.close()
        small = Rig(tmp, SCENARIO_TOML, most_per_throw=SMALL_TRAY)
        rolls = roll_screens(small)
        found |= drive_small_tray(small)
        small.close()
        empty = drive_no_game(tmp)
    finally:
        monkeypatch.undo()
    return found | rolls | empty, [*rig.screens, *small.screens, *rolls.values(),
                                   *empty.values()]


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Image.Image]:
    found, _ = play_both(tmp_path_factory.mktemp("screens"))
    found["footer-two-lines"] = Screen(
        "menu", "Legion Running", items=("Attacker", "Defender", "Neither"),
        footer="v Tribesmen Prone in the rough: edge?",
    )
    found["long-text"] = Screen(
        "result", "A title far too long for the title bar of the box",
        big="12345 casualties and more",
        lines=("Averyveryverylongwordwithoutanyspacesatall and then some more words "
               "than three lines can hold, to be cut with an ellipsis",),
        footer="Next: a footer that is too long to fit as well",
    )
    out: dict[str, Image.Image] = {}
    for name, screen in found.items():
        display = SimDisplay()  # luma's dummy device: the frame as the OLED gets it
        display.show(render(screen), screen.kind)
        out[name] = display.last.convert("1")
    return out


NAMES = (
    "idle", "chip", "action-menu", "roll-throw-1-of-2", "reading", "reading-throw-2-of-3",
    "roll-odds-by-name", "roll-odds-each", "error-reroll",
    "error-reroll-offers-entry", "reading-entry-offered", "result", "result-scrolled",
    "check-resolve", "warning-chip-not-wanted", "result-resolve-failed",
    "warning-already-drawn", "error-unknown-chip", "action-menu-long-label",
    "check-end-of-turn", "roll-secret", "secret-recorded", "secret-reveal-asks",
    "secret-revealed",
    "error-chip-reader-lost", "idle-reader-down", "warning-device-back", "box-menu",
    "pick-chip", "check-morale-percentile", "error-camera-lost", "roll-camera-down", "entry",
    "entry-last-die", "result-percentile", "entry-correction", "summary", "status",
    "warning-secret-not-corrected", "new-game-list", "error-scenario-refused",
    "new-game-confirm", "new-game-started", "start-a-game",
    "footer-two-lines", "long-text",
)


def test_the_box_s_own_screens_keep_every_word(shots: dict[str, Image.Image]) -> None:
    """Nothing the box says is lost to an ellipsis (only the made-up long text is)."""
    del shots  # the same games again, keeping the Screen objects
    _, every = play_both(Path(tempfile.mkdtemp()))
    assert {c for screen in every for c in layout(screen).cut} == set()


def test_the_script_shows_every_kind_of_screen(shots: dict[str, Image.Image]) -> None:
    assert set(shots) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_screen_matches_reference(name: str, shots: dict[str, Image.Image],
                                  tmp_path: Path) -> None:
    actual = shots[name]
    path = REFERENCE / f"{name}.png"
    if REGENERATE:
        REFERENCE.mkdir(parents=True, exist_ok=True)
        actual.save(path)
        if name not in UNDOCUMENTED:  # the referee's guide shows the same frames
            screens.enlarge(actual, 3).save(GUIDE_IMAGES / f"screen-{name}.png")
        return
    assert path.exists(), (f"no reference {path}; make it with COMPANION_REGEN_SCREENS=1 "
                           "and look at it before committing")
    expected = Image.open(path).convert("1")
    assert expected.size == actual.size == (WIDTH, HEIGHT)
    diff = ImageChops.logical_xor(expected, actual)
    differing = diff.convert("L").histogram()[255]
    if differing:
        actual.save(tmp_path / f"{name}-actual.png")
        diff.save(tmp_path / f"{name}-diff.png")
        screens.enlarge(actual).save(tmp_path / f"{name}-actual-x4.png")
        pytest.fail(f"{name}: {differing} pixels differ from {path}; see "
                    f"{tmp_path / f'{name}-actual.png'} and {tmp_path / f'{name}-diff.png'} "
                    "(regenerate with COMPANION_REGEN_SCREENS=1 if the change is intended)")


def test_secret_result_is_not_on_the_secret_screens(shots: dict[str, Image.Image]) -> None:
    # Die 4 gave day 3; neither number may show before the reveal.
    for name in ("roll-secret", "secret-recorded", "secret-reveal-asks"):
        assert shots[name] != shots["secret-revealed"]


# ------------------------------------------------------------- layout rule

TEXT = st.text(alphabet=st.sampled_from(DRAWABLE + "—’×\u2033\u2192\u00bd\u4e2d"), max_size=120)


def check_layout(screen: Screen) -> None:
    """Every text inside its slot, slots inside their region and the frame, no two
    slots overlapping, and the scroll marks clear of the text; so nothing is
    clipped or drawn over anything."""
    plan = layout(screen)
    slots = []
    for text in plan.texts:
        left, top, right, bottom = text.slot
        assert 0 <= left < right <= WIDTH and 0 <= top < bottom <= HEIGHT, text
        if text.text:
            ink = bbox(text.text, text.size, text.x, text.y)
            assert left <= ink[0] and ink[2] <= right, (text, ink)
            assert top <= ink[1] and ink[3] <= bottom, (text, ink)
        in_title = TITLE[0] <= top and bottom <= TITLE[1]
        in_body = plan.body[0] <= top and bottom <= (plan.body[1] if screen.footer else HEIGHT - 1)
        in_footer = plan.footer[0] <= top and bottom <= plan.footer[1]
        assert in_title or in_body or in_footer, text
        slots.append(text.slot)
    for _, x, y in plan.arrows:
        slots.append((x, y, x + 5, y + 3))
    for i, a in enumerate(slots):
        for b in slots[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert plan.body[1] <= plan.footer[0] and FOOTER[1] == HEIGHT


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(KINDS), title=TEXT, big=TEXT, lines=st.lists(TEXT, max_size=5),
    items=st.lists(TEXT, max_size=12), cursor=st.integers(0, 15), footer=TEXT,
    scroll=st.integers(0, 5),
)
def test_nothing_is_clipped_or_overlaps(kind: str, title: str, big: str, lines: list[str],
                                        items: list[str], cursor: int, footer: str,
                                        scroll: int) -> None:
    if kind == "entry":
        items = [item[:2] for item in items]
    screen = Screen(kind, title, big, tuple(lines), tuple(items), cursor, footer, scroll)
    check_layout(screen)
    render(screen)


@settings(max_examples=200, deadline=None)
@given(text=TEXT, size=st.sampled_from((10, 11, 14, 18)), width=st.integers(8, 124),
       rows=st.integers(1, 4))
def test_fit_and_wrap_fit(text: str, size: int, width: int, rows: int) -> None:
    def ink_span(line: str) -> int:  # a glyph may start left of the origin ("/")
        left, _, right, _ = bbox(line, size)
        return right - min(left, 0)

    short = fit(text, size, width)
    assert not short or ink_span(short) <= width
    lines = wrap(text, size, width, rows)
    assert len(lines) <= rows
    for line in lines:
        assert ink_span(line) <= width


def test_a_line_starting_with_a_slash_is_kept() -> None:
    # "/" reaches a pixel left of the origin; such lines (file paths) used to vanish
    text = "/var/lib/companion/chips.toml is broken"
    assert "".join(wrap(text, 10, 124, 5)).replace(" ", "") == text.replace(" ", "")
    assert fit("/var/lib", 10, 124) == "/var/lib"
    screen = Screen("error", "Chip registry broken", "", (text,), (), 0, "any button", 0)
    check_layout(screen)  # the slash's stray pixel stays inside the body
    render(screen)


def test_wrap_keeps_every_word_that_fits() -> None:
    text = "Who goes first: each side rolls a d6, high goes first"
    lines = wrap(text, 10, 124, 5)
    assert " ".join(lines) == text
    assert wrap(text, 10, 124, 2)[-1].endswith("…")


def test_frames_are_one_bit_128_by_64(shots: dict[str, Image.Image]) -> None:
    for image in shots.values():
        assert image.mode == "1" and image.size == (WIDTH, HEIGHT)


def test_entry_keeps_the_current_die_in_view() -> None:
    many = tuple(str(i % 6 + 1) for i in range(14))
    for cursor in range(14):
        plan = layout(Screen("entry", "Enter", items=many, cursor=cursor))
        assert [t for t in plan.texts if t.inverted and t.text == many[cursor]]
    assert MORALE.kinds  # the percentile entry is in the references


@pytest.mark.parametrize("inverted", [False, True])
def test_small_digits_are_drawn_from_the_clear_bitmaps(inverted: bool) -> None:
    """Drawn one-bit at 10-11 px the font's 6 and 9 read as 8, and "0," as "Q"."""
    screen = (Screen("menu", "Pick", items=("Dice 6 9 0, 8",), cursor=0) if inverted
              else Screen("result", "Pick", lines=("Dice 6 9 0, 8",)))
    [text] = [t for t in layout(screen).texts if t.text.startswith("Dice")]
    image = render(screen)
    ink = 0 if inverted else 1
    digit_top = text.y + bbox("0", text.size)[1]
    drawn = screens._SCRATCH
    face = screens.font(text.size)
    for index, char in enumerate(text.text):
        if not char.isdigit():
            continue
        x = round(text.x + drawn.textlength(text.text[: index + 1], font=face)
                  - drawn.textlength(char, font=face))
        seen = tuple("".join("#" if image.getpixel((x + 1 + column, digit_top + row)) == ink
                             else "." for column in range(5)) for row in range(8))
        assert seen == screens._DIGIT_ROWS[char], (char, seen)
    # the comma after the 0 is still there, one column clear of it
    comma = text.text.index(",")
    cx = round(text.x + drawn.textlength(text.text[:comma], font=face))
    assert any(image.getpixel((cx + dx, digit_top + dy)) == ink
               for dx in range(0, 3) for dy in range(6, 11))
    check_layout(screen)


def test_scroll_marks_go_at_the_footers_end_when_its_words_leave_room() -> None:
    """On Fighting Swashbucklers' command roll "avg 4.0 command points" wrapped only
    because the body kept a column for the marks."""
    lines = ("avg 4.0 command points", "Commanding officer's band: 2d6", "more", "and more")
    short = layout(Screen("roll", "Capt Lemaire", big="Roll 1d% + 1d10", lines=lines,
                          footer="hold SEL: menu"))
    assert any(t.text == "avg 4.0 command points" for t in short.texts)  # one line
    [(direction, _x, y)] = short.arrows
    assert direction == "down" and y >= short.footer[0]  # in the footer's row
    check_layout(Screen("roll", "Capt Lemaire", big="Roll 1d% + 1d10", lines=lines,
                        footer="hold SEL: menu", scroll=1))
    long_footer = layout(Screen("roll", "Capt Lemaire", big="Roll 1d% + 1d10", lines=lines,
                                footer="Next: resolve check 2d6"))
    assert all(y < long_footer.footer[0] for _, _, y in long_footer.arrows)  # in the body
