"""What a leader's chit does: the tower or a gun fires, a mine goes off, command
points buy an extra turn, a hero, a gun's new crew, men up or down the tower or a
captured Maxim's crew; the leader joins or leaves a unit; and on an FFL leader's chit
the secret roll for the relief column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.rules.core import Outcome, RulesError, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.activation import (
    arab_crews,
    extra_turn_units,
    hero_units,
    leader_hosts,
    leader_menu,
    recrew_donors,
    tower_hosts,
    unit_menu,
    unmanned_guns,
)
from companion.rules.tenir_le_fort.play.arrivals import relief_arrives
from companion.rules.tenir_le_fort.play.shooting import ask_target, gun_roll
from companion.rules.tenir_le_fort.play.steps import ChoiceHandler, RollHandler, Tx, ask, spend
from companion.rules.tenir_le_fort.play.turns import draw
from companion.rules.tenir_le_fort.play.units import combatants, move_men, tower
from companion.rules.tenir_le_fort.state import GameState, UnitState

#: The leader's options that pick a unit: the question's purpose (persisted: a journaled
#: game's pending question names it), its words, and the units offered.
UNIT_PICKS: dict[str, tuple[str, str, Callable[[GameState, UnitState], list[UnitState]]]] = {
    "extra_turn": ("extra_unit", "Extra turn for?", lambda s, ldr: extra_turn_units(s, ldr.side)),
    "hero": ("hero_unit", "Hero in which unit?", lambda s, ldr: hero_units(s)),
    "recrew": ("recrew_gun", "Re-crew which gun?", lambda s, ldr: unmanned_guns(s)),
    "tower": ("tower_donor", "Tower men from?", lambda s, ldr: recrew_donors(s)),
    "tower_down": ("tower_down", "Tower men join?", lambda s, ldr: tower_hosts(s)),
    "crew_mg": ("crew_mg", "Crew taken from?", lambda s, ldr: arab_crews(s)),
    "attach": ("attach", "{leader} joins?", leader_hosts),
}


def _after_leader_menu(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    used = (*s.act.used, key)
    s = replace(s, act=replace(s.act, used=used))
    if key == "done":
        tx.say(f"{leader.name} is done.")
        return draw(s, tx)
    if key == "tower_fire":
        s = replace(s, act=replace(s.act, firer="Tower", action="fire"))
        return ask_target(s, s.unit("Tower"))
    if key.startswith("gun:"):
        g = s.unit(key[4:])
        s = replace(s, act=replace(s.act, firer=g.name, action="fire"))
        if g.jammed and not s.config.jam_clear_fires:
            return gun_roll(s, tx)
        return ask_target(s, g)
    if key == "mine":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, "Arab")]
        return ask(s, "mine_target", "Mine under whom?", opts, leader.name)
    if key in UNIT_PICKS:
        purpose, question, units = UNIT_PICKS[key]
        opts = [(f"unit:{u.name}", u.name) for u in units(s, leader)]
        return ask(s, purpose, question.format(leader=leader.name), opts, leader.name)
    if key == "leave":
        tx.say(f"{leader.name} leaves {leader.attached_to} and stands alone.")
        s = s.with_unit(replace(leader, attached_to=""))
        return leader_menu(s, leader.name, used)
    raise RulesError(f"unknown leader option {key!r}")


def _after_relief_arrival(s: GameState, out: Outcome, tx: Tx) -> GameState:
    # this roll's play-by-play stays secret; an arrival is announced by the next step
    if "arrived" in out.effects:
        return ask(s, "relief_here", "Relief column here!", [("ok", "Onto the table")], "relief")
    tx.say("No sign of the relief column.")
    return leader_menu(s, s.act.unit, s.act.used)


def _after_relief_here(s: GameState, key: str, tx: Tx) -> GameState:
    s = relief_arrives(s, tx, into_bag=True)
    return leader_menu(s, s.act.unit, s.act.used)


def _after_extra_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = spend(s, leader.side, "extra_turn", tx, f"an extra turn for {name} on {leader.name}'s chit")
    return unit_menu(s, name, leader.chip, s.act.used)


def _after_hero_unit(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    u = s.unit(key.split(":", 1)[1])
    s = spend(s.with_unit(replace(u, heroes=u.heroes + 1)), "FFL", "hero", tx, "a hero")
    tx.say(f"A hero rises in {u.name}.")
    return leader_menu(s, leader.name, s.act.used)


def _after_recrew_gun(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, act=replace(s.act, target=key.split(":", 1)[1]))
    opts = [(f"unit:{u.name}", u.name) for u in recrew_donors(s)]
    return ask(s, "recrew_donor", "Crew taken from?", opts, s.act.unit)


def _after_recrew(s: GameState, key: str, tx: Tx) -> GameState:
    s = _man_gun(s, s.act.target, key.split(":", 1)[1], "FFL", tx)
    s = spend(s, "FFL", "recrew", tx, f"re-crewing the {s.act.target}")
    return leader_menu(s, s.act.unit, s.act.used)


def _after_crew_mg(s: GameState, key: str, tx: Tx) -> GameState:
    g = next(g for g in unmanned_guns(s) if g.kind == "maxim")
    s = _man_gun(s, g.name, key.split(":", 1)[1], "Arab", tx)
    s = spend(s, "Arab", "crew_captured_mg", tx, f"crewing the captured {g.name}")
    return leader_menu(s, s.act.unit, s.act.used)


def _man_gun(s: GameState, gun: str, donor: str, side: str, tx: Tx) -> GameState:
    """Men of a unit take over an unmanned gun (a full crew, leaving one man behind)."""
    g = s.unit(gun)
    men = min(t.FULL_CREW[g.kind], s.unit(donor).figures - 1)
    s = s.with_unit(replace(g, side=side, figures=0, wounded=0, heroes=0))
    s = move_men(s, donor, gun, men)
    if g.chip:
        s = replace(s, bag=s.bag.add_next_turn(g.chip))
    tx.say(f"{counted(men, 'man', 'men')} of {donor} {'mans' if men == 1 else 'man'} the {gun}.")
    return s


def _after_tower_donor(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    donor = key.split(":", 1)[1]
    tw = tower(s)
    assert tw is not None
    s = replace(s, tower_climb=(donor, t.TOWER_CAPACITY - tw.figures))
    s = spend(s, "FFL", "tower", tx, "men into the tower")
    tx.say(
        f"Men of {donor} go to the foot of the tower; "
        "they reach the top at the end of that unit's next activation."
    )
    return leader_menu(s, leader.name, s.act.used)


def _after_tower_down(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    host = s.unit(key.split(":", 1)[1])
    tw = tower(s)
    assert tw is not None
    s = move_men(s, tw.name, host.name, tw.figures)
    s = spend(s, "FFL", "tower", tx, "men out of the tower")
    tx.say(f"The men in the tower come down and join {host.name}.")
    return leader_menu(s, leader.name, s.act.used)


def _after_attach(s: GameState, key: str, tx: Tx) -> GameState:
    leader = s.unit(s.act.unit)
    host = key.split(":", 1)[1]
    s = s.with_unit(replace(leader, attached_to=host))
    tx.say(f"{leader.name} joins {host}: the unit has his bonuses while he stays.")
    return leader_menu(s, leader.name, s.act.used)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "relief_here": _after_relief_here,
    "leader_menu": _after_leader_menu,
    "extra_unit": _after_extra_unit,
    "hero_unit": _after_hero_unit,
    "recrew_gun": _after_recrew_gun,
    "recrew_donor": _after_recrew,
    "tower_donor": _after_tower_donor,
    "tower_down": _after_tower_down,
    "crew_mg": _after_crew_mg,
    "attach": _after_attach,
}

ROLLS: dict[str, RollHandler] = {
    "relief_arrival": _after_relief_arrival,
}
