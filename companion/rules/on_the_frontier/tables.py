"""On the Frontier's charts as data (d6 throughout).

Each table is a tuple of rows so that tests can walk it row by row and the docs
can print it. The numbers are the rules'; the wording is ours.
"""

from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------------ troop types

#: The unit kinds a scenario may use, as the box understands them.
UNIT_KINDS: tuple[str, ...] = (
    "infantry",
    "skirmishers",
    "tribesmen",
    "cavalry",
    "artillery",
    "wagons",
    "commander",
)

#: Kinds that shooters find hard to hit (one less on each die).
DIFFICULT_TARGET_KINDS: frozenset[str] = frozenset({"skirmishers", "artillery", "cavalry"})

#: Kinds the rules let choose to hold their fire (others fire or do not).
HOLD_FIRE_KINDS: frozenset[str] = frozenset({"infantry", "skirmishers"})

#: Kinds that may move and charge (guns, wagons and lone commanders do not charge).
CHARGING_KINDS: frozenset[str] = frozenset({"infantry", "skirmishers", "tribesmen", "cavalry"})

#: Kinds that can do engineering work (foot).
FOOT_KINDS: frozenset[str] = frozenset({"infantry", "skirmishers", "tribesmen"})

#: Kinds that cross broken ground without the penalty.
IGNORE_BROKEN_GROUND_KINDS: frozenset[str] = frozenset({"skirmishers", "tribesmen"})

# --------------------------------------------------------------------- movement


@dataclass(frozen=True)
class MoveRow:
    kind: str
    base_inches: int  # the move is this plus one d6


MOVEMENT_TABLE: tuple[MoveRow, ...] = (
    MoveRow("infantry", 6),
    MoveRow("artillery", 6),
    MoveRow("wagons", 6),
    MoveRow("skirmishers", 9),
    MoveRow("tribesmen", 9),
    MoveRow("cavalry", 12),
    MoveRow("commander", 12),
)

DEPLOY_GUNS_PENALTY_INCHES = 4
BROKEN_GROUND_PENALTY_INCHES = 4
NEAR_ENEMY_INCHES = 6  # within this, move only towards the enemy or straight back
ROAD_COLUMN_WIDTH = 2  # a column two wide on a road ignores off-road terrain


def base_move(kind: str) -> int:
    for row in MOVEMENT_TABLE:
        if row.kind == kind:
            return row.base_inches
    raise KeyError(kind)


# ------------------------------------------------------------------------ rally


@dataclass(frozen=True)
class RallyRow:
    low: int  # modified score, inclusive (open-ended at the extremes)
    high: int
    result: str  # "recover", "try_again", "removed"


RALLY_TABLE: tuple[RallyRow, ...] = (
    RallyRow(5, 99, "recover"),
    RallyRow(3, 4, "try_again"),
    RallyRow(-99, 2, "removed"),
)

RALLY_QUALITY_MODIFIERS: tuple[tuple[str, int], ...] = (
    ("elite", +1),
    ("veteran", +1),
    ("regular", 0),
    ("militia", -1),
    ("poor", -1),
)
RALLY_LEADER_BONUS = 1  # joined by a general or a hero


def rally_result(score: int) -> str:
    for row in RALLY_TABLE:
        if row.low <= score <= row.high:
            return row.result
    raise ValueError(score)


def quality_modifier(quality: str) -> int:
    for name, mod in RALLY_QUALITY_MODIFIERS:
        if name == quality:
            return mod
    raise KeyError(quality)


QUALITIES: tuple[str, ...] = tuple(name for name, _ in RALLY_QUALITY_MODIFIERS)

# --------------------------------------------------------------------- shooting


@dataclass(frozen=True)
class WeaponRow:
    weapon: str
    figures_per_die: int  # one die per this many figures (gunners for guns)
    hit_on: int  # a die (after modifiers) at or above this hits
    close_inches: int
    long_inches: int


SHOOTING_TABLE: tuple[WeaponRow, ...] = (
    WeaponRow("musket", 2, 5, 4, 8),
    WeaponRow("rifle", 2, 5, 8, 16),
    WeaponRow("artillery", 2, 4, 16, 32),
)

WEAPONS: tuple[str, ...] = tuple(row.weapon for row in SHOOTING_TABLE)

SUPERIOR_FIREPOWER_MODIFIER = +1  # sharpshooters, breechloaders, heavy guns
DIFFICULT_TARGET_MODIFIER = -1  # skirmishers, artillery, cavalry or in cover
LONG_RANGE_MODIFIER = -1
SHOOTING_ARC_DEGREES = 45  # either side of the front; the front rank only

RANGE_BANDS: tuple[str, ...] = ("close", "long")


def weapon_row(weapon: str) -> WeaponRow:
    for row in SHOOTING_TABLE:
        if row.weapon == weapon:
            return row
    raise KeyError(weapon)


# ------------------------------------------------------ commanders' d6 (both)


@dataclass(frozen=True)
class CommanderRow:
    face: int
    result: str  # "cancel" (Steady!) / "benefit" (Come On!), "nothing", "commander_hit"


STEADY_TABLE: tuple[CommanderRow, ...] = (
    CommanderRow(1, "commander_hit"),
    CommanderRow(2, "nothing"),
    CommanderRow(3, "nothing"),
    CommanderRow(4, "nothing"),
    CommanderRow(5, "cancel_hit"),
    CommanderRow(6, "cancel_hit"),
)

COME_ON_TABLE: tuple[CommanderRow, ...] = (
    CommanderRow(1, "commander_hit"),
    CommanderRow(2, "nothing"),
    CommanderRow(3, "nothing"),
    CommanderRow(4, "nothing"),
    CommanderRow(5, "cancel_or_inflict"),
    CommanderRow(6, "cancel_or_inflict"),
)

COMMANDER_AWAY_TURNS = 1  # a hit commander is replaced at the end of the next turn


def commander_result(table: tuple[CommanderRow, ...], face: int) -> str:
    for row in table:
        if row.face == face:
            return row.result
    raise ValueError(face)


# ------------------------------------------------------------ charge resolution


@dataclass(frozen=True)
class ChargeDiceRow:
    kind: str
    figures_per_die: int  # both ranks count
    hit_on: int


CHARGE_TABLE: tuple[ChargeDiceRow, ...] = (
    ChargeDiceRow("infantry", 2, 5),
    ChargeDiceRow("skirmishers", 2, 5),
    ChargeDiceRow("tribesmen", 2, 5),
    ChargeDiceRow("wagons", 2, 5),
    ChargeDiceRow("artillery", 1, 5),
    ChargeDiceRow("cavalry", 1, 5),
    ChargeDiceRow("commander", 1, 5),
)

SHOCK_TROOPS_MODIFIER = +1  # bayonets, veterans, breechloaders: set by the scenario
ENEMY_IN_COVER_MODIFIER = -1  # in cover, behind an obstacle or uphill
CAVALRY_VS_SQUARE_MODIFIER = -1


def charge_row(kind: str) -> ChargeDiceRow:
    for row in CHARGE_TABLE:
        if row.kind == kind:
            return row
    raise KeyError(kind)


# ------------------------------------------------------------------ engineering

ENGINEERING_FIGURES_PER_DIE = 4
ENGINEERING_TASK_POINTS = 6

ENGINEERING_TASKS: tuple[tuple[str, str], ...] = (
    ("barricade", "road block or barricade a town street"),
    ("fortify_house", "fortify a house"),
    ("clear_obstruction", "clear an obstruction"),
    ("redoubt", "build 3 inches of redoubt"),
)


@dataclass(frozen=True)
class DemolitionRow:
    target: str
    points: int


DEMOLITION_TABLE: tuple[DemolitionRow, ...] = (
    DemolitionRow("weak_wall", 6),
    DemolitionRow("fortified_house", 6),
    DemolitionRow("small_bridge", 6),
    DemolitionRow("large_bridge", 12),
)


def demolition_points(target: str) -> int:
    for row in DEMOLITION_TABLE:
        if row.target == target:
            return row.points
    raise KeyError(target)
