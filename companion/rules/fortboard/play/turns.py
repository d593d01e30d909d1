"""A turn's phases: the attacker's move, the defender's, then combat; the end of a
turn (fallen buildings, burning engines, the turn limit) and the end of the game.

Combat comes back here once its last contact is fought (`combat.combat_next`).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.fortboard import board, engines, tables
from companion.rules.fortboard.layout import sentence
from companion.rules.fortboard.play.losses import kill
from companion.rules.fortboard.play.siege_engines import engine_contents
from companion.rules.fortboard.play.steps import Out
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, GameState, pair_drop, pair_set

COMBAT = "combat"


def end_phase(state: GameState, out: Out) -> GameState:
    state = replace(state, moved=frozenset(), fired=frozenset(), used=frozenset(), left_fort=0)
    if state.phase == ATTACKER:
        out.log.append(f"The move passes from {state.sides[0]} to {state.sides[1]}")
        return replace(state, phase=DEFENDER, stack=(Ask("menu"),))
    out.log.append(f"Turn {state.turn}: combat")
    return replace(state, phase=COMBAT, contacts=board.contacts(state), stack=(Ask("combat"),))


def end_turn(state: GameState, out: Out) -> GameState:
    state = check_fallen(state, out)
    burning = state.burning
    for station, turns in burning:
        turns += 1
        engine = sentence(state.layout.engine_name(station))
        if engines.oil_burnt_out(turns):
            out.log.append(f"{engine} burns down with all inside")
            for f in engine_contents(state, station):
                state = kill(state, f, out)
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
    state = check_victory(state, out)
    if state.over:
        return state
    if state.turn >= state.layout.turn_limit:
        out.log.append(f"The turn limit is reached: {state.sides[1]} holds the fort")
        return _finish(state, DEFENDER, "held out to the turn limit", out)
    out.log.append(f"Turn {state.turn + 1} begins")
    return replace(state, turn=state.turn + 1, phase=ATTACKER, stack=(Ask("menu"),), contacts=())


def check_fallen(state: GameState, out: Out) -> GameState:
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


def check_victory(state: GameState, out: Out) -> GameState:
    if state.over:
        return state
    if not board.alive(state, DEFENDER):
        return _finish(state, ATTACKER, "no defender is left", out)
    if not board.alive(state, ATTACKER):
        return _finish(state, DEFENDER, "no attacker is left", out)
    if "keep" in state.fallen and state.option("victory") == "keep_or_wipeout":
        return _finish(state, ATTACKER, "the keep is taken", out)
    return state
