"""Every rule system honours the contract in companion/rules/core.py.

These run over all five systems: exact odds agree with brute force, odds sum to
one, the example scenario loads, and a game played with random but legal inputs
reaches its end without an error.
"""

from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from importlib import resources

import pytest

from companion.rules import SYSTEM_NAMES, get_ruleset
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameOver,
    Outcome,
    Rolled,
    RulesError,
)
from companion.rules.odds import enumerate_odds
from companion.ui.wording import counts, headline, named_outcomes, yes_no

MAX_BRUTE_FORCE = 6**6


def _action_cases():  # type: ignore[no-untyped-def]
    for name in SYSTEM_NAMES:
        try:
            ruleset = get_ruleset(name)
        except Exception as exc:  # reported against that system alone, below
            yield pytest.param(
                name,
                "",
                {},
                id=f"{name}-does-not-load",
                marks=pytest.mark.xfail(reason=str(exc), strict=True, run=False),
            )
            continue
        for action in ruleset.actions.values():
            for index, example in enumerate(action.examples):
                yield pytest.param(name, action.name, example, id=f"{name}-{action.name}-{index}")


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_action_has_examples(system: str) -> None:
    ruleset = get_ruleset(system)
    assert ruleset.actions, f"{system} has no actions"
    for action in ruleset.actions.values():
        assert action.examples, f"{system} {action.name} has no examples to check its odds with"


@pytest.mark.parametrize(("system", "action_name", "example"), list(_action_cases()))
def test_odds_are_exact(system: str, action_name: str, example: dict) -> None:  # type: ignore[type-arg]
    action = get_ruleset(system).actions[action_name]
    params = action.complete_params(example)
    request = action.request(params)
    odds = action.odds(params)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    for chance in odds.effects.values():
        assert 0 <= chance <= 1
    size = 1
    for kind in request.kinds:
        size *= len(kind.faces)
    assert size <= MAX_BRUTE_FORCE, "examples must be small enough to enumerate"
    brute = enumerate_odds(request, lambda dice: action.resolve(params, dice))
    assert {k: v for k, v in odds.headline.items() if v} == {
        k: v for k, v in brute.headline.items() if v
    }
    assert {k: v for k, v in odds.effects.items() if v} == {
        k: v for k, v in brute.effects.items() if v
    }


@pytest.mark.parametrize(("system", "action_name", "example"), list(_action_cases()))
def test_wrong_number_of_dice_is_named(system: str, action_name: str, example: dict) -> None:  # type: ignore[type-arg]
    action = get_ruleset(system).actions[action_name]
    params = action.complete_params(example)
    request = action.request(params)
    with pytest.raises(RulesError, match="expected"):
        action.resolve(params, [request.kinds[0].faces[0]] * (request.dice_count + 1))


def _example_scenario(system: str) -> dict:  # type: ignore[type-arg]
    text = resources.files("companion.scenarios").joinpath(f"{system}.toml").read_text()
    return tomllib.loads(text)


def _random_input(step, rng: random.Random):  # type: ignore[no-untyped-def]
    if isinstance(step, AwaitChip):
        return ChipDrawn(rng.choice(step.in_bag))
    if isinstance(step, AwaitChoice):
        return Chosen(rng.choice(step.options).key)
    assert isinstance(step, AwaitRoll)
    return Rolled(tuple(rng.choice(kind.faces) for kind in step.request.kinds))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_random_game_reaches_its_end(system: str, seed: int) -> None:
    ruleset = get_ruleset(system)
    scenario = ruleset.load_scenario(_example_scenario(system))
    state = ruleset.start(scenario)
    assert state == ruleset.start(scenario), "start must be deterministic"
    rng = random.Random(seed)
    for _ in range(3000):
        step = ruleset.next_step(state)
        if isinstance(step, GameOver):
            assert step.summary
            break
        if isinstance(step, AwaitChoice):
            assert step.options, "a choice with no options would stall the box"
            assert len({o.key for o in step.options}) == len(step.options)
        if isinstance(step, AwaitRoll):
            assert step.request.dice_count >= 1, (
                f"{system} asks to roll no dice ({step.request.reason}); resolve it without a roll"
            )
        given = _random_input(step, rng)
        transition = ruleset.advance(state, given)
        replayed = ruleset.advance(state, given)
        assert transition.state == replayed.state, "advance must be deterministic"
        state = transition.state
        assert ruleset.describe(state)
    else:
        pytest.fail(f"{system}: a random game did not end within 3000 inputs")


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_input_that_does_not_fit_is_refused(system: str) -> None:
    ruleset = get_ruleset(system)
    state = ruleset.start(ruleset.load_scenario(_example_scenario(system)))
    step = ruleset.next_step(state)
    wrong = Rolled((1,)) if not isinstance(step, AwaitRoll) else Chosen("no-such-choice")
    with pytest.raises(RulesError):
        ruleset.advance(state, wrong)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_a_state_of_another_system_is_refused(system: str) -> None:
    ruleset = get_ruleset(system)
    other = next(get_ruleset(n) for n in SYSTEM_NAMES if n != system)
    foreign = other.start(other.load_scenario(_example_scenario(other.name)))
    for call in (ruleset.next_step, ruleset.describe, lambda s: ruleset.advance(s, Rolled((1,)))):
        with pytest.raises(RulesError, match=f"not a {ruleset.title} game state"):
            call(foreign)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_the_example_scenario_lists_every_option_at_its_default(system: str) -> None:
    """The example is where a referee finds the switches: all of them, as the box plays them."""
    listed = _example_scenario(system).get("options", {})
    assert listed == {o.name: o.default for o in get_ruleset(system).options}


@pytest.mark.parametrize(("system", "action_name", "example"), list(_action_cases()))
def test_a_headline_of_no_or_yes_reads_as_one(system: str, action_name: str, example: dict) -> None:  # type: ignore[type-arg]
    """A headline that is only ever 0 or 1 and names no outcomes is said as a yes or no
    ("Passed: yes") or as a count ("1 hit"), never as a value ("Fire out: 1")."""
    action = get_ruleset(system).actions[action_name]
    params = action.complete_params(example)
    odds = action.odds(params)
    values = tuple(odds.headline)
    label = odds.headline_label
    groups = action.request(params).groups
    if not set(values) <= {0, 1} or named_outcomes(label, groups, odds.names):
        return
    assert yes_no(label, values) or counts(label), [
        headline(Outcome(value, label), values) for value in values
    ]
