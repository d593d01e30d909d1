"""Rams, assault towers, burning oil and the wall weapons. (1.5, 1.10, 1.11)"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.fortboard import tables


def attempts_per_target(targets_below: int, weapon_spaces: int) -> tuple[int, ...]:
    """How a wall weapon's four attempts fall on the figures below it.

    It reaches as many figures as it has spaces; the four attempts are
    shared as evenly as possible, the first figures taking any odd one.
    """
    reached = min(targets_below, weapon_spaces)
    if reached <= 0:
        return ()
    base, extra = divmod(tables.WALL_WEAPON_ATTEMPTS, reached)
    return tuple(base + (1 if i < extra else 0) for i in range(reached))


def engine_destroyed(hits: int) -> bool:
    return hits >= tables.ENGINE_HITS_TO_DESTROY


def engine_survivors(face: int, crew: int) -> int:
    """Figures that come out of a destroyed ram or assault tower: 1d6, at most its crew."""
    return min(face, crew)


def flames_put_out(dice: Sequence[int]) -> bool:
    return any(d in tables.DOUSE_FACES for d in dice)


def oil_burnt_out(turns_burning: int) -> bool:
    return turns_burning >= tables.OIL_BURN_TURNS


def replacement_allowed(face: int) -> bool:
    """An attacker's infantry may be picked up and placed elsewhere on a 6."""
    return face in tables.REPLACEMENT_FACES
