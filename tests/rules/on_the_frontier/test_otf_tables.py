"""Every row of On the Frontier's charts, against numbers typed from the rules."""

from __future__ import annotations

import pytest

from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.charges import charge_modifier, contact_dice
from companion.rules.on_the_frontier.movement import move_inches, move_penalty
from companion.rules.on_the_frontier.params import hit_faces
from companion.rules.on_the_frontier.rally import rally_faces, rally_modifier
from companion.rules.on_the_frontier.shooting import shooting_modifier


@pytest.mark.parametrize(
    ("kind", "base"),
    [
        ("infantry", 6),
        ("artillery", 6),
        ("wagons", 6),
        ("skirmishers", 9),
        ("tribesmen", 9),
        ("cavalry", 12),
        ("commander", 12),
    ],
)
def test_movement_row(kind: str, base: int) -> None:
    assert tables.base_move(kind) == base
    for die in range(1, 7):
        assert move_inches(kind, die, 0) == base + die


def test_movement_table_has_exactly_the_seven_kinds() -> None:
    assert {row.kind for row in tables.MOVEMENT_TABLE} == set(tables.UNIT_KINDS)


@pytest.mark.parametrize(
    ("kind", "broken", "deploy", "road", "penalty"),
    [
        ("infantry", True, False, False, 4),
        ("cavalry", True, False, False, 4),
        ("artillery", True, True, False, 8),
        ("artillery", False, True, False, 4),
        ("infantry", False, True, False, 0),  # only guns deploy
        ("skirmishers", True, False, False, 0),
        ("tribesmen", True, False, False, 0),
        ("infantry", True, False, True, 0),  # road column ignores off-road terrain
        ("wagons", False, False, False, 0),
    ],
)
def test_movement_penalties(
    kind: str, broken: bool, deploy: bool, road: bool, penalty: int
) -> None:
    assert move_penalty(kind, broken, deploy, road) == penalty


@pytest.mark.parametrize(
    ("weapon", "per_die", "hit_on", "close", "long"),
    [
        ("musket", 2, 5, 4, 8),
        ("rifle", 2, 5, 8, 16),
        ("artillery", 2, 4, 16, 32),
    ],
)
def test_shooting_row(weapon: str, per_die: int, hit_on: int, close: int, long: int) -> None:
    row = tables.weapon_row(weapon)
    assert (row.figures_per_die, row.hit_on, row.close_inches, row.long_inches) == (
        per_die,
        hit_on,
        close,
        long,
    )


@pytest.mark.parametrize(
    ("superior", "target", "cover", "band", "modifier"),
    [
        (True, "infantry", False, "close", +1),
        (False, "skirmishers", False, "close", -1),
        (False, "artillery", False, "close", -1),
        (False, "cavalry", False, "close", -1),
        (False, "infantry", True, "close", -1),
        (False, "infantry", False, "long", -1),
        (False, "infantry", False, "close", 0),
        (False, "tribesmen", False, "close", 0),
        (True, "cavalry", True, "long", -1),
    ],
)
def test_shooting_modifier_rows(
    superior: bool, target: str, cover: bool, band: str, modifier: int
) -> None:
    assert shooting_modifier(superior, target, cover, band, False)[0] == modifier


@pytest.mark.parametrize(
    ("score", "result"),
    [
        (7, "recover"),
        (6, "recover"),
        (5, "recover"),
        (4, "try_again"),
        (3, "try_again"),
        (2, "removed"),
        (1, "removed"),
        (0, "removed"),
        (-1, "removed"),
    ],
)
def test_rally_row(score: int, result: str) -> None:
    assert tables.rally_result(score) == result


@pytest.mark.parametrize(
    ("quality", "modifier"),
    [("elite", 1), ("veteran", 1), ("regular", 0), ("militia", -1), ("poor", -1)],
)
def test_rally_quality_modifier(quality: str, modifier: int) -> None:
    assert tables.quality_modifier(quality) == modifier
    assert rally_modifier(quality, True) == modifier + 1


@pytest.mark.parametrize(
    ("modifier", "recover", "stay", "removed"),
    [
        (0, {5, 6}, {3, 4}, {1, 2}),
        (1, {4, 5, 6}, {2, 3}, {1}),
        (2, {3, 4, 5, 6}, {1, 2}, set()),
        (-1, {6}, {4, 5}, {1, 2, 3}),
    ],
)
def test_rally_faces(modifier: int, recover: set[int], stay: set[int], removed: set[int]) -> None:
    assert rally_faces(modifier) == (frozenset(recover), frozenset(stay), frozenset(removed))


@pytest.mark.parametrize(
    ("kind", "per_die", "hit_on"),
    [
        ("infantry", 2, 5),
        ("tribesmen", 2, 5),
        ("skirmishers", 2, 5),
        ("wagons", 2, 5),
        ("artillery", 1, 5),
        ("cavalry", 1, 5),
        ("commander", 1, 5),
    ],
)
def test_charge_row(kind: str, per_die: int, hit_on: int) -> None:
    row = tables.charge_row(kind)
    assert (row.figures_per_die, row.hit_on) == (per_die, hit_on)


@pytest.mark.parametrize(
    ("kind", "shock", "cover", "square", "modifier"),
    [
        ("infantry", True, False, False, 1),
        ("infantry", False, True, False, -1),
        ("cavalry", False, False, True, -1),
        ("infantry", False, False, True, 0),  # the square penalty is cavalry's only
        ("cavalry", True, True, True, -1),
    ],
)
def test_charge_modifier_rows(
    kind: str, shock: bool, cover: bool, square: bool, modifier: int
) -> None:
    assert charge_modifier(kind, shock, cover, square)[0] == modifier


@pytest.mark.parametrize(
    ("face", "steady", "come_on"),
    [
        (1, "commander_hit", "commander_hit"),
        (2, "nothing", "nothing"),
        (3, "nothing", "nothing"),
        (4, "nothing", "nothing"),
        (5, "cancel_hit", "cancel_or_inflict"),
        (6, "cancel_hit", "cancel_or_inflict"),
    ],
)
def test_commander_rows(face: int, steady: str, come_on: str) -> None:
    assert tables.commander_result(tables.STEADY_TABLE, face) == steady
    assert tables.commander_result(tables.COME_ON_TABLE, face) == come_on


@pytest.mark.parametrize(
    ("target", "points"),
    [("weak_wall", 6), ("fortified_house", 6), ("small_bridge", 6), ("large_bridge", 12)],
)
def test_demolition_row(target: str, points: int) -> None:
    assert tables.demolition_points(target) == points


def test_engineering_numbers() -> None:
    assert tables.ENGINEERING_FIGURES_PER_DIE == 4
    assert tables.ENGINEERING_TASK_POINTS == 6
    assert [name for name, _ in tables.ENGINEERING_TASKS] == [
        "barricade",
        "fortify_house",
        "clear_obstruction",
        "redoubt",
    ]


def test_other_numbers() -> None:
    assert tables.NEAR_ENEMY_INCHES == 6
    assert tables.COMMANDER_AWAY_TURNS == 1
    assert {"skirmishers", "artillery", "cavalry"} == tables.DIFFICULT_TARGET_KINDS


@pytest.mark.parametrize(
    ("kind", "difficult", "crosses_broken_ground", "holds_fire", "charges", "digs"),
    [
        ("infantry", False, False, True, True, True),
        ("skirmishers", True, True, True, True, True),
        ("tribesmen", False, True, False, True, True),
        ("cavalry", True, False, False, True, False),
        ("artillery", True, False, False, False, False),
        ("wagons", False, False, False, False, False),
        ("commander", False, False, False, False, False),
    ],
)
def test_troop_type_row(
    kind: str,
    difficult: bool,
    crosses_broken_ground: bool,
    holds_fire: bool,
    charges: bool,
    digs: bool,
) -> None:
    assert (kind in tables.DIFFICULT_TARGET_KINDS) is difficult
    assert (kind in tables.IGNORE_BROKEN_GROUND_KINDS) is crosses_broken_ground
    assert (kind in tables.HOLD_FIRE_KINDS) is holds_fire
    assert (kind in tables.CHARGING_KINDS) is charges
    assert (kind in tables.FOOT_KINDS) is digs


@pytest.mark.parametrize(
    ("hit_on", "modifier", "natural_six", "faces"),
    [
        (5, 0, False, {5, 6}),  # muskets, rifles, every charge
        (5, +1, False, {4, 5, 6}),
        (5, -1, False, {6}),
        (5, -2, False, set()),
        (5, -2, True, {6}),
        (5, -3, True, {6}),
        (4, 0, False, {4, 5, 6}),  # artillery
        (4, +1, False, {3, 4, 5, 6}),
        (4, -1, False, {5, 6}),
        (4, -2, False, {6}),
        (4, -3, False, set()),
    ],
)
def test_hit_faces_row(hit_on: int, modifier: int, natural_six: bool, faces: set[int]) -> None:
    assert hit_faces(hit_on, modifier, natural_six) == frozenset(faces)


@pytest.mark.parametrize(
    ("task", "points"),
    [("barricade", 6), ("fortify_house", 6), ("clear_obstruction", 6), ("redoubt", 6)],
)
def test_engineering_task_row(task: str, points: int) -> None:
    assert task in dict(tables.ENGINEERING_TASKS)
    assert points == tables.ENGINEERING_TASK_POINTS


@pytest.mark.parametrize(
    ("kind", "figures", "odd", "artillery_dice", "guns", "dice"),
    [
        ("artillery", 4, "round_down", "per_gunner", 1, 4),  # a die per gunner
        ("artillery", 3, "round_down", "per_gunner", 1, 3),
        ("artillery", 4, "round_down", "per_gun", 1, 1),  # a die per gun's crew
        ("artillery", 8, "round_down", "per_gun", 2, 2),
        ("artillery", 1, "round_down", "per_gun", 2, 1),  # one gunner works one gun
        ("infantry", 7, "round_down", "per_gun", 2, 3),  # the reading is for guns only
        ("infantry", 7, "round_up", "per_gunner", 1, 4),
        ("cavalry", 3, "round_down", "per_gun", 1, 3),
    ],
)
def test_contact_dice(
    kind: str, figures: int, odd: str, artillery_dice: str, guns: int, dice: int
) -> None:
    assert contact_dice(kind, figures, odd, artillery_dice, guns) == dice
