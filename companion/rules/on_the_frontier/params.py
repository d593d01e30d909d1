"""Small helpers shared by the actions: typed access to completed params."""

from __future__ import annotations

from fractions import Fraction

from companion.rules.core import DieKind, Params, RulesError
from companion.rules.odds import Distribution, binomial, face_chance


def int_param(params: Params, name: str) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {value!r}")
    return value


def bool_param(params: Params, name: str) -> bool:
    value = params[name]
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be yes or no, got {value!r}")
    return value


def str_param(params: Params, name: str) -> str:
    value = params[name]
    if not isinstance(value, str):
        raise RulesError(f"{name} must be a word, got {value!r}")
    return value


def hit_faces(hit_on: int, modifier: int, natural_six_hits: bool) -> frozenset[int]:
    """The d6 faces that hit when a die needs `hit_on` after adding `modifier`."""
    faces = {f for f in DieKind.D6.faces if f + modifier >= hit_on}
    if natural_six_hits:
        faces.add(6)
    return frozenset(faces)


def hits_distribution(dice: int, faces: frozenset[int]) -> Distribution:
    """Exact distribution of hits when each of `dice` d6 hits on `faces`."""
    chance: Fraction = face_chance(DieKind.D6, faces)
    return binomial(dice, chance)


def signed(value: int) -> str:
    return f"{value:+d}"


def sum_of_d6(n: int) -> Distribution:
    """Exact distribution of the total of n d6, counted in integers (fast for 40 dice)."""
    ways = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, count in ways.items():
            for face in DieKind.D6.faces:
                nxt[total + face] = nxt.get(total + face, 0) + count
        ways = nxt
    whole = 6**n
    return {total: Fraction(count, whole) for total, count in sorted(ways.items())}
