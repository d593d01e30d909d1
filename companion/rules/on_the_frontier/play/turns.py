"""The turn around the orders: the roll for who goes first, the end of a turn (hit
commanders replaced, orders cleared, the turn limit), a joined commander leaving the
field with his unit, and who is winning (the share of figures kept).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, Outcome, Params, larger_share_kept
from companion.rules.grammar import agree
from companion.rules.on_the_frontier.initiative import TIE, WHO_GOES_FIRST
from companion.rules.on_the_frontier.play.steps import Result, RollStep
from companion.rules.on_the_frontier.state import Context, GameState


def _ask_initiative(state: GameState) -> tuple[Action, Params]:
    return WHO_GOES_FIRST, {}


def _on_initiative(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    if outcome.headline == TIE:
        return Result(
            state, (f"Turn {state.turn}: initiative tied {dice[0]}-{dice[1]}; roll again",)
        )
    first = outcome.headline - 1
    return Result(
        replace(state, stage="pick_unit", first=first, player=0),
        (
            f"Turn {state.turn}: {state.sides[0]} {dice[0]}, {state.sides[1]} {dice[1]}: "
            + agree(state.sides[first], "goes", "go")
            + " first",
        ),
    )


def end_turn(state: GameState) -> tuple[GameState, tuple[str, ...]]:
    """The next turn (or the game's end), and a line for each hit commander replaced."""
    forces = []
    lines = []
    for f in state.forces:
        back = 0 if 0 < f.leader_back_turn <= state.turn else f.leader_back_turn
        if back != f.leader_back_turn and f.on_table:
            lines.append(f"{f.name}: the replacement for {f.leader} takes command")
        forces.append(replace(f, acted=False, leader_back_turn=back))
    state = replace(
        state, forces=tuple(forces), charges=(), gave_ground=(), ctx=Context(), player=0
    )
    if state.turn >= state.turn_limit:
        return replace(state, finished=True, stage="over"), tuple(lines)
    return replace(state, turn=state.turn + 1, stage="initiative"), tuple(lines)


def commanders_follow(state: GameState) -> tuple[GameState, tuple[str, ...]]:
    """A joined commander shares his unit's fate: he leaves the field with it."""
    lines = []
    for f in state.forces:
        if f.joined and not f.routed and not state.force(f.joined).on_table:
            state = state.with_force(replace(f, routed=True))
            lines.append(f"{f.name} leaves the field with {f.joined}")
    return state, tuple(lines)


def strength(state: GameState, side: str) -> tuple[int, int]:
    """Figures up on the table (a routed unit's have left it), and figures the side started
    with."""
    standing = sum(f.figures for f in state.forces if f.side == side and f.on_table)
    started = sum(f.start for f in state.forces if f.side == side)
    return standing, started


def winner(state: GameState) -> str | None:
    """The side keeping the larger share of its starting figures in the ranks."""
    return larger_share_kept(state.sides, lambda side: strength(state, side))


# The stages this module asks and answers: game.py routes each here.
ROLLS: dict[str, RollStep] = {
    "initiative": RollStep(_ask_initiative, _on_initiative),
}
