"""Invariants of On the Frontier's odds, checked with hypothesis and icepool."""

from __future__ import annotations

import time
from fractions import Fraction

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import get_ruleset

RULES = get_ruleset("on_the_frontier")
SHOOT = RULES.actions["shoot"]
CHARGE = RULES.actions["charge-dice"]
RALLY = RULES.actions["rally"]

shoot_params = st.fixed_dictionaries(
    {
        "weapon": st.sampled_from(["musket", "rifle", "artillery"]),
        "figures": st.integers(2, 60),
        "range": st.sampled_from(["close", "long"]),
        "superior": st.booleans(),
        "target_kind": st.sampled_from(["infantry", "cavalry", "skirmishers", "tribesmen"]),
        "in_cover": st.booleans(),
        "natural_six": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None)
@given(shoot_params, st.data())
def test_hits_never_exceed_the_dice(params: dict, data: st.DataObject) -> None:  # type: ignore[type-arg]
    p = SHOOT.complete_params(params)
    req = SHOOT.request(p)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=req.dice_count, max_size=req.dice_count))
    out = SHOOT.resolve(p, dice)
    assert 0 <= out.headline <= req.dice_count
    assert max(SHOOT.odds(p).headline) <= req.dice_count


@settings(max_examples=60, deadline=None)
@given(shoot_params)
def test_odds_sum_to_one_and_another_die_never_hurts(params: dict) -> None:  # type: ignore[type-arg]
    p = SHOOT.complete_params(params)
    odds = SHOOT.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    more = SHOOT.odds(SHOOT.complete_params({**params, "figures": min(60, params["figures"] + 2)}))
    for k in range(1, 31):
        assert more.at_least(k) >= odds.at_least(k)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["infantry", "cavalry", "artillery", "tribesmen"]),
    st.integers(1, 40),
    st.booleans(),
    st.booleans(),
)
def test_charge_odds_match_icepool(kind: str, figures: int, shock: bool, cover: bool) -> None:
    p = CHARGE.complete_params(
        {"kind": kind, "figures": figures, "shock": shock, "enemy_in_cover": cover}
    )
    req = CHARGE.request(p)
    need = 5 - (1 if shock else 0) + (1 if cover else 0)
    die = icepool.d6.map(lambda f: 1 if f >= need else 0)
    expected = (req.dice_count @ die) if req.dice_count else icepool.Die([0])
    ours = CHARGE.odds(p).headline
    for k in range(req.dice_count + 1):
        assert ours.get(k, Fraction(0)) == Fraction(expected.probability(k))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["elite", "regular", "poor"]), st.booleans())
def test_rally_recovered_never_exceeds_casualties(
    casualties: int, quality: str, leader: bool
) -> None:
    p = RALLY.complete_params(
        {"casualties": casualties, "quality": quality, "leader_joined": leader}
    )
    odds = RALLY.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    assert max(k for k, v in odds.headline.items() if v) <= casualties


def test_forty_dice_are_fast() -> None:
    for action, params in (
        (SHOOT, {"figures": 60}),
        (CHARGE, {"kind": "cavalry", "figures": 40}),
        (RALLY, {"casualties": 40}),
        (RULES.actions["demolition"], {"charges": 40}),
        (RULES.actions["engineering"], {"figures": 60}),
    ):
        p = action.complete_params(params)
        best = 1.0
        for _ in range(3):
            began = time.perf_counter()
            action.odds(p)
            best = min(best, time.perf_counter() - began)
        assert best < 0.05, action.name
