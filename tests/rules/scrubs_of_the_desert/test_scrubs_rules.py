"""One table-driven test per Scrubs of the Desert rule, through the stand-alone actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.rules import get_ruleset
from companion.rules.core import DieKind, Odds, Outcome, RollRequest, RulesError
from companion.rules.scrubs_of_the_desert.activation import bonuses_after, toss_winner
from companion.rules.scrubs_of_the_desert.crew_targeting import crew_is_hit, crew_percent
from companion.rules.scrubs_of_the_desert.dice import percentile_values, read_percentile
from companion.rules.scrubs_of_the_desert.melee import Bout, pair_figures
from companion.rules.scrubs_of_the_desert.morale import morale_result

RULES = get_ruleset("scrubs")


def act(name: str, dice: list[int], **params: int | bool | str) -> Outcome:
    a = RULES.actions[name]
    return a.resolve(a.complete_params(params), dice)


def req(name: str, **params: int | bool | str) -> RollRequest:
    a = RULES.actions[name]
    return a.request(a.complete_params(params))


def odds(name: str, **params: int | bool | str) -> Odds:
    a = RULES.actions[name]
    return a.odds(a.complete_params(params))


# ------------------------------------------------------------ dice conventions


def test_every_die_is_a_d10_read_0_to_9() -> None:
    assert RULES.dice == (DieKind.D10, DieKind.PERCENTILE)
    for action in RULES.actions.values():
        for example in action.examples:
            for kind in action.request(action.complete_params(example)).kinds:
                assert kind in (DieKind.D10, DieKind.PERCENTILE)
                assert kind.faces == tuple(range(10))


@pytest.mark.parametrize(
    ("action", "dice", "params", "headline"),
    [
        ("fire", [0], {"figures": 1, "did_not_move": True}, 0),  # 0 + 1 is 1, not 11
        ("move", [0, 0, 9], {"unit_type": "french_foot", "terrain": "rough"}, 0),
        ("move", [0, 0, 0], {"unit_type": "arab_horse", "terrain": "trail"}, 0),
        ("hook-throw", [0], {}, 0),
        ("cannon-to-hit", [0], {"grapeshot": True}, 0),  # 0 + 4 = 4, short of 7
        ("cannon-blast", [0], {"figures": 1}, 0),
        ("sighting", [0], {"range": "2-4"}, 0),
        ("hook-climb", [0], {"climber": "second"}, 0),
        ("activation-toss", [0, 9], {}, 2),
    ],
)
def test_a_zero_is_zero_not_ten(action: str, dice: list[int], params: dict, headline: int) -> None:  # type: ignore[type-arg]
    assert act(action, dice, **params).headline == headline


@pytest.mark.parametrize(
    ("tens", "units", "zero", "hundred"),
    [(0, 0, 0, 100), (0, 5, 5, 5), (9, 9, 99, 99), (5, 0, 50, 50), (1, 0, 10, 10), (0, 1, 1, 1)],
)
def test_percentile_reading(tens: int, units: int, zero: int, hundred: int) -> None:
    assert read_percentile(tens, units, "zero") == zero
    assert read_percentile(tens, units, "hundred") == hundred


@pytest.mark.parametrize("reading", ["zero", "hundred"])
def test_percentile_values_are_a_hundred_distinct(reading: str) -> None:
    values = percentile_values(reading)
    assert len(set(values)) == 100
    assert set(values) == (set(range(100)) if reading == "zero" else set(range(1, 101)))


@pytest.mark.parametrize(
    ("base", "reading", "passed"),
    [
        (0, "zero", 1),  # 00 reads 0: at or under 0
        (60, "hundred", 0),  # 00 reads 100
        (80, "hundred", 1),  # 80 + 20 fort = 100
    ],
)
def test_double_zero_in_morale(base: int, reading: str, passed: int) -> None:
    position = "fort" if base == 80 else "open"
    out = act("morale", [0, 0], base_morale=base, double_zero=reading, position=position)
    assert out.headline == passed


def test_double_zero_in_crew_targeting() -> None:
    assert act("crew-targeting", [0, 0], crew=1, others=9).headline == 1
    assert act("crew-targeting", [0, 0], crew=1, others=9, double_zero="hundred").headline == 0
    for reading in ("zero", "hundred"):
        chance = odds("crew-targeting", crew=1, others=9, double_zero=reading).headline[1]
        assert chance == Fraction(1, 10)


# --------------------------------------------------------------- activation


@pytest.mark.parametrize(
    ("first", "second", "first_bonus", "second_bonus", "winner"),
    [
        (7, 3, 0, 0, 1),
        (3, 7, 0, 0, 2),
        (3, 3, 0, 1, 2),  # the loser's +1 counts
        (5, 7, 2, 0, 0),  # 5+2 ties 7: toss again
        (0, 9, 10, 0, 1),  # ten losses in a row: 0+10 beats 9
        (4, 4, 0, 0, 0),
    ],
)
def test_toss_winner(
    first: int, second: int, first_bonus: int, second_bonus: int, winner: int
) -> None:
    assert toss_winner(first, second, first_bonus, second_bonus) == winner
    out = act(
        "activation-toss", [first, second], first_bonus=first_bonus, second_bonus=second_bonus
    )
    assert out.headline == winner


@pytest.mark.parametrize(
    ("winner", "before", "after"),
    [
        (1, (0, 2), (0, 3)),  # the loser gains one
        (2, (0, 3), (1, 0)),  # the loser's bonus resets when it wins
        (1, (4, 0), (0, 1)),
        (0, (2, 0), (2, 0)),  # a tie changes nothing
    ],
)
def test_bonuses_after_a_toss(winner: int, before: tuple[int, int], after: tuple[int, int]) -> None:
    assert bonuses_after(winner, *before) == after


def test_tie_tosses_again() -> None:
    out = act("activation-toss", [4, 4])
    assert out.headline == 0 and "tie" in out.effects and out.follow_up is not None


@pytest.mark.parametrize(
    ("first_bonus", "second_bonus", "first", "second", "tie"),
    [(0, 0, 45, 45, 10), (1, 0, 55, 36, 9), (0, 9, 0, 99, 1), (2, 0, 64, 28, 8)],
)
def test_toss_odds_in_hundredths(
    first_bonus: int, second_bonus: int, first: int, second: int, tie: int
) -> None:
    result = odds("activation-toss", first_bonus=first_bonus, second_bonus=second_bonus)
    assert result.effects.get("first_activates", 0) == Fraction(first, 100)
    assert result.effects.get("second_activates", 0) == Fraction(second, 100)
    assert result.effects.get("tie", 0) == Fraction(tie, 100)


# ----------------------------------------------------------------- sighting


@pytest.mark.parametrize(
    ("band", "sighted_on"),
    [
        ("2-4", range(3, 10)),
        ("4-8", range(5, 10)),
        ("8-12", range(7, 10)),
        ("12-24", range(8, 10)),
    ],
)
def test_sighting_by_range(band: str, sighted_on: range) -> None:
    for face in range(10):
        assert act("sighting", [face], range=band).headline == (1 if face in sighted_on else 0)
    assert odds("sighting", range=band).headline[1] == Fraction(len(sighted_on), 10)


def test_sighting_within_2_inches_is_automatic() -> None:
    assert req("sighting", range="0-2").dice_count == 0
    assert act("sighting", [], range="0-2").headline == 1
    assert odds("sighting", range="0-2").headline == {1: 1}


# ----------------------------------------------------------------- movement


@pytest.mark.parametrize(
    ("unit_type", "terrain", "dice", "inches"),
    [
        ("french_foot", "desert", [9, 2, 5], 7),
        ("arab_horse", "desert", [9, 2, 5], 16),
        ("french_horse", "rough", [9, 2, 5], 9),
        ("arab_foot", "rough", [9, 2, 5], 9),
        ("french_foot", "trail", [9, 2, 5], 14),
    ],
)
def test_movement_three_dice_by_type_and_terrain(
    unit_type: str, terrain: str, dice: list[int], inches: int
) -> None:
    assert req("move", unit_type=unit_type, terrain=terrain).dice_count == 3
    assert act("move", dice, unit_type=unit_type, terrain=terrain).headline == inches


@pytest.mark.parametrize(
    ("unit_type", "dice", "formation"),
    [
        ("french_foot", [0, 0, 3], True),  # lowest 2 in the desert: 0"
        ("french_horse", [0, 0, 0], True),
        ("arab_foot", [0, 0, 0], False),  # only the French
        ("french_foot", [1, 0, 3], False),  # 1": no need
    ],
)
def test_french_at_zero_may_change_formation(
    unit_type: str, dice: list[int], formation: bool
) -> None:
    out = act("move", dice, unit_type=unit_type, terrain="desert")
    assert ("formation_change_only" in out.effects) is formation


# --------------------------------------------------------------------- fire


@pytest.mark.parametrize(
    ("params", "dice", "hits"),
    [
        ({"figures": 3}, [7, 6, 9], 2),  # French rifle short 7+
        ({"figures": 2, "range": "long"}, [7, 8], 1),  # long 8+
        ({"figures": 2, "target_in_cover": True}, [7, 8], 1),  # -1
        ({"figures": 2, "did_not_move": True}, [6, 8], 2),  # +1
        ({"figures": 2, "did_not_move": True, "before_melee": True}, [6, 8], 1),
        ({"weapon": "french_pistol", "figures": 2}, [6, 7], 1),
        ({"weapon": "arab_spear", "figures": 2, "range": "long"}, [8, 9], 1),  # 9+
        ({"weapon": "arab_rifle", "figures": 3}, [7, 8, 9], 2),  # 8+
        ({"weapon": "machine_gun", "figures": 1, "did_not_move": True}, [6, 6], 0),
        ({"weapon": "machine_gun", "figures": 1}, [7, 9], 2),
    ],
)
def test_fire_hits(params: dict, dice: list[int], hits: int) -> None:  # type: ignore[type-arg]
    assert act("fire", dice, **params).headline == hits


@pytest.mark.parametrize(
    ("dice", "jammed"),
    [
        ([0, 0, 0, 9], True),
        ([0, 0, 0, 0], True),  # three or more
        ([0, 0, 7, 9], False),
        ([1, 0, 0, 2], False),
    ],
)
def test_machine_gun_jams_on_three_zeros(dice: list[int], jammed: bool) -> None:
    assert req("fire", weapon="machine_gun", figures=2).dice_count == 4
    assert ("jammed" in act("fire", dice, weapon="machine_gun", figures=2).effects) is jammed


def test_infantry_crewing_the_gun_roll_one_die_each() -> None:
    assert req("fire", weapon="machine_gun", figures=3, crewed_by="infantry").dice_count == 3
    out = act("fire", [0, 0, 0], weapon="machine_gun", figures=3, crewed_by="infantry")
    assert "jammed" in out.effects


def test_crewed_by_is_refused_for_other_weapons() -> None:
    with pytest.raises(RulesError, match="crewed_by=infantry is for the machine gun only"):
        req("fire", weapon="french_rifle", crewed_by="infantry")


def test_cannon_is_not_fired_as_small_arms() -> None:
    with pytest.raises(RulesError, match="weapon='french_cannon' is not allowed"):
        req("fire", weapon="french_cannon")


def test_cavalry_hit_kills_rider_and_horse() -> None:
    out = act("fire", [9], figures=1, target_mounted=True)
    assert any("horseman with his horse" in d for d in out.details)


# ------------------------------------------------------------------- cannon


@pytest.mark.parametrize(
    ("params", "die", "hit"),
    [
        ({"crew": 4}, 7, 1),  # French cannon short 7+
        ({"crew": 4}, 6, 0),
        ({"crew": 4, "range": "long"}, 8, 1),
        ({"crew": 4, "range": "long"}, 7, 0),
        ({"cannon": "arab_cannon", "crew": 4}, 8, 1),
        ({"cannon": "arab_cannon", "crew": 4, "range": "long"}, 8, 0),  # 9+
        ({"crew": 3}, 7, 0),  # -1
        ({"crew": 3}, 8, 1),
        ({"crew": 2}, 8, 0),  # -2
        ({"crew": 2}, 9, 1),
        ({"crew": 4, "target_in_cover": True}, 7, 0),
        ({"crew": 4, "grapeshot": True}, 3, 1),  # +4 under 6"
        ({"crew": 4, "grapeshot": True}, 2, 0),
    ],
)
def test_cannon_to_hit(params: dict, die: int, hit: int) -> None:  # type: ignore[type-arg]
    out = act("cannon-to-hit", [die], **params)
    assert out.headline == hit
    assert (out.follow_up is not None) is bool(hit)


def test_cannon_hit_asks_for_the_blast() -> None:
    out = act("cannon-to-hit", [7], crew=4, figures_under_blast=5)
    assert out.follow_up is not None and out.follow_up.dice_count == 5


@pytest.mark.parametrize("crew", [0, 1])
def test_cannon_needs_two_crew(crew: int) -> None:
    with pytest.raises(RulesError, match="at least 2 crew"):
        req("cannon-to-hit", crew=crew)


def test_grapeshot_is_short_range() -> None:
    with pytest.raises(RulesError, match="short range"):
        req("cannon-to-hit", grapeshot=True, range="long")


@pytest.mark.parametrize(
    ("dice", "cover", "killed"),
    [([4, 5, 9, 0], False, 2), ([4, 5, 9, 0], True, 1), ([6, 6, 6], True, 3)],
)
def test_blast_kills_on_5_or_more_per_figure(dice: list[int], cover: bool, killed: int) -> None:
    assert act("cannon-blast", dice, figures=len(dice), target_in_cover=cover).headline == killed


# ------------------------------------------------------------ crew targeting


@pytest.mark.parametrize(
    ("crew", "others", "percent"),
    [(2, 2, 50), (2, 4, 33), (3, 7, 30), (1, 0, 100), (1, 5, 16), (2, 60, 3)],
)
def test_crew_percentage_rounds_down(crew: int, others: int, percent: int) -> None:
    assert crew_percent(crew, others) == percent
    assert odds("crew-targeting", crew=crew, others=others).headline[1] == Fraction(percent, 100)


@pytest.mark.parametrize(
    ("value", "percent", "reading", "hit"),
    [
        (49, 50, "zero", True),
        (50, 50, "zero", False),  # 00-49 is exactly 50 chances in 100
        (50, 50, "hundred", True),  # 01-50 likewise
        (51, 50, "hundred", False),
        (0, 1, "zero", True),
        (100, 100, "hundred", True),
    ],
)
def test_crew_hit_comparison(value: int, percent: int, reading: str, hit: bool) -> None:
    assert crew_is_hit(value, percent, reading) is hit


@pytest.mark.parametrize(
    ("crew", "others", "reading", "shown"),
    [
        (2, 5, "zero", "28%: 00-27"),
        (2, 5, "hundred", "28%: 01-28"),
        (1, 0, "zero", "100%: 00-99"),
        (2, 60, "hundred", "3%: 01-03"),
    ],
)
def test_crew_request_shows_the_rolls_that_hit_the_crew(
    crew: int, others: int, reading: str, shown: str
) -> None:
    meaning = req("crew-targeting", crew=crew, others=others, double_zero=reading)
    assert meaning.groups[0].faces_meaning.startswith(shown + " hits a crewman")
    low, high = (int(n) for n in shown.split(": ")[1].split("-"))
    for value, hit in ((low, 1), (high, 1), (high + 1, 0)):
        if value <= 99:  # no reading past 99 on the dice
            dice = [value // 10, value % 10]
            out = act("crew-targeting", dice, crew=crew, others=others, double_zero=reading)
            assert out.headline == hit, value


def test_a_percentile_per_hit() -> None:
    assert req("crew-targeting", hits=3).dice_count == 6
    out = act("crew-targeting", [3, 4, 0, 9], hits=2, crew=2, others=2)  # 30 and 49 under 50
    assert out.headline == 2


# ------------------------------------------------------------------- morale


@pytest.mark.parametrize(
    ("roll", "target", "closing", "result"),
    [
        (60, 60, False, "holds"),  # at or under
        (61, 60, False, "routs"),  # over 50%: rout
        (51, 51, False, "holds"),
        (52, 51, False, "routs"),
        (51, 50, False, "removed"),  # at 50%: removed
        (31, 30, False, "removed"),
        (31, 30, True, "routs"),  # closing into melee never removes
        (99, 120, False, "holds"),
    ],
)
def test_morale_result(roll: int, target: int, closing: bool, result: str) -> None:
    assert morale_result(roll, target, closing).result == result


@pytest.mark.parametrize(
    ("target", "size", "lost", "result"),
    [
        (30, 10, 4, "routs"),  # 6 of 10 left: over half
        (80, 10, 5, "removed"),  # 5 of 10: half or less
        (80, 4, 1, "routs"),
        (30, 3, 2, "removed"),
    ],
)
def test_morale_strength_reading(target: int, size: int, lost: int, result: str) -> None:
    assert morale_result(99, target, False, "strength", size, lost).result == result


@pytest.mark.parametrize(
    ("params", "dice", "target", "effects"),
    [
        (
            {"base_morale": 70, "unit_size": 4, "figures_lost": 1, "position": "fort"},
            [8, 0],
            80,
            set(),
        ),
        (
            {"base_morale": 70, "unit_size": 4, "figures_lost": 1, "position": "fort"},
            [8, 1],
            80,
            {"routed", "morale_failed"},
        ),
        (
            {"base_morale": 60, "unit_size": 10, "figures_lost": 2},
            [9, 9],
            50,
            {"removed", "morale_failed"},
        ),
        (
            {"base_morale": 60, "unit_size": 20, "figures_lost": 2},
            [9, 9],
            54,
            {"routed", "morale_failed"},
        ),
        (
            {"base_morale": 60, "unit_size": 20, "loss_per_figure": 10, "figures_lost": 2},
            [4, 0],
            40,
            set(),
        ),
        ({"base_morale": 40, "unit_size": 12, "position": "building"}, [5, 0], 50, set()),
    ],
)
def test_morale_check(params: dict, dice: list[int], target: int, effects: set[str]) -> None:  # type: ignore[type-arg]
    out = act("morale", dice, **params)
    assert f"= {target}%" in out.details[0]
    assert out.effects == effects
    assert out.headline == (0 if effects else 1)


@pytest.mark.parametrize(
    ("params", "dice", "line"),
    [
        ({"base_morale": 70, "unit_size": 4}, [3, 4], "rolled 34 against 70%: holds"),
        (
            {"base_morale": 70, "unit_size": 4},
            [9, 5],
            'rolled 95 against 70%: fails: the unit routs back 12", loses its action, '
            "recovers by itself",
        ),
        (
            {"base_morale": 60, "unit_size": 10, "figures_lost": 2},
            [9, 4],
            "rolled 94 against 50%: fails: the unit is removed (morale 50% or under)",
        ),
        (
            {"base_morale": 80, "unit_size": 10, "figures_lost": 5, "rout_rule": "strength"},
            [9, 4],
            "rolled 94 against 55%: fails: the unit is removed (half its figures or fewer left)",
        ),
    ],
)
def test_morale_result_line_gives_the_roll_against_the_target(
    params: dict,  # type: ignore[type-arg]
    dice: list[int],
    line: str,
) -> None:
    assert act("morale", dice, **params).details[1] == line


@pytest.mark.parametrize(
    ("defenders", "die", "line"),
    [
        (0, 8, "rolled 8, needing 4+: the hook holds"),
        (2, 6, 'rolled 6 - 2 for defenders within 1" = 4, needing 4+: the hook holds'),
        (5, 5, 'rolled 5 - 3 for defenders within 1" = 2, needing 4+: the hook falls back'),
    ],
)
def test_hook_throw_line(defenders: int, die: int, line: str) -> None:
    assert act("hook-throw", [die], defenders=defenders).details == (line,)


def test_move_and_fire_name_nation_and_terrain_for_the_referee() -> None:
    assert (
        req("move", unit_type="arab_horse", terrain="trail").reason
        == "Leader move: Arab horse on trail or fort"
    )
    assert req("fire", weapon="arab_spear").groups[0].label == "Arab spear"
    machine_gun = req("fire", weapon="machine_gun", figures=2)
    assert machine_gun.groups[0].label == "machine gun"
    assert machine_gun.reason.startswith("Machine gun fire at short range")
    assert req("cannon-to-hit", cannon="french_cannon").reason == "French cannon: hit on 7+"


def test_morale_refuses_a_unit_with_no_one_left() -> None:
    with pytest.raises(RulesError, match="figures_lost=4 leaves no one of a unit of 4"):
        req("morale", unit_size=4, figures_lost=4)


@pytest.mark.parametrize(
    ("params", "passes"),
    [
        ({"base_morale": 60}, 61),  # 00-60 with 00 = 0
        ({"base_morale": 60, "double_zero": "hundred"}, 60),  # 01-60 with 00 = 100
        ({"base_morale": 0}, 1),  # only 00
        ({"base_morale": 0, "double_zero": "hundred"}, 0),
        ({"base_morale": 5, "unit_size": 4, "figures_lost": 1}, 0),  # -5%
        ({"base_morale": 100, "position": "fort", "double_zero": "hundred"}, 100),
        ({"base_morale": 100, "position": "fort"}, 100),
    ],
)
def test_morale_pass_chance_is_exact(params: dict, passes: int) -> None:  # type: ignore[type-arg]
    assert odds("morale", **params).headline.get(1, Fraction(0)) == Fraction(passes, 100)


# -------------------------------------------------------------------- melee


@pytest.mark.parametrize(
    ("attackers", "defenders", "bouts"),
    [
        (1, 1, [Bout(1, 1)]),
        (2, 1, [Bout(2, 1)]),
        (3, 1, [Bout(2, 1)]),  # at most two on one; the third stands by
        (3, 2, [Bout(2, 1), Bout(1, 1)]),
        (1, 2, [Bout(1, 2)]),
        (2, 5, [Bout(1, 2), Bout(1, 2)]),
        (4, 4, [Bout(1, 1)] * 4),
        (0, 3, []),
    ],
)
def test_pairing_two_on_one_at_most(attackers: int, defenders: int, bouts: list[Bout]) -> None:
    assert list(pair_figures(attackers, defenders)) == bouts


@pytest.mark.parametrize(
    ("dice", "params", "winner"),
    [
        ([7, 3], {}, 1),  # higher total kills
        ([3, 7], {}, -1),
        ([5, 5], {}, 0),  # a tie locks
        ([9, 3, 4], {"defenders": 2}, 1),  # a lone figure beating two kills one
        ([6, 3, 4], {"defenders": 2}, -1),  # 6 against 7
        ([2, 3, 4], {"attackers": 2}, 1),  # the pair's 5 beats 4
        ([1, 1, 9], {"attackers": 2}, -1),
        ([5, 6], {"arab_charging": True}, 0),  # +1
        ([5, 6], {"cavalry_charging": True}, 0),  # +1
        ([5, 7], {"arab_charging": True, "cavalry_charging": True}, 0),  # both
        ([5, 6], {"attacker_leader": True}, 0),  # +1
        ([7, 5], {"defender_position": "fort"}, 0),  # +2
        ([6, 5], {"defender_position": "higher"}, 0),  # +1
        ([6, 5], {"defender_position": "building"}, 0),  # +1
        ([6, 5], {"defender_leader": True}, 0),
        ([9, 5], {"counter_charging": True, "counter_bonus": True}, 0),  # +1 +3
        ([6, 5], {"counter_charging": True}, 0),
        ([7, 5], {"counter_charging": True, "counter_arabs": True}, 0),  # +1 +1
        ([6, 5], {"counter_charging": True, "counter_arabs": True}, -1),
    ],
)
def test_melee_bout(dice: list[int], params: dict, winner: int) -> None:  # type: ignore[type-arg]
    out = act("melee-bout", dice, **params)
    assert out.headline == winner
    assert out.effects == {{1: "defender_killed", -1: "attacker_killed", 0: "locked"}[winner]}


@pytest.mark.parametrize(("per_figure", "winner"), [(True, 1), (False, 0)])
def test_modifiers_per_figure_or_once(per_figure: bool, winner: int) -> None:
    out = act("melee-bout", [3, 3, 7], attackers=2, arab_charging=True, per_figure=per_figure)
    assert out.headline == winner


def test_leader_counts_once_even_per_figure() -> None:
    assert act("melee-bout", [3, 3, 7], attackers=2, attacker_leader=True).headline == 0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"attackers": 2, "defenders": 2}, "two against two"),
        ({"counter_bonus": True}, "needs counter_charging=yes"),
        ({"counter_arabs": True}, "needs counter_charging=yes"),
        ({"counter_charging": True, "defender_position": "fort"}, "defender_position=open"),
    ],
)
def test_melee_refuses_what_cannot_happen(params: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RulesError, match=message):
        req("melee-bout", **params)


# ---------------------------------------------------------------- grappling


@pytest.mark.parametrize(("defenders", "lowest"), [(0, 4), (1, 5), (2, 6), (3, 7), (4, 7), (9, 7)])
def test_hook_throw_4_plus_less_defenders_max_3(defenders: int, lowest: int) -> None:
    assert act("hook-throw", [lowest], defenders=defenders).headline == 1
    assert act("hook-throw", [lowest - 1], defenders=defenders).headline == 0
    assert odds("hook-throw", defenders=defenders).headline[1] == Fraction(10 - lowest, 10)


@pytest.mark.parametrize(
    ("climber", "die", "up"), [("second", 5, 1), ("second", 4, 0), ("third", 8, 1), ("third", 7, 0)]
)
def test_second_climber_5_third_8(climber: str, die: int, up: int) -> None:
    out = act("hook-climb", [die], climber=climber)
    assert out.headline == up
    if not up:
        assert "no one else climbs" in out.details[0]


def test_counts_of_one_are_said_in_the_singular() -> None:
    assert req("cannon-blast", figures=1).reason == (
        'Cannon blast: a d10 for each of 1 figure under the 3" template'
    )
    blast = act("cannon-blast", [9], figures=1)
    assert blast.details[0].startswith("rolled 9: 1 of 1 figure killed ")
    assert req("crew-targeting", hits=1).reason.startswith("Crew targeting: 1 hit, ")
    assert act("fire", [9, 1, 1, 1]).details[-1] == "rolled 9, 1, 1, 1: 1 hit, kills a figure"


@pytest.mark.parametrize(
    ("name", "params"),
    [("morale", {}), ("crew-targeting", {"hits": 3}), ("crew-targeting", {"hits": 1})],
)
def test_percentile_dice_give_their_meaning_once_on_the_tens(
    name: str, params: dict[str, int]
) -> None:
    """The roll screen prints each group's meaning: the same text on the units die
    would show the same line twice."""
    tens, units = req(name, **params).groups
    assert tens.kind is DieKind.PERCENTILE and tens.faces_meaning
    assert units.kind is DieKind.D10 and units.faces_meaning == ""
