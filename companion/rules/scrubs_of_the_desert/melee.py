"""Melee: figures fight in bouts of one against one or two against one. Each
figure rolls a d10 plus its modifiers; the higher total kills an opposing figure
(a lone figure beating two kills one of them); a tie locks the melee."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
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
    bool_param,
    counted,
    int_param,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.scrubs_of_the_desert import tables
from companion.rules.scrubs_of_the_desert.dice import (
    D10_FACES,
    signed,
)

ATTACKER_WINS = 1
DEFENDER_WINS = -1
LOCKED = 0
LABEL = "bout (1 attacker wins, -1 defender wins, 0 locked)"


@dataclass(frozen=True)
class Bout:
    attackers: int  # 1 or 2
    defenders: int  # 1 or 2


def pair_figures(attackers: int, defenders: int) -> tuple[Bout, ...]:
    """Pair two melee units' figures: one on one, extra figures doubling up on single
    enemies (at most two on one); figures beyond two-to-one stand by."""
    if attackers <= 0 or defenders <= 0:
        return ()
    if attackers >= defenders:
        doubles = min(attackers - defenders, defenders)
        return (Bout(2, 1),) * doubles + (Bout(1, 1),) * (defenders - doubles)
    doubles = min(defenders - attackers, attackers)
    return (Bout(1, 2),) * doubles + (Bout(1, 1),) * (attackers - doubles)


@dataclass(frozen=True)
class SideModifiers:
    per_figure: int  # added to each of the side's dice
    once: int  # added to the side's total once (the leader)
    reasons: tuple[str, ...]


def _with_leader(per_figure: int, reasons: list[str], leader: bool) -> SideModifiers:
    """A leader's +1 goes on the side's total once, whatever else goes on every die."""
    if not leader:
        return SideModifiers(per_figure, 0, tuple(reasons))
    return SideModifiers(per_figure, tables.LEADER_MODIFIER, (*reasons, "leader +1"))


def attacker_modifiers(arab_charging: bool, cavalry_charging: bool, leader: bool) -> SideModifiers:
    per = 0
    reasons = []
    if arab_charging:
        per += tables.ARAB_CHARGING_MODIFIER
        reasons.append("Arab charging +1")
    if cavalry_charging:
        per += tables.CAVALRY_CHARGING_MODIFIER
        reasons.append("cavalry charging +1")
    return _with_leader(per, reasons, leader)


def defender_modifiers(
    position: str,
    leader: bool,
    counter_charging: bool,
    counter_bonus: bool,
    counter_arabs: bool = False,
) -> SideModifiers:
    """A counter-charge is a charge: cavalry +1, and Arab cavalry the Arab +1 as well."""
    per = tables.melee_defender_bonus(position)
    reasons = [f"defending {position} {signed(per)}"] if per else []
    if counter_charging:
        per += tables.CAVALRY_CHARGING_MODIFIER
        reasons.append("cavalry (counter-)charging +1")
    if counter_arabs:
        per += tables.ARAB_CHARGING_MODIFIER
        reasons.append("Arab (counter-)charging +1")
    if counter_bonus:
        per += tables.COUNTER_CHARGE_MODIFIER
        reasons.append("counter-charge against a failed attacker +3")
    return _with_leader(per, reasons, leader)


def side_total(dice: Sequence[int], mods: SideModifiers, per_figure: bool) -> int:
    if per_figure:
        return sum(dice) + mods.per_figure * len(dice) + mods.once
    return sum(dice) + mods.per_figure + mods.once


def bout_winner(attacker_total: int, defender_total: int) -> int:
    if attacker_total > defender_total:
        return ATTACKER_WINS
    if defender_total > attacker_total:
        return DEFENDER_WINS
    return LOCKED


PARAMS = (
    Param("attackers", ParamKind.INT, "attacking figures in this bout", 1, 1, 2),
    Param("defenders", ParamKind.INT, "defending figures in this bout", 1, 1, 2),
    Param("arab_charging", ParamKind.BOOL, "the attackers are Arabs charging", False),
    Param("cavalry_charging", ParamKind.BOOL, "the attackers are cavalry charging", False),
    Param("attacker_leader", ParamKind.BOOL, "a leader among the attackers", False),
    Param(
        "defender_position",
        ParamKind.CHOICE,
        "fort +2, building or higher ground +1",
        "open",
        choices=tables.DEFENDER_POSITIONS,
    ),
    Param("defender_leader", ParamKind.BOOL, "a leader among the defenders", False),
    Param("counter_charging", ParamKind.BOOL, "defending cavalry counter-charged", False),
    Param(
        "counter_arabs",
        ParamKind.BOOL,
        "the counter-charging cavalry are Arabs (+1 as Arabs charging)",
        False,
    ),
    Param(
        "counter_bonus",
        ParamKind.BOOL,
        "counter-charge against an attacker that failed its test (+3)",
        False,
    ),
    Param("per_figure", ParamKind.BOOL, "modifiers go on every figure's die", True),
)


def _mods(params: Params) -> tuple[SideModifiers, SideModifiers]:
    if int_param(params, "attackers") == 2 and int_param(params, "defenders") == 2:
        raise RulesError("a bout is one against one or two against one, not two against two")
    counter = bool_param(params, "counter_charging")
    if bool_param(params, "counter_bonus") and not counter:
        raise RulesError(
            "counter_bonus=yes is the counter-chargers' +3; it needs counter_charging=yes"
        )
    if bool_param(params, "counter_arabs") and not counter:
        raise RulesError(
            "counter_arabs=yes is the Arab counter-chargers' +1; it needs counter_charging=yes"
        )
    if counter and str_param(params, "defender_position") != "open":
        raise RulesError(
            "counter-charging cavalry has left its position: use defender_position=open"
        )
    return (
        attacker_modifiers(
            bool_param(params, "arab_charging"),
            bool_param(params, "cavalry_charging"),
            bool_param(params, "attacker_leader"),
        ),
        defender_modifiers(
            str_param(params, "defender_position"),
            bool_param(params, "defender_leader"),
            bool_param(params, "counter_charging"),
            bool_param(params, "counter_bonus"),
            bool_param(params, "counter_arabs"),
        ),
    )


def bout_request(params: Params) -> RollRequest:
    _mods(params)  # refuses two against two
    a, d = int_param(params, "attackers"), int_param(params, "defenders")
    return RollRequest(
        f"Melee: {counted(a, 'attacker')} against {counted(d, 'defender')}",
        (
            DiceGroup(DieKind.D10, a, "attackers", "total with modifiers; higher kills"),
            DiceGroup(DieKind.D10, d, "defenders", "total with modifiers; higher kills"),
        ),
    )


BOUT_EFFECTS = {
    ATTACKER_WINS: "defender_killed",
    DEFENDER_WINS: "attacker_killed",
    LOCKED: "locked",
}


def _effects(winner: int) -> frozenset[str]:
    return frozenset({BOUT_EFFECTS[winner]})


def bout_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    a_dice, d_dice = bout_request(params).split(dice)
    att, dfn = _mods(params)
    per_figure = bool_param(params, "per_figure")
    a_total = side_total(a_dice, att, per_figure)
    d_total = side_total(d_dice, dfn, per_figure)
    winner = bout_winner(a_total, d_total)
    verdict = {
        ATTACKER_WINS: "attackers win: a defender is killed",
        DEFENDER_WINS: "defenders win: an attacker is killed",
        LOCKED: "tie: the melee is locked",
    }[winner]
    return Outcome(
        winner,
        LABEL,
        _effects(winner),
        (
            f"attackers {'+'.join(map(str, a_dice))} = {a_total}"
            + (f" ({', '.join(att.reasons)})" if att.reasons else ""),
            f"defenders {'+'.join(map(str, d_dice))} = {d_total}"
            + (f" ({', '.join(dfn.reasons)})" if dfn.reasons else ""),
            verdict,
        ),
    )


def _sum_distribution(n: int) -> dict[int, int]:
    ways: dict[int, int] = {}
    for dice in itertools.product(D10_FACES, repeat=n):
        ways[sum(dice)] = ways.get(sum(dice), 0) + 1
    return ways


def bout_odds(params: Params) -> Odds:
    att, dfn = _mods(params)
    a, d = int_param(params, "attackers"), int_param(params, "defenders")
    per_figure = bool_param(params, "per_figure")
    a_add = (att.per_figure * a if per_figure else att.per_figure) + att.once
    d_add = (dfn.per_figure * d if per_figure else dfn.per_figure) + dfn.once
    whole = 10 ** (a + d)
    weighted = []
    for a_sum, a_ways in _sum_distribution(a).items():
        for d_sum, d_ways in _sum_distribution(d).items():
            winner = bout_winner(a_sum + a_add, d_sum + d_add)
            weighted.append((Fraction(a_ways * d_ways, whole), winner, _effects(winner)))
    return odds_from_outcomes(LABEL, weighted)


MELEE_BOUT = Action(
    name="melee-bout",
    title="Melee bout",
    help="A d10 per figure plus modifiers, totalled: +2 defending a fort, +1 building or "
    "higher ground, +1 Arab charging, +1 cavalry charging, +1 leader (a counter-charge is "
    "a charge; +3 cavalry counter-charging a failed attacker). Higher kills a figure; a tie "
    "locks.",
    params=PARAMS,
    request=bout_request,
    resolve=bout_resolve,
    odds=bout_odds,
    examples=(
        {},
        {"attackers": 2, "arab_charging": True, "defender_position": "fort"},
        {"defenders": 2, "cavalry_charging": True, "attacker_leader": True},
        {"counter_charging": True, "counter_bonus": True, "per_figure": False},
    ),
)
