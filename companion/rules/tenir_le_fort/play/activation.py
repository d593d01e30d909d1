"""A chip drawn: the unit's menu of actions or the leader's menu (free actions and
command-point spends), and the end of an activation (men reaching the top of the
tower, a side wiped out, back to the leader's menu or to the next chip).

This module only offers the options; what they do is in `unit_actions` and
`leader_chits`. Kept apart so that fire, charges, close combat and assaults can end
an activation without importing the menus' handlers, which start them.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.movement import gun_can_move
from companion.rules.tenir_le_fort.play.arrivals import relief_pending
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    Tx,
    ask,
    cost,
    other,
    roll,
    spend,
    yes_no,
)
from companion.rules.tenir_le_fort.play.turns import draw, end_attack, game_over
from companion.rules.tenir_le_fort.play.units import (
    burdened,
    combatants,
    fighting_figures,
    free_commanders,
    gun_can_fire,
    gun_out_of_ammunition,
    led,
    move_men,
    spare_men,
    tower,
)
from companion.rules.tenir_le_fort.state import Act, GameState, UnitState


def on_chip(s: GameState, chip: str, tx: Tx) -> GameState:
    bag = s.bag.draw(chip)
    s = replace(s, bag=bag)
    tx.cues.add("chip")
    unit = next(u for u in s.units if u.chip == chip)
    tx.say(f"Chip {chip}: {unit.name} ({unit.side}).")
    if unit.kind == "leader":
        if unit.side == "FFL" and relief_pending(s):
            # rolled on every FFL leader chit, asleep or not, so the relief day stays secret
            s = replace(s, act=Act(unit=unit.name, leader_chip=unit.chip))
            due = s.reinforcement_day == s.day
            return roll(s, "relief_arrival", "reinforcement-arrival", {"due": due})
        return leader_menu(s, unit.name, ())
    return unit_menu(s, unit.name, "", ())


def unit_menu(s: GameState, name: str, leader_chip: str, used: tuple[str, ...]) -> GameState:
    u = s.unit(name)
    s = replace(s, act=Act(unit=name, leader_chip=leader_chip, used=used))
    opts: list[tuple[str, str]] = []
    enemies = combatants(s, other(u.side))
    if u.side == "FFL" and not s.alerted:
        return ask(s, "unit_action", f"{u.name}: not alerted", [("pass", "Off duty")], u.name)
    if u.gun:
        if u.figures < 1 or u.broken:
            opts.append(("pass", "Pass (unmanned)" if not u.broken else "Pass (broken)"))
        else:
            # with no shells left there is neither fire nor a jammed Maxim's clearing
            # roll (a shot too): the chip can still move the gun, or pass
            no_ammo = gun_out_of_ammunition(s, u)
            if u.jammed and not no_ammo:
                opts.append(("fire", "Clear the jam"))
            elif enemies and not no_ammo:
                opts.append(("fire", "Fire (half)" if u.pinned else "Fire"))
            if gun_can_move(u.kind, u.figures):
                opts.append(("move", "Try to move" if u.pinned else "Move"))
            opts.append(("pass", "Pass (no ammo)" if no_ammo else "Pass"))
        return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)
    if u.kind == "supply":
        opts = [("move", "Move"), ("fort", "Into the fort"), ("pass", "Pass")]
        return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)
    if u.berserk:
        opts = [("charge", "Charge (berserk)")] if charge_targets(s, u) else []
        opts.append(("pass", "No enemy in sight"))
        return ask(s, "unit_action", f"{u.name} is berserk", opts, u.name)
    if enemies:
        opts.append(("fire", "Fire (half)" if u.pinned else "Fire"))
    opts.append(("move", "Try to move" if u.pinned else "Move"))
    if u.side == "FFL" and not u.pinned and not burdened(s, u) and enemies:
        opts.append(("move_fire", "Move and fire"))
    if not u.pinned and charge_targets(s, u):
        opts.append(("charge", "Charge"))
    if u.ladder and not u.pinned:
        if u.ladder_placed:
            opts.append(("assault", f"Climb the {u.ladder}"))
        else:
            opts.append(("ladder", f"Move, set {u.ladder}"))
    if u.dynamite and enemies:
        opts.append(("dynamite", "Throw dynamite"))
    if u.side == "FFL" and not led(s, u) and u.kind == "foot" and join_hosts(s, u):
        opts.append(("join", "Join a led unit"))
    if u.side == "FFL" and u.heroes and unmanned_guns(s) and spare_men(u):
        opts.append(("hero_gun", "Hero mans a gun"))
    opts.append(("pass", "Pass"))
    return ask(s, "unit_action", f"{u.name}: action?", opts, u.name)


def charge_targets(s: GameState, u: UnitState) -> list[UnitState]:
    # the men at the top of the tower cannot be charged; the wall is a ladder assault
    return [e for e in combatants(s, other(u.side)) if e.kind != "tower"]


def join_hosts(s: GameState, u: UnitState) -> list[UnitState]:
    return [v for v in s.side_units("FFL") if led(s, v) and v.kind == "foot" and v.name != u.name]


def unmanned_guns(s: GameState) -> list[UnitState]:
    """Guns on the table with no crew left that are not broken (either side's)."""
    return [g for g in s.units if g.gun and g.present and g.figures == 0 and not g.broken]


def leader_menu(s: GameState, name: str, used: tuple[str, ...]) -> GameState:
    leader = s.unit(name)
    side = leader.side
    s = replace(s, act=Act(unit=name, leader_chip=leader.chip, used=used))
    cp = s.cp(side)
    # points are spent only while at least one of the side's leaders is not attached
    can_spend = bool(free_commanders(s, side))
    opts: list[tuple[str, str]] = []
    if side == "FFL" and not s.alerted:
        return ask(s, "leader_menu", f"{leader.name}: asleep", [("done", "Off duty")], name)

    def offer(key: str, label: str, use: str = "") -> None:
        if key in used:
            return
        if use:
            price = cost(side, use)
            if not can_spend or cp < price:
                return
            label = f"{label} ({price}CP)"
        opts.append((key, label))

    enemies = combatants(s, other(side))
    if side == "FFL":
        tw = tower(s)
        if tw is not None and tw.figures and enemies:
            offer("tower_fire", "Tower fires")
        for g in s.side_units("FFL"):
            if gun_can_fire(s, g) and enemies:
                offer(f"gun:{g.name}", f"{g.name} fires")
        if s.mines and enemies:
            offer("mine", "Detonate a mine")
        if extra_turn_units(s, side):
            offer("extra_turn", "Extra turn", "extra_turn")
        heroes = sum(u.heroes for u in s.side_units("FFL"))
        if heroes < s.config.max_heroes and hero_units(s):
            offer("hero", "Hero", "hero")
        if unmanned_guns(s) and recrew_donors(s):
            offer("recrew", "Re-crew gun", "recrew")
        if tw is not None and tw.figures + _climbing(s) < t.TOWER_CAPACITY and recrew_donors(s):
            offer("tower", "Man tower", "tower")
        if tw is not None and tw.figures and tower_hosts(s):
            offer("tower_down", "Tower down", "tower")
    else:
        for g in s.side_units("Arab"):
            if gun_can_fire(s, g) and enemies:
                offer(f"gun:{g.name}", f"{g.name} fires")
        if extra_turn_units(s, side):
            offer("extra_turn", "Extra turn", "extra_turn")
        if any(g.kind == "maxim" for g in unmanned_guns(s)) and arab_crews(s):
            offer("crew_mg", "Crew MG", "crew_captured_mg")
    # a leader joins or leaves a unit once per chit
    if "attach" in used or "leave" in used:
        pass
    elif leader.attached_to:
        offer("leave", f"Leave {leader.attached_to}")
    elif leader_hosts(s, leader):
        offer("attach", "Join a unit")
    opts.append(("done", "Done"))
    return ask(s, "leader_menu", f"{leader.name}: spend CP? ({cp} left)", opts, leader.name)


def extra_turn_units(s: GameState, side: str) -> list[UnitState]:
    return [u for u in combatants(s, side) if u.chip]


def hero_units(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind in ("foot", "tower", "maxim", "artillery")]


def recrew_donors(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot" and u.figures >= 2]


def arab_crews(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("Arab") if u.kind == "foot" and u.figures >= 2]


def tower_hosts(s: GameState) -> list[UnitState]:
    return [u for u in s.side_units("FFL") if u.kind == "foot"]


def leader_hosts(s: GameState, leader: UnitState) -> list[UnitState]:
    return [u for u in s.side_units(leader.side) if u.kind in ("foot", "mounted")]


def _climbing(s: GameState) -> int:
    return s.tower_climb[1] if s.tower_climb[0] else 0


def offer_unpin(s: GameState, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    price = cost("Arab", "unpin")
    if u.side == "Arab" and u.pinned and s.cp_arab >= price and free_commanders(s, "Arab"):
        return yes_no(s, "unpin", f"Spend {price} CP: unpin?", u.name)
    return end_activation(s, tx)


def _after_unpin(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        u = s.unit(s.act.unit)
        s = spend(s.with_unit(replace(u, pinned=False)), "Arab", "unpin", tx, f"unpinning {u.name}")
    return end_activation(s, tx)


def end_activation(s: GameState, tx: Tx) -> GameState:
    donor, n = s.tower_climb
    if donor and donor == s.act.unit:
        tw = tower(s)
        d = s.unit(donor)
        if tw is not None and d.alive:
            moved = min(n, spare_men(d), t.TOWER_CAPACITY - tw.figures)
            s = move_men(s, donor, tw.name, moved)
            if moved:
                reach = "reaches" if moved == 1 else "reach"
                tx.say(f"{counted(moved, 'legionnaire')} of {donor} {reach} the top of the tower.")
            if not s.unit(donor).alive:
                s = replace(s, bag=s.bag.remove(d.chip))
        s = replace(s, tower_climb=("", 0))
    if not fighting_figures(s, "FFL"):
        return game_over(s, tx, "Arab", "the garrison is wiped out")
    if not fighting_figures(s, "Arab"):
        return end_attack(s, tx, "the Arabs were wiped out")
    if s.act.leader_chip:
        leader = next((u for u in s.units if u.chip == s.act.leader_chip), None)
        if leader is not None and leader.alive:
            return leader_menu(s, leader.name, s.act.used)
    return draw(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "unpin": _after_unpin,
}
