"""Morale after fire: the position of each unit that lost figures, its test, and what
a failed test does (a rout down from the wall, or the unit removed, a machine gun's crew
leaving the gun behind). The test's parameters and its result serve the melee sequence
too.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params
from companion.rules.scrubs_of_the_desert.morale import MORALE
from companion.rules.scrubs_of_the_desert.play.losses import unlock
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import GameState

POSITION_CHOICES = (
    Choice("open", "Open"),
    Choice("building", "Building"),
    Choice("fort", "Fort/trench"),
)


def _ask_morale_position(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice("Unit's position?", POSITION_CHOICES, c.pending[0])


def _on_morale_position(state: GameState, key: str) -> Result:
    return r(to(state, "morale_roll", position=key))


def _ask_morale_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    return MORALE, morale_params(state, c.pending[0], c.position, False)


def _on_morale_roll(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    name = c.pending[0]
    state, lines, cues = morale_applied(state, name, outcome)
    rest = c.pending[1:]
    if rest:
        return r(to(state, "morale_position", pending=rest), *lines, cues=cues)
    return r(end_activation(state), *lines, cues=cues)


def morale_params(state: GameState, name: str, position: str, closing: bool) -> Params:
    b = state.band(name)
    return MORALE.complete_params(
        {
            "base_morale": b.base_morale,
            "unit_size": b.size,
            "figures_lost": min(b.lost, max(0, b.size - 1)),
            "loss_per_figure": b.loss_per_figure,
            "position": position,
            "closing_melee": closing,
            "rout_rule": state.options.rout_rule,
            "double_zero": state.options.double_zero,
        }
    )


def morale_position(def_position: str) -> str:
    return def_position if def_position in ("building", "fort") else "open"


def morale_applied(
    state: GameState, name: str, outcome: Outcome
) -> tuple[GameState, tuple[str, ...], frozenset[str]]:
    b = state.band(name)
    lines = [f"{name} morale: {outcome.details[1]}"]
    if "routed" in outcome.effects:
        # a rout runs 12" back from the wall: the climbers come down and the hook is left
        if b.over_wall or b.hook_up:
            lines.append(f"{b.does('leaves', 'leave')} the wall")
        b = replace(b, routed=True, activated=True, over_wall=0, hook_up=False)
        state = unlock(state.with_band(b), name)
        return state, tuple(lines), frozenset({"resolve_failed"})
    if "removed" in outcome.effects:
        if b.support_weapon == "machine_gun":
            b = replace(b, figures=0, setting_up=False)
            lines.append(f"{name}'s crew is removed; the machine gun is left for infantry to man")
        else:
            b = replace(b, removed=True)
        state = unlock(state.with_band(b), name)
        return state, tuple(lines), frozenset({"resolve_failed", "death"})
    return state, tuple(lines), frozenset()


CHOICES: dict[str, ChoiceStep] = {
    "morale_position": ChoiceStep(_ask_morale_position, _on_morale_position),
}

ROLLS: dict[str, RollStep] = {
    "morale_roll": RollStep(_ask_morale_roll, _on_morale_roll),
}
