"""The Tenir le Fort charts, reconstructed from the seed, as data.

The seed's chart pages were scrambled by PDF extraction; each table here is
rebuilt from the prose and the numbers left in the charts (see
docs/rules/tenir-le-fort.md for how each was read).
"""

from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------------ Arab resolve

# (lowest casualties of the band, highest or None for "and more", lowest d6 total to stay)
ARAB_RESOLVE: tuple[tuple[int, int | None, int], ...] = (
    (25, 39, 2),
    (40, 49, 3),
    (50, 59, 4),
    (60, 69, 5),
    (70, None, 6),
)
RESOLVE_MOD_INSIDE_FORT = 1
RESOLVE_MOD_OASIS = 1
RESOLVE_MOD_PER_COMMAND_POINT = 1


def resolve_needed(casualties: int, *, first_band_from: int = 25) -> int | None:
    """Lowest modified d6 the Arabs need to stay, or None when no check is due.

    `first_band_from` is 25 (the chart's 25-39 row) or 26 (the prose's
    "more than 25"): the option `resolve_threshold`.
    """
    if casualties < first_band_from:
        return None
    for low, high, need in ARAB_RESOLVE:
        if casualties >= low and (high is None or casualties <= high):
            return need
    return ARAB_RESOLVE[0][2]  # 25 read as "more than 25" never gets here; 25 itself: first row


# ------------------------------------------------------------------ firing

TO_HIT_OPEN_ARAB = frozenset({5, 6})
TO_HIT_OPEN_FFL = frozenset({4, 5, 6})
TO_HIT_COVER = frozenset({6})  # light or heavy cover, either side
TO_HIT_WOUNDED = frozenset({6})  # a wounded FFL figure hits only on a 6
TO_HIT_ARTILLERY = frozenset({5, 6})  # any cover; no save
HEAVY_COVER_SAVE = frozenset({4, 5, 6})
RECOVER_FACES = frozenset({5, 6})  # a pinned unit recovers if any rolled die shows one
PIN_SIXES = 2  # two or more 6s on fire at a unit in the open pin it
JAM_ONES = 3  # more than two 1s jam the Maxim (or break a jammed one)
EXPLODE_FACE = 6  # Maxim and artillery roll again for every 6

ARAB_FRONT_ROW = 6  # Arab units fire one die per figure in a front row of six
SERGEANT_FIRE_DICE = 1
CAPTAIN_FIRE_DICE = 2  # the captain (and the lieutenant, read as an officer) add 2d6
PISTOL_SHOTS = 2  # each pistol: two dice, only at 6" or less
# the tower looks down over dunes and onto roofs; a rooftop is otherwise part of a building
TOWER_IGNORES_COVER = frozenset({"light", "rooftop"})
PISTOL_RANGE_INCHES = 6

# Heavy weapon firing dice by the side that mans them (the chart's two columns).
HEAVY_WEAPON_DICE: dict[tuple[str, str], int] = {
    ("FFL", "maxim"): 8,
    ("FFL", "artillery"): 8,
    ("Arab", "maxim"): 4,
    ("Arab", "artillery"): 4,
}
FULL_CREW: dict[str, int] = {"maxim": 3, "artillery": 5}
# the guns as the referee names them in a sentence (the kinds are lower-case keys)
GUN_WORDS: dict[str, str] = {"maxim": "Maxim", "artillery": "artillery"}
# Guns on the fort wall cannot be depressed onto figures this close.
WALL_MIN_RANGE: dict[str, int] = {"maxim": 6, "artillery": 12}
SNIPE_FACES_2D6 = frozenset({11, 12})  # leaders hit by a sniper, or among casualties

# ------------------------------------------------------------- effect of hits on FFL


@dataclass(frozen=True)
class WoundRow:
    low: int
    high: int
    result: str  # "dead", "wounded", "no effect"


EFFECT_OF_HITS_ON_FFL: tuple[WoundRow, ...] = (
    WoundRow(1, 1, "dead"),
    WoundRow(2, 3, "wounded"),
    WoundRow(4, 6, "no effect"),
)


def wound_result(die: int) -> str:
    for row in EFFECT_OF_HITS_ON_FFL:
        if row.low <= die <= row.high:
            return row.result
    raise ValueError(f"a d6 reads 1-6, got {die}")


# ------------------------------------------------------------ reinforcements

# (low, high) of the referee's secret d6 -> the day the relief column arrives
REINFORCEMENT_DAY: tuple[tuple[int, int, int], ...] = (
    (1, 1, 5),
    (2, 3, 4),
    (4, 5, 3),
    (6, 6, 2),
)
REINFORCEMENT_ARRIVES_ON = frozenset({5, 6})  # same-day arrival, rolled on a leader chit


def reinforcement_day(die: int) -> int:
    for low, high, day in REINFORCEMENT_DAY:
        if low <= die <= high:
            return day
    raise ValueError(f"a d6 reads 1-6, got {die}")


# ------------------------------------------------------------ ammunition


@dataclass(frozen=True)
class AmmoRow:
    low: int
    high: int
    level: str  # "normal", "half", "third"
    heavy_weapons: bool  # Maxim and artillery still have ammunition


AMMO_NORMAL = AmmoRow(2, 7, "normal", True)
AMMO_HALF = AmmoRow(8, 10, "half", True)
AMMO_THIRD = AmmoRow(12, 12, "third", False)
FFL_AMMUNITION: tuple[AmmoRow, ...] = (AMMO_NORMAL, AMMO_HALF, AMMO_THIRD)


def ammunition(total: int, *, eleven: str = "half") -> AmmoRow:
    """The row for a 2d6 total (modified totals are held to 2..12).

    The chart has no row for 11: `eleven` ("half" or "third") is the option
    `ammo_eleven`.
    """
    total = max(2, min(12, total))
    if total == 11:
        return AMMO_HALF if eleven == "half" else AMMO_THIRD
    for row in FFL_AMMUNITION:
        if row.low <= total <= row.high:
            return row
    raise AssertionError(total)


AMMO_DIVISOR: dict[str, int] = {"normal": 1, "half": 2, "third": 3}

# ------------------------------------------------------------ movement

BASE_MOVE_DICE: dict[str, int] = {"foot": 2, "mounted": 4, "supply": 2}
MOVE_AND_FIRE_DICE = 1
MAXIM_MOVE_DICE: dict[int, int] = {1: 1, 2: 2}  # by men pushing it (two or more: 2d6)
ARTILLERY_MOVE_DICE = 1
ARTILLERY_MOVE_MEN = 3
LEADER_EXTRA_DIE = 1  # rolled, then the lowest die dropped
CHARGE_EXTRA_DIE = 1  # added to the total
BERSERK_EXTRA_DIE = 1  # added to the total
CHARGE_REACH_INCHES = 12
BERSERK_FACE = 6
REGAIN_CONTROL_FACE = 6
INFIGHTING_TOTALS = frozenset({2, 3})
FALL_BACK_DICE = 2
LADDER_CLIMBERS_WALL_CLEAR_DICE = 2
LADDER_ADVANCE_DICE = 1
LADDER_ASSAULT_CLIMBERS: dict[str, int] = {"ladder": 5, "hook": 2}
LADDER_DEFENDER_REACH_INCHES = 2
TOWER_CAPACITY = 2

# ------------------------------------------------------------ close combat

CC_MODIFIERS: dict[str, int] = {
    "mounted_leader": 2,  # Arab
    "tribal_leader": 1,  # Arab
    "captain": 2,  # FFL
    "sergeant": 1,  # FFL
    "hero": 2,  # FFL
    "berserk": 1,
    "defending_cover": 1,
    "defending_loophole": 2,  # FFL
    "pinned": -1,
    "low_on_water": -1,
    "wounded": -1,  # FFL
    "gun_crew": -1,
}
LEADER_CC_KEY: dict[str, str] = {
    "mounted": "mounted_leader",
    "tribal": "tribal_leader",
    "captain": "captain",
    "lieutenant": "captain",  # read as an officer like the captain
    "sergeant": "sergeant",
}
MAX_ATTACKERS_PER_FIGURE = 4


@dataclass(frozen=True)
class LoserRow:
    side: str
    low: int
    high: int
    result: str  # "killed", "wounded", "fell back"


CC_LOSER: tuple[LoserRow, ...] = (
    LoserRow("FFL", 1, 1, "killed"),
    LoserRow("FFL", 2, 3, "wounded"),
    LoserRow("FFL", 4, 6, "fell back"),
    LoserRow("Arab", 1, 3, "killed"),
    LoserRow("Arab", 4, 6, "fell back"),
)


def cc_loser_result(side: str, die: int) -> str:
    for row in CC_LOSER:
        if row.side == side and row.low <= die <= row.high:
            return row.result
    raise ValueError(f"no close combat result for {side} with {die}")


# ------------------------------------------------------------ command points

COMMAND_POINT_DICE = 1
COMMAND_POINT_COSTS: dict[tuple[str, str], int] = {
    ("Arab", "resolve"): 1,  # per +1 on the resolve roll
    ("Arab", "extra_turn"): 1,
    ("Arab", "crew_captured_mg"): 2,
    ("Arab", "unpin"): 1,
    ("FFL", "extra_turn"): 1,
    ("FFL", "hero"): 2,
    ("FFL", "recrew"): 1,
    ("FFL", "tower"): 1,
}

# ------------------------------------------------------------ sentries and saboteurs

# Sentry modifiers by the sentry's side.
SENTRY_PATROLS = 1  # FFL: increased patrols
SENTRY_PREVIOUS_ATTEMPT = 2  # either side, against a repeat infiltration
# Sneaking modifiers (the Arab chart's list).
SNEAK_OUTSIDE_FORT = 1
SNEAK_GRAPPLING_HOOKS = 1
SABOTAGE_PHASES: tuple[str, ...] = (
    "desert to wall",
    "over the wall",
    "wall to target",
    "attack the target",
)
# an FFL sortie goes the other way: out over the wall, then into the desert
SORTIE_PHASES: tuple[str, ...] = ("over the wall", "wall to desert", "attack the target")
SABOTEUR_MAX_FIGURES = 6
SENTRY_RANGE_TOWER = 36
SENTRY_RANGE_OTHER = 24

# ------------------------------------------------------------ dynamite and the gate

DYNAMITE_PREMATURE = 2
DYNAMITE_DUD = 12
GATE_HITS = 7
GRENADE_RANGE_INCHES = 6
