"""Reading scenario files: TOML text in, a validated Scenario and its ruleset out; and the
scenarios a box offers for a new game (each system's example, the files of a folder)."""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError
from companion.rules import SYSTEM_NAMES, all_rulesets, canonical_name, get_ruleset
from companion.rules.core import RulesError, Ruleset, Scenario, ScenarioError

log = logging.getLogger(__name__)


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


def read_scenario_file(path: Path, *, named: str = "", missing: str = "not found") -> str:
    """The file's text, or a ScenarioFileError that names it (`named`, by default
    "scenario file PATH") and says what is wrong (`missing` when it is not there)."""
    named = named or f"scenario file {path}"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioFileError(f"{named} {missing}") from None
    except (OSError, UnicodeDecodeError) as exc:
        problem = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ScenarioFileError(f"{named} cannot be read ({problem})") from None


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


@dataclass(frozen=True)
class Picked:
    """A scenario chosen for a new game, read and checked: ready to start."""

    name: str  # as the journal keeps it
    text: str
    system: str  # the rule system's title
    title: str  # the scenario's


@dataclass(frozen=True)
class ScenarioChoice:
    """A game the box offers to start: how its list names it, and where its scenario is.

    `labels` are ways to name it, longest first: the box shows the first that fits its
    screen. `where` names it in an error ("zinderneuf.toml: ..."): a file by its name,
    since the screen has three short lines. Reading is left to `load`, when the referee
    picks it, so that a file copied in while the box runs is offered, and a broken one
    spoils nothing but its own pick."""

    labels: tuple[str, ...]
    name: str
    where: str
    read: Callable[[], str]

    def load(self) -> Picked:
        """The scenario, read and checked: ScenarioFileError, naming `where` and the
        problem, when it cannot be played."""
        text = self.read()
        ruleset, scenario = parse_scenario(text, self.where)
        return Picked(self.name, text, ruleset.title, scenario.title)


def system_labels(ruleset: Ruleset) -> tuple[str, ...]:
    """A system's names for a list, longest first: its title, then the words of the title
    that make up its short name ("Fighting Swashbucklers" for fighting_swashbucklers)."""
    words = ruleset.name.split("_")
    start = ruleset.title.split()[: len(words)]
    short = " ".join(start)
    if [w.lower() for w in start] != words or short == ruleset.title:
        return (ruleset.title,)
    return (ruleset.title, short)


def _read_listed_file(path: Path) -> str:
    """A scenario file from the box's folder, its errors naming it by its name."""
    return read_scenario_file(path, named=f"{path.name}:",
                              missing="no longer in the scenarios folder")


def scenario_choices(folder: Path) -> list[ScenarioChoice]:
    """The games a box offers: each system's example scenario, then every ``*.toml`` file
    in ``folder`` by name. A folder that is missing offers the examples alone; one that
    cannot be listed too, and the log says why."""
    choices = [ScenarioChoice(system_labels(ruleset), f"example {ruleset.name}",
                              f"the {ruleset.title} example",
                              partial(example_scenario_text, ruleset.name))
               for ruleset in all_rulesets()]
    files: list[Path] = []
    try:
        with os.scandir(folder) as entries:  # unlike glob, says when it cannot look
            # Hidden names are an editor's lock and backup files, not scenarios.
            files = sorted(Path(entry.path) for entry in entries
                           if entry.name.endswith(".toml") and not entry.name.startswith(".")
                           and not entry.is_dir())
    except FileNotFoundError:
        pass  # no folder yet: nobody has copied a scenario in
    except OSError as exc:
        log.warning("the scenarios folder %s cannot be listed (%s): only the examples are "
                    "offered", folder, exc.strerror or exc)
    choices += [ScenarioChoice((path.name,), str(path), path.name,
                               partial(_read_listed_file, path)) for path in files]
    return choices
