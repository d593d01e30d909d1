"""Rules that only show in the sequence of play: units in contact, several charges on
one unit, rolls that cannot score, cover on either side, commanders joining units,
engineering parties, who may hold fire, and when a shaken loser routs."""

from __future__ import annotations

import pytest
from otf_helpers import (
    BLUE_FIRST,
    HORSE_CHARGES_MUSKETS,
    RED_FIRST,
    RULES,
    Input,
    charge_into_contact,
    choice_keys,
    new_game,
    play,
    unit,
)

from companion.rules.core import AwaitChoice, AwaitRoll


def test_a_charged_unit_stands_or_holds_fire_and_does_not_walk_away() -> None:
    state, _ = play(new_game(), BLUE_FIRST, *HORSE_CHARGES_MUSKETS, "unit:Rifles", "stand")
    state, _ = play(state, "unit:Muskets")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Charged: order?"
    assert choice_keys(state) == ["stand", "hold"]
    state, log = play(state, "stand", "unit:Warband")
    assert "Muskets stand to meet the charge" in log
    assert "move" in choice_keys(state)  # the Warband is not in contact


def test_charged_tribesmen_cannot_hold_fire() -> None:
    clan = unit("Clan", "Red", "tribesmen", 8, "musket")
    state, _ = play(
        new_game(clan), BLUE_FIRST, "unit:Horse", "charge", "target:Clan", "no", [3], "yes"
    )
    state, _ = play(state, "unit:Rifles", "stand", "unit:Clan")
    assert choice_keys(state) == ["stand"]


def test_a_second_charge_on_a_unit_that_gave_ground_lapses() -> None:
    state, log = play(
        new_game(),
        BLUE_FIRST,
        *HORSE_CHARGES_MUSKETS,
        "unit:Rifles",
        "charge",
        "target:Muskets",
        "no",
        [4],
        "no",  # no Follow Me! reroll
        "yes",
        "done",  # Red's units stand
        "none",
        "no",  # no square
        [6, 6, 1, 1],  # 2 hits: the Muskets keep 4 of 6, not shaken
        [1, 1, 1],
        "no",  # the Horse does not pursue
    )
    assert "Muskets lose: they retreat a full move" in log
    assert "Muskets have already given ground: Rifles may occupy the position" in log
    assert log[-1] == "End of turn 1"
    assert state.force("Rifles").figures == 8


def test_too_few_figures_for_a_die_roll_nothing() -> None:
    pickets = unit("Pickets", "Red", "infantry", 2, "rifle")
    state, _ = play(
        new_game(pickets),
        BLUE_FIRST,
        "unit:Rifles",
        "shoot",
        "target:Pickets",
        "close",
        "no",
        [5, 1, 1, 1],
    )
    assert state.force("Pickets").figures == 1 and not state.force("Pickets").shaken
    alone, _ = play(state, "done", "unit:Pickets")
    assert "shoot" not in choice_keys(alone) and "hold" not in choice_keys(alone)
    state, _ = play(
        state, "unit:Horse", "charge", "target:Pickets", "no", [3], "yes", "unit:Pickets"
    )
    assert choice_keys(state) == ["stand"]
    state, log = play(state, "stand", "done", "none", "no", [6, 1, 1, 1])
    assert (
        "Pickets at Horse: infantry in contact, +0 a die; too few figures for a die, no roll" in log
    )
    assert "Pickets in contact: 0 hits on Horse" in log
    assert "Pickets lose: shaken, they rout" in log
    assert not any("may pursue" in line for line in log)  # nobody left to pursue
    assert state.force("Pickets").removed == 2


def test_a_volley_no_die_can_hit_is_not_rolled() -> None:
    shot = (RED_FIRST, "unit:Muskets", "shoot", "target:Horse", "long", "no")
    state, log = play(new_game(), *shot)
    assert "Muskets at Horse: musket fire, long range, -2 a die; no die can hit, no roll" in log
    assert "Muskets shoot Horse: 0 hits" in log
    state, _ = play(new_game(options={"natural_six_always_hits": True}), *shot)
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 3


@pytest.mark.parametrize(
    ("cover", "attacker_reason", "defender_reason"),
    [
        # each roll names whose dice they are: both sides roll with no menu between
        ("none", "cavalry in contact, +0 a die", "tribesmen in contact, +0 a die"),
        ("defender", "cavalry in contact, -1 a die", "tribesmen in contact, +0 a die"),
        ("attacker", "cavalry in contact, +0 a die", "tribesmen in contact, -1 a die"),
    ],
)
def test_cover_or_high_ground_on_either_side(
    cover: str, attacker_reason: str, defender_reason: str
) -> None:
    state, _ = play(
        new_game(),
        BLUE_FIRST,
        "unit:Horse",
        "charge",
        "target:Warband",
        "no",
        [3],
        "yes",
        "done",
        "done",
        cover,
    )
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == f"Horse at Warband: {attacker_reason}"
    state, _ = play(state, [1, 1, 1, 1])
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == f"Warband at Horse: {defender_reason}"


def test_only_cavalry_charging_infantry_is_asked_about_a_square() -> None:
    state, _ = play(new_game(), BLUE_FIRST, *HORSE_CHARGES_MUSKETS, "done", "done", "none")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Defender in square?"
    state, _ = play(state, "yes")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll)
    assert step.request.reason == "Horse at Muskets: cavalry in contact, -1 a die"


COLONEL = unit("Col B", "Blue", "commander", 1)


def test_a_commander_joins_a_unit_and_leads_it() -> None:
    state, _ = play(new_game(COLONEL), BLUE_FIRST, "unit:Col B")
    assert "join" in choice_keys(state)
    state, _ = play(state, "join")
    assert choice_keys(state) == ["join:Horse"]  # the Rifles have their captain
    state, log = play(state, "join:Horse", "no", "no", [2], "yes")
    assert log == ["Col B rides to join Horse", 'Col B may move 14"', "Col B joins Horse"]
    assert state.force("Horse").leader == "Col B" and state.force("Horse").has_leader
    assert "unit:Col B" not in choice_keys(state)
    assert "Col B: 1/1 up, 0 down, 0 lost (with Horse)" in "\n".join(RULES.describe(state))
    state, log = play(state, "unit:Horse", "move", "no", "no", [1])
    assert choice_keys(state) == ["no", "yes"]  # Follow Me!: the colonel may have it rerolled
    state, log = play(state, "yes", [6])
    assert "Follow Me!: Col B has the d6 rerolled" in log and 'Horse may move 18"' in log


# The colonel joins the Horse, which charges the Warband; both sides' orders end and
# the Warband stands: the contact dice come next.
COLONEL_WITH_HORSE_CHARGES_WARBAND: tuple[Input, ...] = (
    BLUE_FIRST,
    "unit:Col B",
    "join",
    "join:Horse",
    "no",
    "no",
    [2],
    "yes",
    "unit:Horse",
    "charge",
    "target:Warband",
    "no",
    [3],
    "no",  # no reroll
    "yes",
    "done",
    "done",
    "none",
)


def test_a_joined_commander_leaves_the_field_with_his_unit() -> None:
    state, _ = play(
        new_game(COLONEL),
        *COLONEL_WITH_HORSE_CHARGES_WARBAND,
        [1, 1, 1, 1],
        [6, 6, 6, 1],  # 3 hits: 1 horseman left, shaken
        [4],  # Come On! for the colonel: nothing
        [4],  # Come On! for the chief: nothing
    )
    log = RULES.describe(state)
    assert "  Col B: 1/1 up, 0 down, 0 lost (routed)" in log
    assert state.force("Horse").routed
    # the Rifles' 8 on the table; the routed Horse's 1 and the colonel said apart
    assert "Blue: 8 of 13 figures up on the table, 2 more in routed units" in log


def test_a_joined_commander_who_is_hit_leaves_the_table_and_is_replaced() -> None:
    state, log = play(
        new_game(COLONEL),
        *COLONEL_WITH_HORSE_CHARGES_WARBAND,
        [6, 6, 6, 6],
        [1, 1, 1, 1],
        [1],  # Come On! for the colonel: hit
        [4],  # Come On! for the chief: nothing
    )
    assert (
        "Come On! (Col B with Horse) rolls 1: Col B is hit and leaves the table; "
        "a replacement arrives at the end of turn 2"
    ) in log
    status = RULES.describe(state)
    assert status[0] == "Test skirmish: turn 1/2, charges"
    assert "  Col B: 0/1 up, 0 down, 1 lost (hit)" in status
    assert "  Horse: 4/4 up, 0 down, 0 lost (Col B away till end of turn 2)" in status
    assert "Blue: 12 of 13 figures up on the table" in status  # the colonel is lost
    assert not state.force("Horse").has_leader
    state, log = play(state, "no", RED_FIRST, "done", "done")
    assert log[-3:] == [
        "Horse: the replacement for Col B takes command",
        "End of turn 2",
        "Game over: Blue wins",
    ]
    assert state.force("Horse").has_leader
    assert not state.force("Col B").on_table


def test_a_commander_with_no_unit_to_join_is_not_offered_it() -> None:
    state, _ = play(new_game(COLONEL, unit("Col C", "Blue", "commander", 1)), BLUE_FIRST)
    state, _ = play(state, "unit:Col B", "join", "join:Horse", "no", "no", [2], "yes")
    state, _ = play(state, "unit:Col C")
    assert "join" not in choice_keys(state)


def test_a_difficult_task_goes_ahead_with_an_engineer_present() -> None:
    state, log = play(
        new_game(engineering=True),
        BLUE_FIRST,
        "unit:Rifles",
        "work",
        "task:fortify_house",
        "yes",
        "yes",
        [4, 2],  # 8 figures: 2 dice
    )
    assert "Rifles complete: fortify a house" in log
    assert "  Blue built: fortify a house" in RULES.describe(state)


def test_a_big_roll_finishes_more_than_one_task() -> None:
    pioneers = unit("Pioneers", "Blue", "infantry", 12, "rifle", traits={"engineers": True})
    state, log = play(
        new_game(pioneers, engineering=True), BLUE_FIRST, "unit:Pioneers", "work", "task:redoubt"
    )
    state, log = play(state, [6, 6, 5])  # 12 figures: 3 dice, 17 points
    assert log == ["Pioneers complete: build 3 inches of redoubt (x2); 5/6 towards the next"]
    lines = RULES.describe(state)
    assert "  Blue built: build 3 inches of redoubt (x2)" in lines
    assert "  Blue working at: build 3 inches of redoubt, 5/6 points" in lines


def test_engineering_only_for_the_sides_the_scenario_names() -> None:
    state, _ = play(new_game(engineering=["Red"]), BLUE_FIRST, "unit:Rifles")
    assert "work" not in choice_keys(state)
    state, _ = play(new_game(engineering=["Red"]), RED_FIRST, "unit:Warband")
    assert "work" in choice_keys(state)


@pytest.mark.parametrize(
    ("option", "gun_holds", "clan_holds"),
    [("infantry_and_skirmishers", False, False), ("any_shooter", True, True)],
)
def test_who_may_hold_fire(option: str, gun_holds: bool, clan_holds: bool) -> None:
    gun = unit("Gun", "Blue", "artillery", 4, "artillery")
    clan = unit("Clan", "Red", "tribesmen", 8, "musket")
    state = new_game(gun, clan, options={"hold_fire_kinds": option})
    blue, _ = play(state, BLUE_FIRST, "unit:Gun")
    red, _ = play(state, RED_FIRST, "unit:Clan")
    rifles, _ = play(state, BLUE_FIRST, "unit:Rifles")
    assert ("hold" in choice_keys(blue)) is gun_holds
    assert ("hold" in choice_keys(red)) is clan_holds
    assert "hold" in choice_keys(rifles)


@pytest.mark.parametrize(
    ("reading", "verdict"),
    [
        ("after_hits", "Muskets lose: shaken, they rout"),
        ("before_hits", "Muskets lose: they retreat a full move"),
    ],
)
def test_when_a_shaken_loser_is_judged(reading: str, verdict: str) -> None:
    _, log = play(
        new_game(options={"shaken_rout_check": reading}),
        BLUE_FIRST,
        *HORSE_CHARGES_MUSKETS,
        "done",
        "done",
        "none",
        "no",
        [6, 6, 6, 6],  # the Muskets drop from 6 standing to 2
        [1, 1, 1],
    )
    assert verdict in log


@pytest.mark.parametrize(
    ("weapon", "kind", "close", "long"),
    [
        ("musket", "infantry", 4, 8),
        ("rifle", "infantry", 8, 16),
        ("artillery", "artillery", 16, 32),
    ],
)
def test_the_range_question_gives_the_weapon_inches(
    weapon: str, kind: str, close: int, long: int
) -> None:
    shooter = unit("Shooter", "Blue", kind, 4, weapon)
    state, _ = play(new_game(shooter), BLUE_FIRST, "unit:Shooter", "shoot", "target:Muskets")
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice)
    assert [o.label for o in step.options] == [
        f'Close, to {close}"',
        f'Long, to {long}"',
        "Out of range",
    ]


def test_out_of_range_is_no_shot_and_draws_no_return_fire() -> None:
    state, log = play(
        new_game(),
        RED_FIRST,
        "unit:Muskets",
        "hold",
        "done",
        "unit:Rifles",
        "shoot",
        "target:Muskets",
        "out",
    )
    assert log[-1] == "Muskets are out of range of Rifles: no shot"
    step = RULES.next_step(state)
    assert isinstance(step, AwaitChoice) and step.prompt == "Blue: which unit?"
    assert state.force("Rifles").acted and state.force("Muskets").held_fire


def test_two_ranks_shoot_with_the_front_rank_but_fight_with_both() -> None:
    line = unit("Line", "Blue", "infantry", 8, "rifle", traits={"ranks": 2})
    state, _ = play(
        new_game(line), BLUE_FIRST, "unit:Line", "shoot", "target:Muskets", "close", "no"
    )
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 2
    state, _ = play(new_game(line), BLUE_FIRST, "unit:Line", *charge_into_contact("Muskets"))
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 4


def test_a_pursuing_commander_still_rolls_come_on_against_routers() -> None:
    lancers = unit("Lancers", "Blue", "cavalry", 4, "lance", leader="Capt L")
    state, log = play(
        new_game(lancers),
        BLUE_FIRST,
        "unit:Lancers",
        "charge",
        "target:Muskets",
        "no",
        [3],
        "no",  # no Follow Me! reroll
        "yes",
        "done",
        "done",
        "none",
        "no",  # no square
        [6, 6, 6, 6],  # the Muskets drop to 2 of 6
        [1, 1, 1],
        [3],  # Come On!: no effect
        "yes",  # pursue the routers
        [5, 1, 1, 1],  # one hit on the runaways
    )
    assert "Muskets lose: shaken, they rout" in log
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.reason.startswith("Come On!")
    state, log = play(state, [6], "inflict")
    assert "Come On!: Lancers inflict a hit" in log
    assert "Lancers cut down 2 of the routed Muskets" in log
    assert state.force("Muskets").removed == 6


@pytest.mark.parametrize(
    ("reading", "guns", "gun_dice"),
    [("per_gunner", 1, 4), ("per_gun", 1, 1), ("per_gun", 2, 2)],
)
def test_guns_in_contact_roll_per_gunner_or_per_gun(reading: str, guns: int, gun_dice: int) -> None:
    gun = unit("Gun", "Blue", "artillery", 4, "artillery", traits={"guns": guns})
    state, _ = play(
        new_game(gun, options={"artillery_contact_dice": reading}),
        RED_FIRST,
        "unit:Warband",
        "charge",
        "target:Gun",
        "no",
        [3],
        "no",  # no Follow Me! reroll
        "yes",
        "done",
        "done",
        "none",
        [1, 1, 1, 1],  # 8 tribesmen: 4 dice, no hits
    )
    step = RULES.next_step(state)
    assert isinstance(step, AwaitRoll) and step.request.dice_count == gun_dice


@pytest.mark.parametrize(
    ("reading", "line", "left"),
    [
        ("carries", "Pioneers complete: build 3 inches of redoubt (x2); 5/6 towards the next", 5),
        ("lost", "Pioneers complete: build 3 inches of redoubt", 0),
    ],
)
def test_work_beyond_a_finished_task_carries_or_is_lost(reading: str, line: str, left: int) -> None:
    pioneers = unit("Pioneers", "Blue", "infantry", 12, "rifle", traits={"engineers": True})
    state, log = play(
        new_game(pioneers, engineering=True, options={"engineering_surplus": reading}),
        BLUE_FIRST,
        "unit:Pioneers",
        "work",
        "task:redoubt",
        [6, 6, 5],  # 12 figures: 3 dice, 17 points
    )
    assert log[-1] == line
    assert state.work_points("Blue", "redoubt") == left
