"""On the Frontier: simple d6 rules for small actions of the 1860s-1880s.

The package holds the charts (`tables`), one module per rule area (`initiative`,
`movement`, `rally`, `shooting`, `charges`, `engineering`), the stand-alone
rolls (`actions`), scenario validation and options (`scenario`) and the sequence
of play (`game`). `RULESET` is what `companion.rules.get_ruleset` loads.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import (
    Action,
    DieKind,
    GameInput,
    RuleOption,
    RulesError,
    Scenario,
    ScenarioValue,
    Step,
    Transition,
)
from companion.rules.on_the_frontier import game
from companion.rules.on_the_frontier.actions import ACTIONS
from companion.rules.on_the_frontier.scenario import OPTIONS, SYSTEM
from companion.rules.on_the_frontier.scenario import load_scenario as _load_scenario


def _state(state: object) -> game.GameState:
    if not isinstance(state, game.GameState):
        raise RulesError(f"not an On the Frontier game state: {type(state).__name__}")
    return state


class OnTheFrontier:
    """The On the Frontier ruleset (a module-level singleton, `RULESET`)."""

    @property
    def name(self) -> str:
        return SYSTEM

    @property
    def title(self) -> str:
        return "On the Frontier"

    @property
    def dice(self) -> tuple[DieKind, ...]:
        return (DieKind.D6,)

    @property
    def actions(self) -> Mapping[str, Action]:
        return ACTIONS

    @property
    def options(self) -> tuple[RuleOption, ...]:
        return OPTIONS

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        return _load_scenario(raw)

    def start(self, scenario: Scenario) -> object:
        return game.start(scenario)

    def next_step(self, state: object) -> Step:
        return game.next_step(_state(state))

    def advance(self, state: object, given: GameInput) -> Transition:
        return game.advance(_state(state), given)

    def describe(self, state: object) -> tuple[str, ...]:
        return game.describe(_state(state))


RULESET = OnTheFrontier()

__all__ = ["RULESET", "OnTheFrontier"]
