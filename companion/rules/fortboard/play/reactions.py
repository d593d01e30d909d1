"""The defender's reaction to ladders set or a bridge lowered (1.3, 1.11): missiles on
that wall and its towers, and wall weapons poured on the climbers, before they land.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Choice
from companion.rules.fortboard import board, tables
from companion.rules.fortboard.play.losses import hit_order
from companion.rules.fortboard.play.steps import ChoiceStep, Out, alive
from companion.rules.fortboard.play.wall_weapons import weapon_reach
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, Figure, GameState


def _heading_up(state: GameState, ask: Ask) -> tuple[Figure, ...]:
    """The climbers of a ladder reaction who will find an empty space at the top:
    no defender opposes them (1.3). The rest stay at the foot and meet defenders."""
    wall, how = ask.args
    if how != "ladder":
        return ()
    foot = state.layout.foot_of(wall)
    going = [f for f in alive(state, ask.ids) if f.place == foot]
    return tuple(going[: board.room(state, wall, ATTACKER)])


def _reaction_engaged(state: GameState, ask: Ask) -> frozenset[int]:
    """Figures in melee as the defender reacts: climbers bound for empty spaces hold
    no defender, so only those left at the foot take men of the wall (1.3, 1.12.1)."""
    heading = {f.id for f in _heading_up(state, ask)}
    if not heading:
        return board.engaged_ids(state)
    rest = replace(state, figures=tuple(f for f in state.figures if f.id not in heading))
    return board.engaged_ids(rest)


def reaction_shooters(state: GameState, ask: Ask) -> list[tuple[str, str]]:
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
    if not any(f.place == foot for f in alive(state, ask.ids)):
        return []
    return [
        w.name
        for w in state.layout.wall_weapons
        if w.wall == wall
        and f"weapon:{w.name}" not in state.spent
        and not board.weapon_lost(state, w.name)
    ]


def reaction_options(state: GameState, ask: Ask) -> list[Choice]:
    options = [Choice(f"weapon:{n}", f"Use {n}") for n in _reaction_weapons(state, ask)]
    for unit in dict.fromkeys(u for u, _p in reaction_shooters(state, ask)):
        options.append(Choice(f"fire:{unit}", f"Fire {unit}"))
    return options


def _choose_reaction(state: GameState, ask: Ask) -> tuple[str, list[Choice], str]:
    options = reaction_options(state, ask)
    options.append(Choice("hold", "Hold fire"))
    wall, how = ask.args
    prompt = f"Climbers at {wall}!" if how == "ladder" else f"Bridge on {wall}!"
    return prompt, options, state.sides[1]


def _on_reaction(state: GameState, key: str, out: Out) -> GameState:
    ask = state.top
    if key == "hold":
        return state.pop()
    if key.startswith("weapon:"):
        weapon, wall = key[7:], ask.args[0]
        state = replace(state.pop(), spent=state.spent | {key})
        foot = state.layout.foot_of(wall)
        climbers = [f for f in alive(state, ask.ids) if f.place == foot]
        reached = hit_order(climbers)[: weapon_reach(state, weapon)]
        out.log.append(f"{weapon}: used on the climbers at {wall}")
        state = state.push(Ask("reaction", ask.args, ask.ids, ask.more))
        return state.push(Ask("weapon_roll", (weapon, "climb"), tuple(f.id for f in reached)))
    unit = key[5:]
    places = [p for u, p in reaction_shooters(state, ask) if u == unit]
    if len(places) == 1:
        return react_fire(state, unit, places[0])
    return state.push(Ask("from", ("react", unit)))


def react_fire(state: GameState, unit: str, place: str) -> GameState:
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


CHOICES: dict[str, ChoiceStep] = {
    "reaction": ChoiceStep(_choose_reaction, _on_reaction),
}
