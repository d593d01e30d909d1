"""Invariants of the Tenir le Fort actions, and exact odds against brute force and icepool.

Speed is measured by benchmarks/tlf_odds.py, not here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from odds_checks import assert_matches_brute_force, draw_params

from companion.rules.core import RulesError
from companion.rules.tenir_le_fort.actions import ACTIONS
from companion.rules.tenir_le_fort.close_combat import ATTACKER_WINS, DEFENDER_WINS

COVERS = st.sampled_from(["none", "light", "heavy"])


def odds(name: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


def resolve(name: str, dice: list[int], **params: int | bool | str):  # type: ignore[no-untyped-def]
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 20), st.integers(0, 5), COVERS, st.booleans(), st.data())
def test_ffl_hits_never_exceed_the_dice(
    riflemen: int, pistols: int, cover: str, pinned: bool, data: st.DataObject
) -> None:
    action = ACTIONS["ffl-fire"]
    params = action.complete_params(
        {"riflemen": riflemen, "pistols": pistols, "cover": cover, "pinned": pinned}
    )
    request = action.request(params)
    dice = data.draw(
        st.lists(st.integers(1, 6), min_size=request.dice_count, max_size=request.dice_count)
    )
    out = action.resolve(params, dice)
    assert 0 <= out.headline <= len(dice)
    assert out.headline <= sum(1 for d in dice if d >= 4)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), COVERS, st.data())
def test_arab_hits_never_exceed_the_front_row(
    figures: int, cover: str, data: st.DataObject
) -> None:
    action = ACTIONS["arab-fire"]
    params = action.complete_params({"figures": figures, "cover": cover})
    n = action.request(params).dice_count
    assert n == min(figures, 6)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    assert resolve("arab-fire", dice, figures=figures, cover=cover).headline <= n


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), COVERS)
def test_adding_a_rifleman_never_lowers_the_chance_of_a_hit(riflemen: int, cover: str) -> None:
    fewer = odds("ffl-fire", riflemen=riflemen, cover=cover)
    more = odds("ffl-fire", riflemen=riflemen + 1, cover=cover)
    assert more.at_least(1) >= fewer.at_least(1)
    assert more.mean() >= fewer.mean()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 39))
def test_adding_a_bonus_die_never_lowers_the_maxim_hit_chance(n: int) -> None:
    assert odds("maxim-fire", bonus_dice=n + 1).at_least(1) >= odds(
        "maxim-fire", bonus_dice=n
    ).at_least(1)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(ACTIONS)), st.data())
def test_odds_sum_to_one_for_every_action(name: str, data: st.DataObject) -> None:
    action = ACTIONS[name]
    example = data.draw(st.sampled_from(action.examples))
    o = action.odds(action.complete_params(example))
    assert sum(o.headline.values(), Fraction(0)) == 1
    for chance in o.effects.values():
        assert 0 <= chance <= 1


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(0, 40), st.booleans())
def test_wound_check_never_kills_more_than_the_unit(figures: int, hits: int, hero: bool) -> None:
    o = odds("wound-check", hits=min(hits, figures), figures=figures, hero_hit=hero)
    assert max(o.headline) <= figures
    assert sum(o.headline.values(), Fraction(0)) == 1


@settings(max_examples=40, deadline=None)
@given(st.booleans(), st.booleans(), st.booleans(), st.sampled_from(["foot", "mounted"]))
def test_movement_odds_agree_with_brute_force(
    leader: bool, pinned: bool, charge: bool, kind: str
) -> None:
    action = ACTIONS["move"]
    params = action.complete_params(
        {
            "side": "Arab",
            "kind": kind,
            "leader": leader,
            "pinned": pinned,
            "mode": "charge" if charge else "move",
            "distance": 8 if charge else 0,
        }
    )
    request = action.request(params)
    if 6**request.dice_count > 6**5:
        return
    assert_matches_brute_force(action, params)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("ffl-fire", {"riflemen": 4, "wounded": 1, "cover": "none", "pistols": 0}),
        ("arab-fire", {"figures": 5, "cover": "light", "pinned": True}),
        ("maxim-fire", {"crew": 1, "cover": "heavy"}),
        ("heavy-cover-save", {"hits": 5}),
        ("wound-check", {"hits": 4, "figures": 4, "already_wounded": 1}),
        ("close-combat", {"attacker_leader": "mounted", "defender_position": "loophole"}),
    ],
)
def test_small_pools_agree_with_brute_force(name: str, params: dict[str, object]) -> None:
    action = ACTIONS[name]
    assert_matches_brute_force(action, action.complete_params(params))  # type: ignore[arg-type]


def _icepool_fraction(die_pool: icepool.Die, value: int) -> Fraction:
    return Fraction(die_pool.quantity("==", value), die_pool.denominator())


@pytest.mark.parametrize(
    ("riflemen", "cover", "faces"),
    [
        (40, "none", 3),
        (25, "light", 1),
        (12, "heavy", 1),
    ],
)
def test_ffl_hit_distribution_matches_icepool(riflemen: int, cover: str, faces: int) -> None:
    hit = icepool.Die([1] * faces + [0] * (6 - faces))
    pool = riflemen @ hit
    ours = odds("ffl-fire", riflemen=riflemen, cover=cover)
    for k in range(riflemen + 1):
        assert ours.headline.get(k, Fraction(0)) == _icepool_fraction(pool, k)


def test_movement_with_leader_matches_icepool_keep_highest() -> None:
    ours = odds("move", side="Arab", kind="mounted", leader=True)
    pool = icepool.d6.pool(5).highest(4).sum()
    for total in range(4, 25):
        assert ours.headline.get(total, Fraction(0)) == _icepool_fraction(pool, total)


def test_pin_chance_matches_icepool() -> None:
    ours = odds("arab-fire", figures=6, cover="none")
    sixes = 6 @ icepool.Die([0, 0, 0, 0, 0, 1])
    expected = Fraction(sixes.quantity(">=", 2), sixes.denominator())
    assert ours.effects["pinned"] == expected


# ---------------------------------------------------------------- every action, random parameters


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(ACTIONS)), st.data())
def test_every_action_with_random_parameters_agrees_with_brute_force(
    name: str, data: st.DataObject
) -> None:
    action = ACTIONS[name]
    params = draw_params(action, data, span=5)  # small enough pools to enumerate
    try:
        request = action.request(params)
    except RulesError as exc:  # a refused combination names a parameter
        assert any(p.name in str(exc) for p in action.params)
        return
    exact = action.odds(params)
    assert sum(exact.headline.values(), Fraction(0)) == 1
    assume(request.dice_count <= 5)
    assert_matches_brute_force(action, params)


# ---------------------------------------------------------------- monotonic: more never hurts


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 20), COVERS, st.booleans())
def test_adding_an_arab_rifleman_never_lowers_the_chance_of_a_hit(
    figures: int, cover: str, pinned: bool
) -> None:
    fewer = odds("arab-fire", figures=figures, cover=cover, pinned=pinned)
    more = odds("arab-fire", figures=figures + 1, cover=cover, pinned=pinned)
    assert more.at_least(1) >= fewer.at_least(1)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 15), COVERS, st.sampled_from(["normal", "half", "third"]))
def test_officers_never_lower_the_chance_of_a_hit(riflemen: int, cover: str, ammo: str) -> None:
    plain = odds("ffl-fire", riflemen=riflemen, cover=cover, ammo=ammo)
    led = odds("ffl-fire", riflemen=riflemen, cover=cover, ammo=ammo, sergeant=True, officers=1)
    assert led.at_least(1) >= plain.at_least(1)
    pinned = odds("ffl-fire", riflemen=riflemen, cover=cover, ammo=ammo, pinned=True)
    assert pinned.at_least(1) <= plain.at_least(1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5), st.sampled_from(["maxim", "artillery"]), COVERS)
def test_more_crew_never_lowers_a_guns_chance_of_a_hit(lost: int, gun: str, cover: str) -> None:
    full = 3 if gun == "maxim" else 5
    crew = max(0, full - lost)
    fewer = odds(f"{gun}-fire", crew=crew, cover=cover)
    more = odds(f"{gun}-fire", crew=min(full, crew + 1), cover=cover)
    assert more.at_least(1) >= fewer.at_least(1)


SIDE_BONUSES = [
    ("leader", "captain"),
    ("leader", "sergeant"),
    ("berserk", True),
    ("hero", True),
]
SIDE_PENALTIES = [("pinned", True), ("low_water", True), ("wounded", True), ("gun_crew", True)]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(SIDE_BONUSES),
    st.sampled_from(SIDE_PENALTIES),
    st.sampled_from(["open", "cover", "loophole"]),
    st.sampled_from(["Arab", "FFL"]),
    st.sampled_from(["die", "total"]),
)
def test_modifiers_in_your_favour_never_lower_your_chance_to_win(
    bonus: tuple[str, object],
    penalty: tuple[str, object],
    position: str,
    attacker_side: str,
    result_from: str,
) -> None:
    defender_side = "FFL" if attacker_side == "Arab" else "Arab"
    assume(not (defender_side == "Arab" and position == "loophole"))  # the fort's loopholes
    base: dict[str, int | bool | str] = {
        "attacker_side": attacker_side,
        "defender_position": position,
        "result_from": result_from,
    }

    def attacker_wins(**extra: object) -> Fraction:
        o = odds("close-combat", **base, **extra)  # type: ignore[arg-type]
        won = o.headline.get(ATTACKER_WINS, Fraction(0))
        lost = o.headline.get(DEFENDER_WINS, Fraction(0))
        return won / (won + lost)  # ties are rolled again

    def on_side(side: str, key: str, value: object) -> dict[str, object] | None:
        """The modifier as that side has it: Arab leaders are sheikhs; no Arab heroes or wounds."""
        if side == "Arab" and key in ("hero", "wounded"):
            return None
        if key == "leader" and side == "Arab":
            value = "mounted" if value == "captain" else "tribal"
        return {key: value}

    plain = attacker_wins()
    for (key, value), better in ((bonus, True), (penalty, False)):
        for who, side, helps in (
            ("attacker", attacker_side, better),
            ("defender", defender_side, not better),
        ):
            mod = on_side(side, key, value)
            if mod is None:
                continue
            chance = attacker_wins(**{f"{who}_{k}": v for k, v in mod.items()})
            assert chance >= plain if helps else chance <= plain


@settings(max_examples=30, deadline=None)
@given(st.integers(25, 90), st.integers(0, 4), st.booleans(), st.booleans())
def test_each_resolve_bonus_never_lowers_the_chance_to_stay(
    casualties: int, points: int, inside: bool, oasis: bool
) -> None:
    def stays(**extra: int | bool) -> Fraction:
        o = odds("arab-resolve", casualties=casualties, **extra)
        return 1 - o.effects.get("resolve_failed", Fraction(0))

    plain = stays(command_points=points, inside_fort=inside, oasis=oasis)
    assert stays(command_points=points + 1, inside_fort=inside, oasis=oasis) >= plain
    assert stays(command_points=points, inside_fort=True, oasis=oasis) >= plain
    assert stays(command_points=points, inside_fort=inside, oasis=True) >= plain
    more_losses = odds("arab-resolve", casualties=casualties + 10, command_points=points)
    fewer = odds("arab-resolve", casualties=casualties, command_points=points)
    assert more_losses.effects.get("resolve_failed", 0) >= fewer.effects.get("resolve_failed", 0)


@settings(max_examples=30, deadline=None)
@given(st.booleans(), st.booleans(), st.sampled_from(["reroll", "sentry", "sneakers"]))
def test_sentry_bonuses_never_lower_the_chance_to_spot(
    outside: bool, hooks: bool, tie: str
) -> None:
    def spotted(**extra: bool) -> Fraction:
        o = odds("sentry-roll", outside_fort=outside, grappling_hooks=hooks, tie=tie, **extra)
        return o.effects.get("spotted", Fraction(0))

    plain = spotted()
    assert spotted(patrols=True) >= plain
    assert spotted(previous_attempt=True) >= plain
    assert spotted(patrols=True, previous_attempt=True) >= spotted(patrols=True)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["Arab", "FFL"]),
    st.sampled_from(["foot", "mounted"]),
    st.sampled_from(["move", "charge"]),
    st.booleans(),
)
def test_a_leader_never_shortens_the_move(side: str, kind: str, mode: str, pinned: bool) -> None:
    without = odds("move", side=side, kind=kind, mode=mode, pinned=pinned)
    led = odds("move", side=side, kind=kind, mode=mode, pinned=pinned, leader=True)
    assert led.mean() >= without.mean()
    assert led.effects.get("recovered", 0) >= without.effects.get("recovered", 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(1, 12), st.integers(0, 12), st.data())
def test_wounds_never_kill_more_than_were_hit(
    hits: int, figures: int, wounded: int, data: st.DataObject
) -> None:
    hits = min(hits, figures)
    wounded = min(wounded, figures)
    action = ACTIONS["wound-check"]
    params = action.complete_params({"hits": hits, "figures": figures, "already_wounded": wounded})
    n = action.request(params).dice_count
    dice = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    assert 0 <= action.resolve(params, dice).headline <= hits


# ---------------------------------------------------------------- the 6s' dice: the chain's average


def brute_follow_up_hits(name: str, **params: int | bool | str) -> Fraction:
    """The hits a gun roll's follow-ups are expected to add, found without the odds code:
    every result of the roll through `resolve`; for each follow-up it asks for, the bonus
    roll the game then makes (the same gun, side and cover, `bonus_dice` its dice), whose
    own expected total with its follow-ups is solved the same way. A bonus roll of k dice
    may ask for k dice again (all 6s), so E(k) = (own hits + sum of E(j < k)) / (1 - 6**-k)."""
    action = ACTIONS[name]

    def results(given: dict[str, int | bool | str]) -> tuple[list[tuple[int, int]], Fraction]:
        """(headline, dice asked for next) of every ordered result, and each one's chance."""
        complete = action.complete_params(given)
        n = action.request(complete).dice_count
        out = []
        for dice in itertools.product(range(1, 7), repeat=n):
            got = action.resolve(complete, list(dice))
            out.append((got.headline, got.follow_up.dice_count if got.follow_up else 0))
        return out, Fraction(1, 6**n)

    chain: dict[int, Fraction] = {0: Fraction(0)}

    def bonus_total(k: int) -> Fraction:
        if k not in chain:
            rolls, chance = results({**params, "bonus_dice": k, "pinned": False})
            own = sum((chance * (hits + (bonus_total(j) if j < k else 0)) for hits, j in rolls),
                      Fraction(0))
            again = sum((chance for _, j in rolls if j == k), Fraction(0))
            chain[k] = own / (1 - again)
        return chain[k]

    rolls, chance = results(dict(params))
    return sum((chance * bonus_total(j) for _, j in rolls), Fraction(0))


CHAINS = [
    # a gun with half its crew lost rolls 4 dice (few enough to try every result)
    ("maxim-fire", {"crew": 1, "cover": "none"}),
    ("maxim-fire", {"crew": 1, "cover": "light"}),
    ("maxim-fire", {"crew": 1, "cover": "heavy"}),
    ("maxim-fire", {"side": "Arab", "cover": "none"}),
    ("maxim-fire", {"side": "Arab", "cover": "heavy", "target_unpinnable": True}),
    ("maxim-fire", {"side": "Arab", "pinned": True}),
    ("maxim-fire", {"ammo": "half", "pinned": True}),
    ("artillery-fire", {"crew": 2}),
    ("artillery-fire", {"side": "Arab", "cover": "light"}),
    # a jammed Maxim's clearing roll: no follow-up unless a clearing roll also fires
    ("maxim-fire", {"crew": 1, "jammed": True}),
    ("maxim-fire", {"crew": 1, "jammed": True, "clear_fires": True}),
    ("maxim-fire", {"crew": 1, "jammed": True, "clear_fires": True, "cover": "light"}),
    # the 6s' own dice roll again too, their odds carry their own chain
    ("maxim-fire", {"bonus_dice": 3}),
    ("maxim-fire", {"bonus_dice": 2, "cover": "heavy"}),
    ("maxim-fire", {"bonus_dice": 1, "side": "Arab"}),
    ("artillery-fire", {"bonus_dice": 3}),
    # nothing to roll: nothing to follow
    ("maxim-fire", {"too_close": True}),
    ("artillery-fire", {"crew": 0}),
    ("maxim-fire", {"ammo": "third"}),
]


@pytest.mark.parametrize(("name", "params"), CHAINS, ids=[f"{n}-{p}" for n, p in CHAINS])
def test_the_6s_dice_add_what_every_result_of_the_chain_gives(
    name: str, params: dict[str, int | bool | str]
) -> None:
    expected = brute_follow_up_hits(name, **params)
    got = odds(name, **params).follow_up_mean
    assert (got if got is not None else Fraction(0)) == expected
    assert (got is None) == (expected == 0)  # never a zero: None says "no follow-up"


def test_a_clearing_roll_that_cannot_score_earns_no_dice_one_that_can_does() -> None:
    assert odds("maxim-fire", jammed=True).follow_up_mean is None
    assert odds("maxim-fire", jammed=True, clear_fires=True).follow_up_mean == Fraction(625, 864)


def test_eight_maxim_dice_in_the_open_average_24_5_hits_with_the_6s_dice() -> None:
    o = odds("maxim-fire", side="FFL", cover="none")
    assert o.mean() == 4
    assert o.follow_up_mean == Fraction(4, 5)
    # Generation by generation: 8 dice, then 8/6 expected, then 8/36 ...; each hits on 4-6.
    series = [8 * Fraction(1, 2) * Fraction(1, 6) ** g for g in range(40)]
    assert o.mean() + o.follow_up_mean == Fraction(24, 5)
    assert 0 < Fraction(24, 5) - sum(series) < Fraction(1, 10**30)


def test_rolls_that_earn_no_dice_leave_the_chain_unsaid() -> None:
    for name, params in [("ffl-fire", {"riflemen": 6}), ("arab-fire", {"figures": 6}),
                         ("heavy-cover-save", {"hits": 3}), ("wound-check", {"hits": 2})]:
        assert odds(name, **params).follow_up_mean is None, name
