"""FortBoard's sequence of play as a state machine.

Each turn: the attacker moves (and shoots, works his engines) with everything
he wishes, then the defender does the same, then every contact is fought out.
Turns run to the scenario's limit unless one side is wiped out or the keep
is taken. The box asks for each choice (which group, where, at what) and each
roll; what it cannot see (distance in spaces) it asks as a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from companion.rules import odds as odds_helpers
from companion.rules.core import (
    AwaitChoice,
    AwaitRoll,
    Choice,
    Chosen,
    DiceGroup,
    DieKind,
    GameInput,
    GameOver,
    Odds,
    Outcome,
    Rolled,
    RollRequest,
    Scenario,
    Step,
    Transition,
    check_input,
    counted,
)
from companion.rules.fortboard import actions, artillery, board, engines, melee, movement, tables
from companion.rules.fortboard.layout import BRIDGE, FOOT, sentence
from companion.rules.fortboard.scenario import layout_of, unit_place
from companion.rules.fortboard.state import (
    ATTACKER,
    DEFENDER,
    Ask,
    Figure,
    GameState,
    pair_drop,
    pair_get,
    pair_set,
)

COMBAT = "combat"
# A melee's count, short enough for the result screen's big line at any number of
# fights ("fights won by the attacker" showed as a bare "3 fights").
MELEE_WINS = "wins for attacker"


@dataclass
class Out:
    """What one input told the table (collected while it is applied)."""

    log: list[str] = field(default_factory=list)
    cues: set[str] = field(default_factory=set)
    outcome: Outcome | None = None


# ------------------------------------------------------------------ start


def start(scenario: Scenario) -> GameState:
    layout = layout_of(scenario)
    attacker_name = scenario.sides[0]
    figures: list[Figure] = []
    next_id = 1
    for unit in scenario.units:
        side = ATTACKER if unit.side == attacker_name else DEFENDER
        for number in range(1, unit.figures + 1):
            figures.append(Figure(next_id, unit.name, number, side, unit.kind, unit_place(unit)))
            next_id += 1
    options: list[tuple[str, bool | int | str]] = []
    for key, value in sorted(scenario.options.items()):
        assert isinstance(value, bool | int | str)
        options.append((key, value))
    return GameState(
        layout=layout,
        options=tuple(options),
        sides=(scenario.sides[0], scenario.sides[1]),
        title=scenario.title,
        figures=tuple(figures),
        aims=tuple((g, 0) for g in sorted(layout.defender_artillery)),
        oil_left=layout.oil_vats,
        stack=(Ask("menu"),),
        next_id=next_id,
    )


# ----------------------------------------------------------- small helpers


def _other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


def _units(state: GameState, side: str) -> list[str]:
    """A side's units in set-up order."""
    return list(dict.fromkeys(f.unit for f in state.figures if f.side == side))


def _places_of(state: GameState, unit: str) -> list[str]:
    """Where a unit's figures stand, in figure order."""
    return list(dict.fromkeys(f.place for f in state.figures if f.unit == unit))


def _can_fire(state: GameState, unit: str, place: str) -> bool:
    return bool(_shooters(state, unit, place)) and bool(_fire_targets(state, state.phase, place))


def _can_move(state: GameState, unit: str, place: str) -> bool:
    return bool(movement.destinations(state, unit, place))


#: Menu verbs for a unit, and what each asks next once the unit's place is known.
_UNIT_VERBS = {"fire": ("target", _can_fire), "move": ("dest", _can_move)}


def _able_places(state: GameState, verb: str, unit: str) -> list[str]:
    """The places from which a unit's figures may still fire or move this move."""
    able = _UNIT_VERBS[verb][1]
    return [p for p in _places_of(state, unit) if able(state, unit, p)]


def _ready_crew(state: GameState, station: str) -> tuple[Figure, ...]:
    """Attackers at a station who have neither moved nor given up this turn."""
    return tuple(
        f
        for f in board.at(state, station, ATTACKER)
        if f.id not in state.moved and f.id not in state.busy
    )


def _fig_value(state: GameState, f: Figure) -> int:
    barracks, keep = board.fort_penalty_flags(state)
    return melee.melee_value(
        f.kind,
        f.wounded,
        fort_defender=f.side == DEFENDER,
        barracks_fallen=barracks,
        keep_fallen=keep,
    )


def _hit_order(figures: Sequence[Figure]) -> list[Figure]:
    """Hits fall on unwounded figures first, then kill the wounded."""
    return [f for f in figures if not f.wounded] + [f for f in figures if f.wounded]


def _wound(state: GameState, f: Figure, out: Out) -> GameState:
    if f.wounded:
        out.log.append(f"{f.label} is killed")
        out.cues.add("death")
        return state.without_figure(f.id)
    out.log.append(f"{f.label} is wounded")
    return state.with_figure(replace(f, wounded=True))


def _kill(state: GameState, f: Figure, out: Out) -> GameState:
    out.log.append(f"{f.label} is killed")
    out.cues.add("death")
    return state.without_figure(f.id)


def apply_hits(state: GameState, targets: Sequence[Figure], hits: int, out: Out) -> GameState:
    """Each hit wounds a fresh figure; once all are wounded, each kills one."""
    for _ in range(hits):
        current = [g for g in (state.figure(t.id) for t in targets) if g is not None]
        if not current:
            break
        state = _wound(state, _hit_order(current)[0], out)
    return state


def _shooters(state: GameState, unit: str, place: str) -> tuple[Figure, ...]:
    engaged = board.engaged_ids(state)
    return tuple(
        f
        for f in state.figures
        if f.unit == unit
        and f.place == place
        and f.kind in tables.MISSILE_KINDS
        and f.id not in state.fired
        and f.id not in engaged
    )


# ---------------------------------------------------------------- missiles


def _facing_places(state: GameState, wall: str) -> list[str]:
    """A wall, the ground at its foot, the stations before it and any bridge on it."""
    layout = state.layout
    out = [wall, layout.foot_of(wall)]
    out += list(layout.stations_facing(wall))
    out += [b for b in layout.names(BRIDGE) if layout.place(b).faces == wall]
    if wall == layout.front:
        out += list(layout.stations_facing(layout.gate()))
    return out


def _scope(state: GameState, place: str) -> list[str]:
    """Places a missile figure standing at `place` may shoot at (1.12.1)."""
    layout = state.layout
    p = layout.place(place)
    walls = list(layout.names("wall"))
    court = layout.courtyard
    out: list[str] = []
    if p.kind == "wall":
        out += _facing_places(state, place)
        out += [n for n in p.adjacent if layout.place(n).kind == "tower"]
        out += [w for w in walls if w != place] + [court]
    elif p.kind == "tower":
        sides = [n for n in p.adjacent if layout.place(n).kind == "wall"]
        for w in sides:
            out += _facing_places(state, w)
        out += [w for w in walls if w not in sides] + [court]
    elif not p.inside:
        wall = layout.wall_of_foot(place) if p.kind == FOOT else layout.wall_facing(place)
        out += [wall] + [n for n in layout.neighbours(wall) if layout.place(n).kind == "tower"]
        if wall == layout.front:
            out.append(layout.gate())
    else:
        out += [court, *walls]
    seen: list[str] = []
    for name in out:
        if name not in seen:
            seen.append(name)
    return seen


def _fire_targets(state: GameState, side: str, place: str) -> list[Choice]:
    engaged = board.engaged_ids(state)
    enemy = _other(side)
    out: list[Choice] = []
    for name in _scope(state, place):
        p = state.layout.place(name)
        if p.equipment == "catapult":
            continue  # shot at as a crew (1.12.2)
        figures = [
            f
            for f in board.at(state, name, enemy)
            if f.id not in engaged and not board.safe_in_engine(state, f)
        ]
        if figures:
            out.append(Choice(f"at:{name}", f"{state.layout.label(name)} ({len(figures)})"))
    if side == DEFENDER:
        for station in _scope(state, place):
            p = state.layout.place(station)
            crew = [f for f in board.at(state, station, ATTACKER) if f.id not in engaged]
            if p.equipment == "catapult" and crew:
                out.append(Choice(f"crew:{station}", f"{station} crew ({len(crew)})"))
    return out


def _needs_range(state: GameState, shooters: Sequence[Figure], target: str) -> bool:
    """Whether to ask the distance in spaces: from outside the fort it has no
    bearing (1.2), nor, by default, between the fort and the stations."""
    if not shooters:
        return False
    layout = state.layout
    where = layout.place(shooters[0].place)
    if not (where.inside or where.kind == BRIDGE):
        return False
    if layout.place(target).kind == "station":
        return state.option("station_range") == "ask"
    return True


def _missile_params(shooters: Sequence[Figure], band: str) -> dict[str, int | bool | str]:
    return {
        "archers": sum(1 for f in shooters if f.kind == "archer"),
        "crossbows": sum(1 for f in shooters if f.kind == "crossbow"),
        "range": band,
    }


def _missile_targets(state: GameState, ask: Ask) -> list[Figure]:
    tkind, target = ask.args[0], ask.args[1]
    if tkind == "ids":
        return [g for g in (state.figure(i) for i in ask.more) if g is not None]
    shooter = state.figure(ask.ids[0]) if ask.ids else None
    side = shooter.side if shooter is not None else DEFENDER
    if tkind == "crew":
        return list(board.at(state, target, ATTACKER))
    engaged = board.engaged_ids(state)
    return [
        f
        for f in board.at(state, target, _other(side))
        if f.id not in engaged and not board.safe_in_engine(state, f)
    ]


def _alive(state: GameState, ids: Sequence[int]) -> list[Figure]:
    return [g for g in (state.figure(i) for i in ids) if g is not None]


# ---------------------------------------------------------------- the menu


def _engine_may_act(state: GameState, station: str, verb: str, crew: Sequence[Figure]) -> bool:
    """A ram and an assault tower alike act once a turn, and only while the engine
    is intact, crewed, and the stonework it faces still stands."""
    return (
        board.engine_intact(state, station)
        and bool(crew)
        and f"{verb}:{station}" not in state.used
        and not board.destroyed(state, state.layout.place(station).faces)
    )


def _menu(state: GameState) -> list[Choice]:
    side = state.phase
    layout = state.layout
    out: list[Choice] = []
    if side == ATTACKER:
        for station in layout.stations:
            p = layout.place(station)
            crew = _ready_crew(state, station)
            engaged = board.engaged_ids(state)
            if (
                p.equipment == "catapult"
                and f"shoot:{station}" not in state.used
                and any(f.id not in engaged for f in crew)
            ):
                out.append(Choice(f"shoot:{station}", f"Shoot {station}"))
            if p.equipment == "ram" and _engine_may_act(state, station, "ram", crew):
                out.append(Choice(f"ram:{station}", f"Ram {station}"))
            if (
                p.equipment == "assault_tower"
                and _engine_may_act(state, station, "bridge", crew)
                and board.room(state, layout.bridge_of(station), ATTACKER) > 0
            ):
                out.append(Choice(f"bridge:{station}", f"Bridge {station}"))
            if pair_get(state.burning, station, -1) >= 0 and crew:
                out.append(Choice(f"douse:{station}", f"Douse {station}"))
    else:
        for gun in layout.defender_artillery:
            if gun in state.guns_lost:
                continue
            if f"gun:{gun}" not in state.used and layout.stations:
                out.append(Choice(f"gun:{gun}", f"Fire {gun}"))
            if f"aim:{gun}" not in state.used and len(layout.stations) > len(tables.TARGET_NUMBERS):
                out.append(Choice(f"aim:{gun}", f"Aim {gun}"))
        for weapon in layout.wall_weapons:
            if (
                f"weapon:{weapon.name}" not in state.spent
                and not board.weapon_lost(state, weapon.name)
                and _weapon_choices(state, weapon.name)
            ):
                out.append(Choice(f"weapon:{weapon.name}", f"Use {weapon.name}"))
        if state.oil_left > 0:
            for station in layout.stations:
                if (
                    layout.place(station).equipment == "assault_tower"
                    and board.engine_intact(state, station)
                    and station not in state.oiled
                ):
                    out.append(Choice(f"oil:{station}", f"Oil {station}"))
    for verb in _UNIT_VERBS:
        for unit in _units(state, side):
            if _able_places(state, verb, unit):
                out.append(Choice(f"{verb}:{unit}", f"{verb.capitalize()} {unit}"))
    out.append(Choice("end", "End move"))
    return out


def _weapon_wall(state: GameState, name: str) -> str:
    return next(w.wall for w in state.layout.wall_weapons if w.name == name)


def _weapon_spaces(state: GameState, name: str) -> int:
    return next(w.spaces for w in state.layout.wall_weapons if w.name == name)


def _weapon_reach(state: GameState, name: str) -> int:
    """Figures below a wall weapon reaches: one per space (1.5), by default only
    the spaces artillery has not yet knocked out (option `weapon_reach`)."""
    spaces = _weapon_spaces(state, name)
    if state.option("weapon_reach") == "all_spaces":
        return spaces
    return spaces - pair_get(state.weapon_hits, name)


def _weapon_choices(state: GameState, name: str) -> list[Choice]:
    layout = state.layout
    wall = _weapon_wall(state, name)
    out: list[Choice] = []
    below = board.at(state, layout.foot_of(wall), ATTACKER)
    if below:
        out.append(Choice("foot", f"foot of wall ({len(below)})"))
    stations = list(layout.stations_facing(wall))
    if wall == layout.front:
        stations += list(layout.stations_facing(layout.gate()))
    for station in stations:
        if board.engine_intact(state, station):
            out.append(Choice(f"engine:{station}", f"{station} engine"))
    return out


# ------------------------------------------------------------ next_step


def next_step(state: GameState) -> Step:
    known = state.memo.get("step")
    if isinstance(known, AwaitChoice | AwaitRoll | GameOver):
        return known
    step = _next_step(state)
    state.memo["step"] = step
    return step


def _next_step(state: GameState) -> Step:
    if state.over:
        return GameOver(state.winner, _summary(state))
    ask = state.top
    kind = ask.kind
    if kind == "menu":
        who = state.side_name(state.phase)
        return AwaitChoice(f"Turn {state.turn}: {who} move", tuple(_menu(state)), about=who)
    if kind in _CHOICE_ASKS:
        prompt, options, about = _CHOICE_ASKS[kind](state, ask)
        return AwaitChoice(prompt, tuple(options), about=about)
    request, odds = _ROLL_ASKS[kind](state, ask)
    return AwaitRoll(request, odds)


def _choose_destination(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    unit, place = ask.args
    options = []
    for d in movement.destinations(state, unit, place):
        tag = {"replace": " (6)", "climb": " (up)", "leave": " (out)", "return": " (in)"}.get(
            d.how, ""
        )
        options.append(Choice(f"to:{d.place}", f"{state.layout.label(d.place)}{tag}"))
    return f"Move {unit} to?", options, unit


def _choose_target(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    unit, place = ask.args
    side = state.phase
    return f"{unit} shoot at?", _fire_targets(state, side, place), unit


def _choose_range(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    return (
        "Range in spaces?",
        [Choice(band, tables.RANGE_LABELS[band]) for band in tables.RANGE_BANDS],
        "missile fire",
    )


def _heading_up(state: GameState, ask: Ask) -> tuple[Figure, ...]:
    """The climbers of a ladder reaction who will find an empty space at the top:
    no defender opposes them (1.3). The rest stay at the foot and meet defenders."""
    wall, how = ask.args
    if how != "ladder":
        return ()
    foot = state.layout.foot_of(wall)
    going = [f for f in _alive(state, ask.ids) if f.place == foot]
    return tuple(going[: board.room(state, wall, ATTACKER)])


def _reaction_engaged(state: GameState, ask: Ask) -> frozenset[int]:
    """Figures in melee as the defender reacts: climbers bound for empty spaces hold
    no defender, so only those left at the foot take men of the wall (1.3, 1.12.1)."""
    heading = {f.id for f in _heading_up(state, ask)}
    if not heading:
        return board.engaged_ids(state)
    rest = replace(state, figures=tuple(f for f in state.figures if f.id not in heading))
    return board.engaged_ids(rest)


def _reaction_shooters(state: GameState, ask: Ask) -> list[tuple[str, str]]:
    """Defender missile groups that may shoot at climbers or at a bridge: on
    that wall or in its towers, and not held in melee (1.3, 1.11)."""
    wall = ask.args[0]
    layout = state.layout
    places = [wall] + [n for n in layout.neighbours(wall) if layout.place(n).kind == "tower"]
    engaged = _reaction_engaged(state, ask)
    out: list[tuple[str, str]] = []
    for f in state.figures:
        if (
            f.side == DEFENDER
            and f.place in places
            and f.kind in tables.MISSILE_KINDS
            and f.id not in engaged
            and f.id not in ask.more
            and (f.unit, f.place) not in out
        ):
            out.append((f.unit, f.place))
    return out


def _reaction_weapons(state: GameState, ask: Ask) -> list[str]:
    """Wall weapons that may pour down on ladder climbers (option `weapon_on_climbers`)."""
    wall, how = ask.args
    if how != "ladder" or not state.option("weapon_on_climbers"):
        return []
    foot = state.layout.foot_of(wall)
    if not any(f.place == foot for f in _alive(state, ask.ids)):
        return []
    return [
        w.name
        for w in state.layout.wall_weapons
        if w.wall == wall
        and f"weapon:{w.name}" not in state.spent
        and not board.weapon_lost(state, w.name)
    ]


def _reaction_options(state: GameState, ask: Ask) -> list[Choice]:
    options = [Choice(f"weapon:{n}", f"Use {n}") for n in _reaction_weapons(state, ask)]
    for unit in dict.fromkeys(u for u, _p in _reaction_shooters(state, ask)):
        options.append(Choice(f"fire:{unit}", f"Fire {unit}"))
    return options


def _choose_reaction(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    options = _reaction_options(state, ask)
    options.append(Choice("hold", "Hold fire"))
    wall, how = ask.args
    prompt = f"Climbers at {wall}!" if how == "ladder" else f"Bridge on {wall}!"
    return prompt, options, state.sides[1]


def _catapult_targets(state: GameState, station: str) -> tuple[str, ...]:
    """Stonework a catapult may shoot at (option `catapult_reach`)."""
    layout = state.layout
    if state.option("catapult_reach") == "any":
        return layout.names("wall", "tower", "gate")
    wall = layout.wall_facing(station)
    reach = {wall, *(n for n in layout.neighbours(wall) if layout.place(n).kind == "tower")}
    if wall == layout.front:
        reach.add(layout.gate())
    return tuple(name for name in layout.names("wall", "tower", "gate") if name in reach)


def _choose_catapult_target(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    options = []
    for name in _catapult_targets(state, ask.args[0]):
        if not board.destroyed(state, name):
            options.append(Choice(f"hit:{name}", f"{name} {board.intact(state, name)}"))
    options.append(Choice("interior", "Into the fort"))
    return f"{ask.args[0]} aims at?", options, ask.args[0]


def _choose_space(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    wall = ask.args[0]
    options = [Choice(f"weapon:{n}", n) for n in _weapons_standing(state, wall)]
    if int(ask.args[1]) > 0:  # an open space was standing when the shot landed
        options.insert(0, Choice("open", "An open space"))
    return f"Which space of {wall} is hit?", options, wall


def _choose_aim(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    """Which station a weapon numbers 1; the next five round the fort are 2-6
    (the play-by-play and the fire roll name all six)."""
    options = [Choice(f"start:{i}", s) for i, s in enumerate(state.layout.stations)]
    current = pair_get(state.aims, ask.args[0])
    options.sort(key=lambda c: c.key != f"start:{current}")
    return f"{ask.args[0]}: targets 1-6 from?", options, ask.args[0]


def _choose_weapon_target(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    return f"{ask.args[0]} at?", _weapon_choices(state, ask.args[0]), ask.args[0]


def _choose_survivor_place(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    station = ask.args[0]
    options = []
    for p in state.layout.places:
        if p.inside or p.name == station or p.kind == BRIDGE:
            continue
        if p.kind == "station" and board.room(state, p.name, ATTACKER) < 1:
            continue
        options.append(Choice(f"to:{p.name}", state.layout.label(p.name)))
    return f"Place survivors of {station}", options, station


def _from_places(state: GameState, ask: Ask) -> list[str]:
    verb, unit = ask.args
    if verb == "react":
        reaction = state.stack[-2]
        return [p for u, p in _reaction_shooters(state, reaction) if u == unit]
    return _able_places(state, verb, unit)


def _choose_from(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    unit = ask.args[1]
    options = []
    for place in _from_places(state, ask):
        count = sum(1 for f in board.at(state, place) if f.unit == unit)
        tag = f" ({count})"
        options.append(Choice(f"at:{place}", state.layout.label(place) + tag))
    return f"{unit}: which group?", options, unit


_CHOICE_ASKS = {
    "from": _choose_from,
    "dest": _choose_destination,
    "target": _choose_target,
    "range": _choose_range,
    "reaction": _choose_reaction,
    "cat_target": _choose_catapult_target,
    "space_hit": _choose_space,
    "aim": _choose_aim,
    "weapon_target": _choose_weapon_target,
    "survivor_place": _choose_survivor_place,
}


def _action_roll(action_name: str, params: dict[str, int | bool | str]) -> tuple[RollRequest, Odds]:
    action = actions.ACTIONS[action_name]
    full = action.complete_params(params)
    return action.request(full), action.odds(full)


def _replacement_dice(state: GameState, ask: Ask) -> int:
    """One die for the group, or one a figure (option `replacement_roll`)."""
    if state.option("replacement_roll") == "per_figure":
        return max(1, len(_alive(state, ask.ids)))
    return 1


def _replace_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    request, odds = _action_roll("replacement", {"figures": _replacement_dice(state, ask)})
    unit, place, dest = ask.args
    moves = f"{state.layout.label(place)} to {state.layout.label(dest)}"
    return replace(request, reason=f"{unit}: {moves}, {request.reason}"), odds


def _missile_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    shooters = _alive(state, ask.ids)
    tkind, target = ask.args[0], ask.args[1]
    if tkind == "crew":
        crew = max(1, len(board.at(state, target, ATTACKER)))
        request, odds = _action_roll(
            "crew-fire", {"shooters": len(shooters), "crew": min(crew, 20)}
        )
    else:
        request, odds = _action_roll("missile-fire", _missile_params(shooters, ask.args[2]))
    enemy = "defenders on " if shooters[0].side == ATTACKER else "attackers at "
    at = {"crew": "the crew at ", "ids": "the " + enemy}.get(tkind, "")
    aim = at + state.layout.label(target)
    return replace(request, reason=f"{shooters[0].unit} at {aim}: {request.reason}"), odds


def _structure_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    place, source = ask.args
    name = "tower-hit" if state.layout.place(place).kind == "tower" else "wall-hit"
    intact = board.intact(state, place)
    request, odds = _action_roll(name, {"intact": intact, "occupied": bool(board.at(state, place))})
    return replace(request, reason=f"{source} at {place}: 2d6 must beat {intact}"), odds


def _wound_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    figures = _hit_order(board.at(state, ask.args[0]))
    wounded = bool(figures) and figures[0].wounded
    request, odds = _action_roll("hit-wounds", {"target_wounded": wounded})
    return replace(request, reason=f"Shot lands at {ask.args[0]}: 3+ hurts a figure"), odds


def _interior_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    return _action_roll("interior-hit", {})


def _gun_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    """The d6 picks one of the six stations the weapon is aimed at, named in full."""
    request, odds = _action_roll("artillery-target", {})
    window = _window(state, ask.args[0])
    names = {n: artillery.targeted_station(window, n) or "no target" for n in tables.TARGET_NUMBERS}
    meaning = ", ".join(f"{number} {station}" for number, station in names.items())
    group = replace(request.groups[0], faces_meaning=meaning)
    reason = f"{ask.args[0]} fires: the d6 picks its target"
    return replace(request, reason=reason, groups=(group,)), replace(odds, names=names)


def _window(state: GameState, gun: str) -> tuple[str, ...]:
    return artillery.target_window(state.layout.stations, pair_get(state.aims, gun))


def _weapon_params(state: GameState) -> dict[str, int | bool | str]:
    barracks, keep = board.fort_penalty_flags(state)
    value = state.option("wall_weapon_value")
    assert isinstance(value, int)
    return {"weapon_value": value, "barracks_fallen": barracks, "keep_fallen": keep}


def _weapon_shares(state: GameState, ask: Ask) -> list[tuple[Figure, int]]:
    targets = _alive(state, ask.ids)
    shares = engines.attempts_per_target(len(targets), _weapon_reach(state, ask.args[0]))
    return list(zip(targets, shares, strict=False))


def _weapon_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    weapon, target = ask.args
    n = tables.WALL_WEAPON_ATTEMPTS
    if target.startswith("engine:"):
        request, odds = _action_roll(
            "wall-weapon", {"attempts": n, "target": "engine", **_weapon_params(state)}
        )
        return replace(request, reason=f"{weapon} at {target[7:]}: {request.reason}"), odds
    shares = _weapon_shares(state, ask)
    meaning = "; ".join(f"{k} on {f.label}" for f, k in shares)
    value = actions.wall_weapon_value(actions.WALL_WEAPON.complete_params(_weapon_params(state)))
    request = RollRequest(
        f"{weapon} ({value}) at the foot of {_weapon_wall(state, weapon)}",
        (
            DiceGroup(DieKind.D6, n, "weapon", f"adds to {value}; higher wins"),
            DiceGroup(DieKind.D6, n, "targets", meaning),
        ),
    )
    total: dict[int, Fraction] = {0: Fraction(1)}
    for figure, share in shares:
        part = actions.WALL_WEAPON.odds(
            actions.WALL_WEAPON.complete_params(
                {
                    "attempts": share,
                    "target_kind": figure.kind,
                    "target_wounded": figure.wounded,
                    **_weapon_params(state),
                }
            )
        )
        total = odds_helpers.add(total, part.headline)
    return request, Odds("hits", total)


def _survivors_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    crew = len(_alive(state, ask.ids))
    return _action_roll("engine-survivors", {"crew": max(1, crew)})


def _douse_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    return _action_roll("douse-flames", {"figures": max(1, len(_alive(state, ask.ids)))})


def _contact_title(state: GameState, contact: str) -> str:
    """How the table calls a contact: a place, ladders, a bridge, a tower corner, a
    full place stormed from next door by the attackers or by the defenders, rubble."""
    kind, _, name = contact.partition(":")
    return {
        "place": "Melee at",
        "ladder": "Ladders up",
        "bridge": "Melee on",
        "corner": "Corner of",
        "storm": "Storming",
        "retake": "Retaking",
        "rubble": "Pikes over",
    }[kind] + f" {state.layout.label(name)}"


def _melee_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    contact, stage = ask.args
    n = len(ask.ids)
    request = RollRequest(
        f"{_contact_title(state, contact)}: {counted(n, 'fight')}"
        + (" (ganging up / second fights)" if stage == "2" else ""),
        (
            DiceGroup(DieKind.D6, n, "attackers", "each against the defenders' die in its place; "
                      "higher wounds"),
            DiceGroup(DieKind.D6, n, "defenders", "each against the attackers' die in its place; "
                      "higher wounds"),
        ),
    )
    if len(set(ask.ids)) != n or len(set(ask.more)) != n:
        return request, None
    total: dict[int, Fraction] = {0: Fraction(1)}
    for aid, did in zip(ask.ids, ask.more, strict=True):
        a, d = state.figure(aid), state.figure(did)
        if a is None or d is None:
            return request, None
        p = melee.fight_chances(_fig_value(state, a), _fig_value(state, d))[melee.ATTACKER_WINS]
        total = odds_helpers.add(total, {1: p, 0: 1 - p})
    return request, Odds(MELEE_WINS, total)


_ROLL_ASKS = {
    "replace_roll": _replace_roll,
    "missile_roll": _missile_roll,
    "structure_roll": _structure_roll,
    "wound_roll": _wound_roll,
    "interior_roll": _interior_roll,
    "gun_roll": _gun_roll,
    "weapon_roll": _weapon_roll,
    "survivors_roll": _survivors_roll,
    "douse_roll": _douse_roll,
    "melee_roll": _melee_roll,
}


# ---------------------------------------------------------------- advance


def advance(state: GameState, given: GameInput) -> Transition:
    step = next_step(state)
    check_input(step, given)
    out = Out()
    if isinstance(given, Chosen):
        new = _CHOICE_HANDLERS[state.top.kind](state, given.key, out)
    else:
        assert isinstance(given, Rolled)
        out.cues.add("dice")
        new = _ROLL_HANDLERS[state.top.kind](state, tuple(given.dice), out)
    new = _settle(new, out)
    return Transition(new, tuple(out.log), out.outcome, frozenset(out.cues))


# -- choices


def _on_menu(state: GameState, key: str, out: Out) -> GameState:
    verb, _, rest = key.partition(":")
    if verb == "end":
        return _end_phase(state, out)
    if verb in _UNIT_VERBS:
        places = _able_places(state, verb, rest)
        if len(places) == 1:
            return state.push(Ask(_UNIT_VERBS[verb][0], (rest, places[0])))
        return state.push(Ask("from", (verb, rest)))
    state = replace(state, used=state.used | {key})
    layout = state.layout
    if verb == "shoot":
        return state.push(Ask("cat_target", (rest,)))
    if verb == "ram":
        target = layout.place(rest).faces
        engine = state.layout.engine_name(rest)
        out.log.append(sentence(f"{engine} batters {target}"))
        return _attack_structure(state, target, sentence(engine), out)
    if verb == "bridge":
        return _lower_bridge(state, rest, out)
    if verb == "douse":
        return state.push(Ask("douse_roll", (rest,), tuple(f.id for f in _ready_crew(state, rest))))
    if verb == "gun":
        return state.push(Ask("gun_roll", (rest,)))
    if verb == "aim":
        return state.push(Ask("aim", (rest,)))
    if verb == "weapon":
        state = replace(state, spent=state.spent | {key})
        return state.push(Ask("weapon_target", (rest,)))
    assert verb == "oil"
    out.log.append(f"Burning oil is set before {state.layout.engine_name(rest)}")
    return replace(
        state,
        burning=pair_set(state.burning, rest, 0),
        oil_left=state.oil_left - 1,
        oiled=state.oiled | {rest},
    )


def _lower_bridge(state: GameState, station: str, out: Out) -> GameState:
    """Up to four figures a turn go out onto the bridge (1.11): the attacker's
    missiles on it shoot first if he has any, else the defender's; then the
    fighters take any empty wall space, the rest face the defender in combat."""
    layout = state.layout
    wall = layout.place(station).faces
    bridge = layout.bridge_of(station)
    room = min(tables.ASSAULT_TOWER_DISPENSE, board.room(state, bridge, ATTACKER))
    batch = board.melee_first(_ready_crew(state, station))[:room]
    ids = tuple(f.id for f in batch)
    engaged = board.engaged_ids(state)
    facing = tuple(f.id for f in board.at(state, wall, DEFENDER) if f.id not in engaged)
    for f in batch:
        state = state.with_figure(replace(f, place=bridge))
    state = replace(state, moved=state.moved | set(ids))
    engine = state.layout.engine_name(station)
    out.log.append(sentence(f"{engine} lowers its bridge: {len(ids)} onto it"))
    fighters = tuple(f.id for f in batch if f.kind not in tables.MISSILE_KINDS)
    state = state.push(Ask("land", (wall,), fighters), Ask("reaction", (wall, "bridge"), ids))
    archers = tuple(f.id for f in batch if f.kind in tables.MISSILE_KINDS)
    if archers and facing:
        # they shoot as the bridge comes down, before anyone is locked in melee
        out.log.append("Missiles on the bridge shoot first")
        state = replace(state, fired=state.fired | set(archers))
        state = state.push(Ask("range", ("ids", wall), archers, facing))
    return state


def _on_dest(state: GameState, key: str, out: Out) -> GameState:
    unit, place = state.top.args
    dest_name = key[3:]
    dest = next(d for d in movement.destinations(state, unit, place) if d.place == dest_name)
    going = movement.movers(state, unit, place, dest)
    state = state.pop()
    ids = tuple(f.id for f in going)
    if dest.how == movement.CLIMB:
        state = replace(state, moved=state.moved | set(ids))
        sets = "sets" if len(ids) == 1 else "set"
        out.log.append(f"{unit}: {len(ids)} {sets} ladders against {dest_name}")
        return state.push(
            Ask("land", (dest_name,), ids), Ask("reaction", (dest_name, "ladder"), ids)
        )
    if dest.how == movement.REPLACE:
        return state.push(Ask("replace_roll", (unit, place, dest_name), ids))
    state, log = movement.place_figures(state, going, dest_name, dest.how)
    out.log.extend(log)
    return state


def _on_target(state: GameState, key: str, out: Out) -> GameState:
    unit, place = state.top.args
    shooters = _shooters(state, unit, place)
    ids = tuple(f.id for f in shooters)
    state = replace(state.pop(), fired=state.fired | set(ids))
    tkind, _, target = key.partition(":")
    tkind = "crew" if tkind == "crew" else "place"
    if tkind == "place" and _needs_range(state, shooters, target):
        return state.push(Ask("range", (tkind, target), ids))
    return state.push(Ask("missile_roll", (tkind, target, "far"), ids))


def _on_range(state: GameState, key: str, out: Out) -> GameState:
    ask = state.top
    return state.pop().push(Ask("missile_roll", (*ask.args, key), ask.ids, ask.more))


def _on_reaction(state: GameState, key: str, out: Out) -> GameState:
    ask = state.top
    if key == "hold":
        return state.pop()
    if key.startswith("weapon:"):
        weapon, wall = key[7:], ask.args[0]
        state = replace(state.pop(), spent=state.spent | {key})
        foot = state.layout.foot_of(wall)
        climbers = [f for f in _alive(state, ask.ids) if f.place == foot]
        reached = _hit_order(climbers)[: _weapon_reach(state, weapon)]
        out.log.append(f"{weapon}: used on the climbers at {wall}")
        state = state.push(Ask("reaction", ask.args, ask.ids, ask.more))
        return state.push(Ask("weapon_roll", (weapon, "climb"), tuple(f.id for f in reached)))
    unit = key[5:]
    places = [p for u, p in _reaction_shooters(state, ask) if u == unit]
    if len(places) == 1:
        return _react_fire(state, unit, places[0])
    return state.push(Ask("from", ("react", unit)))


def _react_fire(state: GameState, unit: str, place: str) -> GameState:
    """A missile group shoots at the climbers or the bridge (the reaction is on top)."""
    ask = state.top
    shooters = [
        f
        for f in board.at(state, place, DEFENDER)
        if f.unit == unit and f.kind in tables.MISSILE_KINDS and f.id not in ask.more
    ]
    ids = tuple(f.id for f in shooters)
    state = state.pop().push(Ask("reaction", ask.args, ask.ids, ask.more + ids))
    return state.push(Ask("range", ("ids", ask.args[0]), ids, ask.ids))


def _on_from(state: GameState, key: str, out: Out) -> GameState:
    verb, unit = state.top.args
    place = key[3:]
    state = state.pop()
    if verb == "react":
        return _react_fire(state, unit, place)
    return state.push(Ask(_UNIT_VERBS[verb][0], (unit, place)))


def _on_catapult_target(state: GameState, key: str, out: Out) -> GameState:
    station = state.top.args[0]
    state = state.pop()
    if key == "interior":
        out.log.append(sentence(f"{state.layout.engine_name(station)} shoots into the fort"))
        return state.push(Ask("interior_roll"))
    target = key[4:]
    engine = sentence(state.layout.engine_name(station))
    out.log.append(f"{engine} shoots at {target}")
    return _attack_structure(state, target, engine, out)


def _attack_structure(state: GameState, target: str, source: str, out: Out) -> GameState:
    kind = state.layout.place(target).kind
    if kind != "tower" and state.option("wall_to_hit") == "automatic":
        return _hit_structure(state, target, out)
    return state.push(Ask("structure_roll", (target, source)))


def _on_space(state: GameState, key: str, out: Out) -> GameState:
    wall = state.top.args[0]
    state = state.pop()
    if key == "open":
        out.log.append("The hit falls on an open space")
    else:
        name = key[7:]
        hits = pair_get(state.weapon_hits, name) + 1
        out.log.append(f"{name} is hit ({hits}/{_weapon_spaces(state, name)})")
        if hits >= _weapon_spaces(state, name):
            out.log.append(f"{name} is destroyed")
        state = replace(state, weapon_hits=pair_set(state.weapon_hits, name, hits))
    state, log = movement.displace(state, wall)
    out.log.extend(log)
    return state


def _on_aim(state: GameState, key: str, out: Out) -> GameState:
    gun = state.top.args[0]
    start_at = int(key[6:])
    state = replace(state.pop(), aims=pair_set(state.aims, gun, start_at))
    window = _window(state, gun)
    out.log.append(
        f"{gun} now numbers " + ", ".join(f"{i}={s}" for i, s in enumerate(window, start=1))
    )
    return state


def _on_weapon_target(state: GameState, key: str, out: Out) -> GameState:
    weapon = state.top.args[0]
    state = state.pop()
    if key == "foot":
        wall = _weapon_wall(state, weapon)
        below = board.at(state, state.layout.foot_of(wall), ATTACKER)
        reached = _hit_order(below)[: _weapon_reach(state, weapon)]
        return state.push(Ask("weapon_roll", (weapon, key), tuple(f.id for f in reached)))
    return state.push(Ask("weapon_roll", (weapon, key)))


def _on_survivor_place(state: GameState, key: str, out: Out) -> GameState:
    ask = state.top
    dest = key[3:]
    state = state.pop()
    figures = _alive(state, ask.ids)
    limit = board.room(state, dest, ATTACKER)
    for f in figures[:limit]:
        state = state.with_figure(replace(f, place=dest, free_move=False))
    for f in figures[limit:]:
        state = state.with_figure(
            replace(
                f, place=state.layout.foot_of(state.layout.wall_facing(ask.args[0])), free_move=True
            )
        )
    out.log.append(f"{counted(len(figures), 'survivor')} placed at {dest}")
    return state


_CHOICE_HANDLERS = {
    "menu": _on_menu,
    "from": _on_from,
    "dest": _on_dest,
    "target": _on_target,
    "range": _on_range,
    "reaction": _on_reaction,
    "cat_target": _on_catapult_target,
    "space_hit": _on_space,
    "aim": _on_aim,
    "weapon_target": _on_weapon_target,
    "survivor_place": _on_survivor_place,
}


# -- rolls


def _resolve(name: str, params: dict[str, int | bool | str], dice: tuple[int, ...]) -> Outcome:
    action = actions.ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


def _on_replace_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    unit, place, dest = ask.args
    outcome = _resolve("replacement", {"figures": _replacement_dice(state, ask)}, dice)
    state = state.pop()
    out.outcome = outcome
    going = _alive(state, ask.ids)
    whole_group = {f.id for f in movement.group(state, unit, place)}
    rolled = " ".join(str(d) for d in dice)
    if outcome.headline:
        if state.option("replacement_roll") == "per_group":
            going = going[: board.room(state, dest, ATTACKER)]
        else:
            going = going[: min(outcome.headline, board.room(state, dest, ATTACKER))]
        state, log = movement.place_figures(state, tuple(going), dest, movement.REPLACE)
        out.log.append(f"{unit}: rolled {rolled}, picked up and placed")
        out.log.extend(log)
        return replace(state, moved=state.moved | whole_group)
    out.log.append(f"{unit}: rolled {rolled}, needs a 6; they stay at {place}")
    return replace(state, moved=state.moved | whole_group)


def _on_missile_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    targets = _missile_targets(state, ask)
    shooters = _alive(state, ask.ids)
    state = state.pop()
    if ask.args[0] == "crew":
        crew = max(1, len(targets))
        outcome = _resolve("crew-fire", {"shooters": len(shooters), "crew": min(crew, 20)}, dice)
        out.outcome = outcome
        out.log.append(f"Missiles at the crew of {ask.args[1]}: {outcome.headline} removed")
        for f in targets[: outcome.headline]:
            state = _kill(state, f, out)
        if not board.at(state, ask.args[1], ATTACKER):
            out.log.append(sentence(f"{state.layout.engine_name(ask.args[1])} has no crew left"))
        return state
    outcome = _resolve("missile-fire", _missile_params(shooters, ask.args[2]), dice)
    out.outcome = outcome
    who = shooters[0].unit if shooters else "missiles"
    out.log.append(f"{who} shoot: {counted(outcome.headline, 'hit')}")
    return apply_hits(state, targets, outcome.headline, out)


def _on_structure_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    place, source = state.top.args
    name = "tower-hit" if state.layout.place(place).kind == "tower" else "wall-hit"
    outcome = _resolve(name, {"intact": board.intact(state, place)}, dice)
    out.outcome = outcome
    state = state.pop()
    out.log.append(f"{source} at {place}: " + outcome.details[0])
    if outcome.headline:
        return _hit_structure(state, place, out)
    return state


def _open_spaces(state: GameState, wall: str) -> int:
    return board.intact(state, wall) - board.weapon_spaces(state, wall)


def _weapons_standing(state: GameState, wall: str) -> list[str]:
    return [
        w.name
        for w in state.layout.wall_weapons
        if w.wall == wall and not board.weapon_lost(state, w.name)
    ]


def _hit_structure(state: GameState, place: str, out: Out) -> GameState:
    """A hit marker on a wall, tower, gate or building (1.4.1, 1.4.2)."""
    layout = state.layout
    p = layout.place(place)
    choose_space = p.kind == "wall" and bool(_weapons_standing(state, place))
    open_before = _open_spaces(state, place) if p.kind == "wall" else 0
    hits = pair_get(state.hits, place) + 1
    state = replace(state, hits=pair_set(state.hits, place, hits))
    out.log.append(
        f"{place} is hit: {board.intact(state, place)} of {counted(p.spaces, 'space')} left"
    )
    # which defenders lose their space waits for the attacker to say which space it was
    state, log = movement.displace(state, place, defenders_on_open_spaces=not choose_space)
    out.log.extend(log)
    if board.destroyed(state, place):
        out.log.append(f"{place} is a heap of rubble")
        for name in [w.name for w in layout.wall_weapons if w.wall == place]:
            state = replace(
                state, weapon_hits=pair_set(state.weapon_hits, name, _weapon_spaces(state, name))
            )
        if p.kind == "barracks":
            state = replace(state, fallen=state.fallen | {"barracks"})
            out.log.append("The barracks is destroyed: fort defenders fight at -1")
        elif p.kind == "stables":
            state = replace(state, fallen=state.fallen | {"stables"})
            out.log.append("The stables are destroyed: no more mounted sorties")
        elif p.kind == "keep":
            state = replace(state, fallen=state.fallen | {"keep_destroyed"})
            out.log.append("The keep is destroyed: fort defenders fight at -1")
    wounds = p.kind != "wall" or bool(state.option("wall_hit_wounds"))
    if board.at(state, place) and wounds:
        state = state.push(Ask("wound_roll", (place,)))
    # with weapons on the wall the attacker says which space took the hit; when only
    # weapon spaces were standing the hit must fall on a weapon (settle drops the
    # question if no weapon is left to choose)
    if choose_space and not board.destroyed(state, place):
        state = state.push(Ask("space_hit", (place, str(open_before))))
    return state


def _on_wound_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    place = state.top.args[0]
    state = state.pop()
    figures = _hit_order(board.at(state, place))
    outcome = _resolve("hit-wounds", {"target_wounded": figures[0].wounded}, dice)
    out.outcome = outcome
    if outcome.headline:
        return _wound(state, figures[0], out)
    out.log.append(f"No one at {place} is hurt")
    return state


def _on_interior_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    state = state.pop()
    outcome = _resolve("interior-hit", {}, dice)
    out.outcome = outcome
    out.log.append(outcome.details[0])
    component = artillery.interior_component(dice[0])
    layout = state.layout
    if component in ("left_artillery", "right_artillery"):
        index = 0 if component == "left_artillery" else 1
        guns = layout.defender_artillery
        if index < len(guns) and guns[index] not in state.guns_lost:
            out.log.append(f"{guns[index]} is destroyed")
            return replace(state, guns_lost=state.guns_lost | {guns[index]})
        out.log.append("Nothing there to break")
        return state
    if component == "courtyard":
        if board.at(state, layout.courtyard):
            return state.push(Ask("wound_roll", (layout.courtyard,)))
        out.log.append("The courtyard is empty")
        return state
    building = layout.building(component)
    if building is None or board.destroyed(state, building):
        out.log.append("It lands on rubble")
        return state
    return _hit_structure(state, building, out)


def _station_hit(state: GameState, station: str, out: Out) -> GameState:
    if board.engine_intact(state, station):
        hits = pair_get(state.hits, station) + 1
        state = replace(state, hits=pair_set(state.hits, station, hits))
        out.log.append(sentence(
            f"{state.layout.engine_name(station)} is hit ({hits}/{tables.ENGINE_HITS_TO_DESTROY})"))
        return _maybe_engine_destroyed(state, station, out)
    crew = board.at(state, station, ATTACKER)
    if not crew:
        out.log.append(f"The shot lands at {station}: no one there")
        return state
    if state.option("station_hit") == "kill_one":
        return _kill(state, crew[0], out)
    return apply_hits(state, crew, 1, out)


def _maybe_engine_destroyed(state: GameState, station: str, out: Out) -> GameState:
    if board.engine_intact(state, station):
        return state
    out.log.append(sentence(f"{state.layout.engine_name(station)} is destroyed"))
    state = replace(state, burning=pair_drop(state.burning, station))
    crew = tuple(f.id for f in _engine_contents(state, station))
    if crew:
        return state.push(Ask("survivors_roll", (station,), crew))
    return state


def _engine_contents(state: GameState, station: str) -> tuple[Figure, ...]:
    """Everyone in a ram or assault tower, and on its bridge."""
    contents = board.at(state, station, ATTACKER)
    if state.layout.place(station).equipment == "assault_tower":
        contents += board.at(state, state.layout.bridge_of(station), ATTACKER)
    return contents


def _on_gun_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    gun = state.top.args[0]
    state = state.pop()
    out.outcome = _resolve("artillery-target", {}, dice)
    station = artillery.targeted_station(_window(state, gun), dice[0])
    if station is None:
        out.log.append(f"{gun} rolls {dice[0]}: no target carries that number")
        return state
    out.log.append(f"{gun} rolls {dice[0]}: {station}")
    return _station_hit(state, station, out)


def _on_weapon_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    weapon, target = ask.args
    n = tables.WALL_WEAPON_ATTEMPTS
    weapon_dice, target_dice = dice[:n], dice[n:]
    params = _weapon_params(state)
    if target.startswith("engine:"):
        station = target[7:]
        state = state.pop()
        outcome = _resolve("wall-weapon", {"attempts": n, "target": "engine", **params}, dice)
        out.outcome = outcome
        hits = min(pair_get(state.hits, station) + outcome.headline, tables.ENGINE_HITS_TO_DESTROY)
        state = replace(state, hits=pair_set(state.hits, station, hits))
        out.log.append(f"{weapon} against {state.layout.engine_name(station)}: "
                       f"{outcome.headline} hit{'' if outcome.headline == 1 else 's'}")
        return _maybe_engine_destroyed(state, station, out)
    shares = _weapon_shares(state, ask)
    state = state.pop()
    value = actions.wall_weapon_value(actions.WALL_WEAPON.complete_params(params))
    at = 0
    total = 0
    survivors: list[Figure] = []
    for figure, share in shares:
        wins, wounded, killed = actions.wall_weapon_sequence(
            value,
            figure.kind,
            figure.wounded,
            weapon_dice[at : at + share],
            target_dice[at : at + share],
        )
        at += share
        total += wins
        if killed:
            state = _kill(state, figure, out)
        else:
            if wounded and not figure.wounded:
                out.log.append(f"{figure.label} is wounded")
            current = replace(figure, wounded=wounded)
            state = state.with_figure(current)
            survivors.append(current)
    succeed = counted(total, "attempt succeeds", "attempts succeed")
    out.outcome = Outcome(total, "hits", details=(f"{weapon}: {succeed}",))
    if target == "climb":
        return state  # the survivors go on up the ladders (1.3)
    # fired in the defender's move: whoever lives through it reaches the top (1.5)
    wall = _weapon_wall(state, weapon)
    room = board.room(state, wall, ATTACKER)
    climbing = tuple(survivors[:room])
    if climbing:
        state, _log = movement.place_figures(state, climbing, wall, movement.CLIMB)
        one = len(climbing) == 1
        out.log.append(
            f"{len(climbing)} {'survives' if one else 'survive'} the {weapon} and "
            f"{'reaches' if one else 'reach'} the top of {wall}"
        )
    return state


def _on_survivors_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    station = ask.args[0]
    state = state.pop()
    crew = _alive(state, ask.ids)
    outcome = _resolve("engine-survivors", {"crew": max(1, len(crew))}, dice)
    out.outcome = outcome
    keep = crew[: outcome.headline]
    for f in crew[outcome.headline :]:
        state = _kill(state, f, out)
    out.log.append(f"{len(keep)} get out of the wreck at {station}")
    if keep:
        return state.push(Ask("survivor_place", (station,), tuple(f.id for f in keep)))
    return state


def _on_douse_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    station = ask.args[0]
    state = state.pop()
    outcome = _resolve("douse-flames", {"figures": max(1, len(ask.ids))}, dice)
    out.outcome = outcome
    # dousing is the figures' move and their combat this turn (1.11)
    state = replace(
        state,
        moved=state.moved | set(ask.ids),
        busy=state.busy | set(ask.ids),
        used=state.used | {f"bridge:{station}"},
    )
    if outcome.headline:
        out.log.append(f"The fire at {station} is put out")
        return replace(state, burning=pair_drop(state.burning, station))
    out.log.append(sentence(f"{state.layout.engine_name(station)} still burns"))
    return state


def _fight_pairs_second(state: GameState, contact: str, ask: Ask) -> tuple[tuple[int, int], ...]:
    """Ganging up (1.12): figures left over fight the survivors of the first
    fights; in the keep every defender fights a second time (1.9). Climbers
    beyond one a defended space wait in line on the ladders (1.3) unless the
    option `ladder_gang_up` lets them join in."""
    attackers, defenders = board.contact_sides(state, contact)
    a_first = [f for f in attackers if f.id in ask.ids]
    d_first = [f for f in defenders if f.id in ask.more]
    a_extra = [f for f in attackers if f.id not in ask.ids]
    if contact.startswith("ladder:") and not state.option("ladder_gang_up"):
        a_extra = []
    d_extra = [f for f in defenders if f.id not in ask.more]
    pairs: list[tuple[int, int]] = []
    if d_first:
        pairs += [(a.id, d_first[i % len(d_first)].id) for i, a in enumerate(a_extra)]
    if a_first:
        pairs += [(a_first[i % len(a_first)].id, d.id) for i, d in enumerate(d_extra)]
    keep = state.layout.building("keep")
    if contact in (f"place:{keep}", f"storm:{keep}") and attackers:
        # every keep defender fights once more: those matched in the first round,
        # and those ganging up now (their first fight is just above)
        pairs += [(attackers[i % len(attackers)].id, d.id) for i, d in enumerate(defenders)]
    return tuple(pairs)


def _on_melee_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    contact, stage = ask.args
    n = len(ask.ids)
    a_dice, d_dice = dice[:n], dice[n:]
    state = state.pop()
    won = 0
    killed = False
    kind = contact.partition(":")[0]
    # the first round's pairs are simultaneous: each fights whatever the others did (a
    # climber dying shortens the ladder's list of defenders, yet his neighbour's fight
    # goes on); ganging up and second fights come one after another, each with the
    # sides as they stand (a man killed or driven back fights no more)
    at_roll = board.contact_sides(state, contact)
    for aid, did, x, y in zip(ask.ids, ask.more, a_dice, d_dice, strict=True):
        a, d = state.figure(aid), state.figure(did)
        attackers, defenders = at_roll if stage == "1" else board.contact_sides(state, contact)
        if a is None or d is None or a.id not in _ids(attackers) or d.id not in _ids(defenders):
            continue
        av, dv = _fig_value(state, a), _fig_value(state, d)
        result = melee.fight(av, dv, x, y)
        line = f"{a.label} {av}+{x} v {d.label} {dv}+{y}: "
        if result == melee.TIE:
            out.log.append(line + "tie")
            continue
        if result == melee.ATTACKER_WINS:
            won += 1
            out.log.append(line + "attacker wins")
            killed = killed or d.wounded
            state = _wound(state, d, out)
            if kind in ("ladder", "bridge"):
                state = _ladder_win(state, a, d, out)
        else:
            out.log.append(line + "defender wins")
            killed = killed or a.wounded
            state = _wound(state, a, out)
            if a.wounded and state.layout.place(d.place).kind == "station":
                alive_d = state.figure(d.id)
                if alive_d is not None:
                    state = state.with_figure(replace(alive_d, may_return=True))
    out.outcome = Outcome(
        won,
        MELEE_WINS,
        effects=frozenset({"killed"}) if killed else frozenset(),
        details=tuple(out.log),
    )
    if stage == "1":
        pairs = _fight_pairs_second(state, contact, ask)
        if pairs:
            return state.push(
                Ask(
                    "melee_roll",
                    (contact, "2"),
                    tuple(p[0] for p in pairs),
                    tuple(p[1] for p in pairs),
                )
            )
    return _after_contact(state, contact, out)


def _ladder_win(state: GameState, attacker: Figure, defender: Figure, out: Out) -> GameState:
    """A climber (or a man on a bridge) who beats the defender on the wall
    takes his space (1.3, 1.11)."""
    beaten = state.figure(defender.id)
    if beaten is not None:
        if state.option("ladder_climb") == "kill_defender":
            return state
        back = state.layout.courtyard
        state = state.with_figure(replace(beaten, place=back))
        out.log.append(f"{beaten.label} is driven back to {back}")
    wall = defender.place
    climber = state.figure(attacker.id)
    if climber is not None and board.room(state, wall, ATTACKER) > 0:
        state = state.with_figure(replace(climber, place=wall))
        out.log.append(f"{climber.label} takes the space on {wall}")
    return state


def _after_contact(state: GameState, contact: str, out: Out) -> GameState:
    place = board.contact_place(state, contact)
    p = state.layout.place(place)
    taken = not board.at(state, place, ATTACKER)
    if contact.startswith("place:") and p.equipment == "catapult" and taken:
        for f in board.at(state, place, DEFENDER):
            state = state.with_figure(replace(f, may_return=True))
        engine = state.layout.engine_name(place)
        out.log.append(sentence(f"{engine} is taken: its raiders may go back in"))
    return state


_ROLL_HANDLERS = {
    "replace_roll": _on_replace_roll,
    "missile_roll": _on_missile_roll,
    "structure_roll": _on_structure_roll,
    "wound_roll": _on_wound_roll,
    "interior_roll": _on_interior_roll,
    "gun_roll": _on_gun_roll,
    "weapon_roll": _on_weapon_roll,
    "survivors_roll": _on_survivors_roll,
    "douse_roll": _on_douse_roll,
    "melee_roll": _on_melee_roll,
}


# ----------------------------------------------------- phases, settling, end


def _end_phase(state: GameState, out: Out) -> GameState:
    state = replace(state, moved=frozenset(), fired=frozenset(), used=frozenset(), left_fort=0)
    if state.phase == ATTACKER:
        out.log.append(f"The move passes from {state.sides[0]} to {state.sides[1]}")
        return replace(state, phase=DEFENDER, stack=(Ask("menu"),))
    out.log.append(f"Turn {state.turn}: combat")
    return replace(state, phase=COMBAT, contacts=board.contacts(state), stack=(Ask("combat"),))


def _ids(figures: Sequence[Figure]) -> frozenset[int]:
    return frozenset(f.id for f in figures)


def _combat_next(state: GameState, out: Out) -> GameState:
    """Fight the next contact of those found as combat began, with the sides as they
    stand now. One that an earlier fight has left with no one on a side is passed over,
    and the play-by-play says why; contacts that combat itself makes (a climber on the
    wall beside a defender, a beaten defender among attackers in the courtyard) wait for
    next turn's combat: melee is simultaneous (1.1)."""
    while state.contacts:
        contact, rest = state.contacts[0], state.contacts[1:]
        state = replace(state, contacts=rest)
        attackers, defenders = board.contact_sides(state, contact)
        if not attackers or not defenders:
            why = _gone(attackers, defenders)
            out.log.append(f"{_contact_title(state, contact)}: not fought, {why}")
            continue
        n = min(len(attackers), len(defenders))
        title = _contact_title(state, contact)
        out.log.append(f"{title}: {len(attackers)} against {len(defenders)}")
        return state.push(
            Ask(
                "melee_roll",
                (contact, "1"),
                tuple(f.id for f in attackers[:n]),
                tuple(f.id for f in defenders[:n]),
            )
        )
    return _end_turn(state.pop(), out)


def _gone(attackers: Sequence[Figure], defenders: Sequence[Figure]) -> str:
    """Why a contact is not fought: who is missing from it."""
    if not attackers and not defenders:
        return "no one left on either side"
    return "no attacker left" if not attackers else "no defender left"


def _end_turn(state: GameState, out: Out) -> GameState:
    state = _check_fallen(state, out)
    burning = state.burning
    for station, turns in burning:
        turns += 1
        engine = sentence(state.layout.engine_name(station))
        if engines.oil_burnt_out(turns):
            out.log.append(f"{engine} burns down with all inside")
            for f in _engine_contents(state, station):
                state = _kill(state, f, out)
            state = replace(
                state,
                burning=pair_drop(state.burning, station),
                hits=pair_set(state.hits, station, tables.ENGINE_HITS_TO_DESTROY),
            )
        else:
            state = replace(state, burning=pair_set(state.burning, station, turns))
            out.log.append(f"{engine} burns ({turns}/{tables.OIL_BURN_TURNS})")
    out.cues.add("turn_end")
    state = replace(state, spent=frozenset(), busy=frozenset())
    state = _check_victory(state, out)
    if state.over:
        return state
    if state.turn >= state.layout.turn_limit:
        out.log.append(f"The turn limit is reached: {state.sides[1]} holds the fort")
        return _finish(state, DEFENDER, "held out to the turn limit", out)
    out.log.append(f"Turn {state.turn + 1} begins")
    return replace(state, turn=state.turn + 1, phase=ATTACKER, stack=(Ask("menu"),), contacts=())


def _check_fallen(state: GameState, out: Out) -> GameState:
    """Barracks, stables and keep fall when the enemy holds them unopposed (1.6, 1.9)."""
    for kind in ("barracks", "stables", "keep"):
        name = state.layout.building(kind)
        if name is None or kind in state.fallen:
            continue
        if board.at(state, name, ATTACKER) and not board.at(state, name, DEFENDER):
            state = replace(state, fallen=state.fallen | {kind})
            out.log.append(
                {
                    "barracks": "The barracks has fallen: fort defenders fight at -1",
                    "stables": "The stables have fallen: no more mounted sorties",
                    "keep": "The keep has fallen",
                }[kind]
            )
    return state


def _finish(state: GameState, side: str, reason: str, out: Out) -> GameState:
    out.cues.add("game_over")
    return replace(state, over=True, winner=state.side_name(side), end_reason=reason)


def _check_victory(state: GameState, out: Out) -> GameState:
    if state.over:
        return state
    if not board.alive(state, DEFENDER):
        return _finish(state, ATTACKER, "no defender is left", out)
    if not board.alive(state, ATTACKER):
        return _finish(state, DEFENDER, "no attacker is left", out)
    if "keep" in state.fallen and state.option("victory") == "keep_or_wipeout":
        return _finish(state, ATTACKER, "the keep is taken", out)
    return state


def _settle(state: GameState, out: Out) -> GameState:
    """Do what needs no input, and drop asks that no longer make sense."""
    for _ in range(10_000):
        if state.option("buildings_fall") == "at_once":
            state = _check_fallen(state, out)
        state = _check_victory(state, out)
        if state.over:
            return state
        ask = state.top
        if ask.kind == "combat":
            state = _combat_next(state, out)
            continue
        if ask.kind == "land":
            state = _land(state, ask, out)
            continue
        if ask.kind == "reaction" and (
            not _alive(state, ask.ids) or not _reaction_options(state, ask)
        ):
            state = state.pop()
            continue
        if ask.kind == "wound_roll" and not board.at(state, ask.args[0]):
            state = state.pop()
            continue
        if ask.kind in ("missile_roll", "range") and (
            not _missile_targets(state, ask) or not _alive(state, ask.ids)
        ):
            out.log.append("No target left to shoot at")
            state = state.pop()
            continue
        if ask.kind in ("douse_roll", "survivors_roll", "survivor_place") and not _alive(
            state, ask.ids
        ):
            state = state.pop()
            continue
        if (
            ask.kind == "weapon_roll"
            and not ask.args[1].startswith("engine:")
            and not (_alive(state, ask.ids))
        ):
            state = state.pop()
            continue
        if ask.kind == "from" and not _from_places(state, ask):
            state = state.pop()
            continue
        if ask.kind == "space_hit" and not _CHOICE_ASKS["space_hit"](state, ask)[1]:
            state = state.pop()
            continue
        return state
    raise AssertionError("settling did not finish")  # pragma: no cover


def _land(state: GameState, ask: Ask, out: Out) -> GameState:
    state = state.pop()
    wall = ask.args[0]
    climbers = _alive(state, ask.ids)
    room = board.room(state, wall, ATTACKER)
    landing = tuple(climbers[:room])
    if landing:
        state, _log = movement.place_figures(state, landing, wall, movement.CLIMB)
        reach = "reaches" if len(landing) == 1 else "reach"
        out.log.append(f"{len(landing)} {reach} the top of {wall}")
    if len(climbers) > len(landing):
        left_out = len(climbers) - len(landing)
        out.log.append(f"{left_out} {'finds' if left_out == 1 else 'find'} no room on {wall}")
    return state


# ---------------------------------------------------------------- describe


def _summary(state: GameState) -> tuple[str, ...]:
    return describe(state)  # its first line says who won and why


def describe(state: GameState) -> tuple[str, ...]:
    phase = {
        ATTACKER: state.sides[0] + " move",
        DEFENDER: state.sides[1] + " move",
        COMBAT: "combat",
    }[state.phase]
    lines = [f"Turn {state.turn}/{state.layout.turn_limit}: {phase}"]
    if state.over:
        who = f"{state.winner} won" if state.winner else "Game over"
        lines[0] = f"{who} on turn {state.turn}: {state.end_reason}"
    for side in (ATTACKER, DEFENDER):
        figures = board.alive(state, side)
        wounded = sum(1 for f in figures if f.wounded)
        lines.append(
            f"{state.side_name(side)}: {counted(len(figures), 'figure')} ({wounded} wounded), "
            f"{pair_get(state.lost, side)} lost"
        )
    damage = [
        f"{name} {min(hits, state.layout.place(name).spaces)}/{state.layout.place(name).spaces}"
        for name, hits in state.hits
        if state.layout.place(name).damageable
    ]
    if damage:
        lines.append("Spaces hit: " + ", ".join(damage))
    engines_hit = [
        f"{name} {hits}/{tables.ENGINE_HITS_TO_DESTROY}"
        for name, hits in state.hits
        if state.layout.place(name).kind == "station"
    ]
    if engines_hit:
        lines.append("Engines hit: " + ", ".join(engines_hit))
    if state.fallen:
        lines.append("Fallen: " + ", ".join(sorted(state.fallen)))
    if state.burning:
        lines.append(
            "Burning: "
            + ", ".join(f"{s} {t}/{tables.OIL_BURN_TURNS} turns" for s, t in state.burning)
        )
    if state.guns_lost:
        lines.append("Guns lost: " + ", ".join(sorted(state.guns_lost)))
    bridges = [
        f"{state.layout.station_of_bridge(b)} {counted(len(board.at(state, b)), 'figure')}"
        for b in state.layout.names(BRIDGE)
        if board.at(state, b)
    ]
    if bridges:
        lines.append("On bridges: " + ", ".join(bridges))
    return tuple(lines)
