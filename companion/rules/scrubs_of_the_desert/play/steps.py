"""How a step of play is written, used by every other module.

A step takes the state (and the answer: the key chosen, or the outcome of the roll) and
returns a `Result`: the state at its next stage (`to`, which also changes the
activation's `Context`) and what the table is told (`r`; `then` puts lines before what a
later step says). Also the choice of how many (`count_choices`), a side's name with its
verb (`side_does`), and the shapes of the four tables each module declares by stage: the
question a choice stage puts, the roll a roll stage wants, and the handlers of their
answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    Choice,
    Outcome,
    Params,
    StageStep,
)
from companion.rules.grammar import agree
from companion.rules.scrubs_of_the_desert.state import GameState


@dataclass(frozen=True)
class Result:
    state: GameState
    log: tuple[str, ...] = ()
    cues: frozenset[str] = frozenset()


def r(state: GameState, *lines: str, cues: frozenset[str] = frozenset()) -> Result:
    return Result(state, tuple(lines), cues)


def then(result: Result, *lines: str, cues: frozenset[str] = frozenset()) -> Result:
    """`lines` first, then what `result` says."""
    return Result(result.state, (*lines, *result.log), result.cues | cues)


def to(state: GameState, stage: str, **changes: object) -> GameState:
    return replace(state, stage=stage, ctx=replace(state.ctx, **changes))  # type: ignore[arg-type]


def side_does(side: str, singular: str, plural: str) -> str:
    """A side's name and its verb, agreeing: "Legion wins", "Arabs win"."""
    return agree(side, singular, plural)




#: The most figures a menu offers (figures under a blast, others near a gun).
MAX_FIGURES_ASKED = 30


def count_choices(most: int) -> tuple[Choice, ...]:
    """How many: 1 to `most`."""
    return tuple(Choice(str(n), str(n)) for n in range(1, most + 1))


ChoiceAsk = Callable[[GameState], AwaitChoice]
"""The question a choice stage puts."""

RollAsk = Callable[[GameState], tuple[Action, Params]]
"""The roll a roll stage wants: its action and parameters."""

ChoiceHandler = Callable[[GameState, str], Result]
"""What the option chosen (its key) does at its stage."""

RollHandler = Callable[[GameState, Outcome], Result]
"""What the roll's outcome does at its stage."""

ChoiceStep = StageStep[ChoiceAsk, ChoiceHandler]
"""A choice stage: its question and what the option chosen does."""

RollStep = StageStep[RollAsk, RollHandler]
"""A roll stage: the roll it wants and what the outcome does."""
