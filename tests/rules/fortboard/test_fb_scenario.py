"""Scenario validation: the fort layout in [setup], the units, options, set-up limit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fb_helpers import example_raw, foot_and_guard, raw_fort, unit

from companion.rules.core import ScenarioError
from companion.rules.fortboard import RULESET


def test_example_scenario_loads() -> None:
    scenario = RULESET.load_scenario(example_raw())
    assert scenario.system == "fortboard"
    assert scenario.sides == ("Besiegers", "Garrison")
    assert scenario.setup["turn_limit"] == 8


def test_example_obeys_the_setup_limit() -> None:
    scenario = RULESET.load_scenario(example_raw())
    foot = sum(u.figures for u in scenario.units if u.side == "Besiegers" and u.kind != "mounted")
    defenders = sum(u.figures for u in scenario.units if u.side == "Garrison")
    assert defenders * 4 <= foot * 3


def test_defenders_may_be_exactly_three_quarters() -> None:
    units = foot_and_guard(foot=8, guard=6, guard_at="Courtyard")
    RULESET.load_scenario(raw_fort(units))


def test_defenders_over_three_quarters_refused() -> None:
    units = foot_and_guard(foot=8, guard=7, guard_at="Courtyard")
    with pytest.raises(ScenarioError, match="3/4"):
        RULESET.load_scenario(raw_fort(units))


def test_attacker_horse_do_not_count_as_infantry() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Horse", "Red", "mounted", 4, "Camp"),
        unit("Guard", "Blue", "infantry", 4, "Courtyard"),
    ]
    with pytest.raises(ScenarioError, match="3/4"):
        RULESET.load_scenario(raw_fort(units))


def _places(raw: dict[str, Any]) -> list[dict[str, Any]]:
    places: list[dict[str, Any]] = raw["setup"]["places"]
    return places


def _place(raw: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in _places(raw) if p["name"] == name)


Mutation = Callable[[dict[str, Any]], None]

BAD: list[tuple[str, Mutation, str]] = [
    ("unknown place kind", lambda r: _place(r, "Keep").update(kind="donjon"), "'kind'"),
    (
        "no gate",
        lambda r: _place(r, "Gate").update(kind="barracks", adjacent=["Courtyard"]),
        "exactly one gate",
    ),
    (
        "two courtyards",
        lambda r: _places(r).append({"name": "Yard", "kind": "courtyard"}),
        "courtyard",
    ),
    ("unknown adjacent", lambda r: _place(r, "N wall")["adjacent"].append("Moat"), "Moat"),
    (
        "wall onto courtyard",
        lambda r: _place(r, "N wall")["adjacent"].append("Courtyard"),
        "only through a tower",
    ),
    ("tower cut off", lambda r: _place(r, "NE tower").update(adjacent=[]), "courtyard"),
    ("station faces keep", lambda r: _place(r, "Cat").update(faces="Keep"), "'faces'"),
    ("bad equipment", lambda r: _place(r, "Cat").update(equipment="trebuchet"), "equipment"),
    ("assault tower at gate", lambda r: _place(r, "Siege").update(faces="Gate"), "assault tower"),
    ("zero spaces", lambda r: _place(r, "N wall").update(spaces=0), "'spaces'"),
    ("front not a wall", lambda r: r["setup"].update(front="Keep"), "'front'"),
    (
        "three guns",
        lambda r: r["setup"].update(defender_artillery=["a", "b", "c"]),
        "defender_artillery",
    ),
    ("weapon off a wall", lambda r: r["setup"]["wall_weapons"][0].update(wall="Keep"), "'wall'"),
    ("weapon too wide", lambda r: r["setup"]["wall_weapons"][0].update(spaces=5), "'spaces'"),
    ("no turn limit", lambda r: r["setup"].pop("turn_limit"), "turn_limit"),
    ("unknown option", lambda r: r["options"].update(moat=True), "moat"),
    ("bad option value", lambda r: r["options"].update(wall_to_hit="sometimes"), "wall_to_hit"),
    ("wrong system", lambda r: r.update(system="tenir_le_fort"), "system"),
    ("one side", lambda r: r.update(sides=["Red"]), "sides"),
    (
        "the same side twice",
        lambda r: r.update(sides=["Red", "Red"]),
        r"sides must be a list of two different names \(the attacker first",
    ),
    ("setup not a table", lambda r: r.update(setup=3), r"\[setup\] must be a table"),
    ("unit kind", lambda r: r["units"][0].update(kind="elephant"), "Foot"),
    ("unit side", lambda r: r["units"][0].update(side="Green"), "'side'"),
    ("unit place unknown", lambda r: r["units"][0]["traits"].update(place="Moat"), "Moat"),
    ("attacker inside", lambda r: r["units"][0]["traits"].update(place="Courtyard"), "inside"),
    ("defender outside", lambda r: r["units"][1]["traits"].update(place="Camp"), "outside"),
    ("no place", lambda r: r["units"][0].pop("traits"), "traits.place"),
    ("figures zero", lambda r: r["units"][0].update(figures=0), "'figures'"),
    ("wall over-full", lambda r: r["units"][1].update(figures=5), "holds 4"),
    (
        "defenders on the weapon's spaces",
        lambda r: r["units"][1].update(figures=3),
        "wall weapons take 2 of its 4 spaces",
    ),
    (
        "a place named like a wall's foot",
        lambda r: _places(r).append(
            {
                "name": "N wall foot",
                "kind": "station",
                "faces": "N wall",
                "equipment": "camp",
                "spaces": 2,
            }
        ),
        "taken by the box",
    ),
    (
        "attacker on a bridge",
        lambda r: r["units"][0]["traits"].update(place="Siege bridge"),
        "is a bridge",
    ),
    ("bridge width 5", lambda r: r["options"].update(bridge_width=5), "bridge_width"),
    ("option of the wrong type", lambda r: r["options"].update(breach_entry="yes"), "breach_entry"),
    ("unknown reading", lambda r: r["options"].update(disengage="never"), "disengage"),
]


@pytest.mark.parametrize(("mutate", "message"), [pytest.param(m, t, id=n) for n, m, t in BAD])
def test_bad_scenario_is_named(mutate: Mutation, message: str) -> None:
    raw = raw_fort(foot_and_guard(foot=8, guard=2, guard_at="N wall"))
    mutate(raw)
    with pytest.raises(ScenarioError, match=message):
        RULESET.load_scenario(raw)


def test_tower_holds_four_defenders() -> None:
    units = foot_and_guard(foot=8, guard=5, guard_at="NE tower")
    with pytest.raises(ScenarioError, match="holds 4"):
        RULESET.load_scenario(raw_fort(units))


def test_mounted_not_on_walls_and_only_mounted_in_stables() -> None:
    base = [unit("Foot", "Red", "infantry", 8, "N wall foot")]
    with pytest.raises(ScenarioError, match="mounted"):
        RULESET.load_scenario(raw_fort([*base, unit("Horse", "Blue", "mounted", 1, "N wall")]))
    with pytest.raises(ScenarioError, match="unit 'Horse': mounted figures cannot stand"):
        RULESET.load_scenario(raw_fort([*base, unit("Horse", "Red", "mounted", 1, "E wall foot")]))
    with pytest.raises(ScenarioError, match="stables"):
        RULESET.load_scenario(raw_fort([*base, unit("Guard", "Blue", "infantry", 1, "Stables")]))


def test_options_default_and_documented() -> None:
    scenario = RULESET.load_scenario(raw_fort())
    docs = (Path(__file__).parents[3] / "docs" / "rules" / "fortboard.md").read_text()
    for option in RULESET.options:
        assert scenario.options[option.name] == option.default
        assert option.default in option.choices
        assert f"`{option.name}" in docs, f"option {option.name} is not in the docs"


def test_the_example_sets_every_option() -> None:
    assert set(example_raw()["options"]) == {o.name for o in RULESET.options}


@pytest.mark.parametrize("option", [o.name for o in RULESET.options])
def test_every_option_accepts_each_of_its_choices(option: str) -> None:
    choices = next(o.choices for o in RULESET.options if o.name == option)
    for choice in choices:
        scenario = RULESET.load_scenario(raw_fort(options={option: choice}))
        assert scenario.options[option] == choice


def test_the_fort_gets_a_foot_for_each_wall_and_a_bridge_for_each_assault_tower() -> None:
    from companion.rules.fortboard.scenario import layout_of

    layout = layout_of(RULESET.load_scenario(raw_fort()))
    assert layout.names("foot") == ("N wall foot", "E wall foot")
    assert layout.names("bridge") == ("Siege bridge",)
    assert layout.place("Siege bridge").faces == "E wall"
    assert layout.place("Siege bridge").spaces == 4
    # the wall beside the barracks opens into the courtyard; the E wall reaches it by the tower
    assert "Courtyard" in layout.place("N wall").adjacent
    assert "Courtyard" not in layout.place("E wall").adjacent


@pytest.mark.parametrize(("raw", "station", "named"), [
    (example_raw(), "N catapult", "N catapult"),
    (example_raw(), "S ram", "S ram"),
    (example_raw(), "E siege tower", "E siege tower"),
    (raw_fort(), "Ram", "Ram"),
    (raw_fort(), "Cat", "the catapult at Cat"),
    (raw_fort(), "Siege", "the assault tower at Siege"),
])
def test_an_engine_is_named_once(raw: dict[str, Any], station: str, named: str) -> None:
    """A station called "N catapult" is not "the catapult at N catapult" in the log."""
    from companion.rules.fortboard.scenario import layout_of

    assert layout_of(RULESET.load_scenario(raw)).engine_name(station) == named
