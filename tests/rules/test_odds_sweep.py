"""Every action of every system: exact odds agree with brute force over its choices and flags.

Whole-number parameters are held small (at their low end, or 2) so that every
result can be enumerated; combinations the rules refuse are skipped.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion.rules import SYSTEM_NAMES, get_ruleset
from companion.rules.core import Action, ParamKind, RulesError
from companion.rules.odds import enumerate_odds

LIMIT = 10**3
ACTIONS = [
    pytest.param(action, id=f"{system}-{name}")
    for system in SYSTEM_NAMES
    for name, action in sorted(get_ruleset(system).actions.items())
]


def small_int(param_min: int | None, param_max: int | None) -> list[int]:
    low = param_min if param_min is not None else 0
    values = {low, min(low + 1, param_max if param_max is not None else low + 1)}
    if param_max is not None:
        values.add(min(param_max, 3))
    return sorted(v for v in values if param_max is None or v <= param_max)


def cases(action: Action) -> list[dict[str, int | bool | str]]:
    axes = []
    for p in action.params:
        if p.kind is ParamKind.BOOL:
            axes.append([(p.name, False), (p.name, True)])
        elif p.kind is ParamKind.CHOICE:
            axes.append([(p.name, c) for c in p.choices])
        else:
            axes.append([(p.name, v) for v in small_int(p.minimum, p.maximum)])
    out = [dict(combo) for combo in itertools.product(*axes)]
    return out[:: max(1, len(out) // 40)]


@pytest.mark.parametrize("action", ACTIONS)
def test_odds_agree_with_brute_force(action: Action) -> None:
    checked = 0
    for given in cases(action):
        try:
            params = action.complete_params(given)
            request = action.request(params)
            odds = action.odds(params)
        except RulesError:
            continue
        assert sum(odds.headline.values(), Fraction(0)) == 1
        size = 1
        for kind in request.kinds:
            size *= len(kind.faces)
        if size > LIMIT:
            continue
        brute = enumerate_odds(request, lambda dice, p=params: action.resolve(p, dice))
        assert {k: v for k, v in odds.headline.items() if v} == {
            k: v for k, v in brute.headline.items() if v
        }, given
        assert {k: v for k, v in odds.effects.items() if v} == {
            k: v for k, v in brute.effects.items() if v
        }, given
        checked += 1
    assert checked, f"{action.name}: no case could be checked"
