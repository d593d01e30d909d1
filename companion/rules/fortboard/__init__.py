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
    title="FortBoard v1.6",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    scenario=scenario,
    state_type=GameState,
    game=game,
)

__all__ = ["RULESET"]
