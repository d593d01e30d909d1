"""An attack's turns: command points (once per attack or every turn), the chip bag
and its draw, the end of a turn with the Arab resolve check, the next turn, the end
of an attack and of the game.

A finished activation comes back here for the next chip (`activation.end_activation`).
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.chipbag import ChipBag
from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.play.arrivals import bands_to_come
from companion.rules.tenir_le_fort.play.steps import (
    ChoiceHandler,
    RollHandler,
    Tx,
    ask,
    cost,
    roll,
    spend,
    yes_no,
)
from companion.rules.tenir_le_fort.play.units import fighting_figures, free_commanders, has_command
from companion.rules.tenir_le_fort.state import Act, AskChip, GameState, Over


def start_command_points(s: GameState, tx: Tx) -> GameState:
    if has_command(s, "FFL"):
        return roll(s, "cp_ffl", "command-points", {"side": "FFL", "halved": s.ffl_lost_captain})
    tx.say("The FFL have no command figure: no command points.")
    return _cp_arab(s, tx)


def _after_cp_ffl(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, cp_ffl=s.cp_ffl + out.headline)
    tx.say(f"FFL command points: +{out.headline} = {s.cp_ffl}.")
    return _cp_arab(s, tx)


def _cp_arab(s: GameState, tx: Tx) -> GameState:
    if has_command(s, "Arab"):
        return roll(s, "cp_arab", "command-points", {"side": "Arab", "halved": s.arab_lost_leader})
    tx.say("The Arabs have no command figure: no command points.")
    return _after_cp(s, tx)


def _after_cp_arab(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, cp_arab=s.cp_arab + out.headline)
    tx.say(f"Arab command points: +{out.headline} = {s.cp_arab}.")
    return _after_cp(s, tx)


def _after_cp(s: GameState, tx: Tx) -> GameState:
    if s.turn == 0:
        tx.say("The Arabs place their units as mapped.")
        s = replace(s, turn=1, bag=ChipBag.of(_chips_in_play(s)))
        tx.say(f"Turn 1: {counted(len(s.bag.in_bag), 'chip')} in the bag.")
    return draw(s, tx)


def _chips_in_play(s: GameState) -> list[str]:
    return [u.chip for u in s.units if u.alive and u.chip]


def draw(s: GameState, tx: Tx) -> GameState:
    s = replace(s, act=Act())
    if s.bag.empty:
        return _end_of_turn(s, tx)
    return replace(s, pending=AskChip(f"Attack {s.attack} turn {s.turn}: draw a chip"))


def _end_of_turn(s: GameState, tx: Tx) -> GameState:
    tx.cues.add("turn_end")
    casualties = counted(s.casualties, "Arab casualty", "Arab casualties")
    tx.say(f"End of turn {s.turn}: {casualties} this attack.")
    need = t.resolve_needed(s.casualties, first_band_from=s.config.resolve_threshold)
    if need is not None:
        return yes_no(s, "resolve_inside", "Arabs inside fort?", "resolve check")
    return _next_turn(s, tx)


def _after_resolve_inside(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, resolve_inside=key == "yes")
    return yes_no(s, "resolve_oasis", "Arabs hold oasis?", "resolve check")


def _after_resolve_oasis(s: GameState, key: str, tx: Tx) -> GameState:
    s = replace(s, resolve_oasis=key == "yes")
    return _ask_resolve_cp(s, tx)


def _resolve_params(s: GameState, cp: int) -> dict[str, int | bool | str]:
    return {
        "casualties": s.casualties,
        "inside_fort": s.resolve_inside,
        "oasis": s.resolve_oasis,
        "command_points": cp,
        "first_band": str(s.config.resolve_threshold),
    }


def _ask_resolve_cp(s: GameState, tx: Tx) -> GameState:
    each = cost("Arab", "resolve")
    if s.cp_arab >= each and free_commanders(s, "Arab"):
        # +5 already makes the lowest roll stay: more would be wasted
        most = min(s.cp_arab // each, 5)
        opts = [(f"cp:{n}", f"Spend {n * each} CP") for n in range(0, most + 1)]
        return ask(s, "resolve_cp", "Arab CP on resolve?", opts, "resolve check")
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, 0))


def _after_resolve_cp(s: GameState, key: str, tx: Tx) -> GameState:
    n = int(key.split(":")[1])
    if n:
        s = spend(s, "Arab", "resolve", tx, f"+{n} on the resolve roll", times=n)
    return roll(s, "resolve", "arab-resolve", _resolve_params(s, n))


def _after_resolve(s: GameState, out: Outcome, tx: Tx) -> GameState:
    if "resolve_failed" in out.effects:
        tx.cues.add("resolve_failed")
        tx.say(f"Arab resolve fails ({_resolve_sum(s, out)}): they fall back. The attack is over.")
        return end_attack(s, tx, "the Arabs fell back")
    tx.say(f"Arab resolve holds ({_resolve_sum(s, out)}): the attack goes on.")
    return _next_turn(s, tx)


def _resolve_sum(s: GameState, out: Outcome) -> str:
    """The resolve roll's total against the number it needed: "7, needs 2"."""
    need = t.resolve_needed(s.casualties, first_band_from=s.config.resolve_threshold)
    return f"{out.headline}, needs {need}"


def _next_turn(s: GameState, tx: Tx) -> GameState:
    if s.config.turn_limit and s.turn >= s.config.turn_limit:
        tx.say(f"Turn limit ({s.config.turn_limit}) reached: night falls and the attack ends.")
        return end_attack(s, tx, "night fell")
    s = replace(s, turn=s.turn + 1, bag=s.bag.refill())
    tx.say(f"Turn {s.turn}: {counted(len(s.bag.in_bag), 'chip')} in the bag.")
    if s.config.cp_per_turn:
        return start_command_points(s, tx)
    return draw(s, tx)


def end_attack(s: GameState, tx: Tx, reason: str) -> GameState:
    s = replace(s, act=Act())
    if not fighting_figures(s, "FFL"):
        return game_over(s, tx, "Arab", "the garrison is wiped out")
    if not fighting_figures(s, "Arab") and not bands_to_come(s):
        return game_over(s, tx, "FFL", "the Arab force is destroyed")
    if s.attack >= 2:
        return game_over(s, tx, "FFL", f"{reason} on the last attack: the fort holds")
    return ask(
        s,
        "second_attack",
        "Arabs attack again?",
        [("attack", "Attack again"), ("withdraw", "Withdraw")],
        "after attack 1",
    )


def game_over(s: GameState, tx: Tx, winner: str, reason: str) -> GameState:
    tx.cues.add("game_over")
    tx.say(f"Game over: {winner} won ({reason}).")
    return replace(s, pending=Over(winner, reason), act=Act())


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "resolve_inside": _after_resolve_inside,
    "resolve_oasis": _after_resolve_oasis,
    "resolve_cp": _after_resolve_cp,
}

ROLLS: dict[str, RollHandler] = {
    "cp_ffl": _after_cp_ffl,
    "cp_arab": _after_cp_arab,
    "resolve": _after_resolve,
}
