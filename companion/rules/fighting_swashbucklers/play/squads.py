"""Queries about squads and officers, used by the steps and the questions.

An under-officer of a given type with his squad, the side's commanding officer, who
can fire now or ever, who can be fired at or charged, how many actions a squad has
and whether it may still be ordered, who may fire in reaction, the next squad due a
morale test, and an officer's type in words. Nothing here changes the state.
"""

from __future__ import annotations

from companion.rules.fighting_swashbucklers import actions, fire, tables
from companion.rules.fighting_swashbucklers.movement import can_fire_in
from companion.rules.fighting_swashbucklers.play.steps import opt_int, opt_str
from companion.rules.fighting_swashbucklers.state import GameState, OfficerState, SquadState


def leader(s: GameState, u: SquadState, kind: str) -> OfficerState | None:
    """The unit's under-officer if he is alive and of `kind`."""
    if not u.leader:
        return None
    officer = s.officer(u.leader)
    if officer is None or not officer.alive or officer.kind != kind:
        return None
    return officer


def officer_words(kind: str, *, article: bool = False) -> str:
    """The type in the words of the dice, the odds and the headline: "Sgt is a good
    leader", "Cpl is run of the mill", "Lt is a martinet"."""
    words = actions.OFFICER_WORDS[kind]
    return f"a {words}" if article and kind != tables.ORDINARY_OFFICER else words


def commander_name(s: GameState, side: str) -> str:
    """The side's commanding officer by name ("Legion commander" if it has none)."""
    return next((u.name for u in s.units if u.side == side and u.is_commander), f"{side} commander")


def _fire_factor(s: GameState, u: SquadState) -> int:
    return fire.fire_factor(u.kind, u.pose or "running", opt_int(s, "cavalry_fire_factor"))


def can_ever_fire(s: GameState, u: SquadState) -> bool:
    if u.is_commander or not u.on_table:
        return False
    return u.kind in (tables.MACHINE_GUN, tables.CANNON) or _fire_factor(s, u) > 0


def can_fire_now(s: GameState, u: SquadState) -> bool:
    return can_ever_fire(s, u) and can_fire_in(u.formation, u.kind)


def _enemies(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    return tuple(e for e in s.units if e.side != u.side and e.on_table)


def fire_targets(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    """Squads that can be fired on: the commanding officer has no ML, so not him."""
    targets = [e for e in _enemies(s, u) if not e.is_commander]
    targets.sort(key=lambda e: e.name != u.last_fired_by)
    return tuple(targets)


def charge_targets(s: GameState, u: SquadState) -> tuple[SquadState, ...]:
    """Squads first: the commanding officer is usually behind his line, so he comes last."""
    return tuple(sorted(_enemies(s, u), key=lambda e: e.is_commander))


def allowed_actions(s: GameState, u: SquadState) -> int:
    if opt_str(s, "second_action_roll") == "per_unit":
        return 2 if u.second_granted else 1
    return 2 if s.phasing_second else 1


def may_try_second(s: GameState, u: SquadState) -> bool:
    return (
        opt_str(s, "second_action_roll") == "per_unit"
        and u.actions_used == 1
        and not u.second_rolled
        and s.side(u.side).cp > 0
    )


def orderable(s: GameState, u: SquadState) -> bool:
    if u.side != s.phasing or u.done or u.captured or u.men <= 0:
        return False
    if u.airborne:
        return u.hyperspace_turn < s.turn
    if u.landed_on(s.turn):
        return False
    return u.actions_used < allowed_actions(s, u) or may_try_second(s, u)


def reactors(s: GameState) -> tuple[SquadState, ...]:
    return tuple(
        u
        for u in s.units
        if u.side == s.non_phasing
        and not u.reacted
        and not u.landed_on(s.turn)
        and can_fire_now(s, u)
        and fire_targets(s, u)
    )


def next_test(s: GameState) -> SquadState | None:
    for u in s.units:
        if u.on_table and not u.is_commander and (u.test_due or u.stress):
            return u
    return None
