"""Invariants of Fighting Swashbucklers' rolls, by property-based testing."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.fighting_swashbucklers import fire, melee, morale
from companion.rules.fighting_swashbucklers.actions import ACTIONS
from companion.rules.fighting_swashbucklers.dice import percentile_values, read_percentile

ZERO = st.sampled_from(("100", "0"))
FIGHTERS = st.sampled_from(melee.FIGHTER_CHOICES)
D10 = st.integers(0, 9)


@given(D10, D10, ZERO)
def test_percentile_reads_within_its_range(tens: int, units: int, zero: str) -> None:
    value = read_percentile(tens, units, zero)
    assert (1 <= value <= 100) if zero == "100" else (0 <= value <= 99)


@given(ZERO)
def test_each_reading_appears_once(zero: str) -> None:
    assert len(set(percentile_values(zero))) == 100


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


@given(D10, st.integers(0, 99))
def test_cannon_never_exceeds_its_die(die: int, range_inches: int) -> None:
    markers = fire.cannon_markers(die, range_inches)
    assert 0 <= markers <= die
    assert markers == max(0, die - range_inches // 10)


@given(st.integers(0, 99))
def test_d10_zero_is_zero_for_the_cannon(range_inches: int) -> None:
    assert fire.cannon_markers(0, range_inches) == 0


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


@given(FIGHTERS, FIGHTERS)
def test_a_bonus_never_lowers_the_attackers_chance(a: str, d: str) -> None:
    action = ACTIONS["melee-pair"]
    plain = action.odds(action.complete_params({"attacker": a, "defender": d}))
    edge = action.odds(
        action.complete_params({"attacker": a, "defender": d, "attacker_advantage": True})
    )
    assert edge.headline.get(1, Fraction(0)) >= plain.headline.get(1, Fraction(0))


@given(st.integers(0, 10), st.integers(0, 9))
def test_rally_men_plus_fraction_match_the_points(cp: int, die: int) -> None:
    from companion.rules.fighting_swashbucklers import rally

    assert rally.rally_whole_men(cp, die) * 100 + rally.rally_fraction_percent(cp, die) == (
        cp * die * 10
    )


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_action_agrees_with_brute_force(data: st.DataObject) -> None:
    from companion.rules.core import ParamKind
    from companion.rules.odds import enumerate_odds

    action = data.draw(st.sampled_from(sorted(ACTIONS.values(), key=lambda a: a.name)))
    given: dict[str, int | bool | str] = {}
    for p in action.params:
        if p.kind is ParamKind.BOOL:
            given[p.name] = data.draw(st.booleans())
        elif p.kind is ParamKind.CHOICE:
            given[p.name] = data.draw(st.sampled_from(p.choices))
        else:
            low = p.minimum if p.minimum is not None else 0
            high = p.maximum if p.maximum is not None else 20
            if p.name == "pairs":
                high = 2  # keep the brute force small
            given[p.name] = data.draw(st.integers(low, high))
    params = action.complete_params(given)
    request = action.request(params)
    odds = action.odds(params)
    brute = enumerate_odds(request, lambda dice: action.resolve(params, dice))
    assert {k: v for k, v in odds.headline.items() if v} == {
        k: v for k, v in brute.headline.items() if v
    }
    assert {k: v for k, v in odds.effects.items() if v} == {
        k: v for k, v in brute.effects.items() if v
    }
