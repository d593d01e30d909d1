"""One named test per On the Frontier rule, through the stand-alone actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules import get_ruleset
from companion.rules.core import RulesError
from companion.rules.on_the_frontier.charges import charge_result
from companion.rules.on_the_frontier.initiative import who_goes_first
from companion.rules.on_the_frontier.shooting import dice_for_figures, front_rank

RULES = get_ruleset("on_the_frontier")


def resolve(action: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[action]
    p = a.complete_params(params)
    return a.resolve(p, dice)


def request(action: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[action]
    return a.request(a.complete_params(params))


def odds(action: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = RULES.actions[action]
    return a.odds(a.complete_params(params))


def test_higher_die_goes_first_and_a_tie_rolls_again() -> None:
    assert who_goes_first(5, 2) == 1
    assert who_goes_first(1, 6) == 2
    tie = resolve("who-goes-first", [3, 3])
    assert tie.headline == 0 and "tie" in tie.effects and tie.follow_up is not None
    assert odds("who-goes-first").effects["tie"] == Fraction(1, 6)


def test_movement_is_base_plus_d6() -> None:
    assert resolve("move", [4], kind="cavalry").headline == 16
    assert resolve("move", [1], kind="skirmishers").headline == 10


def test_deploying_guns_costs_four_inches() -> None:
    assert resolve("move", [3], kind="artillery", deploying_guns=True).headline == 5


def test_broken_ground_costs_four_inches_except_skirmishers_and_tribesmen() -> None:
    assert resolve("move", [3], kind="infantry", broken_ground=True).headline == 5
    assert resolve("move", [3], kind="tribesmen", broken_ground=True).headline == 12


def test_move_never_negative() -> None:
    assert (
        resolve("move", [1], kind="artillery", broken_ground=True, deploying_guns=True).headline
        == 0
    )


def test_within_6_inches_of_enemy_only_towards_or_straight_back() -> None:
    details = resolve("move", [2], near_enemy=True).details
    assert any("towards the enemy or straight back" in line for line in details)


def test_shaken_units_may_not_advance() -> None:
    assert any("may not advance" in line for line in resolve("move", [2], shaken=True).details)


def test_follow_me_allows_a_reroll() -> None:
    assert any("Follow Me!" in line for line in resolve("move", [2], follow_me=True).details)


def test_one_die_per_two_figures_front_rank_only() -> None:
    assert request("shoot", figures=8).dice_count == 4
    assert front_rank(8, 2) == 4
    assert request("shoot", figures=front_rank(8, 2)).dice_count == 2


def test_odd_figure_reading() -> None:
    assert dice_for_figures(7, 2, "round_down") == 3
    assert dice_for_figures(7, 2, "round_up") == 4
    assert request("shoot", figures=7, odd_figures="round_up").dice_count == 4


def test_rifles_hit_on_5_and_6() -> None:
    assert resolve("shoot", [6, 5, 4, 1], figures=8).headline == 2


def test_artillery_hits_on_4_5_6() -> None:
    assert resolve("shoot", [4, 3], weapon="artillery", figures=4).headline == 1


def test_superior_firepower_plus_one_a_die() -> None:
    assert resolve("shoot", [4, 4], figures=4, superior=True).headline == 2


def test_difficult_target_minus_one_a_die() -> None:
    assert resolve("shoot", [5, 6], figures=4, target_kind="cavalry").headline == 1
    assert resolve("shoot", [5, 6], figures=4, in_cover=True).headline == 1


def test_difficult_target_in_cover_counts_once_unless_the_option_says() -> None:
    assert (
        resolve("shoot", [6, 6], figures=4, target_kind="skirmishers", in_cover=True).headline == 2
    )
    stacked = resolve(
        "shoot", [6, 6], figures=4, target_kind="skirmishers", in_cover=True, difficult_stacks=True
    )
    assert stacked.headline == 0


def test_long_range_minus_one_a_die() -> None:
    assert resolve("shoot", [5, 6], figures=4, range="long").headline == 1


def test_natural_six_option() -> None:
    params = {
        "figures": 4,
        "range": "long",
        "target_kind": "cavalry",
        "in_cover": True,
        "difficult_stacks": True,
    }
    assert resolve("shoot", [6, 6], **params).headline == 0
    assert resolve("shoot", [6, 6], natural_six=True, **params).headline == 2


def test_steady_cancels_a_hit_on_5_or_6_and_hits_the_commander_on_1() -> None:
    assert resolve("steady", [5], hits_taken=2).headline == 1
    assert "commander_hit" in resolve("steady", [1], hits_taken=2).effects
    assert resolve("steady", [3], hits_taken=2).headline == 0
    assert odds("steady").effects == {
        "commander_hit": Fraction(1, 6),
        "hit_cancelled": Fraction(1, 3),
    }


def test_rally_a_die_per_casualty() -> None:
    out = resolve("rally", [6, 4, 1], casualties=3)
    assert out.headline == 1 and "removed" in out.effects
    assert any(
        "1 back in the ranks, 1 stays down to try again, 1 removed" in d for d in out.details
    )


def test_rally_modifiers() -> None:
    assert resolve("rally", [4, 2], casualties=2, quality="elite").headline == 1
    assert (
        "removed"
        not in resolve("rally", [2], casualties=1, quality="elite", leader_joined=True).effects
    )
    assert "removed" in resolve("rally", [3], casualties=1, quality="poor").effects


def test_charge_dice_by_troop_type() -> None:
    assert request("charge-dice", kind="infantry", figures=8).dice_count == 4
    assert request("charge-dice", kind="cavalry", figures=4).dice_count == 4
    assert request("charge-dice", kind="artillery", figures=3).dice_count == 3


def test_charge_modifiers() -> None:
    assert resolve("charge-dice", [4, 4], kind="infantry", figures=4, shock=True).headline == 2
    assert (
        resolve("charge-dice", [5, 6], kind="infantry", figures=4, enemy_in_cover=True).headline
        == 1
    )
    assert (
        resolve("charge-dice", [5, 6], kind="cavalry", figures=2, enemy_in_square=True).headline
        == 1
    )


def test_come_on_must_roll() -> None:
    assert "hit_cancelled" in resolve("come-on", [6], use="cancel").effects
    assert "hit_inflicted" in resolve("come-on", [5], use="inflict").effects
    assert "commander_hit" in resolve("come-on", [1]).effects
    assert resolve("come-on", [4]).headline == 0


@pytest.mark.parametrize(
    ("att_took", "def_took", "att_shaken", "def_shaken", "loser", "att_moves", "def_moves"),
    [
        (3, 1, False, False, "attacker", "retreats", "stands"),
        (1, 3, False, False, "defender", "stands", "retreats"),
        (2, 2, False, False, "", "falls_back", "stands"),
        (0, 0, False, False, "", "falls_back", "stands"),
        (3, 1, True, False, "attacker", "routs", "stands"),
        (1, 3, False, True, "defender", "stands", "routs"),
        (2, 2, True, True, "", "falls_back", "stands"),
    ],
)
def test_charge_result(
    att_took: int,
    def_took: int,
    att_shaken: bool,
    def_shaken: bool,
    loser: str,
    att_moves: str,
    def_moves: str,
) -> None:
    result = charge_result(att_took, def_took, att_shaken, def_shaken)
    assert (result.loser, result.attacker_moves, result.defender_moves) == (
        loser,
        att_moves,
        def_moves,
    )


def test_engineering_a_die_per_group_of_four() -> None:
    assert request("engineering", figures=11).dice_count == 2
    out = resolve("engineering", [3, 2], figures=8, points_so_far=1)
    assert out.headline == 5 and "task_done" in out.effects
    assert "task_done" not in resolve("engineering", [3, 2], figures=8).effects


def test_difficult_task_needs_an_engineer() -> None:
    with pytest.raises(RulesError, match="engineer"):
        request("engineering", figures=8, difficult=True)


def test_demolition_totals_all_charges() -> None:
    assert "breached" in resolve("demolition", [3, 3], charges=2).effects
    assert "breached" not in resolve("demolition", [6, 5], charges=2, target="large_bridge").effects
    assert "breached" in resolve("demolition", [6, 6], charges=2, target="large_bridge").effects
    assert (
        "breached" in resolve("demolition", [4, 5], charges=2, target="scenario", points=9).effects
    )


def test_wrong_dice_are_refused() -> None:
    with pytest.raises(RulesError, match="expected"):
        resolve("shoot", [5], figures=8)
    with pytest.raises(RulesError, match="reads 1-6"):
        resolve("move", [0])


@pytest.mark.parametrize(
    ("kind", "reminder"),
    [
        ("cavalry", "some broken ground is impassable to cavalry"),
        ("artillery", "some broken ground is impassable to guns and wagons"),
        ("wagons", "some broken ground is impassable to guns and wagons"),
        ("infantry", None),
        ("skirmishers", None),
    ],
)
def test_broken_ground_impassable_reminder(kind: str, reminder: str | None) -> None:
    details = resolve("move", [3], kind=kind, broken_ground=True).details
    assert (reminder in details) if reminder else not any("impassable" in d for d in details)


def test_road_column_reminder_and_no_broken_ground_penalty() -> None:
    out = resolve("move", [3], kind="infantry", broken_ground=True, road_column=True)
    assert out.headline == 9
    assert "road column two wide: off-road terrain ignored" in out.details


def test_counts_of_one_are_said_in_the_singular() -> None:
    shot = resolve("shoot", [6], figures=2)
    assert shot.details[0].startswith("2 figures firing rifle: 1 die, ")
    assert shot.details[-1] == "rolled 6: 1 hit"
    assert resolve("steady", [6], hits_taken=1).details == ("Steady! 6: the only hit cancelled",)
    assert resolve("steady", [6], hits_taken=3).details == ("Steady! 6: one of 3 hits cancelled",)
    assert request("rally", casualties=1).reason == "Rally 1 casualty, +0"



def test_the_charge_result_names_who_gives_ground() -> None:
    assert charge_result(3, 1, False, False, "Lancers", "Ghazis").lines == (
        "Lancers lose: they retreat a full move",
    )
    assert charge_result(1, 3, False, True, "Lancers", "Foot A Coy").lines == (
        "Foot A Coy loses: shaken, it routs",
    )
    assert charge_result(2, 2, False, False, "Tribal Horse", "Guides").lines == (
        "tied: Tribal Horse falls back half a move",
    )


def test_come_on_in_play_names_what_the_die_allows_before_the_choice() -> None:
    # The box asks cancel or inflict after a 5-6: the roll itself must not say which.
    assert resolve("come-on", [5], use="either").headline == 1
    assert not resolve("come-on", [5], use="either").effects
    hit = resolve("come-on", [1], use="either")
    assert hit.headline == 2 and "commander_hit" in hit.effects
    action = RULES.actions["come-on"]
    odds = action.odds(action.complete_params({"use": "either"}))
    assert odds.headline == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    assert odds.headline_label.startswith("Come On! (0 no effect, 1 cancel or inflict")
