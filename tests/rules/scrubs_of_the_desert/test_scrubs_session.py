"""Scrubs of the Desert through the session: a scripted game journaled to SQLite and
resumed from it, and random games whose replayed journal rebuilds the same state."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_scripting import as_event, check_random_game_replays, resume_after_power_cut

from companion.rules import get_ruleset
from companion.rules.core import AwaitRoll, GameOver
from companion.session.events import GameStarted, Undone
from companion.session.journal import Journal
from companion.session.session import GameSession, apply

SYSTEM = "scrubs_of_the_desert"

SCENARIO = """
system = "scrubs_of_the_desert"
title = "The hook at dawn"
sides = ["Legion", "Arabs"]

[setup]
turn_limit = 3
fort = true
hidden_arabs = true
figures_over_wall_to_win = 3

[[units]]
name = "Section"
side = "Legion"
kind = "foot"
figures = 4
weapons = ["french_rifle"]
leader = "Sgt Vidal"
[units.traits]
base_morale = 70

[[units]]
name = "MG"
side = "Legion"
kind = "gun"
figures = 2
weapons = ["machine_gun"]
[units.traits]
base_morale = 70

[[units]]
name = "Warband"
side = "Arabs"
kind = "foot"
figures = 6
weapons = ["arab_spear"]
leader = "the Emir"
[units.traits]
base_morale = 65

[[units]]
name = "Horse"
side = "Arabs"
kind = "horse"
figures = 2
weapons = ["arab_rifle"]
[units.traits]
base_morale = 60
hidden = false
"""

# (input, a line the play-by-play must then show)
SCRIPT: tuple[tuple[str | tuple[int, ...], str], ...] = (
    ((7, 3), "toss: Legion 7+0 = 7, Arabs 3+0 = 3: Legion wins and activates a unit"),
    ("unit:Section", "Section activates"),
    ("target:Warband", ""),
    ("12-24", ""),
    ((9,), "Warband sighted (rolled 9 needing 8+: sighted)"),
    ("skip", ""),
    ("stay", "Section stays put"),
    ("target:Warband", ""),
    ("long", ""),
    ("no", ""),
    ((9, 8, 0, 0), "Section fires French rifle at Warband: 2 hits"),  # 8+ long, +1 still
    ("open", ""),
    ((3, 0), "Warband morale: rolled 30 against 45%: holds"),  # 65 - 2 x 10 = 45
    ((3, 7), "toss: Legion 3+0 = 3, Arabs 7+1 = 8: Arabs win and activate a unit"),
    ("unit:Horse", "Horse activates"),
    ("charge", ""),
    ("target:MG", "Horse charges MG"),
    ("desert", ""),
    ((3, 4, 5), 'Horse moves 12" (rolled 3, 4, 5: total of all 3 dice = 12")'),
    ("yes", "Horse contacts MG: melee sequence"),
    ("open", ""),
    ((0, 0), "MG morale: rolled 00 against 70%: holds"),
    ("fire", "MG fires at the chargers"),
    ((0, 0, 0, 9), "MG jams: no more fire this turn or next"),
    ((0, 0), "Horse closes in: morale rolled 00 against 50%, holds"),
    ((5, 5, 5), "bout 1: MG wins: one of Horse is killed"),
    ((0, 9), "toss: Legion 0+1 = 1, Arabs 9+0 = 9: Arabs win and activate a unit"),
    ("unit:Warband", "Warband activates"),
    ("hook", ""),
    ("1", "the 1 defending the hook do nothing else this turn"),
    ((6,), "Warband: 1 over the wall"),
    ("yes", ""),
    ((5,), "Warband: 2 over the wall"),
    ("yes", ""),
    ((8,), "Game over: Arabs win"),
)


def test_scripted_game_is_journaled_and_resumes(tmp_path: Path) -> None:
    ruleset = get_ruleset(SYSTEM)
    journal = Journal(tmp_path / "journal.sqlite3")
    session = GameSession.new(journal, SCENARIO, "hook at dawn")
    for given, expected in SCRIPT:
        transition = session.submit(as_event(given))
        assert transition is not None
        if expected:
            assert expected in transition.log, (given, transition.log)
    step = session.step
    assert isinstance(step, GameOver) and step.winner == "Arabs"
    assert "Arabs over the wall: 3 of 3 to win" in step.summary
    assert "  Horse: 0/2 (removed)" in step.summary
    assert "  MG: 2/2 (jammed to the end of turn 2)" in step.summary
    resumed = resume_after_power_cut(session)
    assert ruleset.describe(resumed.record.state) == session.describe()


def test_scripted_game_undo_steps_back_one_input() -> None:
    ruleset = get_ruleset(SYSTEM)
    record, _ = apply(None, GameStarted(SYSTEM, SCENARIO, "hook at dawn"))
    for given, _ in SCRIPT[:-1]:
        record, _ = apply(record, as_event(given), ruleset)
    before = record.state
    record, _ = apply(record, as_event(SCRIPT[-1][0]), ruleset)
    assert isinstance(ruleset.next_step(record.state), GameOver)
    undone, _ = apply(record, Undone(), ruleset)
    assert undone.state == before
    step = ruleset.next_step(undone.state)
    assert isinstance(step, AwaitRoll) and step.request.reason.endswith(
        "the third figure this turn"
    )


@pytest.mark.parametrize("seed", [11, 12])
def test_replayed_journal_rebuilds_a_random_game(seed: int) -> None:
    check_random_game_replays(SYSTEM, seed)
