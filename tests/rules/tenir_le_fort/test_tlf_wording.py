"""What the referee reads: the play-by-play says who does what, once, in plain words.

Each test plays a few steps of a small scripted game (tlfplay) and checks the lines the
box logs, or the words of a single roll, against what a referee needs to move figures.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from tlfplay import Play, at_first_chip, small, to_first_chip, unit_raw

from companion.rules.core import AwaitChoice, Odds, Outcome
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.ui.wording import (
    category_name,
    headline,
    named_outcomes,
    odds_line,
    pretty,
    without_dice,
    yes_no,
)


def _raiders() -> Play:
    """The small game with its war band named in the plural."""
    raw = small()
    unit_raw(raw, "Band")["name"] = "Raiders"
    return at_first_chip(raw)


def test_a_plural_band_takes_plural_verbs_in_log_and_prompts() -> None:
    p = _raiders()
    p.chip("A")
    p.choose("fire")
    assert p.prompt() == "Raiders fire at?"
    p.choose("target:Legion", "cover:none")
    p.roll(5, 5, 1, 1, 1, 1)
    assert p.said("Raiders fire at Legion: 2 hits.")
    assert not p.said("Raiders fires")


def test_a_plural_band_loses_figures_and_is_destroyed_in_the_plural() -> None:
    p = _raiders()
    p.chip("L")
    p.choose("fire", "target:Raiders", "cover:none", "far")
    p.roll(6, 6, 6, 6, 6)  # five hits, pinned
    assert p.said("Raiders are pinned.")
    assert p.said("Raiders lose 5 figures; 1 left.")


def test_a_command_figure_stays_singular_whatever_his_name() -> None:
    raw = small()
    unit_raw(raw, "Sheikh")["name"] = "Sheikh Idris"
    p = Play(raw)
    to_first_chip(p)
    p.chip("S")
    p.choose("attach", "unit:Band")
    assert p.said("Sheikh Idris joins Band")


def test_a_move_is_said_once_with_its_distance() -> None:
    p = at_first_chip()
    p.chip("L")
    p.choose("move")
    p.roll(5, 4, 2)  # the sergeant's extra die, the lowest dropped
    assert p.said("Legion moves up to 9 inches.")
    assert not any(line.startswith("Legion: total") for line in p.log)


def test_a_charge_names_its_distance_and_a_berserk_charge_says_why() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(6, 1, 1)
    assert p.said("Band goes berserk (a 6 on the charge)!")
    assert p.said("Band charges home: berserk, the charge always makes contact.")
    assert not any("berserk: moves as far" in line for line in p.log)


def test_close_combat_says_how_many_fall_back() -> None:
    p = at_first_chip()
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(2, 3, 4)
    p.choose("yes", "stand", "open", "no")
    for _ in range(4):  # each tribesman 4 against 6+1 sergeant: loses with a 4, falls back
        p.roll(4, 6)
    assert p.said("the attacker (Arab) loses with 4: falls back")
    p.roll(6, 6)  # the fifth
    p.roll(4, 6)  # the sixth
    assert p.said("Band: 0 killed, 6 fall back, pinned.")


def test_a_wound_roll_with_no_effect_says_so() -> None:
    out = ACTIONS["wound-check"].resolve(ACTIONS["wound-check"].complete_params({"hits": 1}), (5,))
    assert out.details == ("5: no effect",)
    out = ACTIONS["wound-check"].resolve(
        ACTIONS["wound-check"].complete_params({"hits": 3}), (1, 2, 5)
    )
    assert out.details[-1] == "1, 2, 5: 1 dead; 1 wounded"


@pytest.mark.parametrize(
    ("params", "dice", "shown"),
    [
        ({"hits": 1, "figures": 1}, (5,), "0 casualties"),  # 4-6: no effect
        ({"hits": 1, "figures": 1}, (2,), "1 man wounded"),  # 2-3: wounded
        ({"hits": 1, "figures": 1}, (1,), "1 man dead"),  # 1: dead
        ({"hits": 1, "figures": 1, "already_wounded": 1}, (3,), "1 man dead"),  # wounded again
        ({"hits": 3}, (2, 3, 6), "2 men wounded"),
        ({"hits": 3}, (1, 1, 4), "2 men dead"),
        ({"hits": 3}, (1, 2, 5), "2 casualties"),  # the details say 1 dead, 1 wounded
        ({"hits": 1, "figures": 3, "hero_hit": True}, (5, 3), "0 casualties"),  # hero ignores it
    ],
)
def test_a_wound_roll_s_headline_says_who_is_dead_and_who_wounded(
    params: dict[str, int | bool], dice: tuple[int, ...], shown: str
) -> None:
    # the box words the headline from its label (companion/ui/wording.py): one die's
    # result must never read as a yes or no ("Killed: no" for a wounded man)
    action = ACTIONS["wound-check"]
    out = action.resolve(action.complete_params(params), dice)
    assert headline(out) == shown
    assert not yes_no(out.headline_label, [out.headline])


def test_the_wound_roll_s_odds_count_casualties_with_the_chance_of_each_kind() -> None:
    action = ACTIONS["wound-check"]
    params = action.complete_params({"hits": 1, "figures": 1})
    odds = action.odds(params)
    assert odds.headline_label == "casualties"
    assert odds_line(odds, action.request(params).groups) == (
        "casualties 50%, killed 17%, wounded 33%"
    )


def test_the_resolve_roll_says_its_total_and_what_it_needed() -> None:
    p = Play(small(turn_limit=2))
    to_first_chip(p)
    p.state = replace(p.s, casualties=30)  # stand-in for a bloody first turn
    p.pass_all()
    p.choose("no", "no", "cp:0")
    p.roll(4)
    assert p.said("Arab resolve holds (4, needs 2): the attack goes on.")


def test_an_ffl_sortie_goes_out_and_its_success_is_announced_after_the_secret_roll() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "unit:Legion", "no")  # over the wall: no sentry near
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.about == "night: wall to desert"
    p.choose("no", "yes")
    p.roll(1, 6)  # attacking the target: the sentry's 1 against the party's 6
    assert p.prompt() == "Party gets through!", "the secret roll does not hide the success"
    p.choose("ok")
    assert p.said("The operation succeeds: the party of 4 from Legion gets through;")
    assert p.said("=== Attack 1, day 2 ===")


def test_deploying_nobody_in_the_tower_says_so() -> None:
    raw = small(tower=True, tower_donor="Legion")
    p = Play(raw)
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "none", "tower:0")
    assert p.said("The FFL deploy; nobody climbs the tower.")


def test_secret_rolls_are_not_called_secret_twice() -> None:
    for name in ("reinforcement-day", "reinforcement-arrival"):
        request = ACTIONS[name].request(ACTIONS[name].complete_params({}))
        assert request.secret and "secret" not in request.reason


def test_the_maxim_is_named_with_a_capital() -> None:
    request = ACTIONS["maxim-fire"].request(ACTIONS["maxim-fire"].complete_params({}))
    assert request.reason == "FFL Maxim fire"


# ------------------------------------------------- one screen, one story (referee audit)


def _run(name: str, dice: tuple[int, ...], **params: int | bool | str) -> Outcome:
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


def _odds(name: str, **params: int | bool | str) -> Odds:
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


def _faces_lines(name: str, **params: int | bool | str) -> list[str]:
    """The dice's meaning as the roll screen shows it: "label: meaning"."""
    action = ACTIONS[name]
    request = action.request(action.complete_params(params))
    return [f"{g.label}: {g.faces_meaning}" for g in request.groups]


@pytest.mark.parametrize(
    ("dice", "lost"),
    [
        ((5, 5, 2, 2, 2, 2, 2, 2), "the 2 hits are lost"),  # clears, but scores nothing
        ((1, 4, 4, 2, 2, 2, 2, 2), "the 2 hits are lost"),  # still jammed
        ((1, 1, 1, 4, 2, 2, 2, 2), "the hit is lost"),  # broken for good
    ],
)
def test_a_jammed_maxim_s_clearing_roll_states_no_hits_it_does_not_score(
    dice: tuple[int, ...], lost: str
) -> None:
    out = _run("maxim-fire", dice, jammed=True)
    assert headline(out) == "0 hits"
    rolled = ", ".join(map(str, dice))
    assert f"{rolled}: a clearing roll, {lost}" in out.details
    assert not any(line.endswith(("2 hits", "1 hit")) for line in out.details)


def test_a_clearing_roll_that_scores_still_counts_its_hits() -> None:
    out = _run("maxim-fire", (5, 4, 2, 2, 2, 2, 2, 2), jammed=True, clear_fires=True)
    assert "5, 4, 2, 2, 2, 2, 2, 2: 2 hits" in out.details


def test_a_unit_that_does_not_move_is_not_told_a_total_in_inches() -> None:
    # in-fighting (and a pin) stop the move: "0 inches" over "total 3 inches" contradicts
    out = _run("move", (1, 2), side="Arab", mixed_tribes=True)
    assert headline(out) == "0 inches"
    assert "dice total 3" in out.details
    assert not any("inches" in line for line in out.details)
    still = _run("move", (4, 4), side="Arab", pinned=True)
    assert headline(still) == "0 inches" and "dice total 8" in still.details
    assert _run("move", (3, 5), side="Arab").details[-1] == "total 8 inches"


def test_in_fighting_is_spelt_one_way_on_every_screen() -> None:
    out = _run("move", (1, 2), side="Arab", mixed_tribes=True)
    shown = [pretty(e) for e in out.effects] + list(out.details)
    shown += list(_odds("move", mode="counter_charge", mixed_tribes=True).effects)
    assert "in-fighting" in out.effects
    assert not any("infighting" in text.lower() for text in shown)


def test_command_points_are_named_once_and_their_die_reads_naturally() -> None:
    out = _run("command-points", (6,), side="FFL")
    assert headline(out) == "6 command points"
    assert out.details == ()  # "6 command points" again would say nothing
    assert _faces_lines("command-points", side="FFL") == [
        "command points: as many as the die shows"
    ]
    assert _faces_lines("command-points", side="Arab", halved=True) == [
        "command points: half the die, rounded down"
    ]
    halved = _run("command-points", (5,), side="Arab", halved=True)
    assert headline(halved) == "2 command points"


def test_the_ammunition_check_names_the_fire_left_not_a_divisor() -> None:
    action = ACTIONS["ammunition"]
    params = action.complete_params({})
    out = action.resolve(params, (6, 6))
    noun, names = named_outcomes(out.headline_label) or ("", {})
    assert (noun, category_name(out.headline, names)) == ("ammo", "fire at a third")
    assert "divisor" not in odds_line(action.odds(params), action.request(params).groups)
    assert odds_line(action.odds(params), action.request(params).groups) == (
        "plenty 58%, fire at half 39%, fire at a third 3%, low ammo 42%"
    )


def test_the_next_attack_die_says_what_it_counts() -> None:
    assert _faces_lines("next-attack-day") == ["days to wait: half the die, rounded up"]
    assert _faces_lines("next-attack-day", rule="d6") == ["days to wait: as many as the die shows"]


def test_a_leader_s_menu_asks_a_question_with_the_points_left() -> None:
    p = at_first_chip()  # the Arabs have 3 CP
    p.chip("S")
    assert p.prompt() == "Sheikh: spend CP? (3 left)"


def test_dynamite_says_its_number_once() -> None:
    out = _run("dynamite", (5, 6), use="mine")
    assert headline(out) == "11 hits"
    assert not any("11" in line for line in out.details)
    gate = _run("dynamite", (3, 4), use="mine", target="gate")
    assert gate.details == (
        "each hit is a point of damage to the gate",
        "7 damage: the gate is destroyed",
    )


def test_a_wound_roll_of_one_kind_is_not_said_again_under_its_headline() -> None:
    out = _run("wound-check", (5, 3, 4), hits=3)
    assert headline(out) == "1 man wounded"
    assert out.details == ("5, 3, 4: 1 man wounded",)
    # the box shows the dice and the headline: the line then has nothing left to say
    assert without_dice(out.details[-1], "5, 3, 4", (headline(out),)) == ""
    assert _run("wound-check", (1, 1, 4), hits=3).details == ("1, 1, 4: 2 men dead",)


def test_a_charge_s_odds_do_not_count_berserk_twice_as_contact() -> None:
    # no distance is asked before the roll: contact by itself would only be berserk again
    odds = _odds("move", side="Arab", kind="mounted", mode="charge")
    assert "berserk" in odds.effects and not odds.effects.get("contact")
    assert "contact" not in odds_line(odds)
    # a distance given makes contact its own question
    assert _odds("move", side="Arab", mode="charge", distance=9).effects["contact"] > 0


def test_a_berserk_charge_is_not_given_a_distance_it_does_not_need() -> None:
    action = ACTIONS["move"]
    params = action.complete_params({"side": "Arab", "mode": "charge"})
    out = action.resolve(params, (6, 1, 1))
    assert "berserk" in out.effects
    noun, names = named_outcomes(out.headline_label, action.request(params).groups) or ("", {})
    assert (noun, category_name(out.headline, names)) == ("inches", "as far as needed")
    assert out.headline == 8  # still the dice's total, as the odds count it
    assert "dice total 8" in out.details and not any("inches" in d for d in out.details)
    plain = action.resolve(params, (2, 3, 4))
    assert headline(plain) == "9 inches"
