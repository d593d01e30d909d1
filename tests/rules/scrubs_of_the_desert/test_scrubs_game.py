"""A scripted two-turn game through `advance`, checking the play-by-play."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    Chosen,
    GameOver,
    Rolled,
    RulesError,
    ScenarioError,
)
from companion.rules.scrubs_of_the_desert.game import GameState

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
    log: list[str] = []
    for given in inputs:
        inp = Rolled(tuple(given)) if isinstance(given, list) else Chosen(given)
        t = RULES.advance(state, inp)
        assert RULES.advance(state, inp).state == t.state
        assert isinstance(t.state, GameState)
        state = t.state
        log.extend(t.log)
    return state, log


def options(state: GameState) -> set[str]:
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice)
    return {o.key for o in step.options}


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
    "unit:Section",
    "target:Riflemen",
    "4-8",
    [5],
    "skip",
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
    assert log[0] == "toss: Legion 3+0 = 3, Arabs 7+0 = 7: Arabs activates"
    assert (
        "Riflemen's hook holds (rolled 6 - 1 (defenders within 1\") = 5 needing 4: the hook "
        "holds; the thrower scales the wall)" in log
    )
    assert "Riflemen: 3 over the wall" in log
    assert "toss: Legion 5+1 = 6, Arabs 5+0 = 5: Legion activates" in log
    assert "Riflemen sighted (rolled 5 needing 5+: sighted)" in log
    assert "the hook of Riflemen is thrown down" in log
    assert "Section loses 1: 3 left" in log
    assert "toss: Legion 2+0 = 2, Arabs 4+1 = 5: Arabs activates" in log
    assert "Section morale: rolled 50: holds" in log
    assert "Section fires at the chargers" in log
    assert "Horse loses 1: 1 left" in log
    assert "melee: 1 bouts (1 two against one)" in log
    assert "bout 1: defenders win: an attacker is killed" in log
    assert "Horse loses 1: 0 left; the unit is gone" in log
    assert "only Legion has units left to activate" in log
    assert "MG jams: it cannot fire next turn" in log
    assert "Riflemen morale: rolled 39: holds" in log
    assert log[-1] == "End of turn 1"
    assert state.turn == 2 and state.bonus == (1, 0)
    riflemen = state.band("Riflemen")
    assert (riflemen.figures, riflemen.over_wall, riflemen.hook_up) == (4, 2, False)
    assert state.band("MG").jammed_turn == 2


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
    assert "Riflemen fires arab rifle at Section: 2 hits" in log
    assert any(line.startswith('Section morale: rolled 61: fails: routs back 12"') for line in log)
    assert log[-2:] == ["End of turn 2", "Game over: Legion wins"]
    step = RULES.next_step(state)
    assert isinstance(step, GameOver) and step.winner == "Legion"
    assert any("over the wall: 2 of 6" in line for line in step.summary)


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
    assert log[-1] == "Game over: Arabs wins"
    assert isinstance(RULES.next_step(state), GameOver)


def test_failed_climb_stops_the_climbing() -> None:
    state, log = play(new_game(), [3, 7], "unit:Riflemen", "hook", "3", [7], "yes", [4])
    assert (
        "second climber rolled 4 needing 5+: fails; no one else climbs this hook this turn" in log
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
    assert "bout 2: tie: the melee is locked" in log
    assert "Horse and Section are locked in melee" in log
    assert "Section took more casualties: morale check" in log
    assert state.band("Section").locked_with == "Horse"
    state, log = play(state, [9, 0], "unit:Section")
    assert "Section activates: locked in melee with Horse" in log
    assert options(state) == {"open", "higher", "building", "fort"}


def test_counter_charge_against_a_failed_attacker() -> None:
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][0] = {
        "name": "Spahis",
        "side": "Legion",
        "kind": "horse",
        "figures": 2,
        "weapons": ["french_rifle"],
        "traits": {"base_morale": 70},
    }
    state, log = play(
        new_game(raw),
        [3, 7],
        "unit:Riflemen",
        "charge",
        "target:Spahis",
        "desert",
        [3, 4, 5],
        "yes",
        "open",
        [1, 0],
        "counter",
        [9, 9],
    )
    assert "Spahis counter-charges" in log
    assert "Riflemen falters (rolled 99): the counter-charge strikes with +3" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.odds is not None


def test_crew_targeting_and_manning_the_gun() -> None:
    state, log = play(
        new_game(hidden_arabs=False),
        [3, 7],
        "unit:Riflemen",
        "stay",
        "target:MG",
        "short",
        "no",
        "yes",
        "2",
        [9, 9, 9, 9, 0, 0],
        [0, 1, 7, 8, 0, 0, 0, 0],
        "unit:Section",
        "open",
        [0, 0],
    )
    assert "4 of 4 hits fall on the crew of MG" not in log
    assert "2 of 4 hits fall on the crew of MG" in log
    assert "MG loses 2: 0 left; the machine gun is abandoned" in log
    state, log = play(state, [9, 0], "unit:Section", "man_gun", "unit:MG", "2")
    assert "2 of Section man MG: it fires again from its next action, one die a man" in log
    assert state.band("MG").infantry_crew and state.band("MG").figures == 2


def test_cannon_hit_and_blast() -> None:
    raw = scenario_dict(hidden_arabs=False)
    raw["units"][1] = {
        "name": "Gun",
        "side": "Legion",
        "kind": "gun",
        "figures": 3,
        "weapons": ["french_cannon"],
        "traits": {"base_morale": 70},
    }
    state, log = play(
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
    assert "Gun's cannon hits: place the 3\" blast" in log  # 4 - 1 crew + 4 grapeshot = 7
    assert options(state) == {str(n) for n in range(1, 7)}
    state, log = play(state, "3", [5, 4, 9], "open", [0, 0])
    assert "Riflemen loses 2: 4 left" in log


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
