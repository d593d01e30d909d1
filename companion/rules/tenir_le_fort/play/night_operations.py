"""The night before an attack: an Arab sabotage party, then an FFL sortie, sneaking
past the sentries phase by phase (the roll is secret; a spotted party is destroyed),
and the sappers at the gate. Then the attack (`attack`). The sentry's dice are in
`sabotage.py`.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.attack import begin_attack
from companion.rules.tenir_le_fort.play.losses import damage_gate, remove_figures
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    other,
    roll,
)
from companion.rules.tenir_le_fort.play.units import combatants, fighting_figures
from companion.rules.tenir_le_fort.state import Act, GameState


def _phases(side: str) -> tuple[str, ...]:
    """The phases of a night operation: Arabs sneak in, the FFL sneak out."""
    return t.SABOTAGE_PHASES if side == "Arab" else t.SORTIE_PHASES


def ask_sabotage(s: GameState) -> GameState:
    opts = [("none", "No sabotage")]
    for u in combatants(s, "Arab"):
        if u.kind == "foot":
            opts.append((f"unit:{u.name}", u.name))
    return ask(s, "sabotage", "Arab sabotage tonight?", opts, f"night before day {s.day}")


def _after_sabotage(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "none":
        tx.say("No Arab sabotage tonight.")
        return _ask_sortie(replace(s, act=Act()), tx)
    name = key.split(":", 1)[1]
    s = replace(s, act=Act(sabotage_unit=name, sabotage_side="Arab"))
    targets = [("other", "Other target")]
    if not s.gate_destroyed:
        targets.insert(0, ("gate", "Blow the gate"))
    return ask(s, "sabotage_target", "Saboteurs' target?", targets, name)


def _ask_sortie(s: GameState, tx: Tx) -> GameState:
    opts = [("none", "No sortie")]
    for u in combatants(s, "FFL"):
        if u.kind == "foot" and u.figures >= 2:
            opts.append((f"unit:{u.name}", u.name))
    if len(opts) == 1 or not fighting_figures(s, "Arab"):
        return begin_attack(s, tx)
    return ask(s, "sortie", "FFL sortie tonight?", opts, f"night before day {s.day}")


def _after_sortie(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "none":
        tx.say("No FFL sortie tonight.")
        return begin_attack(s, tx)
    name = key.split(":", 1)[1]
    s = replace(s, act=Act(sabotage_unit=name, sabotage_side="FFL"))
    return _start_operation(s, "ambush", tx)


def _after_sabotage_target(s: GameState, key: str, tx: Tx) -> GameState:
    return _start_operation(s, key, tx)


def _start_operation(s: GameState, target: str, tx: Tx) -> GameState:
    side = s.act.sabotage_side
    party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
    who = "saboteurs" if side == "Arab" else "legionnaires"
    tx.say(f"{party} {who} from {s.act.sabotage_unit} creep out in the night ({target}).")
    s = replace(s, act=replace(s.act, sabotage_target=target, sabotage_phase=0))
    if side == "Arab":
        s = replace(s, arab_infiltrations=s.arab_infiltrations + 1)
    else:
        s = replace(s, ffl_infiltrations=s.ffl_infiltrations + 1)
    return _ask_sentry_view(s)


def _ask_sentry_view(s: GameState) -> GameState:
    """Only sentries near the party's path can spot it: the box cannot measure, so it asks."""
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tower_in, other_in = t.SENTRY_RANGE_TOWER, t.SENTRY_RANGE_OTHER
    return ask(
        s,
        "sentry_view",
        "Sentry within reach?",
        [("yes", f"Yes ({tower_in}/{other_in}in)"), ("no", "No sentry near")],
        f"night: {phase}",
    )


def _after_sentry_view(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "yes":
        return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tx.say(f"Night operation, {phase}: no sentry is close enough to see.")
    return _phase_succeeded(s, tx)


def _sabotage_params(s: GameState) -> dict[str, int | bool | str]:
    side = s.act.sabotage_side
    phases = _phases(side)
    phase = phases[s.act.sabotage_phase]
    unit = s.unit(s.act.sabotage_unit)
    tries = s.arab_infiltrations if side == "Arab" else s.ffl_infiltrations
    return {
        "sentry_side": other(side),
        "phase": phase,
        "patrols": s.patrols and side == "Arab",
        "previous_attempt": tries > 1,
        # the sneaking modifiers are on the Arab chart only
        "outside_fort": side == "Arab" and phase == "desert to wall",
        "grappling_hooks": side == "Arab" and phase == "over the wall" and unit.ladder == "hook",
        "tie": s.config.sentry_tie,
    }


def _after_sabotage_roll(s: GameState, out: Outcome, tx: Tx) -> GameState:
    side = s.act.sabotage_side
    phases = _phases(side)
    phase = phases[s.act.sabotage_phase]
    if "tie" in out.effects:
        tx.say(f"Night operation, {phase}: a tie, roll again.")
        return roll(s, "sabotage_roll", "sentry-roll", _sabotage_params(s))
    if "spotted" in out.effects:
        # the roll stays secret, the sentry's shout does not
        return ask(s, "party_spotted", "Sentry spots them!", [("ok", "Party destroyed")], phase)
    tx.say(f"Night operation, {phase}: unseen.")
    if s.act.sabotage_phase + 1 == len(phases) and s.act.sabotage_target != "gate":
        # the roll stays secret, but not the party's success: the referee must act on it,
        # and the attack that follows must not start inside the secret
        return ask(s, "party_through", "Party gets through!", [("ok", "Carry it out")], phase)
    return _phase_succeeded(s, tx)


def _after_party_through(s: GameState, key: str, tx: Tx) -> GameState:
    return _phase_succeeded(s, tx)


def _phase_succeeded(s: GameState, tx: Tx) -> GameState:
    if s.act.sabotage_phase + 1 < len(_phases(s.act.sabotage_side)):
        s = replace(s, act=replace(s.act, sabotage_phase=s.act.sabotage_phase + 1))
        return _ask_sentry_view(s)
    if s.act.sabotage_target == "gate":
        tx.say("The saboteurs reach the gate and light the fuse.")
        return roll(
            s,
            "sabotage_gate",
            "dynamite",
            {"use": "mine", "target": "gate", "gate_damage": min(s.gate_damage, 6)},
        )
    party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
    what = "sets up the ambush" if s.act.sabotage_target == "ambush" else "applies its result"
    tx.say(
        f"The operation succeeds: the party of {party} from {s.act.sabotage_unit} gets through;"
        f" the referee {what}."
    )
    return _after_operation(s, tx)


def _after_party_spotted(s: GameState, key: str, tx: Tx) -> GameState:
    unit = s.unit(s.act.sabotage_unit)
    party = min(t.SABOTEUR_MAX_FIGURES, unit.figures)
    phase = _phases(s.act.sabotage_side)[s.act.sabotage_phase]
    tx.say(f"Night operation, {phase}: spotted! The party of {party} is destroyed.")
    tx.cues.add("death")
    s = remove_figures(s, unit.name, party, tx, count_casualties=False)
    return _after_operation(s, tx)


def _after_sabotage_gate(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = damage_gate(s, out, tx)
    if "premature" in out.effects:
        tx.cues.add("death")
        party = min(t.SABOTEUR_MAX_FIGURES, s.unit(s.act.sabotage_unit).figures)
        if party > 1:
            opts = [(f"n:{n}", counted(n, "other")) for n in range(party)]
            return ask(s, "sabotage_premature", "Others within 1in?", opts, s.act.sabotage_unit)
        s = remove_figures(s, s.act.sabotage_unit, 1, tx, count_casualties=False)
    return _after_operation(s, tx)


def _after_sabotage_premature(s: GameState, key: str, tx: Tx) -> GameState:
    others = int(key.split(":")[1])
    tx.say(f"The blast kills the sapper and {counted(others, 'figure')} of the party.")
    s = remove_figures(s, s.act.sabotage_unit, 1 + others, tx, count_casualties=False)
    return _after_operation(s, tx)


def _after_operation(s: GameState, tx: Tx) -> GameState:
    """After the Arab operation comes the FFL's chance; after that the attack."""
    if s.act.sabotage_side == "Arab":
        return _ask_sortie(replace(s, act=Act()), tx)
    return begin_attack(replace(s, act=Act()), tx)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "sabotage": _after_sabotage,
    "sabotage_target": _after_sabotage_target,
    "sortie": _after_sortie,
    "sentry_view": _after_sentry_view,
    "party_spotted": _after_party_spotted,
    "party_through": _after_party_through,
    "sabotage_premature": _after_sabotage_premature,
}

ROLLS: dict[str, RollHandler] = {
    "sabotage_roll": _after_sabotage_roll,
    "sabotage_gate": _after_sabotage_gate,
}
