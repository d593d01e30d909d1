"""One named test per rule of Tenir le Fort, through the stand-alone Actions."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from companion.rules.core import Odds, Outcome, RulesError
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.close_combat import ATTACKER_WINS, DEFENDER_WINS, TIE
from companion.ui.tunes import tunes_for
from companion.ui.wording import odds_line


def run(name: str, dice: Sequence[int], **params: int | bool | str) -> Outcome:
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), list(dice))


def dice_count(name: str, **params: int | bool | str) -> int:
    action = ACTIONS[name]
    return action.request(action.complete_params(params)).dice_count


def odds(name: str, **params: int | bool | str) -> Odds:
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


# ------------------------------------------------------------------ movement


def test_foot_moves_the_total_of_2d6() -> None:
    assert run("move", [3, 5], side="Arab").headline == 8


def test_mounted_moves_4d6() -> None:
    assert run("move", [1, 2, 3, 4], side="Arab", kind="mounted").headline == 10


def test_leader_adds_a_die_and_drops_the_lowest() -> None:
    assert run("move", [1, 4, 5], side="Arab", leader=True).headline == 9


def test_leaderless_ffl_drop_the_low_die() -> None:
    assert run("move", [2, 6], side="FFL", leader=False).headline == 6


def test_the_supply_train_is_no_squad_and_keeps_both_dice() -> None:
    assert run("move", [2, 6], side="FFL", leader=False, kind="supply").headline == 8


def test_ffl_carrying_wounded_or_dead_officer_lose_the_low_die() -> None:
    # sergeant's die dropped, then one more for the burden: keep the best of three
    assert run("move", [2, 3, 6], side="FFL", leader=True, carrying=True).headline == 6


def test_ffl_move_and_fire_moves_1d6() -> None:
    assert dice_count("move", side="FFL", mode="move_and_fire") == 1
    assert run("move", [4], side="FFL", mode="move_and_fire").headline == 4


def test_pinned_unit_recovers_and_moves_on_a_5_or_6() -> None:
    out = run("move", [5, 1], side="Arab", pinned=True)
    assert "recovered" in out.effects
    assert out.headline == 6


def test_pinned_unit_without_5_or_6_stays_put() -> None:
    out = run("move", [4, 4], side="Arab", pinned=True)
    assert out.headline == 0
    assert "pinned" in out.effects


def test_option_recovered_unit_does_not_move() -> None:
    out = run("move", [6, 1], side="Arab", pinned=True, recovered_moves=False)
    assert "recovered" in out.effects
    assert out.headline == 0


def test_charge_rolls_one_extra_die() -> None:
    assert dice_count("move", side="Arab", mode="charge") == 3


def test_charge_short_of_target_does_not_move_and_is_pinned() -> None:
    out = run("move", [1, 2, 3], side="Arab", mode="charge", distance=9)
    assert out.headline == 0
    assert {"fell_short", "pinned"} <= out.effects


def test_charge_reaching_target_makes_contact() -> None:
    out = run("move", [4, 4, 3], side="Arab", mode="charge", distance=9)
    assert "contact" in out.effects


def test_charging_arabs_go_berserk_on_any_6_and_make_contact() -> None:
    out = run("move", [6, 1, 1], side="Arab", mode="charge", distance=12)
    assert {"berserk", "contact"} <= out.effects


def test_charging_leaderless_ffl_go_berserk_on_a_6() -> None:
    out = run("move", [6, 1, 1], side="FFL", mode="charge", leader=False)
    assert "berserk" in out.effects


def test_led_ffl_charge_never_goes_berserk() -> None:
    out = run("move", [6, 6, 6, 6], side="FFL", mode="charge", leader=True)
    assert "berserk" not in out.effects


def test_berserk_units_roll_an_extra_die() -> None:
    assert dice_count("move", side="Arab", berserk=True) == 3


def test_french_leader_regains_control_of_berserk_unit_on_a_6() -> None:
    out = run("move", [6, 1, 1, 1], side="FFL", leader=True, berserk=True)
    assert "regained_control" in out.effects
    out = run("move", [5, 1, 1, 1], side="FFL", leader=True, berserk=True)
    assert "regained_control" not in out.effects


def test_counter_charge_checks_for_berserk() -> None:
    out = run("move", [6, 1], side="Arab", mode="counter_charge")
    assert "berserk" in out.effects


def test_option_counter_charge_die() -> None:
    plain = dice_count("move", mode="counter_charge")
    extra = dice_count("move", mode="counter_charge", counter_die=True)
    assert (plain, extra) == (2, 3)  # the option adds the charge's die


def test_leaderless_mixed_tribes_fall_to_infighting_on_2_or_3() -> None:
    out = run("move", [1, 2], side="Arab", mixed_tribes=True)
    assert {"in-fighting", "pinned"} <= out.effects
    assert out.follow_up is not None and out.follow_up.dice_count == 1
    assert "in-fighting" not in run("move", [2, 2], side="Arab", mixed_tribes=True).effects


def test_a_leader_prevents_infighting() -> None:
    out = run("move", [1, 1, 2], side="Arab", mixed_tribes=True, leader=True)
    assert "in-fighting" not in out.effects


def test_infighting_loses_1d6_figures() -> None:
    assert run("infighting-losses", [4], figures=12).headline == 4
    all_three = run("infighting-losses", [6], figures=3)
    assert all_three.headline == 3
    assert all_three.details == ("in-fighting: rolled 6, 3 figures lost of 3",)  # not "6 lost"


def test_maxim_moved_2d6_by_two_men_1d6_by_one() -> None:
    assert run("move-gun", [3, 4], gun="maxim", men=2).headline == 7
    assert run("move-gun", [3], gun="maxim", men=1).headline == 3


def test_artillery_needs_three_men_to_move_1d6() -> None:
    assert run("move-gun", [], gun="artillery", men=2).headline == 0
    assert run("move-gun", [5], gun="artillery", men=3).headline == 5


def test_gun_movers_get_the_leader_bonus_die() -> None:
    assert run("move-gun", [1, 5, 6], gun="maxim", men=2, leader=True).headline == 11


def test_fall_back_is_2d6_and_pinned() -> None:
    out = run("fall-back", [3, 4])
    assert out.headline == 7 and "pinned" in out.effects


def test_a_unit_with_a_mounted_leader_falls_back_unpinned() -> None:
    out = run("fall-back", [3, 4], unpinnable=True)
    assert out.headline == 7 and "pinned" not in out.effects
    assert "pinned" not in odds("fall-back", unpinnable=True).effects


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"side": "Arab", "mode": "move_and_fire"}, "mode"),
        ({"side": "Arab", "carrying": True}, "carrying"),
        ({"side": "FFL", "mixed_tribes": True}, "mixed_tribes"),
    ],
)
def test_movement_refuses_the_other_sides_modifiers(params: dict[str, object], named: str) -> None:
    action = ACTIONS["move"]
    with pytest.raises(RulesError, match=named):
        action.request(action.complete_params(params))  # type: ignore[arg-type]


# ------------------------------------------------------------------ fire


def test_arab_fire_one_die_per_front_row_figure() -> None:
    assert dice_count("arab-fire", figures=12) == 6
    assert dice_count("arab-fire", figures=4) == 4


def test_pinned_units_fire_at_half() -> None:
    assert dice_count("arab-fire", figures=12, pinned=True) == 3
    assert dice_count("ffl-fire", riflemen=6, pinned=True) == 3


def test_pinned_firers_recover_on_a_5_or_6() -> None:
    out = run("arab-fire", [5, 1, 1], figures=6, pinned=True)
    assert "recovered" in out.effects
    assert "recovered" not in run("arab-fire", [4, 1, 1], figures=6, pinned=True).effects


def test_two_sixes_pin_a_unit_in_the_open() -> None:
    assert "pinned" in run("arab-fire", [6, 6, 1], figures=3).effects
    assert "pinned" not in run("arab-fire", [6, 5, 1], figures=3).effects


def test_no_pin_in_cover() -> None:
    assert "pinned" not in run("arab-fire", [6, 6, 6], figures=3, cover="light").effects


def test_mounted_leader_units_cannot_be_pinned() -> None:
    out = run("ffl-fire", [6, 6, 6], riflemen=3, target_unpinnable=True)
    assert "pinned" not in out.effects


def test_ffl_stationary_one_die_per_rifleman_plus_officers() -> None:
    assert dice_count("ffl-fire", riflemen=6) == 6
    assert dice_count("ffl-fire", riflemen=6, sergeant=True) == 7
    assert dice_count("ffl-fire", riflemen=6, officers=1) == 8
    assert dice_count("ffl-fire", riflemen=6, sergeant=True, officers=2) == 11


def test_ffl_moving_one_die_per_two_riflemen_without_officer_bonus() -> None:
    assert dice_count("ffl-fire", riflemen=7, mode="moving", sergeant=True, officers=1) == 3


def test_wounded_riflemen_hit_only_on_6() -> None:
    out = run("ffl-fire", [4, 5], riflemen=2, wounded=1)
    assert out.headline == 1  # the healthy 4 hits, the wounded 5 does not


def test_wounded_cannot_exceed_riflemen() -> None:
    with pytest.raises(RulesError, match="wounded"):
        ACTIONS["ffl-fire"].request(
            ACTIONS["ffl-fire"].complete_params({"riflemen": 1, "wounded": 2})
        )


def test_pistols_fire_twice_within_6_inches() -> None:
    assert dice_count("ffl-fire", riflemen=5, pistols=1) == 7
    assert dice_count("arab-fire", figures=3, pistols=2) == 7


def test_heavy_cover_asks_for_saves() -> None:
    out = run("ffl-fire", [6, 6, 1], riflemen=3, cover="heavy")
    assert out.follow_up is not None and out.follow_up.dice_count == 2


def test_tower_fire_ignores_dunes() -> None:
    out = run("ffl-fire", [4, 5], riflemen=2, cover="light", from_tower=True)
    assert out.headline == 2


def test_tower_fire_ignores_rooftops_with_no_save() -> None:
    out = run("ffl-fire", [4, 5], riflemen=2, cover="rooftop", from_tower=True)
    assert out.headline == 2 and out.follow_up is None


def test_a_rooftop_seen_from_elsewhere_is_heavy_cover() -> None:
    out = run("ffl-fire", [4, 6], riflemen=2, cover="rooftop")
    assert out.headline == 1
    assert out.follow_up is not None and out.follow_up.dice_count == 1  # saved on 4-6


def test_a_wounded_leaders_pistol_hits_only_on_6() -> None:
    assert run("ffl-fire", [5, 4], riflemen=0, pistols=1).headline == 2
    assert run("ffl-fire", [5, 4], riflemen=0, pistols=1, pistols_wounded=1).headline == 0
    assert run("ffl-fire", [6, 4], riflemen=0, pistols=1, pistols_wounded=1).headline == 1


def test_halved_pistols_keep_the_unwounded_shots() -> None:
    out = run("ffl-fire", [4, 4], riflemen=0, pistols=2, pistols_wounded=1, pinned=True)
    assert out.headline == 2  # 4 pistol dice halved to the 2 of the unwounded hand


def test_wounded_leader_dice_hit_only_on_6() -> None:
    # 2 riflemen and the sergeant's die; the last die is the wounded sergeant's
    assert run("ffl-fire", [4, 4, 4], riflemen=2, sergeant=True).headline == 3
    out = run("ffl-fire", [4, 4, 4], riflemen=2, sergeant=True, wounded_leader_dice=1)
    assert out.headline == 2
    out = run("ffl-fire", [4, 4, 6], riflemen=2, sergeant=True, wounded_leader_dice=1)
    assert out.headline == 3


@pytest.mark.parametrize(
    "params",
    [
        {"riflemen": 2, "pistols": 1, "pistols_wounded": 2},
        {"riflemen": 2, "sergeant": True, "wounded_leader_dice": 2},
        {"riflemen": 2, "wounded_leader_dice": 1},
    ],
)
def test_wounded_pistols_and_leader_dice_cannot_exceed_their_dice(
    params: dict[str, int | bool | str],
) -> None:
    with pytest.raises(RulesError, match="more than"):
        ACTIONS["ffl-fire"].request(ACTIONS["ffl-fire"].complete_params(params))


def test_low_ammunition_fires_half_or_a_third() -> None:
    assert dice_count("ffl-fire", riflemen=6, ammo="half") == 3
    assert dice_count("ffl-fire", riflemen=6, ammo="third") == 2


def test_maxim_sixes_roll_again() -> None:
    out = run("maxim-fire", [6, 6, 6, 4, 2, 2, 3, 5], cover="none")
    assert out.headline == 5
    assert out.follow_up is not None and out.follow_up.dice_count == 3


def test_maxim_jams_on_three_ones_but_still_hits() -> None:
    out = run("maxim-fire", [1, 1, 1, 4, 4, 2, 2, 3])
    assert "jammed" in out.effects
    assert out.headline == 2


def test_two_ones_do_not_jam() -> None:
    assert "jammed" not in run("maxim-fire", [1, 1, 2, 2, 2, 2, 2, 2]).effects


def test_jammed_maxim_clears_on_a_5_or_6_without_hits() -> None:
    out = run("maxim-fire", [5, 2, 2, 2, 2, 2, 2, 2], jammed=True)
    assert "cleared" in out.effects and out.headline == 0


def test_option_clearing_roll_scores_its_hits() -> None:
    out = run("maxim-fire", [5, 4, 2, 2, 2, 2, 2, 2], jammed=True, clear_fires=True)
    assert "cleared" in out.effects and out.headline == 2


def test_jammed_maxim_breaks_on_three_ones_again() -> None:
    out = run("maxim-fire", [1, 1, 1, 6, 2, 2, 2, 2], jammed=True)
    assert "broken_for_good" in out.effects and out.headline == 0
    # "broken" is the morale-break cue of other systems: a broken gun must not sound like one
    assert not tunes_for(out.effects) & {"resolve_failed"}


def test_jammed_maxim_without_5_6_stays_jammed() -> None:
    assert "jammed" in run("maxim-fire", [1, 2, 3, 4, 4, 4, 4, 4], jammed=True).effects


def test_bonus_dice_never_jam() -> None:
    assert "jammed" not in run("maxim-fire", [1, 1, 1], bonus_dice=3).effects


def test_half_crew_lost_halves_the_dice() -> None:
    assert dice_count("maxim-fire", crew=2) == 8
    assert dice_count("maxim-fire", crew=1) == 4
    assert dice_count("artillery-fire", crew=3) == 8
    assert dice_count("artillery-fire", crew=2) == 4


def test_gun_without_crew_cannot_fire() -> None:
    assert dice_count("maxim-fire", crew=0) == 0


def test_no_heavy_weapon_ammunition_at_a_third() -> None:
    assert dice_count("maxim-fire", ammo="third") == 0
    assert dice_count("maxim-fire", ammo="half") == 4


def test_a_jammed_maxim_with_no_ammunition_rolls_nothing_and_says_why() -> None:
    # no dice: nothing to clear the jam or to break the gun, and the reason is the shells
    out = run("maxim-fire", [], ammo="third", jammed=True)
    assert out.headline == 0 and out.effects == frozenset()
    assert out.details[-1] == "no Maxim or artillery ammunition left"
    assert odds("maxim-fire", ammo="third", jammed=True).effects == {}


def test_wall_depression_stops_close_fire() -> None:
    assert dice_count("maxim-fire", too_close=True) == 0
    assert dice_count("artillery-fire", too_close=True) == 0


def test_artillery_hits_have_no_save() -> None:
    out = run("artillery-fire", [5, 5, 1, 1, 1, 1, 1, 1], cover="heavy")
    assert out.headline == 2
    assert "heavy cover" not in " ".join(out.details)


def test_snipers_hit_leaders_on_11_12() -> None:
    assert run("snipe-leader", [5, 6]).headline == 1
    assert run("snipe-leader", [5, 5]).headline == 0
    assert run("snipe-leader", [5, 5], hero=True).headline == 1


def test_a_sniper_hit_is_not_announced_as_a_kill() -> None:
    # the Captain or a Lieutenant hit rolls on Effect of hits: 4-6 leaves him unharmed
    assert run("snipe-leader", [5, 6]).effects == {"leader_hit"}
    assert "killed" not in odds("snipe-leader").effects


def test_an_unsaved_hit_is_not_announced_as_a_kill() -> None:
    # a legionnaire who is not saved still rolls on Effect of hits
    assert run("heavy-cover-save", [1, 5], hits=2).effects == {"not_saved"}
    assert "killed" not in odds("heavy-cover-save", hits=2).effects


def test_mounted_leader_among_casualties_on_11_12() -> None:
    assert run("leader-casualty", [6, 6]).headline == 1
    assert run("leader-casualty", [4, 6]).headline == 0


# ------------------------------------------------------------------ wounds


def test_wound_check_dead_wounded_unhurt() -> None:
    out = run("wound-check", [1, 2, 6], hits=3, figures=6)
    assert out.headline == 2  # casualties: one dead, one wounded
    assert {"killed", "wounded"} == out.effects
    assert out.headline_label == "casualties"
    assert out.details == ("1, 2, 6: 1 dead; 1 wounded",)


def test_wounded_again_is_dead() -> None:
    out = run("wound-check", [2, 3], hits=2, figures=2, already_wounded=2)
    assert out.headline == 2 and out.headline_label == "men dead"
    assert out.effects == {"killed"}


def test_hero_ignores_wounds_but_not_death() -> None:
    assert run("wound-check", [5, 2], hits=1, figures=3, hero_hit=True).headline == 0
    assert run("wound-check", [5, 1], hits=1, figures=3, hero_hit=True).headline == 1


# ------------------------------------------------------------------ close combat


def test_high_total_wins() -> None:
    assert run("close-combat", [5, 3]).headline == ATTACKER_WINS
    assert run("close-combat", [2, 3]).headline == DEFENDER_WINS


def test_ties_are_rolled_again() -> None:
    out = run("close-combat", [4, 4])
    assert out.headline == TIE and out.effects == frozenset()


def test_modifiers_change_the_winner() -> None:
    out = run("close-combat", [4, 3], defender_position="loophole")
    assert out.headline == DEFENDER_WINS


def test_arab_loser_killed_on_1_3_falls_back_on_4_6() -> None:
    assert run("close-combat", [6, 3], attacker_side="FFL").effects == {"loser_killed"}
    out = run("close-combat", [6, 4], attacker_side="FFL")
    assert out.effects == {"loser_falls_back", "loser_pinned"}


def test_ffl_loser_killed_on_1_wounded_on_2_3() -> None:
    assert run("close-combat", [6, 1]).effects == {"loser_killed"}
    assert run("close-combat", [6, 2]).effects == {
        "loser_wounded",
        "loser_pinned",
        "loser_falls_back",
    }
    assert run("close-combat", [6, 5]).effects == {"loser_falls_back", "loser_pinned"}


def test_close_combat_odds_name_the_winner_and_what_befalls_the_loser() -> None:
    # even modifiers: 15 of 36 pairs each side's win, 6 ties; an FFL loser (the
    # defender) dies on a 1, an Arab loser on 1-3
    o = odds("close-combat")
    assert o.headline == {
        TIE: Fraction(6, 36),
        ATTACKER_WINS: Fraction(15, 36),
        DEFENDER_WINS: Fraction(15, 36),
    }
    assert set(o.effects) == {
        "loser_falls_back",
        "loser_killed",
        "loser_pinned",
        "loser_wounded",
    }
    # killed, falls back and a tie cover every pair of dice once
    assert o.effects["loser_killed"] + o.effects["loser_falls_back"] + o.headline[TIE] == 1
    assert not {"killed", "pinned", "fell_back", "attacker_won", "defender_won", "tie"} & set(
        o.effects
    )


def test_the_close_combat_odds_line_reads_in_one_tense_and_says_whose_fate() -> None:
    line = odds_line(odds("close-combat"))
    assert line == (
        "attacker wins 42%, defender wins 42%, tie 17%, loser falls back 36%, loser killed 47%"
    )


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"attacker_leader": "captain"}, "attacker_leader"),
        ({"defender_leader": "mounted"}, "defender_leader"),
        ({"attacker_side": "FFL", "defender_leader": "sergeant"}, "defender_leader"),
        ({"attacker_wounded": True}, "attacker_wounded"),
        ({"attacker_side": "FFL", "defender_hero": True}, "defender_hero"),
        ({"attacker_side": "FFL", "defender_position": "loophole"}, "defender_position"),
    ],
)
def test_close_combat_refuses_a_modifier_of_the_other_side(
    params: dict[str, object], named: str
) -> None:
    action = ACTIONS["close-combat"]
    with pytest.raises(RulesError, match=named):
        action.odds(action.complete_params(params))  # type: ignore[arg-type]


def test_surrounded_arab_surrenders_instead_of_falling_back() -> None:
    out = run("close-combat", [6, 5], attacker_side="FFL", defender_surrounded=True)
    assert out.effects == {"loser_surrenders"}


def test_berserk_loser_is_killed() -> None:
    out = run("close-combat", [2, 6], attacker_berserk=True)
    assert out.headline == DEFENDER_WINS and out.effects == {"loser_killed"}


def test_wounded_legionnaire_wounded_again_dies() -> None:
    assert run("close-combat", [6, 3], defender_wounded=True).effects == {"loser_killed"}


def test_hero_in_close_combat_gets_2_and_ignores_wounds() -> None:
    out = run("close-combat", [4, 2], defender_hero=True)
    assert out.headline == TIE  # 4 against 2+2
    out = run("close-combat", [5, 2], defender_hero=True)
    assert out.effects == {"loser_falls_back", "loser_pinned"}


def test_option_result_from_total() -> None:
    # FFL defender loses with a die of 4 but a modified total of 3: wounded under "total"
    out = run("close-combat", [6, 4], defender_pinned=True, result_from="total")
    assert "loser_wounded" in out.effects


def test_gun_crew_fight_at_minus_one() -> None:
    assert run("close-combat", [3, 3], defender_gun_crew=True).headline == ATTACKER_WINS


# ------------------------------------------------------------------ resolve, relief, sabotage


def test_resolve_not_checked_below_25_casualties() -> None:
    assert dice_count("arab-resolve", casualties=24) == 0


def test_sentry_roll_is_secret_and_higher_sentry_spots() -> None:
    action = ACTIONS["sentry-roll"]
    assert action.request(action.complete_params({})).secret
    assert "spotted" in run("sentry-roll", [5, 3]).effects
    assert "success" in run("sentry-roll", [3, 5]).effects
    assert "tie" in run("sentry-roll", [4, 4]).effects
    assert "spotted" in run("sentry-roll", [4, 4], tie="sentry").effects


def test_dynamite_odd_result_breaks_a_ladder() -> None:
    assert "ladder_destroyed" in run("dynamite", [2, 3], ladder=True).effects
    assert "ladder_destroyed" not in run("dynamite", [2, 4], ladder=True).effects


def test_ladder_climb_wall_clear_puts_2d6_figures_up() -> None:
    assert run("ladder-climb", [4, 5], figures=12).headline == 9
    assert run("ladder-climb", [6, 6], figures=5).headline == 5


def test_next_attack_day_roll() -> None:
    assert run("next-attack-day", [5]).headline == 3
    assert run("next-attack-day", [5], rule="d6").headline == 5


def test_a_pinned_gun_crew_recovers_on_a_5_or_6() -> None:
    assert "recovered" in run("maxim-fire", [5, 1, 1, 2], pinned=True).effects
    assert "recovered" not in run("maxim-fire", [4, 1, 1, 2], pinned=True).effects
    assert "recovered" not in run("maxim-fire", [5], bonus_dice=1, pinned=True).effects


def test_a_pinned_gun_does_not_move_without_a_5_or_6() -> None:
    assert run("move-gun", [4, 4], gun="maxim", men=2, pinned=True).headline == 0
    assert run("move-gun", [5, 4], gun="maxim", men=2, pinned=True).headline == 9


def reason(name: str, **params: int | bool | str) -> str:
    action = ACTIONS[name]
    return action.request(action.complete_params(params)).reason


def test_counts_of_one_are_said_in_the_singular() -> None:
    assert reason("wound-check", hits=1) == "effect of 1 hit on legionnaires"
    assert reason("move-gun", gun="maxim", men=1) == "1 man moves the Maxim"
    assert reason("arab-resolve", casualties=1) == "1 Arab casualty: no resolve check"
    assert run("move", [1], side="FFL", mode="move_and_fire").details[-1] == "total 1 inch"
    assert run("ladder-advance", [1]).details == ("survivors move 1 inch",)
    assert run("command-points", [3], halved=True).details[-1].endswith(": 1 point")
