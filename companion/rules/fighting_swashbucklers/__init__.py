"""Fighting Swashbucklers of the Foreign Legion (Wally Simon, 1988).

A squad skirmish "morale game": poses fix fire and melee factors, fire places
markers that lower a squad's percentile Morale Level, and the commanding
officer's Command Points drive second actions, reaction fire and rallies.
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.fighting_swashbucklers import game, scenario
from companion.rules.fighting_swashbucklers.actions import ACTIONS
from companion.rules.fighting_swashbucklers.state import GameState

RULESET: Ruleset = PackagedRuleset[GameState](
    title="Fighting Swashbucklers of the Foreign Legion",
    dice=(DieKind.D10, DieKind.PERCENTILE),
    actions=ACTIONS,
    scenario=scenario,
    state_type=GameState,
    game=game,
)

__all__ = ["RULESET"]
