"""FortBoard v1.6 (Terry Cabak): a siege on a fort drawn as spaces.

The attacker moves everything, then the defender, then every contact is
fought out. Two six-sided dice; no chips. See docs/rules/fortboard.md.
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.fortboard import game, scenario
from companion.rules.fortboard.actions import ACTIONS
from companion.rules.fortboard.state import GameState

RULESET: Ruleset = PackagedRuleset[GameState](
    name=scenario.SYSTEM,
    title="FortBoard v1.6",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    options=scenario.OPTIONS,
    state_type=GameState,
    scenario_loader=scenario.load_scenario,
    game_start=game.start,
    game_next_step=game.next_step,
    game_advance=game.advance,
    game_describe=game.describe,
)

__all__ = ["RULESET"]
