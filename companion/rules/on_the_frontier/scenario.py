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
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.engineering import DEMOLITION_TARGETS

SYSTEM = "on_the_frontier"

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "odd_figure_dice",
        "One die per two figures: an odd figure left over is dropped (round_down) or "
        "rolls a die of its own (round_up).",
        "round_down",
        ("round_down", "round_up"),
    ),
    RuleOption(
        "natural_six_always_hits",
        "Whether a natural 6 hits even when modifiers put the hit number above 6.",
        False,
        (False, True),
    ),
    RuleOption(
        "difficult_target_stacks",
        "A difficult kind (skirmishers, guns, cavalry) in cover: one -1 (false) or -2 (true).",
        False,
        (False, True),
    ),
    RuleOption(
        "held_fire_volley_at_chargers",
        "A unit that held fire and is charged shoots the chargers before the contact dice.",
        True,
        (True, False),
    ),
    RuleOption(
        "hold_fire_kinds",
        "Who may hold fire: only infantry and skirmishers, as the shooting rules name them "
        "(infantry_and_skirmishers), or any unit that can shoot (any_shooter).",
        "infantry_and_skirmishers",
        ("infantry_and_skirmishers", "any_shooter"),
    ),
    RuleOption(
        "shaken_rout_check",
        "A unit that loses a charge routs if it is below half strength: counted after the "
        "charge's hits are laid down (after_hits) or as it stood before (before_hits).",
        "after_hits",
        ("after_hits", "before_hits"),
    ),
    RuleOption(
        "artillery_contact_dice",
        "Guns in a charge: a die for every gunner standing (per_gunner) or a die for each "
        "gun's crew, however many of them stand (per_gun; the unit's `guns` trait, default 1).",
        "per_gunner",
        ("per_gunner", "per_gun"),
    ),
    RuleOption(
        "engineering_surplus",
        "Work points beyond the 6 that finish a task: kept towards the next task of the same "
        "kind (carries) or wasted (lost).",
        "carries",
        ("carries", "lost"),
    ),
    RuleOption(
        "retreat_limbers_guns",
        'Guns that retreat from a lost charge: limbered by the full move back, with no 4" '
        "spent deploying (true), or left deployed or limbered as they were (false).",
        True,
        (True, False),
    ),
)

MELEE_WEAPONS: tuple[str, ...] = ("bayonet", "sword", "lance", "spear", "club", "none")
ALLOWED_WEAPONS: tuple[str, ...] = (*tables.WEAPONS, *MELEE_WEAPONS)
UNIT_TRAITS: tuple[str, ...] = (
    "quality",
    "shock",
    "superior_firepower",
    "ranks",
    "engineers",
    "guns",
    "limbered",
)
MAX_FIGURES = 60


@dataclass(frozen=True)
class Options:
    odd_figure_dice: str = "round_down"
    natural_six_always_hits: bool = False
    difficult_target_stacks: bool = False
    held_fire_volley_at_chargers: bool = True
    hold_fire_kinds: str = "infantry_and_skirmishers"
    shaken_rout_check: str = "after_hits"
    artillery_contact_dice: str = "per_gunner"
    engineering_surplus: str = "carries"
    retreat_limbers_guns: bool = True


def read_options(raw: Mapping[str, ScenarioValue]) -> Options:
    values = option_values(OPTIONS, raw)
    odd = values["odd_figure_dice"]
    six = values["natural_six_always_hits"]
    stack = values["difficult_target_stacks"]
    volley = values["held_fire_volley_at_chargers"]
    hold = values["hold_fire_kinds"]
    rout = values["shaken_rout_check"]
    guns = values["artillery_contact_dice"]
    surplus = values["engineering_surplus"]
    limber = values["retreat_limbers_guns"]
    assert isinstance(odd, str) and isinstance(hold, str) and isinstance(rout, str)
    assert isinstance(guns, str) and isinstance(surplus, str)
    assert isinstance(six, bool) and isinstance(stack, bool) and isinstance(volley, bool)
    assert isinstance(limber, bool)
    return Options(odd, six, stack, volley, hold, rout, guns, surplus, limber)


def _string(raw: Mapping[str, ScenarioValue], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(f"{where}: {key!r} must be a non-empty string, got {value!r}")
    return value


def _unit(raw: ScenarioValue, sides: tuple[str, ...], index: int) -> Unit:
    if not isinstance(raw, dict):
        raise ScenarioError(f"units[{index}] must be a table, got {raw!r}")
    check_unit_fields(raw, index + 1, chips=False)
    name = _string(raw, "name", f"units[{index}]")
    side = raw.get("side")
    if side not in sides or not isinstance(side, str):
        raise unit_error(name, "side", f"{side!r} is not a side; sides are {', '.join(sides)}")
    kind = raw.get("kind")
    if kind not in tables.UNIT_KINDS or not isinstance(kind, str):
        raise unit_error(
            name, "kind", f"{kind!r} is not allowed; use {', '.join(tables.UNIT_KINDS)}"
        )
    figures = raw.get("figures")
    if isinstance(figures, bool) or not isinstance(figures, int) or not 1 <= figures <= MAX_FIGURES:
        raise unit_error(name, "figures", f"{figures!r} is not allowed; use a whole number 1..60")
    weapons_raw = raw.get("weapons", [])
    if not isinstance(weapons_raw, list):
        raise unit_error(name, "weapons", "must be a list of weapon names")
    weapons: list[str] = []
    for w in weapons_raw:
        if not isinstance(w, str) or w not in ALLOWED_WEAPONS:
            raise unit_error(
                name, "weapons", f"{w!r} is not allowed; use {', '.join(ALLOWED_WEAPONS)}"
            )
        weapons.append(w)
    if kind == "artillery" and "artillery" not in weapons:
        raise unit_error(name, "weapons", "an artillery unit needs the weapon 'artillery'")
    if kind != "artillery" and "artillery" in weapons:
        raise unit_error(name, "weapons", "only kind = 'artillery' may have the weapon 'artillery'")
    leader = raw.get("leader")
    if leader is not None and (not isinstance(leader, str) or not leader.strip()):
        raise unit_error(name, "leader", f"{leader!r} must be a name")
    traits_raw = raw.get("traits", {})
    if not isinstance(traits_raw, dict):
        raise unit_error(name, "traits", "must be a table")
    check_keys(traits_raw, UNIT_TRAITS, f"unit {name!r}", "trait")
    quality = traits_raw.get("quality", "regular")
    if quality not in tables.QUALITIES:
        raise unit_error(
            name, "traits.quality", f"{quality!r} is not allowed; use {', '.join(tables.QUALITIES)}"
        )
    for flag in ("shock", "superior_firepower", "engineers", "limbered"):
        if flag in traits_raw and not isinstance(traits_raw[flag], bool):
            raise unit_error(name, f"traits.{flag}", f"{traits_raw[flag]!r} must be true or false")
    ranks = traits_raw.get("ranks", 1)
    if ranks not in (1, 2) or isinstance(ranks, bool):
        raise unit_error(name, "traits.ranks", f"{ranks!r} is not allowed; use 1 or 2")
    if ranks == 2 and kind == "artillery":
        raise unit_error(
            name, "traits.ranks", "guns are not drawn up in ranks; every gunner counts"
        )
    if "guns" in traits_raw and kind != "artillery":
        raise unit_error(name, "traits.guns", "only kind = 'artillery' has guns")
    if "limbered" in traits_raw and kind != "artillery":
        raise unit_error(name, "traits.limbered", "only kind = 'artillery' has guns to limber")
    guns = traits_raw.get("guns", 1)
    if isinstance(guns, bool) or not isinstance(guns, int) or not 1 <= guns <= figures:
        raise unit_error(
            name, "traits.guns", f"{guns!r} is not allowed; use a whole number 1..{figures}"
        )
    if traits_raw.get("engineers") and kind not in tables.FOOT_KINDS:
        raise unit_error(
            name, "traits.engineers", f"only foot ({', '.join(sorted(tables.FOOT_KINDS))}) dig"
        )
    return Unit(
        name=name,
        side=side,
        kind=kind,
        figures=figures,
        weapons=tuple(weapons),
        leader=leader if isinstance(leader, str) else None,
        chip=None,
        traits=dict(traits_raw),
    )


def load_scenario(raw: Mapping[str, ScenarioValue]) -> Scenario:
    check_scenario_fields(raw)
    system = raw.get("system")
    if system != SYSTEM:
        raise ScenarioError(f"system must be {SYSTEM!r}, got {system!r}")
    title = _string(raw, "title", "scenario")
    sides = scenario_sides(raw)
    units = scenario_units(raw, sides, lambda table, index: _unit(table, sides, index))
    options_raw = scenario_table(raw, "options")
    read_options(options_raw)
    setup_raw = scenario_table(raw, "setup")
    read_setup(setup_raw, sides)
    notes = raw.get("notes", "")
    return Scenario(
        system=SYSTEM,
        title=title,
        sides=sides,
        units=units,
        options=dict(options_raw),
        setup=dict(setup_raw),
        notes=notes if isinstance(notes, str) else "",
    )


@dataclass(frozen=True)
class Setup:
    turn_limit: int
    engineering: tuple[str, ...]  # the sides whose foot may do engineering work
    demolition_target: str  # "" when there is nothing to blow up
    demolition_points: int


SETUP_KEYS = ("turn_limit", "engineering", "demolition_target", "demolition_points")


def _engineering_sides(value: ScenarioValue, sides: tuple[str, ...]) -> tuple[str, ...]:
    """`engineering` is true (both sides), false (neither) or a list of side names."""
    if isinstance(value, bool):
        return sides if value else ()
    if isinstance(value, list) and all(isinstance(v, str) and v in sides for v in value):
        return tuple(s for s in sides if s in value)
    raise ScenarioError(
        f"[setup] engineering must be true, false or a list of sides ({', '.join(sides)}), "
        f"got {value!r}"
    )


def read_setup(raw: Mapping[str, ScenarioValue], sides: tuple[str, ...]) -> Setup:
    check_setup_keys(raw, SETUP_KEYS)
    limit = setup_turn_limit(raw)
    engineering = _engineering_sides(raw.get("engineering", False), sides)
    target = raw.get("demolition_target", "")
    if not isinstance(target, str) or (target and target not in DEMOLITION_TARGETS):
        raise ScenarioError(
            f"[setup] demolition_target {target!r} is not allowed; "
            f"use {', '.join(DEMOLITION_TARGETS)}"
        )
    points = raw.get("demolition_points", 6)
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= 240:
        raise ScenarioError(f"[setup] demolition_points must be 1..240, got {points!r}")
    if target and target != "scenario" and "demolition_points" in raw:
        raise ScenarioError("[setup] demolition_points is only for demolition_target = 'scenario'")
    return Setup(limit, engineering, target, points)
