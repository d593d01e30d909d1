"""The second action and orders phases: the side's roll for a second action, the
squad picked, its menu of actions and what the one chosen does.

Moving (with the roll for rough terrain), changing formation, vanishing into and
landing from hyper-space, asking for a second action; `action_done` counts an action
and offers the squad's next one while it may have it. Firing and charging go on
through the target asked for (the `pick_target` stage, which `shooting` answers).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.core import AwaitChoice, Choice, Outcome, RulesError
from companion.rules.fighting_swashbucklers import actions, command, tables
from companion.rules.fighting_swashbucklers.movement import (
    AIRBORNE,
    LANDED,
    ON_TABLE,
    can_vanish,
    move_inches,
    needs_rough_roll,
    other_formation,
)
from companion.rules.fighting_swashbucklers.play.squads import (
    allowed_actions,
    can_fire_now,
    charge_targets,
    fire_targets,
    may_try_second,
    orderable,
)
from companion.rules.fighting_swashbucklers.play.steps import (
    ChoiceStep,
    Out,
    PhaseStep,
    Roll,
    RollStep,
    label,
    opt_str,
    picked,
    zero,
)
from companion.rules.fighting_swashbucklers.state import GameState, SquadState, Stage
from companion.rules.grammar import agree

# ----------------------------------------------------------------- a second action


def _second_phase(s: GameState, out: Out) -> GameState:
    cp = s.side(s.phasing).cp
    if opt_str(s, "second_action_roll") == "per_unit":
        return s.at(phase="orders")
    if cp <= 0:
        out.log.append(agree(s.phasing, "has", "have") + " no CP: one action each")
        return s.at(phase="orders", phasing_second=False)
    if command.second_action_chance(cp) >= 100:
        return s.at(phase="orders", phasing_second=True)
    return s.at(stage=Stage("second_roll"))


def _ask_second(s: GameState) -> Roll:
    cp = s.side(s.phasing).cp
    return Roll(actions.SECOND_ACTION, {"cp": cp, **zero(s)}, s.stage.unit or s.phasing)


def _on_second(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    """For the side (the second action phase), or for one squad (per-unit option)."""
    granted = outcome.headline == 1
    if st.unit:
        u = s.unit(st.unit)
        s = s.with_unit(u.with_(second_granted=granted, done=not granted))
        if granted:
            return s.at(stage=Stage("pick_action", u.name))
        return s
    out.log.append(f"{s.phasing}: {'a second action' if granted else 'one action'} each")
    return s.at(phasing_second=granted, phase="orders")


# ----------------------------------------------------------------- orders


def _orders_phase(s: GameState, out: Out) -> GameState:
    if any(orderable(s, u) for u in s.units):
        return s.at(stage=Stage("pick_unit"))
    return s.at(phase="reaction")


def _ask_unit(s: GameState) -> AwaitChoice:
    opts = [Choice(f"unit:{u.name}", label(u.name)) for u in s.units if orderable(s, u)]
    opts.append(Choice("end", "End orders"))
    return AwaitChoice(f"{s.phasing}: which unit?", tuple(opts), s.phasing)


def _on_unit(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    if key == "end":
        out.log.append(agree(s.phasing, "ends", "end") + " orders")
        return _land_due_rangers(s, out).at(phase="reaction")
    return s.at(stage=Stage("pick_action", picked(key)))


def _ask_action(s: GameState) -> AwaitChoice:
    st = s.stage
    return AwaitChoice(f"{st.unit}: action?", _action_options(s, s.unit(st.unit)), st.unit)


def _action_options(s: GameState, u: SquadState) -> tuple[Choice, ...]:
    if u.airborne:
        if opt_str(s, "ranger_landing") == "when_chosen":
            return (Choice("land", "Land anywhere"), Choice("stay", "Stay airborne"))
        return (Choice("land", "Land anywhere"),)
    if u.actions_used >= allowed_actions(s, u) and may_try_second(s, u):
        return (Choice("second", "Try 2nd action"), Choice("end", "End unit"))
    opts: list[Choice] = []
    if can_fire_now(s, u) and fire_targets(s, u):
        opts.append(Choice("fire", "Fire"))
    if not u.is_commander and charge_targets(s, u):
        opts.append(Choice("charge", "Charge"))
    opts.append(Choice("move", f'Move {move_inches(u.kind)}"'))
    if u.kind in tables.FORMED_KINDS:
        opts.append(Choice("deploy", f"Form {other_formation(u.formation)}"))
    if can_vanish(u.kind, u.pose) and u.actions_used == 0 and u.hyperspace == ON_TABLE:
        opts.append(Choice("vanish", "Hyper-space"))
    opts.append(Choice("end", "End unit"))
    return tuple(opts)


def _on_action(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    u = s.unit(st.unit)
    if key == "end":
        out.log.append(f"{u.name}: no more orders this turn")
        return s.with_unit(u.with_(done=True))
    if key == "land":
        out.log.append(
            agree(u.name, "materialises", "materialise")
            + " anywhere on the field and does nothing more"
        )
        return _land(s, u)
    if key == "stay":
        out.log.append(agree(u.name, "stays", "stay") + " in hyper-space this turn")
        return s.with_unit(u.with_(done=True))
    if key == "vanish":
        out.log.append(
            agree(u.name, "dematerialises", "dematerialise") + ": off the field until next turn"
        )
        return s.with_unit(
            u.with_(hyperspace=AIRBORNE, hyperspace_turn=s.turn, done=True, actions_used=1)
        )
    if key == "second":
        return s.with_unit(u.with_(second_rolled=True)).at(stage=Stage("second_roll", u.name))
    if key == "deploy":
        new = other_formation(u.formation)
        out.log.append(agree(u.name, "deploys", "deploy") + f" into {new}")
        return action_done(s.with_unit(u.with_(formation=new)), u.name)
    if key == "fire":
        return s.at(stage=Stage("pick_target", u.name, purpose="fire"))
    if key in ("move", "charge"):
        if _rolls_in_rough(s, u):
            return s.at(stage=Stage("ask_rough", u.name, purpose=key))
        return _moved(s, u.name, key, out)
    raise RulesError(f"unknown action {key!r}")  # pragma: no cover


def _ask_terrain(s: GameState) -> AwaitChoice:
    st = s.stage
    fixed = (Choice("rough:no", "Clear ground"), Choice("rough:yes", "Rough terrain"))
    return AwaitChoice(f"{st.unit}: terrain?", fixed, st.unit)


def _on_terrain(s: GameState, st: Stage, key: str, out: Out) -> GameState:
    if picked(key) == "yes":
        return s.at(stage=Stage("rough_roll", st.unit, purpose=st.purpose))
    return _moved(s, st.unit, st.purpose, out)


def _ask_rough_roll(s: GameState) -> Roll:
    return Roll(actions.ROUGH_TERRAIN, zero(s), s.stage.unit)


def _on_rough_roll(
    s: GameState, st: Stage, dice: Sequence[int], outcome: Outcome, out: Out
) -> GameState:
    u = s.unit(st.unit)
    if outcome.headline:
        return _moved(s.with_unit(u.with_(rough_passed=True)), u.name, st.purpose, out)
    out.log.append(agree(u.name, "stands", "stand") + " in the rough for the rest of the turn")
    return action_done(s, u.name, halted=True)


def _rolls_in_rough(s: GameState, u: SquadState) -> bool:
    if u.rough_passed:
        return False
    if u.kind == tables.CANNON:  # no formation: the line's roll only by option
        return opt_str(s, "cannon_rough_terrain") == "rolls"
    return needs_rough_roll(u.formation)


def _land(s: GameState, u: SquadState) -> GameState:
    return s.with_unit(u.with_(hyperspace=LANDED, hyperspace_turn=s.turn, done=True))


def _land_due_rangers(s: GameState, out: Out) -> GameState:
    """The trip lasts two turns, so Rangers left unordered in their landing turn come down."""
    if opt_str(s, "ranger_landing") != "next_turn":
        return s
    for u in s.units:
        if u.side == s.phasing and u.airborne and u.men > 0 and u.hyperspace_turn < s.turn:
            out.log.append(f"{u.name} must land now: place it anywhere on the field")
            s = _land(s, u)
    return s


def _moved(s: GameState, name: str, purpose: str, out: Out) -> GameState:
    u = s.unit(name)
    if purpose == "charge":
        return s.at(stage=Stage("pick_target", name, purpose="charge"))
    shape = f" ({u.formation})" if u.formation else ""
    out.log.append(agree(name, "moves", "move") + f' up to {move_inches(u.kind)}"{shape}')
    return action_done(s, name)


def action_done(s: GameState, name: str, *, halted: bool = False) -> GameState:
    u = s.unit(name)
    u = u.with_(actions_used=u.actions_used + 1)
    if halted:
        u = u.with_(done=True)
    s = s.with_unit(u)
    if not u.done and orderable(s, u):
        return s.at(stage=Stage("pick_action", name))
    return s.with_unit(u.with_(done=True))


# ----------------------------------------------------------------- what this module answers

PHASES: dict[str, PhaseStep] = {"second": _second_phase, "orders": _orders_phase}

ROLLS: dict[str, RollStep] = {
    "second_roll": RollStep(_ask_second, _on_second),
    "rough_roll": RollStep(_ask_rough_roll, _on_rough_roll),
}

CHOICES: dict[str, ChoiceStep] = {
    "pick_unit": ChoiceStep(_ask_unit, _on_unit),
    "pick_action": ChoiceStep(_ask_action, _on_action),
    "ask_rough": ChoiceStep(_ask_terrain, _on_terrain),
}
