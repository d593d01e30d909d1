"""The defender's artillery: a gun's aim (which six stations its d6 numbers) and its
shot, on an engine or on the figures at a station.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Choice, Odds, RollRequest
from companion.rules.fortboard import artillery, board, tables
from companion.rules.fortboard.layout import sentence
from companion.rules.fortboard.play.losses import apply_hits, kill
from companion.rules.fortboard.play.siege_engines import maybe_engine_destroyed
from companion.rules.fortboard.play.steps import (
    ChoiceStep,
    Out,
    RollStep,
    action_roll,
    resolve,
)
from companion.rules.fortboard.state import ATTACKER, Ask, GameState, pair_get, pair_set


def _window(state: GameState, gun: str) -> tuple[str, ...]:
    return artillery.target_window(state.layout.stations, pair_get(state.aims, gun))


def _choose_aim(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    """Which station a weapon numbers 1; the next five round the fort are 2-6
    (the play-by-play and the fire roll name all six)."""
    options = [Choice(f"start:{i}", s) for i, s in enumerate(state.layout.stations)]
    current = pair_get(state.aims, ask.args[0])
    options.sort(key=lambda c: c.key != f"start:{current}")
    return f"{ask.args[0]}: targets 1-6 from?", options, ask.args[0]


def _on_aim(state: GameState, key: str, out: Out) -> GameState:
    gun = state.top.args[0]
    start_at = int(key[6:])
    state = replace(state.pop(), aims=pair_set(state.aims, gun, start_at))
    window = _window(state, gun)
    out.log.append(
        f"{gun} now numbers " + ", ".join(f"{i}={s}" for i, s in enumerate(window, start=1))
    )
    return state


def _gun_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    """The d6 picks one of the six stations the weapon is aimed at, named in full."""
    request, odds = action_roll("artillery-target", {})
    window = _window(state, ask.args[0])
    names = {n: artillery.targeted_station(window, n) or "no target" for n in tables.TARGET_NUMBERS}
    meaning = ", ".join(f"{number} {station}" for number, station in names.items())
    group = replace(request.groups[0], faces_meaning=meaning)
    reason = f"{ask.args[0]} fires: the d6 picks its target"
    return replace(request, reason=reason, groups=(group,)), replace(odds, names=names)


def _on_gun_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    gun = state.top.args[0]
    state = state.pop()
    out.outcome = resolve("artillery-target", {}, dice)
    station = artillery.targeted_station(_window(state, gun), dice[0])
    if station is None:
        out.log.append(f"{gun} rolls {dice[0]}: no target carries that number")
        return state
    out.log.append(f"{gun} rolls {dice[0]}: {station}")
    return _station_hit(state, station, out)


def _station_hit(state: GameState, station: str, out: Out) -> GameState:
    if board.engine_intact(state, station):
        hits = pair_get(state.hits, station) + 1
        state = replace(state, hits=pair_set(state.hits, station, hits))
        out.log.append(sentence(
            f"{state.layout.engine_name(station)} is hit ({hits}/{tables.ENGINE_HITS_TO_DESTROY})"))
        return maybe_engine_destroyed(state, station, out)
    crew = board.at(state, station, ATTACKER)
    if not crew:
        out.log.append(f"The shot lands at {station}: no one there")
        return state
    if state.option("station_hit") == "kill_one":
        return kill(state, crew[0], out)
    return apply_hits(state, crew, 1, out)


CHOICES: dict[str, ChoiceStep] = {
    "aim": ChoiceStep(_choose_aim, _on_aim),
}

ROLLS: dict[str, RollStep] = {
    "gun_roll": RollStep(_gun_roll, _on_gun_roll),
}
