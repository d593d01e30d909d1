"""A Rally order: refused within 6" of the enemy, else the roll that stands casualties
up again or removes them for good.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, Outcome, Params, yes_no
from companion.rules.on_the_frontier.play.steps import (
    ANYONE_WITHIN_6,
    ChoiceStep,
    Result,
    RollStep,
    does,
    to,
    unit_done,
)
from companion.rules.on_the_frontier.rally import RALLY, rally_counts, rally_modifier
from companion.rules.on_the_frontier.state import GameState


def _on_rally_near(state: GameState, key: str) -> Result:
    yes = key == "yes"
    if yes:
        return Result(
            to(state, "order", no_rally=True),
            ('no rally within 6" of the enemy; choose another order',),
        )
    return Result(to(state, "rally_roll"))


def _ask_rally_roll(state: GameState) -> tuple[Action, Params]:
    ctx = state.ctx
    f = state.force(ctx.actor)
    return RALLY, RALLY.complete_params(
        {"casualties": f.casualties, "quality": f.quality, "leader_joined": f.has_leader}
    )


def _on_rally_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    ctx = state.ctx
    f = state.force(ctx.actor)
    up, _, gone = rally_counts(dice, rally_modifier(f.quality, f.has_leader))
    f = replace(
        f, figures=f.figures + up, casualties=f.casualties - up - gone, removed=f.removed + gone
    )
    cues = frozenset({"death"}) if gone else frozenset()
    return Result(
        unit_done(state.with_force(f), f.name, False),
        (
            does(state, f.name, "rallies", "rally")
            + f": {up} back, {gone} removed, {f.casualties} still down",
        ),
        cues=cues,
    )


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "rally_near": ChoiceStep(yes_no(ANYONE_WITHIN_6, "actor"), _on_rally_near),
}

ROLLS: dict[str, RollStep] = {
    "rally_roll": RollStep(_ask_rally_roll, _on_rally_roll),
}
