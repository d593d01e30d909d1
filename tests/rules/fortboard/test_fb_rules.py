"""Each FortBoard rule as a named test, played through `advance` on a small fort.

The small fort (fb_helpers.SMALL_PLACES): N wall (3 spaces, the front, with a
two-space oil weapon), E wall (3), NE tower (9), courtyard, barracks (2) off the
N wall, stables (2) by the gate (2), keep (3). Stations, numbered 1-4 for the
defender's guns: Cat (catapult, 2 crew, N wall), Camp (4, N wall), Ram (2, gate),
Siege (assault tower, 4, E wall).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from fb_helpers import (
    SMALL_PLACES,
    foot_and_guard,
    in_phase,
    new_game,
    options_of,
    play,
    raw_fort,
    roll_request,
    unit,
    where,
)

from companion.rules.core import Chosen, GameOver, Rolled, RulesError
from companion.rules.fortboard import RULESET, board
from companion.rules.fortboard.state import ATTACKER, DEFENDER, GameState

#: Attackers far from the action, to keep within the 3/4 set-up limit.
FILLER = unit("Reserve", "Red", "infantry", 4, "Siege")


def _board(*units: dict[str, object], **setup: Any) -> GameState:
    """A game with these units and the far-off attackers of FILLER."""
    return new_game([*units, FILLER], **setup)


def _sides(state: GameState, contact: str) -> tuple[list[str], list[str]]:
    """Who fights at a contact, attackers and defenders, by label."""
    attackers, defenders = board.contact_sides(state, contact)
    return [f.label for f in attackers], [f.label for f in defenders]


def _end_both(state: GameState) -> GameState:
    """Attacker and defender end their moves: combat starts."""
    if state.phase == ATTACKER:
        state, _ = play(state, "end")
    state, _ = play(state, "end")
    return state


def _set(state: GameState, unit_name: str, **changes: object) -> GameState:
    figures = tuple(replace(f, **changes) if f.unit == unit_name else f for f in state.figures)  # type: ignore[arg-type]
    return replace(state, figures=figures)


def _put(state: GameState, place: str, *labels: str) -> GameState:
    """The named figures stand at `place`."""
    figures = tuple(replace(f, place=place) if f.label in labels else f for f in state.figures)
    return replace(state, figures=figures)


def _send_ahead(state: GameState, unit_name: str, place: str) -> GameState:
    """Figure #1 of a unit stands at `place`, ahead of the rest of his unit."""
    figures = tuple(
        replace(f, place=place) if f.unit == unit_name and f.number == 1 else f
        for f in state.figures
    )
    return replace(state, figures=figures)


def _with_the_catapult(*defenders: dict[str, object], **options: object) -> GameState:
    """The attacker's move: a crewed catapult at Cat (facing the N wall), climbers below it."""
    return new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            *defenders,
        ],
        options=dict(options),
    )


# ------------------------------------------------------------ 1.1 movement


def test_replacement_needs_a_six() -> None:
    state = new_game(foot_and_guard(foot=6, guard=2, guard_at="E wall"))
    state, _ = play(state, "move:Foot")
    assert "to:Camp" in options_of(state)
    state, log = play(state, "to:Camp", (5,))
    assert log[-1] == "Foot: rolled 5, needs a 6; they stay at N wall foot"
    assert set(where(state, "Foot")) == {"N wall foot"}
    assert "move:Foot" not in options_of(state)  # that was their move


def test_replacement_on_a_six_fills_the_station() -> None:
    state = new_game(foot_and_guard(foot=6, guard=2, guard_at="E wall"))
    state, _ = play(state, "move:Foot", "to:Camp", (6,))
    assert where(state, "Foot").count("Camp") == 4  # the camp holds four
    assert where(state, "Foot").count("N wall foot") == 2


def test_attackers_withdrawing_to_a_station_heal() -> None:
    state = new_game(foot_and_guard(foot=2, guard=1, guard_at="E wall"))
    state = _set(state, "Foot", wounded=True)
    state, log = play(state, "move:Foot", "to:Camp", (6,))
    assert not any(f.wounded for f in state.figures if f.unit == "Foot")
    assert any("healed" in line for line in log)


def test_mounted_attackers_need_no_six() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Horse", "Red", "mounted", 1, "Camp"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, _ = play(state, "move:Horse", "to:Cat")
    assert where(state, "Horse") == ["Cat"]


def test_defenders_move_one_space_and_walls_reach_the_courtyard_only_by_tower() -> None:
    # the N wall touches the barracks: its spaces open into the courtyard (1.1)
    state = in_phase(new_game(), DEFENDER)
    state, _ = play(state, "move:Guard")
    assert set(options_of(state)) == {"to:NE tower", "to:Barracks", "to:Courtyard"}
    # the E wall touches only the tower: the courtyard is reached through its corner
    state = in_phase(new_game(foot_and_guard(foot=8, guard=2, guard_at="E wall")), DEFENDER)
    state, _ = play(state, "move:Guard")
    assert set(options_of(state)) == {"to:NE tower"}


def test_a_wall_beside_the_stables_lets_foot_soldiers_into_the_courtyard() -> None:
    places = copy.deepcopy(SMALL_PLACES)
    next(p for p in places if p["name"] == "E wall")["adjacent"].append("Stables")
    state = in_phase(
        new_game(
            foot_and_guard(foot=8, guard=2, guard_at="E wall"),
            places=places,
        ),
        DEFENDER,
    )
    state, _ = play(state, "move:Guard")
    # the stables keep horses, but the wall beside them opens into the courtyard
    assert set(options_of(state)) == {"to:NE tower", "to:Courtyard"}


def _reserve_in_the_courtyard(reserve: int) -> GameState:
    """The defender's move, with `reserve` figures ("Res") in the courtyard."""
    units = [
        unit("Foot", "Red", "infantry", 8, "N wall foot"),
        unit("Res", "Blue", "infantry", reserve, "Courtyard"),
    ]
    return in_phase(new_game(units), DEFENDER)


def test_a_group_moves_once_and_stops_where_it_arrives() -> None:
    state = _reserve_in_the_courtyard(2)
    state, _ = play(state, "move:Res", "to:Keep")
    assert "move:Res" not in options_of(state)
    state = in_phase(state, DEFENDER)  # the next move
    assert "move:Res" in options_of(state)


def test_missiles_shoot_before_or_after_moving() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Bows", "Blue", "archer", 2, "Courtyard"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    # move first, then shoot from the new place
    state, _ = play(state, "move:Bows", "to:N wall", "fire:Bows", "at:Camp")
    assert roll_request(state).request.dice_count == 2
    # or shoot first, then move
    state = in_phase(new_game(units), DEFENDER)
    state = _set(state, "Bows", place="N wall")
    state, _ = play(state, "fire:Bows", "at:Camp", (1, 1), "move:Bows")
    assert "to:Courtyard" in options_of(state)
    state, _ = play(state, "to:Courtyard")
    assert "fire:Bows" not in options_of(state)  # once a move


def test_courtyard_is_one_space() -> None:
    state = _reserve_in_the_courtyard(2)
    state, _ = play(state, "move:Res")
    assert set(options_of(state)) >= {"to:Keep", "to:Barracks", "to:Gate", "to:NE tower"}


# ------------------------------------------------------------------ 1.3 ladders


def test_climbers_take_empty_spaces_after_defender_missiles() -> None:
    state = new_game(
        [
            *foot_and_guard(foot=5, guard=1, guard_at="N wall"),
            unit("Bows", "Blue", "archer", 2, "NE tower"),
        ]
    )
    state, log = play(state, "move:Foot", "to:N wall")
    assert options_of(state) == ["weapon:Oil", "fire:Bows", "hold"]
    state, log = play(state, "fire:Bows", "near")
    assert roll_request(state).request.dice_count == 2
    state, log = play(state, (4, 1))
    assert "Bows shoot: 1 hit" in log
    assert "Foot #1 is wounded" in log
    assert options_of(state) == ["weapon:Oil", "hold"]  # the oil may still pour
    state, log = play(state, "hold")
    assert "3 reach the top of N wall" in log  # three empty spaces, two of them the oil's
    assert where(state, "Foot").count("N wall foot") == 2  # lined up behind
    assert where(state, "Foot").count("N wall") == 3


def test_those_lined_up_behind_climb_when_a_space_frees() -> None:
    state = new_game(
        foot_and_guard(foot=5, guard=1, guard_at="E wall"),
        options={"weapon_on_climbers": False},
    )
    state, log = play(state, "move:Foot", "to:N wall")
    assert "4 reach the top of N wall" in log
    assert where(state, "Foot").count("N wall foot") == 1
    state = in_phase(state, ATTACKER)  # a later move: those on the wall move on
    state, _ = play(state, "move:Foot")
    assert options_of(state) == ["at:N wall", "at:N wall foot"]  # which group?
    assert [o.label for o in RULESET.next_step(state).options] == [  # type: ignore[union-attr]
        "N wall (4)",
        "N wall foot (1)",
    ]
    state, _ = play(state, "at:N wall", "to:NE tower")
    state, log = play(state, "move:Foot", "to:N wall")  # only the foot group may still move
    assert "1 reaches the top of N wall" in log


def test_a_wall_weapon_pours_down_on_climbers_before_they_reach_the_top() -> None:
    state = new_game(foot_and_guard(foot=5, guard=1, guard_at="E wall"))
    state, log = play(state, "move:Foot", "to:N wall", "weapon:Oil")
    assert log == ["Foot: 4 set ladders against N wall", "Oil: used on the climbers at N wall"]
    request = roll_request(state).request
    assert [g.count for g in request.groups] == [4, 4]
    # two spaces reach two climbers, two attempts each: Foot #1 killed, Foot #2 unhurt
    state, log = play(state, (6, 6, 1, 1, 1, 1, 6, 6))
    assert log == ["Foot #1 is killed", "3 reach the top of N wall"]
    assert where(state, "Foot") == ["N wall", "N wall", "N wall", "N wall foot"]
    # it has fired this turn: not again in the defender's move
    state, _ = play(state, "end")
    assert "weapon:Oil" not in options_of(state)


def test_option_wall_weapons_fire_only_in_the_defenders_move() -> None:
    state = new_game(
        foot_and_guard(foot=4, guard=1, guard_at="E wall"),
        options={"weapon_on_climbers": False},
    )
    state, log = play(state, "move:Foot", "to:N wall")
    assert "4 reach the top of N wall" in log  # no one to shoot: straight up


def test_a_beaten_defender_gives_up_his_space() -> None:
    state = _board(*foot_and_guard(foot=1, guard=2, guard_at="N wall"))
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one fight: 1d6 each
    state, log = play(state, (6, 1))
    assert "Guard #1 is wounded" in log
    assert "Guard #1 is driven back to Courtyard" in log
    assert "Foot #1 takes the space on N wall" in log


def test_option_climber_must_kill_the_defender() -> None:
    state = _board(
        *foot_and_guard(foot=1, guard=2, guard_at="N wall"),
        options={"ladder_climb": "kill_defender"},
    )
    state, log = play(_end_both(state), (6, 1))
    assert "Guard #1 is wounded" in log
    assert where(state, "Foot") == ["N wall foot"]


def test_towers_cannot_be_scaled_by_ladders() -> None:
    state = new_game(foot_and_guard(foot=4, guard=1, guard_at="E wall"))
    state, _ = play(state, "move:Foot")
    assert "to:NE tower" not in options_of(state)


def _guard_and_bows_on_the_wall(climbers: int) -> GameState:
    """Climbers at the N wall foot; a guard and an archer hold the wall's two open
    spaces, so the first two climbers find the oil's two spaces empty."""
    return _board(
        *foot_and_guard(foot=climbers, guard=1, guard_at="N wall"),
        unit("Bows", "Blue", "archer", 1, "N wall"),
    )


def test_the_walls_own_archer_shoots_at_climbers_bound_for_empty_spaces() -> None:
    # 1.3: two climbers head for the empty spaces, the third meets the guard; no one
    # is left to face the archer on the wall, so he may shoot at the two going up
    state, log = play(_guard_and_bows_on_the_wall(3), "move:Foot", "to:N wall")
    assert RULESET.next_step(state).prompt == "Climbers at N wall!"  # type: ignore[union-attr]
    assert options_of(state) == ["weapon:Oil", "fire:Bows", "hold"]
    state, _ = play(state, "fire:Bows", "near")
    request = roll_request(state).request
    assert request.dice_count == 1
    state, log = play(state, (6,))
    assert log == ["Bows shoot: 1 hit", "Foot #1 is wounded"]
    state, log = play(state, "hold")
    assert log == ["2 reach the top of N wall"]
    assert where(state, "Foot") == ["N wall", "N wall", "N wall foot"]


def test_a_wall_archer_opposite_a_climber_fights_instead_of_shooting() -> None:
    # four climbers: two find empty spaces and two stay below, one facing the guard
    # and one the archer, who must melee (1.12.1)
    state, _ = play(_guard_and_bows_on_the_wall(4), "move:Foot", "to:N wall")
    assert options_of(state) == ["weapon:Oil", "hold"]


# ----------------------------------------------------------- 1.4 artillery


def test_tower_hit_needs_more_than_its_intact_spaces() -> None:
    state = _with_the_catapult(unit("Bows", "Blue", "archer", 2, "NE tower"))
    state, log = play(state, "shoot:Cat", "hit:NE tower", (4, 5))
    assert any("9 against 9: miss" in line for line in log)
    assert board.intact(state, "NE tower") == 9


def test_tower_hit_wounds_on_three() -> None:
    state = _with_the_catapult(unit("Bows", "Blue", "archer", 2, "NE tower"))
    state, log = play(state, "shoot:Cat", "hit:NE tower", (5, 5))
    assert "NE tower is hit: 8 of 9 spaces left" in log
    state, log = play(state, (3,))
    assert log == ["Bows #1 is wounded"]


def test_fallen_tower_is_rubble_and_its_men_fall_back() -> None:
    state = _with_the_catapult(unit("Bows", "Blue", "archer", 2, "NE tower"))
    state = replace(state, hits=(("NE tower", 8),))
    state, log = play(state, "shoot:Cat", "hit:NE tower", (1, 1))
    assert "NE tower is a heap of rubble" in log
    assert set(where(state, "Bows")) == {"Courtyard"}


def test_attackers_in_a_fallen_tower_go_back_down_outside() -> None:
    # the rubble gives no way in (1.4.2): not into the courtyard, but to a wall's foot
    state = _with_the_catapult(unit("Bows", "Blue", "archer", 1, "Courtyard"))
    state = replace(_put(state, "NE tower", "Foot #1"), hits=(("NE tower", 8),))
    state, log = play(state, "shoot:Cat", "hit:NE tower", (1, 1))
    assert "NE tower is a heap of rubble" in log
    [place] = {f.place for f in state.figures if f.label == "Foot #1"}
    assert place.endswith(" foot") and place != "Courtyard"


def test_wall_hit_knocks_out_a_space_and_may_hit_the_weapon() -> None:
    state = _with_the_catapult(unit("Guard", "Blue", "infantry", 2, "N wall"))
    state, log = play(state, "shoot:Cat", "hit:N wall", (2, 2))
    assert "4 against 4: miss" in log[-1]  # 2d6 must beat the spaces still standing
    state = in_phase(state, ATTACKER)
    state, log = play(state, "shoot:Cat", "hit:N wall", (3, 2))
    assert "N wall is hit: 3 of 4 spaces left" in log
    assert options_of(state) == ["open", "weapon:Oil"]
    _, log = play(state, "open")
    assert "Guard #2 falls back to Courtyard" in log  # one open space is left for two guards
    state, log = play(state, "weapon:Oil", (2,))
    assert "Oil is hit (1/2)" in log
    assert not any("falls back" in line for line in log)  # the oil's space went
    assert "No one at N wall is hurt" in log


def test_option_wall_hits_are_automatic() -> None:
    state = _with_the_catapult(
        unit("Guard", "Blue", "infantry", 1, "E wall"), wall_to_hit="automatic"
    )
    state, log = play(state, "shoot:Cat", "hit:N wall")
    assert "N wall is hit: 3 of 4 spaces left" in log


def test_defender_guns_pick_a_numbered_station() -> None:
    state = in_phase(
        new_game(
            [
                unit("Crew", "Red", "infantry", 2, "Cat"),
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Guard", "Blue", "infantry", 1, "E wall"),
            ]
        ),
        DEFENDER,
    )
    state, log = play(state, "gun:Left gun", (2,))
    assert "Left gun rolls 2: Camp" in log
    assert "Foot #1 is killed" in log
    state, log = play(state, "gun:Right gun", (3,))
    assert "Ram is hit (1/6)" in log


def test_unnumbered_target_misses() -> None:
    state = in_phase(new_game(), DEFENDER)
    state, log = play(state, "gun:Left gun", (5,))
    assert "no target carries that number" in log[0]


def test_aiming_moves_the_numbers_once_a_turn() -> None:
    from fb_helpers import example_raw

    state = RULESET.start(RULESET.load_scenario(example_raw()))
    assert isinstance(state, GameState)
    state = in_phase(state, DEFENDER)
    state, log = play(state, "aim:Left mangonel", "start:2")
    assert log[0].startswith("Left mangonel now numbers 1=E siege tower")
    assert "aim:Left mangonel" not in options_of(state)
    state, log = play(state, "gun:Left mangonel", (6,))
    assert "Left mangonel rolls 6: W catapult" in log


@pytest.mark.parametrize(
    ("face", "expected"),
    [
        (1, "Left gun is destroyed"),
        (2, "Right gun is destroyed"),
        (3, "Keep is hit: 2 of 3 spaces left"),
        (4, "Barracks is hit: 1 of 2 spaces left"),
        (5, "Stables is hit: 1 of 2 spaces left"),
        (6, "The courtyard is empty"),
    ],
)
def test_shots_into_the_fort_land_by_d6(face: int, expected: str) -> None:
    state = _with_the_catapult(unit("Guard", "Blue", "infantry", 1, "E wall"))
    state, log = play(state, "shoot:Cat", "interior", (face,))
    assert expected in log


def test_destroyed_keep_costs_every_defender_a_point() -> None:
    state = _with_the_catapult(unit("Guard", "Blue", "infantry", 2, "Keep"))
    state = replace(state, hits=(("Keep", 2),))
    state, log = play(state, "shoot:Cat", "interior", (3,))
    assert "The keep is destroyed: fort defenders fight at -1" in log
    assert set(where(state, "Guard")) == {"Courtyard"}
    assert board.fort_penalty_flags(state) == (False, True)


# -------------------------------------------------------- 1.5 wall weapons


def test_wall_weapon_shares_four_attempts_and_survivors_reach_the_top() -> None:
    state = in_phase(new_game(foot_and_guard(foot=2, guard=1, guard_at="N wall")), DEFENDER)
    state, _ = play(state, "weapon:Oil", "foot")
    request = roll_request(state).request
    assert [g.count for g in request.groups] == [4, 4]
    # Foot #1 takes attempts 1-2, Foot #2 attempts 3-4 (weapon value 3)
    state, log = play(state, (6, 6, 1, 1, 1, 1, 6, 6))
    assert "Foot #1 is wounded" not in log  # wounded then killed in one firing
    assert "Foot #1 is killed" in log
    assert "1 survives the Oil and reaches the top of N wall" in log
    assert where(state, "Foot") == ["N wall"]


def test_survivors_of_a_wall_weapon_land_on_its_spaces_of_a_fully_manned_wall() -> None:
    # 1.5: the weapon's spaces hold no defenders, so those it fails to stop land there
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 2, "N wall foot"),
                unit("Camp foot", "Red", "infantry", 4, "Camp"),
                unit("Guard", "Blue", "infantry", 2, "N wall"),  # both open spaces
            ]
        ),
        DEFENDER,
    )
    assert board.room(state, "N wall", DEFENDER) == 0
    assert board.room(state, "N wall", ATTACKER) == 2
    state, _ = play(state, "weapon:Oil", "foot")
    state, log = play(state, (1, 1, 1, 1, 6, 6, 6, 6))
    assert "2 survive the Oil and reach the top of N wall" in log
    assert where(state, "Foot") == ["N wall", "N wall"]


@pytest.mark.parametrize(
    ("reach", "meaning"),
    [
        ("standing_spaces", "4 on Foot #1"),  # one of its two spaces is knocked out
        ("all_spaces", "2 on Foot #1; 2 on Foot #2"),
    ],
)
def test_a_damaged_wall_weapon_reaches_fewer_figures(reach: str, meaning: str) -> None:
    state = new_game(
        foot_and_guard(foot=3, guard=1, guard_at="E wall"),
        options={"weapon_reach": reach},
    )
    state = in_phase(replace(state, weapon_hits=(("Oil", 1),)), DEFENDER)
    state, _ = play(state, "weapon:Oil", "foot")
    groups = roll_request(state).request.groups
    assert [g.count for g in groups] == [4, 4]
    assert groups[1].faces_meaning == meaning


def _ram_at_the_gate() -> GameState:
    """The attacker's move, with a ram (2 crew) before the gate, under the N wall's oil."""
    return new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Crew", "Red", "infantry", 2, "Ram"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )


def test_wall_weapon_hits_a_ram_below() -> None:
    state, _ = play(in_phase(_ram_at_the_gate(), DEFENDER), "weapon:Oil")
    assert "engine:Ram" in options_of(state)
    state, log = play(state, "engine:Ram", (6, 6, 6, 6, 1, 1, 1, 1))
    assert "Oil against Ram: 4 hits" in log


def test_an_engine_counts_no_more_than_the_six_hits_that_destroy_it() -> None:
    state = replace(in_phase(_ram_at_the_gate(), DEFENDER), hits=(("Ram", 4),))
    state, log = play(state, "weapon:Oil", "engine:Ram", (6, 6, 6, 6, 1, 1, 1, 1))
    assert "Ram is destroyed" in log
    assert ("Ram", 6) in state.hits
    assert any("Ram 6/6" in line for line in RULESET.describe(state))


# ------------------------------------------------------ 1.6, 1.7 buildings, sorties


def _barracks_raid(**options: object) -> GameState:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Raid", "Red", "infantry", 1, "Camp"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
            unit("Res", "Blue", "infantry", 1, "Courtyard"),
        ],
        options=dict(options),
    )
    return _set(state, "Raid", place="Barracks")


def test_barracks_falls_to_an_unopposed_enemy_after_combat() -> None:
    state, log = play(_barracks_raid(), "end", "end")
    assert "The barracks has fallen: fort defenders fight at -1" not in log  # not yet
    # the ladder fight at the N wall: a tie (the other climbers wait on their ladders)
    state, log = play(state, (3, 3))
    assert "The barracks has fallen: fort defenders fight at -1" in log
    assert board.fort_penalty_flags(state) == (True, False)
    state, _ = play(state, "end", "end")
    request = roll_request(state)  # ladder fight: the guard fights at 3 - 1
    assert request.odds is not None
    assert request.odds.headline[1] == Fraction(21, 36)  # 3 + d6 against 2 + d6


def test_the_defender_may_come_back_to_fight_for_the_barracks() -> None:
    state, _ = play(_barracks_raid(), "end", "move:Res", "to:Barracks", "end")
    assert roll_request(state).request.reason == "Melee at Barracks: 1 fight"
    state, log = play(state, (1, 6))  # the raider is wounded
    assert "Raid #1 is wounded" in log
    state, log = play(state, (3, 3))  # the ladder fight: a tie
    # the barracks is full now: the guard on the N wall beside it fights the raider too
    assert log[-1] == "Retaking Barracks: 1 against 1"
    state, log = play(state, (3, 3))
    assert log[0] == "Raid #1 1+3 v Guard #1 3+3: defender wins"
    assert "Raid #1 is killed" in log
    assert "barracks" not in state.fallen
    assert state.turn == 2


def test_option_buildings_fall_at_once() -> None:
    _state, log = play(_barracks_raid(buildings_fall="at_once"), "end")
    assert "The barracks has fallen: fort defenders fight at -1" in log


def test_stables_fallen_no_mounted_sortie() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Horse", "Blue", "mounted", 1, "Stables"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    state, _ = play(state, "move:Horse")
    assert "to:Camp" not in options_of(state)  # no one at the camp to attack
    state = in_phase(new_game([*units, unit("Raid", "Red", "infantry", 1, "Camp")]), DEFENDER)
    state, _ = play(state, "move:Horse")
    assert "to:Camp" in options_of(state)
    state = replace(in_phase(state, DEFENDER), fallen=frozenset({"stables"}))
    state, _ = play(state, "move:Horse")
    assert "to:Camp" not in options_of(state)


def _horse_in_the_stables(at_the_camp: int) -> GameState:
    """The defender's move; the front-wall stations (Cat 2 + Camp 4 + Ram 2 = 8 spaces)
    hold a full crew at Cat and at Ram, and `at_the_camp` figures at the camp."""
    units = [
        unit("Crew", "Red", "infantry", 2, "Cat"),
        unit("Foot", "Red", "infantry", at_the_camp, "Camp"),
        unit("Rams", "Red", "infantry", 2, "Ram"),
        unit("Horse", "Blue", "mounted", 2, "Stables"),
    ]
    return in_phase(new_game(units), DEFENDER)


def test_leaving_the_fort_one_per_empty_station_space() -> None:
    state = _horse_in_the_stables(at_the_camp=3)  # 7 of the 8 spaces are filled
    assert board.leaving_allowance(state) == 1
    state, _ = play(state, "move:Horse", "to:Camp")
    assert where(state, "Horse") == ["Camp", "Stables"]
    state, _ = play(in_phase(state, DEFENDER), "move:Horse")
    assert "to:Camp" not in options_of(state)  # the one way out is used


def test_no_one_leaves_when_every_station_space_is_full() -> None:
    state = _horse_in_the_stables(at_the_camp=4)
    assert board.leaving_allowance(state) == 0
    state, _ = play(state, "move:Horse")
    assert all(not key.startswith("to:Camp") for key in options_of(state))


def test_mounted_come_back_only_after_a_kill() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Crew", "Red", "infantry", 1, "Cat"),
        unit("Horse", "Blue", "mounted", 1, "Stables"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    state = _set(state, "Horse", place="Cat")
    state = in_phase(state, DEFENDER)
    state, _ = play(state, "move:Horse")
    assert "to:Gate" not in options_of(state)
    state = _set(in_phase(state, DEFENDER), "Crew", wounded=True)
    state = _end_both(replace(state, phase=DEFENDER))
    state, log = play(state, (1, 6))  # the horse wins; the wounded crewman dies
    assert "Crew #1 is killed" in log
    assert "The catapult at Cat is taken: its raiders may go back in" in log
    state = in_phase(state, DEFENDER)
    state, _ = play(state, "move:Horse")
    assert "to:Gate" in options_of(state)


# -------------------------------------------------------------- 1.8 towers


def test_a_tower_held_by_the_enemy_cannot_be_regained_by_walking_in() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Res", "Blue", "infantry", 2, "Courtyard"),
    ]
    state = new_game(units)
    state = _send_ahead(state, "Foot", "NE tower")
    state = in_phase(state, DEFENDER)
    state, _ = play(state, "move:Res")
    assert "to:NE tower" not in options_of(state)
    assert "corner:NE tower" in board.contacts(state)


def test_no_more_than_four_defenders_in_a_tower() -> None:
    state = _reserve_in_the_courtyard(6)
    state, _ = play(state, "move:Res", "to:NE tower")
    assert where(state, "Res").count("NE tower") == 4


def test_attackers_in_a_tower_storm_the_full_wall_beside_it() -> None:
    # 1.12: every space of the E wall is held, so the Foot in the NE tower beside it
    # fight its defenders from there; the Foot in the courtyard could never step onto
    # the E wall (only the tower leads to it), so they take no part
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("East", "Blue", "infantry", 3, "E wall"),
        ]
    )
    state = _send_ahead(_set(state, "Foot", place="Courtyard"), "Foot", "NE tower")
    state, _ = play(state, "move:Foot", "at:NE tower")
    assert "to:E wall" not in options_of(state)  # no room to step in
    assert board.contacts(state) == ("storm:E wall",)
    assert _sides(state, "storm:E wall") == (["Foot #1"], ["East #1", "East #2", "East #3"])
    # with a space free the Foot step in instead: no storm
    state = replace(state, figures=tuple(f for f in state.figures if f.label != "East #3"))
    assert board.contacts(state) == ()


def test_a_full_tower_is_stormed_from_its_walls_and_the_courtyard_but_not_by_horse() -> None:
    state = _board(
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Horse", "Red", "mounted", 2, "Camp"),
        unit("Tower", "Blue", "infantry", 4, "NE tower"),
    )
    state = replace(state, hits=(("NE tower", 5),))  # four spaces left, all held
    state = _send_ahead(_set(state, "Foot", place="E wall"), "Foot", "Courtyard")
    state = _set(state, "Horse", place="Courtyard")  # horses never go into a tower
    assert board.contacts(state) == ("storm:NE tower",)
    assert _sides(state, "storm:NE tower")[0] == ["Foot #1", "Foot #2", "Foot #3", "Foot #4"]
    state, log = play(state, "end", "end")
    assert log[-1] == "Storming NE tower: 4 against 4"
    assert roll_request(state).request.dice_count == 8


# ----------------------------------------------------------------- 1.9 keep


def test_keep_defenders_fight_twice() -> None:
    state = new_game(foot_and_guard(foot=2, guard=1, guard_at="Keep"))
    state = _set(state, "Foot", place="Keep")
    state = _end_both(state)
    state, _ = play(state, (3, 3))  # the first pair ties
    request = roll_request(state).request
    assert "second fights" in request.reason
    assert request.dice_count == 4  # the spare attacker, and the guard again


def _keep_stormed(**options: object) -> GameState:
    """The Foot break into the keep and beat its one guard; a defender still holds the E wall."""
    state = _board(*foot_and_guard(foot=2, guard=1, guard_at="Keep"),
                   unit("Res", "Blue", "infantry", 1, "E wall"), options=dict(options))
    state = _set(state, "Foot", place="Keep")
    state, _ = play(_end_both(state), (6, 1), (6, 1, 1, 1))
    return state


def test_taking_the_keep_ends_the_game() -> None:
    state = _keep_stormed()
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.winner == "Red"
    assert "the keep is taken" in step.summary[0]


def test_option_wipeout_only() -> None:
    state = _keep_stormed(victory="wipeout")
    assert not isinstance(RULESET.next_step(state), GameOver)
    assert "keep" in state.fallen


def _full_keep(**options: object) -> GameState:
    """Three guards fill the three-space keep; eight Foot stand in the courtyard
    beside it; a defender still holds the E wall."""
    units = [
        *foot_and_guard(foot=8, guard=3, guard_at="Keep"),
        unit("Res", "Blue", "infantry", 1, "E wall"),
    ]
    return _set(new_game(units, options=dict(options)), "Foot", place="Courtyard")


def test_a_keep_full_of_defenders_is_stormed_from_the_courtyard() -> None:
    # 1.9, 1.12: no room to step in, yet the Foot beside the keep fight its last stand
    state = _full_keep()
    moving, _ = play(state, "move:Foot")
    assert "to:Keep" not in options_of(moving)
    assert board.contacts(state) == ("storm:Keep",)
    state, log = play(state, "end", "end")
    assert log[-1] == "Storming Keep: 8 against 3"
    assert roll_request(state).request.dice_count == 6  # three pairs
    state, _ = play(state, (3, 3, 3, 3, 3, 3))
    request = roll_request(state).request
    assert "second fights" in request.reason
    assert request.dice_count == 16  # five Foot gang up, and every keep defender fights again


def test_a_stormed_keep_can_be_taken() -> None:
    state = _set(_full_keep(), "Guard", wounded=True)
    state, _ = play(state, "end", "end", (6, 6, 6, 1, 1, 1))
    assert where(state, "Guard") == []
    assert state.turn == 2 and not board.contacts(state)
    # the Foot walk in at their next move, and the keep falls at the end of the turn
    state, log = play(state, "move:Foot", "to:Keep")
    assert "Foot: 3 to Keep" in log
    state, _ = play(state, "end", "end")
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.winner == "Red"
    assert "the keep is taken" in step.summary[0]


# ------------------------------------------ 1.12 defenders storm full places too


def _attackers_fill(place: str, *, foot: int, reserves: int, **changes: object) -> GameState:
    """`foot` Foot fill `place` (a building with as many spaces); `reserves` Blue
    reserves stand in the courtyard beside it."""
    state = _board(unit("Foot", "Red", "infantry", foot, "N wall foot"),
                   unit("Res", "Blue", "infantry", reserves, "Courtyard"))
    return _set(state, "Foot", place=place, **changes)


def _full_barracks(**changes: object) -> GameState:
    """Two Foot fill the two-space barracks; three reserves stand in the courtyard."""
    return _attackers_fill("Barracks", foot=2, reserves=3, **changes)


def test_defenders_in_the_courtyard_retake_a_barracks_full_of_attackers() -> None:
    state = _full_barracks()
    moving, _ = play(in_phase(state, DEFENDER), "move:Res")
    assert "to:Barracks" not in options_of(moving)  # no room to step in
    assert board.contacts(state) == ("retake:Barracks",)
    assert _sides(state, "retake:Barracks") == (
        ["Foot #1", "Foot #2"], ["Res #1", "Res #2", "Res #3"])
    state, log = play(state, "end", "end")
    assert log[-1] == "Retaking Barracks: 2 against 3"
    assert roll_request(state).request.dice_count == 4  # two pairs
    state, log = play(state, (3, 3, 3, 3))
    request = roll_request(state).request
    assert "second fights" in request.reason
    assert request.dice_count == 2  # the spare reserve gangs up: no keep, no fighting twice
    state, log = play(state, (3, 3))
    assert "The barracks has fallen: fort defenders fight at -1" in log  # still held


def test_a_barracks_full_of_attackers_can_be_won_back() -> None:
    state = _full_barracks(wounded=True)
    state, log = play(state, "end", "end", (1, 1, 6, 6))
    assert "Foot #1 is killed" in log and "Foot #2 is killed" in log
    assert where(state, "Res") == ["Courtyard"] * 3  # winning moves no one
    assert "barracks" not in state.fallen
    assert state.turn == 2
    # with room again the reserves walk back in at their move
    state, _ = play(in_phase(state, DEFENDER), "move:Res")
    assert "to:Barracks" in options_of(state)


def test_without_the_retake_the_full_barracks_falls_unfought() -> None:
    # the reserves stand in the keep, not next to the barracks: no one fights the Foot
    state = _set(_full_barracks(wounded=True), "Res", place="Keep")
    assert board.contacts(state) == ()
    _, log = play(state, "end", "end")
    assert "The barracks has fallen: fort defenders fight at -1" in log


def test_a_wall_full_of_attackers_is_retaken_by_foot_next_to_it_not_by_horse() -> None:
    # the N wall (beside the barracks) opens on the courtyard; its tower and the barracks
    # touch it too; horses never step onto a wall
    state = _board(
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Bar", "Blue", "infantry", 1, "Barracks"),
        unit("Res", "Blue", "infantry", 1, "Courtyard"),
        unit("Horse", "Blue", "mounted", 1, "Courtyard"),
        unit("Tower", "Blue", "infantry", 1, "NE tower"),
    )
    state = _set(state, "Foot", place="N wall")
    assert board.contacts(state) == ("retake:N wall",)
    assert _sides(state, "retake:N wall")[1] == ["Bar #1", "Res #1", "Tower #1"]
    # the E wall opens only on the tower: the courtyard does not retake it
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Res", "Blue", "infantry", 2, "Courtyard"),
            unit("Tower", "Blue", "infantry", 1, "NE tower"),
        ]
    )
    state = _send_ahead(_set(state, "Foot", place="E wall"), "Foot", "N wall foot")
    assert board.contacts(state) == ("retake:E wall",)
    assert _sides(state, "retake:E wall")[1] == ["Tower #1"]
    state = _set(state, "Tower", place="Courtyard")
    assert board.contacts(state) == ()


def test_only_horses_retake_the_stables_and_the_gate_from_the_stables() -> None:
    # only the defender's horses go into the stables (1.6), so only they storm it; the
    # gate opens on the courtyard and the stables, so anyone there storms it
    state = _board(
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Res", "Blue", "infantry", 1, "Courtyard"),
        unit("Horse", "Blue", "mounted", 1, "Courtyard"),
    )
    state = _put(_put(state, "Stables", "Foot #1", "Foot #2"), "Gate", "Foot #3", "Foot #4")
    assert board.contacts(state) == ("retake:Stables", "retake:Gate")
    assert _sides(state, "retake:Stables")[1] == ["Horse #1"]
    assert _sides(state, "retake:Gate")[1] == ["Res #1", "Horse #1"]


def test_a_tower_held_by_attackers_is_fought_at_its_corner_only() -> None:
    # 1.8: defenders never step into a tower the enemy holds, full or not; the courtyard
    # fights it at the corner (one contact), the wall beside it not at all
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Res", "Blue", "infantry", 1, "Courtyard"),
            unit("East", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state = replace(state, hits=(("NE tower", 7),))  # two spaces left
    state = _put(state, "NE tower", "Foot #1", "Foot #2")
    assert board.room(state, "NE tower", DEFENDER) == 0
    assert board.contacts(state) == ("corner:NE tower",)


def _guards_on_the_n_wall_and_a_reserve(*, foot: int) -> GameState:
    """`foot` Foot below the N wall (no wall weapon), two Guards on it and one Blue
    reserve in the courtyard, beside the barracks: where full places face each other."""
    return _board(*foot_and_guard(foot=foot, guard=2, guard_at="N wall"),
                  unit("Res", "Blue", "infantry", 1, "Courtyard"), wall_weapons=[])


def test_two_places_full_against_each_other_fight_once() -> None:
    # Foot fill the barracks, guards fill the N wall beside it (two spaces left, no
    # weapon): the Foot storm the wall, and the guards do not storm the barracks back
    # (the same two places); the reserve in the courtyard still does
    state = _guards_on_the_n_wall_and_a_reserve(foot=2)
    state = replace(_set(state, "Foot", place="Barracks"), hits=(("N wall", 2),))
    assert board.contacts(state) == ("retake:Barracks", "storm:N wall")
    assert _sides(state, "retake:Barracks")[1] == ["Res #1"]
    assert _sides(state, "storm:N wall") == (["Foot #1", "Foot #2"], ["Guard #1", "Guard #2"])
    assert board.contacts(_set(state, "Res", place="Keep")) == ("storm:N wall",)
    # played out: the reserve meets Foot #1 and Foot #2 gangs up on him; then the Foot
    # storm the wall, two pairs; the guards fight no one else
    state, log = play(state, "end", "end")
    assert log[-1] == "Retaking Barracks: 2 against 1"
    state, log = play(state, (3, 3), (3, 3))
    assert log[-1] == "Storming N wall: 2 against 2"
    state, log = play(state, (6, 6, 1, 1))
    assert "Guard #1 is wounded" in log and "Guard #2 is wounded" in log
    assert log[-1] == "Turn 2 begins"


def test_which_full_places_face_each_other_is_settled_as_combat_starts() -> None:
    # as combat starts the N wall (three spaces) is full: Foot #3 and two guards; the
    # melee there kills a guard before the barracks is retaken, yet Guard #2 still leaves
    # the Foot in the barracks to the storm of his wall and fights them there only
    state = _guards_on_the_n_wall_and_a_reserve(foot=3)
    state = _put(_put(state, "Barracks", "Foot #1", "Foot #2"), "N wall", "Foot #3")
    wounded = tuple(replace(f, wounded=f.label == "Guard #1") for f in state.figures)
    state = replace(state, figures=wounded, hits=(("N wall", 1),))
    assert board.contacts(state) == (
        "place:N wall",
        "retake:N wall",
        "retake:Barracks",
        "storm:N wall",
    )
    state, log = play(state, "end", "end", (6, 1))
    assert "Guard #1 is killed" in log
    state, log = play(state, (3, 3))  # Guard #2 gangs up on Foot #3: a tie
    assert log[-1] == "Retaking N wall: 1 against 1"
    state, log = play(state, (3, 3))
    assert log[-1] == "Retaking Barracks: 2 against 1"  # the reserve alone
    state, log = play(state, (3, 3), (3, 3))
    assert log[-1] == "Storming N wall: 2 against 1"


# --------------------------------------- 1.12 contacts fought one after another


def test_every_matched_pair_at_a_ladder_fights_though_a_climber_falls_first() -> None:
    # the pairs of a first round are fought at the same time: Foot #1 dying in his
    # fight does not call off Foot #2's fight with the other guard (the dice were rolled)
    state = _board(*foot_and_guard(foot=2, guard=2, guard_at="N wall"), wall_weapons=[])
    wounded = tuple(replace(f, wounded=f.label == "Foot #1") for f in state.figures)
    state = _end_both(replace(state, figures=wounded))
    assert roll_request(state).request.dice_count == 4  # two climbers, two guards
    state, log = play(state, (1, 6, 6, 1))
    assert "Foot #1 is killed" in log
    assert "Foot #2 3+6 v Guard #2 3+1: attacker wins" in log
    assert "Guard #2 is driven back to Courtyard" in log
    assert where(state, "Foot") == ["N wall"]


def test_a_contact_emptied_by_an_earlier_fight_is_passed_over_with_a_line() -> None:
    # the melee on the N wall kills both guards: the ladders up that wall have no one
    # to fight, and the play-by-play says so; the reserve's retaking of the wall (full
    # as combat began) is still fought, by whoever stands there now
    state = _guards_on_the_n_wall_and_a_reserve(foot=3)
    state = _set(_put(state, "N wall", "Foot #1", "Foot #2"), "Guard", wounded=True)
    assert board.contacts(state) == ("place:N wall", "ladder:N wall", "retake:N wall")
    state, log = play(state, "end", "end")
    assert log[-1] == "Melee at N wall: 2 against 2"
    state, log = play(state, (6, 6, 1, 1))
    assert "Guard #1 is killed" in log and "Guard #2 is killed" in log
    assert "Ladders up N wall: not fought, no defender left" in log
    assert log[-1] == "Retaking N wall: 2 against 1"


def test_a_storm_from_a_place_won_back_earlier_is_passed_over_with_a_line() -> None:
    # the reserve retakes the barracks first, killing both Foot: no one is left there
    # to storm the N wall from it
    state = _guards_on_the_n_wall_and_a_reserve(foot=2)
    state = replace(_set(state, "Foot", place="Barracks", wounded=True), hits=(("N wall", 2),))
    assert board.contacts(state) == ("retake:Barracks", "storm:N wall")
    state, _ = play(state, "end", "end", (1, 6))
    state, log = play(state, (1, 6))  # Foot #2 gangs up on the reserve, and dies
    assert log == [
        "Foot #2 1+1 v Res #1 3+6: defender wins",
        "Foot #2 is killed",
        "Storming N wall: not fought, no attacker left",
        "Turn 2 begins",
    ]


def test_a_corner_with_both_sides_killed_earlier_is_passed_over_with_a_line() -> None:
    # the tower's guard kills Foot #2 inside it, Foot #1 kills the reserve in the
    # courtyard: the corner of the tower has no one left on either side
    state = _board(
        unit("Foot", "Red", "infantry", 2, "N wall foot"),
        unit("Tow", "Blue", "infantry", 1, "NE tower"),
        unit("Res", "Blue", "infantry", 1, "Courtyard"),
        unit("East", "Blue", "infantry", 1, "E wall"),
    )
    state = _put(_put(state, "Courtyard", "Foot #1"), "NE tower", "Foot #2")
    hurt = tuple(replace(f, wounded=f.label in ("Foot #2", "Res #1")) for f in state.figures)
    state = replace(state, figures=hurt)
    assert board.contacts(state) == ("place:NE tower", "place:Courtyard", "corner:NE tower")
    state, log = play(state, "end", "end", (1, 6), (6, 1))
    assert log[-3:] == [
        "Res #1 is killed",
        "Corner of NE tower: not fought, no one left on either side",
        "Turn 2 begins",
    ]
    assert "Foot #2 is killed" in log


def test_a_fight_takes_its_sides_as_they_stand_and_makes_no_new_contact_this_turn() -> None:
    # the guard beaten at the ladder falls back into the courtyard and so stands with the
    # reserve at the corner of the tower Foot #2 holds; Foot #1, now on the wall beside
    # Guard #2, fights him only next turn (melee is simultaneous: combat's contacts are
    # those there as it begins)
    state = _guards_on_the_n_wall_and_a_reserve(foot=2)
    state = _put(state, "NE tower", "Foot #2")
    assert board.contacts(state) == ("ladder:N wall", "corner:NE tower")
    state, _ = play(state, "end", "end")
    state, log = play(state, (6, 1))
    assert "Foot #1 takes the space on N wall" in log
    assert log[-1] == "Corner of NE tower: 1 against 2"
    assert _sides(state, "corner:NE tower")[1] == ["Guard #1", "Res #1"]
    state, log = play(state, (3, 3), (3, 3))  # a tie, then Res #1 gangs up: a tie
    assert log[-1] == "Turn 2 begins"
    assert not any("Melee at N wall" in line for line in log)
    assert board.contacts(state) == ("place:N wall", "corner:NE tower")


def test_a_keep_full_of_attackers_is_retaken_from_the_courtyard() -> None:
    # the defenders fight from outside the keep: none of them fights twice (1.9)
    state = _attackers_fill("Keep", foot=3, reserves=2, wounded=True)
    assert board.contacts(state) == ("retake:Keep",)
    state, log = play(state, "end", "end")
    assert log[-1] == "Retaking Keep: 3 against 2"
    state, log = play(state, (1, 1, 6, 6))  # both wounded Foot die
    request = roll_request(state).request
    assert "second fights" in request.reason
    assert request.dice_count == 2  # the third Foot gangs up on one reserve
    state, log = play(state, (1, 6))
    assert "Foot #3 is killed" in log
    assert "keep" not in state.fallen
    assert not isinstance(RULESET.next_step(state), GameOver)


# ----------------------------------------------------- 1.10, 1.11 engines


def test_ram_batters_the_gate() -> None:
    _, log = play(_ram_at_the_gate(), "ram:Ram", (1, 2))
    assert "Gate is hit: 1 of 2 spaces left" in log


def test_six_hits_destroy_a_ram_and_d6_crew_survive() -> None:
    state = replace(in_phase(_ram_at_the_gate(), DEFENDER), hits=(("Ram", 5),))
    state, log = play(state, "gun:Left gun", (3,))
    assert "Ram is destroyed" in log
    state, log = play(state, (1,))
    assert "Crew #2 is killed" in log
    state, log = play(state, "to:Camp")
    assert where(state, "Crew") == ["Camp"]


def test_ram_crew_are_safe_from_missiles() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Crew", "Red", "infantry", 2, "Ram"),
                unit("Bows", "Blue", "archer", 1, "N wall"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "fire:Bows")
    assert "at:Ram" not in options_of(state)
    assert "at:Camp" in options_of(state)


def _siege(*units: dict[str, object], **options: object) -> GameState:
    return new_game(
        [*units, unit("Foot2", "Red", "infantry", 6, "N wall foot")],  # 3/4 limit filler
        options=dict(options),
    )


def test_assault_tower_lowers_its_bridge_and_the_unopposed_take_wall_spaces() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 4, "Siege"),
        unit("Guard", "Blue", "infantry", 1, "E wall"),
    )
    state, log = play(state, "bridge:Siege")
    # four a turn onto the bridge; two empty wall spaces: two step onto the wall
    assert log == [
        "The assault tower at Siege lowers its bridge: 4 onto it",
        "2 reach the top of E wall",
        "2 find no room on E wall",
    ]
    assert where(state, "Troop") == ["E wall", "E wall", "Siege bridge", "Siege bridge"]
    assert "bridge:Siege" not in options_of(state)  # once a turn
    assert "bridge:Siege bridge" in board.contacts(state)
    assert "place:E wall" in board.contacts(state)


def test_an_assault_tower_fights_a_fully_manned_wall_from_its_bridge() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 3, "Siege"),
        unit("Guard", "Blue", "infantry", 3, "E wall"),
    )
    state, log = play(state, "bridge:Siege")
    assert "3 find no room on E wall" in log
    state = _end_both(state)
    # the bridge lands on one space: its front rank of two faces the one man there
    request = roll_request(state).request
    assert request.reason == "Melee on Siege bridge: 1 fight"
    state, log = play(state, (6, 1))
    assert log[:4] == [
        "Troop #1 3+6 v Guard #1 3+1: attacker wins",
        "Guard #1 is wounded",
        "Guard #1 is driven back to Courtyard",
        "Troop #1 takes the space on E wall",
    ]
    assert where(state, "Troop") == ["E wall", "Siege bridge", "Siege bridge"]


def test_the_bridge_front_rank_gangs_up_on_the_one_defender() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 3, "Siege"),
        unit("Guard", "Blue", "infantry", 3, "E wall"),
        ladder_climb="kill_defender",
    )
    state = _end_both(play(state, "bridge:Siege")[0])
    state, log = play(state, (3, 3))
    # the second man of the front rank gangs up; the third waits behind
    assert roll_request(state).request.dice_count == 2
    state, log = play(state, (6, 1))
    assert "Troop #2 3+6 v Guard #1 3+1: attacker wins" in log


def test_option_a_wider_bridge_brings_more_men_to_the_front() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 3, "Siege"),
        unit("Guard", "Blue", "infantry", 3, "E wall"),
        bridge_width=3,
        ladder_climb="kill_defender",
    )
    state = _end_both(play(state, "bridge:Siege")[0])
    state, _ = play(state, (3, 3))
    assert roll_request(state).request.dice_count == 4  # two more gang up


def test_missiles_on_the_bridge_shoot_first_then_the_defenders() -> None:
    state = _siege(
        unit("Xbow", "Red", "crossbow", 2, "Siege"),
        unit("Guard", "Blue", "infantry", 1, "E wall"),
        unit("Bows", "Blue", "archer", 1, "NE tower"),
    )
    state, log = play(state, "bridge:Siege")
    assert "Missiles on the bridge shoot first" in log
    # behind the others on the bridge, they shoot as usual: the distance is asked
    assert options_of(state) == ["near", "far"]
    state, _ = play(state, "near")
    request = roll_request(state).request
    assert request.reason == "Xbow at the defenders on E wall: Missile fire, 2-3 spaces away"
    assert request.groups[0].count == 2
    state, log = play(state, (5, 1))
    assert "Guard #1 is wounded" in log
    assert options_of(state) == ["fire:Bows", "hold"]  # now the defender's turn
    state, _ = play(state, "fire:Bows", "far", (6,))
    assert where(state, "Xbow") == ["Siege bridge", "Siege bridge"]  # missiles stay behind
    assert any(f.wounded for f in state.figures if f.unit == "Xbow")


def test_without_missiles_on_the_bridge_the_defender_shoots_first() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 2, "Siege"),
        unit("Bows", "Blue", "archer", 1, "NE tower"),
    )
    state, log = play(state, "bridge:Siege")
    assert log == ["The assault tower at Siege lowers its bridge: 2 onto it"]
    assert options_of(state) == ["fire:Bows", "hold"]


def test_men_on_the_bridge_step_onto_the_wall_or_back_into_the_tower() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 4, "Siege"),
        unit("Guard", "Blue", "infantry", 2, "E wall"),
    )
    state, _ = play(state, "bridge:Siege")
    state = in_phase(state, ATTACKER)
    state, _ = play(state, "move:Troop", "at:Siege bridge")
    assert options_of(state) == ["to:Siege"]  # the wall is full


def _troop_in_the_assault_tower() -> list[dict[str, Any]]:
    """Three men in the assault tower at Siege, four at the camp, one guard on the N wall."""
    return [
        unit("Troop", "Red", "infantry", 3, "Siege"),
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Guard", "Blue", "infantry", 1, "N wall"),
    ]


def test_burning_oil_brings_down_an_assault_tower_after_four_turns() -> None:
    state = in_phase(new_game(_troop_in_the_assault_tower(), turn_limit=9), DEFENDER)
    state, log = play(state, "oil:Siege")
    assert state.oil_left == 0
    for turn in (1, 2, 3):
        state, log = play(state, "end")  # the defender ends: combat, end of turn
        assert f"The assault tower at Siege burns ({turn}/4)" in log
        state, _ = play(state, "end")  # the attacker's next move
    state, log = play(state, "end")
    assert "The assault tower at Siege burns down with all inside" in log
    assert where(state, "Troop") == []


def test_one_vat_of_oil_for_each_assault_tower() -> None:
    units = _troop_in_the_assault_tower()
    state = in_phase(new_game(units, oil_vats=3), DEFENDER)
    state, _ = play(state, "oil:Siege")
    state = replace(in_phase(state, DEFENDER), burning=())  # the fire was put out
    assert "oil:Siege" not in options_of(state)  # that tower has had its vat
    assert state.oil_left == 2
    raw = raw_fort(units)
    del raw["setup"]["oil_vats"]
    raw["setup"]["places"].append(
        {
            "name": "Siege 2",
            "kind": "station",
            "faces": "N wall",
            "equipment": "assault_tower",
            "spaces": 4,
        }
    )
    started = RULESET.start(RULESET.load_scenario(raw))
    assert isinstance(started, GameState)
    assert started.oil_left == 2  # by default one vat for each assault tower


def _burning_assault_tower(troop: int) -> GameState:
    """The attacker's move, with `troop` men inside the assault tower at Siege, alight."""
    state = new_game(
        [
            unit("Troop", "Red", "infantry", troop, "Siege"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
            unit("Foot", "Red", "infantry", 2, "Camp"),
        ]
    )
    return replace(state, burning=(("Siege", 1),))


def test_dousing_the_fire_takes_the_figures_turn() -> None:
    state, log = play(_burning_assault_tower(3), "douse:Siege")
    assert roll_request(state).request.dice_count == 3
    state, log = play(state, (1, 2, 6))
    assert "The fire at Siege is put out" in log
    assert "bridge:Siege" not in options_of(state)


def test_those_who_douse_do_not_fight_that_turn() -> None:
    state = _set(_burning_assault_tower(2), "Guard", place="Siege")  # a raider already at the tower
    state, _ = play(state, "douse:Siege", (1, 2))
    assert "place:Siege" not in board.contacts(state)
    state, _ = play(state, "end", "end")
    assert where(state, "Troop") == ["Siege", "Siege"]  # no fight there this turn
    assert state.turn == 2
    assert "place:Siege" in board.contacts(state)  # next turn they fight again


def test_a_burnt_tower_takes_the_men_on_its_bridge_with_it() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 4, "Siege"),
        unit("Guard", "Blue", "infantry", 3, "E wall"),
    )
    state, _ = play(state, "bridge:Siege")
    state = replace(state, burning=(("Siege", 3),))
    state, _ = play(state, "end", "end", (3, 3), (3, 3))
    assert where(state, "Troop") == []


def test_survivors_of_a_broken_tower_include_the_bridge() -> None:
    state = _siege(
        unit("Troop", "Red", "infantry", 4, "Siege"),
        unit("Guard", "Blue", "infantry", 3, "E wall"),
    )
    state, _ = play(state, "bridge:Siege", "end")
    state = replace(state, hits=(("Siege", 5),))
    state, log = play(state, "gun:Left gun", (4,))
    assert "The assault tower at Siege is destroyed" in log
    state, log = play(state, (2,))
    assert log == ["Troop #3 is killed", "Troop #4 is killed", "2 get out of the wreck at Siege"]


# ------------------------------------------------------------- 1.12 combat


def test_even_matching_then_ganging_up() -> None:
    state = new_game(foot_and_guard(foot=3, guard=1, guard_at="N wall"))
    state = _set(state, "Foot", place="N wall")
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one pair first
    state, _ = play(state, (3, 3))
    assert roll_request(state).request.dice_count == 4  # the other two gang up


def test_climbers_beyond_the_defenders_wait_on_their_ladders() -> None:
    # 1.3: those lined up behind follow a climber up; they do not gang up from below
    state = new_game(foot_and_guard(foot=3, guard=1, guard_at="N wall"))
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one climber against the one guard
    state, log = play(state, (3, 3))
    assert state.turn == 2  # a tie, and no one gangs up after it
    assert not any("Foot #2" in line for line in log)


def test_option_climbers_gang_up_from_below() -> None:
    state = new_game(
        foot_and_guard(foot=3, guard=1, guard_at="N wall"),
        options={"ladder_gang_up": True},
    )
    state = _end_both(state)
    state, _ = play(state, (3, 3))
    assert roll_request(state).request.dice_count == 4  # the other two gang up


def test_wounded_figure_fights_on_at_one() -> None:
    state = new_game(
        foot_and_guard(foot=2, guard=1, guard_at="N wall"),
        options={"ladder_climb": "kill_defender", "ladder_gang_up": True},
    )
    state = _end_both(state)
    state, log = play(state, (6, 1))
    assert "Foot #1 3+6 v Guard #1 3+1: attacker wins" in log
    state, log = play(state, (1, 6))
    assert "Foot #2 3+1 v Guard #1 1+6: defender wins" in log


def test_one_defender_meets_each_climber_and_the_others_are_free() -> None:
    # 1.3: a climber fights the man in the space he climbs to; the wall's other
    # defenders face no one: the archer may shoot in the defender's move
    state = _board(
        *foot_and_guard(foot=1, guard=1, guard_at="N wall"),
        unit("Bows", "Blue", "archer", 1, "N wall"),
        unit("Crew", "Red", "infantry", 2, "Cat"),
    )
    assert _sides(state, "ladder:N wall")[1] == ["Guard #1"]
    state, _ = play(state, "end", "fire:Bows")
    assert options_of(state) == ["crew:Cat"]  # the climber below is in melee: no target
    state = _end_both(in_phase(state, DEFENDER))
    assert roll_request(state).request.dice_count == 2
    state, log = play(state, (3, 3))
    assert log == ["Foot #1 3+3 v Guard #1 3+3: tie", "Turn 2 begins"]  # no one gangs up


def test_storms_come_after_the_other_contacts_and_a_figure_fights_in_each() -> None:
    # the Foot in the courtyard fight the reserve there, then storm the full keep; the
    # reserve also fights the Foot holding the tower corner (1.12: as often as needed)
    state = _board(
        *foot_and_guard(foot=2, guard=3, guard_at="Keep"),
        unit("Res", "Blue", "infantry", 1, "Courtyard"),
    )
    state = _send_ahead(_set(state, "Foot", place="Courtyard"), "Foot", "NE tower")
    assert board.contacts(state) == ("place:Courtyard", "corner:NE tower", "storm:Keep")
    state, log = play(_end_both(state), (3, 3), (3, 3))
    assert log[-1] == "Storming Keep: 1 against 3"
    assert "Foot #2 3+3 v Res #1 3+3: tie" in log
    state, log = play(state, (3, 3))
    assert log == ["Foot #2 3+3 v Guard #1 3+3: tie"]


def test_archers_in_melee_cannot_shoot() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "N wall foot"),
                unit("Bows", "Blue", "archer", 2, "N wall"),
            ]
        ),
        DEFENDER,
    )
    assert "fire:Bows" not in options_of(state)


def _bows_on_the_wall(**options: object) -> GameState:
    return in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Climb", "Red", "infantry", 4, "E wall foot"),
                unit("Bows", "Blue", "archer", 2, "N wall"),
            ],
            options=dict(options),
        ),
        DEFENDER,
    )


def test_range_is_asked_inside_the_fort_only() -> None:
    # inside the fort (here across the courtyard to the E wall) the distance in spaces counts
    state = _set(_bows_on_the_wall(), "Climb", place="E wall")
    state, _ = play(state, "fire:Bows", "at:E wall")
    assert options_of(state) == ["near", "far"]
    state, _ = play(state, "near")
    assert roll_request(state).request.groups[0].faces_meaning == "hits on 4+"
    # from outside the fort distance has no bearing (1.2): the basic numbers
    state = new_game(
        [unit("Arch", "Red", "archer", 4, "Camp"), unit("Guard", "Blue", "infantry", 2, "N wall")]
    )
    state, _ = play(state, "fire:Arch", "at:N wall")
    request = roll_request(state).request
    assert request.groups[0].faces_meaning == "hits on 6"


def test_shots_at_the_stations_use_the_basic_numbers() -> None:
    state, _ = play(_bows_on_the_wall(), "fire:Bows", "at:Camp")
    request = roll_request(state).request
    assert request.reason == "Bows at Camp: Missile fire, 4+ spaces away or distance of no bearing"
    assert request.groups[0].faces_meaning == "hits on 6"


def test_option_the_range_to_the_stations_is_asked() -> None:
    state, _ = play(_bows_on_the_wall(station_range="ask"), "fire:Bows", "at:Camp")
    assert options_of(state) == ["near", "far"]


def test_wall_archers_shoot_at_their_side_and_across_the_courtyard() -> None:
    state, _ = play(_bows_on_the_wall(), "fire:Bows")
    # outside, a wall's archers reach only what stands before their own wall: not the
    # climbers at the foot of the E wall
    assert options_of(state) == ["at:Camp"]
    state = _set(_bows_on_the_wall(), "Climb", place="E wall")
    state, _ = play(state, "fire:Bows")
    assert "at:E wall" in options_of(state)  # across the courtyard to another wall


def test_archers_against_artillery_crew() -> None:
    state = in_phase(
        new_game(
            [
                unit("Crew", "Red", "infantry", 2, "Cat"),
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Bows", "Blue", "crossbow", 2, "N wall"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "fire:Bows")
    assert "at:Cat" not in options_of(state)  # the crew are shot at as crew
    state, log = play(state, "crew:Cat", (6, 5))  # crossbows too need a 6 here
    assert "Crew #1 is killed" in log
    assert where(state, "Crew") == ["Cat"]


def _wounded_guards_beside_the_barracks() -> GameState:
    """The defender's move, with two wounded guards on the N wall, which touches the barracks."""
    units = [
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Guard", "Blue", "infantry", 2, "N wall"),
    ]
    return _set(in_phase(new_game(units), DEFENDER), "Guard", wounded=True)


def test_healing_in_the_barracks() -> None:
    _, log = play(_wounded_guards_beside_the_barracks(), "move:Guard", "to:Barracks")
    assert "2 wounded healed at Barracks" in log


# ------------------------------------------------------------ the machine


def test_turn_limit_gives_the_defender_the_game() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "Camp"),
            unit("Guard", "Blue", "infantry", 2, "E wall"),
        ],
        turn_limit=1,
    )
    state, _ = play(state, "end", "end")
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.winner == "Blue"


def test_input_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    state = new_game()
    before = replace(state)
    with pytest.raises(RulesError, match="not an option"):
        RULESET.advance(state, Chosen("fly"))
    with pytest.raises(RulesError, match="expected a choice"):
        RULESET.advance(state, Rolled((6,)))
    state2, _ = play(state, "move:Foot", "to:Camp")
    with pytest.raises(RulesError, match="expected 1 die "):
        RULESET.advance(state2, Rolled((6, 6)))
    with pytest.raises(RulesError, match="reads 1-6"):
        RULESET.advance(state2, Rolled((0,)))
    assert state == before


# ---------------------------------------------------- rubble and breaches


def _rubble_game(**options: object) -> GameState:
    state = new_game(
        [
            unit("Pikes", "Red", "pike", 4, "E wall foot"),
            unit("Res", "Blue", "infantry", 2, "Courtyard"),
        ],
        options=dict(options),
    )
    return replace(state, hits=(("E wall", 3),))


def test_attackers_cross_a_fallen_wall_into_the_courtyard() -> None:
    state, _ = play(_rubble_game(), "move:Pikes")
    assert "to:Courtyard" in options_of(state)
    assert "to:E wall" not in options_of(state)


def test_option_rubble_only_blocks() -> None:
    state, _ = play(_rubble_game(breach_entry=False), "move:Pikes")
    assert "to:Courtyard" not in options_of(state)


def test_rubble_stops_melee_but_not_missiles() -> None:
    state = _rubble_game()
    assert not any(c.endswith("E wall") for c in board.contacts(state))
    state = in_phase(_set(state, "Res", kind="archer", place="NE tower"), DEFENDER)
    state, _ = play(state, "fire:Res")
    assert "at:E wall foot" in options_of(state)


def test_option_pikes_fight_over_rubble() -> None:
    assert "rubble:E wall" not in board.contacts(_rubble_game())
    assert "rubble:E wall" in board.contacts(_rubble_game(pike_over_rubble=True))


def test_a_broken_gate_lets_the_front_wall_foot_in() -> None:
    game = new_game(foot_and_guard(foot=4, guard=1, guard_at="E wall"))
    state, _ = play(game, "move:Foot")
    assert "to:Courtyard" not in options_of(state)
    state, _ = play(replace(game, hits=(("Gate", 2),)), "move:Foot")
    assert "to:Courtyard" in options_of(state)


def test_a_station_hit_may_only_wound_by_option() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Guard", "Blue", "infantry", 1, "E wall"),
    ]
    state = in_phase(new_game(units, options={"station_hit": "wound_one"}), DEFENDER)
    state, log = play(state, "gun:Left gun", (2,))
    assert "Foot #1 is wounded" in log


# ------------------------------------------------ readings and their options


def _replacing(**options: object) -> GameState:
    state = new_game(foot_and_guard(foot=4, guard=2, guard_at="E wall"), options=dict(options))
    return play(state, "move:Foot", "to:Camp")[0]


def test_replacement_is_one_die_for_the_group() -> None:
    state = _replacing()
    assert roll_request(state).request.dice_count == 1
    state, _log = play(state, (6,))
    assert where(state, "Foot") == ["Camp"] * 4


def test_option_replacement_is_one_die_a_figure() -> None:
    state = _replacing(replacement_roll="per_figure")
    request = roll_request(state).request
    assert request.dice_count == 4
    assert request.reason == "Foot: N wall foot to Camp, Attacker re-placement"
    state, log = play(state, (6, 2, 6, 1))
    assert log[0] == "Foot: rolled 6 2 6 1, picked up and placed"
    assert sorted(where(state, "Foot")) == ["Camp", "Camp", "N wall foot", "N wall foot"]
    assert "move:Foot" not in options_of(state)  # the others' move is spent


def _catapult_targets(**options: object) -> list[str]:
    state = _with_the_catapult(unit("Guard", "Blue", "infantry", 1, "E wall"), **options)
    state, _ = play(state, "shoot:Cat")
    return options_of(state)


def test_a_catapult_shoots_at_the_wall_it_faces_its_towers_and_gate() -> None:
    # Cat faces the N wall, the front wall with the gate in it
    assert _catapult_targets() == ["hit:N wall", "hit:NE tower", "hit:Gate", "interior"]


def test_option_a_catapult_reaches_any_stonework() -> None:
    assert _catapult_targets(catapult_reach="any") == [
        "hit:N wall",
        "hit:E wall",
        "hit:NE tower",
        "hit:Gate",
        "interior",
    ]


def _engaged_guard(**options: object) -> GameState:
    state = new_game(
        [
            *foot_and_guard(foot=4, guard=1, guard_at="N wall"),
            unit("Res", "Blue", "infantry", 1, "Courtyard"),
        ],
        options=dict(options),
    )
    return in_phase(state, DEFENDER)


def test_a_figure_in_melee_disengages_only_into_a_place_clear_of_everyone() -> None:
    state, _ = play(_engaged_guard(), "move:Guard")
    # the courtyard holds a friend: not clear; the tower and the barracks are empty
    assert set(options_of(state)) == {"to:NE tower", "to:Barracks"}


def test_option_disengage_only_away_from_the_enemy() -> None:
    state, _ = play(_engaged_guard(disengage="clear_of_enemy"), "move:Guard")
    assert set(options_of(state)) == {"to:NE tower", "to:Barracks", "to:Courtyard"}


def _sortie(**options: object) -> GameState:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Rams", "Red", "infantry", 1, "Ram"),
        unit("Horse", "Blue", "mounted", 1, "Stables"),
    ]
    return in_phase(new_game(units, options=dict(options)), DEFENDER)


def test_raiders_may_attack_the_crew_of_an_unbroken_ram() -> None:
    state, _ = play(_sortie(), "move:Horse", "to:Ram")
    assert "place:Ram" in board.contacts(state)


def test_option_crews_are_safe_inside_an_unbroken_engine() -> None:
    state, _ = play(_sortie(sortie_engines=False), "move:Horse")
    assert "to:Ram" not in options_of(state)
    state = _set(_sortie(sortie_engines=False), "Horse", place="Ram")
    assert "place:Ram" not in board.contacts(state)  # until the ram is destroyed
    assert "place:Ram" in board.contacts(replace(state, hits=(("Ram", 6),)))


def test_archers_shoot_only_at_crews_within_their_reach() -> None:
    units = [
        unit("Crew", "Red", "infantry", 2, "Cat"),
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Bows", "Blue", "archer", 1, "E wall"),
        unit("Bows2", "Blue", "archer", 1, "NE tower"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    # the catapult stands before the N wall: out of reach from the E wall,
    # within reach of the tower at the corner of the N and E walls
    assert "fire:Bows" not in options_of(state)
    state, _ = play(state, "fire:Bows2")
    assert "crew:Cat" in options_of(state)


def test_a_silenced_catapult_cannot_shoot() -> None:
    units = [
        unit("Crew", "Red", "infantry", 1, "Cat"),
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Bows", "Blue", "crossbow", 1, "NE tower"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    state, log = play(state, "fire:Bows", "crew:Cat", (6,))
    assert "The catapult at Cat has no crew left" in log
    state = in_phase(state, ATTACKER)
    assert not any(key.startswith("shoot:") for key in options_of(state))


def test_horsemen_never_wait_at_a_wall_foot() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "Camp"),
            unit("Horse", "Red", "mounted", 1, "Cat"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, _ = play(state, "move:Horse")
    assert not any(key.endswith("foot") for key in options_of(state))
    state, _ = play(new_game(), "move:Foot")
    assert options_of(state)[:2] == ["to:N wall", "to:E wall foot"]  # climb, other feet first


def test_every_keep_defender_fights_twice_even_when_he_outnumbers() -> None:
    state = _send_ahead(new_game(foot_and_guard(foot=4, guard=2, guard_at="Keep")), "Foot", "Keep")
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one pair
    state, _ = play(state, (3, 3))
    # the spare guard gangs up (his first fight), then both guards fight again
    assert roll_request(state).request.dice_count == 6


def test_contacts_between_places_ladders_corners_and_bridges() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Troop", "Red", "infantry", 2, "Siege"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
            unit("East", "Blue", "infantry", 1, "E wall"),
            unit("Res", "Blue", "infantry", 2, "Courtyard"),
        ]
    )
    state = _set(state, "Troop", place="Siege bridge")
    state = _send_ahead(state, "Foot", "NE tower")
    assert board.contacts(state) == (
        "ladder:N wall",
        "bridge:Siege bridge",
        "corner:NE tower",
    )


def test_the_attacker_wins_when_no_defender_is_left_and_the_defender_likewise() -> None:
    state = new_game(foot_and_guard(foot=4, guard=1, guard_at="N wall"))
    state = _set(state, "Guard", wounded=True)
    state, _ = play(_end_both(state), (6, 1))
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.summary[0] == "Red won on turn 1: no defender is left"
    state = _board(*foot_and_guard(foot=1, guard=2, guard_at="N wall"))
    state = replace(state, figures=tuple(f for f in state.figures if f.unit != "Reserve"))
    state = _set(state, "Foot", wounded=True)
    state, _ = play(_end_both(state), (1, 6))
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.summary[0] == "Blue won on turn 1: no attacker is left"


def test_option_a_wall_hit_wounds_no_one() -> None:
    state = _with_the_catapult(
        unit("Guard", "Blue", "infantry", 1, "N wall"), wall_hit_wounds=False
    )
    state, log = play(state, "shoot:Cat", "hit:N wall", (6, 6), "open")
    assert "N wall is hit: 3 of 4 spaces left" in log
    assert options_of(state)[-1] == "end"  # no wound roll: back to the menu


def test_option_wall_weapon_value() -> None:
    state = in_phase(
        new_game(
            foot_and_guard(foot=2, guard=1, guard_at="E wall"),
            options={"wall_weapon_value": 4},
        ),
        DEFENDER,
    )
    state, _ = play(state, "weapon:Oil", "foot")
    assert roll_request(state).request.reason == "Oil (4) at the foot of N wall"
    state = replace(state, fallen=frozenset({"barracks"}))
    assert roll_request(state).request.reason == "Oil (3) at the foot of N wall"


def test_no_healing_in_a_fallen_barracks() -> None:
    state = replace(_wounded_guards_beside_the_barracks(), fallen=frozenset({"barracks"}))
    state, log = play(state, "move:Guard", "to:Barracks")
    assert not any("healed" in line for line in log)
