"""A whole game through the session's journal events: replaying the events
(as after a power cut) rebuilds exactly the state the live game reached, and
undo steps back to the state before the last input."""

from __future__ import annotations

import random

import pytest

from companion.rules import get_ruleset
from companion.rules.core import AwaitChoice, AwaitRoll, GameOver
from companion.session.events import ChoiceMade, DiceAccepted, GameStarted, Undone
from companion.session.scenario_files import example_scenario_text
from companion.session.session import apply, replay

SYSTEM = "on_the_frontier"


@pytest.mark.parametrize("seed", [11, 12])
def test_replayed_journal_rebuilds_the_game(seed: int) -> None:
    ruleset = get_ruleset(SYSTEM)
    events: list = [GameStarted(SYSTEM, example_scenario_text(SYSTEM), "example")]  # type: ignore[type-arg]
    record, _ = apply(None, events[0])
    rng = random.Random(seed)
    while not isinstance(step := ruleset.next_step(record.state), GameOver):
        if isinstance(step, AwaitChoice):
            event = ChoiceMade(rng.choice(step.options).key)
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
