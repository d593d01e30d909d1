"""Figures hurt: a hit wounds a fresh figure, a wounded figure hit again is killed.

Shared by every part of the game that hurts figures: missiles, artillery, wall weapons,
melee, engines burning or wrecked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.rules.fortboard.play.steps import Out
from companion.rules.fortboard.state import Figure, GameState


def hit_order(figures: Sequence[Figure]) -> list[Figure]:
    """Hits fall on unwounded figures first, then kill the wounded."""
    return [f for f in figures if not f.wounded] + [f for f in figures if f.wounded]


def wound(state: GameState, f: Figure, out: Out) -> GameState:
    if f.wounded:
        out.log.append(f"{f.label} is killed")
        out.cues.add("death")
        return state.without_figure(f.id)
    out.log.append(f"{f.label} is wounded")
    return state.with_figure(replace(f, wounded=True))


def kill(state: GameState, f: Figure, out: Out) -> GameState:
    out.log.append(f"{f.label} is killed")
    out.cues.add("death")
    return state.without_figure(f.id)


def apply_hits(state: GameState, targets: Sequence[Figure], hits: int, out: Out) -> GameState:
    """Each hit wounds a fresh figure; once all are wounded, each kills one."""
    for _ in range(hits):
        current = [g for g in (state.figure(t.id) for t in targets) if g is not None]
        if not current:
            break
        state = wound(state, hit_order(current)[0], out)
    return state
