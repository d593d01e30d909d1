"""What a unit does with the action picked from its menu: a sentry's chance to see
Arabs moving before the alarm, moving (guns, ladders set at the wall, move and fire,
in-fighting, unpinning), going into the fort, joining a led unit, a hero manning a
gun, and the start of fire, charges, ladder assaults and dynamite.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, RulesError, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.activation import (
    charge_targets,
    end_activation,
    join_hosts,
    offer_unpin,
    unmanned_guns,
)
from companion.rules.tenir_le_fort.play.charges import fall_to_infighting
from companion.rules.tenir_le_fort.play.losses import check_destroyed, remove_figures
from companion.rules.tenir_le_fort.play.shooting import ask_target, gun_roll
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    does,
    other,
    roll,
    yes_no,
)
from companion.rules.tenir_le_fort.play.units import combatants, led, move_men, move_params
from companion.rules.tenir_le_fort.state import GameState

SNEAKY_ACTIONS = ("move", "charge", "ladder", "assault")


NOISY_ACTIONS = ("fire", "dynamite")


def _after_unit_action(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    s = replace(s, act=replace(s.act, action=key, firer=u.name))
    if u.side == "Arab" and not s.alerted:
        if key in NOISY_ACTIONS:
            tx.say("The shooting wakes the garrison: the FFL are alerted.")
            s = replace(s, alerted=True)
        elif key in SNEAKY_ACTIONS:
            return ask(
                s,
                "sentry_sight",
                "Seen by a sentry?",
                [("no", "Out of sight"), ("yes", f"In sight, within {t.SENTRY_RANGE_OTHER}in")],
                u.name,
            )
    return _do_unit_action(s, key, tx)


def _after_sentry_sight(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "no":
        return _do_unit_action(s, s.act.action, tx)
    return roll(s, "sentry", "sentry-roll", _sentry_params(s))


def _sentry_params(s: GameState) -> dict[str, int | bool | str]:
    return {
        "sentry_side": "FFL",
        "phase": "unit moving",
        "patrols": s.patrols,
        "outside_fort": True,
        "tie": s.config.sentry_tie,
    }


def _after_sentry(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if "tie" in out.effects:
        return roll(s, "sentry", "sentry-roll", _sentry_params(s))
    if "spotted" in out.effects:
        return ask(s, "alarm", "A sentry sees them!", [("ok", "Raise the alarm")], s.act.unit)
    else:
        tx.say(does(s, s.act.unit, "moves", "move") + " unseen.")
    return _do_unit_action(s, s.act.action, tx)


def _after_alarm(s: GameState, key: str, tx: Tx) -> GameState:
    tx.say(f"A sentry spots {s.act.unit} and raises the alarm: the FFL are alerted.")
    return _do_unit_action(replace(s, alerted=True), s.act.action, tx)


def _do_unit_action(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "pass" and u.berserk:
        # berserk lasts until the unit is gone or no enemy is in sight: this is the latter
        tx.say(does(s, u.name, "sees", "see") + " no enemy: the berserk fury passes.")
        return end_activation(s.with_unit(replace(u, berserk=False)), tx)
    if key == "pass":
        tx.say(does(s, u.name, "passes", "pass") + ".")
        return end_activation(s, tx)
    if key == "fire":
        if u.gun and u.jammed and not s.config.jam_clear_fires:
            return gun_roll(s, tx)
        return ask_target(s, u)
    if key in ("move", "move_fire", "ladder"):
        if u.gun:
            men = min(u.figures, 5)
            params: dict[str, int | bool | str] = {
                "gun": u.kind,
                "men": men,
                "leader": led(s, u),
                "pinned": u.pinned,
            }
            return roll(s, "move", "move-gun", params)
        return roll(
            s, "move", "move", move_params(s, u, "move_and_fire" if key == "move_fire" else "move")
        )
    if key == "fort":
        tx.say(
            does(s, u.name, "is", "are") + " inside the fort: ammunition for the rest of the siege."
        )
        s = replace(s, supply_through=True, ammo="normal")
        s = s.with_unit(replace(u, present=False))
        return end_activation(replace(s, bag=s.bag.remove(u.chip)), tx)
    if key == "hero_gun":
        opts = [(f"unit:{g.name}", g.name) for g in unmanned_guns(s)]
        return ask(s, "hero_gun", "Hero mans which gun?", opts, u.name)
    if key == "charge":
        opts = [(f"target:{e.name}", e.name) for e in charge_targets(s, u)]
        return ask(
            s, "charge_target", does(s, u.name, "charges", "charge") + " whom?", opts, u.name
        )
    if key == "assault":
        opts = [
            (f"target:{e.name}", e.name)
            for e in combatants(s, "FFL")
            if e.kind in ("foot", "tower", "maxim", "artillery")
        ]
        opts.append(("clear", f"None within {t.LADDER_DEFENDER_REACH_INCHES}in"))
        return ask(s, "wall_defender", "FFL on the wall?", opts, u.name)
    if key == "dynamite":
        opts = [(f"target:{e.name}", e.name) for e in combatants(s, other(u.side))]
        if u.side == "Arab" and not s.gate_destroyed:
            opts.append(("gate", "The gate"))
        prompt = f"Dynamite at? ({t.GRENADE_RANGE_INCHES}in)"
        return ask(s, "dynamite_target", prompt, opts, u.name)
    if key == "join":
        opts = [(f"unit:{v.name}", v.name) for v in join_hosts(s, u)]
        return ask(s, "join_unit", does(s, u.name, "joins", "join") + "?", opts, u.name)
    raise RulesError(f"unknown action {key!r}")


def _after_move(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
        tx.say(does(s, u.name, "is", "are") + " no longer pinned (a 5 or 6).")
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(does(s, u.name, "is", "are") + " back under control.")
    failed = "pinned" in out.effects and u.pinned
    if "in-fighting" in out.effects:
        tx.say(does(s, u.name, "falls", "fall") + " to in-fighting!")
        return fall_to_infighting(s, u, "infighting", tx)
    s = s.with_unit(u)
    if out.headline:
        tx.say(
            does(s, u.name, "moves", "move") + f" up to {counted(out.headline, 'inch', 'inches')}."
        )
    elif failed:
        tx.say(
            does(s, u.name, "stays pinned (no 5 or 6) and does", "stay pinned (no 5 or 6) and do")
            + " not move."
        )
    elif out.details:
        tx.say(f"{u.name}: {out.details[-1]}.")
    if failed:
        return offer_unpin(s, tx)
    if s.act.action == "ladder" and out.headline:
        return yes_no(s, "at_wall", "At the wall?", u.name, yes_first=True)
    if s.act.action == "move_fire" and out.headline:
        s = replace(s, act=replace(s.act, mode="moving"))
        return ask_target(s, s.unit(u.name))
    return end_activation(s, tx)


def _after_at_wall(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    if key == "yes":
        s = s.with_unit(replace(u, ladder_placed=True))
        tx.say(
            does(s, u.name, f"sets its {u.ladder}", f"set their {u.ladder}")
            + " against the wall: the climb comes on the next activation."
        )
    else:
        tx.say(does(s, u.name, "is", "are") + " not at the wall yet.")
    return end_activation(s, tx)


def _after_infighting(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.cues.add("death")
    s = remove_figures(s, s.act.unit, out.headline, tx)
    return end_activation(s, tx)


def _after_hero_gun(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    g = s.unit(key.split(":", 1)[1])
    s = s.with_unit(replace(g, side="FFL", figures=0, wounded=0, heroes=0))
    s = move_men(s, u.name, g.name, u.figures)  # everyone over, then all but the hero back
    s = move_men(s, g.name, u.name, u.figures - 1)
    if g.chip:
        s = replace(s, bag=s.bag.add_next_turn(g.chip))
    tx.say(f"The hero of {u.name} mans the {g.name}, no command points needed.")
    s = check_destroyed(s, u.name, tx)
    return end_activation(s, tx)


def _after_join(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    host = s.unit(key.split(":", 1)[1])
    s = move_men(s, u.name, host.name, u.figures)
    if u.carrying_dead:
        s = s.with_unit(replace(s.unit(host.name), carrying_dead=True))
    s = replace(s, bag=s.bag.remove(u.chip))
    tx.say(does(s, u.name, "joins", "join") + f" {host.name}.")
    return end_activation(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "sentry_sight": _after_sentry_sight,
    "alarm": _after_alarm,
    "unit_action": _after_unit_action,
    "join_unit": _after_join,
    "hero_gun": _after_hero_gun,
    "at_wall": _after_at_wall,
}

ROLLS: dict[str, RollHandler] = {
    "sentry": _after_sentry,
    "move": _after_move,
    "infighting": _after_infighting,
}
