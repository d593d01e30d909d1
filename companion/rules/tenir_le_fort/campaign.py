"""Rolls between and around the attacks: relief day, relief arrival, command points,
ammunition, the day of the next attack, and the Arab resolve check.
"""

from __future__ import annotations

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Param,
    ParamKind,
    Params,
    RollRequest,
    counted,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import Judgement, dice_total_action


def _d6(reason: str, label: str, meaning: str, *, secret: bool = False, n: int = 1) -> RollRequest:
    return RollRequest(reason, (DiceGroup(DieKind.D6, n, label, meaning),), secret=secret)


# ------------------------------------------------------------ reinforcements


def reinforcement_day_request() -> RollRequest:
    return _d6(
        "the day the relief column arrives",
        "relief day",
        "1: day 5, 2-3: day 4, 4-5: day 3, 6: day 2",
        secret=True,
    )


def _judge_day(p: Params, die: int) -> Judgement:
    day = t.reinforcement_day(die)
    return day, frozenset(), (f"{die}: the relief column arrives on day {day}",)


REINFORCEMENT_DAY = dice_total_action(
    "reinforcement-day",
    "FFL reinforcement day (secret)",
    "The referee rolls 1d6 in secret before the game: 1 day 5, 2-3 day 4, 4-5 day 3, 6 day 2.",
    (),
    lambda p: reinforcement_day_request(),
    _judge_day,
    "day",
    ({},),
)


def reinforcement_arrival_request() -> RollRequest:
    return _d6(
        "is the relief column here?",
        "relief",
        "5-6 on the relief day: it arrives",
        secret=True,
    )


def _judge_arrival(p: Params, die: int) -> Judgement:
    if bool(p["due"]) and die in t.REINFORCEMENT_ARRIVES_ON:
        return 1, frozenset({"arrived"}), ("the relief column marches onto the table",)
    # the same words whether it is the wrong day or a miss: the day stays secret
    return 0, frozenset(), ("no sign of the relief column",)


REINFORCEMENT_ARRIVAL = dice_total_action(
    "reinforcement-arrival",
    "FFL reinforcements arriving during the attack (secret)",
    "On each FFL leader activation the referee rolls 1d6 in secret; on the relief day a 5-6 "
    "brings the column onto the table. Rolled every time, so the day is not given away.",
    (Param("due", ParamKind.BOOL, "today is the relief day (known to the referee only)", True),),
    lambda p: reinforcement_arrival_request(),
    _judge_arrival,
    "arrived",
    ({}, {"due": False}),
)

# ------------------------------------------------------------ command points


def command_points_request(p: Params) -> RollRequest:
    halved = bool(p["halved"])
    return _d6(
        f"{p['side']} command points" + (" (halved: leader lost)" if halved else ""),
        "command points",
        "half the die, rounded down" if halved else "as many as the die shows",
        n=t.COMMAND_POINT_DICE,
    )


def _judge_cp(p: Params, die: int) -> Judgement:
    if bool(p["halved"]):
        got = die // 2
        return got, frozenset(), (f"{die} halved (fractions dropped): {counted(got, 'point')}",)
    # the headline says "6 command points": a line saying it again adds nothing
    return die, frozenset(), ()


COMMAND_POINTS = dice_total_action(
    "command-points",
    "Command points",
    "Each side with a command figure rolls 1d6 of command points; halved if the Arabs lost a "
    "mounted leader or the FFL the Captain. Unspent points carry over.",
    (
        Param("side", ParamKind.CHOICE, "which side", "FFL", choices=("FFL", "Arab")),
        Param("halved", ParamKind.BOOL, "a mounted leader / the Captain is lost", False),
    ),
    command_points_request,
    _judge_cp,
    "command points",
    ({}, {"side": "Arab", "halved": True}),
)

# ------------------------------------------------------------ ammunition


def ammunition_request(p: Params) -> RollRequest:
    return RollRequest(
        "FFL ammunition after the attack",
        (
            DiceGroup(
                DieKind.D6,
                2,
                "ammunition",
                "2-7 fine, 8-10 fire at half, 11 by option, 12 a third and no MG/gun ammo",
            ),
        ),
    )


# The headline is the divisor of the FFL's fire dice (1, 2 or 3), named for the box
# ("Ammo: fire at a third"), not shown as a bare number.
AMMO_LABEL = "ammo (1 = plenty, 2 = fire at half, 3 = fire at a third)"


def _ammo_judge(p: Params, total: int) -> Judgement:
    modified = total + int(p["modifier"])
    row = t.ammunition(modified, eleven=str(p["eleven"]))
    effects: set[str] = set()
    if row.level != "normal":
        effects.add("low_ammo")
    if not row.heavy_weapons:
        effects.add("no_heavy_ammo")
    text = {
        "normal": "no problems",
        "half": "low ammo: fire at half",
        "third": "low ammo: fire at a third, no MG or artillery ammo",
    }[row.level]
    mod = f"{int(p['modifier']):+d} = {modified}" if int(p["modifier"]) else ""
    return t.AMMO_DIVISOR[row.level], frozenset(effects), (f"{total}{mod}: {text}",)


AMMUNITION = dice_total_action(
    "ammunition",
    "FFL ammunition check",
    "After an attack, unless the supply column got through, roll 2d6: 2-7 no problem, 8-10 "
    "fire at half, 12 fire at a third with no Maxim or artillery ammunition.",
    (
        Param("modifier", ParamKind.INT, "modifiers the referee applies", 0, minimum=-3, maximum=3),
        Param(
            "eleven",
            ParamKind.CHOICE,
            "reading of the missing 11 row",
            "half",
            choices=("half", "third"),
        ),
    ),
    ammunition_request,
    _ammo_judge,
    AMMO_LABEL,
    ({}, {"eleven": "third", "modifier": 1}),
    dice=2,
)

# ------------------------------------------------------------ next attack


def next_attack_request(p: Params) -> RollRequest:
    meaning = "as many as the die shows" if str(p["rule"]) == "d6" else "half the die, rounded up"
    return _d6("Arab player: when can the next attack begin?", "days to wait", meaning)


def _judge_next(p: Params, die: int) -> Judgement:
    days = die if str(p["rule"]) == "d6" else (die + 1) // 2
    return days, frozenset(), (f"{die}: the next attack comes {counted(days, 'day')} later",)


NEXT_ATTACK = dice_total_action(
    "next-attack-day",
    "Days until the second attack",
    "The seed has the Arabs roll for when the next attack begins but gives no chart; the box "
    "reads 1d6 halved rounded up (1-3 days), or the whole d6 by option.",
    (
        Param(
            "rule",
            ParamKind.CHOICE,
            "option next_attack_roll",
            "half_d6",
            choices=("half_d6", "d6"),
        ),
    ),
    next_attack_request,
    _judge_next,
    "days",
    ({}, {"rule": "d6"}),
)

# ------------------------------------------------------------ Arab resolve


def _resolve_need(p: Params) -> int | None:
    return t.resolve_needed(int(p["casualties"]), first_band_from=int(str(p["first_band"])))


def _resolve_mod(p: Params) -> int:
    return (
        (t.RESOLVE_MOD_INSIDE_FORT if bool(p["inside_fort"]) else 0)
        + (t.RESOLVE_MOD_OASIS if bool(p["oasis"]) else 0)
        + t.RESOLVE_MOD_PER_COMMAND_POINT * int(p["command_points"])
    )


def resolve_request(p: Params) -> RollRequest:
    need = _resolve_need(p)
    if need is None:
        casualties = counted(int(p["casualties"]), "Arab casualty", "Arab casualties")
        return RollRequest(f"{casualties}: no resolve check", ())
    mod = _resolve_mod(p)
    return _d6(
        f"Arab resolve after {counted(int(p['casualties']), 'casualty', 'casualties')}",
        "resolve",
        f"d6 {mod:+d}: {need}+ stays, less falls back",
    )


def _judge_resolve(p: Params, die: int) -> Judgement:
    need = _resolve_need(p)
    assert need is not None
    mod = _resolve_mod(p)
    total = die + mod
    if total >= need:
        return total, frozenset(), (f"{die}{mod:+d} = {total}, needs {need}: the attack goes on",)
    return (
        total,
        frozenset({"resolve_failed"}),
        (f"{die}{mod:+d} = {total}, needs {need}: the Arabs fall back",),
    )


ARAB_RESOLVE = dice_total_action(
    "arab-resolve",
    "Arab resolve",
    "At the end of a turn with 25+ Arab casualties this attack, roll 1d6 +1 inside the fort, "
    "+1 holding the oasis, +1 per command point: below the chart's number the Arabs fall back.",
    (
        Param(
            "casualties", ParamKind.INT, "Arab figures lost this attack", 30, minimum=0, maximum=500
        ),
        Param("inside_fort", ParamKind.BOOL, "some Arab figures stand within the fort (+1)", False),
        Param("oasis", ParamKind.BOOL, "the Arabs control the oasis (+1)", False),
        Param(
            "command_points",
            ParamKind.INT,
            "command points spent (+1 each)",
            0,
            minimum=0,
            maximum=12,
        ),
        Param(
            "first_band",
            ParamKind.CHOICE,
            "option resolve_threshold: check from",
            "25",
            choices=("25", "26"),
        ),
    ),
    resolve_request,
    _judge_resolve,
    "resolve total",
    (
        {"casualties": 30},
        {"casualties": 55, "inside_fort": True, "command_points": 1},
        {"casualties": 75, "oasis": True},
    ),
)

ACTIONS: tuple[Action, ...] = (
    REINFORCEMENT_DAY,
    REINFORCEMENT_ARRIVAL,
    COMMAND_POINTS,
    AMMUNITION,
    NEXT_ATTACK,
    ARAB_RESOLVE,
)
