"""Scenario validation (every refusal names the unit and the field) and the named
options, which the docs must list as the box runs them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from otf_helpers import RULES, scenario_dict, unit

from companion.rules.core import ScenarioError
from companion.rules.on_the_frontier.scenario import Options, read_options

DOCS = Path(__file__).parents[3] / "docs" / "rules" / "on-the-frontier.md"

Change = Callable[[dict[str, Any]], object]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["units"][0].update(kind="dragoon"), ["Rifles", "kind", "infantry"]),
        (lambda d: d["units"][1].update(figures=0), ["Horse", "figures"]),
        (lambda d: d["units"][0].update(side="Green"), ["Rifles", "side"]),
        (lambda d: d["units"][0].update(weapons=["phaser"]), ["Rifles", "weapons", "rifle"]),
        (lambda d: d["units"][0].update(weapons=["artillery"]), ["Rifles", "weapons", "artillery"]),
        (lambda d: d["units"][0].update(traits={"quality": "heroic"}), ["Rifles", "quality"]),
        (lambda d: d["units"][0].update(traits={"ranks": 3}), ["Rifles", "ranks"]),
        (lambda d: d["units"][0].update(traits={"shock": "yes"}), ["Rifles", "traits.shock"]),
        (lambda d: d["units"][0].update(traits={"colour": "red"}), ["Rifles", "no trait 'colour'"]),
        (lambda d: d["units"][1].update(traits={"engineers": True}), ["Horse", "traits.engineers"]),
        (lambda d: d["units"][0].update(name="Horse"), ["Horse", "name"]),
        (
            lambda d: d["units"].append(
                {"name": "Gun", "side": "Blue", "kind": "artillery", "figures": 4}
            ),
            ["Gun", "weapons", "artillery"],
        ),
        (
            lambda d: d["units"].append(
                unit("Gun", "Blue", "artillery", 4, "artillery", traits={"ranks": 2})
            ),
            ["Gun", "traits.ranks"],
        ),
        (lambda d: d["units"][1].update(traits={"guns": 1}), ["Horse", "traits.guns"]),
        (
            lambda d: d["units"].append(
                unit("Gun", "Blue", "artillery", 4, "artillery", traits={"guns": 5})
            ),
            ["Gun", "traits.guns", "1..4"],
        ),
        (lambda d: d.update(setup={}), ["turn_limit"]),
        (lambda d: d["setup"].update(engineering=["Green"]), ["engineering", "Blue, Red"]),
        (lambda d: d["setup"].update(engineering="yes"), ["engineering"]),
        (lambda d: d["setup"].update(demolition_target="castle"), ["demolition_target"]),
        (
            lambda d: d["setup"].update(demolition_target="weak_wall", demolition_points=9),
            ["demolition_points"],
        ),
        (lambda d: d["setup"].update(colour="red"), ["colour"]),
        (lambda d: d.update(sides=["Blue", "Blue"]), ["sides"]),
        (lambda d: d.update(options={"odd_figure_dice": "sideways"}), ["odd_figure_dice"]),
        (lambda d: d.update(options={"hold_fire_kinds": "cavalry"}), ["hold_fire_kinds"]),
        (lambda d: d.update(options={"shaken_rout_check": True}), ["shaken_rout_check"]),
        (lambda d: d.update(options={"natural_six_always_hits": 1}), ["natural_six_always_hits"]),
        (lambda d: d.update(options={"nope": True}), ["nope"]),
        (
            lambda d: d.update(options={"artillery_contact_dice": "per_crewman"}),
            ["artillery_contact_dice", "per_gun"],
        ),
        (lambda d: d.update(options={"engineering_surplus": False}), ["engineering_surplus"]),
    ],
)
def test_bad_scenarios_name_unit_and_field(change: Change, words: list[str]) -> None:
    raw = scenario_dict()
    change(raw)
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario(raw)
    for word in words:
        assert word in str(caught.value)


def test_engineering_true_false_or_sides() -> None:
    for value, sides in ((True, ("Blue", "Red")), (False, ()), (["Red"], ("Red",))):
        state = RULES.start(RULES.load_scenario(scenario_dict(engineering=value)))
        assert state.engineering == sides  # type: ignore[attr-defined]


@pytest.mark.parametrize("option", [o.name for o in RULES.options])
def test_every_option_reads_each_of_its_choices(option: str) -> None:
    spec = next(o for o in RULES.options if o.name == option)
    assert spec.default == spec.choices[0]
    assert getattr(Options(), option) == spec.default
    for value in spec.choices:
        assert getattr(read_options({option: value}), option) == value


def test_docs_list_every_option_and_action() -> None:
    text = DOCS.read_text()
    for option in RULES.options:
        assert f"`{option.name}" in text, option.name
    for name in RULES.actions:
        assert f"`{name}`" in text, name
