"""Missile fire by distance, and shooting at artillery crews. (1.12.1, 1.12.2)"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.fortboard import tables


def missile_hit_faces(kind: str, band: str) -> frozenset[int]:
    """Faces of a d6 that hit for an archer or crossbowman at a range band."""
    if kind not in tables.MISSILE_KINDS:
        raise ValueError(f"{kind} figures do not shoot")
    return tables.MISSILE_HIT_FACES[(kind, band)]


def count_hits(dice: Sequence[int], faces: frozenset[int]) -> int:
    return sum(1 for d in dice if d in faces)


def crew_removed(dice: Sequence[int], crew: int) -> int:
    """Crewmen removed by shots at an artillery piece: a 6 each, at most the crew."""
    return min(crew, count_hits(dice, tables.CREW_HIT_FACES))
