"""Scenario validation: the fort layout, the units and where they start,
the named options, and the set-up limit (1.1)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import (
    RuleOption,
    Scenario,
    ScenarioError,
    ScenarioValue,
    Unit,
    check_keys,
    check_scenario_fields,
    check_unit_fields,
    option_values,
    scenario_sides,
    scenario_table,
)
from companion.rules.fortboard import tables
from companion.rules.fortboard.layout import Layout, parse_layout, validate_figure_place

SYSTEM = "fortboard"

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "wall_to_hit",
        "How artillery and rams hit a wall or the gate: 'beat_intact' uses the tower rule "
        "(2d6 over the spaces still undamaged); 'automatic' makes every shot a hit.",
        "beat_intact",
        ("beat_intact", "automatic"),
    ),
    RuleOption(
        "ladder_climb",
        "When a climber takes a defended wall space: 'beat_defender' as soon as he wins a "
        "fight (the beaten defender falls back to the courtyard); 'kill_defender' only when "
        "the defender he fought is killed.",
        "beat_defender",
        ("beat_defender", "kill_defender"),
    ),
    RuleOption(
        "ladder_gang_up",
        "Climbers at a wall's foot beyond one for each defender on the wall: false, they wait "
        "in line on the ladders behind those fighting; true, they gang up on the defenders "
        "like any figures left over in a melee.",
        False,
        (True, False),
    ),
    RuleOption(
        "breach_entry",
        "A wall with every space hit, or a broken gate, lets attackers at its foot climb "
        "the rubble into the courtyard (false: rubble only blocks).",
        True,
        (True, False),
    ),
    RuleOption(
        "pike_over_rubble",
        "The source's optional rule: pikes at the foot of a fallen wall may fight defenders "
        "in the courtyard across one space of rubble.",
        False,
        (True, False),
    ),
    RuleOption(
        "station_hit",
        "What a defender artillery hit does to figures at a station with no ram or assault "
        "tower: 'kill_one' removes a figure; 'wound_one' wounds one (a second wound kills).",
        "kill_one",
        ("kill_one", "wound_one"),
    ),
    RuleOption(
        "wall_weapon_value",
        "The combat value a wall weapon adds to its die (the rules give none; 3 is a "
        "soldier's basic value).",
        3,
        (2, 3, 4),
    ),
    RuleOption(
        "weapon_reach",
        "How many figures below a wall weapon reaches: 'standing_spaces' one per space of it "
        "not yet hit by artillery; 'all_spaces' one per space it was set up on, until it is "
        "destroyed.",
        "standing_spaces",
        ("standing_spaces", "all_spaces"),
    ),
    RuleOption(
        "wall_hit_wounds",
        "A hit on a wall space with figures on it rolls 3+ to wound one, as in a tower.",
        True,
        (True, False),
    ),
    RuleOption(
        "catapult_reach",
        "What an attacker's catapult may shoot at (the rules do not say): 'facing' the wall "
        "(or gate) its station stands before, that wall's towers and, by a random roll, the "
        "fort's interior; 'any' wall, tower or the gate.",
        "facing",
        ("facing", "any"),
    ),
    RuleOption(
        "station_range",
        "Shots between the fort and the attacker's stations: 'no_bearing' uses the basic "
        "numbers (6, crossbows 5-6) since distance from the walls has no bearing (1.2); 'ask' "
        "asks the distance in spaces as for shots inside the fort.",
        "no_bearing",
        ("no_bearing", "ask"),
    ),
    RuleOption(
        "replacement_roll",
        "Attacker infantry re-placed outside: 'per_group' one d6 for the figures of a unit "
        "moving together (6: all go); 'per_figure' a d6 each (each 6 goes).",
        "per_group",
        ("per_group", "per_figure"),
    ),
    RuleOption(
        "disengage",
        "A figure in melee may move away only into a place 'clear_of_all' figures, friend or "
        "foe (1.12 read literally), or only one 'clear_of_enemy'.",
        "clear_of_all",
        ("clear_of_all", "clear_of_enemy"),
    ),
    RuleOption(
        "buildings_fall",
        "When the barracks, stables or keep fall to an enemy standing in them with no "
        "defender: at the 'end_of_turn', after combat (the defender may still come back to "
        "fight), or 'at_once'.",
        "end_of_turn",
        ("end_of_turn", "at_once"),
    ),
    RuleOption(
        "sortie_engines",
        "Defenders who leave the fort may attack the crew inside an unbroken ram or assault "
        "tower (1.7: any attacker equipment); false: those crews are safe until the engine is "
        "destroyed (1.10).",
        True,
        (True, False),
    ),
    RuleOption(
        "bridge_width",
        "Figures abreast on an assault tower's bridge: the front rank that fights the one "
        "defender where the bridge lands (the rules assume at least 2).",
        2,
        (2, 3, 4),
    ),
    RuleOption(
        "weapon_on_climbers",
        "A wall weapon may fire at attackers climbing its wall by ladder, in the attacker's "
        "move (once a turn in all); false: it fires only in the defender's move.",
        True,
        (True, False),
    ),
    RuleOption(
        "victory",
        "'keep_or_wipeout': the attacker wins by taking the keep or leaving no defender; "
        "'wipeout': only by leaving no defender. The defender wins by outlasting the turn limit "
        "or leaving no attacker.",
        "keep_or_wipeout",
        ("keep_or_wipeout", "wipeout"),
    ),
)


UNIT_TRAITS = ("place",)


def _units(raw: Mapping[str, ScenarioValue], sides: tuple[str, str]) -> tuple[Unit, ...]:
    raw_units = raw.get("units")
    if not isinstance(raw_units, list) or not raw_units:
        raise ScenarioError("the scenario needs [[units]]")
    units: list[Unit] = []
    for index, entry in enumerate(raw_units, start=1):
        if not isinstance(entry, dict):
            raise ScenarioError(f"unit {index}: must be a table")
        check_unit_fields(entry, index, chips=False)
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ScenarioError(f"unit {index}: field 'name' must be text")
        where = f"unit {name!r}"
        if any(u.name == name for u in units):
            raise ScenarioError(f"{where}: field 'name' is used twice")
        if "@" in name or ":" in name:
            raise ScenarioError(f"{where}: field 'name' may not contain '@' or ':'")
        side = entry.get("side")
        if side not in sides:
            raise ScenarioError(f"{where}: field 'side' is {side!r}; allowed: {', '.join(sides)}")
        kind = entry.get("kind")
        if kind not in tables.FIGURE_KINDS:
            raise ScenarioError(
                f"{where}: field 'kind' is {kind!r}; allowed: {', '.join(tables.FIGURE_KINDS)}"
            )
        figures = entry.get("figures")
        if isinstance(figures, bool) or not isinstance(figures, int) or not 1 <= figures <= 40:
            raise ScenarioError(f"{where}: field 'figures' must be 1..40, got {figures!r}")
        weapons = entry.get("weapons", [])
        if not isinstance(weapons, list) or not all(isinstance(w, str) for w in weapons):
            raise ScenarioError(f"{where}: field 'weapons' must be a list of names")
        traits = entry.get("traits", {})
        if not isinstance(traits, dict):
            raise ScenarioError(f"{where}: field 'traits' must be a table")
        check_keys(traits, UNIT_TRAITS, where, "trait")
        if not isinstance(traits.get("place"), str):
            raise ScenarioError(f"{where}: field 'traits.place' must name where the unit starts")
        leader = entry.get("leader")
        assert isinstance(side, str) and isinstance(kind, str)
        units.append(
            Unit(
                name=name,
                side=side,
                kind=kind,
                figures=figures,
                weapons=tuple(str(w) for w in weapons),
                leader=leader if isinstance(leader, str) else None,
                traits=dict(traits),
            )
        )
    return tuple(units)


def unit_place(unit: Unit) -> str:
    place = unit.traits["place"]
    assert isinstance(place, str)
    return place


def check_setup(layout: Layout, units: tuple[Unit, ...], sides: tuple[str, str]) -> None:
    """Every unit stands where it may, no space is over-full, and the defenders
    number at most three quarters of the attacker's infantry."""
    attacker, _defender = sides
    filled: dict[tuple[str, str], int] = {}
    for unit in units:
        role = "attacker" if unit.side == attacker else "defender"
        place = unit_place(unit)
        validate_figure_place(layout, unit.name, role, unit.kind, place, unit.figures)
        filled[(place, role)] = filled.get((place, role), 0) + unit.figures
    for (place_name, role), count in filled.items():
        where = layout.place(place_name)
        limit = where.spaces if where.spaces else None
        if where.kind == "tower" and role == "defender":
            limit = min(where.spaces, tables.TOWER_DEFENDER_LIMIT)
        if where.kind == "station" and role == "defender":
            limit = None
        others = sum(c for (p, r), c in filled.items() if p == place_name and r != role)
        if limit is not None and count + others > limit:
            raise ScenarioError(
                f"place {place_name!r}: {count + others} figures set up but it holds {limit}"
            )
        weapons = sum(w.spaces for w in layout.wall_weapons if w.wall == place_name)
        if role == "defender" and weapons and count > where.spaces - weapons:
            raise ScenarioError(
                f"place {place_name!r}: {count} defenders set up, but its wall weapons take "
                f"{weapons} of its {where.spaces} spaces and no defender stands on those (1.5)"
            )
    infantry = sum(u.figures for u in units if u.side == attacker and u.kind in tables.FOOT_KINDS)
    defenders = sum(u.figures for u in units if u.side != attacker)
    if defenders == 0 or infantry == 0:
        raise ScenarioError("both sides need figures (units: field 'side')")
    if defenders * tables.SETUP_LIMIT_DENOMINATOR > infantry * tables.SETUP_LIMIT_NUMERATOR:
        raise ScenarioError(
            f"units: {defenders} defenders are more than 3/4 of the attacker's {infantry} "
            "infantry (field 'figures')"
        )


def load_scenario(raw: Mapping[str, ScenarioValue]) -> Scenario:
    check_scenario_fields(raw)
    if raw.get("system") != SYSTEM:
        raise ScenarioError(f"field 'system' must be {SYSTEM!r}, got {raw.get('system')!r}")
    title = raw.get("title")
    if title is None:
        raise ScenarioError("field 'title' is missing")
    if not isinstance(title, str) or not title:
        raise ScenarioError(f"field 'title' must be text, got {title!r}")
    sides = scenario_sides(raw, order="the attacker first, then the fort's defender")
    setup = scenario_table(raw, "setup")
    options = option_values(OPTIONS, scenario_table(raw, "options"))
    layout = parse_layout(setup)
    units = _units(raw, sides)
    check_setup(layout, units, sides)
    notes = raw.get("notes", "")
    return Scenario(
        system=SYSTEM,
        title=title,
        sides=sides,
        units=units,
        options=options,
        setup=dict(setup),
        notes=notes if isinstance(notes, str) else "",
    )


def layout_of(scenario: Scenario) -> Layout:
    return parse_layout(scenario.setup)
