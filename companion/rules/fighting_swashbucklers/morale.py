"""Morale: the Morale Level of a squad and the percentile chart against it.

The chart, from the top: a roll above the ML fails (an odd roll loses one man
and places one marker, an even roll two of each); a roll from half the ML up to
the ML has no effect; a roll at or below half the ML provokes the squad
(infantry fire, cavalry advance). "Stress" halves the squad's normal ML before
markers come off; a good leader's points are added last.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.core import counted
from companion.rules.fighting_swashbucklers import tables

FAILED = "failed"
STEADY = "steady"
PROVOKED = "provoked"


def morale_level(men: int, markers: int, *, stress: bool = False, leader_points: int = 0) -> int:
    """The ML a squad tests against, in percent (may fall to zero or below)."""
    normal = tables.morale_level_for_men(men)
    if stress:
        normal //= 2  # always a multiple of 5: 60 + 10 x men is a multiple of 10
    return normal - tables.MORALE_PER_MARKER * markers + leader_points


@dataclass(frozen=True)
class MoraleResult:
    band: str  # FAILED, STEADY or PROVOKED
    losses: int  # men removed (and markers placed) on a failure
    roll: int
    level: int

    @property
    def provoked(self) -> bool:
        return self.band == PROVOKED


def morale_result(roll: int, level: int, men: int) -> MoraleResult:
    """Read the morale chart for a percentile `roll` against Morale Level `level`."""
    if roll > level:
        losses = tables.FAILURE_LOSSES_ODD if roll % 2 else tables.FAILURE_LOSSES_EVEN
        return MoraleResult(FAILED, min(losses, men), roll, level)
    if 2 * roll <= level:
        return MoraleResult(PROVOKED, 0, roll, level)
    return MoraleResult(STEADY, 0, roll, level)


def provoked_reaction(kind: str) -> str:
    """What a provoked squad does: cavalry advance, everyone else fires."""
    return "advance" if kind == tables.CAVALRY else "fire"


def explain_level(men: int, markers: int, *, stress: bool, leader_points: int) -> str:
    parts = [f"ML = 60 + 10 x {men} = {tables.morale_level_for_men(men)}"]
    if stress:
        parts.append(f"halved for stress = {tables.morale_level_for_men(men) // 2}")
    if markers:
        parts.append(f"less 5 x {counted(markers, 'marker')}")
    if leader_points:
        parts.append(f"plus {counted(leader_points, 'leader point')}")
    text = ", ".join(parts)
    if markers or leader_points:  # otherwise the last part already ends in the level
        text += f": {morale_level(men, markers, stress=stress, leader_points=leader_points)}"
    return text
