"""Argument types and options shared by the command-line tools: a bad number is refused by
argparse with a message naming the option, before anything runs, and every command that
reads the box's config takes `--config` (and `--hw`) the same way."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from companion.config import CONFIG_ENV, DEFAULT_PATH, HW_ENV

CONFIG_HELP = f"config file (default: ${CONFIG_ENV} or {DEFAULT_PATH})"
HW_HELP = f"hardware backend (or ${HW_ENV})"
HARDWARE = ("sim", "pi")


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


def config_option(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`--config FILE` after the command word (the main parser takes it before, too)."""
    parser.add_argument("--config", metavar="FILE", help=CONFIG_HELP)
    return parser


def hardware_option(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`--hw sim|pi` after the command word, for the commands that use the hardware."""
    parser.add_argument("--hw", choices=HARDWARE, help=HW_HELP)
    return parser


def tens_die(text: str) -> int:
    """A percentile tens die as a referee reads it off the die (00, 10, ..., 90) or as the
    rules count it (0-9, as the dice reader reports it): the rules' 0-9 either way."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if 0 <= value <= 9:
        return value
    if 0 < value <= 90 and value % 10 == 0:
        return value // 10
    raise ValueError(f"a tens die reads 00, 10, ..., 90, got {text}")
