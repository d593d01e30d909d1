"""Scenario checking for Fighting Swashbucklers, and the named rule options.

Units are squads of up to four men (`kind` infantry, cavalry, machine_gun,
cannon) plus one `commander` a side (the commanding officer, one figure).
Foot squads name their pose in traits; a `leader` is an under-officer whose
type is diced at the start unless `traits.leader_type` fixes it.
"""

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
    check_setup_keys,
    check_unique_names,
    check_unit_fields,
    option_values,
    scenario_sides,
)
from companion.rules.fighting_swashbucklers import fire, melee, tables
from companion.rules.fighting_swashbucklers.dice import D10_ZERO_READINGS, DOUBLE_ZERO_READINGS

SYSTEM = "fighting_swashbucklers"

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "d10_zero",
        'How a lone d10\'s 0 reads: "10" (the die runs 1-10) or "0" (0-9).',
        "10",
        D10_ZERO_READINGS,
    ),
    RuleOption(
        "double_zero",
        'How a percentile "00" reads: "100" (the charts run 01 to 100) or "0".',
        "100",
        DOUBLE_ZERO_READINGS,
    ),
    RuleOption(
        "failure_markers",
        "A failed test's markers only lower the ML for later tests this half-turn "
        '("lower_ml"), or also call for another test at once ("test_again").',
        "lower_ml",
        ("lower_ml", "test_again"),
    ),
    RuleOption(
        "marker_duration",
        "Markers keep lowering a squad's ML until the end of the half-turn "
        '("half_turn"), or are cleared once the squad has taken its test ("until_tested"; '
        "a failed test's own markers then count at its next test).",
        "half_turn",
        ("half_turn", "until_tested"),
    ),
    RuleOption(
        "second_action_roll",
        'One second-action roll for the whole side each turn ("per_side") or one per unit.',
        "per_side",
        ("per_side", "per_unit"),
    ),
    RuleOption(
        "frontal_cavalry_stress",
        "Cavalry charging infantry frontally: the cavalry tests under stress (as in "
        'the playtest, "cavalry") or the infantry does ("infantry").',
        "cavalry",
        ("cavalry", "infantry"),
    ),
    RuleOption(
        "failed_charge",
        'A charger that fails its stress test stops short ("halts") or still goes in.',
        "halts",
        ("halts", "goes_in"),
    ),
    RuleOption(
        "mg_crew",
        "Men on the machine gun itself; the rest of the squad fire rifles.",
        1,
        fire.MACHINE_GUN_CREWS,
    ),
    RuleOption(
        "cavalry_fire_factor",
        "Markers mounted cavalry place when they fire (0: cavalry do not fire).",
        1,
        fire.CAVALRY_FIRE_FACTORS,
    ),
    RuleOption(
        "commander_factor",
        "The commanding officer's melee value: 12 (section 6) or 10 (the playtest's "
        "12 with the +2 advantage).",
        tables.COMMANDER_MELEE_FACTOR,
        melee.COMMANDER_FACTORS,
    ),
    RuleOption(
        "captured_commander",
        'A captured commanding officer ends the game ("ends_game") or leaves his side '
        'playing on with no CP ("cp_zero").',
        "ends_game",
        ("ends_game", "cp_zero"),
    ),
    RuleOption(
        "threefold_rout",
        'A threefold win routs the beaten man ("man") or, on the deciding pairing, the '
        'whole losing unit ("unit").',
        melee.ROUT_BY_MAN,
        melee.THREEFOLD_ROUT_READINGS,
    ),
    RuleOption(
        "loser_in_later_melee",
        "A unit in two contacts that loses the first melee still fights the second "
        '("fights"), or its withdrawal breaks the second contact ("breaks_off").',
        "fights",
        ("fights", "breaks_off"),
    ),
    RuleOption(
        "lost_squad_rally",
        "A squad with no one left on the field comes back only whole, beside the "
        'commanding officer ("whole"), or a man at a time ("by_man").',
        "whole",
        ("whole", "by_man"),
    ),
    RuleOption(
        "ranger_landing",
        "Hyper-Space Rangers land in their side's next turn, as the two-turn trip in the "
        'source has it ("next_turn"), or may stay airborne until the player lands them '
        '("when_chosen").',
        "next_turn",
        ("next_turn", "when_chosen"),
    ),
    RuleOption(
        "cannon_rough_terrain",
        'A cannon has no formation, so no rough-terrain roll ("no_roll"), or rolls as a '
        'line does ("rolls").',
        "no_roll",
        ("no_roll", "rolls"),
    ),
    RuleOption(
        "column_defensive_fire",
        "A foot column that provoked cavalry advance into deploys into line to give its "
        'defensive fire ("deploys"), or, unable to fire in column, gives none ("none").',
        "deploys",
        ("deploys", "none"),
    ),
)

UNIT_TRAITS = ("pose", "formation", "leader_type")
OBJECTIVE_FIELDS = ("name", "points")

SQUAD_KINDS: tuple[str, ...] = (
    tables.INFANTRY,
    tables.CAVALRY,
    tables.MACHINE_GUN,
    tables.CANNON,
)


def _fail(where: str, message: str) -> ScenarioError:
    return ScenarioError(f"{where}: {message}")


def _as_str(value: ScenarioValue | None, where: str, default: str | None = None) -> str:
    if value is None:
        if default is None:
            raise _fail(where, "is missing; give a text value")
        return default
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"must be a non-empty text, got {value!r}")
    return value


def _as_int(
    value: ScenarioValue | None, where: str, low: int, high: int, default: int | None = None
) -> int:
    if value is None:
        if default is None:
            raise _fail(where, f"is missing; give a whole number {low}..{high}")
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number {low}..{high}, got {value!r}")
    return value


def _as_table(value: ScenarioValue | None, where: str) -> dict[str, ScenarioValue]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(where, "must be a table")
    return value


def _check_unit(raw: ScenarioValue, index: int, sides: tuple[str, ...]) -> Unit:
    if not isinstance(raw, dict):
        raise _fail(f"unit {index}", "must be a table")
    check_unit_fields(raw, index, chips=False)
    name = _as_str(raw.get("name"), f"unit {index} name")
    where = f"unit {name!r}"
    side = _as_str(raw.get("side"), f"{where} side")
    if side not in sides:
        raise _fail(f"{where} side", f"is {side!r}; allowed: {', '.join(sides)}")
    kind = _as_str(raw.get("kind"), f"{where} kind")
    if kind not in tables.UNIT_KINDS:
        raise _fail(f"{where} kind", f"is {kind!r}; allowed: {', '.join(tables.UNIT_KINDS)}")
    high = 1 if kind == tables.COMMANDER else tables.SQUAD_SIZE
    figures = _as_int(raw.get("figures"), f"{where} figures", 1, high)
    weapons_raw = raw.get("weapons", [])
    if not isinstance(weapons_raw, list) or not all(isinstance(w, str) for w in weapons_raw):
        raise _fail(f"{where} weapons", "must be a list of texts")
    weapons = tuple(str(w) for w in weapons_raw)
    leader_raw = raw.get("leader")
    leader = None if leader_raw is None else _as_str(leader_raw, f"{where} leader")
    if leader is not None and kind == tables.COMMANDER:
        raise _fail(f"{where} leader", "a commanding officer has no under-officer")
    traits = _as_table(raw.get("traits"), f"{where} traits")
    check_keys(traits, UNIT_TRAITS, where, "trait")
    if kind in tables.FOOT_KINDS:
        pose_name = _as_str(traits.get("pose"), f"{where} traits.pose")
        if pose_name not in tables.POSE_NAMES:
            raise _fail(
                f"{where} traits.pose",
                f"is {pose_name!r}; allowed: " + ", ".join(tables.POSE_NAMES),
            )
    elif "pose" in traits:
        raise _fail(f"{where} traits.pose", f"only foot squads have a pose, not {kind}")
    formation = _as_str(traits.get("formation"), f"{where} traits.formation", tables.LINE)
    if "formation" in traits and kind not in tables.FORMED_KINDS:
        raise _fail(f"{where} traits.formation", f"a {kind} has no formation")
    if formation not in tables.FORMATIONS:
        raise _fail(f"{where} traits.formation", f"is {formation!r}; allowed: line, column")
    if "leader_type" in traits:
        leader_type = _as_str(traits["leader_type"], f"{where} traits.leader_type")
        if leader is None:
            raise _fail(f"{where} traits.leader_type", "needs a leader on the unit")
        if leader_type not in tables.OFFICER_TYPES:
            raise _fail(
                f"{where} traits.leader_type",
                f"is {leader_type!r}; allowed: " + ", ".join(tables.OFFICER_TYPES),
            )
    return Unit(name, side, kind, figures, weapons, leader, traits=dict(traits))


def load_scenario(raw: Mapping[str, ScenarioValue]) -> Scenario:
    check_scenario_fields(raw)
    system = _as_str(raw.get("system"), "system")
    if system != SYSTEM:
        raise _fail("system", f"is {system!r}; this ruleset is {SYSTEM!r}")
    title = _as_str(raw.get("title"), "title")
    sides = scenario_sides(raw)
    units_raw = raw.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise _fail("units", "must be a list of [[units]] tables")
    units = tuple(_check_unit(u, i, sides) for i, u in enumerate(units_raw, start=1))
    check_unique_names(units)
    for side in sides:
        commanders = [u for u in units if u.side == side and u.kind == tables.COMMANDER]
        if len(commanders) != 1:
            raise _fail(
                f"side {side!r}", f"needs exactly one commander unit, has {len(commanders)}"
            )
        if not any(u.side == side and u.kind != tables.COMMANDER for u in units):
            raise _fail(f"side {side!r}", "needs at least one squad")
    leader_types: dict[str, str] = {}
    leader_sides: dict[str, str] = {}
    for u in units:
        if u.leader is None:
            continue
        if leader_sides.setdefault(u.leader, u.side) != u.side:
            raise _fail(f"unit {u.name!r} leader", f"{u.leader!r} already leads the other side")
        fixed = u.traits.get("leader_type")
        if isinstance(fixed, str) and leader_types.setdefault(u.leader, fixed) != fixed:
            raise _fail(
                f"unit {u.name!r} traits.leader_type",
                f"{u.leader!r} is already a {leader_types[u.leader]}",
            )
    setup = _as_table(raw.get("setup"), "[setup]")
    _check_setup(setup, sides)
    options = option_values(OPTIONS, _as_table(raw.get("options"), "[options]"))
    notes = raw.get("notes", "")
    if not isinstance(notes, str):
        raise _fail("notes", "must be a text")
    return Scenario(SYSTEM, title, sides, units, options, setup, notes)


SETUP_KEYS = ("turn_limit", "first_side", "command_points", "melee_win_points", "objectives")


def _check_setup(setup: dict[str, ScenarioValue], sides: tuple[str, ...]) -> None:
    check_setup_keys(setup, SETUP_KEYS)
    _as_int(setup.get("turn_limit"), "[setup] turn_limit", 1, 30)
    first = _as_str(setup.get("first_side"), "[setup] first_side", sides[0])
    if first not in sides:
        raise _fail("[setup] first_side", f"is {first!r}; allowed: {', '.join(sides)}")
    command_points = _as_table(setup.get("command_points"), "[setup] command_points")
    check_keys(command_points, sides, "[setup] command_points", "side")
    for side, cp in command_points.items():
        _as_int(cp, f"[setup] command_points.{side}", 0, 10)
    _as_int(setup.get("melee_win_points"), "[setup] melee_win_points", 0, 100, 3)
    objectives = setup.get("objectives", [])
    if not isinstance(objectives, list):
        raise _fail("[setup] objectives", "must be a list of {name, points} tables")
    for i, obj in enumerate(objectives, start=1):
        if not isinstance(obj, dict):
            raise _fail(f"[setup] objective {i}", "must be a table with name and points")
        check_keys(obj, OBJECTIVE_FIELDS, f"[setup] objective {i}")
        _as_str(obj.get("name"), f"[setup] objective {i} name")
        _as_int(obj.get("points"), f"[setup] objective {i} points", 0, 1000)
