"""Small forts and input helpers shared by the FortBoard tests."""

from __future__ import annotations

import copy
import tomllib
from dataclasses import replace
from importlib import resources
from typing import Any

import rule_scripting

from companion.rules.core import AwaitRoll
from companion.rules.fortboard import RULESET
from companion.rules.fortboard.state import Ask, GameState

SMALL_PLACES: list[dict[str, Any]] = [
    {"name": "N wall", "kind": "wall", "spaces": 4, "adjacent": ["NE tower", "Barracks"]},
    {"name": "E wall", "kind": "wall", "spaces": 3, "adjacent": ["NE tower"]},
    {"name": "NE tower", "kind": "tower", "spaces": 9, "adjacent": ["Courtyard"]},
    {"name": "Courtyard", "kind": "courtyard"},
    {"name": "Barracks", "kind": "barracks", "spaces": 2, "adjacent": ["Courtyard"]},
    {"name": "Stables", "kind": "stables", "spaces": 2, "adjacent": ["Courtyard", "Gate"]},
    {"name": "Keep", "kind": "keep", "spaces": 3, "adjacent": ["Courtyard"]},
    {"name": "Gate", "kind": "gate", "spaces": 2, "adjacent": ["Courtyard"]},
    {"name": "Cat", "kind": "station", "faces": "N wall", "equipment": "catapult", "spaces": 2},
    {"name": "Camp", "kind": "station", "faces": "N wall", "equipment": "camp", "spaces": 4},
    {"name": "Ram", "kind": "station", "faces": "Gate", "equipment": "ram", "spaces": 2},
    {
        "name": "Siege",
        "kind": "station",
        "faces": "E wall",
        "equipment": "assault_tower",
        "spaces": 4,
    },
]


def unit(name: str, side: str, kind: str, figures: int, place: str) -> dict[str, Any]:
    return {
        "name": name,
        "side": side,
        "kind": kind,
        "figures": figures,
        "traits": {"place": place},
    }


def foot_and_guard(*, foot: int, guard: int, guard_at: str) -> list[dict[str, Any]]:
    """Red infantry "Foot" at the foot of the N wall against Blue infantry "Guard":
    the two sides most rules are played with, named as the assertions name them."""
    return [
        unit("Foot", "Red", "infantry", foot, "N wall foot"),
        unit("Guard", "Blue", "infantry", guard, guard_at),
    ]


DEFAULT_UNITS = foot_and_guard(foot=8, guard=2, guard_at="N wall")


def raw_fort(
    units: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "system": "fortboard",
        "title": "Test fort",
        "sides": ["Red", "Blue"],
        "options": options or {},
        "setup": {
            "turn_limit": 3,
            "front": "N wall",
            "defender_artillery": ["Left gun", "Right gun"],
            "oil_vats": 1,
            "places": copy.deepcopy(SMALL_PLACES),
            "wall_weapons": [{"name": "Oil", "wall": "N wall", "spaces": 2}],
        },
        "units": units if units is not None else copy.deepcopy(DEFAULT_UNITS),
    }
    raw["setup"].update(setup)
    return raw


def new_game(
    units: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> GameState:
    state = RULESET.start(RULESET.load_scenario(raw_fort(units, options, **setup)))
    assert isinstance(state, GameState)
    return state


def example_raw() -> dict[str, Any]:
    text = resources.files("companion.scenarios").joinpath("fortboard.toml").read_text()
    return tomllib.loads(text)


def play(state: GameState, *tokens: str | tuple[int, ...]) -> tuple[GameState, list[str]]:
    """Feed choices (strings) and rolls (tuples); return the state and all log lines."""
    return rule_scripting.play(RULESET, state, *tokens)


def options_of(state: GameState) -> list[str]:
    return rule_scripting.choice_keys(RULESET, state)


def roll_request(state: GameState) -> AwaitRoll:
    step = RULESET.next_step(state)
    assert isinstance(step, AwaitRoll), step
    return step


def in_phase(state: GameState, phase: str) -> GameState:
    """The same board, at the start of another side's move."""
    return replace(
        state,
        phase=phase,
        stack=(Ask("menu"),),
        moved=frozenset(),
        fired=frozenset(),
        used=frozenset(),
    )


def where(state: GameState, unit_name: str) -> list[str]:
    return [f.place for f in state.figures if f.unit == unit_name]
