"""The rules core: five systems behind one contract (see `core`).

Imports nothing from hardware, vision or I/O; tests/rules/test_purity.py enforces it.
"""

from __future__ import annotations

import importlib

from companion.rules.core import RulesError, Ruleset

SYSTEM_NAMES: tuple[str, ...] = (
    "tenir_le_fort",
    "scrubs_of_the_desert",
    "fortboard",
    "fighting_swashbucklers",
    "on_the_frontier",
)

ALIASES: dict[str, str] = {
    "tlf": "tenir_le_fort",
    "scrubs": "scrubs_of_the_desert",
    "fsfl": "fighting_swashbucklers",
    "swashbucklers": "fighting_swashbucklers",
    "otf": "on_the_frontier",
    "frontier": "on_the_frontier",
}


def canonical_name(name: str) -> str:
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    return ALIASES.get(key, key)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called `name` (aliases and kebab-case accepted)."""
    key = canonical_name(name)
    if key not in SYSTEM_NAMES:
        raise RulesError(f"unknown rule system {name!r}; choose one of: {', '.join(SYSTEM_NAMES)}")
    module = importlib.import_module(f"companion.rules.{key}")
    ruleset: Ruleset = module.RULESET
    return ruleset


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(get_ruleset(n) for n in SYSTEM_NAMES)
