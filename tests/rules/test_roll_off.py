"""Roll-offs between the two sides show each side's die and chance by its name."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib import resources

import pytest

from companion.rules import get_ruleset
from companion.rules.core import AwaitRoll


@pytest.mark.parametrize(
    ("system", "tie"),
    [("scrubs_of_the_desert", Fraction(1, 10)), ("on_the_frontier", Fraction(1, 6))],
)
def test_the_first_roll_off_is_named_for_the_sides(system: str, tie: Fraction) -> None:
    ruleset = get_ruleset(system)
    text = resources.files("companion.scenarios").joinpath(f"{system}.toml").read_text()
    scenario = ruleset.load_scenario(tomllib.loads(text))
    step = ruleset.next_step(ruleset.start(scenario))
    assert isinstance(step, AwaitRoll)
    sides = tuple(group.label for group in step.request.groups)
    assert sides == tuple(scenario.sides)
    assert step.odds.names == {1: sides[0], 2: sides[1], 0: "tie"}
    assert step.odds.headline[0] == tie
    assert step.odds.headline[1] == step.odds.headline[2] == (1 - tie) / 2
