"""A move or a charge: the terrain, the move roll, a gun limbering up to move, then on
to contact (a charge), to the abandoned gun (infantry going to man it) or to fire.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, AwaitChoice, Choice, Outcome, Params
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.movement import FORMATION_CHANGE_ONLY, MOVE
from companion.rules.scrubs_of_the_desert.play.shooting import to_fire
from companion.rules.scrubs_of_the_desert.play.spotting import spot
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    r,
    then,
    to,
)
from companion.rules.scrubs_of_the_desert.state import GameState


def _ask_terrain(state: GameState) -> AwaitChoice:
    c = state.ctx
    return AwaitChoice(
        "Terrain?",
        (
            Choice("desert", "Desert"),
            Choice("trail", "Trail or fort"),
            Choice("rough", "Rough"),
        ),
        c.actor,
    )


def _on_terrain(state: GameState, key: str) -> Result:
    return r(to(state, "move_roll", terrain=key))


def _ask_move_roll(state: GameState) -> tuple[Action, Params]:
    c = state.ctx
    b = state.band(c.actor)
    row = tables.movement_type(b.nation, b.kind, state.options.arab_gun_moves_as)
    return MOVE, MOVE.complete_params({"unit_type": row, "terrain": c.terrain})


def _moved(state: GameState, outcome: Outcome) -> Result:
    c = state.ctx
    b = state.band(c.actor)
    inches = outcome.headline
    lines = [f'{b.does("moves", "move")} {inches}" ({outcome.details[0]})']
    if FORMATION_CHANGE_ONLY in outcome.effects and b.kind != "gun":  # a gun has no formation
        lines.append(f"{b.name} may still change formation")
    if b.kind == "gun" and not b.limbered and inches:  # a gun that rolls 0" stays deployed
        b = replace(b, limbered=True)
        lines.append(
            f"{b.does('limbers', 'limber')} up to move: no fire until a later whole move "
            "unlimbers it"
        )
    state = state.with_band(b)
    # A unit that rolls 0" stays where it stood: it has not moved, so a hidden unit stays
    # unseen and its fire keeps the +1 for not moving.
    state, spotted = spot(state, b.name) if inches else (state, ())
    state = to(state, "order", moved=inches > 0)
    if c.charging:
        return r(to(state, "contact"), *lines, *spotted)
    if c.manning:
        return r(to(state, "reached_gun"), *lines, *spotted)
    return then(to_fire(state), *lines, *spotted)


CHOICES: dict[str, ChoiceStep] = {
    "terrain": ChoiceStep(_ask_terrain, _on_terrain),
}

ROLLS: dict[str, RollStep] = {
    "move_roll": RollStep(_ask_move_roll, _moved),
}
