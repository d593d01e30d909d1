"""d10 and percentile conventions, fast exact pools and the one-d10 pass-or-fail roll.

A d10 reads 0-9 and 0 is zero. A percentile roll is a tens die (0-9 = 00-90)
and a units die; "00" on both reads 0 unless the `double_zero` option says 100.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import comb

from companion.rules.core import (
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    percentile_value,
)

DOUBLE_ZERO_READINGS: tuple[str, ...] = ("zero", "hundred")
D10_FACES: tuple[int, ...] = DieKind.D10.faces
DOUBLE_ZERO_PARAM = Param(
    "double_zero", ParamKind.CHOICE, "how 00 reads", "zero", choices=DOUBLE_ZERO_READINGS
)


def signed(value: int) -> str:
    return f"{value:+d}"


def read_percentile(tens: int, units: int, double_zero: str) -> int:
    """The percentile a tens die and a units die show (00 = 0 or 100 by option)."""
    return percentile_value(tens, units, zero_zero_is_100=double_zero == "hundred")


def double_zero_text(double_zero: str) -> str:
    """How "00" reads, for the dice prompt."""
    return "00 = 0" if double_zero == "zero" else "00 = 100"


def percentile_values(double_zero: str) -> tuple[int, ...]:
    """Every value a percentile roll can show, each with chance 1/100."""
    return tuple(read_percentile(t, u, double_zero) for t in D10_FACES for u in D10_FACES)


def percentile_groups(count: int, why: str, meaning: str) -> tuple[DiceGroup, DiceGroup]:
    """Percentile dice as their tens and units groups. The meaning is the roll's, so
    it is given once, on the tens group: the units group carries none (the screen
    would say it twice)."""
    return (
        DiceGroup(DieKind.PERCENTILE, count, f"{why} tens", meaning),
        DiceGroup(DieKind.D10, count, f"{why} units", ""),
    )


def faces_at_least(need: int, modifier: int) -> frozenset[int]:
    """The d10 faces (0-9, 0 is zero) that reach `need` after adding `modifier`."""
    return frozenset(f for f in D10_FACES if f + modifier >= need)


def to_hit_text(need: int, modifier: int, faces: Iterable[int]) -> str:
    """What a to-hit roll needs, in words that stand alone on the dice-entry screen:
    "hit on 7+", or with its modifiers "hit on 8+ (7+ -1)"."""
    text = f"hit on {faces_text(faces)}"
    return text if not modifier else f"{text} ({need}+ {signed(modifier)})"


def faces_text(faces: Iterable[int]) -> str:
    ordered = sorted(faces)
    if not ordered:
        return "no face"
    if ordered == list(range(ordered[0], 10)):
        return f"{ordered[0]}+" if ordered[0] else "any face"
    return ",".join(map(str, ordered))


def pass_fail_odds(label: str, faces: frozenset[int]) -> Odds:
    """One d10 that passes on `faces`: headline 1 on a pass, with `label` as its effect."""
    p = Fraction(len(faces), 10)
    return Odds(label, {0: 1 - p, 1: p}, {label: p})


def pass_fail_outcome(label: str, passed: bool, detail: str) -> Outcome:
    """A one-d10 roll that passed or failed: headline 1 and the effect `label` on a pass."""
    return Outcome(
        1 if passed else 0, label, frozenset({label}) if passed else frozenset(), (detail,)
    )


def binomial_d10(n: int, faces: frozenset[int]) -> dict[int, Fraction]:
    """Exact distribution of how many of n d10 show one of `faces` (integer counting)."""
    good = len(faces)
    bad = 10 - good
    whole = 10**n
    return {k: Fraction(comb(n, k) * good**k * bad ** (n - k), whole) for k in range(n + 1)}


def two_category_d10(
    n: int, first: frozenset[int], second: frozenset[int]
) -> dict[tuple[int, int], Fraction]:
    """Joint distribution of how many of n d10 fall in two disjoint face sets."""
    if first & second:
        raise ValueError("the face sets must be disjoint")
    a, b = len(first), len(second)
    c = 10 - a - b
    whole = 10**n
    out: dict[tuple[int, int], Fraction] = {}
    for i in range(n + 1):
        for j in range(n - i + 1):
            ways = comb(n, i) * comb(n - i, j) * a**i * b**j * c ** (n - i - j)
            if ways:
                out[(i, j)] = Fraction(ways, whole)
    return out
