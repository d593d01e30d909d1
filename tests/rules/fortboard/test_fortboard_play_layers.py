"""The step modules of `play/` import only the ones before them in the package's map,
so that the call graph between them stays one-way (see play/__init__.py); `game.py`
gathers their handlers by ask kind."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import companion.rules.fortboard.play as play
from companion.rules.fortboard import game

PACKAGE = "companion.rules.fortboard.play"

# An ask's kind is persisted: a journaled game's state holds a stack of asks, rebuilt
# by replaying its inputs through the handlers these kinds name.
CHOICE_KINDS = {
    "menu", "from", "dest", "target", "range", "reaction", "cat_target", "space_hit", "aim",
    "weapon_target", "survivor_place",
}
ROLL_KINDS = {
    "replace_roll", "missile_roll", "structure_roll", "wound_roll", "interior_roll", "gun_roll",
    "weapon_roll", "survivors_roll", "douse_roll", "melee_roll",
}


def layers() -> list[str]:
    """The modules in the order the package's docstring lists them, lowest first."""
    return re.findall(r"^- `(\w+)`:", play.__doc__ or "", flags=re.MULTILINE)


def syntax_tree(name: str) -> ast.Module:
    return ast.parse((Path(play.__file__).parent / f"{name}.py").read_text(encoding="utf-8"))


def step_modules_imported(name: str) -> set[str]:
    found = set()
    for node in ast.walk(syntax_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(f"{PACKAGE}."):
                found.add(node.module.removeprefix(f"{PACKAGE}."))
            elif node.module == PACKAGE:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix(f"{PACKAGE}.") for alias in node.names
                         if alias.name.startswith(f"{PACKAGE}."))
    return found


def test_the_map_lists_every_step_module_once() -> None:
    on_disk = {p.stem for p in Path(play.__file__).parent.glob("*.py")} - {"__init__"}
    assert sorted(layers()) == sorted(on_disk)


def test_each_step_module_imports_only_the_ones_below_it() -> None:
    order = layers()
    for position, name in enumerate(order):
        above = step_modules_imported(name) - set(order[:position])
        assert not above, f"play/{name}.py imports {sorted(above)}, listed after it"


def test_step_modules_import_at_the_top_and_never_the_entry_points() -> None:
    for name in layers():
        tree = syntax_tree(name)
        nested = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and node not in tree.body
        ]
        assert not nested, f"play/{name}.py imports inside a definition (lines {nested})"
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                names = {f"{node.module}.{alias.name}" for alias in node.names}
                assert "companion.rules.fortboard.game" not in {node.module, *names}, name


def test_every_ask_kind_has_one_question_and_one_handler() -> None:
    # the menu's question is built by game.py itself
    assert set(game._CHOICE_HANDLERS) == CHOICE_KINDS
    assert set(game._CHOICE_ASKS) == CHOICE_KINDS - {"menu"}
    assert set(game._ROLL_HANDLERS) == set(game._ROLL_ASKS) == ROLL_KINDS
