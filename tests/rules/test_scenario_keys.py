"""A key a scenario file's table does not know is refused in every system, at every level:
misspelt, it would be skipped and what it meant to set would fall back to its default."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from companion.rules import SYSTEM_NAMES, get_ruleset
from companion.rules.core import ScenarioError


def _example(system: str) -> dict[str, Any]:
    text = resources.files("companion.scenarios").joinpath(f"{system}.toml").read_text("utf-8")
    return tomllib.loads(text)


def _tables(raw: dict[str, Any], path: tuple[str | int, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every table in the scenario: the top level, [setup], each unit, its
    traits, each [[setup.places]]..."""
    yield path
    for key, value in raw.items():
        if isinstance(value, dict):
            yield from _tables(value, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    yield from _tables(item, (*path, key, index))


def _table(raw: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    table: Any = raw
    for step in path:
        table = table[step]
    assert isinstance(table, dict)
    return table


CASES = [
    pytest.param(system, path, id=f"{system}-{'.'.join(map(str, path)) or 'top'}")
    for system in SYSTEM_NAMES
    for path in _tables(_example(system))
]


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_example_scenario_loads(system: str) -> None:
    get_ruleset(system).load_scenario(_example(system))


@pytest.mark.parametrize(("system", "path"), CASES)
def test_a_key_no_table_knows_is_refused(system: str, path: tuple[str | int, ...]) -> None:
    raw = _example(system)
    _table(raw, path)["weather"] = "hot"
    with pytest.raises(ScenarioError, match=r"has no \w+ 'weather'; \w+s are: "):
        get_ruleset(system).load_scenario(raw)


def _misspelt(key: str) -> str:
    """The key with its last two letters swapped ("title" -> "titel")."""
    return key[:-2] + key[-1] + key[-2]


@pytest.mark.parametrize(("system", "path"), CASES)
def test_a_misspelt_key_is_refused_with_the_key_it_stands_for(
    system: str, path: tuple[str | int, ...]
) -> None:
    example = _example(system)
    for key in _table(example, path):
        if len(key) < 4 or _misspelt(key) == key:
            continue
        raw = copy.deepcopy(example)
        table = _table(raw, path)
        table[_misspelt(key)] = table.pop(key)
        with pytest.raises(ScenarioError) as refused:
            get_ruleset(system).load_scenario(raw)
        message = str(refused.value)
        assert f"{_misspelt(key)!r} (did you mean {key!r}" in message, message
        assert key in message.split(" are: ")[-1].split(", "), "the known keys are listed"


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_a_misspelt_title_is_named_and_the_title_missing(system: str) -> None:
    raw = _example(system)
    raw["titel"] = raw.pop("title")
    with pytest.raises(ScenarioError) as refused:
        get_ruleset(system).load_scenario(raw)
    assert str(refused.value).startswith(
        "the scenario has no field 'titel' (did you mean 'title', which is missing?); "
        "fields are: system, title, sides, units, options, setup, notes"
    )


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_a_misspelt_unit_field_beside_the_right_one_is_refused(system: str) -> None:
    raw = _example(system)
    unit = raw["units"][0]
    unit["figurs"] = 9
    with pytest.raises(ScenarioError) as refused:
        get_ruleset(system).load_scenario(raw)
    assert str(refused.value).startswith(
        f"unit {unit['name']!r} has no field 'figurs' (did you mean 'figures'?); fields are: "
    )


def test_a_unit_whose_name_is_misspelt_is_named_by_its_place_in_the_file() -> None:
    raw = _example("on_the_frontier")
    raw["units"][1]["nmae"] = raw["units"][1].pop("name")
    with pytest.raises(ScenarioError, match=r"^unit 2 has no field 'nmae' \(did you mean 'name', "
                                            r"which is missing\?\)"):
        get_ruleset("on_the_frontier").load_scenario(raw)


@pytest.mark.parametrize(
    "system", ["on_the_frontier", "scrubs_of_the_desert", "fortboard", "fighting_swashbucklers"]
)
def test_a_chip_is_refused_where_the_system_draws_no_chips(system: str) -> None:
    raw = _example(system)
    raw["units"][0]["chip"] = "A"
    with pytest.raises(ScenarioError, match="has no field 'chip'"):
        get_ruleset(system).load_scenario(raw)


def test_command_points_for_a_side_not_in_the_game_suggest_the_nearest() -> None:
    raw = _example("fighting_swashbucklers")
    first, _second = raw["sides"]
    raw["setup"]["command_points"] = {first[:-1]: 3}
    with pytest.raises(ScenarioError, match=rf"^\[setup\] command_points has no side "
                                            rf"'{first[:-1]}' \(did you mean '{first}'\?\)"):
        get_ruleset("fighting_swashbucklers").load_scenario(raw)
