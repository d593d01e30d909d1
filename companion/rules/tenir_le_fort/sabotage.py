"""Sentries and saboteurs: an opposed d6 roll at the end of each phase of a night
operation (and for a sentry watching an Arab unit move at the start of an attack).

Sentry and sneakers each roll 1d6 and add modifiers; the higher sentry spots
the party. The sentry's modifiers are on both charts (FFL patrols +1, +2
against a repeated infiltration); the sneaking modifiers (+1 outside the
fort, +1 over the wall with grappling hooks) are on the Arab chart only.
Ties are not covered by the seed: option `sentry_tie` rolls them again
(default), or gives them to the sentry or to the sneakers.
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
    RulesError,
    check_dice,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import D6, odds_of


def sentry_modifier(p: Params) -> int:
    """Modifiers on the sentry's die."""
    mod = t.SENTRY_PREVIOUS_ATTEMPT if bool(p["previous_attempt"]) else 0
    if str(p["sentry_side"]) == "FFL" and bool(p["patrols"]):
        mod += t.SENTRY_PATROLS
    return mod


def sneak_modifier(p: Params) -> int:
    """Modifiers on the sneaking party's die.

    Both are on the Arab chart only: an FFL party sneaking past Arab sentries
    has no modifier, and asking for one is refused rather than ignored.
    """
    asked = [name for name in ("outside_fort", "grappling_hooks") if bool(p[name])]
    if asked and str(p["sentry_side"]) != "FFL":
        raise RulesError(
            f"{', '.join(asked)}: only Arab parties (sneaking past an FFL sentry) get it; "
            "use sentry_side=FFL or leave it out"
        )
    mod = t.SNEAK_OUTSIDE_FORT if bool(p["outside_fort"]) else 0
    if bool(p["grappling_hooks"]):
        mod += t.SNEAK_GRAPPLING_HOOKS
    return mod


def sentry_request(p: Params) -> RollRequest:
    s, k = sentry_modifier(p), sneak_modifier(p)
    return RollRequest(
        f"{p['sentry_side']} sentry against sneakers: {p['phase']}",
        (
            DiceGroup(DieKind.D6, 1, "sentry", f"d6 {s:+d}; higher spots"),
            DiceGroup(DieKind.D6, 1, "sneakers", f"d6 {k:+d}; higher gets through"),
        ),
        secret=True,
    )


def _judge(p: Params, sentry: int, sneak: int) -> tuple[int, frozenset[str], tuple[str, ...]]:
    s = sentry + sentry_modifier(p)
    k = sneak + sneak_modifier(p)
    line = (
        f"sentry {sentry}{sentry_modifier(p):+d} = {s}, "
        f"sneakers {sneak}{sneak_modifier(p):+d} = {k}"
    )
    tie = str(p["tie"])
    if s > k or (s == k and tie == "sentry"):
        return 1, frozenset({"spotted"}), (line, "spotted: the operation fails")
    if k > s or (s == k and tie == "sneakers"):
        return 0, frozenset({"success"}), (line, "unseen: the phase succeeds")
    return 0, frozenset({"tie"}), (line, "tie: roll again")


def _resolve(p: Params, dice: Sequence[int]) -> Outcome:
    check_dice(sentry_request(p), dice)
    value, effects, lines = _judge(p, dice[0], dice[1])
    return Outcome(value, "spotted", effects, lines)


def _odds(p: Params) -> Odds:
    return odds_of("spotted", [(Fraction(1, 36), *_judge(p, a, b)[:2]) for a in D6 for b in D6])


SENTRY_ROLL = Action(
    name="sentry-roll",
    title="Sentry against saboteurs or a moving unit (secret)",
    help="Sentry and sneakers roll 1d6 each plus modifiers: FFL +1 with increased patrols, "
    "either +2 after a previous infiltration; Arab sneakers +1 outside the fort, +1 crossing "
    "the walls with grappling hooks. Higher sentry spots them.",
    params=(
        Param(
            "sentry_side", ParamKind.CHOICE, "whose sentry watches", "FFL", choices=("FFL", "Arab")
        ),
        Param(
            "phase",
            ParamKind.CHOICE,
            "the phase of the operation",
            "desert to wall",
            choices=(*t.SABOTAGE_PHASES, "wall to desert", "unit moving"),
        ),
        Param("patrols", ParamKind.BOOL, "FFL increased patrols (+1 sentry)", False),
        Param(
            "previous_attempt",
            ParamKind.BOOL,
            "an infiltration was tried before (+2 sentry)",
            False,
        ),
        Param("outside_fort", ParamKind.BOOL, "an Arab party sneaks outside the fort (+1)", False),
        Param(
            "grappling_hooks",
            ParamKind.BOOL,
            "an Arab party crosses the walls with hooks (+1)",
            False,
        ),
        Param(
            "tie",
            ParamKind.CHOICE,
            "option sentry_tie",
            "reroll",
            choices=("reroll", "sentry", "sneakers"),
        ),
    ),
    request=sentry_request,
    resolve=_resolve,
    odds=_odds,
    examples=(
        {},
        {"patrols": True, "previous_attempt": True, "outside_fort": True},
        {"sentry_side": "FFL", "grappling_hooks": True, "tie": "sentry"},
        {"sentry_side": "Arab", "previous_attempt": True, "tie": "sneakers"},
    ),
)

ACTIONS: tuple[Action, ...] = (SENTRY_ROLL,)
