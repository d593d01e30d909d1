"""The game state: immutable, compared by value, rebuilt by replaying inputs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from companion.rules.fortboard.layout import Layout

ATTACKER = "attacker"
DEFENDER = "defender"


@dataclass(frozen=True)
class Figure:
    """One figure on the board. Units are how the scenario sets figures up;
    the figures of a unit may later stand in different places."""

    id: int
    unit: str
    number: int  # 1.. within its unit
    side: str  # ATTACKER or DEFENDER
    kind: str
    place: str
    wounded: bool = False
    free_move: bool = False  # an attacker whose piece was destroyed: re-placed without a 6
    may_return: bool = False  # a defender outside who has earned the way back in

    @property
    def label(self) -> str:
        return f"{self.unit} #{self.number}"


@dataclass(frozen=True)
class Ask:
    """What the game waits for (top of the stack) or does next by itself."""

    kind: str
    args: tuple[str, ...] = ()
    ids: tuple[int, ...] = ()
    more: tuple[int, ...] = ()


Pairs = tuple[tuple[str, int], ...]


def pair_get(pairs: Pairs, key: str, default: int = 0) -> int:
    for k, v in pairs:
        if k == key:
            return v
    return default


def pair_set(pairs: Pairs, key: str, value: int) -> Pairs:
    out = {k: v for k, v in pairs}
    out[key] = value
    return tuple(sorted(out.items()))


def pair_drop(pairs: Pairs, key: str) -> Pairs:
    return tuple((k, v) for k, v in pairs if k != key)


@dataclass(frozen=True)
class GameState:
    layout: Layout
    options: tuple[tuple[str, bool | int | str], ...]
    sides: tuple[str, str]  # attacker's name, defender's name
    title: str
    figures: tuple[Figure, ...]
    turn: int = 1
    phase: str = ATTACKER  # ATTACKER, DEFENDER or "combat"
    hits: Pairs = ()  # damage by place (walls, towers, gate, buildings) and engines (stations)
    weapon_hits: Pairs = ()
    aims: Pairs = ()  # defender weapon -> first station its numbers cover
    guns_lost: frozenset[str] = frozenset()
    burning: Pairs = ()  # assault tower station -> turns burnt
    oil_left: int = 0
    oiled: frozenset[str] = frozenset()  # assault towers that have had their vat of oil
    fallen: frozenset[str] = frozenset()  # "barracks", "stables", "keep", "keep_destroyed"
    moved: frozenset[int] = frozenset()
    fired: frozenset[int] = frozenset()
    used: frozenset[str] = frozenset()  # things done once a move ("shoot:N catapult")
    spent: frozenset[str] = frozenset()  # things done once a turn (a wall weapon's firing)
    busy: frozenset[int] = frozenset()  # figures who gave up this turn's combat (dousing)
    left_fort: int = 0
    contacts: tuple[str, ...] = ()
    stack: tuple[Ask, ...] = ()
    lost: Pairs = ()  # figures killed, by side
    winner: str | None = None
    over: bool = False
    end_reason: str = ""
    next_id: int = field(default=0)

    @cached_property
    def occupancy(self) -> dict[str, tuple[Figure, ...]]:
        """Figures by place (computed once per state; states never change)."""
        out: dict[str, list[Figure]] = {}
        for f in self.figures:
            out.setdefault(f.place, []).append(f)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def memo(self) -> dict[str, object]:
        """Scratch space for answers derived from this state alone."""
        return {}

    def option(self, name: str) -> bool | int | str:
        for k, v in self.options:
            if k == name:
                return v
        raise KeyError(name)

    @property
    def top(self) -> Ask:
        return self.stack[-1]

    def push(self, *asks: Ask) -> GameState:
        """Push asks; the last given is done first."""
        return replace(self, stack=self.stack + asks)

    def pop(self) -> GameState:
        return replace(self, stack=self.stack[:-1])

    def figure(self, fid: int) -> Figure | None:
        for f in self.figures:
            if f.id == fid:
                return f
        return None

    def side_name(self, side: str) -> str:
        return self.sides[0] if side == ATTACKER else self.sides[1]

    def with_figure(self, figure: Figure) -> GameState:
        return replace(
            self, figures=tuple(figure if f.id == figure.id else f for f in self.figures)
        )

    def without_figure(self, fid: int) -> GameState:
        gone = self.figure(fid)
        if gone is None:
            return self
        lost = pair_set(self.lost, gone.side, pair_get(self.lost, gone.side) + 1)
        return replace(self, figures=tuple(f for f in self.figures if f.id != fid), lost=lost)
