"""Shooting: one die per two figures of the front rank (two gunners per gun die),
hits on 5-6 (guns 4-6), each die modified; then the target's Steady! roll."""

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
    counted,
    int_param,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.params import (
    hit_faces,
    hit_faces_text,
    hits_distribution,
    signed,
)

ODD_FIGURE_READINGS: tuple[str, ...] = ("round_down", "round_up")
# The scenario's odd_figure_dice and natural_six_always_hits readings govern shooting and
# the charge dice alike, so both actions take these two parameters.
ODD_FIGURES_PARAM = Param(
    "odd_figures",
    ParamKind.CHOICE,
    "an odd figure's die",
    "round_down",
    choices=ODD_FIGURE_READINGS,
)
NATURAL_SIX_PARAM = Param("natural_six", ParamKind.BOOL, "a natural 6 always hits", False)


def dice_for_figures(figures: int, figures_per_die: int, odd_figures: str) -> int:
    """One die per `figures_per_die`; a remainder is dropped or counts as a die."""
    if odd_figures == "round_up":
        return -(-figures // figures_per_die)
    return figures // figures_per_die


def front_rank(figures: int, ranks: int) -> int:
    """Only the front rank shoots: in two ranks that is half the unit, rounded up."""
    return -(-figures // ranks)


def shooting_modifier(
    superior: bool, target_kind: str, in_cover: bool, range_band: str, difficult_stacks: bool
) -> tuple[int, tuple[str, ...]]:
    """The per-die modifier and the reasons for it."""
    total = 0
    reasons = []
    if superior:
        total += tables.SUPERIOR_FIREPOWER_MODIFIER
        reasons.append("superior firepower +1")
    difficult_kind = target_kind in tables.DIFFICULT_TARGET_KINDS
    if difficult_kind and in_cover and difficult_stacks:
        total += 2 * tables.DIFFICULT_TARGET_MODIFIER
        reasons.append(f"difficult target ({target_kind}) -1, in cover -1")
    elif difficult_kind or in_cover:
        total += tables.DIFFICULT_TARGET_MODIFIER
        why = target_kind if difficult_kind else "in cover"
        reasons.append(f"difficult target ({why}) -1")
    if range_band == "long":
        total += tables.LONG_RANGE_MODIFIER
        reasons.append("long range -1")
    return total, tuple(reasons)


SHOOT_PARAMS = (
    Param(
        "weapon", ParamKind.CHOICE, "musket, rifle or artillery", "rifle", choices=tables.WEAPONS
    ),
    Param("figures", ParamKind.INT, "figures in the front rank (gunners for guns)", 8, 1, 60),
    Param("range", ParamKind.CHOICE, "range band", "close", choices=tables.RANGE_BANDS),
    Param("superior", ParamKind.BOOL, "superior firepower (breechloaders, heavy guns)", False),
    Param(
        "target_kind",
        ParamKind.CHOICE,
        "the target's troop type",
        "infantry",
        choices=tables.UNIT_KINDS,
    ),
    Param("in_cover", ParamKind.BOOL, "the target is in cover", False),
    ODD_FIGURES_PARAM,
    NATURAL_SIX_PARAM,
    Param("difficult_stacks", ParamKind.BOOL, "cover and a difficult kind give -2", False),
)


def _shoot_setup(
    params: Params,
) -> tuple[tables.WeaponRow, int, int, frozenset[int], tuple[str, ...]]:
    row = tables.weapon_row(str_param(params, "weapon"))
    dice = dice_for_figures(
        int_param(params, "figures"), row.figures_per_die, str_param(params, "odd_figures")
    )
    modifier, reasons = shooting_modifier(
        bool_param(params, "superior"),
        str_param(params, "target_kind"),
        bool_param(params, "in_cover"),
        str_param(params, "range"),
        bool_param(params, "difficult_stacks"),
    )
    faces = hit_faces(row.hit_on, modifier, bool_param(params, "natural_six"))
    return row, dice, modifier, faces, reasons


def shoot_request(params: Params) -> RollRequest:
    row, dice, modifier, faces, _ = _shoot_setup(params)
    return RollRequest(
        f"{row.weapon} fire, {params['range']} range, {signed(modifier)} a die",
        (DiceGroup(DieKind.D6, dice, f"{row.weapon} fire", hit_faces_text(faces)),),
    )


def shoot_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = shoot_request(params).split(dice)
    row, count, modifier, faces, reasons = _shoot_setup(params)
    hits = sum(1 for d in rolled if d in faces)
    details = [
        f"{counted(int_param(params, 'figures'), 'figure')} firing {row.weapon}: "
        f"{counted(count, 'die', 'dice')}, {row.hit_on}+ to hit, {signed(modifier)} a die",
        *reasons,
        f"rolled {', '.join(map(str, rolled)) or 'nothing'}: {counted(hits, 'hit')}",
    ]
    return Outcome(hits, "hits", details=tuple(details))


def shoot_odds(params: Params) -> Odds:
    _, dice, _, faces, _ = _shoot_setup(params)
    return Odds("hits", hits_distribution(dice, faces))


SHOOT = Action(
    name="shoot",
    title="Shooting",
    help="1 die per 2 front-rank figures (guns: per 2 gunners), 5-6 hit (guns 4-6), "
    "+1 superior firepower, -1 difficult target or cover, -1 long range.",
    params=SHOOT_PARAMS,
    request=shoot_request,
    resolve=shoot_resolve,
    odds=shoot_odds,
    examples=(
        {"weapon": "rifle", "figures": 8},
        {"weapon": "musket", "figures": 6, "range": "long", "in_cover": True},
        {"weapon": "artillery", "figures": 4, "superior": True, "target_kind": "cavalry"},
        {
            "weapon": "rifle",
            "figures": 5,
            "odd_figures": "round_up",
            "natural_six": True,
            "range": "long",
            "target_kind": "skirmishers",
            "in_cover": True,
            "difficult_stacks": True,
        },
    ),
)


# ------------------------------------------------------------------- Steady!


def steady_request(params: Params) -> RollRequest:
    return RollRequest(
        "Steady!: the commander with the shot unit rolls",
        (DiceGroup(DieKind.D6, 1, "Steady!", "5-6 cancel a hit; 1 commander hit"),),
    )


def steady_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = steady_request(params).split(dice)
    hits = int_param(params, "hits_taken")
    result = tables.commander_result(tables.STEADY_TABLE, die)
    if result == "cancel_hit":
        return Outcome(
            min(1, hits),
            "hits cancelled",
            frozenset({"hit_cancelled"}),
            (f"Steady! {die}: {'the only hit' if hits == 1 else f'one of {hits} hits'} cancelled",),
        )
    if result == "commander_hit":
        return Outcome(
            0,
            "hits cancelled",
            frozenset({"commander_hit"}),
            (f"Steady! {die}: the commander is hit; replaced at the end of next turn",),
        )
    return Outcome(0, "hits cancelled", details=(f"Steady! {die}: no effect",))


def steady_odds(params: Params) -> Odds:
    weighted = []
    for face in DieKind.D6.faces:
        result = tables.commander_result(tables.STEADY_TABLE, face)
        if result == "cancel_hit":
            weighted.append((Fraction(1, 6), 1, frozenset({"hit_cancelled"})))
        elif result == "commander_hit":
            weighted.append((Fraction(1, 6), 0, frozenset({"commander_hit"})))
        else:
            weighted.append((Fraction(1, 6), 0, frozenset[str]()))
    return odds_from_outcomes("hits cancelled", weighted)


STEADY = Action(
    name="steady",
    title="Steady!",
    help="The commander leading a unit hit by shooting may roll: 5-6 cancels "
    "a hit, 1 hits the commander (replaced at the end of the next turn).",
    params=(Param("hits_taken", ParamKind.INT, "hits the unit took from the volley", 1, 1, 60),),
    request=steady_request,
    resolve=steady_resolve,
    odds=steady_odds,
    examples=({"hits_taken": 1}, {"hits_taken": 3}),
)
