"""Tenir le Fort (Keith Jordan): the Foreign Legion holds a desert fort against two attacks.

Modules: `tables` (the charts), `movement`, `fire`, `wounds`, `close_combat`,
`campaign` (relief, command points, ammunition, resolve), `sabotage`,
`dynamite` (each with its Actions), `actions` (all of them by name),
`scenario` (validation and options), `state` (the game state), `game` (the
sequence of play's entry points) and `play` (its steps, one module per part of the
game: see `play/__init__.py`).
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.tenir_le_fort import game, scenario
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.state import GameState

RULESET: Ruleset = PackagedRuleset[GameState](
    title="Tenir le Fort",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    scenario=scenario,
    state_type=GameState,
    game=game,
)

__all__ = ["RULESET"]
