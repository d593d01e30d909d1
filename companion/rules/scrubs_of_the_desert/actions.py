"""Every roll Scrubs of the Desert asks for, as a stand-alone Action."""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import Action
from companion.rules.scrubs_of_the_desert.activation import ACTIVATION_TOSS
from companion.rules.scrubs_of_the_desert.cannon import CANNON_BLAST, CANNON_TO_HIT
from companion.rules.scrubs_of_the_desert.crew_targeting import CREW_TARGETING
from companion.rules.scrubs_of_the_desert.fire import FIRE
from companion.rules.scrubs_of_the_desert.grappling import HOOK_CLIMB, HOOK_THROW
from companion.rules.scrubs_of_the_desert.melee import MELEE_BOUT
from companion.rules.scrubs_of_the_desert.morale import MORALE
from companion.rules.scrubs_of_the_desert.movement import MOVE
from companion.rules.scrubs_of_the_desert.sighting import SIGHTING

ACTIONS: Mapping[str, Action] = {
    a.name: a
    for a in (
        ACTIVATION_TOSS,
        SIGHTING,
        MOVE,
        FIRE,
        CANNON_TO_HIT,
        CANNON_BLAST,
        CREW_TARGETING,
        MORALE,
        MELEE_BOUT,
        HOOK_THROW,
        HOOK_CLIMB,
    )
}
