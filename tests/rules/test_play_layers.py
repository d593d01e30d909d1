"""A system's sequence of play split into step modules (`<system>/play/`): each imports
only the modules before it in its package's map, at the top, and never the game module
that gathers their handlers, so that the call graph between them stays one-way; where
play goes back to an earlier part, it does so through a question the game module routes."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"
SYSTEMS_WITH_STEPS = sorted(p.parent.parent.name for p in RULES.glob("*/play/__init__.py"))


@pytest.fixture(params=SYSTEMS_WITH_STEPS)
def play(request: pytest.FixtureRequest) -> ModuleType:
    return importlib.import_module(f"companion.rules.{request.param}.play")


def layers(play: ModuleType) -> list[str]:
    """The modules in the order the package's docstring lists them, lowest first."""
    return re.findall(r"^- `(\w+)`:", play.__doc__ or "", flags=re.MULTILINE)


def syntax_tree(play: ModuleType, name: str) -> ast.Module:
    return ast.parse((Path(play.__file__ or "").parent / f"{name}.py").read_text(
        encoding="utf-8"))


def step_modules_imported(play: ModuleType, name: str) -> set[str]:
    package = play.__name__
    found = set()
    for node in ast.walk(syntax_tree(play, name)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(f"{package}."):
                found.add(node.module.removeprefix(f"{package}."))
            elif node.module == package:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix(f"{package}.") for alias in node.names
                         if alias.name.startswith(f"{package}."))
    return found


def test_the_map_lists_every_step_module_once(play: ModuleType) -> None:
    on_disk = {p.stem for p in Path(play.__file__ or "").parent.glob("*.py")} - {"__init__"}
    assert sorted(layers(play)) == sorted(on_disk)


def test_each_step_module_imports_only_the_ones_below_it(play: ModuleType) -> None:
    order = layers(play)
    for position, name in enumerate(order):
        above = step_modules_imported(play, name) - set(order[:position])
        assert not above, f"play/{name}.py imports {sorted(above)}, listed after it"


def test_step_modules_import_at_the_top_and_never_the_game_module(play: ModuleType) -> None:
    game = play.__name__.removesuffix(".play") + ".game"
    for name in layers(play):
        tree = syntax_tree(play, name)
        nested = [node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Import | ast.ImportFrom) and node not in tree.body]
        assert not nested, f"play/{name}.py imports inside a definition (lines {nested})"
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                names = {f"{node.module}.{alias.name}" for alias in node.names}
                assert game not in {node.module, *names}, name


# Systems whose step modules declare each stage whole (its question and its answer).
SYSTEMS_WITH_STAGES = [name for name in SYSTEMS_WITH_STEPS
                       if "_CHOICES" in (RULES / name / "game.py").read_text(encoding="utf-8")]


@pytest.mark.parametrize("system", SYSTEMS_WITH_STAGES)
def test_a_stage_asks_for_a_choice_or_a_roll_never_both(system: str) -> None:
    game = importlib.import_module(f"companion.rules.{system}.game")
    assert game._CHOICES and game._ROLLS
    assert not set(game._CHOICES) & set(game._ROLLS)
