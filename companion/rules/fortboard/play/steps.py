"""How a step of play is written, used by every other module.

A step takes the state and an `Out`, says what happened (`Out.log`, cues, the roll's
outcome) and returns the state with its next question pushed on the stack (an `Ask`,
whose `kind` names the question). Also the figures still standing of those an ask
names (`alive`), a roll's request and odds (`action_roll`) and its result (`resolve`),
and the shapes of the four kinds of handler each module declares by ask kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.rules.core import Choice, Odds, Outcome, RollRequest, StageStep
from companion.rules.fortboard import actions
from companion.rules.fortboard.state import Ask, Figure, GameState


@dataclass
class Out:
    """What one input told the table (collected while it is applied)."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None


def alive(state: GameState, ids: Sequence[int]) -> list[Figure]:
    return [g for g in (state.figure(i) for i in ids) if g is not None]


def action_roll(action_name: str, params: dict[str, int | bool | str]) -> tuple[RollRequest, Odds]:
    action = actions.ACTIONS[action_name]
    full = action.complete_params(params)
    return action.request(full), action.odds(full)


def resolve(name: str, params: dict[str, int | bool | str], dice: tuple[int, ...]) -> Outcome:
    action = actions.ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


ChoiceAsk = Callable[[GameState, Ask], tuple[str, list[Choice], str]]
"""The question a choice ask puts: its prompt, options and what it is about."""

RollAsk = Callable[[GameState, Ask], tuple[RollRequest, Odds | None]]
"""The dice a roll ask wants, and their odds where they are known."""

ChoiceHandler = Callable[[GameState, str, Out], GameState]
"""What the option chosen (its key) does; the ask answered is still on top of the stack."""

RollHandler = Callable[[GameState, tuple[int, ...], Out], GameState]
"""What the dice rolled do; the ask answered is still on top of the stack."""

ChoiceStep = StageStep[ChoiceAsk, ChoiceHandler]
"""A choice stage: its question and what the option chosen does."""

RollStep = StageStep[RollAsk, RollHandler]
"""A roll stage: the roll it wants and what the outcome does."""
