"""The table in simulation: a bag of tagged chips, real-looking dice and a
referee's fingers, acting on the box through its simulated hardware.

Used by `companion demo`, `companion run --autoplay` and the tests. It only
ever does what a person at the table could do: draw a chip, press a button,
roll dice into the tray. It reads the box's screen state to decide, never
its game state.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.box import Box, ButtonPressed, DiceSeen, SeenDie, TagSeen, dice_order
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, DieKind, GameOver, Scenario
from companion.ui.wording import counted


def sim_uid(chip: str) -> str:
    """A stable 7-byte NTAG-style UID for a chip name (NXP's 04 prefix)."""
    return "04" + hashlib.sha1(chip.encode()).hexdigest()[:12].upper()


def scenario_chips(scenario: Scenario) -> tuple[str, ...]:
    """Every chip name the scenario uses: units' chips and extra chits in [setup]."""
    names = [u.chip for u in scenario.units if u.chip]
    extra = scenario.setup.get("chips", [])
    if isinstance(extra, list):
        for item in extra:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, dict) and isinstance(item.get("name"), str):
                names.append(str(item["name"]))
    return tuple(dict.fromkeys(names))


@dataclass
class Fingers:
    """How the sim presses buttons: straight into the box, or through mock pins."""

    press: Callable[[str, bool], None]


# The camera over the tray: the kinds and true faces of the dice thrown -> what
# it reports to the box, or None when it saw no dice at all (nothing reaches
# the box, as on the real one: an empty-looking tray is not a roll).
Camera = Callable[[list[DieKind], list[int], random.Random], DiceSeen | None]


def perfect_camera(kinds: list[DieKind], truth: list[int], rng: random.Random) -> DiceSeen:
    """Every die read as it lies (fast soak tests)."""
    return DiceSeen(tuple(
        SeenDie(k.value, v, (i * 40, 0, 30, 30))
        for i, (k, v) in enumerate(zip(kinds, truth, strict=True))
    ))


# A referee gives the camera this many tries at one throw, then types the dice in.
TRIES_BEFORE_HAND_ENTRY = 2


class SimTable:
    def __init__(
        self,
        box: Box,
        rng: random.Random,
        *,
        fingers: Fingers | None = None,
        draw_chip: Callable[[str], None] | None = None,
        camera: Camera = perfect_camera,
        first_choice_bias: float = 0.6,
        on_choice: Callable[[str], None] | None = None,
    ) -> None:
        self.box = box
        self.rng = rng
        self.fingers = fingers or Fingers(lambda b, long: box.handle(ButtonPressed(b, long)))
        self.draw_chip = draw_chip or (lambda chip: box.handle(TagSeen(sim_uid(chip), chip)))
        self.camera = camera
        self.first_choice_bias = first_choice_bias
        # Told an option's label before pressing it, so what the choice leads to is said after.
        self.on_choice = on_choice
        # The faces of the last throw as they lie, and which throw of which roll it was
        # (the journal's length then, the throw's index).
        self.on_tray: tuple[int, int, list[int]] = (-1, -1, [])
        self.unseen = 0  # tries at the throw waiting now that the camera did not see
        self.unseen_at = (-1, -1)  # which throw: the journal's length, the dice read
        self.typed: list[int] = []  # what the referee means to type into dice entry

    def press(self, button: str, long: bool = False) -> None:
        self.fingers.press(button, long)

    def finished(self) -> bool:
        """The game is over and every result has been read: the summary is showing."""
        ui = self.box.ui
        return (isinstance(self.box.step, GameOver) and ui.mode == "normal"
                and ui.result is None and ui.message is None)

    def act(self) -> str:
        """Do the next thing a player or the referee would; say what it was."""
        box = self.box
        ui = box.ui
        if ui.message is not None and ui.offer == "enter":
            # Refused again: type in the dice lying on the tray.
            self._plan_entry()
            self.press("select")
            return "enter the dice by hand (the camera refused them)"
        if ui.message is not None or ui.result is not None or ui.mode == "status":
            self.press("select")
            return "press select (continue)"
        if ui.mode == "entry" and ui.entry is not None:
            return self._enter_die()
        step = box.step
        if isinstance(step, AwaitChip):
            chip = self.rng.choice(step.in_bag)
            if "chip reader" in ui.faults:  # the draw screen says the reader is down
                return self._pick_by_hand(chip, step.in_bag)
            self.draw_chip(chip)
            return f"draw chip {chip}"
        if isinstance(step, AwaitChoice):
            index = 0 if self.rng.random() < self.first_choice_bias else self.rng.randrange(
                len(step.options))
            for _ in range(index):
                self.press("down")
            if self.on_choice is not None:
                self.on_choice(step.options[index].label)
            self.press("select")
            return f"choose {step.options[index].label}"
        if isinstance(step, AwaitRoll):
            return self._roll(step)
        return "game over"

    def _roll(self, step: AwaitRoll) -> str:
        box = self.box
        if box.entry_offered():  # the camera is down, or refused this roll again
            self._plan_entry()
            self.press("select")
            return "enter the dice by hand"
        throw = (box.session.record.events, len(box.ui.partial))
        if self.unseen_at != throw:
            self.unseen, self.unseen_at = 0, throw
        if self.unseen >= TRIES_BEFORE_HAND_ENTRY:
            return self._open_manual_entry()
        request = step.request
        plan = box.plan(request)
        if not plan:  # nothing to roll: an empty tray answers it
            box.handle(DiceSeen(()))
            return "roll no dice"
        done = box.throws_done(request)
        kinds = [request.groups[p.group].kind for p in plan[done] for _ in range(p.count)]
        faces = [self.rng.choice(k.faces) for k in kinds]
        self.on_tray = (box.session.record.events, done, faces)
        seen = self.camera(kinds, faces, self.rng)
        if seen is None:
            self.unseen += 1
            box.say(f"  (the camera saw no dice: {counted(len(kinds), 'die', 'dice')} thrown)")
            return f"roll {counted(len(kinds), 'die', 'dice')}, not seen"
        box.handle(seen)
        return f"roll {counted(len(kinds), 'die', 'dice')}"

    def _plan_entry(self) -> None:
        """What to type: dice already read stay, the throw on the tray as it lies,
        throws not made yet rolled now."""
        step = self.box.step
        if not isinstance(step, AwaitRoll):
            self.typed = []
            return
        request = step.request
        plan = self.box.plan(request)
        done = self.box.throws_done(request)
        typed = [self.rng.choice(k.faces) for k in request.kinds]
        order = dice_order(request, plan)
        read = list(self.box.ui.partial)
        events, thrown, faces = self.on_tray
        if (events, thrown) == (self.box.session.record.events, done) and done < len(plan):
            read += faces
        for at, value in zip(order, read, strict=False):
            typed[at] = value
        self.typed = typed

    def _pick_by_hand(self, chip: str, in_bag: tuple[str, ...]) -> str:
        self.press("select")  # the draw screen's pick list
        if self.box.ui.mode != "pick_chip":
            return "pick list did not open"
        for _ in range(in_bag.index(chip)):
            self.press("down")
        self.press("select")
        return f"pick chip {chip} by hand"

    def _open_manual_entry(self) -> str:
        self._plan_entry()
        self.press("select", True)
        labels = [key for key, _ in self.box.ui.menu]
        if "enter" not in labels:  # the menu did not open (a message came up): try again
            if self.box.ui.mode == "menu":
                self.press("back")
            return "menu without dice entry"
        for _ in range(labels.index("enter")):
            self.press("down")
        self.press("select")
        return "open manual dice entry"

    def _enter_die(self) -> str:
        entry = self.box.ui.entry
        assert entry is not None
        faces = entry.kinds[entry.at].faces
        planned = len(self.typed) == len(entry.values)
        target = self.typed[entry.at] if planned else self.rng.choice(faces)
        steps = (faces.index(target) - faces.index(entry.values[entry.at])) % len(faces)
        for _ in range(steps):
            self.press("up")
        self.press("select")
        return f"enter die {entry.at} = {target}"
