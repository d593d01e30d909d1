"""docs/rules/scrubs-of-the-desert.md stays true to the code: every action with its
parameters, every option with its choices and default, every chart's numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.rules import get_ruleset
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.scenario import OPTIONS, UNIT_TRAITS

DOC = (
    Path(__file__).resolve().parents[3] / "docs" / "rules" / "scrubs-of-the-desert.md"
).read_text(encoding="utf-8")
RULES = get_ruleset("scrubs_of_the_desert")


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _rows(heading: str) -> list[list[str]]:
    """The cells of the first table under a heading."""
    section = DOC.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows and not line.strip():
            break
    return rows[1:]


@pytest.mark.parametrize("name", list(RULES.actions))
def test_every_action_and_parameter_is_documented(name: str) -> None:
    action = RULES.actions[name]
    assert f"### `{name}`: {action.title}" in DOC
    section = DOC.split(f"### `{name}`", 1)[1].split("\n### ", 1)[0]
    assert action.help in section
    for param in action.params:
        assert f"| `{param.name}` | {param.allowed()} |" in section


def test_every_option_is_documented_with_its_choices_and_default() -> None:
    documented = {row[0].strip("`"): row for row in _rows("`[options]`, each at its default")}
    assert set(documented) == {o.name for o in OPTIONS}
    for option in OPTIONS:
        _, choices, default = documented[option.name]
        assert choices == ", ".join(_word(c) for c in option.choices)
        assert default == _word(option.default)


def test_every_option_appears_among_the_readings() -> None:
    readings = " ".join(" ".join(row) for row in _rows("## Readings of unclear rules"))
    for option in OPTIONS:
        assert f"`{option.name} = " in readings, option.name


def test_every_trait_is_documented() -> None:
    for trait in UNIT_TRAITS:
        assert f"`{trait}`" in DOC


def test_sighting_table_matches() -> None:
    rows = _rows("### Sighting (one d10)")
    assert [(r[0], r[1]) for r in rows] == [
        (row.label, "automatic" if row.need == 0 else f"{row.need}+")
        for row in tables.SIGHTING_TABLE
    ]


def test_fire_table_matches() -> None:
    rows = _rows("### Fire (a d10 per figure")
    assert len(rows) == len(tables.FIRE_TABLE)
    for cells, row in zip(rows, tables.FIRE_TABLE, strict=True):
        assert cells[1] == f'0-{row.short_inches}"'
        assert cells[2] == f"{row.short_hit}+"
        assert cells[3] == f'{row.short_inches}-{row.long_inches}"'
        assert cells[4] == f"{row.long_hit}+"


def test_movement_table_matches() -> None:
    words = {
        "total_3": "all 3 dice",
        "highest_2": "highest 2 dice",
        "lowest_2": "lowest 2 dice",
        "highest_1": "highest die",
        "lowest_1": "lowest die",
    }
    rows = _rows("### Movement (three d10")
    for cells, row in zip(rows, tables.MOVEMENT_TABLE, strict=True):
        assert cells[1:] == [words[row.trail], words[row.desert], words[row.rough]]


def test_morale_and_melee_numbers_match() -> None:
    morale = {r[0]: r[1] for r in _rows("### Morale (percentile")}
    for size in (2, 4, 10, 12, 20):
        line = next(k for k in morale if re.search(rf"\b{size}\b", k))
        assert morale[line] == f"-{tables.loss_percent_per_figure(size)}%"
    assert morale["in a building"] == f"+{tables.position_bonus('building')}%"
    assert morale["in a fort or trench"] == f"+{tables.position_bonus('fort')}%"
    melee = {r[0]: r[1] for r in _rows("### Melee modifiers")}
    assert melee["defending a fort (not added to higher ground)"] == "+2"
    assert melee["defending a building or higher ground"] == "+1"
    assert melee["cavalry counter-charging an attacker that failed its closing test"] == "+3"
