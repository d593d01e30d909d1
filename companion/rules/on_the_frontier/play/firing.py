"""A Shoot order: the target, the range, cover, the roll and its hits; Steady! for a
commander with the unit hit; return fire from a target holding its fire. A held-fire
volley at chargers goes through the same stages (`Context.in_charge`) and then back to
its charge.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    Choice,
    Outcome,
    Params,
    counted,
    yes_no,
)
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.play.charge_phase import next_charge
from companion.rules.on_the_frontier.play.losses import (
    commander_hit,
    destroy,
    restore,
    standing,
    take_hits,
)
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    does,
    prefix,
    to,
    unit_done,
)
from companion.rules.on_the_frontier.play.units import can_shoot, enemy_targets, firing_figures
from companion.rules.on_the_frontier.shooting import SHOOT, STEADY
from companion.rules.on_the_frontier.state import Context, Force, GameState


def _range_choices(state: GameState, shooter: Force) -> tuple[Choice, ...]:
    row = tables.weapon_row(shooter.weapon)
    return (
        Choice("close", f'Close, to {row.close_inches}"'),
        Choice("long", f'Long, to {row.long_inches}"'),
        Choice("out", "Out of range"),
    )


def _ask_shoot_target(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    return AwaitChoice("Shoot at?", enemy_targets(state, state.force(ctx.actor).side), ctx.actor)


def _on_shoot_target(state: GameState, key: str) -> Result:
    return Result(to(state, "shoot_range", target=key.removeprefix("target:")))


def _ask_shoot_range(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    return AwaitChoice("Range?", _range_choices(state, state.force(ctx.actor)), ctx.actor)


def _on_shoot_range(state: GameState, key: str) -> Result:
    ctx = state.ctx
    if key == "out":
        # no shot is fired, so there is nothing to steady against or to return
        out = does(state, ctx.target, "is", "are") + f" out of range of {ctx.actor}: no shot"
        return prefix(_after_return(state), (out,))
    return Result(to(state, "shoot_cover", range_band=key))



def _on_shoot_cover(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return Result(to(state, "shoot_roll", cover=yes))


def _ask_shoot_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    opts = state.options
    shooter = state.force(ctx.actor)
    target = state.force(ctx.target)
    return SHOOT, SHOOT.complete_params(
        {
            "weapon": shooter.weapon,
            "figures": firing_figures(shooter),
            "range": ctx.range_band,
            "superior": shooter.superior,
            "target_kind": target.kind,
            "in_cover": ctx.cover,
            "odd_figures": opts.odd_figure_dice,
            "natural_six": opts.natural_six_always_hits,
            "difficult_stacks": opts.difficult_target_stacks,
        }
    )


def _on_shoot_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    hits = outcome.headline
    shooter = state.force(ctx.actor)
    state = state.with_force(replace(shooter, held_fire=False))
    line = (
        does(state, ctx.actor, "shoots", "shoot") + f" {ctx.target}: {counted(hits, 'hit')}"
    )
    return _after_shot(state, hits, (line,))



def _on_steady(state: GameState, key: str) -> Result:
    yes = key == "yes"
    if yes:
        return Result(to(state, "steady_roll"))
    return _after_steady(state)


def _ask_steady_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    return STEADY, STEADY.complete_params({"hits_taken": max(1, ctx.hits)})


def _on_steady_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    cues: frozenset[str] = frozenset()
    target = state.force(ctx.target)
    lines = [f"Steady! ({target.leader}): {outcome.details[0].split(': ', 1)[1]}"]
    if "hit_cancelled" in outcome.effects:
        target = restore(target, 1)
        lines.append(standing(target))
    state = state.with_force(target)
    if "commander_hit" in outcome.effects:
        state, hit = commander_hit(state, target.name)
        lines[0] = f"Steady! ({target.leader}): {hit}"
        cues = frozenset({"death"})
    return prefix(_after_steady(state), tuple(lines), cues)



def _on_return(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    if yes:
        shooter, target = ctx.target, ctx.actor
        return Result(
            to(state, "shoot_range", actor=shooter, target=target, returning=True, hits=0),
            (does(state, shooter, "returns", "return") + f" fire at {target}",),
        )
    return _after_return(state)


def _after_shot(state: GameState, hits: int, lines: tuple[str, ...]) -> Result:
    ctx = state.ctx
    target = state.force(ctx.target)
    target = take_hits(target, hits)
    state = state.with_force(target)
    cues: frozenset[str] = frozenset({"death"}) if hits else frozenset()
    extra: tuple[str, ...] = ()
    if hits:
        extra = (standing(target),)
    state = replace(state, ctx=replace(ctx, hits=hits))
    if hits and target.has_leader:
        return Result(to(state, "steady_ask"), lines + extra, cues=cues)
    result = _after_steady(state)
    return replace(result, log=lines + extra + result.log, cues=cues | result.cues)


def _after_steady(state: GameState) -> Result:
    ctx = state.ctx
    target = state.force(ctx.target)
    if target.figures == 0:
        state = state.with_force(destroy(target))
        target = state.force(ctx.target)
    if (
        not ctx.returning
        and not ctx.in_charge
        and target.held_fire
        and can_shoot(state, target)
        and state.force(ctx.actor).in_play
    ):
        return Result(to(state, "return_ask"))
    return _after_return(state)


def _after_return(state: GameState) -> Result:
    ctx = state.ctx
    if ctx.in_charge:
        # the volley is over: back to the charge, with attacker and defender restored
        charge = state.charges[0]
        new = replace(state, ctx=Context(actor=charge.attacker, target=charge.defender))
        attacker = new.force(charge.attacker)
        if not attacker.in_play:
            stopped = does(new, attacker.name, "is", "are") + " stopped before contact"
            return prefix(next_charge(new), (stopped,))
        return Result(replace(new, stage="melee_cover"))
    # return fire ends the original shooter's activation
    return Result(unit_done(state, ctx.target if ctx.returning else ctx.actor, False))


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "shoot_target": ChoiceStep(_ask_shoot_target, _on_shoot_target),
    "shoot_range": ChoiceStep(_ask_shoot_range, _on_shoot_range),
    "shoot_cover": ChoiceStep(yes_no("Target in cover?", "target"), _on_shoot_cover),
    "steady_ask": ChoiceStep(yes_no("Steady! roll?", "target", yes_first=True), _on_steady),
    "return_ask": ChoiceStep(yes_no("Return fire?", "target", yes_first=True), _on_return),
}

ROLLS: dict[str, RollStep] = {
    "shoot_roll": RollStep(_ask_shoot_roll, _on_shoot_roll),
    "steady_roll": RollStep(_ask_steady_roll, _on_steady_roll),
}
