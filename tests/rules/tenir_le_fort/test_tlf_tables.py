"""Every row of every reconstructed chart, with values typed from the seed's charts and prose.

Expected values are written out here, not read from `tables`, so a slip in the
table data shows up as a failure.
"""

from __future__ import annotations

import pytest

from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.close_combat import (
    ATTACKER_WINS,
    LOSER_EFFECTS,
    LOSER_FALLS_BACK,
    LOSER_PINNED,
    TIE,
)

# ---------------------------------------------- Arab resolve: casualties -> d6 to stay

RESOLVE_ROWS = [
    (24, None),
    (25, 2),
    (39, 2),
    (40, 3),
    (49, 3),
    (50, 4),
    (59, 4),
    (60, 5),
    (69, 5),
    (70, 6),
    (120, 6),
]


@pytest.mark.parametrize(("casualties", "need"), RESOLVE_ROWS)
def test_arab_resolve_chart_row(casualties: int, need: int | None) -> None:
    assert t.resolve_needed(casualties) == need


def test_resolve_threshold_option_reads_more_than_25() -> None:
    assert t.resolve_needed(25, first_band_from=26) is None
    assert t.resolve_needed(26, first_band_from=26) == 2


@pytest.mark.parametrize(
    ("casualties", "die", "mods", "stays"),
    [
        (30, 1, {}, False),
        (30, 2, {}, True),
        (45, 2, {}, False),
        (45, 2, {"inside_fort": True}, True),
        (55, 3, {}, False),
        (55, 2, {"inside_fort": True, "oasis": True}, True),
        (65, 4, {}, False),
        (65, 4, {"command_points": 1}, True),
        (75, 5, {}, False),
        (75, 6, {}, True),
    ],
)
def test_arab_resolve_roll(casualties: int, die: int, mods: dict[str, object], stays: bool) -> None:
    action = ACTIONS["arab-resolve"]
    params = action.complete_params({"casualties": casualties, **mods})  # type: ignore[dict-item]
    out = action.resolve(params, [die])
    assert ("resolve_failed" not in out.effects) is stays


# ------------------------------------------------------------------ effect of hits on FFL

WOUND_ROWS = [
    (1, "dead"),
    (2, "wounded"),
    (3, "wounded"),
    (4, "no effect"),
    (5, "no effect"),
    (6, "no effect"),
]


@pytest.mark.parametrize(("die", "result"), WOUND_ROWS)
def test_effect_of_hits_row(die: int, result: str) -> None:
    assert t.wound_result(die) == result


# ------------------------------------------------------------------ reinforcement day

RELIEF_ROWS = [(1, 5), (2, 4), (3, 4), (4, 3), (5, 3), (6, 2)]


@pytest.mark.parametrize(("die", "day"), RELIEF_ROWS)
def test_reinforcement_day_row(die: int, day: int) -> None:
    assert t.reinforcement_day(die) == day
    action = ACTIONS["reinforcement-day"]
    out = action.resolve(action.complete_params({}), [die])
    assert out.headline == day


def test_reinforcement_day_roll_is_secret() -> None:
    action = ACTIONS["reinforcement-day"]
    assert action.request(action.complete_params({})).secret


@pytest.mark.parametrize(("die", "arrives"), [(1, False), (4, False), (5, True), (6, True)])
def test_same_day_relief_arrives_on_5_6(die: int, arrives: bool) -> None:
    action = ACTIONS["reinforcement-arrival"]
    out = action.resolve(action.complete_params({}), [die])
    assert ("arrived" in out.effects) is arrives
    assert action.request(action.complete_params({})).secret


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_relief_never_arrives_on_another_day(die: int) -> None:
    action = ACTIONS["reinforcement-arrival"]
    out = action.resolve(action.complete_params({"due": False}), [die])
    assert out.headline == 0 and out.details == ("no sign of the relief column",)


# ------------------------------------------------------------------ ammunition

AMMO_ROWS = [
    (2, "normal", True),
    (3, "normal", True),
    (4, "normal", True),
    (5, "normal", True),
    (6, "normal", True),
    (7, "normal", True),
    (8, "half", True),
    (9, "half", True),
    (10, "half", True),
    (12, "third", False),
]


@pytest.mark.parametrize(("total", "level", "heavy"), AMMO_ROWS)
def test_ammunition_row(total: int, level: str, heavy: bool) -> None:
    row = t.ammunition(total)
    assert (row.level, row.heavy_weapons) == (level, heavy)


@pytest.mark.parametrize(("eleven", "level"), [("half", "half"), ("third", "third")])
def test_ammunition_missing_eleven_follows_the_option(eleven: str, level: str) -> None:
    assert t.ammunition(11, eleven=eleven).level == level


def test_ammunition_modified_totals_are_held_to_the_chart() -> None:
    assert t.ammunition(14).level == "third"
    assert t.ammunition(0).level == "normal"


@pytest.mark.parametrize(
    ("dice", "divisor", "effects"),
    [
        ((3, 4), 1, set()),
        ((4, 4), 2, {"low_ammo"}),
        ((6, 6), 3, {"low_ammo", "no_heavy_ammo"}),
    ],
)
def test_ammunition_action(dice: tuple[int, int], divisor: int, effects: set[str]) -> None:
    action = ACTIONS["ammunition"]
    out = action.resolve(action.complete_params({}), list(dice))
    assert out.headline == divisor
    assert out.effects == effects


# ------------------------------------------------------------------ firing dice and to-hit

FIRING_DICE_ROWS = [
    ("FFL", "maxim", 8),
    ("FFL", "artillery", 8),
    ("Arab", "maxim", 4),
    ("Arab", "artillery", 4),
]


@pytest.mark.parametrize(("side", "gun", "dice"), FIRING_DICE_ROWS)
def test_heavy_weapon_firing_dice_row(side: str, gun: str, dice: int) -> None:
    assert t.HEAVY_WEAPON_DICE[(side, gun)] == dice
    action = ACTIONS[f"{gun}-fire"]
    assert action.request(action.complete_params({"side": side})).dice_count == dice


TO_HIT_ROWS = [
    ("arab-fire", "none", {5, 6}),
    ("arab-fire", "light", {6}),
    ("arab-fire", "heavy", {6}),
    ("ffl-fire", "none", {4, 5, 6}),
    ("ffl-fire", "light", {6}),
    ("ffl-fire", "heavy", {6}),
]


@pytest.mark.parametrize(("action_name", "cover", "hits"), TO_HIT_ROWS)
def test_to_hit_row(action_name: str, cover: str, hits: set[int]) -> None:
    action = ACTIONS[action_name]
    first = "figures" if action_name == "arab-fire" else "riflemen"
    params = action.complete_params({first: 1, "cover": cover})
    got = {face for face in range(1, 7) if action.resolve(params, [face]).headline}
    assert got == hits


def test_artillery_hits_on_5_6_whatever_the_cover() -> None:
    action = ACTIONS["artillery-fire"]
    for cover in ("none", "light", "heavy"):
        params = action.complete_params({"cover": cover, "bonus_dice": 1})
        got = {f for f in range(1, 7) if action.resolve(params, [f]).headline}
        assert got == {5, 6}


@pytest.mark.parametrize(
    ("face", "saved"), [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)]
)
def test_heavy_cover_save_row(face: int, saved: bool) -> None:
    action = ACTIONS["heavy-cover-save"]
    out = action.resolve(action.complete_params({"hits": 1}), [face])
    assert out.headline == (0 if saved else 1)


# ------------------------------------------------------------------ movement chart

# (situation, dice rolled, dice kept): kept dice are the highest, their sum is the move
MOVE_DICE_ROWS = [
    ({"side": "Arab", "kind": "foot"}, 2, 2),
    ({"side": "Arab", "kind": "mounted"}, 4, 4),
    ({"side": "Arab", "kind": "foot", "leader": True}, 3, 2),
    ({"side": "Arab", "kind": "mounted", "leader": True}, 5, 4),
    ({"side": "FFL", "kind": "foot", "leader": True}, 3, 2),
    ({"side": "FFL", "kind": "foot"}, 2, 1),
    ({"side": "FFL", "kind": "foot", "leader": True, "carrying": True}, 3, 1),
    ({"side": "FFL", "kind": "foot", "carrying": True}, 2, 1),
    ({"side": "FFL", "kind": "foot", "mode": "move_and_fire", "leader": True}, 2, 1),
    ({"side": "FFL", "kind": "foot", "mode": "move_and_fire"}, 1, 1),
    ({"side": "Arab", "kind": "foot", "mode": "charge"}, 3, 3),
    ({"side": "Arab", "kind": "foot", "mode": "charge", "leader": True}, 4, 3),
    ({"side": "FFL", "kind": "foot", "mode": "charge", "leader": True}, 4, 3),
    ({"side": "Arab", "kind": "mounted", "mode": "charge"}, 5, 5),
    ({"side": "Arab", "kind": "foot", "mode": "counter_charge"}, 2, 2),
    ({"side": "Arab", "kind": "foot", "mode": "counter_charge", "counter_die": True}, 3, 3),
    ({"side": "Arab", "kind": "foot", "mode": "charge", "berserk": True}, 4, 4),
    ({"side": "Arab", "kind": "foot", "berserk": True}, 3, 3),
]


@pytest.mark.parametrize(("params", "dice", "kept"), MOVE_DICE_ROWS)
def test_movement_dice_row(params: dict[str, object], dice: int, kept: int) -> None:
    action = ACTIONS["move"]
    full = action.complete_params(params)  # type: ignore[arg-type]
    assert action.request(full).dice_count == dice
    # dice 1, 2, 3...: the kept highest sum to the move
    roll = list(range(1, dice + 1))
    assert action.resolve(full, roll).headline == sum(roll[dice - kept :])


GUN_MOVE_ROWS = [
    ("maxim", 1, 1),
    ("maxim", 2, 2),
    ("maxim", 3, 2),
    ("artillery", 2, 0),
    ("artillery", 3, 1),
    ("artillery", 5, 1),
]


@pytest.mark.parametrize(("gun", "men", "dice"), GUN_MOVE_ROWS)
def test_gun_movement_row(gun: str, men: int, dice: int) -> None:
    action = ACTIONS["move-gun"]
    assert action.request(action.complete_params({"gun": gun, "men": men})).dice_count == dice


# ------------------------------------------------------------------ close combat chart

CC_MOD_ROWS = [
    ("mounted_leader", 2),
    ("tribal_leader", 1),
    ("captain", 2),
    ("sergeant", 1),
    ("hero", 2),
    ("berserk", 1),
    ("defending_cover", 1),
    ("defending_loophole", 2),
    ("pinned", -1),
    ("low_on_water", -1),
    ("wounded", -1),
    ("gun_crew", -1),
]


@pytest.mark.parametrize(("name", "value"), CC_MOD_ROWS)
def test_close_combat_modifier_row(name: str, value: int) -> None:
    assert t.CC_MODIFIERS[name] == value


LOSER_ROWS = [
    ("FFL", 1, "killed"),
    ("FFL", 2, "wounded"),
    ("FFL", 3, "wounded"),
    ("FFL", 4, "fell back"),
    ("FFL", 5, "fell back"),
    ("FFL", 6, "fell back"),
    ("Arab", 1, "killed"),
    ("Arab", 2, "killed"),
    ("Arab", 3, "killed"),
    ("Arab", 4, "fell back"),
    ("Arab", 5, "fell back"),
    ("Arab", 6, "fell back"),
]


@pytest.mark.parametrize(("side", "die", "result"), LOSER_ROWS)
def test_close_combat_loser_row(side: str, die: int, result: str) -> None:
    assert t.cc_loser_result(side, die) == result


# ------------------------------------------------------------------ command points

CP_COST_ROWS = [
    ("Arab", "resolve", 1),
    ("Arab", "extra_turn", 1),
    ("Arab", "crew_captured_mg", 2),
    ("Arab", "unpin", 1),
    ("FFL", "extra_turn", 1),
    ("FFL", "hero", 2),
    ("FFL", "recrew", 1),
    ("FFL", "tower", 1),
]


@pytest.mark.parametrize(("side", "use", "cost"), CP_COST_ROWS)
def test_command_point_cost_row(side: str, use: str, cost: int) -> None:
    assert t.COMMAND_POINT_COSTS[(side, use)] == cost


@pytest.mark.parametrize(
    ("die", "halved", "points"),
    [(1, False, 1), (6, False, 6), (1, True, 0), (5, True, 2), (6, True, 3)],
)
def test_command_points_roll(die: int, halved: bool, points: int) -> None:
    action = ACTIONS["command-points"]
    assert action.resolve(action.complete_params({"halved": halved}), [die]).headline == points


# ------------------------------------------------------------------ sentries and sneaking

SENTRY_MOD_ROWS = [
    ({"patrols": True}, 1, 0),
    ({"previous_attempt": True}, 2, 0),
    ({"patrols": True, "previous_attempt": True}, 3, 0),
    ({"sentry_side": "Arab", "previous_attempt": True}, 2, 0),
    ({"sentry_side": "Arab", "patrols": True}, 0, 0),  # patrols are an FFL precaution
    ({"outside_fort": True}, 0, 1),
    ({"grappling_hooks": True}, 0, 1),
    ({"outside_fort": True, "grappling_hooks": True}, 0, 2),
]


@pytest.mark.parametrize(("params", "sentry", "sneak"), SENTRY_MOD_ROWS)
def test_sentry_modifier_row(params: dict[str, object], sentry: int, sneak: int) -> None:
    from companion.rules.tenir_le_fort.sabotage import sentry_modifier, sneak_modifier

    full = ACTIONS["sentry-roll"].complete_params(params)  # type: ignore[arg-type]
    assert (sentry_modifier(full), sneak_modifier(full)) == (sentry, sneak)


# ------------------------------------------------------------------ dynamite

DYNAMITE_ROWS = [
    (2, 0, {"premature", "killed"}),
    *((total, total, set()) for total in range(3, 12)),
    (12, 0, {"dud"}),
]


@pytest.mark.parametrize(("total", "hits", "effects"), DYNAMITE_ROWS)
def test_dynamite_row(total: int, hits: int, effects: set[str]) -> None:
    action = ACTIONS["dynamite"]
    dice = [1, total - 1] if total <= 7 else [6, total - 6]
    out = action.resolve(action.complete_params({}), dice)
    assert out.headline == hits
    assert out.effects == effects


def test_gate_falls_to_seven_points() -> None:
    assert t.GATE_HITS == 7
    action = ACTIONS["dynamite"]
    out = action.resolve(action.complete_params({"target": "gate", "gate_damage": 4}), [1, 2])
    assert "gate_destroyed" in out.effects
    out = action.resolve(action.complete_params({"target": "gate", "gate_damage": 3}), [1, 2])
    assert "gate_destroyed" not in out.effects


@pytest.mark.parametrize(
    ("damage", "total", "destroyed"),
    [(0, 6, False), (0, 7, True), (3, 4, True), (5, 2, False), (5, 3, True), (6, 12, False)],
)
def test_gate_damage_row(damage: int, total: int, destroyed: bool) -> None:
    action = ACTIONS["dynamite"]
    dice = [1, total - 1] if total <= 7 else [6, total - 6]
    out = action.resolve(action.complete_params({"target": "gate", "gate_damage": damage}), dice)
    assert ("gate_destroyed" in out.effects) is destroyed


@pytest.mark.parametrize(("total", "broken"), [(t_, t_ % 2 == 1) for t_ in range(3, 12)])
def test_dynamite_odd_result_breaks_the_ladder_row(total: int, broken: bool) -> None:
    action = ACTIONS["dynamite"]
    dice = [1, total - 1] if total <= 7 else [6, total - 6]
    for use in ("thrown", "mine"):
        out = action.resolve(action.complete_params({"use": use, "ladder": True}), dice)
        assert ("ladder_destroyed" in out.effects) is broken


# ------------------------------------------------------------------ firing dice (FFL and Arab)

# (params, dice): stationary 1 per rifleman + officers; moving 1 per 2; pistols 2 each
FFL_FIRING_DICE_ROWS = [
    ({"riflemen": 6}, 6),
    ({"riflemen": 6, "sergeant": True}, 7),
    ({"riflemen": 6, "officers": 1}, 8),
    ({"riflemen": 6, "sergeant": True, "officers": 2}, 11),
    ({"riflemen": 7, "mode": "moving"}, 3),
    ({"riflemen": 7, "mode": "moving", "sergeant": True, "officers": 1}, 3),
    ({"riflemen": 6, "pistols": 2}, 10),
    ({"riflemen": 6, "pinned": True}, 3),
    ({"riflemen": 7, "sergeant": True, "pinned": True, "ammo": "half"}, 2),
    ({"riflemen": 6, "ammo": "half"}, 3),
    ({"riflemen": 7, "ammo": "third"}, 2),
]


@pytest.mark.parametrize(("params", "dice"), FFL_FIRING_DICE_ROWS)
def test_ffl_firing_dice_row(params: dict[str, object], dice: int) -> None:
    action = ACTIONS["ffl-fire"]
    assert action.request(action.complete_params(params)).dice_count == dice  # type: ignore[arg-type]


ARAB_FIRING_DICE_ROWS = [
    ({"figures": 3}, 3),
    ({"figures": 6}, 6),
    ({"figures": 40}, 6),
    ({"figures": 40, "pinned": True}, 3),
    ({"figures": 5, "pinned": True}, 2),
    ({"figures": 12, "pistols": 1}, 8),
]


@pytest.mark.parametrize(("params", "dice"), ARAB_FIRING_DICE_ROWS)
def test_arab_firing_dice_row(params: dict[str, object], dice: int) -> None:
    action = ACTIONS["arab-fire"]
    assert action.request(action.complete_params(params)).dice_count == dice  # type: ignore[arg-type]


# (gun, crew left, ammo, dice): half the crew or more lost halves; low ammunition too
GUN_CREW_ROWS = [
    ("maxim", 3, "normal", 8),
    ("maxim", 2, "normal", 8),
    ("maxim", 1, "normal", 4),
    ("maxim", 0, "normal", 0),
    ("maxim", 3, "half", 4),
    ("maxim", 1, "half", 2),
    ("maxim", 3, "third", 0),
    ("artillery", 5, "normal", 8),
    ("artillery", 3, "normal", 8),
    ("artillery", 2, "normal", 4),
    ("artillery", 1, "normal", 4),
    ("artillery", 5, "half", 4),
    ("artillery", 5, "third", 0),
]
# a pinned crew fires at half too, before the other halvings
GUN_PINNED_ROWS = [("maxim", 3, 4), ("maxim", 1, 2), ("artillery", 5, 4), ("artillery", 2, 2)]


@pytest.mark.parametrize(("gun", "crew", "dice"), GUN_PINNED_ROWS)
def test_pinned_gun_crew_row(gun: str, crew: int, dice: int) -> None:
    action = ACTIONS[f"{gun}-fire"]
    params = action.complete_params({"crew": crew, "pinned": True})
    assert action.request(params).dice_count == dice


@pytest.mark.parametrize(("gun", "crew", "ammo", "dice"), GUN_CREW_ROWS)
def test_gun_crew_and_ammunition_row(gun: str, crew: int, ammo: str, dice: int) -> None:
    action = ACTIONS[f"{gun}-fire"]
    params = action.complete_params({"crew": crew, "ammo": ammo})
    assert action.request(params).dice_count == dice


# ------------------------------------------------------------------ close combat through the action

# (parameter, value, side it modifies, modifier)
CC_PARAM_ROWS = [
    ("attacker_leader", "mounted", "attacker", 2),
    ("attacker_leader", "tribal", "attacker", 1),
    ("defender_leader", "captain", "defender", 2),
    ("defender_leader", "lieutenant", "defender", 2),
    ("defender_leader", "sergeant", "defender", 1),
    ("defender_hero", True, "defender", 2),
    ("attacker_berserk", True, "attacker", 1),
    ("defender_position", "cover", "defender", 1),
    ("defender_position", "loophole", "defender", 2),
    ("attacker_pinned", True, "attacker", -1),
    ("defender_low_water", True, "defender", -1),
    ("defender_wounded", True, "defender", -1),
    ("attacker_gun_crew", True, "attacker", -1),
]


@pytest.mark.parametrize(("name", "value", "who", "modifier"), CC_PARAM_ROWS)
def test_close_combat_modifier_through_the_action(
    name: str, value: object, who: str, modifier: int
) -> None:
    from companion.rules.tenir_le_fort.close_combat import bout_from_params

    params = ACTIONS["close-combat"].complete_params({name: value})  # type: ignore[dict-item]
    bout = bout_from_params(params)
    fighter = bout.attacker if who == "attacker" else bout.defender
    assert fighter.modifier == modifier


@pytest.mark.parametrize(("side", "die", "result"), LOSER_ROWS)
def test_close_combat_loser_row_through_the_action(side: str, die: int, result: str) -> None:
    # the loser is the defender: the attacker rolls a 6 and the other side defends
    attacker = "FFL" if side == "Arab" else "Arab"
    action = ACTIONS["close-combat"]
    out = action.resolve(action.complete_params({"attacker_side": attacker}), [6, die])
    if die == 6:
        assert out.headline == TIE and not out.effects
        return
    assert out.headline == ATTACKER_WINS
    assert LOSER_EFFECTS[result] <= out.effects
    assert (LOSER_PINNED in out.effects) is (result != "killed")
    assert (LOSER_FALLS_BACK in out.effects) is (result != "killed")


# ------------------------------------------------------------------ next attack (no chart: option)

NEXT_ATTACK_ROWS = [(1, 1, 1), (2, 1, 2), (3, 2, 3), (4, 2, 4), (5, 3, 5), (6, 3, 6)]


@pytest.mark.parametrize(("die", "half", "whole"), NEXT_ATTACK_ROWS)
def test_next_attack_day_row(die: int, half: int, whole: int) -> None:
    action = ACTIONS["next-attack-day"]
    assert action.resolve(action.complete_params({}), [die]).headline == half
    assert action.resolve(action.complete_params({"rule": "d6"}), [die]).headline == whole


# ------------------------------------------------------------------ sentries: Arab-only sneaking


@pytest.mark.parametrize("name", ["outside_fort", "grappling_hooks"])
def test_ffl_parties_get_no_sneaking_modifier(name: str) -> None:
    from companion.rules.core import RulesError

    action = ACTIONS["sentry-roll"]
    with pytest.raises(RulesError, match="only Arab parties"):
        action.request(action.complete_params({"sentry_side": "Arab", name: True}))
