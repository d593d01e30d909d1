"""How a step of play is written, used by every other module.

A step takes the state and an `Out`, notes what happened on the table (`Out.log`,
cues, the lines that only repeat a roll's headline) and returns the state with its
next `Stage` set, or none for the turn to go on. Also the scenario's options as read
by the steps (`opt_str`, `opt_int`) and the dice asked for: a `Roll` is an Action with
its parameters, and `zero`, `d10_reading` the options every roll passes on.

Each module declares the stage kinds it answers, for `game.py` to gather: `ROLLS`
(a `RollStep`: the roll asked for, what its outcome does), `CHOICES` (a `ChoiceStep`:
the question put, what the option chosen does) and `PHASES` (a `PhaseStep`: what a
phase does while no question is pending). `picked` and `label` read and write options.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.rules.core import Action, AwaitChoice, Outcome, StageStep
from companion.rules.fighting_swashbucklers.state import GameState, Stage


@dataclass
class Out:
    """What one input tells the table, gathered while the state is worked out."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None
    # Lines of the play-by-play that only say the roll's headline again ("Legion rallies
    # 2 men" under "2 men rallied"): the log keeps them, the result screen does not.
    headline_said: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Roll:
    action: Action
    params: dict[str, int | bool | str]
    about: str


def opt_str(s: GameState, name: str) -> str:
    return str(s.option(name))


def opt_int(s: GameState, name: str) -> int:
    value = s.option(name)
    assert isinstance(value, int)
    return value


def zero(s: GameState) -> dict[str, int | bool | str]:
    return {"double_zero": opt_str(s, "double_zero")}


def d10_reading(s: GameState) -> dict[str, int | bool | str]:
    return {"d10_zero": opt_str(s, "d10_zero")}


RollStep = StageStep[
    Callable[[GameState], Roll],
    Callable[[GameState, Stage, Sequence[int], Outcome, Out], GameState],
]
"""A stage that waits for dice: the roll, from the state at the stage; and what its
outcome does, given the state with its stage cleared, the stage answered, the dice and
their outcome. It returns the state with its next stage set, or none for the phase to
go on."""

ChoiceStep = StageStep[
    Callable[[GameState], AwaitChoice],
    Callable[[GameState, Stage, str, Out], GameState],
]
"""A stage that waits for a choice: the question, from the state at the stage; and what
the option chosen (its key) does, given the state with its stage cleared and the stage
answered."""


PhaseStep = Callable[[GameState, Out], GameState]
"""What a phase does while no question is pending: set the stage that asks the next
one, or move on (to the next phase, the other side's half, the end of the game)."""


def picked(key: str) -> str:
    """What an option's key names after its colon: "unit:Sgt" gives "Sgt"."""
    return key.partition(":")[2]


def label(text: str, limit: int = 18) -> str:
    """A name cut short enough for an option's label."""
    return text if len(text) <= limit else text[: limit - 1] + "."
