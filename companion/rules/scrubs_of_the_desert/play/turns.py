"""The turn: the toss for who activates next, an activation's end, the end of a turn,
and the end of the game with its winner.

`settle` runs after every input: once neither side has a unit left to activate it ends
the turn (where only one side has, that side goes on alone), and it ends the game at the
turn limit, when a side has nothing left on the table, or when enough Arabs are over the
wall.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Action, Outcome, Params, larger_share_kept
from companion.rules.scrubs_of_the_desert.activation import ACTIVATION_TOSS, TIE, bonuses_after
from companion.rules.scrubs_of_the_desert.play.steps import (
    Result,
    RollStep,
    r,
    side_does,
)
from companion.rules.scrubs_of_the_desert.state import Context, GameState


def _ask_toss(state: GameState) -> tuple[Action, Params]:
    return ACTIVATION_TOSS, toss_params(state)


def _on_toss(state: GameState, outcome: Outcome) -> Result:
    tossed = outcome.details[0].split(":")[0]  # the sides' totals, by name
    if outcome.headline == TIE:
        return r(state, f"toss: {tossed}: a tie, toss again")
    winner = outcome.headline - 1
    bonus = bonuses_after(outcome.headline, *state.bonus)
    state = replace(state, bonus=bonus, stage="pick_unit", ctx=Context(side=winner))
    won = side_does(state.sides[winner], "wins and activates", "win and activate")
    return r(state, f"toss: {tossed}: {won} a unit")


def toss_params(state: GameState) -> Params:
    return ACTIVATION_TOSS.complete_params(
        {"first_bonus": min(50, state.bonus[0]), "second_bonus": min(50, state.bonus[1])}
    )


def end_activation(state: GameState) -> GameState:
    actor = state.band(state.ctx.actor)
    state = state.with_band(replace(actor, activated=True))
    return replace(state, stage="toss", ctx=Context())


def settle(result: Result, turn: int) -> Result:
    state = result.state
    log = list(result.log)
    cues = set(result.cues)
    for _ in range(4):
        if state.finished:
            break
        if _decided(state):
            state = replace(state, finished=True, stage="over")
            break
        if state.stage != "toss":
            break
        first, second = (bool(state.ready(side)) for side in state.sides)
        if first and second:
            break
        if first or second:
            side = 0 if first else 1
            state = replace(state, stage="pick_unit", ctx=Context(side=side))
            log.append(f"only {side_does(state.sides[side], 'has', 'have')} units left to activate")
            break
        state = _end_turn(state)
        log.append(f"End of turn {turn}")
        cues.add("turn_end")
    if state.finished and "game_over" not in cues:
        if state.turn > state.turn_limit and f"End of turn {turn}" not in log:
            log.append(f"End of turn {turn}")
        w = winner(state)
        log.append("Game over: " + (side_does(w, "wins", "win") if w else "a draw"))
        cues.add("game_over")
    return Result(state, tuple(log), frozenset(cues))


def _end_turn(state: GameState) -> GameState:
    bands = tuple(replace(b, activated=False, routed=False) for b in state.bands)
    bonus = state.bonus if state.options.activation_bonus_carries_over else (0, 0)
    state = replace(
        state, bands=bands, bonus=bonus, ctx=Context(), stage="toss", turn=state.turn + 1
    )
    if state.turn > state.turn_limit:
        return replace(state, finished=True, stage="over")
    return state


def _decided(state: GameState) -> bool:
    if state.wall_goal and state.over_wall() >= state.wall_goal:
        return True
    return any(not any(b.in_play for b in state.bands if b.side == side) for side in state.sides)


def strength(state: GameState, side: str) -> tuple[int, int]:
    """Figures in units not removed, and figures the side started with."""
    now = sum(b.figures for b in state.bands if b.side == side and b.in_play)
    started = sum(b.start for b in state.bands if b.side == side)
    return now, started


def winner(state: GameState) -> str | None:
    arab_side = next((b.side for b in state.bands if b.nation == "arab"), state.sides[1])
    french_side = state.sides[1] if arab_side == state.sides[0] else state.sides[0]
    if state.wall_goal and state.over_wall() >= state.wall_goal:
        return arab_side
    alive = [side for side in state.sides if any(b.in_play for b in state.bands if b.side == side)]
    if len(alive) == 1:
        return alive[0]
    if not alive:
        return None
    if state.wall_goal:
        return french_side
    return larger_share_kept(state.sides, lambda side: strength(state, side))


ROLLS: dict[str, RollStep] = {
    "toss": RollStep(_ask_toss, _on_toss),
}
