"""How the game's dice are read: the d10 alone and the percentile (tens, units).

The seed never says how a lone d10's 0 reads. It multiplies the die (melee
factor x d10, CP x d10) and counts down from it (the cannon's D - R), so by
default a 0 reads 10 and a d10 runs 1-10; the option `d10_zero` = "0" reads it
as zero (0-9). Every lone d10 goes through `read_d10`.

The seed's charts run 01 to 100, so by default "00" (tens 0, units 0) reads
100. The option `double_zero` = "0" reads it as zero instead (it then falls in
the lowest band of every chart). Every percentile roll in the system goes
through `read_percentile`, so the reading is honoured everywhere.
"""

from __future__ import annotations

from functools import lru_cache

from companion.rules.core import DiceGroup, DieKind, RollRequest, percentile_value

D10_ZERO_IS_10 = "10"
D10_ZERO_IS_0 = "0"
D10_ZERO_READINGS: tuple[str, ...] = (D10_ZERO_IS_10, D10_ZERO_IS_0)

DOUBLE_ZERO_IS_100 = "100"
DOUBLE_ZERO_IS_0 = "0"
DOUBLE_ZERO_READINGS: tuple[str, ...] = (DOUBLE_ZERO_IS_100, DOUBLE_ZERO_IS_0)


def read_d10(face: int, d10_zero: str) -> int:
    """A lone d10: 1..10 by default (0 reads 10), 0..9 with d10_zero "0"."""
    if not 0 <= face <= 9:
        raise ValueError(f"a d10 reads 0-9, got {face}")
    return 10 if face == 0 and d10_zero == D10_ZERO_IS_10 else face


def d10_values(d10_zero: str) -> tuple[int, ...]:
    """The ten equally likely readings of a lone d10, face 0 first."""
    return tuple(read_d10(face, d10_zero) for face in range(10))


def describe_d10(face: int, d10_zero: str) -> str:
    """How a lone d10 read, when it reads other than its face ("d10 0 reads 10");
    empty when it reads as it shows, since the die itself says no more."""
    value = read_d10(face, d10_zero)
    return "" if value == face else f"d10 {face} reads {value}"


def read_percentile(tens: int, units: int, double_zero: str) -> int:
    """The percentile two d10 show: 1..100 by default, 0..99 with double_zero "0"."""
    return percentile_value(tens, units, zero_zero_is_100=double_zero == DOUBLE_ZERO_IS_100)


@lru_cache(maxsize=4)
def percentile_values(double_zero: str) -> tuple[int, ...]:
    """The hundred equally likely readings of a percentile roll."""
    return tuple(read_percentile(t, u, double_zero) for t in range(10) for u in range(10))


def percentile_groups(label: str, meaning: str) -> tuple[DiceGroup, ...]:
    """A percentile roll as two dice: the tens die, then the units die. The meaning
    is the roll's, given once on the tens die: the units die has none of its own."""
    return (
        DiceGroup(DieKind.PERCENTILE, 1, f"{label} tens", meaning),
        DiceGroup(DieKind.D10, 1, f"{label} units", ""),
    )


def percentile_request(reason: str, meaning: str, *, secret: bool = False) -> RollRequest:
    return RollRequest(reason, percentile_groups("d%", meaning), secret=secret)


def d10_meaning(meaning: str, d10_zero: str) -> str:
    """What a lone d10 means on the screen, with how its 0 reads."""
    return f"{meaning}; 0 reads {read_d10(0, d10_zero)}"


def d10_request(reason: str, meaning: str, d10_zero: str) -> RollRequest:
    return RollRequest(reason, (DiceGroup(DieKind.D10, 1, "d10", d10_meaning(meaning, d10_zero)),))
