"""Rally: CP x d10 / 10 men come back; a fraction is one more man on a percentile.

With CP 4 and a 7, 2.8 men: two men, and a third on a percentile of 80 or less.
Men rejoin their own squad on the field; a squad gone entirely comes back only
whole (its full strength at once), beside the commanding officer.
"""

from __future__ import annotations

from companion.rules.fighting_swashbucklers import tables


def rally_points(cp: int, die: int) -> int:
    return cp * die


def rally_whole_men(cp: int, die: int) -> int:
    return rally_points(cp, die) // tables.RALLY_POINTS_PER_MAN


def rally_fraction_percent(cp: int, die: int) -> int:
    """The fraction of a man, in percent (0 when the points are a whole number)."""
    return (rally_points(cp, die) % tables.RALLY_POINTS_PER_MAN) * 10


def fraction_rallies(percent: int, roll: int) -> bool:
    return percent > 0 and roll <= percent
