"""Figures lost: a unit's count goes down; a machine gun whose crew is gone stays on
the table for infantry to man, any other unit left empty is gone; a unit gone no longer
holds anyone locked in melee.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.scrubs_of_the_desert.state import GameState


def lose_figures(state: GameState, name: str, dead: int) -> tuple[GameState, tuple[str, ...]]:
    b = state.band(name)
    dead = min(dead, b.figures)
    if not dead:
        return state, ()
    b = replace(b, figures=b.figures - dead, over_wall=min(b.over_wall, b.figures - dead))
    line = f"{b.does('loses', 'lose')} {dead}: {b.figures} left"
    if b.figures == 0:
        if b.support_weapon == "machine_gun":
            line += "; the machine gun is abandoned"
        else:
            b = replace(b, removed=True)
            line += "; the unit is gone"
        state = unlock(state, b.name)
    return state.with_band(b), (line,)


def unlock(state: GameState, name: str) -> GameState:
    return replace(
        state,
        bands=tuple(
            replace(b, locked_with="") if b.name == name or b.locked_with == name else b
            for b in state.bands
        ),
    )
