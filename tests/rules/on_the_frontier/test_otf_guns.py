"""Guns deployed or limbered: the box remembers which, since only a move that pays the
4" to deploy leaves guns ready to shoot. Checked on the unit's state, on the orders
offered and on what the play-by-play says."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest
from otf_helpers import (
    BLUE_FIRST,
    RULES,
    charge_into_contact,
    choice_keys,
    new_game,
    play,
    scenario_dict,
    unit,
)

from companion.rules.core import AwaitChoice, ScenarioError
from companion.rules.on_the_frontier.game import GameState

# A gun's move with no broken ground and no enemy within 6", deploying or not, rolled 3.
MOVE_LIMBERED = ("unit:Gun", "move", "no", "no", "no", [3])
MOVE_DEPLOYING = ("unit:Gun", "move", "no", "yes", "no", [3])
# Both players end their orders: no charges, so the turn ends and the next one opens.
REST_OF_TURN = ("done", "done")


def blue_gun(**traits: Any) -> dict[str, Any]:
    return unit("Gun", "Blue", "artillery", 4, "artillery", traits=traits)


def order_prompt(state: GameState) -> str:
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.options
    return step.prompt


def test_guns_start_deployed_and_may_shoot() -> None:
    state = new_game(blue_gun())
    assert not state.force("Gun").limbered
    state, _ = play(state, BLUE_FIRST, "unit:Gun")
    assert order_prompt(state) == "Order?"
    assert choice_keys(state)[0] == "shoot"


def test_a_gun_that_moves_without_deploying_is_limbered_and_not_offered_shoot() -> None:
    state, log = play(new_game(blue_gun()), BLUE_FIRST, *MOVE_LIMBERED)
    assert 'Gun may move 9"' in log  # 6 + 3, nothing taken off
    assert state.force("Gun").limbered
    assert 'Gun is limbered: no shooting until a move ends deploying (-4")' in log
    state, _ = play(state, *REST_OF_TURN, BLUE_FIRST, "unit:Gun")
    assert state.turn == 2
    assert order_prompt(state) == "Limbered: order?"
    assert choice_keys(state) == ["move", "stand"]


def test_a_gun_that_moves_deploying_may_shoot_next_turn() -> None:
    state, log = play(new_game(blue_gun()), BLUE_FIRST, *MOVE_DEPLOYING)
    assert 'Gun may move 5"' in log  # 6 + 3 - 4 to deploy
    assert "Gun deploys: may shoot from the next order" in log
    assert not state.force("Gun").limbered
    state, _ = play(state, *REST_OF_TURN, BLUE_FIRST, "unit:Gun")
    assert order_prompt(state) == "Order?"
    assert "shoot" in choice_keys(state)


def test_a_gun_the_scenario_starts_limbered_deploys_with_a_move_then_shoots() -> None:
    state = new_game(blue_gun(limbered=True))
    assert state.force("Gun").limbered
    assert "  Gun: 4/4 up, 0 down, 0 lost (limbered)" in RULES.describe(state)
    state, _ = play(state, BLUE_FIRST, "unit:Gun")
    assert "shoot" not in choice_keys(state)
    state, _ = play(state, "move", "no", "yes", "no", [1])  # 6 + 1 - 4: it may stay put
    assert not state.force("Gun").limbered
    assert "(limbered)" not in "\n".join(RULES.describe(state))
    state, _ = play(state, *REST_OF_TURN, BLUE_FIRST, "unit:Gun", "shoot", "target:Muskets")
    assert state.stage == "shoot_range"


def test_a_limbered_gun_may_not_hold_fire_even_when_any_shooter_may() -> None:
    deployed, _ = play(
        new_game(blue_gun(), options={"hold_fire_kinds": "any_shooter"}), BLUE_FIRST, "unit:Gun"
    )
    assert "hold" in choice_keys(deployed)
    limbered, _ = play(
        new_game(blue_gun(limbered=True), options={"hold_fire_kinds": "any_shooter"}),
        BLUE_FIRST,
        "unit:Gun",
    )
    assert "hold" not in choice_keys(limbered)


def test_other_orders_leave_the_guns_as_they_are() -> None:
    state, _ = play(new_game(blue_gun(limbered=True)), BLUE_FIRST, "unit:Gun", "stand")
    assert state.force("Gun").limbered
    state, _ = play(new_game(blue_gun()), BLUE_FIRST, "unit:Gun", "stand")
    assert not state.force("Gun").limbered


# The Horse charges a Red gun: 2 hits on the gunners, none back, so the gun retreats
# (both sides roll before any hit is laid down: four gunners, four dice).
GUN_LOSES_A_CHARGE = (
    BLUE_FIRST,
    "unit:Horse",
    *charge_into_contact("Gun"),
    [6, 6, 1, 1],
    [1, 1, 1, 1],
    "no",  # the Horse does not pursue
)


@pytest.mark.parametrize(("option", "limbered"), [(True, True), (False, False)])
def test_guns_that_retreat_from_a_charge_end_limbered_unless_the_option_says(
    option: bool, limbered: bool
) -> None:
    red_gun = unit("Gun", "Red", "artillery", 4, "artillery")
    state = new_game(red_gun, options={"retreat_limbers_guns": option})
    state, log = play(state, *GUN_LOSES_A_CHARGE)
    assert "Gun loses: it retreats a full move" in log
    assert state.force("Gun").limbered is limbered
    said = 'Gun limbers to go back: no shooting until a move ends deploying (-4")'
    assert (said in log) is limbered
    state, _ = play(state, [2, 5], "unit:Gun")  # turn 2, Red first
    assert ("shoot" in choice_keys(state)) is not limbered


def test_only_guns_limber_and_the_trait_is_true_or_false() -> None:
    infantry = scenario_dict()
    infantry["units"][0]["traits"] = {"limbered": True}
    with pytest.raises(ScenarioError, match=r"Rifles.*traits\.limbered"):
        RULES.load_scenario(infantry)
    with pytest.raises(ScenarioError, match=r"Gun.*traits\.limbered"):
        RULES.load_scenario(scenario_dict(blue_gun(limbered="yes")))


def test_the_example_scenario_names_its_guns_deployed() -> None:
    text = resources.files("companion.scenarios").joinpath("on_the_frontier.toml").read_text()
    state = RULES.start(RULES.load_scenario(tomllib.loads(text)))
    assert isinstance(state, GameState)
    assert not state.force("Mountain Gun").limbered
    assert state.options.retreat_limbers_guns
