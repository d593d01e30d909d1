"""Exact dice arithmetic shared by the actions: small DPs with integer weights.

Pools are folded die by die into a dictionary of summary states (e.g. hits,
sixes capped at two, whether any 5-6 showed) with integer counts of ways, and
turned into Fractions once at the end: 40 dice take a few milliseconds.
Rolls read off a chart by their total are built whole by `dice_total_action`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from typing import TypeVar

from companion.rules.core import (
    Action,
    DieKind,
    Odds,
    Outcome,
    Param,
    Params,
    RollRequest,
    check_dice,
)
from companion.rules.odds import odds_from_outcomes, sum_of_dice

S = TypeVar("S", bound=Hashable)

D6 = (1, 2, 3, 4, 5, 6)


def fold_pool(
    initial: S, groups: Sequence[tuple[int, Callable[[S, int], tuple[S, int]]]]
) -> dict[tuple[S, int], Fraction]:
    """`fold_pool_ways` as chances."""
    ways, total = fold_pool_ways(initial, groups)
    return {k: Fraction(w, total) for k, w in ways.items()}


def fold_pool_ways(
    initial: S, groups: Sequence[tuple[int, Callable[[S, int], tuple[S, int]]]]
) -> tuple[dict[tuple[S, int], int], int]:
    """Joint distribution of (summary key, counter) after rolling every group of d6.

    `groups` are (number of dice, step) where step(key, face) -> (new key,
    amount added to the counter, 0 or more). The counter's distribution under
    each key is packed into one big integer (a polynomial in 2**slot_bits), so
    a die costs one shift-and-add per key and face: 40 dice take milliseconds.
    """
    dice = sum(count for count, _ in groups)
    slot = 3 * dice + 8  # 6**n < 2**(3n): no slot overflows into the next
    states: dict[S, int] = {initial: 1}
    for count, step in groups:
        cache: dict[tuple[S, int], tuple[S, int]] = {}
        for _ in range(count):
            nxt: dict[S, int] = {}
            for key, poly in states.items():
                for face in D6:
                    move = cache.get((key, face))
                    if move is None:
                        move = step(key, face)
                        cache[(key, face)] = move
                    new, amount = move
                    nxt[new] = nxt.get(new, 0) + (poly << (slot * amount))
            states = nxt
    mask = (1 << slot) - 1
    out: dict[tuple[S, int], int] = {}
    for key, poly in states.items():
        counter = 0
        while poly:
            ways = poly & mask
            if ways:
                out[(key, counter)] = ways
            poly >>= slot
            counter += 1
    return out, 6**dice


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
    outcomes: Sequence[tuple[Fraction, int, frozenset[str]]]
    | Iterator[tuple[Fraction, int, frozenset[str]]],
) -> Odds:
    """Fold weighted (chance, headline, effects) into Odds, summing equal keys first."""
    merged: dict[tuple[int, frozenset[str]], Fraction] = {}
    for p, value, effects in outcomes:
        key = (value, effects)
        merged[key] = merged.get(key, Fraction(0)) + p
    return odds_from_outcomes(label, [(p, v, e) for (v, e), p in merged.items()])


Judgement = tuple[int, frozenset[str], tuple[str, ...]]
"""What a total comes to: (headline, effects, the lines that explain it)."""


def dice_total_action(
    name: str,
    title: str,
    help_text: str,
    params: tuple[Param, ...],
    request: Callable[[Params], RollRequest],
    judge: Callable[[Params, int], Judgement],
    label: str,
    examples: tuple[Params, ...],
    *,
    dice: int = 1,
) -> Action:
    """An action of `dice` d6 whose result depends only on their total, read by `judge`.

    A request with no dice (the situation calls for no roll) comes to 0, its
    reason the only line.
    """
    totals = sum_of_dice(dice, DieKind.D6)

    def resolve(p: Params, rolled: Sequence[int]) -> Outcome:
        asked = request(p)
        check_dice(asked, rolled)
        if not asked.groups:
            return Outcome(0, label, frozenset(), (asked.reason,))
        value, effects, lines = judge(p, sum(rolled))
        return Outcome(value, label, effects, lines)

    def odds(p: Params) -> Odds:
        if not request(p).groups:
            return Odds(label, {0: Fraction(1)})
        return odds_of(label, [(chance, *judge(p, total)[:2]) for total, chance in totals.items()])

    return Action(name, title, help_text, params, request, resolve, odds, examples)
