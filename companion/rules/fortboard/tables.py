"""FortBoard's charts and fixed numbers, as data.

Every figure the rules quote lives here so that a reader can find it by name
and the tests can check it row by row against the source.
"""

from __future__ import annotations

# ------------------------------------------------------------------ figures

#: Kinds of figure the scenario may field. Pikes fight as ordinary soldiers;
#: they matter only for the optional rule about fighting over rubble.
FIGURE_KINDS: tuple[str, ...] = ("infantry", "pike", "archer", "crossbow", "mounted")

#: Kinds that shoot (missile troops).
MISSILE_KINDS: frozenset[str] = frozenset({"archer", "crossbow"})

#: Kinds that count as the attacker's infantry for the set-up limit (all foot).
FOOT_KINDS: frozenset[str] = frozenset({"infantry", "pike", "archer", "crossbow"})

#: Basic melee value of a figure, unwounded. (1.12)
MELEE_VALUE: dict[str, int] = {
    "infantry": 3,
    "pike": 3,
    "archer": 2,
    "crossbow": 2,
    "mounted": 4,
}

#: Melee value once wounded: mounted drop to 2, everyone else to 1. (1.12)
WOUNDED_MELEE_VALUE: dict[str, int] = {
    "infantry": 1,
    "pike": 1,
    "archer": 1,
    "crossbow": 1,
    "mounted": 2,
}

#: Penalty to every defender figure and wall weapon once the barracks has
#: fallen, and again once the keep has fallen or been destroyed. (1.6, 1.9)
BARRACKS_FALLEN_PENALTY = 1
KEEP_FALLEN_PENALTY = 1

#: Fights a defender in the keep makes per action. (1.9)
KEEP_FIGHTS_PER_ACTION = 2

# ------------------------------------------------------------------ missiles

#: Faces that hit, by shooter kind and distance band. (1.12.1)
#: "near" is a target 2 or 3 spaces off (beyond the next space, short of four);
#: "far" is four spaces or more. An adjacent enemy cannot be shot at.
MISSILE_HIT_FACES: dict[tuple[str, str], frozenset[int]] = {
    ("archer", "far"): frozenset({6}),
    ("crossbow", "far"): frozenset({5, 6}),
    ("archer", "near"): frozenset({4, 5, 6}),
    ("crossbow", "near"): frozenset({4, 5, 6}),
}

RANGE_BANDS: tuple[str, ...] = ("near", "far")
RANGE_LABELS: dict[str, str] = {"near": "2-3 spaces", "far": "4+ spaces"}
RANGE_REASONS: dict[str, str] = {
    "near": "2-3 spaces away",
    "far": "4+ spaces away or distance of no bearing",
}

#: Any missile figure shooting at an enemy artillery crew hits on a 6. (1.12.2)
CREW_HIT_FACES: frozenset[int] = frozenset({6})

# ----------------------------------------------------------------- artillery

#: Numbers on each defender weapon's targeting indicators: a d6 picks one. (1.4)
TARGET_NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

#: Where an attacker's shot into the fort lands, by d6. (1.4)
#: The source numbers the courtyard 6, 7 and 8; a d6 only reaches 6.
INTERIOR_HIT_TABLE: dict[int, str] = {
    1: "left_artillery",
    2: "right_artillery",
    3: "keep",
    4: "barracks",
    5: "stables",
    6: "courtyard",
}

INTERIOR_HIT_LABELS: dict[str, str] = {
    "left_artillery": "left artillery",
    "right_artillery": "right artillery",
    "keep": "keep",
    "barracks": "barracks",
    "stables": "stables",
    "courtyard": "courtyard",
}

#: A figure where a shot lands is wounded on this d6 or better. (1.4.2)
HIT_WOUNDS_ON = 3

# -------------------------------------------------------------------- engines

#: Hits that destroy a ram or an assault tower. (1.10, 1.11)
ENGINE_HITS_TO_DESTROY = 6

#: Figures an assault tower lets onto the wall per turn. (1.11)
ASSAULT_TOWER_DISPENSE = 4

#: Turns burning oil burns an assault tower before it falls. (1.11)
OIL_BURN_TURNS = 4

#: A figure in a burning assault tower puts the fire out on this face. (1.11)
DOUSE_FACES: frozenset[int] = frozenset({6})

#: Combat attempts a wall weapon rolls each time it fires. (1.5)
WALL_WEAPON_ATTEMPTS = 4

#: Faces that let an attacker's infantry be picked up and placed elsewhere. (1.1)
REPLACEMENT_FACES: frozenset[int] = frozenset({6})

#: Defenders allowed in one tower at once. (1.8)
TOWER_DEFENDER_LIMIT = 4

#: Defenders may number at most this fraction of the attacker's infantry. (1.1)
SETUP_LIMIT_NUMERATOR = 3
SETUP_LIMIT_DENOMINATOR = 4

# --------------------------------------------------------------------- places

PLACE_KINDS: tuple[str, ...] = (
    "wall",
    "tower",
    "courtyard",
    "barracks",
    "stables",
    "keep",
    "gate",
    "station",
)

#: What an attacker's equipment station holds.
EQUIPMENT_KINDS: tuple[str, ...] = ("catapult", "ram", "assault_tower", "camp")
