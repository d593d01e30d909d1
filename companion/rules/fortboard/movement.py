"""Movement: where a group may go, re-placement on a 6, climbing, leaving the
fort and coming back, healing in the barracks, and falling back when a space
is knocked down. (1.1, 1.3, 1.6, 1.7, 1.8, 1.12.3)"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.fortboard import board
from companion.rules.fortboard.layout import BRIDGE, FOOT
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Figure, GameState

CLIMB = "climb"  # foot of a wall onto the wall (ladders), defenders may shoot first
STEP = "step"  # one step inside the fort (or down from a wall)
REPLACE = "replace"  # an attacker picked up and placed elsewhere outside: needs a 6
FREE = "free"  # no roll: an attacker whose piece was destroyed, or a defender outside
LEAVE = "leave"  # a defender leaving the fort to attack a station
RETURN = "return"  # a defender outside coming back in
BREACH = "breach"  # over a fallen wall or through a broken gate into the courtyard


@dataclass(frozen=True)
class Destination:
    place: str
    how: str


def group(state: GameState, unit: str, place: str) -> tuple[Figure, ...]:
    """The figures of a unit in one place that have not moved this phase."""
    return tuple(
        f for f in state.figures if f.unit == unit and f.place == place and f.id not in state.moved
    )


def _inside_steps(state: GameState, figures: tuple[Figure, ...], place: str) -> list[Destination]:
    layout = state.layout
    side = figures[0].side
    mounted = figures[0].kind == "mounted"
    out: list[Destination] = []
    for name in layout.neighbours(place):
        target = layout.place(name)
        if board.destroyed(state, name) or board.room(state, name, side) < 1:
            continue
        if mounted and target.kind in ("wall", "tower"):
            continue
        if target.kind == "stables" and not mounted and side == DEFENDER:
            continue
        if side == DEFENDER and target.kind == "tower" and board.at(state, name, ATTACKER):
            continue  # the corner space is the enemy's: the tower cannot be regained
        out.append(Destination(name, STEP))
    if side == ATTACKER and layout.place(place).kind == "wall":
        out.append(Destination(layout.foot_of(place), STEP))
    return out


def _outside_places(state: GameState, figures: tuple[Figure, ...], exclude: str) -> list[str]:
    """Places outside the fort a group may be set in: the feet of the walls
    first (only foot soldiers of the attacker climb ladders), then stations with room."""
    layout = state.layout
    side = figures[0].side
    feet = []
    if side == ATTACKER and figures[0].kind != "mounted":
        feet = [p.name for p in layout.places if p.kind == FOOT and p.name != exclude]
    stations = [
        s
        for s in layout.stations
        if s != exclude
        and board.room(state, s, side) > 0
        and (side == ATTACKER or board.raidable(state, s))
    ]
    return feet + stations


def destinations(state: GameState, unit: str, place: str) -> tuple[Destination, ...]:
    """Where a group may go. A group in melee may only disengage into a place
    clear of troops (option `disengage`: of any, or of the enemy) (1.12);
    climbers may still take empty wall spaces."""
    found = _destinations(state, unit, place)
    figures = group(state, unit, place)
    if not figures or not {f.id for f in figures} & board.engaged_ids(state):
        return found
    enemy = DEFENDER if figures[0].side == ATTACKER else ATTACKER
    anyone = state.option("disengage") == "clear_of_all"
    return tuple(
        d
        for d in found
        if d.how == CLIMB or not board.at(state, d.place, None if anyone else enemy)
    )


def _destinations(state: GameState, unit: str, place: str) -> tuple[Destination, ...]:
    figures = group(state, unit, place)
    if not figures:
        return ()
    layout = state.layout
    here = layout.place(place)
    side = figures[0].side
    out: list[Destination] = []
    if side == DEFENDER:
        if here.inside:
            out.extend(_inside_steps(state, figures, place))
            gate = layout.gate()
            near_gate = place == gate or gate in layout.neighbours(place)
            mounted_barred = figures[0].kind == "mounted" and board.building_fallen(
                state, "stables"
            )
            if near_gate and board.leaving_allowance(state) > 0 and not mounted_barred:
                out.extend(
                    Destination(s, LEAVE)
                    for s in layout.stations
                    if board.at(state, s, ATTACKER) and board.raidable(state, s)
                )
        else:
            out.extend(Destination(s, FREE) for s in _outside_places(state, figures, place))
            if any(f.may_return for f in figures):
                gate = layout.gate()
                back = gate if board.room(state, gate, DEFENDER) > 0 else layout.courtyard
                out.append(Destination(back, RETURN))
        return tuple(out)
    if here.inside:
        out.extend(_inside_steps(state, figures, place))
        return tuple(out)
    if here.kind == BRIDGE:
        wall = here.faces
        if not board.destroyed(state, wall) and board.room(state, wall, ATTACKER) > 0:
            out.append(Destination(wall, STEP))
        station = layout.station_of_bridge(place)
        if board.engine_intact(state, station) and board.room(state, station, ATTACKER) > 0:
            out.append(Destination(station, STEP))
        return tuple(out)
    # only infantry need the 6 (1.1); mounted ride where they wish
    how = FREE if all(f.free_move or f.kind == "mounted" for f in figures) else REPLACE
    if here.kind == FOOT:
        wall = here.faces
        if (
            not board.destroyed(state, wall)
            and board.room(state, wall, ATTACKER) > 0
            and figures[0].kind != "mounted"
        ):
            out.append(Destination(wall, CLIMB))
        gate_broken = wall == layout.front and board.destroyed(state, layout.gate())
        if state.option("breach_entry") and (board.destroyed(state, wall) or gate_broken):
            out.append(Destination(layout.courtyard, BREACH))
    out.extend(Destination(p, how) for p in _outside_places(state, figures, place))
    return tuple(out)


def movers(state: GameState, unit: str, place: str, dest: Destination) -> tuple[Figure, ...]:
    """The figures that actually go: as many as there is room for."""
    figures = group(state, unit, place)
    if dest.how == RETURN:
        figures = tuple(f for f in figures if f.may_return)
    side = figures[0].side if figures else DEFENDER
    limit = board.room(state, dest.place, side)
    if dest.how == LEAVE:
        limit = min(limit, board.leaving_allowance(state))
    return figures[:limit]


def place_figures(
    state: GameState, figures: tuple[Figure, ...], dest: str, how: str
) -> tuple[GameState, list[str]]:
    """Move figures into `dest`, healing where the rules heal, and log it."""
    log: list[str] = []
    layout = state.layout
    target = layout.place(dest)
    heal_in_barracks = target.kind == "barracks" and not board.building_fallen(state, "barracks")
    heal_at_station = (
        figures
        and figures[0].side == ATTACKER
        and target.kind == "station"
        and how in (REPLACE, FREE)
    )
    healed = 0
    for f in figures:
        current = state.figure(f.id)
        if current is None:
            continue
        wounded = current.wounded
        if wounded and (heal_in_barracks or heal_at_station):
            wounded = False
            healed += 1
        state = state.with_figure(replace(current, place=dest, wounded=wounded, free_move=False))
    if how == LEAVE:
        state = replace(state, left_fort=state.left_fort + len(figures))
    if how == RETURN:
        for f in figures:
            current = state.figure(f.id)
            if current is not None:
                state = state.with_figure(replace(current, may_return=False))
    state = replace(state, moved=state.moved | {f.id for f in figures})
    if figures:
        log.append(f"{figures[0].unit}: {len(figures)} to {dest}")
    if healed:
        log.append(f"{healed} wounded healed at {dest}")
    return state, log


def fall_back_place(state: GameState, figure: Figure) -> str:
    """Where a figure goes when its space is knocked down or it is pushed off a wall."""
    layout = state.layout
    here = layout.place(figure.place)
    if figure.side == ATTACKER and here.kind == "wall":
        return layout.foot_of(here.name)
    if figure.side == ATTACKER and here.kind == "tower":
        # a fallen tower is a heap of rubble, no way into the fort (1.4.2): its attackers
        # go back down outside, at the foot of a wall it joins
        walls = [n for n in layout.neighbours(here.name) if layout.place(n).kind == "wall"]
        if walls:
            return layout.foot_of(walls[0])
    return layout.courtyard


def displace(
    state: GameState, place: str, defenders_on_open_spaces: bool = True
) -> tuple[GameState, list[str]]:
    """Figures beyond a damaged space's room fall back (all of them if it is gone), and on
    a wall defenders beyond its open spaces (a weapon's spaces hold none)."""
    log: list[str] = []
    p = state.layout.place(place)
    if not p.damageable:
        return state, log

    def over() -> Figure | None:
        if len(board.at(state, place)) > board.intact(state, place):
            return board.at(state, place)[-1]
        if (p.kind == "wall" and defenders_on_open_spaces
                and board.defender_room_on_wall(state, place) < 0):
            return board.at(state, place, DEFENDER)[-1]
        return None

    while (figure := over()) is not None:
        back = fall_back_place(state, figure)
        state = state.with_figure(replace(figure, place=back))
        log.append(f"{figure.label} falls back to {back}")
    return state, log
