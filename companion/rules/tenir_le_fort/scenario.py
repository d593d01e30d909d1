"""Scenario validation for Tenir le Fort, and the rule options a referee can switch."""

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
    scenario_table,
)

SYSTEM = "tenir_le_fort"
SIDES = ("FFL", "Arab")
KINDS: dict[str, tuple[str, ...]] = {
    "FFL": ("foot", "mounted", "maxim", "artillery", "leader", "supply"),
    "Arab": ("foot", "mounted", "maxim", "artillery", "leader"),
}
RANKS: dict[str, tuple[str, ...]] = {
    "FFL": ("sergeant", "lieutenant", "captain"),
    "Arab": ("tribal", "mounted"),
}
LADDERS = ("ladder", "hook")
TRAITS = (
    "rank",
    "reinforcement",
    "joins_on_day",
    "attached_to",
    "mixed_tribes",
    "ladder",
    "dynamite",
    "on_wall",
    "pistols",
)

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "resolve_threshold",
        "Arab resolve is checked from 25 casualties (the chart's "
        "25-39 row) or from 26 (the prose's 'more than 25')",
        "25",
        ("25", "26"),
    ),
    RuleOption(
        "command_points_roll",
        "command points are rolled once per attack (the rule's "
        "heading and the carry-over) or every turn (one sentence of the rule)",
        "per_attack",
        ("per_attack", "per_turn"),
    ),
    RuleOption(
        "max_heroes",
        "heroes active at once: one (the Heroes section) or two (the command point list)",
        1,
        (1, 2),
    ),
    RuleOption(
        "artillery_wall_range",
        "inches within which the gun on the wall cannot fire: "
        "12 (fire rules) or 6 (gun depression section)",
        12,
        (12, 6),
    ),
    RuleOption(
        "ammo_eleven",
        "the ammunition chart has no 11: read it as low (half) or as a third",
        "half",
        ("half", "third"),
    ),
    RuleOption(
        "cc_result_from",
        "a close-combat loser's result is read from his die or from "
        "his modified total (held to 1-6)",
        "die",
        ("die", "total"),
    ),
    RuleOption(
        "leader_cc_bonus",
        "a leader's close-combat bonus goes to every figure of his "
        "unit or only to the one figure the leader fights as",
        "unit",
        ("unit", "figure"),
    ),
    RuleOption(
        "jam_clear_fires",
        "the clearing roll of a jammed Maxim also scores hits when it clears",
        False,
        (False, True),
    ),
    RuleOption(
        "counter_charge_die",
        "a counter-charge rolls a plain movement roll (its own sentence) or adds the "
        "charge's extra die",
        "plain",
        ("plain", "extra"),
    ),
    RuleOption(
        "wounded_leader_bonus",
        "a wounded leader's extra fire dice keep the squad's numbers (a bonus he "
        "gives, not shots he fires) or hit only on a 6 like a wounded man's",
        "full",
        ("full", "six"),
    ),
    RuleOption(
        "pinned_recovery_moves",
        "a pinned unit that rolls a 5-6 to move also moves the total",
        True,
        (True, False),
    ),
    RuleOption(
        "sentry_tie",
        "a tie between sentry and sneakers is rolled again, or goes to "
        "the sentry or to the sneakers",
        "reroll",
        ("reroll", "sentry", "sneakers"),
    ),
    RuleOption(
        "ffl_command_without_officer",
        "with the Captain dead and no Lieutenant, the FFL roll halved command points "
        "(the sergeants keep command going) or none (only officers command)",
        "halved",
        ("halved", "none"),
    ),
    RuleOption(
        "next_attack_roll",
        "days until the second attack: 1d6 halved rounded up, or 1d6",
        "half_d6",
        ("half_d6", "d6"),
    ),
)

SETUP_DEFAULTS: dict[str, ScenarioValue] = {
    "turn_limit": 0,  # the rules end an attack only on a failed resolve
    "max_preparation_days": 3,
    "tower": True,
    "tower_donor": "",
    "ffl_mines": 0,
    "sentries": True,
}


def _fail(where: str, problem: str) -> ScenarioError:
    return ScenarioError(f"{where}: {problem}")


def _refused(value: object, wanted: str) -> str:
    """Why a value is refused, in the scenario file's words (a missing key is not "None")."""
    if value is None:
        return f"is missing; give {wanted}"
    return f"{value!r} is not allowed; use {wanted}"


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, _refused(value, f"a whole number {low}..{high}"))
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, _refused(value, "true or false"))
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, _refused(value, "a non-empty text"))
    return value


def _unit(raw: object, index: int) -> Unit:
    if not isinstance(raw, Mapping):
        raise _fail(f"units[{index}]", "each unit is a table with name, side, kind, figures")
    check_unit_fields(raw, index + 1, chips=True)
    name = _str(raw.get("name"), f"units[{index}] name")
    where = f"unit {name!r}"
    side = raw.get("side")
    if side not in SIDES:
        raise _fail(f"{where} side", f"{side!r} is not allowed; use FFL or Arab")
    assert isinstance(side, str)
    kind = raw.get("kind")
    if kind not in KINDS[side]:
        raise _fail(f"{where} kind", f"{kind!r} is not allowed; use {', '.join(KINDS[side])}")
    assert isinstance(kind, str)
    figures = _int(raw.get("figures"), f"{where} figures", 1, 60)
    weapons_raw = raw.get("weapons", [])
    if not isinstance(weapons_raw, list) or not all(isinstance(w, str) for w in weapons_raw):
        raise _fail(f"{where} weapons", "use a list of strings such as ['rifle']")
    leader = raw.get("leader")
    if leader is not None:
        leader = _str(leader, f"{where} leader")
    chip = raw.get("chip")
    if chip is None:
        raise _fail(f"{where} chip", "every unit needs the chip that activates it")
    chip = _str(chip, f"{where} chip")
    traits_raw = raw.get("traits", {})
    if not isinstance(traits_raw, Mapping):
        raise _fail(f"{where} traits", "use a table of traits")
    traits = dict(traits_raw)
    check_keys(traits, TRAITS, where, "trait")
    for key, value in traits.items():
        tw = f"{where} traits.{key}"
        if key == "rank":
            if value not in RANKS[side]:
                raise _fail(tw, f"{value!r} is not allowed; use {', '.join(RANKS[side])}")
        elif key in ("reinforcement", "mixed_tribes", "on_wall"):
            _bool(value, tw)
            if key == "reinforcement" and side != "FFL":
                raise _fail(tw, "only the FFL have a relief column; Arab bands use joins_on_day")
        elif key == "ladder":
            if value not in LADDERS:
                raise _fail(tw, f"{value!r} is not allowed; use ladder or hook")
        elif key == "joins_on_day":
            if side != "Arab":
                raise _fail(tw, "only Arab bands gather day by day; the relief uses reinforcement")
            _int(value, tw, 1, 30)
        elif key == "attached_to":
            if kind != "leader":
                raise _fail(tw, "only a command figure (kind leader) is attached to a unit")
            _str(value, tw)
        else:
            _int(value, tw, 0, 20)
    if kind == "leader" and "rank" not in traits:
        raise _fail(f"{where} traits.rank", f"a leader needs a rank: {', '.join(RANKS[side])}")
    if kind == "leader" and side == "FFL" and traits["rank"] == "sergeant":
        raise _fail(f"{where} traits.rank", "a command figure is the captain or a lieutenant")
    if leader is not None and "rank" not in traits:
        traits["rank"] = "sergeant" if side == "FFL" else "tribal"
    if kind in ("maxim", "artillery"):
        full = 3 if kind == "maxim" else 5
        if figures > full:
            raise _fail(f"{where} figures", f"a {kind} has a crew of at most {full}")
    if traits.get("mixed_tribes") and side != "Arab":
        raise _fail(f"{where} traits.mixed_tribes", "only Arab units are of mixed tribes")
    return Unit(name, side, kind, figures, tuple(weapons_raw), leader, chip, traits)


def load_scenario(raw: Mapping[str, ScenarioValue]) -> Scenario:
    check_scenario_fields(raw)
    if raw.get("system") != SYSTEM:
        raise _fail("system", f"{raw.get('system')!r} is not allowed; use {SYSTEM!r}")
    title = _str(raw.get("title"), "title")
    sides = raw.get("sides", list(SIDES))
    if not isinstance(sides, list) or sorted(map(str, sides)) != sorted(SIDES):
        raise _fail("sides", f"{sides!r} is not allowed; use ['FFL', 'Arab']")
    units_raw = raw.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise _fail("units", "a scenario needs [[units]]")
    units = tuple(_unit(u, i) for i, u in enumerate(units_raw))
    check_unique_names(units)
    chips = [u.chip for u in units]
    for u in units:
        if chips.count(u.chip) > 1:
            raise _fail(f"unit {u.name!r} chip", f"chip {u.chip!r} is used by two units")
    for side in SIDES:
        if not any(
            u.side == side
            and u.kind in ("foot", "mounted")
            and not u.traits.get("reinforcement")
            and u.traits.get("joins_on_day", 1) == 1
            for u in units
        ):
            raise _fail(
                "units", f"the {side} side needs a foot or mounted unit on the table from day 1"
            )
    for u in units:
        host_name = u.traits.get("attached_to")
        if host_name is None:
            continue
        hosts = [h for h in units if h.name == host_name]
        if not hosts or hosts[0].side != u.side or hosts[0].kind not in ("foot", "mounted"):
            raise _fail(
                f"unit {u.name!r} traits.attached_to",
                f"{host_name!r} is not one of the {u.side} side's foot or mounted units",
            )
        if bool(hosts[0].traits.get("reinforcement")) != bool(u.traits.get("reinforcement")):
            raise _fail(
                f"unit {u.name!r} traits.attached_to",
                f"{host_name!r} does not arrive with {u.name!r}",
            )
    options = option_values(OPTIONS, scenario_table(raw, "options"))
    setup_raw = scenario_table(raw, "setup")
    check_setup_keys(setup_raw, tuple(SETUP_DEFAULTS))
    setup: dict[str, ScenarioValue] = {**SETUP_DEFAULTS, **setup_raw}
    _int(setup["turn_limit"], "[setup] turn_limit", 0, 30)
    _int(setup["max_preparation_days"], "[setup] max_preparation_days", 0, 10)
    _bool(setup["tower"], "[setup] tower")
    _int(setup["ffl_mines"], "[setup] ffl_mines", 0, 10)
    _bool(setup["sentries"], "[setup] sentries")
    donor = setup["tower_donor"]
    if not isinstance(donor, str):
        raise _fail("[setup] tower_donor", "use the name of an FFL foot unit")
    if donor:
        match = [u for u in units if u.name == donor]
        if not match or match[0].side != "FFL" or match[0].kind != "foot":
            raise _fail("[setup] tower_donor", f"{donor!r} is not an FFL foot unit")
    notes = raw.get("notes", "")
    return Scenario(
        SYSTEM,
        title,
        ("FFL", "Arab"),
        units,
        options,
        setup,
        notes if isinstance(notes, str) else "",
    )
