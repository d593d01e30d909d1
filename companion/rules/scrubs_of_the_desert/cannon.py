"""Cannon: one d10 to hit (crew and grapeshot modifiers), then the 3" blast:
a d10 for each figure under it, 5+ kills."""

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
    RulesError,
    bool_param,
    counted,
    int_param,
    str_param,
)
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import (
    binomial_d10,
    faces_at_least,
    faces_text,
    pass_fail_odds,
    signed,
    to_hit_text,
)

CANNON_NAMES: tuple[str, ...] = ("french_cannon", "arab_cannon")


def cannon_modifier(
    crew: int, target_in_cover: bool, grapeshot: bool
) -> tuple[int, tuple[str, ...]]:
    crew_mod = tables.cannon_crew_modifier(crew)
    if crew_mod is None:
        raise RulesError(
            f"a cannon needs at least {tables.CANNON_MIN_CREW} crew to fire, it has {crew}"
        )
    total = crew_mod
    reasons = []
    if crew_mod:
        reasons.append(f"{crew} crew {signed(crew_mod)}")
    if target_in_cover:
        total += tables.TARGET_IN_COVER_MODIFIER
        reasons.append("target in fort, building or rough -1")
    if grapeshot:
        total += tables.GRAPESHOT_MODIFIER
        reasons.append('grapeshot under 6" +4')
    return total, tuple(reasons)


TO_HIT_PARAMS = (
    Param("cannon", ParamKind.CHOICE, "whose cannon", "french_cannon", choices=CANNON_NAMES),
    Param("crew", ParamKind.INT, "crew serving the gun (at least 2)", 4, 0, 12),
    Param("range", ParamKind.CHOICE, "short or long range", "short", choices=tables.RANGES),
    Param("target_in_cover", ParamKind.BOOL, "target in a fort, building or rough", False),
    Param("grapeshot", ParamKind.BOOL, 'firing at under 6" (grapeshot, short range)', False),
    Param("figures_under_blast", ParamKind.INT, 'figures under the 3" blast if it hits', 3, 1, 30),
)


def _to_hit_setup(params: Params) -> tuple[int, int, frozenset[int], tuple[str, ...]]:
    grapeshot = bool_param(params, "grapeshot")
    band = str_param(params, "range")
    if grapeshot and band != "short":
        raise RulesError('grapeshot is fired at under 6", which is short range')
    need = tables.hit_number(str_param(params, "cannon"), band)
    modifier, reasons = cannon_modifier(
        int_param(params, "crew"), bool_param(params, "target_in_cover"), grapeshot
    )
    return need, modifier, faces_at_least(need, modifier), reasons


def blast_request_for(figures: int) -> RollRequest:
    return RollRequest(
        f'Cannon blast: a d10 for each of {counted(figures, "figure")} under the 3" template',
        (DiceGroup(DieKind.D10, figures, "blast", f"{tables.BLAST_KILL_ON}+ kills (0 is zero)"),),
    )


def to_hit_request(params: Params) -> RollRequest:
    need, modifier, faces, _ = _to_hit_setup(params)
    return RollRequest(
        f"{tables.display_name(str_param(params, 'cannon'))}: "
        + to_hit_text(need, modifier, faces),
        (DiceGroup(DieKind.D10, 1, "to hit", f"hit on {faces_text(faces)}"),),
    )


def to_hit_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = to_hit_request(params).split(dice)
    need, modifier, faces, reasons = _to_hit_setup(params)
    hit = die in faces
    details = (
        f"rolled {die} {signed(modifier)} = {die + modifier} against {need}: "
        + ('hit, place the 3" blast' if hit else "miss"),
        *reasons,
    )
    if not hit:
        return Outcome(0, "hit", details=details)
    return Outcome(
        1,
        "hit",
        frozenset({"hit"}),
        details,
        follow_up=blast_request_for(int_param(params, "figures_under_blast")),
    )


def to_hit_odds(params: Params) -> Odds:
    _, _, faces, _ = _to_hit_setup(params)
    return pass_fail_odds("hit", faces)


CANNON_TO_HIT = Action(
    name="cannon-to-hit",
    title="Cannon: to hit",
    help="One d10 against the cannon's number for the range; 2 crew -2, 3 crew -1, fewer "
    'than 2 cannot fire; -1 target in cover; +4 grapeshot under 6". A hit asks for the blast.',
    params=TO_HIT_PARAMS,
    request=to_hit_request,
    resolve=to_hit_resolve,
    odds=to_hit_odds,
    examples=(
        {"cannon": "french_cannon", "crew": 4},
        {"cannon": "arab_cannon", "crew": 2, "range": "long", "target_in_cover": True},
        {"cannon": "french_cannon", "crew": 3, "grapeshot": True},
    ),
)


def blast_faces(target_in_cover: bool) -> frozenset[int]:
    """5+ kills; -1 for cover only under the `blast_cover_modifier` reading."""
    return faces_at_least(
        tables.BLAST_KILL_ON, tables.TARGET_IN_COVER_MODIFIER if target_in_cover else 0
    )


def blast_request(params: Params) -> RollRequest:
    figures = int_param(params, "figures")
    if not bool_param(params, "target_in_cover"):
        return blast_request_for(figures)
    faces = blast_faces(True)
    return RollRequest(
        f'Cannon blast: a d10 for each of {counted(figures, "figure")} under the 3" template, '
        "in cover",
        (DiceGroup(DieKind.D10, figures, "blast", f"{faces_text(faces)} kills (5+ -1 cover)"),),
    )


def blast_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = blast_request(params).split(dice)
    cover = bool_param(params, "target_in_cover")
    faces = blast_faces(cover)
    killed = sum(1 for d in rolled if d in faces)
    return Outcome(
        killed,
        "killed",
        frozenset({"killed"}) if killed else frozenset(),
        (
            f"rolled {', '.join(map(str, rolled))}: "
            f"{killed} of {counted(len(rolled), 'figure')} killed "
            f"({tables.BLAST_KILL_ON}+" + (" -1 cover" if cover else "") + ")",
        ),
    )


def blast_odds(params: Params) -> Odds:
    faces = blast_faces(bool_param(params, "target_in_cover"))
    dist = binomial_d10(int_param(params, "figures"), faces)
    return Odds("killed", dist, {"killed": 1 - dist[0]})


CANNON_BLAST = Action(
    name="cannon-blast",
    title="Cannon: blast",
    help='After a hit, a d10 for every figure under the 3" blast: 5+ kills it (with the '
    "blast_cover_modifier reading, -1 for figures in a fort, building or rough).",
    params=(
        Param("figures", ParamKind.INT, "figures under the blast", 3, 1, 30),
        Param(
            "target_in_cover",
            ParamKind.BOOL,
            "figures in cover, -1 a die (only with the blast_cover_modifier option)",
            False,
        ),
    ),
    request=blast_request,
    resolve=blast_resolve,
    odds=blast_odds,
    examples=({"figures": 1}, {"figures": 4}, {"figures": 3, "target_in_cover": True}),
)
