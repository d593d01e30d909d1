"""Fire: all-or-nothing rifle fire by squad size, the machine gun, the cannon.

A full squad places its Fire Factor in markers on the target automatically; a
smaller one places the same number or nothing, on a percentile roll of 25% a
man. A machine-gun squad adds 4 markers from the gun to its riflemen's effect.
A cannon rolls a d10 and takes off the tens digit of the range in inches.
"""

from __future__ import annotations

from companion.rules.fighting_swashbucklers import tables

CAVALRY_FIRE_FACTORS: tuple[int, ...] = (1, 0)  # option `cavalry_fire_factor`
MACHINE_GUN_CREWS: tuple[int, ...] = (1, 2)  # option `mg_crew`


def fire_factor(kind: str, pose_name: str, cavalry_fire_factor: int) -> int:
    """The markers a squad places when its fire takes effect."""
    if kind == tables.CAVALRY:
        return cavalry_fire_factor
    if kind == tables.COMMANDER:
        return 0
    return tables.pose(pose_name).fire_factor


def rifle_markers(men: int, factor: int, roll: int | None) -> int:
    """All or nothing: `factor` markers if the roll is within 25% a man."""
    chance = tables.fire_chance(men)
    if chance >= 100:
        return factor
    if roll is None or roll > chance:
        return 0
    return factor


def rifle_needs_roll(men: int) -> bool:
    return 0 < men < tables.SQUAD_SIZE


def machine_gun_riflemen(men: int, crew: int) -> int:
    """Men left to fire rifles once the gun is crewed (losses come off riflemen)."""
    return max(0, men - crew)


def cannon_markers(die: int, range_inches: int) -> int:
    """D - R: the d10 less the tens digit of the range; nothing when D < R."""
    return max(0, die - range_tens(range_inches))


MAX_CANNON_RANGE = 99  # inches: a tens digit of 0..9 (a table up to 8 feet)


def range_tens(range_inches: int) -> int:
    """The tens digit of a range of 0..99 inches."""
    return range_inches // 10
