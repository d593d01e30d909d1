"""Scripted Tenir le Fort games through `advance`: each rule of the sequence of play in turn.

The whole two-attack game through the session and its journal is in test_tlf_session.py.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest
from tlfplay import RULES, Play, add_unit, at_first_chip, example, small, to_first_chip, unit_raw

from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameOver,
    Rolled,
    RulesError,
    ScenarioError,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.close_combat import ATTACKER_WINS, DEFENDER_WINS, TIE
from companion.rules.tenir_le_fort.state import GameState
from companion.ui.tunes import tunes_for

# ---------------------------------------------------------------- before the game


def test_days_of_preparation_set_the_day_of_the_first_attack() -> None:
    raw = small(max_preparation_days=3)
    p = Play(raw)
    assert p.options() == ["days:1", "days:2", "days:3"]
    p.choose("days:3")
    assert p.s.day == 4 and p.s.preparation_days == 3


def test_ffl_preparations_patrols_mines_and_standing_to() -> None:
    p = Play(small(ffl_mines=2, sentries=True))
    p.choose("days:1")
    assert p.options() == ["patrols", "mine", "stand_to", "done"]
    p.choose("mine", "mine")
    assert "mine" not in p.options() and p.s.mines == 2
    p.choose("patrols", "stand_to", "done")
    assert p.s.patrols and p.s.stand_to
    p.roll(1)
    p.choose("none", "none")
    assert p.s.alerted, "a garrison that stands to has no one off duty"


def test_the_relief_day_is_a_secret_roll() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    request = p.request()
    assert request.secret and request.dice_count == 1
    p.roll(2)
    assert p.s.reinforcement_day == 4
    assert p.said("noted in secret") and not p.said("day 4")


def relief(raw: dict[str, Any]) -> dict[str, Any]:
    add_unit(
        raw,
        name="Relief",
        side="FFL",
        kind="foot",
        figures=5,
        leader="Sgt R",
        chip="R",
        traits={"reinforcement": True},
    )
    return add_unit(
        raw,
        name="Lt",
        side="FFL",
        kind="leader",
        figures=1,
        chip="LT",
        traits={"rank": "lieutenant", "reinforcement": True, "attached_to": "Relief"},
    )


def late_band(raw: dict[str, Any]) -> dict[str, Any]:
    late = {"joins_on_day": 3}
    return add_unit(
        raw, name="Late Band", side="Arab", kind="foot", figures=8, chip="LB", traits=late
    )


def test_relief_showing_up_before_the_assault_lets_the_arabs_attack_at_once() -> None:
    p = Play(late_band(relief(small(max_preparation_days=3))))
    p.choose("days:3", "done")  # the attack is planned for day 4
    p.roll(6)  # the relief comes on day 2
    assert p.prompt() == "Relief sighted: attack?"
    p.choose("now")
    assert p.s.day == 2 and p.unit("Relief").present and p.unit("Lt").present
    p.choose("none", "none")
    assert not p.unit("Late Band").present, "a band that joins on day 3 is not there on day 2"


def test_waiting_for_the_planned_day_brings_every_band_and_the_relief_is_there() -> None:
    p = Play(late_band(relief(small(max_preparation_days=3))))
    p.choose("days:3", "done")
    p.roll(6)
    p.choose("wait", "none", "none")
    assert p.s.day == 4 and p.unit("Late Band").present and p.unit("Relief").present
    assert p.said("Joined the siege by day 4: Late Band.")


def test_relief_showing_up_between_the_attacks_lets_the_arabs_strike_at_once() -> None:
    p = Play(late_band(relief(small())))
    to_first_chip(p, relief_die=2)  # the first attack is on day 2, the relief due on day 4
    p.pass_all()
    p.choose("attack")
    p.roll(6)  # half a d6, rounded up: three days, day 5
    assert p.prompt() == "Relief sighted: attack?"
    p.choose("now")
    assert p.s.day == 4 and p.unit("Relief").present
    p.choose("none", "none")
    assert p.s.attack == 2 and p.unit("Late Band").present


# ---------------------------------------------------------------- night operations


def test_arab_saboteurs_blow_the_gate_phase_by_phase() -> None:
    p = Play(small())
    p.choose("days:1", "patrols", "done")
    p.roll(1)
    p.choose("unit:Band", "gate")
    p.choose("yes")  # a sentry can see the path from the desert to the wall
    params = dict(p.s.pending.params)  # type: ignore[union-attr]
    assert params["patrols"] and params["outside_fort"] and not params["previous_attempt"]
    p.roll(1, 6)  # sentry 1+1 patrols against 6+1 outside the fort: unseen
    p.choose("no")  # over the wall: no sentry within reach, no roll
    assert p.said("no sentry is close enough")
    p.choose("yes")
    p.roll(2, 3)  # wall to target: 2+1 against 3, a tie: roll again
    assert p.said("a tie, roll again")
    p.roll(2, 5)
    p.choose("yes")
    p.roll(1, 4)  # attack the target
    p.roll(3, 4)  # the charge: 7 points of damage
    assert p.s.gate_destroyed and p.said("The gate is destroyed!")
    assert p.s.arab_infiltrations == 1


def test_a_premature_blast_at_the_gate_kills_the_sapper_and_those_beside_him() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("unit:Band", "gate")
    p.choose("no", "no", "no", "no")  # no sentry near any step of the way
    figures = p.unit("Band").figures
    p.roll(1, 1)  # the charge goes off early
    assert p.prompt() == "Others within 1in?"
    assert p.options() == [f"n:{n}" for n in range(6)]  # the party of 6, less the sapper
    p.choose("n:2")
    assert p.said("The blast kills the sapper and 2 figures of the party.")
    assert p.unit("Band").figures == figures - 3 and not p.s.gate_damage


def test_arab_saboteurs_spotted_are_destroyed() -> None:
    p = Play(small())
    p.choose("days:1", "patrols", "done")
    p.roll(1)
    p.choose("unit:Band", "other", "yes")
    p.roll(2, 1)  # sentry 2+1 patrols against 1+1 outside: spotted
    assert p.prompt() == "Sentry spots them!", "the secret roll's result is announced"
    p.choose("ok")
    assert p.unit("Band").figures == 0
    over = p.over()
    assert over.winner == "FFL"


def test_ffl_sorties_get_no_sneaking_bonus_and_a_spotted_party_is_lost() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "unit:Legion", "yes")
    params = dict(p.s.pending.params)  # type: ignore[union-attr]
    assert params["sentry_side"] == "Arab"
    assert not params["outside_fort"] and not params["grappling_hooks"]
    p.roll(4, 3)  # the Arab sentry sees them going over the wall
    p.choose("ok")
    assert p.unit("Legion").figures == 0 and p.said("is destroyed")
    assert p.over().winner == "Arab"


def test_second_night_operation_gets_the_repeat_bonus() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("unit:Band", "other", "no", "no", "no", "no")
    assert p.said("The operation succeeds")
    p.choose("none")
    p.roll(4)
    p.roll(3)
    p.pass_all()
    p.choose("attack")
    p.roll(2)
    p.choose("unit:Band", "other", "yes")
    params = dict(p.s.pending.params)  # type: ignore[union-attr]
    assert params["previous_attempt"], "+2 to the sentry against a repeated infiltration"


# ---------------------------------------------------------------- the attack


def _to_the_second_attack(p: Play) -> None:
    """The first attack plays out with nobody acting; the second follows a day later with
    no night operations, ammunition and water on both sides, up to the FFL's command points."""
    p.pass_all()
    p.choose("attack")
    p.roll(1)  # half a d6, rounded up: one day later
    p.choose("none", "none")
    p.roll(3, 4)  # ammunition 7: no problems
    p.choose("yes", "yes")


def test_command_points_are_rolled_for_each_side_and_kept() -> None:
    p = Play(small())
    to_first_chip(p, cp=(4, 3))
    assert (p.s.cp_ffl, p.s.cp_arab) == (4, 3)
    _to_the_second_attack(p)
    p.roll(2)
    p.roll(2)
    assert (p.s.cp_ffl, p.s.cp_arab) == (6, 5), "unspent points carry over"


def _snipe_the_captain_dead(p: Play) -> None:
    p.chip("A")
    p.choose("fire", "target:Capt")
    p.roll(6, 6)  # the sniper hits the Captain
    p.roll(1)  # effect of hits: dead


def test_losing_the_captain_halves_the_next_command_points() -> None:
    raw = add_unit(
        small(),
        name="Lt",
        side="FFL",
        kind="leader",
        figures=1,
        chip="LT",
        traits={"rank": "lieutenant"},
    )
    p = Play(raw)
    to_first_chip(p)
    _snipe_the_captain_dead(p)
    assert p.s.ffl_lost_captain and "C" not in p.s.bag.in_play
    _to_the_second_attack(p)
    assert "halved" in p.request().reason
    p.roll(5)
    assert p.s.cp_ffl == 4 + 2


@pytest.mark.parametrize(("reading", "ffl_points"), [("halved", 4 + 2), ("none", 4)])
def test_with_no_officer_left_the_sergeants_keep_halved_command_by_option(
    reading: str, ffl_points: int
) -> None:
    raw = small()
    raw["options"] = {"ffl_command_without_officer": reading}
    p = Play(raw)
    to_first_chip(p)
    _snipe_the_captain_dead(p)
    _to_the_second_attack(p)
    if reading == "halved":
        assert "FFL command points (halved" in p.request().reason
        p.roll(5)
    assert p.s.cp_ffl == ffl_points  # 4 carried over from the first attack


def test_the_chip_bag_turn_ends_when_empty_and_refuses_a_second_draw() -> None:
    p = Play(small(turn_limit=2))
    to_first_chip(p)
    step = p.step()
    assert isinstance(step, AwaitChip) and sorted(step.in_bag) == ["A", "C", "L", "S"]
    p.chip("L")
    p.choose("pass")
    with pytest.raises(RulesError, match="already drawn"):
        RULES.advance(p.state, ChipDrawn("L"))
    p.pass_all()
    assert p.said("End of turn 1") and p.s.turn == 2
    assert sorted(p.s.bag.in_bag) == ["A", "C", "L", "S"]


def test_a_destroyed_units_chip_leaves_the_bag() -> None:
    p = Play(small(turn_limit=2))
    to_first_chip(p)
    p.set_unit("Band", figures=1)
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 1, 1, 1, 1)
    assert p.said("Band is destroyed.") and "A" not in p.s.bag.in_play


@pytest.mark.parametrize("left_out", [False, True], ids=["turn_limit 0", "turn_limit left out"])
def test_no_turn_limit_plays_on_until_resolve_fails(left_out: bool) -> None:
    raw = small(turn_limit=0)
    if left_out:  # the rules have no nightfall: only a scenario sets one
        del raw["setup"]["turn_limit"]
    unit_raw(raw, "Band")["figures"] = 40
    p = Play(raw)
    to_first_chip(p)
    for _ in range(4):
        p.pass_all()
    assert p.s.turn == 5 and p.s.attack == 1


def test_arab_resolve_checked_at_end_of_turn_with_command_points() -> None:
    raw = small(turn_limit=2)
    unit_raw(raw, "Band")["figures"] = 40
    p = Play(raw)
    to_first_chip(p, cp=(4, 3))
    p.state = p.s.__class__(**{**p.s.__dict__, "casualties": 41})
    p.pass_all()
    assert p.prompt() == "Arabs inside fort?"
    p.choose("no", "yes")
    assert p.options() == ["cp:0", "cp:1", "cp:2", "cp:3"]
    p.choose("cp:1")
    assert p.s.cp_arab == 3 - t.COMMAND_POINT_COSTS[("Arab", "resolve")]
    p.roll(1)  # 1 + 1 oasis + 1 CP = 3: needs 3 at 40-49, stays
    assert p.said("the attack goes on") and p.s.turn == 2


def test_resolve_failure_ends_the_attack_and_the_arabs_may_withdraw() -> None:
    raw = small()
    unit_raw(raw, "Band")["figures"] = 40
    p = Play(raw)
    to_first_chip(p)
    p.state = p.s.__class__(**{**p.s.__dict__, "casualties": 70})
    p.pass_all()
    p.choose("no", "no", "cp:0")
    p.roll(5)
    assert "resolve_failed" in p.cues
    assert p.prompt() == "Arabs attack again?"
    p.choose("withdraw")
    assert p.over().winner == "FFL"


def test_no_resolve_command_points_when_every_sheikh_is_attached() -> None:
    raw = small()
    unit_raw(raw, "Band")["figures"] = 40
    unit_raw(raw, "Sheikh")["traits"]["attached_to"] = "Band"
    p = Play(raw)
    to_first_chip(p)
    p.state = p.s.__class__(**{**p.s.__dict__, "casualties": 30})
    p.pass_all()
    p.choose("no", "no")
    assert isinstance(p.step(), AwaitRoll), "no leader stands alone: no points to spend"


def test_second_attack_rolls_ammunition_and_asks_for_water() -> None:
    p = at_first_chip()
    p.pass_all()
    assert p.said("Turn limit (1) reached")
    p.choose("attack")
    p.roll(6)  # half of 6: three days later
    assert p.s.day == 5
    p.choose("none", "none")
    p.roll(6, 6)  # ammunition 12: a third, no gun ammunition
    assert p.s.ammo == "third"
    p.choose("no", "yes")  # the FFL have no water, the Arabs do
    assert p.s.ffl_low_water and not p.s.arab_low_water
    p.roll(2)
    p.roll(2)
    assert p.said("=== Attack 2, day 5 ===")
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    assert p.request().dice_count == 1  # (4 riflemen + 1 sergeant) // 3


def test_the_second_attack_is_the_last() -> None:
    p = at_first_chip()
    _to_the_second_attack(p)
    p.roll(1)
    p.roll(1)
    p.pass_all()
    over = p.over()
    assert over.winner == "FFL" and "last attack" in over.summary[0]


# ---------------------------------------------------------------- leaders' chits


def test_captain_gives_an_extra_turn_and_makes_a_hero_at_chart_cost() -> None:
    p = at_first_chip()
    p.chip("C")
    keys = p.options()
    assert "extra_turn" in keys and "hero" in keys and keys[-1] == "done"
    p.choose("hero", "unit:Legion")
    assert p.unit("Legion").heroes == 1
    assert p.s.cp_ffl == 4 - t.COMMAND_POINT_COSTS[("FFL", "hero")]
    assert "hero" not in p.options(), "one hero at a time"
    p.choose("extra_turn", "unit:Legion", "pass")
    assert p.s.cp_ffl == 4 - 2 - t.COMMAND_POINT_COSTS[("FFL", "extra_turn")]
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.about == "Capt"
    p.choose("done")
    assert isinstance(p.step(), AwaitChip)


@pytest.mark.parametrize(("max_heroes", "second"), [(1, False), (2, True)])
def test_heroes_at_a_time_follow_the_option(max_heroes: int, second: bool) -> None:
    raw = small(turn_limit=2)
    raw["options"] = {"max_heroes": max_heroes}
    p = Play(raw)
    to_first_chip(p, cp=(6, 3))
    p.chip("C")
    p.choose("hero", "unit:Legion", "done")
    p.pass_all()
    p.chip("C")
    assert ("hero" in p.options()) is second


def test_an_attached_captain_adds_his_dice_and_pistol_and_spends_no_points() -> None:
    p = at_first_chip()
    p.chip("C")
    p.choose("attach", "unit:Legion")
    keys = p.options()
    assert "extra_turn" not in keys and "hero" not in keys, "no leader stands alone"
    assert "leave" not in keys, "one join or leave per chit"
    p.choose("done")
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "near")
    # 4 riflemen + sergeant 1d6 + captain 2d6, then two pistols firing twice
    assert p.request().dice_count == 4 + 1 + 2 + 2 * 2


@pytest.mark.parametrize(
    ("option", "groups", "hits"),
    [
        # his extra die is the squad's; only his own pistol suffers the wound
        ("full", [("FFL rifles", 5), ("wounded pistols", 2)], 5),
        ("six", [("FFL rifles", 4), ("wounded riflemen", 1), ("wounded pistols", 2)], 4),
    ],
)
def test_a_wounded_sergeants_pistol_hits_on_6_and_his_die_by_option(
    option: str, groups: list[tuple[str, int]], hits: int
) -> None:
    raw = small()
    raw["options"] = {"wounded_leader_bonus": option}
    p = Play(raw)
    to_first_chip(p)
    p.set_unit("Legion", leader_wounded=True)
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "near")
    assert [(g.label, g.count) for g in p.request().groups] == groups
    p.roll(4, 4, 4, 4, 4, 5, 5)
    assert p.said(f"Legion fires at Band: {hits} hits.")


def test_an_attached_wounded_captain_fires_his_dice_and_pistol_on_6() -> None:
    raw = small()
    raw["options"] = {"wounded_leader_bonus": "six"}
    p = Play(raw)
    to_first_chip(p)
    p.chip("C")
    p.choose("attach", "unit:Legion", "done")
    p.set_unit("Capt", wounded=1)
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "near")
    assert [(g.label, g.count) for g in p.request().groups] == [
        ("FFL rifles", 5),  # 4 riflemen and the healthy sergeant's die
        ("wounded riflemen", 2),  # the wounded Captain's 2d6
        ("pistols", 2),  # the sergeant's
        ("wounded pistols", 2),  # the Captain's
    ]


def _berserk_squad() -> Play:
    """A leaderless squad of 3 (chip Q) gone berserk, at the first chip."""
    raw = small()
    add_unit(raw, name="Squad", side="FFL", kind="foot", figures=3, chip="Q")
    p = Play(raw)
    to_first_chip(p)
    p.set_unit("Squad", berserk=True)
    return p


def test_berserk_squad_regains_control_once_a_leader_is_with_it() -> None:
    p = _berserk_squad()
    p.chip("C")
    p.choose("attach", "unit:Squad", "done")
    p.chip("Q")
    assert p.options() == ["charge", "pass"]
    p.choose("charge", "target:Band")
    assert p.request().dice_count == 2 + 1 + 1 + 1  # foot, leader, charge, berserk
    p.roll(6, 1, 1, 1, 1)
    assert not p.unit("Squad").berserk and p.said("back under control")


def test_berserk_ends_when_no_enemy_is_in_sight() -> None:
    p = _berserk_squad()
    p.chip("Q")
    assert p.options() == ["charge", "pass"]
    p.choose("pass")
    assert p.said("Squad sees no enemy: the berserk fury passes.")
    assert not p.unit("Squad").berserk


def test_men_sent_up_the_tower_arrive_after_their_units_next_activation() -> None:
    raw = small()
    raw["setup"]["tower"] = True
    p = Play(raw)
    to_first_chip(p)
    p.chip("C")
    p.choose("tower", "unit:Legion", "done")
    assert p.s.cp_ffl == 4 - t.COMMAND_POINT_COSTS[("FFL", "tower")]
    assert p.unit("Tower").figures == 0
    p.chip("L")
    p.choose("pass")
    assert p.unit("Tower").figures == 2 and p.unit("Legion").figures == 2
    assert p.said("reach the top of the tower")


def _example_deployed(tower_men: int) -> Play:
    """The example game set up for one day with `tower_men` up the tower, before the
    first chip of the attack."""
    p = Play(example())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "none", f"tower:{tower_men}")
    p.roll(4)
    p.roll(3)
    return p


def _tower_manned_first_band_drawn() -> Play:
    """The example game with two men up the tower, at the first Arab band's chip."""
    p = _example_deployed(tower_men=2)
    p.chip("A1")
    return p


def test_men_come_down_from_the_tower_for_a_command_point() -> None:
    p = _tower_manned_first_band_drawn()
    p.choose("fire", "target:Legion 1", "cover:heavy")  # the shooting wakes the garrison
    p.roll(1, 1, 1, 1, 1, 1)
    p.chip("CPT")
    p.roll(1)  # the secret relief roll
    p.choose("tower_down", "unit:Legion 3")
    assert p.unit("Tower").figures == 0 and p.unit("Legion 3").figures == 8
    assert p.s.cp_ffl == 3


def _tower_firing_at_the_band(cover: str) -> Play:
    """The band has fired and missed; on the Captain's chit the tower aims at it."""
    p = _tower_manned_first_band_drawn()
    p.choose("fire", "target:Legion 1", "cover:heavy")
    p.roll(1, 1, 1, 1, 1, 1)
    p.chip("CPT")
    p.roll(1)
    p.choose("tower_fire", "target:Riffian Band", f"cover:{cover}")
    return p


def test_the_tower_fires_on_the_captains_chit_and_ignores_dunes() -> None:
    p = _tower_firing_at_the_band("light")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 2
    p.roll(4, 5)
    assert p.said("Tower fires at Riffian Band: 2 hits.")


def test_one_hit_and_one_casualty_are_said_in_the_singular() -> None:
    p = _tower_firing_at_the_band("heavy")
    p.roll(*[6] + [1] * (p.request().dice_count - 1))
    assert "Tower fires at Riffian Band: 1 hit." in p.log
    p.roll(1)  # the heavy-cover save fails
    assert "Heavy cover: 0 saved, 1 casualty." in p.log


def test_the_tower_sees_onto_rooftops_no_cover_no_save() -> None:
    p = _tower_manned_first_band_drawn()
    p.choose("fire", "target:Legion 1")
    assert "cover:rooftop" not in p.options(), "only the tower looks down onto the roofs"
    p.choose("cover:heavy")
    p.roll(1, 1, 1, 1, 1, 1)
    p.chip("CPT")
    p.roll(1)
    before = p.unit("Riffian Band").figures
    p.choose("tower_fire", "target:Riffian Band")
    assert p.options() == ["cover:none", "cover:light", "cover:rooftop", "cover:heavy"]
    p.choose("cover:rooftop")
    p.roll(4, 5)
    assert p.said("Tower fires at Riffian Band: 2 hits.")
    assert not p.said("Heavy cover:"), "no save for a man on a roof"
    assert p.unit("Riffian Band").figures == before - 2


def test_unmanned_maxim_is_recrewed_then_crewed_by_the_arabs_from_a_band() -> None:
    raw = small()
    add_unit(
        raw, name="MG", side="FFL", kind="maxim", figures=3, chip="M", traits={"on_wall": True}
    )
    p = Play(raw)
    to_first_chip(p)
    p.set_unit("MG", figures=0)
    p.chip("C")
    p.choose("recrew", "unit:MG", "unit:Legion")
    assert p.unit("MG").figures == 3 and p.unit("Legion").figures == 1
    assert p.s.cp_ffl == 4 - t.COMMAND_POINT_COSTS[("FFL", "recrew")]
    p.choose("done")
    p.set_unit("MG", figures=0)
    p.chip("S")
    p.choose("crew_mg", "unit:Band")
    mg = p.unit("MG")
    assert mg.side == "Arab" and mg.figures == 3 and p.unit("Band").figures == 3
    assert p.s.cp_arab == 3 - t.COMMAND_POINT_COSTS[("Arab", "crew_captured_mg")]


def _with_an_unmanned_gun(raw: dict[str, Any]) -> Play:
    """The scenario with an FFL gun whose crew are all down, at the first chip."""
    add_unit(raw, name="Gun", side="FFL", kind="artillery", figures=5, chip="G")
    p = Play(raw)
    to_first_chip(p)
    p.set_unit("Gun", figures=0)
    return p


def test_a_hero_mans_an_unmanned_gun_without_command_points() -> None:
    p = _with_an_unmanned_gun(small())
    p.set_unit("Legion", heroes=1)
    p.chip("L")
    p.choose("hero_gun", "unit:Gun")
    gun = p.unit("Gun")
    assert gun.figures == 1 and gun.heroes == 1 and p.s.cp_ffl == 4
    assert p.unit("Legion").figures == 3 and p.unit("Legion").heroes == 0


def test_a_hero_cannot_leave_his_sergeant_without_men() -> None:
    p = _with_an_unmanned_gun(small())
    p.set_unit("Legion", figures=1, heroes=1)
    p.chip("L")
    assert "hero_gun" not in p.options()
    p.choose("pass")
    legion = p.unit("Legion")
    assert legion.alive and legion.leader == "Sgt" and not p.said("falls")


def test_a_hero_leaves_his_sergeant_with_the_last_man() -> None:
    p = _with_an_unmanned_gun(small())
    p.set_unit("Legion", figures=2, heroes=1)
    p.chip("L")
    p.choose("hero_gun", "unit:Gun")
    legion = p.unit("Legion")
    assert legion.figures == 1 and legion.leader == "Sgt" and "L" in p.s.bag.in_play
    assert p.unit("Gun").heroes == 1 and not p.said("falls")


def test_men_sent_up_the_tower_leave_one_man_with_their_sergeant() -> None:
    p = _example_deployed(tower_men=0)
    p.state = replace(p.s, alerted=True)
    p.chip("CPT")
    p.roll(1)
    p.choose("tower", "unit:Legion 2", "done")
    p.set_unit("Legion 2", figures=2)  # losses before the climb ends
    p.chip("L2")
    p.choose("pass")
    legion = p.unit("Legion 2")
    assert p.unit("Tower").figures == 1
    assert legion.figures == 1 and legion.leader == "Sgt Lejeune" and "L2" in p.s.bag.in_play


def test_a_lone_hero_without_a_sergeant_may_empty_his_squad_for_a_gun() -> None:
    raw = small()
    add_unit(raw, name="Squad", side="FFL", kind="foot", figures=3, chip="Q")
    p = _with_an_unmanned_gun(raw)
    p.set_unit("Squad", figures=1, heroes=1)
    p.chip("Q")
    p.choose("hero_gun", "unit:Gun")
    assert p.unit("Gun").figures == 1 and p.unit("Gun").heroes == 1
    assert not p.unit("Squad").alive and not p.said("falls")


def test_arab_unpin_costs_a_point_after_a_failed_recovery_roll() -> None:
    p = at_first_chip()
    p.set_unit("Band", pinned=True)
    p.chip("A")
    p.choose("move")
    p.roll(1, 4)
    assert p.prompt() == "Spend 1 CP: unpin?"
    p.choose("yes")
    assert not p.unit("Band").pinned and p.s.cp_arab == 2


def test_failed_recovery_on_a_fire_roll_also_offers_the_unpin() -> None:
    p = at_first_chip()
    p.set_unit("Band", pinned=True)
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:heavy")
    p.roll(1, 2, 3)
    assert p.prompt() == "Spend 1 CP: unpin?"


def test_relief_arrives_on_the_leader_chit_on_its_day() -> None:
    p = Play(relief(small()))
    to_first_chip(p, relief_die=6)  # relief on day 2, the day of the attack
    assert not p.unit("Relief").present
    p.chip("C")
    assert p.request().secret
    p.roll(5)
    assert not p.unit("Relief").present and p.prompt() == "Relief column here!"
    p.choose("ok")
    assert p.unit("Relief").present and "R" in p.s.bag.in_bag and "LT" in p.s.bag.in_bag
    assert p.unit("Lt").attached_to == "Relief"


def test_relief_roll_on_the_wrong_day_gives_nothing_away() -> None:
    p = Play(relief(small()))
    to_first_chip(p, relief_die=1)  # relief on day 5
    p.chip("C")
    p.roll(6)
    assert not p.unit("Relief").present
    assert p.said("No sign of the relief column.")


def test_the_supply_train_in_the_fort_ends_the_ammunition_rolls() -> None:
    raw = small()
    add_unit(
        raw,
        name="Train",
        side="FFL",
        kind="supply",
        figures=2,
        chip="T",
        traits={"reinforcement": True},
    )
    p = Play(raw)
    to_first_chip(p, relief_die=6)  # relief on day 2: the attack day
    p.chip("C")
    p.roll(6)  # the secret relief roll: here they come
    p.choose("ok", "done")
    p.chip("T")
    p.choose("fort")
    assert p.s.supply_through and "T" not in p.s.bag.in_play
    status = RULES.describe(p.s)
    assert "Supply train inside the fort: no more ammunition rolls" in status
    assert "Relief column: not here yet" not in status  # the train came; nothing is awaited
    p.pass_all()
    p.choose("attack")
    p.roll(1)
    p.choose("none", "none")
    assert p.prompt() == "FFL have water?", "no ammunition roll"


def test_mine_collapses_a_building_and_everyone_in_it() -> None:
    p = Play(small(ffl_mines=1))
    to_first_chip(p, preparations=("mine",))
    p.chip("C")
    p.choose("mine", "target:Band", "yes")
    p.roll(3, 4)
    assert p.said("The building collapses on Band")
    assert p.over().winner == "FFL"


def test_a_mine_in_the_open_hits_and_breaks_a_ladder_on_odd() -> None:
    raw = small(ffl_mines=1)
    unit_raw(raw, "Band")["traits"] = {"ladder": "ladder"}
    p = Play(raw)
    to_first_chip(p, preparations=("mine",))
    p.chip("C")
    p.choose("mine", "target:Band", "no")
    p.roll(1, 2)
    assert p.unit("Band").figures == 3 and p.unit("Band").ladder == ""


# ---------------------------------------------------------------- fire


def test_a_volley_pins_and_kills_arabs() -> None:
    p = at_first_chip()
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    assert p.request().dice_count == 5
    p.roll(6, 6, 4, 1, 2)
    band = p.unit("Band")
    assert band.figures == 3 and band.pinned and p.s.casualties == 3
    assert "pin" in p.cues


def test_heavy_cover_saves_and_wounds_on_legionnaires() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:heavy")
    p.roll(6, 6, 6, 1, 1, 1)
    p.roll(1, 2, 5)  # one saved
    p.choose("no")  # the sergeant is not among the two hit
    p.roll(1, 3)  # one dead, one wounded
    legion = p.unit("Legion")
    assert legion.figures == 3 and legion.wounded == 1


def test_a_sergeant_among_the_hit_dies_and_is_carried() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:none")
    p.roll(5, 1, 1, 1, 1, 1)
    assert p.prompt() == "Is Sgt hit?"
    p.choose("yes")
    p.roll(1)
    legion = p.unit("Legion")
    assert legion.leader == "" and legion.carrying_dead and legion.figures == 4
    assert p.said("carries the body")
    p.chip("L")
    assert "move_fire" not in p.options()
    p.choose("move")
    # leaderless and carrying: 2d6, each burden drops a die, one is always kept
    assert p.request().dice_count == 2


def test_a_wounded_sergeant_wounded_again_dies() -> None:
    p = at_first_chip()
    p.set_unit("Legion", leader_wounded=True)
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:none")
    p.roll(5, 1, 1, 1, 1, 1)
    p.choose("yes")
    p.roll(2)
    assert p.unit("Legion").leader == ""


def test_more_hits_than_men_fall_on_the_sergeant_without_asking() -> None:
    p = at_first_chip()
    p.set_unit("Legion", figures=1)
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:none")
    p.roll(5, 6, 1, 1, 1, 1)
    assert p.said("Sgt is among the hit.")
    assert isinstance(p.step(), AwaitRoll)


def test_sniping_the_sheikh_standing_alone_halves_his_sides_points() -> None:
    p = at_first_chip()
    p.chip("L")
    p.choose("fire", "target:Sheikh")
    p.roll(6, 5)
    assert p.s.arab_lost_leader and "S" not in p.s.bag.in_play
    assert p.s.casualties == 1


def test_sniped_captain_rolls_on_effect_of_hits() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("fire", "target:Capt")
    p.roll(6, 5)
    p.roll(2)  # wounded, not dead
    assert p.unit("Capt").alive and p.unit("Capt").wounded == 1
    assert not p.s.ffl_lost_captain


def _band_led_by_a_mounted_leader() -> Play:
    """The Band with a mounted leader of its own, Sheikh Omar, at the first chip."""
    raw = small()
    unit_raw(raw, "Band").update(leader="Sheikh Omar", traits={"rank": "mounted"})
    return at_first_chip(raw)


def _band_with_its_sheikh() -> Play:
    """The Band with the Sheikh's command figure attached, at the first chip."""
    raw = small()
    unit_raw(raw, "Sheikh")["traits"]["attached_to"] = "Band"
    return at_first_chip(raw)


@pytest.mark.parametrize(("weapons", "pistol_dice"), [(["pistol"], 2), ([], 0)])
def test_an_attached_sheikh_fires_the_pistol_he_carries(
    weapons: list[str], pistol_dice: int
) -> None:
    raw = small()
    unit_raw(raw, "Sheikh")["traits"]["attached_to"] = "Band"
    unit_raw(raw, "Sheikh")["weapons"] = weapons
    p = at_first_chip(raw)
    p.chip("A")
    p.choose("fire", "target:Legion", "cover:none")
    if pistol_dice:
        assert p.prompt() == "Within 6 inches?"
        p.choose("near")
    assert sum(g.count for g in p.request().groups if "pistol" in g.label) == pistol_dice


def test_volley_then_sniping_the_attached_mounted_leader() -> None:
    p = _band_led_by_a_mounted_leader()
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 6, 1, 1, 1)  # two hits; two 6s, but a mounted leader's unit is never pinned
    assert not p.unit("Band").pinned
    p.roll(1, 2)  # the sheikh is not among the casualties
    assert p.options() == ["no", "leader:Sheikh Omar"]
    p.choose("leader:Sheikh Omar")
    p.roll(6, 5)
    band = p.unit("Band")
    assert band.leader == "" and p.s.arab_lost_leader
    assert band.figures == 4 and p.s.casualties == 3


def test_a_mounted_leader_among_the_casualties_is_one_of_them() -> None:
    p = _band_led_by_a_mounted_leader()
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 4, 4, 1, 1)  # three hits
    p.roll(5, 6)  # 11: the sheikh is one of the three
    assert p.unit("Band").figures == 4 and p.unit("Band").leader == ""
    assert p.s.casualties == 3 and p.s.arab_lost_leader


def test_more_casualties_than_tribesmen_take_the_mounted_leader_too() -> None:
    p = _band_with_its_sheikh()
    p.set_unit("Band", figures=2)
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 4, 4, 1, 1)
    assert not p.unit("Sheikh").alive and p.s.casualties == 3
    assert p.s.arab_lost_leader


def test_maxim_on_the_wall_cannot_fire_within_6_inches() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none")
    assert p.prompt() == "Target within 6in?"
    p.choose("near")
    assert p.said("cannot depress")
    assert isinstance(p.step(), AwaitChip)


@pytest.mark.parametrize(("option", "inches"), [(12, 12), (6, 6)])
def test_gun_on_the_wall_follows_the_depression_option(option: int, inches: int) -> None:
    raw = small()
    raw["options"] = {"artillery_wall_range": option}
    add_unit(
        raw, name="Gun", side="FFL", kind="artillery", figures=5, chip="G", traits={"on_wall": True}
    )
    p = Play(raw)
    to_first_chip(p)
    p.chip("G")
    p.choose("fire", "target:Band", "cover:none")
    assert p.prompt() == f"Target within {inches}in?"


def with_maxim(**setup: Any) -> dict[str, Any]:
    return add_unit(
        small(**setup),
        name="MG",
        side="FFL",
        kind="maxim",
        figures=3,
        chip="M",
        traits={"on_wall": True},
    )


def test_maxim_rolls_again_for_sixes_then_the_gun_never_pins_an_unpinnable() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 6, 6, 4, 1, 2, 3, 3)
    assert p.request().dice_count == 3
    p.roll(6, 2, 2)
    assert p.request().dice_count == 1
    p.roll(1)
    assert p.unit("Band").figures == 6 - 5 and p.unit("Band").pinned


def test_a_guns_volley_is_said_before_what_it_does() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 6, 1, 1, 1, 2, 3, 3)  # two 6s pin the Band, three 1s jam the gun
    fired = p.log.index("The MG fires at Band: 2 hits.")
    assert p.log[fired + 1 : fired + 3] == ["The MG jams!", "Band is pinned."]


def test_guns_fire_on_leader_chits_but_move_only_on_their_own() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.chip("C")
    assert "gun:MG" in p.options()
    p.choose("gun:MG")
    assert p.prompt() == "MG fires at?", "a leader's chit lets the gun fire, never move"
    p.choose("target:Band", "cover:none", "far")
    p.roll(1, 2, 2, 2, 3, 3, 3, 3)
    p.choose("done")
    p.chip("M")
    assert p.options() == ["fire", "move", "pass"]


def test_jammed_maxim_spends_its_next_activation_clearing() -> None:
    p = Play(with_maxim(turn_limit=2))
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(1, 1, 1, 2, 2, 2, 3, 3)
    assert p.unit("MG").jammed and "jam" in p.cues
    p.pass_all()
    p.chip("M")
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.options[0].label == "Clear the jam"
    p.choose("fire")
    p.roll(5, 2, 2, 2, 2, 2, 2, 2)
    assert not p.unit("MG").jammed and p.said("jam is cleared")


def test_jammed_maxim_breaks_on_three_ones_again() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.set_unit("MG", jammed=True)
    p.chip("M")
    p.choose("fire")
    p.roll(1, 1, 1, 5, 2, 2, 2, 2)
    assert p.unit("MG").broken and p.said("broken for good")


def _labels(p: Play) -> list[str]:
    step = p.step()
    assert isinstance(step, AwaitChoice), f"expected a choice, got {step}"
    return [o.label for o in step.options]


def _guns_at(ammo: str) -> Play:
    """The Maxim (jammed) and the artillery piece at the first chip, at that ammunition level."""
    raw = add_unit(with_maxim(), name="Gun", side="FFL", kind="artillery", figures=5, chip="G")
    p = Play(raw)
    to_first_chip(p)
    p.state = replace(p.s, ammo=ammo)
    p.set_unit("MG", jammed=True)
    return p


def test_guns_with_no_ammunition_are_offered_neither_fire_nor_the_jam_clearing_roll() -> None:
    # at a third the Legion has no Maxim or artillery ammunition: neither gun can fire, and a
    # jammed Maxim's clearing roll is a shot too, so neither is offered; moving still is
    p = _guns_at("third")
    p.chip("M")
    assert p.options() == ["move", "pass"]
    assert _labels(p) == ["Move", "Pass (no ammo)"]
    p.choose("pass")
    p.chip("G")
    assert p.options() == ["move", "pass"] and _labels(p)[-1] == "Pass (no ammo)"
    p.choose("pass")
    p.chip("C")
    assert not [k for k in p.options() if k.startswith("gun:")]
    assert not p.said("cannot fire")


def test_guns_with_ammunition_are_offered_fire_and_the_jam_clearing_roll() -> None:
    p = _guns_at("half")
    p.chip("M")
    assert _labels(p) == ["Clear the jam", "Move", "Pass"]
    p.choose("pass")
    p.chip("G")
    assert _labels(p) == ["Fire", "Move", "Pass"]
    p.choose("pass")
    p.chip("C")
    assert {"gun:MG", "gun:Gun"} <= set(p.options())


def test_arab_artillery_batters_the_gate() -> None:
    raw = small()
    add_unit(raw, name="Krupp", side="Arab", kind="artillery", figures=5, chip="K")
    p = Play(raw)
    to_first_chip(p)
    p.chip("K")
    p.choose("fire", "gate")
    assert p.request().dice_count == 4
    p.roll(5, 6, 5, 1)
    p.roll(5)
    assert p.s.gate_damage == 4 and not p.s.gate_destroyed


# ---------------------------------------------------------------- movement


def test_leaderless_mixed_tribes_fall_to_infighting() -> None:
    raw = small()
    unit_raw(raw, "Band")["traits"] = {"mixed_tribes": True}
    p = Play(raw)
    to_first_chip(p)
    p.chip("A")
    p.choose("move")
    p.roll(1, 2)
    assert p.unit("Band").pinned
    p.roll(4)
    assert p.unit("Band").figures == 2 and p.s.casualties == 4


def test_a_gun_moves_with_its_hero_as_leader() -> None:
    raw = small()
    add_unit(raw, name="MG", side="FFL", kind="maxim", figures=2, chip="M")
    p = Play(raw)
    to_first_chip(p)
    p.set_unit("MG", heroes=1)
    p.chip("M")
    p.choose("move")
    assert p.request().dice_count == 3  # two men: 2d6, the hero's extra die


def _band_carrying(ladder: str, raw: dict[str, Any]) -> Play:
    """The scenario with the Band carrying a ladder or a grappling hook, at the first chip."""
    unit_raw(raw, "Band")["traits"] = {"ladder": ladder}
    return at_first_chip(raw)


def test_a_ladder_is_set_only_when_the_move_reaches_the_wall() -> None:
    p = _band_carrying("ladder", small(turn_limit=2))
    p.chip("A")
    p.choose("ladder")
    p.roll(1, 2)
    p.choose("no")
    assert not p.unit("Band").ladder_placed
    p.pass_all()
    p.chip("A")
    p.choose("ladder")
    p.roll(5, 6)
    p.choose("yes")
    assert p.unit("Band").ladder_placed


def test_leaderless_squad_joins_a_led_one() -> None:
    raw = add_unit(small(), name="Stragglers", side="FFL", kind="foot", figures=2, chip="X")
    p = Play(raw)
    to_first_chip(p)
    p.chip("X")
    p.choose("join", "unit:Legion")
    assert p.unit("Legion").figures == 6
    assert "X" not in p.s.bag.in_play


# ---------------------------------------------------------------- charges and close combat


def test_charge_defensive_fire_and_close_combat() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(6, 1, 1)  # a 6 on the charge: berserk, contact is automatic
    assert p.unit("Band").berserk and "berserk" in p.cues
    p.choose("fire", "far")  # defensive fire: the band counts as in the open
    assert p.request().dice_count == 5
    p.roll(4, 1, 1, 1, 1)  # one hit
    assert p.unit("Band").figures == 5
    p.choose("cover", "no")  # the legion defends behind cover, not surrounded
    # five attackers against four defenders: each defender fights at most four
    p.roll(6, 1)  # attacker 6+1 berserk vs 1+1+1 (sergeant, cover): defender dies
    p.roll(1, 6)  # berserk loser: killed
    p.roll(3, 3)  # 3+1 vs 3+2: defender wins, the attacker (berserk) is killed
    p.roll(5, 2)  # 6 vs 4: defender loses with 2: wounded, falls back
    p.roll(6, 6)  # 7 vs 8: berserk attacker killed
    legion = p.unit("Legion")
    band = p.unit("Band")
    assert legion.figures == 3 and legion.wounded == 1 and legion.pinned
    assert band.figures == 2
    assert p.s.casualties == 4
    p.roll(3, 4)  # the legion's fallen-back man retreats 7 inches
    assert p.said("fall back 7 inches")


def _bout(p: Play, *dice: int) -> Any:
    """One pair of close-combat dice; the transition they make."""
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.reason.startswith("close combat")
    done = RULES.advance(p.state, Rolled(dice))
    p.state = done.state
    return done


def test_close_combat_results_name_the_winner_and_the_loser_and_keep_their_tunes() -> None:
    p = at_first_chip()
    _band_charges_into(p, "Legion")
    p.choose("stand", "cover", "no")
    # Band +0 against Legion +2 (sergeant, cover)
    killed = _bout(p, 6, 1)  # 6 against 3: the legionnaire loses with a 1
    assert killed.outcome.headline == ATTACKER_WINS
    assert killed.outcome.effects == {"loser_killed"}
    assert "death" in tunes_for(set(killed.cues) | killed.outcome.effects)
    tie = _bout(p, 5, 3)  # 5 against 5
    assert tie.outcome.headline == TIE and not tunes_for(set(tie.cues)) - {"dice"}
    wounded = _bout(p, 6, 2)  # 6 against 4: wounded, falls back, pinned
    assert wounded.outcome.effects == {"loser_wounded", "loser_falls_back", "loser_pinned"}
    assert "pin" in tunes_for(set(wounded.cues) | wounded.outcome.effects)
    assert "death" not in tunes_for(set(wounded.cues) | wounded.outcome.effects)
    lost = _bout(p, 1, 1)  # 1 against 3: the Arab loses with a 1
    assert lost.outcome.headline == DEFENDER_WINS and lost.outcome.effects == {"loser_killed"}
    assert "death" in tunes_for(set(lost.cues) | lost.outcome.effects)


def _band_charges_into(p: Play, target: str) -> None:
    """On its chip the Band charges `target` and reaches it, without going berserk."""
    p.chip("A")
    p.choose("charge", f"target:{target}")
    p.roll(2, 3, 4)  # 2d6 and the charge die: no 6
    p.choose("yes")


def test_a_gun_on_the_wall_giving_defensive_fire_checks_its_blind_zone() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    _band_charges_into(p, "MG")
    p.choose("fire")
    assert p.prompt() == "Target within 6in?"
    p.choose("near")
    assert p.said("cannot depress")
    assert p.prompt() == "MG defends?", "no fire: straight to the close combat"


def test_charge_falling_short_pins() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(1, 2, 3)
    p.choose("no")
    assert p.unit("Band").pinned
    assert p.said("falls short")


def test_a_charge_falling_short_does_not_pin_a_band_with_a_mounted_leader() -> None:
    p = _band_with_its_sheikh()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(1, 2, 1, 2)  # 2d6, the sheikh's die (lowest dropped), the charge die
    p.choose("no")
    assert not p.unit("Band").pinned
    assert p.said("falls short") and not p.said("is pinned")
    assert "pin" not in p.cues


def test_a_band_with_a_mounted_leader_falls_back_from_close_combat_unpinned() -> None:
    p = _band_with_its_sheikh()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(5, 5, 5, 1)
    p.choose("yes", "stand", "cover", "no")
    for _ in range(6):  # 4+2 sheikh vs 6+2 sergeant and cover: each Arab loses with 4
        p.roll(4, 6)
    assert p.request().reason == "fall back"
    p.roll(3, 4)
    assert not p.unit("Band").pinned and p.unit("Band").figures == 6
    assert p.said("fall back 7 inches.") and not p.said("pinned")


def test_the_tower_cannot_be_charged() -> None:
    p = _tower_manned_first_band_drawn()
    p.choose("charge")
    assert "target:Tower" not in p.options()


def _legion_charges_into_the_band(p: Play, *, surrounded: bool) -> None:
    """On its chip the Legion charges the Band and reaches it; the Band stands in the open."""
    p.chip("L")
    p.choose("charge", "target:Band")
    p.roll(5, 5, 5, 5)  # 2d6, the sergeant's die (lowest dropped) and the charge die
    p.choose("yes", "stand", "open", "yes" if surrounded else "no")


def test_surrounded_arabs_surrender() -> None:
    p = at_first_chip()
    _legion_charges_into_the_band(p, surrounded=True)
    p.roll(6, 5)  # 6+1 sergeant vs 5: the Arab loses with 5, surrounded: surrenders
    assert p.said("the defender (Arab) loses with 5: surrenders")
    melee = p.s.act.melee
    assert melee is not None and melee.d_state.count("surrendered") == 1


def test_a_surrounded_arab_still_faces_at_most_four_attackers() -> None:
    raw = small()
    unit_raw(raw, "Legion").update(figures=5)
    unit_raw(raw, "Band").update(figures=1)
    p = Play(raw)
    to_first_chip(p)
    _legion_charges_into_the_band(p, surrounded=True)
    for _ in range(4):  # 1+1 sergeant vs 6: the Arab wins, the legionnaire dies
        p.roll(1, 6)
    # the limit of four is waived only for a surrounded legionnaire: the fifth man waits
    assert isinstance(p.step(), AwaitChip)
    assert p.unit("Legion").figures == 1 and p.unit("Band").figures == 1


def test_surrounded_legionnaire_fights_every_attacker() -> None:
    raw = small()
    unit_raw(raw, "Legion").update(figures=1)
    p = Play(raw)
    to_first_chip(p)
    _band_charges_into(p, "Legion")
    p.choose("stand", "open", "yes")
    for _ in range(6):  # six attackers, no limit of four against a surrounded legionnaire
        p.roll(1, 6)
    assert p.unit("Band").figures == 0 and p.said("Band is destroyed.")


def test_ffl_counter_charge_fires_at_one_die_per_two_men() -> None:
    p = at_first_chip()
    _band_charges_into(p, "Legion")
    p.choose("counter")
    p.roll(1, 2, 3)  # the legion's counter-charge roll, 2d6 + the sergeant's: no berserk
    p.choose("far")
    assert p.request().dice_count == 2  # 4 men // 2, no officer dice when moving
    p.roll(4, 1)
    assert p.unit("Band").figures == 5


def test_a_mixed_band_counter_charging_can_fall_to_infighting() -> None:
    raw = small()
    unit_raw(raw, "Band")["traits"] = {"mixed_tribes": True}
    p = Play(raw)
    to_first_chip(p)
    p.chip("L")
    p.choose("charge", "target:Band")
    p.roll(5, 5, 5, 5)
    p.choose("yes", "counter")
    p.roll(1, 1)  # a plain 2d6 movement roll: 2 is in-fighting
    p.roll(3)
    assert p.unit("Band").figures == 3 and p.unit("Band").pinned
    assert p.prompt() == "Band defends?"


def test_ladder_assault_against_the_wall() -> None:
    p = _band_carrying("hook", small(turn_limit=2))
    p.chip("A")
    p.choose("ladder")
    p.roll(3, 4)
    p.choose("yes")
    p.pass_all()
    p.chip("A")
    p.choose("assault", "target:Legion")
    p.roll(6, 1)  # first climber beats a defender (cover +1, sergeant +1): killed
    p.roll(2, 5)  # the same climber loses: killed
    p.roll(4, 4)  # second climber: 4 vs 6, loses with a 4: falls off, pinned
    assert p.said("2 of Band climb the hook")
    assert p.said("The ladder assault is thrown back.")
    assert p.unit("Legion").figures == 3
    assert p.unit("Band").figures == 5 and p.unit("Band").pinned


def test_a_won_ladder_assault_puts_the_climbers_on_the_wall() -> None:
    raw = small(turn_limit=2)
    unit_raw(raw, "Legion").update(figures=1)
    p = _band_carrying("ladder", raw)
    p.set_unit("Band", ladder_placed=True)
    p.chip("A")
    p.choose("assault", "target:Legion")
    p.roll(6, 1)
    assert p.said("The wall is cleared: 5 climbers stand on it.")
    p.roll(4)
    assert p.said("The climbers move 4 inches along the wall.")


def test_an_unopposed_ladder_puts_2d6_figures_on_the_wall() -> None:
    p = _band_carrying("ladder", small())
    p.set_unit("Band", ladder_placed=True)
    p.chip("A")
    p.choose("assault", "clear")
    p.roll(2, 3)
    assert p.said("5 figures of Band climb onto the wall unopposed.")


def test_a_mounted_leader_may_be_among_the_melee_dead() -> None:
    p = _band_with_its_sheikh()
    _legion_charges_into_the_band(p, surrounded=False)
    for _ in range(4):  # four legionnaires, each kills his man (6+1+2... vs 1+2 mounted)
        p.roll(6, 1)
    assert p.unit("Band").figures == 2 and p.s.casualties == 4
    p.roll(6, 6)  # the sheikh was one of the four
    assert p.unit("Band").figures == 3 and not p.unit("Sheikh").alive
    assert p.s.casualties == 4 and p.s.arab_lost_leader


# ---------------------------------------------------------------- dynamite


def test_thrown_dynamite_hits_a_unit() -> None:
    raw = small()
    unit_raw(raw, "Legion")["traits"] = {"dynamite": 1}
    p = Play(raw)
    to_first_chip(p)
    p.chip("L")
    p.choose("dynamite", "target:Band")
    p.roll(2, 2)
    assert p.unit("Band").figures == 2 and p.unit("Legion").dynamite == 0
    assert p.said("The dynamite: 4 hits on Band.")  # it names its target


def test_premature_dynamite_kills_the_thrower_and_those_within_an_inch() -> None:
    raw = small()
    unit_raw(raw, "Band")["traits"] = {"dynamite": 1}
    unit_raw(raw, "Band")["figures"] = 12
    p = Play(raw)
    to_first_chip(p)
    p.chip("A")
    p.choose("dynamite", "target:Legion")
    p.roll(1, 1)
    # the seed puts no limit on the figures within 1": any of the other 11 may be
    assert p.options() == [f"n:{n}" for n in range(12)]
    p.choose("n:8")
    assert p.unit("Band").figures == 3 and p.s.casualties == 9


# ---------------------------------------------------------------- sentries


def test_unalerted_garrison_is_off_duty_until_a_sentry_spots_a_move() -> None:
    p = Play(small(sentries=True))
    to_first_chip(p)
    assert not p.s.alerted
    p.chip("L")
    assert p.options() == ["pass"]
    p.choose("pass")
    p.chip("A")
    p.choose("move", "yes")
    assert p.request().secret
    p.roll(3, 3)  # sentry 3 + 0 against 3 + 1 outside the fort: unseen
    assert not p.s.alerted and p.said("moves unseen")
    p.roll(2, 5)  # the move itself
    assert not p.s.alerted


def test_sentry_spotting_a_move_alerts_the_garrison() -> None:
    p = Play(small(sentries=True))
    to_first_chip(p)
    p.chip("A")
    p.choose("move", "yes")
    p.roll(6, 1)
    assert not p.s.alerted and p.prompt() == "A sentry sees them!"
    p.choose("ok")
    assert p.s.alerted and p.said("raises the alarm")


def test_arab_fire_wakes_the_garrison_at_once() -> None:
    p = Play(small(sentries=True))
    to_first_chip(p)
    p.chip("A")
    p.choose("fire")
    assert p.s.alerted and p.said("wakes the garrison")


# ---------------------------------------------------------------- scenarios and replay


def test_example_scenario_loads_with_defaults() -> None:
    scenario = RULES.load_scenario(example())
    assert scenario.setup["turn_limit"] == 2
    assert scenario.options["resolve_threshold"] == "25"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["units"][0].update(side="Blue"), "unit 'Legion' side"),
        (lambda r: r["units"][0].update(kind="camel"), "unit 'Legion' kind"),
        (lambda r: r["units"][0].update(figures=0), "unit 'Legion' figures"),
        (lambda r: r["units"][2].update(chip="L"), "chip 'L' is used by two units"),
        (lambda r: r["units"][2].update(traits={"rank": "captain"}), "unit 'Band' traits.rank"),
        (lambda r: r["units"][0].pop("chip"), "unit 'Legion' chip"),
        (lambda r: r["units"][0].update(traits={"joins_on_day": 2}), "traits.joins_on_day"),
        (lambda r: r["units"][2].update(traits={"joins_on_day": 0}), "traits.joins_on_day"),
        (lambda r: r["units"][2].update(traits={"attached_to": "Legion"}), "traits.attached_to"),
        (lambda r: r["units"][3]["traits"].update(attached_to="Legion"), "traits.attached_to"),
        (lambda r: r["units"][2].update(traits={"joins_on_day": 3}), "from day 1"),
        (lambda r: r["units"][2].update(traits={"ladder": "rope"}), "traits.ladder"),
        (lambda r: r["units"][2].update(traits={"reinforcement": True}), "traits.reinforcement"),
        (lambda r: r.update(options={"max_heroes": 3}), "max_heroes"),
        (lambda r: r.update(options={"max_heroes": "1"}), "max_heroes"),
        (lambda r: r.update(options={"nonsense": 1}), "no option 'nonsense'"),
        (lambda r: r["setup"].update(turn_limit=-1), "turn_limit"),
        (lambda r: r["setup"].update(tower_donor="Band"), "tower_donor"),
        (lambda r: r["setup"].update(weather="hot"), r"\[setup\] has no setting 'weather'"),
        (lambda r: r.update(setup=[]), r"\[setup\] must be a table"),
        (lambda r: r["units"][2].update(name="Legion"), "unit 'Legion', field 'name': two units"),
        (lambda r: r.update(system="fortboard"), "system"),
        (lambda r: r.pop("title"), "title: is missing; give a non-empty text"),
    ],
)
def test_bad_scenarios_name_the_unit_and_field(mutate: Any, message: str) -> None:
    raw = small()
    mutate(raw)
    with pytest.raises(ScenarioError, match=message):
        RULES.load_scenario(raw)


def test_refused_input_leaves_the_state_untouched() -> None:
    p = Play(example())
    before = copy.deepcopy(p.state)
    with pytest.raises(RulesError):
        RULES.advance(p.state, Rolled((3,)))
    with pytest.raises(RulesError, match="not an option"):
        RULES.advance(p.state, Chosen("days:99"))
    assert p.state == before


def check_invariants(s: GameState) -> None:
    for u in s.units:
        assert u.wounded >= 0 and u.heroes >= 0 and u.wounded + u.heroes <= u.figures, u
        assert not u.attached_to or s.unit(u.attached_to).side == u.side, u
    assert s.cp_ffl >= 0 and s.cp_arab >= 0
    assert 0 <= s.casualties <= s.total_casualties
    for chip in s.bag.in_bag:
        assert any(u.chip == chip and u.alive for u in s.units), chip


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_books_straight_and_replay(seed: int) -> None:
    p = Play(example())
    rng = random.Random(seed)
    for _ in range(3000):
        step = p.step()
        if isinstance(step, GameOver):
            break
        if isinstance(step, AwaitChip):
            p.give(ChipDrawn(rng.choice(step.in_bag)))
        elif isinstance(step, AwaitChoice):
            p.give(Chosen(rng.choice(step.options).key))
        else:
            p.give(Rolled(tuple(rng.randint(1, 6) for _ in step.request.kinds)))
        check_invariants(p.s)
    assert isinstance(p.step(), GameOver)
    again: Any = RULES.start(p.scenario)
    for given in p.journal:
        again = RULES.advance(again, given).state
    assert again == p.state
