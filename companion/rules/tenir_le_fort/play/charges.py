"""A charge: its target, the charge roll (berserk, in-fighting, falling short), the
defender's reaction (defensive fire, counter-charge or stand), then the close combat
in `melee`.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort.play.activation import end_activation
from companion.rules.tenir_le_fort.play.losses import remove_figures
from companion.rules.tenir_le_fort.play.melee import start_melee_stage
from companion.rules.tenir_le_fort.play.shooting import fire_range_stage
from companion.rules.tenir_le_fort.play.steps import ChoiceHandler, RollHandler, Tx, ask, does, roll
from companion.rules.tenir_le_fort.play.units import move_params, unpinnable
from companion.rules.tenir_le_fort.state import GameState, UnitState


def _after_charge_target(s: GameState, key: str, tx: Tx) -> GameState:
    u = s.unit(s.act.unit)
    name = key.split(":", 1)[1]
    s = replace(s, act=replace(s.act, target=name, defender=name))
    tx.say(does(s, u.name, "declares", "declare") + f" a charge on {name}.")
    return roll(s, "charge", "move", move_params(s, u, "charge"))


def _charging_unit_after_roll(s: GameState, u: UnitState, out: Outcome, tx: Tx) -> UnitState:
    """The charger or counter-charger as its roll leaves it: control, berserk, pin."""
    if "regained_control" in out.effects:
        u = replace(u, berserk=False)
        tx.say(does(s, u.name, "is", "are") + " back under control.")
    if "berserk" in out.effects:
        u = replace(u, berserk=True)
        tx.cues.add("berserk")
        tx.say(does(s, u.name, "goes", "go") + " berserk (a 6 on the charge)!")
    if "recovered" in out.effects:
        u = replace(u, pinned=False)
        tx.say(does(s, u.name, "is", "are") + " no longer pinned (a 5 or 6).")
    return u


def fall_to_infighting(s: GameState, u: UnitState, purpose: str, tx: Tx) -> GameState:
    """A band's tribes turn on each other instead: it is pinned and rolls for its losses."""
    s = s.with_unit(replace(u, pinned=True))
    tx.cues.add("pin")
    return roll(s, purpose, "infighting-losses", {"figures": min(u.figures, 60)})


def _after_charge(s: GameState, out: Outcome, tx: Tx) -> GameState:
    u = _charging_unit_after_roll(s, s.unit(s.act.unit), out, tx)
    s = s.with_unit(u)
    if "in-fighting" in out.effects:
        tx.say(does(s, u.name, "falls", "fall") + " to in-fighting instead of charging!")
        return fall_to_infighting(s, u, "infighting", tx)
    if u.berserk and not u.pinned:
        tx.say(
            does(s, u.name, "charges", "charge")
            + " home: berserk, the charge always makes contact."
        )
    elif not u.pinned:
        inches = counted(out.headline, "inch", "inches")
        tx.say(does(s, u.name, "charges", "charge") + f" up to {inches}.")
    if u.pinned:
        tx.say(does(s, u.name, "is", "are") + " pinned and cannot charge.")
        return end_activation(s, tx)
    if u.berserk:
        return _ask_reaction(s, tx)
    return ask(
        s,
        "charge_reach",
        f"Reached {s.act.target}?",
        [("yes", "Contact made"), ("no", "Fell short")],
        u.name,
    )


def _after_charge_reach(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "no":
        u = s.unit(s.act.unit)
        if unpinnable(s, u):
            tx.say(
                does(
                    s,
                    u.name,
                    "falls short: it does not move (its",
                    "fall short: they do not move (their",
                )
                + " mounted leader: not pinned)."
            )
            return end_activation(s, tx)
        s = s.with_unit(replace(u, pinned=True))
        tx.cues.add("pin")
        tx.say(
            does(
                s,
                u.name,
                "falls short: it does not move and is",
                "fall short: they do not move and are",
            )
            + " pinned."
        )
        return end_activation(s, tx)
    return _ask_reaction(s, tx)


def _ask_reaction(s: GameState, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    opts: list[tuple[str, str]] = []
    if d.side == "FFL" and not s.alerted:
        tx.say(
            does(s, d.name, "is", "are") + " caught unprepared; the fighting alerts the garrison."
        )
        s = replace(s, alerted=True)
        reacts = does(s, d.name, "reacts", "react") + "?"
        return ask(s, "reaction", reacts, [("stand", "Caught unready")], d.name)
    if d.kind in ("foot", "mounted", "tower") or (d.gun and not d.jammed and not d.broken):
        opts.append(("fire", "Defensive fire"))
    if d.kind in ("foot", "mounted"):
        opts.append(("counter", "Counter-charge"))
    opts.append(("stand", "Stand"))
    return ask(s, "reaction", does(s, d.name, "reacts", "react") + "?", opts, d.name)


def _after_reaction(s: GameState, key: str, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    if key == "stand":
        return start_melee_stage(s, tx)
    if key == "counter":
        return roll(s, "counter", "move", move_params(s, d, "counter_charge"))
    tx.say(does(s, d.name, "gives", "give") + " defensive fire.")
    return _fire_at_charger(s, d, "stationary", tx)


def _fire_at_charger(s: GameState, firer: UnitState, mode: str, tx: Tx) -> GameState:
    """The charged unit fires before the close combat; the charger counts as in the open."""
    s = replace(
        s,
        act=replace(
            s.act,
            firer=firer.name,
            target=s.act.unit,
            cover="none",
            after_fire="melee",
            mode=mode,
            hits=0,
            within=False,
        ),
    )
    return fire_range_stage(s, tx)


def _after_counter(s: GameState, out: Outcome, tx: Tx) -> GameState:
    d = s.unit(s.act.target)
    if "in-fighting" not in out.effects and not ("pinned" in out.effects and d.pinned):
        inches = counted(out.headline, "inch", "inches")
        tx.say(does(s, d.name, "counter-charges", "counter-charge") + f" up to {inches}.")
    d = _charging_unit_after_roll(s, d, out, tx)
    s = s.with_unit(d)
    if "in-fighting" in out.effects:
        tx.say(does(s, d.name, "falls", "fall") + " to in-fighting instead of counter-charging!")
        return fall_to_infighting(s, d, "counter_infighting", tx)
    if d.pinned:
        tx.say(
            does(
                s,
                d.name,
                "is pinned and cannot counter-charge: it stands",
                "are pinned and cannot counter-charge: they stand",
            )
            + "."
        )
        return start_melee_stage(s, tx)
    if d.side == "FFL" and d.figures >= 2:
        return _fire_at_charger(s, d, "moving", tx)
    return start_melee_stage(s, tx)


def _after_counter_infighting(s: GameState, out: Outcome, tx: Tx) -> GameState:
    tx.cues.add("death")
    s = remove_figures(s, s.act.defender, out.headline, tx)
    return start_melee_stage(s, tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "charge_target": _after_charge_target,
    "charge_reach": _after_charge_reach,
    "reaction": _after_reaction,
}

ROLLS: dict[str, RollHandler] = {
    "counter_infighting": _after_counter_infighting,
    "charge": _after_charge,
    "counter": _after_counter,
}
