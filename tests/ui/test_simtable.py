"""The simulated table behaves like a referee: it gives the camera two tries at a
roll, then types the dice lying on the tray in by hand. So every system's demo
finishes whatever the dice reader does; and the demo says clearly, without a
traceback, when it cannot show a kind of die at all."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from companion.box import Box, DiceSeen, SeenDie
from companion.cli import main
from companion.demo import describe_step
from companion.rules import SYSTEM_NAMES
from companion.rules.core import (
    AwaitChip,
    AwaitRoll,
    DiceGroup,
    DieKind,
    GameOver,
    Odds,
    RollRequest,
)
from companion.session.events import DiceAccepted
from companion.session.journal import Journal
from companion.session.session import GameSession
from companion.simtable import TRIES_BEFORE_HAND_ENTRY, SimTable


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    made = Journal(tmp_path / "journal.sqlite3")
    yield made
    made.close()


def refusing(kinds: list[DieKind], truth: list[int], rng: random.Random) -> DiceSeen:
    """A reader that refuses every die it is shown."""
    return DiceSeen((), tuple(((i * 50, 0, 40, 40), "unclear face") for i in range(len(kinds))))


def blind(kinds: list[DieKind], truth: list[int], rng: random.Random) -> None:
    """A camera that never sees the dice land (nothing reaches the box)."""
    return None


CASES = [pytest.param(system, refusing, id=f"refusing-{system}") for system in SYSTEM_NAMES]
CASES += [pytest.param(system, blind, id=f"blind-{system}")  # the menu path: two suffice
          for system in ("tenir_le_fort", "on_the_frontier")]


@pytest.mark.parametrize(("system", "camera"), CASES)
def test_every_system_finishes_by_hand_whatever_the_reader_does(
    system: str, camera: object, journal: Journal
) -> None:
    text = resources.files("companion.scenarios").joinpath(f"{system}.toml").read_text("utf-8")
    session = GameSession.new(journal, text, "test")
    said: list[str] = []
    box = Box(session, show=lambda s: None, play=lambda n: None, say=said.append)
    throws: list[list[int]] = []

    def watched(kinds: list[DieKind], truth: list[int], rng: random.Random) -> DiceSeen | None:
        throws.append(list(truth))
        return camera(kinds, truth, rng)  # type: ignore[operator, no-any-return]

    table = SimTable(box, random.Random(4), camera=watched)
    box.start()
    for _ in range(20000):
        if table.finished():
            break
        table.act()
    assert table.finished() and isinstance(box.step, GameOver), system
    rolls = [e for e in (x.event for x in journal.entries()) if isinstance(e, DiceAccepted)]
    assert rolls and {e.source for e in rolls} <= {"manual"}
    # Two tries a roll, never more: a referee does not keep throwing forever.
    assert len(throws) <= TRIES_BEFORE_HAND_ENTRY * len(rolls)
    if camera is refusing:
        assert sum("Reroll (2nd time)" in line for line in said) >= len(rolls) // 2


def test_what_is_typed_in_is_what_lies_on_the_tray(journal: Journal) -> None:
    """The referee types the faces of the refused throw, not numbers of their own."""
    text = resources.files("companion.scenarios").joinpath(
        "on_the_frontier.toml").read_text("utf-8")
    session = GameSession.new(journal, text, "test")
    box = Box(session, show=lambda s: None, play=lambda n: None)
    thrown: list[list[int]] = []

    def second_throw_refused(kinds: list[DieKind], truth: list[int],
                             rng: random.Random) -> DiceSeen:
        thrown.append(list(truth))
        if len(thrown) == 1:  # the first side's die is read
            return DiceSeen((SeenDie(kinds[0].value, truth[0], (0, 0, 40, 40)),))
        return refusing(kinds, truth, rng)

    table = SimTable(box, random.Random(9), camera=second_throw_refused)
    box.start()
    while not [e for e in journal.entries() if isinstance(e.event, DiceAccepted)]:
        table.act()
    (accepted,) = [e.event for e in journal.entries() if isinstance(e.event, DiceAccepted)]
    assert isinstance(accepted, DiceAccepted) and accepted.source == "manual"
    assert list(accepted.dice) == [thrown[0][0], thrown[-1][0]]  # the initiative d6 each


def test_demo_without_sample_dice_of_a_kind_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import companion.vision as vision
    from companion.vision.types import VisionError

    real = vision.compose_tray

    def compose_tray(values: object, kind: object, rng: random.Random) -> object:
        if kind == "percentile" or (isinstance(kind, list) and "percentile" in kind):
            raise VisionError("compose_tray has no sample dice of kind 'percentile'; "
                              "it has d10, d6")
        return real(values, kind, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(vision, "compose_tray", compose_tray)
    code = main(["demo", "--system", "fighting_swashbucklers",
                 "--journal", str(tmp_path / "journal.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot show percentile dice" in err and "sample photos" in err
    assert "Traceback" not in err


def test_the_demo_gives_each_roll_s_odds_by_what_it_decides() -> None:
    """The play-by-play says "Legion 46%, Arabs 46%, tie 8%", not an average of sides."""
    toss = RollRequest("Activation toss: a d10 each", (
        DiceGroup(DieKind.D10, 1, "Legion", ""), DiceGroup(DieKind.D10, 1, "Arabs", "")))
    odds = Odds("side activating (0 = tie)", {1: Fraction(46, 100), 2: Fraction(46, 100),
                                               0: Fraction(8, 100)})
    assert describe_step(AwaitRoll(toss, odds)) == (
        "[roll 1d10 + 1d10] Activation toss: a d10 each — Legion 46%, Arabs 46%, tie 8%")
    passed = Odds("passed", {1: Fraction(62, 100), 0: Fraction(38, 100)})
    assert describe_step(AwaitRoll(toss, passed)).endswith(" — passed 62%")
    secret = RollRequest("Reinforcement day", toss.groups, secret=True)
    assert describe_step(AwaitRoll(secret, odds)) == (
        "[roll 1d10 + 1d10] (secret) Reinforcement day")


def test_the_demo_says_the_last_chip_in_the_singular() -> None:
    assert describe_step(AwaitChip("Draw a chip", ("A1",))) == (
        "[bag] Draw a chip (1 chip in the bag)")
    assert describe_step(AwaitChip("Draw a chip", ("A1", "A2"))) == (
        "[bag] Draw a chip (2 chips in the bag)")


def test_the_demo_keeps_its_journal_where_it_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.sqlite3"
    assert main(["demo", "--max-inputs", "20", "--journal", str(path)]) == 0  # cut short, as asked
    journal = Journal(path)
    try:
        assert len(journal.entries()) >= 2
    finally:
        journal.close()
    assert f"in {path}" in capsys.readouterr().out
    # A second demo into the same file would overwrite a game: it is refused, clearly.
    assert main(["demo", "--journal", str(path)]) == 2
    assert "already holds a game" in capsys.readouterr().err


def test_the_demo_says_a_choice_before_what_it_leads_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["demo", "--system", "fortboard", "--seed", "5", "--max-inputs", "120",
          "--journal", str(tmp_path / "demo.sqlite3")])
    lines = capsys.readouterr().out.splitlines()
    passing = next(i for i, line in enumerate(lines) if line.startswith("  The move passes"))
    assert lines[passing - 1] == "  > End move"
