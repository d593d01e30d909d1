"""Who goes first: each side rolls a d6 at the start of every turn."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.rules.core import Action, DiceGroup, DieKind, Odds, Outcome, Params, RollRequest
from companion.rules.grammar import agree
from companion.rules.odds import odds_from_outcomes

# The headline names who goes first ("Goes first: British"); the box takes the sides'
# names from the roll-off's odds.
LABEL = "goes first (0 = tie)"

SIDE_ONE_FIRST = 1
SIDE_TWO_FIRST = 2
TIE = 0


def who_goes_first(side_one_die: int, side_two_die: int) -> int:
    """1 or 2 for the side that goes first; 0 for a tie (both roll again)."""
    if side_one_die > side_two_die:
        return SIDE_ONE_FIRST
    if side_two_die > side_one_die:
        return SIDE_TWO_FIRST
    return TIE


def initiative_request(params: Params) -> RollRequest:
    return RollRequest(
        "Who goes first: each side rolls a d6, high goes first",
        (
            DiceGroup(DieKind.D6, 1, "first side", "higher die goes first; tie rolls again"),
            DiceGroup(DieKind.D6, 1, "second side", "higher die goes first; tie rolls again"),
        ),
    )


def initiative_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    return initiative_outcome(params, dice, ("first side", "second side"))


def initiative_outcome(params: Params, dice: Sequence[int], sides: tuple[str, str]) -> Outcome:
    """The roll, its line naming the sides: the game passes the scenario's names
    ("British 3, Tribesmen 5: Tribesmen go first")."""
    (one,), (two,) = initiative_request(params).split(dice)
    winner = who_goes_first(one, two)
    rolled = f"{sides[0]} {one}, {sides[1]} {two}"
    if winner == TIE:
        return Outcome(
            TIE,
            LABEL,
            frozenset({"tie"}),
            (f"{rolled}: a tie, roll again",),
            follow_up=initiative_request(params),
        )
    return Outcome(
        winner,
        LABEL,
        details=(f"{rolled}: " + agree(sides[winner - 1], "goes first", "go first"),),
    )


def initiative_odds(params: Params) -> Odds:
    weighted = []
    for one in DieKind.D6.faces:
        for two in DieKind.D6.faces:
            winner = who_goes_first(one, two)
            effects = frozenset({"tie"}) if winner == TIE else frozenset()
            weighted.append((Fraction(1, 36), winner, effects))
    return odds_from_outcomes(LABEL, weighted)


WHO_GOES_FIRST = Action(
    name="who-goes-first",
    title="Who goes first",
    help="Each side rolls a d6; the higher goes first this turn; a tie rolls again.",
    params=(),
    request=initiative_request,
    resolve=initiative_resolve,
    odds=initiative_odds,
    examples=({},),
)
