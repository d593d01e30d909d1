"""A scripted two-turn game through `advance`, checking the play-by-play."""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources

import pytest
import rule_scripting

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    Chosen,
    GameOver,
    Outcome,
    Rolled,
    RulesError,
    ScenarioError,
)
from companion.rules.scrubs_of_the_desert.game import GameState
from companion.rules.scrubs_of_the_desert.play.melee_bouts import _bout_params
from companion.ui.wording import categories, rest_of, topic

RULES = get_ruleset("scrubs_of_the_desert")


def scenario_dict(**setup: object) -> dict:  # type: ignore[type-arg]
    return {
        "system": "scrubs_of_the_desert",
        "title": "Test fort",
        "sides": ["Legion", "Arabs"],
        "setup": {
            "turn_limit": 2,
            "fort": True,
            "figures_over_wall_to_win": 6,
            "hidden_arabs": True,
            **setup,
        },
        "units": [
            {
                "name": "Section",
                "side": "Legion",
                "kind": "foot",
                "figures": 4,
                "weapons": ["french_rifle"],
                "leader": "Sgt",
                "traits": {"base_morale": 70},
            },
            {
                "name": "MG",
                "side": "Legion",
                "kind": "gun",
                "figures": 2,
                "weapons": ["machine_gun"],
                "traits": {"base_morale": 70},
            },
            {
                "name": "Riflemen",
                "side": "Arabs",
                "kind": "foot",
                "figures": 6,
                "weapons": ["arab_rifle"],
                "traits": {"base_morale": 60},
            },
            {
                "name": "Horse",
                "side": "Arabs",
                "kind": "horse",
                "figures": 2,
                "weapons": ["arab_rifle"],
                "traits": {"base_morale": 60, "hidden": False},
            },
        ],
    }


def new_game(raw: dict | None = None, **setup: object) -> GameState:  # type: ignore[type-arg]
    state = RULES.start(RULES.load_scenario(raw or scenario_dict(**setup)))
    assert isinstance(state, GameState)
    return state


def play(state: GameState, *inputs: str | list[int]) -> tuple[GameState, list[str]]:
    return rule_scripting.play(RULES, state, *inputs)


def options(state: GameState) -> set[str]:
    return set(rule_scripting.choice_keys(RULES, state))


TURN_ONE = (
    [3, 7],  # Arabs win the toss
    "unit:Riflemen",
    "hook",
    "1",
    [6],
    "yes",
    [5],
    "yes",
    [8],
    [5, 5],  # Legion 5+1 beats 5
    "unit:Section",  # the hook gave the Riflemen away: nothing hidden to sight
    "attack_hook",
    "unit:Riflemen",
    [7, 3],
    [2, 9],
    [2, 4],  # Arabs 4+1 beat 2
    "unit:Horse",
    "charge",
    "target:Section",
    "desert",
    [3, 4, 5],
    "yes",
    "fort",
    [5, 0],
    "fire",
    [7, 1, 1],
    [4, 0],
    [6, 3, 2],
    "unit:MG",
    "stay",
    "target:Riflemen",
    "short",
    "no",
    [0, 0, 0, 7],
    "open",
    [3, 9],
)


def test_turn_one_play_by_play() -> None:
    state, log = play(new_game(), *TURN_ONE)
    assert log[0] == "toss: Legion 3+0 = 3, Arabs 7+0 = 7: Arabs win and activate a unit"
    assert "Riflemen's hook holds (rolled 6 - 1 for defenders within 1\" = 5, needing 4+)" in log
    assert "Riflemen: 3 over the wall" in log
    assert "toss: Legion 5+1 = 6, Arabs 5+0 = 5: Legion wins and activates a unit" in log
    assert "Riflemen give themselves away: spotted" in log
    assert "the hook of Riflemen is thrown down" in log
    assert "Section loses 1: 3 left" in log
    assert "toss: Legion 2+0 = 2, Arabs 4+1 = 5: Arabs win and activate a unit" in log
    assert "Section morale: rolled 50 against 80%: holds" in log
    assert "Section fires at the chargers" in log
    assert "Horse loses 1: 1 left" in log
    assert "melee: 1 bout, all two against one" in log
    assert "bout 1: Section wins: one of Horse is killed" in log
    assert "Horse loses 1: 0 left; the unit is gone" in log
    assert "only Legion has units left to activate" in log
    assert "MG jams: no more fire this turn or next" in log
    assert "Riflemen morale: rolled 39 against 40%: holds" in log
    assert log[-1] == "End of turn 1"
    assert state.turn == 2 and state.bonus == (1, 0)
    riflemen = state.band("Riflemen")
    assert (riflemen.figures, riflemen.over_wall, riflemen.hook_up) == (4, 2, False)
    assert state.band("MG").jammed_until == 2


TURN_TWO = (
    [1, 1],  # Legion 1+1 beats 1
    "unit:MG",
    "stay",  # jammed: no fire this turn
    [0, 9],
    "unit:Riflemen",
    "stay",
    "target:Section",
    "short",
    "yes",
    [8, 9, 0, 7],
    "fort",
    [6, 1],
)


def test_turn_two_jammed_gun_rout_and_the_end() -> None:
    state, _ = play(new_game(), *TURN_ONE)
    state, log = play(state, *TURN_TWO[:3])
    assert "MG stays put" in log
    assert isinstance(RULES.next_step(state), AwaitRoll)  # no fire: the gun is jammed
    state, log = play(state, *TURN_TWO[3:])
    assert "Riflemen fire Arab rifle at Section: 2 hits" in log
    assert any(
        line.startswith('Section morale: rolled 61 against 60%: fails: the unit routs back 12"')
        for line in log
    )
    assert log[-2:] == ["End of turn 2", "Game over: Legion wins"]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Legion"
    assert any("Arabs over the wall: 2 of 6 to win" in line for line in step.summary)


def test_climbers_over_the_wall_win() -> None:
    state, log = play(
        new_game(figures_over_wall_to_win=3),
        [3, 7],
        "unit:Riflemen",
        "hook",
        "0",
        [4],
        "yes",
        [5],
        "yes",
        [8],
    )
    assert log[-1] == "Game over: Arabs win"
    assert isinstance(RULES.next_step(state), GameOver)


def test_failed_climb_stops_the_climbing() -> None:
    state, log = play(new_game(), [3, 7], "unit:Riflemen", "hook", "3", [7], "yes", [4])
    assert (
        "Riflemen's second climber rolled 4 needing 5+: fails; no one else climbs this hook "
        "this turn" in log
    )
    assert state.band("Riflemen").over_wall == 1


def test_hidden_units_cannot_be_targeted_until_sighted() -> None:
    state, _ = play(new_game(), [7, 3], "unit:Section", "skip", "stay")
    assert options(state) == {"target:Horse", "hold"}


def test_locked_melee_continues_on_activation() -> None:
    state, log = play(
        new_game(hidden_arabs=False),
        [3, 7],
        "unit:Horse",
        "charge",
        "target:Section",
        "desert",
        [3, 4, 5],
        "yes",
        "open",
        [1, 0],
        "none",
        [1, 0],
        [5, 3, 2],
        [5, 3, 4],
        [0, 0],
    )
    assert "Section stands and waits" in log  # the defender's answer is in the log
    assert "bout 2: a tie: the melee is locked" in log
    assert "Horse and Section are locked in melee" in log
    assert "Section took more casualties: morale check" in log
    assert state.band("Section").locked_with == "Horse"
    state, log = play(state, [9, 0], "unit:Section")
    assert "Section activates: locked in melee with Horse" in log
    assert options(state) == {"open", "higher", "building", "fort"}


def spahis_scenario(**options: object) -> dict:  # type: ignore[type-arg]
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][0] = {
        "name": "Spahis",
        "side": "Legion",
        "kind": "horse",
        "figures": 2,
        "weapons": ["french_rifle"],
        "traits": {"base_morale": 70},
    }
    raw["options"] = options
    return raw


RIFLEMEN_CHARGE_SPAHIS = (
    [3, 7],
    "unit:Riflemen",
    "charge",
    "target:Spahis",
    "desert",
    [3, 4, 5],
    "yes",  # contact
)


def charge_the_spahis(raw: dict, position: str, closing: list[int]) -> tuple[GameState, list[str]]:  # type: ignore[type-arg]
    return play(
        new_game(raw),
        *RIFLEMEN_CHARGE_SPAHIS,
        position,
        [1, 0],
        "counter",
        closing,
    )


@pytest.mark.parametrize("position", ["open", "fort"])
def test_counter_charge_against_a_failed_attacker(position: str) -> None:
    state, log = charge_the_spahis(spahis_scenario(), position, [9, 9])
    left = ", leaving the fort" if position == "fort" else ""
    assert f"Spahis counter-charge{left}" in log
    assert (
        "Riflemen falter (morale rolled 99 against 60%): the counter-charge strikes with +3" in log
    )
    bout = RULES.advance(state, Rolled((5, 5, 5)))
    assert bout.outcome is not None
    defenders = bout.outcome.details[1]
    assert defenders.startswith("defenders 5 = 9 (cavalry (counter-)charging +1, counter-charge")
    assert "fort" not in defenders  # the counter-chargers left their position


@pytest.mark.parametrize(("bonus", "defenders_total"), [("failed_attacker", 6), ("always", 9)])
def test_counter_charge_against_an_attacker_that_holds(bonus: str, defenders_total: int) -> None:
    state, log = charge_the_spahis(spahis_scenario(counter_charge_bonus=bonus), "open", [0, 0])
    assert "Riflemen close in: morale rolled 00 against 60%, holds" in log
    bout = RULES.advance(state, Rolled((5, 5, 5)))
    assert bout.outcome is not None
    assert bout.outcome.details[1].startswith(f"defenders 5 = {defenders_total}")


def test_arab_cavalry_counter_charging_also_gets_the_arab_charge_bonus() -> None:
    state, log = play(
        new_game(hidden_arabs=False),
        [9, 0],
        "unit:Section",
        "charge",
        "target:Horse",
        "desert",
        [3, 4, 5],
        "yes",
        "open",
        [1, 0],  # the Horse holds
        "counter",
        [0, 0],  # the Section holds
    )
    assert "Horse counter-charges" in log
    bout = RULES.advance(state, Rolled((5, 5, 5)))
    assert bout.outcome is not None
    assert bout.outcome.details[1] == (
        "defenders 5 = 7 (cavalry (counter-)charging +1, Arab (counter-)charging +1)"
    )


def test_failed_attacker_without_counter_charge_has_no_melee() -> None:
    state, log = play(
        new_game(spahis_scenario()),
        *RIFLEMEN_CHARGE_SPAHIS,
        "open",
        [1, 0],
        "none",
        [9, 9],
    )
    assert any(
        line.startswith("Riflemen morale: rolled 99 against 60%: fails: the unit routs")
        for line in log
    )
    assert "no melee" in log and state.band("Riflemen").routed
    assert not state.band("Riflemen").removed  # closing into melee never removes


def test_defender_that_fails_its_test_routs_and_there_is_no_melee() -> None:
    state, log = play(
        new_game(spahis_scenario()),
        *RIFLEMEN_CHARGE_SPAHIS,
        "building",
        [9, 9],
    )
    assert "Riflemen take the ground" in log
    assert state.band("Spahis").routed and not state.band("Spahis").removed


@pytest.mark.parametrize(("can_be_removed", "removed"), [(False, False), (True, True)])
def test_a_shaky_charged_unit_routs_or_is_removed_by_option(
    can_be_removed: bool, removed: bool
) -> None:
    raw = spahis_scenario(charged_unit_can_be_removed=can_be_removed)
    raw["units"][0]["traits"] = {"base_morale": 40}  # 50% or less: removal, if it may be
    state, log = play(new_game(raw), *RIFLEMEN_CHARGE_SPAHIS, "open", [9, 9])
    assert "Riflemen take the ground" in log
    spahis = state.band("Spahis")
    assert (spahis.removed, spahis.routed) == (removed, not removed)
    # a removed unit's figures are said apart from the side's, beside its "2/2 (removed)"
    assert RULES.describe(state)[1] == "Legion: " + (
        "2 of 4 figures on the table, 2 more in removed units" if removed
        else "4 of 4 figures on the table"
    )


MG_CREW_SHOT_AWAY = (
    [3, 7],
    "unit:Riflemen",
    "stay",
    "target:MG",
    "short",
    "no",
    "yes",  # infantry within 4" of the gun
    "2",  # 2 others within 5": the crew are 2 of 4, 50%
    [9, 9, 9, 9, 0, 0],  # 8+ with +1 for not moving: 4 hits
    [0, 1, 7, 8, 0, 0, 0, 0],  # 00 and 10 under 50: 2 on the crew
    "unit:Section",
    "open",
    [0, 0],
)


def test_crew_targeting_shares_the_hits() -> None:
    state, log = play(new_game(hidden_arabs=False, turn_limit=3), *MG_CREW_SHOT_AWAY)
    assert "2 of 4 hits fall on the crew of MG" in log
    assert "MG loses 2: 0 left; the machine gun is abandoned" in log
    assert "Section loses 2: 2 left" in log
    assert state.band("MG").abandoned and not state.band("MG").removed


def test_hits_on_the_crew_alone_still_test_the_crew() -> None:
    state, log = play(
        new_game(hidden_arabs=False),
        *MG_CREW_SHOT_AWAY[:9],
        [0, 9, 7, 8, 0, 0, 0, 0],  # only 00 falls on the crew
        "none",
        "open",
    )
    assert "MG loses 1: 1 left" in log
    assert "3 hits fall on no one else" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.startswith("Morale")


MAN_THE_GUN = (
    [9, 0],
    "unit:Section",
    "man_gun",
    "unit:MG",
    "1",
    "trail",
    [5, 5, 5],
    "yes",
)


def test_infantry_man_the_gun_set_up_then_fire_one_die_a_man() -> None:
    state, _ = play(new_game(hidden_arabs=False, turn_limit=3), *MG_CREW_SHOT_AWAY)
    state, log = play(state, *MAN_THE_GUN[:4])
    assert options(state) == {"1", "2"}  # no more than the gun's crew
    state, log = play(state, *MAN_THE_GUN[4:])
    assert "1 of Section makes for MG" in log
    assert 'Section moves 10" (rolled 5, 5, 5: highest 2 dice = 10")' in log
    assert any(
        line.startswith("1 of Section mans MG: its next activation is a full") for line in log
    )
    section, gun = state.band("Section"), state.band("MG")
    assert (section.figures, section.detached, section.lost) == (1, 1, 2)
    assert (gun.figures, gun.size, gun.lost, gun.infantry_crew) == (1, 1, 0, True)
    assert gun.activated and gun.setting_up and not gun.can_fire(state.turn)
    assert RULES.describe(state)[1] == "Legion: 2 of 6 figures on the table"  # crew: no losses
    state, _ = play(state, "unit:Horse", "stay", "hold")
    assert state.turn == 2
    state, log = play(state, [9, 0], "unit:MG")
    assert options(state) == {"set_up"}  # the full action without firing
    state, log = play(state, "set_up")
    assert "MG: the new crew spend this action setting up; it fires from the next" in log
    state, _ = play(
        state,
        *([0, 9], "unit:Riflemen", "stay", "hold"),
        *([9, 0], "unit:Section", "stay", "hold"),
        *("unit:Horse", "stay", "hold"),
    )
    assert state.turn == 3
    state, _ = play(state, [9, 0], "unit:MG", "stay", "target:Riflemen", "short", "no")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 1  # one die a man


def test_manning_without_the_setup_action() -> None:
    raw = scenario_dict(hidden_arabs=False, turn_limit=3)
    raw["options"] = {"gun_crew_setup_action": False}
    state, _ = play(new_game(raw), *MG_CREW_SHOT_AWAY, *MAN_THE_GUN)
    assert not state.band("MG").setting_up
    state, _ = play(state, "unit:Horse", "stay", "hold", [9, 0], "unit:MG")
    assert "set_up" not in options(state)


def test_infantry_that_fall_short_of_the_gun() -> None:
    state, log = play(
        new_game(hidden_arabs=False, turn_limit=3), *MG_CREW_SHOT_AWAY, *MAN_THE_GUN[:-1], "no"
    )
    assert "1 of Section does not reach MG this time" in log
    assert state.band("MG").abandoned and state.band("Section").detached == 0


def _gun_hits_the_riflemen() -> tuple[GameState, list[str]]:
    """The Legion's gun fires grapeshot at the Riflemen and hits: 4 - 1 crew + 4 = 7."""
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][1] = {
        "name": "Gun",
        "side": "Legion",
        "kind": "gun",
        "figures": 3,
        "weapons": ["french_cannon"],
        "traits": {"base_morale": 70},
    }
    return play(
        new_game(raw),
        [9, 0],
        "unit:Section",
        "stay",
        "hold",
        [9, 0],
        "unit:Gun",
        "stay",
        "target:Riflemen",
        "short",
        "no",
        "yes",
        [4],
    )


def test_cannon_hit_and_blast() -> None:
    state, log = _gun_hits_the_riflemen()
    assert "Gun's cannon hits: place the 3\" blast" in log
    assert options(state) == {str(n) for n in range(1, 7)}
    state, _ = play(state, "3")
    # the template covers whoever stands under it, the gun's own side included
    assert options(state) == {"unit:Section", "unit:Gun", "unit:Horse", "none"}
    state, log = play(state, "none", [5, 4, 9], "open", [0, 0])
    assert "Riflemen lose 2: 4 left" in log


def test_a_blast_over_two_units_rolls_for_each_and_tests_both() -> None:
    state, _ = _gun_hits_the_riflemen()
    state, _ = play(state, "3", "unit:Horse")
    assert options(state) == {"1", "2"}  # the Horse has 2 figures
    state, _ = play(state, "2")
    assert options(state) == {"unit:Section", "unit:Gun", "none"}
    state, _ = play(state, "none")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.startswith("Riflemen: Cannon blast")
    state, log = play(state, [5, 4, 9])
    assert log == ["the blast kills 2 of Riflemen"]
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.startswith("Horse: Cannon blast")
    assert step.request.dice_count == 2
    state, log = play(state, [6, 1])
    assert log[:3] == [
        "the blast kills 1 of Horse",
        "Riflemen lose 2: 4 left",
        "Horse loses 1: 1 left",
    ]
    assert set(state.ctx.pending) == {"Riflemen", "Horse"}  # both test morale


def test_wrong_input_is_refused_and_state_untouched() -> None:
    state = new_game()
    with pytest.raises(RulesError, match="expected 2 dice"):
        RULES.advance(state, Rolled((1,)))
    with pytest.raises(RulesError, match="reads 0-9"):
        RULES.advance(state, Rolled((10, 1)))
    with pytest.raises(RulesError):
        RULES.advance(state, Chosen("move"))
    assert state == new_game()


def test_example_scenario_plays_from_the_package() -> None:
    text = resources.files("companion.scenarios").joinpath("scrubs_of_the_desert.toml").read_text()
    scenario = RULES.load_scenario(tomllib.loads(text))
    assert all("base_morale" in u.traits for u in scenario.units)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["units"][0].update(traits={}), ["Section", "base_morale"]),
        (lambda d: d["units"][0].update(traits={"base_morale": 120}), ["Section", "base_morale"]),
        (lambda d: d["units"][0].update(weapons=["arab_rifle"]), ["Section", "weapons", "french"]),
        (lambda d: d["units"][1].update(weapons=["french_rifle"]), ["MG", "weapons", "gun"]),
        (lambda d: d["units"][2].update(kind="camel"), ["Riflemen", "kind"]),
        (lambda d: d["units"][3].update(figures=99), ["Horse", "figures"]),
        (lambda d: d.update(setup={"fort": True}), ["turn_limit"]),
        (lambda d: d.update(options={"double_zero": "ten"}), ["double_zero"]),
    ],
)
def test_bad_scenarios_name_unit_and_field(change, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    raw = scenario_dict()
    change(raw)
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario(raw)
    for word in words:
        assert word in str(caught.value)


HORSE_CHARGES_MG = (
    [3, 7],
    "unit:Horse",
    "charge",
    "target:MG",
    "desert",
    [3, 4, 5],
    "yes",
    "open",
    [0, 0],  # the MG crew hold
    "fire",
    [0, 0, 0, 9],  # defensive fire: one hit and three zeros
    [0, 0],  # the Horse closes
    [5, 5, 5],  # 5+2 against 10
)
QUIET_TURN_REST = ([9, 0], "unit:Section", "stay", "hold", "unit:Riflemen", "stay", "hold")


def test_a_jam_in_defensive_fire_silences_the_gun_this_turn_and_next() -> None:
    state, log = play(new_game(hidden_arabs=False, turn_limit=3), *HORSE_CHARGES_MG)
    assert "MG jams: no more fire this turn or next" in log
    assert "Horse loses 1: 0 left; the unit is gone" in log
    for turn in (1, 2):
        state, log = play(state, [9, 0], "unit:MG", "stay")
        assert "MG stays put" in log and isinstance(RULES.next_step(state), AwaitRoll)
        assert "MG is jammed: no fire this turn" in log  # the referee is told why
        state, _ = play(state, *QUIET_TURN_REST)
        assert state.turn == turn + 1
    state, _ = play(state, [9, 0], "unit:MG", "stay")
    assert options(state) == {"target:Riflemen", "hold"}


def test_a_jam_that_only_costs_the_next_turn() -> None:
    raw = scenario_dict(hidden_arabs=False, turn_limit=3)
    raw["options"] = {"jam_silences_this_turn": False}
    state, log = play(new_game(raw), *HORSE_CHARGES_MG)
    assert "MG jams: no fire next turn" in log
    assert "  MG: 2/2 (jammed in turn 2)" in RULES.describe(state)
    state, _ = play(state, [9, 0], "unit:MG", "stay")
    assert options(state) == {"target:Riflemen", "hold"}  # still fires this turn
    state, _ = play(state, "hold", *QUIET_TURN_REST)
    assert state.turn == 2
    state, log = play(state, [9, 0], "unit:MG", "stay")
    assert "MG stays put" in log and isinstance(RULES.next_step(state), AwaitRoll)  # silent
    assert "MG is jammed: no fire this turn" in log
    state, _ = play(state, *QUIET_TURN_REST)
    state, _ = play(state, [9, 0], "unit:MG", "stay")
    assert options(state) == {"target:Riflemen", "hold"}  # fires again in turn 3


def test_defensive_fire_gets_no_bonus_for_standing_still() -> None:
    state, _ = play(new_game(hidden_arabs=False), *HORSE_CHARGES_MG[:10])
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.endswith(": hit on 7+")


@pytest.mark.parametrize(
    ("move_dice", "bonus"), [([0, 4, 5], "hit on 6+ (7+ +1)"), ([3, 4, 5], ": hit on 7+")]
)
def test_a_unit_that_rolls_no_inches_has_not_moved_when_it_fires(
    move_dice: list[int], bonus: str
) -> None:
    state, _ = play(
        new_game(hidden_arabs=False),
        [7, 3],
        "unit:Section",
        "move",
        "rough",
        move_dice,
        "target:Riflemen",
        "short",
        "no",
    )
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.endswith(bonus)


RIFLEMEN_HIT_ONCE = (
    [3, 7],
    "unit:Riflemen",
    "stay",
)


def test_a_removed_machine_gun_crew_leaves_the_gun_to_man() -> None:
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][1]["traits"] = {"base_morale": 50}
    state, log = play(
        new_game(raw),
        *RIFLEMEN_HIT_ONCE,
        "target:MG",
        "short",
        "no",
        "no",  # no infantry near: the hits fall on the crew
        [9, 0, 0, 0, 0, 0],
        "open",
        [9, 9],  # 50 - 10 = 40: fails at 50% or less
    )
    assert "MG loses 1: 1 left" in log
    assert "MG's crew is removed; the machine gun is left for infantry to man" in log
    assert state.band("MG").abandoned and not state.band("MG").removed


def test_units_that_move_are_spotted_and_sighting_ranges() -> None:
    state, log = play(new_game(), [7, 3], "unit:Section")
    assert options(state) == {"target:Riflemen", "skip"}  # the Horse is in plain view
    state, log = play(state, "target:Riflemen", "beyond")
    assert 'Riflemen are beyond 24": no sighting' in log
    assert options(state) == {"skip"}  # one try a hidden unit an activation
    state, _ = play(state, "skip", "stay", "hold", [0, 9], "unit:Riflemen", "move", "rough")
    stood, log = play(state, [0, 0, 0])  # 0": it has not moved, so it stays unseen
    assert 'Riflemen move 0"' in log[0] and not stood.band("Riflemen").spotted
    state, log = play(state, [1, 2, 3])
    assert "Riflemen give themselves away: spotted" in log and state.band("Riflemen").spotted


def test_sighting_within_2_inches_needs_no_roll() -> None:
    state, log = play(new_game(), [7, 3], "unit:Section", "target:Riflemen", "0-2")
    assert 'Riflemen are within 2": sighted' in log and state.band("Riflemen").spotted


def test_sighting_only_when_moving() -> None:
    raw = scenario_dict()
    raw["options"] = {"sighting_when": "moving"}
    state, _ = play(new_game(raw), [7, 3], "unit:Section")
    assert "skip" not in options(state)  # straight to the order
    state, _ = play(state, "move")
    assert options(state) == {"target:Riflemen", "skip"}
    state, log = play(state, "target:Riflemen", "8-12", [7], "skip")
    assert "Riflemen sighted (rolled 7 needing 7+: sighted)" in log
    assert options(state) == {"desert", "trail", "rough"}


def test_routed_unit_loses_its_action_and_recovers_at_the_end_of_the_turn() -> None:
    state, log = play(
        new_game(hidden_arabs=False),
        *RIFLEMEN_HIT_ONCE,
        "target:Section",
        "short",
        "no",
        [9, 0, 0, 0, 0, 0],
        "open",
        [8, 0],  # 80 against 70 - 10 = 60: over 50%, so a rout
    )
    assert any(
        line.startswith('Section morale: rolled 80 against 60%: fails: the unit routs back 12"')
        for line in log
    )
    assert state.band("Section").routed and state.band("Section").activated
    state, _ = play(state, [9, 0])
    assert options(state) == {"unit:MG"}  # the routed Section has lost its action
    state, log = play(state, "unit:MG", "stay", "hold", "unit:Horse", "stay", "hold")
    assert "End of turn 1" in log
    assert not state.band("Section").routed and not state.band("Section").activated


def guns_scenario(**options: object) -> dict:  # type: ignore[type-arg]
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][1] = {
        "name": "Gun",
        "side": "Legion",
        "kind": "gun",
        "figures": 4,
        "weapons": ["french_cannon"],
        "traits": {"base_morale": 70, "limbered": True},
    }
    raw["units"][3] = {
        "name": "Old Cannon",
        "side": "Arabs",
        "kind": "gun",
        "figures": 3,
        "weapons": ["arab_cannon"],
        "traits": {"base_morale": 50},
    }
    raw["options"] = options
    return raw


@pytest.mark.parametrize(
    ("row", "reason"), [("arab_foot", "Arab foot"), ("french_foot", "French foot")]
)
def test_arab_gun_movement_row(row: str, reason: str) -> None:
    state, _ = play(new_game(guns_scenario(arab_gun_moves_as=row)), [3, 7], "unit:Old Cannon")
    assert options(state) == {"move", "stay"}
    state, _ = play(state, "move", "desert")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason == f"Leader move: {reason} on desert"
    state, log = play(state, [1, 5, 9])
    assert "Old Cannon limbers up to move: no fire until a later whole move unlimbers it" in log
    assert state.band("Old Cannon").limbered


@pytest.mark.parametrize("fire_after", [True, False])
def test_unlimbering_takes_the_move(fire_after: bool) -> None:
    state, _ = play(new_game(guns_scenario(fire_after_unlimbering=fire_after)), [9, 0], "unit:Gun")
    assert options(state) == {"move", "unlimber", "stay"}
    state, log = play(state, "unlimber")
    assert "Gun spends its move to unlimber" in log and not state.band("Gun").limbered
    if fire_after:
        assert "target:Riflemen" in options(state)
    else:
        assert "it fires from its next activation" in log
        assert state.band("Gun").activated


def test_a_gun_that_rolls_no_distance_stays_unlimbered() -> None:
    raw = guns_scenario()
    raw["units"][1]["traits"] = {"base_morale": 70}
    state, log = play(new_game(raw), [9, 0], "unit:Gun", "move", "desert", [0, 0, 5])
    assert 'Gun moves 0" (rolled 0, 0, 5: lowest 2 dice = 0")' in log
    assert not any("limbers up" in line for line in log)
    assert not any("change formation" in line for line in log)  # a gun has no formation
    assert not state.band("Gun").limbered
    assert "target:Riflemen" in options(state)  # still deployed: it may fire


def test_a_limbered_gun_cannot_fire() -> None:
    state, log = play(new_game(guns_scenario()), [9, 0], "unit:Gun", "stay")
    assert "Gun stays put" in log and isinstance(RULES.next_step(state), AwaitRoll)
    # The referee who expected a "Fire at?" is told why there is none.
    assert "Gun is limbered: no fire until a whole move unlimbers it" in log


@pytest.mark.parametrize(("cover_on_blast", "meaning"), [(False, "5+ kills"), (True, "6+ kills")])
def test_blast_in_cover(cover_on_blast: bool, meaning: str) -> None:
    raw = guns_scenario(blast_cover_modifier=cover_on_blast)
    raw["units"][1]["traits"] = {"base_morale": 70}
    state, log = play(
        new_game(raw),
        [9, 0],
        "unit:Gun",
        "stay",
        "target:Riflemen",
        "long",
        "yes",  # in cover
        [9],  # 9 - 1 against 8+
    )
    assert "Gun's cannon hits: place the 3\" blast" in log
    state, _ = play(state, "2", "none")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.groups[0].faces_meaning.startswith(meaning)


def test_cannon_crew_penalty_in_play() -> None:
    state, _ = play(
        new_game(guns_scenario()), [3, 7], "unit:Old Cannon", "stay", "target:Section", "short"
    )
    state, _ = play(state, "no", "no")  # no cover, not under 6"
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason == "Arab cannon: hit on 9+ (8+ -1)"


def hook_game(**options: object) -> GameState:
    raw = scenario_dict(figures_over_wall_to_win=6)
    raw["options"] = options
    return new_game(raw)


@pytest.mark.parametrize(("first", "over_after_throw"), [(True, 1), (False, 2)])
def test_hook_thrower_and_the_free_climber(first: bool, over_after_throw: int) -> None:
    state, log = play(
        hook_game(hook_thrower_is_first_climber=first),
        [3, 7],
        "unit:Riflemen",
        "hook",
        "2",
        [6],  # 6 - 2 = 4
    )
    assert "the 2 defending the hook do nothing else this turn" in log
    assert "Riflemen give themselves away: spotted" in log
    assert state.band("Riflemen").over_wall == over_after_throw
    assert options(state) == {"yes", "no"}
    state, log = play(state, "yes")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.endswith(
        "the second figure this turn"
    )


def test_climbing_a_hook_already_up() -> None:
    state, _ = play(hook_game(), [3, 7], "unit:Riflemen", "hook", "0", [4], "no")
    state, _ = play(state, [7, 3], "unit:Section", "stay", "target:Riflemen", "short", "no")
    state, _ = play(state, [0, 0, 0, 0])  # four misses
    state, _ = play(state, [0, 9], "unit:Horse", "stay", "hold", "unit:MG", "stay", "hold")
    assert state.turn == 2
    state, log = play(state, [0, 9], "unit:Riflemen")
    assert "climb" in options(state)
    state, log = play(state, "climb", "yes", [5], "yes", [8])
    assert state.band("Riflemen").over_wall == 4
    assert "Riflemen: 4 over the wall" in log


def test_the_hook_fight_loser_tests_morale() -> None:
    state, _ = play(hook_game(), [3, 7], "unit:Riflemen", "hook", "0", [4], "yes", [5])
    assert state.band("Riflemen").over_wall == 2
    state, log = play(state, "no", [7, 3], "unit:Section", "attack_hook", "unit:Riflemen")
    assert "Section attacks the hook of Riflemen" in log
    state, log = play(state, [9, 1], [9, 1])  # two French wins
    assert "the hook of Riflemen is thrown down" in log
    assert "Riflemen took more casualties: morale check" in log
    step = RULES.next_step(state)
    # 60 less 10 a figure for a unit of 6, on the wall in the open
    assert isinstance(step, AwaitRoll) and step.request.reason == "Morale: roll 40% or under"


def test_no_leader_counts_in_a_hook_fight() -> None:
    # the few figures at the hook are not the units' leaders: neither side gets his +1
    state, _ = play(hook_game(), [3, 7], "unit:Riflemen", "hook", "0", [4], "yes", [5])
    state, _ = play(state, "no", [7, 3], "unit:Section", "attack_hook", "unit:Riflemen")
    assert state.band("Section").leader  # the sergeant stays with the rest of the section
    params = _bout_params(state)
    assert (params["attacker_leader"], params["defender_leader"]) == (False, False)


def duel(arab_figures: int = 1, **setup: object) -> GameState:
    raw = scenario_dict(hidden_arabs=False, fort=False, figures_over_wall_to_win=0, **setup)
    raw["units"] = [raw["units"][0], {**raw["units"][2], "figures": arab_figures}]
    return new_game(raw)


def test_a_side_with_no_unit_left_loses_at_once() -> None:
    state, log = play(duel(), [9, 0], "unit:Section", "stay", "target:Riflemen", "short", "no")
    state, log = play(state, [9, 0, 0, 0])
    assert log[-2:] == ["Riflemen lose 1: 0 left; the unit is gone", "Game over: Legion wins"]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Legion"
    with pytest.raises(RulesError, match="the game is over"):
        RULES.advance(state, Rolled((1, 1)))


@pytest.mark.parametrize(
    ("arab_figures", "hits", "winner"),
    [
        (4, [9, 0, 0, 0], "Legion"),  # Legion 4/4 against 3/4
        (4, [0, 0, 0, 0], None),  # 4/4 each: a draw
    ],
)
def test_at_the_turn_limit_the_larger_share_wins(
    arab_figures: int, hits: list[int], winner: str | None
) -> None:
    state, _ = play(
        duel(arab_figures, turn_limit=1),
        [9, 0],
        "unit:Section",
        "stay",
        "target:Riflemen",
        "short",
        "no",
        hits,
    )
    if hits.count(9):
        state, _ = play(state, "open", [0, 0])
    state, log = play(state, "unit:Riflemen", "stay", "hold")
    assert log[-2:] == [
        "End of turn 1",
        f"Game over: {winner or 'a draw'}" + (" wins" if winner else ""),
    ]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == winner


@pytest.mark.parametrize(("carries", "bonus"), [(True, (0, 1)), (False, (0, 0))])
def test_toss_bonus_at_the_turn_end(carries: bool, bonus: tuple[int, int]) -> None:
    raw = scenario_dict(hidden_arabs=False, fort=False, figures_over_wall_to_win=0, turn_limit=2)
    raw["units"] = [raw["units"][0], raw["units"][2]]
    raw["options"] = {"activation_bonus_carries_over": carries}
    state, _ = play(new_game(raw), [9, 0], "unit:Section", "stay", "hold")
    assert state.bonus == (0, 1)
    state, log = play(state, "unit:Riflemen", "stay", "hold")
    assert "End of turn 1" in log and state.bonus == bonus


def test_french_with_no_distance_may_change_formation() -> None:
    state, log = play(new_game(hidden_arabs=False), [9, 0], "unit:Section", "move", "rough")
    state, log = play(state, [0, 5, 5])
    assert 'Section moves 0" (rolled 0, 5, 5: lowest die = 0")' in log
    assert "Section may still change formation" in log


def _frozen_values(value: object, path: str) -> None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        assert type(value).__dataclass_params__.frozen, path  # type: ignore[attr-defined]
        for f in dataclasses.fields(value):
            _frozen_values(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            _frozen_values(item, f"{path}[{index}]")
    else:
        assert isinstance(value, (str, int, bool)), f"{path} is a {type(value).__name__}"


@pytest.mark.parametrize("seed", range(4))
def test_state_is_frozen_dataclasses_and_tuples_all_game(seed: int) -> None:
    import random

    raw = tomllib.loads(
        resources.files("companion.scenarios").joinpath("scrubs_of_the_desert.toml").read_text()
    )
    state: object = RULES.start(RULES.load_scenario(raw))
    rng = random.Random(seed)
    while not isinstance(step := RULES.next_step(state), GameOver):
        _frozen_values(state, "state")
        hash(state)  # frozen all the way down, so usable as a key
        if isinstance(step, AwaitChoice):
            given: Chosen | Rolled = Chosen(rng.choice(step.options).key)
        else:
            assert isinstance(step, AwaitRoll)
            given = Rolled(tuple(rng.choice(k.faces) for k in step.request.kinds))
        state = RULES.advance(state, given).state


# ------------------------------------------------------ the referee's words


def test_verbs_agree_with_plural_unit_and_side_names() -> None:
    _, log = play(new_game(hidden_arabs=False), [3, 7], "unit:Riflemen", "stay")
    assert log[0] == "toss: Legion 3+0 = 3, Arabs 7+0 = 7: Arabs win and activate a unit"
    assert log[1:] == ["Riflemen activate", "Riflemen stay put"]
    _, log = play(new_game(hidden_arabs=False), [7, 3], "unit:Section", "stay")
    assert log == [
        "toss: Legion 7+0 = 7, Arabs 3+0 = 3: Legion wins and activates a unit",
        "Section activates",
        "Section stays put",
    ]


@pytest.mark.parametrize(
    ("plural", "line"), [(True, "Riflemen activate"), (False, "Riflemen activates")]
)
def test_the_plural_trait_overrides_the_guess(plural: bool, line: str) -> None:
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][2]["traits"]["plural"] = plural
    _, log = play(new_game(raw), [3, 7], "unit:Riflemen")
    assert log[-1] == line


def test_the_plural_trait_must_be_true_or_false() -> None:
    raw = scenario_dict()
    raw["units"][2]["traits"]["plural"] = "yes"
    with pytest.raises(ScenarioError, match="plural"):
        new_game(raw)


def test_sighting_menu_says_none_before_a_try_and_after() -> None:
    # one word for the one choice: "None" and "No more" read as two different answers
    state, _ = play(new_game(), [7, 3], "unit:Section")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.options[-1].label == "None"
    state, _ = play(state, "target:Riflemen", "beyond")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.options[-1].label == "None"


def test_weapons_are_named_as_the_referee_reads_them() -> None:
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][0]["weapons"] = ["french_rifle", "french_pistol"]
    state, _ = play(new_game(raw), [7, 3], "unit:Section", "stay", "target:Horse")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice)
    assert [c.label for c in step.options] == ["French rifle", "French pistol"]
    state, _ = play(state, "french_rifle", "short", "no")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "French rifle fire at short range: hit on 6+ (7+ +1)"
    assert step.request.groups[0].label == "French rifle"


def test_a_failed_hook_names_the_roll_once() -> None:
    _, log = play(new_game(), [3, 7], "unit:Riflemen", "hook", "0", [2])
    assert "Riflemen's hook falls back (rolled 2, needing 4+)" in log


def test_the_status_line_says_where_the_turn_is_in_words() -> None:
    state = new_game()
    assert RULES.describe(state)[0] == (
        "Test fort: turn 1/2, the toss for the next activation; toss bonus Legion +0, Arabs +0"
    )
    state, _ = play(state, [3, 7])
    assert "Arabs to activate a unit" in RULES.describe(state)[0]
    state, _ = play(state, "unit:Riflemen")
    assert "Arabs activating Riflemen" in RULES.describe(state)[0]


def test_a_rout_takes_the_climbers_back_off_the_wall() -> None:
    raw = scenario_dict(turn_limit=3, figures_over_wall_to_win=3, hidden_arabs=False)
    raw["units"] = [
        {"name": "Sec", "side": "Legion", "kind": "foot", "figures": 4,
         "weapons": ["french_rifle"], "traits": {"base_morale": 70}},
        {"name": "Foot", "side": "Arabs", "kind": "foot", "figures": 6,
         "weapons": ["arab_rifle"], "traits": {"base_morale": 95}},
    ]  # fmt: skip
    state, _ = play(new_game(raw), [1, 5], "unit:Foot", "hook", "0", [9], "yes", [9], "no")
    assert state.band("Foot").over_wall == 2 and state.band("Foot").hook_up
    state, log = play(
        state, "unit:Sec", "stay", "target:Foot", "short", "no", [9, 0, 0, 0], "open", [9, 9]
    )
    assert "Foot leaves the wall" in log
    foot = state.band("Foot")
    assert (foot.over_wall, foot.hook_up) == (0, False) and state.over_wall() == 0


# ------------------------------------------------- one screen, one story (referee audit)


def _outcome_of(state: GameState, dice: list[int]) -> Outcome:
    transition = RULES.advance(state, Rolled(tuple(dice)))
    assert transition.outcome is not None
    return transition.outcome


def test_the_toss_result_names_the_sides() -> None:
    out = _outcome_of(new_game(), [7, 3])
    assert out.details == (
        "Legion 7+0 = 7, Arabs 3+0 = 3: Legion activates a unit",
        "bonuses now Legion +0, Arabs +1",
    )
    assert _outcome_of(new_game(), [3, 7]).details[0].endswith(": Arabs activate a unit")
    tie = _outcome_of(new_game(), [4, 4])
    assert tie.details == ("Legion 4+0 = 4, Arabs 4+0 = 4: a tie, toss again",)
    # the headline names the winner: "Activates: Legion", never "Side activating: ..."
    assert categories(out.headline_label) == ("activates", {0: "tie"})


def test_the_range_menu_says_its_inches_in_words() -> None:
    raw = scenario_dict(hidden_arabs=False)
    state, _ = play(new_game(raw), [7, 3], "unit:Section", "stay", "target:Horse")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Range?"
    labels = [c.label for c in step.options]
    assert labels[0].startswith("Short, up to ") and labels[1].startswith("Long, up to ")
    assert not any("<=" in label for label in labels)


def test_the_fire_roll_s_reason_says_what_the_dice_are_for() -> None:
    # the dice-entry screen has room for what follows the reason's topic only
    state, _ = play(new_game(hidden_arabs=False), [7, 3], "unit:Section", "stay", "target:Horse")
    state, _ = play(state, "short", "no")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert rest_of(step.request.reason, topic(step.request.reason)[0]) == "Hit on 6+ (7+ +1)"


def test_a_hit_on_horse_kills_the_horse_too_and_on_foot_only_the_man() -> None:
    state, _ = play(new_game(hidden_arabs=False), [7, 3], "unit:Section", "stay", "target:Horse")
    state, _ = play(state, "short", "no")
    on_horse = _outcome_of(state, [9, 9, 1, 1])
    assert on_horse.details[-1] == (
        "rolled 9, 9, 1, 1: 2 hits, each kills a figure (a horseman with his horse)"
    )
    state, _ = play(new_game(hidden_arabs=False), [7, 3], "unit:Section", "stay")
    state, _ = play(state, "target:Riflemen", "short", "no")
    on_foot = _outcome_of(state, [9, 1, 1, 1])
    assert on_foot.details[-1] == "rolled 9, 1, 1, 1: 1 hit, kills a figure"
    missed = _outcome_of(state, [1, 1, 1, 1])
    assert missed.details[-1] == "rolled 1, 1, 1, 1: 0 hits"
