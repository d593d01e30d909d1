"""Fire: the reaction phase (its roll, the squads picked to fire back), a target
picked, the fire roll asked for, the markers it places.

The `pick_target` stage takes the target picked for any purpose: fire, reaction fire,
a charge (its facing is asked next), a provoked squad's fire or advance. `start_fire`
asks for the roll (a cannon's range first), or settles fire that needs no dice;
`_after_fire` puts the markers on the target and returns to the order, the reaction or
the morale step that fired.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome, counted
from companion.rules.fighting_swashbucklers import actions, tables
from companion.rules.fighting_swashbucklers.play.orders import action_done
from companion.rules.fighting_swashbucklers.play.squads import (
    charge_targets,
    fire_targets,
    reactors,
)
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    d10_reading,
    label,
    opt_int,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.state import GameState, SquadState, Stage
from companion.rules.grammar import agree

# ----------------------------------------------------------------- reaction fire


def _reaction_phase(s: GameState, out: Out) -> GameState:
    if s.reactions_left < 0:
        if s.side(s.non_phasing).cp > 0 and reactors(s):
            return s.at(stage=Stage("reaction_roll"))
        return s.at(phase="morale")
    if s.reactions_left > 0 and reactors(s):
        return s.at(stage=Stage("pick_reactor"))
    return s.at(phase="morale")


def _ask_reactions(s: GameState) -> Roll:
    cp = s.side(s.non_phasing).cp
    return Roll(actions.REACTION_FIRE, {"cp": cp, **d10_reading(s)}, s.non_phasing)


def _on_reactions(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    return s.at(reactions_left=outcome.headline)


def _ask_reactor(s: GameState) -> AwaitChoice:
    opts = [Choice(f"unit:{u.name}", label(u.name)) for u in reactors(s)]
    opts.append(Choice("end", "No more"))
    left = s.reactions_left
    return AwaitChoice(agree(s.non_phasing, "reacts", "react") + f": {left} left", tuple(opts), "")


def _on_reactor(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    if key == "end":
        out.log.append(agree(s.non_phasing, "ends", "end") + " reaction fire")
        return s.at(reactions_left=0)
    return s.at(stage=Stage("pick_target", picked(key), purpose="reaction"))


# ----------------------------------------------------------------- targets and fire


def _ask_target(s: GameState) -> AwaitChoice:
    st = s.stage
    u = s.unit(st.unit)
    pool = charge_targets(s, u) if st.purpose in ("charge", "advance") else fire_targets(s, u)
    opts = [Choice(f"target:{e.name}", label(e.name)) for e in pool]
    last = {
        "fire": ("back", "Back"),
        "reaction": ("back", "Back"),
        "charge": ("none", "No contact"),
        "advance": ("none", "No contact"),
        "provoked": ("none", "No target"),
    }[st.purpose]
    opts.append(Choice(*last))
    verb = "charge" if st.purpose in ("charge", "advance") else "fire at"
    return AwaitChoice(f"{st.unit}: {verb}?", tuple(opts), st.unit)


def _on_target(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    target = picked(key)
    if key == "back":
        if st.purpose == "fire":
            return s.at(stage=Stage("pick_action", st.unit))
        return s  # reaction: back to the list of reactors
    if key == "none":
        if st.purpose == "charge":
            out.log.append(agree(st.unit, "moves", "move") + " without contact")
            return action_done(s, st.unit)
        out.log.append(f"{st.unit}: no target within reach")
        return s
    if st.purpose in ("charge", "advance"):
        return s.at(stage=Stage("pick_facing", st.unit, target, st.purpose))
    return start_fire(s, st.unit, target, st.purpose, out)


def _ask_range(s: GameState) -> AwaitChoice:
    st = s.stage
    fixed = tuple(Choice(f"range:{t}", f'{t * 10}-{t * 10 + 9}"') for t in range(10))
    return AwaitChoice(f"Range to {st.target}?", fixed, st.unit)


def _on_range(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    inches = int(picked(key)) * 10
    return s.at(stage=Stage("fire_roll", st.unit, st.target, st.purpose, inches))


def _ask_fire(s: GameState) -> Roll:
    return _fire_roll(s, s.unit(s.stage.unit), s.stage.number)


def _fire_roll(s: GameState, u: SquadState, range_inches: int) -> Roll:
    if u.kind == tables.CANNON:
        return Roll(actions.CANNON_FIRE, {"range": range_inches, **d10_reading(s)}, u.name)
    firer = "cavalry" if u.kind == tables.CAVALRY else u.pose
    params: dict[str, int | bool | str] = {
        "men": u.men,
        "firer": firer,
        "cavalry_fire_factor": opt_int(s, "cavalry_fire_factor"),
        **zero(s),
    }
    if u.kind == tables.MACHINE_GUN:
        params["mg_crew"] = opt_int(s, "mg_crew")
        return Roll(actions.MACHINE_GUN_FIRE, params, u.name)
    return Roll(actions.RIFLE_FIRE, params, u.name)


def start_fire(s: GameState, firer: str, target: str, purpose: str, out: Out) -> GameState:
    u = s.unit(firer)
    out.log.append(agree(firer, "fires", "fire") + f" at {target}")
    if u.kind == tables.CANNON:
        if purpose == "defensive":
            return s.at(stage=Stage("fire_roll", firer, target, purpose, 0))
        return s.at(stage=Stage("pick_range", firer, target, purpose))
    roll = _fire_roll(s, u, 0)
    if roll.action.request(roll.params).groups:
        return s.at(stage=Stage("fire_roll", firer, target, purpose))
    outcome = roll.action.resolve(roll.params, ())
    out.log.extend(f"  {line}" for line in outcome.details)
    return _after_fire(s, firer, target, purpose, outcome.headline, out)


def _on_fire(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    return _after_fire(s, st.unit, st.target, st.purpose, outcome.headline, out)


def _after_fire(
    s: GameState, firer: str, target: str, purpose: str, markers: int, out: Out
) -> GameState:
    t = s.unit(target)
    if markers > 0:
        taken = counted(markers, "marker")
        out.log.append(agree(target, "takes", "take") + f" {taken} ({t.markers + markers} in all)")
        s = s.with_unit(t.with_(markers=t.markers + markers, test_due=True, last_fired_by=firer))
    else:
        out.log.append(f"{target}: no impact")
    if purpose == "fire":
        return action_done(s, firer)
    if purpose == "reaction":
        u = s.unit(firer)
        return s.with_unit(u.with_(reacted=True)).at(reactions_left=s.reactions_left - 1)
    return s  # provoked or defensive fire: back to the morale step


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"reaction": _reaction_phase}

ROLLS: dict[str, RollStep] = {
    "reaction_roll": RollStep(_ask_reactions, _on_reactions),
    "fire_roll": RollStep(_ask_fire, _on_fire),
}

CHOICES: dict[str, ChoiceStep] = {
    "pick_reactor": ChoiceStep(_ask_reactor, _on_reactor),
    "pick_target": ChoiceStep(_ask_target, _on_target),
    "pick_range": ChoiceStep(_ask_range, _on_range),
}
