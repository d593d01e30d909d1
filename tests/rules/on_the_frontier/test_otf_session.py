"""A whole game through the session's journal events: replaying the events
(as after a power cut) rebuilds exactly the state the live game reached, and
undo steps back to the state before the last input."""

from __future__ import annotations

import pytest
from rule_scripting import as_event, check_random_game_replays

from companion.rules import get_ruleset
from companion.rules.core import GameOver
from companion.session.events import GameStarted, Undone
from companion.session.session import apply, replay

SYSTEM = "on_the_frontier"


@pytest.mark.parametrize("seed", [11, 12])
def test_replayed_journal_rebuilds_the_game(seed: int) -> None:
    check_random_game_replays(SYSTEM, seed)


SCRIPTED_SCENARIO = """
system = "on_the_frontier"
title = "Scripted ford"
sides = ["Blue", "Red"]

[setup]
turn_limit = 2
engineering = ["Blue"]
demolition_target = "small_bridge"

[[units]]
name = "Rifles"
side = "Blue"
kind = "infantry"
figures = 8
weapons = ["rifle"]
leader = "Capt A"

[[units]]
name = "Horse"
side = "Blue"
kind = "cavalry"
figures = 4
weapons = ["lance"]

[[units]]
name = "Sappers"
side = "Blue"
kind = "infantry"
figures = 4
weapons = ["rifle"]
traits = { engineers = true }

[[units]]
name = "Col B"
side = "Blue"
kind = "commander"
figures = 1

[[units]]
name = "Warband"
side = "Red"
kind = "tribesmen"
figures = 8
weapons = ["sword"]
leader = "Chief"

[[units]]
name = "Muskets"
side = "Red"
kind = "infantry"
figures = 6
weapons = ["musket"]

[[units]]
name = "Pickets"
side = "Red"
kind = "infantry"
figures = 2
weapons = ["rifle"]
"""

SCRIPT: tuple[str | tuple[int, ...], ...] = (
    (5, 2),  # Blue first
    "unit:Col B", "join", "join:Horse", "no", "no", (2,), "yes",
    "unit:Sappers", "lay",
    "unit:Rifles", "shoot", "target:Pickets", "close", "no", (5, 1, 1, 1),
    "unit:Horse", "charge", "target:Pickets", "no", (3,), "no", "yes",
    "unit:Pickets", "stand",  # charged: stand is all it may do
    "unit:Muskets", "hold",
    "unit:Warband", "charge", "target:Rifles", "no", (6,), "no", "yes",
    # Horse against Pickets: the last picket has no die to roll
    "none", "no", (6, 1, 1, 1), (3,),
    # Warband against Rifles in cover
    "defender", (6, 6, 1, 1), (5, 5, 5, 1), (5,), "inflict", (6,), "cancel",
    (1, 6),  # turn 2, Red first
    "unit:Warband", "rally", "no", (6, 4, 1),
    "done",
    "unit:Sappers", "blow", (6,),
    "done",
)  # fmt: skip


def test_scripted_game_through_the_session() -> None:
    """Commander joining, a charged unit, a roll of no dice, Come On! both ways, a
    rally, demolition: journaled, replayed and undone like a real game."""
    ruleset = get_ruleset(SYSTEM)
    events: list = [GameStarted(SYSTEM, SCRIPTED_SCENARIO, "scripted")]  # type: ignore[type-arg]
    record, _ = apply(None, events[0])
    log: list[str] = []
    for given in SCRIPT:
        event = as_event(given)
        events.append(event)
        record, transition = apply(record, event, ruleset)
        assert transition is not None
        log.extend(transition.log)
    step = ruleset.next_step(record.state)
    assert isinstance(step, GameOver) and step.winner == "Blue"  # 15/17 against 13/16
    for line in (
        "Col B joins Horse",
        "Sappers lay a demolition charge (1 laid)",
        "Pickets stand to meet the charge",
        "Pickets at Horse: infantry in contact, +0 a die; too few figures for a die, no roll",
        "Come On! (Col B with Horse) rolls 3: no effect",
        "Pickets lose: shaken, they rout",
        "Warband in contact: 2 hits on Rifles",  # 8 tribesmen, -1 for the cover: 6s
        "Rifles in contact: 3 hits on Warband",
        "Come On!: Warband inflicts a hit",
        "Come On!: Rifles cancel a hit",
        "result: Warband took 3, Rifles took 2",
        "Rifles: 6 standing, 2 down",  # what the table shows before anyone moves
        "Warband loses: it retreats a full move",
        "Warband rallies: 2 back, 1 removed, 0 still down",  # the chief adds 1: 6, 5, 2
        "Sappers blow the charges: 6 points, the small bridge is destroyed",
        "Game over: Blue wins",
    ):
        assert line in log
    summary = ruleset.describe(record.state)
    assert "  Col B: 1/1 up, 0 down, 0 lost (with Horse)" in summary
    assert "  the small bridge is destroyed" in summary
    assert replay(events).state == record.state
    undone, _ = apply(record, Undone(), ruleset)
    assert undone.state == record.played[-1].before
