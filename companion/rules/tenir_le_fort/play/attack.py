"""The start of an attack: the bands that have joined, the relief if due, ammunition
and water before the second attack, the FFL's deployment and the tower's men; then
command points (`turns`).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.arrivals import gather_bands, relief_arrives
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    roll,
    yes_no,
)
from companion.rules.tenir_le_fort.play.turns import game_over, start_command_points
from companion.rules.tenir_le_fort.play.units import fighting_figures, move_men, tower
from companion.rules.tenir_le_fort.state import Act, GameState


def begin_attack(s: GameState, tx: Tx) -> GameState:
    s = gather_bands(s, tx)
    if not fighting_figures(s, "FFL"):
        return game_over(s, tx, "Arab", "the garrison is gone before the attack")
    if not fighting_figures(s, "Arab"):
        return game_over(s, tx, "FFL", "the Arab force is gone before the attack")
    attack = s.attack + 1
    units = tuple(replace(u, pinned=False, berserk=False) for u in s.units)
    s = replace(
        s,
        alerted=not s.config.sentries or s.stand_to,
        tower_climb=("", 0),
        attack=attack,
        turn=0,
        casualties=0,
        units=units,
        act=Act(),
        resolve_inside=False,
        resolve_oasis=False,
    )
    tx.say(f"=== Attack {attack}, day {s.day} ===")
    if not s.alerted:
        tx.say("Only the sentries are awake: the FFL act once the alarm is raised.")
    if s.reinforcement_day and s.reinforcement_day < s.day and not s.relief_arrived:
        s = relief_arrives(s, tx, into_bag=False)
    tx.say("The Arabs mark their starting positions on a map (36 inches out or out of sight).")
    if attack > 1 and not s.supply_through:
        return roll(s, "ammo", "ammunition", {"eleven": s.config.ammo_eleven})
    return _after_ammo_stage(s, tx)


def _after_ammo(s: GameState, out: Outcome, tx: Tx) -> GameState:
    level = {1: "normal", 2: "half", 3: "third"}[out.headline]
    tx.say(
        f"FFL ammunition: {level}."
        + (" No Maxim or artillery ammunition." if level == "third" else "")
    )
    s = replace(s, ammo=level)
    return _after_ammo_stage(s, tx)


def _after_ammo_stage(s: GameState, tx: Tx) -> GameState:
    if s.attack > 1:
        return yes_no(s, "water_ffl", "FFL have water?", "second attack", yes_first=True)
    return _ask_deploy(s, tx)


def _after_water_ffl(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, ffl_low_water=key == "no")
    return yes_no(s, "water_arab", "Arabs have water?", "second attack", yes_first=True)


def _after_water_arab(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, arab_low_water=key == "no")
    low = [side for side, low in (("FFL", s.ffl_low_water), ("Arab", s.arab_low_water)) if low]
    tx.say("Low on water (-1 in close combat): " + (", ".join(low) if low else "nobody") + ".")
    return _ask_deploy(s, tx)


def _ask_deploy(s: GameState, tx: Tx) -> GameState:
    tw = tower(s)
    donor = s.config.tower_donor
    if tw is not None and donor and s.unit(donor).alive:
        avail = s.unit(donor).figures + tw.figures - 1
        opts = [
            (f"tower:{n}", f"{n} in the tower") for n in range(min(t.TOWER_CAPACITY, avail), -1, -1)
        ]
        if opts:
            return ask(s, "deploy", "FFL deploy: tower?", opts, donor)
    tx.say("The FFL deploy in the fort, the oasis and the village.")
    return start_command_points(s, tx)


def _after_deploy(s: GameState, key: str, tx: Tx) -> GameState:
    n = int(key.split(":")[1])
    tw = tower(s)
    assert tw is not None
    donor = s.config.tower_donor
    s = move_men(s, tw.name, donor, tw.figures)  # last attack's tower men rejoin first
    s = move_men(s, donor, tw.name, n)
    if n:
        climbers = f"{counted(n, 'legionnaire')} from {donor} {'climbs' if n == 1 else 'climb'}"
        tx.say(f"The FFL deploy; {climbers} the tower.")
    else:
        tx.say("The FFL deploy; nobody climbs the tower.")
    return start_command_points(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "deploy": _after_deploy,
    "water_ffl": _after_water_ffl,
    "water_arab": _after_water_arab,
}

ROLLS: dict[str, RollHandler] = {
    "ammo": _after_ammo,
}
