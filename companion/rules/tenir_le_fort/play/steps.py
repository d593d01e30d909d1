"""How a step of play is written, used by every other module.

A step takes the state and a `Tx`, says what happened (`Tx.say`, cues) and returns
the state with its next question pending: `ask`, `yes_no`, `roll`. Also the wording
helpers (`other`, `does`) and command-point costs (`cost`, `spend`). Apart so that
any module can build a step without importing another part of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from companion.rules.core import Choice, Outcome, counted
from companion.rules.grammar import plural_name
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.state import AskChoice, AskRoll, GameState


@dataclass
class Tx:
    """What one input tells the table (built up while handling it)."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None

    def say(self, *lines: str) -> None:
        self.log.extend(lines)


def other(side: str) -> str:
    return "Arab" if side == "FFL" else "FFL"


def plural(s: GameState, name: str) -> bool:
    """Whether a name takes a plural verb: a unit with a plural name ("Oasis Raiders"),
    never a command figure or a leader with a unit, who is one man."""
    unit = next((u for u in s.units if u.name == name), None)
    return unit is not None and unit.kind != "leader" and plural_name(name)


def does(s: GameState, name: str, singular: str, plural_form: str) -> str:
    """A unit's name and the verb phrase that agrees with it: "Oasis Raiders fire"."""
    return f"{name} {plural_form if plural(s, name) else singular}"


def ask(
    s: GameState, purpose: str, prompt: str, options: list[tuple[str, str]], about: str = ""
) -> GameState:
    if not options:
        raise AssertionError(f"no options for {purpose}")
    choices = tuple(Choice(k, label) for k, label in options)
    return replace(s, pending=AskChoice(purpose, prompt, choices, about))


def roll(
    s: GameState, purpose: str, action: str, params: Mapping[str, int | bool | str]
) -> GameState:
    full = ACTIONS[action].complete_params(params)
    return replace(s, pending=AskRoll(purpose, action, tuple(sorted(full.items()))))


def yes_no(
    s: GameState, purpose: str, prompt: str, about: str = "", yes_first: bool = False
) -> GameState:
    opts = [("no", "No"), ("yes", "Yes")]
    return ask(s, purpose, prompt, opts[::-1] if yes_first else opts, about)


def cost(side: str, use: str) -> int:
    return t.COMMAND_POINT_COSTS[(side, use)]


def spend(s: GameState, side: str, use: str, tx: Tx, what: str, times: int = 1) -> GameState:
    """Pay for a command-point use from the chart and say so."""
    points = cost(side, use) * times
    tx.say(f"{side}: {counted(points, 'command point')} for {what}.")
    return s.with_cp(side, s.cp(side) - points)


ChoiceHandler = Callable[[GameState, str, Tx], GameState]


RollHandler = Callable[[GameState, Outcome, Tx], GameState]
