"""Dynamite: mines on a plunger and bundles thrown like grenades within 6 inches.

2d6: 2 goes off early (the thrower or sapper and everyone within 1 inch die),
12 is a dud, anything else is that many hits on the unit or points of damage
on the gate (7 breaks it). An odd result against a unit with a ladder breaks
the ladder.
"""

from __future__ import annotations

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Param,
    ParamKind,
    Params,
    RollRequest,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import Judgement, dice_total_action


def dynamite_request(p: Params) -> RollRequest:
    target = "the gate" if str(p["target"]) == "gate" else "a unit"
    return RollRequest(
        f"dynamite {p['use']} against {target}",
        (DiceGroup(DieKind.D6, 2, "dynamite", "sum: hits; 2 goes off early, 12 is a dud"),),
    )


def judge(p: Params, total: int) -> Judgement:
    gate = str(p["target"]) == "gate"
    if total == t.DYNAMITE_PREMATURE:
        who = "the sapper" if str(p["use"]) == "mine" else "the thrower"
        return (
            0,
            frozenset({"premature", "killed"}),
            (f"2: it goes off early, killing {who} and every figure within 1 inch",),
        )
    if total == t.DYNAMITE_DUD:
        return 0, frozenset({"dud"}), ("12: a dud",)
    effects: set[str] = set()
    # the headline gives the number: the line says what it counts, not the number again
    lines = [
        "each hit is a point of damage to the gate" if gate else "hits on the unit: the dice total"
    ]
    if gate:
        done = int(p["gate_damage"]) + total
        if done >= t.GATE_HITS:
            effects.add("gate_destroyed")
            lines.append(f"{done} damage: the gate is destroyed")
    elif bool(p["ladder"]) and total % 2 == 1:
        effects.add("ladder_destroyed")
        lines.append("odd result: the ladder is destroyed")
    return total, frozenset(effects), tuple(lines)


DYNAMITE = dice_total_action(
    name="dynamite",
    title="Dynamite (mine or thrown bundle)",
    help_text="2d6: 2 premature (kills the thrower/sapper and all within 1 inch), 12 dud, "
    "otherwise that many hits or points of gate damage (7 destroys the gate); odd breaks a ladder.",
    params=(
        Param(
            "use",
            ParamKind.CHOICE,
            "a mine on a plunger or a thrown bundle",
            "thrown",
            choices=("thrown", "mine"),
        ),
        Param(
            "target", ParamKind.CHOICE, "a unit or the fort gate", "unit", choices=("unit", "gate")
        ),
        Param("ladder", ParamKind.BOOL, "the target unit carries a ladder", False),
        Param(
            "gate_damage",
            ParamKind.INT,
            "damage the gate already has",
            0,
            minimum=0,
            maximum=t.GATE_HITS - 1,
        ),
    ),
    request=dynamite_request,
    judge=judge,
    label="hits",
    examples=({}, {"ladder": True}, {"target": "gate", "gate_damage": 3, "use": "mine"}),
    dice=2,
)

ACTIONS: tuple[Action, ...] = (DYNAMITE,)
