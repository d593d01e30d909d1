"""Each Fighting Swashbucklers rule as a named test, mostly through the Actions."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest

from companion.rules import get_ruleset
from companion.rules.core import DieKind, Outcome, RulesError
from companion.rules.fighting_swashbucklers import fire, melee, morale
from companion.rules.fighting_swashbucklers.actions import ACTIONS

RULES = get_ruleset("fighting_swashbucklers")


def resolve(action: str, dice: list[int], **params: int | bool | str) -> Outcome:
    a = ACTIONS[action]
    return a.resolve(a.complete_params(params), dice)


def odds(action: str, **params: int | bool | str):  # type: ignore[no-untyped-def]
    a = ACTIONS[action]
    return a.odds(a.complete_params(params))


def test_registered_under_its_name_and_aliases() -> None:
    assert RULES.name == "fighting_swashbucklers"
    assert get_ruleset("fsfl") is RULES
    assert get_ruleset("swashbucklers") is RULES


# ------------------------------------------------------------------ fire


def test_full_squad_places_its_fire_factor_without_a_roll() -> None:
    request = ACTIONS["rifle-fire"].request(ACTIONS["rifle-fire"].complete_params({"men": 4}))
    assert request.dice_count == 0
    assert resolve("rifle-fire", [], men=4, firer="prone").headline == 4


@pytest.mark.parametrize(
    ("men", "firer", "dice", "markers"),
    [
        (1, "prone", [2, 5], 4),  # one prone man who succeeds still places all 4
        (1, "prone", [2, 6], 0),
        (2, "kneeling", [5, 0], 3),
        (2, "kneeling", [5, 1], 0),
        (3, "standing", [7, 5], 2),
        (3, "standing", [7, 6], 0),
        (3, "running", [0, 0], 0),  # "00" reads 100: a miss
        (4, "running", [], 1),
    ],
)
def test_fire_is_all_or_nothing_at_25_percent_a_man(
    men: int, firer: str, dice: list[int], markers: int
) -> None:
    assert resolve("rifle-fire", dice, men=men, firer=firer).headline == markers


def test_three_men_need_75_or_less() -> None:
    assert odds("rifle-fire", men=3, firer="standing").headline == {
        0: Fraction(1, 4),
        2: Fraction(3, 4),
    }


@pytest.mark.parametrize(
    ("men", "crew", "dice", "markers"),
    [
        (4, 1, [7, 5], 7),  # three riflemen at 75%: 4 + 3
        (4, 1, [7, 6], 4),
        (4, 2, [5, 0], 7),  # option: two riflemen at 50%
        (4, 2, [5, 1], 4),
        (2, 1, [2, 5], 7),  # one rifleman at 25%
        (1, 1, [], 4),  # the gun alone: no roll
    ],
)
def test_machine_gun_places_four_plus_its_riflemen(
    men: int, crew: int, dice: list[int], markers: int
) -> None:
    out = resolve("machine-gun-fire", dice, men=men, mg_crew=crew, firer="kneeling")
    assert out.headline == markers


@pytest.mark.parametrize(
    ("face", "range_inches", "zero", "markers", "says"),
    [
        (2, 34, "10", 0, "no impact"),
        (3, 34, "10", 0, "no impact"),
        (9, 34, "10", 6, "6 markers"),
        (0, 34, "10", 7, "7 markers"),
        (0, 34, "0", 0, "no impact"),
        (1, 5, "10", 1, "1 marker"),
    ],
)
def test_cannon_is_d10_less_the_tens_digit(
    face: int, range_inches: int, zero: str, markers: int, says: str
) -> None:
    out = resolve("cannon-fire", [face], range=range_inches, d10_zero=zero)
    assert out.headline == markers
    assert says in out.details[-1]


@pytest.mark.parametrize(("cavalry_ff", "markers"), [(1, 1), (0, 0)])
def test_cavalry_fire_factor_option(cavalry_ff: int, markers: int) -> None:
    out = resolve("rifle-fire", [], men=4, firer="cavalry", cavalry_fire_factor=cavalry_ff)
    assert out.headline == markers


# ------------------------------------------------------------------ morale

# (params, dice, men removed, effects)
MORALE_CASES = [
    ({"men": 4, "markers": 1}, [9, 7], 1, {"routed"}),  # odd failure
    ({"men": 4, "markers": 1}, [9, 6], 2, {"routed"}),  # even failure
    ({"men": 4}, [5, 0], 0, {"provoked"}),  # half the ML or less
    ({"men": 4}, [5, 1], 0, set()),
    ({"men": 4, "markers": 2, "stress": True}, [4, 1], 1, {"routed"}),  # ML 40
    ({"men": 4, "markers": 2, "stress": True}, [4, 0], 0, set()),
    ({"men": 4, "markers": 2}, [9, 9], 1, {"routed"}),
    ({"men": 4, "markers": 2, "leader_points": 10}, [9, 9], 0, set()),
    ({"men": 1}, [9, 8], 1, {"routed"}),  # a lone man loses at most himself
    ({"men": 4, "markers": 1}, [0, 0], 2, {"routed"}),  # "00" = 100, even, over 95
    ({"men": 4}, [0, 0], 0, set()),  # 100 against 100 holds
    ({"men": 4, "markers": 1, "double_zero": "0"}, [0, 0], 0, {"provoked"}),
]


@pytest.mark.parametrize(("params", "dice", "lost", "effects"), MORALE_CASES)
def test_morale_test_case(
    params: dict[str, int | bool | str], dice: list[int], lost: int, effects: set[str]
) -> None:
    out = resolve("morale-test", dice, **params)
    assert (out.headline, out.effects) == (lost, frozenset(effects))


@pytest.mark.parametrize(("kind", "verb"), [("infantry", "must fire"), ("cavalry", "must advance")])
def test_a_provoked_squad_is_told_what_to_do(kind: str, verb: str) -> None:
    assert verb in resolve("morale-test", [1, 0], men=4, kind=kind).details[-1]


def test_stress_halves_the_normal_level_before_markers() -> None:
    assert morale.morale_level(4, 2, stress=True) == 40
    out = resolve("morale-test", [4, 1], men=4, markers=2, stress=True)
    assert "halved for stress = 50" in out.details[0]


def test_good_leader_risk_is_twice_his_points() -> None:
    assert resolve("good-leader-risk", [2, 0], points=10).effects == frozenset({"killed"})
    assert resolve("good-leader-risk", [2, 1], points=10).effects == frozenset()
    assert odds("good-leader-risk", points=10).effects == {"killed": Fraction(1, 5)}
    assert odds("good-leader-risk", points=50).effects == {"killed": Fraction(1)}


# ------------------------------------------------------------------ dice readings


@pytest.mark.parametrize(("zero", "cp"), [("100", 5), ("0", 3)])
def test_double_zero_in_the_command_point_roll(zero: str, cp: int) -> None:
    assert resolve("command-points", [0, 0], double_zero=zero).headline == cp


@pytest.mark.parametrize(("zero", "kind"), [("100", 3), ("0", 1)])
def test_double_zero_in_the_under_officer_roll(zero: str, kind: int) -> None:
    assert resolve("under-officer", [0, 0], double_zero=zero).headline == kind


@pytest.mark.parametrize(("zero", "granted"), [("100", 0), ("0", 1)])
def test_double_zero_in_the_second_action_roll(zero: str, granted: int) -> None:
    assert resolve("second-action", [0, 0], cp=5, double_zero=zero).headline == granted


@pytest.mark.parametrize(("zero", "killed"), [("100", frozenset()), ("0", frozenset({"killed"}))])
def test_double_zero_in_the_martinet_and_leader_rolls(zero: str, killed: frozenset[str]) -> None:
    assert resolve("martinet-fate", [0, 0], won=False, double_zero=zero).effects == killed
    assert resolve("good-leader-risk", [0, 0], points=10, double_zero=zero).effects == killed


@pytest.mark.parametrize(("zero", "passes"), [("100", 0), ("0", 1)])
def test_double_zero_in_the_rough_terrain_roll(zero: str, passes: int) -> None:
    assert resolve("rough-terrain", [0, 0], double_zero=zero).headline == passes


@pytest.mark.parametrize(("zero", "extra"), [("100", 0), ("0", 1)])
def test_double_zero_in_the_rally_fraction(zero: str, extra: int) -> None:
    assert resolve("rally-fraction", [0, 0], percent=90, double_zero=zero).headline == extra


@pytest.mark.parametrize(("zero", "markers"), [("100", 0), ("0", 3)])
def test_double_zero_in_rifle_fire(zero: str, markers: int) -> None:
    assert resolve("rifle-fire", [0, 0], men=1, firer="kneeling", double_zero=zero).headline == (
        markers
    )


# (action, params, the headline when a 0 reads 10, when it reads 0)
D10_ZERO_CASES = [
    ("reaction-fire", {"cp": 4}, 4, 0),
    ("rally", {"cp": 3}, 3, 0),
    ("cannon-fire", {"range": 25}, 8, 0),
]


@pytest.mark.parametrize(("action", "params", "as_ten", "as_zero"), D10_ZERO_CASES)
def test_a_d10_zero_reads_ten_unless_the_option_says_zero(
    action: str, params: dict[str, int], as_ten: int, as_zero: int
) -> None:
    assert resolve(action, [0], **params).headline == as_ten
    assert resolve(action, [0], **params, d10_zero="0").headline == as_zero
    assert "0 reads 10" in resolve(action, [0], **params).details[0]


def test_a_d10_zero_in_melee() -> None:
    # cavalry 10 x 10 = 100 against prone 6 x 9 = 54: a win, not threefold
    out = resolve("melee-pair", [0, 9], attacker="cavalry", defender="prone")
    assert (out.headline, out.effects) == (1, frozenset())
    # read as zero, the cavalryman's 0 is beaten threefold by anything
    out = resolve("melee-pair", [0, 9], attacker="cavalry", defender="prone", d10_zero="0")
    assert (out.headline, out.effects) == (2, frozenset({"routed"}))


def test_the_d10_reading_is_shown_with_the_dice() -> None:
    request = ACTIONS["melee-round"].request(ACTIONS["melee-round"].complete_params({}))
    assert all("0 reads 10" in g.faces_meaning for g in request.groups)


# ------------------------------------------------------------------ command


@pytest.mark.parametrize(
    ("cp", "dice", "granted"), [(4, [4, 0], 1), (4, [4, 1], 0), (3, [3, 0], 1), (5, [5, 1], 0)]
)
def test_second_action_is_ten_times_cp(cp: int, dice: list[int], granted: int) -> None:
    assert resolve("second-action", dice, cp=cp).headline == granted


@pytest.mark.parametrize("zero", ["100", "0"])
def test_no_command_points_never_give_a_second_action(zero: str) -> None:
    assert resolve("second-action", [0, 0], cp=0, double_zero=zero).headline == 0
    assert odds("second-action", cp=0, double_zero=zero).headline == {0: Fraction(1)}


def test_second_action_odds() -> None:
    assert odds("second-action", cp=4).headline == {0: Fraction(3, 5), 1: Fraction(2, 5)}


@pytest.mark.parametrize(("cp", "face", "units"), [(3, 7, 2), (5, 1, 0), (4, 3, 1), (5, 0, 5)])
def test_reaction_is_one_unit_per_ten_points(cp: int, face: int, units: int) -> None:
    assert resolve("reaction-fire", [face], cp=cp).headline == units


def test_rally_fraction_is_one_more_man_on_a_percentile() -> None:
    out = resolve("rally", [7], cp=4)
    assert out.headline == 2
    assert out.follow_up is not None and "80" in out.follow_up.reason
    assert resolve("rally-fraction", [8, 0], percent=80).headline == 1
    assert resolve("rally-fraction", [8, 1], percent=80).headline == 0


def test_rally_with_whole_points_asks_no_fraction() -> None:
    assert resolve("rally", [5], cp=4).follow_up is None
    assert resolve("rally", [0], cp=4).headline == 4


def test_martinet_dies_on_30_if_won_60_if_lost() -> None:
    assert odds("martinet-fate", won=True).effects == {"killed": Fraction(3, 10)}
    assert odds("martinet-fate", won=False).effects == {"killed": Fraction(3, 5)}


# ------------------------------------------------------------------ melee

# (attacker factor, defender factor, attacker die, defender die, winner, routed)
PAIR_CASES = [
    (9, 7, 5, 6, "attacker", False),  # 45 v 42
    (6, 10, 2, 4, "defender", True),  # 12 v 40
    (10, 10, 3, 1, "attacker", True),  # exactly three times
    (10, 10, 5, 2, "attacker", False),  # 50 v 20: not three times
    (9, 9, 4, 4, "tie", False),
    (12, 10, 1, 2, "defender", False),  # 12 v 20
    (6, 10, 0, 1, "defender", True),  # a 0 read as zero is beaten threefold by anything
    (6, 10, 0, 0, "tie", False),
]


@pytest.mark.parametrize(("a", "d", "x", "y", "winner", "routed"), PAIR_CASES)
def test_melee_pair_case(a: int, d: int, x: int, y: int, winner: str, routed: bool) -> None:
    result = melee.pair_result(a, d, x, y)
    assert (result.winner, result.routed) == (winner, routed)


def test_a_tie_says_the_pair_fights_again() -> None:
    out = resolve("melee-pair", [4, 4], attacker="running", defender="running")
    assert out.headline == 0 and "fights again" in out.details[-1]


def test_martinet_and_advantage_in_the_melee_action() -> None:
    request = ACTIONS["melee-pair"].request(
        ACTIONS["melee-pair"].complete_params(
            {"attacker": "prone", "attacker_martinet": True, "defender_advantage": True}
        )
    )
    assert request.reason == "Melee pair: 7 x d10 against 9 x d10"


@pytest.mark.parametrize(("factor", "value"), [(12, 12), (10, 10)])
def test_commander_factor_option_in_the_action(factor: int, value: int) -> None:
    out = resolve(
        "melee-pair", [1, 1], attacker="running", defender="commander", commander_factor=factor
    )
    assert f"defender {value} x 1" in out.details[0]


def test_melee_pair_action_reports_the_rout() -> None:
    out = resolve("melee-pair", [1, 5], attacker="prone", defender="cavalry")
    assert out.headline == 2
    assert out.effects == frozenset({"routed"})


def test_melee_round_counts_defenders_beaten() -> None:
    out = resolve("melee-round", [9, 1, 1, 9], pairs=2, attacker="running", defender="running")
    assert out.headline == 1
    assert out.effects == frozenset({"defender_routed", "attacker_routed"})


def test_melee_round_odds_for_eight_pairs_are_exact() -> None:
    result = odds("melee-round", pairs=8, attacker="cavalry", defender="prone")
    assert sum(result.headline.values()) == 1
    one = odds("melee-pair", attacker="cavalry", defender="prone").headline[1]
    assert result.headline[8] == one**8


# ------------------------------------------------------------------ dice checks


@pytest.mark.parametrize(
    ("action", "params", "dice", "message"),
    [
        ("morale-test", {}, [5], "expected 2 dice"),
        ("cannon-fire", {"range": 10}, [10], "reads 0-9"),
        ("rifle-fire", {"men": 4}, [5, 5], "expected 0 dice"),
        ("melee-round", {"pairs": 2}, [1, 2, 3], "expected 4 dice"),
    ],
)
def test_wrong_dice_are_named(
    action: str, params: dict[str, int], dice: list[int], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        resolve(action, dice, **params)


@pytest.mark.parametrize(
    ("action", "words", "message"),
    [
        ("cannon-fire", ["range=100"], "range=100 is not allowed; use a whole number 0..99"),
        ("cannon-fire", ["rang=30"], "has no parameter 'rang'; it takes: range, d10_zero"),
        ("rally", ["d10_zero=1"], "d10_zero='1' is not allowed; use 10, 0"),
        ("morale-test", ["men=5"], "men=5 is not allowed; use a whole number 1..4"),
    ],
)
def test_wrong_parameters_are_named(action: str, words: list[str], message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(".", r"\.")):
        ACTIONS[action].parse_params(words)


def test_fire_helpers_agree_with_the_actions() -> None:
    assert fire.rifle_markers(2, 3, 50) == 3
    assert fire.rifle_markers(2, 3, 51) == 0
    assert fire.rifle_markers(4, 3, None) == 3


def test_counts_of_one_are_said_in_the_singular() -> None:
    assert morale.explain_level(4, 1, stress=False, leader_points=1) == (
        "ML = 60 + 10 x 4 = 100, less 5 x 1 marker, plus 1 leader point: 96"
    )
    assert "2 CP x 5 / 10 = 1 man" in resolve("rally", [5], cp=2).details
    melee_round = ACTIONS["melee-round"]
    request = melee_round.request(melee_round.complete_params({"pairs": 1}))
    assert request.reason.startswith("Melee round: 1 pair,")


@pytest.mark.parametrize(
    ("stress", "markers", "explained"),
    [
        (False, 0, "ML = 60 + 10 x 4 = 100"),
        (True, 0, "ML = 60 + 10 x 4 = 100, halved for stress = 50"),
        (True, 2, "ML = 60 + 10 x 4 = 100, halved for stress = 50, less 5 x 2 markers: 40"),
    ],
)
def test_the_morale_level_is_said_once(stress: bool, markers: int, explained: str) -> None:
    out = resolve("morale-test", [3, 4], men=4, markers=markers, stress=stress)
    assert out.details[0] == explained


# ------------------------------------------------------------------ wording


def test_cannon_detail_names_the_range_band_not_an_exact_range() -> None:
    # the game asks the range by bands of ten inches: 30-39" is all it knows
    hit = resolve("cannon-fire", [7], range=30)
    assert hit.details[-1] == 'D 7 - R 3 (range 30-39"): 4 markers'
    miss = resolve("cannon-fire", [2], range=34)
    assert miss.details[-1] == 'D 2 - R 3 (range 30-39"): no impact'


def test_machine_gun_detail_says_the_roll_and_the_total() -> None:
    hit = resolve("machine-gun-fire", [7, 5], men=4, firer="kneeling")
    assert hit.details[-1] == "75 <= 75: gun 4 + riflemen 3 = 7 markers"
    miss = resolve("machine-gun-fire", [7, 6], men=4, firer="kneeling")
    assert miss.details[-1] == "76 > 75: the riflemen miss, the gun's 4 markers only"


def test_provoked_verdict_gives_half_the_ml_as_a_number() -> None:
    out = resolve("morale-test", [4, 2], men=4, markers=3)  # ML 85: 42 or less provokes
    assert out.details[-1] == "42 <= 42 (half ML): provoked, the squad must fire"
    assert "provoked" not in resolve("morale-test", [4, 3], men=4, markers=3).effects


@pytest.mark.parametrize(("zero", "meaning"), [("100", "every roll fails"), ("0", "over 0 fails")])
def test_a_morale_level_below_every_reading_says_every_roll_fails(zero: str, meaning: str) -> None:
    a = ACTIONS["morale-test"]
    low = a.request(a.complete_params({"men": 4, "markers": 20, "double_zero": zero}))
    assert low.reason == "Morale test against ML 0"
    assert low.groups[0].faces_meaning.startswith(meaning)


def test_yes_no_rolls_have_yes_no_headlines() -> None:
    """The box words these "Granted: no" and "Passed: yes", not "Second actions: 0"."""
    from companion.ui.wording import headline, odds_line

    assert headline(resolve("second-action", [5, 8], cp=5)) == "Granted: no"
    assert headline(resolve("second-action", [5, 0], cp=5)) == "Granted: yes"
    request = ACTIONS["second-action"].request(ACTIONS["second-action"].complete_params({}))
    assert odds_line(odds("second-action", cp=5), request.groups) == "granted 50%"
    assert odds_line(odds("rough-terrain"), request.groups) == "passed 70%"
    assert headline(resolve("rough-terrain", [7, 0])) == "Passed: yes"
    assert headline(resolve("rough-terrain", [7, 1])) == "Passed: no"


# ------------------------------------------------------------------ wording


@pytest.mark.parametrize(
    ("action", "params", "face", "rest"),
    [
        ("reaction-fire", {"cp": 5}, 8, ("5 CP x 8 = 40 points: 4 units react",)),
        ("cannon-fire", {"range": 25}, 7, ('D 7 - R 2 (range 20-29"): 5 markers',)),
        ("rally", {"cp": 5}, 6, ("5 CP x 6 / 10 = 3 men",)),
    ],
)
def test_a_d10_read_as_it_shows_adds_no_line_saying_the_die_again(
    action: str, params: dict[str, int], face: int, rest: tuple[str, ...]
) -> None:
    """"d10 8" under "Dice 8" said nothing; a 0 read as 10 is still said."""
    assert resolve(action, [face], **params).details == rest
    assert resolve(action, [0], **params).details[0] == "d10 0 reads 10"
    # a 0 read as zero reads as it shows
    assert not any(
        line.startswith("d10") for line in resolve(action, [0], **params, d10_zero="0").details
    )


@pytest.mark.parametrize(
    ("dice", "zero", "line"),
    [([3, 4], "100", "d% 34"), ([0, 7], "100", "d% 07"), ([0, 0], "100", "d% 00 reads 100"),
     ([0, 0], "0", "d% 00")],
)
def test_a_percentile_line_says_reads_only_when_the_reading_differs(
    dice: list[int], zero: str, line: str
) -> None:
    assert resolve("rough-terrain", dice, double_zero=zero).details[0] == line


def test_a_rally_fraction_is_worded_as_one_more_man_possible() -> None:
    """The effect shows on screen as is: "One more possible", not "Fraction"."""
    from companion.ui.wording import odds_line

    out = resolve("rally", [8], cp=4)  # 3.2 men: three, and a percentile for a fourth
    assert (out.headline, out.effects) == (3, frozenset({"one_more_possible"}))
    assert out.follow_up is not None and out.follow_up.reason == "Rally fraction (20%)"
    assert resolve("rally", [5], cp=4).effects == frozenset()  # 2.0 men: nothing over
    assert odds_line(odds("rally", cp=5)) == "avg 2.5 men rallied, 90% 1+, one more possible 50%"


def test_command_points_are_worded_as_a_count() -> None:
    """"4 command points", not "CP: 4"."""
    from companion.ui.wording import headline, odds_line

    out = resolve("command-points", [3, 9])
    assert (out.headline, out.headline_label) == (4, "command points")
    assert headline(out) == "4 command points"
    assert odds_line(odds("command-points")) == "avg 4.0 command points"


def test_percentile_rolls_give_their_meaning_once_on_the_tens_die() -> None:
    """No "units 0-9" filler line on the roll screen: the units die means nothing alone."""
    seen = 0
    for action in ACTIONS.values():
        for example in action.examples:
            groups = action.request(action.complete_params(example)).groups
            for tens, units in pairwise(groups):
                if tens.kind is DieKind.PERCENTILE:
                    seen += 1
                    assert tens.faces_meaning and units.faces_meaning == "", action.name
    assert seen >= 10
