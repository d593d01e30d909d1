"""Every roll On the Frontier asks for, as a stand-alone Action."""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import Action
from companion.rules.on_the_frontier.charges import CHARGE_DICE, COME_ON
from companion.rules.on_the_frontier.engineering import DEMOLITION, ENGINEERING
from companion.rules.on_the_frontier.initiative import WHO_GOES_FIRST
from companion.rules.on_the_frontier.movement import MOVE
from companion.rules.on_the_frontier.rally import RALLY
from companion.rules.on_the_frontier.shooting import SHOOT, STEADY

ACTIONS: Mapping[str, Action] = {
    a.name: a
    for a in (
        WHO_GOES_FIRST,
        MOVE,
        RALLY,
        SHOOT,
        STEADY,
        CHARGE_DICE,
        COME_ON,
        ENGINEERING,
        DEMOLITION,
    )
}
