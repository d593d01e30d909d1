"""Argument types shared by the command-line tools: a bad number is refused by argparse
with a message naming the option, before anything runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(low: int) -> Callable[[str], int]:
    """An argparse type for a whole number of at least `low`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {low} or more")
        return value

    return parse
