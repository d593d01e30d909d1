"""Giving orders: which unit of the side acts next (or the side ends its orders and
play passes on), and the menu of orders open to it; the orders carried out at once
(hold fire, stand, lay a demolition charge), the others sent to their first stage.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import AwaitChoice, Choice, RulesError, unit_choices
from companion.rules.grammar import agree
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.play.charge_phase import next_player
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    does,
    prefix,
    to,
    unit_done,
)
from companion.rules.on_the_frontier.play.units import can_hold_fire, can_shoot, joinable_units
from companion.rules.on_the_frontier.state import Context, Force, GameState


def _orders(state: GameState, f: Force) -> tuple[Choice, ...]:
    if state.engaged(f.name):
        # contacted by a charge: it stands to fight (and may keep its fire for the chargers)
        held = (Choice("hold", "Hold fire"),) if can_hold_fire(state, f) else ()
        return (Choice("stand", "Stand and fight"), *held)
    out: list[Choice] = []
    charge = Choice("charge", "Move & charge")
    may_charge = f.kind in tables.CHARGING_KINDS and not f.shaken
    if can_shoot(state, f):
        out.append(Choice("shoot", "Shoot"))
    elif may_charge:
        out.append(charge)  # a unit that cannot shoot leads with its charge
    out.append(Choice("move", "Move" if not f.shaken else "Move (no advance)"))
    if may_charge and charge not in out:
        out.append(charge)
    if f.kind == "commander" and joinable_units(state, f):
        out.append(Choice("join", "Join a unit"))
    if f.casualties and not state.ctx.no_rally:
        out.append(Choice("rally", "Rally"))
    if can_hold_fire(state, f):
        out.append(Choice("hold", "Hold fire"))
    out.append(Choice("stand", "Stand"))
    if (
        f.side in state.engineering
        and f.kind in tables.FOOT_KINDS
        and f.figures >= tables.ENGINEERING_FIGURES_PER_DIE
        and not state.ctx.no_work
    ):
        out.append(Choice("work", "Engineering"))
    if state.demolition_target and not state.demolished and f.engineers:
        out.append(Choice("lay", "Lay charge"))
        if state.charges_laid(f.side):
            out.append(Choice("blow", "Blow charges"))
    return tuple(out)


def _ask_pick_unit(state: GameState) -> AwaitChoice:
    ready = [
        f for f in state.forces if f.side == state.active_side and f.in_play and not f.acted
    ]
    options = (*unit_choices("unit", ready), Choice("done", "End orders"))
    return AwaitChoice(f"{state.active_side}: which unit?", options, state.active_side)


def _on_pick_unit(state: GameState, key: str) -> Result:
    if key == "done":
        log = (
            agree(state.active_side, "ends its orders", "end their orders") + "; the rest stand"
        )
        return prefix(next_player(state), (log,))
    name = key.removeprefix("unit:")
    return Result(replace(state, stage="order", ctx=Context(actor=name)), ())


def _ask_order(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    actor = state.force(ctx.actor)
    prompt = "Order?"
    if state.engaged(ctx.actor):
        prompt = "Charged: order?"
    elif actor.limbered:
        prompt = "Limbered: order?"  # why Shoot is missing: a move must deploy first
    return AwaitChoice(prompt, _orders(state, actor), ctx.actor)


def _on_order(state: GameState, key: str) -> Result:
    name = state.ctx.actor
    f = state.force(name)
    if key == "shoot":
        return Result(to(state, "shoot_target"))
    if key == "move":
        lines: tuple[str, ...] = ()
        if f.shaken:
            lines = (does(state, name, "is shaken: it", "are shaken: they") + " may not advance",)
        return Result(to(state, "move_broken"), lines)
    if key == "charge":
        return Result(to(state, "charge_target"))
    if key == "join":
        return Result(to(state, "join_target"))
    if key == "rally":
        return Result(to(state, "rally_near"))
    if key == "hold":
        line = does(state, name, "holds its", "hold their") + " fire"
        return Result(unit_done(state, name, True), (line,))
    if key == "stand":
        line = does(state, name, "stands", "stand")
        if state.engaged(name):
            line += " to meet the charge"
        return Result(unit_done(state, name, False), (line,))
    if key == "work":
        return Result(to(state, "work_task"))
    if key == "lay":
        laid = dict(state.laid)
        laid[f.side] = laid.get(f.side, 0) + 1
        new = replace(state, laid=tuple(sorted(laid.items())))
        return Result(
            unit_done(new, name, False),
            (does(state, name, "lays", "lay") + f" a demolition charge ({laid[f.side]} laid)",),
        )
    if key == "blow":
        return Result(to(state, "blow_roll"))
    raise RulesError(f"unknown order {key!r}")


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "pick_unit": ChoiceStep(_ask_pick_unit, _on_pick_unit),
    "order": ChoiceStep(_ask_order, _on_order),
}
