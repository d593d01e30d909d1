"""Invariants of the Tenir le Fort actions, and exact odds against brute force and icepool."""

from __future__ import annotations

import time
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.odds import enumerate_odds
from companion.rules.tenir_le_fort.actions import ACTIONS

COVERS = st.sampled_from(["none", "light", "heavy"])


def odds(name: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


def resolve(name: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 20), st.integers(0, 5), COVERS, st.booleans(), st.data())
def test_ffl_hits_never_exceed_the_dice(
    riflemen: int, pistols: int, cover: str, pinned: bool, data: st.DataObject
) -> None:
    action = ACTIONS["ffl-fire"]
    params = action.complete_params(
        {"riflemen": riflemen, "pistols": pistols, "cover": cover, "pinned": pinned}
    )
    request = action.request(params)
    dice = data.draw(
        st.lists(st.integers(1, 6), min_size=request.dice_count, max_size=request.dice_count)
    )
    out = action.resolve(params, dice)
    assert 0 <= out.headline <= len(dice)
    assert out.headline <= sum(1 for d in dice if d >= 4)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), COVERS, st.data())
def test_arab_hits_never_exceed_the_front_row(
    figures: int, cover: str, data: st.DataObject
) -> None:
    action = ACTIONS["arab-fire"]
    params = action.complete_params({"figures": figures, "cover": cover})
    n = action.request(params).dice_count
    assert n == min(figures, 6)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    assert resolve("arab-fire", dice, figures=figures, cover=cover).headline <= n


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), COVERS)
def test_adding_a_rifleman_never_lowers_the_chance_of_a_hit(riflemen: int, cover: str) -> None:
    fewer = odds("ffl-fire", riflemen=riflemen, cover=cover)
    more = odds("ffl-fire", riflemen=riflemen + 1, cover=cover)
    assert more.at_least(1) >= fewer.at_least(1)
    assert more.mean() >= fewer.mean()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 39))
def test_adding_a_bonus_die_never_lowers_the_maxim_hit_chance(n: int) -> None:
    assert odds("maxim-fire", bonus_dice=n + 1).at_least(1) >= odds(
        "maxim-fire", bonus_dice=n
    ).at_least(1)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(ACTIONS)), st.data())
def test_odds_sum_to_one_for_every_action(name: str, data: st.DataObject) -> None:
    action = ACTIONS[name]
    example = data.draw(st.sampled_from(action.examples))
    o = action.odds(action.complete_params(example))
    assert sum(o.headline.values(), Fraction(0)) == 1
    for chance in o.effects.values():
        assert 0 <= chance <= 1


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(0, 40), st.booleans())
def test_wound_check_never_kills_more_than_the_unit(figures: int, hits: int, hero: bool) -> None:
    o = odds("wound-check", hits=min(hits, figures), figures=figures, hero_hit=hero)
    assert max(o.headline) <= figures
    assert sum(o.headline.values(), Fraction(0)) == 1


@settings(max_examples=40, deadline=None)
@given(st.booleans(), st.booleans(), st.booleans(), st.sampled_from(["foot", "mounted"]))
def test_movement_odds_agree_with_brute_force(
    leader: bool, pinned: bool, charge: bool, kind: str
) -> None:
    action = ACTIONS["move"]
    params = action.complete_params(
        {
            "side": "Arab",
            "kind": kind,
            "leader": leader,
            "pinned": pinned,
            "mode": "charge" if charge else "move",
            "distance": 8 if charge else 0,
        }
    )
    request = action.request(params)
    if 6**request.dice_count > 6**5:
        return
    brute = enumerate_odds(request, lambda d: action.resolve(params, d))
    exact = action.odds(params)
    assert {k: v for k, v in exact.headline.items() if v} == brute.headline
    assert {k: v for k, v in exact.effects.items() if v} == {
        k: v for k, v in brute.effects.items() if v
    }


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("ffl-fire", {"riflemen": 4, "wounded": 1, "cover": "none", "pistols": 0}),
        ("arab-fire", {"figures": 5, "cover": "light", "pinned": True}),
        ("maxim-fire", {"crew": 1, "cover": "heavy"}),
        ("heavy-cover-save", {"hits": 5}),
        ("wound-check", {"hits": 4, "figures": 4, "already_wounded": 1}),
        ("close-combat", {"attacker_leader": "mounted", "defender_position": "loophole"}),
    ],
)
def test_small_pools_agree_with_brute_force(name: str, params: dict[str, object]) -> None:
    action = ACTIONS[name]
    full = action.complete_params(params)  # type: ignore[arg-type]
    brute = enumerate_odds(action.request(full), lambda d: action.resolve(full, d))
    exact = action.odds(full)
    assert {k: v for k, v in exact.headline.items() if v} == brute.headline
    assert {k: v for k, v in exact.effects.items() if v} == {
        k: v for k, v in brute.effects.items() if v
    }


def _icepool_fraction(die_pool: icepool.Die, value: int) -> Fraction:
    return Fraction(die_pool.quantity("==", value), die_pool.denominator())


@pytest.mark.parametrize(
    ("riflemen", "cover", "faces"),
    [
        (40, "none", 3),
        (25, "light", 1),
        (12, "heavy", 1),
    ],
)
def test_ffl_hit_distribution_matches_icepool(riflemen: int, cover: str, faces: int) -> None:
    hit = icepool.Die([1] * faces + [0] * (6 - faces))
    pool = riflemen @ hit
    ours = odds("ffl-fire", riflemen=riflemen, cover=cover)
    for k in range(riflemen + 1):
        assert ours.headline.get(k, Fraction(0)) == _icepool_fraction(pool, k)


def test_movement_with_leader_matches_icepool_keep_highest() -> None:
    ours = odds("move", side="Arab", kind="mounted", leader=True)
    pool = icepool.d6.pool(5).highest(4).sum()
    for total in range(4, 25):
        assert ours.headline.get(total, Fraction(0)) == _icepool_fraction(pool, total)


def test_pin_chance_matches_icepool() -> None:
    ours = odds("arab-fire", figures=6, cover="none")
    sixes = 6 @ icepool.Die([0, 0, 0, 0, 0, 1])
    expected = Fraction(sixes.quantity(">=", 2), sixes.denominator())
    assert ours.effects["pinned"] == expected


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (
            "ffl-fire",
            {
                "riflemen": 36,
                "wounded": 3,
                "sergeant": True,
                "officer": True,
                "pistols": 1,
                "pinned": True,
            },
        ),
        ("arab-fire", {"figures": 60, "pistols": 10}),
        ("maxim-fire", {"bonus_dice": 40, "cover": "heavy"}),
        ("artillery-fire", {"bonus_dice": 40}),
        ("heavy-cover-save", {"hits": 40}),
        ("wound-check", {"hits": 39, "figures": 40, "already_wounded": 10, "hero_hit": True}),
    ],
)
def test_forty_dice_odds_are_fast(name: str, params: dict[str, object]) -> None:
    action = ACTIONS[name]
    full = action.complete_params(params)  # type: ignore[arg-type]
    best = 1.0
    for _ in range(3):
        began = time.perf_counter()
        result = action.odds(full)
        best = min(best, time.perf_counter() - began)
    assert sum(result.headline.values(), Fraction(0)) == 1
    assert best < 0.05, f"{name} took {best * 1000:.1f} ms"
