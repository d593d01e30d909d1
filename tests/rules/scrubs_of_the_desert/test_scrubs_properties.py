"""Invariants of Scrubs of the Desert's rolls and odds, with hypothesis and icepool.

Hits never exceed the dice, odds sum to one, and anything in a side's favour
(another figure, a better modifier, more crew, more morale) never lowers its
chance. icepool is an independent cross-check of the exact odds.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st
from odds_checks import assert_matches_brute_force

from companion.rules import get_ruleset
from companion.rules.core import Action, Odds
from companion.rules.scrubs_of_the_desert import tables

RULES = get_ruleset("scrubs_of_the_desert")
FIRE = RULES.actions["fire"]
MORALE = RULES.actions["morale"]
MOVE = RULES.actions["move"]
TOSS = RULES.actions["activation-toss"]
SIGHTING = RULES.actions["sighting"]
TO_HIT = RULES.actions["cannon-to-hit"]
BLAST = RULES.actions["cannon-blast"]
CREW = RULES.actions["crew-targeting"]
BOUT = RULES.actions["melee-bout"]
THROW = RULES.actions["hook-throw"]
D10 = icepool.Die(range(10))  # 0 is zero
SMALL_ARMS = ["french_rifle", "french_pistol", "arab_spear", "arab_rifle", "machine_gun"]


def odds_of(action: Action, params: dict) -> Odds:  # type: ignore[type-arg]
    return action.odds(action.complete_params(params))


def chance(odds: Odds, value: int = 1) -> Fraction:
    return odds.headline.get(value, Fraction(0))


def sums_to_one(odds: Odds) -> bool:
    return sum(odds.headline.values(), Fraction(0)) == 1


@st.composite
def fire_params(draw: st.DrawFn) -> dict:  # type: ignore[type-arg]
    weapon = draw(st.sampled_from(SMALL_ARMS))
    return {
        "weapon": weapon,
        "figures": draw(st.integers(1, 20)),
        "range": draw(st.sampled_from(["short", "long"])),
        "target_in_cover": draw(st.booleans()),
        "did_not_move": draw(st.booleans()),
        "before_melee": draw(st.booleans()),
        "crewed_by": draw(st.sampled_from(["crew", "infantry"]))
        if weapon == "machine_gun"
        else "crew",
    }


# ----------------------------------------------------------------- activation


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 20), st.integers(0, 20))
def test_toss_odds_sum_to_one_and_a_bonus_never_hurts(first: int, second: int) -> None:
    odds = odds_of(TOSS, {"first_bonus": first, "second_bonus": second})
    assert sums_to_one(odds)
    assert sum(odds.effects.values(), Fraction(0)) == 1  # exactly one of the three
    more = odds_of(TOSS, {"first_bonus": first + 1, "second_bonus": second})
    assert chance(more, 1) >= chance(odds, 1)
    assert chance(more, 2) <= chance(odds, 2)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12))
def test_toss_odds_are_symmetric(first: int, second: int) -> None:
    one = odds_of(TOSS, {"first_bonus": first, "second_bonus": second})
    other = odds_of(TOSS, {"first_bonus": second, "second_bonus": first})
    assert chance(one, 1) == chance(other, 2) and chance(one, 0) == chance(other, 0)


# ------------------------------------------------------------------- sighting


def test_a_nearer_band_never_sights_worse() -> None:
    chances = [chance(odds_of(SIGHTING, {"range": band})) for band in tables.SIGHTING_BANDS]
    assert chances == sorted(chances, reverse=True)


# ------------------------------------------------------------------- movement


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=3, max_size=3))
def test_the_ways_of_reading_three_dice_are_ordered(dice: list[int]) -> None:
    read = {rule: tables.read_movement_dice(rule, dice) for rule in tables.DICE_RULES}
    assert read["lowest_1"] <= read["highest_1"] <= read["highest_2"] <= read["total_3"]
    assert read["lowest_1"] <= read["lowest_2"] <= read["highest_2"]
    assert read["lowest_1"] >= 0 and read["total_3"] <= 27


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(tables.UNIT_TYPES), st.sampled_from(tables.TERRAINS))
def test_movement_odds_sum_to_one_and_match_icepool(unit_type: str, terrain: str) -> None:
    odds = odds_of(MOVE, {"unit_type": unit_type, "terrain": terrain})
    assert sums_to_one(odds)
    pool = D10.pool(3)
    rule = tables.movement_rule(unit_type, terrain)
    keep = {
        "total_3": pool,
        "highest_2": pool.highest(2),
        "lowest_2": pool.lowest(2),
        "highest_1": pool.highest(1),
        "lowest_1": pool.lowest(1),
    }[rule]
    reference = keep.sum()
    for inches, p in odds.headline.items():
        assert p == Fraction(reference.probability(inches))


def test_rough_ground_never_speeds_a_unit() -> None:
    for unit_type in tables.UNIT_TYPES:
        means = {
            t: odds_of(MOVE, {"unit_type": unit_type, "terrain": t}).mean() for t in tables.TERRAINS
        }
        assert means["rough"] <= means["desert"] <= means["trail"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(tables.UNIT_TYPES),
    st.sampled_from(tables.TERRAINS),
    st.lists(st.integers(0, 9), min_size=3, max_size=3),
    st.integers(0, 2),
)
def test_a_zero_never_moves_further_than_the_die_it_replaces(
    unit_type: str, terrain: str, dice: list[int], index: int
) -> None:
    p = MOVE.complete_params({"unit_type": unit_type, "terrain": terrain})
    zeroed = list(dice)
    zeroed[index] = 0
    assert MOVE.resolve(p, zeroed).headline <= MOVE.resolve(p, dice).headline


# ----------------------------------------------------------------------- fire


@settings(max_examples=60, deadline=None)
@given(fire_params(), st.data())
def test_hits_never_exceed_the_dice(params: dict, data: st.DataObject) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    request = FIRE.request(p)
    dice = data.draw(
        st.lists(st.integers(0, 9), min_size=request.dice_count, max_size=request.dice_count)
    )
    assert 0 <= FIRE.resolve(p, dice).headline <= request.dice_count


@settings(max_examples=60, deadline=None)
@given(fire_params())
def test_another_figure_never_hurts(params: dict) -> None:  # type: ignore[type-arg]
    odds = odds_of(FIRE, params)
    assert sums_to_one(odds)
    more = odds_of(FIRE, {**params, "figures": params["figures"] + 1})
    for k in range(1, 42):
        assert more.at_least(k) >= odds.at_least(k)


@settings(max_examples=60, deadline=None)
@given(fire_params())
def test_better_modifiers_never_hurt(params: dict) -> None:  # type: ignore[type-arg]
    def at_least_one(**change: object) -> Fraction:
        return odds_of(FIRE, {**params, **change}).at_least(1)

    assert at_least_one(target_in_cover=False) >= at_least_one(target_in_cover=True)
    assert at_least_one(did_not_move=True) >= at_least_one(did_not_move=False)
    assert at_least_one(before_melee=False) >= at_least_one(before_melee=True)
    assert at_least_one(range="short") >= at_least_one(range="long")


@settings(max_examples=40, deadline=None)
@given(fire_params())
def test_fire_odds_match_icepool(params: dict) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    request = FIRE.request(p)
    need = tables.hit_number(params["weapon"], params["range"])
    mod = -1 if params["target_in_cover"] else 0
    if params["did_not_move"] and not params["before_melee"] and params["weapon"] != "machine_gun":
        mod += 1
    n = request.dice_count
    hits = n @ D10.map(lambda f: 1 if f + mod >= need else 0)
    ours = FIRE.odds(p)
    for k in range(n + 1):
        assert ours.headline.get(k, Fraction(0)) == Fraction(hits.probability(k))
    if params["weapon"] == "machine_gun":
        zeros = n @ D10.map(lambda f: 1 if f == 0 else 0)
        assert ours.effects.get("jammed", Fraction(0)) == Fraction(zeros.probability(">=", 3))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 15), st.sampled_from(["crew", "infantry"]))
def test_more_gunners_jam_more_often(crew: int, crewed_by: str) -> None:
    def jam(n: int) -> Fraction:
        params = {"weapon": "machine_gun", "figures": n, "crewed_by": crewed_by}
        return odds_of(FIRE, params).effects.get("jammed", Fraction(0))

    assert jam(crew + 1) >= jam(crew)
    if crewed_by == "crew":
        assert jam(1) == 0  # two dice cannot show three zeros


@settings(max_examples=60, deadline=None)
@given(fire_params())
def test_a_zero_counts_as_zero_in_fire(params: dict) -> None:  # type: ignore[type-arg]
    p = FIRE.complete_params(params)
    n = FIRE.request(p).dice_count
    need = tables.hit_number(params["weapon"], params["range"])
    assert FIRE.resolve(p, [0] * n).headline == 0  # 0 + at most +1 never reaches 7
    assert FIRE.resolve(p, [9] * n).headline in (0, n)
    if need <= 8:
        assert FIRE.resolve(p, [9] * n).headline == n


# --------------------------------------------------------------------- cannon


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["french_cannon", "arab_cannon"]),
    st.integers(2, 6),
    st.booleans(),
    st.booleans(),
)
def test_more_crew_and_grapeshot_never_lower_the_hit(
    cannon: str, crew: int, cover: bool, grapeshot: bool
) -> None:
    base = {"cannon": cannon, "target_in_cover": cover, "grapeshot": grapeshot}
    hit = chance(odds_of(TO_HIT, {**base, "crew": crew}))
    assert chance(odds_of(TO_HIT, {**base, "crew": crew + 1})) >= hit
    if not grapeshot:
        assert chance(odds_of(TO_HIT, {**base, "crew": crew, "grapeshot": True})) >= hit
    if not cover:
        assert chance(odds_of(TO_HIT, {**base, "crew": crew, "target_in_cover": True})) <= hit


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 29), st.booleans())
def test_a_bigger_blast_never_kills_fewer(figures: int, cover: bool) -> None:
    odds = odds_of(BLAST, {"figures": figures, "target_in_cover": cover})
    more = odds_of(BLAST, {"figures": figures + 1, "target_in_cover": cover})
    assert sums_to_one(odds) and max(odds.headline) <= figures
    for k in range(1, figures + 2):
        assert more.at_least(k) >= odds.at_least(k)
    no_cover = odds_of(BLAST, {"figures": figures})
    assert no_cover.mean() >= odds.mean()


# -------------------------------------------------------------- crew targeting


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 10),
    st.integers(1, 12),
    st.integers(0, 59),
    st.sampled_from(["zero", "hundred"]),
)
def test_more_figures_near_the_gun_shield_the_crew(
    hits: int, crew: int, others: int, reading: str
) -> None:
    base = {"hits": hits, "crew": crew, "double_zero": reading}
    odds = odds_of(CREW, {**base, "others": others})
    crowded = odds_of(CREW, {**base, "others": others + 1})
    assert sums_to_one(odds) and max(odds.headline) <= hits
    assert crowded.mean() <= odds.mean()
    percent = crew * 100 // (crew + others)
    assert odds.mean() == hits * Fraction(percent, 100)


# --------------------------------------------------------------------- morale


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 99),
    st.integers(1, 30),
    st.integers(0, 29),
    st.sampled_from(list(tables.POSITIONS)),
    st.booleans(),
    st.sampled_from(["zero", "hundred"]),
    st.sampled_from(["modified_morale", "strength"]),
)
def test_morale_is_exact_and_everything_in_favour_helps(
    base: int, size: int, lost: int, position: str, closing: bool, zero: str, rout_rule: str
) -> None:
    lost = min(lost, size - 1)
    params = {
        "base_morale": base,
        "unit_size": size,
        "figures_lost": lost,
        "position": position,
        "closing_melee": closing,
        "double_zero": zero,
        "rout_rule": rout_rule,
    }
    odds = odds_of(MORALE, params)
    assert sums_to_one(odds)
    passed = chance(odds)
    target = base - tables.loss_percent_per_figure(size) * lost + tables.position_bonus(position)
    low, high = (0, 99) if zero == "zero" else (1, 100)
    assert passed == Fraction(max(0, min(high, target) - low + 1), 100)
    assert chance(odds_of(MORALE, {**params, "base_morale": base + 1})) >= passed
    if lost:
        assert chance(odds_of(MORALE, {**params, "figures_lost": lost - 1})) >= passed
    better = {"open": "building", "building": "fort", "fort": "fort"}[position]
    assert chance(odds_of(MORALE, {**params, "position": better})) >= passed
    if closing:
        assert "removed" not in odds.effects


# ---------------------------------------------------------------------- melee

bout_params = st.fixed_dictionaries(
    {
        "attackers": st.integers(1, 2),
        "defenders": st.just(1),
        "arab_charging": st.booleans(),
        "cavalry_charging": st.booleans(),
        "attacker_leader": st.booleans(),
        "defender_position": st.sampled_from(list(tables.DEFENDER_POSITIONS)),
        "defender_leader": st.booleans(),
        "per_figure": st.booleans(),
    }
)

ATTACKER_FAVOURS = (
    ("arab_charging", True),
    ("cavalry_charging", True),
    ("attacker_leader", True),
    ("defender_leader", False),
    ("defender_position", "open"),
    ("attackers", 2),
)


@settings(max_examples=40, deadline=None)
@given(bout_params)
def test_more_in_the_attackers_favour_never_lowers_their_chance(params: dict) -> None:  # type: ignore[type-arg]
    odds = odds_of(BOUT, params)
    assert sums_to_one(odds)
    wins = chance(odds, 1)
    for name, value in ATTACKER_FAVOURS:
        favoured = odds_of(BOUT, {**params, name: value})
        assert chance(favoured, 1) >= wins, name
        assert chance(favoured, -1) <= chance(odds, -1), name


@settings(max_examples=15, deadline=None)
@given(bout_params)
def test_bout_odds_agree_with_brute_force(params: dict) -> None:  # type: ignore[type-arg]
    assert_matches_brute_force(BOUT, BOUT.complete_params(params))


# ------------------------------------------------------------------ grappling


def test_defenders_never_help_the_hook() -> None:
    chances = [chance(odds_of(THROW, {"defenders": n})) for n in range(11)]
    assert chances == sorted(chances, reverse=True)
    assert chances[3:] == [chances[3]] * 8  # no more than three count


# ------------------------------------------------------------------ big pools


def test_the_largest_pools_have_exact_odds() -> None:
    """Dynamic programming, not enumeration: 40 dice are no harder than 4 (timings are
    for benchmarks, so this checks only that the answers are whole)."""
    cases = [
        (FIRE, {"figures": 40}),
        (FIRE, {"weapon": "machine_gun", "figures": 20}),
        (BLAST, {"figures": 30}),
        (CREW, {"hits": 40, "crew": 12, "others": 60}),
        (TO_HIT, {"figures_under_blast": 30}),
    ]
    for action, params in cases:
        assert sums_to_one(odds_of(action, params)), action.name
