"""The throws of a roll thrown in several, journaled one by one (`ThrowAccepted`), so that
a restart asks for the next throw; journals written before there was such an event
still replay."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, RollRequest, RulesError
from companion.session.events import (
    ChipAccepted,
    ChoiceMade,
    DiceAccepted,
    ThrowAccepted,
    Undone,
    decode,
    encode,
)
from companion.session.journal import Journal
from companion.session.scenario_files import example_scenario_text
from companion.session.session import GameSession, replay_journal


def to_a_roll_of_several_dice(session: GameSession) -> RollRequest:
    """Play the example game on (first chip, first option, any dice) until a roll of
    more than one die waits."""
    rng = random.Random(3)
    for _ in range(200):
        step = session.step
        if isinstance(step, AwaitRoll) and step.request.dice_count > 1:
            return step.request
        if isinstance(step, AwaitChip):
            session.submit(ChipAccepted(step.in_bag[0]))
        elif isinstance(step, AwaitChoice):
            session.submit(ChoiceMade(step.options[0].key))
        elif isinstance(step, AwaitRoll):
            session.submit(DiceAccepted(tuple(rng.choice(k.faces) for k in step.request.kinds)))
    raise AssertionError("no roll of several dice in 200 steps")


@pytest.fixture
def session(tmp_path: Path) -> GameSession:
    journal = Journal(tmp_path / "journal.sqlite3")
    return GameSession.new(journal, example_scenario_text("tenir_le_fort"))


def first_faces(request: RollRequest, count: int) -> tuple[int, ...]:
    return tuple(kind.faces[0] for kind in request.kinds[:count])


def test_a_throw_survives_a_restart_and_the_roll_ends_the_throws(session: GameSession) -> None:
    request = to_a_roll_of_several_dice(session)
    throw = first_faces(request, 1)
    session.submit(ThrowAccepted(throw))
    again = GameSession.resume(session.journal)
    assert again.record.throws == (throw,)
    assert again.record.fingerprint() == session.record.fingerprint()
    again.submit(DiceAccepted(first_faces(request, request.dice_count)))
    assert again.record.throws == ()


def test_undo_takes_back_the_last_throw_before_the_step(session: GameSession) -> None:
    request = to_a_roll_of_several_dice(session)
    played = session.record.played
    session.submit(ThrowAccepted(first_faces(request, 1)))
    session.submit(Undone())
    assert session.record.throws == () and session.record.played == played
    assert isinstance(session.step, AwaitRoll) and session.step.request == request
    assert replay_journal(session.journal).fingerprint() == session.record.fingerprint()


def test_a_throw_must_leave_part_of_a_waiting_roll_to_throw(session: GameSession) -> None:
    with pytest.raises(RulesError, match="no roll is waiting"):
        session.submit(ThrowAccepted((1,)))  # the first chip is awaited
    request = to_a_roll_of_several_dice(session)
    with pytest.raises(RulesError, match="still to throw"):
        session.submit(ThrowAccepted(first_faces(request, request.dice_count)))
    assert session.record.throws == ()


def test_events_of_earlier_kinds_keep_their_stored_form() -> None:
    """A journal written before throws were journaled holds these very rows."""
    assert encode(DiceAccepted((6, 5, 1), "camera")) == (
        "DiceAccepted", '{"dice": [6, 5, 1], "source": "camera"}')
    assert encode(Undone("undo")) == ("Undone", '{"reason": "undo"}')
    assert decode(*encode(ThrowAccepted((6, 5)))) == ThrowAccepted((6, 5))
    with pytest.raises(JournalError, match="cannot be read"):
        decode("ThrowAccepted", '{"faces": [6]}')
