"""The sequence of play as a state machine, driven by AwaitChoice and AwaitRoll.

Setup: each side's commanding officer rolls his Command Points, then every
under-officer is diced for his type. Each turn, each side in turn is phasing:

1. second action: one percentile roll for the side (10 x CP percent);
2. orders: the phasing side picks its units one by one; each fires, moves,
   charges, deploys (changes formation), vanishes or lands (Hyper-Space
   Rangers); one action free, a second if granted;
3. reaction: the other side rolls CP x d10; one unit a 10 points fires back;
4. morale: every squad with new markers or in stress tests, one at a time, in
   scenario order; provoked squads fire (infantry) or advance (cavalry), which
   may call for more tests;
5. melee: each contact is fought, pair by pair, round by round;
6. rally: the phasing side rolls CP x d10 / 10 men back.

After the turn limit the box asks who holds each objective and counts victory
points. A captured commanding officer ends the game at once (by default).

This module holds only the entry points (`start`, `next_step`, `advance`), the status
lines (`describe`) and the dispatch: the game waits on `GameState.stage`, whose `kind`
names the question. Each step module in `play/` (see `play/__init__.py` for the map)
declares the kinds it answers, `ROLLS` and `CHOICES`, each a `StageStep`: how its
question is put and how its answer is applied, and the phases it steps, `PHASES`; they
are gathered here (a kind both a roll and a choice is refused by
tests/rules/test_play_layers.py), and `_settle` steps through the phases until the next question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.rules.core import (
    AwaitRoll,
    Chosen,
    GameInput,
    GameOver,
    Rolled,
    RollRequest,
    RulesError,
    Scenario,
    Step,
    Transition,
    check_input,
    counted,
    merged_handlers,
)
from companion.rules.fighting_swashbucklers import tables
from companion.rules.fighting_swashbucklers.play import (
    charges,
    melees,
    morale_tests,
    orders,
    rallying,
    shooting,
    turns,
)
from companion.rules.fighting_swashbucklers.play.squads import officer_words
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
)
from companion.rules.fighting_swashbucklers.scenario import OPTIONS
from companion.rules.fighting_swashbucklers.state import (
    GameState,
    OfficerState,
    SideState,
    SquadState,
    Stage,
)
from companion.rules.grammar import agree

# ----------------------------------------------------------------- start


def start(scenario: Scenario) -> GameState:
    options: list[tuple[str, str | int]] = []
    for option in OPTIONS:
        value = scenario.options.get(option.name, option.default)
        assert isinstance(value, str | int)
        options.append((option.name, value))
    preset = scenario.setup.get("command_points", {})
    assert isinstance(preset, dict)
    sides = []
    for name in scenario.sides:
        cp = preset.get(name, -1)
        assert isinstance(cp, int)
        sides.append(SideState(name, cp))
    units = []
    officers: list[OfficerState] = []
    for u in scenario.units:
        pose = u.traits.get("pose", "")
        shaped = u.kind in tables.FORMED_KINDS
        formation = u.traits.get("formation", tables.LINE if shaped else tables.NO_FORMATION)
        assert isinstance(pose, str) and isinstance(formation, str)
        units.append(
            SquadState(
                name=u.name,
                side=u.side,
                kind=u.kind,
                pose=pose,
                strength=u.figures,
                men=u.figures,
                formation=formation,
                leader=u.leader or "",
            )
        )
        if u.leader and all(o.name != u.leader for o in officers):
            officers.append(OfficerState(u.leader, u.side, ""))
        fixed = u.traits.get("leader_type")
        if u.leader and isinstance(fixed, str):
            officers = [
                OfficerState(o.name, o.side, fixed) if o.name == u.leader else o for o in officers
            ]
    first = scenario.setup.get("first_side", scenario.sides[0])
    turn_limit = scenario.setup.get("turn_limit", 6)
    win_points = scenario.setup.get("melee_win_points", tables.MELEE_WIN_VICTORY_POINTS)
    assert isinstance(turn_limit, int) and isinstance(win_points, int)
    objectives_raw = scenario.setup.get("objectives", [])
    assert isinstance(objectives_raw, list)
    objectives = []
    for obj in objectives_raw:
        assert isinstance(obj, dict)
        obj_name, points = obj["name"], obj["points"]
        assert isinstance(obj_name, str) and isinstance(points, int)
        objectives.append((obj_name, points))
    state = GameState(
        title=scenario.title,
        options=tuple(options),
        sides=tuple(sides),
        first_side=scenario.sides.index(str(first)),
        turn_limit=turn_limit,
        melee_win_points=win_points,
        objectives=tuple(objectives),
        units=tuple(units),
        officers=tuple(officers),
    )
    return _settle(state, [])


# ----------------------------------------------------------------- dispatch

# The stage kinds and phases are persisted (a journaled game's state names the one it
# waits at), the handlers' names and modules are not: a step module may move one freely.
_PHASES: dict[str, PhaseStep] = merged_handlers(
    turns.PHASES,
    orders.PHASES,
    shooting.PHASES,
    morale_tests.PHASES,
    melees.PHASES,
    rallying.PHASES,
)

_ROLLS: dict[str, RollStep] = merged_handlers(
    turns.ROLLS,
    orders.ROLLS,
    shooting.ROLLS,
    morale_tests.ROLLS,
    melees.ROLLS,
    rallying.ROLLS,
)

_CHOICES: dict[str, ChoiceStep] = merged_handlers(
    turns.CHOICES,
    orders.CHOICES,
    shooting.CHOICES,
    charges.CHOICES,
    morale_tests.CHOICES,
    melees.CHOICES,
    rallying.CHOICES,
)



def _request(roll: Roll) -> RollRequest:
    base = roll.action.request(roll.params)
    return RollRequest(f"{roll.about}: {base.reason}", base.groups, base.secret)


# ----------------------------------------------------------------- next_step


def next_step(state: object) -> Step:
    return _step(_state(state), with_odds=True)


def _step(s: GameState, *, with_odds: bool) -> Step:
    if s.finished:
        return GameOver(s.winner or None, _summary(s))
    kind = s.stage.kind
    if kind in _ROLLS:
        roll = _ROLLS[kind].ask(s)
        return AwaitRoll(_request(roll), roll.action.odds(roll.params) if with_odds else None)
    if kind in _CHOICES:
        return _CHOICES[kind].ask(s)
    # _settle always leaves a stage; a state from elsewhere may name one unknown here
    raise RulesError(f"the game is stuck at {kind!r}")  # pragma: no cover


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise RulesError("expected a Fighting Swashbucklers game state")
    return state


# ----------------------------------------------------------------- advance


def advance(state: object, given: GameInput) -> Transition:
    s = _state(state)
    step = _step(s, with_odds=False)
    check_input(step, given)
    out = Out()
    if isinstance(given, Rolled):
        assert isinstance(step, AwaitRoll)
        roll = _ROLLS[s.stage.kind].ask(s)
        outcome = roll.action.resolve(roll.params, given.dice)
        out.outcome = outcome
        out.cues.add("dice")
        out.log.append(step.request.reason)  # the details below give the verdict
        out.log.extend(f"  {line}" for line in outcome.details)
        new = _ROLLS[s.stage.kind].apply(s.at(stage=Stage()), s.stage, given.dice, outcome, out)
    else:
        assert isinstance(given, Chosen)
        new = _CHOICES[s.stage.kind].apply(s.at(stage=Stage()), s.stage, given.key, out)
    new = _settle(new, out.log, out.cues)
    if out.outcome is not None:
        out.outcome = replace(out.outcome, changes=_changes(out.log, out.headline_said))
    if new.finished:
        out.cues.add("game_over")
    return Transition(new, tuple(out.log), out.outcome, frozenset(out.cues))


def _changes(log: Sequence[str], headline_said: set[str] | None = None) -> tuple[str, ...]:
    """What the roll did to the table, for the result screen: the play-by-play after the
    request and its reasoning (indented), up to the next turn's line, less the lines
    that only repeat the headline."""
    said: list[str] = []
    for line in log[1:]:
        if line.startswith("---"):
            break
        if not line.startswith(" ") and line not in (headline_said or set()):
            said.append(line)
    return tuple(said)


def _settle(s: GameState, log: list[str], cues: set[str] | None = None) -> GameState:
    out = Out(log, cues if cues is not None else set())
    for _ in range(10_000):
        if s.finished or s.stage.kind:
            return s
        phase = _PHASES.get(s.phase)
        if phase is None:  # pragma: no cover
            raise RulesError(f"unknown phase {s.phase!r}")
        s = phase(s, out)
    raise RulesError("the game could not settle")  # pragma: no cover


# ----------------------------------------------------------------- describe


def describe(state: object) -> tuple[str, ...]:
    s = _state(state)
    turn = f"turn {min(s.turn, s.turn_limit)}/{s.turn_limit}"
    if s.finished:
        head = f"{s.title}: game over in {turn}: {_result(s)}"
    else:
        head = f"{s.title}: {turn}, {_where(s)}"
    lines = [head]
    for side in s.sides:
        cp = "?" if side.cp < 0 else str(side.cp)
        lines.append(f"{side.name}: CP {cp}, VP {side.victory_points}")
    for u in s.units:
        bits = [f"{u.men}/{counted(u.strength, 'man', 'men')}"]
        if u.routed:  # "more": routed men are not among the squad's men ("3/4 men")
            bits.append(f"{u.routed} more routed")
        if u.markers:
            bits.append(counted(u.markers, "marker"))
        if u.formation == tables.COLUMN:
            bits.append("column")
        if u.hyperspace:
            bits.append(u.hyperspace)
        if u.captured:
            bits.append("captured")
        lines.append(f"  {u.name} ({u.side}): " + ", ".join(bits))
    for o in s.officers:
        kind = officer_words(o.kind) if o.kind else "not yet diced"
        lines.append(f"  {o.name} ({o.side}): {kind}{'' if o.alive else ', dead'}")
    return tuple(lines)


def _where(s: GameState) -> str:
    """Where the turn is, in the referee's words (the status screen's first line), not
    the name of the internal phase."""
    if s.phase == "setup":
        return "setting up: Command Points and officers"
    if s.phase == "end":
        return "turn limit reached: who holds the objectives?"
    doing = {
        "second": "rolling for a second action",
        "orders": "giving orders",
        "reaction": f"{s.non_phasing} reaction fire",
        "morale": "morale tests",
        "melee": "melee",
        "rally": "rally",
    }.get(s.phase, s.phase)
    return f"{s.phasing} phasing, {doing}"


def _result(s: GameState) -> str:
    return (agree(s.winner, "wins", "win") if s.winner else "a draw") + f": {s.ending}"


def _summary(s: GameState) -> tuple[str, ...]:
    return (_result(s), *describe(s)[1:])
