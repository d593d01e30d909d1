"""Small helpers shared by the actions: d6 hit faces, hit counts and sums of d6."""

from __future__ import annotations

from fractions import Fraction

from companion.rules.core import DieKind
from companion.rules.odds import Distribution, binomial, face_chance


def hit_faces(hit_on: int, modifier: int, natural_six_hits: bool) -> frozenset[int]:
    """The d6 faces that hit when a die needs `hit_on` after adding `modifier`."""
    faces = {f for f in DieKind.D6.faces if f + modifier >= hit_on}
    if natural_six_hits:
        faces.add(6)
    return frozenset(faces)


def hit_faces_text(faces: frozenset[int]) -> str:
    """The faces that hit, as the dice prompt shows them."""
    if not faces:
        return "no face hits"
    return "hit on " + ",".join(str(f) for f in sorted(faces))


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
