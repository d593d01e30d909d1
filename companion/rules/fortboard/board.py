"""Questions about the board: who is where, how much room, what is damaged,
and which figures are in contact (melee) with the enemy."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.fortboard import tables
from companion.rules.fortboard.layout import BRIDGE, FOOT, Place
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Figure, GameState, pair_get

UNLIMITED = 10_000


def at(state: GameState, place: str, side: str | None = None) -> tuple[Figure, ...]:
    here = state.occupancy.get(place, ())
    if side is None:
        return here
    return tuple(f for f in here if f.side == side)


def alive(state: GameState, side: str) -> tuple[Figure, ...]:
    return tuple(f for f in state.figures if f.side == side)


def intact(state: GameState, place: str) -> int:
    """Spaces of a wall, tower, gate or building not yet hit."""
    p = state.layout.place(place)
    if not p.damageable:
        return UNLIMITED
    return max(0, p.spaces - pair_get(state.hits, place))


def weapon_lost(state: GameState, name: str) -> bool:
    weapon = next(w for w in state.layout.wall_weapons if w.name == name)
    return pair_get(state.weapon_hits, name) >= weapon.spaces or destroyed(state, weapon.wall)


def weapon_spaces(state: GameState, wall: str) -> int:
    """Spaces of the wall that its standing weapons take: no defender stands on them, and an
    attacker who lives through a weapon's fire lands there (1.5)."""
    return sum(
        w.spaces - pair_get(state.weapon_hits, w.name)
        for w in state.layout.wall_weapons
        if w.wall == wall and not weapon_lost(state, w.name)
    )


def defender_room_on_wall(state: GameState, wall: str) -> int:
    """Open spaces (not a weapon's) left for defenders; attackers stand on the weapon
    spaces first, so only those beyond them take open ones."""
    weapons = weapon_spaces(state, wall)
    attackers = len(at(state, wall, ATTACKER))
    open_spaces = intact(state, wall) - weapons
    return open_spaces - len(at(state, wall, DEFENDER)) - max(0, attackers - weapons)


def destroyed(state: GameState, place: str) -> bool:
    return state.layout.place(place).damageable and intact(state, place) == 0


def engine_intact(state: GameState, station: str) -> bool:
    """A ram or assault tower not yet destroyed (by hits or by fire)."""
    p = state.layout.place(station)
    if p.equipment not in ("ram", "assault_tower"):
        return False
    return pair_get(state.hits, station) < tables.ENGINE_HITS_TO_DESTROY


def raidable(state: GameState, station: str) -> bool:
    """Defenders outside may go to and fight at this station: any, unless the
    option `sortie_engines` keeps the crew of an unbroken engine safe (1.10)."""
    return bool(state.option("sortie_engines")) or not engine_intact(state, station)


def room(state: GameState, place: str, side: str) -> int:
    """How many more figures of `side` may stand in `place`."""
    p = state.layout.place(place)
    if p.kind in ("courtyard", FOOT):
        return UNLIMITED
    if p.kind in ("station", BRIDGE):
        if side == DEFENDER:
            return UNLIMITED if p.kind == "station" else 0
        return max(0, p.spaces - len(at(state, place, ATTACKER)))
    free = intact(state, place) - len(at(state, place))
    if p.kind == "wall" and side == DEFENDER:
        free = min(free, defender_room_on_wall(state, place))
    if p.kind == "tower" and side == DEFENDER:
        free = min(free, tables.TOWER_DEFENDER_LIMIT - len(at(state, place, DEFENDER)))
    return max(0, free)


def fort_penalty_flags(state: GameState) -> tuple[bool, bool]:
    """(barracks fallen, keep fallen or destroyed)."""
    return (
        "barracks" in state.fallen,
        bool({"keep", "keep_destroyed"} & state.fallen),
    )


def contacts(state: GameState) -> tuple[str, ...]:
    """Every melee contact on the board, in the order combat resolves them."""
    known = state.memo.get("contacts")
    if isinstance(known, tuple):
        return known
    found = _contacts(state)
    state.memo["contacts"] = found
    return found


def _fighting(state: GameState, place: str, side: str) -> tuple[Figure, ...]:
    """Figures of a side in a place who take part in combat this turn."""
    return tuple(f for f in at(state, place, side) if f.id not in state.busy)


def _contacts(state: GameState) -> tuple[str, ...]:
    layout = state.layout
    out: list[str] = []
    for p in layout.places:
        if p.kind in (FOOT, BRIDGE):
            continue
        if p.kind == "station" and not raidable(state, p.name):
            continue
        if _fighting(state, p.name, ATTACKER) and _fighting(state, p.name, DEFENDER):
            out.append(f"place:{p.name}")
    for wall in layout.names("wall"):
        if not destroyed(state, wall) and climbers(state, wall) and at(state, wall, DEFENDER):
            out.append(f"ladder:{wall}")
    for bridge in layout.names(BRIDGE):
        wall = layout.place(bridge).faces
        if (
            not destroyed(state, wall)
            and _fighting(state, bridge, ATTACKER)
            and _fighting(state, wall, DEFENDER)
        ):
            out.append(f"bridge:{bridge}")
    court = layout.courtyard
    if _fighting(state, court, DEFENDER):
        for tower in layout.names("tower"):
            if _fighting(state, tower, ATTACKER):
                out.append(f"corner:{tower}")
    # the defenders' storms first: where two full places face each other the pair is
    # left to the attackers' storm, which is still to come when they are fought
    for kind, side in (("retake", DEFENDER), ("storm", ATTACKER)):
        for p in layout.places:
            if _full_against(state, p.name, side) and stormers(state, p.name, side):
                out.append(f"{kind}:{p.name}")
    if _fighting(state, court, DEFENDER) and state.option("pike_over_rubble"):
        for wall in layout.names("wall"):
            foot = layout.foot_of(wall)
            if destroyed(state, wall) and any(f.kind == "pike" for f in at(state, foot, ATTACKER)):
                out.append(f"rubble:{wall}")
    return tuple(out)


def climbers(state: GameState, wall: str) -> tuple[Figure, ...]:
    """Attackers at a wall's foot who fight up the ladders (no horses on ladders)."""
    foot = state.layout.foot_of(wall)
    return tuple(f for f in _fighting(state, foot, ATTACKER) if f.kind != "mounted")


def ladder_defenders(state: GameState, wall: str, climbing: int) -> tuple[Figure, ...]:
    """The wall's defenders who meet `climbing` climbers: one each, fighters before
    missile figures (1.3). The others face no one, so their missile figures may shoot."""
    return melee_first(_fighting(state, wall, DEFENDER))[:climbing]


def _full_against(state: GameState, place: str, side: str) -> bool:
    """A place inside the fort that holds the enemy of `side` and has no room left for
    one more of `side`: the figures of `side` next to it fight from where they stand."""
    enemy = DEFENDER if side == ATTACKER else ATTACKER
    return (
        state.layout.place(place).inside
        and not destroyed(state, place)
        and room(state, place, side) < 1
        and bool(_fighting(state, place, enemy))
    )


def _could_step_in(figure: Figure, target: Place) -> bool:
    """Whether one step would take `figure` into `target` if it had room (movement):
    no horses onto walls or towers; of the defenders only horses go into the stables,
    and none into a tower the enemy holds (1.8: that is fought at its corner)."""
    if figure.kind == "mounted" and target.kind in ("wall", "tower"):
        return False
    if figure.side == DEFENDER:
        if target.kind == "tower":
            return False
        if target.kind == "stables" and figure.kind != "mounted":
            return False
    return True


def stormers(state: GameState, place: str, side: str = ATTACKER) -> tuple[Figure, ...]:
    """Figures of `side` in the places touching `place` who could step into it if it
    had room: when it is full they fight the enemy in it from where they stand (1.12,
    adjacent spaces). Two places full against each other fight once: defenders do not
    storm from a place that the attackers they would fight are storming already."""
    layout = state.layout
    target = layout.place(place)
    out: list[Figure] = []
    for name in target.adjacent:
        if side == DEFENDER and _stormed_from(state, name, place):
            continue
        out.extend(f for f in _fighting(state, name, side) if _could_step_in(f, target))
    return tuple(out)


def _stormed_from(state: GameState, place: str, by: str) -> bool:
    """Whether the attackers in `by` storm `place` this turn. In combat that is a storm
    still to come (settled as combat began: the defenders' storms are fought first, and
    a fight may open room or a ladder fill a wall meanwhile); before it, the board now."""
    target = state.layout.place(place)
    if not any(_could_step_in(f, target) for f in _fighting(state, by, ATTACKER)):
        return False
    if state.phase == "combat":
        return f"storm:{place}" in state.contacts
    return _full_against(state, place, ATTACKER)


def melee_first(figures: Sequence[Figure]) -> tuple[Figure, ...]:
    """Fighters step forward; missile figures stay behind them (1.11)."""
    return tuple(f for f in figures if f.kind not in tables.MISSILE_KINDS) + tuple(
        f for f in figures if f.kind in tables.MISSILE_KINDS
    )


def front_rank(state: GameState, bridge: str) -> tuple[Figure, ...]:
    """The attackers abreast at the end of a bridge (option `bridge_width`)."""
    width = state.option("bridge_width")
    assert isinstance(width, int)
    return melee_first(_fighting(state, bridge, ATTACKER))[:width]


def contact_sides(state: GameState, contact: str) -> tuple[tuple[Figure, ...], tuple[Figure, ...]]:
    """(attackers, defenders) of a contact, each in figure order (at a ladder the
    defenders stand fighters first)."""
    kind, _, name = contact.partition(":")
    layout = state.layout
    if kind == "place":
        return _fighting(state, name, ATTACKER), _fighting(state, name, DEFENDER)
    if kind == "ladder":
        below = climbers(state, name)
        return below, ladder_defenders(state, name, len(below))
    if kind == "bridge":
        # the bridge lands on one wall space: its front rank fights the man standing there
        wall = layout.place(name).faces
        return front_rank(state, name), _fighting(state, wall, DEFENDER)[:1]
    if kind == "corner":
        return _fighting(state, name, ATTACKER), _fighting(state, layout.courtyard, DEFENDER)
    if kind == "storm":
        return stormers(state, name), _fighting(state, name, DEFENDER)
    if kind == "retake":
        return _fighting(state, name, ATTACKER), stormers(state, name, DEFENDER)
    pikes = tuple(f for f in _fighting(state, layout.foot_of(name), ATTACKER) if f.kind == "pike")
    return pikes, _fighting(state, layout.courtyard, DEFENDER)


def contact_place(state: GameState, contact: str) -> str:
    return contact.partition(":")[2]


def engaged_ids(state: GameState) -> frozenset[int]:
    known = state.memo.get("engaged")
    if isinstance(known, frozenset):
        return known
    ids: set[int] = set()
    for c in contacts(state):
        a, d = contact_sides(state, c)
        ids.update(f.id for f in a)
        ids.update(f.id for f in d)
    found = frozenset(ids)
    state.memo["engaged"] = found
    return found


def safe_in_engine(state: GameState, figure: Figure) -> bool:
    """Figures in an unbroken ram or assault tower are safe from shots and wall weapons."""
    p = state.layout.place(figure.place)
    return p.kind == "station" and engine_intact(state, p.name)


def building_fallen(state: GameState, kind: str) -> bool:
    return kind in state.fallen


def leaving_allowance(state: GameState) -> int:
    """Defenders who may still leave the fort this move: one per empty space at
    the attacker's stations before the front wall (and the gate)."""
    layout = state.layout
    total = 0
    for station in layout.stations:
        target = layout.place(station).faces
        if target == layout.front or layout.place(target).kind == "gate":
            total += max(0, layout.place(station).spaces - len(at(state, station, ATTACKER)))
    return max(0, total - state.left_fort)
