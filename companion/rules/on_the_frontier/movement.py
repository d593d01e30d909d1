"""Movement: a base distance by troop type plus one d6, less penalties."""

from __future__ import annotations

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
    bool_param,
    str_param,
)
from companion.rules.on_the_frontier import tables


def move_penalty(kind: str, broken_ground: bool, deploying_guns: bool, road_column: bool) -> int:
    """Inches taken off the move for broken ground and for deploying guns."""
    penalty = 0
    if broken_ground and not road_column and kind not in tables.IGNORE_BROKEN_GROUND_KINDS:
        penalty += tables.BROKEN_GROUND_PENALTY_INCHES
    if deploying_guns and kind == "artillery":
        penalty += tables.DEPLOY_GUNS_PENALTY_INCHES
    return penalty


def move_inches(kind: str, die: int, penalty: int) -> int:
    """The distance a unit may move: base + d6 - penalties, never below zero."""
    return max(0, tables.base_move(kind) + die - penalty)


MOVE_PARAMS = (
    Param("kind", ParamKind.CHOICE, "troop type", "infantry", choices=tables.UNIT_KINDS),
    Param("broken_ground", ParamKind.BOOL, 'crossing broken ground (-4")', False),
    Param("deploying_guns", ParamKind.BOOL, 'artillery deploying its guns (-4")', False),
    Param("road_column", ParamKind.BOOL, "a column two wide on a road", False),
    Param("near_enemy", ParamKind.BOOL, 'within 6" of the enemy', False),
    Param("shaken", ParamKind.BOOL, "the unit is below half strength", False),
    Param("follow_me", ParamKind.BOOL, "a commander has joined and may reroll", False),
)


def _penalty(params: Params) -> int:
    return move_penalty(
        str_param(params, "kind"),
        bool_param(params, "broken_ground"),
        bool_param(params, "deploying_guns"),
        bool_param(params, "road_column"),
    )


def move_request(params: Params) -> RollRequest:
    kind = str_param(params, "kind")
    base = tables.base_move(kind)
    penalty = _penalty(params)
    meaning = f"inches = {base} + die" + (f" - {penalty}" if penalty else "")
    return RollRequest(f"Move {kind}", (DiceGroup(DieKind.D6, 1, "move", meaning),))


def restrictions(params: Params) -> tuple[str, ...]:
    """The reminders a referee needs with the distance."""
    lines = []
    if bool_param(params, "near_enemy"):
        lines.append('within 6" of the enemy: only towards the enemy or straight back')
    if bool_param(params, "shaken"):
        lines.append("shaken (below half strength): may not advance")
    if bool_param(params, "follow_me"):
        lines.append("Follow Me!: the commander may have the d6 rerolled, and moves with them")
    if bool_param(params, "road_column"):
        lines.append("road column two wide: off-road terrain ignored")
    if bool_param(params, "broken_ground") and str_param(params, "kind") in ("artillery", "wagons"):
        lines.append("some broken ground is impassable to guns and wagons")
    if bool_param(params, "broken_ground") and str_param(params, "kind") == "cavalry":
        lines.append("some broken ground is impassable to cavalry")
    return tuple(lines)


def move_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = move_request(params).split(dice)
    kind = str_param(params, "kind")
    penalty = _penalty(params)
    inches = move_inches(kind, die, penalty)
    arithmetic = f"{kind}: {tables.base_move(kind)} + {die}"
    if penalty:
        arithmetic += f" - {penalty}"
    return Outcome(
        inches,
        "inches",
        details=(f'{arithmetic} = {inches}"', *restrictions(params)),
    )


def move_odds(params: Params) -> Odds:
    kind = str_param(params, "kind")
    penalty = _penalty(params)
    headline: dict[int, Fraction] = {}
    for die in DieKind.D6.faces:
        inches = move_inches(kind, die, penalty)
        headline[inches] = headline.get(inches, Fraction(0)) + Fraction(1, 6)
    return Odds("inches", dict(sorted(headline.items())))


MOVE = Action(
    name="move",
    title="Movement",
    help='Base inches by troop type plus a d6; -4" broken ground, -4" to deploy guns.',
    params=MOVE_PARAMS,
    request=move_request,
    resolve=move_resolve,
    odds=move_odds,
    examples=(
        {"kind": "infantry"},
        {"kind": "artillery", "deploying_guns": True, "broken_ground": True},
        {"kind": "cavalry", "broken_ground": True},
    ),
)
