"""How a step of play is written, used by every other module.

Play goes by named stages (`GameState.stage`): a stage asks one question, a choice or a
roll, and the handler of its answer returns a `Result` (the new state, what the table
is told, the cues) with the next stage set (`to`). Also the end of a unit's order
(`unit_done`), the wording that agrees with a unit's name (`does`, `is_plural`), and
the shapes of the four kinds of handler each module declares by
stage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    Outcome,
    Params,
    StageStep,
)
from companion.rules.grammar import agree, plural_name
from companion.rules.on_the_frontier.state import Context, GameState

ANYONE_WITHIN_6 = 'Enemy within 6"?'


@dataclass(frozen=True)
class Result:
    state: GameState
    log: tuple[str, ...] = ()
    outcome: Outcome | None = None
    cues: frozenset[str] = frozenset()


def prefix(result: Result, lines: tuple[str, ...], cues: frozenset[str] = frozenset()) -> Result:
    """Put `lines` before what `result` says, and add `cues`."""
    return replace(result, log=(*lines, *result.log), cues=result.cues | cues)


def to(state: GameState, stage: str, **ctx: object) -> GameState:
    return replace(state, stage=stage, ctx=replace(state.ctx, **ctx))  # type: ignore[arg-type]


def _one_man(state: GameState, name: str) -> bool:
    """A commander is one man, whatever his name."""
    return any(f.name == name and f.kind == "commander" for f in state.forces)


def is_plural(state: GameState, name: str) -> bool:
    return plural_name(name) and not _one_man(state, name)


def does(state: GameState, name: str, singular: str, plural: str) -> str:
    """The unit's name and the verb phrase that agrees with it."""
    return agree(name, singular, plural, one=_one_man(state, name))


def finish_activation(state: GameState) -> GameState:
    """The unit has its order for the turn; back to choosing the next unit."""
    return replace(state, stage="pick_unit", ctx=Context())


def unit_done(state: GameState, name: str, held_fire: bool | None = None) -> GameState:
    f = state.force(name)
    f = replace(f, acted=True, held_fire=f.held_fire if held_fire is None else held_fire)
    return finish_activation(state.with_force(f))


ChoiceAsk = Callable[[GameState], AwaitChoice]
"""The question a choice stage puts: its prompt, options and what it is about."""

RollAsk = Callable[[GameState], tuple[Action, Params]]
"""The roll a roll stage wants: the Action and its params."""

ChoiceHandler = Callable[[GameState, str], Result]
"""What the option chosen (its key) does; the state is still at the stage answered."""

RollHandler = Callable[[GameState, Outcome, tuple[int, ...]], Result]
"""What the roll did (its outcome and dice); the state is still at the stage answered."""

ChoiceStep = StageStep[ChoiceAsk, ChoiceHandler]
"""A choice stage: its question and what the option chosen does."""

RollStep = StageStep[RollAsk, RollHandler]
"""A roll stage: the roll it wants and what the outcome does."""
