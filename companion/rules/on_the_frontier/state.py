"""The game's state: the units as they stand (`Force`), what the current activity has
gathered (`Context`), the charges declared this turn and the whole `GameState`, with its
look-ups. Plain frozen data, shared by `game` and every module in `play/`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.core import RulesError
from companion.rules.on_the_frontier.scenario import Options


@dataclass(frozen=True)
class Force:
    """A unit as it stands now. Casualties lie on the table until rallied."""

    name: str
    side: str
    kind: str
    weapon: str  # the shooting weapon, "" if it has none
    start: int
    figures: int  # standing in the ranks
    casualties: int = 0  # lying on the table, may rally
    removed: int = 0  # gone for good
    routed: bool = False
    leader: str = ""
    leader_back_turn: int = 0  # 0: with the unit; else back at the end of that turn
    held_fire: bool = False
    acted: bool = False
    quality: str = "regular"
    shock: bool = False
    superior: bool = False
    ranks: int = 1
    engineers: bool = False
    guns: int = 1  # artillery: guns in the unit, for the per-gun reading of contact dice
    # Artillery only: the guns are hitched up to move, not deployed to fire. A move
    # that ends deploying (the -4") unlimbers them; any other move leaves them limbered.
    limbered: bool = False
    joined: str = ""  # a commander unit that has joined this unit (Follow Me!)

    @property
    def on_table(self) -> bool:
        """Still on the table with someone standing (a joined commander included)."""
        return not self.routed and self.figures > 0

    @property
    def in_play(self) -> bool:
        """Acts, shoots, charges and can be targeted on its own."""
        return self.on_table and not self.joined

    @property
    def shaken(self) -> bool:
        """Below half strength: may not advance or shoot, routs if it loses a melee."""
        return self.figures * 2 < self.start

    @property
    def has_leader(self) -> bool:
        return bool(self.leader) and self.leader_back_turn == 0


@dataclass(frozen=True)
class Context:
    """What the current activity has gathered so far."""

    actor: str = ""
    target: str = ""
    charging: bool = False
    broken: bool = False
    deploy: bool = False
    rerolled: bool = False
    range_band: str = "close"
    cover: bool = False
    hits: int = 0
    returning: bool = False
    in_charge: bool = False  # the shooting is a held-fire volley at chargers
    no_rally: bool = False
    no_work: bool = False
    joining: bool = False  # a commander moving to join ctx.target
    task: str = ""
    attacker_took: int = 0
    defender_took: int = 0
    defender_cover: bool = False  # the defender in cover, behind an obstacle or uphill
    attacker_uphill: bool = False  # the attacker came down on the defender from above
    square: bool = False
    pursuit: bool = False
    near_enemy: bool = False


@dataclass(frozen=True)
class ChargeDeclared:
    attacker: str
    defender: str


@dataclass(frozen=True)
class GameState:
    title: str
    sides: tuple[str, str]
    options: Options
    turn_limit: int
    engineering: tuple[str, ...]  # sides whose foot may do engineering work
    demolition_target: str
    demolition_points: int
    turn: int
    forces: tuple[Force, ...]
    stage: str
    first: int = 0  # index in sides of this turn's first player
    player: int = 0  # 0 while the first player gives orders, 1 the second
    ctx: Context = Context()
    charges: tuple[ChargeDeclared, ...] = ()
    gave_ground: tuple[str, ...] = ()  # units that retreated or fell back in this turn's charges
    work: tuple[tuple[str, str, int], ...] = ()  # (side, task, points so far)
    works_done: tuple[tuple[str, str], ...] = ()  # (side, task) finished
    laid: tuple[tuple[str, int], ...] = ()  # (side, demolition charges laid)
    demolished: bool = False
    finished: bool = False

    # ----------------------------------------------------------- look-ups

    def force(self, name: str) -> Force:
        for f in self.forces:
            if f.name == name:
                return f
        raise RulesError(f"no unit named {name!r}")

    def with_force(self, force: Force) -> GameState:
        return replace(
            self, forces=tuple(force if f.name == force.name else f for f in self.forces)
        )

    @property
    def active_side(self) -> str:
        return self.sides[(self.first + self.player) % 2]

    def enemies_of(self, side: str) -> tuple[Force, ...]:
        return tuple(f for f in self.forces if f.side != side and f.in_play)

    def engaged(self, name: str) -> bool:
        """Contacted by a charge this turn: it stays to be fought, it does not walk away."""
        return any(c.defender == name for c in self.charges)

    def charges_laid(self, side: str) -> int:
        return dict(self.laid).get(side, 0)

    def work_points(self, side: str, task: str) -> int:
        for s, t, p in self.work:
            if s == side and t == task:
                return p
        return 0
