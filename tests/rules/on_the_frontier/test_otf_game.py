"""A scripted two-turn game through `advance`, checking the play-by-play."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameOver,
    Rolled,
    RulesError,
    ScenarioError,
)
from companion.rules.on_the_frontier.game import GameState

RULES = get_ruleset("on_the_frontier")


def scenario_dict(**setup: object) -> dict:  # type: ignore[type-arg]
    return {
        "system": "on_the_frontier",
        "title": "Test skirmish",
        "sides": ["Blue", "Red"],
        "setup": {"turn_limit": 2, **setup},
        "units": [
            {
                "name": "Rifles",
                "side": "Blue",
                "kind": "infantry",
                "figures": 8,
                "weapons": ["rifle"],
                "leader": "Capt A",
            },
            {
                "name": "Horse",
                "side": "Blue",
                "kind": "cavalry",
                "figures": 4,
                "weapons": ["lance"],
            },
            {
                "name": "Warband",
                "side": "Red",
                "kind": "tribesmen",
                "figures": 8,
                "weapons": ["sword"],
                "leader": "Chief",
            },
            {
                "name": "Muskets",
                "side": "Red",
                "kind": "infantry",
                "figures": 6,
                "weapons": ["musket"],
            },
        ],
    }


def new_game(**setup: object) -> GameState:
    state = RULES.start(RULES.load_scenario(scenario_dict(**setup)))
    assert isinstance(state, GameState)
    return state


def play(state: GameState, *inputs: str | list[int]) -> tuple[GameState, list[str]]:
    log: list[str] = []
    for given in inputs:
        inp = Rolled(tuple(given)) if isinstance(given, list) else Chosen(given)
        t = RULES.advance(state, inp)
        assert RULES.advance(state, inp).state == t.state
        assert isinstance(t.state, GameState)
        state = t.state
        log.extend(t.log)
    return state, log


TURN_ONE = (
    [3, 3],  # tie: roll again
    [5, 2],  # Blue first
    "unit:Rifles",
    "shoot",
    "target:Muskets",
    "close",
    "no",
    [6, 5, 1, 2],
    "unit:Horse",
    "charge",
    "target:Warband",
    "no",
    [3],
    "yes",
    "unit:Muskets",
    "hold",
    "unit:Warband",
    "stand",
    # charges: Horse against Warband
    "no",
    [5, 6, 1, 1],
    [1, 2, 3, 5],
    [6],
    "cancel",
)

TURN_TWO = (
    [1, 4],  # Red first
    "unit:Warband",
    "charge",
    "target:Rifles",
    "no",
    [6],
    "no",
    "yes",
    "unit:Muskets",
    "hold",
    "unit:Rifles",
    "shoot",
    "target:Muskets",
    "close",
    "no",
    [5, 1, 1, 1],
    "yes",
    "close",
    "no",
    [5],  # Muskets return fire: one die from three figures
    "yes",
    [6],  # Steady! cancels it
    "unit:Horse",
    "stand",
    # charges: Warband against Rifles
    "no",
    [6, 6, 6],
    [1, 1, 2, 5],
    [1],
    [3],
)


def test_turn_one_play_by_play() -> None:
    state, log = play(new_game(), *TURN_ONE)
    assert log[0] == "Turn 1: initiative tied 3-3; roll again"
    assert log[1] == "Turn 1: Blue 5, Red 2: Blue goes first"
    assert "Rifles shoots Muskets: 2 hits" in log
    assert "Muskets: 4 standing, 2 down" in log
    assert 'Horse may move 15"' in log
    assert "Horse is in contact with Warband" in log
    assert "Muskets holds its fire" in log
    assert "Horse in contact: 2 hits on Warband" in log
    assert "Warband in contact: 1 hits on Horse" in log
    assert "Come On! (Chief with Warband) rolls 6: cancel or inflict a hit" in log
    assert "result: Horse took 1, Warband took 1" in log
    assert "tied: the attacker falls back half a move" in log
    assert log[-1] == "End of turn 1"
    assert state.turn == 2 and state.stage == "initiative"
    assert state.force("Warband").figures == 7
    assert state.force("Muskets").held_fire


def test_turn_two_return_fire_steady_come_on_and_the_end() -> None:
    state, log = play(new_game(), *TURN_ONE, *TURN_TWO)
    assert "Turn 2: Blue 1, Red 4: Red goes first" in log
    assert "Muskets returns fire at Rifles" in log
    assert "Muskets shoots Rifles: 1 hits" in log
    assert "Steady! (Capt A): one of 1 hits cancelled" in log
    assert "Come On! (Chief with Warband) rolls 1: the commander is hit" in log
    assert "defender lost: it retreats a full move" in log
    assert "Warband may occupy the position" in log
    assert log[-2:] == ["End of turn 2", "Game over: Blue wins"]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Blue"  # 8/12 standing beats 9/14
    assert state.force("Rifles").figures == 5
    assert state.force("Warband").leader_back_turn == 3
    assert any("Chief away till end of turn 3" in line for line in RULES.describe(state))


def test_hit_commander_returns_at_the_end_of_the_next_turn() -> None:
    state, _ = play(new_game(turn_limit=3), *TURN_ONE, *TURN_TWO)
    assert state.force("Warband").leader_back_turn == 3
    state, log = play(state, [6, 1], "done", "done")
    assert "End of turn 3" in log
    assert state.force("Warband").has_leader


def test_rally_is_refused_within_6_inches_then_rolled() -> None:
    state, _ = play(new_game(turn_limit=3), *TURN_ONE)
    state, log = play(state, [1, 6], "unit:Muskets", "rally", "yes")
    assert 'no rally within 6" of the enemy; choose another order' in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and "rally" not in {o.key for o in step.options}
    state, _ = play(new_game(turn_limit=3), *TURN_ONE)
    state, log = play(state, [1, 6], "unit:Muskets", "rally", "no", [6, 3])
    assert "Muskets rallies: 1 back, 0 removed, 1 still down" in log
    assert state.force("Muskets").figures == 5


def test_shaken_unit_cannot_shoot_or_charge() -> None:
    state, _ = play(
        new_game(), [5, 2], "unit:Rifles", "shoot", "target:Muskets", "close", "no", [6, 6, 6, 6]
    )
    assert state.force("Muskets").shaken
    state, _ = play(state, "unit:Horse", "stand", "unit:Muskets")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice)
    keys = {o.key for o in step.options}
    assert "shoot" not in keys and "charge" not in keys and "hold" not in keys


def test_charged_unit_that_held_fire_volleys_first() -> None:
    state, log = play(
        new_game(),
        [2, 5],
        "unit:Muskets",
        "hold",
        "unit:Warband",
        "stand",
        "unit:Horse",
        "charge",
        "target:Muskets",
        "no",
        [3],
        "yes",
        "unit:Rifles",
        "stand",
        "yes",
        "no",
        [6, 5, 4],
    )
    assert "Muskets fires a volley at the charging Horse" in log
    assert "Muskets shoots Horse: 1 hits" in log  # cavalry: difficult target, 6s only
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Cover/obstacle/up?"


def test_cavalry_that_wins_may_pursue() -> None:
    state, log = play(
        new_game(),
        [5, 2],
        "unit:Horse",
        "charge",
        "target:Muskets",
        "no",
        [3],
        "yes",
        "unit:Rifles",
        "stand",
        "unit:Muskets",
        "stand",
        "unit:Warband",
        "stand",
        "no",
        "no",
        [6, 6, 6, 6],
        [1, 1, 1],
    )
    assert "Muskets gives ground: Horse may pursue" in log
    assert "defender lost: shaken, it routs" in log
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
    with pytest.raises(RulesError, match="chips"):
        RULES.advance(state, ChipDrawn("X"))
    assert state == new_game()
    assert isinstance(RULES.next_step(state), AwaitRoll)


def test_example_scenario_loads() -> None:
    text = resources.files("companion.scenarios").joinpath("on_the_frontier.toml").read_text()
    scenario = RULES.load_scenario(tomllib.loads(text))
    assert scenario.sides == ("British", "Tribesmen")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["units"][0].update(kind="dragoon"), ["Rifles", "kind", "infantry"]),
        (lambda d: d["units"][1].update(figures=0), ["Horse", "figures"]),
        (lambda d: d["units"][0].update(side="Green"), ["Rifles", "side"]),
        (lambda d: d["units"][0].update(weapons=["phaser"]), ["Rifles", "weapons", "rifle"]),
        (lambda d: d["units"][0].update(traits={"quality": "heroic"}), ["Rifles", "quality"]),
        (lambda d: d["units"][0].update(traits={"ranks": 3}), ["Rifles", "ranks"]),
        (lambda d: d.update(setup={}), ["turn_limit"]),
        (lambda d: d.update(options={"odd_figure_dice": "sideways"}), ["odd_figure_dice"]),
        (lambda d: d.update(options={"nope": True}), ["nope"]),
    ],
)
def test_bad_scenarios_name_unit_and_field(change, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    raw = scenario_dict()
    change(raw)
    with pytest.raises(ScenarioError) as caught:
        RULES.load_scenario(raw)
    for word in words:
        assert word in str(caught.value)


def test_engineering_and_demolition_in_play() -> None:
    raw = scenario_dict(engineering=True, demolition_target="small_bridge", turn_limit=3)
    raw["units"].append(
        {
            "name": "Sappers",
            "side": "Blue",
            "kind": "infantry",
            "figures": 4,
            "weapons": ["rifle"],
            "traits": {"engineers": True},
        }
    )
    state = RULES.start(RULES.load_scenario(raw))
    assert isinstance(state, GameState)
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
        "yes",
    )
    assert "Sappers works on a redoubt: 4/6 points" in log
    assert "a difficult task needs an engineer; choose another order" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and "lay" not in {o.key for o in step.options}
    state, log = play(state, "stand", "unit:Horse", "stand", "done", [5, 2], "unit:Sappers", "lay")
    assert "Sappers lays a demolition charge (1 laid)" in log
    state, log = play(state, "done", "done", [5, 2], "unit:Sappers", "blow", [6])
    assert "Sappers blows the charges: 6 points, the small bridge is destroyed" in log
    assert state.demolished and state.charges_laid("Blue") == 0


def test_move_near_the_enemy_and_follow_me_reroll() -> None:
    state, log = play(new_game(), [5, 2], "unit:Rifles", "move", "yes", "yes", [2])
    assert 'Rifles may move 4"' in log  # 6 + 2 - 4 broken ground
    assert 'within 6" of the enemy: only towards the enemy or straight back' in log
    assert isinstance(RULES.next_step(state), AwaitChoice)
    state, log = play(state, "yes", [5])
    assert "Follow Me!: Capt A has the d6 rerolled" in log
    assert 'Rifles may move 7"' in log
    assert state.force("Rifles").acted


def test_guns_deploying_lose_four_inches() -> None:
    raw = scenario_dict()
    raw["units"].append({"name": "Gun", "side": "Blue", "kind": "artillery", "figures": 4,
                         "weapons": ["artillery"]})
    state = RULES.start(RULES.load_scenario(raw))
    assert isinstance(state, GameState)
    state, log = play(state, [5, 2], "unit:Gun", "move", "no", "yes", "no", [3])
    assert 'Gun may move 5"' in log
