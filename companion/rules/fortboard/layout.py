"""The fort as spaces: walls, towers, courtyard, buildings, gate and the
attacker's equipment stations, read from a scenario's [setup]."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from companion.rules.core import (
    ScenarioError,
    ScenarioValue,
    check_keys,
    check_setup_keys,
    listed_table,
)
from companion.rules.fortboard import tables

FOOT = "foot"  # the ground at the bottom of a wall, where ladders stand (derived)
BRIDGE = "bridge"  # an assault tower's lowered bridge, against the wall it faces (derived)
INSIDE_KINDS = frozenset({"wall", "tower", "courtyard", "barracks", "stables", "keep", "gate"})
BUILDING_KINDS = frozenset({"barracks", "stables", "keep"})
#: Buildings whose neighbouring wall spaces open into the courtyard (1.1, 1.6).
COURTYARD_DOORS = frozenset({"barracks", "stables"})


@dataclass(frozen=True)
class Place:
    """One space (or group of spaces) of the board."""

    name: str
    kind: str  # tables.PLACE_KINDS, FOOT or BRIDGE
    spaces: int  # 0 for the courtyard and the feet of walls: no limit
    adjacent: tuple[str, ...] = ()
    faces: str = ""  # stations, feet and bridges: the wall (or gate) they stand before
    equipment: str = ""  # stations: tables.EQUIPMENT_KINDS

    @property
    def inside(self) -> bool:
        return self.kind in INSIDE_KINDS

    @property
    def damageable(self) -> bool:
        return self.kind in {"wall", "tower", "gate"} | BUILDING_KINDS


def layout_foot(wall: str) -> str:
    return f"{wall} {FOOT}"


def layout_bridge(station: str) -> str:
    return f"{station} {BRIDGE}"


@dataclass(frozen=True)
class WallWeapon:
    name: str
    wall: str
    spaces: int


@dataclass(frozen=True)
class Layout:
    places: tuple[Place, ...]
    front: str  # the wall with the gate
    defender_artillery: tuple[str, ...]  # interior numbers 1 and 2
    wall_weapons: tuple[WallWeapon, ...]
    oil_vats: int
    turn_limit: int

    def place(self, name: str) -> Place:
        return self.index[name]

    @cached_property
    def index(self) -> dict[str, Place]:
        return {p.name: p for p in self.places}

    def names(self, *kinds: str) -> tuple[str, ...]:
        return tuple(p.name for p in self.places if p.kind in kinds)

    @property
    def stations(self) -> tuple[str, ...]:
        return self.names("station")

    @property
    def courtyard(self) -> str:
        return self.names("courtyard")[0]

    def building(self, kind: str) -> str | None:
        found = self.names(kind)
        return found[0] if found else None

    def neighbours(self, name: str) -> tuple[str, ...]:
        return self.place(name).adjacent

    def foot_of(self, wall: str) -> str:
        return layout_foot(wall)

    def bridge_of(self, station: str) -> str:
        return layout_bridge(station)

    def station_of_bridge(self, bridge: str) -> str:
        return bridge.removesuffix(f" {BRIDGE}")

    def wall_of_foot(self, foot: str) -> str:
        return self.place(foot).faces

    def stations_facing(self, target: str) -> tuple[str, ...]:
        return tuple(p.name for p in self.places if p.kind == "station" and p.faces == target)

    def gate(self) -> str:
        return self.names("gate")[0]

    @cached_property
    def labels(self) -> dict[str, str]:
        """Each place's name as the screen shows it: the feet of walls and the
        bridges of assault towers get short names of their own ("N wall foot",
        "E tower bridge") where no other place has that name or label."""
        wanted = {p.name: _short_name(self, p) for p in self.places}
        taken = [*wanted.values(), *wanted]
        return {name: label if taken.count(label) == 1 else name
                for name, label in wanted.items()}

    def label(self, name: str) -> str:
        return self.labels.get(name, name)

    def engine_name(self, station: str) -> str:
        """How the log names the engine at a station: the station's own name where it
        already says what stands there ("N catapult", "E siege tower"), or else
        "the ram at Gate road". Starts a sentence through `sentence`."""
        kind = self.place(station).equipment
        word = _ENGINE_WORDS.get(kind, "engine")
        if word.split()[-1] in station.lower().split():
            return station
        return f"the {word} at {station}"

    def wall_facing(self, station: str) -> str:
        """The wall a station stands before (a station at the gate: the front wall)."""
        faces = self.place(station).faces
        return self.front if self.place(faces).kind == "gate" else faces


# The last word is the one a station's name may already carry ("E siege tower").
_ENGINE_WORDS = {"catapult": "catapult", "ram": "ram", "assault_tower": "assault tower"}


def sentence(text: str) -> str:
    """Text with its first letter raised, to start a log line."""
    return text[:1].upper() + text[1:]


_COMPASS = {"North": "N", "East": "E", "South": "S", "West": "W"}


def _compass(name: str) -> str:
    """'North wall' -> 'N wall': the compass points as the stations write them."""
    first, space, rest = name.partition(" ")
    return f"{_COMPASS.get(first, first)}{space}{rest}"


def _short_name(layout: Layout, place: Place) -> str:
    if place.kind == FOOT:
        return f"{_compass(place.faces)} {FOOT}"
    if place.kind == BRIDGE:  # only an assault tower has one: "siege" says nothing more
        station = layout.station_of_bridge(place.name)
        return f"{station.replace('siege tower', 'tower')} {BRIDGE}"
    return place.name


# ------------------------------------------------------------------ parsing

SETUP_KEYS = ("turn_limit", "front", "places", "defender_artillery", "wall_weapons", "oil_vats")
PLACE_FIELDS = ("name", "kind", "spaces", "adjacent", "faces", "equipment")
WALL_WEAPON_FIELDS = ("name", "wall", "spaces")


def _field(where: str, entry: Mapping[str, ScenarioValue], name: str, kind: type) -> ScenarioValue:
    if name not in entry:
        raise ScenarioError(f"{where}: missing field {name!r}")
    value = entry[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ScenarioError(f"{where}: field {name!r} must be a whole number, got {value!r}")
    if kind is str and not isinstance(value, str):
        raise ScenarioError(f"{where}: field {name!r} must be text, got {value!r}")
    return value


def _str_list(where: str, value: ScenarioValue, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f"{where}: field {name!r} must be a list of names, got {value!r}")
    return tuple(str(v) for v in value)


def parse_layout(setup: Mapping[str, ScenarioValue]) -> Layout:
    """Read and check the fort layout; ScenarioError names the place and field."""
    check_setup_keys(setup, SETUP_KEYS)
    raw_places = setup.get("places")
    if not isinstance(raw_places, list) or not raw_places:
        raise ScenarioError(
            "[setup]: field 'places' must list the fort's spaces ([[setup.places]])"
        )
    entries: list[dict[str, ScenarioValue]] = []
    for index, raw in enumerate(raw_places, start=1):
        if not isinstance(raw, dict):
            raise ScenarioError(f"[setup] place {index}: must be a table with name, kind, spaces")
        check_keys(raw, PLACE_FIELDS, listed_table("place", raw, index))
        entries.append(raw)
    names: list[str] = []
    for index, entry in enumerate(entries, start=1):
        name = _field(f"[setup] place {index}", entry, "name", str)
        assert isinstance(name, str)
        if name in names:
            raise ScenarioError(f"place {name!r}: field 'name' is used twice")
        names.append(name)
    links: dict[str, set[str]] = {n: set() for n in names}
    kinds: dict[str, str] = {}
    for name, entry in zip(names, entries, strict=True):
        where = f"place {name!r}"
        kind = _field(where, entry, "kind", str)
        if kind not in tables.PLACE_KINDS:
            raise ScenarioError(
                f"{where}: field 'kind' is {kind!r}; allowed: {', '.join(tables.PLACE_KINDS)}"
            )
        assert isinstance(kind, str)
        kinds[name] = kind
        for other in _str_list(where, entry.get("adjacent", []), "adjacent"):
            if other not in links:
                raise ScenarioError(f"{where}: field 'adjacent' names unknown place {other!r}")
            if other == name:
                raise ScenarioError(f"{where}: field 'adjacent' names the place itself")
            links[name].add(other)
            links[other].add(name)
    for kind in ("courtyard", "gate"):
        count = sum(1 for k in kinds.values() if k == kind)
        if count != 1:
            raise ScenarioError(f"[setup] places: there must be exactly one {kind}, found {count}")
    for kind in BUILDING_KINDS:
        if sum(1 for k in kinds.values() if k == kind) > 1:
            raise ScenarioError(f"[setup] places: at most one {kind}")
    if not any(k == "wall" for k in kinds.values()):
        raise ScenarioError("[setup] places: the fort needs at least one wall")
    places: list[Place] = []
    for name, entry in zip(names, entries, strict=True):
        where = f"place {name!r}"
        kind = kinds[name]
        spaces = 0
        if kind != "courtyard":
            raw_spaces = _field(where, entry, "spaces", int)
            assert isinstance(raw_spaces, int)
            if not 1 <= raw_spaces <= 24:
                raise ScenarioError(f"{where}: field 'spaces' must be 1..24, got {raw_spaces}")
            spaces = raw_spaces
        faces = ""
        equipment = ""
        if kind == "station":
            raw_faces = _field(where, entry, "faces", str)
            assert isinstance(raw_faces, str)
            if kinds.get(raw_faces) not in ("wall", "gate"):
                raise ScenarioError(
                    f"{where}: field 'faces' must name a wall or the gate, got {raw_faces!r}"
                )
            faces = raw_faces
            raw_equipment = _field(where, entry, "equipment", str)
            if raw_equipment not in tables.EQUIPMENT_KINDS:
                raise ScenarioError(
                    f"{where}: field 'equipment' is {raw_equipment!r}; allowed: "
                    + ", ".join(tables.EQUIPMENT_KINDS)
                )
            assert isinstance(raw_equipment, str)
            equipment = raw_equipment
            if equipment == "assault_tower" and kinds[faces] != "wall":
                raise ScenarioError(f"{where}: an assault tower must face a wall, not the gate")
            if links[name]:
                raise ScenarioError(f"{where}: field 'adjacent' is for spaces inside the fort")
        places.append(Place(name, kind, spaces, (), faces, equipment))
    courtyard = next(n for n, k in kinds.items() if k == "courtyard")
    for place in places:
        if place.kind in ("tower", "keep", "barracks", "stables", "gate") and (
            courtyard not in links[place.name]
        ):
            raise ScenarioError(
                f"place {place.name!r}: field 'adjacent' must include the courtyard {courtyard!r}"
            )
        if place.kind == "wall":
            for other in sorted(links[place.name]):
                if kinds[other] not in ("wall", "tower", "barracks", "stables"):
                    raise ScenarioError(
                        f"place {place.name!r}: field 'adjacent' may not include {other!r}; a wall "
                        "leads into the fort only through a tower, the barracks or the stables"
                    )
    # the wall spaces beside the barracks or the stables open into the courtyard (1.1)
    for name, kind in kinds.items():
        if kind == "wall" and any(kinds[o] in COURTYARD_DOORS for o in links[name]):
            links[name].add(courtyard)
            links[courtyard].add(name)
    places = [replace(p, adjacent=tuple(sorted(links[p.name]))) for p in places]
    feet = [Place(layout_foot(p.name), FOOT, 0, (), p.name) for p in places if p.kind == "wall"]
    bridges = [
        Place(layout_bridge(p.name), BRIDGE, tables.ASSAULT_TOWER_DISPENSE, (), p.faces)
        for p in places
        if p.equipment == "assault_tower"
    ]
    for derived in feet + bridges:
        if derived.name in kinds:
            raise ScenarioError(
                f"place {derived.name!r}: field 'name' is taken by the box for a wall's foot "
                "or an assault tower's bridge; rename the place"
            )
    places += feet + bridges
    front = setup.get("front")
    if not isinstance(front, str) or kinds.get(front) != "wall":
        raise ScenarioError(
            f"[setup]: field 'front' must name the wall with the gate, got {front!r}"
        )
    artillery = _str_list("[setup]", setup.get("defender_artillery", []), "defender_artillery")
    if len(artillery) > 2 or len(set(artillery)) != len(artillery):
        raise ScenarioError(
            "[setup]: field 'defender_artillery' names at most two different weapons "
            "(the interior numbers 1 and 2)"
        )
    weapons: list[WallWeapon] = []
    raw_weapons = setup.get("wall_weapons", [])
    if not isinstance(raw_weapons, list):
        raise ScenarioError("[setup]: field 'wall_weapons' must be a list of tables")
    for index, raw_weapon in enumerate(raw_weapons, start=1):
        if not isinstance(raw_weapon, dict):
            raise ScenarioError(f"[setup] wall weapon {index}: must be a table")
        check_keys(raw_weapon, WALL_WEAPON_FIELDS, listed_table("wall weapon", raw_weapon, index))
        wname = _field(f"[setup] wall weapon {index}", raw_weapon, "name", str)
        where = f"wall weapon {wname!r}"
        wall = _field(where, raw_weapon, "wall", str)
        if kinds.get(str(wall)) != "wall":
            raise ScenarioError(f"{where}: field 'wall' must name a wall, got {wall!r}")
        wspaces = _field(where, raw_weapon, "spaces", int)
        assert isinstance(wname, str) and isinstance(wall, str) and isinstance(wspaces, int)
        wall_spaces = next(p.spaces for p in places if p.name == wall)
        if not 1 <= wspaces <= wall_spaces:
            raise ScenarioError(f"{where}: field 'spaces' must be 1..{wall_spaces}, got {wspaces}")
        if any(w.name == wname for w in weapons):
            raise ScenarioError(f"{where}: field 'name' is used twice")
        weapons.append(WallWeapon(wname, wall, wspaces))
    # one vat for each assault tower unless the scenario says otherwise (1.11)
    oil = setup.get("oil_vats", len(bridges))
    if isinstance(oil, bool) or not isinstance(oil, int) or oil < 0:
        raise ScenarioError(
            f"[setup]: field 'oil_vats' must be a whole number 0 or more, got {oil!r}"
        )
    turn_limit = setup.get("turn_limit")
    if isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or not 1 <= turn_limit <= 50:
        raise ScenarioError(f"[setup]: field 'turn_limit' must be 1..50, got {turn_limit!r}")
    return Layout(tuple(places), front, artillery, tuple(weapons), oil, turn_limit)


def validate_figure_place(
    layout: Layout, unit: str, side_role: str, kind: str, place_name: str, count: int
) -> None:
    """Where a unit may be set up (1.1): defenders inside, attackers outside."""
    where = f"unit {unit!r}"
    try:
        place = layout.place(place_name)
    except KeyError:
        raise ScenarioError(
            f"{where}: field 'traits.place' names unknown place {place_name!r}"
        ) from None
    if side_role == "defender" and not place.inside:
        raise ScenarioError(
            f"{where}: field 'traits.place' {place_name!r} is outside; defenders start inside"
        )
    if side_role == "attacker" and place.inside:
        raise ScenarioError(
            f"{where}: field 'traits.place' {place_name!r} is inside; attackers start at a "
            "station or the foot of a wall"
        )
    if place.kind == BRIDGE:
        raise ScenarioError(
            f"{where}: field 'traits.place' {place_name!r} is a bridge; set the figures in "
            "the assault tower's station"
        )
    if kind == "mounted" and place.kind in ("wall", "tower", FOOT):
        raise ScenarioError(
            f"{where}: mounted figures cannot stand on walls, towers or a wall's foot"
        )
    if place.kind == "stables" and kind != "mounted":
        raise ScenarioError(f"{where}: only mounted figures are kept in the stables")
    if place.kind == "gate":
        raise ScenarioError(f"{where}: set figures on the walls or in the courtyard, not the gate")
    _ = count
