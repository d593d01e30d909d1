"""Activation: each side tosses a d10 each time; the winner activates one unit.

The side that lost adds +1 for every toss it has lost in a row; its bonus goes
back to zero when it wins. A tie is tossed again (bonuses unchanged).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    int_param,
)
from companion.rules.grammar import agree
from companion.rules.odds import odds_from_outcomes
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import D10_FACES

FIRST_WINS = 1
SECOND_WINS = 2
TIE = 0
# The headline names who activates ("Activates: Legion"); the box takes the sides'
# names from the roll-off's odds.
LABEL = "activates (0 = tie)"
#: One effect per result, so the box shows each side's chance of activating.
TOSS_EFFECTS = {FIRST_WINS: "first_activates", SECOND_WINS: "second_activates", TIE: "tie"}


def toss_winner(first_die: int, second_die: int, first_bonus: int, second_bonus: int) -> int:
    first = first_die + first_bonus
    second = second_die + second_bonus
    if first > second:
        return FIRST_WINS
    if second > first:
        return SECOND_WINS
    return TIE


def bonuses_after(winner: int, first_bonus: int, second_bonus: int) -> tuple[int, int]:
    """The winner's bonus drops to zero; the loser's grows by one. A tie changes nothing."""
    if winner == FIRST_WINS:
        return 0, second_bonus + tables.ACTIVATION_LOSS_BONUS
    if winner == SECOND_WINS:
        return first_bonus + tables.ACTIVATION_LOSS_BONUS, 0
    return first_bonus, second_bonus


PARAMS = (
    Param("first_bonus", ParamKind.INT, "the first side's losses in a row", 0, 0, 50),
    Param("second_bonus", ParamKind.INT, "the second side's losses in a row", 0, 0, 50),
)


def toss_request(params: Params) -> RollRequest:
    a, b = int_param(params, "first_bonus"), int_param(params, "second_bonus")
    return RollRequest(
        "Activation toss: a d10 each, high total activates a unit",
        (
            DiceGroup(DieKind.D10, 1, "first side", f"0-9 (0 is zero) +{a}"),
            DiceGroup(DieKind.D10, 1, "second side", f"0-9 (0 is zero) +{b}"),
        ),
    )


def toss_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    return toss_outcome(params, dice, ("first side", "second side"))


def toss_outcome(params: Params, dice: Sequence[int], sides: tuple[str, str]) -> Outcome:
    """The toss, its lines naming the sides: the game passes the scenario's names
    ("Legion 7+0 = 7, Arabs 0+0 = 0: Legion activates a unit")."""
    (one,), (two,) = toss_request(params).split(dice)
    a, b = int_param(params, "first_bonus"), int_param(params, "second_bonus")
    winner = toss_winner(one, two, a, b)
    first, second = sides
    line = f"{first} {one}+{a} = {one + a}, {second} {two}+{b} = {two + b}"
    if winner == TIE:
        return Outcome(
            TIE,
            LABEL,
            frozenset({TOSS_EFFECTS[TIE]}),
            (line + ": a tie, toss again",),
            follow_up=toss_request(params),
        )
    na, nb = bonuses_after(winner, a, b)
    return Outcome(
        winner,
        LABEL,
        frozenset({TOSS_EFFECTS[winner]}),
        (
            line + ": " + agree(sides[winner - 1], "activates a unit", "activate a unit"),
            f"bonuses now {first} +{na}, {second} +{nb}",
        ),
    )


def toss_odds(params: Params) -> Odds:
    a, b = int_param(params, "first_bonus"), int_param(params, "second_bonus")
    weighted = []
    for one in D10_FACES:
        for two in D10_FACES:
            w = toss_winner(one, two, a, b)
            weighted.append((Fraction(1, 100), w, frozenset({TOSS_EFFECTS[w]})))
    return odds_from_outcomes(LABEL, weighted)


ACTIVATION_TOSS = Action(
    name="activation-toss",
    title="Activation toss",
    help="Each side rolls a d10 (0 is zero) plus +1 per toss lost in a row; the higher "
    "activates one unit; a tie tosses again.",
    params=PARAMS,
    request=toss_request,
    resolve=toss_resolve,
    odds=toss_odds,
    examples=({}, {"first_bonus": 2}, {"second_bonus": 9}),
)
