"""A scripted two-turn game through `advance`, checking the play-by-play line by line.

Every number below was worked out by hand from the rules: dice per figure, the
hit number after modifiers, Steady!, Come On! and the charge result.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from otf_helpers import HORSE_CHARGES_MUSKETS, RULES, choice_keys, new_game, play, unit

from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameOver,
    Rolled,
    RulesError,
)
from companion.rules.on_the_frontier.game import GROUND_PROMPT
from companion.ui.wording import categories

TURN_ONE = (
    [3, 3],  # tie: roll again
    [5, 2],  # Blue first
    "unit:Rifles",
    "shoot",
    "target:Muskets",
    "close",
    "no",
    [6, 5, 1, 2],  # 8 rifles: 4 dice on 5-6, 2 hits
    "unit:Horse",
    "charge",
    "target:Warband",
    "no",
    [3],  # 12 + 3
    "yes",
    "unit:Muskets",
    "hold",
    "unit:Warband",  # charged: it may only stand (tribesmen do not hold fire)
    "stand",
    # charges: Horse against Warband
    "none",
    [5, 6, 1, 1],  # 4 horsemen, a die each: 2 hits
    [1, 2, 3, 5],  # 8 tribesmen, a die per 2: 1 hit
    [6],  # Come On! for the Warband's chief
    "cancel",
)

TURN_TWO = (
    [1, 4],  # Red first
    "unit:Muskets",
    "hold",
    "unit:Warband",
    "charge",
    "target:Horse",
    "no",
    [6],  # 9 + 6
    "no",  # no Follow Me! reroll
    "yes",
    "unit:Rifles",
    "shoot",
    "target:Muskets",
    "close",
    "no",
    [5, 1, 1, 1],
    "yes",  # Muskets return fire
    "close",
    "no",
    [5],  # three muskets left: one die
    "yes",
    [6],  # Steady! cancels it
    "unit:Horse",
    "stand",
    # charges: Warband against Horse
    "none",
    [6, 1, 1],  # 7 tribesmen: 3 dice
    [1, 1, 1],  # 3 horsemen: 3 dice
    [1],  # Come On!: the chief is hit
)


def test_turn_one_play_by_play() -> None:
    state, log = play(new_game(), *TURN_ONE)
    assert log == [
        "Turn 1: initiative tied 3-3; roll again",
        "Turn 1: Blue 5, Red 2: Blue goes first",
        "Rifles shoot Muskets: 2 hits",
        "Muskets: 4 standing, 2 down",
        "Horse declares a charge on Warband",
        'Horse may move 15"',
        "Horse is in contact with Warband",
        "Muskets hold their fire",
        "Warband stands to meet the charge",
        "Charge: Horse against Warband",
        "Horse in contact: 2 hits on Warband",
        "Warband in contact: 1 hit on Horse",
        "Come On! (Chief with Warband) rolls 6: cancel or inflict a hit",
        "Come On!: Warband cancels a hit",
        "result: Horse took 1, Warband took 1",
        "Horse: 3 standing, 1 down",  # the hits lie on the table before anyone moves
        "Warband: 7 standing, 1 down",
        "tied: Horse falls back half a move",
        "End of turn 1",
    ]
    assert state.turn == 2 and state.stage == "initiative"
    assert state.force("Warband").figures == 7
    assert state.force("Horse").figures == 3
    assert state.force("Muskets").held_fire


def test_turn_two_return_fire_steady_come_on_and_the_end() -> None:
    state, log = play(new_game(), *TURN_ONE, *TURN_TWO)
    assert "Turn 2: Blue 1, Red 4: Red goes first" in log
    assert 'Warband may move 15"' in log
    assert "Muskets: 3 standing, 3 down" in log  # 3 of 6 is half: not shaken, still shoots
    assert "Muskets return fire at Rifles" in log
    assert "Muskets shoot Rifles: 1 hit" in log
    assert "Steady! (Capt A): the only hit cancelled" in log
    assert "Rifles: 8 standing, 0 down" in log  # the cancelled hit stands up again
    assert (
        "Come On! (Chief with Warband) rolls 1: Chief is hit; "
        "a replacement arrives at the end of turn 3"
    ) in log
    assert "result: Warband took 0, Horse took 1" in log
    assert "Horse loses: it retreats a full move" in log
    assert "Warband may occupy the position" in log
    assert log[-2:] == ["End of turn 2", "Game over: Blue wins"]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Blue"  # 10/12 standing beats 10/14
    assert state.force("Rifles").figures == 8
    assert state.force("Warband").leader_back_turn == 3
    assert any("Chief away till end of turn 3" in line for line in RULES.describe(state))


def test_hit_commander_returns_at_the_end_of_the_next_turn() -> None:
    state, _ = play(new_game(turn_limit=3), *TURN_ONE, *TURN_TWO)
    assert not state.force("Warband").has_leader
    state, log = play(state, [6, 1], "done", "done")
    assert "End of turn 3" in log
    assert state.force("Warband").has_leader


def test_rally_is_refused_within_6_inches_then_rolled() -> None:
    state, _ = play(new_game(turn_limit=3), *TURN_ONE)
    state, log = play(state, [1, 6], "unit:Muskets", "rally", "yes")
    assert 'no rally within 6" of the enemy; choose another order' in log
    assert "rally" not in choice_keys(state)
    state, _ = play(new_game(turn_limit=3), *TURN_ONE)
    state, log = play(state, [1, 6], "unit:Muskets", "rally", "no", [6, 3])
    assert "Muskets rally: 1 back, 0 removed, 1 still down" in log
    assert state.force("Muskets").figures == 5


def test_shaken_unit_cannot_shoot_or_charge() -> None:
    state, _ = play(
        new_game(), [5, 2], "unit:Rifles", "shoot", "target:Muskets", "close", "no", [6, 6, 6, 6]
    )
    assert state.force("Muskets").shaken
    state, _ = play(state, "unit:Horse", "stand", "unit:Muskets")
    keys = choice_keys(state)
    assert "shoot" not in keys and "charge" not in keys and "hold" not in keys
    assert "move" in keys and "rally" in keys


def test_charged_unit_that_held_fire_volleys_first() -> None:
    state, log = play(
        new_game(),
        [2, 5],
        "unit:Muskets",
        "hold",
        "unit:Warband",
        "stand",
        *HORSE_CHARGES_MUSKETS,
        "unit:Rifles",
        "stand",
        "yes",
        "no",
        [6, 5, 4],
    )
    assert "Muskets fire a volley at the charging Horse" in log
    assert "Muskets shoot Horse: 1 hit" in log  # cavalry: difficult target, 6s only
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == GROUND_PROMPT


def test_cavalry_that_wins_may_pursue() -> None:
    state, log = play(
        new_game(),
        [5, 2],
        *HORSE_CHARGES_MUSKETS,
        "unit:Rifles",
        "stand",
        "unit:Muskets",
        "stand",
        "unit:Warband",
        "stand",
        "none",
        "no",
        [6, 6, 6, 6],
        [1, 1, 1],
    )
    assert "Muskets give ground: Horse may pursue" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Pursue Muskets?"
    assert "Muskets lose: shaken, they rout" in log
    state, log = play(state, "yes", [5, 5, 1, 1])
    assert "Horse pursues Muskets and attacks again" in log
    assert "Horse cuts down 2 of the routed Muskets" in log
    assert state.force("Muskets").removed == 6
    assert log[-1] == "End of turn 1"


def test_wrong_input_is_refused_and_state_untouched() -> None:
    state = new_game()
    with pytest.raises(RulesError, match="expected"):
        RULES.advance(state, Rolled((1,)))
    with pytest.raises(RulesError):
        RULES.advance(state, Chosen("yes"))
    with pytest.raises(RulesError, match=r"expected a roll of .*, not the chip 'X'"):
        RULES.advance(state, ChipDrawn("X"))
    assert state == new_game()
    assert isinstance(RULES.next_step(state), AwaitRoll)


def test_example_scenario_follows_the_rules_company_sizes() -> None:
    text = resources.files("companion.scenarios").joinpath("on_the_frontier.toml").read_text()
    scenario = RULES.load_scenario(tomllib.loads(text))
    assert scenario.sides == ("British", "Tribesmen")
    sizes = {"infantry": 8, "skirmishers": 4, "cavalry": 4, "artillery": 4, "commander": 1}
    for u in scenario.units:
        if u.kind in sizes and not u.traits.get("engineers"):
            assert u.figures == sizes[u.kind], u.name
    kinds = {u.kind for u in scenario.units}
    assert {"infantry", "skirmishers", "tribesmen", "cavalry", "artillery", "commander"} <= kinds
    assert any(u.traits.get("engineers") for u in scenario.units)
    assert scenario.setup["demolition_target"] == "small_bridge"


def test_engineering_and_demolition_in_play() -> None:
    sappers = unit("Sappers", "Blue", "infantry", 4, "rifle", traits={"engineers": True})
    state = new_game(sappers, engineering=True, demolition_target="small_bridge", turn_limit=3)
    state, log = play(
        state,
        [5, 2],
        "unit:Sappers",
        "work",
        "task:redoubt",
        [4],
        "unit:Rifles",
        "work",
        "task:barricade",
        "yes",  # a difficult task
        "no",  # and no engineer with them
    )
    assert "Sappers work at: build 3 inches of redoubt, 4/6 points" in log
    assert "a difficult task needs an engineer present; choose another order" in log
    keys = choice_keys(state)
    assert "work" not in keys and "lay" not in keys  # only engineers lay charges
    state, log = play(state, "stand", "unit:Horse", "stand", "done", [5, 2], "unit:Sappers", "lay")
    assert "Sappers lay a demolition charge (1 laid)" in log
    assert any("Blue: 1 demolition charge laid" in line for line in RULES.describe(state))
    state, log = play(state, "done", "done", [5, 2], "unit:Sappers", "blow", [6])
    assert "Sappers blow the charges: 6 points, the small bridge is destroyed" in log
    assert state.demolished and state.charges_laid("Blue") == 0
    assert "lay" not in choice_keys(play(state, "unit:Rifles")[0])


def test_move_near_the_enemy_and_follow_me_reroll() -> None:
    state, log = play(new_game(), [5, 2], "unit:Rifles", "move", "yes", "yes", [2])
    assert 'Rifles may move 4"' in log  # 6 + 2 - 4 broken ground
    assert 'within 6" of the enemy: only towards the enemy or straight back' in log
    assert choice_keys(state) == ["no", "yes"]  # Follow Me! reroll?
    state, log = play(state, "yes", [5])
    assert "Follow Me!: Capt A has the d6 rerolled" in log
    assert 'Rifles may move 7"' in log
    assert state.force("Rifles").acted


def test_guns_deploying_lose_four_inches() -> None:
    gun = unit("Gun", "Blue", "artillery", 4, "artillery")
    _, log = play(new_game(gun), [5, 2], "unit:Gun", "move", "no", "yes", "no", [3])
    assert 'Gun may move 5"' in log


def test_charge_rolls_name_whose_dice_they_are() -> None:
    # Both sides and both commanders roll in turn with no menu between.
    state, _ = play(new_game(), *TURN_ONE[:-2])
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "Come On!: Chief with Warband must roll"


def test_steady_names_the_commander_and_the_unit() -> None:
    steady_die = [i for i, given in enumerate(TURN_TWO) if given == [6]][1]  # after the move's
    state, _ = play(new_game(), *TURN_ONE, *TURN_TWO[:steady_die])
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "Steady!: Capt A with Rifles may roll"


def test_a_hit_commander_is_replaced_at_the_end_of_the_next_turn() -> None:
    state, log = play(new_game(turn_limit=3), *TURN_ONE, *TURN_TWO)
    assert (
        "Come On! (Chief with Warband) rolls 1: Chief is hit; "
        "a replacement arrives at the end of turn 3"
    ) in log
    assert not any("replacement for Chief" in line for line in log)  # not yet
    state, log = play(state, [5, 2], "done", "done")
    assert log[-3:-1] == ["Warband: the replacement for Chief takes command", "End of turn 3"]
    assert state.force("Warband").has_leader


def _example_game() -> object:
    text = resources.files("companion.scenarios").joinpath("on_the_frontier.toml").read_text()
    return RULES.start(RULES.load_scenario(tomllib.loads(text)))


@pytest.mark.parametrize(
    ("dice", "line"),
    [
        ((3, 5), "British 3, Tribesmen 5: Tribesmen go first"),
        ((2, 1), "British 2, Tribesmen 1: British go first"),
        ((4, 4), "British 4, Tribesmen 4: a tie, roll again"),
    ],
)
def test_who_goes_first_is_said_with_the_sides_names(dice: tuple[int, int], line: str) -> None:
    outcome = RULES.advance(_example_game(), Rolled(dice)).outcome
    assert outcome is not None and outcome.details == (line,)
    # the headline names the side too ("Goes first: British"), not "Side first: ..."
    noun, _ = categories(outcome.headline_label) or ("", {})
    assert noun == "goes first"


def test_a_singular_side_goes_first_in_the_singular() -> None:
    outcome = RULES.advance(new_game(), Rolled((5, 2))).outcome
    assert outcome is not None and outcome.details == ("Blue 5, Red 2: Blue goes first",)
