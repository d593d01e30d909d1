"""The scripted game through the session: journaled, then rebuilt after a 'power cut'."""

from __future__ import annotations

from pathlib import Path

from fs_script import SCENARIO_TOML, SCRIPT
from rule_scripting import as_event, resume_after_power_cut, submit

from companion.rules.core import GameOver
from companion.session.events import Undone
from companion.session.journal import Journal
from companion.session.session import GameSession


def test_scripted_game_through_the_session_and_back(tmp_path: Path) -> None:
    session = GameSession.new(Journal(tmp_path / "journal.sqlite3"), SCENARIO_TOML, "skirmish")
    assert session.record.system == "fighting_swashbucklers"
    inputs = [given for given, _ in SCRIPT]
    half = len(inputs) // 2
    log = submit(session, *inputs[:half])

    # the plug is pulled: a new session rebuilds the game from the journal
    rebuilt = resume_after_power_cut(session)
    log += submit(rebuilt, *inputs[half:])
    step = rebuilt.step
    assert isinstance(step, GameOver) and step.winner == "Tribes"
    assert "Ali's men clobber him" in log
    assert "Tribes win:" in rebuilt.describe()[0]
    rebuilt.journal.close()


def test_undo_in_the_session_takes_back_a_roll(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    session = GameSession.new(journal, SCENARIO_TOML)
    before = session.record.state
    session.submit(as_event(SCRIPT[0][0]))
    session.submit(Undone())
    assert session.record.state == before
    journal.close()
