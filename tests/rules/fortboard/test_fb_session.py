"""The scripted siege through the session: journaled, then rebuilt after a 'power cut'."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rule_scripting import as_event, resume_after_power_cut, submit
from test_fb_game import OPENING, _quiet_input

from companion.rules.core import AwaitChoice, AwaitRoll, Chosen, GameOver, Rolled
from companion.session.journal import Journal
from companion.session.session import GameSession


def test_scripted_siege_through_the_session_and_back(tmp_path: Path) -> None:
    toml = resources.files("companion.scenarios").joinpath("fortboard.toml").read_text()
    session = GameSession.new(Journal(tmp_path / "journal.sqlite3"), toml, "fortboard")
    assert session.record.system == "fortboard"
    log = submit(session, *(token for token, _expected in OPENING))
    assert "NE tower is hit: 8 of 9 spaces left" in log

    # the plug is pulled mid-combat: a new session rebuilds the game from the journal
    rebuilt = resume_after_power_cut(session)
    for _ in range(500):
        step = rebuilt.step
        if isinstance(step, GameOver):
            break
        assert isinstance(step, AwaitChoice | AwaitRoll)
        given = _quiet_input(step)
        assert isinstance(given, Chosen | Rolled)
        rebuilt.submit(as_event(given))
    step = rebuilt.step
    assert isinstance(step, GameOver)
    assert step.winner == "Garrison"
    rebuilt.journal.close()
