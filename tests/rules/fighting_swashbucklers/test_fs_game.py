"""The sequence of play through `advance`: a scripted game, each option, scenario errors."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
import rule_scripting
from fs_script import SCENARIO_TOML, SCRIPT, c, r

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    GameInput,
    GameOver,
    RulesError,
    ScenarioError,
)
from companion.rules.fighting_swashbucklers.state import GameState, MeleeState
from companion.ui.wording import category_name, named_outcomes, odds_line, pretty

RULES = get_ruleset("fighting_swashbucklers")


def raw_scenario(**options: Any) -> dict[str, Any]:
    raw = tomllib.loads(SCENARIO_TOML)
    raw["options"] = dict(options)
    return raw


def preset(**options: Any) -> dict[str, Any]:
    """The script's scenario with CP fixed (Legion 4, Tribes 5) and Sgt a good leader."""
    raw = raw_scenario(**options)
    raw["setup"]["command_points"] = {"Legion": 4, "Tribes": 5}
    raw["units"][1]["traits"]["leader_type"] = "good"
    return raw


def begin(raw: dict[str, Any]) -> GameState:
    state = RULES.start(RULES.load_scenario(raw))
    assert isinstance(state, GameState)
    return state


def play(state: GameState, *inputs: GameInput) -> tuple[GameState, list[str]]:
    return rule_scripting.play(RULES, state, *inputs)


def keys(state: GameState) -> list[str]:
    return rule_scripting.choice_keys(RULES, state)


# ------------------------------------------------------------------ the scripted game


def test_scripted_game_play_by_play() -> None:
    state = begin(raw_scenario())
    for index, (given, expected) in enumerate(SCRIPT):
        transition = RULES.advance(state, given)
        if expected:
            assert any(expected in line for line in transition.log), (index, transition.log)
        assert isinstance(transition.state, GameState)
        state = transition.state
    step = RULES.next_step(state)
    assert isinstance(step, GameOver)
    assert step.winner == "Tribes"
    assert step.summary[0] == "Tribes win: victory points Legion 3, Tribes 20"
    assert RULES.describe(state)[0].endswith("game over in turn 1/1: " + step.summary[0])


def test_scripted_game_state_at_key_points() -> None:
    state = begin(raw_scenario())
    inputs = [given for given, _ in SCRIPT]
    after_charge, _ = play(state, *inputs[:9])
    assert after_charge.melees == (MeleeState("R1", "L1", "flank"),)
    assert after_charge.unit("L1").stress
    assert after_charge.unit("R1").done
    after_reaction, _ = play(state, *inputs[:23])
    assert after_reaction.unit("T1").markers == 7
    assert after_reaction.unit("R1").markers == 4
    assert after_reaction.unit("MG").markers == 1
    after_morale, _ = play(state, *inputs[:30])
    assert after_morale.unit("L1").faced
    assert (after_morale.unit("R1").men, after_morale.unit("R1").routed) == (3, 1)
    assert (after_morale.unit("T1").men, after_morale.unit("T1").routed) == (1, 2)
    # the routed men are not among the squad's men on the table
    assert "  R1 (Tribes): 3/4 men, 1 more routed, 9 markers" in RULES.describe(
        after_morale
    )
    after_melee, _ = play(state, *inputs[:36])
    assert (after_melee.unit("L1").men, after_melee.unit("L1").routed) == (2, 2)
    assert after_melee.side("Legion").victory_points == 3
    assert after_melee.officer("Ali") is not None and not after_melee.officer("Ali").alive
    after_rally, _ = play(state, *inputs[:42])
    assert (after_rally.unit("R1").men, after_rally.unit("T1").men) == (3, 3)
    assert after_rally.phasing == "Legion" and after_rally.unit("R1").markers == 0
    after_vanish, _ = play(state, *inputs[:45])
    assert after_vanish.unit("L1").airborne


def test_replaying_the_inputs_rebuilds_the_same_state() -> None:
    inputs = [given for given, _ in SCRIPT]
    first, _ = play(begin(raw_scenario()), *inputs[:30])
    again, _ = play(begin(raw_scenario()), *inputs[:30])
    assert first == again


def test_an_input_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    state = begin(raw_scenario())
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match="expected a roll"):
        RULES.advance(state, c("fire"))
    with pytest.raises(RulesError, match="expected 2 dice"):
        RULES.advance(state, r(5))
    assert state == before
    state, _ = play(state, r(5, 0), r(9, 9), r(1, 0), r(2, 0))
    with pytest.raises(RulesError, match="'unit:L1' is not an option"):
        RULES.advance(state, c("unit:L1"))  # the Legion does not phase now


def test_describe_names_turn_sides_and_units() -> None:
    lines = RULES.describe(begin(raw_scenario()))
    assert "turn 1/1" in lines[0]
    assert any("R1 (Tribes): 4/4 men" in line for line in lines)


def test_every_choice_label_fits_the_screen() -> None:
    state = begin(raw_scenario())
    for given, _ in SCRIPT:
        step = RULES.next_step(state)
        if isinstance(step, AwaitChoice):
            assert all(len(o.label) <= 18 for o in step.options), step.options
        elif isinstance(step, AwaitRoll):
            assert step.odds is not None
        state, _ = play(state, given)


def test_prompts_name_who_and_what_and_read_cleanly_under_their_unit() -> None:
    """The box titles a menu with its `about` and shows the rest of the prompt below, so a
    prompt that starts with the unit's name goes on with ": " (not "Riders 1 v ...")."""
    state = begin(raw_scenario())
    prompts = []
    for given, _ in SCRIPT:
        step = RULES.next_step(state)
        if isinstance(step, AwaitChoice):
            prompts.append(step.prompt)
            if step.about and step.prompt.startswith(step.about):
                assert step.prompt.startswith(f"{step.about}: "), step.prompt
        state, _ = play(state, given)
    for expected in (
        "L1: help from Sgt?",
        "Legion reacts: 2 left",
        "Legion reacts: 1 left",
        "R1: who gets +2 v L1?",
        "Rally 4 men to?",
        "Rally 1 man to?",
        "Well: who holds it (20 VP)?",
    ):
        assert expected in prompts, (expected, prompts)


def test_a_unit_is_one_squad_in_every_line_whatever_its_name() -> None:
    """'Riders 3 fires', so also 'Riders 3 advances', 'is', 'materialises', 'stays'."""
    verbs = {line.split(" ", 2)[1] for _, line in SCRIPT if line.startswith(("L1 ", "R1 "))}
    assert not verbs & {"advance", "are", "materialise", "dematerialise", "stay"}
    state = tribes_orders(begin(preset()))
    state, log = play(state, c("unit:Sheikh"), c("end"))
    assert "Sheikh: no more orders this turn" in log


# ------------------------------------------------------------------ rules in play


def tribes_orders(state: GameState) -> GameState:
    """Preset CP: the Tribes' second-action roll (granted), ready for orders."""
    state, _ = play(state, r(2, 0))
    return state


def test_commanding_officer_cannot_be_fired_on_nor_charge() -> None:
    state = tribes_orders(begin(preset()))
    state, _ = play(state, c("unit:T1"), c("fire"))
    assert "target:Sheikh" not in keys(state) and "target:Capt" not in keys(state)
    state, _ = play(state, c("back"), c("end"), c("unit:Sheikh"))
    assert "charge" not in keys(state) and "fire" not in keys(state)


def r1_charges(raw: dict[str, Any], target: str, facing: str) -> GameState:
    """With preset CP, the Tribes' cavalry R1 charges `target` on `facing`; no reaction fire."""
    state, _ = play(
        tribes_orders(begin(raw)),
        c("unit:R1"),
        c("charge"),
        c("rough:no"),
        c(f"target:{target}"),
        c(f"face:{facing}"),
        c("end"),
        r(1),  # 4 CP x 1: no reaction
    )
    return state


def charge_the_captain(**options: Any) -> GameState:
    state, _ = play(r1_charges(preset(**options), "Capt", "front"), c("adv:none"))
    return state


def test_captured_commander_ends_the_game() -> None:
    state = charge_the_captain()
    state, log = play(state, r(9, 1))  # 11 x 9 = 99 against 12 x 1
    assert "Capt loses a round and is captured!" in log
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Tribes"


def test_commander_who_wins_his_pairing_fights_on() -> None:
    state = charge_the_captain()
    state, _log = play(state, r(1, 9))  # 11 against 108: threefold
    assert state.fight is not None and state.fight.attacker_fighting == 3
    assert state.unit("R1").men == 3


def test_captured_commander_option_plays_on_without_cp() -> None:
    state = charge_the_captain(captured_commander="cp_zero")
    state, log = play(state, r(9, 1))
    assert state.side("Legion").cp == 0 and state.unit("Capt").captured
    assert "Legion plays on with no Command Points" in log
    assert isinstance(RULES.next_step(state), AwaitRoll)  # Ali's fate: his men won
    assert state.martinet_queue == (("Ali", True),)


def test_commander_factor_option() -> None:
    state = charge_the_captain(commander_factor=10)
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and "11 against 10" in step.request.reason


def charge_l1_frontally(**options: Any) -> GameState:
    return r1_charges(preset(**options), "L1", "front")


def test_cavalry_charging_infantry_frontally_test_in_stress() -> None:
    state = charge_l1_frontally()
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "R1: Morale test against ML 50"


def test_frontal_cavalry_stress_says_who_tests_at_half_ml() -> None:
    state = tribes_orders(begin(preset()))
    state, log = play(state, c("unit:R1"), c("charge"), c("rough:no"), c("target:L1"))
    state, log = play(state, c("face:front"))
    assert "cavalry charging infantry head-on: R1 tests at half ML" in log


def test_frontal_stress_option_puts_the_infantry_in_stress() -> None:
    state = charge_l1_frontally(frontal_cavalry_stress="infantry")
    assert state.unit("L1").stress and not state.unit("R1").stress


def test_a_charger_failing_its_stress_test_halts() -> None:
    state = charge_l1_frontally()
    state, log = play(state, r(7, 7))
    assert "R1's charge is halted" in log
    assert state.melees == ()


def test_failed_charge_option_still_goes_in() -> None:
    state = charge_l1_frontally(failed_charge="goes_in")
    state, _ = play(state, r(7, 7))
    assert state.melees == (MeleeState("R1", "L1", "front"),)
    assert keys(state)[0] == "adv:none"


def test_failure_markers_option_tests_again_at_once() -> None:
    state = charge_l1_frontally(failure_markers="test_again")
    state, _ = play(state, r(7, 7))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "R1: Morale test against ML 85"  # 3 men, 1 marker, no stress


def test_flank_attack_puts_the_attacker_advantage_first() -> None:
    state, _ = play(r1_charges(preset(), "MG", "rear"), r(9, 9))  # MG fails its stress test
    assert keys(state)[0] == "adv:attacker"


def test_provoked_column_infantry_deploys_and_fires() -> None:
    raw = preset()
    raw["units"][5]["traits"]["formation"] = "column"  # T1
    state = tribes_orders(begin(raw))
    state, _ = play(
        state, c("unit:T1"), c("end"), c("end"), r(5), c("unit:L1"), c("target:T1"), c("end")
    )
    state, log = play(state, r(1, 0))  # T1: 10 is provoked against ML 70
    assert "T1 deploys into line to fire" in log
    assert state.unit("T1").formation == "line"
    assert keys(state) == ["target:L1", "target:MG", "none"]


def test_provoked_column_cavalry_deploys_to_advance() -> None:
    raw = preset()
    r1 = next(u for u in raw["units"] if u["name"] == "R1")
    r1.setdefault("traits", {})["formation"] = "column"
    state = tribes_orders(begin(raw))
    state, _ = play(state, c("end"), r(5), c("unit:MG"), c("target:R1"), r(9, 9), c("end"))
    state, log = play(state, r(1, 0))  # R1: 10 against ML 80 provokes
    assert log[-2:] == ["R1 deploys into line to advance", "R1 must advance"]
    assert state.unit("R1").formation == "line"


def test_provoked_cavalry_advance_draws_defensive_fire() -> None:
    state = tribes_orders(begin(preset()))
    state, _ = play(state, c("end"), r(5), c("unit:MG"), c("target:R1"), r(9, 9), c("end"))
    state, log = play(state, r(1, 0))  # R1: 10 against ML 80 provokes
    assert "R1 must advance" in log
    state, log = play(state, c("target:MG"), c("face:front"))
    assert "MG fires at R1" in log
    state, log = play(state, r(9, 9))  # the riflemen miss: 4 from the gun
    assert "  99 > 75: the riflemen miss, the gun's 4 markers only" in log
    assert state.unit("R1").markers == 8
    assert state.unit("R1").test_due and state.unit("R1").stress  # frontal on foot: stress
    assert state.melees == (MeleeState("R1", "MG", "front", provoked=True),)


@pytest.mark.parametrize(
    ("duration", "markers", "level"),
    [("half_turn", 8, 10), ("until_tested", 4, 30)],  # stress 50, less 5 a marker
)
def test_marker_duration_option_at_the_retest(duration: str, markers: int, level: int) -> None:
    state = tribes_orders(begin(preset(marker_duration=duration)))
    state, _ = play(state, c("end"), r(5), c("unit:MG"), c("target:R1"), r(9, 9), c("end"))
    state, _ = play(state, r(1, 0), c("target:MG"), c("face:front"), r(9, 9))
    assert state.unit("R1").markers == markers
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == f"R1: Morale test against ML {level}"


def test_second_action_per_unit_option() -> None:
    state = begin(preset(second_action_roll="per_unit"))
    assert keys(state)[0] == "unit:Sheikh"  # no side-wide roll
    state, _ = play(state, c("unit:T1"), c("deploy"))
    assert keys(state) == ["second", "end"]
    state, _ = play(state, c("second"), r(1, 0))
    assert "fire" in keys(state) or "charge" in keys(state)


def test_no_second_action_when_the_roll_fails() -> None:
    state, log = play(begin(preset()), r(5, 1))
    assert "Tribes: one action each" in log
    state, _ = play(state, c("unit:T1"), c("deploy"))
    assert "unit:T1" not in keys(state)


def test_hyper_space_rangers_vanish_land_then_wait() -> None:
    raw = preset()
    raw["setup"]["turn_limit"] = 3
    raw["setup"]["first_side"] = "Legion"
    state = begin(raw)
    state, _ = play(state, r(0, 1), c("unit:L1"))
    assert "vanish" in keys(state)
    state, _ = play(state, c("vanish"), c("end"), r(1))  # 5 CP x 1: no reaction
    # the Tribes' half: L1 cannot be a target
    state, _ = play(state, r(9, 9), c("unit:T1"), c("fire"))
    assert "target:L1" not in keys(state)
    state, _ = play(state, c("back"), c("end"), c("end"), r(1))
    assert state.turn == 2 and state.phasing == "Legion"
    state, _ = play(state, r(9, 9), c("unit:L1"))
    assert keys(state) == ["land"]  # the trip lasts two turns: no staying up
    state, log = play(state, c("land"))
    assert "L1 materialises anywhere on the field and does nothing more" in log
    assert "unit:L1" not in keys(state)  # landed: nothing more this turn
    state, _ = play(state, c("end"), r(9), c("unit:R1"))  # the Tribes react
    assert "target:L1" in keys(state)  # landed: it can be fired on
    state, _ = play(state, c("back"), c("end"))  # ... but they hold their fire
    state, _ = play(state, r(9, 9), c("end"), r(9))  # Tribes' turn 2; the Legion react
    assert keys(state) == ["unit:MG", "end"]  # landed this turn: no reaction fire
    state, _ = play(state, c("end"), r(9, 9))
    assert state.turn == 3 and "unit:L1" in keys(state)  # turn 3: free to act


def rangers_up_in_turn_1(**options: Any) -> GameState:
    """L1 vanishes in the Legion's half of turn 1; the state is the Legion's turn-2 orders."""
    raw = preset(**options)
    raw["setup"]["turn_limit"] = 3
    raw["setup"]["first_side"] = "Legion"
    state, _ = play(begin(raw), r(0, 1), c("unit:L1"), c("vanish"), c("end"), r(1))
    state, _ = play(state, r(9, 9), c("end"), r(1))  # the Tribes do nothing
    state, _ = play(state, r(9, 9))
    assert (state.turn, state.phasing) == (2, "Legion") and state.unit("L1").airborne
    return state


def test_rangers_left_unordered_in_their_landing_turn_come_down() -> None:
    state = rangers_up_in_turn_1()
    state, log = play(state, c("end"))
    assert "L1 must land now: place it anywhere on the field" in log
    l1 = state.unit("L1")
    assert (l1.airborne, l1.hyperspace, l1.hyperspace_turn) == (False, "landed", 2)
    state, _ = play(state, r(9), c("unit:R1"))  # the Tribes react
    assert "target:L1" in keys(state)


def test_ranger_landing_option_lets_them_stay_airborne() -> None:
    state = rangers_up_in_turn_1(ranger_landing="when_chosen")
    state, _ = play(state, c("unit:L1"))
    assert keys(state) == ["land", "stay"]
    state, log = play(state, c("stay"), c("end"))
    assert "L1 stays in hyper-space this turn" in log
    assert not any("must land" in line for line in log)
    assert state.unit("L1").airborne


def good_leader_asked() -> GameState:
    """R1 charges L1 in the flank: L1 tests in stress, and Sgt (a good leader) is asked."""
    return r1_charges(preset(), "L1", "flank")


def test_a_good_leader_lends_any_number_of_points() -> None:
    state = good_leader_asked()
    assert keys(state) == ["help:0", "band:0", "band:1", "band:2", "band:3", "band:4", "help:50"]
    state, _ = play(state, c("band:0"))
    assert keys(state) == [f"help:{p}" for p in range(1, 10)] + ["back"]
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.options[6].label == "Lend 7: risk 14%"
    state, _ = play(state, c("help:7"))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "L1: Morale test against ML 57"  # stress 50, plus 7
    state, log = play(state, r(6, 0), r(1, 4))  # 60 holds; 14 is within his 14% risk
    assert "Sgt is killed" in log
    assert state.officer("Sgt") is not None and not state.officer("Sgt").alive


def test_a_good_leader_s_bands_go_back_and_top_out_at_certain_death() -> None:
    state = good_leader_asked()
    state, _ = play(state, c("band:4"))
    assert keys(state)[-2:] == ["help:49", "back"]
    state, _ = play(state, c("back"))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice)
    assert [o.label for o in step.options] == [
        "No help",
        "Lend 1-9",
        "Lend 10-19",
        "Lend 20-29",
        "Lend 30-39",
        "Lend 40-49",
        "Lend 50: risk 100%",
    ]


def wipe_out_t1(**options: Any) -> GameState:
    """The Legion's reaction fire and T1's repeated failures leave T1 with no one on the field."""
    state = tribes_orders(begin(preset(failure_markers="test_again", **options)))
    state, _ = play(
        state, c("end"), r(9), c("unit:MG"), c("target:T1"), r(0, 1), c("unit:L1"), c("target:T1")
    )
    assert state.unit("T1").markers == 11
    state, _ = play(state, r(9, 8))  # ML 35: even, two men off; and tests again
    assert state.unit("T1").test_due and state.unit("T1").men == 1
    state, _ = play(state, r(9, 8))  # ML 70 - 65 = 5: the last man goes
    assert (state.unit("T1").men, state.unit("T1").routed) == (0, 3)
    return state


def test_whole_squad_rallies_beside_the_commander() -> None:
    state = wipe_out_t1()
    state, log = play(state, r(9), r(9, 9))  # 5 x 9 = 45: 4 men, the half man fails
    assert "Tribes rally 4 men" in log
    assert keys(state) == ["rally:T1"]  # every rallied man is placed where he can go
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.options[0].label == "T1 whole"
    state, log = play(state, c("rally:T1"))
    assert "T1 rallies whole beside Sheikh" in log
    assert "1 rallied man has nowhere to go" in log
    assert (state.unit("T1").men, state.phasing) == (3, "Legion")


def test_a_rally_too_small_cannot_rebuild_a_lost_squad() -> None:
    state = wipe_out_t1()
    state, log = play(state, r(1))  # 5 x 1 = 5: half a man
    state, log = play(state, r(0, 1))  # and he comes: 1 man, too few for T1
    assert "no squad can take them" in log


def test_lost_squad_rally_option_brings_men_back_one_at_a_time() -> None:
    state = wipe_out_t1(lost_squad_rally="by_man")
    state, log = play(state, r(1), r(0, 1))  # half a man, and he comes
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and [o.label for o in step.options] == ["+1 T1"]
    state, log = play(state, c("rally:T1"))
    assert "1 man of T1 rallies beside Sheikh" in log
    assert (state.unit("T1").men, state.unit("T1").routed) == (1, 2)


def test_a_rally_die_of_zero_reads_ten_in_the_game() -> None:
    state = wipe_out_t1()
    state, log = play(state, r(0))  # 5 CP x 10 = 50: five men, no fraction to roll
    assert "  5 CP x 10 / 10 = 5 men" in log
    assert keys(state) == ["rally:T1"]


def test_d10_zero_option_reads_zero_in_the_game() -> None:
    state = tribes_orders(begin(preset(d10_zero="0")))
    state, log = play(state, c("end"), r(0))
    assert "  4 CP x 0 = 0 points: 0 units react" in log


def test_charge_targets_list_the_commanding_officer_last() -> None:
    state = tribes_orders(begin(preset()))
    state, _ = play(state, c("unit:R1"), c("charge"), c("rough:no"))
    assert keys(state) == ["target:L1", "target:MG", "target:Capt", "none"]


def test_a_commander_beaten_threefold_is_captured_not_routed() -> None:
    state = charge_the_captain()
    state, _ = play(state, r(9, 1))  # 99 against 12: threefold
    capt = state.unit("Capt")
    assert (capt.men, capt.routed, capt.captured) == (1, 0, True)


def test_a_column_moves_through_rough_terrain_without_a_roll() -> None:
    raw = preset()
    raw["units"][5]["traits"]["formation"] = "column"  # T1
    state = tribes_orders(begin(raw))
    state, log = play(state, c("unit:T1"), c("move"))
    assert 'T1 moves up to 6" (column)' in log


def test_a_line_that_passes_the_rough_does_not_roll_again_that_turn() -> None:
    state = tribes_orders(begin(preset()))
    state, _ = play(state, c("unit:T1"), c("move"), c("rough:yes"), r(7, 0))
    state, log = play(state, c("move"))
    assert 'T1 moves up to 6" (line)' in log


def test_cavalry_charged_in_the_flank_and_provoked_turns_to_face() -> None:
    raw = preset()
    raw["setup"]["first_side"] = "Legion"
    state = begin(raw)
    state, _ = play(
        state,
        r(0, 1),  # a second action
        c("unit:L1"),
        c("charge"),
        c("rough:no"),
        c("target:R1"),
        c("face:flank"),
        c("end"),
        r(1),  # 5 CP x 1: no reaction
    )
    assert state.unit("R1").stress
    state, log = play(state, r(1, 0))  # 10 against ML 50: provoked
    assert "R1 advances and turns to face L1" in log
    assert state.unit("R1").faced
    assert keys(state)[0] == "adv:none"  # no longer disadvantaged


def with_a_gun(**options: Any) -> dict[str, Any]:
    raw = preset(**options)
    gun = {"name": "Gun", "side": "Legion", "kind": "cannon", "figures": 3}
    raw["units"].append({**gun, "traits": {"pose": "standing"}})
    raw["setup"]["first_side"] = "Legion"
    return raw


def test_cannon_asks_the_range_and_rolls_d10_less_its_tens() -> None:
    state = begin(with_a_gun())
    state, _ = play(state, r(9, 9), c("unit:Gun"))
    assert keys(state) == ["fire", "charge", "move", "end"]  # a gun has no formation
    state, _ = play(state, c("fire"), c("target:T1"))
    assert keys(state) == [f"range:{t}" for t in range(10)]
    state, _ = play(state, c("range:3"))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason == 'Gun: Cannon at 30-39": d10 - 3'
    transition = RULES.advance(state, r(0))  # 10 - 3
    assert "T1 takes 7 markers (7 in all)" in transition.log
    # the result screen shows what the roll did to the table, not only the arithmetic
    assert transition.outcome is not None
    assert transition.outcome.changes == ("T1 takes 7 markers (7 in all)",)


def test_a_cannon_has_no_formation_so_no_rough_terrain_roll() -> None:
    state = begin(with_a_gun())
    assert state.unit("Gun").formation == ""
    state, log = play(state, r(9, 9), c("unit:Gun"), c("move"))
    assert 'Gun moves up to 6"' in log  # no "terrain?" question, no formation named
    state, _ = play(state, c("unit:Capt"), c("move"), c("unit:MG"), c("move"))
    assert keys(state) == ["rough:no", "rough:yes"]  # a line is still asked


def test_cannon_rough_terrain_option_rolls_as_a_line() -> None:
    state = begin(with_a_gun(cannon_rough_terrain="rolls"))
    state, _ = play(state, r(9, 9), c("unit:Gun"), c("move"))
    assert keys(state) == ["rough:no", "rough:yes"]
    state, log = play(state, c("rough:yes"), r(7, 1))
    assert "Gun stands in the rough for the rest of the turn" in log


def advance_into_column_l1(**options: Any) -> tuple[GameState, list[str]]:
    """MG's reaction fire provokes R1, which advances into the flank of L1, in column."""
    raw = preset(**options)
    raw["units"][1]["traits"]["formation"] = "column"  # L1
    state = tribes_orders(begin(raw))
    # a column cannot react, so MG's is the only reaction fire
    state, _ = play(state, c("end"), r(5), c("unit:MG"), c("target:R1"), r(9, 9))
    state, _ = play(state, r(1, 0))  # R1: 10 against ML 80 provokes
    assert not state.unit("R1").test_due and state.unit("R1").markers == 4
    return play(state, c("target:L1"), c("face:flank"))


def test_a_column_charged_by_a_provoked_advance_deploys_to_fire() -> None:
    state, log = advance_into_column_l1()
    assert "L1 deploys into line to fire" in log and "L1 fires at R1" in log
    assert state.unit("L1").formation == "line"
    r1 = state.unit("R1")
    assert (r1.markers, r1.test_due) == (8, True)  # 4 prone men: 4 more markers, a new test


def test_column_defensive_fire_option_none() -> None:
    state, log = advance_into_column_l1(column_defensive_fire="none")
    assert "L1 cannot fire defensively" in log
    assert state.unit("L1").formation == "column"
    r1 = state.unit("R1")
    assert (r1.markers, r1.test_due, r1.stress) == (4, False, False)  # no second test


def test_double_zero_option_in_the_game() -> None:
    state = begin(raw_scenario(double_zero="0"))
    state, log = play(state, r(0, 0))
    assert "  0 is in the band for 3 CP" in log and "Capt commands the Legion" in log


# ------------------------------------------------------------------ scenario errors


def broken(change: str) -> dict[str, Any]:
    raw = raw_scenario()
    units = raw["units"]
    if change == "kind":
        units[1]["kind"] = "dragoon"
    elif change == "figures":
        units[1]["figures"] = 5
    elif change == "pose":
        units[1]["traits"]["pose"] = "sitting"
    elif change == "no_pose":
        del units[1]["traits"]["pose"]
    elif change == "side":
        units[1]["side"] = "Arabs"
    elif change == "commander":
        units[0]["kind"] = "infantry"
        units[0]["traits"] = {"pose": "running"}
    elif change == "option":
        raw["options"] = {"double_zero": "1000"}
    elif change == "unknown_option":
        raw["options"] = {"chips": True}
    elif change == "turn_limit":
        del raw["setup"]["turn_limit"]
    elif change == "formation":
        units[2]["traits"]["formation"] = "square"
    elif change == "leader_type":
        units[4]["traits"]["leader_type"] = "hero"
    elif change == "duplicate":
        units[2]["name"] = "L1"
    elif change == "sides":
        raw["sides"] = ["Legion", "Legion"]
    elif change == "setup_key":
        raw["setup"]["weather"] = "hot"
    elif change == "system":
        raw["system"] = "fortboard"
    elif change == "commander_formation":
        units[0]["traits"] = {"formation": "column"}
    elif change == "d10_zero":
        raw["options"] = {"d10_zero": "1"}
    elif change == "rally_option":
        raw["options"] = {"lost_squad_rally": "never"}
    return raw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("kind", "unit 'L1' kind: is 'dragoon'; allowed: infantry"),
        ("figures", "unit 'L1' figures: must be a whole number 1..4, got 5"),
        ("pose", "unit 'L1' traits.pose: is 'sitting'; allowed: running"),
        ("no_pose", "unit 'L1' traits.pose: is missing"),
        ("side", "unit 'L1' side: is 'Arabs'; allowed: Legion, Tribes"),
        ("commander", "side 'Legion': needs exactly one commander unit, has 0"),
        ("option", "[options] double_zero = '1000' is not allowed; use '100', '0'"),
        ("unknown_option", "[options] has no option 'chips'"),
        ("turn_limit", "[setup] turn_limit: is missing"),
        ("formation", "unit 'MG' traits.formation: is 'square'; allowed: line, column"),
        ("leader_type", "unit 'R1' traits.leader_type: is 'hero'"),
        ("duplicate", "unit 'L1', field 'name': two units have this name"),
        ("sides", "sides must be a list of two different names, got ['Legion', 'Legion']"),
        ("setup_key", "[setup] has no setting 'weather'; settings are: turn_limit, first_side"),
        ("system", "system: is 'fortboard'"),
        ("commander_formation", "unit 'Capt' traits.formation: a commander has no formation"),
        ("d10_zero", "[options] d10_zero = '1' is not allowed; use '10', '0'"),
        (
            "rally_option",
            "[options] lost_squad_rally = 'never' is not allowed; use 'whole', 'by_man'",
        ),
    ],
)
def test_a_broken_scenario_names_unit_and_field(change: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario(broken(change))
    assert message in str(caught.value)


def test_example_scenario_loads_with_every_option_named() -> None:
    from importlib import resources

    text = resources.files("companion.scenarios").joinpath("fighting_swashbucklers.toml")
    raw = tomllib.loads(text.read_text())
    scenario = RULES.load_scenario(raw)
    assert set(raw["options"]) == {o.name for o in RULES.options}
    assert {u.kind for u in scenario.units} == {
        "commander",
        "infantry",
        "machine_gun",
        "cannon",
        "cavalry",
    }


def charge_the_machine_gun(**options: Any) -> GameState:
    state, log = play(r1_charges(preset(**options), "MG", "front"), r(5, 0), c("adv:none"))
    assert "R1 holds (ML 50)" in log
    return state


def test_threefold_routs_only_the_man_beaten_threefold() -> None:
    state = charge_the_machine_gun()
    state, log = play(state, r(9, 9, 9, 9, 9, 9, 9, 1))  # 99 v 63 three times, 99 v 7
    assert (state.unit("MG").men, state.unit("MG").routed) == (3, 1)
    assert 'MG withdraws 12" in good order' in log


def test_threefold_unit_option_routs_the_whole_loser() -> None:
    state = charge_the_machine_gun(threefold_rout="unit")
    state, log = play(state, r(9, 9, 9, 9, 9, 9, 9, 1))
    assert (state.unit("MG").men, state.unit("MG").routed) == (0, 4)
    assert "MG beaten threefold: the whole unit routs" in log


def test_run_of_the_mill_officer_fights_as_an_extra_man() -> None:
    raw = preset()
    raw["units"][1]["traits"]["leader_type"] = "ordinary"
    state, log = play(r1_charges(raw, "L1", "flank"), r(5, 0), c("adv:attacker"))
    assert "melee: R1 (4 fighting) v L1 (5 fighting, Sgt among them), +2 to R1" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and "4 pairs, 13 against 6" in step.request.reason


def test_column_fights_with_one_man_in_the_game() -> None:
    raw = preset()
    raw["units"][1]["traits"]["formation"] = "column"
    _, log = play(r1_charges(raw, "L1", "front"), r(5, 0), c("adv:none"))
    assert "melee: R1 (4 fighting) v L1 (1 fighting), no advantage" in log


@pytest.mark.parametrize(("reading", "second_melee"), [("fights", True), ("breaks_off", False)])
def test_a_loser_in_a_later_contact(reading: str, second_melee: bool) -> None:
    state = tribes_orders(begin(preset(loser_in_later_melee=reading)))
    state, _ = play(
        state,
        c("unit:R1"),
        c("charge"),
        c("rough:no"),
        c("target:MG"),
        c("face:front"),
        c("unit:T1"),
        c("charge"),
        c("rough:no"),
        c("target:MG"),
        c("face:front"),
        c("end"),
        r(1),  # 4 CP x 1: no reaction
        r(5, 0),  # R1 holds its stress test
        c("adv:none"),
    )
    state, log = play(state, r(9, 9, 9, 9, 9, 9, 9, 1), r(9, 9))  # MG beaten; Ali survives
    assert 'MG withdraws 12" in good order' in log
    if second_melee:
        assert keys(state)[0] == "adv:none" and state.melees[state.melee_index].attacker == "T1"
    else:
        assert "T1 v MG: no melee, MG has withdrawn" in log
        assert state.melees == () and state.half == 1


# ------------------------------------------------- one screen, one story (referee audit)


@pytest.mark.parametrize(
    ("phase", "half", "words"),
    [
        # the Tribes are phasing first in this scenario
        ("second", 1, "Legion phasing, rolling for a second action"),
        ("orders", 0, "Tribes phasing, giving orders"),
        ("reaction", 0, "Tribes phasing, Legion reaction fire"),
        ("morale", 1, "Legion phasing, morale tests"),
        ("rally", 0, "Tribes phasing, rally"),
        ("end", 0, "turn limit reached: who holds the objectives?"),
    ],
)
def test_the_status_says_where_the_turn_is_in_words(phase: str, half: int, words: str) -> None:
    state = begin(preset()).at(phase=phase, half=half)
    first = RULES.describe(state)[0]
    assert first.endswith(f"turn 1/1, {words}")
    assert not first.endswith((", second", ", end", ", orders"))


def test_the_command_points_result_does_not_say_the_points_twice() -> None:
    transition = RULES.advance(begin(raw_scenario()), r(5, 0))
    outcome = transition.outcome
    assert outcome is not None and outcome.headline == 4
    assert outcome.changes == ("Capt commands the Legion",)  # the headline gives the 4 CP
    assert "  50 is in the band for 4 CP" in transition.log  # the reasoning keeps the number


def test_an_under_officer_s_type_is_named_in_the_same_words_everywhere() -> None:
    state, _ = play(begin(raw_scenario()), r(5, 0), r(9, 9))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.odds is not None
    groups = step.request.groups
    assert odds_line(step.odds, groups) == "martinet 34%, good leader 33%, run of the mill 33%"
    assert "good leader, 34-66 run of the mill, 67-100 martinet" in groups[0].faces_meaning
    transition = RULES.advance(state, r(5, 0))
    outcome = transition.outcome
    assert outcome is not None
    noun, names = named_outcomes(outcome.headline_label, groups) or ("", {})
    assert (noun, category_name(outcome.headline, names)) == ("type", "run of the mill")
    assert [pretty(e) for e in outcome.effects] == ["run of the mill"]
    assert outcome.details[-1] == "50: run of the mill"
    assert "Sgt is run of the mill" in transition.log
    assert any(
        line.endswith("Sgt (Legion): run of the mill") for line in RULES.describe(transition.state)
    )


def test_a_rally_s_men_are_not_said_twice_on_its_result() -> None:
    state = wipe_out_t1()
    transition = RULES.advance(state, r(4))  # 5 CP x 4 / 10: 2 men, no fraction
    outcome = transition.outcome
    assert outcome is not None and (outcome.headline, outcome.headline_label) == (
        2,
        "men rallied",
    )
    assert "Tribes rally 2 men" in transition.log  # the play-by-play keeps it
    assert "Tribes rally 2 men" not in outcome.changes
    # after the fraction's roll the total is news: 1 man rallied, 4 men in all
    state, _ = play(state, r(9))
    fraction = RULES.advance(state, r(9, 9)).outcome
    assert fraction is not None and "Tribes rally 4 men" in fraction.changes
