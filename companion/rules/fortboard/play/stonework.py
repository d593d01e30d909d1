"""The fort's stonework battered: a catapult's aim, a ram's or a catapult's blow on a
wall, tower, gate or building (1.4), the wall space it takes, the figures it hurts, and
a shot into the fort that falls on a gun, the courtyard or a building.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Choice, Odds, RollRequest, counted
from companion.rules.fortboard import artillery, board, movement
from companion.rules.fortboard.layout import sentence
from companion.rules.fortboard.play.losses import hit_order, wound
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    resolve,
)
from companion.rules.fortboard.play.wall_weapons import weapon_spaces
from companion.rules.fortboard.state import Ask, GameState, pair_get, pair_set


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


def _on_catapult_target(state: GameState, key: str, out: Out) -> GameState:
    station = state.top.args[0]
    state = state.pop()
    if key == "interior":
        out.log.append(sentence(f"{state.layout.engine_name(station)} shoots into the fort"))
        return state.push(Ask("interior_roll"))
    target = key[4:]
    engine = sentence(state.layout.engine_name(station))
    out.log.append(f"{engine} shoots at {target}")
    return attack_structure(state, target, engine, out)


def attack_structure(state: GameState, target: str, source: str, out: Out) -> GameState:
    kind = state.layout.place(target).kind
    if kind != "tower" and state.option("wall_to_hit") == "automatic":
        return _hit_structure(state, target, out)
    return state.push(Ask("structure_roll", (target, source)))


def _structure_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    place, source = ask.args
    name = "tower-hit" if state.layout.place(place).kind == "tower" else "wall-hit"
    intact = board.intact(state, place)
    request, odds = action_roll(name, {"intact": intact, "occupied": bool(board.at(state, place))})
    return replace(request, reason=f"{source} at {place}: 2d6 must beat {intact}"), odds


def _on_structure_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    place, source = state.top.args
    name = "tower-hit" if state.layout.place(place).kind == "tower" else "wall-hit"
    outcome = resolve(name, {"intact": board.intact(state, place)}, dice)
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
                state, weapon_hits=pair_set(state.weapon_hits, name, weapon_spaces(state, name))
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


def _choose_space(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    wall = ask.args[0]
    options = [Choice(f"weapon:{n}", n) for n in _weapons_standing(state, wall)]
    if int(ask.args[1]) > 0:  # an open space was standing when the shot landed
        options.insert(0, Choice("open", "An open space"))
    return f"Which space of {wall} is hit?", options, wall


def _on_space(state: GameState, key: str, out: Out) -> GameState:
    wall = state.top.args[0]
    state = state.pop()
    if key == "open":
        out.log.append("The hit falls on an open space")
    else:
        name = key[7:]
        hits = pair_get(state.weapon_hits, name) + 1
        out.log.append(f"{name} is hit ({hits}/{weapon_spaces(state, name)})")
        if hits >= weapon_spaces(state, name):
            out.log.append(f"{name} is destroyed")
        state = replace(state, weapon_hits=pair_set(state.weapon_hits, name, hits))
    state, log = movement.displace(state, wall)
    out.log.extend(log)
    return state


def _wound_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    figures = hit_order(board.at(state, ask.args[0]))
    wounded = bool(figures) and figures[0].wounded
    request, odds = action_roll("hit-wounds", {"target_wounded": wounded})
    return replace(request, reason=f"Shot lands at {ask.args[0]}: 3+ hurts a figure"), odds


def _on_wound_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    place = state.top.args[0]
    state = state.pop()
    figures = hit_order(board.at(state, place))
    outcome = resolve("hit-wounds", {"target_wounded": figures[0].wounded}, dice)
    out.outcome = outcome
    if outcome.headline:
        return wound(state, figures[0], out)
    out.log.append(f"No one at {place} is hurt")
    return state


def _interior_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    return action_roll("interior-hit", {})


def _on_interior_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    state = state.pop()
    outcome = resolve("interior-hit", {}, dice)
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


CHOICES: dict[str, ChoiceStep] = {
    "cat_target": ChoiceStep(_choose_catapult_target, _on_catapult_target),
    "space_hit": ChoiceStep(_choose_space, _on_space),
}

ROLLS: dict[str, RollStep] = {
    "structure_roll": RollStep(_structure_roll, _on_structure_roll),
    "wound_roll": RollStep(_wound_roll, _on_wound_roll),
    "interior_roll": RollStep(_interior_roll, _on_interior_roll),
}
