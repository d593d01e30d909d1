"""The game state: immutable, compared by value, rebuilt by replaying inputs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.rules.chipbag import ChipBag
from companion.rules.core import Choice

Params = tuple[tuple[str, int | bool | str], ...]


@dataclass(frozen=True)
class Config:
    """The scenario's setup and options, flattened for the state."""

    title: str
    turn_limit: int
    max_preparation_days: int
    tower: bool
    tower_donor: str
    ffl_mines: int
    resolve_threshold: int
    cp_per_turn: bool
    max_heroes: int
    artillery_wall_range: int
    ammo_eleven: str
    cc_result_from: str
    leader_bonus_whole_unit: bool
    jam_clear_fires: bool
    pinned_recovery_moves: bool
    counter_charge_extra_die: bool
    sentry_tie: str
    next_attack_roll: str
    sentries: bool = True
    sergeants_command: bool = True  # the FFL keep (halved) command points with no officer
    wounded_leader_bonus_six: bool = False  # a wounded leader's extra fire dice hit on 6


@dataclass(frozen=True)
class UnitState:
    name: str
    side: str
    kind: str  # foot, mounted, maxim, artillery, leader, supply, tower
    chip: str  # "" for the tower (it fires on the FFL leader's chit)
    figures: int  # rank and file (crew for guns); attached leaders are extra
    start_figures: int
    leader: str = ""  # attached leader's name ("" none)
    rank: str = ""  # his rank, or a command figure's rank
    wounded: int = 0
    pinned: bool = False
    berserk: bool = False
    heroes: int = 0
    carrying_dead: bool = False
    mixed_tribes: bool = False
    ladder: str = ""  # "ladder" or "hook" carried
    ladder_placed: bool = False
    dynamite: int = 0
    on_wall: bool = False
    pistols: int = 0
    jammed: bool = False
    broken: bool = False
    reinforcement: bool = False
    present: bool = True  # on the table (reinforcements and late Arab bands arrive later)
    joins_on_day: int = 1  # Arab bands: the day they join the siege
    attached_to: str = ""  # a command figure (kind leader) with a unit: its name
    leader_wounded: bool = False  # the attached leader (`leader`) is wounded

    @property
    def alive(self) -> bool:
        return self.present and self.figures > 0

    @property
    def has_leader(self) -> bool:
        return bool(self.leader)

    @property
    def command_figure(self) -> bool:
        """A leader with his own chit (the Captain, a lieutenant, a sheikh)."""
        return self.kind == "leader"

    @property
    def gun(self) -> bool:
        return self.kind in ("maxim", "artillery")


@dataclass(frozen=True)
class Melee:
    """A close combat in progress, figure by figure."""

    attacker: str
    defender: str
    a_state: tuple[str, ...]  # per attacker figure: ready, done, killed, fell back
    d_state: tuple[str, ...]  # per defender figure: ready, killed, fell back, surrendered
    d_fights: tuple[int, ...]  # bouts each defender figure has fought
    a_wounded: tuple[bool, ...]
    d_wounded: tuple[bool, ...]
    position: str = "open"
    surrounded: bool = False
    ladder: bool = False  # a ladder assault: climbers one at a time, no limit of four
    current: tuple[int, int] = (-1, -1)
    d_falls: tuple[bool, ...] = ()  # defenders who lost and fall back after their last combat


@dataclass(frozen=True)
class Act:
    """The activation in progress."""

    unit: str = ""
    leader_chip: str = ""  # set when acting on a leader's chit
    used: tuple[str, ...] = ()  # leader-chit options already used
    action: str = ""
    target: str = ""
    defender: str = ""  # the unit charged, kept while defensive fire swaps firer and target
    cover: str = ""
    within: bool = False  # pistol range
    firer: str = ""  # who fires (defensive fire, tower, Maxim on a leader chit)
    mode: str = "stationary"
    hits: int = 0
    melee: Melee | None = None
    after_fire: str = ""  # what follows a volley: "", "melee"
    fallbacks: tuple[str, ...] = ()  # units with figures to fall back
    sabotage_phase: int = 0
    sabotage_side: str = ""
    sabotage_unit: str = ""
    sabotage_target: str = ""
    asked: tuple[str, ...] = ()  # leaders (and "hero") already asked about: among the hit?
    officers_hit: tuple[str, ...] = ()  # leaders among the hit, still to roll their wound
    hero_among: bool = False  # the hero is among the hit
    leader_checks: tuple[str, ...] = ()  # units with a mounted leader that lost figures
    aim: str = ""  # the leader a rifleman snipes at


@dataclass(frozen=True)
class AskChoice:
    purpose: str
    prompt: str
    options: tuple[Choice, ...]
    about: str = ""


@dataclass(frozen=True)
class AskRoll:
    purpose: str
    action: str
    params: Params


@dataclass(frozen=True)
class AskChip:
    prompt: str


@dataclass(frozen=True)
class Over:
    winner: str | None
    reason: str


Pending = AskChoice | AskRoll | AskChip | Over


@dataclass(frozen=True)
class GameState:
    config: Config
    units: tuple[UnitState, ...]
    pending: Pending
    bag: ChipBag = field(default_factory=ChipBag)
    attack: int = 0  # 0 before the first attack
    day: int = 1
    preparation_days: int = 0
    reinforcement_day: int = 0  # secret
    relief_arrived: bool = False
    supply_through: bool = False
    turn: int = 0
    cp_ffl: int = 0
    cp_arab: int = 0
    ffl_lost_captain: bool = False
    arab_lost_leader: bool = False
    casualties: int = 0  # Arab figures lost this attack
    total_casualties: int = 0
    ammo: str = "normal"
    ffl_low_water: bool = False
    arab_low_water: bool = False
    gate_damage: int = 0
    gate_destroyed: bool = False
    mines: int = 0
    patrols: bool = False
    stand_to: bool = False  # FFL precaution: the whole garrison is awake at each attack
    preparations: tuple[str, ...] = ()
    arab_infiltrations: int = 0
    ffl_infiltrations: int = 0
    alerted: bool = True  # the garrison is awake (sentries)
    tower_climb: tuple[str, int] = ("", 0)
    resolve_inside: bool = False
    resolve_oasis: bool = False
    act: Act = field(default_factory=Act)

    def unit(self, name: str) -> UnitState:
        for u in self.units:
            if u.name == name:
                return u
        raise KeyError(name)

    def with_unit(self, unit: UnitState) -> GameState:
        # a hero ignores wounds, and no unit has more wounded or heroes than men
        heroes = min(unit.heroes, max(unit.figures, 0))
        wounded = min(unit.wounded, max(unit.figures - heroes, 0))
        if (heroes, wounded) != (unit.heroes, unit.wounded):
            unit = replace(unit, heroes=heroes, wounded=wounded)
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def side_units(self, side: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.units if u.side == side and u.alive)

    def cp(self, side: str) -> int:
        return self.cp_ffl if side == "FFL" else self.cp_arab

    def with_cp(self, side: str, points: int) -> GameState:
        if side == "FFL":
            return replace(self, cp_ffl=points)
        return replace(self, cp_arab=points)
