"""The scripted game through the session: journaled, then rebuilt after a 'power cut'."""

from __future__ import annotations

from pathlib import Path

from fs_script import SCENARIO_TOML, SCRIPT

from companion.rules.core import Chosen, GameOver, Rolled
from companion.session.events import ChoiceMade, DiceAccepted, Event, Undone
from companion.session.journal import Journal
from companion.session.session import GameSession


def event_for(given: Chosen | Rolled) -> Event:
    if isinstance(given, Chosen):
        return ChoiceMade(given.key)
    return DiceAccepted(given.dice, source="manual")


def test_scripted_game_through_the_session_and_back(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = GameSession.new(journal, SCENARIO_TOML, "skirmish")
    assert session.record.system == "fighting_swashbucklers"
    half = len(SCRIPT) // 2
    log: list[str] = []
    for given, _ in SCRIPT[:half]:
        assert isinstance(given, Chosen | Rolled)
        transition = session.submit(event_for(given))
        assert transition is not None
        log.extend(transition.log)
    journal.close()

    # the plug is pulled: a new session rebuilds the game from the journal
    journal = Journal(path)
    rebuilt = GameSession.resume(journal)
    assert rebuilt.record.state == session.record.state
    assert rebuilt.record.fingerprint() == session.record.fingerprint()
    for given, _ in SCRIPT[half:]:
        assert isinstance(given, Chosen | Rolled)
        transition = rebuilt.submit(event_for(given))
        assert transition is not None
        log.extend(transition.log)
    step = rebuilt.step
    assert isinstance(step, GameOver) and step.winner == "Tribes"
    assert "Ali's men clobber him" in log
    assert any("Tribes wins" in line for line in rebuilt.describe()) or step.summary
    journal.close()


def test_undo_in_the_session_takes_back_a_roll(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    session = GameSession.new(journal, SCENARIO_TOML)
    before = session.record.state
    session.submit(event_for(SCRIPT[0][0]))  # type: ignore[arg-type]
    session.submit(Undone())
    assert session.record.state == before
    journal.close()
