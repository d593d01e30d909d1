"""The box: turns raw inputs (buttons, chip reads, settled dice, faults) into
journaled session events, and session results into screens and tunes.

Everything arrives on one queue and is handled on one thread, so hardware
callbacks never touch game or UI state. Menu position and half-entered dice
are UI state and are not journaled; anything that changes the game is.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    DieKind,
    GameOver,
    Odds,
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
    Undone,
)
from companion.session.session import GameSession
from companion.ui.screens import Screen, render
from companion.ui.tunes import TUNES, pick_tune

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
    box: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True)
class DiceSeen:
    dice: tuple[SeenDie, ...]
    unreadable: tuple[tuple[tuple[int, int, int, int], str], ...] = ()


@dataclass(frozen=True)
class DeviceFault:
    device: str  # "camera", "display", "chip reader"
    message: str


@dataclass(frozen=True)
class DeviceBack:
    device: str


BoxInput = ButtonPressed | TagSeen | DiceSeen | DeviceFault | DeviceBack


# ------------------------------------------------------------- UI state


@dataclass
class Entry:
    """Dice being entered by hand, one die at a time."""

    kinds: tuple[DieKind, ...]
    values: list[int]
    at: int = 0
    correction: bool = False


@dataclass
class UiState:
    cursor: int = 0
    mode: str = "normal"  # normal | menu | entry | pick_chip | status
    menu: tuple[tuple[str, str], ...] = ()  # (key, label)
    message: Screen | None = None  # error or warning shown until a button is pressed
    result: Screen | None = None  # the last outcome, shown until the next input
    entry: Entry | None = None
    partial: list[int] = field(default_factory=list)  # dice read so far for a split throw
    faults: dict[str, str] = field(default_factory=dict)


def throws(request: RollRequest) -> list[list[int]]:
    """Split a request into throws the camera can tell apart.

    Two groups of the same kind (the attacker's d6 and the defender's d6) cannot
    be told apart on the tray, so each becomes its own throw; groups of different
    kinds (tens and units of a percentile) are rolled together.
    """
    out: list[list[int]] = []
    for index, group in enumerate(request.groups):
        for throw in out:
            if all(request.groups[i].kind is not group.kind for i in throw):
                throw.append(index)
                break
        else:
            out.append([index])
    return out


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def odds_line(odds: Odds | None) -> str:
    if odds is None:
        return ""
    parts = [f"avg {float(odds.mean()):.1f} {odds.headline_label}"]
    if odds.headline_label and 0 not in odds.headline or len(odds.headline) > 1:
        parts.append(f"any {percent(odds.at_least(1))}")
    for name, chance in list(odds.effects.items())[:2]:
        parts.append(f"{name} {percent(chance)}")
    return ", ".join(parts)


class Box:
    def __init__(
        self,
        session: GameSession,
        *,
        show: Callable[[Screen], None],
        play: Callable[[str], None],
        say: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.session = session
        self.show_screen = show
        self.play = play
        self.say = say
        self.ui = UiState()
        self.inbox: queue.Queue[BoxInput] = queue.Queue()
        self.acknowledged: list[int] = []

    # --------------------------------------------------------------- loop

    def post(self, item: BoxInput) -> None:
        """Thread-safe: hardware callbacks call this and nothing else."""
        self.inbox.put(item)

    def pump(self, timeout: float | None = 0.0) -> bool:
        """Handle every queued input; True if any was handled."""
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
        return self.session.step

    def start(self) -> None:
        self.refresh()

    def handle(self, item: BoxInput) -> None:
        try:
            if isinstance(item, ButtonPressed):
                self._button(item)
            elif isinstance(item, TagSeen):
                self._tag(item)
            elif isinstance(item, DiceSeen):
                self._dice(item)
            elif isinstance(item, DeviceFault):
                self._fault(item)
            else:
                self._device_back(item)
        except RulesError as exc:
            self.warn("Not allowed", str(exc))
        self.refresh()

    # ------------------------------------------------------------ inputs

    def _tag(self, tag: TagSeen) -> None:
        step = self.step
        if tag.chip is None:
            self.error(
                "Unknown chip",
                f"Tag {tag.uid} is not enrolled. Enrol it with 'companion chips enroll' "
                "or pick the unit by hand (hold SELECT).",
            )
            return
        if not isinstance(step, AwaitChip):
            self.warn("Chip not wanted", f"{tag.chip}: finish the current step first.")
            return
        if tag.chip not in step.in_bag:
            self.warn("Already drawn", f"{tag.chip} was already drawn this turn. Draw again.")
            return
        self.submit(ChipAccepted(tag.chip, tag.uid))

    def _dice(self, seen: DiceSeen) -> None:
        step = self.step
        if not isinstance(step, AwaitRoll) or self.ui.mode == "entry":
            return  # dice rolled for fun between steps are not a roll request's answer
        if seen.unreadable:
            where = "; ".join(f"{reason} at x{box[0]} y{box[1]}" for box, reason in seen.unreadable)
            self.error("Reroll die", f"Cannot read {len(seen.unreadable)} die: {where}.")
            return
        request = step.request
        plan = throws(request)
        throw = plan[len(self._partial_groups(request))]
        wanted = [request.groups[i] for i in throw]
        values: list[int] = []
        for group in wanted:
            matching = [d for d in seen.dice if d.kind == group.kind.value]
            if len(matching) != group.count:
                total = sum(g.count for g in wanted)
                self.error(
                    "Wrong dice",
                    f"Saw {len(seen.dice)} dice, need {total} "
                    f"({', '.join(f'{g.count}{g.kind.value} {g.label}' for g in wanted)}). "
                    "Roll again or enter by hand.",
                )
                return
            values.extend(d.value for d in sorted(matching, key=lambda d: (d.box[0], d.box[1])))
        collected = self.ui.partial + values
        if len(plan) > 1 and len(collected) < request.dice_count:
            self.ui.partial = collected
            self.say(f"  read {values} for {', '.join(g.label for g in wanted)}")
            self.play_tune("dice")
            return
        self.ui.partial = []
        self.submit(DiceAccepted(tuple(self._regroup(request, collected)), "camera"))

    def _partial_groups(self, request: RollRequest) -> list[int]:
        taken = len(self.ui.partial)
        done: list[int] = []
        for throw in throws(request):
            size = sum(request.groups[i].count for i in throw)
            if taken >= size:
                done.extend(throw)
                taken -= size
            else:
                break
        return done

    @staticmethod
    def _regroup(request: RollRequest, collected: list[int]) -> list[int]:
        """Dice come throw by throw; the rules want them in group order."""
        by_group: dict[int, list[int]] = {}
        at = 0
        for throw in throws(request):
            for i in throw:
                count = request.groups[i].count
                by_group[i] = collected[at : at + count]
                at += count
        return [v for i in range(len(request.groups)) for v in by_group[i]]

    def _fault(self, fault: DeviceFault) -> None:
        if fault.device in self.ui.faults:
            return  # reported once; the device is retried in the background
        self.ui.faults[fault.device] = fault.message
        fallback = {
            "camera": "Enter dice by hand: hold SELECT.",
            "chip reader": "Pick chips by hand: hold SELECT.",
        }.get(fault.device, "The box carries on without it.")
        self.error(f"{fault.device.title()} lost", f"{fault.message}. {fallback}")
        self.say(f"! {fault.device} failed: {fault.message}; {fallback}")

    def _device_back(self, back: DeviceBack) -> None:
        if self.ui.faults.pop(back.device, None) is not None:
            self.say(f"  {back.device} is back")
            self.ui.message = Screen("warning", f"{back.device.title()} back", lines=("Working again.",),
                                     footer="any button")

    # ------------------------------------------------------------ buttons

    def _button(self, press: ButtonPressed) -> None:
        ui = self.ui
        if ui.message is not None:
            ui.message = None
            return
        if press.long and press.button == "select" and ui.mode == "normal":
            if self._reveal_if_secret_shown():
                return
            self._open_menu()
            return
        if ui.mode == "menu":
            self._menu_button(press)
        elif ui.mode == "entry":
            self._entry_button(press)
        elif ui.mode == "pick_chip":
            self._pick_button(press)
        elif ui.mode == "status":
            ui.mode = "normal"
        else:
            self._normal_button(press)

    def _normal_button(self, press: ButtonPressed) -> None:
        step = self.step
        if self.ui.result is not None and press.button in ("select", "back"):
            self.ui.result = None
            return
        if isinstance(step, AwaitChoice):
            count = len(step.options)
            if press.button == "up":
                self.ui.cursor = (self.ui.cursor - 1) % count
            elif press.button == "down":
                self.ui.cursor = (self.ui.cursor + 1) % count
            elif press.button == "select":
                key = step.options[min(self.ui.cursor, count - 1)].key
                self.submit(ChoiceMade(key))

    def _reveal_if_secret_shown(self) -> bool:
        hidden = [s for s in self.session.record.secrets if not s.revealed]
        if self.ui.result is None or self.ui.result.kind != "secret" or not hidden:
            return False
        secret = hidden[-1]
        self.session.submit(SecretRevealed(secret.index))
        self.say(f"  secret roll revealed: {secret.dice} — " + " ".join(secret.log))
        self.ui.result = Screen("result", "Secret revealed", big=" ".join(map(str, secret.dice)),
                                lines=secret.log, footer="SEL: continue")
        return True

    def _open_menu(self) -> None:
        step = self.step
        items: list[tuple[str, str]] = []
        if isinstance(step, AwaitRoll):
            items.append(("enter", "Enter dice"))
        if isinstance(step, AwaitChip):
            items.append(("pick", "Pick chip"))
        if self.session.record.played:
            items.append(("correct" if self._last_was_roll() else "undo",
                          "Correct dice" if self._last_was_roll() else "Undo last"))
            if self._last_was_roll():
                items.append(("undo", "Undo last"))
        if any(not s.revealed for s in self.session.record.secrets):
            items.append(("reveal", "Reveal secret"))
        items += [("status", "Game status"), ("close", "Back to game")]
        self.ui.menu = tuple(items)
        self.ui.mode = "menu"
        self.ui.cursor = 0

    def _last_was_roll(self) -> bool:
        from companion.rules.core import Rolled

        played = self.session.record.played
        return bool(played) and isinstance(played[-1].given, Rolled)

    def _menu_button(self, press: ButtonPressed) -> None:
        ui = self.ui
        if press.button == "back":
            ui.mode, ui.cursor = "normal", 0
            return
        if press.button in ("up", "down"):
            ui.cursor = (ui.cursor + (1 if press.button == "down" else -1)) % len(ui.menu)
            return
        if press.button != "select":
            return
        key = ui.menu[ui.cursor][0]
        ui.mode, ui.cursor = "normal", 0
        if key == "enter":
            step = self.step
            assert isinstance(step, AwaitRoll)
            kinds = step.request.kinds
            ui.partial = []
            ui.entry = Entry(kinds, [k.faces[0] for k in kinds])
            ui.mode = "entry"
        elif key == "pick":
            ui.mode = "pick_chip"
        elif key in ("undo", "correct"):
            last = self.session.record.played[-1]
            self.session.submit(Undone("correction" if key == "correct" else "undo"))
            self.ui.result = None
            self.say(f"  undone: {_describe_input(last.given)}")
            if key == "correct":
                step = self.step
                assert isinstance(step, AwaitRoll)
                previous = list(getattr(last.given, "dice", ()))
                ui.entry = Entry(step.request.kinds, previous, correction=True)
                ui.mode = "entry"
        elif key == "reveal":
            hidden = [s for s in self.session.record.secrets if not s.revealed]
            self.ui.result = Screen("secret", "Secret roll", lines=(hidden[-1].reason,),
                                    footer="hold SELECT to reveal")
        elif key == "status":
            ui.mode = "status"

    def _entry_button(self, press: ButtonPressed) -> None:
        entry = self.ui.entry
        assert entry is not None
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
        if not isinstance(step, AwaitChip):
            self.ui.mode = "normal"
            return
        chips = step.in_bag
        if press.button == "back":
            self.ui.mode, self.ui.cursor = "normal", 0
        elif press.button in ("up", "down"):
            self.ui.cursor = (self.ui.cursor + (1 if press.button == "down" else -1)) % len(chips)
        elif press.button == "select":
            chip = chips[self.ui.cursor]
            self.ui.mode, self.ui.cursor = "normal", 0
            self.submit(ChipAccepted(chip, ""))

    # ------------------------------------------------------------ effects

    def submit(self, event: Event) -> Transition | None:
        """Journal the event through the session, then show and sound what it did."""
        step = self.step
        transition = self.session.submit(event)
        self.acknowledged.append(self.session.record.events)
        self.ui.cursor = 0
        self.ui.result = None
        if transition is None:
            return None
        secret = isinstance(step, AwaitRoll) and step.request.secret
        self._report(step, event, transition, secret)
        return transition

    def _report(self, step: Step, event: Event, transition: Transition, secret: bool) -> None:
        source = f" ({event.source})" if isinstance(event, DiceAccepted) and event.source != "camera" else ""
        if secret:
            self.say(f"  secret roll recorded{source}: {step.request.reason if isinstance(step, AwaitRoll) else ''}")
            self.ui.result = Screen("secret", "Secret roll", lines=("Recorded, not shown.",),
                                    footer="hold SELECT to reveal")
            self.play_tune("secret")
            return
        for line in transition.log:
            self.say(f"  {line}")
        cues = set(transition.cues)
        if isinstance(event, ChipAccepted):
            cues.add("chip")
        if isinstance(event, DiceAccepted):
            cues.add("dice")
        outcome = transition.outcome
        if outcome is not None:
            cues |= {e for e in outcome.effects if e in TUNES}
            if outcome.effects & {"killed", "dead", "death"}:
                cues.add("death")
            effects = ", ".join(sorted(outcome.effects))
            lines = [effects] if effects else []
            lines += list(outcome.changes or outcome.details[-2:])
            self.ui.result = Screen(
                "result", _title_for(step), big=f"{outcome.headline} {outcome.headline_label}",
                lines=tuple(lines), footer="SEL: continue",
            )
        elif isinstance(event, ChipAccepted):
            self.ui.result = None
        tune = pick_tune(cues)
        if tune:
            self.play_tune(tune)

    def play_tune(self, name: str) -> None:
        self.play(name)

    def error(self, title: str, text: str) -> None:
        log.info("%s: %s", title, text)
        self.say(f"! {title}: {text}")
        self.ui.message = Screen("error", title, lines=(text,), footer="any button")
        self.play_tune("error")

    def warn(self, title: str, text: str) -> None:
        self.say(f"! {title}: {text}")
        self.ui.message = Screen("warning", title, lines=(text,), footer="any button")
        self.play_tune("warning")

    # ------------------------------------------------------------ screens

    def screen(self) -> Screen:
        ui = self.ui
        if ui.message is not None:
            return ui.message
        if ui.mode == "menu":
            return Screen("menu", "Menu", items=tuple(label for _, label in ui.menu),
                          cursor=ui.cursor, footer="SEL ok  BACK close")
        if ui.mode == "entry" and ui.entry is not None:
            entry = ui.entry
            shown = " ".join(
                (f"[{entry.kinds[i].describe_face(v)}]" if i == entry.at
                 else entry.kinds[i].describe_face(v))
                for i, v in enumerate(entry.values)
            )
            return Screen("entry", f"Die {entry.at + 1} of {len(entry.values)}", big=shown,
                          footer="UP/DN value SEL next")
        if ui.mode == "status":
            return Screen("check", "Game status", lines=self.session.describe()[:4],
                          footer="any button")
        step = self.step
        if ui.mode == "pick_chip" and isinstance(step, AwaitChip):
            return Screen("menu", "Pick chip", items=step.in_bag, cursor=ui.cursor,
                          footer="SEL pick BACK cancel")
        if ui.result is not None:
            return ui.result
        return self.step_screen(step)

    def step_screen(self, step: Step) -> Screen:
        faults = ", ".join(self.ui.faults)
        if isinstance(step, AwaitChip):
            return Screen("idle", self.session.ruleset.title, big="Draw a chip",
                          lines=(step.prompt, f"{len(step.in_bag)} chips in the bag"),
                          footer=f"{faults} down" if faults else "hold SEL: menu")
        if isinstance(step, AwaitChoice):
            return Screen("menu", step.about or step.prompt,
                          items=tuple(o.label for o in step.options),
                          cursor=min(self.ui.cursor, len(step.options) - 1),
                          footer=step.prompt if step.about else "SEL choose")
        if isinstance(step, AwaitRoll):
            request = step.request
            plan = throws(request)
            done = len(self._partial_groups(request))
            groups = [request.groups[i] for i in plan[min(done, len(plan) - 1)]] if done else list(request.groups)
            roll = " + ".join(
                f"{g.count}{'d%' if g.kind is DieKind.PERCENTILE else g.kind.value}" for g in groups
            )
            lines = [request.reason]
            if len(plan) > 1:
                lines = [", ".join(g.label for g in groups)]
            line = odds_line(step.odds)
            if line and not request.secret:
                lines.append(line)
            footer = "camera down: hold SEL" if "camera" in self.ui.faults else "hold SEL: menu"
            title = "Secret roll" if request.secret else "Roll the dice"
            return Screen("roll", title, big=f"Roll {roll}", lines=tuple(lines), footer=footer)
        assert isinstance(step, GameOver)
        return Screen("summary", "Game over", big=step.winner or "Draw",
                      lines=step.summary[:3], footer="hold SEL: menu")

    def refresh(self) -> None:
        self.show_screen(self.screen())


def _title_for(step: Step) -> str:
    if isinstance(step, AwaitRoll):
        return step.request.groups[0].label if step.request.groups else "Result"
    return "Result"


def _describe_input(given: object) -> str:
    for attr in ("dice", "key", "chip"):
        if hasattr(given, attr):
            return f"{type(given).__name__} {getattr(given, attr)}"
    return type(given).__name__


def render_screen(screen: Screen):  # type: ignore[no-untyped-def]
    return render(screen)
