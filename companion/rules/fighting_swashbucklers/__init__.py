"""Fighting Swashbucklers of the Foreign Legion (Wally Simon, 1988).

A squad skirmish "morale game": poses fix fire and melee factors, fire places
markers that lower a squad's percentile Morale Level, and the commanding
officer's Command Points drive second actions, reaction fire and rallies.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import (
    Action,
    DieKind,
    GameInput,
    RuleOption,
    Scenario,
    ScenarioValue,
    Step,
    Transition,
)
from companion.rules.fighting_swashbucklers import game, scenario
from companion.rules.fighting_swashbucklers.actions import ACTIONS


class FightingSwashbucklers:
    """The ruleset singleton (see companion.rules.core.Ruleset)."""

    @property
    def name(self) -> str:
        return "fighting_swashbucklers"

    @property
    def title(self) -> str:
        return "Fighting Swashbucklers of the Foreign Legion"

    @property
    def dice(self) -> tuple[DieKind, ...]:
        return (DieKind.D10, DieKind.PERCENTILE)

    @property
    def actions(self) -> Mapping[str, Action]:
        return ACTIONS

    @property
    def options(self) -> tuple[RuleOption, ...]:
        return scenario.OPTIONS

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        return scenario.load_scenario(raw)

    def start(self, scenario: Scenario) -> object:
        return game.start(scenario)

    def next_step(self, state: object) -> Step:
        return game.next_step(state)

    def advance(self, state: object, given: GameInput) -> Transition:
        return game.advance(state, given)

    def describe(self, state: object) -> tuple[str, ...]:
        return game.describe(state)


RULESET = FightingSwashbucklers()
