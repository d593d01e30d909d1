"""Each Fighting Swashbucklers rule as a named test, mostly through the Actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules import get_ruleset
from companion.rules.core import RulesError
from companion.rules.fighting_swashbucklers import fire, melee, morale
from companion.rules.fighting_swashbucklers.actions import ACTIONS

RULES = get_ruleset("fighting_swashbucklers")


def resolve(action: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = ACTIONS[action]
    return a.resolve(a.complete_params(params), dice)


def odds(action: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = ACTIONS[action]
    return a.odds(a.complete_params(params))


def test_registered_under_its_name_and_aliases() -> None:
    assert RULES.name == "fighting_swashbucklers"
    assert get_ruleset("fsfl") is RULES
    assert get_ruleset("swashbucklers") is RULES


# ------------------------------------------------------------------ fire


def test_full_squad_places_its_fire_factor_without_a_roll() -> None:
    request = ACTIONS["rifle-fire"].request(ACTIONS["rifle-fire"].complete_params({"men": 4}))
    assert request.dice_count == 0
    assert resolve("rifle-fire", [], men=4, firer="prone").headline == 4


def test_fire_is_all_or_nothing_whatever_the_men() -> None:
    # one prone man who succeeds still places all 4 markers
    assert resolve("rifle-fire", [2, 5], men=1, firer="prone").headline == 4
    assert resolve("rifle-fire", [2, 6], men=1, firer="prone").headline == 0


def test_three_men_need_75_or_less() -> None:
    assert resolve("rifle-fire", [7, 5], men=3, firer="standing").headline == 2
    assert resolve("rifle-fire", [7, 6], men=3, firer="standing").headline == 0
    assert odds("rifle-fire", men=3, firer="standing").headline == {
        0: Fraction(1, 4),
        2: Fraction(3, 4),
    }


def test_machine_gun_adds_four_to_its_riflemen() -> None:
    # crew 1: three riflemen at 75%
    assert resolve("machine-gun-fire", [7, 5], men=4, firer="kneeling").headline == 7
    assert resolve("machine-gun-fire", [7, 6], men=4, firer="kneeling").headline == 4
    # crew 2 (option): two riflemen at 50%
    assert resolve("machine-gun-fire", [5, 1], men=4, mg_crew=2, firer="kneeling").headline == 4


def test_machine_gun_alone_fires_without_a_roll() -> None:
    assert resolve("machine-gun-fire", [], men=1, firer="kneeling").headline == 4


def test_cannon_below_the_range_digit_has_no_impact() -> None:
    out = resolve("cannon-fire", [2], range=34)
    assert out.headline == 0
    assert "no impact" in out.details[0]
    assert resolve("cannon-fire", [9], range=34).headline == 6


def test_cavalry_fire_factor_option() -> None:
    assert resolve("rifle-fire", [], men=4, firer="cavalry").headline == 1
    assert resolve("rifle-fire", [], men=4, firer="cavalry", cavalry_fire_factor=0).headline == 0


def test_infantry_column_cannot_fire_but_cavalry_column_can() -> None:
    from companion.rules.fighting_swashbucklers.movement import can_fire_in

    assert not can_fire_in("column", "infantry")
    assert can_fire_in("line", "infantry")
    assert can_fire_in("column", "cavalry")


# ------------------------------------------------------------------ morale


def test_odd_failure_removes_one_man_even_two() -> None:
    odd = resolve("morale-test", [9, 7], men=4, markers=1)
    even = resolve("morale-test", [9, 6], men=4, markers=1)
    assert (odd.headline, odd.effects) == (1, frozenset({"routed"}))
    assert (even.headline, even.effects) == (2, frozenset({"routed"}))


def test_half_the_level_or_less_provokes() -> None:
    out = resolve("morale-test", [5, 0], men=4)
    assert out.effects == frozenset({"provoked"})
    assert resolve("morale-test", [5, 1], men=4).effects == frozenset()


def test_stress_halves_the_normal_level_before_markers() -> None:
    assert morale.morale_level(4, 2, stress=True) == 40
    out = resolve("morale-test", [4, 1], men=4, markers=2, stress=True)
    assert out.effects == frozenset({"routed"})


def test_good_leader_points_raise_the_level() -> None:
    assert resolve("morale-test", [9, 9], men=4, markers=2).effects == frozenset({"routed"})
    assert resolve("morale-test", [9, 9], men=4, markers=2, leader_points=10).effects == frozenset()


def test_a_lone_man_loses_at_most_himself() -> None:
    assert resolve("morale-test", [9, 8], men=1).headline == 1


def test_good_leader_risk_is_twice_his_points() -> None:
    assert resolve("good-leader-risk", [2, 0], points=10).effects == frozenset({"killed"})
    assert resolve("good-leader-risk", [2, 1], points=10).effects == frozenset()
    assert odds("good-leader-risk", points=10).effects == {"killed": Fraction(1, 5)}


# ------------------------------------------------------------------ double zero


def test_double_zero_reads_100_and_fails_a_test_below_100() -> None:
    assert resolve("morale-test", [0, 0], men=4, markers=1).headline == 2  # even, 100 > 95
    assert resolve("morale-test", [0, 0], men=4).effects == frozenset()  # 100 <= 100


def test_double_zero_option_reads_zero_and_provokes() -> None:
    out = resolve("morale-test", [0, 0], men=4, markers=1, double_zero="0")
    assert out.effects == frozenset({"provoked"})


@pytest.mark.parametrize(("zero", "cp"), [("100", 5), ("0", 3)])
def test_double_zero_in_the_command_point_roll(zero: str, cp: int) -> None:
    assert resolve("command-points", [0, 0], double_zero=zero).headline == cp


@pytest.mark.parametrize(("zero", "granted"), [("100", 0), ("0", 1)])
def test_double_zero_in_the_second_action_roll(zero: str, granted: int) -> None:
    assert resolve("second-action", [0, 0], cp=5, double_zero=zero).headline == granted


def test_double_zero_spares_a_martinet_at_60_percent() -> None:
    assert resolve("martinet-fate", [0, 0], won=False).effects == frozenset()
    assert resolve("martinet-fate", [0, 0], won=False, double_zero="0").effects == frozenset(
        {"killed"}
    )


def test_double_zero_fails_rough_terrain() -> None:
    assert resolve("rough-terrain", [0, 0]).effects == frozenset({"halted"})
    assert resolve("rough-terrain", [0, 0], double_zero="0").headline == 1


# ------------------------------------------------------------------ command


def test_second_action_is_ten_times_cp() -> None:
    assert resolve("second-action", [4, 0], cp=4).headline == 1
    assert resolve("second-action", [4, 1], cp=4).headline == 0
    assert odds("second-action", cp=4).headline == {0: Fraction(3, 5), 1: Fraction(2, 5)}


def test_reaction_is_one_unit_per_ten_points() -> None:
    assert resolve("reaction-fire", [7], cp=3).headline == 2
    assert resolve("reaction-fire", [0], cp=5).headline == 0


def test_rally_fraction_is_one_more_man_on_a_percentile() -> None:
    out = resolve("rally", [7], cp=4)
    assert out.headline == 2
    assert out.follow_up is not None and "80" in out.follow_up.reason
    assert resolve("rally-fraction", [8, 0], percent=80).headline == 1
    assert resolve("rally-fraction", [8, 1], percent=80).headline == 0


def test_rally_with_whole_points_asks_no_fraction() -> None:
    assert resolve("rally", [5], cp=4).follow_up is None


def test_martinet_dies_on_30_if_won_60_if_lost() -> None:
    assert odds("martinet-fate", won=True).effects == {"killed": Fraction(3, 10)}
    assert odds("martinet-fate", won=False).effects == {"killed": Fraction(3, 5)}


# ------------------------------------------------------------------ melee


def test_higher_product_wins_the_pair() -> None:
    r = melee.pair_result(9, 7, 5, 6)  # 45 v 42
    assert (r.winner, r.routed) == ("attacker", False)


def test_threefold_product_routs_the_loser() -> None:
    r = melee.pair_result(6, 10, 2, 4)  # 12 v 40
    assert (r.winner, r.routed) == ("defender", True)
    assert melee.pair_result(10, 10, 3, 1).routed  # exactly three times


def test_a_zero_is_beaten_threefold_by_any_product() -> None:
    assert melee.pair_result(6, 10, 1, 0).routed
    assert melee.pair_result(6, 10, 0, 0).winner == "tie"


def test_martinet_adds_one_and_advantage_two() -> None:
    assert melee.melee_factor("prone", martinet=True) == 7
    assert melee.melee_factor("prone", advantage=True) == 8
    assert melee.melee_factor("cavalry", martinet=True, advantage=True) == 13
    assert melee.melee_factor("commander", commander_factor=10, advantage=True) == 12


def test_column_fights_with_one_man_line_with_all() -> None:
    assert melee.fighting_men(4, column=True, ordinary_officer=False) == 1
    assert melee.fighting_men(4, column=False, ordinary_officer=False) == 4


def test_run_of_the_mill_officer_is_an_extra_man() -> None:
    assert melee.fighting_men(3, column=False, ordinary_officer=True) == 4
    assert melee.fighting_men(0, column=False, ordinary_officer=True) == 0


def test_melee_pair_action_reports_the_rout() -> None:
    out = resolve("melee-pair", [1, 5], attacker="prone", defender="cavalry")
    assert out.headline == 2
    assert out.effects == frozenset({"routed"})


def test_melee_round_counts_defenders_beaten() -> None:
    out = resolve("melee-round", [9, 1, 1, 9], pairs=2, attacker="running", defender="running")
    assert out.headline == 1
    assert out.effects == frozenset({"defender_routed", "attacker_routed"})


def test_melee_round_odds_are_fast_for_eight_pairs() -> None:
    import time

    start = time.perf_counter()
    result = odds("melee-round", pairs=8, attacker="cavalry", defender="prone")
    assert time.perf_counter() - start < 0.5
    assert sum(result.headline.values()) == 1


# ------------------------------------------------------------------ dice checks


def test_wrong_dice_are_named() -> None:
    with pytest.raises(RulesError, match="expected 2 dice"):
        resolve("morale-test", [5])
    with pytest.raises(RulesError, match="reads 0-9"):
        resolve("cannon-fire", [10], range=10)


def test_fire_helpers_agree_with_the_actions() -> None:
    assert fire.machine_gun_riflemen(4, 1) == 3
    assert fire.machine_gun_riflemen(1, 2) == 0
    assert fire.rifle_markers(2, 3, 50) == 3
    assert fire.rifle_markers(2, 3, 51) == 0
