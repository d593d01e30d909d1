"""Every row of Scrubs of the Desert's charts, against numbers typed from the rules.

One parametrized case per row (or cell) of each chart in the source text, then
the rows the box adds where the text leaves a gap (marked "reading").
"""

from __future__ import annotations

import pytest

from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.cannon import blast_faces, cannon_modifier
from companion.rules.scrubs_of_the_desert.fire import fire_dice, fire_modifier
from companion.rules.scrubs_of_the_desert.grappling import climb_faces, throw_faces
from companion.rules.scrubs_of_the_desert.melee import attacker_modifiers, defender_modifiers
from companion.rules.scrubs_of_the_desert.morale import loss_rate, modified_morale

# ------------------------------------------------------------------ sighting


@pytest.mark.parametrize(
    ("band", "need"),
    [("0-2", 0), ("2-4", 3), ("4-8", 5), ("8-12", 7), ("12-24", 8)],
)
def test_sighting_row(band: str, need: int) -> None:
    assert tables.sighting_need(band) == need


def test_sighting_chart_has_exactly_the_five_bands() -> None:
    assert tables.SIGHTING_BANDS == ("0-2", "2-4", "4-8", "8-12", "12-24")


# ------------------------------------------------------------------ movement

# The dice 2, 5, 8 read differently under every rule: all 15, highest two 13,
# lowest two 7, highest 8, lowest 2.
SAMPLE = [8, 2, 5]


@pytest.mark.parametrize(
    ("unit_type", "terrain", "rule", "inches"),
    [
        ("french_foot", "trail", "highest_2", 13),
        ("french_foot", "desert", "lowest_2", 7),
        ("french_foot", "rough", "lowest_1", 2),
        ("french_horse", "trail", "total_3", 15),
        ("french_horse", "desert", "highest_2", 13),
        ("french_horse", "rough", "highest_1", 8),
        ("arab_foot", "trail", "highest_2", 13),
        ("arab_foot", "desert", "highest_2", 13),
        ("arab_foot", "rough", "highest_1", 8),
        ("arab_horse", "trail", "total_3", 15),
        ("arab_horse", "desert", "total_3", 15),
        ("arab_horse", "rough", "highest_2", 13),
    ],
)
def test_movement_cell(unit_type: str, terrain: str, rule: str, inches: int) -> None:
    assert tables.movement_rule(unit_type, terrain) == rule
    assert tables.read_movement_dice(rule, SAMPLE) == inches


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
        ("total_3", [9, 9, 9], 27),
    ],
)
def test_reading_the_movement_dice(rule: str, dice: list[int], inches: int) -> None:
    assert tables.read_movement_dice(rule, dice) == inches


@pytest.mark.parametrize(
    ("nation", "kind", "arab_gun_row", "unit_type"),
    [
        ("french", "foot", "arab_foot", "french_foot"),
        ("french", "gun", "arab_foot", "french_foot"),  # the chart's French Foot/Gun row
        ("french", "horse", "arab_foot", "french_horse"),
        ("arab", "foot", "arab_foot", "arab_foot"),
        ("arab", "horse", "arab_foot", "arab_horse"),
        ("arab", "gun", "arab_foot", "arab_foot"),  # reading: not on the chart
        ("arab", "gun", "french_foot", "french_foot"),  # option arab_gun_moves_as
        ("french", "gun", "french_foot", "french_foot"),
    ],
)
def test_movement_row_of_a_unit(nation: str, kind: str, arab_gun_row: str, unit_type: str) -> None:
    assert tables.movement_type(nation, kind, arab_gun_row) == unit_type


# ---------------------------------------------------------------------- fire


@pytest.mark.parametrize(
    ("weapon", "nation", "short_in", "short_hit", "long_in", "long_hit", "dice_each"),
    [
        ("french_rifle", "french", 12, 7, 24, 8, 1),
        ("french_pistol", "french", 4, 7, 8, 8, 1),
        ("arab_spear", "arab", 4, 8, 8, 9, 1),
        ("arab_rifle", "arab", 8, 8, 16, 9, 1),
        ("machine_gun", "french", 12, 7, 24, 8, 2),
        ("arab_cannon", "arab", 12, 8, 24, 9, 1),
        ("french_cannon", "french", 18, 7, 36, 8, 1),
    ],
)
def test_fire_row(
    weapon: str,
    nation: str,
    short_in: int,
    short_hit: int,
    long_in: int,
    long_hit: int,
    dice_each: int,
) -> None:
    row = tables.weapon_row(weapon)
    assert (
        row.nation,
        row.short_inches,
        row.short_hit,
        row.long_inches,
        row.long_hit,
        row.dice_per_figure,
    ) == (nation, short_in, short_hit, long_in, long_hit, dice_each)
    assert tables.hit_number(weapon, "short") == short_hit
    assert tables.hit_number(weapon, "long") == long_hit


def test_fire_chart_has_exactly_seven_weapons() -> None:
    assert len(tables.FIRE_TABLE) == 7
    assert sorted(tables.SUPPORT_WEAPONS) == ["arab_cannon", "french_cannon", "machine_gun"]
    assert sorted(tables.CANNONS) == ["arab_cannon", "french_cannon"]


@pytest.mark.parametrize(
    ("weapon", "cover", "still", "before_melee", "modifier"),
    [
        ("french_rifle", True, False, False, -1),  # target in fort, building, rough
        ("french_rifle", False, True, False, 1),  # the unit did not move
        ("french_rifle", True, True, False, 0),
        ("french_pistol", False, True, False, 1),
        ("arab_rifle", False, True, True, 0),  # no +1 firing before a melee
        ("arab_spear", False, True, True, 0),
        ("machine_gun", False, True, False, 0),  # no +1 for the machine gun
        ("machine_gun", True, True, False, -1),
        ("french_cannon", False, True, False, 0),  # no +1 for cannon
        ("arab_spear", False, False, False, 0),
    ],
)
def test_fire_modifier_row(
    weapon: str, cover: bool, still: bool, before_melee: bool, modifier: int
) -> None:
    assert fire_modifier(weapon, cover, still, before_melee)[0] == modifier


@pytest.mark.parametrize(
    ("weapon", "figures", "crewed_by", "dice"),
    [
        ("french_rifle", 5, "crew", 5),  # a die per figure
        ("arab_spear", 12, "crew", 12),
        ("machine_gun", 2, "crew", 4),  # two dice per crewman
        ("machine_gun", 3, "crew", 6),
        ("machine_gun", 3, "infantry", 3),  # infantry crewing it: one die a man
    ],
)
def test_fire_dice_row(weapon: str, figures: int, crewed_by: str, dice: int) -> None:
    assert fire_dice(weapon, figures, crewed_by) == dice


@pytest.mark.parametrize(
    ("crew", "modifier"), [(0, None), (1, None), (2, -2), (3, -1), (4, 0), (6, 0), (12, 0)]
)
def test_cannon_crew_row(crew: int, modifier: int | None) -> None:
    assert tables.cannon_crew_modifier(crew) == modifier
    if modifier is not None:
        assert cannon_modifier(crew, False, False)[0] == modifier


@pytest.mark.parametrize(
    ("crew", "cover", "grapeshot", "modifier"),
    [
        (4, False, True, 4),  # grapeshot under 6"
        (4, True, False, -1),
        (2, True, True, 1),  # -2 crew -1 cover +4
        (3, False, True, 3),
        (2, False, False, -2),
    ],
)
def test_cannon_modifier_sum(crew: int, cover: bool, grapeshot: bool, modifier: int) -> None:
    assert cannon_modifier(crew, cover, grapeshot)[0] == modifier


@pytest.mark.parametrize(
    ("cover", "faces"), [(False, frozenset({5, 6, 7, 8, 9})), (True, frozenset({6, 7, 8, 9}))]
)
def test_blast_kill_faces(cover: bool, faces: frozenset[int]) -> None:
    assert blast_faces(cover) == faces


def test_fire_numbers() -> None:
    assert tables.MACHINE_GUN_JAM_ZEROS == 3
    assert tables.BLAST_RADIUS_INCHES == 3
    assert tables.BLAST_KILL_ON == 5
    assert tables.GRAPESHOT_INCHES == 6
    assert tables.GRAPESHOT_MODIFIER == 4
    assert tables.TARGET_IN_COVER_MODIFIER == -1
    assert tables.DID_NOT_MOVE_MODIFIER == 1
    assert tables.CANNON_MIN_CREW == 2
    assert tables.SUPPORT_CREW_INFANTRY_INCHES == 4
    assert tables.SUPPORT_CREW_COUNT_INCHES == 5
    assert tables.INFANTRY_CREW_DICE_PER_FIGURE == 1


# -------------------------------------------------------------------- morale


@pytest.mark.parametrize(
    ("size", "percent"),
    [
        (2, 10),  # the chart: 4 or 2 men -10%
        (4, 10),
        (10, 5),  # 10 or 12 men -5%
        (12, 5),
        (20, 3),  # 20 men -3%
    ],
)
def test_morale_loss_row(size: int, percent: int) -> None:
    assert tables.loss_percent_per_figure(size) == percent


@pytest.mark.parametrize(
    ("size", "percent"),
    [(1, 10), (6, 10), (7, 5), (15, 5), (16, 3), (40, 3)],
)
def test_morale_loss_sizes_between_the_rows(size: int, percent: int) -> None:
    """Reading: the nearest listed size; halfway (7, 16) takes the larger unit's rate."""
    assert tables.loss_percent_per_figure(size) == percent


def test_scenario_loss_rate_overrides_the_size() -> None:
    assert loss_rate(20, 0) == 3
    assert loss_rate(20, 8) == 8


@pytest.mark.parametrize(("position", "bonus"), [("open", 0), ("building", 10), ("fort", 20)])
def test_morale_position_row(position: str, bonus: int) -> None:
    assert tables.position_bonus(position) == bonus
    assert modified_morale(50, 10, 0, position) == 50 + bonus


@pytest.mark.parametrize(
    ("base", "size", "lost", "position", "target"),
    [
        (70, 4, 2, "open", 50),
        (70, 2, 1, "fort", 80),
        (70, 12, 3, "fort", 75),
        (60, 10, 4, "open", 40),
        (60, 20, 5, "building", 55),
    ],
)
def test_modified_morale_sums(base: int, size: int, lost: int, position: str, target: int) -> None:
    assert modified_morale(base, size, lost, position) == target


def test_morale_numbers() -> None:
    assert tables.ROUT_THRESHOLD == 50
    assert tables.ROUT_INCHES == 12


# --------------------------------------------------------------------- melee


@pytest.mark.parametrize(
    ("position", "bonus"), [("open", 0), ("higher", 1), ("building", 1), ("fort", 2)]
)
def test_melee_defender_row(position: str, bonus: int) -> None:
    assert tables.melee_defender_bonus(position) == bonus
    assert defender_modifiers(position, False, False, False).per_figure == bonus


@pytest.mark.parametrize(
    ("arab", "cavalry", "leader", "per_figure", "once"),
    [
        (True, False, False, 1, 0),  # Arab charging +1
        (False, True, False, 1, 0),  # cavalry charging +1 (French or Arab)
        (True, True, False, 2, 0),  # Arab cavalry charging: both
        (False, False, True, 0, 1),  # leader +1, once
        (False, False, False, 0, 0),
    ],
)
def test_melee_attacker_row(
    arab: bool, cavalry: bool, leader: bool, per_figure: int, once: int
) -> None:
    mods = attacker_modifiers(arab, cavalry, leader)
    assert (mods.per_figure, mods.once) == (per_figure, once)


@pytest.mark.parametrize(
    ("counter", "bonus", "arabs", "leader", "per_figure", "once"),
    [
        (True, False, False, False, 1, 0),  # counter-charging cavalry charge too
        (True, True, False, False, 4, 0),  # and +3 against a failed attacker
        (True, False, True, False, 2, 0),  # Arab cavalry counter-charging: both +1s
        (True, True, True, False, 5, 0),
        (False, False, False, True, 0, 1),
    ],
)
def test_melee_defender_extras(
    counter: bool, bonus: bool, arabs: bool, leader: bool, per_figure: int, once: int
) -> None:
    mods = defender_modifiers("open", leader, counter, bonus, arabs)
    assert (mods.per_figure, mods.once) == (per_figure, once)


def test_melee_numbers() -> None:
    assert tables.MELEE_MAX_FIGURES_ON_ONE == 2
    assert tables.COUNTER_CHARGE_MODIFIER == 3
    assert tables.ARAB_CHARGING_MODIFIER == 1
    assert tables.CAVALRY_CHARGING_MODIFIER == 1
    assert tables.LEADER_MODIFIER == 1


# ----------------------------------------------------------------- grappling


@pytest.mark.parametrize(
    ("defenders", "lowest_face"), [(0, 4), (1, 5), (2, 6), (3, 7), (4, 7), (10, 7)]
)
def test_hook_throw_row(defenders: int, lowest_face: int) -> None:
    assert throw_faces(defenders) == frozenset(range(lowest_face, 10))


@pytest.mark.parametrize(("nth", "need"), [(1, 0), (2, 5), (3, 8)])
def test_climb_row(nth: int, need: int) -> None:
    assert tables.climb_need(nth) == need


@pytest.mark.parametrize(("climber", "lowest_face"), [("second", 5), ("third", 8)])
def test_climb_faces(climber: str, lowest_face: int) -> None:
    assert climb_faces(climber) == frozenset(range(lowest_face, 10))


def test_grappling_numbers() -> None:
    assert tables.HOOK_THROW_NEED == 4
    assert tables.HOOK_THROW_DISTANCE_INCHES == 1
    assert tables.HOOK_MAX_DEFENDERS_COUNTED == 3
    assert tables.HOOK_MAX_ARAB_DEFENDERS == 2
    assert tables.HOOK_MAX_FRENCH_ATTACKERS == 2


def test_activation_number() -> None:
    assert tables.ACTIVATION_LOSS_BONUS == 1
