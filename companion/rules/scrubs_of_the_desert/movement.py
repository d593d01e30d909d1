"""Movement: three d10 for the leader, read by unit type and terrain."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import D10_FACES

RULE_WORDS = {
    "total_3": "total of all 3 dice",
    "highest_2": "highest 2 dice",
    "lowest_2": "lowest 2 dice",
    "highest_1": "highest die",
    "lowest_1": "lowest die",
}


#: A French unit that rolls 0" does not move but may still change formation.
FORMATION_CHANGE_ONLY = "formation_change_only"


def _effects(unit_type: str, inches: int) -> frozenset[str]:
    if inches == 0 and unit_type.startswith("french"):
        return frozenset({FORMATION_CHANGE_ONLY})
    return frozenset()


def move_request(params: Params) -> RollRequest:
    unit_type = str_param(params, "unit_type")
    terrain = str_param(params, "terrain")
    rule = tables.movement_rule(unit_type, terrain)
    return RollRequest(
        f"Leader move: {tables.display_name(unit_type)} on {tables.TERRAIN_NAMES[terrain]}",
        (
            DiceGroup(
                DieKind.D10,
                tables.MOVEMENT_DICE,
                "leader move",
                f"inches = {RULE_WORDS[rule]} (0 is zero)",
            ),
        ),
    )


def move_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = move_request(params).split(dice)
    unit_type = str_param(params, "unit_type")
    rule = tables.movement_rule(unit_type, str_param(params, "terrain"))
    inches = tables.read_movement_dice(rule, list(rolled))
    details = [
        f'rolled {", ".join(map(str, rolled))}: {RULE_WORDS[rule]} = {inches}"',
        'figures are placed within 6" of the leader',
    ]
    effects = _effects(unit_type, inches)
    if effects:
        details.append("no distance, but French may still change formation")
    return Outcome(inches, "inches", effects, tuple(details))


def move_odds(params: Params) -> Odds:
    unit_type = str_param(params, "unit_type")
    rule = tables.movement_rule(unit_type, str_param(params, "terrain"))
    weighted = []
    for dice in itertools.product(D10_FACES, repeat=tables.MOVEMENT_DICE):
        inches = tables.read_movement_dice(rule, list(dice))
        weighted.append((Fraction(1, 1000), inches, _effects(unit_type, inches)))
    return odds_from_outcomes("inches", weighted)


MOVE = Action(
    name="move",
    title="Movement",
    help="Three d10 for the leader, read by unit type and terrain (highest 2, lowest "
    "die...). French guns use the French foot row, Arab guns the Arab foot row unless the "
    "scenario says otherwise; a gun needs a full move to unlimber.",
    params=(
        Param(
            "unit_type",
            ParamKind.CHOICE,
            "nation and arm (a gun moves on a foot row)",
            "french_foot",
            choices=tables.UNIT_TYPES,
        ),
        Param(
            "terrain",
            ParamKind.CHOICE,
            "trail (or fort), desert or rough",
            "desert",
            choices=tables.TERRAINS,
        ),
    ),
    request=move_request,
    resolve=move_resolve,
    odds=move_odds,
    examples=(
        {"unit_type": "french_foot", "terrain": "rough"},
        {"unit_type": "arab_horse", "terrain": "desert"},
        {"unit_type": "french_horse", "terrain": "trail"},
    ),
)
