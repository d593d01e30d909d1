"""Reading scenario files: TOML text in, a validated Scenario and its ruleset out."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError
from companion.rules import SYSTEM_NAMES, canonical_name, get_ruleset
from companion.rules.core import RulesError, Ruleset, Scenario, ScenarioError


class ScenarioFileError(CompanionError):
    """A scenario file that cannot be played; names the file, unit and field."""


def example_scenario_text(system: str) -> str:
    """The example scenario shipped for a system."""
    name = canonical_name(system)
    if name not in SYSTEM_NAMES:
        raise ScenarioFileError(
            f"unknown rule system {system!r}; choose one of: {', '.join(SYSTEM_NAMES)}"
        )
    return resources.files("companion.scenarios").joinpath(f"{name}.toml").read_text("utf-8")


def read_scenario_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioFileError(f"scenario file {path} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(f"scenario file {path} cannot be read ({exc})") from None


def parse_scenario(text: str, where: str = "scenario") -> tuple[Ruleset, Scenario]:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(f"{where}: not valid TOML ({exc})") from None
    system = raw.get("system")
    if not isinstance(system, str):
        raise ScenarioFileError(f"{where}: needs system = one of: {', '.join(SYSTEM_NAMES)}")
    try:
        ruleset = get_ruleset(system)
        return ruleset, ruleset.load_scenario(raw)
    except (ScenarioError, RulesError) as exc:
        raise ScenarioFileError(f"{where}: {exc}") from None
