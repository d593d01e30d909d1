"""The attacker's siege engines: their crews, an assault tower lowering its bridge, an
engine destroyed and the survivors of its wreck placed, a burning tower doused.

The ram's and the catapult's blows are the stonework's (`stonework`); the burning oil
is set from the defender's menu and burns at the end of the turn (`turns`).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Choice, Odds, RollRequest, counted
from companion.rules.fortboard import board, tables
from companion.rules.fortboard.layout import BRIDGE, sentence
from companion.rules.fortboard.play.losses import kill
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    alive,
    resolve,
)
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, Figure, GameState, pair_drop


def ready_crew(state: GameState, station: str) -> tuple[Figure, ...]:
    """Attackers at a station who have neither moved nor given up this turn."""
    return tuple(
        f
        for f in board.at(state, station, ATTACKER)
        if f.id not in state.moved and f.id not in state.busy
    )


def engine_contents(state: GameState, station: str) -> tuple[Figure, ...]:
    """Everyone in a ram or assault tower, and on its bridge."""
    contents = board.at(state, station, ATTACKER)
    if state.layout.place(station).equipment == "assault_tower":
        contents += board.at(state, state.layout.bridge_of(station), ATTACKER)
    return contents


def maybe_engine_destroyed(state: GameState, station: str, out: Out) -> GameState:
    if board.engine_intact(state, station):
        return state
    out.log.append(sentence(f"{state.layout.engine_name(station)} is destroyed"))
    state = replace(state, burning=pair_drop(state.burning, station))
    crew = tuple(f.id for f in engine_contents(state, station))
    if crew:
        return state.push(Ask("survivors_roll", (station,), crew))
    return state


def lower_bridge(state: GameState, station: str, out: Out) -> GameState:
    """Up to four figures a turn go out onto the bridge (1.11): the attacker's
    missiles on it shoot first if he has any, else the defender's; then the
    fighters take any empty wall space, the rest face the defender in combat."""
    layout = state.layout
    wall = layout.place(station).faces
    bridge = layout.bridge_of(station)
    room = min(tables.ASSAULT_TOWER_DISPENSE, board.room(state, bridge, ATTACKER))
    batch = board.melee_first(ready_crew(state, station))[:room]
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


def _on_survivor_place(state: GameState, key: str, out: Out) -> GameState:
    ask = state.top
    dest = key[3:]
    state = state.pop()
    figures = alive(state, ask.ids)
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


def _survivors_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    crew = len(alive(state, ask.ids))
    return action_roll("engine-survivors", {"crew": max(1, crew)})


def _on_survivors_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    station = ask.args[0]
    state = state.pop()
    crew = alive(state, ask.ids)
    outcome = resolve("engine-survivors", {"crew": max(1, len(crew))}, dice)
    out.outcome = outcome
    keep = crew[: outcome.headline]
    for f in crew[outcome.headline :]:
        state = kill(state, f, out)
    out.log.append(f"{len(keep)} get out of the wreck at {station}")
    if keep:
        return state.push(Ask("survivor_place", (station,), tuple(f.id for f in keep)))
    return state


def _douse_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    return action_roll("douse-flames", {"figures": max(1, len(alive(state, ask.ids)))})


def _on_douse_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    station = ask.args[0]
    state = state.pop()
    outcome = resolve("douse-flames", {"figures": max(1, len(ask.ids))}, dice)
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


CHOICES: dict[str, ChoiceStep] = {
    "survivor_place": ChoiceStep(_choose_survivor_place, _on_survivor_place),
}

ROLLS: dict[str, RollStep] = {
    "survivors_roll": RollStep(_survivors_roll, _on_survivors_roll),
    "douse_roll": RollStep(_douse_roll, _on_douse_roll),
}
