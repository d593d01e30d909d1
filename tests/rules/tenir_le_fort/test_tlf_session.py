"""A scripted game of two attacks of the example scenario, through the session and its journal.

Every input is journaled by `GameSession.submit`; at the end the journal is read
back from disk, replayed, and must give exactly the same game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rule_scripting import resume_after_power_cut

from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, GameOver
from companion.rules.tenir_le_fort.state import GameState, UnitState
from companion.session.events import ChipAccepted, ChoiceMade, DiceAccepted
from companion.session.journal import Journal
from companion.session.scenario_files import example_scenario_text
from companion.session.session import GameSession


class SessionPlay:
    def __init__(self, path: Path) -> None:
        self.journal = Journal(path)
        self.session = GameSession.new(self.journal, example_scenario_text("tenir_le_fort"))
        self.log: list[str] = []
        self.cues: set[str] = set()

    @property
    def s(self) -> GameState:
        state = self.session.record.state
        assert isinstance(state, GameState)
        return state

    def unit(self, name: str) -> UnitState:
        return self.s.unit(name)

    def _submit(self, event: Any) -> None:
        transition = self.session.submit(event)
        assert transition is not None
        self.log.extend(transition.log)
        self.cues |= transition.cues

    def choose(self, *keys: str) -> None:
        for key in keys:
            step = self.session.step
            assert isinstance(step, AwaitChoice), f"expected a choice for {key}, got {step}"
            assert key in [o.key for o in step.options], f"{key} not in {step}"
            self._submit(ChoiceMade(key))

    def roll(self, *dice: int) -> None:
        step = self.session.step
        assert isinstance(step, AwaitRoll), f"expected a roll of {dice}, got {step}"
        self._submit(DiceAccepted(tuple(dice)))

    def dice(self) -> int:
        step = self.session.step
        assert isinstance(step, AwaitRoll), f"expected a roll, got {step}"
        return step.request.dice_count

    def chip(self, name: str) -> None:
        step = self.session.step
        assert isinstance(step, AwaitChip), f"expected chip {name}, got {step}"
        self._submit(ChipAccepted(name))

    def pass_turn(self) -> None:
        """Every chip left this turn does nothing."""
        turn = (self.s.attack, self.s.turn)
        while isinstance(self.session.step, AwaitChip) and (self.s.attack, self.s.turn) == turn:
            step = self.session.step
            assert isinstance(step, AwaitChip)
            self.chip(step.in_bag[0])
            if isinstance(self.session.step, AwaitRoll):  # the secret relief roll
                self.roll(1)
            keys = [o.key for o in self.session.step.options]  # type: ignore[union-attr]
            self.choose("done" if "done" in keys else "pass")

    def said(self, text: str) -> bool:
        return any(text in line for line in self.log)


@pytest.fixture
def game(tmp_path: Path) -> SessionPlay:
    return SessionPlay(tmp_path / "journal.sqlite3")


def test_two_attacks_of_the_example_through_the_session(game: SessionPlay) -> None:
    g = game
    # ------------------------------------------------ before the game
    g.choose("days:1")
    g.choose("patrols", "mine", "done")
    assert g.s.day == 2 and g.s.patrols and g.s.mines == 1
    g.roll(2)  # the secret relief day: day 4
    assert g.s.reinforcement_day == 4 and g.session.record.secrets
    # the Riffians creep to the gate: desert to wall, over it, to the gate, and blow it
    g.choose("unit:Riffian Band", "gate", "yes")
    g.roll(1, 6)  # sentry 1 + 1 patrols against 6 + 1 outside the fort
    g.choose("no")  # no sentry near the wall
    g.choose("yes")
    g.roll(2, 5)
    g.choose("yes")
    g.roll(1, 4)
    g.roll(3, 4)
    assert g.s.gate_destroyed
    g.choose("none")  # no FFL sortie

    # ------------------------------------------------ attack 1, day 2
    assert g.said("=== Attack 1, day 2 ===") and g.said("Joined the siege by day 2: Oasis Raiders")
    assert not g.unit("Chaamba Band").present and not g.s.alerted
    assert g.said("The Arabs mark their starting positions on a map")
    g.choose("tower:2")
    g.roll(4)
    g.roll(3)
    assert (g.s.cp_ffl, g.s.cp_arab) == (4, 3)
    assert g.said("The Arabs place their units as mapped.")
    # the Riffians open fire on the fort: the garrison is awake
    g.chip("A2")
    g.choose("fire", "target:Legion 1", "cover:heavy")
    assert g.s.alerted
    g.roll(6, 6, 1, 1, 2, 3)
    g.roll(4, 1)  # heavy cover saves one of the two hits
    g.choose("no")  # Sgt Bauer is not the man hit
    g.roll(2)  # wounded
    assert g.unit("Legion 1").wounded == 1
    # Legion 1 answers: 4 healthy riflemen and the sergeant, the wounded man hits on a 6
    g.chip("L1")
    g.choose("fire", "target:Tuareg Band", "cover:none", "far")
    assert g.dice() == 6
    g.roll(6, 6, 4, 1, 2, 3)
    assert g.unit("Tuareg Band").figures == 9 and g.unit("Tuareg Band").pinned
    # the pinned Tuareg fail to recover; Sheikh Ali's point unpins them
    g.chip("A1")
    g.choose("move")
    g.roll(1, 2, 3)
    g.choose("yes")
    assert not g.unit("Tuareg Band").pinned and g.s.cp_arab == 2
    # the Maxim cuts into the horsemen; Sheikh Yusuf rides with them
    g.chip("MG")
    g.choose("fire", "target:Desert Horse", "cover:none", "far")
    g.roll(6, 6, 6, 4, 1, 2, 3, 3)
    assert g.dice() == 3  # three 6s roll again
    g.roll(2, 2, 2)
    assert not g.unit("Desert Horse").pinned, "a mounted leader's unit is never pinned"
    g.roll(6, 5)  # 11: Sheikh Yusuf is one of the four casualties
    assert g.unit("Desert Horse").figures == 5 and not g.unit("Sheikh Yusuf").alive
    assert g.s.arab_lost_leader and g.s.casualties == 7
    # the Captain: the secret relief roll, a hero, then he joins Legion 2
    g.chip("CPT")
    g.roll(3)
    assert g.said("No sign of the relief column.")
    g.choose("hero", "unit:Legion 3", "attach", "unit:Legion 2", "done")
    assert g.s.cp_ffl == 2 and g.unit("Legion 3").heroes == 1
    assert g.unit("Capt Renaud").attached_to == "Legion 2"
    # the horsemen charge Legion 3 and go berserk; defensive fire, then the melee
    g.chip("A5")
    g.choose("charge", "target:Legion 3")
    assert g.dice() == 5
    g.roll(6, 3, 3, 2, 1)
    assert g.unit("Desert Horse").berserk
    g.choose("fire", "far")
    g.roll(4, 4, 1, 1, 1, 1, 1)
    assert g.unit("Desert Horse").figures == 3
    g.choose("loophole", "no")
    g.roll(2, 3)  # 2+1 berserk against the hero's 3+1+2+2: the horseman dies
    g.roll(6, 1)  # 7 against 1+1+2: the legionnaire loses with a 1, killed
    g.roll(4, 4)  # 5 against 7
    assert g.unit("Desert Horse").figures == 1 and g.unit("Legion 3").figures == 5
    assert g.s.casualties == 11
    # Sheikh Ali gives the Riffians an extra turn; their dynamite goes off early
    g.chip("S1")
    g.choose("extra_turn", "unit:Riffian Band", "dynamite", "target:Legion 2")
    g.roll(1, 1)
    g.choose("n:1")
    assert g.unit("Riffian Band").figures == 10 and g.s.casualties == 13
    g.choose("done")
    assert g.s.cp_arab == 1
    # Legion 2 with the Captain: riflemen, sergeant, captain, and two pistols within 6"
    g.chip("L2")
    g.choose("fire", "target:Riffian Band", "cover:none", "near")
    assert g.dice() == 6 + 1 + 2 + 2 * 2
    g.roll(4, 4, 4, 4, 1, 1, 1, 1, 1, 6, 1, 1, 1)
    assert g.unit("Riffian Band").figures == 5 and g.s.casualties == 18
    g.chip("L3")
    g.choose("pass")
    # the mountain gun on the wall: beyond its 12 inches
    g.chip("GUN")
    g.choose("fire", "target:Tuareg Band", "cover:heavy", "far")
    g.roll(5, 5, 1, 1, 1, 2, 2, 2)
    assert g.unit("Tuareg Band").figures == 7, "artillery hits get no heavy cover save"
    # the raiders set their grappling hook against the wall
    g.chip("A4")
    g.choose("ladder")
    g.roll(4, 5)
    g.choose("yes")
    assert g.unit("Oasis Raiders").ladder_placed
    assert g.said("End of turn 1: 20 Arab casualties this attack.")
    assert "S2" not in g.s.bag.in_bag, "the dead sheikh's chit has left the bag"

    # ------------------------------------------------ attack 1, turn 2
    g.chip("A4")
    g.choose("assault", "target:Legion 1")
    g.roll(6, 1)  # the first climber kills a defender
    g.roll(1, 6)  # and dies to the next
    g.roll(2, 4)  # the second climber dies too
    assert g.said("The ladder assault is thrown back.")
    assert g.unit("Legion 1").figures == 4 and g.unit("Oasis Raiders").figures == 8
    g.chip("L1")
    g.choose("fire", "target:Oasis Raiders", "cover:none", "far")
    g.roll(5, 5, 5, 1, 6)  # the wounded man's die is last: his 6 hits
    assert g.unit("Oasis Raiders").figures == 4 and g.s.casualties == 26
    g.pass_turn()
    # 26 casualties: the Arab resolve is checked
    g.choose("no", "yes", "cp:1")
    g.roll(1)  # 1 + 1 oasis + 1 command point = 3, needs 2
    assert g.said("Arab resolve holds")
    assert g.said("Turn limit (2) reached: night falls and the attack ends.")

    # ------------------------------------------------ between the attacks
    g.choose("attack")
    g.roll(3)  # two days later: day 4, the relief day
    g.choose("none", "none")

    # ------------------------------------------------ attack 2, day 4
    assert g.said("=== Attack 2, day 4 ===") and g.unit("Chaamba Band").present
    g.roll(4, 5)  # ammunition 9: fire at half
    assert g.s.ammo == "half"
    g.choose("yes", "no")  # the Arabs are low on water
    assert g.s.arab_low_water
    g.choose("tower:2")
    g.roll(2)
    g.roll(5)  # halved: Sheikh Yusuf is dead
    assert (g.s.cp_ffl, g.s.cp_arab) == (4, 2)
    # only the sentries are awake until the Riffians open fire again
    g.chip("A2")
    g.choose("fire", "target:Legion 3", "cover:light")
    g.roll(1, 1, 1, 1, 1)
    assert g.s.alerted
    # the Captain's secret roll brings the relief column on its day
    g.chip("CPT")
    g.roll(6)
    g.choose("ok")  # the secret roll brings them: everyone sees them march on
    assert g.unit("Relief 1").present and g.unit("Lt Morel").attached_to == "Relief 1"
    assert {"R1", "R2", "R3", "LT", "SUP"} <= set(g.s.bag.in_bag)
    g.choose("leave", "done")
    g.chip("SUP")
    g.choose("fort")
    assert g.s.supply_through and g.s.ammo == "normal"
    # the relief column's riflemen try for Sheikh Ali
    g.chip("R1")
    g.choose("fire", "target:Sheikh Ali")
    g.roll(5, 5)
    assert g.said("The shot misses Sheikh Ali.")
    # the Chaamba charge Legion 2, and the legion counter-charges and fires on the run
    g.chip("A3")
    g.choose("charge", "target:Legion 2")
    g.roll(2, 3, 4, 1)  # tribal leader's die dropped; no 6
    g.choose("yes", "counter")
    g.roll(1, 2, 3)
    g.choose("far")
    assert g.dice() == 3  # six riflemen on the move: one die per two
    g.roll(4, 4, 1)
    assert g.unit("Chaamba Band").figures == 10
    g.choose("cover", "no")
    step = g.session.step
    assert isinstance(step, AwaitRoll)
    # the chief's +1 and thirst's -1 against the sergeant's +1 and cover's +1
    assert "Arab attacker +0 vs FFL defender +2" in step.request.reason
    for _ in range(10):  # ten Chaamba, six legionnaires who may each fight four
        g.roll(1, 6)
    # twelve tribesmen and their chief, who falls with his band
    assert g.said("Chaamba Band is destroyed.") and g.s.casualties == 13
    g.pass_turn()
    g.pass_turn()
    over = g.session.step
    assert isinstance(over, GameOver) and over.winner == "FFL"
    assert "last attack" in over.summary[0]
    assert "game_over" in g.cues

    # ------------------------------------------------ the journal rebuilds the same game
    again = resume_after_power_cut(g.session)
    assert len(again.record.secrets) == len(g.session.record.secrets) >= 4
