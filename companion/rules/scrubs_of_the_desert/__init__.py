"""Scrubs of the Desert: French Foreign Legion skirmish rules on d10s read 0-9.

The package holds the charts (`tables`), the dice conventions (`dice`: 0 is
zero; percentile "00" by option), one module per rule area (`activation`,
`sighting`, `movement`, `fire`, `cannon`, `crew_targeting`, `morale`, `melee`,
`grappling`), the stand-alone rolls (`actions`), scenario validation and options
(`scenario`) and the sequence of play (`game`). `RULESET` is what
`companion.rules.get_ruleset` loads.
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
from companion.rules.scrubs_of_the_desert import game
from companion.rules.scrubs_of_the_desert.actions import ACTIONS
from companion.rules.scrubs_of_the_desert.scenario import OPTIONS, SYSTEM
from companion.rules.scrubs_of_the_desert.scenario import load_scenario as _load_scenario


def _state(state: object) -> game.GameState:
    if not isinstance(state, game.GameState):
        raise RulesError(f"not a Scrubs of the Desert game state: {type(state).__name__}")
    return state


class ScrubsOfTheDesert:
    """The Scrubs of the Desert ruleset (a module-level singleton, `RULESET`)."""

    @property
    def name(self) -> str:
        return SYSTEM

    @property
    def title(self) -> str:
        return "Scrubs of the Desert"

    @property
    def dice(self) -> tuple[DieKind, ...]:
        return (DieKind.D10, DieKind.PERCENTILE)

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


RULESET = ScrubsOfTheDesert()

__all__ = ["RULESET", "ScrubsOfTheDesert"]
