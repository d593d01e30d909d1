"""What a unit may do now: shoot (and with how many dice), hold its fire, be joined
by a commander unit; and the enemy units it may pick as a target.
"""

from __future__ import annotations

from companion.rules.core import Choice, unit_choices
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.shooting import dice_for_figures, front_rank
from companion.rules.on_the_frontier.state import Force, GameState


def firing_figures(f: Force) -> int:
    """Only the front rank shoots (guns are never in ranks: every gunner counts)."""
    return front_rank(f.figures, f.ranks)


def shooting_dice(state: GameState, f: Force) -> int:
    if not f.weapon:
        return 0
    row = tables.weapon_row(f.weapon)
    return dice_for_figures(firing_figures(f), row.figures_per_die, state.options.odd_figure_dice)


def can_shoot(state: GameState, f: Force) -> bool:
    """Not shaken, guns deployed, and enough figures in the front rank for one die."""
    return f.in_play and not f.shaken and not f.limbered and shooting_dice(state, f) > 0


def can_hold_fire(state: GameState, f: Force) -> bool:
    if state.options.hold_fire_kinds == "infantry_and_skirmishers":
        return can_shoot(state, f) and f.kind in tables.HOLD_FIRE_KINDS
    return can_shoot(state, f)


def joinable_units(state: GameState, commander: Force) -> tuple[Force, ...]:
    """Friendly units a commander unit may join: in play, not commanders, none present."""
    return tuple(
        f
        for f in state.forces
        if f.side == commander.side and f.in_play and f.kind != "commander" and not f.has_leader
    )


def enemy_targets(state: GameState, side: str) -> tuple[Choice, ...]:
    return unit_choices("target", state.enemies_of(side))
