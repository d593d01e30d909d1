"""The `Box` controller: turns raw inputs (buttons, chip reads, settled dice, faults)
into journaled session events, and session results into screens and tunes.

Everything arrives on one queue and is handled on one thread, so hardware
callbacks never touch game or UI state. Menu position, half-entered dice and
the screens waiting to be read are UI state (`companion.box.state`) and are not
journaled; anything that changes the game is, before it is shown or sounded.
What each screen says is built in `companion.box.views`.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Mapping, Sequence

from companion.box import views
from companion.box.inputs import (
    BoxInput,
    ButtonPressed,
    DeviceBack,
    DeviceFault,
    DiceSeen,
    NewGames,
    TagSeen,
)
from companion.box.state import Entry, UiState, hidden_secret
from companion.box.throw_plan import (
    PER_THROW,
    Throw,
    dice_order,
    in_rules_order,
    throw_groups,
    throws,
    throws_read,
)
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
from companion.session.scenario_files import Picked, ScenarioChoice
from companion.session.session import GameSession, Played
from companion.ui.screens import Screen, layout
from companion.ui.tunes import pick_tunes, tunes_for
from companion.ui.wording import capital, counted, dice_text, ordinal, spaced, where_on_tray

log = logging.getLogger(__name__)

FALLBACKS = {
    "camera": "Enter the dice by hand: SEL on the roll screen.",
    "chip reader": "Pick chips by hand: SEL on the draw screen.",
    "display": "The box carries on without it.",
    "buzzer": "The box carries on silent.",
}

# After this many refused tries at one throw the box offers manual entry
# outright: a die that was refused twice is usually going to be refused again
# (a worn face, a glare), and the table should not wait on the camera.
REFUSALS_BEFORE_OFFER = 2


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
        dice = in_rules_order(request, self.plan(request), collected)
        self.submit(DiceAccepted(tuple(dice), "camera"))

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
        return throws_read(self.plan(request), len(self.ui.partial))

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
        page = views.page(self)
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

    def _reveal_button(self, press: ButtonPressed) -> None:
        """UP shows the secret roll; any other button keeps it hidden. A secret shown
        cannot be hidden again, so the button that shows it is one that no habit of
        the menu ends on (SELECT to choose, hold SELECT for the menu, BACK)."""
        self.ui.mode = "normal"
        if press.button == "up":
            self._reveal()
        self.ui.secret = None

    def _reveal(self) -> None:
        secret = hidden_secret(self.session, self.ui)
        if secret is None:
            return
        self._journal(SecretRevealed(secret.index))
        self.say(f"  secret roll revealed ({secret.reason}): {' '.join(map(str, secret.dice))}")
        for line in secret.log:
            self.say(f"    {line}")
        self.ui.results.insert(0, views.revealed_screen(secret))

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
        self.ui.results = [views.new_game_screen(session, had_game, self.step)]
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
        values = list(dice) if correction else in_rules_order(request, self.plan(request), read)
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
            self.ui.results = [views.secret_roll_screen(reason)]
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
            self.ui.results.append(views.chip_screen(event.chip, transition, self.session,
                                                      self.step))
        if isinstance(event, DiceAccepted):
            cues.add("dice")
        outcome = transition.outcome
        if outcome is not None:
            cues |= set(outcome.effects)
            self.ui.results.append(views.result_screen(step, event, outcome, self.step))
        if "turn_end" in cues:
            self.ui.results.append(views.turn_end_screen(transition, self.session, self.step))
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
        return views.screen(self)

    def step_screen(self, step: Step) -> Screen:
        """The screen of a step waiting (`views.step_screen`)."""
        return views.step_screen(self, step)

    def refresh(self) -> None:
        self.show_screen(self.screen())
