"""The box: turns raw inputs (buttons, chip reads, settled dice, faults) into
journaled session events, and session results into screens and tunes.

Everything arrives on one queue and is handled on one thread, so hardware
callbacks never touch game or UI state. Menu position, half-entered dice and
the screens waiting to be read are UI state and are not journaled; anything
that changes the game is, before it is shown or sounded.

The screens, in the order a referee meets them (docs/referee-guide.md):

- idle: draw a chip (chips in the bag, devices that are down)
- chip: the chip just drawn: unit, side, its state
- menu: the rules' choices (an action for the unit) or the box's own menu
- roll / check: dice to roll, why, headline odds; a check is an end-of-turn
  or end-of-attack roll (resolve, ammunition, morale, rally)
- reading: a throw read, waiting for the next throw of the same request
- result: the outcome (hits, pins, jams, casualties) and the next step
- check (end of turn): the turn's end and where the game stands
- secret: a roll recorded without showing it; the menu's "Reveal secret" asks
  before it shows the dice (UP reveals)
- entry: dice entered or corrected by hand
- status, summary, error, warning
- games: the list of games to start (the menu's "New game", SELECT on the summary, or
  a box started with no game); picking one asks before the game so far is archived
  (UP starts the new one), and the new game's first screen says what was started
"""

from __future__ import annotations

import logging
import queue
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from companion.config import DEFAULTS
from companion.errors import CompanionError
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    DiceGroup,
    DieKind,
    GameOver,
    Outcome,
    Rolled,
    RollRequest,
    RulesError,
    Step,
    Transition,
)
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    Event,
    SecretRevealed,
    ThrowAccepted,
    Undone,
)
from companion.session.keeper import NewGameRefused
from companion.session.scenario_files import Picked, ScenarioChoice, system_labels
from companion.session.session import GameSession, Played, SecretRoll
from companion.ui.screens import Screen, body_rows, fits_item, fits_line, layout
from companion.ui.tunes import pick_tunes, tunes_for
from companion.ui.wording import (
    action_named,
    capital,
    category_name,
    check_title,
    counted,
    dice_text,
    faces,
    first_fitting,
    headline,
    named_outcomes,
    next_hint,
    odds_line,
    ordinal,
    pretty,
    rest_of,
    short_headline,
    singular,
    spaced,
    subject,
    topic,
    unbracketed,
    where_on_tray,
    without_dice,
    yes_no,
)

log = logging.getLogger(__name__)


# ------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class ButtonPressed:
    button: str  # up, down, select, back
    long: bool = False


@dataclass(frozen=True)
class TagSeen:
    uid: str
    chip: str | None  # the registry's name for it, None if unknown


@dataclass(frozen=True)
class SeenDie:
    kind: str  # "d6" | "d10" | "percentile"
    value: int
    box: tuple[int, ...] = (0, 0, 0, 0)  # x, y, width, height in the frame


@dataclass(frozen=True)
class DiceSeen:
    dice: tuple[SeenDie, ...]
    unreadable: tuple[tuple[tuple[int, ...], str], ...] = ()
    # The dice of the throw read before moved, with too little movement for anyone to
    # have thrown (a die toppled over after it was read): not a new throw.
    nudged: bool = False


@dataclass(frozen=True)
class DeviceFault:
    device: str  # "camera", "display", "chip reader"
    message: str
    # When the device is fine but something it needs is not (a setting in the config,
    # the chip registry file), `title` names that on the screen instead of
    # "<Device> lost" (which sends the referee to the cables) and `text` says it
    # there in a few words; `message` is the whole story, for the log.
    title: str = ""
    text: str = ""


@dataclass(frozen=True)
class DeviceBack:
    device: str


BoxInput = ButtonPressed | TagSeen | DiceSeen | DeviceFault | DeviceBack

FALLBACKS = {
    "camera": "Enter the dice by hand: SEL on the roll screen.",
    "chip reader": "Pick chips by hand: SEL on the draw screen.",
    "display": "The box carries on without it.",
    "buzzer": "The box carries on silent.",
}


@dataclass(frozen=True)
class NewGames:
    """How the box starts a new game, given by the process that owns the journal: the
    games it offers (read when the list opens, so that a file copied in meanwhile is
    there), and `start(scenario_toml, scenario_name)`, which archives the game so far and
    returns the new session, or raises NewGameRefused having changed nothing."""

    choices: Callable[[], Sequence[ScenarioChoice]]
    start: Callable[[str, str], GameSession]


# After this many refused tries at one throw the box offers manual entry
# outright: a die that was refused twice is usually going to be refused again
# (a worn face, a glare), and the table should not wait on the camera.
REFUSALS_BEFORE_OFFER = 2

# ------------------------------------------------------------- UI state


@dataclass
class Entry:
    """Dice being entered by hand, one die at a time."""

    kinds: tuple[DieKind, ...]
    values: list[int]
    at: int = 0
    correction: bool = False
    labels: tuple[str, ...] = ()  # the group label of each die


@dataclass
class UiState:
    cursor: int = 0
    # normal | menu | entry | pick_chip | status | reveal | games (the list of games to
    # start) | confirm_new (asks before the game so far is archived)
    mode: str = "normal"
    menu: tuple[tuple[str, str], ...] = ()  # (key, label)
    message: Screen | None = None  # error or warning shown until a button is pressed
    offer: str | None = None  # what SELECT on the message does: "enter" opens dice entry
    results: list[Screen] = field(default_factory=list)  # outcomes waiting to be read
    entry: Entry | None = None
    # The dice of the throws read so far of a roll thrown in several, in the order thrown:
    # the journal's (`GameRecord.throws`), copied after each event for the screens.
    partial: list[int] = field(default_factory=list)
    faults: dict[str, str] = field(default_factory=dict)
    scroll: int = 0  # first body line shown of `scrolled`
    scrolled: Screen | None = None  # the page being scrolled; any other page starts at the top
    secret: int | None = None  # the secret roll the reveal screen asks about
    refused: int = 0  # tries refused at the throw waiting now
    # The journal's length and the dice read so far when they were counted: a new
    # step, or the next throw of a roll, starts the count again.
    refused_at: tuple[int, int] = (-1, -1)
    games: tuple[ScenarioChoice, ...] = ()  # the list of games to start, as shown
    picked: Picked | None = None  # the game the confirmation asks about

    @property
    def result(self) -> Screen | None:
        """The screen waiting to be read (dismissed by any button), if any."""
        return self.results[0] if self.results else None

    @result.setter
    def result(self, screen: Screen | None) -> None:
        self.results = [] if screen is None else [screen]


@dataclass(frozen=True)
class Part:
    """Some dice of one of a request's groups in one throw: `count` dice of group
    `group`, from its `start`-th die on."""

    group: int
    start: int
    count: int


Throw = tuple[Part, ...]


def per_throw(dice_settings: Mapping[str, Any]) -> dict[DieKind, int]:
    """The most dice of each kind the box asks for in one throw, from the config's
    [dice] section: more do not lie flat and apart in the tray (touching dice are
    refused). Percentile dice are d10s."""
    d6, d10 = int(dice_settings["d6_per_throw"]), int(dice_settings["d10_per_throw"])
    return {DieKind.D6: d6, DieKind.D10: d10, DieKind.PERCENTILE: d10}


PER_THROW = per_throw(DEFAULTS["dice"])


def throws(request: RollRequest, most: Mapping[DieKind, int] = PER_THROW) -> list[Throw]:
    """Split a request into throws the camera can tell apart and the tray can hold.

    Two groups of the same kind (the attacker's d6 and the defender's d6) cannot
    be told apart on the tray, so each becomes its own throw; groups of different
    kinds (tens and units of a percentile) are rolled together while the tray
    holds them (five d10 fill half a tray that holds ten). A group of more
    dice than one throw may hold is split into throws of nearly equal size.
    Groups of no dice are not thrown at all.
    """
    out: list[list[Part]] = []
    for index, group in enumerate(request.groups):
        if group.count == 0:
            continue
        pieces = -(-group.count // most[group.kind])
        start = 0
        for piece in range(pieces):
            count = group.count // pieces + (piece < group.count % pieces)
            part = Part(index, start, count)
            start += count
            for throw in out:
                kinds = [request.groups[p.group].kind for p in throw]
                full = sum(Fraction(p.count, most[k]) for p, k in zip(throw, kinds, strict=True))
                if group.kind not in kinds and full + Fraction(count, most[group.kind]) <= 1:
                    throw.append(part)
                    break
            else:
                out.append([part])
    return [tuple(throw) for throw in out]


def dice_order(request: RollRequest, plan: list[Throw]) -> list[int]:
    """Where each die of the throws, in the order they are thrown, goes among the
    dice the rules want (group order)."""
    starts = [sum(g.count for g in request.groups[:i]) for i in range(len(request.groups))]
    return [starts[p.group] + p.start + n for throw in plan for p in throw for n in range(p.count)]


def throw_groups(request: RollRequest, throw: Throw) -> list[DiceGroup]:
    """The dice of one throw, as groups (a split group with its share of the dice)."""
    return [replace(request.groups[p.group], count=p.count) for p in throw]


def dice_by_group(request: RollRequest, dice: tuple[int, ...]) -> list[tuple[str, str]]:
    """Each group's label and its dice as the rules write them ("6, 6, 3"), when
    the result screen shows the groups apart: of one kind and named apart, so
    that two sides' dice do not run together. Empty otherwise."""
    groups = [g for g in request.groups if g.count]
    labels = [g.label for g in groups]
    if len(groups) < 2 or len({g.kind for g in groups}) > 1 or len(set(labels)) < len(labels) \
            or any(not label for label in labels) or len(dice) != request.dice_count:
        return []
    out, at = [], 0
    for group in groups:
        out.append((group.label, faces((group.kind,) * group.count, dice[at : at + group.count])))
        at += group.count
    return out


def _without_group_dice(line: str, label: str, dice: str) -> str:
    """A group's detail without the dice its own line shows: "Arab rifles: 6, 6, 3
    -> 1 hit" under "Arab rifles 6 6 3" says "Arab rifles: 1 hit"."""
    found = re.match(rf"^(?P<label>{re.escape(label)}):?\s+{re.escape(dice)}\s*(?:->|:)\s*"
                     r"(?P<rest>.+)$", line, re.IGNORECASE)
    return f"{found['label']}: {found['rest']}" if found else line


def dice_lines(request: RollRequest, dice: tuple[int, ...]) -> list[str]:
    """The dice read, as the result screen shows them: "Attackers 5 1 5 1" and
    "Defenders 2 4 1 4" (`dice_by_group`), else "Dice 30 9"."""
    groups = dice_by_group(request, dice)
    if not groups:
        return [f"Dice {spaced(request.kinds, dice)}"]
    return [f"{capital(label)} {values.replace(', ', ' ')}" for label, values in groups]


def first_fitting_item(*labels: str) -> str:
    """The first label that shows whole as a menu item; the last one otherwise."""
    return next((label for label in labels if fits_item(label)), labels[-1])


def _outside_brackets_split(line: str) -> list[str]:
    """A description line cut at its "; " and ", ", but not inside brackets:
    "Maxim 3 (1 wounded) [jammed, hero]" is one part."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(line):
        depth += (char in "([") - (char in ")]")
        if depth == 0 and char in ";," and line[at + 1 : at + 2] == " ":
            parts.append(line[start:at])
            start = at + 2
    return [*parts, line[start:]]


class Box:
    """The box's UI over a game, or over the list of games to start when `session` is
    None (a box started with no game yet; `games` is then needed)."""

    def __init__(
        self,
        session: GameSession | None,
        *,
        show: Callable[[Screen], None],
        play: Callable[[str], None],
        say: Callable[[str], None] = lambda line: None,
        muted: bool = False,
        most_per_throw: Mapping[DieKind, int] = PER_THROW,
        games: NewGames | None = None,
    ) -> None:
        if session is None and games is None:
            raise ValueError("a box without a game needs games to start one")
        self._session = session
        self.games = games
        self.most_per_throw = most_per_throw
        self.show_screen = show
        self.play = play
        self.say = say
        self.muted = muted
        self.ui = UiState()
        self.inbox: queue.Queue[BoxInput] = queue.Queue()
        self.acknowledged: list[int] = []
        self._step_of: object = None
        self._step: Step | None = None
        if session is None:
            self._open_games()
        else:
            self._copy_throws()

    @property
    def session(self) -> GameSession:
        """The game refereed; only asked for while there is one (`has_game`)."""
        if self._session is None:
            raise RuntimeError("the box has no game yet")
        return self._session

    @property
    def has_game(self) -> bool:
        return self._session is not None

    # --------------------------------------------------------------- loop

    def post(self, item: BoxInput) -> None:
        """Thread-safe: hardware callbacks call this and nothing else."""
        self.inbox.put(item)

    def pump(self, timeout: float | None = 0.0) -> bool:
        """Handle every queued input; True if any was handled.

        With a timeout (seconds) wait that long for the first input; with 0 or
        None take only what is already queued.
        """
        handled = False
        while True:
            try:
                item = self.inbox.get(timeout=timeout) if timeout else self.inbox.get_nowait()
            except queue.Empty:
                return handled
            self.handle(item)
            handled = True
            timeout = 0.0

    @property
    def step(self) -> Step:
        """The step waiting now. Worked out once per game state: a step carries its
        exact odds, and the screens ask for it on every button press."""
        record = self.session.record
        if self._step_of is not record or self._step is None:
            self._step_of, self._step = record, self.session.step
        return self._step

    def start(self) -> None:
        self.refresh()

    def handle(self, item: BoxInput) -> None:
        try:
            if isinstance(item, ButtonPressed):
                self._button(item)
            elif isinstance(item, DeviceFault):
                self._fault(item)
            elif isinstance(item, DeviceBack):
                self._device_back(item)
            elif not self.has_game:
                self._before_any_game(item)
            elif isinstance(item, TagSeen):
                self._tag(item)
            else:
                self._dice(item)
        except RulesError as exc:
            self.warn("Not allowed", str(exc), str(exc))
        self.refresh()

    # ------------------------------------------------------------ inputs

    def _before_any_game(self, item: TagSeen | DiceSeen) -> None:
        """A chip read before a game is picked is said to be unwanted; dice thrown then
        are play, as between steps."""
        if isinstance(item, TagSeen):
            self.warn("Chip not wanted", "No game yet: pick one first.",
                      f"{item.chip or item.uid} read before any game was started: pick a "
                      "game on the list first.")

    def _tag(self, tag: TagSeen) -> None:
        step = self.step
        if tag.chip is None and isinstance(step, AwaitChip):
            self.error(
                "Unknown chip",
                f"Tag {tag.uid} is not enrolled. Pick the unit by hand.",
                f"Tag {tag.uid} is not enrolled. Enrol it with 'companion chips enroll' "
                "or pick the unit by hand (SELECT on the draw screen).",
            )
            return
        if tag.chip is None:  # no unit to pick now: a roll or a choice waits
            self.error(
                "Unknown chip",
                f"Tag {tag.uid} is not enrolled. No chip is wanted now: ignored.",
                f"Tag {tag.uid} is not enrolled (enrol it with 'companion chips enroll'); "
                "the box waits for something else, not a chip, so it changes nothing.",
            )
            return
        if not isinstance(step, AwaitChip):
            self.warn("Chip not wanted", f"{tag.chip}: finish this step first.",
                      f"{tag.chip} read while the box waits for something else; "
                      "finish the current step first.")
            return
        if tag.chip not in step.in_bag:
            self._chip_not_in_bag(tag.chip, step)
            return
        self.submit(ChipAccepted(tag.chip, tag.uid))

    def _chip_not_in_bag(self, chip: str, step: AwaitChip) -> None:
        """Say why a chip read is not in the bag: drawn already this turn, the chip of a
        unit out of play (lost, or not on the table yet), or no unit's chip at all."""
        scenario = self.session.record.scenario
        units = [unit.name for unit in scenario.units if unit.chip == chip]
        if not units:
            self.warn("Not in this game", f"No unit here has chip {chip}. Put it aside.",
                      f"chip {chip} belongs to no unit in {scenario.title}: put it aside and "
                      "draw again, and check the chip registry ('companion chips list'; "
                      "enrol with 'companion chips enroll --names-from SCENARIO').")
            return
        unit = " / ".join(units)
        when = self._last_in_bag(chip, step)
        if when == "this turn":
            self.warn("Already drawn", f"{chip} was drawn this turn. Draw again.",
                      f"{chip} was already drawn this turn. Put it aside and draw again.")
        elif when == "earlier":
            self.warn("Out of play", f"{unit} is out of play. Put {chip} aside.",
                      f"{chip} is the chip of {unit}, which is out of play (lost, or off the "
                      "table for now): put the chip aside and draw again.")
        else:
            self.warn("Not in play", f"{unit} is not in play yet. Put {chip} aside.",
                      f"{chip} is the chip of {unit}, which has not been in play yet: put "
                      "the chip aside and draw again.")

    def _last_in_bag(self, chip: str, step: AwaitChip) -> str:
        """When `chip` (not in the bag now) was last in it: drawn "this turn", in the bag
        "earlier" (its unit is out of play now), or "never". Worked out from the draws,
        latest first: a draw whose bag lacks a chip of the next draw's bag, or whose chip
        is back in the next one, was before a refill (an earlier turn)."""
        ruleset = self.session.ruleset
        later = set(step.in_bag)
        this_turn = True
        for played in reversed(self.session.record.played):
            if not isinstance(played.given, ChipDrawn):
                continue
            before = ruleset.next_step(played.before)
            bag = set(before.in_bag) if isinstance(before, AwaitChip) else set()
            drawn = played.given.chip
            if drawn in later or not later <= bag:
                this_turn = False
            if drawn == chip:
                return "this turn" if this_turn else "earlier"
            if chip in bag:
                return "earlier"  # taken out of the bag without being drawn
            later = bag
        return "never"

    def _dice(self, seen: DiceSeen) -> None:
        step = self.step
        if not isinstance(step, AwaitRoll) or self.ui.mode == "entry":
            return  # dice rolled for fun between steps, or while typing them in
        request = step.request
        if seen.nudged and self.ui.refused_at != self._throw_now():
            # Dice of the throw already taken moved (a die toppled over): nobody threw,
            # so it is neither this roll nor the next throw of a split one. A refused
            # throw is the exception: its cocked die falling flat completes it.
            self.warn("Dice moved", "A die moved after it was read. Roll when asked.",
                      "a die moved after the last throw was read; not taken as a new throw. "
                      "If the move counts, correct the roll (menu: Correct dice).")
            return
        if seen.unreadable:
            self._refuse_unreadable(seen)
            return
        plan = self.plan(request)
        if not plan:
            self.submit(DiceAccepted((), "camera"))
            return
        done = self.throws_done(request)
        wanted = throw_groups(request, plan[done])
        values: list[int] = []
        for group in wanted:
            matching = [d for d in seen.dice if d.kind == group.kind.value]
            if len(matching) != group.count:
                self._refuse_wrong(seen, wanted, secret=request.secret)
                return
            values.extend(d.value for d in sorted(matching, key=lambda d: (d.box[0], d.box[1])))
        asked = {group.kind.value for group in wanted}
        stray = sorted(d.kind for d in seen.dice if d.kind not in asked)
        if stray:  # a die of another game left in the tray: read around it, but say so
            self.say(f"  ignored {', '.join(f'{stray.count(k)} {k}' for k in sorted(set(stray)))}"
                     " in the tray, not asked for")
        if self._refuse_impossible_face(wanted, values, secret=request.secret):
            return
        collected = self.ui.partial + values
        if len(collected) < request.dice_count:
            self._journal(ThrowAccepted(tuple(values)))
            self.say(f"  read {self._throw_said(request, done, values)}")
            self.play_tune("dice")
            return
        self.submit(DiceAccepted(tuple(self._in_rules_order(request, collected)), "camera"))

    def _throw_said(self, request: RollRequest, at: int, dice: Sequence[int]) -> str:
        """One throw of a roll thrown in several, for the play-by-play: its dice (hidden
        on a secret roll), whose they are and which throw: "3 for Legion (throw 1 of 2)"."""
        plan = self.plan(request)
        shown = "hidden" if request.secret else " ".join(map(str, dice))
        labels = ", ".join(g.label for g in throw_groups(request, plan[at]))
        return f"{shown} for {labels} (throw {at + 1} of {len(plan)})"

    def _refuse_impossible_face(self, wanted: list[DiceGroup], values: list[int], *,
                                secret: bool) -> bool:
        """Refuse a throw read with a face its die does not have (a d10 read as 10),
        naming the die by its place in this throw, not in the whole roll: the throws
        read before it stand. True if refused."""
        at = 0
        for group in wanted:
            for number, value in enumerate(values[at : at + group.count], start=1):
                if value in group.kind.faces:
                    continue
                kind = group.kind
                reads = (f"a {kind.value} reads {kind.describe_face(kind.faces[0])}-"
                         f"{kind.describe_face(kind.faces[-1])}")
                die = f"{group.label} die {number}" if group.count > 1 else f"the {group.label} die"
                # a secret roll's faces stay off the screen and the log, even a wrong one
                read = "misread" if secret else f"read {value}"
                self._refuse("Wrong face", f"{capital(die)} {read}; {reads}.",
                             f"{capital(die)} of this throw {read}; {reads}.")
                return True
            at += group.count
        return False

    def _refuse_unreadable(self, seen: DiceSeen) -> None:
        everyone = [d.box for d in seen.dice] + [box for box, _ in seen.unreadable]
        count = len(seen.unreadable)
        places = [(where_on_tray(box, everyone), reason) for box, reason in seen.unreadable]
        if count == 1 and places[0][0]:
            short = f"Cannot read {places[0][0]} ({places[0][1]})."
        else:
            reasons = ", ".join(sorted({reason for _, reason in places}))
            short = f"Cannot read {counted(count, 'die', 'dice')} ({reasons})."
        if len(everyone) == 1:
            story = f"Cannot read the die: {places[0][1]}."
        else:
            story = f"Cannot read {count} of {len(everyone)} dice: " + "; ".join(
                f"{where or 'one'}: {reason}" for where, reason in places) + "."
        self._refuse("Reroll", short, story)

    def _refuse_wrong(self, seen: DiceSeen, wanted: list[DiceGroup], *, secret: bool) -> None:
        need = dice_text(wanted)
        kinds = sorted({d.kind for d in seen.dice})
        saw = (f"{len(seen.dice)} {'/'.join(kinds)}" if seen.dice else "no dice")
        # the faces of a secret roll stay off the log even when the throw is refused
        faces = "" if secret else (
            f" ({', '.join(f'{d.kind}:{d.value}' for d in seen.dice) or 'none'})")
        self._refuse("Wrong dice", f"Saw {saw}, need {need}.",
                     f"Saw {counted(len(seen.dice), 'die', 'dice')}{faces}, need "
                     f"{', '.join(f'{g.count}{g.kind.value} {g.label}' for g in wanted)}.")

    def _refuse(self, title: str, text: str, detail: str) -> None:
        """A throw the box cannot use. Roll again; after a few refusals of the same
        throw the screen offers entering the dice by hand (SELECT)."""
        ui = self.ui
        ui.refused = ui.refused + 1 if ui.refused_at == self._throw_now() else 1
        ui.refused_at = self._throw_now()
        if ui.refused < REFUSALS_BEFORE_OFFER:
            self.error(title, f"{text} Roll again.", f"{detail} Roll again or enter by hand.")
            return
        self.error(f"{title} ({ordinal(ui.refused)} time)", f"{text} Roll again or enter.",
                   f"{detail} Refused {ui.refused} times: roll again or enter by hand.",
                   footer="SEL: enter by hand")
        ui.offer = "enter"

    def plan(self, request: RollRequest) -> list[Throw]:
        """The throws the box asks for to answer a request."""
        return throws(request, self.most_per_throw)

    def throws_done(self, request: RollRequest) -> int:
        """How many of the request's throws the camera has read so far."""
        taken = len(self.ui.partial)
        done = 0
        for throw in self.plan(request):
            size = sum(p.count for p in throw)
            if taken < size:
                break
            taken -= size
            done += 1
        return done

    def _in_rules_order(self, request: RollRequest, collected: list[int]) -> list[int]:
        """Dice come throw by throw; the rules want them in group order. Dice not
        read yet (dice entry halfway through a roll) stand at their lowest face."""
        values = [k.faces[0] for k in request.kinds]
        for value, at in zip(collected, dice_order(request, self.plan(request)), strict=False):
            values[at] = value
        return values

    def _fault(self, fault: DeviceFault) -> None:
        if fault.device in self.ui.faults:
            return  # reported once; the device is retried in the background
        self.ui.faults[fault.device] = fault.message
        fallback = FALLBACKS.get(fault.device, "The box carries on without it.")
        if fault.title:
            self.error(fault.title, f"{fault.text or fault.message} {fallback}",
                       f"{fault.message}. {fallback}")
            return
        self.error(f"{capital(fault.device)} lost", fallback,
                   f"{fault.device} failed: {fault.message}. {fallback}")

    def _device_back(self, back: DeviceBack) -> None:
        if self.ui.faults.pop(back.device, None) is not None:
            self.say(f"  {back.device} is back")
            self.ui.message = Screen("warning", f"{capital(back.device)} back",
                                     lines=("Working again.",), footer="any button")
            self.ui.offer = None

    # ------------------------------------------------------------ buttons

    def _button(self, press: ButtonPressed) -> None:
        ui = self.ui
        if press.button in ("up", "down") and not press.long and self._scroll(press):
            return
        if ui.message is not None:
            offer, ui.message, ui.offer = ui.offer, None, None
            if offer == "enter" and press.button == "select":
                step = self.step
                if isinstance(step, AwaitRoll):
                    self._start_entry(step.request, False)
            return
        if ui.mode == "normal" and ui.result is not None:
            self._result_button(press)
            return
        if press.long and press.button == "select" and ui.mode == "normal":
            self._open_menu()
            return
        if ui.mode == "menu":
            self._menu_button(press)
        elif ui.mode == "reveal":
            self._reveal_button(press)
        elif ui.mode == "entry":
            self._entry_button(press)
        elif ui.mode == "pick_chip":
            self._pick_button(press)
        elif ui.mode == "status":
            ui.mode = "normal"
        elif ui.mode == "games":
            self._games_button(press)
        elif ui.mode == "confirm_new":
            self._confirm_new_button(press)
        else:
            self._normal_button(press)

    def _scroll(self, press: ButtonPressed) -> bool:
        """UP/DOWN scroll a page whose body does not fit (a long result, the status,
        the summary); True if this page scrolls, so the press does nothing else."""
        ui = self.ui
        if ui.mode not in ("normal", "status") and ui.message is None:
            return False
        page = self._page()
        if page.items or page.kind == "entry":
            return False
        most = layout(page).scroll_max
        if not most:
            return False
        at = ui.scroll if ui.scrolled == page else 0
        ui.scrolled = page
        ui.scroll = min(most, max(0, at + (1 if press.button == "down" else -1)))
        return True

    def _result_button(self, press: ButtonPressed) -> None:
        """Any button dismisses a result; holding SELECT opens the menu, as everywhere
        (a secret roll's screen too: revealing it is the menu's, and asks first)."""
        ui = self.ui
        if press.long and press.button == "select":
            ui.results.clear()
            self._open_menu()
            return
        ui.results.pop(0)

    def _normal_button(self, press: ButtonPressed) -> None:
        step = self.step
        if isinstance(step, AwaitChoice):
            count = len(step.options)
            if press.button == "up":
                self.ui.cursor = (self.ui.cursor - 1) % count
            elif press.button == "down":
                self.ui.cursor = (self.ui.cursor + 1) % count
            elif press.button == "select":
                key = step.options[min(self.ui.cursor, count - 1)].key
                self.submit(ChoiceMade(key))
        elif isinstance(step, AwaitRoll) and press.button == "select" and self.entry_offered():
            self._start_entry(step.request, False)
        elif isinstance(step, AwaitChip) and press.button == "select" and step.in_bag:
            self.ui.mode, self.ui.cursor = "pick_chip", 0
        elif isinstance(step, GameOver) and press.button == "select" and self.games is not None:
            self._open_games()  # the game is over: the next thing to do is a new one

    def entry_offered(self) -> bool:
        """SELECT on the roll screen enters the dice by hand when the camera is down
        or has refused this throw more than once (an accidental press otherwise
        would leave the box deaf to the camera)."""
        ui = self.ui
        return "camera" in ui.faults or (ui.refused >= REFUSALS_BEFORE_OFFER
                                         and ui.refused_at == self._throw_now())

    def _throw_now(self) -> tuple[int, int]:
        """Which throw the box waits for: the journal's length and the dice read so far."""
        return self.session.record.events, len(self.ui.partial)

    def _hidden_secret(self) -> SecretRoll | None:
        """The secret roll the reveal screen asks about, while it is still hidden."""
        return next((s for s in self.session.record.secrets
                     if s.index == self.ui.secret and not s.revealed), None)

    def _reveal_button(self, press: ButtonPressed) -> None:
        """UP shows the secret roll; any other button keeps it hidden. A secret shown
        cannot be hidden again, so the button that shows it is one that no habit of
        the menu ends on (SELECT to choose, hold SELECT for the menu, BACK)."""
        self.ui.mode = "normal"
        if press.button == "up":
            self._reveal()
        self.ui.secret = None

    def _reveal(self) -> None:
        secret = self._hidden_secret()
        if secret is None:
            return
        self._journal(SecretRevealed(secret.index))
        self.say(f"  secret roll revealed ({secret.reason}): {' '.join(map(str, secret.dice))}")
        for line in secret.log:
            self.say(f"    {line}")
        self.ui.results.insert(0, Screen(
            "result", "Secret revealed", big="  ".join(map(str, secret.dice)),
            lines=(secret.reason, *secret.log), footer="any button",
        ))

    def _open_menu(self) -> None:
        """The box's menu. The items that are always there come first, each always at
        the same place, so that a habit (hold SELECT, DOWN, SELECT: undo) does the same
        whatever the game's state; those that come and go follow them, always in the
        same order. The cursor starts on the harmless "Back to game"."""
        step = self.step
        items = [
            ("close", "Back to game"),
            ("undo", "Undo last"),
            ("status", "Game status"),
            ("sound", "Sound on" if self.muted else "Sound off"),
        ]
        if isinstance(step, AwaitRoll):
            items.append(("enter", "Enter dice"))
        if isinstance(step, AwaitChip) and step.in_bag:
            items.append(("pick", "Pick chip"))
        if self._last_was_roll():
            items.append(("correct", "Correct dice"))
        if any(not s.revealed for s in self.session.record.secrets):
            items.append(("reveal", "Reveal secret"))
        if self.games is not None:  # last: the items before it keep their places
            items.append(("new", "New game"))
        self.ui.menu = tuple(items)
        self.ui.mode = "menu"
        self.ui.cursor = 0

    def _last_was_roll(self) -> bool:
        """Whether the last step is a whole roll (to correct): not while a roll thrown
        in several has throws read, the last of which is then the last step."""
        record = self.session.record
        return (not record.throws and bool(record.played)
                and isinstance(record.played[-1].given, Rolled))

    def _step_cursor(self, press: ButtonPressed, items: int) -> None:
        """UP/DOWN through a list that keeps its order (the menu, the games to start),
        stopping at its ends: wrapping round, UP on the first item would land on the
        last, which comes and goes (the menu's "New game", a scenario file)."""
        moved = self.ui.cursor + (1 if press.button == "down" else -1)
        self.ui.cursor = min(items - 1, max(0, moved))

    def _menu_button(self, press: ButtonPressed) -> None:
        ui = self.ui
        if press.button == "back":
            ui.mode, ui.cursor = "normal", 0
            return
        if press.button in ("up", "down"):
            self._step_cursor(press, len(ui.menu))
            return
        if press.button != "select":
            return
        key = ui.menu[ui.cursor][0]
        ui.mode, ui.cursor = "normal", 0
        step = self.step
        if key == "enter" and isinstance(step, AwaitRoll):
            self._start_entry(step.request, False)
        elif key == "pick" and isinstance(step, AwaitChip):
            ui.mode = "pick_chip"
        elif key == "correct" and self._last_roll_hidden():
            self.warn("Secret roll", "Reveal it first, or undo it and roll again.",
                      "the last roll is a secret one, not revealed: correcting it would show "
                      "its dice; reveal it first (menu: Reveal secret, then UP), or undo it "
                      "(menu: Undo last) and roll again.")
        elif key == "undo" or (key == "correct" and self._last_was_roll()):
            self._undo(correct=key == "correct")
        elif key == "reveal":
            hidden = [s for s in self.session.record.secrets if not s.revealed]
            if hidden:
                ui.secret, ui.mode = hidden[-1].index, "reveal"
        elif key == "status":
            ui.mode = "status"
        elif key == "sound":
            self.muted = not self.muted
            self.say(f"  sound {'off' if self.muted else 'on'}")
        elif key == "new":
            self._open_games()

    def _last_roll_hidden(self) -> bool:
        """Whether the last step is a secret roll not revealed yet: its correction would
        open dice entry on its dice, in front of the players."""
        record = self.session.record
        return (self._last_was_roll() and record.played[-1].secret
                and any(s.index == record.rolls - 1 and not s.revealed for s in record.secrets))

    # ------------------------------------------------------------ new game

    def _open_games(self) -> None:
        """The list of games to start: the same scenario again (when there is a game),
        then those the box offers (`NewGames.choices`)."""
        assert self.games is not None
        offered = list(self.games.choices())
        if self.has_game:
            record = self.session.record
            toml, name = record.scenario_toml, record.scenario_name
            offered.insert(0, ScenarioChoice(("Same again",), name, "the game's scenario",
                                             lambda: toml))
        self.ui.games = tuple(offered)
        self.ui.mode, self.ui.cursor, self.ui.picked = "games", 0, None

    def _games_button(self, press: ButtonPressed) -> None:
        ui = self.ui
        if press.button == "back":
            if self.has_game:  # with no game yet there is nothing to go back to
                ui.mode, ui.cursor = "normal", 0
            return
        if press.button in ("up", "down"):
            self._step_cursor(press, len(ui.games))
            return
        if press.long:  # held for the menu out of habit: a pick needs a short press
            return
        choice = ui.games[ui.cursor]
        try:
            picked = choice.load()
        except (CompanionError, ValueError) as exc:
            self.error("Scenario refused", f"{exc}. Pick another.",
                       f"{exc}; fix it, or pick another game. Nothing was changed.")
            return
        if not self.has_game:  # nothing to archive, so nothing to ask
            self._start_game(picked)
            return
        ui.picked, ui.mode = picked, "confirm_new"

    def _confirm_new_button(self, press: ButtonPressed) -> None:
        """UP starts the game picked; any other button goes back to the list. Starting
        archives the game so far, so the button that does it is one no habit of the menu
        ends on (SELECT to choose, hold SELECT for the menu, BACK)."""
        ui = self.ui
        picked, ui.picked = ui.picked, None
        if press.button == "up" and picked is not None:
            ui.mode = "normal"
            self._start_game(picked)
        else:
            ui.mode = "games"

    def _start_game(self, picked: Picked) -> None:
        assert self.games is not None
        had_game = self.has_game
        try:
            session = self.games.start(picked.text, picked.name)
        except NewGameRefused as exc:
            kept = "The game goes on as it was." if had_game else "Pick a game again."
            self.error("Game not started", f"{exc}. {kept}", f"{exc}. {kept}")
            self.ui.mode, self.ui.cursor = ("normal", 0) if had_game else ("games", 0)
            return
        self._session = session
        self.ui = UiState(faults=self.ui.faults)  # devices still down stay reported
        self._copy_throws()
        ruleset, scenario = session.ruleset, session.record.scenario
        self.say(f"new game: {ruleset.title}: {scenario.title}"
                 + ("; the last game is archived" if had_game else ""))
        # The system and the scenario in two lines, so that the line saying where the
        # last game went shows too, without scrolling.
        named = [f"{name}: {scenario.title}" for name in system_labels(ruleset)]
        started = next((text for text in named if body_rows(text) <= 2), scenario.title)
        lines = (started, *(["Last game archived."] if had_game else []))
        self.ui.results = [Screen("start", "New game", lines=lines,
                                  footer=next_hint(self.step))]
        self.play_tune("new_game")

    def _undo(self, correct: bool) -> None:
        """Take back the last step: a throw of a roll thrown in several while the roll
        is not whole (the box asks for that throw again), else the last chip, choice or
        roll; a correction then opens entry on the roll's dice."""
        before = self.session.record
        if not (before.throws or before.played):
            self.warn("Nothing to undo", "No step taken yet.")
            return
        self._journal(Undone("correction" if correct else "undo"))
        self.ui.results.clear()
        step = self.step
        if before.throws:
            assert isinstance(step, AwaitRoll)  # throws are read only while a roll waits
            at = len(before.throws) - 1
            self.say(f"  undone: the throw {self._throw_said(step.request, at, before.throws[at])}")
            return
        last = before.played[-1]
        self.say(f"  undone{' to correct it' if correct else ''}: {self._taken_back(last, step)}")
        if correct and isinstance(step, AwaitRoll) and isinstance(last.given, Rolled):
            self._start_entry(step.request, True, last.given.dice)

    def _taken_back(self, last: Played, step: Step) -> str:
        """The step an undo took back, in words: `step` is the one it answered, waiting
        again. A secret roll's dice stay off the log, as everywhere."""
        given = last.given
        if isinstance(given, ChipDrawn):
            return f"the chip {given.chip}"
        if isinstance(given, Chosen):
            options = step.options if isinstance(step, AwaitChoice) else ()
            return "the choice " + next((o.label for o in options if o.key == given.key),
                                        given.key)
        request = step.request if isinstance(step, AwaitRoll) else None
        reason = f" for {request.reason}" if request is not None else ""
        if last.secret:
            return f"the secret roll{reason}"
        kinds = request.kinds if request is not None else ()
        return f"the dice {spaced(kinds, given.dice)}{reason}"

    def _start_entry(self, request: RollRequest, correction: bool,
                     dice: tuple[int, ...] = ()) -> None:
        """Dice entry for the roll waiting now: a correction starts from the dice
        accepted; otherwise dice already read by the camera are filled in and the
        cursor waits on the first die still to throw."""
        labels = tuple(g.label for g in request.groups for _ in range(g.count))
        read = self.ui.partial
        if not request.kinds:
            self.submit(DiceAccepted((), "correction" if correction else "manual"))
            return
        values = list(dice) if correction else self._in_rules_order(request, read)
        unread = dice_order(request, self.plan(request))[len(read):]
        at = min(unread) if read and unread and not correction else 0
        self.ui.entry = Entry(request.kinds, values, at=at, correction=correction, labels=labels)
        self.ui.mode = "entry"

    def _entry_button(self, press: ButtonPressed) -> None:
        entry = self.ui.entry
        assert entry is not None
        if not isinstance(self.step, AwaitRoll):  # the game moved on (a roll came in)
            self.ui.entry, self.ui.mode = None, "normal"
            return
        faces = entry.kinds[entry.at].faces
        value = entry.values[entry.at]
        if press.button in ("up", "down"):
            step = 1 if press.button == "up" else -1
            entry.values[entry.at] = faces[(faces.index(value) + step) % len(faces)]
        elif press.button == "back":
            if entry.at == 0:
                self.ui.entry, self.ui.mode = None, "normal"
            else:
                entry.at -= 1
        elif press.button == "select":
            if entry.at + 1 < len(entry.kinds):
                entry.at += 1
            else:
                self.ui.entry, self.ui.mode = None, "normal"
                source = "correction" if entry.correction else "manual"
                self.submit(DiceAccepted(tuple(entry.values), source))

    def _pick_button(self, press: ButtonPressed) -> None:
        step = self.step
        if not isinstance(step, AwaitChip) or not step.in_bag:
            self.ui.mode = "normal"
            return
        chips = step.in_bag
        if press.button == "back":
            self.ui.mode, self.ui.cursor = "normal", 0
        elif press.button in ("up", "down"):
            self.ui.cursor = (self.ui.cursor + (1 if press.button == "down" else -1)) % len(chips)
        elif press.button == "select":
            chip = chips[min(self.ui.cursor, len(chips) - 1)]
            self.ui.mode, self.ui.cursor = "normal", 0
            self.submit(ChipAccepted(chip, ""))

    # ------------------------------------------------------------ effects

    def _journal(self, event: Event) -> Transition | None:
        transition = self.session.submit(event)
        self.acknowledged.append(self.session.record.events)
        self._copy_throws()
        return transition

    def _copy_throws(self) -> None:
        """The throws read so far, from the journal's record, where the screens look."""
        self.ui.partial = [die for throw in self.session.record.throws for die in throw]

    def submit(self, event: Event) -> Transition | None:
        """Journal the event through the session, then show and sound what it did."""
        step = self.step
        transition = self._journal(event)
        ui = self.ui
        ui.cursor, ui.results, ui.message, ui.offer = 0, [], None, None
        if ui.mode != "entry":
            ui.mode, ui.menu = "normal", ()
        if transition is None:
            return None
        secret = isinstance(step, AwaitRoll) and step.request.secret
        self._report(step, event, transition, secret)
        return transition

    def _report(self, step: Step, event: Event, transition: Transition, secret: bool) -> None:
        source = (f" ({event.source})"
                  if isinstance(event, DiceAccepted) and event.source != "camera" else "")
        if secret:
            reason = step.request.reason if isinstance(step, AwaitRoll) else ""
            self.say(f"  secret roll recorded{source}: {reason}")
            self.ui.results = [Screen("secret", "Secret roll",
                                      lines=("Recorded, not shown.", reason),
                                      footer="hold SEL: menu")]
            self.play_tune("secret")
            return
        if isinstance(event, DiceAccepted):
            kinds = step.request.kinds if isinstance(step, AwaitRoll) else ()
            shown = spaced(kinds, event.dice) if len(kinds) == len(event.dice) \
                else " ".join(map(str, event.dice))
            self.say(f"  dice{source}: {shown}")
        for line in transition.log:
            self.say(f"  {line}")
        cues = set(transition.cues)
        if isinstance(event, ChipAccepted):
            cues.add("chip")
            self.ui.results.append(self._chip_screen(event.chip, transition))
        if isinstance(event, DiceAccepted):
            cues.add("dice")
        outcome = transition.outcome
        if outcome is not None:
            cues |= set(outcome.effects)
            self.ui.results.append(self._result_screen(step, event, outcome))
        if "turn_end" in cues:
            self.ui.results.append(self._turn_end_screen(transition))
        tune = pick_tunes(tunes_for(cues))
        if tune:
            self.play_tune(tune)

    def play_tune(self, name: str) -> None:
        if not self.muted:
            self.play(name)

    def error(self, title: str, text: str, detail: str = "", footer: str = "any button") -> None:
        """Show an error until a button is pressed; `text` fits the OLED, `detail`
        (the whole story) goes to the log and the play-by-play."""
        log.info("%s: %s", title, detail or text)
        self.say(f"! {title}: {detail or text}")
        self.ui.message = Screen("error", title, lines=(text,), footer=footer)
        self.ui.offer = None
        self.play_tune("error")

    def warn(self, title: str, text: str, detail: str = "") -> None:
        self.say(f"! {title}: {detail or text}")
        self.ui.message = Screen("warning", title, lines=(text,), footer="any button")
        self.ui.offer = None
        self.play_tune("warning")

    # ------------------------------------------------------------ screens

    def screen(self) -> Screen:
        """The screen to show now, scrolled where the referee scrolled it."""
        page = self._page()
        if self.ui.scroll and self.ui.scrolled == page:
            return replace(page, scroll=self.ui.scroll)
        return page

    def _page(self) -> Screen:
        ui = self.ui
        if ui.message is not None:
            return ui.message
        if ui.mode == "menu":
            return Screen("menu", "Menu", items=tuple(label for _, label in ui.menu),
                          cursor=ui.cursor, footer="SEL ok  BACK close")
        if ui.mode == "entry" and ui.entry is not None:
            return self._entry_screen(ui.entry)
        secret = self._hidden_secret() if ui.mode == "reveal" else None
        if secret is not None:
            return self._reveal_screen(secret)
        if ui.mode == "status":
            return Screen("status", "Game status", lines=self.session.describe(),
                          footer="any button: back")
        if ui.mode == "games":
            return self._games_screen()
        if ui.mode == "confirm_new" and ui.picked is not None:
            return self._confirm_new_screen(ui.picked)
        step = self.step
        if ui.mode == "pick_chip" and isinstance(step, AwaitChip):
            return Screen("menu", "Pick chip", items=tuple(map(self._pick_label, step.in_bag)),
                          cursor=ui.cursor, footer="SEL pick  BACK cancel")
        if ui.result is not None:
            return ui.result
        return self.step_screen(step)

    def step_screen(self, step: Step) -> Screen:
        if isinstance(step, AwaitChip):
            return self._idle_screen(step)
        if isinstance(step, AwaitChoice):
            return self._choice_screen(step)
        if isinstance(step, AwaitRoll):
            return self._roll_screen(step)
        return self._summary_screen(step)

    def _devices_down(self) -> list[str]:
        return [f"{capital(d)} down" for d in self.ui.faults if d != "display"]

    def _idle_screen(self, step: AwaitChip) -> Screen:
        prompt = step.prompt or "Draw a chip"
        before, _, after = prompt.partition(":")
        title = first_fitting("title", prompt, before.strip() if after else "", "Draw a chip")
        lines = [counted(len(step.in_bag), "chip") + " in the bag", *self._devices_down()]
        if title != prompt:
            rest = after.strip() if title == before.strip() else prompt
            if rest.lower().rstrip(".") != "draw a chip":
                lines.insert(0, capital(rest))
        hint = "SEL: pick chip" if "chip reader" in self.ui.faults else "hold SEL: menu"
        return Screen("idle", title, big="Draw a chip", lines=tuple(lines), footer=hint)

    def _choice_screen(self, step: AwaitChoice) -> Screen:
        question = step.prompt
        if step.about and question.startswith(step.about) and question != step.about:
            rest = question[len(step.about) :]
            question = capital(rest.lstrip(": ") if rest.startswith(":") else rest.strip())
        if step.about:
            title = first_fitting("title", capital(step.about), "Choose")
            footer = question if title == capital(step.about) else step.prompt
        else:
            title = first_fitting("title", step.prompt, "Choose")
            footer = "SEL choose" if title == step.prompt else step.prompt
        return Screen("menu", title, items=tuple(o.label for o in step.options),
                      cursor=min(self.ui.cursor, len(step.options) - 1), footer=footer)

    def _roll_screen(self, step: AwaitRoll) -> Screen:
        request = step.request
        plan = self.plan(request)
        done = self.throws_done(request)
        at = min(done, max(0, len(plan) - 1))
        groups = throw_groups(request, plan[at]) if plan else list(request.groups)
        check = check_title(request.reason)
        # The odds come before the reason's words when the title says what the
        # roll is for (the reason's topic, the check, whose throw it is).
        odds = "" if request.secret else odds_line(step.odds, request.groups)
        lines: list[str] = []
        if len(plan) > 1:
            labels = ", ".join(dict.fromkeys(g.label for g in groups))
            if request.secret:  # the title is what tells the players to hide the dice
                title = first_fitting("title", f"Secret roll {at + 1} of {len(plan)}",
                                      f"Secret {at + 1}/{len(plan)}")
            else:
                title = first_fitting("title", f"Throw {at + 1} of {len(plan)}: {labels}",
                                      f"Throw {at + 1}/{len(plan)}: {labels}",
                                      f"Throw {at + 1} of {len(plan)}")
            if done:
                lines.append(f"Read so far: {self._read_so_far(request)}")
            if labels not in title:
                lines.append(f"For {labels}")
            lines += [odds, request.reason]
        elif request.secret:
            title = "Secret roll"
            lines.append(request.reason)
        else:
            named = {capital(t): t for t in (request.reason, *topic(request.reason))}
            # Who rolls, when nothing longer fits: the odds come first, and under them
            # the rest of the reason (whom they shoot at, the aside in brackets).
            who = {t: t for t in (*unbracketed(request.reason), *subject(request.reason))}
            # Then what the dice are, as the result screen is titled: "Wounds" says
            # more than "Roll the dice", which the big line says already.
            dice = [capital(g.label) for g in request.groups[:1] if g.count]
            title = first_fitting("title", *named, check or "", *who, *dice, "Roll the dice")
            taken = named.get(title, who.get(title, ""))
            rest = "" if taken == request.reason else rest_of(request.reason, taken)
            lines += [rest, odds] if title == "Roll the dice" else [odds, rest]
        lines = [line for line in lines if line]
        lines += [f"{g.label}: {g.faces_meaning}" for g in groups
                  if g.faces_meaning and not request.secret]
        if "camera" in self.ui.faults:
            footer = "No camera: SEL enter"
        elif self.entry_offered():
            footer = "SEL: enter by hand"
        else:
            footer = "hold SEL: menu"
        kind = "reading" if done and len(plan) > 1 else "check" if check else "roll"
        return Screen(kind, title, big=f"Roll {dice_text(groups)}", lines=tuple(lines),
                      footer=footer)

    def _read_so_far(self, request: RollRequest) -> str:
        """The dice read for the throws made: their faces while a line holds them,
        else how many of the roll's dice are in."""
        read = self.ui.partial
        if request.secret:
            return "hidden"
        kinds = [request.kinds[at] for at in dice_order(request, self.plan(request))]
        shown = spaced(tuple(kinds), read)
        if fits_line("footer", f"Read so far: {shown}"):
            return shown
        return f"{len(read)} of {counted(request.dice_count, 'die', 'dice')}"

    def _summary_screen(self, step: GameOver) -> Screen:
        # Most rules end their summary with the state's description: not said twice.
        lines = (*step.summary,
                 *(line for line in self.session.describe() if line not in step.summary))
        # "won" agrees with a side of one name or many ("Garrison", "Besiegers").
        big = first_fitting("big", f"{step.winner} won", step.winner) if step.winner else "Draw"
        footer = "SEL: new game" if self.games is not None else "hold SEL: menu"
        return Screen("summary", "Game over", big=big, lines=lines, footer=footer)

    def _entry_screen(self, entry: Entry) -> Screen:
        label = entry.labels[entry.at] if entry.labels else ""
        what = "Correct" if entry.correction else "Enter"
        count = f"{what} {entry.at + 1}/{len(entry.values)}"
        title = first_fitting("title", f"{count}: {label}" if label else count, count)
        step = self.step
        reason = step.request.reason if isinstance(step, AwaitRoll) else ""
        # One line of context: the whole reason, or what it says after its topic.
        context = first_fitting("footer", reason, *(rest_of(reason, t) for t in topic(reason)),
                                reason)
        lines = ([label] if label and label not in title else []) + [context]
        last = entry.at + 1 == len(entry.values)
        return Screen(
            "entry", title,
            items=tuple(entry.kinds[i].describe_face(v) for i, v in enumerate(entry.values)),
            cursor=entry.at, lines=tuple(lines),
            footer="UP/DN value  SEL ok" if last else "UP/DN value  SEL next",
        )

    def _games_screen(self) -> Screen:
        labels = tuple(first_fitting_item(*choice.labels) for choice in self.ui.games)
        if self.has_game:
            return Screen("menu", "New game", items=labels, cursor=self.ui.cursor,
                          footer="SEL pick  BACK cancel")
        return Screen("menu", "Start a game", items=labels, cursor=self.ui.cursor,
                      footer="SEL start")

    def _confirm_new_screen(self, picked: Picked) -> Screen:
        # The scenario's title where it shows whole, else the name it was listed by:
        # three lines in all, so that nothing needs the UP that would start the game.
        label = first_fitting_item(*self.ui.games[self.ui.cursor].labels)
        return Screen("warning", "Start a new game?",
                      lines=(first_fitting_item(picked.title, label), "This game is archived."),
                      footer="UP yes, any other no")

    def _reveal_screen(self, secret: SecretRoll) -> Screen:
        return Screen("secret", "Reveal secret?", lines=(capital(secret.reason),),
                      footer="UP reveals; any other button keeps it hidden")

    def _pick_label(self, chip: str) -> str:
        """A chip in the pick list: its code and its unit's name, so the referee picks
        by name; the code alone where both would not show whole."""
        units = [u.name for u in self.session.record.scenario.units if u.chip == chip]
        if not units or units == [chip]:
            return chip
        label = f"{chip}: {' / '.join(units)}"
        return label if fits_item(label) else chip

    def _chip_screen(self, chip: str, transition: Transition) -> Screen:
        """The chip drawn: the unit it activates, its side and its state."""
        scenario = self.session.record.scenario
        unit = next((u for u in scenario.units if u.chip == chip), None)
        step = self.step
        if unit is None and isinstance(step, AwaitChoice) and step.about:
            unit = next((u for u in scenario.units if u.name == step.about), None)
        title = first_fitting("title", f"Chip: {chip}", "Chip drawn")
        if unit is None:
            return Screen("chip", title, big=chip,
                          lines=transition.log or (next_hint(step),), footer="any button")
        now = [f"Now: {part}" for part in self._unit_state(unit.name)]
        # The strength it started with only where nothing says how it stands now
        # ("12 figures" over "Now: Tuareg Band 6" reads as a contradiction).
        lines = [f"{unit.side} · {unit.kind}"
                 + ("" if now else f", {counted(unit.figures, 'figure')}"), *now]
        if not now:  # the draw's own line ("Chip S1: ...") says what the title does
            lines += [ln for ln in transition.log
                      if unit.name in ln and not ln.startswith(f"Chip {chip}")][:1]
        big = first_fitting("big", unit.name)
        return Screen("chip", title, big=big, lines=tuple(lines), footer=next_hint(step))

    def _unit_state(self, name: str) -> list[str]:
        """The parts of the rules' game description about one unit: a line that
        lists a whole side ("FFL: Legion 1 7, Legion 2 6") is cut down to its part."""
        found: list[str] = []
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        for line in self.session.describe():
            for part in _outside_brackets_split(line.strip()):
                side, colon, rest = part.partition(": ")
                if colon and not pattern.search(side):
                    part = rest
                if pattern.search(part) and part.strip() != name:
                    found.append(part)
        return found

    def _result_screen(self, step: Step, event: Event, outcome: Outcome) -> Screen:
        request = step.request if isinstance(step, AwaitRoll) else None
        odds = step.odds if isinstance(step, AwaitRoll) else None
        # The odds of the headline shown, when they are (not those of another count):
        # every value it could take (a "killed" that could be 3 is a count, not a yes
        # or no), and the chance of each.
        exact = odds if odds is not None and odds.headline_label == outcome.headline_label \
            else None
        values = tuple(exact.headline) if exact is not None else ()
        title = "Result"
        if request is not None:
            named_by = [check_title(request.reason) or "", *unbracketed(request.reason),
                        *subject(request.reason), *action_named(request.reason)]
            named_by += [capital(g.label) for g in request.groups[:1] if g.count]
            title = first_fitting("title", capital(request.reason),
                                  *map(capital, topic(request.reason)), *named_by, "Result")
        lines: list[str] = []
        named = named_outcomes(outcome.headline_label, request.groups if request else (),
                               odds.names if odds else None)
        # The words already on the screen, which an effect or a detail need not repeat.
        said = {outcome.headline_label, *outcome.headline_label.split()}
        shown_is_one_outcome = named is not None or yes_no(outcome.headline_label,
                                                             values or [outcome.headline])
        if named is not None:
            noun, names = named
            name = category_name(outcome.headline, names)
            # A roll-off's tie names no side ("Goes first: tie" reads as if one called
            # "tie" did): it says what happens instead, the same dice again.
            rolled_again = name == "tie" and outcome.follow_up is not None
            big = (first_fitting("big", "Tie: roll again", "Tie") if rolled_again
                   else first_fitting("big", capital(f"{noun}: {name}"), capital(name)))
            said |= {noun, name}
            # The name alone under a title that says what was rolled for ("Legion"
            # under "Activation toss") is enough; "Result" needs the noun said.
            if noun and big == capital(name) and title == "Result":
                lines.append(capital(f"{noun}: {name}"))
        else:
            # Too long for the headline: the number and its key word large, all of it below.
            full = headline(outcome, values)
            big = first_fitting("big", full, *short_headline(outcome, values))
            said.add(full)
            if big != full:
                lines.append(full)
        said = {w.lower() for w in said} | {singular(w.lower()) for w in said}
        shown_dice: list[tuple[str, str]] = []  # (words shown with them, dice)
        # one group's dice are all the dice: "Arab rifles: 6, 3 -> 1 hit" says "1 hit"
        rolled = [g for g in request.groups if g.count] if request is not None else []
        group_labels = [rolled[0].label] if len(rolled) == 1 else []
        if isinstance(event, DiceAccepted) and event.dice and request is not None:
            shown_dice = [("", faces(request.kinds, event.dice)),
                          *dice_by_group(request, event.dice)]
            lines += dice_lines(request, event.dice)
        # An effect that only names the headline again ("Sighted" under "Sighted:
        # yes", "Martinet" under "Type: martinet", "Hit" under "1 hit"), or, being
        # exactly as likely, the very outcome shown ("First activates" under "Legion",
        # "Morale failed" under "Passed: no"), is not said twice.
        same: set[str] = set()
        if exact is not None and shown_is_one_outcome:
            shown_chance = exact.headline.get(outcome.headline)
            same = {name for name, chance in exact.effects.items() if chance == shown_chance}
        effects = ", ".join(pretty(e) for e in sorted(outcome.effects)
                            if pretty(e).lower() not in said and e not in same)
        if effects:
            lines.append(capital(effects))
        # Every detail, less the dice the "Dice" line shows ("rolled 3, 4: 0 hits"
        # under "0 hits" says nothing): the page scrolls, and a casualty or a
        # modifier left off it is one the referee never hears of.
        for line in outcome.changes or outcome.details:
            for label, dice in shown_dice:
                shorter = (without_dice(line, dice, (title, big, *group_labels)) if not label
                           else _without_group_dice(line, label, dice))
                if shorter != line:
                    line = shorter
                    break
            if line and line.lower() not in said and line.lower() != big.lower():
                lines.append(line)
        return Screen("result", title, big=big, lines=tuple(lines), footer=next_hint(self.step))

    def _turn_end_screen(self, transition: Transition) -> Screen:
        title = next((ln for ln in transition.log if ln.lower().startswith("end of turn")),
                     "End of turn")
        return Screen("check", first_fitting("title", title, "End of turn"),
                      lines=self.session.describe(), footer=next_hint(self.step))

    def refresh(self) -> None:
        self.show_screen(self.screen())
