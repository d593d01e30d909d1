"""FortBoard's actions: resolution, exact odds, and invariants (hypothesis)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.core import RulesError
from companion.rules.fortboard import RULESET
from companion.rules.fortboard.actions import ACTIONS
from companion.rules.odds import enumerate_odds

EXPECTED = {
    "melee",
    "melee-line",
    "missile-fire",
    "crew-fire",
    "artillery-target",
    "interior-hit",
    "wall-hit",
    "tower-hit",
    "hit-wounds",
    "wall-weapon",
    "replacement",
    "douse-flames",
    "engine-survivors",
}


def resolve(name: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


def odds(name: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


def test_every_roll_is_an_action() -> None:
    assert set(RULESET.actions) == EXPECTED
    for action in RULESET.actions.values():
        assert action.examples
        assert action.name == action.name.lower()


# ------------------------------------------------------------------ melee


def test_melee_higher_total_wounds() -> None:
    out = resolve("melee", [4, 2])
    assert out.headline == 2
    assert out.effects == {"defender_wounded"}


def test_melee_tie_does_nothing() -> None:
    out = resolve("melee", [3, 3])
    assert out.effects == {"tie"}


def test_melee_second_wound_kills() -> None:
    out = resolve("melee", [1, 6], attacker_wounded=True)
    assert out.effects == {"attacker_killed", "killed"}


def test_melee_mounted_against_wounded_archer() -> None:
    # mounted 4 + 1 = 5 against wounded archer 1 + 4 = 5: a tie
    out = resolve(
        "melee", [1, 4], attacker_kind="mounted", defender_kind="archer", defender_wounded=True
    )
    assert out.headline == 0


def test_melee_barracks_and_keep_fallen_cost_defenders_two() -> None:
    out = resolve("melee", [3, 4], barracks_fallen=True, keep_fallen=True)
    # attacker 3 + 3 = 6, defender 1 + 4 = 5
    assert out.effects == {"defender_wounded"}


def test_melee_even_fight_odds() -> None:
    o = odds("melee")
    assert o.effects["defender_wounded"] == Fraction(15, 36)
    assert o.effects["attacker_wounded"] == Fraction(15, 36)
    assert o.effects["tie"] == Fraction(6, 36)


def test_melee_line_counts_pairs() -> None:
    out = resolve("melee-line", [6, 1, 3, 2, 6, 3], pairs=3)
    assert out.headline == 1  # 6 v 2 wins, 1 v 6 loses, 3 v 3 ties
    assert out.effects == {"attackers_hurt"}


# ---------------------------------------------------------------- missiles


def test_missile_far() -> None:
    out = resolve("missile-fire", [6, 5, 5, 4], archers=2, crossbows=2)
    assert out.headline == 2  # archer 6; crossbow 5


def test_missile_near_hits_on_four() -> None:
    out = resolve("missile-fire", [4, 3, 4], archers=2, crossbows=1, range="near")
    assert out.headline == 2


def test_crew_fire_caps_at_crew() -> None:
    out = resolve("crew-fire", [6, 6, 6], shooters=3, crew=2)
    assert out.headline == 2
    assert out.effects == {"silenced"}


# -------------------------------------------------------------- artillery


def test_tower_hit_needs_more_than_intact() -> None:
    assert resolve("tower-hit", [4, 5], intact=9).headline == 0
    out = resolve("tower-hit", [5, 5], intact=9, occupied=True)
    assert out.headline == 1
    assert out.follow_up is not None and out.follow_up.dice_count == 1


def test_tower_hit_odds_at_nine() -> None:
    assert odds("tower-hit", intact=9).effects["hit"] == Fraction(6, 36)


def test_interior_hit_names_component() -> None:
    assert resolve("interior-hit", [3]).effects == {"keep_hit"}
    assert resolve("interior-hit", [6]).effects == {"courtyard_hit"}


def test_hit_wounds() -> None:
    assert resolve("hit-wounds", [2]).headline == 0
    assert resolve("hit-wounds", [3]).effects == {"wounded"}
    assert resolve("hit-wounds", [6], target_wounded=True).effects == {"killed"}


# ---------------------------------------------------------------- engines


def test_wall_weapon_wounds_then_kills() -> None:
    # weapon 3: attempts (6 v 1) wins, (6 v 1) wins again -> killed
    out = resolve("wall-weapon", [6, 6, 1, 1], attempts=2)
    assert out.headline == 2
    assert out.effects == {"killed"}


def test_wall_weapon_survivor_reaches_top() -> None:
    out = resolve("wall-weapon", [1, 1, 6, 6], attempts=2)
    assert out.effects == {"reaches_top"}


def test_wall_weapon_on_engine_counts_hits() -> None:
    # weapon 3 against an engine's 3: 9 v 4 wins, 9 v 9 ties, 9 v 4 wins, 4 v 4 ties
    out = resolve("wall-weapon", [6, 6, 6, 1, 1, 6, 1, 1], attempts=4, target="engine")
    assert out.headline == 2


def test_replacement_on_six() -> None:
    assert resolve("replacement", [6]).effects == {"moved"}
    assert resolve("replacement", [5]).headline == 0


def test_douse_any_six() -> None:
    assert resolve("douse-flames", [1, 6, 2], figures=3).headline == 1
    assert odds("douse-flames", figures=2).headline[1] == Fraction(11, 36)


def test_engine_survivors() -> None:
    out = resolve("engine-survivors", [2], crew=4)
    assert out.headline == 2
    assert out.effects == {"killed"}


# ------------------------------------------------------------ conventions


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_wrong_dice_count_is_named(name: str) -> None:
    action = ACTIONS[name]
    params = action.complete_params(action.examples[0])
    request = action.request(params)
    with pytest.raises(RulesError, match="expected"):
        action.resolve(params, [1] * (request.dice_count + 1))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_d6_never_reads_zero(name: str) -> None:
    action = ACTIONS[name]
    params = action.complete_params(action.examples[0])
    request = action.request(params)
    with pytest.raises(RulesError, match="reads 1-6"):
        action.resolve(params, [0] * request.dice_count)


def test_forty_dice_odds_are_fast() -> None:
    started = time.perf_counter()
    o = odds("missile-fire", archers=20, crossbows=20, range="near")
    odds("crew-fire", shooters=40, crew=20)
    odds("melee-line", pairs=40)
    odds("douse-flames", figures=40)
    assert time.perf_counter() - started < 0.05
    assert sum(o.headline.values()) == 1


# -------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(
    archers=st.integers(0, 2),
    crossbows=st.integers(0, 2),
    band=st.sampled_from(["near", "far"]),
)
def test_missile_odds_match_brute_force(archers: int, crossbows: int, band: str) -> None:
    action = ACTIONS["missile-fire"]
    params = action.complete_params({"archers": archers, "crossbows": crossbows, "range": band})
    brute = enumerate_odds(action.request(params), lambda d: action.resolve(params, d))
    exact = action.odds(params)
    assert {k: v for k, v in exact.headline.items() if v} == {
        k: v for k, v in brute.headline.items() if v
    }


@settings(max_examples=60, deadline=None)
@given(
    dice=st.lists(st.integers(1, 6), min_size=1, max_size=12),
    band=st.sampled_from(["near", "far"]),
)
def test_hits_never_exceed_dice(dice: list[int], band: str) -> None:
    out = resolve("missile-fire", dice, archers=len(dice), crossbows=0, range=band)
    assert 0 <= out.headline <= len(dice)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 30), crossbows=st.integers(0, 5), band=st.sampled_from(["near", "far"]))
def test_adding_an_archer_never_lowers_the_chance_of_a_hit(
    n: int, crossbows: int, band: str
) -> None:
    fewer = odds("missile-fire", archers=n, crossbows=crossbows, range=band)
    more = odds("missile-fire", archers=n + 1, crossbows=crossbows, range=band)
    assert more.at_least(1) >= fewer.at_least(1)
    assert sum(more.headline.values()) == 1


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["infantry", "archer", "mounted"]),
    other=st.sampled_from(["infantry", "archer", "mounted"]),
    wounded=st.booleans(),
)
def test_a_wound_never_helps_in_melee(kind: str, other: str, wounded: bool) -> None:
    fresh = odds("melee", attacker_kind=kind, defender_kind=other, defender_wounded=wounded)
    hurt = odds(
        "melee",
        attacker_kind=kind,
        attacker_wounded=True,
        defender_kind=other,
        defender_wounded=wounded,
    )
    assert hurt.effects.get("defender_wounded", 0) + hurt.effects.get(
        "defender_killed", 0
    ) <= fresh.effects.get("defender_wounded", 0) + fresh.effects.get("defender_killed", 0)


@settings(max_examples=30, deadline=None)
@given(intact=st.integers(1, 23))
def test_a_damaged_structure_is_never_harder_to_hit(intact: int) -> None:
    assert odds("tower-hit", intact=intact + 1).headline.get(1, 0) <= odds(
        "tower-hit", intact=intact
    ).headline.get(1, 0)


@settings(max_examples=30, deadline=None)
@given(
    attempts=st.integers(1, 2),
    kind=st.sampled_from(["infantry", "archer", "mounted"]),
    wounded=st.booleans(),
    value=st.integers(2, 4),
)
def test_wall_weapon_odds_match_brute_force(
    attempts: int, kind: str, wounded: bool, value: int
) -> None:
    action = ACTIONS["wall-weapon"]
    params = action.complete_params(
        {
            "attempts": attempts,
            "target_kind": kind,
            "target_wounded": wounded,
            "weapon_value": value,
        }
    )
    brute = enumerate_odds(action.request(params), lambda d: action.resolve(params, d))
    exact = action.odds(params)
    assert {k: v for k, v in exact.headline.items() if v} == {
        k: v for k, v in brute.headline.items() if v
    }
    assert {k: v for k, v in exact.effects.items() if v} == {
        k: v for k, v in brute.effects.items() if v
    }
    assert max(exact.headline) <= min(attempts, 1 if wounded else 2)


@settings(max_examples=30, deadline=None)
@given(pairs=st.integers(1, 40), kind=st.sampled_from(["infantry", "archer", "mounted"]))
def test_melee_line_odds_sum_to_one(pairs: int, kind: str) -> None:
    o = odds("melee-line", pairs=pairs, attacker_kind=kind)
    assert sum(o.headline.values()) == 1
    assert max(o.headline) == pairs
