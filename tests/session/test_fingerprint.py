"""The state fingerprint that the crash test compares across processes."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import pytest

from companion.session.session import canonical

# A FortBoard state holds frozensets of strings (guns lost, engines used); their repr
# order follows the string hash seed, which differs from one process to the next.
FINGERPRINT_OF_A_FORTBOARD_STATE_WITH_SETS = """
from dataclasses import replace
from importlib import resources
from companion.session.events import GameStarted
from companion.session.session import apply

toml = resources.files("companion.scenarios").joinpath("fortboard.toml").read_text()
record, _ = apply(None, GameStarted("", toml, "fortboard"))
engines = frozenset(f"aim:{side} {engine}" for side in ("Left", "Right", "Centre")
                    for engine in ("mangonel", "ram", "ballista", "tower"))
record = replace(record, state=replace(record.state, used=engines, guns_lost=engines))
print(record.fingerprint())
"""


def _fingerprint_with_hash_seed(seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run(
        [sys.executable, "-c", FINGERPRINT_OF_A_FORTBOARD_STATE_WITH_SETS],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_same_state_has_the_same_fingerprint_in_every_process() -> None:
    prints = {_fingerprint_with_hash_seed(seed) for seed in (1, 2, 3)}
    assert len(prints) == 1, prints


class Side(Enum):
    FFL = "ffl"


@dataclass(frozen=True)
class Unit:
    name: str
    tags: frozenset[str]


def test_sets_and_dicts_are_put_in_a_fixed_order() -> None:
    assert canonical(frozenset({"b", "a", "c"})) == ("set", ("a", "b", "c"))
    assert canonical({"b": 1, "a": 2}) == ("dict", (("a", 2), ("b", 1)))
    unit = Unit("Legion 1", frozenset({"pinned", "alerted"}))
    assert canonical(unit) == (
        "Unit",
        (("name", "Legion 1"), ("tags", ("set", ("alerted", "pinned")))),
    )
    assert canonical((Side.FFL, Fraction(1, 3), None)) == (("Side", "FFL"), Fraction(1, 3), None)


def test_a_value_without_a_canonical_form_is_refused() -> None:
    with pytest.raises(TypeError, match="object"):
        canonical(object())
