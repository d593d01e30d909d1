"""FortBoard v1.6 (Terry Cabak): a siege on a fort drawn as spaces.

The attacker moves everything, then the defender, then every contact is
fought out. Two six-sided dice; no chips. See docs/rules/fortboard.md.
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
from companion.rules.fortboard import game
from companion.rules.fortboard.actions import ACTIONS
from companion.rules.fortboard.scenario import OPTIONS, load_scenario
from companion.rules.fortboard.state import GameState


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise RulesError("not a FortBoard game state")
    return state


class FortBoard:
    """The FortBoard ruleset (module singleton RULESET)."""

    @property
    def name(self) -> str:
        return "fortboard"

    @property
    def title(self) -> str:
        return "FortBoard v1.6"

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
        return load_scenario(raw)

    def start(self, scenario: Scenario) -> object:
        return game.start(scenario)

    def next_step(self, state: object) -> Step:
        return game.next_step(_state(state))

    def advance(self, state: object, given: GameInput) -> Transition:
        return game.advance(_state(state), given)

    def describe(self, state: object) -> tuple[str, ...]:
        return game.describe(_state(state))


RULESET = FortBoard()

__all__ = ["RULESET", "FortBoard"]
