"""Every Scrubs of the Desert action through the command line, as a referee uses it."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.rules import get_ruleset

SYSTEM = "scrubs_of_the_desert"
RULES = get_ruleset(SYSTEM)


def _words(example: dict) -> list[str]:  # type: ignore[type-arg]
    return [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in example.items()]


CASES = [
    pytest.param(action.name, example, id=f"{action.name}-{index}")
    for action in RULES.actions.values()
    for index, example in enumerate(action.examples)
]


def test_rules_list_names_every_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--json"]) == 0
    systems = {s["name"]: s for s in json.loads(capsys.readouterr().out)}
    listed = [a["name"] for a in systems[SYSTEM]["actions"]]
    assert listed == list(RULES.actions)


@pytest.mark.parametrize(("name", "example"), CASES)
def test_show_odds_and_resolve(
    name: str,
    example: dict,  # type: ignore[type-arg]
    capsys: pytest.CaptureFixture[str],
) -> None:
    words = _words(example)
    assert main(["rules", "show", SYSTEM, name, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == name
    assert main(["odds", SYSTEM, name, *words, "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    exact = sum(Fraction(v) for v in odds["odds"]["headline_exact"].values())
    assert exact == 1
    count = sum(g["count"] for g in odds["request"]["groups"])
    dice = ",".join("9" for _ in range(count))
    assert main(["resolve", SYSTEM, name, *words, "--dice", dice, "--json"]) == 0
    resolved = json.loads(capsys.readouterr().out)
    assert resolved["details"]
    assert main(["resolve", SYSTEM, name, *words, "--dice", dice + ",1"]) == 2
    assert f"expected {count} {'die' if count == 1 else 'dice'} " in capsys.readouterr().err
    assert main(["resolve", SYSTEM, name, *words, "--dice", ",".join(["10"] * count)]) != 0
    assert "0-9" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("words", "fragments"),
    [
        (["fire", "weapon=cannon"], ["weapon='cannon' is not allowed", "french_rifle"]),
        (["fire", "figures=0"], ["figures=0 is not allowed", "1..40"]),
        (["fire", "crewed_by=infantry"], ["for the machine gun only"]),
        (["morale", "double_zero=ten"], ["double_zero='ten'", "zero, hundred"]),
        (["morale", "unit_size=4", "figures_lost=4"], ["leaves no one"]),
        (["sighting", "range=30"], ["range='30'", "0-2, 2-4, 4-8, 8-12, 12-24"]),
        (["melee-bout", "attackers=2", "defenders=2"], ["two against two"]),
        (["cannon-to-hit", "crew=1"], ["at least 2 crew"]),
        (["hook-climb", "climber=first"], ["climber='first'", "second, third"]),
        (["move", "pace=fast"], ["no parameter 'pace'", "unit_type, terrain"]),
    ],
)
def test_a_wrong_parameter_is_named(
    words: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", SYSTEM, *words]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    for fragment in fragments:
        assert fragment in err


def test_double_zero_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", SYSTEM, "morale", "base_morale=60", "--dice", "0,0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["headline"] == 1
    words = ["base_morale=60", "double_zero=hundred"]
    assert main(["resolve", SYSTEM, "morale", *words, "--dice", "0,0", "--json"]) == 0
    resolved = json.loads(capsys.readouterr().out)
    assert resolved["headline"] == 0 and "rolled 100" in resolved["details"][1]
