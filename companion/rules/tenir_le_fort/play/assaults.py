"""Assaults on the fort: ladders and hooks up the wall (a close combat against the
wall's defenders, or a climb unopposed), thrown dynamite (at a unit or the gate, with
premature blasts) and the FFL's mined buildings. The blast's dice are in `dynamite.py`.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.activation import end_activation
from companion.rules.tenir_le_fort.play.losses import damage_gate, lose_leader, remove_figures
from companion.rules.tenir_le_fort.play.melee import fallback_stage, figure_wounds, next_bout
from companion.rules.tenir_le_fort.play.shooting import arab_losses, casualty_stage
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    roll,
    yes_no,
)
from companion.rules.tenir_le_fort.play.units import attached_commanders
from companion.rules.tenir_le_fort.state import GameState, Melee


def _after_wall_defender(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "clear":
        return roll(s, "ladder_climb", "ladder-climb", {"figures": min(u.figures, 60)})
    d = s.unit(key.split(":", 1)[1])
    climbers = min(t.LADDER_ASSAULT_CLIMBERS[u.ladder], u.figures)
    melee = Melee(
        attacker=u.name,
        defender=d.name,
        a_state=("ready",) * climbers,
        d_state=("ready",) * d.figures,
        d_fights=(0,) * d.figures,
        a_wounded=(False,) * climbers,
        d_wounded=figure_wounds(d, d.figures),
        position="cover",
        surrounded=False,
        ladder=True,
    )
    tx.say(f"{climbers} of {u.name} climb the {u.ladder} one at a time against {d.name}.")
    s = replace(s, act=replace(s.act, melee=melee, target=d.name))
    return next_bout(s, tx)


def _after_ladder_climb(s: GameState, out: Outcome, tx: Tx) -> GameState:
    climb = "climbs" if out.headline == 1 else "climb"
    tx.say(f"{counted(out.headline, 'figure')} of {s.act.unit} {climb} onto the wall unopposed.")
    return end_activation(s, tx)


def _after_ladder_advance(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.say(f"The climbers move {counted(out.headline, 'inch', 'inches')} along the wall.")
    return fallback_stage(s, tx)


def _after_dynamite_target(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    s = s.with_unit(replace(u, dynamite=u.dynamite - 1))
    if key == "gate":
        s = replace(s, act=replace(s.act, target="gate"))
        return roll(
            s,
            "dynamite",
            "dynamite",
            {"use": "thrown", "target": "gate", "gate_damage": min(s.gate_damage, 6)},
        )
    target = s.unit(key.split(":", 1)[1])
    s = replace(s, act=replace(s.act, target=target.name, cover="none"))
    return roll(
        s,
        "dynamite",
        "dynamite",
        {"use": "thrown", "target": "unit", "ladder": bool(target.ladder)},
    )


def _say_blast(s: GameState, out: Outcome, what: str, tx: Tx) -> None:
    """The blast in words: hits on the unit named (the gate's damage has its own line)."""
    if not out.headline:
        tx.say(*out.details)
    elif s.act.target != "gate":
        tx.say(f"{what}: {counted(out.headline, 'hit')} on {s.act.target}.")


def _after_dynamite(s: GameState, out: Outcome, tx: Tx) -> GameState:
    _say_blast(s, out, "The dynamite", tx)
    thrower = s.unit(s.act.unit)
    if "premature" in out.effects:
        tx.cues.add("death")
        nearby = thrower.figures - 1  # the seed sets no limit on who stood within 1in
        if nearby < 1:
            s = remove_figures(s, thrower.name, 1, tx)
            return end_activation(s, tx)
        opts = [(f"n:{n}", counted(n, "other")) for n in range(nearby + 1)]
        return ask(s, "premature", "Others within 1in?", opts, thrower.name)
    if s.act.target == "gate":
        s = damage_gate(s, out, tx)
        return end_activation(s, tx)
    target = s.unit(s.act.target)
    if "ladder_destroyed" in out.effects:
        s = s.with_unit(replace(target, ladder="", ladder_placed=False))
        tx.say(f"The ladder of {target.name} is destroyed.")
    s = replace(s, act=replace(s.act, hits=out.headline, firer=thrower.name))
    return casualty_stage(s, tx)


def _after_premature(s: GameState, key: str, tx: Tx) -> GameState:
    others = int(key.split(":")[1])
    tx.say(f"The blast kills the thrower and {counted(others, 'figure')} around him.")
    s = remove_figures(s, s.act.unit, 1 + others, tx)
    return end_activation(s, tx)


def _after_mine_target(s: GameState, key: str, tx: Tx) -> GameState:
    target = key.split(":", 1)[1]
    s = replace(s, mines=s.mines - 1, act=replace(s.act, target=target, firer=s.act.unit))
    return yes_no(s, "mine_building", f"{target} in the mined building?", target)


def _after_mine_building(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, cover="building" if key == "yes" else "none"))
    ladder = bool(s.unit(s.act.target).ladder)
    return roll(s, "mine", "dynamite", {"use": "mine", "target": "unit", "ladder": ladder})


def _after_mine(s: GameState, out: Outcome, tx: Tx) -> GameState:
    _say_blast(s, out, "The mine", tx)
    target = s.unit(s.act.target)
    if "premature" in out.effects or "dud" in out.effects:
        tx.say("The mine is spent without effect on the target.")
        return end_activation(s, tx)
    if "ladder_destroyed" in out.effects:
        s = s.with_unit(replace(target, ladder="", ladder_placed=False))
        tx.say(f"The ladder of {target.name} is destroyed.")
    if s.act.cover == "building":
        tx.say(f"The building collapses on {target.name}: every figure in it is lost.")
        tx.cues.add("death")
        for c in attached_commanders(s, target.name):
            s = lose_leader(s, target.name, c.name, tx)
        s = remove_figures(s, target.name, target.figures, tx)
        return end_activation(s, tx)
    s = replace(s, act=replace(s.act, hits=out.headline))
    return arab_losses(s, target.name, out.headline, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "wall_defender": _after_wall_defender,
    "dynamite_target": _after_dynamite_target,
    "mine_target": _after_mine_target,
    "mine_building": _after_mine_building,
    "premature": _after_premature,
}

ROLLS: dict[str, RollHandler] = {
    "ladder_climb": _after_ladder_climb,
    "ladder_advance": _after_ladder_advance,
    "dynamite": _after_dynamite,
    "mine": _after_mine,
}
