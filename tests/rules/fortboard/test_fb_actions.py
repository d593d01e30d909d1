"""FortBoard's actions: resolution, exact odds against brute force, and invariants (hypothesis)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from companion.rules.core import Action, Odds, Outcome, ParamKind, RulesError
from companion.rules.fortboard import RULESET
from companion.rules.fortboard.actions import ACTIONS
from companion.rules.odds import enumerate_odds

EXPECTED = {
    "melee",
    "melee-line",
    "missile-fire",
    "crew-fire",
    "artillery-target",
    "interior-hit",
    "wall-hit",
    "tower-hit",
    "hit-wounds",
    "wall-weapon",
    "replacement",
    "douse-flames",
    "engine-survivors",
}


def resolve(name: str, dice: list[int], **params: int | bool | str) -> Outcome:
    action = ACTIONS[name]
    return action.resolve(action.complete_params(params), dice)


def odds(name: str, **params: int | bool | str) -> Odds:
    action = ACTIONS[name]
    return action.odds(action.complete_params(params))


def _nonzero(mapping: Any) -> dict[Any, Fraction]:
    return {k: v for k, v in mapping.items() if v}


def test_every_roll_is_an_action() -> None:
    assert set(RULESET.actions) == EXPECTED
    for action in RULESET.actions.values():
        assert action.examples
        assert action.name == action.name.lower()


# ------------------------------------------------------------------ melee


@pytest.mark.parametrize(
    ("dice", "params", "margin", "effects"),
    [
        ([4, 2], {}, 2, {"defender_wounded"}),  # 3+4 against 3+2
        ([3, 3], {}, 0, {"tie"}),  # a tie does nothing
        ([1, 6], {"attacker_wounded": True}, -7, {"attacker_killed", "killed"}),  # 1+1 v 3+6
        ([6, 1], {"defender_wounded": True}, 7, {"defender_killed", "killed"}),  # 3+6 v 1+1
        # mounted 4 + 1 against a wounded archer 1 + 4: a tie
        (
            [1, 4],
            {"attacker_kind": "mounted", "defender_kind": "archer", "defender_wounded": True},
            0,
            {"tie"},
        ),
        # a wounded horseman is 2, not 1
        (
            [2, 2],
            {"attacker_kind": "mounted", "attacker_wounded": True},
            -1,
            {"attacker_killed", "killed"},
        ),
        # barracks and keep fallen: the fort's defender is 3 - 2 = 1
        ([3, 4], {"barracks_fallen": True, "keep_fallen": True}, 1, {"defender_wounded"}),
        ([3, 4], {"barracks_fallen": True}, 0, {"tie"}),
    ],
)
def test_melee_resolution(
    dice: list[int], params: dict[str, Any], margin: int, effects: set[str]
) -> None:
    out = resolve("melee", dice, **params)
    assert out.headline == margin
    assert out.effects == effects


def test_melee_even_fight_odds() -> None:
    o = odds("melee")
    assert o.effects["defender_wounded"] == Fraction(15, 36)
    assert o.effects["attacker_wounded"] == Fraction(15, 36)
    assert o.effects["tie"] == Fraction(6, 36)


def test_melee_line_counts_pairs() -> None:
    out = resolve("melee-line", [6, 1, 3, 2, 6, 3], pairs=3)
    assert out.headline == 1  # 6 v 2 wins, 1 v 6 loses, 3 v 3 ties
    assert out.effects == {"attackers_hurt"}


# ---------------------------------------------------------------- missiles


def test_missile_far() -> None:
    out = resolve("missile-fire", [6, 5, 5, 4], archers=2, crossbows=2)
    assert out.headline == 2  # archer 6; crossbow 5


def test_missile_near_hits_on_four() -> None:
    out = resolve("missile-fire", [4, 3, 4], archers=2, crossbows=1, range="near")
    assert out.headline == 2


def test_missile_request_asks_only_for_the_shooters_there() -> None:
    request = ACTIONS["missile-fire"].request(
        ACTIONS["missile-fire"].complete_params({"archers": 0, "crossbows": 3})
    )
    assert request.summary() == "3d6"
    assert request.groups[0].faces_meaning == "hits on 5+"


@pytest.mark.parametrize(
    ("dice", "who", "details"),
    [
        ([6, 5, 5, 4], {"archers": 2, "crossbows": 2}, ("archers hit 1, crossbows hit 1",)),
        ([6, 1], {"archers": 2, "crossbows": 0}, ()),  # "archers hit 1" is the headline again
        ([3], {"archers": 0, "crossbows": 1}, ()),
    ],
)
def test_missile_hits_are_split_by_kind_only_when_both_kinds_shoot(
    dice: list[int], who: dict[str, int], details: tuple[str, ...]
) -> None:
    assert resolve("missile-fire", dice, **who).details == details


def test_artillery_target_is_worded_as_a_value_named_target() -> None:
    """The box words a value label "Target: 5" (not "Target number: 5")."""
    from companion.ui.wording import headline

    out = resolve("artillery-target", [5])
    assert (out.headline, out.headline_label) == (5, "target")
    assert odds("artillery-target").headline_label == "target"
    assert headline(out) == "Target: 5"


def test_missile_fire_needs_a_shooter() -> None:
    with pytest.raises(RulesError, match="needs someone to shoot"):
        odds("missile-fire", archers=0, crossbows=0)


def test_crew_fire_caps_at_crew() -> None:
    out = resolve("crew-fire", [6, 6, 6], shooters=3, crew=2)
    assert out.headline == 2
    assert out.effects == {"silenced"}


# -------------------------------------------------------------- artillery


def test_tower_hit_needs_more_than_intact() -> None:
    assert resolve("tower-hit", [4, 5], intact=9).headline == 0
    out = resolve("tower-hit", [5, 5], intact=9, occupied=True)
    assert out.headline == 1
    assert out.follow_up is not None and out.follow_up.dice_count == 1


def test_a_miss_asks_no_wound_roll() -> None:
    assert resolve("wall-hit", [1, 1], intact=4, occupied=True).follow_up is None


def test_interior_hit_names_component() -> None:
    assert resolve("interior-hit", [3]).effects == {"keep_hit"}
    assert resolve("interior-hit", [6]).effects == {"courtyard_hit"}


def test_hit_wounds() -> None:
    assert resolve("hit-wounds", [2]).headline == 0
    assert resolve("hit-wounds", [3]).effects == {"wounded"}
    assert resolve("hit-wounds", [6], target_wounded=True).effects == {"killed"}


# ---------------------------------------------------------------- engines


def test_wall_weapon_wounds_then_kills() -> None:
    # weapon 3: attempts (6 v 1) wins, (6 v 1) wins again -> killed
    out = resolve("wall-weapon", [6, 6, 1, 1], attempts=2)
    assert out.headline == 2
    assert out.effects == {"killed"}


def test_wall_weapon_survivor_reaches_top() -> None:
    out = resolve("wall-weapon", [1, 1, 6, 6], attempts=2)
    assert out.effects == {"reaches_top"}


def test_a_wounded_survivor_of_a_wall_weapon_reaches_top_too() -> None:
    # 1.5: whoever survives the firing reaches the top, wounded or not
    out = resolve("wall-weapon", [6, 1, 1, 6], attempts=2)
    assert out.effects == {"wounded", "reaches_top"}
    chances = odds("wall-weapon", attempts=2)
    assert chances.effects["reaches_top"] == 1 - chances.effects["killed"]


def test_wall_weapon_on_engine_counts_hits() -> None:
    # weapon 3 against an engine's 3: 9 v 4 wins, 9 v 9 ties, 9 v 4 wins, 4 v 4 ties
    out = resolve("wall-weapon", [6, 6, 6, 1, 1, 6, 1, 1], attempts=4, target="engine")
    assert out.headline == 2


def test_replacement_on_six() -> None:
    assert resolve("replacement", [6]).effects == {"moved"}
    stay = resolve("replacement", [5])
    assert stay.headline == 0 and stay.details == ("they stay where they are",)
    assert resolve("replacement", [6]).details == ("picked up and placed",)
    assert resolve("replacement", [6, 2, 6], figures=3).headline == 2


def test_douse_any_six() -> None:
    assert resolve("douse-flames", [1, 6, 2], figures=3).headline == 1
    assert odds("douse-flames", figures=2).headline[1] == Fraction(11, 36)


def test_engine_survivors() -> None:
    out = resolve("engine-survivors", [2], crew=4)
    assert out.headline == 2
    assert out.effects == {"killed"}


# ------------------------------------------------------------ conventions


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_wrong_dice_count_is_named(name: str) -> None:
    action = ACTIONS[name]
    params = action.complete_params(action.examples[0])
    request = action.request(params)
    dice = "die" if request.dice_count == 1 else "dice"
    with pytest.raises(RulesError, match=f"expected {request.dice_count} {dice} "):
        action.resolve(params, [1] * (request.dice_count + 1))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_d6_never_reads_zero_or_seven(name: str) -> None:
    action = ACTIONS[name]
    params = action.complete_params(action.examples[0])
    request = action.request(params)
    for face in (0, 7):
        with pytest.raises(RulesError, match="reads 1-6"):
            action.resolve(params, [face] * request.dice_count)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_parameter_refuses_a_wrong_value_by_name(name: str) -> None:
    action = ACTIONS[name]
    for param in action.params:
        wrong = {ParamKind.INT: "lots", ParamKind.BOOL: "maybe", ParamKind.CHOICE: "elephant"}
        with pytest.raises(RulesError, match=f"{param.name}=.*not allowed; use"):
            action.parse_params([f"{param.name}={wrong[param.kind]}"])
        if param.maximum is not None:
            with pytest.raises(RulesError, match=param.name):
                action.parse_params([f"{param.name}={param.maximum + 1}"])
    with pytest.raises(RulesError, match="has no parameter 'bogus'"):
        action.parse_params(["bogus=1"])


def test_forty_dice_odds_are_exact_and_sum_to_one() -> None:
    for name, params in (
        ("missile-fire", {"archers": 20, "crossbows": 20, "range": "near"}),
        ("crew-fire", {"shooters": 40, "crew": 20}),
        ("melee-line", {"pairs": 40}),
        ("douse-flames", {"figures": 40}),
        ("replacement", {"figures": 40}),
    ):
        assert sum(odds(name, **params).headline.values()) == 1, name


# -------------------------------------------------------------- properties


def _small_params(action: Action, draw: Any) -> dict[str, int | bool | str]:
    """Random parameters for an action, its dice counts kept small enough to enumerate."""
    out: dict[str, int | bool | str] = {}
    for p in action.params:
        if p.kind is ParamKind.BOOL:
            out[p.name] = draw(st.booleans())
        elif p.kind is ParamKind.CHOICE:
            out[p.name] = draw(st.sampled_from(p.choices))
        else:
            low = p.minimum if p.minimum is not None else 0
            high = min(p.maximum if p.maximum is not None else low + 3, low + 3)
            out[p.name] = draw(st.integers(low, high))
    return out


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(EXPECTED)), data=st.data())
def test_odds_agree_with_brute_force_for_any_small_roll(name: str, data: st.DataObject) -> None:
    action = ACTIONS[name]
    try:
        params = action.complete_params(_small_params(action, data.draw))
        request = action.request(params)
    except RulesError:
        reject()  # e.g. missile fire with nobody shooting: refused by name
    assume(6**request.dice_count <= 6**5)
    exact = action.odds(params)
    assert sum(exact.headline.values()) == 1
    brute = enumerate_odds(request, lambda dice: action.resolve(params, dice))
    assert _nonzero(exact.headline) == _nonzero(brute.headline)
    assert _nonzero(exact.effects) == _nonzero(brute.effects)


@settings(max_examples=60, deadline=None)
@given(
    dice=st.lists(st.integers(1, 6), min_size=1, max_size=12),
    band=st.sampled_from(["near", "far"]),
    crossbow=st.booleans(),
)
def test_hits_never_exceed_dice(dice: list[int], band: str, crossbow: bool) -> None:
    who = {"archers": 0, "crossbows": len(dice)} if crossbow else {"archers": len(dice)}
    out = resolve("missile-fire", dice, range=band, **who)
    assert 0 <= out.headline <= len(dice)
    removed = resolve("crew-fire", dice, shooters=len(dice), crew=3).headline
    assert 0 <= removed <= min(3, len(dice))
    assert 0 <= resolve("replacement", dice, figures=len(dice)).headline <= len(dice)


@settings(max_examples=40, deadline=None)
@given(
    weapon=st.lists(st.integers(1, 6), min_size=4, max_size=4),
    target=st.lists(st.integers(1, 6), min_size=4, max_size=4),
    attempts=st.integers(1, 4),
    wounded=st.booleans(),
)
def test_a_wall_weapon_never_scores_more_than_a_figure_can_take(
    weapon: list[int], target: list[int], attempts: int, wounded: bool
) -> None:
    dice = weapon[:attempts] + target[:attempts]
    out = resolve("wall-weapon", dice, attempts=attempts, target_wounded=wounded)
    assert out.headline <= min(attempts, 1 if wounded else 2)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 30), crossbows=st.integers(0, 5), band=st.sampled_from(["near", "far"]))
def test_adding_a_shooter_never_lowers_the_chance_of_a_hit(
    n: int, crossbows: int, band: str
) -> None:
    assume(n + crossbows > 0)
    fewer = odds("missile-fire", archers=n, crossbows=crossbows, range=band)
    more = odds("missile-fire", archers=n + 1, crossbows=crossbows, range=band)
    more_x = odds("missile-fire", archers=n, crossbows=crossbows + 1, range=band)
    assert more.at_least(1) >= fewer.at_least(1)
    assert more_x.at_least(1) >= fewer.at_least(1)
    assert more.mean() >= fewer.mean()


@settings(max_examples=40, deadline=None)
@given(archers=st.integers(0, 6), crossbows=st.integers(0, 6))
def test_being_closer_never_lowers_the_chance_of_a_hit(archers: int, crossbows: int) -> None:
    assume(archers + crossbows > 0)
    near = odds("missile-fire", archers=archers, crossbows=crossbows, range="near")
    far = odds("missile-fire", archers=archers, crossbows=crossbows, range="far")
    assert near.mean() >= far.mean()
    assert near.at_least(1) >= far.at_least(1)


@settings(max_examples=30, deadline=None)
@given(shooters=st.integers(1, 30), crew=st.integers(1, 10))
def test_more_shooters_never_remove_fewer_crew(shooters: int, crew: int) -> None:
    fewer = odds("crew-fire", shooters=shooters, crew=crew)
    more = odds("crew-fire", shooters=shooters + 1, crew=crew)
    assert more.mean() >= fewer.mean()
    assert more.effects.get("silenced", 0) >= fewer.effects.get("silenced", 0)


@settings(max_examples=30, deadline=None)
@given(figures=st.integers(1, 30))
def test_more_figures_never_lower_the_chance_to_douse_or_move(figures: int) -> None:
    assert (
        odds("douse-flames", figures=figures + 1).headline[1]
        >= odds("douse-flames", figures=figures).headline[1]
    )
    assert (
        odds("replacement", figures=figures + 1).effects["moved"]
        >= odds("replacement", figures=figures).effects["moved"]
    )


KINDS = ["infantry", "pike", "archer", "crossbow", "mounted"]


def _attacker_wins(o: Odds) -> Fraction:
    return o.effects.get("defender_wounded", Fraction(0)) + o.effects.get(
        "defender_killed", Fraction(0)
    )


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    other=st.sampled_from(KINDS),
    attacker_wounded=st.booleans(),
    defender_wounded=st.booleans(),
    barracks=st.booleans(),
    keep=st.booleans(),
)
def test_more_in_your_favour_never_lowers_your_chance(
    kind: str,
    other: str,
    attacker_wounded: bool,
    defender_wounded: bool,
    barracks: bool,
    keep: bool,
) -> None:
    base: dict[str, int | bool | str] = {
        "attacker_kind": kind,
        "defender_kind": other,
        "attacker_wounded": attacker_wounded,
        "defender_wounded": defender_wounded,
        "barracks_fallen": barracks,
        "keep_fallen": keep,
    }
    chance = _attacker_wins(odds("melee", **base))
    # a wound on the enemy, a fallen building: never worse for the attacker
    assert _attacker_wins(odds("melee", **{**base, "defender_wounded": True})) >= chance
    assert _attacker_wins(odds("melee", **{**base, "barracks_fallen": True})) >= chance
    assert _attacker_wins(odds("melee", **{**base, "keep_fallen": True})) >= chance
    # a wound on himself: never better
    assert _attacker_wins(odds("melee", **{**base, "attacker_wounded": True})) <= chance


@settings(max_examples=30, deadline=None)
@given(intact=st.integers(1, 23))
def test_a_damaged_structure_is_never_harder_to_hit(intact: int) -> None:
    for name in ("tower-hit", "wall-hit"):
        harder = odds(name, intact=intact + 1).headline.get(1, 0)
        assert harder <= odds(name, intact=intact).headline.get(1, 0)


@settings(max_examples=40, deadline=None)
@given(
    attempts=st.integers(1, 3),
    kind=st.sampled_from(KINDS),
    wounded=st.booleans(),
    value=st.integers(0, 5),
    target=st.sampled_from(["figure", "engine"]),
)
def test_a_stronger_or_longer_wall_weapon_never_does_less(
    attempts: int, kind: str, wounded: bool, value: int, target: str
) -> None:
    base: dict[str, int | bool | str] = {
        "target": target,
        "target_kind": kind,
        "target_wounded": wounded,
    }
    o = odds("wall-weapon", attempts=attempts, weapon_value=value, **base)
    stronger = odds("wall-weapon", attempts=attempts, weapon_value=value + 1, **base)
    longer = odds("wall-weapon", attempts=attempts + 1, weapon_value=value, **base)
    assert stronger.mean() >= o.mean()
    assert longer.mean() >= o.mean()
    assert stronger.effects.get("killed", 0) >= o.effects.get("killed", 0)


@settings(max_examples=30, deadline=None)
@given(pairs=st.integers(1, 40), kind=st.sampled_from(KINDS))
def test_melee_line_odds_sum_to_one(pairs: int, kind: str) -> None:
    o = odds("melee-line", pairs=pairs, attacker_kind=kind)
    assert sum(o.headline.values()) == 1
    assert max(o.headline) == pairs


def test_counts_of_one_are_said_in_the_singular() -> None:
    melee_line = ACTIONS["melee-line"]
    assert melee_line.request(melee_line.complete_params({"pairs": 1})).reason.startswith(
        "Melee line: 1 pair, "
    )
    assert resolve("melee-line", [6, 1], pairs=1).details == (
        "1 fight won by the attackers, 0 by the defenders",
    )


@pytest.mark.parametrize(("dice", "detail"), [
    ((1, 2, 3), "0 of 3 crew removed"),
    ((6, 6, 6), "3 of 3 crew removed; the piece is silenced"),
])
def test_the_crew_detail_says_silenced_only_when_no_crew_is_left(
    dice: tuple[int, ...], detail: str
) -> None:
    from companion.rules.fortboard.actions import ACTIONS

    action = ACTIONS["crew-fire"]
    params = action.complete_params({"shooters": 3, "crew": 3})
    assert action.resolve(params, dice).details == (detail,)
