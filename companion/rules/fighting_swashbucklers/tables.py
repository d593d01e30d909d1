"""Fighting Swashbucklers' charts and fixed numbers, as data.

Every number the rules use lives here, so a reader finds any chart by name and
the tests check each row against the seed text.
"""

from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------------ poses


@dataclass(frozen=True)
class Pose:
    """The pose a squad's figures are cast in fixes its fire and melee factors."""

    name: str
    fire_factor: int
    melee_factor: int


POSES: tuple[Pose, ...] = (
    Pose("running", fire_factor=1, melee_factor=9),
    Pose("standing", fire_factor=2, melee_factor=8),
    Pose("kneeling", fire_factor=3, melee_factor=7),
    Pose("prone", fire_factor=4, melee_factor=6),
)
POSE_NAMES: tuple[str, ...] = tuple(p.name for p in POSES)

CAVALRY_MELEE_FACTOR = 10
COMMANDER_MELEE_FACTOR = 12  # the option `commander_factor` may read it as 10
MARTINET_MELEE_BONUS = 1  # every man under a martinet
ADVANTAGE_MELEE_BONUS = 2  # works, a building, a flank attack


def pose(name: str) -> Pose:
    for p in POSES:
        if p.name == name:
            return p
    raise KeyError(f"no pose {name!r}; poses are {', '.join(POSE_NAMES)}")


# ------------------------------------------------------------------ unit kinds

INFANTRY = "infantry"
CAVALRY = "cavalry"
MACHINE_GUN = "machine_gun"
CANNON = "cannon"
COMMANDER = "commander"
UNIT_KINDS: tuple[str, ...] = (INFANTRY, CAVALRY, MACHINE_GUN, CANNON, COMMANDER)
FOOT_KINDS: tuple[str, ...] = (INFANTRY, MACHINE_GUN, CANNON)
FORMED_KINDS: tuple[str, ...] = (INFANTRY, MACHINE_GUN, CAVALRY)  # line or column

SQUAD_SIZE = 4  # a full squad; the Morale Level is 100% at this size

# ------------------------------------------------------------------ morale

MORALE_BASE = 60  # ML = 60 + 10 x men
MORALE_PER_MAN = 10
MORALE_PER_MARKER = 5  # each marker takes 5 off the ML


def morale_level_for_men(men: int) -> int:
    """The Morale Level in percent of a squad of `men`, before markers."""
    return MORALE_BASE + MORALE_PER_MAN * men


# Failing a morale test: an odd roll removes one man and places one marker,
# an even roll removes two men and places two markers.
FAILURE_LOSSES_ODD = 1
FAILURE_LOSSES_EVEN = 2

# ------------------------------------------------------------------ fire

RIFLE_RANGE_INCHES = 24
MACHINE_GUN_RANGE_INCHES = 24
MACHINE_GUN_MARKERS = 4  # from the gun itself, on top of the riflemen's effect

# Chance (percent) that a squad of so many men places its markers at all.
FIRE_CHANCE_BY_MEN: tuple[tuple[int, int], ...] = (
    (4, 100),
    (3, 75),
    (2, 50),
    (1, 25),
)


def fire_chance(men: int) -> int:
    """Percent chance that `men` riflemen place their Fire Factor in markers."""
    if men <= 0:
        return 0
    for count, chance in FIRE_CHANCE_BY_MEN:
        if men >= count:
            return chance
    return 0


# ------------------------------------------------------------------ movement

MOVE_INCHES = {INFANTRY: 6, MACHINE_GUN: 6, CANNON: 6, COMMANDER: 6, CAVALRY: 10}
LINE = "line"
COLUMN = "column"
FORMATIONS: tuple[str, ...] = (LINE, COLUMN)
NO_FORMATION = ""  # a cannon or the commanding officer: the source forms only foot and horse
ROUGH_TERRAIN_PASS_CHANCE = 70  # a unit in line, each turn; columns need no roll

# ------------------------------------------------------------------ command

# Commanding officer's Command Points by percentile band (low, high, CP).
COMMAND_POINT_BANDS: tuple[tuple[int, int, int], ...] = (
    (1, 33, 3),
    (34, 66, 4),
    (67, 100, 5),
)

GOOD_LEADER = "good"
ORDINARY_OFFICER = "ordinary"
MARTINET = "martinet"
OFFICER_TYPES: tuple[str, ...] = (GOOD_LEADER, ORDINARY_OFFICER, MARTINET)

# Under-officer's type by percentile band (low, high, type).
UNDER_OFFICER_BANDS: tuple[tuple[int, int, str], ...] = (
    (1, 33, GOOD_LEADER),
    (34, 66, ORDINARY_OFFICER),
    (67, 100, MARTINET),
)

SECOND_ACTION_PERCENT_PER_CP = 10  # chance of a second action = 10 x CP
REACTION_POINTS_PER_UNIT = 10  # CP x d10 reacting points, one unit per 10
RALLY_POINTS_PER_MAN = 10  # CP x d10 / 10 men, the fraction by percentile
GOOD_LEADER_RISK_PER_POINT = 2  # killed on 2 x the points he lends
GOOD_LEADER_MAX_POINTS = 50  # 50 points is already a certain death
MARTINET_DEATH_IF_WON = 30  # percent, tested when the melee is over
MARTINET_DEATH_IF_LOST = 60

MELEE_ROUT_RATIO = 3  # the winner's product three times the loser's: rout
MELEE_WIN_VICTORY_POINTS = 3  # the playtest's points for winning a melee


def band_value(bands: tuple[tuple[int, int, int], ...], roll: int) -> int:
    """The value of the band holding `roll`; a roll below every band takes the first."""
    for low, high, value in bands:
        if low <= roll <= high:
            return value
    return bands[0][2] if roll < bands[0][0] else bands[-1][2]


def officer_type_for(roll: int) -> str:
    for low, high, kind in UNDER_OFFICER_BANDS:
        if low <= roll <= high:
            return kind
    return UNDER_OFFICER_BANDS[0][2] if roll < 1 else UNDER_OFFICER_BANDS[-1][2]
