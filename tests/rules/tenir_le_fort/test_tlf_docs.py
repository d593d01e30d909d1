"""docs/rules/tenir-le-fort.md stays true to the code: actions, parameters, options, fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.tenir_le_fort import scenario
from companion.rules.tenir_le_fort.actions import ALL

DOC = (Path(__file__).parents[3] / "docs" / "rules" / "tenir-le-fort.md").read_text()


@pytest.mark.parametrize("action", ALL, ids=lambda a: a.name)
def test_every_action_and_parameter_is_documented_as_the_code_has_it(action: object) -> None:
    from companion.rules.core import Action

    assert isinstance(action, Action)
    assert f"### `{action.name}` — {action.title}" in DOC
    assert action.help in DOC
    for p in action.params:
        default = "yes" if p.default is True else "no" if p.default is False else p.default
        assert f"| `{p.name}` | {p.allowed()} | {default} | {p.help} |" in DOC, p.name


@pytest.mark.parametrize("option", scenario.OPTIONS, ids=lambda o: o.name)
def test_every_option_is_in_the_readings_with_its_default_first(option: object) -> None:
    from companion.rules.core import RuleOption

    assert isinstance(option, RuleOption)
    default = option.default
    shown = f'"{default}"' if isinstance(default, str) else str(default).lower()
    assert f"`{option.name}` = `{shown}`" in DOC


@pytest.mark.parametrize("field", sorted(scenario.SETUP_DEFAULTS))
def test_every_setup_field_is_documented(field: str) -> None:
    assert f"`{field}`" in DOC


@pytest.mark.parametrize("trait", scenario.TRAITS)
def test_every_trait_is_documented(trait: str) -> None:
    assert f"| `{trait}` |" in DOC
