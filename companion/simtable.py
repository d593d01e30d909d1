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

from companion.box import Box, ButtonPressed, DiceSeen, SeenDie, TagSeen, throws
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, DieKind, GameOver, Scenario


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


# A roll of the dice: the kinds wanted, in order -> what the camera reports.
DiceThrower = Callable[[list[DieKind], random.Random], DiceSeen]


def direct_throw(kinds: list[DieKind], rng: random.Random) -> DiceSeen:
    """Dice values straight to the box, as if read perfectly (fast soak tests)."""
    return DiceSeen(tuple(
        SeenDie(k.value, rng.choice(k.faces), (i * 40, 0, 30, 30)) for i, k in enumerate(kinds)
    ))


class SimTable:
    def __init__(
        self,
        box: Box,
        rng: random.Random,
        *,
        fingers: Fingers | None = None,
        draw_chip: Callable[[str], None] | None = None,
        throw: DiceThrower = direct_throw,
        first_choice_bias: float = 0.6,
    ) -> None:
        self.box = box
        self.rng = rng
        self.fingers = fingers or Fingers(lambda b, long: box.handle(ButtonPressed(b, long)))
        self.draw_chip = draw_chip or (lambda chip: box.handle(TagSeen(sim_uid(chip), chip)))
        self.throw = throw
        self.first_choice_bias = first_choice_bias
        self.camera_ok = True

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
        if ui.message is not None or ui.result is not None or ui.mode == "status":
            self.press("select")
            return "press select (continue)"
        if ui.mode == "entry" and ui.entry is not None:
            return self._enter_die()
        step = box.step
        if isinstance(step, AwaitChip):
            chip = self.rng.choice(step.in_bag)
            self.draw_chip(chip)
            return f"draw chip {chip}"
        if isinstance(step, AwaitChoice):
            index = 0 if self.rng.random() < self.first_choice_bias else self.rng.randrange(
                len(step.options))
            for _ in range(index):
                self.press("down")
            self.press("select")
            return f"choose {step.options[index].label}"
        if isinstance(step, AwaitRoll):
            if not self.camera_ok:
                return self._open_manual_entry()
            request = step.request
            plan = throws(request)
            if not plan:  # nothing to roll: an empty tray answers it
                box.handle(DiceSeen(()))
                return "roll no dice"
            throw = plan[box._throws_done(request)]
            kinds = [request.groups[i].kind for i in throw for _ in range(request.groups[i].count)]
            seen = self.throw(kinds, self.rng)
            box.handle(seen)
            return f"roll {len(kinds)} dice"
        return "game over"

    def _open_manual_entry(self) -> str:
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
        target = self.rng.choice(faces)
        steps = (faces.index(target) - faces.index(entry.values[entry.at])) % len(faces)
        for _ in range(steps):
            self.press("up")
        self.press("select")
        return f"enter die {entry.at} = {target}"
