"""Tenir le Fort (Keith Jordan): the Foreign Legion holds a desert fort against two attacks.

Modules: `tables` (the charts), `movement`, `fire`, `wounds`, `close_combat`,
`campaign` (relief, command points, ammunition, resolve), `sabotage`,
`dynamite` (each with its Actions), `actions` (all of them by name),
`scenario` (validation and options), `state` and `game` (the sequence of play).
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
from companion.rules.tenir_le_fort import game, scenario
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.state import GameState


class TenirLeFort:
    """The ruleset singleton (see companion.rules.core.Ruleset)."""

    @property
    def name(self) -> str:
        return "tenir_le_fort"

    @property
    def title(self) -> str:
        return "Tenir le Fort"

    @property
    def dice(self) -> tuple[DieKind, ...]:
        return (DieKind.D6,)

    @property
    def actions(self) -> Mapping[str, Action]:
        return ACTIONS

    @property
    def options(self) -> tuple[RuleOption, ...]:
        return scenario.OPTIONS

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        return scenario.load(raw)

    def start(self, scenario: Scenario) -> GameState:
        return game.start(scenario)

    def next_step(self, state: object) -> Step:
        return game.next_step(_state(state))

    def advance(self, state: object, given: GameInput) -> Transition:
        return game.advance(_state(state), given)

    def describe(self, state: object) -> tuple[str, ...]:
        return game.describe(_state(state))


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise RulesError(f"not a Tenir le Fort state: {type(state).__name__}")
    return state


RULESET = TenirLeFort()

__all__ = ["RULESET", "TenirLeFort"]
