"""A group moving: where to, the 6 an attacker needs to be re-placed outside, ladders set
against a wall and the climbers who reach its top.

Ladders set ask the defender's reaction (`reactions`) before the climbers land
(`land`, done by `game.py` as it settles the state).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Choice, Odds, RollRequest
from companion.rules.fortboard import board, movement
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    alive,
    resolve,
)
from companion.rules.fortboard.state import ATTACKER, Ask, GameState


def can_move(state: GameState, unit: str, place: str) -> bool:
    return bool(movement.destinations(state, unit, place))


def _choose_destination(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    unit, place = ask.args
    options = []
    for d in movement.destinations(state, unit, place):
        tag = {"replace": " (6)", "climb": " (up)", "leave": " (out)", "return": " (in)"}.get(
            d.how, ""
        )
        options.append(Choice(f"to:{d.place}", f"{state.layout.label(d.place)}{tag}"))
    return f"Move {unit} to?", options, unit


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


def _replacement_dice(state: GameState, ask: Ask) -> int:
    """One die for the group, or one a figure (option `replacement_roll`)."""
    if state.option("replacement_roll") == "per_figure":
        return max(1, len(alive(state, ask.ids)))
    return 1


def _replace_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    request, odds = action_roll("replacement", {"figures": _replacement_dice(state, ask)})
    unit, place, dest = ask.args
    moves = f"{state.layout.label(place)} to {state.layout.label(dest)}"
    return replace(request, reason=f"{unit}: {moves}, {request.reason}"), odds


def _on_replace_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    unit, place, dest = ask.args
    outcome = resolve("replacement", {"figures": _replacement_dice(state, ask)}, dice)
    state = state.pop()
    out.outcome = outcome
    going = alive(state, ask.ids)
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


def land(state: GameState, ask: Ask, out: Out) -> GameState:
    state = state.pop()
    wall = ask.args[0]
    climbers = alive(state, ask.ids)
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


CHOICES: dict[str, ChoiceStep] = {
    "dest": ChoiceStep(_choose_destination, _on_dest),
}

ROLLS: dict[str, RollStep] = {
    "replace_roll": RollStep(_replace_roll, _on_replace_roll),
}
