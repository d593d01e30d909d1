"""Every roll FortBoard asks for, as a stand-alone Action (odds and resolve CLI)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from companion.rules import odds as odds_helpers
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
    RulesError,
    bool_param,
    check_dice,
    counted,
    int_param,
    str_param,
)
from companion.rules.fortboard import artillery, engines, melee, missiles, tables

D6 = DieKind.D6

# ------------------------------------------------------------------- helpers


def _kind_param(name: str, help_text: str, default: str) -> Param:
    return Param(name, ParamKind.CHOICE, help_text, default=default, choices=tables.FIGURE_KINDS)


def _bool_param(name: str, help_text: str) -> Param:
    return Param(name, ParamKind.BOOL, help_text, default=False)


#: The largest count of figures (or of pairs of them) an action accepts.
MAX_FIGURES = 40


def _figures_param(name: str, help_text: str, default: int = 1, minimum: int = 1) -> Param:
    return Param(
        name, ParamKind.INT, help_text, default=default, minimum=minimum, maximum=MAX_FIGURES
    )


FALLEN_PARAMS = (
    _bool_param("barracks_fallen", "the barracks has fallen (fort defenders -1)"),
    _bool_param("keep_fallen", "the keep has fallen or been destroyed (fort defenders -1)"),
)


def _one_d6(label: str, meaning: str, reason: str) -> RollRequest:
    return RollRequest(reason, (DiceGroup(D6, 1, label, meaning),))


def _single_die_odds(label: str, resolve: Sequence[tuple[int, frozenset[str]]]) -> Odds:
    """Odds of a one-d6 roll given (headline, effects) for faces 1..6."""
    sixth = Fraction(1, 6)
    return odds_helpers.odds_from_outcomes(
        label, [(sixth, headline, names) for headline, names in resolve]
    )


# --------------------------------------------------------------------- melee


def _melee_values(params: Params) -> tuple[int, int]:
    attacker = melee.melee_value(
        str_param(params, "attacker_kind"), bool_param(params, "attacker_wounded")
    )
    defender = melee.melee_value(
        str_param(params, "defender_kind"),
        bool_param(params, "defender_wounded"),
        fort_defender=True,
        barracks_fallen=bool_param(params, "barracks_fallen"),
        keep_fallen=bool_param(params, "keep_fallen"),
    )
    return attacker, defender


def _melee_request(params: Params) -> RollRequest:
    a, d = _melee_values(params)
    return RollRequest(
        f"Melee: {params['attacker_kind']} ({a}) against {params['defender_kind']} ({d})",
        (
            DiceGroup(D6, 1, "attacker", f"adds to value {a}; higher wounds"),
            DiceGroup(D6, 1, "defender", f"adds to value {d}; higher wounds"),
        ),
    )


def _melee_effects(params: Params, result: str) -> frozenset[str]:
    names: set[str] = set()
    if result == melee.ATTACKER_WINS:
        fate = melee.wound_result(bool_param(params, "defender_wounded"))
        names.add(f"defender_{fate}")
    elif result == melee.DEFENDER_WINS:
        fate = melee.wound_result(bool_param(params, "attacker_wounded"))
        names.add(f"attacker_{fate}")
    else:
        names.add("tie")
    if any(n.endswith("killed") for n in names):
        names.add("killed")
    return frozenset(names)


def _melee_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    request = _melee_request(params)
    check_dice(request, dice)
    a, d = _melee_values(params)
    result = melee.fight(a, d, dice[0], dice[1])
    details = (
        f"attacker {a} + {dice[0]} = {a + dice[0]}",
        f"defender {d} + {dice[1]} = {d + dice[1]}",
        {"attacker": "attacker wins", "defender": "defender wins", "tie": "tie: no result"}[result],
    )
    return Outcome(
        headline=(a + dice[0]) - (d + dice[1]),
        headline_label="attacker's margin",
        effects=_melee_effects(params, result),
        details=details,
    )


def _melee_odds(params: Params) -> Odds:
    a, d = _melee_values(params)
    weighted = []
    for x in range(1, 7):
        for y in range(1, 7):
            result = melee.fight(a, d, x, y)
            weighted.append((Fraction(1, 36), (a + x) - (d + y), _melee_effects(params, result)))
    return odds_helpers.odds_from_outcomes("attacker's margin", weighted)


MELEE_PARAMS = (
    _kind_param("attacker_kind", "the attacking figure", "infantry"),
    _bool_param("attacker_wounded", "the attacking figure carries a wound"),
    _kind_param("defender_kind", "the fort's defending figure", "infantry"),
    _bool_param("defender_wounded", "the defending figure carries a wound"),
    *FALLEN_PARAMS,
)

MELEE = Action(
    name="melee",
    title="Melee: one fight",
    help="Each side rolls a d6 and adds the figure's value; the higher wounds the lower.",
    params=MELEE_PARAMS,
    request=_melee_request,
    resolve=_melee_resolve,
    odds=_melee_odds,
    examples=(
        {},
        {"attacker_kind": "mounted", "defender_kind": "archer", "defender_wounded": True},
        {"attacker_wounded": True, "barracks_fallen": True, "keep_fallen": True},
    ),
)


# -------------------------------------------------------------- melee line


def _line_request(params: Params) -> RollRequest:
    a, d = _melee_values(params)
    n = int_param(params, "pairs")
    return RollRequest(
        f"Melee line: {counted(n, 'pair')}, attackers {a} against defenders {d}",
        (
            DiceGroup(D6, n, "attackers", f"each against the defenders' die in its place; "
                      f"value {a}"),
            DiceGroup(D6, n, "defenders", f"each against the attackers' die in its place; "
                      f"value {d}"),
        ),
    )


def _line_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    request = _line_request(params)
    attackers, defenders = request.split(dice)
    a, d = _melee_values(params)
    won = lost = 0
    for x, y in zip(attackers, defenders, strict=True):
        result = melee.fight(a, d, x, y)
        won += result == melee.ATTACKER_WINS
        lost += result == melee.DEFENDER_WINS
    names = {"attackers_hurt"} if lost else set()
    return Outcome(
        headline=won,
        headline_label="defenders beaten",
        effects=frozenset(names),
        details=(f"{counted(won, 'fight')} won by the attackers, {lost} by the defenders",),
    )


def _line_odds(params: Params) -> Odds:
    a, d = _melee_values(params)
    n = int_param(params, "pairs")
    chances = melee.fight_chances(a, d)
    p_win = chances[melee.ATTACKER_WINS]
    p_loss = chances[melee.DEFENDER_WINS]
    headline = odds_helpers.binomial(n, p_win)
    hurt = 1 - (1 - p_loss) ** n
    return Odds("defenders beaten", headline, {"attackers_hurt": hurt})


MELEE_LINE = Action(
    name="melee-line",
    title="Melee: a line of matched pairs",
    help="Several like figures matched one to one; die i of each side fight each other.",
    params=(
        _figures_param("pairs", "matched pairs of figures"),
        *MELEE_PARAMS,
    ),
    request=_line_request,
    resolve=_line_resolve,
    odds=_line_odds,
    examples=({"pairs": 2}, {"pairs": 2, "attacker_kind": "mounted", "defender_wounded": True}),
)


# ------------------------------------------------------------------ missiles


def _shooting(params: Params) -> tuple[tuple[str, int], ...]:
    """(kind, figures) of each missile kind that shoots, archers first."""
    shooting = tuple(
        (kind, int_param(params, count_name))
        for kind, count_name in (("archer", "archers"), ("crossbow", "crossbows"))
        if int_param(params, count_name) > 0
    )
    if not shooting:
        raise RulesError("missile-fire needs someone to shoot: archers=1.. or crossbows=1..")
    return shooting


def _missile_request(params: Params) -> RollRequest:
    band = str_param(params, "range")
    groups = []
    for kind, n in _shooting(params):
        faces = missiles.missile_hit_faces(kind, band)
        hit_on = f"{min(faces)}+" if len(faces) > 1 else "6"
        groups.append(DiceGroup(D6, n, f"{kind}s", f"hits on {hit_on}"))
    return RollRequest(f"Missile fire, {tables.RANGE_REASONS[band]}", tuple(groups))


def _missile_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    request = _missile_request(params)
    band = str_param(params, "range")
    hits = {
        kind: missiles.count_hits(group, missiles.missile_hit_faces(kind, band))
        for (kind, _n), group in zip(_shooting(params), request.split(dice), strict=True)
    }
    # The split by kind says something only when both kinds shoot: for one kind
    # it is the headline again ("0 hits" over "crossbows hit 0").
    split = (", ".join(f"{kind}s hit {n}" for kind, n in hits.items()),) if len(hits) > 1 else ()
    return Outcome(headline=sum(hits.values()), headline_label="hits", details=split)


def _missile_odds(params: Params) -> Odds:
    band = str_param(params, "range")
    total: dict[int, Fraction] = {0: Fraction(1)}
    for kind, n in _shooting(params):
        chance = odds_helpers.face_chance(D6, missiles.missile_hit_faces(kind, band))
        total = odds_helpers.add(total, odds_helpers.binomial(n, chance))
    return Odds("hits", total)


MISSILE_FIRE = Action(
    name="missile-fire",
    title="Missile fire",
    help="Archers hit on 6, crossbows on 5-6; 2-3 spaces away both hit on 4+.",
    params=(
        _figures_param("archers", "archers shooting", minimum=0),
        _figures_param("crossbows", "crossbowmen shooting", default=0, minimum=0),
        Param(
            "range",
            ParamKind.CHOICE,
            "near: 2-3 spaces away; far: 4 or more, or where distance has no bearing",
            default="far",
            choices=tables.RANGE_BANDS,
        ),
    ),
    request=_missile_request,
    resolve=_missile_resolve,
    odds=_missile_odds,
    examples=(
        {"archers": 2, "crossbows": 1},
        {"archers": 1, "crossbows": 2, "range": "near"},
        {"archers": 0, "crossbows": 3},
    ),
)


# ------------------------------------------------------------ crew fire


def _crew_request(params: Params) -> RollRequest:
    n = int_param(params, "shooters")
    return RollRequest(
        f"Missiles at an artillery crew of {params['crew']}",
        (DiceGroup(D6, n, "shooters", "6 removes a crewman"),),
    )


def _crew_effects(removed: int, crew: int) -> frozenset[str]:
    return frozenset({"silenced"}) if removed >= crew else frozenset()


def _crew_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_crew_request(params), dice)
    crew = int_param(params, "crew")
    removed = missiles.crew_removed(dice, crew)
    return Outcome(
        headline=removed,
        headline_label="crew removed",
        effects=_crew_effects(removed, crew),
        details=(f"{removed} of {crew} crew removed"
                 + ("; the piece is silenced" if removed >= crew else ""),),
    )


def _crew_odds(params: Params) -> Odds:
    crew = int_param(params, "crew")
    hits = odds_helpers.binomial(
        int_param(params, "shooters"), odds_helpers.face_chance(D6, tables.CREW_HIT_FACES)
    )
    weighted = [(p, min(k, crew), _crew_effects(min(k, crew), crew)) for k, p in hits.items()]
    return odds_helpers.odds_from_outcomes("crew removed", weighted)


CREW_FIRE = Action(
    name="crew-fire",
    title="Missiles at artillery crew",
    help="Each missile figure removes a crewman of an enemy artillery piece on a 6.",
    params=(
        _figures_param("shooters", "missile figures shooting"),
        Param("crew", ParamKind.INT, "crewmen left on the piece", default=3, minimum=1, maximum=20),
    ),
    request=_crew_request,
    resolve=_crew_resolve,
    odds=_crew_odds,
    examples=({"shooters": 3, "crew": 2}, {"shooters": 4, "crew": 1}),
)


# ------------------------------------------------------- artillery target


# A value, not a count: the box says "Target: 5" (or the station's name).
TARGET_LABEL = "target"


def _target_request(params: Params) -> RollRequest:
    return _one_d6("target", "the numbered station hit", "Defender artillery: which target")


def _target_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_target_request(params), dice)
    return Outcome(dice[0], TARGET_LABEL, details=(f"target {dice[0]} is hit",))


ARTILLERY_TARGET = Action(
    name="artillery-target",
    title="Defender artillery: which target",
    help="Each defender weapon numbers six attacker stations 1-6; a d6 picks the one hit.",
    params=(),
    request=_target_request,
    resolve=_target_resolve,
    odds=lambda params: _single_die_odds(TARGET_LABEL, [(f, frozenset()) for f in range(1, 7)]),
    examples=({},),
)


# ------------------------------------------------------------ interior hit


def _interior_request(params: Params) -> RollRequest:
    return _one_d6(
        "interior",
        "1-2 artillery, 3 keep, 4 barracks, 5 stables, 6 courtyard",
        "Shot into the fort: where it lands",
    )


def _interior_effects(face: int) -> frozenset[str]:
    return frozenset({f"{artillery.interior_component(face)}_hit"})


def _interior_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_interior_request(params), dice)
    component = artillery.interior_component(dice[0])
    return Outcome(
        dice[0],
        "interior number",
        effects=_interior_effects(dice[0]),
        details=(f"{dice[0]}: the shot lands on the {tables.INTERIOR_HIT_LABELS[component]}",),
    )


INTERIOR_HIT = Action(
    name="interior-hit",
    title="Attacker artillery: where a shot into the fort lands",
    help="1 left artillery, 2 right artillery, 3 keep, 4 barracks, 5 stables, 6 courtyard.",
    params=(),
    request=_interior_request,
    resolve=_interior_resolve,
    odds=lambda params: replace(
        _single_die_odds("interior number", [(f, _interior_effects(f)) for f in range(1, 7)]),
        names={f: tables.INTERIOR_HIT_LABELS[artillery.interior_component(f)] for f in range(1, 7)},
    ),
    examples=({},),
)


# ------------------------------------------------------ wall and tower hits


def _structure_action(name: str, structure: str, maximum: int) -> Action:
    def request(params: Params) -> RollRequest:
        intact = int_param(params, "intact")
        return RollRequest(
            f"Artillery at a {structure}: {counted(intact, 'space')} intact",
            (DiceGroup(D6, 2, "2d6", f"total over {intact} hits"),),
        )

    def resolve(params: Params, dice: Sequence[int]) -> Outcome:
        check_dice(request(params), dice)
        intact = int_param(params, "intact")
        total = dice[0] + dice[1]
        hit = artillery.structure_hit(intact, total)
        follow = None
        if hit and bool_param(params, "occupied"):
            follow = HIT_WOUNDS.request({"target_wounded": False})
        return Outcome(
            int(hit),
            "hits",
            effects=frozenset({"hit"}) if hit else frozenset(),
            details=(
                f"{dice[0]} + {dice[1]} = {total} against {intact}: " + ("hit" if hit else "miss"),
            ),
            follow_up=follow,
        )

    def odds(params: Params) -> Odds:
        intact = int_param(params, "intact")
        totals = odds_helpers.sum_of_dice(2, D6)
        p = sum((q for t, q in totals.items() if artillery.structure_hit(intact, t)), Fraction(0))
        return Odds("hits", {0: 1 - p, 1: p}, {"hit": p})

    return Action(
        name=name,
        title=f"Artillery or ram at a {structure}",
        help=f"2d6 must beat the {structure}'s undamaged spaces; a hit may wound a figure there.",
        params=(
            Param(
                "intact",
                ParamKind.INT,
                "undamaged spaces left",
                default=5,
                minimum=1,
                maximum=maximum,
            ),
            _bool_param("occupied", "figures are where the shot lands (asks the wound roll)"),
        ),
        request=request,
        resolve=resolve,
        odds=odds,
        examples=({"intact": 9}, {"intact": 4, "occupied": True}, {"intact": 12}),
    )


TOWER_HIT = _structure_action("tower-hit", "tower", 24)
WALL_HIT = _structure_action("wall-hit", "wall", 24)


# ------------------------------------------------------------- hit wounds


def _hit_wounds_request(params: Params) -> RollRequest:
    return _one_d6("wound", "3+ wounds one figure", "A shot lands among figures")


def _hit_wounds_effects(params: Params, face: int) -> frozenset[str]:
    if not artillery.hit_wounds(face):
        return frozenset()
    return frozenset({melee.wound_result(bool_param(params, "target_wounded"))})


def _hit_wounds_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_hit_wounds_request(params), dice)
    hurt = artillery.hit_wounds(dice[0])
    return Outcome(
        int(hurt),
        "figures hurt",
        effects=_hit_wounds_effects(params, dice[0]),
        details=(f"{dice[0]}: " + ("a figure is hurt" if hurt else "no one hurt"),),
    )


HIT_WOUNDS = Action(
    name="hit-wounds",
    title="A shot lands among figures",
    help="Where a shot lands on a tower, wall or building with figures, 3+ wounds one.",
    params=(_bool_param("target_wounded", "the figure hit already carries a wound"),),
    request=_hit_wounds_request,
    resolve=_hit_wounds_resolve,
    odds=lambda params: _single_die_odds(
        "figures hurt",
        [(int(artillery.hit_wounds(f)), _hit_wounds_effects(params, f)) for f in range(1, 7)],
    ),
    examples=({}, {"target_wounded": True}),
)


# ------------------------------------------------------------ wall weapons


def wall_weapon_value(params: Params) -> int:
    return int_param(params, "weapon_value") - melee.fort_penalty(
        barracks_fallen=bool_param(params, "barracks_fallen"),
        keep_fallen=bool_param(params, "keep_fallen"),
    )


def wall_weapon_sequence(
    weapon_value: int,
    target_kind: str,
    target_wounded: bool,
    weapon_dice: Sequence[int],
    target_dice: Sequence[int],
) -> tuple[int, bool, bool]:
    """Attempts of a wall weapon on one figure in turn: (wins, wounded, killed).

    The weapon cannot be hurt back; a figure it wounds fights on at its
    wounded value, and a second wound kills it (later attempts are lost).
    """
    wounded = target_wounded
    wins = 0
    for w, t in zip(weapon_dice, target_dice, strict=True):
        value = melee.melee_value(target_kind, wounded)
        if melee.fight(weapon_value, value, w, t) == melee.ATTACKER_WINS:
            wins += 1
            if wounded:
                return wins, True, True
            wounded = True
    return wins, wounded, False


def _weapon_request(params: Params) -> RollRequest:
    n = int_param(params, "attempts")
    v = wall_weapon_value(params)
    if str_param(params, "target") == "engine":
        who, meaning = "ram or assault tower", f"adds to the engine's {ENGINE_VALUE}"
    else:
        kind, hurt = str_param(params, "target_kind"), bool_param(params, "target_wounded")
        who = f"wounded {kind}" if hurt else kind
        meaning = f"adds to the {kind}'s {melee.melee_value(kind, hurt)}"
        if not hurt:
            meaning += f", {melee.melee_value(kind, True)} once wounded"
    return RollRequest(
        f"Wall weapon ({v}): {counted(n, 'attempt')} on one {who}",
        (
            DiceGroup(D6, n, "weapon", f"adds to {v}; higher wins"),
            DiceGroup(D6, n, "target", meaning),
        ),
    )


def _weapon_outcome(params: Params, dice: Sequence[int]) -> tuple[int, frozenset[str]]:
    n = int_param(params, "attempts")
    weapon_dice, target_dice = dice[:n], dice[n:]
    v = wall_weapon_value(params)
    if str_param(params, "target") == "engine":
        hits = sum(
            1
            for w, t in zip(weapon_dice, target_dice, strict=True)
            if melee.fight(v, ENGINE_VALUE, w, t) == melee.ATTACKER_WINS
        )
        return hits, frozenset()
    wins, _wounded, killed = wall_weapon_sequence(
        v,
        str_param(params, "target_kind"),
        bool_param(params, "target_wounded"),
        weapon_dice,
        target_dice,
    )
    return wins, _weapon_effects(wins, killed)


def _weapon_effects(wins: int, killed: bool) -> frozenset[str]:
    """A figure that lives through the firing, wounded or not, reaches the top (1.5)."""
    if killed:
        return frozenset({"killed"})
    if wins:
        return frozenset({"wounded", "reaches_top"})
    return frozenset({"reaches_top"})


#: An engine (ram or assault tower) resists a wall weapon as a basic soldier.
ENGINE_VALUE = tables.MELEE_VALUE["infantry"]


def _weapon_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_weapon_request(params), dice)
    headline, names = _weapon_outcome(params, dice)
    return Outcome(
        headline,
        "hits",
        effects=names,
        details=(counted(headline, "attempt succeeds", "attempts succeed"),),
    )


def _weapon_odds(params: Params) -> Odds:
    n = int_param(params, "attempts")
    v = wall_weapon_value(params)
    if str_param(params, "target") == "engine":
        p = melee.fight_chances(v, ENGINE_VALUE)[melee.ATTACKER_WINS]
        return Odds("hits", odds_helpers.binomial(n, p))
    kind = str_param(params, "target_kind")
    # states: (wins so far, wounded, killed) -> chance
    states: dict[tuple[int, bool, bool], Fraction] = {
        (0, bool_param(params, "target_wounded"), False): Fraction(1)
    }
    for _ in range(n):
        nxt: dict[tuple[int, bool, bool], Fraction] = {}
        for (wins, wounded, killed), p in states.items():
            if killed:
                nxt[(wins, wounded, killed)] = nxt.get((wins, wounded, killed), Fraction(0)) + p
                continue
            win = melee.fight_chances(v, melee.melee_value(kind, wounded))[melee.ATTACKER_WINS]
            after = (wins + 1, True, wounded)
            nxt[after] = nxt.get(after, Fraction(0)) + p * win
            same = (wins, wounded, False)
            nxt[same] = nxt.get(same, Fraction(0)) + p * (1 - win)
        states = nxt
    weighted = [
        (p, wins, _weapon_effects(wins, killed)) for (wins, _w, killed), p in states.items()
    ]
    return odds_helpers.odds_from_outcomes("hits", weighted)


WALL_WEAPON = Action(
    name="wall-weapon",
    title="Wall weapon: attempts on one figure or engine",
    help="Oil, embers or stones roll four combat attempts a firing, shared among those below.",
    params=(
        Param(
            "attempts",
            ParamKind.INT,
            "attempts on this target (4 shared out)",
            default=4,
            minimum=1,
            maximum=tables.WALL_WEAPON_ATTEMPTS,
        ),
        Param(
            "target",
            ParamKind.CHOICE,
            "a figure below, or a ram or assault tower",
            default="figure",
            choices=("figure", "engine"),
        ),
        _kind_param("target_kind", "the figure below", "infantry"),
        _bool_param("target_wounded", "the figure below carries a wound"),
        Param(
            "weapon_value",
            ParamKind.INT,
            "the weapon's combat value (option)",
            default=3,
            minimum=0,
            maximum=6,
        ),
        *FALLEN_PARAMS,
    ),
    request=_weapon_request,
    resolve=_weapon_resolve,
    odds=_weapon_odds,
    examples=(
        {"attempts": 2},
        {"attempts": 2, "target_kind": "mounted"},
        {"attempts": 2, "target": "engine", "barracks_fallen": True},
        {"attempts": 1, "target_wounded": True},
    ),
)


# ------------------------------------------------------------- re-placement


def _replacement_request(params: Params) -> RollRequest:
    n = int_param(params, "figures")
    meaning = "6: the group goes" if n == 1 else "each 6 moves one figure"
    return RollRequest("Attacker re-placement", (DiceGroup(D6, n, "move", meaning),))


def _replacement_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_replacement_request(params), dice)
    sixes = sum(1 for d in dice if engines.replacement_allowed(d))
    return Outcome(
        sixes,
        "sixes",
        effects=frozenset({"moved"}) if sixes else frozenset(),
        # The headline counts the sixes; the detail says what they mean on the board.
        details=("picked up and placed" if sixes else "they stay where they are",),
    )


def _replacement_odds(params: Params) -> Odds:
    n = int_param(params, "figures")
    p = odds_helpers.face_chance(D6, tables.REPLACEMENT_FACES)
    headline = odds_helpers.binomial(n, p)
    return Odds("sixes", headline, {"moved": 1 - headline[0]})


REPLACEMENT = Action(
    name="replacement",
    title="Attacker re-placement",
    help="Attacker infantry move to another station or wall only on a 6: one die for a group, "
    "or one a figure (option replacement_roll).",
    params=(_figures_param("figures", "dice rolled: 1 for a group, or one a figure"),),
    request=_replacement_request,
    resolve=_replacement_resolve,
    odds=_replacement_odds,
    examples=({}, {"figures": 3}),
)


# ------------------------------------------------------------- douse flames

# A yes or no, in the past tense the box words as one ("Doused: yes"); "fire out" read
# as a value ("Fire out: 1").
DOUSED = "doused"


def _douse_request(params: Params) -> RollRequest:
    n = int_param(params, "figures")
    return RollRequest(
        "Putting out the burning assault tower",
        (DiceGroup(D6, n, "figures", "any 6 puts the fire out"),),
    )


def _douse_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_douse_request(params), dice)
    out = engines.flames_put_out(dice)
    return Outcome(
        int(out),
        DOUSED,
        effects=frozenset({"fire_out"}) if out else frozenset(),
        details=("the fire is out" if out else "the tower still burns",),
    )


def _douse_odds(params: Params) -> Odds:
    n = int_param(params, "figures")
    p = 1 - (1 - odds_helpers.face_chance(D6, tables.DOUSE_FACES)) ** n
    return Odds(DOUSED, {0: 1 - p, 1: p}, {"fire_out": p})


DOUSE_FLAMES = Action(
    name="douse-flames",
    title="Put out a burning assault tower",
    help="Each figure in the tower rolls a d6; any 6 puts the oil fire out (their whole turn).",
    params=(_figures_param("figures", "figures trying"),),
    request=_douse_request,
    resolve=_douse_resolve,
    odds=_douse_odds,
    examples=({"figures": 1}, {"figures": 4}),
)


# ------------------------------------------------------- engine survivors


def _survivors_request(params: Params) -> RollRequest:
    return _one_d6("survivors", "figures that get out", "A destroyed engine: survivors")


def _survivors_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    check_dice(_survivors_request(params), dice)
    crew = int_param(params, "crew")
    n = engines.engine_survivors(dice[0], crew)
    return Outcome(
        n,
        "survivors",
        effects=frozenset({"killed"}) if n < crew else frozenset(),
        details=(f"{dice[0]}: {n} of {crew} get out",),
    )


ENGINE_SURVIVORS = Action(
    name="engine-survivors",
    title="Survivors of a destroyed ram or assault tower",
    help="1d6 figures inside (at most all of them) survive and are placed outside.",
    params=(_figures_param("crew", "figures inside", default=4),),
    request=_survivors_request,
    resolve=_survivors_resolve,
    odds=lambda params: _single_die_odds(
        "survivors",
        [(o.headline, o.effects) for o in (_survivors_resolve(params, (f,)) for f in range(1, 7))],
    ),
    examples=({"crew": 4}, {"crew": 8}),
)


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        MELEE,
        MELEE_LINE,
        MISSILE_FIRE,
        CREW_FIRE,
        ARTILLERY_TARGET,
        INTERIOR_HIT,
        WALL_HIT,
        TOWER_HIT,
        HIT_WOUNDS,
        WALL_WEAPON,
        REPLACEMENT,
        DOUSE_FLAMES,
        ENGINE_SURVIVORS,
    )
}
