"""Planning the throws of a roll request: how many dice of each kind one throw may
hold (the config's [dice] section), which of the request's dice go in which throw,
and where each die read goes among the dice the rules want. Pure functions of the
request and the tray's size: no box state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from companion.config import DEFAULTS
from companion.rules.core import DiceGroup, DieKind, RollRequest


@dataclass(frozen=True)
class Part:
    """Some dice of one of a request's groups in one throw: `count` dice of group
    `group`, from its `start`-th die on."""

    group: int
    start: int
    count: int


Throw = tuple[Part, ...]


def per_throw(dice_settings: Mapping[str, Any]) -> dict[DieKind, int]:
    """The most dice of each kind the box asks for in one throw, from the config's
    [dice] section: more do not lie flat and apart in the tray (touching dice are
    refused). Percentile dice are d10s."""
    d6, d10 = int(dice_settings["d6_per_throw"]), int(dice_settings["d10_per_throw"])
    return {DieKind.D6: d6, DieKind.D10: d10, DieKind.PERCENTILE: d10}


PER_THROW = per_throw(DEFAULTS["dice"])


def throws(request: RollRequest, most: Mapping[DieKind, int] = PER_THROW) -> list[Throw]:
    """Split a request into throws the camera can tell apart and the tray can hold.

    Two groups of the same kind (the attacker's d6 and the defender's d6) cannot
    be told apart on the tray, so each becomes its own throw; groups of different
    kinds (tens and units of a percentile) are rolled together while the tray
    holds them (five d10 fill half a tray that holds ten). A group of more
    dice than one throw may hold is split into throws of nearly equal size.
    Groups of no dice are not thrown at all.
    """
    out: list[list[Part]] = []
    for index, group in enumerate(request.groups):
        if group.count == 0:
            continue
        pieces = -(-group.count // most[group.kind])
        start = 0
        for piece in range(pieces):
            count = group.count // pieces + (piece < group.count % pieces)
            part = Part(index, start, count)
            start += count
            for throw in out:
                kinds = [request.groups[p.group].kind for p in throw]
                full = sum(Fraction(p.count, most[k]) for p, k in zip(throw, kinds, strict=True))
                if group.kind not in kinds and full + Fraction(count, most[group.kind]) <= 1:
                    throw.append(part)
                    break
            else:
                out.append([part])
    return [tuple(throw) for throw in out]


def dice_order(request: RollRequest, plan: list[Throw]) -> list[int]:
    """Where each die of the throws, in the order they are thrown, goes among the
    dice the rules want (group order)."""
    starts = [sum(g.count for g in request.groups[:i]) for i in range(len(request.groups))]
    return [starts[p.group] + p.start + n for throw in plan for p in throw for n in range(p.count)]


def throw_groups(request: RollRequest, throw: Throw) -> list[DiceGroup]:
    """The dice of one throw, as groups (a split group with its share of the dice)."""
    return [replace(request.groups[p.group], count=p.count) for p in throw]


def throws_read(plan: list[Throw], taken: int) -> int:
    """How many of the plan's throws `taken` dice read so far make."""
    done = 0
    for throw in plan:
        size = sum(p.count for p in throw)
        if taken < size:
            break
        taken -= size
        done += 1
    return done


def in_rules_order(request: RollRequest, plan: list[Throw], collected: list[int]) -> list[int]:
    """Dice come throw by throw; the rules want them in group order. Dice not
    read yet (dice entry halfway through a roll) stand at their lowest face."""
    values = [k.faces[0] for k in request.kinds]
    for value, at in zip(collected, dice_order(request, plan), strict=False):
        values[at] = value
    return values
