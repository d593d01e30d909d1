"""Forces that reach the table later: Arab bands that gather over the days before an
attack, and the FFL relief column.

The relief's day is rolled in `preparations`; it arrives before an attack (there or
in `attack`) or on an FFL leader's chit (`activation`, `leader_chits`). Apart so that
each of them can bring it on.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.tenir_le_fort.play.steps import Tx
from companion.rules.tenir_le_fort.state import GameState, UnitState


def bands_to_come(s: GameState) -> tuple[UnitState, ...]:
    """Arab bands still gathering: they join on a later day."""
    return tuple(u for u in s.units if u.side == "Arab" and not u.present and u.figures)


def gather_bands(s: GameState, tx: Tx) -> GameState:
    """Arab bands that have joined the siege by the attack's day come to the table."""
    joining = [
        u
        for u in s.units
        if u.side == "Arab" and not u.present and u.figures and u.joins_on_day <= s.day
    ]
    for u in joining:
        s = s.with_unit(replace(u, present=True))
    if joining:
        tx.say(f"Joined the siege by day {s.day}: " + ", ".join(u.name for u in joining) + ".")
    return s


def relief_pending(s: GameState) -> bool:
    return not s.relief_arrived and any(u.reinforcement and not u.present for u in s.units)


def relief_arrives(s: GameState, tx: Tx, *, into_bag: bool) -> GameState:
    units = []
    bag = s.bag
    for u in s.units:
        if u.reinforcement and not u.present:
            u = replace(u, present=True)
            if into_bag and u.chip:
                bag = bag.add(u.chip)
        units.append(u)
    tx.say("The relief column arrives: " + ", ".join(u.name for u in s.units if u.reinforcement))
    return replace(s, units=tuple(units), bag=bag, relief_arrived=True)
