"""One named test per Scrubs of the Desert rule, through the stand-alone actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules import get_ruleset
from companion.rules.core import DieKind, RulesError
from companion.rules.scrubs_of_the_desert.activation import bonuses_after, toss_winner
from companion.rules.scrubs_of_the_desert.crew_targeting import crew_is_hit, crew_percent
from companion.rules.scrubs_of_the_desert.dice import read_percentile
from companion.rules.scrubs_of_the_desert.melee import Bout, pair_figures
from companion.rules.scrubs_of_the_desert.morale import morale_result

RULES = get_ruleset("scrubs")


def act(name: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[name]
    return a.resolve(a.complete_params(params), dice)


def req(name: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[name]
    return a.request(a.complete_params(params))


def odds(name: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[name]
    return a.odds(a.complete_params(params))


# ------------------------------------------------------------ dice conventions


def test_every_die_is_a_d10_read_0_to_9() -> None:
    for action in RULES.actions.values():
        for example in action.examples:
            for kind in action.request(action.complete_params(example)).kinds:
                assert kind in (DieKind.D10, DieKind.PERCENTILE)
                assert kind.faces == tuple(range(10))


def test_a_zero_is_zero_not_ten() -> None:
    assert act("fire", [0], figures=1, did_not_move=True).headline == 0
    assert act("move", [0, 0, 9], unit_type="french_foot", terrain="rough").headline == 0
    assert act("hook-throw", [0]).headline == 0


@pytest.mark.parametrize(
    ("tens", "units", "zero", "hundred"),
    [(0, 0, 0, 100), (0, 5, 5, 5), (9, 9, 99, 99), (5, 0, 50, 50), (1, 0, 10, 10)],
)
def test_percentile_reading(tens: int, units: int, zero: int, hundred: int) -> None:
    assert read_percentile(tens, units, "zero") == zero
    assert read_percentile(tens, units, "hundred") == hundred


def test_double_zero_honoured_in_morale() -> None:
    assert act("morale", [0, 0], base_morale=0).headline == 1
    assert act("morale", [0, 0], base_morale=60, double_zero="hundred").headline == 0
    assert act("morale", [0, 0], base_morale=100, double_zero="hundred").headline == 1


def test_double_zero_honoured_in_crew_targeting() -> None:
    assert act("crew-targeting", [0, 0], crew=1, others=9).headline == 1
    assert act("crew-targeting", [0, 0], crew=1, others=9, double_zero="hundred").headline == 0
    for reading in ("zero", "hundred"):
        assert odds("crew-targeting", crew=1, others=9, double_zero=reading).headline[
            1
        ] == Fraction(1, 10)


# --------------------------------------------------------------- activation


def test_toss_winner_activates_and_loser_gains_one() -> None:
    assert toss_winner(7, 3, 0, 0) == 1
    assert toss_winner(3, 3, 0, 1) == 2
    assert bonuses_after(1, 0, 2) == (0, 3)
    assert bonuses_after(2, 0, 3) == (1, 0)  # the loser's bonus resets when it wins
    assert bonuses_after(0, 2, 0) == (2, 0)


def test_tie_tosses_again() -> None:
    out = act("activation-toss", [4, 4])
    assert out.headline == 0 and "tie" in out.effects and out.follow_up is not None


def test_bonus_shifts_the_odds() -> None:
    even = odds("activation-toss")
    assert even.headline[1] == even.headline[2] == Fraction(45, 100)
    assert odds("activation-toss", second_bonus=9).headline.get(1, 0) == 0


# ----------------------------------------------------------------- sighting


def test_sighting_within_2_inches_is_automatic() -> None:
    assert req("sighting", range="0-2").dice_count == 0
    assert act("sighting", [], range="0-2").headline == 1


def test_sighting_needs_the_number_for_the_range() -> None:
    assert act("sighting", [7], range="12-24").headline == 0
    assert act("sighting", [8], range="12-24").headline == 1
    assert odds("sighting", range="2-4").headline[1] == Fraction(7, 10)


# ----------------------------------------------------------------- movement


def test_movement_three_dice_by_type_and_terrain() -> None:
    assert act("move", [9, 2, 5], unit_type="french_foot", terrain="desert").headline == 7
    assert act("move", [9, 2, 5], unit_type="arab_horse", terrain="desert").headline == 16
    assert act("move", [9, 2, 5], unit_type="french_horse", terrain="rough").headline == 9


def test_french_at_zero_may_change_formation() -> None:
    out = act("move", [0, 0, 3], unit_type="french_foot", terrain="desert")
    assert out.headline == 0 and "formation_change" in out.effects
    arab = act("move", [0, 0, 0], unit_type="arab_foot", terrain="rough")
    assert arab.headline == 0 and "formation_change" not in arab.effects


# --------------------------------------------------------------------- fire


def test_a_die_per_figure_and_the_hit_number() -> None:
    assert req("fire", figures=6).dice_count == 6
    assert act("fire", [7, 6, 9], figures=3).headline == 2


def test_long_range_hit_number() -> None:
    assert act("fire", [7, 8], figures=2, range="long").headline == 1


def test_cover_and_not_moving() -> None:
    assert act("fire", [7, 8], figures=2, target_in_cover=True).headline == 1
    assert act("fire", [6, 8], figures=2, did_not_move=True).headline == 2
    assert act("fire", [6, 8], figures=2, did_not_move=True, before_melee=True).headline == 1


def test_machine_gun_two_dice_per_crew_and_jam_on_three_zeros() -> None:
    assert req("fire", weapon="machine_gun", figures=2).dice_count == 4
    out = act("fire", [0, 0, 0, 9], weapon="machine_gun", figures=2)
    assert out.headline == 1 and "jammed" in out.effects
    assert "jammed" not in act("fire", [0, 0, 7, 9], weapon="machine_gun", figures=2).effects


def test_infantry_crewing_the_gun_roll_one_die_each() -> None:
    assert req("fire", weapon="machine_gun", figures=3, crewed_by="infantry").dice_count == 3


def test_machine_gun_gets_no_stationary_bonus() -> None:
    assert act("fire", [6, 6], weapon="machine_gun", figures=1, did_not_move=True).headline == 0


def test_cavalry_hit_kills_rider_and_horse() -> None:
    assert any("horseman with his horse" in d for d in act("fire", [9], figures=1).details)


# ------------------------------------------------------------------- cannon


def test_cannon_rolls_once_then_the_blast() -> None:
    out = act("cannon-to-hit", [7], crew=4, figures_under_blast=5)
    assert out.headline == 1 and out.follow_up is not None and out.follow_up.dice_count == 5
    assert act("cannon-to-hit", [6], crew=4).follow_up is None


def test_blast_kills_on_5_or_more_per_figure() -> None:
    assert act("cannon-blast", [4, 5, 9, 0], figures=4).headline == 2


def test_cannon_crew_minimum_and_penalties() -> None:
    with pytest.raises(RulesError, match="at least 2 crew"):
        req("cannon-to-hit", crew=1)
    assert act("cannon-to-hit", [8], crew=2).headline == 0
    assert act("cannon-to-hit", [9], crew=2).headline == 1
    assert act("cannon-to-hit", [7], crew=3).headline == 0


def test_grapeshot_adds_four_at_short_range() -> None:
    assert act("cannon-to-hit", [3], crew=4, grapeshot=True).headline == 1
    with pytest.raises(RulesError, match="short range"):
        req("cannon-to-hit", grapeshot=True, range="long")


# ------------------------------------------------------------ crew targeting


@pytest.mark.parametrize(
    ("crew", "others", "percent"), [(2, 2, 50), (2, 4, 33), (3, 7, 30), (1, 0, 100), (1, 5, 16)]
)
def test_crew_percentage_rounds_down(crew: int, others: int, percent: int) -> None:
    assert crew_percent(crew, others) == percent


def test_a_percentile_per_hit() -> None:
    assert req("crew-targeting", hits=3).dice_count == 6
    out = act("crew-targeting", [3, 4, 0, 9], hits=2, crew=2, others=2)  # 30 and 49 under 50
    assert out.headline == 2
    assert not crew_is_hit(50, 50, "zero") and crew_is_hit(50, 50, "hundred")


# ------------------------------------------------------------------- morale


@pytest.mark.parametrize(
    ("roll", "target", "closing", "result"),
    [
        (60, 60, False, "holds"),
        (61, 60, False, "routs"),
        (51, 51, False, "holds"),
        (52, 51, False, "routs"),
        (51, 50, False, "removed"),
        (31, 30, False, "removed"),
        (31, 30, True, "routs"),  # closing into melee never removes
    ],
)
def test_morale_result(roll: int, target: int, closing: bool, result: str) -> None:
    assert morale_result(roll, target, closing).result == result


def test_morale_strength_reading() -> None:
    assert morale_result(90, 30, False, "strength", 10, 4).result == "routs"
    assert morale_result(90, 80, False, "strength", 10, 5).result == "removed"


def test_morale_check_with_losses_and_fort() -> None:
    held = act("morale", [8, 0], base_morale=70, unit_size=4, figures_lost=1, position="fort")
    assert held.headline == 1 and "= 80%" in held.details[0]  # 70 - 10 + 20
    out = act("morale", [8, 1], base_morale=70, unit_size=4, figures_lost=1, position="fort")
    assert out.headline == 0 and {"routed", "resolve_failed"} <= out.effects
    gone = act("morale", [9, 9], base_morale=60, unit_size=10, figures_lost=2)
    assert "removed" in gone.effects  # 60 - 10 = 50: at or under 50% the unit goes


# -------------------------------------------------------------------- melee


@pytest.mark.parametrize(
    ("attackers", "defenders", "bouts"),
    [
        (1, 1, [Bout(1, 1)]),
        (2, 1, [Bout(2, 1)]),
        (3, 1, [Bout(2, 1)]),  # at most two on one; the third stands by
        (3, 2, [Bout(2, 1), Bout(1, 1)]),
        (1, 2, [Bout(1, 2)]),
        (2, 5, [Bout(1, 2), Bout(1, 2)]),
        (4, 4, [Bout(1, 1)] * 4),
        (0, 3, []),
    ],
)
def test_pairing_two_on_one_at_most(attackers: int, defenders: int, bouts: list[Bout]) -> None:
    assert list(pair_figures(attackers, defenders)) == bouts


def test_higher_total_kills() -> None:
    assert act("melee-bout", [7, 3]).headline == 1
    assert act("melee-bout", [3, 7]).headline == -1


def test_tie_locks_the_melee() -> None:
    out = act("melee-bout", [5, 5])
    assert out.headline == 0 and "locked" in out.effects


def test_lone_figure_beating_two_kills_one() -> None:
    out = act("melee-bout", [9, 3, 4], defenders=2)
    assert out.headline == 1 and "defender_killed" in out.effects
    assert act("melee-bout", [2, 3, 4], attackers=2).headline == 1  # the pair's 5 beats 4
    assert act("melee-bout", [1, 1, 9], attackers=2).headline == -1


def test_two_against_two_is_refused() -> None:
    with pytest.raises(RulesError, match="two against two"):
        req("melee-bout", attackers=2, defenders=2)


def test_melee_modifiers() -> None:
    assert act("melee-bout", [5, 6], arab_charging=True).headline == 0
    assert act("melee-bout", [5, 6], cavalry_charging=True).headline == 0
    assert act("melee-bout", [5, 6], attacker_leader=True).headline == 0
    assert act("melee-bout", [7, 5], defender_position="fort").headline == 0
    assert act("melee-bout", [6, 5], defender_position="higher").headline == 0
    assert act("melee-bout", [9, 5], counter_charging=True, counter_bonus=True).headline == 0


def test_modifiers_per_figure_or_once() -> None:
    assert act("melee-bout", [3, 3, 7], attackers=2, arab_charging=True).headline == 1
    assert (
        act("melee-bout", [3, 3, 7], attackers=2, arab_charging=True, per_figure=False).headline
        == 0
    )


# ---------------------------------------------------------------- grappling


@pytest.mark.parametrize(("defenders", "lowest"), [(0, 4), (1, 5), (2, 6), (3, 7), (4, 7), (9, 7)])
def test_hook_throw_4_plus_less_defenders_max_3(defenders: int, lowest: int) -> None:
    assert act("hook-throw", [lowest], defenders=defenders).headline == 1
    assert act("hook-throw", [lowest - 1], defenders=defenders).headline == 0


def test_second_climber_5_third_8() -> None:
    assert act("hook-climb", [5], climber="second").headline == 1
    assert act("hook-climb", [4], climber="second").headline == 0
    assert act("hook-climb", [8], climber="third").headline == 1
    assert act("hook-climb", [7], climber="third").headline == 0
