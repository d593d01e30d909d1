"""Morale: a percentile roll at or under the unit's base morale plus modifiers.

A failure routs the unit 12" (it loses its action and recovers by itself) when
its modified morale is over 50%, and removes it at 50% or less; a test for
closing into melee never removes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.rules.core import (
    Action,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    RulesError,
    bool_param,
    int_param,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import (
    DOUBLE_ZERO_PARAM,
    double_zero_text,
    percentile_groups,
    percentile_values,
    read_percentile,
)

ROUT_RULES: tuple[str, ...] = ("modified_morale", "strength")
LABEL = "passed"


def loss_rate(unit_size: int, loss_per_figure: int = 0) -> int:
    """The percentage a lost figure costs: the scenario's, else by unit size."""
    return loss_per_figure or tables.loss_percent_per_figure(unit_size)


def modified_morale(
    base: int, unit_size: int, figures_lost: int, position: str, loss_per_figure: int = 0
) -> int:
    """Base morale, less a percentage per figure lost (by unit size), plus position."""
    per_figure = loss_rate(unit_size, loss_per_figure)
    return base - per_figure * figures_lost + tables.position_bonus(position)


@dataclass(frozen=True)
class MoraleResult:
    passed: bool
    result: str  # "holds", "routs", "removed"


def morale_result(
    roll: int,
    target: int,
    closing_melee: bool,
    rout_rule: str = "modified_morale",
    unit_size: int = 1,
    figures_lost: int = 0,
) -> MoraleResult:
    if roll <= target:
        return MoraleResult(True, "holds")
    if closing_melee:
        return MoraleResult(False, "routs")
    if rout_rule == "strength":
        above_half = (unit_size - figures_lost) * 100 > tables.ROUT_THRESHOLD * unit_size
    else:
        above_half = target > tables.ROUT_THRESHOLD
    return MoraleResult(False, "routs" if above_half else "removed")


#: Any failed test; "routed" or "removed" says which failure.
MORALE_FAILED = "morale_failed"


def _effects(result: MoraleResult) -> frozenset[str]:
    if result.passed:
        return frozenset()
    return frozenset({MORALE_FAILED, "routed" if result.result == "routs" else "removed"})


def _result_words(result: MoraleResult, rout_rule: str) -> str:
    """What the test did, after the roll: the unit is the subject, whatever its name."""
    if result.result == "holds":
        return "holds"
    if result.result == "routs":
        return (
            f'fails: the unit routs back {tables.ROUT_INCHES}", loses its action, '
            "recovers by itself"
        )
    why = (
        "half its figures or fewer left"
        if rout_rule == "strength"
        else f"morale {tables.ROUT_THRESHOLD}% or under"
    )
    return f"fails: the unit is removed ({why})"


PARAMS = (
    Param("base_morale", ParamKind.INT, "the unit's base morale (scenario)", 60, 0, 100),
    Param("unit_size", ParamKind.INT, "the unit's starting figures", 10, 1, 99),
    Param("figures_lost", ParamKind.INT, "figures the unit has lost", 0, 0, 98),
    Param(
        "loss_per_figure",
        ParamKind.INT,
        "percent a lost figure costs; 0: by unit size (-10 up to 6, -5 for 7-15, -3 for 16+)",
        0,
        0,
        50,
    ),
    Param(
        "position",
        ParamKind.CHOICE,
        "open, building (+10%) or fort/trench (+20%)",
        "open",
        choices=tables.POSITIONS,
    ),
    Param("closing_melee", ParamKind.BOOL, "a test for closing into melee (never removes)", False),
    Param(
        "rout_rule",
        ParamKind.CHOICE,
        "what the 50% line measures",
        "modified_morale",
        choices=ROUT_RULES,
    ),
    DOUBLE_ZERO_PARAM,
)


def _target(params: Params) -> int:
    size, lost = int_param(params, "unit_size"), int_param(params, "figures_lost")
    if lost >= size:
        raise RulesError(
            f"figures_lost={lost} leaves no one of a unit of {size}; use 0..{size - 1}"
        )
    return modified_morale(
        int_param(params, "base_morale"),
        int_param(params, "unit_size"),
        int_param(params, "figures_lost"),
        str_param(params, "position"),
        int_param(params, "loss_per_figure"),
    )


def _result(params: Params, roll: int) -> MoraleResult:
    return morale_result(
        roll,
        _target(params),
        bool_param(params, "closing_melee"),
        str_param(params, "rout_rule"),
        int_param(params, "unit_size"),
        int_param(params, "figures_lost"),
    )


def morale_request(params: Params) -> RollRequest:
    target = _target(params)
    zero = double_zero_text(str_param(params, "double_zero"))
    return RollRequest(
        f"Morale: roll {target}% or under",
        percentile_groups(1, "morale", f"{target} or under holds ({zero})"),
    )


def morale_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (tens,), (units,) = morale_request(params).split(dice)
    roll = read_percentile(tens, units, str_param(params, "double_zero"))
    target = _target(params)
    result = _result(params, roll)
    size = int_param(params, "unit_size")
    lost = int_param(params, "figures_lost")
    per = loss_rate(size, int_param(params, "loss_per_figure"))
    position = str_param(params, "position")
    details = [
        f"base {params['base_morale']}% - {lost} lost x {per}% "
        f"+ {tables.position_bonus(position)}% ({position}) = {target}%",
        f"rolled {roll:02d} against {target}%: "
        + _result_words(result, str_param(params, "rout_rule")),
    ]
    return Outcome(1 if result.passed else 0, LABEL, _effects(result), tuple(details))


def morale_odds(params: Params) -> Odds:
    weighted = []
    for roll in percentile_values(str_param(params, "double_zero")):
        result = _result(params, roll)
        weighted.append((Fraction(1, 100), 1 if result.passed else 0, _effects(result)))
    return odds_from_outcomes(LABEL, weighted)


MORALE = Action(
    name="morale",
    title="Morale check",
    help="Percentile at or under base morale (scenario) -10%/-5%/-3% per figure lost by unit "
    'size, +10% building, +20% fort or trench. Fail over 50%: rout 12"; at 50% or under: '
    "removed; closing into melee never removes.",
    params=PARAMS,
    request=morale_request,
    resolve=morale_resolve,
    odds=morale_odds,
    examples=(
        {"base_morale": 60, "unit_size": 10, "figures_lost": 2},
        {"base_morale": 70, "unit_size": 4, "figures_lost": 3, "position": "fort"},
        {
            "base_morale": 40,
            "unit_size": 20,
            "figures_lost": 5,
            "closing_melee": True,
            "double_zero": "hundred",
        },
        {"base_morale": 55, "unit_size": 12, "figures_lost": 7, "rout_rule": "strength"},
    ),
)
