"""The game's state: immutable, compared by value, rebuilt by replaying inputs."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.fighting_swashbucklers import tables
from companion.rules.fighting_swashbucklers.movement import AIRBORNE, LANDED


@dataclass(frozen=True)
class SquadState:
    """A squad (or the commanding officer) as it stands now."""

    name: str
    side: str
    kind: str
    pose: str  # "" for cavalry and commanders
    strength: int  # full strength as set up
    men: int  # on the table
    routed: int = 0  # off the table, to be rallied
    formation: str = tables.LINE
    leader: str = ""  # the under-officer commanding it
    markers: int = 0
    test_due: bool = False
    stress: bool = False
    faced: bool = False  # turned to face a flank or rear charge
    actions_used: int = 0
    done: bool = False  # no more orders this half-turn (finished, halted, vanished)
    reacted: bool = False
    second_rolled: bool = False
    second_granted: bool = False
    rough_passed: bool = False
    hyperspace: str = ""  # "", "airborne" or "landed"
    hyperspace_turn: int = 0
    last_fired_by: str = ""
    captured: bool = False

    @property
    def is_commander(self) -> bool:
        return self.kind == tables.COMMANDER

    @property
    def airborne(self) -> bool:
        return self.hyperspace == AIRBORNE

    @property
    def on_table(self) -> bool:
        return self.men > 0 and not self.airborne and not self.captured

    def landed_on(self, turn: int) -> bool:
        return self.hyperspace == LANDED and self.hyperspace_turn == turn

    def with_(self, **changes: object) -> SquadState:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class OfficerState:
    name: str
    side: str
    kind: str  # "good", "ordinary", "martinet"; "" until diced
    alive: bool = True


@dataclass(frozen=True)
class SideState:
    name: str
    cp: int = -1  # -1 until rolled
    victory_points: int = 0
    commander_captured: bool = False


@dataclass(frozen=True)
class MeleeState:
    """A charge that made contact, to be fought in the melee step."""

    attacker: str
    defender: str
    facing: str  # "front", "flank" or "rear" of the defender
    provoked: bool = False  # a provoked cavalry advance


@dataclass(frozen=True)
class FightState:
    """A melee being fought round by round."""

    attacker: str
    defender: str
    attacker_fighter: str  # a pose, "cavalry" or "commander"
    defender_fighter: str
    attacker_martinet: bool
    defender_martinet: bool
    advantage: str  # "none", "attacker" or "defender"
    attacker_soldiers: int
    defender_soldiers: int
    attacker_officer: bool
    defender_officer: bool
    attacker_routed: int = 0
    defender_routed: int = 0
    last_loss_routed: bool = False  # the losing side's last lost pairing was threefold
    rounds: int = 0

    @property
    def attacker_fighting(self) -> int:
        return self.attacker_soldiers + (1 if self.attacker_officer else 0)

    @property
    def defender_fighting(self) -> int:
        return self.defender_soldiers + (1 if self.defender_officer else 0)


@dataclass(frozen=True)
class Stage:
    """What the game waits for; `kind` names it, the other fields say for whom."""

    kind: str = ""
    unit: str = ""
    target: str = ""
    purpose: str = ""
    number: int = 0
    count: int = 0


@dataclass(frozen=True)
class GameState:
    title: str
    options: tuple[tuple[str, str | int], ...]
    sides: tuple[SideState, ...]
    first_side: int
    turn_limit: int
    melee_win_points: int
    objectives: tuple[tuple[str, int], ...]
    units: tuple[SquadState, ...]
    officers: tuple[OfficerState, ...]
    turn: int = 1
    half: int = 0  # 0: the first side is phasing, 1: the second
    phase: str = "setup"
    stage: Stage = Stage()
    phasing_second: bool = False
    reactions_left: int = -1  # -1: not rolled yet
    melees: tuple[MeleeState, ...] = ()
    melee_index: int = 0
    fight: FightState | None = None
    martinet_queue: tuple[tuple[str, bool], ...] = ()
    withdrawn: tuple[str, ...] = ()  # units that lost a melee this half-turn
    holders: tuple[str, ...] = ()
    winner: str = ""
    finished: bool = False
    ending: str = ""

    def option(self, name: str) -> str | int:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def phasing(self) -> str:
        return self.sides[(self.first_side + self.half) % 2].name

    @property
    def non_phasing(self) -> str:
        return self.sides[(self.first_side + self.half + 1) % 2].name

    def side(self, name: str) -> SideState:
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(name)

    def unit(self, name: str) -> SquadState:
        for u in self.units:
            if u.name == name:
                return u
        raise KeyError(name)

    def officer(self, name: str) -> OfficerState | None:
        for o in self.officers:
            if o.name == name:
                return o
        return None

    def with_unit(self, unit: SquadState) -> GameState:
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def with_side(self, side: SideState) -> GameState:
        return replace(self, sides=tuple(side if s.name == side.name else s for s in self.sides))

    def with_officer(self, officer: OfficerState) -> GameState:
        return replace(
            self, officers=tuple(officer if o.name == officer.name else o for o in self.officers)
        )

    def at(self, **changes: object) -> GameState:
        return replace(self, **changes)  # type: ignore[arg-type]
