"""How the game's dice are read: the d10 (0-9) and the percentile (tens, units).

The seed's charts run 01 to 100, so by default "00" (tens 0, units 0) reads
100. The option `double_zero` = "0" reads it as zero instead (it then falls in
the lowest band of every chart). Every percentile roll in the system goes
through `read_percentile`, so the reading is honoured everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from companion.rules.core import DiceGroup, DieKind, RollRequest, percentile_value

DOUBLE_ZERO_IS_100 = "100"
DOUBLE_ZERO_IS_0 = "0"
DOUBLE_ZERO_READINGS: tuple[str, ...] = (DOUBLE_ZERO_IS_100, DOUBLE_ZERO_IS_0)


def read_percentile(tens: int, units: int, double_zero: str) -> int:
    """The percentile two d10 show: 1..100 by default, 0..99 with double_zero "0"."""
    return percentile_value(tens, units, zero_zero_is_100=double_zero == DOUBLE_ZERO_IS_100)


@lru_cache(maxsize=4)
def percentile_values(double_zero: str) -> tuple[int, ...]:
    """The hundred equally likely readings of a percentile roll."""
    return tuple(read_percentile(t, u, double_zero) for t in range(10) for u in range(10))


PERCENT_EACH = Fraction(1, 100)
D10_EACH = Fraction(1, 10)


def percentile_groups(label: str, meaning: str) -> tuple[DiceGroup, ...]:
    """A percentile roll as two dice: the tens die, then the units die."""
    return (
        DiceGroup(DieKind.PERCENTILE, 1, f"{label} tens", meaning),
        DiceGroup(DieKind.D10, 1, f"{label} units", "units 0-9"),
    )


def percentile_request(reason: str, meaning: str, *, secret: bool = False) -> RollRequest:
    return RollRequest(reason, percentile_groups("d%", meaning), secret=secret)


def d10_request(reason: str, meaning: str, count: int = 1, label: str = "d10") -> RollRequest:
    return RollRequest(reason, (DiceGroup(DieKind.D10, count, label, meaning),))


def percent_under(percent: int, double_zero: str) -> Fraction:
    """Chance that a percentile roll reads `percent` or less."""
    return sum((PERCENT_EACH for v in percentile_values(double_zero) if v <= percent), Fraction(0))


def describe_percentile(dice: Sequence[int], double_zero: str) -> str:
    tens, units = dice[0], dice[1]
    value = read_percentile(tens, units, double_zero)
    return f"d% {tens}{units} reads {value}"
