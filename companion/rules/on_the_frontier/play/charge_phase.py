"""The charge phase, after both players' orders: each charge that reached its target
taken in turn (`open_charge`, `next_charge`), those that lapsed said why, and the
defender's question whether to fire its held volley at the chargers. The last charge
ends the turn.

The volley and the fight are further up (`firing`, `melee`): this module sets their
first stage, and they come back here for the next charge.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import yes_no
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    does,
    is_plural,
    to,
)
from companion.rules.on_the_frontier.play.turns import end_turn
from companion.rules.on_the_frontier.play.units import can_shoot
from companion.rules.on_the_frontier.state import Context, GameState


def next_player(state: GameState) -> Result:
    state = replace(state, ctx=Context())
    if state.player == 0:
        return Result(replace(state, player=1, stage="pick_unit"))
    return open_charge(replace(state, stage="charges"))


def open_charge(state: GameState) -> Result:
    """Set up the first charge still on the list; say why any before it lapsed."""
    lines: list[str] = []
    while state.charges:
        charge = state.charges[0]
        attacker = state.force(charge.attacker)
        defender = state.force(charge.defender)
        if not attacker.in_play:
            lines.append(
                does(state, attacker.name, "is", "are")
                + " no longer in play: "
                + ("their" if is_plural(state, attacker.name) else "its")
                + " charge lapses"
            )
        elif not defender.in_play:
            lines.append(
                does(state, defender.name, "is", "are")
                + f" gone: {attacker.name} may occupy the position"
            )
        elif defender.name in state.gave_ground:
            lines.append(
                does(state, defender.name, "has", "have")
                + f" already given ground: {attacker.name} may occupy the position"
            )
        else:
            ctx = Context(actor=attacker.name, target=defender.name)
            volley = (
                state.options.held_fire_volley_at_chargers
                and defender.held_fire
                and can_shoot(state, defender)
            )
            stage = "volley_ask" if volley else "melee_cover"
            lines.append(f"Charge: {attacker.name} against {defender.name}")
            return Result(replace(state, ctx=ctx, stage=stage), tuple(lines))
        state = replace(state, charges=state.charges[1:])
    state, back = end_turn(state)
    return Result(state, (*lines, *back))


def next_charge(state: GameState) -> Result:
    return open_charge(replace(state, charges=state.charges[1:], ctx=Context()))



def _on_volley(state: GameState, key: str) -> Result:
    ctx = state.ctx
    yes = key == "yes"
    if yes:
        charger, volley = ctx.actor, ctx.target
        return Result(
            to(
                state,
                "shoot_cover",
                actor=volley,
                target=charger,
                range_band="close",
                in_charge=True,
            ),
            (does(state, volley, "fires", "fire") + f" a volley at the charging {charger}",),
        )
    return Result(to(state, "melee_cover"))


# The stages this module asks and answers: game.py routes each here.
CHOICES: dict[str, ChoiceStep] = {
    "volley_ask": ChoiceStep(yes_no("Volley at chargers?", "target", yes_first=True), _on_volley),
}
