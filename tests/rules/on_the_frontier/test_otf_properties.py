"""Invariants of On the Frontier's odds, checked with hypothesis and icepool."""

from __future__ import annotations

import random
import re
import tomllib
from fractions import Fraction
from importlib import resources

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import get_ruleset
from companion.rules.core import AwaitChoice, AwaitRoll, Chosen, GameOver, Odds, Rolled, RuleOption
from companion.rules.on_the_frontier.game import GameState

RULES = get_ruleset("on_the_frontier")
SHOOT = RULES.actions["shoot"]
CHARGE = RULES.actions["charge-dice"]
RALLY = RULES.actions["rally"]

shoot_params = st.fixed_dictionaries(
    {
        "weapon": st.sampled_from(["musket", "rifle", "artillery"]),
        "figures": st.integers(2, 60),
        "range": st.sampled_from(["close", "long"]),
        "superior": st.booleans(),
        "target_kind": st.sampled_from(["infantry", "cavalry", "skirmishers", "tribesmen"]),
        "in_cover": st.booleans(),
        "natural_six": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None)
@given(shoot_params, st.data())
def test_hits_never_exceed_the_dice(params: dict, data: st.DataObject) -> None:  # type: ignore[type-arg]
    p = SHOOT.complete_params(params)
    req = SHOOT.request(p)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=req.dice_count, max_size=req.dice_count))
    out = SHOOT.resolve(p, dice)
    assert 0 <= out.headline <= req.dice_count
    assert max(SHOOT.odds(p).headline) <= req.dice_count


@settings(max_examples=60, deadline=None)
@given(shoot_params)
def test_odds_sum_to_one_and_another_die_never_hurts(params: dict) -> None:  # type: ignore[type-arg]
    p = SHOOT.complete_params(params)
    odds = SHOOT.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    more = SHOOT.odds(SHOOT.complete_params({**params, "figures": min(60, params["figures"] + 2)}))
    for k in range(1, 31):
        assert more.at_least(k) >= odds.at_least(k)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["infantry", "cavalry", "artillery", "tribesmen"]),
    st.integers(1, 40),
    st.booleans(),
    st.booleans(),
)
def test_charge_odds_match_icepool(kind: str, figures: int, shock: bool, cover: bool) -> None:
    p = CHARGE.complete_params(
        {"kind": kind, "figures": figures, "shock": shock, "enemy_in_cover": cover}
    )
    req = CHARGE.request(p)
    need = 5 - (1 if shock else 0) + (1 if cover else 0)
    die = icepool.d6.map(lambda f: 1 if f >= need else 0)
    expected = (req.dice_count @ die) if req.dice_count else icepool.Die([0])
    ours = CHARGE.odds(p).headline
    for k in range(req.dice_count + 1):
        assert ours.get(k, Fraction(0)) == Fraction(expected.probability(k))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["elite", "regular", "poor"]), st.booleans())
def test_rally_recovered_never_exceeds_casualties(
    casualties: int, quality: str, leader: bool
) -> None:
    p = RALLY.complete_params(
        {"casualties": casualties, "quality": quality, "leader_joined": leader}
    )
    odds = RALLY.odds(p)
    assert sum(odds.headline.values(), Fraction(0)) == 1
    assert max(k for k, v in odds.headline.items() if v) <= casualties


@pytest.mark.parametrize(
    ("action", "params", "mean"),
    [
        ("shoot", {"figures": 60}, Fraction(30, 3)),  # 30 dice, a third hit
        ("charge-dice", {"kind": "cavalry", "figures": 40}, Fraction(40, 3)),
        ("rally", {"casualties": 40}, Fraction(40, 3)),
        ("demolition", {"charges": 40}, Fraction(140)),
        ("engineering", {"figures": 60}, Fraction(105, 2)),  # 15 dice
    ],
)
def test_big_pools_are_exact(action: str, params: dict, mean: Fraction) -> None:  # type: ignore[type-arg]
    """The largest pools a table sees still give exact odds with the textbook mean
    (how fast they are is a benchmark's business, not a test's)."""
    a = RULES.actions[action]
    odds = a.odds(a.complete_params(params))
    assert sum(odds.headline.values(), Fraction(0)) == 1
    assert odds.mean() == mean


# ------------------------------------------------------ modifiers in your favour


def at_least_all(odds: Odds, top: int) -> list[Fraction]:
    return [odds.at_least(k) for k in range(1, top + 1)]


def dominates(better: Odds, worse: Odds, top: int) -> bool:
    """`better` gives at least as good a chance of every number of hits or more."""
    return all(
        b >= w for b, w in zip(at_least_all(better, top), at_least_all(worse, top), strict=True)
    )


@settings(max_examples=60, deadline=None)
@given(shoot_params, st.sampled_from(["superior", "close", "no_cover", "easy_target"]))
def test_a_shooting_modifier_in_your_favour_never_lowers_the_chance(
    params: dict,
    favour: str,  # type: ignore[type-arg]
) -> None:
    better = dict(params)
    worse = dict(params)
    if favour == "superior":
        better["superior"], worse["superior"] = True, False
    elif favour == "close":
        better["range"], worse["range"] = "close", "long"
    elif favour == "no_cover":
        better["in_cover"], worse["in_cover"] = False, True
    else:
        better["target_kind"], worse["target_kind"] = "infantry", "cavalry"
    top = SHOOT.request(SHOOT.complete_params(params)).dice_count
    assert dominates(
        SHOOT.odds(SHOOT.complete_params(better)), SHOOT.odds(SHOOT.complete_params(worse)), top
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["infantry", "cavalry", "artillery", "tribesmen", "skirmishers"]),
    st.integers(1, 30),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["shock", "no_cover", "no_square"]),
)
def test_a_charge_modifier_in_your_favour_never_lowers_the_chance(
    kind: str, figures: int, shock: bool, cover: bool, square: bool, favour: str
) -> None:
    base = {
        "kind": kind,
        "figures": figures,
        "shock": shock,
        "enemy_in_cover": cover,
        "enemy_in_square": square,
    }
    flag, good = {"shock": ("shock", True), "no_cover": ("enemy_in_cover", False)}.get(
        favour, ("enemy_in_square", False)
    )
    better = CHARGE.odds(CHARGE.complete_params({**base, flag: good}))
    worse = CHARGE.odds(CHARGE.complete_params({**base, flag: not good}))
    assert dominates(better, worse, figures)


QUALITY_ORDER = ["poor", "militia", "regular", "veteran", "elite"]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 20), st.integers(0, 3), st.booleans())
def test_better_troops_or_a_leader_rally_at_least_as_well(
    casualties: int, quality_step: int, leader: bool
) -> None:
    def odds(quality: str, joined: bool) -> Odds:
        return RALLY.odds(
            RALLY.complete_params(
                {"casualties": casualties, "quality": quality, "leader_joined": joined}
            )
        )

    worse = odds(QUALITY_ORDER[quality_step], leader)
    for better in (
        odds(QUALITY_ORDER[quality_step + 1], leader),
        odds(QUALITY_ORDER[quality_step], True),
    ):
        assert dominates(better, worse, casualties)
        assert better.effects.get("removed", Fraction(0)) <= worse.effects.get(
            "removed", Fraction(0)
        )


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 20), st.sampled_from(["weak_wall", "small_bridge", "large_bridge"]))
def test_another_charge_never_lowers_the_chance_of_a_breach(charges: int, target: str) -> None:
    demolition = RULES.actions["demolition"]

    def breach(n: int) -> Fraction:
        odds = demolition.odds(demolition.complete_params({"charges": n, "target": target}))
        return odds.effects.get("breached", Fraction(0))

    assert breach(charges + 1) >= breach(charges)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 40), st.integers(0, 5))
def test_more_hands_never_lower_the_chance_of_finishing_a_task(figures: int, before: int) -> None:
    work = RULES.actions["engineering"]

    def done(n: int) -> Fraction:
        odds = work.odds(work.complete_params({"figures": n, "points_so_far": before}))
        return odds.effects.get("task_done", Fraction(0))

    assert done(figures + 4) >= done(figures)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["infantry", "artillery", "wagons", "skirmishers", "cavalry", "commander"]),
    st.booleans(),
    st.booleans(),
)
def test_a_penalty_never_lengthens_a_move(kind: str, broken: bool, deploy: bool) -> None:
    move = RULES.actions["move"]
    free = move.odds(move.complete_params({"kind": kind}))
    slowed = move.odds(
        move.complete_params({"kind": kind, "broken_ground": broken, "deploying_guns": deploy})
    )
    assert dominates(free, slowed, 20)
    assert min(slowed.headline) >= 0


# --------------------------------------------------------------- whole games


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(list(RULES.options)))
def test_random_games_keep_every_figure_accounted_for(seed: int, option: RuleOption) -> None:
    """Whatever is chosen and rolled: figures standing, down and lost add up to the
    start, no roll asks for no dice, and every choice fits the OLED."""
    text = resources.files("companion.scenarios").joinpath("on_the_frontier.toml").read_text()
    raw = tomllib.loads(text)
    raw["options"] = {**raw["options"], option.name: option.choices[-1]}
    state = RULES.start(RULES.load_scenario(raw))
    rng = random.Random(seed)
    for _ in range(3000):
        step = RULES.next_step(state)
        if isinstance(step, GameOver):
            break
        if isinstance(step, AwaitChoice):
            assert step.options and all(len(o.label) <= 18 for o in step.options), step
            given_input: Chosen | Rolled = Chosen(rng.choice(step.options).key)
        else:
            assert isinstance(step, AwaitRoll) and step.request.dice_count >= 1
            assert step.odds is not None and sum(step.odds.headline.values()) == 1
            given_input = Rolled(tuple(rng.randint(1, 6) for _ in step.request.kinds))
        state = RULES.advance(state, given_input).state
        assert isinstance(state, GameState)
        for f in state.forces:
            assert min(f.figures, f.casualties, f.removed) >= 0
            assert f.figures + f.casualties + f.removed == f.start, f
            assert not (f.routed and f.casualties), f  # a routed unit's fallen are lost
    else:
        pytest.fail("a random game did not end")
    # the summary's side totals agree with its units' lines: those on the table, then
    # those up in routed units
    for side in state.sides:
        up = sum(f.figures for f in state.forces if f.side == side)
        said = re.compile(
            rf"{re.escape(side)}: (\d+) of \d+ figures? up on the table"
            r"(?:, (\d+) more in routed units)?"
        )
        totals = [m for line in RULES.describe(state) if (m := said.fullmatch(line))]
        assert [int(m[1]) + int(m[2] or 0) for m in totals] == [up], RULES.describe(state)
