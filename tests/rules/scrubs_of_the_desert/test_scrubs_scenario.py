"""Scenario validation, the named readings (options) and the example scenario."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from companion.rules import get_ruleset
from companion.rules.core import RuleOption, ScenarioError
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.game import GameState
from companion.rules.scrubs_of_the_desert.scenario import OPTIONS, Options, read_options

RULES = get_ruleset("scrubs_of_the_desert")


def example() -> dict:  # type: ignore[type-arg]
    text = resources.files("companion.scenarios").joinpath("scrubs_of_the_desert.toml").read_text()
    return tomllib.loads(text)


def test_every_option_defaults_as_documented() -> None:
    assert read_options({}) == Options()
    for option in OPTIONS:
        assert option.default in option.choices
        assert getattr(Options(), option.name) == option.default


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_reading_of_every_option_loads_and_plays(option: RuleOption) -> None:
    for value in option.choices:
        raw = {**example(), "options": {option.name: value}}
        state = RULES.start(RULES.load_scenario(raw))
        assert isinstance(state, GameState)
        assert getattr(state.options, option.name) == value


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_a_wrong_option_value_is_named(option: RuleOption) -> None:
    raw = {**example(), "options": {option.name: "sometimes"}}
    with pytest.raises(ScenarioError, match=f"{option.name} = 'sometimes' is not allowed"):
        RULES.load_scenario(raw)


def test_an_unknown_option_lists_the_options() -> None:
    with pytest.raises(ScenarioError, match=r"no option 'luck'.*double_zero"):
        RULES.load_scenario({**example(), "options": {"luck": True}})


def _with_unit_change(index: int, **change: object) -> dict:  # type: ignore[type-arg]
    raw = example()
    raw["units"][index] = {**raw["units"][index], **change}
    return raw


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"traits": {"base_morale": 75, "loss_per_figure": 0}},
            ["traits.loss_per_figure", "1..50"],
        ),
        ({"traits": {"base_morale": 75, "loss_per_figure": "5"}}, ["traits.loss_per_figure"]),
        ({"traits": {"base_morale": 75, "hidden": "yes"}}, ["traits.hidden", "true or false"]),
        ({"traits": {"base_morale": 75, "limbered": True}}, ["traits.limbered", "only guns"]),
        ({"traits": {"base_morale": 75, "hidden": True}}, ["traits.hidden", "only the Arab side"]),
        ({"traits": {"base_morale": 75, "luck": 3}}, ["1st Section", "no trait 'luck'"]),
        ({"traits": {"base_morale": -1}}, ["traits.base_morale", "0..100"]),
        ({"traits": {"base_morale": True}}, ["traits.base_morale"]),
        ({"weapons": []}, ["weapons", "non-empty"]),
        ({"weapons": ["machine_gun"]}, ["weapons", "only kind = 'gun'"]),
        ({"side": "Prussians"}, ["side", "Legion, Arabs"]),
        ({"leader": ""}, ["leader"]),
        ({"figures": 0}, ["figures", "1..40"]),
    ],
)
def test_a_bad_unit_names_the_unit_and_the_field(change: dict, words: list[str]) -> None:  # type: ignore[type-arg]
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario(_with_unit_change(0, **change))
    message = str(caught.value)
    assert "'1st Section'" in message
    for word in words:
        assert word in message


def test_a_gun_has_exactly_one_support_weapon() -> None:
    raw = _with_unit_change(3, weapons=["machine_gun", "french_cannon"])
    with pytest.raises(ScenarioError, match="'Hotchkiss MG', field 'weapons'"):
        RULES.load_scenario(raw)


def test_arab_weapons_for_the_french_are_refused() -> None:
    with pytest.raises(ScenarioError, match="'arab_spear' is not allowed for the french side"):
        RULES.load_scenario(_with_unit_change(0, weapons=["arab_spear"]))


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"turn_limit": 0}, ["turn_limit", "1..50"]),
        ({"turn_limit": 6, "french_side": "Prussians"}, ["french_side"]),
        ({"turn_limit": 6, "fort": "yes"}, ["fort", "true or false"]),
        ({"turn_limit": 6, "figures_over_wall_to_win": 3}, ["needs fort = true"]),
        ({"turn_limit": 6, "weather": "hot"}, ["no setting 'weather'"]),
    ],
)
def test_a_bad_setup_is_named(setup: dict, words: list[str]) -> None:  # type: ignore[type-arg]
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario({**example(), "setup": setup})
    for word in words:
        assert word in str(caught.value)


def test_the_example_scenario_exercises_the_rules() -> None:
    scenario = RULES.load_scenario(example())
    sizes = {u.figures for u in scenario.units}
    rates = {tables.loss_percent_per_figure(size) for size in sizes}
    assert rates == {10, 5, 3}  # every row of the morale loss chart
    weapons = {w for u in scenario.units for w in u.weapons}
    assert weapons == set(tables.WEAPONS)  # every weapon of the fire chart
    kinds = {(u.side, u.kind) for u in scenario.units}
    assert kinds == {(side, kind) for side in scenario.sides for kind in tables.UNIT_KINDS}
    assert any(u.leader for u in scenario.units if u.side == "Arabs")
    assert any(u.traits.get("limbered") for u in scenario.units)
    assert any(u.traits.get("hidden") is False for u in scenario.units)
    assert set(scenario.options) == {o.name for o in OPTIONS}  # every reading, spelled out
    state = RULES.start(scenario)
    assert isinstance(state, GameState) and state.fort and state.wall_goal == 6
    assert {b.name for b in state.bands if not b.spotted} == {
        "Ouled Riflemen",
        "Marabout's Warband",
        "Old Cannon",
    }
