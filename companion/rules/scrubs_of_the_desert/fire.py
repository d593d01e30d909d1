"""Fire combat with small arms and the machine gun: a d10 per figure (two per
machine-gun crewman, one per infantryman crewing it), hit at the weapon's number
for the range or more after modifiers. Three 0s in one burst jam the gun."""

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
    RulesError,
    bool_param,
    counted,
    int_param,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import (
    binomial_d10,
    faces_at_least,
    faces_text,
    signed,
    to_hit_text,
    two_category_d10,
)

SMALL_ARMS: tuple[str, ...] = tuple(w for w in tables.WEAPONS if w not in tables.CANNONS)
CREWS: tuple[str, ...] = ("crew", "infantry")


def fire_modifier(
    weapon: str, target_in_cover: bool, did_not_move: bool, before_melee: bool
) -> tuple[int, tuple[str, ...]]:
    """Cover -1; +1 for not moving, except before a melee and for cannon or machine gun."""
    total = 0
    reasons = []
    if target_in_cover:
        total += tables.TARGET_IN_COVER_MODIFIER
        reasons.append("target in fort, building or rough -1")
    if did_not_move:
        if weapon in tables.SUPPORT_WEAPONS:
            reasons.append("no +1 for not moving: support weapon")
        elif before_melee:
            reasons.append("no +1 for not moving: firing before a melee")
        else:
            total += tables.DID_NOT_MOVE_MODIFIER
            reasons.append("did not move +1")
    return total, tuple(reasons)


def fire_dice(weapon: str, figures: int, crewed_by: str) -> int:
    if weapon == "machine_gun" and crewed_by == "crew":
        return figures * tables.weapon_row(weapon).dice_per_figure
    if weapon == "machine_gun":
        return figures * tables.INFANTRY_CREW_DICE_PER_FIGURE
    return figures


PARAMS = (
    Param(
        "weapon",
        ParamKind.CHOICE,
        "the weapon firing (cannon: cannon-to-hit)",
        "french_rifle",
        choices=SMALL_ARMS,
    ),
    Param("figures", ParamKind.INT, "figures firing (machine gun: its crew)", 4, 1, 40),
    Param(
        "range",
        ParamKind.CHOICE,
        "short or long range for the weapon",
        "short",
        choices=tables.RANGES,
    ),
    Param("target_in_cover", ParamKind.BOOL, "target in a fort, building or rough", False),
    Param("did_not_move", ParamKind.BOOL, "the firing unit did not move", False),
    Param("before_melee", ParamKind.BOOL, "defensive fire before a melee", False),
    Param(
        "target_mounted", ParamKind.BOOL, "the target is horse (a hit kills horse and man)", False
    ),
    Param(
        "crewed_by",
        ParamKind.CHOICE,
        "machine gun served by its crew or by infantry",
        "crew",
        choices=CREWS,
    ),
)


def _setup(params: Params) -> tuple[int, int, int, frozenset[int], tuple[str, ...]]:
    weapon = str_param(params, "weapon")
    if weapon in tables.CANNONS:
        raise RulesError("cannon fire is cannon-to-hit then cannon-blast")
    if weapon != "machine_gun" and str_param(params, "crewed_by") != "crew":
        raise RulesError(
            f"crewed_by=infantry is for the machine gun only; {weapon} takes crewed_by=crew"
        )
    need = tables.hit_number(weapon, str_param(params, "range"))
    modifier, reasons = fire_modifier(
        weapon,
        bool_param(params, "target_in_cover"),
        bool_param(params, "did_not_move"),
        bool_param(params, "before_melee"),
    )
    dice = fire_dice(weapon, int_param(params, "figures"), str_param(params, "crewed_by"))
    return dice, need, modifier, faces_at_least(need, modifier), reasons


def fire_request(params: Params) -> RollRequest:
    dice, need, modifier, faces, _ = _setup(params)
    weapon = str_param(params, "weapon")
    meaning = f"hit on {faces_text(faces)}"
    if weapon == "machine_gun":
        meaning += "; three 0s jam"
    name = tables.display_name(weapon)
    return RollRequest(
        f"{name[:1].upper()}{name[1:]} fire at {params['range']} range: "
        + to_hit_text(need, modifier, faces),
        (DiceGroup(DieKind.D10, dice, name, meaning),),
    )


def fire_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = fire_request(params).split(dice)
    count, need, modifier, faces, reasons = _setup(params)
    weapon = str_param(params, "weapon")
    hits = sum(1 for d in rolled if d in faces)
    effects: set[str] = set()
    details = [
        f"{count} d10 needing {need}+ with {signed(modifier)} (0 is zero): "
        f"faces {faces_text(faces)} hit",
        *reasons,
        f"rolled {', '.join(map(str, rolled))}: {counted(hits, 'hit')}" + _kills(params, hits),
    ]
    if hits:
        effects.add("killed")
    if weapon == "machine_gun":
        zeros = sum(1 for d in rolled if d == 0)
        if zeros >= tables.MACHINE_GUN_JAM_ZEROS:
            effects.add("jammed")
            details.append(f"{zeros} zeros: the gun jams and cannot fire next turn")
    return Outcome(hits, "hits", frozenset(effects), tuple(details))


def _kills(params: Params, hits: int) -> str:
    """What the hits do, said only when there are some: the horse dies with its rider."""
    if not hits:
        return ""
    kills = "kills a figure" if hits == 1 else "each kills a figure"
    if bool_param(params, "target_mounted"):
        kills += " (a horseman with his horse)"
    return f", {kills}"


def fire_odds(params: Params) -> Odds:
    count, _, _, faces, _ = _setup(params)
    if str_param(params, "weapon") != "machine_gun":
        dist = binomial_d10(count, faces)
        killed = sum((p for k, p in dist.items() if k), Fraction(0))
        return Odds("hits", dist, {"killed": killed})
    zero = frozenset({0})
    joint = two_category_d10(count, zero, faces - zero)
    weighted: list[tuple[Fraction, int, frozenset[str]]] = []
    for (zeros, other_hits), p in joint.items():
        hits = other_hits + (zeros if 0 in faces else 0)
        names = set()
        if hits:
            names.add("killed")
        if zeros >= tables.MACHINE_GUN_JAM_ZEROS:
            names.add("jammed")
        weighted.append((p, hits, frozenset(names)))
    return odds_from_outcomes("hits", weighted)


FIRE = Action(
    name="fire",
    title="Fire combat (small arms and machine gun)",
    help="A d10 per figure (machine gun: 2 per crewman, 1 per infantryman serving it), "
    "hit on the weapon's number for the range; -1 target in fort/building/rough, +1 did "
    "not move (not before melee, not machine gun). Three 0s jam the machine gun.",
    params=PARAMS,
    request=fire_request,
    resolve=fire_resolve,
    odds=fire_odds,
    examples=(
        {"weapon": "french_rifle", "figures": 4, "did_not_move": True},
        {"weapon": "arab_rifle", "figures": 3, "range": "long", "target_in_cover": True},
        {"weapon": "machine_gun", "figures": 2},
        {"weapon": "machine_gun", "figures": 4, "crewed_by": "infantry", "range": "long"},
    ),
)
