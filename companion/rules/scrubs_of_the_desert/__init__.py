"""Scrubs of the Desert: French Foreign Legion skirmish rules on d10s read 0-9.

The package holds the charts (`tables`), the dice conventions (`dice`: 0 is
zero; percentile "00" by option), one module per rule area (`activation`,
`sighting`, `movement`, `fire`, `cannon`, `crew_targeting`, `morale`, `melee`,
`grappling`), the stand-alone rolls (`actions`), scenario validation and options
(`scenario`), the state of a game (`state`) and the sequence of play (`game`,
with its steps in `play/`). `RULESET` is what `companion.rules.get_ruleset` loads.
"""

from __future__ import annotations

from companion.rules.core import DieKind, PackagedRuleset, Ruleset
from companion.rules.scrubs_of_the_desert import game, scenario
from companion.rules.scrubs_of_the_desert.actions import ACTIONS

RULESET: Ruleset = PackagedRuleset[game.GameState](
    title="Scrubs of the Desert",
    dice=(DieKind.D10, DieKind.PERCENTILE),
    actions=ACTIONS,
    scenario=scenario,
    state_type=game.GameState,
    game=game,
)

__all__ = ["RULESET"]
