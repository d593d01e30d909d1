"""The sequence of play as a state machine.

Each turn: both sides roll who goes first; the first player gives every unit one
order (move, move and charge, rally, shoot, hold fire, engineering work,
demolition); then the second player; then every charge that reached its target
is resolved (a held-fire volley, both sides' dice, Come On!, the result,
pursuit). Commanders who were hit come back at the end of the next turn.

This module holds only the entry points (`start`, `next_step`, `advance`, `describe`),
the dispatch and the settling after each input; the state is in `state.py` and the
steps are in `play/`, one module per part of the game (see `play/__init__.py` for the
map). Play goes by named stages (`GameState.stage`): a stage's entry in `_CHOICES` or
`_ROLLS` (a `StageStep`, gathered here from every step module) puts its question and
applies its answer. `_settle`
does what needs no input (a side with no unit left to order, a roll that cannot score,
the game's end). `GameState` (now in `state.py`) and `GROUND_PROMPT` (now in
`play/melee.py`) may still be imported from here.
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
    RollRequest,
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
from companion.rules.grammar import agree
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.initiative import initiative_outcome
from companion.rules.on_the_frontier.play import (
    charge_phase,
    firing,
    melee,
    moving,
    orders,
    rallying,
    turns,
    works,
)
from companion.rules.on_the_frontier.play.charge_phase import next_player
from companion.rules.on_the_frontier.play.melee import GROUND_PROMPT as GROUND_PROMPT
from companion.rules.on_the_frontier.play.steps import (
    ChoiceStep,
    Result,
    RollStep,
    prefix,
)
from companion.rules.on_the_frontier.play.turns import commanders_follow, strength, winner
from companion.rules.on_the_frontier.play.works import task_text
from companion.rules.on_the_frontier.scenario import read_options, read_setup
from companion.rules.on_the_frontier.state import Force
from companion.rules.on_the_frontier.state import GameState as GameState

# ------------------------------------------------------------------ start


def start(scenario: Scenario) -> GameState:
    options = read_options(scenario.options)
    setup = read_setup(scenario.setup, scenario.sides)
    forces = []
    for unit in scenario.units:
        traits = unit.traits
        weapon = next((w for w in unit.weapons if w in tables.WEAPONS), "")
        forces.append(
            Force(
                name=unit.name,
                side=unit.side,
                kind=unit.kind,
                weapon=weapon,
                start=unit.figures,
                figures=unit.figures,
                leader=unit.leader or "",
                quality=str(traits.get("quality", "regular")),
                shock=bool(traits.get("shock", False)),
                superior=bool(traits.get("superior_firepower", False)),
                ranks=int(str(traits.get("ranks", 1))),
                engineers=bool(traits.get("engineers", False)),
                guns=int(str(traits.get("guns", 1))),
                limbered=bool(traits.get("limbered", False)),
            )
        )
    return GameState(
        title=scenario.title,
        sides=(scenario.sides[0], scenario.sides[1]),
        options=options,
        turn_limit=setup.turn_limit,
        engineering=setup.engineering,
        demolition_target=setup.demolition_target,
        demolition_points=setup.demolition_points,
        turn=1,
        forces=tuple(forces),
        stage="initiative",
    )


# ---------------------------------------------------------------- dispatch

# The stages are persisted (a journaled game's state names one), the handlers' names and
# modules are not: a step module may move a handler freely.
_CHOICES: dict[str, ChoiceStep] = merged_handlers(
    charge_phase.CHOICES,
    firing.CHOICES,
    melee.CHOICES,
    moving.CHOICES,
    rallying.CHOICES,
    works.CHOICES,
    orders.CHOICES,
)

_ROLLS: dict[str, RollStep] = merged_handlers(
    turns.ROLLS,
    firing.ROLLS,
    melee.ROLLS,
    moving.ROLLS,
    rallying.ROLLS,
    works.ROLLS,
)


def _choice(state: GameState) -> AwaitChoice | None:
    step = _CHOICES.get(state.stage)
    return None if step is None else step.ask(state)


def _roll(state: GameState) -> tuple[Action, Params] | None:
    step = _ROLLS.get(state.stage)
    return None if step is None else step.ask(state)


def next_step(state: GameState) -> Step:
    if state.finished:
        return GameOver(winner(state), describe(state))
    step = await_stage(state, _choice, _roll, roll_off_stage="initiative")
    if isinstance(step, AwaitRoll):
        step = replace(step, request=replace(step.request, reason=_reason(state, step.request)))
    return step


def _reason(state: GameState, request: RollRequest) -> str:
    """The roll's reason naming who rolls: in a charge both sides roll in turn with no
    menu between, so the screen and the play-by-play must say whose dice these are."""
    ctx = state.ctx
    stage = state.stage
    if stage == "shoot_roll":
        return f"{ctx.actor} at {ctx.target}: {request.reason}"
    if stage == "melee_attacker_roll":
        return f"{ctx.actor} at {ctx.target}: {request.reason}"
    if stage == "melee_defender_roll":
        return f"{ctx.target} at {ctx.actor}: {request.reason}"
    if stage == "steady_roll":
        target = state.force(ctx.target)
        return f"Steady!: {target.leader} with {target.name} may roll"
    if stage in ("come_on_attacker_roll", "come_on_defender_roll"):
        me = state.force(ctx.actor if stage == "come_on_attacker_roll" else ctx.target)
        return f"Come On!: {me.leader} with {me.name} must roll"
    return request.reason


# ---------------------------------------------------------------- the engine


def advance(state: GameState, given: GameInput) -> Transition:
    check_input(next_step(state), given)
    if isinstance(given, Chosen):
        result = _on_choice(state, given.key)
    else:
        assert isinstance(given, Rolled)
        outcome = resolve_stage_roll(state, _roll, given.dice)
        if state.stage == "initiative":
            # the roll's line names the sides, as its dice on the screen do
            outcome = initiative_outcome({}, given.dice, state.sides)
        result = _on_roll(state, outcome, given.dice)
        result = replace(result, outcome=outcome, cues=result.cues | {"dice"})
    settled = _settle(result, state.turn)
    return Transition(settled.state, settled.log, settled.outcome, settled.cues)


def _on_choice(state: GameState, key: str) -> Result:
    stage = state.stage
    if stage not in _CHOICES:
        raise RulesError(f"no choice expected at stage {stage!r}")
    return _CHOICES[stage].apply(state, key)


def _on_roll(state: GameState, outcome: Outcome, dice: tuple[int, ...]) -> Result:
    stage = state.stage
    if stage not in _ROLLS:
        raise RulesError(f"no roll expected at stage {stage!r}")
    return _ROLLS[stage].apply(state, outcome, dice)


def _pointless_roll(state: GameState) -> Result | None:
    """A roll that cannot score is settled at once, without asking for dice: too few
    figures for a single die, or modifiers that leave no face able to hit."""
    if state.finished or _choice(state) is not None:
        return None
    roll = _roll(state)
    if roll is None:
        return None
    action, params = roll
    request = action.request(params)
    odds = action.odds(params)
    if odds.headline.get(0) != 1 or any(odds.effects.values()):
        return None
    why = "too few figures for a die" if not request.dice_count else "no die can hit"
    dice = tuple(1 for _ in range(request.dice_count))  # any faces: none of them scores
    outcome = action.resolve(params, dice)
    said = f"{_reason(state, request)}; {why}, no roll"
    return prefix(_on_roll(state, outcome, dice), (said,))


def _settle(result: Result, turn: int) -> Result:
    """Run the automatic steps: empty order lists, rolls of no dice, game over, turn end."""
    state = result.state
    log = list(result.log)
    cues = set(result.cues)
    for _ in range(100):
        state, lines = commanders_follow(state)
        log.extend(lines)
        if not state.finished and any(
            not any(f.in_play for f in state.forces if f.side == side) for side in state.sides
        ):
            state = replace(state, finished=True, stage="side_gone")
        if state.finished:
            break
        step: Result | None = None
        if state.stage == "pick_unit" and not any(
            f.side == state.active_side and f.in_play and not f.acted for f in state.forces
        ):
            step = next_player(state)
        else:
            step = _pointless_roll(state)
        if step is None:
            break
        state = step.state
        log.extend(step.log)
        cues |= step.cues
    turn_over = state.turn != turn or (state.finished and state.stage == "over")
    if turn_over and not any(line.startswith("End of turn") for line in log):
        log.append(f"End of turn {turn}")
        cues.add("turn_end")
    if state.finished and "game_over" not in cues:
        cues.add("game_over")
        w = winner(state)
        log.append("Game over: " + (agree(w, "wins", "win") if w else "a draw"))
    return Result(state, tuple(log), result.outcome, frozenset(cues))


# ----------------------------------------------------------------- summary


# Stages of the charge phase, which follows both players' orders; `shoot_*` stages
# belong to it only as a held-fire volley (`Context.in_charge`).
_CHARGE_STAGES = frozenset(
    {
        "charges",
        "volley_ask",
        "melee_cover",
        "melee_square",
        "melee_attacker_roll",
        "melee_defender_roll",
        "come_on_attacker_roll",
        "come_on_attacker_use",
        "come_on_defender_roll",
        "come_on_defender_use",
        "pursue_ask",
    }
)


def _phase(state: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line)."""
    if state.stage == "initiative":
        return "rolling for the first move"
    if state.stage in _CHARGE_STAGES or state.ctx.in_charge:
        return "charges"
    return f"orders for {state.active_side}"


def describe(state: GameState) -> tuple[str, ...]:
    if state.finished:
        head = f"{state.title}: game over after turn {state.turn}"
    else:
        head = f"{state.title}: turn {state.turn}/{state.turn_limit}, {_phase(state)}"
    lines = [head]
    for side in state.sides:
        now, started = strength(state, side)
        # A routed unit's figures are up but off the table: they are said apart, so that
        # the units' "up" add up to what the side's line says
        routed = sum(f.figures for f in state.forces if f.side == side and f.routed)
        lines.append(
            f"{side}: {now} of {counted(started, 'figure')} up on the table"
            + (f", {routed} more in routed units" if routed else "")
        )
    for f in state.forces:
        status = []
        if f.routed and f.joined and f.removed:
            status.append("hit")
        elif f.routed:
            status.append("routed" if f.figures else "destroyed")
        elif f.shaken:
            status.append("shaken")
        if f.joined and not f.routed:
            status.append(f"with {f.joined}")
        if f.held_fire and f.in_play:
            status.append("holding fire")
        if f.limbered and f.in_play:
            status.append("limbered")
        if f.leader and f.leader_back_turn and not f.routed:
            status.append(f"{f.leader} away till end of turn {f.leader_back_turn}")
        extra = f" ({', '.join(status)})" if status else ""
        lines.append(
            f"  {f.name}: {f.figures}/{f.start} up, {f.casualties} down, {f.removed} lost{extra}"
        )
    built: dict[tuple[str, str], int] = {}
    for done in state.works_done:
        built[done] = built.get(done, 0) + 1
    for (side, task), count in built.items():
        lines.append(f"  {side} built: {task_text(task)}" + (f" (x{count})" if count > 1 else ""))
    for side, task, points in state.work:
        lines.append(
            f"  {side} working at: {task_text(task)}, "
            f"{points}/{tables.ENGINEERING_TASK_POINTS} points"
        )
    for side, laid in state.laid:
        lines.append(f"  {side}: {counted(laid, 'demolition charge')} laid")
    if state.demolished:
        lines.append(f"  the {state.demolition_target.replace('_', ' ')} is destroyed")
    return tuple(lines)
