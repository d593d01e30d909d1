"""Missile fire: who may shoot from where at what (1.12.1), the range asked where it
has a bearing, the roll, and its hits on the figures or on a catapult's crew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.rules.core import Choice, Odds, RollRequest, counted
from companion.rules.fortboard import board, tables
from companion.rules.fortboard.layout import BRIDGE, FOOT, sentence
from companion.rules.fortboard.play.losses import apply_hits, kill
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    alive,
    resolve,
)
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, Figure, GameState


def _other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


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


def can_fire(state: GameState, unit: str, place: str) -> bool:
    return bool(_shooters(state, unit, place)) and bool(_fire_targets(state, state.phase, place))


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


def missile_targets(state: GameState, ask: Ask) -> list[Figure]:
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


def _missile_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    shooters = alive(state, ask.ids)
    tkind, target = ask.args[0], ask.args[1]
    if tkind == "crew":
        crew = max(1, len(board.at(state, target, ATTACKER)))
        request, odds = action_roll(
            "crew-fire", {"shooters": len(shooters), "crew": min(crew, 20)}
        )
    else:
        request, odds = action_roll("missile-fire", _missile_params(shooters, ask.args[2]))
    enemy = "defenders on " if shooters[0].side == ATTACKER else "attackers at "
    at = {"crew": "the crew at ", "ids": "the " + enemy}.get(tkind, "")
    aim = at + state.layout.label(target)
    return replace(request, reason=f"{shooters[0].unit} at {aim}: {request.reason}"), odds


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


def _on_missile_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    targets = missile_targets(state, ask)
    shooters = alive(state, ask.ids)
    state = state.pop()
    if ask.args[0] == "crew":
        crew = max(1, len(targets))
        outcome = resolve("crew-fire", {"shooters": len(shooters), "crew": min(crew, 20)}, dice)
        out.outcome = outcome
        out.log.append(f"Missiles at the crew of {ask.args[1]}: {outcome.headline} removed")
        for f in targets[: outcome.headline]:
            state = kill(state, f, out)
        if not board.at(state, ask.args[1], ATTACKER):
            out.log.append(sentence(f"{state.layout.engine_name(ask.args[1])} has no crew left"))
        return state
    outcome = resolve("missile-fire", _missile_params(shooters, ask.args[2]), dice)
    out.outcome = outcome
    who = shooters[0].unit if shooters else "missiles"
    out.log.append(f"{who} shoot: {counted(outcome.headline, 'hit')}")
    return apply_hits(state, targets, outcome.headline, out)


CHOICES: dict[str, ChoiceStep] = {
    "target": ChoiceStep(_choose_target, _on_target),
    "range": ChoiceStep(_choose_range, _on_range),
}

ROLLS: dict[str, RollStep] = {
    "missile_roll": RollStep(_missile_roll, _on_missile_roll),
}
