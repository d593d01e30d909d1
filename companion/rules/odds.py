"""Exact odds helpers, standard library only.

Actions compute their odds with these (dynamic programming over face counts,
so 40 dice stay fast); `enumerate_odds` is the brute-force reference the tests
compare them with on small pools.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb, factorial

from companion.rules.core import DieKind, Odds, Outcome, RollRequest

Distribution = dict[int, Fraction]


def face_chance(kind: DieKind, faces: Sequence[int] | set[int] | frozenset[int]) -> Fraction:
    """Chance that one die of `kind` shows one of `faces`."""
    wanted = set(faces)
    return Fraction(sum(1 for f in kind.faces if f in wanted), len(kind.faces))


def binomial(n: int, p: Fraction) -> Distribution:
    """Distribution of the number of successes in n trials of chance p."""
    q = 1 - p
    return {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}


def add(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """Distribution of the sum of two independent numbers."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def sum_of_dice(n: int, kind: DieKind, value: Callable[[int], int] = lambda f: f) -> Distribution:
    """Distribution of the sum of n dice, each face mapped through `value`."""
    one: Distribution = {}
    for f in kind.faces:
        v = value(f)
        one[v] = one.get(v, Fraction(0)) + Fraction(1, len(kind.faces))
    out: Distribution = {0: Fraction(1)}
    for _ in range(n):
        out = add(out, one)
    return out


def category_counts(
    n: int, kind: DieKind, categories: Sequence[frozenset[int]]
) -> dict[tuple[int, ...], Fraction]:
    """Joint distribution of how many of n dice fall in each category.

    Categories must be disjoint; faces in none of them are 'other'. Multinomial,
    so it is exact and fast for 40 dice and a few categories.
    """
    size = len(kind.faces)
    chances = [Fraction(len(c & set(kind.faces)), size) for c in categories]
    other = 1 - sum(chances, Fraction(0))
    out: dict[tuple[int, ...], Fraction] = {}
    for counts in _compositions(n, len(categories)):
        rest = n - sum(counts)
        ways = factorial(n) // factorial(rest)
        p = other**rest
        for c, chance in zip(counts, chances, strict=True):
            ways //= factorial(c)
            p *= chance**c
        if p:
            out[counts] = ways * p
    return out


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """All tuples of `parts` non-negative ints summing to at most n."""
    if parts == 0:
        return [()]
    out = []
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            out.append((first, *rest))
    return out


def odds_from_outcomes(
    label: str, weighted: Sequence[tuple[Fraction, int, frozenset[str]]]
) -> Odds:
    """Fold (chance, headline, effects) triples into an Odds."""
    headline: Distribution = {}
    effects: dict[str, Fraction] = {}
    for p, value, names in weighted:
        headline[value] = headline.get(value, Fraction(0)) + p
        for name in names:
            effects[name] = effects.get(name, Fraction(0)) + p
    return Odds(label, dict(sorted(headline.items())), dict(sorted(effects.items())))


def enumerate_odds(request: RollRequest, resolve: Callable[[Sequence[int]], Outcome]) -> Odds:
    """Brute force: every ordered result of the request through `resolve`.

    The reference for tests; exponential, so only for small pools.
    """
    kinds = request.kinds
    total = 1
    for k in kinds:
        total *= len(k.faces)
    weight = Fraction(1, total)
    weighted = []
    label = ""
    for dice in itertools.product(*(k.faces for k in kinds)):
        outcome = resolve(dice)
        label = outcome.headline_label
        weighted.append((weight, outcome.headline, outcome.effects))
    return odds_from_outcomes(label, weighted)


def odds_from_ways(
    label: str, outcomes: Iterable[tuple[int, int, frozenset[str]]], total: int
) -> Odds:
    """Odds from (ways, headline, effects) counted out of `total` equally likely results.

    Sums in integers and makes one Fraction per headline value and effect.
    """
    headline: dict[int, int] = {}
    effects: dict[str, int] = {}
    for ways, value, names in outcomes:
        headline[value] = headline.get(value, 0) + ways
        for name in names:
            effects[name] = effects.get(name, 0) + ways
    return Odds(
        label,
        {v: Fraction(w, total) for v, w in sorted(headline.items())},
        {n: Fraction(w, total) for n, w in sorted(effects.items())},
    )
