"""The game's setup and end, and the turn between: the commanding officers' Command
Points and the under-officers' types diced for, a side's half handed over to the other
side or the next turn, the turn limit, and who holds each objective at the end.

The phases of a half are stepped by the modules that own them (`orders`: second action
and orders; `shooting`: reaction; `morale_tests`; `melees`; `rallying`), each of which
ends by moving to the next phase; `end_half` clears what lasts only for one side's half.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome
from companion.rules.fighting_swashbucklers import actions
from companion.rules.fighting_swashbucklers.movement import LANDED, ON_TABLE
from companion.rules.fighting_swashbucklers.play.squads import commander_name, officer_words
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    label,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.state import (
    GameState,
    OfficerState,
    SideState,
    SquadState,
    Stage,
)
from companion.rules.grammar import agree

# ----------------------------------------------------------------- setup


def _setup_phase(s: GameState, out: Out) -> GameState:
    for side in s.sides:
        if side.cp < 0:
            return s.at(stage=Stage("cp_roll", side.name))
    for o in s.officers:
        if not o.kind:
            return s.at(stage=Stage("officer_roll", o.name))
    out.log.append("--- turn 1: " + agree(s.phasing, "is", "are") + " phasing")
    return s.at(phase="second")


def _ask_command_points(s: GameState) -> Roll:
    return Roll(actions.COMMAND_POINTS, zero(s), commander_name(s, s.stage.unit))


def _on_command_points(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    side = s.side(st.unit)
    who = commander_name(s, side.name)
    # the headline gives his points, and the reasoning above the band they fall in
    out.log.append(f"{who} commands the {side.name}")
    return s.with_side(SideState(side.name, outcome.headline, side.victory_points))


def _ask_officer(s: GameState) -> Roll:
    return Roll(actions.UNDER_OFFICER, zero(s), s.stage.unit)


def _on_officer(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    o = s.officer(st.unit)
    assert o is not None
    kind = actions.officer_kind(outcome.effects)
    out.log.append(f"{o.name} is {officer_words(kind, article=True)}")
    return s.with_officer(OfficerState(o.name, o.side, kind))


# ----------------------------------------------------------------- a half's end


def end_half(s: GameState, out: Out) -> GameState:
    units = tuple(
        SquadState(
            u.name,
            u.side,
            u.kind,
            u.pose,
            u.strength,
            u.men,
            u.routed,
            u.formation,
            u.leader,
            hyperspace=u.hyperspace,
            hyperspace_turn=u.hyperspace_turn,
            captured=u.captured,
        )
        for u in s.units
    )
    s = s.at(
        units=units,
        melees=(),
        melee_index=0,
        fight=None,
        martinet_queue=(),
        withdrawn=(),
        reactions_left=-1,
        phasing_second=False,
        stage=Stage(),
    )
    if s.half == 0:
        out.log.append(f"--- turn {s.turn}: " + agree(s.non_phasing, "is", "are") + " phasing")
        return s.at(half=1, phase="second")
    out.cues.add("turn_end")
    turn = s.turn + 1
    units = tuple(
        u.with_(hyperspace=ON_TABLE) if u.hyperspace == LANDED and u.hyperspace_turn < turn else u
        for u in s.units
    )
    if turn > s.turn_limit:
        out.log.append(f"--- turn limit {s.turn_limit} reached")
        return s.at(turn=turn, half=0, units=units, phase="end")
    s = s.at(turn=turn, half=0, units=units, phase="second")
    out.log.append(f"--- turn {turn}: " + agree(s.phasing, "is", "are") + " phasing")
    return s


# ----------------------------------------------------------------- the turn limit


def _end_phase(s: GameState, out: Out) -> GameState:
    if len(s.holders) < len(s.objectives):
        return s.at(stage=Stage("pick_holder", number=len(s.holders)))
    a, b = s.sides
    winner = ""
    if a.victory_points != b.victory_points:
        winner = a.name if a.victory_points > b.victory_points else b.name
    return s.at(
        finished=True,
        winner=winner,
        phase="over",
        ending=f"victory points {a.name} {a.victory_points}, {b.name} {b.victory_points}",
    )


def _ask_holder(s: GameState) -> AwaitChoice:
    name, points = s.objectives[s.stage.number]
    opts = [Choice(f"hold:{side.name}", label(side.name)) for side in s.sides]
    opts.append(Choice("hold:none", "Nobody"))
    return AwaitChoice(f"{name}: who holds it ({points} VP)?", tuple(opts), name)


def _on_holder(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    held_by = picked(key)
    holders = (*s.holders, held_by)
    name, points = s.objectives[st.number]
    out.log.append(f"{name}: {held_by if held_by != 'none' else 'nobody'} ({points} VP)")
    if held_by != "none":
        side = s.side(held_by)
        s = s.with_side(
            SideState(side.name, side.cp, side.victory_points + points, side.commander_captured)
        )
    return s.at(holders=holders)


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"setup": _setup_phase, "end": _end_phase}

ROLLS: dict[str, RollStep] = {
    "cp_roll": RollStep(_ask_command_points, _on_command_points),
    "officer_roll": RollStep(_ask_officer, _on_officer),
}

CHOICES: dict[str, ChoiceStep] = {"pick_holder": ChoiceStep(_ask_holder, _on_holder)}
