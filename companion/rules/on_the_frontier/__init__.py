"""On the Frontier: simple d6 rules for small actions of the 1860s-1880s.

The package holds the charts (`tables`), one module per rule area (`initiative`,
`movement`, `rally`, `shooting`, `charges`, `engineering`), the stand-alone
rolls (`actions`), scenario validation and options (`scenario`), the game state
(`state`), the sequence of play's entry points (`game`) and its steps (`play`, one
module per part of the game: see `play/__init__.py`). `RULESET` is what
`companion.rules.get_ruleset` loads.
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.on_the_frontier import game, scenario
from companion.rules.on_the_frontier.actions import ACTIONS
from companion.rules.on_the_frontier.state import GameState

RULESET: Ruleset = PackagedRuleset[GameState](
    title="On the Frontier",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    scenario=scenario,
    state_type=GameState,
    game=game,
)

__all__ = ["RULESET"]
