"""Invariants of Scrubs of the Desert's odds, with hypothesis and icepool."""

from __future__ import annotations

import time
from fractions import Fraction

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import get_ruleset
from companion.rules.scrubs_of_the_desert import tables

RULES = get_ruleset("scrubs_of_the_desert")
FIRE = RULES.actions["fire"]
MORALE = RULES.actions["morale"]
MOVE = RULES.actions["move"]
D10 = icepool.Die(range(10))  # 0 is zero

fire_params = st.fixed_dictionaries(
    {
        "weapon": st.sampled_from(
            ["french_rifle", "french_pistol", "arab_spear", "arab_rifle", "machine_gun"]
        ),
        "figures": st.integers(1, 20),
        "range": st.sampled_from(["short", "long"]),
        "target_in_cover": st.booleans(),
        "did_not_move": st.booleans(),
        "before_melee": st.booleans(),
        "crewed_by": st.sampled_from(["crew", "infantry"]),
    }
)


@settings(max_examples=60, deadline=None)
@given(fire_params, st.data())
def test_hits_never_exceed_the_dice(params: dict, data: st.DataObject) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    request = FIRE.request(p)
    dice = data.draw(
        st.lists(st.integers(0, 9), min_size=request.dice_count, max_size=request.dice_count)
    )
    assert 0 <= FIRE.resolve(p, dice).headline <= request.dice_count


@settings(max_examples=60, deadline=None)
@given(fire_params)
def test_fire_odds_sum_to_one_and_another_figure_never_hurts(params: dict) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    odds = FIRE.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    more = FIRE.odds(FIRE.complete_params({**params, "figures": params["figures"] + 1}))
    for k in range(1, 42):
        assert more.at_least(k) >= odds.at_least(k)


@settings(max_examples=40, deadline=None)
@given(fire_params)
def test_fire_odds_match_icepool(params: dict) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    request = FIRE.request(p)
    need = tables.hit_number(params["weapon"], params["range"])
    mod = -1 if params["target_in_cover"] else 0
    if params["did_not_move"] and not params["before_melee"] and params["weapon"] != "machine_gun":
        mod += 1
    n = request.dice_count
    hits = n @ D10.map(lambda f: 1 if f + mod >= need else 0)
    ours = FIRE.odds(p)
    for k in range(n + 1):
        assert ours.headline.get(k, Fraction(0)) == Fraction(hits.probability(k))
    if params["weapon"] == "machine_gun":
        zeros = n @ D10.map(lambda f: 1 if f == 0 else 0)
        assert ours.effects.get("jammed", Fraction(0)) == Fraction(zeros.probability(">=", 3))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 99),
    st.integers(1, 30),
    st.integers(0, 29),
    st.sampled_from(["open", "building", "fort"]),
    st.booleans(),
    st.sampled_from(["zero", "hundred"]),
)
def test_morale_odds_are_a_percent_and_better_morale_never_hurts(
    base: int, size: int, lost: int, position: str, closing: bool, zero: str
) -> None:
    lost = min(lost, size - 1) if size > 1 else 0
    params = {
        "base_morale": base,
        "unit_size": size,
        "figures_lost": lost,
        "position": position,
        "closing_melee": closing,
        "double_zero": zero,
    }
    odds = MORALE.odds(MORALE.complete_params(params))
    assert sum(odds.headline.values(), Fraction(0)) == 1
    assert (odds.headline.get(1, Fraction(0)) * 100).denominator == 1
    better = MORALE.odds(MORALE.complete_params({**params, "base_morale": base + 1}))
    assert better.headline.get(1, Fraction(0)) >= odds.headline.get(1, Fraction(0))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(tables.UNIT_TYPES), st.sampled_from(tables.TERRAINS))
def test_movement_all_zeros_is_zero_and_odds_sum_to_one(unit_type: str, terrain: str) -> None:
    p = MOVE.complete_params({"unit_type": unit_type, "terrain": terrain})
    assert MOVE.resolve(p, [0, 0, 0]).headline == 0
    odds = MOVE.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    assert min(odds.headline) == 0 and max(odds.headline) <= 27


def test_forty_dice_are_fast() -> None:
    cases = [
        (FIRE, {"figures": 40}),
        (FIRE, {"weapon": "machine_gun", "figures": 20}),
        (RULES.actions["cannon-blast"], {"figures": 30}),
        (RULES.actions["crew-targeting"], {"hits": 20}),
        (MORALE, {}),
        (MOVE, {}),
        (RULES.actions["melee-bout"], {"attackers": 2}),
    ]
    for action, params in cases:
        p = action.complete_params(params)
        best = 1.0
        for _ in range(3):
            began = time.perf_counter()
            action.odds(p)
            best = min(best, time.perf_counter() - began)
        assert best < 0.05, action.name


@settings(max_examples=60, deadline=None)
@given(fire_params)
def test_a_zero_counts_as_zero_in_fire(params: dict) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    n = FIRE.request(p).dice_count
    need = tables.hit_number(params["weapon"], params["range"])
    assert FIRE.resolve(p, [0] * n).headline == 0  # 0 + at most +1 never reaches 7
    assert FIRE.resolve(p, [9] * n).headline in (0, n)
    if need <= 8:
        assert FIRE.resolve(p, [9] * n).headline == n


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(tables.UNIT_TYPES), st.sampled_from(tables.TERRAINS),
       st.lists(st.integers(0, 9), min_size=3, max_size=3), st.integers(0, 2))
def test_a_zero_never_moves_further_than_the_die_it_replaces(
    unit_type: str, terrain: str, dice: list[int], index: int
) -> None:
    p = MOVE.complete_params({"unit_type": unit_type, "terrain": terrain})
    zeroed = list(dice)
    zeroed[index] = 0
    assert MOVE.resolve(p, zeroed).headline <= MOVE.resolve(p, dice).headline
