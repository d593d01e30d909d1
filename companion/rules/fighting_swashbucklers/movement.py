"""Movement, formations, rough terrain and the Hyper-Space Rangers.

Infantry move 6" an action, cavalry 10", in line or column alike. An infantry
column (a single file) cannot shoot; any column ignores terrain and fights with
one man in melee; a line fires and fights with every man, and passes rough
terrain on a 70% roll once a turn, or stands for the rest of the turn.

A squad of prone men may vanish in its movement phase (that is its turn), land
anywhere in its next movement phase (that is its turn too), and act only on the
turn after.
"""

from __future__ import annotations

from companion.rules.fighting_swashbucklers import tables

ON_TABLE = ""
AIRBORNE = "airborne"
LANDED = "landed"


def move_inches(kind: str) -> int:
    return tables.MOVE_INCHES[kind]


def can_fire_in(formation: str, kind: str) -> bool:
    """Foot in single file have no frontage to shoot from; mounted men do."""
    return not (formation == tables.COLUMN and kind in tables.FOOT_KINDS)


def needs_rough_roll(formation: str) -> bool:
    return formation == tables.LINE


def passes_rough(roll: int) -> bool:
    return roll <= tables.ROUGH_TERRAIN_PASS_CHANCE


def other_formation(formation: str) -> str:
    return tables.COLUMN if formation == tables.LINE else tables.LINE


def can_vanish(kind: str, pose_name: str) -> bool:
    """Only a squad of prone men may become Hyper-Space Rangers."""
    return kind == tables.INFANTRY and pose_name == "prone"
