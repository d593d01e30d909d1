"""Every roll of Tenir le Fort as a stand-alone Action, by name."""

from __future__ import annotations

from companion.rules.core import Action
from companion.rules.tenir_le_fort import (
    campaign,
    close_combat,
    dynamite,
    fire,
    movement,
    sabotage,
    wounds,
)

ALL: tuple[Action, ...] = (
    *fire.ACTIONS,
    *wounds.ACTIONS,
    *movement.ACTIONS,
    *close_combat.ACTIONS,
    *campaign.ACTIONS,
    *sabotage.ACTIONS,
    *dynamite.ACTIONS,
)

ACTIONS: dict[str, Action] = {a.name: a for a in ALL}
