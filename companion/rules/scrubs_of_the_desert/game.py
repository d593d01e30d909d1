"""The sequence of play as a state machine.

Until every unit has activated this turn, both sides toss a d10 (the side that
keeps losing adds +1 a loss); the winner activates one unit: French units first
try to sight hidden Arabs, then the unit moves (or charges, unlimbers, throws a
grappling hook, crews an abandoned machine gun...), then, if it did not charge,
fires; a unit that lost figures tests its morale. A charge that makes contact
runs the melee sequence: defender's test, defensive fire or counter-charge,
attacker's test, the bouts, and the test of the side that lost more.

This module holds the entry points (`start`, `next_step`, `advance`), the status lines
(`describe`) and the dispatch: the state is in `state.py`, the steps in `play/`, one
module per part of the game (see `play/__init__.py` for the map). The game waits at a
named stage (`GameState.stage`): its entry in `_CHOICES` or `_ROLLS`, gathered here from
every step module, builds the question asked there and applies the answer (a
`StageStep`); after each input `turns.settle` ends
the turn, or the game, when it is time. `GameState` may still be imported from here.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import (
    Action,
    AwaitChoice,
    AwaitRoll,
    Chosen,
    GameInput,
    GameOver,
    Outcome,
    Params,
    Rolled,
    RulesError,
    Scenario,
    Step,
    Transition,
    await_stage,
    check_input,
    counted,
    merged_handlers,
    resolve_stage_roll,
)
from companion.rules.grammar import plural_name
from companion.rules.scrubs_of_the_desert.activation import toss_outcome
from companion.rules.scrubs_of_the_desert.play import (
    cannon_blasts,
    charges,
    crew_hits,
    hooks,
    manning_guns,
    melee_bouts,
    morale_tests,
    moving,
    orders,
    shooting,
    spotting,
    turns,
)
from companion.rules.scrubs_of_the_desert.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
)
from companion.rules.scrubs_of_the_desert.play.turns import settle, strength, toss_params, winner
from companion.rules.scrubs_of_the_desert.scenario import read_options, read_setup
from companion.rules.scrubs_of_the_desert.state import Band
from companion.rules.scrubs_of_the_desert.state import GameState as GameState

# ---------------------------------------------------------------- setup


def start(scenario: Scenario) -> GameState:
    options = read_options(scenario.options)
    setup = read_setup(scenario.setup, scenario.sides)
    bands = []
    for u in scenario.units:
        nation = "french" if u.side == setup.french_side else "arab"
        hidden_default = setup.hidden_arabs and nation == "arab"
        hidden = bool(u.traits.get("hidden", hidden_default))
        bands.append(
            Band(
                name=u.name,
                side=u.side,
                nation=nation,
                kind=u.kind,
                weapons=u.weapons,
                start=u.figures,
                figures=u.figures,
                base_morale=int(str(u.traits["base_morale"])),
                size=u.figures,
                loss_per_figure=int(str(u.traits.get("loss_per_figure", 0))),
                leader=u.leader or "",
                spotted=not hidden,
                limbered=bool(u.traits.get("limbered", False)),
                plural=bool(u.traits.get("plural", plural_name(u.name))),
            )
        )
    return GameState(
        title=scenario.title,
        sides=(scenario.sides[0], scenario.sides[1]),
        options=options,
        turn_limit=setup.turn_limit,
        fort=setup.fort,
        wall_goal=setup.figures_over_wall_to_win,
        bands=tuple(bands),
    )


# ---------------------------------------------------------------- dispatch

# A stage names one question and one handler of its answer; which step module declares
# them is free to change (merged_handlers refuses a stage claimed twice).
_CHOICES: dict[str, ChoiceStep] = merged_handlers(
    orders.CHOICES,
    spotting.CHOICES,
    moving.CHOICES,
    charges.CHOICES,
    shooting.CHOICES,
    crew_hits.CHOICES,
    cannon_blasts.CHOICES,
    morale_tests.CHOICES,
    hooks.CHOICES,
    manning_guns.CHOICES,
)

_ROLLS: dict[str, RollStep] = merged_handlers(
    turns.ROLLS,
    spotting.ROLLS,
    moving.ROLLS,
    charges.ROLLS,
    melee_bouts.ROLLS,
    shooting.ROLLS,
    crew_hits.ROLLS,
    cannon_blasts.ROLLS,
    morale_tests.ROLLS,
    hooks.ROLLS,
)


def _choice(state: GameState) -> AwaitChoice | None:
    step = _CHOICES.get(state.stage)
    return step.ask(state) if step is not None else None


def _roll(state: GameState) -> tuple[Action, Params] | None:
    step = _ROLLS.get(state.stage)
    return step.ask(state) if step is not None else None


def next_step(state: GameState) -> Step:
    if state.finished:
        return GameOver(winner(state), describe(state))
    step = await_stage(state, _choice, _roll, roll_off_stage="toss")
    c = state.ctx
    if state.stage == "blast_roll" and len(c.blast) > 1 and isinstance(step, AwaitRoll):
        # a blast over several units is rolled unit by unit: say whose figures these are
        name = c.blast[len(c.blast_kills)][0]
        step = replace(step, request=replace(step.request, reason=f"{name}: {step.request.reason}"))
    return step


def advance(state: GameState, given: GameInput) -> Transition:
    check_input(next_step(state), given)
    outcome: Outcome | None = None
    if isinstance(given, Chosen):
        result = _on_choice(state, given.key)
    else:
        assert isinstance(given, Rolled)
        outcome = resolve_stage_roll(state, _roll, given.dice)
        if state.stage == "toss":
            # the toss's lines name the sides, as its dice on the screen do
            outcome = toss_outcome(toss_params(state), given.dice, state.sides)
        result = _on_roll(state, outcome)
        result = replace(result, cues=result.cues | {"dice"})
    settled = settle(result, state.turn)
    return Transition(settled.state, settled.log, outcome, settled.cues)


def _on_choice(state: GameState, key: str) -> Result:
    step = _CHOICES.get(state.stage)
    if step is None:
        raise RulesError(f"no choice expected at stage {state.stage!r}")
    return step.apply(state, key)


def _on_roll(state: GameState, outcome: Outcome) -> Result:
    step = _ROLLS.get(state.stage)
    if step is None:
        raise RulesError(f"no roll expected at stage {state.stage!r}")
    return step.apply(state, outcome)


# ---------------------------------------------------------------- status


def _phase(state: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line)."""
    if state.stage == "toss":
        return "the toss for the next activation"
    side = state.sides[state.ctx.side]
    if state.ctx.actor:
        return f"{side} activating {state.ctx.actor}"
    return f"{side} to activate a unit"


def describe(state: GameState) -> tuple[str, ...]:
    if state.finished:
        head = f"{state.title}: game over, turn {min(state.turn, state.turn_limit)}"
    else:
        head = (
            f"{state.title}: turn {state.turn}/{state.turn_limit}, {_phase(state)}; "
            f"toss bonus {state.sides[0]} +{state.bonus[0]}, "
            f"{state.sides[1]} +{state.bonus[1]}"
        )
    lines = [head]
    for side in state.sides:
        now, started = strength(state, side)
        # A removed unit keeps the count it left with ("6/12 (removed)"): those figures are
        # said apart, so that the units' counts add up to what the side's line says
        removed = sum(b.figures for b in state.bands if b.side == side and b.removed)
        lines.append(
            f"{side}: {now} of {counted(started, 'figure')} on the table"
            + (f", {removed} more in removed units" if removed else "")
        )
    if state.fort:
        arabs = next((b.side for b in state.bands if b.nation == "arab"), "Arabs")
        lines.append(
            f"{arabs} over the wall: {state.over_wall()}"
            + (f" of {state.wall_goal} to win" if state.wall_goal else "")
        )
    for b in state.bands:
        status = []
        if b.removed:
            status.append("removed")
        elif b.abandoned:
            status.append("abandoned")
        if b.routed and not b.removed:
            status.append("routed")
        if not b.spotted:
            status.append("hidden")
        if b.activated and not b.removed:
            status.append("activated")
        if b.limbered:
            status.append("limbered")
        if b.jammed_from <= state.turn <= b.jammed_until:
            status.append(f"jammed to the end of turn {b.jammed_until}")
        elif b.jammed_from > state.turn:
            status.append(f"jammed in turn {b.jammed_from}")
        if b.setting_up:
            status.append("new crew setting up")
        if b.detached:
            status.append(f"{b.detached} crewing a gun")
        if b.locked_with:
            status.append(f"locked with {b.locked_with}")
        if b.hook_up and not b.removed:
            status.append("hook up")
        if b.over_wall and not b.removed:
            status.append(f"{b.over_wall} over the wall")
        extra = f" ({', '.join(status)})" if status else ""
        lines.append(f"  {b.name}: {b.figures}/{b.start}{extra}")
    return tuple(lines)
