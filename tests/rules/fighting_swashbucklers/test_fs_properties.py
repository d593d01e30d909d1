"""Invariants of Fighting Swashbucklers' rolls, by property-based testing."""

from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from importlib import resources

from hypothesis import given, settings
from hypothesis import strategies as st
from odds_checks import assert_matches_brute_force, draw_params

from companion.rules import get_ruleset
from companion.rules.core import AwaitChoice, Chosen, GameOver, Rolled
from companion.rules.fighting_swashbucklers import fire, melee, morale, rally
from companion.rules.fighting_swashbucklers.actions import ACTIONS
from companion.rules.fighting_swashbucklers.dice import (
    d10_values,
    percentile_values,
    read_d10,
    read_percentile,
)
from companion.rules.fighting_swashbucklers.state import GameState

ZERO = st.sampled_from(("100", "0"))
D10_ZERO = st.sampled_from(("10", "0"))
FIGHTERS = st.sampled_from(melee.FIGHTER_CHOICES)
POSES = st.sampled_from(("running", "standing", "kneeling", "prone"))
D10 = st.integers(0, 9)
READ_D10 = st.integers(0, 10)


def odds_of(action: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = ACTIONS[action]
    return a.odds(a.complete_params(params))


@given(D10, D10, ZERO)
def test_percentile_reads_within_its_range(tens: int, units: int, zero: str) -> None:
    value = read_percentile(tens, units, zero)
    assert (1 <= value <= 100) if zero == "100" else (0 <= value <= 99)


@given(ZERO)
def test_each_reading_appears_once(zero: str) -> None:
    assert len(set(percentile_values(zero))) == 100


@given(D10, D10_ZERO)
def test_a_d10_reads_within_its_range(face: int, zero: str) -> None:
    value = read_d10(face, zero)
    assert (1 <= value <= 10) if zero == "10" else (0 <= value <= 9)
    assert len(set(d10_values(zero))) == 10


@given(st.integers(1, 4), st.integers(0, 40), st.booleans(), st.integers(0, 50), ZERO)
def test_morale_odds_sum_to_one(
    men: int, markers: int, stress: bool, points: int, zero: str
) -> None:
    action = ACTIONS["morale-test"]
    params = action.complete_params(
        {
            "men": men,
            "markers": markers,
            "stress": stress,
            "leader_points": points,
            "double_zero": zero,
        }
    )
    odds = action.odds(params)
    assert sum(odds.headline.values()) == 1
    assert max(odds.headline) <= min(2, men)


@given(st.integers(1, 4), st.integers(0, 39))
def test_another_marker_never_makes_a_pass_likelier(men: int, markers: int) -> None:
    action = ACTIONS["morale-test"]
    fewer = action.odds(action.complete_params({"men": men, "markers": markers}))
    more = action.odds(action.complete_params({"men": men, "markers": markers + 1}))
    assert more.effects.get("routed", Fraction(0)) >= fewer.effects.get("routed", Fraction(0))


@given(st.integers(1, 100), st.integers(-50, 150), st.integers(1, 4))
def test_morale_bands_are_exclusive_and_losses_bounded(roll: int, level: int, men: int) -> None:
    result = morale.morale_result(roll, level, men)
    assert result.band in (morale.FAILED, morale.STEADY, morale.PROVOKED)
    assert 0 <= result.losses <= min(2, men)
    assert (result.losses > 0) == (result.band == morale.FAILED)


@given(st.integers(1, 3), st.sampled_from(("running", "standing", "kneeling", "prone")))
def test_another_man_never_lowers_the_fire_chance(men: int, pose: str) -> None:
    action = ACTIONS["rifle-fire"]
    few = action.odds(action.complete_params({"men": men, "firer": pose}))
    more = action.odds(action.complete_params({"men": men + 1, "firer": pose}))
    assert more.at_least(1) >= few.at_least(1)


@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 100))
def test_fire_is_all_or_nothing(men: int, factor: int, roll: int) -> None:
    assert fire.rifle_markers(men, factor, roll) in (0, factor)


@given(READ_D10, st.integers(0, 99))
def test_cannon_never_exceeds_its_die(die: int, range_inches: int) -> None:
    markers = fire.cannon_markers(die, range_inches)
    assert 0 <= markers <= die
    assert markers == max(0, die - range_inches // 10)


@given(st.integers(0, 98), D10_ZERO)
def test_a_longer_range_never_helps_the_cannon(range_inches: int, zero: str) -> None:
    near = odds_of("cannon-fire", range=range_inches, d10_zero=zero)
    far = odds_of("cannon-fire", range=range_inches + 1, d10_zero=zero)
    assert far.mean() <= near.mean()
    assert all(far.at_least(k) <= near.at_least(k) for k in range(1, 11))


@given(st.integers(1, 4), POSES, st.integers(0, 1), ZERO)
def test_fire_never_places_more_than_its_factor(
    men: int, pose: str, cavalry_ff: int, zero: str
) -> None:
    factor = fire.fire_factor("infantry", pose, cavalry_ff)
    rifle = odds_of("rifle-fire", men=men, firer=pose, double_zero=zero)
    assert set(rifle.headline) <= {0, factor}
    gun = odds_of("machine-gun-fire", men=men, firer=pose, double_zero=zero)
    assert set(gun.headline) <= {4, 4 + factor}


@given(st.integers(0, 9), D10_ZERO)
def test_more_command_points_never_hurt(cp: int, zero: str) -> None:
    for action, extra in (("reaction-fire", {"d10_zero": zero}), ("rally", {"d10_zero": zero})):
        fewer = odds_of(action, cp=cp, **extra)
        more = odds_of(action, cp=cp + 1, **extra)
        assert all(more.at_least(k) >= fewer.at_least(k) for k in range(1, 11))
        assert max(more.headline) <= cp + 1  # CP x d10 / 10 is never above the CP
    second_fewer = odds_of("second-action", cp=cp)
    second_more = odds_of("second-action", cp=cp + 1)
    assert second_more.at_least(1) >= second_fewer.at_least(1)


@given(st.integers(1, 4), st.integers(0, 40), st.integers(0, 45), ZERO)
def test_leader_points_never_raise_the_chance_of_failing(
    men: int, markers: int, points: int, zero: str
) -> None:
    fewer = odds_of("morale-test", men=men, markers=markers, leader_points=points, double_zero=zero)
    more = odds_of(
        "morale-test", men=men, markers=markers, leader_points=points + 5, double_zero=zero
    )
    assert more.effects.get("routed", Fraction(0)) <= fewer.effects.get("routed", Fraction(0))
    assert more.mean() <= fewer.mean()


@given(st.integers(1, 4), st.integers(0, 40), ZERO)
def test_stress_never_lowers_the_chance_of_failing(men: int, markers: int, zero: str) -> None:
    calm = odds_of("morale-test", men=men, markers=markers, double_zero=zero)
    stressed = odds_of("morale-test", men=men, markers=markers, stress=True, double_zero=zero)
    assert stressed.effects.get("routed", Fraction(0)) >= calm.effects.get("routed", Fraction(0))


@given(st.integers(1, 20), st.integers(1, 20), D10, D10)
def test_melee_pair_is_antisymmetric(a: int, d: int, x: int, y: int) -> None:
    one = melee.pair_result(a, d, x, y)
    other = melee.pair_result(d, a, y, x)
    swap = {"attacker": "defender", "defender": "attacker", "tie": "tie"}
    assert swap[one.winner] == other.winner
    assert one.routed == other.routed


@given(st.integers(1, 20), st.integers(1, 20), D10)
def test_a_zero_roll_never_wins_a_pair(a: int, d: int, x: int) -> None:
    assert melee.pair_result(a, d, 0, x).winner != "attacker"


@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 9), READ_D10)
def test_a_higher_die_never_turns_a_win_into_a_loss(a: int, d: int, x: int, y: int) -> None:
    order = {"defender": 0, "tie": 1, "attacker": 2}
    low = melee.pair_result(a, d, x, y)
    high = melee.pair_result(a, d, x + 1, y)
    assert order[high.winner] >= order[low.winner]


@given(FIGHTERS, FIGHTERS, D10_ZERO)
def test_a_martinet_never_lowers_his_squads_chance(a: str, d: str, zero: str) -> None:
    plain = odds_of("melee-pair", attacker=a, defender=d, d10_zero=zero)
    led = odds_of("melee-pair", attacker=a, defender=d, attacker_martinet=True, d10_zero=zero)
    assert led.headline.get(1, Fraction(0)) >= plain.headline.get(1, Fraction(0))
    assert led.headline.get(2, Fraction(0)) <= plain.headline.get(2, Fraction(0))


@settings(max_examples=30)
@given(st.integers(1, 6), FIGHTERS, FIGHTERS)
def test_melee_round_odds_sum_to_one_and_are_bounded(pairs: int, a: str, d: str) -> None:
    action = ACTIONS["melee-round"]
    odds = action.odds(action.complete_params({"pairs": pairs, "attacker": a, "defender": d}))
    assert sum(odds.headline.values()) == 1
    assert max(odds.headline) <= pairs and min(odds.headline) >= 0


@settings(max_examples=30)
@given(st.integers(1, 7), FIGHTERS, FIGHTERS)
def test_another_pair_never_lowers_the_chance_of_a_win(pairs: int, a: str, d: str) -> None:
    action = ACTIONS["melee-round"]
    few = action.odds(action.complete_params({"pairs": pairs, "attacker": a, "defender": d}))
    more = action.odds(action.complete_params({"pairs": pairs + 1, "attacker": a, "defender": d}))
    assert more.at_least(1) >= few.at_least(1)


@given(FIGHTERS, FIGHTERS, D10_ZERO)
def test_a_bonus_never_lowers_the_attackers_chance(a: str, d: str, zero: str) -> None:
    plain = odds_of("melee-pair", attacker=a, defender=d, d10_zero=zero)
    edge = odds_of("melee-pair", attacker=a, defender=d, attacker_advantage=True, d10_zero=zero)
    assert edge.headline.get(1, Fraction(0)) >= plain.headline.get(1, Fraction(0))


@given(st.integers(0, 10), READ_D10)
def test_rally_men_plus_fraction_match_the_points(cp: int, die: int) -> None:
    assert rally.rally_whole_men(cp, die) * 100 + rally.rally_fraction_percent(cp, die) == (
        cp * die * 10
    )


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_action_agrees_with_brute_force(data: st.DataObject) -> None:
    action = data.draw(st.sampled_from(sorted(ACTIONS.values(), key=lambda a: a.name)))
    given = draw_params(action, data, tops={"pairs": 2})  # keep the brute force small
    assert_matches_brute_force(action, action.complete_params(given))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 0.9))
def test_a_random_game_never_loses_or_invents_men(seed: int, first_bias: float) -> None:
    """Played as the sim plays (often the first option), men only move between field and rout."""
    rules = get_ruleset("fighting_swashbucklers")
    text = resources.files("companion.scenarios").joinpath("fighting_swashbucklers.toml")
    state = rules.start(rules.load_scenario(tomllib.loads(text.read_text())))
    rng = random.Random(seed)
    points = (0, 0)
    for _ in range(2000):
        assert isinstance(state, GameState)
        for unit in state.units:
            assert unit.men >= 0 and unit.routed >= 0 and unit.markers >= 0
            assert unit.men + unit.routed == unit.strength
        now = tuple(side.victory_points for side in state.sides)
        assert all(b >= a for a, b in zip(points, now, strict=True))
        points = now
        step = rules.next_step(state)
        if isinstance(step, GameOver):
            assert state.turn > state.turn_limit or any(u.captured for u in state.units)
            break
        if isinstance(step, AwaitChoice):
            pick = 0 if rng.random() < first_bias else rng.randrange(len(step.options))
            given: Chosen | Rolled = Chosen(step.options[pick].key)
        else:
            given = Rolled(tuple(rng.choice(kind.faces) for kind in step.request.kinds))
        state = rules.advance(state, given).state
    else:
        raise AssertionError("the game did not end within 2000 inputs")
