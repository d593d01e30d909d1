"""The step modules of `play/` import only the ones before them in the package's map,
so that the call graph between them stays one-way (see play/__init__.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import companion.rules.tenir_le_fort.play as play

PACKAGE = "companion.rules.tenir_le_fort.play"


def layers() -> list[str]:
    """The modules in the order the package's docstring lists them, lowest first."""
    return re.findall(r"^- `(\w+)`:", play.__doc__ or "", flags=re.MULTILINE)


def step_modules_imported(name: str) -> set[str]:
    tree = ast.parse((Path(play.__file__).parent / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
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
