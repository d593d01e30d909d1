"""`core.check_input`: every system words an input that does not fit its step the same way."""

from __future__ import annotations

import re

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
    RulesError,
    Step,
    check_input,
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
