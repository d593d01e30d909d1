"""Feeding a scripted game to a ruleset, shared by every system's tests.

A script is a sequence of inputs: a string is a choice, a list or tuple of ints a roll,
and a GameInput (e.g. ChipDrawn) is passed through as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from companion.rules.core import AwaitChoice, ChipDrawn, Chosen, GameInput, Rolled, Ruleset

State = TypeVar("State")
ScriptInput = str | Sequence[int] | GameInput


def as_input(given: ScriptInput) -> GameInput:
    if isinstance(given, str):
        return Chosen(given)
    if isinstance(given, ChipDrawn | Chosen | Rolled):
        return given
    return Rolled(tuple(given))


def play(ruleset: Ruleset, state: State, *script: ScriptInput) -> tuple[State, list[str]]:
    """Feed the script in order; return the last state and every log line.

    Each input is applied twice to check that the rules are deterministic (the same state
    and input always give the same next state), and the state must keep its type.
    """
    log: list[str] = []
    for given in script:
        inp = as_input(given)
        transition = ruleset.advance(state, inp)
        assert ruleset.advance(state, inp).state == transition.state, inp
        assert isinstance(transition.state, type(state)), transition.state
        state = transition.state
        log.extend(transition.log)
    return state, log


def choice_keys(ruleset: Ruleset, state: object) -> list[str]:
    """The keys of the choice the game waits for (it must be waiting for a choice)."""
    step = ruleset.next_step(state)
    assert isinstance(step, AwaitChoice), step
    return [o.key for o in step.options]
