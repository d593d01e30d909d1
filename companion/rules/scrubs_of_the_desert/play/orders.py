"""An activation: the unit the toss's winner picks, a unit locked in melee going back
to it, sighting first (by option), and the unit's order: move, charge, unlimber, set up
a gun, throw or climb a hook, man a gun, attack a hook, or stay put.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import AwaitChoice, Choice, RulesError, unit_choices
from companion.rules.scrubs_of_the_desert.play.hooks import climbed
from companion.rules.scrubs_of_the_desert.play.shooting import to_fire
from companion.rules.scrubs_of_the_desert.play.spotting import may_sight, spot
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.play.turns import end_activation
from companion.rules.scrubs_of_the_desert.state import Band, Context, GameState


def _ask_pick_unit(state: GameState) -> AwaitChoice:
    c = state.ctx
    side = state.sides[c.side]
    return AwaitChoice(f"{side}: activate?", unit_choices("unit", state.ready(side)), side)


def _on_pick_unit(state: GameState, key: str) -> Result:
    return _begin_activation(state, key.removeprefix("unit:"))


def _begin_activation(state: GameState, name: str) -> Result:
    b = state.band(name)
    ctx = Context(side=state.ctx.side, actor=name)
    state = replace(state, ctx=ctx)
    partner = state.band(b.locked_with) if b.locked_with else None
    if partner is not None and partner.in_play:
        state = to(state, "def_position", attacker=name, defender=partner.name, continuing=True)
        return r(state, f"{b.does('activates', 'activate')}: locked in melee with {partner.name}")
    if state.options.sighting_when == "activation" and may_sight(state, b):
        return r(to(state, "sight_pick"), b.does("activates", "activate"))
    return r(to(state, "order"), b.does("activates", "activate"))


def _ask_order(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice("Order?", _orders(state, state.band(c.actor)), c.actor)


def _orders(state: GameState, b: Band) -> tuple[Choice, ...]:
    if b.setting_up:
        return (Choice("set_up", "Set up the gun"),)
    out = [Choice("move", "Move")]
    if b.kind != "gun" and state.enemies(b.side):
        out.append(Choice("charge", "Charge"))
    if b.kind == "gun" and b.limbered:
        out.append(Choice("unlimber", "Unlimber gun"))
    if state.fort and b.nation == "arab" and b.kind == "foot":
        out.append(
            Choice(
                "climb" if b.hook_up else "hook",
                "Climb the hook" if b.hook_up else "Grappling hook",
            )
        )
    if b.nation == "french" and b.kind == "foot":
        if any(g.side == b.side and g.abandoned for g in state.bands):
            out.append(Choice("man_gun", "Man the gun"))
        if state.fort and any(
            a.hook_up and a.over_wall and a.in_play for a in state.bands if a.side != b.side
        ):
            out.append(Choice("attack_hook", "Attack a hook"))
    out.append(Choice("stay", "Stay put"))
    return tuple(out)


def _on_order(state: GameState, key: str) -> Result:
    c = state.ctx
    b = state.band(c.actor)
    if key in ("move", "charge"):
        if state.options.sighting_when == "moving" and may_sight(state, b):
            return r(to(state, "sight_pick", order=key))
        return r(to(state, "terrain" if key == "move" else "charge_target"))
    if key == "unlimber":
        state = to(state.with_band(replace(b, limbered=False)), "order", moved=True)
        line = f"{b.does('spends its', 'spend their')} move to unlimber"
        if not state.options.fire_after_unlimbering:
            return r(end_activation(state), line, "it fires from its next activation")
        return then(to_fire(state), line)
    if key == "set_up":
        state = state.with_band(replace(b, setting_up=False))
        return r(
            end_activation(state),
            f"{b.name}: the new crew spend this action setting up; it fires from the next",
        )
    if key == "stay":
        return then(to_fire(to(state, "order", moved=False)), b.does("stays put", "stay put"))
    if key == "hook":
        state, spotted = spot(state, b.name)
        return r(to(state, "hook_defenders"), *spotted)
    if key == "climb":
        state, spotted = spot(state, b.name)
        return then(climbed(state, 1, f"{b.name}: a figure climbs the hook"), *spotted)
    if key == "man_gun":
        return r(to(state, "gun_pick"))
    if key == "attack_hook":
        return r(to(state, "hook_target"))
    raise RulesError(f"unknown order {key!r}")


CHOICES: dict[str, ChoiceStep] = {
    "pick_unit": ChoiceStep(_ask_pick_unit, _on_pick_unit),
    "order": ChoiceStep(_ask_order, _on_order),
}
