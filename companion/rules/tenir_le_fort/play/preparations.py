"""Before the game and between the attacks: the Arabs' days of preparation, the FFL's
precautions, the secret relief day (and the Arabs' choice to attack at once when the
column would come first), and after the first attack whether the Arabs come again
and on which day.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.core import Outcome, counted
from companion.rules.tenir_le_fort.play.arrivals import relief_arrives, relief_pending
from companion.rules.tenir_le_fort.play.night_operations import ask_sabotage
from companion.rules.tenir_le_fort.play.steps import ChoiceHandler, RollHandler, Tx, ask, roll
from companion.rules.tenir_le_fort.play.turns import game_over
from companion.rules.tenir_le_fort.state import GameState


def ask_preparation(s: GameState) -> GameState:
    days = range(1, s.config.max_preparation_days + 1) if s.config.max_preparation_days else [0]
    return ask(
        s,
        "prep_days",
        "Arab days to prepare?",
        [(f"days:{d}", counted(d, "day")) for d in days],
        "before the game",
    )


def _after_prep_days(s: GameState, key: str, tx: Tx) -> GameState:
    days = int(key.split(":")[1])
    s = replace(s, preparation_days=days, day=days + 1)
    tx.say(
        f"The Arabs prepare for {counted(days, 'day')}; the first attack comes on day {days + 1}."
    )
    return _ask_ffl_prep(s)


def _ask_ffl_prep(s: GameState) -> GameState:
    opts: list[tuple[str, str]] = []
    if not s.patrols:
        opts.append(("patrols", "Increase patrols"))
    if s.mines < s.config.ffl_mines:
        opts.append(("mine", "Mine a building"))
    if s.config.sentries and not s.stand_to:
        opts.append(("stand_to", "Garrison stands to"))
    opts.append(("done", "Done preparing"))
    return ask(s, "ffl_prep", "FFL preparations?", opts, "before the game")


def _after_ffl_prep(s: GameState, key: str, tx: Tx) -> GameState:
    done = (*s.preparations, key)
    if key == "patrols":
        tx.say("FFL preparation: increased patrols (+1 to sentry rolls).")
        return _ask_ffl_prep(replace(s, patrols=True, preparations=done))
    if key == "mine":
        tx.say(f"FFL preparation: a building is mined ({s.mines + 1} in all).")
        return _ask_ffl_prep(replace(s, mines=s.mines + 1, preparations=done))
    if key == "stand_to":
        tx.say("FFL preparation: the garrison stands to; no one is caught off duty.")
        return _ask_ffl_prep(replace(s, stand_to=True, preparations=done))
    tx.say("The referee rolls in secret for the day the relief column arrives.")
    return roll(s, "relief_day", "reinforcement-day", {})


def _after_relief_day(s: GameState, out: Outcome, tx: Tx) -> GameState:
    s = replace(s, reinforcement_day=out.headline)
    if relief_pending(s) and out.headline < s.day:
        return _ask_attack_now(s, tx)
    tx.say("The relief day is noted in secret.")
    return ask_sabotage(s)


def _ask_attack_now(s: GameState, tx: Tx) -> GameState:
    """The column shows up before the assault (either attack): the Arabs may strike at once."""
    day = s.reinforcement_day
    tx.say(f"The relief column shows up on day {day}, before the assault.")
    return ask(
        s,
        "attack_now",
        "Relief sighted: attack?",
        [("now", f"Now (day {day})"), ("wait", f"As planned (day {s.day})")],
        f"relief on day {day}",
    )


def _after_attack_now(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "now":
        day = s.reinforcement_day
        s = replace(s, day=day)
        if not s.attack:
            s = replace(s, preparation_days=day - 1)
        tx.say(f"The Arabs attack at once, on day {day}, with the bands gathered by then.")
    s = relief_arrives(s, tx, into_bag=False)
    return ask_sabotage(s)


def _after_second_attack(s: GameState, key: str, tx: Tx) -> GameState:
    if key == "withdraw":
        return game_over(s, tx, "FFL", "the Arabs give up the siege")
    return roll(s, "next_attack", "next-attack-day", {"rule": s.config.next_attack_roll})


def _after_next_attack(s: GameState, out: Outcome, tx: Tx) -> GameState:
    last_attack_day = s.day
    s = replace(s, day=s.day + out.headline)
    tx.say(f"The next attack will come on day {s.day}.")
    if relief_pending(s) and last_attack_day < s.reinforcement_day < s.day:
        return _ask_attack_now(s, tx)
    return ask_sabotage(s)


# The questions this module answers, by purpose: game.py routes each answer here.
CHOICES: dict[str, ChoiceHandler] = {
    "prep_days": _after_prep_days,
    "ffl_prep": _after_ffl_prep,
    "attack_now": _after_attack_now,
    "second_attack": _after_second_attack,
}

ROLLS: dict[str, RollHandler] = {
    "relief_day": _after_relief_day,
    "next_attack": _after_next_attack,
}
