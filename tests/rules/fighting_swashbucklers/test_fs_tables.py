"""Every row of every Fighting Swashbucklers chart, against values typed from the seed."""

from __future__ import annotations

import pytest

from companion.rules.fighting_swashbucklers import command, fire, melee, morale, rally, tables
from companion.rules.fighting_swashbucklers.dice import read_percentile

# ------------------------------------------------------------------ poses


@pytest.mark.parametrize(
    ("pose", "fire_factor", "melee_factor"),
    [("running", 1, 9), ("standing", 2, 8), ("kneeling", 3, 7), ("prone", 4, 6)],
)
def test_pose_row(pose: str, fire_factor: int, melee_factor: int) -> None:
    assert tables.pose(pose).fire_factor == fire_factor
    assert tables.pose(pose).melee_factor == melee_factor
    assert fire.fire_factor("infantry", pose, 1) == fire_factor
    assert melee.base_melee_factor(pose) == melee_factor


def test_pose_table_has_exactly_four_rows() -> None:
    assert tables.POSE_NAMES == ("running", "standing", "kneeling", "prone")


def test_unknown_pose_is_named() -> None:
    with pytest.raises(KeyError, match="sitting"):
        tables.pose("sitting")


@pytest.mark.parametrize(("fighter", "factor"), [("cavalry", 10), ("commander", 12)])
def test_other_melee_factors(fighter: str, factor: int) -> None:
    assert melee.base_melee_factor(fighter) == factor


# ------------------------------------------------------------------ morale level


@pytest.mark.parametrize(
    ("men", "level", "stressed"), [(4, 100, 50), (3, 90, 45), (2, 80, 40), (1, 70, 35)]
)
def test_morale_level_row(men: int, level: int, stressed: int) -> None:
    assert morale.morale_level(men, 0) == level
    assert morale.morale_level(men, 0, stress=True) == stressed


@pytest.mark.parametrize(("markers", "level"), [(0, 100), (1, 95), (2, 90), (4, 80), (20, 0)])
def test_each_marker_takes_five(markers: int, level: int) -> None:
    assert morale.morale_level(4, markers) == level


# ------------------------------------------------------------------ morale chart

# (roll, ML, band, men lost): above ML fails (odd 1, even 2); above half no effect;
# half or less provoked.
MORALE_ROWS = [
    (100, 95, "failed", 2),
    (97, 95, "failed", 1),
    (96, 95, "failed", 2),
    (95, 95, "steady", 0),
    (48, 95, "steady", 0),
    (47, 95, "provoked", 0),
    (1, 95, "provoked", 0),
    (100, 100, "steady", 0),
    (51, 100, "steady", 0),
    (50, 100, "provoked", 0),
    (41, 40, "failed", 1),
    (21, 40, "steady", 0),
    (20, 40, "provoked", 0),
]


@pytest.mark.parametrize(("roll", "level", "band", "lost"), MORALE_ROWS)
def test_morale_chart_row(roll: int, level: int, band: str, lost: int) -> None:
    result = morale.morale_result(roll, level, men=4)
    assert (result.band, result.losses) == (band, lost)


@pytest.mark.parametrize(
    ("kind", "reaction"),
    [("infantry", "fire"), ("cavalry", "advance"), ("machine_gun", "fire"), ("cannon", "fire")],
)
def test_provoked_reaction_row(kind: str, reaction: str) -> None:
    assert morale.provoked_reaction(kind) == reaction


# ------------------------------------------------------------------ fire chance


@pytest.mark.parametrize(("men", "chance"), [(4, 100), (3, 75), (2, 50), (1, 25), (0, 0)])
def test_fire_chance_row(men: int, chance: int) -> None:
    assert tables.fire_chance(men) == chance


@pytest.mark.parametrize(
    ("die", "range_inches", "markers"),
    [
        (9, 0, 9),
        (9, 9, 9),
        (9, 10, 8),
        (5, 34, 2),
        (3, 34, 0),
        (2, 34, 0),
        (0, 5, 0),
        (9, 95, 0),
        (7, 70, 0),
        (8, 70, 1),
    ],
)
def test_cannon_row(die: int, range_inches: int, markers: int) -> None:
    assert fire.cannon_markers(die, range_inches) == markers


def test_rifle_and_machine_gun_ranges() -> None:
    assert tables.RIFLE_RANGE_INCHES == 24
    assert tables.MACHINE_GUN_RANGE_INCHES == 24
    assert tables.MACHINE_GUN_MARKERS == 4


# ------------------------------------------------------------------ command points


@pytest.mark.parametrize(
    ("roll", "cp"),
    [(1, 3), (17, 3), (33, 3), (34, 4), (50, 4), (66, 4), (67, 5), (99, 5), (100, 5)],
)
def test_command_point_band(roll: int, cp: int) -> None:
    assert command.command_points_for(roll) == cp


@pytest.mark.parametrize(
    ("roll", "kind"),
    [
        (1, "good"),
        (33, "good"),
        (34, "ordinary"),
        (66, "ordinary"),
        (67, "martinet"),
        (100, "martinet"),
    ],
)
def test_under_officer_band(roll: int, kind: str) -> None:
    assert command.under_officer_for(roll) == kind


@pytest.mark.parametrize(("cp", "chance"), [(3, 30), (4, 40), (5, 50), (0, 0)])
def test_second_action_chance_row(cp: int, chance: int) -> None:
    assert command.second_action_chance(cp) == chance


@pytest.mark.parametrize(
    ("cp", "die", "units"), [(3, 3, 0), (3, 4, 1), (4, 5, 2), (5, 9, 4), (5, 0, 0), (4, 9, 3)]
)
def test_reaction_units_row(cp: int, die: int, units: int) -> None:
    assert command.reacting_units(cp, die) == units


@pytest.mark.parametrize(("points", "risk"), [(5, 10), (10, 20), (25, 50), (50, 100)])
def test_good_leader_risk_row(points: int, risk: int) -> None:
    assert command.good_leader_risk(points) == risk


@pytest.mark.parametrize(("won", "risk"), [(True, 30), (False, 60)])
def test_martinet_risk_row(won: bool, risk: int) -> None:
    assert command.martinet_risk(won) == risk


@pytest.mark.parametrize(
    ("cp", "die", "whole", "fraction"),
    [(4, 7, 2, 80), (3, 3, 0, 90), (5, 2, 1, 0), (5, 9, 4, 50), (3, 0, 0, 0), (4, 5, 2, 0)],
)
def test_rally_row(cp: int, die: int, whole: int, fraction: int) -> None:
    assert rally.rally_whole_men(cp, die) == whole
    assert rally.rally_fraction_percent(cp, die) == fraction


# ------------------------------------------------------------------ movement


@pytest.mark.parametrize(
    ("kind", "inches"), [("infantry", 6), ("machine_gun", 6), ("cannon", 6), ("cavalry", 10)]
)
def test_move_distance_row(kind: str, inches: int) -> None:
    assert tables.MOVE_INCHES[kind] == inches


def test_rough_terrain_is_seventy_percent() -> None:
    assert tables.ROUGH_TERRAIN_PASS_CHANCE == 70


# ------------------------------------------------------------------ percentile reading


@pytest.mark.parametrize(
    ("tens", "units", "as_100", "as_0"),
    [(0, 0, 100, 0), (0, 1, 1, 1), (0, 9, 9, 9), (1, 0, 10, 10), (9, 9, 99, 99), (5, 0, 50, 50)],
)
def test_percentile_reading_row(tens: int, units: int, as_100: int, as_0: int) -> None:
    assert read_percentile(tens, units, "100") == as_100
    assert read_percentile(tens, units, "0") == as_0
