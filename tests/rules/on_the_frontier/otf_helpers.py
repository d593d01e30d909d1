"""A small test scenario and a driver that plays scripted inputs through `advance`."""

from __future__ import annotations

from typing import Any

import rule_scripting

from companion.rules import get_ruleset
from companion.rules.on_the_frontier.game import GameState

RULES = get_ruleset("on_the_frontier")

Input = str | list[int]

# Script fragments several tests play through: who wins the roll for the first move,
# and the Horse's charge on the Muskets (no broken ground, 12" + 3, contact).
BLUE_FIRST = [5, 2]
RED_FIRST = [2, 5]
HORSE_CHARGES_MUSKETS = ("unit:Horse", "charge", "target:Muskets", "no", [3], "yes")


def charge_into_contact(target: str) -> tuple[Input, ...]:
    """The order that charges `target` (no broken ground, a 3 on the move die, contact),
    both sides' other orders ended, and neither side with the ground: the contact roll
    comes next."""
    return ("charge", f"target:{target}", "no", [3], "yes", "done", "done", "none")


def base_units() -> list[dict[str, Any]]:
    return [
        {
            "name": "Rifles",
            "side": "Blue",
            "kind": "infantry",
            "figures": 8,
            "weapons": ["rifle"],
            "leader": "Capt A",
        },
        {"name": "Horse", "side": "Blue", "kind": "cavalry", "figures": 4, "weapons": ["lance"]},
        {
            "name": "Warband",
            "side": "Red",
            "kind": "tribesmen",
            "figures": 8,
            "weapons": ["sword"],
            "leader": "Chief",
        },
        {"name": "Muskets", "side": "Red", "kind": "infantry", "figures": 6, "weapons": ["musket"]},
    ]


def scenario_dict(
    *extra: dict[str, Any], options: dict[str, Any] | None = None, **setup: Any
) -> dict[str, Any]:
    return {
        "system": "on_the_frontier",
        "title": "Test skirmish",
        "sides": ["Blue", "Red"],
        "setup": {"turn_limit": 2, **setup},
        "options": options or {},
        "units": [*base_units(), *extra],
    }


def new_game(
    *extra: dict[str, Any], options: dict[str, Any] | None = None, **setup: Any
) -> GameState:
    state = RULES.start(RULES.load_scenario(scenario_dict(*extra, options=options, **setup)))
    assert isinstance(state, GameState)
    return state


def play(state: GameState, *inputs: Input) -> tuple[GameState, list[str]]:
    """Feed choices (str) and rolls (list) in order; every step must be deterministic."""
    return rule_scripting.play(RULES, state, *inputs)


def choice_keys(state: GameState) -> list[str]:
    return rule_scripting.choice_keys(RULES, state)


def unit(
    name: str, side: str, kind: str, figures: int, *weapons: str, **more: Any
) -> dict[str, Any]:
    return {
        "name": name,
        "side": side,
        "kind": kind,
        "figures": figures,
        "weapons": list(weapons),
        **more,
    }
