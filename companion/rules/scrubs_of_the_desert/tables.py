"""Scrubs of the Desert's charts as data.

Every die is a d10 read 0-9: a 0 is zero, never ten. Percentile rolls are two
d10, tens and units; how "00" reads is the `double_zero` option (zero by
default, as the dice convention says).
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- vocabulary

NATIONS: tuple[str, ...] = ("french", "arab")
UNIT_KINDS: tuple[str, ...] = ("foot", "horse", "gun")


def display_name(key: str) -> str:
    """A weapon or movement row as the referee reads it: "french_rifle" is "French
    rifle", "arab_horse" "Arab horse", "machine_gun" "machine gun"."""
    nation, _, rest = key.partition("_")
    if nation in NATIONS and rest:
        return f"{nation.capitalize()} {rest.replace('_', ' ')}"
    return key.replace("_", " ")


# ------------------------------------------------------------------ activation

ACTIVATION_LOSS_BONUS = 1  # +1 per toss lost in a row; back to 0 on a win

# -------------------------------------------------------------------- sighting


@dataclass(frozen=True)
class SightingRow:
    band: str  # the range band's key
    label: str
    need: int  # a d10 at or above this sights; 0 means automatic


SIGHTING_TABLE: tuple[SightingRow, ...] = (
    SightingRow("0-2", '0-2"', 0),
    SightingRow("2-4", '2-4"', 3),
    SightingRow("4-8", '4-8"', 5),
    SightingRow("8-12", '8-12"', 7),
    SightingRow("12-24", '12-24"', 8),
)
SIGHTING_BANDS: tuple[str, ...] = tuple(row.band for row in SIGHTING_TABLE)


def sighting_need(band: str) -> int:
    for row in SIGHTING_TABLE:
        if row.band == band:
            return row.need
    raise KeyError(band)


# -------------------------------------------------------------------- movement

TERRAINS: tuple[str, ...] = ("trail", "desert", "rough")  # "trail" is trail or fort
#: The terrains as the box's menu names them.
TERRAIN_NAMES: dict[str, str] = {"trail": "trail or fort", "desert": "desert", "rough": "rough"}

#: How the three movement dice are read.
DICE_RULES: tuple[str, ...] = ("total_3", "highest_2", "lowest_2", "highest_1", "lowest_1")


@dataclass(frozen=True)
class MovementRow:
    unit_type: str  # "french_foot" (foot and guns), "french_horse", "arab_foot", "arab_horse"
    trail: str
    desert: str
    rough: str

    def rule(self, terrain: str) -> str:
        rule: str = getattr(self, terrain)
        return rule


MOVEMENT_TABLE: tuple[MovementRow, ...] = (
    MovementRow("french_foot", "highest_2", "lowest_2", "lowest_1"),
    MovementRow("french_horse", "total_3", "highest_2", "highest_1"),
    MovementRow("arab_foot", "highest_2", "highest_2", "highest_1"),
    MovementRow("arab_horse", "total_3", "total_3", "highest_2"),
)
MOVEMENT_DICE = 3
UNIT_TYPES: tuple[str, ...] = tuple(row.unit_type for row in MOVEMENT_TABLE)
FIGURES_WITHIN_OF_LEADER_INCHES = 6


#: Arab guns are not on the chart: they move as Arab foot (default) or on the
#: French Foot/Gun row (the `arab_gun_moves_as` option).
ARAB_GUN_ROWS: tuple[str, ...] = ("arab_foot", "french_foot")


def movement_type(nation: str, kind: str, arab_gun_row: str = "arab_foot") -> str:
    """The movement row: French guns move on the French Foot/Gun row."""
    if kind == "gun" and nation == "arab":
        return arab_gun_row
    return f"{nation}_{'horse' if kind == 'horse' else 'foot'}"


def movement_rule(unit_type: str, terrain: str) -> str:
    for row in MOVEMENT_TABLE:
        if row.unit_type == unit_type:
            return row.rule(terrain)
    raise KeyError(unit_type)


def read_movement_dice(rule: str, dice: tuple[int, int, int] | list[int]) -> int:
    ordered = sorted(dice)
    if rule == "total_3":
        return sum(ordered)
    if rule == "highest_2":
        return ordered[1] + ordered[2]
    if rule == "lowest_2":
        return ordered[0] + ordered[1]
    if rule == "highest_1":
        return ordered[2]
    if rule == "lowest_1":
        return ordered[0]
    raise KeyError(rule)


# ------------------------------------------------------------------------ fire


@dataclass(frozen=True)
class WeaponRow:
    weapon: str
    nation: str  # who carries it
    short_inches: int  # short range is 0 up to this
    short_hit: int  # a d10 plus modifiers at or above this hits
    long_inches: int  # long range up to this
    long_hit: int
    dice_per_figure: int  # the machine gun rolls two per crewman


FIRE_TABLE: tuple[WeaponRow, ...] = (
    WeaponRow("french_rifle", "french", 12, 7, 24, 8, 1),
    WeaponRow("french_pistol", "french", 4, 7, 8, 8, 1),
    WeaponRow("arab_spear", "arab", 4, 8, 8, 9, 1),
    WeaponRow("arab_rifle", "arab", 8, 8, 16, 9, 1),
    WeaponRow("machine_gun", "french", 12, 7, 24, 8, 2),
    WeaponRow("arab_cannon", "arab", 12, 8, 24, 9, 1),
    WeaponRow("french_cannon", "french", 18, 7, 36, 8, 1),
)
WEAPONS: tuple[str, ...] = tuple(row.weapon for row in FIRE_TABLE)
CANNONS: frozenset[str] = frozenset({"arab_cannon", "french_cannon"})
SUPPORT_WEAPONS: frozenset[str] = frozenset({"machine_gun", "arab_cannon", "french_cannon"})
RANGES: tuple[str, ...] = ("short", "long")


def weapon_row(weapon: str) -> WeaponRow:
    for row in FIRE_TABLE:
        if row.weapon == weapon:
            return row
    raise KeyError(weapon)


def hit_number(weapon: str, range_band: str) -> int:
    row = weapon_row(weapon)
    return row.short_hit if range_band == "short" else row.long_hit


TARGET_IN_COVER_MODIFIER = -1  # fort, building or rough terrain
DID_NOT_MOVE_MODIFIER = +1  # not before a melee, not for cannon or machine gun
GRAPESHOT_MODIFIER = +4  # a cannon's target closer than 6"
GRAPESHOT_INCHES = 6

MACHINE_GUN_JAM_ZEROS = 3  # three 0s in one burst jam it for the next turn
INFANTRY_CREW_DICE_PER_FIGURE = 1  # infantry crewing the gun: one die each

CANNON_MIN_CREW = 2


@dataclass(frozen=True)
class CannonCrewRow:
    crew: int  # crew serving the gun (4 stands for "4 or more")
    modifier: int | None  # to the hit roll; None: cannot fire


CANNON_CREW_TABLE: tuple[CannonCrewRow, ...] = (
    CannonCrewRow(0, None),
    CannonCrewRow(1, None),
    CannonCrewRow(2, -2),
    CannonCrewRow(3, -1),
    CannonCrewRow(4, 0),
)


def cannon_crew_modifier(crew: int) -> int | None:
    return CANNON_CREW_TABLE[min(crew, 4)].modifier


BLAST_RADIUS_INCHES = 3
BLAST_KILL_ON = 5  # a d10 at or above this kills a figure under the blast

SUPPORT_CREW_INFANTRY_INCHES = 4  # infantry this close: shots may fall on the crew
SUPPORT_CREW_COUNT_INCHES = 5  # count figures this close to the gun

# ---------------------------------------------------------------------- morale


@dataclass(frozen=True)
class LossRow:
    smallest: int  # unit sizes (starting figures) in this band
    largest: int
    percent_per_figure: int  # taken off base morale per figure lost


#: The rules give 2 or 4 men -10%, 10 or 12 men -5%, 20 men -3%. Other sizes take
#: the rate of the nearest listed size; a size halfway between two (7, 16) takes
#: the larger unit's rate. A unit's `loss_per_figure` trait overrides it.
MORALE_LOSS_TABLE: tuple[LossRow, ...] = (
    LossRow(1, 6, 10),
    LossRow(7, 15, 5),
    LossRow(16, 99, 3),
)


def loss_percent_per_figure(unit_size: int) -> int:
    for row in MORALE_LOSS_TABLE:
        if row.smallest <= unit_size <= row.largest:
            return row.percent_per_figure
    raise ValueError(unit_size)


POSITIONS: tuple[str, ...] = ("open", "building", "fort")  # fort includes trench
MORALE_POSITION_BONUS: tuple[tuple[str, int], ...] = (
    ("open", 0),
    ("building", 10),
    ("fort", 20),
)


def position_bonus(position: str) -> int:
    for name, bonus in MORALE_POSITION_BONUS:
        if name == position:
            return bonus
    raise KeyError(position)


ROUT_THRESHOLD = 50  # fail above this: rout; at or below: removed
ROUT_INCHES = 12

# ----------------------------------------------------------------------- melee

MELEE_MAX_FIGURES_ON_ONE = 2

DEFENDER_POSITIONS: tuple[str, ...] = ("open", "higher", "building", "fort")
MELEE_DEFENDER_BONUS: tuple[tuple[str, int], ...] = (
    ("open", 0),
    ("higher", 1),
    ("building", 1),
    ("fort", 2),  # not added to the higher-ground bonus
)
ARAB_CHARGING_MODIFIER = 1
CAVALRY_CHARGING_MODIFIER = 1
LEADER_MODIFIER = 1
COUNTER_CHARGE_MODIFIER = 3


def melee_defender_bonus(position: str) -> int:
    for name, bonus in MELEE_DEFENDER_BONUS:
        if name == position:
            return bonus
    raise KeyError(position)


# ---------------------------------------------------------------- grappling

HOOK_THROW_NEED = 4
HOOK_MAX_DEFENDERS_COUNTED = 3
HOOK_THROW_DISTANCE_INCHES = 1
HOOK_MAX_ARAB_DEFENDERS = 2
HOOK_MAX_FRENCH_ATTACKERS = 2

#: Figures climbing one hook in a turn: the first climbs freely, then a d10.
CLIMB_TABLE: tuple[tuple[int, int], ...] = ((1, 0), (2, 5), (3, 8))


def climb_need(nth: int) -> int:
    for figure, need in CLIMB_TABLE:
        if figure == nth:
            return need
    raise KeyError(nth)
