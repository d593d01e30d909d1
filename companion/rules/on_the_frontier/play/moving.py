"""A Move, a Move & charge, and a commander riding to join a unit: broken ground,
deploying guns, the enemy near, the move's roll and Follow Me!'s reroll, and whether the
charge (or the commander) reached its target. A charge in contact goes on the list for
the charge phase; a commander who reached his unit joins it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, AwaitChoice, Outcome, Params, unit_choices, yes_no
from companion.rules.on_the_frontier.movement import MOVE
from companion.rules.on_the_frontier.play.steps import (
    ANYONE_WITHIN_6,
    ChoiceStep,
    Result,
    RollStep,
    does,
    finish_activation,
    prefix,
    to,
    unit_done,
)
from companion.rules.on_the_frontier.play.units import enemy_targets, joinable_units
from companion.rules.on_the_frontier.state import ChargeDeclared, GameState


def _ask_charge_target(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    return AwaitChoice(
        "Charge which unit?", enemy_targets(state, state.force(ctx.actor).side), ctx.actor
    )


def _on_charge_target(state: GameState, key: str) -> Result:
    ctx = state.ctx
    target = key.removeprefix("target:")
    return Result(
        to(state, "move_broken", target=target, charging=True),
        (does(state, ctx.actor, "declares", "declare") + f" a charge on {target}",),
    )


def _ask_join_target(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    joinable = joinable_units(state, state.force(ctx.actor))
    return AwaitChoice("Join which unit?", unit_choices("join", joinable), ctx.actor)


def _on_join_target(state: GameState, key: str) -> Result:
    ctx = state.ctx
    target = key.removeprefix("join:")
    return Result(
        to(state, "move_broken", target=target, joining=True),
        (f"{ctx.actor} rides to join {target}",),
    )



def _on_move_broken(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    f = state.force(ctx.actor)
    if f.kind == "artillery":
        return Result(to(state, "move_deploy", broken=yes))
    return Result(to(state, "move_roll" if ctx.charging else "move_near", broken=yes))



def _on_move_deploy(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    return Result(to(state, "move_roll" if ctx.charging else "move_near", deploy=yes))



def _on_move_near(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return Result(to(state, "move_roll", near_enemy=yes))


def _ask_move_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    f = state.force(ctx.actor)
    return MOVE, MOVE.complete_params(
        {
            "kind": f.kind,
            "broken_ground": ctx.broken,
            "deploying_guns": ctx.deploy,
            "shaken": f.shaken,
            "near_enemy": ctx.near_enemy,
            "follow_me": f.has_leader and not ctx.rerolled,
        }
    )


def _on_move_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    text = f'{ctx.actor} may move {outcome.headline}"'
    new = replace(state, ctx=replace(ctx, hits=outcome.headline))
    if state.force(ctx.actor).has_leader and not ctx.rerolled:
        return Result(to(new, "follow_me"), (text, *outcome.details[1:]))
    return prefix(_after_move(new), (text, *outcome.details[1:]))



def _on_follow_me(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    if yes:
        return Result(
            to(state, "move_roll", rerolled=True),
            (f"Follow Me!: {state.force(ctx.actor).leader} has the d6 rerolled",),
        )
    return _after_move(state)



def _on_contact(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    if yes and ctx.joining:
        return _join(state)
    if yes:
        charges = (*state.charges, ChargeDeclared(ctx.actor, ctx.target))
        return Result(
            unit_done(replace(state, charges=charges), ctx.actor, False),
            (does(state, ctx.actor, "is", "are") + f" in contact with {ctx.target}",),
        )
    return Result(
        unit_done(state, ctx.actor, False),
        (does(state, ctx.actor, "falls", "fall") + f" short of {ctx.target}",),
    )


def _after_move(state: GameState) -> Result:
    ctx = state.ctx
    if ctx.charging or ctx.joining:
        return Result(to(state, "contact"))
    f = state.force(ctx.actor)
    if f.kind != "artillery":
        return Result(unit_done(state, ctx.actor, False))
    # guns move hitched up: only a move that pays the 4" to deploy ends ready to fire
    state = state.with_force(replace(f, limbered=not ctx.deploy))
    if ctx.deploy:
        line = does(state, f.name, "deploys", "deploy") + ": may shoot from the next order"
    else:
        line = (
            does(state, f.name, "is", "are")
            + ' limbered: no shooting until a move ends deploying (-4")'
        )
    return Result(unit_done(state, ctx.actor, False), (line,))


def _join(state: GameState) -> Result:
    """Follow Me!: the commander becomes the unit's leader and moves with it from now on."""
    ctx = state.ctx
    commander = replace(state.force(ctx.actor), joined=ctx.target, acted=True)
    unit = replace(state.force(ctx.target), leader=commander.name, leader_back_turn=0)
    state = state.with_force(commander).with_force(unit)
    return Result(finish_activation(state), (f"{commander.name} joins {unit.name}",))


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "charge_target": ChoiceStep(_ask_charge_target, _on_charge_target),
    "join_target": ChoiceStep(_ask_join_target, _on_join_target),
    "move_broken": ChoiceStep(yes_no("Broken ground?", "actor"), _on_move_broken),
    "move_deploy": ChoiceStep(yes_no("Deploy guns?", "actor"), _on_move_deploy),
    "move_near": ChoiceStep(yes_no(ANYONE_WITHIN_6, "actor"), _on_move_near),
    "follow_me": ChoiceStep(yes_no("Follow Me! reroll?", "actor"), _on_follow_me),
    "contact": ChoiceStep(yes_no("Reached {target}?", "actor", yes_first=True), _on_contact),
}

ROLLS: dict[str, RollStep] = {
    "move_roll": RollStep(_ask_move_roll, _on_move_roll),
}
