"""The shared checks of the rules core: `check_input` (an input that does not fit the step)
and `option_values` (a scenario's [options] table), worded the same in every system."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Choice,
    Chosen,
    DiceGroup,
    DieKind,
    GameInput,
    GameOver,
    Rolled,
    RollRequest,
    RuleOption,
    RulesError,
    ScenarioError,
    ScenarioValue,
    Step,
    check_dice,
    check_input,
    counted,
    option_values,
    unit_choices,
    yes_no,
)

CHIP = AwaitChip("Draw a chip", ("Sgt Roux",))
CHOICE = AwaitChoice("Fire at?", (Choice("north", "North wall"), Choice("gate", "The gate")))
ROLL = AwaitRoll(RollRequest("Volley", (DiceGroup(DieKind.D6, 2, "fire", "5-6 hit"),)))


@pytest.mark.parametrize(
    ("step", "given"),
    [(CHIP, ChipDrawn("anything")), (CHOICE, Chosen("gate")), (ROLL, Rolled((1, 6)))],
    ids=["chip", "choice", "roll"],
)
def test_an_input_that_answers_the_step_passes(step: Step, given: GameInput) -> None:
    check_input(step, given)


@pytest.mark.parametrize(
    ("step", "given", "message"),
    [
        (GameOver("FFL", ("won",)), Chosen("gate"), "the game is over; no more inputs"),
        (CHIP, Rolled((3,)), "Draw a chip: expected a chip from the bag, not dice 3"),
        (CHOICE, ChipDrawn("Sgt Roux"),
         "Fire at?: expected a choice (north, gate), not the chip 'Sgt Roux'"),
        (CHOICE, Chosen("south"), "Fire at?: 'south' is not an option; choose one of: north, gate"),
        (ROLL, Chosen("north"), "Volley: expected a roll of 2d6, not the choice 'north'"),
        (ROLL, Rolled((4,)), "Volley: expected 2 dice (2d6), got 1"),
        (ROLL, Rolled((4, 7)), "die 2 is a d6 and reads 1-6, got 7"),
    ],
    ids=["over", "chip-wanted", "choice-wanted", "unknown-choice", "roll-wanted",
         "too-few-dice", "impossible-face"],
)
def test_an_input_that_does_not_fit_is_named(step: Step, given: GameInput, message: str) -> None:
    with pytest.raises(RulesError, match=f"^{re.escape(message)}$"):
        check_input(step, given)


OPTIONS = (
    RuleOption("double_zero", "what 00 reads", "zero", ("zero", "hundred")),
    RuleOption("extra_die", "a charge's extra die", True, (True, False)),
    RuleOption("zero_is", "what a d10's 0 reads", 10, (10, 0)),
)


def test_options_not_given_keep_their_defaults() -> None:
    assert option_values(OPTIONS, {"zero_is": 0}) == {
        "double_zero": "zero",
        "extra_die": True,
        "zero_is": 0,
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"luck": 1}, "[options] has no option 'luck'; options are: double_zero, extra_die, "
                      "zero_is"),
        ({"double_zero": "sometimes"},
         "[options] double_zero = 'sometimes' is not allowed; use 'zero', 'hundred'"),
        ({"extra_die": 1}, "[options] extra_die = 1 is not allowed; use True, False"),
        ({"zero_is": True}, "[options] zero_is = True is not allowed; use 10, 0"),
    ],
    ids=["unknown", "not-a-choice", "one-for-true", "true-for-a-number"],
)
def test_a_bad_option_is_named_with_what_is_allowed(
    raw: dict[str, ScenarioValue], message: str
) -> None:
    with pytest.raises(ScenarioError, match=f"^{re.escape(message)}$"):
        option_values(OPTIONS, raw)


def test_counted_makes_the_noun_agree_with_the_count() -> None:
    assert [counted(n, "hit") for n in (0, 1, 2)] == ["0 hits", "1 hit", "2 hits"]
    assert [counted(n, "casualty", "casualties") for n in (0, 1, 3)] == [
        "0 casualties", "1 casualty", "3 casualties"]
    assert [counted(n, "man", "men") for n in (1, 4)] == ["1 man", "4 men"]
    assert [counted(n, "inch", "inches") for n in (1, 12)] == ["1 inch", "12 inches"]
    assert [counted(n, "die", "dice") for n in (1, 2)] == ["1 die", "2 dice"]
    assert [counted(n, "man fires", "men fire") for n in (1, 2)] == ["1 man fires", "2 men fire"]


def test_a_wrong_number_of_dice_is_worded_in_agreement() -> None:
    with pytest.raises(RulesError, match=r"^Volley: expected 1 die \(1d6\), got 2$"):
        check_dice(RollRequest("Volley", (DiceGroup(DieKind.D6, 1, "fire", "5-6 hit"),)), [6, 6])


def test_unit_menus_keep_long_names_whole_for_the_screen_to_fit() -> None:
    # Cutting in the rules hid the end of a long name even where the screen shows the
    # highlighted item in full on two rows, and made names sharing a start look alike.
    @dataclass(frozen=True)
    class Unit:
        name: str

    names = ("2nd Battalion Foreign Legion", "2nd Battalion Foreign Legion Mounted")
    choices = unit_choices("unit", [Unit(n) for n in names])
    assert [c.label for c in choices] == list(names)
    assert [c.key for c in choices] == [f"unit:{n}" for n in names]


@dataclass(frozen=True)
class _Ctx:
    actor: str = "Lancers"
    target: str = "Gunners"


@dataclass(frozen=True)
class _State:
    ctx: _Ctx = _Ctx()


@pytest.mark.parametrize("question, about, yes_first, prompt, options, who", [
    ("Target in cover?", "target", False, "Target in cover?", ("no", "yes"), "Gunners"),
    ("Broken ground?", "actor", False, "Broken ground?", ("no", "yes"), "Lancers"),
    ("Pursue {target}?", "actor", True, "Pursue Gunners?", ("yes", "no"), "Lancers"),
    ("Reached {target}?", "actor", True, "Reached Gunners?", ("yes", "no"), "Lancers"),
])
def test_a_yes_no_question_names_its_unit_and_puts_the_usual_answer_first(
    question: str, about: str, yes_first: bool, prompt: str, options: tuple[str, ...],
    who: str,
) -> None:
    asked = yes_no(question, about, yes_first=yes_first)(_State())
    assert asked.prompt == prompt
    assert tuple(o.key for o in asked.options) == options
    assert asked.about == who


def test_a_yes_no_question_is_about_the_actor_or_the_target() -> None:
    with pytest.raises(ValueError, match="actor or the target"):
        yes_no("Anyone?", "bystander")
