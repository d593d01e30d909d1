"""Losses: figures removed (Arab casualties counted for resolve), a unit destroyed, a
leader wounded or killed (and what that costs his side), and damage to the gate.

Where fire, blasts, close combat and night operations all end up, so it imports
none of them.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.steps import Tx, does
from companion.rules.tenir_le_fort.play.units import attached_commanders
from companion.rules.tenir_le_fort.state import GameState


def remove_figures(
    s: GameState, name: str, n: int, tx: Tx, *, count_casualties: bool = True
) -> GameState:
    u = s.unit(name)
    lost = min(n, u.figures)
    left = u.figures - lost
    s = s.with_unit(
        replace(u, figures=left, wounded=min(u.wounded, left), heroes=min(u.heroes, left))
    )
    if u.side == "Arab" and count_casualties:
        s = replace(s, casualties=s.casualties + lost, total_casualties=s.total_casualties + lost)
    if lost:
        tx.say(
            does(s, name, "loses", "lose") + f" {counted(lost, 'figure')}; {u.figures - lost} left."
        )
    return check_destroyed(s, name, tx)


def check_destroyed(s: GameState, name: str, tx: Tx) -> GameState:
    u = s.unit(name)
    if u.figures > 0 or not u.present or u.command_figure:
        return s
    s = s.with_unit(replace(u, figures=0, wounded=0, heroes=0))
    if u.kind == "tower":
        tx.say("The tower is empty.")
        return s
    if u.gun:
        tx.say(f"The {u.name} has no crew left.")
        return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s
    tx.say(does(s, u.name, "is", "are") + " destroyed.")
    if u.leader:
        # its own leader falls with it; leaders with their own chit are left standing alone
        s = lose_leader(s, name, u.leader, tx)
    for c in attached_commanders(s, name):
        s = s.with_unit(replace(c, attached_to=""))
        tx.say(f"{c.name} is left standing alone.")
    return replace(s, bag=s.bag.remove(u.chip)) if u.chip else s


def lose_leader(s: GameState, unit_name: str, leader_name: str, tx: Tx) -> GameState:
    """A leader dies: a command figure leaves the game, a unit's own leader leaves the unit.

    Legionnaires carry their dead officers; an Arab leader counts as a casualty;
    the Captain's or a mounted leader's death halves the side's command points.
    """
    u = s.unit(unit_name)
    own = u.leader == leader_name and not u.command_figure
    rank = u.rank if own or u.command_figure else s.unit(leader_name).rank
    tx.cues.add("death")
    tx.say(f"{leader_name} ({rank}) falls!")
    if rank == "mounted":
        s = replace(s, arab_lost_leader=True)
    if rank == "captain":
        s = replace(s, ffl_lost_captain=True)
    if u.side == "Arab":
        s = replace(s, casualties=s.casualties + 1, total_casualties=s.total_casualties + 1)
    if own:
        s = s.with_unit(replace(u, leader="", rank="", leader_wounded=False))
    else:
        figure = s.unit(leader_name)
        s = s.with_unit(replace(figure, figures=0, wounded=0, attached_to=""))
        s = replace(s, bag=s.bag.remove(figure.chip))
    if u.side == "FFL" and not u.command_figure and u.figures:
        s = s.with_unit(replace(s.unit(unit_name), carrying_dead=True))
        tx.say(
            does(s, unit_name, "carries the body: it loses its", "carry the body: they lose their")
            + " low die and cannot move and fire."
        )
    return s


def wound_leader(s: GameState, unit_name: str, leader_name: str, tx: Tx) -> GameState:
    u = s.unit(unit_name)
    if u.leader == leader_name and not u.command_figure:
        s = s.with_unit(replace(u, leader_wounded=True))
    else:
        figure = s.unit(leader_name)
        s = s.with_unit(replace(figure, wounded=1))
    tx.say(f"{leader_name} is wounded; wounded again he dies.")
    return s


def damage_gate(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if out.headline and not s.gate_destroyed:
        damage = s.gate_damage + out.headline
        destroyed = damage >= t.GATE_HITS
        tx.say(
            f"The gate takes {out.headline} damage ({damage} of {t.GATE_HITS})."
            + (" The gate is destroyed!" if destroyed else "")
        )
        return replace(s, gate_damage=damage, gate_destroyed=destroyed)
    return s
