"""Checks of an action's exact odds, shared by every system's property tests."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import strategies as st

from companion.rules.core import Action, ParamKind, Params
from companion.rules.odds import enumerate_odds


def draw_params(
    action: Action,
    data: st.DataObject,
    *,
    span: int | None = None,
    tops: Mapping[str, int] | None = None,
) -> dict[str, int | bool | str]:
    """Random allowed parameters for `action`: any bool, any listed choice, and a whole
    number from the parameter's minimum (or 0) to its maximum (or 20).

    To keep a brute force small, `span` keeps every number within that many of its
    minimum, and `tops` caps the named numbers.
    """
    out: dict[str, int | bool | str] = {}
    for param in action.params:
        if param.kind is ParamKind.BOOL:
            out[param.name] = data.draw(st.booleans())
        elif param.kind is ParamKind.CHOICE:
            out[param.name] = data.draw(st.sampled_from(param.choices))
        else:
            low = param.minimum if param.minimum is not None else 0
            if param.maximum is not None:
                high = param.maximum
            else:
                high = low + span if span is not None else 20
            if span is not None:
                high = min(high, low + span)
            high = (tops or {}).get(param.name, high)
            out[param.name] = data.draw(st.integers(low, high))
    return out


def assert_matches_brute_force(action: Action, params: Params) -> None:
    """The action's exact odds are those of trying every result of its roll (so keep the
    pool small): the same chance of every headline value and of every effect."""
    brute = enumerate_odds(action.request(params), lambda dice: action.resolve(params, dice))
    exact = action.odds(params)
    assert {k: v for k, v in exact.headline.items() if v} == brute.headline
    assert {k: v for k, v in exact.effects.items() if v} == brute.effects
