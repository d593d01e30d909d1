"""Every system's docs/rules page names each of its actions and options, so that a referee
who meets a name on the box or in a scenario file can look it up (the per-system doc tests
check wording and tables; this one makes sure no system is left out)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules import SYSTEM_NAMES, get_ruleset

DOCS = Path(__file__).parents[2] / "docs" / "rules"


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_action_and_option_is_named_in_the_docs(system: str) -> None:
    ruleset = get_ruleset(system)
    page = DOCS / f"{system.replace('_', '-')}.md"
    text = page.read_text(encoding="utf-8")
    missing = [f"action {a}" for a in ruleset.actions if f"`{a}`" not in text]
    missing += [f"option {o.name}" for o in ruleset.options if f"`{o.name}" not in text]
    assert not missing, f"{page} does not name: {', '.join(missing)}"
