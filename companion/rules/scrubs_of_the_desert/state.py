"""The state of a game of Scrubs of the Desert: each unit as it stands now (`Band`),
what the activation under way has asked so far (`Context`), and the whole game
(`GameState`: the units, the turn, the stage it waits at, the toss bonuses).

Apart from the steps (`play/`) and the entry points (`game`), so that both can use it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.core import RulesError
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.scenario import Options


@dataclass(frozen=True)
class Band:
    """A unit as it stands now."""

    name: str
    side: str
    nation: str  # "french" or "arab"
    kind: str  # foot, horse, gun
    weapons: tuple[str, ...]
    start: int  # figures at the start, for the final count
    figures: int
    base_morale: int
    size: int  # the unit size the morale chart reads (the new crew once infantry man a gun)
    loss_per_figure: int = 0  # the scenario's morale loss rate; 0: by size
    leader: str = ""
    activated: bool = False
    routed: bool = False  # routed this turn: recovers by itself next turn
    removed: bool = False
    spotted: bool = True
    limbered: bool = False
    jammed_from: int = 0  # the machine gun may not fire from this turn...
    jammed_until: int = 0  # ...to the end of this one
    infantry_crew: bool = False  # the machine gun is served by infantry
    setting_up: bool = False  # infantry just reached the gun: a full action before it fires
    detached: int = 0  # figures gone to crew a machine gun (not losses)
    locked_with: str = ""
    hook_up: bool = False
    over_wall: int = 0
    plural: bool = False  # the name takes a plural verb: "Spahis move"

    def does(self, singular: str, plural: str) -> str:
        """The name and its verb, agreeing: "1st Section moves", "Spahis move"."""
        return f"{self.name} {plural if self.plural else singular}"

    @property
    def support_weapon(self) -> str:
        return next((w for w in self.weapons if w in tables.SUPPORT_WEAPONS), "")

    @property
    def abandoned(self) -> bool:
        """A machine gun whose crew is gone: infantry may man it."""
        return self.support_weapon == "machine_gun" and self.figures == 0 and not self.removed

    @property
    def in_play(self) -> bool:
        return not self.removed and self.figures > 0

    @property
    def lost(self) -> int:
        """Figures lost, for morale: figures that went to crew a gun are not losses."""
        return max(0, self.size - self.figures - self.detached)

    def can_fire(self, turn: int) -> bool:
        if not self.in_play or self.routed:
            return False
        gun = self.support_weapon
        if gun:
            if self.limbered or self.setting_up:
                return False
            if gun == "machine_gun" and self.jammed_from <= turn <= self.jammed_until:
                return False
            if gun in tables.CANNONS and self.figures < tables.CANNON_MIN_CREW:
                return False
        return bool(self.weapons)


@dataclass(frozen=True)
class Context:
    side: int = 0  # index of the side activating
    actor: str = ""
    tried: tuple[str, ...] = ()  # hidden units the actor has tried to sight
    sight_target: str = ""
    band: str = ""
    charging: bool = False
    moved: bool = False
    terrain: str = ""
    shooter: str = ""
    target: str = ""
    weapon: str = ""
    range_band: str = "short"
    cover: bool = False
    grapeshot: bool = False
    crew_near: bool = False
    crew_others: int = 0
    order: str = ""  # move or charge, while sighting comes first (sighting_when = moving)
    manning: bool = False  # the move takes infantry to an abandoned machine gun
    crew: int = 0  # how many of them will crew it
    hits: int = 0
    crew_hits: int = 0
    defensive: bool = False
    pending: tuple[str, ...] = ()  # units still to test morale after fire
    position: str = "open"
    attacker: str = ""
    defender: str = ""
    def_position: str = "open"
    counter: bool = False
    att_failed: bool = False
    continuing: bool = False
    bouts: tuple[tuple[int, int], ...] = ()
    bout_index: int = 0
    defenders_killed: int = 0
    attackers_killed: int = 0
    locked: int = 0
    hook_fight: bool = False
    climber: int = 0
    hook_defenders: int = 0
    # a cannon's blast: (unit, figures under the template) and the kills rolled so far
    blast: tuple[tuple[str, int], ...] = ()
    blast_kills: tuple[int, ...] = ()
    blast_unit: str = ""  # the unit whose figures under the template are being counted


@dataclass(frozen=True)
class GameState:
    title: str
    sides: tuple[str, str]
    options: Options
    turn_limit: int
    fort: bool
    wall_goal: int
    bands: tuple[Band, ...]
    turn: int = 1
    stage: str = "toss"
    bonus: tuple[int, int] = (0, 0)
    ctx: Context = Context()
    finished: bool = False

    def band(self, name: str) -> Band:
        for b in self.bands:
            if b.name == name:
                return b
        raise RulesError(f"no unit named {name!r}")

    def with_band(self, band: Band) -> GameState:
        return replace(self, bands=tuple(band if b.name == band.name else b for b in self.bands))

    def ready(self, side: str) -> tuple[Band, ...]:
        return tuple(b for b in self.bands if b.side == side and b.in_play and not b.activated)

    def enemies(self, side: str, visible_only: bool = True) -> tuple[Band, ...]:
        return tuple(
            b
            for b in self.bands
            if b.side != side and b.in_play and (b.spotted or not visible_only)
        )

    def over_wall(self) -> int:
        return sum(b.over_wall for b in self.bands if b.nation == "arab" and not b.removed)
