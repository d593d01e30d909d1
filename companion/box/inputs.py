"""What the box is given: the inputs its queue carries (buttons, chip reads, settled
dice, devices lost and back) and the way to start a new game (`NewGames`).

Hardware callbacks build these and post them (`Box.post`); the box handles them one
at a time on its own thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.session.scenario_files import ScenarioChoice
from companion.session.session import GameSession


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


@dataclass(frozen=True)
class NewGames:
    """How the box starts a new game, given by the process that owns the journal: the
    games it offers (read when the list opens, so that a file copied in meanwhile is
    there), and `start(scenario_toml, scenario_name)`, which archives the game so far and
    returns the new session, or raises NewGameRefused having changed nothing."""

    choices: Callable[[], Sequence[ScenarioChoice]]
    start: Callable[[str, str], GameSession]
