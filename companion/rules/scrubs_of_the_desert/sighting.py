"""Sighting hidden units: a d10 by range band (0-2" needs no roll)."""

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
    str_param,
)
from companion.rules.scrubs_of_the_desert import tables

LABEL = "sighted (1 = yes)"


def sighting_request(params: Params) -> RollRequest:
    band = str_param(params, "range")
    need = tables.sighting_need(band)
    count = 0 if need == 0 else 1
    return RollRequest(
        f'Sighting at {band}"' + (": automatic" if count == 0 else f": {need}+"),
        (DiceGroup(DieKind.D10, count, "sighting", f"{need}+ sights (0 is zero)"),),
    )


def sighting_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = sighting_request(params).split(dice)
    need = tables.sighting_need(str_param(params, "range"))
    if not rolled:
        return Outcome(1, LABEL, frozenset({"sighted"}), ('within 2": sighted automatically',))
    seen = rolled[0] >= need
    return Outcome(
        1 if seen else 0,
        LABEL,
        frozenset({"sighted"}) if seen else frozenset(),
        (f"rolled {rolled[0]} needing {need}+: " + ("sighted" if seen else "still hidden"),),
    )


def sighting_odds(params: Params) -> Odds:
    need = tables.sighting_need(str_param(params, "range"))
    p = Fraction(sum(1 for f in DieKind.D10.faces if f >= need), 10)
    headline = {1: p, 0: 1 - p} if p < 1 else {1: Fraction(1)}
    return Odds(LABEL, headline, {"sighted": p})


SIGHTING = Action(
    name="sighting",
    title="Sighting a hidden unit",
    help='A d10 by range: 0-2" automatic, 2-4" 3+, 4-8" 5+, 8-12" 7+, 12-24" 8+. '
    "A unit gives itself away, no roll needed, once it moves or fires.",
    params=(
        Param(
            "range",
            ParamKind.CHOICE,
            "range band to the hidden unit",
            "4-8",
            choices=tables.SIGHTING_BANDS,
        ),
    ),
    request=sighting_request,
    resolve=sighting_resolve,
    odds=sighting_odds,
    examples=({"range": "2-4"}, {"range": "12-24"}, {"range": "8-12"}),
)
