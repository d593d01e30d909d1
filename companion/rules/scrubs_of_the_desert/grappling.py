"""Grappling hooks against a fort wall: the throw, then the climbers."""

from __future__ import annotations

from collections.abc import Sequence

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
    int_param,
    str_param,
)
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import (
    faces_at_least,
    faces_text,
    pass_fail_odds,
    pass_fail_outcome,
)


def throw_faces(defenders: int) -> frozenset[int]:
    """Faces that get the hook up: 4+ less 1 per defender within 1" (three at most)."""
    counted = min(defenders, tables.HOOK_MAX_DEFENDERS_COUNTED)
    return faces_at_least(tables.HOOK_THROW_NEED, -counted)


def throw_request(params: Params) -> RollRequest:
    faces = throw_faces(int_param(params, "defenders"))
    return RollRequest(
        "Grappling hook throw",
        (DiceGroup(DieKind.D10, 1, "hook", f"hooked on {faces_text(faces)} (0 is zero)"),),
    )


def throw_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = throw_request(params).split(dice)
    defenders = int_param(params, "defenders")
    counted = min(defenders, tables.HOOK_MAX_DEFENDERS_COUNTED)
    hooked = die in throw_faces(defenders)
    less = f' - {counted} for defenders within 1" = {die - counted}' if counted else ""
    return pass_fail_outcome(
        "hooked",
        hooked,
        f"rolled {die}{less}, needing {tables.HOOK_THROW_NEED}+: "
        + ("the hook holds" if hooked else "the hook falls back"),
    )


def throw_odds(params: Params) -> Odds:
    return pass_fail_odds("hooked", throw_faces(int_param(params, "defenders")))


HOOK_THROW = Action(
    name="hook-throw",
    title="Grappling hook: throw",
    help='A figure 1" from the wall throws on 4+, less 1 per defender within 1" of the '
    "hook (at most 3). Thrower and defenders do nothing else that turn.",
    params=(
        Param("defenders", ParamKind.INT, 'defending figures within 1" of the hook', 0, 0, 10),
    ),
    request=throw_request,
    resolve=throw_resolve,
    odds=throw_odds,
    examples=({"defenders": 0}, {"defenders": 2}, {"defenders": 5}),
)

CLIMBERS: tuple[str, ...] = ("second", "third")
CLIMBER_NUMBER = {"second": 2, "third": 3}


def climb_faces(climber: str) -> frozenset[int]:
    return faces_at_least(tables.climb_need(CLIMBER_NUMBER[climber]), 0)


def climb_request(params: Params) -> RollRequest:
    climber = str_param(params, "climber")
    return RollRequest(
        f"Climb the hook: the {climber} figure this turn",
        (DiceGroup(DieKind.D10, 1, "climb", f"climbs on {faces_text(climb_faces(climber))}"),),
    )


def climb_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = climb_request(params).split(dice)
    climber = str_param(params, "climber")
    need = tables.climb_need(CLIMBER_NUMBER[climber])
    up = die >= need
    return pass_fail_outcome(
        "climbed",
        up,
        f"{climber} climber rolled {die} needing {need}+: "
        + ("up the wall" if up else "fails; no one else climbs this hook this turn"),
    )


def climb_odds(params: Params) -> Odds:
    return pass_fail_odds("climbed", climb_faces(str_param(params, "climber")))


HOOK_CLIMB = Action(
    name="hook-climb",
    title="Grappling hook: climb",
    help="One figure climbs a hook each turn freely; a second on 5+, a third on 8+; after a "
    "failed climb no one else climbs that hook that turn.",
    params=(
        Param("climber", ParamKind.CHOICE, "which climber this turn", "second", choices=CLIMBERS),
    ),
    request=climb_request,
    resolve=climb_resolve,
    odds=climb_odds,
    examples=({"climber": "second"}, {"climber": "third"}),
)
