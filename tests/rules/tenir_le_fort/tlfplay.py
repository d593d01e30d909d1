"""Helpers for scripted Tenir le Fort games: small scenarios and a player that checks each step."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources
from typing import Any

from rule_scripting import choice_keys

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameInput,
    GameOver,
    Rolled,
)
from companion.rules.tenir_le_fort.state import GameState, UnitState

RULES = get_ruleset("tenir_le_fort")


def example() -> dict[str, Any]:
    text = resources.files("companion.scenarios").joinpath("tenir_le_fort.toml").read_text()
    return tomllib.loads(text)


def small(**setup: Any) -> dict[str, Any]:
    """One squad with its sergeant, the Captain, one war band and a sheikh."""
    return {
        "system": "tenir_le_fort",
        "title": "Skirmish",
        "sides": ["FFL", "Arab"],
        "setup": {
            "turn_limit": 1,
            "max_preparation_days": 1,
            "tower": False,
            "sentries": False,
            **setup,
        },
        "units": [
            {
                "name": "Legion",
                "side": "FFL",
                "kind": "foot",
                "figures": 4,
                "leader": "Sgt",
                "chip": "L",
            },
            {
                "name": "Capt",
                "side": "FFL",
                "kind": "leader",
                "figures": 1,
                "chip": "C",
                "traits": {"rank": "captain"},
            },
            {"name": "Band", "side": "Arab", "kind": "foot", "figures": 6, "chip": "A"},
            {
                "name": "Sheikh",
                "side": "Arab",
                "kind": "leader",
                "figures": 1,
                "chip": "S",
                "traits": {"rank": "mounted"},
            },
        ],
    }


def add_unit(raw: dict[str, Any], **unit: Any) -> dict[str, Any]:
    raw["units"].append(unit)
    return raw


def unit_raw(raw: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(u for u in raw["units"] if u["name"] == name)
    return found


class Play:
    """Feeds inputs one at a time, checking each is what the game waits for."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.scenario = RULES.load_scenario(raw)
        self.state: Any = RULES.start(self.scenario)
        self.journal: list[GameInput] = []
        self.log: list[str] = []
        self.cues: list[str] = []

    @property
    def s(self) -> GameState:
        assert isinstance(self.state, GameState)
        return self.state

    def unit(self, name: str) -> UnitState:
        return self.s.unit(name)

    def set_unit(self, name: str, **changes: Any) -> None:
        """Stand-in for earlier events: change a unit directly."""
        self.state = self.s.with_unit(replace(self.s.unit(name), **changes))

    def step(self) -> Any:
        return RULES.next_step(self.state)

    def give(self, given: GameInput) -> None:
        t = RULES.advance(self.state, given)
        self.state = t.state
        self.journal.append(given)
        self.log.extend(t.log)
        self.cues.extend(sorted(t.cues))

    def options(self) -> list[str]:
        return choice_keys(RULES, self.state)

    def prompt(self) -> str:
        step = self.step()
        assert isinstance(step, AwaitChoice), f"expected a choice, got {step}"
        return step.prompt

    def choose(self, *keys: str) -> None:
        for key in keys:
            step = self.step()
            assert isinstance(step, AwaitChoice), f"expected a choice for {key}, got {step}"
            self.give(Chosen(key))

    def roll(self, *dice: int) -> None:
        step = self.step()
        assert isinstance(step, AwaitRoll), f"expected a roll, got {step}"
        self.give(Rolled(tuple(dice)))

    def request(self) -> Any:
        step = self.step()
        assert isinstance(step, AwaitRoll), f"expected a roll, got {step}"
        return step.request

    def chip(self, name: str) -> None:
        step = self.step()
        assert isinstance(step, AwaitChip), f"expected a chip, got {step}"
        self.give(ChipDrawn(name))

    def said(self, text: str) -> bool:
        return any(text in line for line in self.log)

    def pass_all(self) -> None:
        """Draw every chip left this turn and do nothing with it."""
        turn = (self.s.attack, self.s.turn)
        while isinstance(self.step(), AwaitChip) and (self.s.attack, self.s.turn) == turn:
            chip = self.step().in_bag[0]
            self.chip(chip)
            while isinstance(self.step(), AwaitRoll):  # the secret relief roll on FFL chits
                self.roll(1)
            self.choose("done" if "done" in self.options() else "pass")

    def over(self) -> GameOver:
        step = self.step()
        assert isinstance(step, GameOver), f"expected the end, got {step}"
        return step


def to_first_chip(
    p: Play,
    *,
    relief_die: int = 1,
    cp: tuple[int, int] = (4, 3),
    preparations: tuple[str, ...] = (),
) -> None:
    """Preparation (the FFL's `preparations` first), no night operations, deploy, command
    points."""
    p.choose("days:1", *preparations, "done")
    p.roll(relief_die)
    while isinstance(p.step(), AwaitChoice) and "none" in p.options():
        p.choose("none")  # no Arab sabotage, no FFL sortie
    step = p.step()
    if isinstance(step, AwaitChoice) and step.prompt.startswith("FFL deploy"):
        p.choose(step.options[0].key)
    p.roll(cp[0])
    p.roll(cp[1])


def at_first_chip(raw: dict[str, Any] | None = None) -> Play:
    """A game of `raw` (the small one by default) played to its first chip."""
    p = Play(raw if raw is not None else small())
    to_first_chip(p)
    return p
