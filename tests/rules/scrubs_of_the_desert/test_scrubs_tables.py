"""Every row of Scrubs of the Desert's charts, against numbers typed from the rules."""

from __future__ import annotations

import pytest

from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.cannon import cannon_modifier
from companion.rules.scrubs_of_the_desert.fire import fire_modifier
from companion.rules.scrubs_of_the_desert.melee import attacker_modifiers, defender_modifiers
from companion.rules.scrubs_of_the_desert.morale import modified_morale


@pytest.mark.parametrize(
    ("band", "need"),
    [("0-2", 0), ("2-4", 3), ("4-8", 5), ("8-12", 7), ("12-24", 8)],
)
def test_sighting_row(band: str, need: int) -> None:
    assert tables.sighting_need(band) == need


@pytest.mark.parametrize(
    ("unit_type", "trail", "desert", "rough"),
    [
        ("french_foot", "highest_2", "lowest_2", "lowest_1"),
        ("french_horse", "total_3", "highest_2", "highest_1"),
        ("arab_foot", "highest_2", "highest_2", "highest_1"),
        ("arab_horse", "total_3", "total_3", "highest_2"),
    ],
)
def test_movement_row(unit_type: str, trail: str, desert: str, rough: str) -> None:
    assert tables.movement_rule(unit_type, "trail") == trail
    assert tables.movement_rule(unit_type, "desert") == desert
    assert tables.movement_rule(unit_type, "rough") == rough


@pytest.mark.parametrize(
    ("rule", "dice", "inches"),
    [
        ("total_3", [3, 0, 7], 10),
        ("highest_2", [3, 0, 7], 10),
        ("lowest_2", [3, 0, 7], 3),
        ("highest_1", [3, 0, 7], 7),
        ("lowest_1", [3, 0, 7], 0),  # 0 is zero, not ten
        ("total_3", [0, 0, 0], 0),
        ("highest_2", [9, 9, 9], 18),
    ],
)
def test_reading_the_movement_dice(rule: str, dice: list[int], inches: int) -> None:
    assert tables.read_movement_dice(rule, dice) == inches


@pytest.mark.parametrize(
    ("nation", "kind", "unit_type"),
    [
        ("french", "foot", "french_foot"),
        ("french", "gun", "french_foot"),
        ("french", "horse", "french_horse"),
        ("arab", "foot", "arab_foot"),
        ("arab", "gun", "arab_foot"),
        ("arab", "horse", "arab_horse"),
    ],
)
def test_movement_type(nation: str, kind: str, unit_type: str) -> None:
    assert tables.movement_type(nation, kind) == unit_type


@pytest.mark.parametrize(
    ("weapon", "short_in", "short_hit", "long_in", "long_hit", "dice_each"),
    [
        ("french_rifle", 12, 7, 24, 8, 1),
        ("french_pistol", 4, 7, 8, 8, 1),
        ("arab_spear", 4, 8, 8, 9, 1),
        ("arab_rifle", 8, 8, 16, 9, 1),
        ("machine_gun", 12, 7, 24, 8, 2),
        ("arab_cannon", 12, 8, 24, 9, 1),
        ("french_cannon", 18, 7, 36, 8, 1),
    ],
)
def test_fire_row(
    weapon: str, short_in: int, short_hit: int, long_in: int, long_hit: int, dice_each: int
) -> None:
    row = tables.weapon_row(weapon)
    assert (
        row.short_inches,
        row.short_hit,
        row.long_inches,
        row.long_hit,
        row.dice_per_figure,
    ) == (short_in, short_hit, long_in, long_hit, dice_each)
    assert tables.hit_number(weapon, "short") == short_hit
    assert tables.hit_number(weapon, "long") == long_hit


@pytest.mark.parametrize(
    ("weapon", "cover", "still", "before_melee", "modifier"),
    [
        ("french_rifle", True, False, False, -1),
        ("french_rifle", False, True, False, 1),
        ("french_rifle", True, True, False, 0),
        ("arab_rifle", False, True, True, 0),  # not before a melee
        ("machine_gun", False, True, False, 0),  # not for the machine gun
        ("french_cannon", False, True, False, 0),  # not for cannon
        ("arab_spear", False, False, False, 0),
    ],
)
def test_fire_modifier_rows(
    weapon: str, cover: bool, still: bool, before_melee: bool, modifier: int
) -> None:
    assert fire_modifier(weapon, cover, still, before_melee)[0] == modifier


@pytest.mark.parametrize(("crew", "modifier"), [(2, -2), (3, -1), (4, 0), (6, 0)])
def test_cannon_crew_row(crew: int, modifier: int) -> None:
    assert tables.cannon_crew_modifier(crew) == modifier
    assert cannon_modifier(crew, False, False)[0] == modifier


@pytest.mark.parametrize("crew", [0, 1])
def test_cannon_needs_two_crew(crew: int) -> None:
    assert tables.cannon_crew_modifier(crew) is None


def test_grapeshot_and_cover_for_cannon() -> None:
    assert cannon_modifier(4, False, True)[0] == 4
    assert cannon_modifier(4, True, False)[0] == -1
    assert cannon_modifier(2, True, True)[0] == 1


def test_fire_numbers() -> None:
    assert tables.MACHINE_GUN_JAM_ZEROS == 3
    assert tables.BLAST_RADIUS_INCHES == 3
    assert tables.BLAST_KILL_ON == 5
    assert tables.GRAPESHOT_INCHES == 6
    assert tables.CANNON_MIN_CREW == 2
    assert tables.SUPPORT_CREW_INFANTRY_INCHES == 4
    assert tables.SUPPORT_CREW_COUNT_INCHES == 5
    assert tables.INFANTRY_CREW_DICE_PER_FIGURE == 1


@pytest.mark.parametrize(
    ("size", "percent"),
    [(2, 10), (4, 10), (10, 5), (12, 5), (20, 3), (1, 10), (6, 10), (7, 5), (16, 5), (17, 3)],
)
def test_morale_loss_per_figure(size: int, percent: int) -> None:
    assert tables.loss_percent_per_figure(size) == percent


@pytest.mark.parametrize(("position", "bonus"), [("open", 0), ("building", 10), ("fort", 20)])
def test_morale_position_row(position: str, bonus: int) -> None:
    assert tables.position_bonus(position) == bonus
    assert modified_morale(50, 10, 0, position) == 50 + bonus


def test_modified_morale_sums() -> None:
    assert modified_morale(70, 4, 2, "open") == 50
    assert modified_morale(70, 12, 3, "fort") == 75
    assert modified_morale(60, 20, 5, "building") == 55


@pytest.mark.parametrize(
    ("position", "bonus"), [("open", 0), ("higher", 1), ("building", 1), ("fort", 2)]
)
def test_melee_defender_row(position: str, bonus: int) -> None:
    assert tables.melee_defender_bonus(position) == bonus
    assert defender_modifiers(position, False, False, False).per_figure == bonus


def test_melee_attacker_modifiers() -> None:
    assert attacker_modifiers(True, False, False).per_figure == 1
    assert attacker_modifiers(True, True, False).per_figure == 2
    assert attacker_modifiers(False, False, True).once == 1
    assert defender_modifiers("open", True, True, True).per_figure == 4
    assert defender_modifiers("open", True, True, True).once == 1


def test_grappling_numbers() -> None:
    assert tables.HOOK_THROW_NEED == 4
    assert tables.HOOK_MAX_DEFENDERS_COUNTED == 3
    assert tables.HOOK_MAX_ARAB_DEFENDERS == 2
    assert tables.HOOK_MAX_FRENCH_ATTACKERS == 2


@pytest.mark.parametrize(("nth", "need"), [(1, 0), (2, 5), (3, 8)])
def test_climb_row(nth: int, need: int) -> None:
    assert tables.climb_need(nth) == need


def test_other_numbers() -> None:
    assert tables.ACTIVATION_LOSS_BONUS == 1
    assert tables.ROUT_THRESHOLD == 50
    assert tables.ROUT_INCHES == 12
    assert tables.MELEE_MAX_FIGURES_ON_ONE == 2
    assert tables.COUNTER_CHARGE_MODIFIER == 3
