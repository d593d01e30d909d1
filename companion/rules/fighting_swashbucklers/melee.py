"""Melee: men paired off, each Melee Factor times a d10, the bigger product stays in.

The beaten man of a pairing drops out of the fight; beaten by a product at
least three times his own, he is routed off the table instead (he may be
rallied later). The unit left with no one fighting has lost: under the default
reading only the men beaten threefold have routed and the rest withdraw 12" in
good order; the option `threefold_rout` = "unit" routs the whole losing unit
when its last pairing was lost threefold.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.rules.fighting_swashbucklers import tables
from companion.rules.fighting_swashbucklers.dice import d10_values

ATTACKER = "attacker"
DEFENDER = "defender"
TIE = "tie"

ROUT_BY_MAN = "man"
ROUT_BY_UNIT = "unit"
THREEFOLD_ROUT_READINGS: tuple[str, ...] = (ROUT_BY_MAN, ROUT_BY_UNIT)

COMMANDER_FACTORS: tuple[int, ...] = (tables.COMMANDER_MELEE_FACTOR, 10)  # option

# What a side in melee may be: a pose of foot, cavalry, or the commanding officer.
FIGHTER_CHOICES: tuple[str, ...] = (*tables.POSE_NAMES, "cavalry", "commander")


def base_melee_factor(fighter: str, commander_factor: int = tables.COMMANDER_MELEE_FACTOR) -> int:
    if fighter == "cavalry":
        return tables.CAVALRY_MELEE_FACTOR
    if fighter == "commander":
        return commander_factor
    return tables.pose(fighter).melee_factor


def melee_factor(
    fighter: str,
    *,
    martinet: bool = False,
    advantage: bool = False,
    commander_factor: int = tables.COMMANDER_MELEE_FACTOR,
) -> int:
    """Each man's value: pose (or cavalry, commander), +1 martinet, +2 advantage."""
    value = base_melee_factor(fighter, commander_factor)
    if martinet:
        value += tables.MARTINET_MELEE_BONUS
    if advantage:
        value += tables.ADVANTAGE_MELEE_BONUS
    return value


def fighting_men(men: int, *, column: bool) -> int:
    """A column fights with one man, a line with all (a run-of-the-mill officer comes on top)."""
    return min(men, 1) if column else men


@dataclass(frozen=True)
class PairResult:
    winner: str  # ATTACKER, DEFENDER or TIE
    routed: bool  # the loser was beaten threefold
    attacker_product: int
    defender_product: int


def pair_result(
    attacker_factor: int, defender_factor: int, attacker_die: int, defender_die: int
) -> PairResult:
    """One pairing; the dice are already read (see dice.read_d10)."""
    a = attacker_factor * attacker_die
    d = defender_factor * defender_die
    if a == d:
        return PairResult(TIE, False, a, d)
    if a > d:
        return PairResult(ATTACKER, a >= tables.MELEE_ROUT_RATIO * d, a, d)
    return PairResult(DEFENDER, d >= tables.MELEE_ROUT_RATIO * a, a, d)


@dataclass(frozen=True)
class RoundResult:
    pairs: tuple[PairResult, ...]

    @property
    def attacker_wins(self) -> int:
        return sum(1 for p in self.pairs if p.winner == ATTACKER)

    @property
    def defender_wins(self) -> int:
        return sum(1 for p in self.pairs if p.winner == DEFENDER)

    @property
    def defenders_routed(self) -> int:
        return sum(1 for p in self.pairs if p.winner == ATTACKER and p.routed)

    @property
    def attackers_routed(self) -> int:
        return sum(1 for p in self.pairs if p.winner == DEFENDER and p.routed)


def round_result(
    attacker_factor: int,
    defender_factor: int,
    attacker_dice: tuple[int, ...],
    defender_dice: tuple[int, ...],
) -> RoundResult:
    return RoundResult(
        tuple(
            pair_result(attacker_factor, defender_factor, a, d)
            for a, d in zip(attacker_dice, defender_dice, strict=True)
        )
    )


# (attacker wins, defender man routed, attacker man routed) for one pairing
PairKey = tuple[int, bool, bool]


def pair_distribution(
    attacker_factor: int, defender_factor: int, d10_zero: str
) -> dict[PairKey, Fraction]:
    """Exact chances of one pairing's result over the 100 pairs of d10 faces."""
    return dict(_pair_distribution(attacker_factor, defender_factor, d10_zero))


@lru_cache(maxsize=256)
def _pair_distribution(
    attacker_factor: int, defender_factor: int, d10_zero: str
) -> tuple[tuple[PairKey, Fraction], ...]:
    out: dict[PairKey, Fraction] = {}
    each = Fraction(1, 100)
    for a in d10_values(d10_zero):
        for d in d10_values(d10_zero):
            r = pair_result(attacker_factor, defender_factor, a, d)
            key = (
                1 if r.winner == ATTACKER else 0,
                r.winner == ATTACKER and r.routed,
                r.winner == DEFENDER and r.routed,
            )
            out[key] = out.get(key, Fraction(0)) + each
    return tuple(sorted(out.items()))


def round_distribution(
    pairs: int, attacker_factor: int, defender_factor: int, d10_zero: str
) -> dict[PairKey, Fraction]:
    """(pairs won by the attacker, any defender routed, any attacker routed): exact DP."""
    return dict(_round_distribution(pairs, attacker_factor, defender_factor, d10_zero))


@lru_cache(maxsize=1024)
def _round_distribution(
    pairs: int, attacker_factor: int, defender_factor: int, d10_zero: str
) -> tuple[tuple[PairKey, Fraction], ...]:
    one = pair_distribution(attacker_factor, defender_factor, d10_zero)
    out: dict[PairKey, Fraction] = {(0, False, False): Fraction(1)}
    for _ in range(pairs):
        nxt: dict[PairKey, Fraction] = {}
        for (wins, dr, ar), p in out.items():
            for (w, d, a), q in one.items():
                key = (wins + w, dr or d, ar or a)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        out = nxt
    return tuple(sorted(out.items()))
