"""The scripted siege through the session: journaled, then rebuilt after a 'power cut'."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from test_fb_game import OPENING, _quiet_input

from companion.rules.core import AwaitChoice, AwaitRoll, Chosen, GameOver, Rolled
from companion.session.events import ChoiceMade, DiceAccepted, Event
from companion.session.journal import Journal
from companion.session.session import GameSession


def _event(given: Chosen | Rolled) -> Event:
    if isinstance(given, Chosen):
        return ChoiceMade(given.key)
    return DiceAccepted(given.dice, source="manual")


def _as_given(token: str | tuple[int, ...]) -> Chosen | Rolled:
    return Rolled(token) if isinstance(token, tuple) else Chosen(token)


def test_scripted_siege_through_the_session_and_back(tmp_path: Path) -> None:
    toml = resources.files("companion.scenarios").joinpath("fortboard.toml").read_text()
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = GameSession.new(journal, toml, "fortboard")
    assert session.record.system == "fortboard"
    log: list[str] = []
    for token, _expected in OPENING:
        transition = session.submit(_event(_as_given(token)))
        assert transition is not None
        log.extend(transition.log)
    assert "NE tower is hit: 8 of 9 spaces left" in log
    journal.close()

    # the plug is pulled mid-combat: a new session rebuilds the game from the journal
    journal = Journal(path)
    rebuilt = GameSession.resume(journal)
    assert rebuilt.record.state == session.record.state
    for _ in range(500):
        step = rebuilt.step
        if isinstance(step, GameOver):
            break
        assert isinstance(step, AwaitChoice | AwaitRoll)
        given = _quiet_input(step)
        assert isinstance(given, Chosen | Rolled)
        rebuilt.submit(_event(given))
    step = rebuilt.step
    assert isinstance(step, GameOver)
    assert step.winner == "Garrison"
    journal.close()
