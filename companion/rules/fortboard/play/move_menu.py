"""A side's move: the menu of what it may still do (engines, guns, wall weapons, oil,
a unit's fire or move), and which group of a unit fires, moves or reacts when its
figures stand in several places. Every action starts here; "End move" passes the move
on (`turns.end_phase`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.rules.core import Choice
from companion.rules.fortboard import board, tables
from companion.rules.fortboard.layout import sentence
from companion.rules.fortboard.play.moving import can_move
from companion.rules.fortboard.play.reactions import react_fire, reaction_shooters
from companion.rules.fortboard.play.shooting import can_fire
from companion.rules.fortboard.play.siege_engines import lower_bridge, ready_crew
from companion.rules.fortboard.play.steps import ChoiceStep, Out
from companion.rules.fortboard.play.stonework import attack_structure
from companion.rules.fortboard.play.turns import end_phase
from companion.rules.fortboard.play.wall_weapons import weapon_choices
from companion.rules.fortboard.state import ATTACKER, Ask, Figure, GameState, pair_get, pair_set


def _units(state: GameState, side: str) -> list[str]:
    """A side's units in set-up order."""
    return list(dict.fromkeys(f.unit for f in state.figures if f.side == side))


def _places_of(state: GameState, unit: str) -> list[str]:
    """Where a unit's figures stand, in figure order."""
    return list(dict.fromkeys(f.place for f in state.figures if f.unit == unit))


#: Menu verbs for a unit, and what each asks next once the unit's place is known.
_UNIT_VERBS = {"fire": ("target", can_fire), "move": ("dest", can_move)}


def _able_places(state: GameState, verb: str, unit: str) -> list[str]:
    """The places from which a unit's figures may still fire or move this move."""
    able = _UNIT_VERBS[verb][1]
    return [p for p in _places_of(state, unit) if able(state, unit, p)]


def _engine_may_act(state: GameState, station: str, verb: str, crew: Sequence[Figure]) -> bool:
    """A ram and an assault tower alike act once a turn, and only while the engine
    is intact, crewed, and the stonework it faces still stands."""
    return (
        board.engine_intact(state, station)
        and bool(crew)
        and f"{verb}:{station}" not in state.used
        and not board.destroyed(state, state.layout.place(station).faces)
    )


def menu(state: GameState) -> list[Choice]:
    side = state.phase
    layout = state.layout
    out: list[Choice] = []
    if side == ATTACKER:
        for station in layout.stations:
            p = layout.place(station)
            crew = ready_crew(state, station)
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
                and weapon_choices(state, weapon.name)
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


def _on_menu(state: GameState, key: str, out: Out) -> GameState:
    verb, _, rest = key.partition(":")
    if verb == "end":
        return end_phase(state, out)
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
        return attack_structure(state, target, sentence(engine), out)
    if verb == "bridge":
        return lower_bridge(state, rest, out)
    if verb == "douse":
        return state.push(Ask("douse_roll", (rest,), tuple(f.id for f in ready_crew(state, rest))))
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


def from_places(state: GameState, ask: Ask) -> list[str]:
    verb, unit = ask.args
    if verb == "react":
        reaction = state.stack[-2]
        return [p for u, p in reaction_shooters(state, reaction) if u == unit]
    return _able_places(state, verb, unit)


def _choose_from(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    unit = ask.args[1]
    options = []
    for place in from_places(state, ask):
        count = sum(1 for f in board.at(state, place) if f.unit == unit)
        tag = f" ({count})"
        options.append(Choice(f"at:{place}", state.layout.label(place) + tag))
    return f"{unit}: which group?", options, unit


def _on_from(state: GameState, key: str, out: Out) -> GameState:
    verb, unit = state.top.args
    place = key[3:]
    state = state.pop()
    if verb == "react":
        return react_fire(state, unit, place)
    return state.push(Ask(_UNIT_VERBS[verb][0], (unit, place)))


def _ask_menu(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    who = state.side_name(state.phase)
    return f"Turn {state.turn}: {who} move", menu(state), who


CHOICES: dict[str, ChoiceStep] = {
    "from": ChoiceStep(_choose_from, _on_from),
    "menu": ChoiceStep(_ask_menu, _on_menu),
}
