"""Targeting support-weapon crews: with infantry within 4" of a machine gun or
cannon, each hit is a percentile roll to see whether it falls on the crew."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.rules.core import (
    Action,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    counted,
    int_param,
    str_param,
)
from companion.rules.odds import binomial
from companion.rules.scrubs_of_the_desert.dice import (
    DOUBLE_ZERO_PARAM,
    double_zero_text,
    percentile_groups,
    read_percentile,
)


def crew_percent(crew: int, others: int) -> int:
    """Crew over all figures within 5" of the gun (crew included), as a whole percent
    rounded down."""
    return crew * 100 // (crew + others)


def crew_is_hit(value: int, percent: int, double_zero: str) -> bool:
    """Exactly `percent` chances in 100: under it when 00 reads 0 (0-99), at or under it
    when 00 reads 100 (1-100)."""
    if double_zero == "hundred":
        return value <= percent
    return value < percent


PARAMS = (
    Param("hits", ParamKind.INT, "hits scored on the gun's position", 1, 1, 40),
    Param("crew", ParamKind.INT, "crew figures at the gun", 2, 1, 12),
    Param("others", ParamKind.INT, 'other figures within 5" of the gun', 4, 0, 60),
    DOUBLE_ZERO_PARAM,
)


def _percent(params: Params) -> int:
    return crew_percent(int_param(params, "crew"), int_param(params, "others"))


def crew_hitting_rolls(percent: int, double_zero: str) -> str:
    """The percentile readings that put a hit on the crew, as the referee sees them."""
    if double_zero == "hundred":
        return f"01-{percent:02d}"
    return f"00-{percent - 1:02d}"


def crew_request(params: Params) -> RollRequest:
    percent = _percent(params)
    double_zero = str_param(params, "double_zero")
    reading = double_zero_text(double_zero)
    meaning = f"{percent}%: {crew_hitting_rolls(percent, double_zero)} hits a crewman ({reading})"
    return RollRequest(
        f"Crew targeting: {counted(int_param(params, 'hits'), 'hit')}, "
        f"{percent}% each falls on the crew",
        percentile_groups(int_param(params, "hits"), "crew", meaning),
    )


def crew_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    tens, units = crew_request(params).split(dice)
    percent = _percent(params)
    reading = str_param(params, "double_zero")
    values = [read_percentile(t, u, reading) for t, u in zip(tens, units, strict=True)]
    crew_hits = sum(1 for v in values if crew_is_hit(v, percent, reading))
    others = len(values) - crew_hits
    return Outcome(
        crew_hits,
        "crew hit",
        frozenset({"crew_hit"}) if crew_hits else frozenset(),
        (
            f"{params['crew']} crew of "
            f"{counted(int_param(params, 'crew') + int_param(params, 'others'), 'figure')}: "
            f"{percent}%",
            f"rolled {', '.join(f'{v:02d}' for v in values)}: {crew_hits} on the crew, "
            f"{others} on the other figures",
        ),
    )


def crew_odds(params: Params) -> Odds:
    p = Fraction(_percent(params), 100)
    dist = binomial(int_param(params, "hits"), p)
    return Odds("crew hit", dist, {"crew_hit": 1 - dist[0]})


CREW_TARGETING = Action(
    name="crew-targeting",
    title="Targeting a support weapon's crew",
    help='Count the figures within 5" of the gun (crew included); crew/total as a whole '
    "percent is each hit's chance of falling on the crew, rolled on percentile dice.",
    params=PARAMS,
    request=crew_request,
    resolve=crew_resolve,
    odds=crew_odds,
    examples=(
        {"hits": 1, "crew": 2, "others": 3},
        {"hits": 2, "crew": 3, "others": 4, "double_zero": "hundred"},
    ),
)
