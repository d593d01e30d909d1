"""Officers: the commanding officer's Command Points and the under-officers.

CP (3, 4 or 5 by percentile band) drive the second action (10 x CP percent),
reaction fire (CP x d10 points, one unit a 10) and the rally (CP x d10 / 10 men).
Under-officers are a good leader (lends morale points at a risk of twice the
points), run of the mill (an extra man in melee) or a martinet (+1 melee factor
to his men, and a 30% or 60% chance they do him in once the melee is over).
"""

from __future__ import annotations

from companion.rules.fighting_swashbucklers import tables


def command_points_for(roll: int) -> int:
    return tables.band_value(tables.COMMAND_POINT_BANDS, roll)


def under_officer_for(roll: int) -> str:
    return tables.officer_type_for(roll)


def second_action_chance(cp: int) -> int:
    """Percent chance of a second action."""
    return tables.SECOND_ACTION_PERCENT_PER_CP * cp


def second_action_granted(cp: int, roll: int) -> bool:
    """A 0% chance never succeeds, not even on a "00" read as zero."""
    chance = second_action_chance(cp)
    return chance > 0 and roll <= chance


def reacting_points(cp: int, die: int) -> int:
    return cp * die


def reacting_units(cp: int, die: int) -> int:
    """Every 10 reacting points lets one unit react with fire."""
    return reacting_points(cp, die) // tables.REACTION_POINTS_PER_UNIT


def good_leader_risk(points: int) -> int:
    """Percent chance the good leader is killed for lending `points`."""
    return min(100, tables.GOOD_LEADER_RISK_PER_POINT * points)


def good_leader_killed(points: int, roll: int) -> bool:
    return points > 0 and roll <= good_leader_risk(points)


def martinet_risk(squad_won: bool) -> int:
    return tables.MARTINET_DEATH_IF_WON if squad_won else tables.MARTINET_DEATH_IF_LOST


def martinet_killed(squad_won: bool, roll: int) -> bool:
    return roll <= martinet_risk(squad_won)
