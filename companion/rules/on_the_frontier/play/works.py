"""Engineering: the task, a difficult task's engineer, the work roll and its points
towards finished works; and demolition, blowing the charges laid (laying one is an
order, in `orders`).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params, counted, yes_no
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.engineering import DEMOLITION, ENGINEERING
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    does,
    to,
    unit_done,
)
from companion.rules.on_the_frontier.state import GameState


def task_text(task: str) -> str:
    return dict(tables.ENGINEERING_TASKS)[task]


def _ask_work_task(state: GameState) -> AwaitChoice:
    ctx = state.ctx
    return AwaitChoice(
        "Which task?",
        tuple(
            Choice(f"task:{name}", name.replace("_", " ").capitalize())
            for name, _ in tables.ENGINEERING_TASKS
        ),
        ctx.actor,
    )


def _on_work_task(state: GameState, key: str) -> Result:
    ctx = state.ctx
    task = key.removeprefix("task:")
    f = state.force(ctx.actor)
    nxt = "work_roll" if f.engineers else "work_difficult"
    return Result(to(state, nxt, task=task))



def _on_work_difficult(state: GameState, key: str) -> Result:
    yes = key == "yes"
    return Result(to(state, "work_engineer" if yes else "work_roll"))



def _on_work_engineer(state: GameState, key: str) -> Result:
    yes = key == "yes"
    if yes:
        return Result(to(state, "work_roll"))
    return Result(
        to(state, "order", no_work=True),
        ("a difficult task needs an engineer present; choose another order",),
    )


def _ask_work_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    f = state.force(ctx.actor)
    return ENGINEERING, ENGINEERING.complete_params(
        {
            "figures": f.figures,
            "points_so_far": min(5, state.work_points(f.side, ctx.task)),
            "task": ctx.task,
        }
    )


def _on_work_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    f = state.force(ctx.actor)
    # every 6 points finishes one task of that kind; the rest stays on the next one,
    # unless the scenario reads the surplus as wasted
    finished, left = divmod(
        state.work_points(f.side, ctx.task) + outcome.headline, tables.ENGINEERING_TASK_POINTS
    )
    if finished and state.options.engineering_surplus == "lost":
        finished, left = 1, 0
    work = tuple(w for w in state.work if (w[0], w[1]) != (f.side, ctx.task))
    if left:
        work = (*work, (f.side, ctx.task, left))
    what = task_text(ctx.task)
    if finished:
        line = does(state, f.name, "completes", "complete") + f": {what}"
        line += f" (x{finished})" if finished > 1 else ""
        if left:
            line += f"; {left}/{tables.ENGINEERING_TASK_POINTS} towards the next"
    else:
        line = does(state, f.name, "works", "work") + f" at: {what}, "
        line += f"{left}/{tables.ENGINEERING_TASK_POINTS} points"
    done = state.works_done + ((f.side, ctx.task),) * finished
    new = replace(state, work=work, works_done=done)
    return Result(unit_done(new, f.name, False), (line,))


def _ask_blow_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    f = state.force(ctx.actor)
    return DEMOLITION, DEMOLITION.complete_params(
        {
            "charges": state.charges_laid(f.side),
            "target": state.demolition_target,
            "points": state.demolition_points,
        }
    )


def _on_blow_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    f = state.force(ctx.actor)
    laid = tuple(p for p in state.laid if p[0] != f.side)
    breached = "breached" in outcome.effects
    new = replace(state, laid=laid, demolished=breached)
    line = (
        does(state, f.name, "blows", "blow")
        + f" the charges: {counted(outcome.headline, 'point')}, the "
        f"{state.demolition_target.replace('_', ' ')} "
        + ("is destroyed" if breached else "holds")
    )
    return Result(unit_done(new, f.name, False), (line,))


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "work_task": ChoiceStep(_ask_work_task, _on_work_task),
    "work_difficult": ChoiceStep(yes_no("Difficult task?", "actor"), _on_work_difficult),
    "work_engineer": ChoiceStep(yes_no("Engineer present?", "actor", yes_first=True),
                                _on_work_engineer),
}

ROLLS: dict[str, RollStep] = {
    "work_roll": RollStep(_ask_work_roll, _on_work_roll),
    "blow_roll": RollStep(_ask_blow_roll, _on_blow_roll),
}
