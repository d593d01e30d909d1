"""Every FortBoard roll through the command line, as a referee would use it."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.rules.fortboard.actions import ACTIONS

CASES = [
    pytest.param(name, example, id=f"{name}-{index}")
    for name, action in ACTIONS.items()
    for index, example in enumerate(action.examples)
]


def _words(example: dict[str, int | bool | str]) -> list[str]:
    return [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in example.items()]


def test_rules_list_shows_fortboard_with_its_actions_and_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "list", "--json"]) == 0
    system = next(s for s in json.loads(capsys.readouterr().out) if s["name"] == "fortboard")
    assert system["dice"] == ["d6"]
    assert [a["name"] for a in system["actions"]] == list(ACTIONS)
    assert {o["name"] for o in system["options"]} >= {"bridge_width", "catapult_reach"}
    assert main(["rules", "list"]) == 0
    assert "fortboard  (FortBoard v1.6; dice: d6)" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "example"), CASES)
def test_show_odds_and_resolve(
    name: str, example: dict[str, int | bool | str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "show", "fortboard", name, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["name"] == name
    assert [p["name"] for p in shown["params"]] == [p.name for p in ACTIONS[name].params]
    words = _words(example)
    assert main(["odds", "fortboard", name, *words, "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    exact = sum(Fraction(v) for v in odds["odds"]["headline_exact"].values())
    assert exact == 1
    dice = ",".join("6" for g in odds["request"]["groups"] for _ in range(g["count"]))
    assert main(["resolve", "fortboard", name, *words, "--dice", dice, "--json"]) == 0
    resolved = json.loads(capsys.readouterr().out)
    assert resolved["headline_label"] == odds["odds"]["headline_label"]
    assert main(["resolve", "fortboard", name, *words, "--dice", dice]) == 0
    assert capsys.readouterr().out.startswith(odds["request"]["reason"])


@pytest.mark.parametrize("name", list(ACTIONS))
def test_wrong_dice_and_parameters_are_named(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = _words(dict(ACTIONS[name].examples[0]))
    request = ACTIONS[name].request(ACTIONS[name].complete_params(ACTIONS[name].examples[0]))
    too_many = ",".join(["3"] * (request.dice_count + 1))
    assert main(["resolve", "fortboard", name, *words, "--dice", too_many]) == 2
    dice = "die" if request.dice_count == 1 else "dice"
    assert f"expected {request.dice_count} {dice} " in capsys.readouterr().err
    seven = ",".join(["7"] * request.dice_count)
    assert main(["resolve", "fortboard", name, *words, "--dice", seven]) == 2
    assert "is a d6 and reads 1-6, got 7" in capsys.readouterr().err
    assert main(["odds", "fortboard", name, "bogus=1"]) == 2
    assert "has no parameter 'bogus'; it takes:" in capsys.readouterr().err


def test_a_wrong_value_names_the_parameter_and_what_is_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "fortboard", "wall-weapon", "attempts=5"]) == 2
    assert "attempts=5 is not allowed; use a whole number 1..4" in capsys.readouterr().err
    assert main(["odds", "fortboard", "melee", "attacker_kind=elephant"]) == 2
    err = capsys.readouterr().err
    assert "attacker_kind='elephant' is not allowed; use infantry, pike, archer" in err
    assert main(["odds", "fortboard", "missile-fire", "archers=0"]) == 2
    assert "needs someone to shoot" in capsys.readouterr().err
    assert main(["odds", "fortboard", "catapult"]) == 2
    assert "fortboard has no action 'catapult'; its actions are:" in capsys.readouterr().err
