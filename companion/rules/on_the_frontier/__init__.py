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
    name=scenario.SYSTEM,
    title="On the Frontier",
    dice=(DieKind.D6,),
    actions=ACTIONS,
    options=scenario.OPTIONS,
    state_type=game.GameState,
    scenario_loader=scenario.load_scenario,
    game_start=game.start,
    game_next_step=game.next_step,
    game_advance=game.advance,
    game_describe=game.describe,
)

__all__ = ["RULESET"]
