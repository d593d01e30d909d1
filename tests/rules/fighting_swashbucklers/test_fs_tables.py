"""Every row of every Fighting Swashbucklers chart, against values typed from the seed."""

from __future__ import annotations

import pytest

from companion.rules.fighting_swashbucklers import (
    command,
    fire,
    melee,
    morale,
    movement,
    rally,
    tables,
)
from companion.rules.fighting_swashbucklers.dice import read_d10, read_percentile

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
def test_other_melee_factor_row(fighter: str, factor: int) -> None:
    assert melee.base_melee_factor(fighter) == factor


@pytest.mark.parametrize(
    ("martinet", "advantage", "bonus"),
    [(False, False, 0), (True, False, 1), (False, True, 2), (True, True, 3)],
)
def test_melee_bonus_row(martinet: bool, advantage: bool, bonus: int) -> None:
    for fighter in melee.FIGHTER_CHOICES:
        base = melee.base_melee_factor(fighter)
        assert melee.melee_factor(fighter, martinet=martinet, advantage=advantage) == base + bonus


# ------------------------------------------------------------------ morale level


@pytest.mark.parametrize(
    ("men", "level", "stressed"), [(4, 100, 50), (3, 90, 45), (2, 80, 40), (1, 70, 35)]
)
def test_morale_level_row(men: int, level: int, stressed: int) -> None:
    assert tables.morale_level_for_men(men) == level
    assert morale.morale_level(men, 0) == level
    assert morale.morale_level(men, 0, stress=True) == stressed


@pytest.mark.parametrize(
    ("men", "markers", "stress", "points", "level"),
    [
        (4, 1, False, 0, 95),
        (4, 2, False, 0, 90),
        (4, 4, False, 0, 80),
        (4, 20, False, 0, 0),
        (3, 3, False, 0, 75),
        (4, 2, True, 0, 40),  # halved first, then the markers come off
        (2, 1, True, 10, 45),  # the leader's points come last
        (1, 0, False, 30, 100),
    ],
)
def test_marker_and_leader_row(
    men: int, markers: int, stress: bool, points: int, level: int
) -> None:
    assert morale.morale_level(men, markers, stress=stress, leader_points=points) == level


# ------------------------------------------------------------------ morale chart

# (roll, ML, band, men lost): over the ML fails (odd 1, even 2); over half the ML no
# effect; half the ML or less provoked.
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
    (42, 40, "failed", 2),
    (40, 40, "steady", 0),
    (21, 40, "steady", 0),
    (20, 40, "provoked", 0),
    (1, 0, "failed", 1),
    (2, -15, "failed", 2),
    (100, 110, "steady", 0),
    (55, 110, "provoked", 0),
]


@pytest.mark.parametrize(("roll", "level", "band", "lost"), MORALE_ROWS)
def test_morale_chart_row(roll: int, level: int, band: str, lost: int) -> None:
    result = morale.morale_result(roll, level, men=4)
    assert (result.band, result.losses) == (band, lost)


@pytest.mark.parametrize(("men", "roll", "lost"), [(1, 98, 1), (2, 98, 2), (1, 97, 1)])
def test_failure_never_takes_more_men_than_there_are(men: int, roll: int, lost: int) -> None:
    assert morale.morale_result(roll, 50, men).losses == lost


@pytest.mark.parametrize(
    ("kind", "reaction"),
    [("infantry", "fire"), ("cavalry", "advance"), ("machine_gun", "fire"), ("cannon", "fire")],
)
def test_provoked_reaction_row(kind: str, reaction: str) -> None:
    assert morale.provoked_reaction(kind) == reaction


# ------------------------------------------------------------------ fire


@pytest.mark.parametrize(("men", "chance"), [(4, 100), (3, 75), (2, 50), (1, 25), (0, 0)])
def test_fire_chance_row(men: int, chance: int) -> None:
    assert tables.fire_chance(men) == chance


# (d10 face, range in inches, markers with 0 read as 10, markers with 0 read as 0)
CANNON_ROWS = [
    (9, 0, 9, 9),
    (9, 9, 9, 9),
    (9, 10, 8, 8),
    (5, 34, 2, 2),
    (3, 34, 0, 0),
    (2, 34, 0, 0),
    (0, 5, 10, 0),
    (0, 34, 7, 0),
    (0, 99, 1, 0),
    (9, 95, 0, 0),
    (7, 70, 0, 0),
    (8, 70, 1, 1),
    (1, 0, 1, 1),
]


@pytest.mark.parametrize(("face", "range_inches", "as_ten", "as_zero"), CANNON_ROWS)
def test_cannon_row(face: int, range_inches: int, as_ten: int, as_zero: int) -> None:
    assert fire.cannon_markers(read_d10(face, "10"), range_inches) == as_ten
    assert fire.cannon_markers(read_d10(face, "0"), range_inches) == as_zero


@pytest.mark.parametrize(
    ("range_inches", "tens"), [(0, 0), (9, 0), (10, 1), (24, 2), (59, 5), (60, 6), (99, 9)]
)
def test_range_tens_digit_row(range_inches: int, tens: int) -> None:
    assert fire.range_tens(range_inches) == tens


def test_rifle_and_machine_gun_ranges() -> None:
    assert tables.RIFLE_RANGE_INCHES == 24
    assert tables.MACHINE_GUN_RANGE_INCHES == 24
    assert tables.MACHINE_GUN_MARKERS == 4


@pytest.mark.parametrize(
    ("men", "crew", "riflemen"), [(4, 1, 3), (4, 2, 2), (3, 1, 2), (2, 2, 0), (1, 1, 0)]
)
def test_machine_gun_riflemen_row(men: int, crew: int, riflemen: int) -> None:
    assert fire.machine_gun_riflemen(men, crew) == riflemen


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


@pytest.mark.parametrize(("roll", "cp", "kind"), [(0, 3, "good"), (101, 5, "martinet")])
def test_a_roll_outside_the_bands_takes_the_nearest(roll: int, cp: int, kind: str) -> None:
    assert command.command_points_for(roll) == cp
    assert command.under_officer_for(roll) == kind


@pytest.mark.parametrize(("cp", "chance"), [(0, 0), (3, 30), (4, 40), (5, 50), (10, 100)])
def test_second_action_chance_row(cp: int, chance: int) -> None:
    assert command.second_action_chance(cp) == chance


# (CP, d10 face, units with 0 read as 10, units with 0 read as 0)
REACTION_ROWS = [
    (3, 3, 0, 0),
    (3, 4, 1, 1),
    (4, 5, 2, 2),
    (5, 9, 4, 4),
    (4, 9, 3, 3),
    (5, 0, 5, 0),
    (3, 0, 3, 0),
    (0, 7, 0, 0),
]


@pytest.mark.parametrize(("cp", "face", "as_ten", "as_zero"), REACTION_ROWS)
def test_reaction_units_row(cp: int, face: int, as_ten: int, as_zero: int) -> None:
    assert command.reacting_units(cp, read_d10(face, "10")) == as_ten
    assert command.reacting_units(cp, read_d10(face, "0")) == as_zero


@pytest.mark.parametrize(("points", "risk"), [(5, 10), (10, 20), (25, 50), (50, 100)])
def test_good_leader_risk_row(points: int, risk: int) -> None:
    assert command.good_leader_risk(points) == risk


@pytest.mark.parametrize(("won", "risk"), [(True, 30), (False, 60)])
def test_martinet_risk_row(won: bool, risk: int) -> None:
    assert command.martinet_risk(won) == risk


# ------------------------------------------------------------------ rally

# (CP, d10 face, reading, whole men, the fraction in percent)
RALLY_ROWS = [
    (4, 7, "10", 2, 80),
    (3, 3, "10", 0, 90),
    (5, 2, "10", 1, 0),
    (5, 9, "10", 4, 50),
    (4, 5, "10", 2, 0),
    (3, 0, "10", 3, 0),
    (3, 0, "0", 0, 0),
    (4, 1, "0", 0, 40),
]


@pytest.mark.parametrize(("cp", "face", "reading", "whole", "fraction"), RALLY_ROWS)
def test_rally_row(cp: int, face: int, reading: str, whole: int, fraction: int) -> None:
    die = read_d10(face, reading)
    assert rally.rally_whole_men(cp, die) == whole
    assert rally.rally_fraction_percent(cp, die) == fraction


# ------------------------------------------------------------------ movement


@pytest.mark.parametrize(
    ("kind", "inches"),
    [("infantry", 6), ("machine_gun", 6), ("cannon", 6), ("commander", 6), ("cavalry", 10)],
)
def test_move_distance_row(kind: str, inches: int) -> None:
    assert movement.move_inches(kind) == inches


# (formation, kind, may fire, rough terrain roll, men fighting out of 4)
FORMATION_ROWS = [
    ("column", "infantry", False, False, 1),
    ("column", "machine_gun", False, False, 1),
    ("column", "cavalry", True, False, 1),
    ("line", "infantry", True, True, 4),
    ("line", "machine_gun", True, True, 4),
    ("line", "cavalry", True, True, 4),
    ("", "cannon", True, False, 4),  # no formation: fires, no line's roll, all crew fight
]


@pytest.mark.parametrize(("formation", "kind", "fires", "rough", "fighting"), FORMATION_ROWS)
def test_formation_row(formation: str, kind: str, fires: bool, rough: bool, fighting: int) -> None:
    assert movement.can_fire_in(formation, kind) is fires
    assert movement.needs_rough_roll(formation) is rough
    assert melee.fighting_men(4, column=formation == "column") == fighting


@pytest.mark.parametrize(("roll", "passes"), [(1, True), (70, True), (71, False), (100, False)])
def test_rough_terrain_row(roll: int, passes: bool) -> None:
    assert tables.ROUGH_TERRAIN_PASS_CHANCE == 70
    assert movement.passes_rough(roll) is passes


@pytest.mark.parametrize(
    ("kind", "pose", "may"),
    [
        ("infantry", "prone", True),
        ("infantry", "kneeling", False),
        ("machine_gun", "prone", False),
        ("cavalry", "", False),
    ],
)
def test_hyper_space_ranger_row(kind: str, pose: str, may: bool) -> None:
    assert movement.can_vanish(kind, pose) is may


# ------------------------------------------------------------------ dice readings


@pytest.mark.parametrize(
    ("tens", "units", "as_100", "as_0"),
    [(0, 0, 100, 0), (0, 1, 1, 1), (0, 9, 9, 9), (1, 0, 10, 10), (9, 9, 99, 99), (5, 0, 50, 50)],
)
def test_percentile_reading_row(tens: int, units: int, as_100: int, as_0: int) -> None:
    assert read_percentile(tens, units, "100") == as_100
    assert read_percentile(tens, units, "0") == as_0


@pytest.mark.parametrize(
    ("face", "as_ten", "as_zero"), [(0, 10, 0), (1, 1, 1), (5, 5, 5), (9, 9, 9)]
)
def test_d10_reading_row(face: int, as_ten: int, as_zero: int) -> None:
    assert read_d10(face, "10") == as_ten
    assert read_d10(face, "0") == as_zero


def test_a_d10_face_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="reads 0-9"):
        read_d10(10, "10")


def test_victory_points_for_a_melee_won() -> None:
    assert tables.MELEE_WIN_VICTORY_POINTS == 3
