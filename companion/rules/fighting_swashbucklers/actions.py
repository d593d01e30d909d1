"""Every roll Fighting Swashbucklers asks for, as a stand-alone Action.

Each has its situation as Params, the dice it asks for, how they read, and its
exact odds (computed over the faces' values, not by enumerating dice pools).
The game (`game.py`) resolves its rolls through the same functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    bool_param,
    check_dice,
    counted,
    int_param,
    str_param,
)
from companion.rules.fighting_swashbucklers import command, fire, melee, morale, rally, tables
from companion.rules.fighting_swashbucklers.dice import (
    D10_ZERO_IS_10,
    D10_ZERO_READINGS,
    DOUBLE_ZERO_IS_100,
    DOUBLE_ZERO_READINGS,
    d10_meaning,
    d10_request,
    d10_values,
    describe_d10,
    percentile_request,
    percentile_values,
    read_d10,
    read_percentile,
)
from companion.rules.odds import odds_from_outcomes, odds_from_ways

Weighted = list[tuple[Fraction, int, frozenset[str]]]

DOUBLE_ZERO = Param(
    "double_zero",
    ParamKind.CHOICE,
    'how a percentile "00" reads: 100 (the charts run 01-100) or 0',
    default=DOUBLE_ZERO_IS_100,
    choices=DOUBLE_ZERO_READINGS,
)
D10_ZERO = Param(
    "d10_zero",
    ParamKind.CHOICE,
    "how a lone d10's 0 reads: 10 (the die runs 1-10) or 0 (0-9)",
    default=D10_ZERO_IS_10,
    choices=D10_ZERO_READINGS,
)
CP = Param("cp", ParamKind.INT, "the commanding officer's Command Points", 4, 0, 10)
FIRERS: tuple[str, ...] = (*tables.POSE_NAMES, "cavalry")
FIRER = Param(
    "firer", ParamKind.CHOICE, "the firing squad's pose (or cavalry)", "kneeling", choices=FIRERS
)
CAVALRY_FF = Param(
    "cavalry_fire_factor",
    ParamKind.INT,
    "markers mounted cavalry place (option cavalry_fire_factor)",
    1,
    0,
    1,
)


def _percentile(params: Params, request: RollRequest, dice: Sequence[int]) -> tuple[int, str]:
    """The reading, and a line with it: "d% 34" (the dice show 30 and 4), "d% 00 reads
    100" where the reading is not the number the two dice make."""
    check_dice(request, dice)
    zero = str_param(params, "double_zero")
    value = read_percentile(dice[0], dice[1], zero)
    shown = f"{dice[0]}{dice[1]}"
    return value, f"d% {shown}" if shown == f"{value:02d}" else f"d% {shown} reads {value}"


def _d10(params: Params, request: RollRequest, dice: Sequence[int]) -> tuple[int, tuple[str, ...]]:
    """The die's reading, and a detail line saying how it read when that is not its
    face ("d10 0 reads 10"); none when it reads as it shows (the dice say so already)."""
    check_dice(request, dice)
    zero = str_param(params, "d10_zero")
    line = describe_d10(dice[0], zero)
    return read_d10(dice[0], zero), (line,) if line else ()


def _tally(label: str, results: Iterable[tuple[int, frozenset[str]]]) -> Odds:
    """Odds from one (headline, effects) for each equally likely reading of the dice."""
    counts = Counter(results)
    return odds_from_ways(label, ((n, v, e) for (v, e), n in counts.items()), counts.total())


def _over_percentile(
    params: Params, label: str, fn: Callable[[int], tuple[int, frozenset[str]]]
) -> Odds:
    return _tally(label, map(fn, percentile_values(str_param(params, "double_zero"))))


def _over_d10(params: Params, label: str, fn: Callable[[int], tuple[int, frozenset[str]]]) -> Odds:
    return _tally(label, map(fn, d10_values(str_param(params, "d10_zero"))))


# ------------------------------------------------------------ command points


# A count, so the box says "4 command points" ("CP" would read "CP: 4").
CP_LABEL = "command points"


def _cp_request(params: Params) -> RollRequest:
    return percentile_request(
        "Commanding officer's Command Points", "01-33: 3 CP, 34-66: 4, 67-100: 5"
    )


def _cp_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    value, line = _percentile(params, _cp_request(params), dice)
    cp = command.command_points_for(value)
    return Outcome(cp, CP_LABEL, details=(line, f"{value} is in the band for {cp} CP"))


COMMAND_POINTS = Action(
    "command-points",
    "Command Points",
    "The commanding officer's CP, rolled at the start of the game.",
    (DOUBLE_ZERO,),
    _cp_request,
    _cp_resolve,
    lambda p: _over_percentile(
        p, CP_LABEL, lambda v: (command.command_points_for(v), frozenset())
    ),
    examples=({}, {"double_zero": "0"}),
)

# ------------------------------------------------------------ under-officer

OFFICER_NUMBERS = {tables.GOOD_LEADER: 1, tables.ORDINARY_OFFICER: 2, tables.MARTINET: 3}
# The seed's words for the three types, everywhere the referee reads one: the odds, the
# dice's meaning, the headline, the effect and the play-by-play.
OFFICER_WORDS = {
    tables.GOOD_LEADER: "good leader",
    tables.ORDINARY_OFFICER: "run of the mill",
    tables.MARTINET: "martinet",
}
OFFICER_LABEL = (
    "type ("
    + ", ".join(f"{number} = {OFFICER_WORDS[kind]}" for kind, number in OFFICER_NUMBERS.items())
    + ")"
)


def _officer_request(params: Params) -> RollRequest:
    return percentile_request(
        "Under-officer's type", "01-33 good leader, 34-66 run of the mill, 67-100 martinet"
    )


def _officer_outcome(value: int) -> tuple[int, frozenset[str]]:
    kind = command.under_officer_for(value)
    return OFFICER_NUMBERS[kind], frozenset({officer_effect(kind)})


def officer_effect(kind: str) -> str:
    """The effect naming a type: its words, which the box shows ("run of the mill")."""
    return OFFICER_WORDS[kind].replace(" ", "_")


def officer_kind(effects: frozenset[str]) -> str:
    """The type (tables.GOOD_LEADER, ...) that an under-officer's roll named."""
    return next(kind for kind in OFFICER_NUMBERS if officer_effect(kind) in effects)


def _officer_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    value, line = _percentile(params, _officer_request(params), dice)
    number, effects = _officer_outcome(value)
    kind = command.under_officer_for(value)
    return Outcome(number, OFFICER_LABEL, effects, (line, f"{value}: {OFFICER_WORDS[kind]}"))


UNDER_OFFICER = Action(
    "under-officer",
    "Under-officer type",
    "Dice for an under-officer: good leader, run of the mill or martinet.",
    (DOUBLE_ZERO,),
    _officer_request,
    _officer_resolve,
    lambda p: _over_percentile(p, OFFICER_LABEL, _officer_outcome),
    examples=({}, {"double_zero": "0"}),
)

# ------------------------------------------------------------ second action


# A yes/no headline: the box says "Granted: no" and "granted 30%" (not "Second actions: 0").
SECOND_LABEL = "granted"


def _second_request(params: Params) -> RollRequest:
    chance = command.second_action_chance(int_param(params, "cp"))
    return percentile_request(f"Second action ({chance}%)", f"{chance} or less: a second action")


def _second_outcome(cp: int, value: int) -> tuple[int, frozenset[str]]:
    granted = command.second_action_granted(cp, value)
    return (1 if granted else 0), frozenset() if granted else frozenset({"denied"})


def _second_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    cp = int_param(params, "cp")
    value, line = _percentile(params, _second_request(params), dice)
    headline, effects = _second_outcome(cp, value)
    verdict = "a second action" if headline else "no second action"
    return Outcome(
        headline,
        SECOND_LABEL,
        effects,
        (line, f"chance 10 x {cp} CP = {command.second_action_chance(cp)}%: {verdict}"),
    )


SECOND_ACTION = Action(
    "second-action",
    "Second action",
    "Whether a side's units get a second action this turn: 10 x CP percent.",
    (CP, DOUBLE_ZERO),
    _second_request,
    _second_resolve,
    lambda p: _over_percentile(p, SECOND_LABEL, lambda v: _second_outcome(int_param(p, "cp"), v)),
    examples=({"cp": 4}, {"cp": 0, "double_zero": "0"}, {"cp": 10}),
)

# ------------------------------------------------------------ reaction fire


def _reaction_request(params: Params) -> RollRequest:
    cp = int_param(params, "cp")
    return d10_request(
        f"Reaction fire: {cp} CP x d10",
        "one unit reacts per 10 points",
        str_param(params, "d10_zero"),
    )


def _reaction_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    cp = int_param(params, "cp")
    die, reading = _d10(params, _reaction_request(params), dice)
    units = command.reacting_units(cp, die)
    return Outcome(
        units,
        "reacting units",
        details=(
            *reading,
            f"{cp} CP x {die} = {counted(command.reacting_points(cp, die), 'point')}: "
            + counted(units, "unit reacts", "units react"),
        ),
    )


REACTION_FIRE = Action(
    "reaction-fire",
    "Reaction fire",
    "How many of the non-phasing side's units may react with fire: CP x d10, one a 10.",
    (CP, D10_ZERO),
    _reaction_request,
    _reaction_resolve,
    lambda p: _over_d10(
        p, "reacting units", lambda d: (command.reacting_units(int_param(p, "cp"), d), frozenset())
    ),
    examples=({"cp": 3}, {"cp": 5, "d10_zero": "0"}, {"cp": 0}),
)

# ------------------------------------------------------------ morale

MORALE_PARAMS = (
    Param("men", ParamKind.INT, "men in the squad", 4, 1, tables.SQUAD_SIZE),
    Param("markers", ParamKind.INT, "markers on the squad", 0, 0, 40),
    Param("stress", ParamKind.BOOL, "a stress situation halves the normal ML", False),
    Param(
        "leader_points",
        ParamKind.INT,
        "points a good leader lends",
        0,
        0,
        tables.GOOD_LEADER_MAX_POINTS,
    ),
    Param(
        "kind",
        ParamKind.CHOICE,
        "what the squad is",
        tables.INFANTRY,
        choices=(tables.INFANTRY, tables.CAVALRY),
    ),
    DOUBLE_ZERO,
)


def _level(params: Params) -> int:
    return morale.morale_level(
        int_param(params, "men"),
        int_param(params, "markers"),
        stress=bool_param(params, "stress"),
        leader_points=int_param(params, "leader_points"),
    )


def morale_effects(result: morale.MoraleResult) -> frozenset[str]:
    if result.band == morale.FAILED:
        return frozenset({"routed"})
    if result.band == morale.PROVOKED:
        return frozenset({"provoked"})
    return frozenset()


def _morale_request(params: Params) -> RollRequest:
    level = _level(params)
    lowest = min(percentile_values(str_param(params, "double_zero")))
    if level < lowest:  # markers have driven the ML below anything the dice can read
        meaning = "every roll fails"
    else:
        meaning = f"over {level} fails; {level // 2} or less provoked"
    return percentile_request(f"Morale test against ML {level}", meaning)


def _morale_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    men = int_param(params, "men")
    value, line = _percentile(params, _morale_request(params), dice)
    level = _level(params)
    result = morale.morale_result(value, level, men)
    explain = morale.explain_level(
        men,
        int_param(params, "markers"),
        stress=bool_param(params, "stress"),
        leader_points=int_param(params, "leader_points"),
    )
    if result.band == morale.FAILED:
        parity = "odd" if value % 2 else "even"
        n = result.losses
        verdict = (
            f"{value} > {level}: failed, {parity} roll: "
            f"{counted(n, 'man', 'men')} off, {counted(n, 'marker')}"
        )
    elif result.band == morale.PROVOKED:
        reaction = morale.provoked_reaction(str_param(params, "kind"))
        verdict = f"{value} <= {level // 2} (half ML): provoked, the squad must {reaction}"
    else:
        verdict = f"{value} <= {level}: no effect"
    return Outcome(result.losses, "men removed", morale_effects(result), (explain, line, verdict))


def _morale_odds(params: Params) -> Odds:
    men = int_param(params, "men")
    level = _level(params)

    def one(value: int) -> tuple[int, frozenset[str]]:
        result = morale.morale_result(value, level, men)
        return result.losses, morale_effects(result)

    return _over_percentile(params, "men removed", one)


MORALE_TEST = Action(
    "morale-test",
    "Morale test",
    "A squad's percentile test against its Morale Level: fail, no effect or provoked.",
    MORALE_PARAMS,
    _morale_request,
    _morale_resolve,
    _morale_odds,
    examples=(
        {},
        {"men": 3, "markers": 3},
        {"men": 2, "markers": 1, "stress": True, "leader_points": 10, "kind": "cavalry"},
        {"men": 1, "markers": 20, "double_zero": "0"},
    ),
)

# ------------------------------------------------------------ good leader


def _risk_request(params: Params) -> RollRequest:
    risk = command.good_leader_risk(int_param(params, "points"))
    return percentile_request(f"Good leader's risk ({risk}%)", f"{risk} or less: killed")


def _officer_fate(killed: bool) -> tuple[int, frozenset[str]]:
    """(officers killed, effects) for an under-officer's life at risk on a percentile."""
    return (1 if killed else 0), frozenset({"killed"}) if killed else frozenset()


def _risk_outcome(points: int, value: int) -> tuple[int, frozenset[str]]:
    return _officer_fate(command.good_leader_killed(points, value))


def _risk_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    points = int_param(params, "points")
    value, line = _percentile(params, _risk_request(params), dice)
    headline, effects = _risk_outcome(points, value)
    risk = command.good_leader_risk(points)
    return Outcome(
        headline,
        "leaders killed",
        effects,
        (
            line,
            f"risk 2 x {counted(points, 'point')} = {risk}%: "
            f"{'killed' if headline else 'survives'}",
        ),
    )


GOOD_LEADER_RISK = Action(
    "good-leader-risk",
    "Good leader's risk",
    "A good leader who lent points to a morale test is killed on 2 x the points.",
    (
        Param("points", ParamKind.INT, "points he lent", 10, 1, tables.GOOD_LEADER_MAX_POINTS),
        DOUBLE_ZERO,
    ),
    _risk_request,
    _risk_resolve,
    lambda p: _over_percentile(
        p, "leaders killed", lambda v: _risk_outcome(int_param(p, "points"), v)
    ),
    examples=({"points": 10}, {"points": 50, "double_zero": "0"}),
)

# ------------------------------------------------------------ rifle fire


def _firer_factor(params: Params) -> int:
    firer = str_param(params, "firer")
    kind = tables.CAVALRY if firer == "cavalry" else tables.INFANTRY
    pose_name = "running" if firer == "cavalry" else firer
    return fire.fire_factor(kind, pose_name, int_param(params, "cavalry_fire_factor"))


def _rifle_request(params: Params) -> RollRequest:
    men = int_param(params, "men")
    factor = _firer_factor(params)
    if not fire.rifle_needs_roll(men):
        return RollRequest(f"Full squad fires: {counted(factor, 'marker')}, no roll", ())
    chance = tables.fire_chance(men)
    return percentile_request(
        f"{counted(men, 'man fires', 'men fire')} ({chance}%)",
        f"{chance} or less: {counted(factor, 'marker')}",
    )


def _rifle_outcome(men: int, factor: int, value: int | None) -> tuple[int, frozenset[str]]:
    return fire.rifle_markers(men, factor, value), frozenset()


def _rifle_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    men = int_param(params, "men")
    factor = _firer_factor(params)
    request = _rifle_request(params)
    if not request.groups:
        check_dice(request, dice)
        return Outcome(
            factor, "markers", details=(f"a full squad places its Fire Factor {factor}",)
        )
    value, line = _percentile(params, request, dice)
    markers = fire.rifle_markers(men, factor, value)
    chance = tables.fire_chance(men)
    verdict = (
        f"{value} <= {chance}: {counted(factor, 'marker')}"
        if markers
        else f"{value} > {chance}: no effect"
    )
    return Outcome(markers, "markers", details=(line, verdict))


def _rifle_odds(params: Params) -> Odds:
    men = int_param(params, "men")
    factor = _firer_factor(params)
    if not fire.rifle_needs_roll(men):
        return Odds("markers", {factor: Fraction(1)})
    return _over_percentile(params, "markers", lambda v: _rifle_outcome(men, factor, v))


RIFLE_FIRE = Action(
    "rifle-fire",
    "Rifle fire",
    "A squad fires: its Fire Factor in markers, all or nothing, at 25% a man.",
    (
        Param("men", ParamKind.INT, "men firing", 4, 1, tables.SQUAD_SIZE),
        FIRER,
        CAVALRY_FF,
        DOUBLE_ZERO,
    ),
    _rifle_request,
    _rifle_resolve,
    _rifle_odds,
    examples=(
        {"men": 3},
        {"men": 1, "firer": "prone"},
        {"men": 2, "firer": "cavalry", "double_zero": "0"},
    ),
)

# ------------------------------------------------------------ machine gun


def _mg_riflemen(params: Params) -> int:
    return fire.machine_gun_riflemen(int_param(params, "men"), int_param(params, "mg_crew"))


def _mg_request(params: Params) -> RollRequest:
    riflemen = _mg_riflemen(params)
    factor = _firer_factor(params)
    if not fire.rifle_needs_roll(riflemen):
        return RollRequest("Machine gun fires: 4 markers, no rifle roll", ())
    chance = tables.fire_chance(riflemen)
    return percentile_request(
        f"Machine gun: 4 markers + {counted(riflemen, 'rifleman', 'riflemen')} ({chance}%)",
        f"{chance} or less: {counted(factor, 'more marker')}",
    )


def _mg_outcome(riflemen: int, factor: int, value: int | None) -> tuple[int, frozenset[str]]:
    return tables.MACHINE_GUN_MARKERS + fire.rifle_markers(riflemen, factor, value), frozenset()


def _mg_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    riflemen = _mg_riflemen(params)
    factor = _firer_factor(params)
    request = _mg_request(params)
    if not request.groups:
        check_dice(request, dice)
        markers, _ = _mg_outcome(riflemen, factor, None)
        return Outcome(
            markers,
            "markers",
            details=(f"the gun places 4 markers; {counted(riflemen, 'rifleman', 'riflemen')}",),
        )
    value, line = _percentile(params, request, dice)
    markers, _ = _mg_outcome(riflemen, factor, value)
    chance = tables.fire_chance(riflemen)
    if value <= chance:
        verdict = f"{value} <= {chance}: gun 4 + riflemen {factor} = {counted(markers, 'marker')}"
    else:
        verdict = f"{value} > {chance}: the riflemen miss, the gun's 4 markers only"
    return Outcome(markers, "markers", details=(line, verdict))


def _mg_odds(params: Params) -> Odds:
    riflemen = _mg_riflemen(params)
    factor = _firer_factor(params)
    if not fire.rifle_needs_roll(riflemen):
        markers, _ = _mg_outcome(riflemen, factor, None)
        return Odds("markers", {markers: Fraction(1)})
    return _over_percentile(params, "markers", lambda v: _mg_outcome(riflemen, factor, v))


MACHINE_GUN_FIRE = Action(
    "machine-gun-fire",
    "Machine gun fire",
    "A machine-gun squad: 4 markers from the gun plus its riflemen's all-or-nothing fire.",
    (
        Param("men", ParamKind.INT, "men in the squad", 4, 1, tables.SQUAD_SIZE),
        Param("mg_crew", ParamKind.INT, "men on the gun (option mg_crew)", 1, 1, 2),
        FIRER,
        CAVALRY_FF,
        DOUBLE_ZERO,
    ),
    _mg_request,
    _mg_resolve,
    _mg_odds,
    examples=({"men": 4}, {"men": 3, "mg_crew": 2, "firer": "prone"}),
)

# ------------------------------------------------------------ cannon


def _cannon_request(params: Params) -> RollRequest:
    rng = int_param(params, "range")
    tens = fire.range_tens(rng)
    return d10_request(
        f'Cannon at {tens * 10}-{tens * 10 + 9}": d10 - {tens}',
        f"markers = d10 - {tens}, none below",
        str_param(params, "d10_zero"),
    )


def _cannon_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    rng = int_param(params, "range")
    die, reading = _d10(params, _cannon_request(params), dice)
    tens = fire.range_tens(rng)
    markers = fire.cannon_markers(die, rng)
    verdict = counted(markers, "marker") if markers else "no impact"
    return Outcome(
        markers,
        "markers",
        details=(
            *reading,
            f'D {die} - R {tens} (range {tens * 10}-{tens * 10 + 9}"): {verdict}',
        ),
    )


CANNON_FIRE = Action(
    "cannon-fire",
    "Cannon fire",
    "Cannon: a d10 less the tens digit of the range in inches, in markers.",
    (Param("range", ParamKind.INT, "range in inches", 12, 0, fire.MAX_CANNON_RANGE), D10_ZERO),
    _cannon_request,
    _cannon_resolve,
    lambda p: _over_d10(
        p, "markers", lambda d: (fire.cannon_markers(d, int_param(p, "range")), frozenset())
    ),
    examples=({"range": 5}, {"range": 37, "d10_zero": "0"}, {"range": 99}),
)

# ------------------------------------------------------------ rough terrain


def _rough_request(params: Params) -> RollRequest:
    chance = tables.ROUGH_TERRAIN_PASS_CHANCE
    return percentile_request("Line into rough terrain", f"{chance} or less passes")


def _rough_outcome(value: int) -> tuple[int, frozenset[str]]:
    from companion.rules.fighting_swashbucklers.movement import passes_rough

    ok = passes_rough(value)
    return (1 if ok else 0), frozenset() if ok else frozenset({"halted"})


def _rough_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    value, line = _percentile(params, _rough_request(params), dice)
    headline, effects = _rough_outcome(value)
    return Outcome(
        headline,
        "passed",
        effects,
        (line, "passes through" if headline else "stands for the rest of the turn"),
    )


ROUGH_TERRAIN = Action(
    "rough-terrain",
    "Rough terrain",
    "A unit in line passes rough terrain on 70% each turn, else it stands.",
    (DOUBLE_ZERO,),
    _rough_request,
    _rough_resolve,
    lambda p: _over_percentile(p, "passed", _rough_outcome),
    examples=({}, {"double_zero": "0"}),
)

# ------------------------------------------------------------ melee


def _side_params(side: str) -> tuple[Param, ...]:
    return (
        Param(
            side,
            ParamKind.CHOICE,
            f"the {side}'s men",
            "running" if side == "attacker" else "kneeling",
            choices=melee.FIGHTER_CHOICES,
        ),
        Param(f"{side}_martinet", ParamKind.BOOL, "led by a martinet (+1 a man)", False),
        Param(
            f"{side}_advantage", ParamKind.BOOL, "works, building, flank attack (+2 a man)", False
        ),
    )


COMMANDER_FACTOR = Param(
    "commander_factor", ParamKind.INT, "the commanding officer's melee value (option)", 12, 10, 12
)


def _side_factor(params: Params, side: str) -> int:
    return melee.melee_factor(
        str_param(params, side),
        martinet=bool_param(params, f"{side}_martinet"),
        advantage=bool_param(params, f"{side}_advantage"),
        commander_factor=int_param(params, "commander_factor"),
    )


WINNER_NUMBERS = {melee.TIE: 0, melee.ATTACKER: 1, melee.DEFENDER: 2}
WINNER_LABEL = "winner (0 tie, 1 attacker, 2 defender)"


def _pair_request(params: Params) -> RollRequest:
    a, d = _side_factor(params, "attacker"), _side_factor(params, "defender")
    zero = str_param(params, "d10_zero")
    return RollRequest(
        f"Melee pair: {a} x d10 against {d} x d10",
        (
            DiceGroup(DieKind.D10, 1, "attacker", d10_meaning(f"x {a}", zero)),
            DiceGroup(DieKind.D10, 1, "defender", d10_meaning(f"x {d}", zero)),
        ),
    )


def _pair_effects(result: melee.PairResult) -> frozenset[str]:
    return frozenset({"routed"}) if result.routed else frozenset()


def _pair_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    a, d = _side_factor(params, "attacker"), _side_factor(params, "defender")
    check_dice(_pair_request(params), dice)
    zero = str_param(params, "d10_zero")
    x, y = read_d10(dice[0], zero), read_d10(dice[1], zero)
    r = melee.pair_result(a, d, x, y)
    if r.winner == melee.TIE:
        verdict = "a tie: the pair fights again"
    else:
        verdict = f"{r.winner} wins; the loser {'routs (threefold)' if r.routed else 'withdraws'}"
    return Outcome(
        WINNER_NUMBERS[r.winner],
        WINNER_LABEL,
        _pair_effects(r),
        (
            f"attacker {a} x {x} = {r.attacker_product}, defender {d} x {y} = {r.defender_product}",
            verdict,
        ),
    )


def _pair_odds(params: Params) -> Odds:
    a, d = _side_factor(params, "attacker"), _side_factor(params, "defender")
    values = d10_values(str_param(params, "d10_zero"))
    results = (melee.pair_result(a, d, x, y) for x in values for y in values)
    return _tally(WINNER_LABEL, ((WINNER_NUMBERS[r.winner], _pair_effects(r)) for r in results))


MELEE_PARAMS = (
    *_side_params("attacker"),
    *_side_params("defender"),
    COMMANDER_FACTOR,
    D10_ZERO,
)

MELEE_PAIR = Action(
    "melee-pair",
    "Melee pairing",
    "Two men paired off: Melee Factor x d10 each; the bigger product stays in, threefold routs.",
    MELEE_PARAMS,
    _pair_request,
    _pair_resolve,
    _pair_odds,
    examples=(
        {},
        {"attacker": "cavalry", "defender": "commander", "defender_advantage": True},
        {"attacker": "prone", "attacker_martinet": True, "defender": "standing"},
        {"attacker": "cavalry", "defender": "prone", "d10_zero": "0"},
    ),
)


def _round_request(params: Params) -> RollRequest:
    n = int_param(params, "pairs")
    a, d = _side_factor(params, "attacker"), _side_factor(params, "defender")
    zero = str_param(params, "d10_zero")
    return RollRequest(
        f"Melee round: {counted(n, 'pair')}, {a} against {d}",
        (
            DiceGroup(DieKind.D10, n, "attackers", d10_meaning(f"x {a}, paired in order", zero)),
            DiceGroup(DieKind.D10, n, "defenders", d10_meaning(f"x {d}, paired in order", zero)),
        ),
    )


def _round_effects(defenders_routed: bool, attackers_routed: bool) -> frozenset[str]:
    out = set()
    if defenders_routed:
        out.add("defender_routed")
    if attackers_routed:
        out.add("attacker_routed")
    return frozenset(out)


def melee_round_result(params: Params, dice: Sequence[int]) -> melee.RoundResult:
    """Every pairing of a melee-round roll, its dice read as `d10_zero` says (the game uses it)."""
    zero = str_param(params, "d10_zero")
    att, dfn = (tuple(read_d10(x, zero) for x in g) for g in _round_request(params).split(dice))
    return melee.round_result(
        _side_factor(params, "attacker"), _side_factor(params, "defender"), att, dfn
    )


def _round_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    r = melee_round_result(params, dice)
    lines = tuple(
        f"pair {i}: {p.attacker_product} v {p.defender_product}: "
        + ("tie" if p.winner == melee.TIE else p.winner + (" routs him" if p.routed else " wins"))
        for i, p in enumerate(r.pairs, start=1)
    )
    return Outcome(
        r.attacker_wins,
        "defenders beaten",
        _round_effects(r.defenders_routed > 0, r.attackers_routed > 0),
        lines,
    )


def _round_odds(params: Params) -> Odds:
    a, d = _side_factor(params, "attacker"), _side_factor(params, "defender")
    dist = melee.round_distribution(int_param(params, "pairs"), a, d, str_param(params, "d10_zero"))
    weighted: Weighted = [(p, wins, _round_effects(dr, ar)) for (wins, dr, ar), p in dist.items()]
    return odds_from_outcomes("defenders beaten", weighted)


MELEE_ROUND = Action(
    "melee-round",
    "Melee round",
    "Several pairs at once: how many of the defenders' men are beaten, and any routs.",
    (Param("pairs", ParamKind.INT, "pairs of men fighting", 4, 1, 8), *MELEE_PARAMS),
    _round_request,
    _round_resolve,
    _round_odds,
    examples=(
        {"pairs": 1},
        {"pairs": 2, "attacker": "cavalry", "defender": "prone"},
        {"pairs": 2, "defender_advantage": True, "d10_zero": "0"},
    ),
)

# ------------------------------------------------------------ martinet


def _martinet_request(params: Params) -> RollRequest:
    risk = command.martinet_risk(bool_param(params, "won"))
    return percentile_request(f"Martinet's men turn on him ({risk}%)", f"{risk} or less: killed")


def _martinet_outcome(won: bool, value: int) -> tuple[int, frozenset[str]]:
    return _officer_fate(command.martinet_killed(won, value))


def _martinet_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    won = bool_param(params, "won")
    value, line = _percentile(params, _martinet_request(params), dice)
    headline, effects = _martinet_outcome(won, value)
    return Outcome(
        headline,
        "martinets killed",
        effects,
        (
            line,
            f"{'won' if won else 'lost'}: {command.martinet_risk(won)}% risk, "
            + ("he's had it" if headline else "he survives"),
        ),
    )


MARTINET_FATE = Action(
    "martinet-fate",
    "Martinet's fate",
    "After a melee, a martinet's men may do him in: 30% if they won, 60% if they lost.",
    (Param("won", ParamKind.BOOL, "his squad won the melee", True), DOUBLE_ZERO),
    _martinet_request,
    _martinet_resolve,
    lambda p: _over_percentile(
        p, "martinets killed", lambda v: _martinet_outcome(bool_param(p, "won"), v)
    ),
    examples=({"won": True}, {"won": False, "double_zero": "0"}),
)

# ------------------------------------------------------------ rally


# The rally's effect when CP x d10 / 10 leaves a fraction of a man: a percentile
# roll (rally-fraction) may bring one more. Named for what it means on the screen
# ("One more possible" under "3 men rallied"; "one more possible 50%" in the odds).
ONE_MORE_POSSIBLE = "one_more_possible"


def _rally_request(params: Params) -> RollRequest:
    cp = int_param(params, "cp")
    return d10_request(
        f"Rally: {cp} CP x d10 / 10 men",
        "a fraction: percentile for one more",
        str_param(params, "d10_zero"),
    )


def _fraction_request(percent: int) -> RollRequest:
    return percentile_request(f"Rally fraction ({percent}%)", f"{percent} or less: one more man")


def _rally_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    cp = int_param(params, "cp")
    die, reading = _d10(params, _rally_request(params), dice)
    whole = rally.rally_whole_men(cp, die)
    percent = rally.rally_fraction_percent(cp, die)
    points = rally.rally_points(cp, die)
    men = counted(points // 10, "man", "men") if points % 10 == 0 else f"{points / 10:g} men"
    details = [*reading, f"{cp} CP x {die} / 10 = {men}"]
    follow = None
    effects: frozenset[str] = frozenset()
    if percent:
        follow = _fraction_request(percent)
        effects = frozenset({ONE_MORE_POSSIBLE})
        details.append(
            f"{counted(whole, 'man', 'men')} now; roll percentile {percent} or less for one more"
        )
    return Outcome(whole, "men rallied", effects, tuple(details), follow_up=follow)


def _rally_outcome(cp: int, die: int) -> tuple[int, frozenset[str]]:
    whole = rally.rally_whole_men(cp, die)
    fraction = rally.rally_fraction_percent(cp, die)
    return whole, frozenset({ONE_MORE_POSSIBLE}) if fraction else frozenset()


RALLY = Action(
    "rally",
    "Rally",
    "Men rallied from the routed: CP x d10 / 10; a fraction (effect one_more_possible) "
    "asks for rally-fraction.",
    (CP, D10_ZERO),
    _rally_request,
    _rally_resolve,
    lambda p: _over_d10(p, "men rallied", lambda d: _rally_outcome(int_param(p, "cp"), d)),
    examples=({"cp": 3}, {"cp": 5, "d10_zero": "0"}),
)


def _fraction_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    percent = int_param(params, "percent")
    value, line = _percentile(params, _fraction_request(percent), dice)
    extra = 1 if rally.fraction_rallies(percent, value) else 0
    return Outcome(
        extra,
        "extra men",
        details=(
            line,
            f"{value} {'<=' if extra else '>'} {percent}: {'one more man' if extra else 'no more'}",
        ),
    )


RALLY_FRACTION = Action(
    "rally-fraction",
    "Rally fraction",
    "The fraction of a rallied man: one more man on a percentile at or under it.",
    (Param("percent", ParamKind.INT, "the fraction in percent", 50, 10, 90), DOUBLE_ZERO),
    lambda p: _fraction_request(int_param(p, "percent")),
    _fraction_resolve,
    lambda p: _over_percentile(
        p,
        "extra men",
        lambda v: (1 if rally.fraction_rallies(int_param(p, "percent"), v) else 0, frozenset()),
    ),
    examples=({"percent": 80}, {"percent": 20, "double_zero": "0"}),
)

ALL_ACTIONS: tuple[Action, ...] = (
    COMMAND_POINTS,
    UNDER_OFFICER,
    SECOND_ACTION,
    REACTION_FIRE,
    RIFLE_FIRE,
    MACHINE_GUN_FIRE,
    CANNON_FIRE,
    MORALE_TEST,
    GOOD_LEADER_RISK,
    ROUGH_TERRAIN,
    MELEE_PAIR,
    MELEE_ROUND,
    MARTINET_FATE,
    RALLY,
    RALLY_FRACTION,
)
ACTIONS = {a.name: a for a in ALL_ACTIONS}
