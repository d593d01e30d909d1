"""Exact dice arithmetic shared by the actions: small DPs with integer weights.

Pools are folded die by die into a dictionary of summary states (e.g. hits,
sixes capped at two, whether any 5-6 showed) with integer counts of ways, and
turned into Fractions once at the end: 40 dice take a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from typing import TypeVar

from companion.rules.core import Odds
from companion.rules.odds import odds_from_outcomes

S = TypeVar("S", bound=Hashable)

D6 = (1, 2, 3, 4, 5, 6)


def fold_pool(
    initial: S, groups: Sequence[tuple[int, Callable[[S, int], S]]]
) -> dict[S, Fraction]:
    """Distribution of the summary state after rolling every group of d6.

    `groups` are (number of dice, step) where step(state, face) -> state.
    """
    states: dict[S, int] = {initial: 1}
    total = 1
    for count, step in groups:
        for _ in range(count):
            nxt: dict[S, int] = {}
            for state, ways in states.items():
                for face in D6:
                    new = step(state, face)
                    nxt[new] = nxt.get(new, 0) + ways
            states = nxt
            total *= 6
    return {s: Fraction(w, total) for s, w in states.items()}


def sorted_rolls(n: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of n d6 (sorted low to high) with its exact chance."""
    if n == 0:
        yield (), Fraction(1)
        return
    total = 6**n
    for combo in combinations_with_replacement(D6, n):
        ways = factorial(n)
        for face in set(combo):
            ways //= factorial(combo.count(face))
        yield combo, Fraction(ways, total)


def odds_of(
    label: str,
    outcomes: Sequence[tuple[Fraction, int, frozenset[str]]] | Iterator[
        tuple[Fraction, int, frozenset[str]]
    ],
) -> Odds:
    """Fold weighted (chance, headline, effects) into Odds, summing equal keys first."""
    merged: dict[tuple[int, frozenset[str]], Fraction] = {}
    for p, value, effects in outcomes:
        key = (value, effects)
        merged[key] = merged.get(key, Fraction(0)) + p
    return odds_from_outcomes(label, [(p, v, e) for (v, e), p in merged.items()])


def sum_2d6() -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for a in D6:
        for b in D6:
            out[a + b] = out.get(a + b, Fraction(0)) + Fraction(1, 36)
    return out
