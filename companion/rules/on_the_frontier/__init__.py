"""On the Frontier: simple d6 rules for small actions of the 1860s-1880s.

The package holds the charts (`tables`), one module per rule area (`initiative`,
`movement`, `rally`, `shooting`, `charges`, `engineering`), the stand-alone
rolls (`actions`), scenario validation and options (`scenario`) and the sequence
of play (`game`). `RULESET` is what `companion.rules.get_ruleset` loads.
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.on_the_frontier import game, scenario
from companion.rules.on_the_frontier.actions import ACTIONS

RULESET: Ruleset = PackagedRuleset[game.GameState](
    title="On the Frontier",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    scenario=scenario,
    state_type=game.GameState,
    game=game,
)

__all__ = ["RULESET"]
