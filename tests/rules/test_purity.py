"""The rules core is pure: standard library only, and no I/O, clock or randomness.

Checked on the source (every import statement under companion/rules/), so a
lazy import inside a function is caught too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"
# Standard-library modules that would let the core touch the world.
FORBIDDEN_STDLIB = {
    "os",
    "io",
    "sys",
    "socket",
    "sqlite3",
    "subprocess",
    "pathlib",
    "shutil",
    "tempfile",
    "time",
    "datetime",
    "random",
    "secrets",
    "threading",
    "multiprocessing",
    "asyncio",
    "logging",
    "signal",
    "select",
    "urllib",
    "http",
    "glob",
    "builtins",
    "importlib.resources",
}
ALLOWED_DYNAMIC = {"importlib"}  # the registry imports systems by name, nothing else


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


SOURCES = sorted(RULES.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(RULES)))
def test_rules_module_imports_only_pure_stdlib_and_rules(path: Path) -> None:
    for name in imports(path):
        top = name.split(".")[0]
        if name.startswith("companion."):
            assert name.startswith("companion.rules"), f"{path.name} imports {name}"
            continue
        assert top in sys.stdlib_module_names, f"{path.name} imports non-stdlib {name}"
        assert top not in FORBIDDEN_STDLIB and name not in FORBIDDEN_STDLIB, (
            f"{path.name} imports {name}: the rules core does no I/O, has no clock and "
            "no randomness"
        )
        if top in ALLOWED_DYNAMIC:
            assert path.name == "__init__.py" and path.parent == RULES


def test_the_check_sees_every_system() -> None:
    names = {p.relative_to(RULES).parts[0] for p in SOURCES}
    assert {"core.py", "odds.py"} <= names
