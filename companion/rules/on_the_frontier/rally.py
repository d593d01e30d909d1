"""Rally: a d6 for each casualty lying on the table, away from the enemy."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

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
from companion.rules.on_the_frontier.params import signed


def rally_modifier(quality: str, leader_joined: bool) -> int:
    """+1 elite or veteran, -1 militia or poor, +1 joined by a general or hero."""
    return tables.quality_modifier(quality) + (tables.RALLY_LEADER_BONUS if leader_joined else 0)


def rally_faces(modifier: int) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """The d6 faces that recover, stay down (try again) and are removed."""
    out: dict[str, set[int]] = {"recover": set(), "try_again": set(), "removed": set()}
    for face in DieKind.D6.faces:
        out[tables.rally_result(face + modifier)].add(face)
    return frozenset(out["recover"]), frozenset(out["try_again"]), frozenset(out["removed"])


RALLY_PARAMS = (
    Param("casualties", ParamKind.INT, "casualties lying on the table", 4, 1, 60),
    Param("quality", ParamKind.CHOICE, "troop quality", "regular", choices=tables.QUALITIES),
    Param("leader_joined", ParamKind.BOOL, "joined by a general or hero (+1)", False),
)


def _modifier(params: Params) -> int:
    return rally_modifier(str_param(params, "quality"), bool_param(params, "leader_joined"))


def rally_request(params: Params) -> RollRequest:
    recover, stay, removed = rally_faces(_modifier(params))
    meaning = (
        f"recover {','.join(map(str, sorted(recover))) or '-'}; "
        f"try again {','.join(map(str, sorted(stay))) or '-'}; "
        f"removed {','.join(map(str, sorted(removed))) or '-'}"
    )
    return RollRequest(
        f"Rally {counted(int_param(params, 'casualties'), 'casualty', 'casualties')}, "
        f"{signed(_modifier(params))}",
        (DiceGroup(DieKind.D6, int_param(params, "casualties"), "rally", meaning),),
    )


def rally_counts(dice: Sequence[int], modifier: int) -> tuple[int, int, int]:
    recover, stay, removed = rally_faces(modifier)
    return (
        sum(1 for d in dice if d in recover),
        sum(1 for d in dice if d in stay),
        sum(1 for d in dice if d in removed),
    )


def rally_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = rally_request(params).split(dice)
    modifier = _modifier(params)
    recovered, stay, removed = rally_counts(rolled, modifier)
    effects = frozenset({"removed"}) if removed else frozenset()
    return Outcome(
        recovered,
        "recovered",
        effects,
        (
            f"rolled {', '.join(map(str, rolled))} {signed(modifier)} each",
            f"{recovered} back in the ranks, {counted(stay, 'stays', 'stay')} down to try again, "
            f"{removed} removed (killed, wounded or run away)",
        ),
    )


def rally_odds(params: Params) -> Odds:
    """Multinomial over (recovered, removed), counted in integers for speed."""
    recover, stay, removed = rally_faces(_modifier(params))
    n = int_param(params, "casualties")
    a, b, c = len(recover), len(stay), len(removed)
    whole = 6**n
    weighted: list[tuple[Fraction, int, frozenset[str]]] = []
    for up in range(n + 1):
        for gone in range(n - up + 1):
            ways = comb(n, up) * comb(n - up, gone) * a**up * c**gone * b ** (n - up - gone)
            if ways:
                effects = frozenset({"removed"}) if gone else frozenset()
                weighted.append((Fraction(ways, whole), up, effects))
    return odds_from_outcomes("recovered", weighted)


RALLY = Action(
    name="rally",
    title="Rally",
    help="A d6 per casualty: 5-6 recovers, 3-4 try again later, 2 or less removed; "
    "+1 elite/veteran, +1 general or hero, -1 militia/poor.",
    params=RALLY_PARAMS,
    request=rally_request,
    resolve=rally_resolve,
    odds=rally_odds,
    examples=(
        {"casualties": 3},
        {"casualties": 4, "quality": "veteran", "leader_joined": True},
        {"casualties": 2, "quality": "militia"},
    ),
)
