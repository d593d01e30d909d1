"""Feeding a scripted game to a ruleset, or through a session's journal, shared by every
system's tests.

A script is a sequence of inputs: a string is a choice, a list or tuple of ints a roll,
and a GameInput (e.g. ChipDrawn) is passed through as it is.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameInput,
    GameOver,
    Rolled,
    Ruleset,
)
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    Event,
    GameStarted,
    Undone,
)
from companion.session.journal import Journal
from companion.session.scenario_files import example_scenario_text
from companion.session.session import GameSession, apply, replay

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


# ---------------------------------------------------------------- through the session


def as_event(given: ScriptInput) -> Event:
    """The journal event for a script input, as the referee would enter it by hand."""
    inp = as_input(given)
    if isinstance(inp, Chosen):
        return ChoiceMade(inp.key)
    if isinstance(inp, Rolled):
        return DiceAccepted(inp.dice, source="manual")
    return ChipAccepted(inp.chip)


def submit(session: GameSession, *script: ScriptInput) -> list[str]:
    """Journal and apply the script in order; return every log line. Every input must be
    accepted."""
    log: list[str] = []
    for given in script:
        transition = session.submit(as_event(given))
        assert transition is not None, given
        log.extend(transition.log)
    return log


def resume_after_power_cut(session: GameSession) -> GameSession:
    """Close the session's journal as a power cut would, and resume the game from it: the
    resumed game must be exactly the one that was running."""
    session.journal.close()
    resumed = GameSession.resume(Journal(session.journal.path))
    assert resumed.record.state == session.record.state
    assert resumed.record.fingerprint() == session.record.fingerprint()
    return resumed


def check_random_game_replays(system: str, seed: int) -> None:
    """Play the system's example scenario with random inputs to the end: replaying its
    journal events rebuilds exactly that game, and undo steps back to the state before
    the last input."""
    ruleset = get_ruleset(system)
    events: list[Event] = [GameStarted(system, example_scenario_text(system), "example")]
    record, _ = apply(None, events[0])
    rng = random.Random(seed)
    while not isinstance(step := ruleset.next_step(record.state), GameOver):
        if isinstance(step, AwaitChoice):
            event: Event = ChoiceMade(rng.choice(step.options).key)
        else:
            assert isinstance(step, AwaitRoll)
            event = DiceAccepted(tuple(rng.choice(k.faces) for k in step.request.kinds))
        events.append(event)
        record, transition = apply(record, event, ruleset)
        assert transition is not None
    rebuilt = replay(events)
    assert rebuilt.state == record.state
    assert rebuilt.fingerprint() == record.fingerprint()
    before = record.played[-1].before
    undone, _ = apply(record, Undone(), ruleset)
    assert undone.state == before
    assert ruleset.describe(record.state)
