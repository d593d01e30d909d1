"""Scenario validation and the named readings (options) of unclear rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.core import (
    RuleOption,
    Scenario,
    ScenarioError,
    ScenarioValue,
    Unit,
    check_keys,
    check_scenario_fields,
    check_setup_keys,
    check_unit_fields,
    option_values,
    scenario_sides,
    scenario_table,
    scenario_units,
    setup_turn_limit,
    unit_error,
)
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import DOUBLE_ZERO_READINGS
from companion.rules.scrubs_of_the_desert.morale import ROUT_RULES

SYSTEM = "scrubs_of_the_desert"

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "double_zero",
        'How "00" on the percentile dice reads: zero (the dice convention: 0 is zero, so '
        "00 passes morale unless it is below 0) or a hundred (00 fails unless morale is "
        "100+).",
        "zero",
        DOUBLE_ZERO_READINGS,
    ),
    RuleOption(
        "rout_rule",
        "What the 50% line for a failed morale test measures: the modified morale "
        "(modified_morale) or the figures the unit has left (strength).",
        "modified_morale",
        ROUT_RULES,
    ),
    RuleOption(
        "melee_modifiers_per_figure",
        "Melee modifiers go on every figure's die (true) or once on the side's total "
        "(false). The leader's +1 is always once.",
        True,
        (True, False),
    ),
    RuleOption(
        "counter_charge_bonus",
        "When counter-charging cavalry gets +3: only against an attacker that failed its "
        "test (failed_attacker) or in every counter-charge (always).",
        "failed_attacker",
        ("failed_attacker", "always"),
    ),
    RuleOption(
        "activation_bonus_carries_over",
        "The loser's +1 a lost toss carries into the next turn (true) or resets (false).",
        True,
        (True, False),
    ),
    RuleOption(
        "sighting_when",
        "When a French unit rolls to sight hidden Arabs: at the start of every activation "
        "(activation) or only when it moves or charges (moving).",
        "activation",
        ("activation", "moving"),
    ),
    RuleOption(
        "arab_gun_moves_as",
        "The movement row of an Arab gun, which the chart does not list: Arab foot "
        "(arab_foot) or the French Foot/Gun row (french_foot).",
        "arab_foot",
        tables.ARAB_GUN_ROWS,
    ),
    RuleOption(
        "fire_after_unlimbering",
        "A gun that spends its move unlimbering may still fire in that activation (true) "
        "or not until its next one (false).",
        True,
        (True, False),
    ),
    RuleOption(
        "blast_cover_modifier",
        "The -1 for a target in a fort, building or rough applies to the cannon's to-hit "
        "roll only (false) or to each blast die as well (true).",
        False,
        (False, True),
    ),
    RuleOption(
        "gun_crew_setup_action",
        "Infantry that reach an abandoned machine gun spend the gun's next activation "
        "without firing (true) or may fire it at its next activation (false).",
        True,
        (True, False),
    ),
    RuleOption(
        "hook_thrower_is_first_climber",
        "The thrower who scales the wall is the hook's one free climber that turn (true), "
        "or climbs besides it, so the free climber follows him (false).",
        True,
        (True, False),
    ),
    RuleOption(
        "charged_unit_can_be_removed",
        "A charged unit that fails its test only routs, as a test for closing into melee "
        "(false), or is removed like any other failure at 50% or less (true).",
        False,
        (False, True),
    ),
    RuleOption(
        "jam_silences_this_turn",
        "A jammed machine gun fires no more this turn nor next (true), or only loses the "
        "next turn and may still fire later this one, in defensive fire (false).",
        True,
        (True, False),
    ),
)

UNIT_TRAITS: tuple[str, ...] = ("base_morale", "hidden", "limbered", "loss_per_figure", "plural")
SETUP_KEYS: tuple[str, ...] = (
    "turn_limit",
    "french_side",
    "hidden_arabs",
    "fort",
    "figures_over_wall_to_win",
)


@dataclass(frozen=True)
class Options:
    double_zero: str = "zero"
    rout_rule: str = "modified_morale"
    melee_modifiers_per_figure: bool = True
    counter_charge_bonus: str = "failed_attacker"
    activation_bonus_carries_over: bool = True
    sighting_when: str = "activation"
    arab_gun_moves_as: str = "arab_foot"
    fire_after_unlimbering: bool = True
    blast_cover_modifier: bool = False
    gun_crew_setup_action: bool = True
    hook_thrower_is_first_climber: bool = True
    charged_unit_can_be_removed: bool = False
    jam_silences_this_turn: bool = True


def read_options(raw: Mapping[str, ScenarioValue]) -> Options:
    values = option_values(OPTIONS, raw)
    return Options(
        str(values["double_zero"]),
        str(values["rout_rule"]),
        bool(values["melee_modifiers_per_figure"]),
        str(values["counter_charge_bonus"]),
        bool(values["activation_bonus_carries_over"]),
        str(values["sighting_when"]),
        str(values["arab_gun_moves_as"]),
        bool(values["fire_after_unlimbering"]),
        bool(values["blast_cover_modifier"]),
        bool(values["gun_crew_setup_action"]),
        bool(values["hook_thrower_is_first_climber"]),
        bool(values["charged_unit_can_be_removed"]),
        bool(values["jam_silences_this_turn"]),
    )


@dataclass(frozen=True)
class Setup:
    turn_limit: int
    french_side: str
    hidden_arabs: bool
    fort: bool
    figures_over_wall_to_win: int


def read_setup(raw: Mapping[str, ScenarioValue], sides: tuple[str, ...]) -> Setup:
    check_setup_keys(raw, SETUP_KEYS)
    limit = setup_turn_limit(raw)
    french = raw.get("french_side", sides[0])
    if french not in sides or not isinstance(french, str):
        raise ScenarioError(f"[setup] french_side {french!r} must be one of {', '.join(sides)}")
    flags = {}
    for key in ("hidden_arabs", "fort"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise ScenarioError(f"[setup] {key} must be true or false, got {value!r}")
        flags[key] = value
    goal = raw.get("figures_over_wall_to_win", 0)
    if isinstance(goal, bool) or not isinstance(goal, int) or not 0 <= goal <= 99:
        raise ScenarioError(f"[setup] figures_over_wall_to_win must be 0..99, got {goal!r}")
    if goal and not flags["fort"]:
        raise ScenarioError("[setup] figures_over_wall_to_win needs fort = true")
    return Setup(limit, french, flags["hidden_arabs"], flags["fort"], goal)


def _unit(raw: ScenarioValue, sides: tuple[str, ...], french: str, index: int) -> Unit:
    if not isinstance(raw, dict):
        raise ScenarioError(f"units[{index}] must be a table, got {raw!r}")
    check_unit_fields(raw, index + 1, chips=False)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"units[{index}]: 'name' must be a non-empty string, got {name!r}")
    side = raw.get("side")
    if not isinstance(side, str) or side not in sides:
        raise unit_error(name, "side", f"{side!r} is not a side; sides are {', '.join(sides)}")
    nation = "french" if side == french else "arab"
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in tables.UNIT_KINDS:
        raise unit_error(
            name, "kind", f"{kind!r} is not allowed; use {', '.join(tables.UNIT_KINDS)}"
        )
    figures = raw.get("figures")
    if isinstance(figures, bool) or not isinstance(figures, int) or not 1 <= figures <= 40:
        raise unit_error(name, "figures", f"{figures!r} is not allowed; use a whole number 1..40")
    weapons_raw = raw.get("weapons")
    if not isinstance(weapons_raw, list) or not weapons_raw:
        raise unit_error(name, "weapons", "must be a non-empty list of weapons")
    weapons: list[str] = []
    allowed = [row.weapon for row in tables.FIRE_TABLE if row.nation == nation]
    for w in weapons_raw:
        if not isinstance(w, str) or w not in allowed:
            raise unit_error(
                name,
                "weapons",
                f"{w!r} is not allowed for the {nation} side; use {', '.join(allowed)}",
            )
        weapons.append(w)
    support = [w for w in weapons if w in tables.SUPPORT_WEAPONS]
    if kind == "gun" and len(support) != 1:
        raise unit_error(name, "weapons", "a gun unit has exactly one machine gun or cannon")
    if kind != "gun" and support:
        raise unit_error(name, "weapons", "only kind = 'gun' may have a machine gun or cannon")
    leader = raw.get("leader")
    if leader is not None and (not isinstance(leader, str) or not leader.strip()):
        raise unit_error(name, "leader", f"{leader!r} must be a name")
    traits = raw.get("traits")
    if not isinstance(traits, dict):
        raise unit_error(
            name,
            "traits.base_morale",
            "every unit needs [units.traits] base_morale (a percentage 0..100)",
        )
    check_keys(traits, UNIT_TRAITS, f"unit {name!r}", "trait")
    morale = traits.get("base_morale")
    if isinstance(morale, bool) or not isinstance(morale, int) or not 0 <= morale <= 100:
        raise unit_error(name, "traits.base_morale", f"{morale!r} must be a percentage 0..100")
    rate = traits.get("loss_per_figure", 1)
    if isinstance(rate, bool) or not isinstance(rate, int) or not 1 <= rate <= 50:
        raise unit_error(
            name, "traits.loss_per_figure", f"{rate!r} must be a whole percentage 1..50"
        )
    for flag in ("hidden", "limbered", "plural"):
        if flag in traits and not isinstance(traits[flag], bool):
            raise unit_error(name, f"traits.{flag}", f"{traits[flag]!r} must be true or false")
    if traits.get("hidden") and nation == "french":
        raise unit_error(
            name, "traits.hidden", "only the Arab side hides; French units are in view"
        )
    if traits.get("limbered") and kind != "gun":
        raise unit_error(name, "traits.limbered", "only guns limber")
    return Unit(
        name,
        side,
        kind,
        figures,
        tuple(weapons),
        leader if isinstance(leader, str) else None,
        None,
        dict(traits),
    )


def load_scenario(raw: Mapping[str, ScenarioValue]) -> Scenario:
    check_scenario_fields(raw)
    if raw.get("system") != SYSTEM:
        raise ScenarioError(f"system must be {SYSTEM!r}, got {raw.get('system')!r}")
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ScenarioError(f"title must be a non-empty string, got {title!r}")
    sides = scenario_sides(raw)
    setup_raw = scenario_table(raw, "setup")
    setup = read_setup(setup_raw, sides)
    options_raw = scenario_table(raw, "options")
    read_options(options_raw)
    units = scenario_units(
        raw, sides, lambda table, index: _unit(table, sides, setup.french_side, index)
    )
    notes = raw.get("notes", "")
    return Scenario(
        SYSTEM,
        title,
        sides,
        units,
        dict(options_raw),
        dict(setup_raw),
        notes if isinstance(notes, str) else "",
    )
