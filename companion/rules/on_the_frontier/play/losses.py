"""What hits do to a unit: figures knocked down (`take_hits`) or stood up again
(`restore`), a unit destroyed, what the table should see of a unit hit (`standing`),
and a commander hit, away until the end of the next turn.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.state import Force, GameState


def take_hits(f: Force, hits: int) -> Force:
    down = min(hits, f.figures)
    f = replace(f, figures=f.figures - down, casualties=f.casualties + down)
    return f


def restore(f: Force, hits: int) -> Force:
    """Cancel hits: casualties stand again (a destroyed unit comes back)."""
    back = min(hits, f.casualties)
    return replace(f, figures=f.figures + back, casualties=f.casualties - back)


def standing(f: Force) -> str:
    """What the table should show of a unit that took hits: figures up and down."""
    return (
        f"{f.name}: {f.figures} standing, {f.casualties} down"
        + (", shaken" if f.shaken and f.figures else "")
        + (", destroyed" if not f.figures else "")
    )


def destroy(f: Force) -> Force:
    return replace(f, removed=f.removed + f.casualties, casualties=0, routed=True)


def commander_hit(state: GameState, unit_name: str) -> tuple[GameState, str]:
    """The unit's commander is hit; a replacement takes over at the end of the next turn.

    A commander unit that had joined the unit is a figure on the table: the hit takes
    him off it (his replacement leads the unit, not a new figure)."""
    unit = state.force(unit_name)
    back = state.turn + tables.COMMANDER_AWAY_TURNS
    state = state.with_force(replace(unit, leader_back_turn=back))
    leaves = ""
    for f in state.forces:
        if f.kind == "commander" and f.joined == unit_name and f.name == unit.leader:
            state = state.with_force(
                replace(f, figures=0, removed=f.removed + f.figures, routed=True)
            )
            leaves = " and leaves the table"
    return state, f"{unit.leader} is hit{leaves}; a replacement arrives at the end of turn {back}"
