"""Close combat, after a charge or up a ladder: the defender's position, bouts figure
by figure (with the limit of attackers on one figure), what they do to both units,
mounted leaders among the fallen, and falling back. The bout's dice are in
`close_combat.py`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.close_combat import ATTACKER_WINS, TIE, loser_result
from companion.rules.tenir_le_fort.play.activation import end_activation
from companion.rules.tenir_le_fort.play.losses import check_destroyed, lose_leader
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    does,
    roll,
    yes_no,
)
from companion.rules.tenir_le_fort.play.units import best_cc_rank, mounted_leader, unpinnable
from companion.rules.tenir_le_fort.state import GameState, Melee, UnitState

T = TypeVar("T")


def start_melee_stage(s: GameState, tx: Tx) -> GameState:
    charger = s.unit(s.act.unit)
    defender_name = s.act.defender
    s = replace(
        s, act=replace(s.act, firer=charger.name, target=defender_name, after_fire="", hits=0)
    )
    d = s.unit(defender_name)
    if not charger.alive or not d.alive:
        tx.say("No close combat: one side is gone.")
        return end_activation(s, tx)
    if charger.pinned and not charger.berserk:
        tx.say(does(s, charger.name, "is", "are") + " pinned by the fire: the charge stops short.")
        return end_activation(s, tx)
    if d.side == "FFL":
        opts = [("cover", "Behind cover"), ("loophole", "At a loophole"), ("open", "In the open")]
    else:
        opts = [("open", "In the open"), ("cover", "Behind cover")]
    return ask(s, "position", does(s, d.name, "defends", "defend") + "?", opts, d.name)


def _after_position(s: GameState, key: str, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    s = replace(s, act=replace(s.act, cover=key))
    return yes_no(s, "surrounded", f"{d.name} surrounded?", d.name)


def figure_wounds(u: UnitState, n: int) -> tuple[bool, ...]:
    return tuple(i >= u.figures - u.wounded for i in range(n))


def _after_surrounded(s: GameState, key: str, tx: Tx) -> GameState:
    a = s.unit(s.act.unit)
    d = s.unit(s.act.target)
    melee = Melee(
        attacker=a.name,
        defender=d.name,
        a_state=("ready",) * a.figures,
        d_state=("ready",) * d.figures,
        d_fights=(0,) * d.figures,
        a_wounded=figure_wounds(a, a.figures),
        d_wounded=figure_wounds(d, d.figures),
        position=s.act.cover,
        surrounded=key == "yes",
    )
    tx.say(f"Close combat: {a.figures} of {a.name} against {d.figures} of {d.name}.")
    s = replace(s, act=replace(s.act, melee=melee))
    return next_bout(s, tx)


def _pick_bout(m: Melee, defender_side: str) -> tuple[int, int] | None:
    a_idx = next((i for i, st in enumerate(m.a_state) if st == "ready"), None)
    if a_idx is None:
        return None
    # only a surrounded legionnaire (or the wall's defenders) may face more than four
    unlimited = m.ladder or (m.surrounded and defender_side == "FFL")
    limit = len(m.a_state) if unlimited else t.MAX_ATTACKERS_PER_FIGURE
    best: int | None = None
    for i, st in enumerate(m.d_state):
        if st != "ready" or (m.d_fights[i] >= limit and not m.ladder):
            continue
        if m.ladder:
            best = i
            break
        if best is None or m.d_fights[i] < m.d_fights[best]:
            best = i
    if best is None:
        return None
    return a_idx, best


def _fighter_params(s: GameState, m: Melee, a_idx: int, d_idx: int) -> dict[str, int | bool | str]:
    a = s.unit(m.attacker)
    d = s.unit(m.defender)

    def leader_for(u: UnitState, idx: int) -> str:
        # option leader_cc_bonus: every figure of the unit, or only the first to fight
        if s.config.leader_bonus_whole_unit or idx == 0:
            return best_cc_rank(s, u)
        return "none"

    def water(u: UnitState) -> bool:
        return s.ffl_low_water if u.side == "FFL" else s.arab_low_water

    return {
        "attacker_side": a.side,
        "attacker_leader": leader_for(a, a_idx),
        "attacker_berserk": a.berserk,
        "attacker_pinned": a.pinned,
        "attacker_low_water": water(a),
        "attacker_wounded": a.side == "FFL" and m.a_wounded[a_idx],
        "attacker_hero": a.side == "FFL" and a_idx < a.heroes,
        "attacker_gun_crew": a.gun,
        "defender_leader": leader_for(d, d_idx),
        "defender_berserk": d.berserk,
        "defender_pinned": d.pinned,
        "defender_low_water": water(d),
        "defender_wounded": d.side == "FFL" and m.d_wounded[d_idx],
        "defender_hero": d.side == "FFL" and d_idx < d.heroes,
        "defender_gun_crew": d.gun,
        "defender_position": m.position
        if (d.side == "FFL" or m.position != "loophole")
        else "open",
        "defender_surrounded": m.surrounded and d.side == "Arab",
        "result_from": s.config.cc_result_from,
    }


def next_bout(s: GameState, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    pick = _pick_bout(m, s.unit(m.defender).side)
    if pick is None:
        return _end_melee(s, tx)
    m = replace(m, current=pick)
    s = replace(s, act=replace(s.act, melee=m))
    return roll(s, "bout", "close-combat", _fighter_params(s, m, *pick))


def _set(seq: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return (*seq[:i], v, *seq[i + 1 :])


def _after_bout(s: GameState, out: Outcome, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    a_idx, d_idx = m.current
    tx.say(*out.details)
    if out.headline == TIE:
        return roll(s, "bout", "close-combat", _fighter_params(s, m, a_idx, d_idx))
    result = loser_result(out.effects)
    # the bout's effects are named for the loser ("loser_killed"), which no tune
    # knows: the transition cues the death, or the pin of a loser who falls back
    # (none for a unit that is pinned already or cannot be)
    losing = s.unit(m.defender if out.headline == ATTACKER_WINS else m.attacker)
    if result == "killed":
        tx.cues.add("death")
    elif result in ("wounded", "fell back") and not (losing.pinned or unpinnable(s, losing)):
        tx.cues.add("pin")
    # every bout counts towards the defender's limit of attackers, whoever wins it
    fights = tuple(f + (1 if i == d_idx else 0) for i, f in enumerate(m.d_fights))
    if out.headline == ATTACKER_WINS:
        d = s.unit(m.defender)
        d_state, d_w = m.d_state, m.d_wounded
        d_falls = m.d_falls or (False,) * len(m.d_state)
        if result == "killed":
            d_state = _set(d_state, d_idx, "killed")
        elif result == "surrendered":
            d_state = _set(d_state, d_idx, "surrendered")
        else:
            if result == "wounded" and d.side == "FFL":
                d_w = _set(d_w, d_idx, True)
            if m.ladder:
                d_state = _set(d_state, d_idx, "fell back")
            elif not (m.surrounded and d.side == "FFL"):
                # an outnumbered loser falls back only after his last combat
                d_falls = _set(d_falls, d_idx, True)
        a_state = m.a_state if m.ladder else _set(m.a_state, a_idx, "done")
        m = replace(
            m,
            d_state=d_state,
            d_wounded=d_w,
            d_fights=fights,
            a_state=a_state,
            d_falls=d_falls,
        )
    else:  # defender won; attacker lost
        a = s.unit(m.attacker)
        a_state, a_w = m.a_state, m.a_wounded
        if result == "killed":
            a_state = _set(a_state, a_idx, "killed")
        else:
            if result == "wounded" and a.side == "FFL":
                a_w = _set(a_w, a_idx, True)
            a_state = _set(a_state, a_idx, "fell back")
        m = replace(m, a_state=a_state, a_wounded=a_w, d_fights=fights)
    s = replace(s, act=replace(s.act, melee=m))
    return next_bout(s, tx)


def _apply_melee(
    s: GameState, name: str, states: tuple[str, ...], wounded: tuple[bool, ...], tx: Tx
) -> tuple[GameState, bool]:
    u = s.unit(name)
    lost = sum(1 for st in states if st in ("killed", "surrendered"))
    falling = sum(1 for st in states if st == "fell back")
    fell = falling > 0
    heroes_lost = sum(1 for i, st in enumerate(states) if i < u.heroes and st == "killed")
    survivors = [i for i, st in enumerate(states) if st not in ("killed", "surrendered")]
    extra = u.figures - len(states)  # figures not in the fight (ladder assaults)
    w = sum(1 for i in survivors if wounded[i]) if u.side == "FFL" else 0
    if u.side == "FFL" and extra > 0:
        w += min(u.wounded, extra)
    surrendered = sum(1 for st in states if st == "surrendered")
    new = replace(
        u,
        figures=u.figures - lost,
        wounded=min(w, u.figures - lost) if u.side == "FFL" else 0,
        heroes=max(0, u.heroes - heroes_lost),
        pinned=u.pinned or (fell and not unpinnable(s, u)),
    )
    s = s.with_unit(new)
    if u.side == "Arab":
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
        if lost and new.figures and mounted_leader(s, new):
            s = replace(s, act=replace(s.act, leader_checks=(*s.act.leader_checks, name)))
    if lost or fell:
        parts = [f"{lost - surrendered} killed"]
        if surrendered:
            parts.append(f"{surrendered} surrendered")
        if fell:
            parts.append(f"{falling} fall back" + (", pinned" if new.pinned else ""))
        tx.say(f"{name}: " + ", ".join(parts) + ".")
    s = check_destroyed(s, name, tx)
    return s, fell and s.unit(name).alive


def _end_melee(s: GameState, tx: Tx) -> GameState:
    m = s.act.melee
    assert m is not None
    if m.d_falls:
        falling = zip(m.d_state, m.d_falls, strict=True)
        m = replace(
            m, d_state=tuple("fell back" if st == "ready" and f else st for st, f in falling)
        )
    s, a_fell = _apply_melee(s, m.attacker, m.a_state, m.a_wounded, tx)
    s, d_fell = _apply_melee(s, m.defender, m.d_state, m.d_wounded, tx)
    if m.ladder:
        climbers_left = sum(1 for st in m.a_state if st == "ready")
        defenders_left = sum(1 for st in m.d_state if st == "ready")
        if climbers_left and not defenders_left:
            climbers = counted(climbers_left, "climber stands", "climbers stand")
            tx.say(f"The wall is cleared: {climbers} on it.")
            s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
            return roll(s, "ladder_advance", "ladder-advance", {})
        tx.say("The ladder assault is thrown back." if not climbers_left else "The assault ends.")
    s = replace(s, act=replace(s.act, melee=None, fallbacks=_fallbacks(m, a_fell, d_fell)))
    return fallback_stage(s, tx)


def _fallbacks(m: Melee, a_fell: bool, d_fell: bool) -> tuple[str, ...]:
    return tuple(n for n, f in ((m.attacker, a_fell), (m.defender, d_fell)) if f)


def fallback_stage(s: GameState, tx: Tx) -> GameState:
    if s.act.fallbacks:
        falling = s.unit(s.act.fallbacks[0])
        return roll(s, "fall_back", "fall-back", {"unpinnable": unpinnable(s, falling)})
    if s.act.leader_checks:
        name = s.act.leader_checks[0]
        tx.say(f"{name} lost figures: is {mounted_leader(s, s.unit(name))} among them?")
        return roll(s, "melee_leader_check", "leader-casualty", {})
    return end_activation(s, tx)


def _after_melee_leader_check(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.leader_checks[0]
    s = replace(s, act=replace(s.act, leader_checks=s.act.leader_checks[1:]))
    u = s.unit(name)
    if out.headline:
        # one of the fallen was the leader: a tribesman counted among them is still standing
        s = s.with_unit(replace(u, figures=u.figures + 1))
        s = replace(s, casualties=s.casualties - 1, total_casualties=s.total_casualties - 1)
        s = lose_leader(s, name, mounted_leader(s, u), tx)
    else:
        tx.say(f"{mounted_leader(s, u)} is not among the fallen.")
    return fallback_stage(s, tx)


def _after_fall_back(s: GameState, out: Outcome, tx: Tx) -> GameState:
    name = s.act.fallbacks[0]
    pinned = "pinned" in out.effects
    if pinned:
        tx.cues.add("pin")
    distance = counted(out.headline, "inch", "inches")
    tx.say(f"The losers of {name} fall back {distance}{', pinned' if pinned else ''}.")
    s = replace(s, act=replace(s.act, fallbacks=s.act.fallbacks[1:]))
    return fallback_stage(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "position": _after_position,
    "surrounded": _after_surrounded,
}

ROLLS: dict[str, RollHandler] = {
    "bout": _after_bout,
    "fall_back": _after_fall_back,
    "melee_leader_check": _after_melee_leader_check,
}
