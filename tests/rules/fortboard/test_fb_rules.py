"""Each FortBoard rule as a named test, played through `advance` on a small fort.

The small fort (fb_helpers.SMALL_PLACES): N wall (3 spaces, the front, with a
two-space oil weapon), E wall (3), NE tower (9), courtyard, barracks (2) off the
N wall, stables (2) by the gate (2), keep (3). Stations, numbered 1-4 for the
defender's guns: Cat (catapult, 2 crew, N wall), Camp (4, N wall), Ram (2, gate),
Siege (assault tower, 4, E wall).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from fb_helpers import in_phase, new_game, options_of, play, roll_request, unit, where

from companion.rules.core import Chosen, GameOver, Rolled, RulesError
from companion.rules.fortboard import RULESET, board
from companion.rules.fortboard.state import ATTACKER, DEFENDER, GameState

#: Attackers far from the action, to keep within the 3/4 set-up limit.
FILLER = unit("Reserve", "Red", "infantry", 4, "Siege")


def _end_both(state: GameState) -> GameState:
    """Attacker and defender end their moves: combat starts."""
    if state.phase == ATTACKER:
        state, _ = play(state, "end")
    state, _ = play(state, "end")
    return state


def _set(state: GameState, unit_name: str, **changes: object) -> GameState:
    figures = tuple(replace(f, **changes) if f.unit == unit_name else f for f in state.figures)  # type: ignore[arg-type]
    return replace(state, figures=figures)


# ------------------------------------------------------------ 1.1 movement


def test_replacement_needs_a_six() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 6, "N wall foot"),
            unit("Guard", "Blue", "infantry", 2, "E wall"),
        ]
    )
    state, _ = play(state, "move:Foot@N wall foot")
    assert "to:Camp" in options_of(state)
    state, log = play(state, "to:Camp", (5,))
    assert "needs a 6" in log[-1]
    assert set(where(state, "Foot")) == {"N wall foot"}
    assert "move:Foot@N wall foot" not in options_of(state)  # that was their move


def test_replacement_on_a_six_fills_the_station() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 6, "N wall foot"),
            unit("Guard", "Blue", "infantry", 2, "E wall"),
        ]
    )
    state, _ = play(state, "move:Foot@N wall foot", "to:Camp", (6,))
    assert where(state, "Foot").count("Camp") == 4  # the camp holds four
    assert where(state, "Foot").count("N wall foot") == 2


def test_attackers_withdrawing_to_a_station_heal() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 2, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state = _set(state, "Foot", wounded=True)
    state, log = play(state, "move:Foot@N wall foot", "to:Camp", (6,))
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
    state, _ = play(state, "move:Horse@Camp", "to:Cat")
    assert where(state, "Horse") == ["Cat"]


def test_defenders_move_one_space_and_walls_reach_the_courtyard_only_by_tower() -> None:
    state = in_phase(new_game(), DEFENDER)
    state, _ = play(state, "move:Guard@N wall")
    assert set(options_of(state)) == {"to:NE tower", "to:Barracks"}


def test_courtyard_is_one_space() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 8, "N wall foot"),
                unit("Res", "Blue", "infantry", 2, "Courtyard"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "move:Res@Courtyard")
    assert set(options_of(state)) >= {"to:Keep", "to:Barracks", "to:Gate", "to:NE tower"}


# ------------------------------------------------------------------ 1.3 ladders


def test_climbers_take_empty_spaces_after_defender_missiles() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
            unit("Bows", "Blue", "archer", 2, "NE tower"),
        ]
    )
    state, log = play(state, "move:Foot@N wall foot", "to:N wall")
    assert options_of(state) == ["fire:Bows@NE tower", "hold"]
    state, log = play(state, "fire:Bows@NE tower", "near")
    assert roll_request(state).request.dice_count == 2
    state, log = play(state, (4, 1))
    assert "Bows shoot: 1 hit" in log
    assert "Foot #1 is wounded" in log
    assert "2 reach the top of N wall" in log  # two empty spaces
    assert where(state, "Foot").count("N wall") == 2


def test_a_beaten_defender_gives_up_his_space() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 1, "N wall foot"),
            unit("Guard", "Blue", "infantry", 3, "N wall"),
            FILLER,
        ]
    )
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one fight: 1d6 each
    state, log = play(state, (6, 1))
    assert "Guard #1 is wounded" in log
    assert "Guard #1 is driven back to Courtyard" in log
    assert "Foot #1 takes the space on N wall" in log


def test_option_climber_must_kill_the_defender() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 1, "N wall foot"),
            unit("Guard", "Blue", "infantry", 3, "N wall"),
            FILLER,
        ],
        options={"ladder_climb": "kill_defender"},
    )
    state, log = play(_end_both(state), (6, 1))
    assert "Guard #1 is wounded" in log
    assert where(state, "Foot") == ["N wall foot"]


def test_towers_cannot_be_scaled_by_ladders() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, _ = play(state, "move:Foot@N wall foot")
    assert "to:NE tower" not in options_of(state)


# ----------------------------------------------------------- 1.4 artillery


def test_tower_hit_needs_more_than_its_intact_spaces() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Bows", "Blue", "archer", 2, "NE tower"),
        ]
    )
    state, log = play(state, "shoot:Cat", "hit:NE tower", (4, 5))
    assert any("9 against 9: miss" in line for line in log)
    assert board.intact(state, "NE tower") == 9


def test_tower_hit_wounds_on_three() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Bows", "Blue", "archer", 2, "NE tower"),
        ]
    )
    state, log = play(state, "shoot:Cat", "hit:NE tower", (5, 5))
    assert "NE tower is hit: 8 of 9 spaces left" in log
    state, log = play(state, (3,))
    assert log == ["Bows #1 is wounded"]


def test_fallen_tower_is_rubble_and_its_men_fall_back() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Bows", "Blue", "archer", 2, "NE tower"),
        ]
    )
    state = replace(state, hits=(("NE tower", 8),))
    state, log = play(state, "shoot:Cat", "hit:NE tower", (1, 1))
    assert "NE tower is a heap of rubble" in log
    assert set(where(state, "Bows")) == {"Courtyard"}


def test_wall_hit_knocks_out_a_space_and_may_hit_the_weapon() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 3, "N wall"),
        ]
    )
    state, log = play(state, "shoot:Cat", "hit:N wall", (2, 2))
    assert "N wall is hit: 2 of 3 spaces left" in log
    assert "Guard #3 falls back to Courtyard" in log
    assert options_of(state) == ["open", "weapon:Oil"]
    state, log = play(state, "weapon:Oil", (2,))
    assert "Oil is hit (1/2)" in log
    assert "No one at N wall is hurt" in log


def test_option_wall_hits_are_automatic() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ],
        options={"wall_to_hit": "automatic"},
    )
    state, log = play(state, "shoot:Cat", "hit:N wall")
    assert "N wall is hit: 2 of 3 spaces left" in log


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
    assert "The engine at Ram is hit (1/6)" in log


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
    assert log[0].startswith("Left mangonel now numbers 1=E tower")
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
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, log = play(state, "shoot:Cat", "interior", (face,))
    assert expected in log


def test_destroyed_keep_costs_every_defender_a_point() -> None:
    state = new_game(
        [
            unit("Crew", "Red", "infantry", 2, "Cat"),
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 2, "Keep"),
        ]
    )
    state = replace(state, hits=(("Keep", 2),))
    state, log = play(state, "shoot:Cat", "interior", (3,))
    assert "The keep is destroyed: fort defenders fight at -1" in log
    assert set(where(state, "Guard")) == {"Courtyard"}
    assert board.fort_penalty_flags(state) == (False, True)


# -------------------------------------------------------- 1.5 wall weapons


def test_wall_weapon_shares_four_attempts_and_survivors_reach_the_top() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 2, "N wall foot"),
                unit("Guard", "Blue", "infantry", 1, "N wall"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "weapon:Oil", "foot")
    request = roll_request(state).request
    assert [g.count for g in request.groups] == [4, 4]
    # Foot #1 takes attempts 1-2, Foot #2 attempts 3-4 (weapon value 3)
    state, log = play(state, (6, 6, 1, 1, 1, 1, 6, 6))
    assert "Foot #1 is wounded" not in log  # wounded then killed in one firing
    assert "Foot #1 is killed" in log
    assert "1 survive the Oil and reach the top of N wall" in log
    assert where(state, "Foot") == ["N wall"]


def test_wall_weapon_hits_a_ram_below() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "N wall foot"),
                unit("Crew", "Red", "infantry", 2, "Ram"),
                unit("Guard", "Blue", "infantry", 1, "E wall"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "weapon:Oil")
    assert "engine:Ram" in options_of(state)
    state, log = play(state, "engine:Ram", (6, 6, 6, 6, 1, 1, 1, 1))
    assert "Oil scores 4 on the engine at Ram" in log


# ------------------------------------------------------ 1.6, 1.7 buildings, sorties


def test_barracks_falls_to_an_unopposed_enemy() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Raid", "Red", "infantry", 1, "Camp"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
        ]
    )
    state = _set(state, "Raid", place="Barracks")
    state, log = play(state, "end")
    assert "The barracks has fallen: fort defenders fight at -1" in log
    state, _ = play(state, "end")
    request = roll_request(state)  # ladder fight: guard fights at 3 - 1
    assert request.odds is not None


def test_stables_fallen_no_mounted_sortie() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Horse", "Blue", "mounted", 1, "Stables"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    state, _ = play(state, "move:Horse@Stables")
    assert "to:Camp" not in options_of(state)  # no one at the camp to attack
    state = in_phase(new_game([*units, unit("Raid", "Red", "infantry", 1, "Camp")]), DEFENDER)
    state, _ = play(state, "move:Horse@Stables")
    assert "to:Camp" in options_of(state)
    state = replace(in_phase(state, DEFENDER), fallen=frozenset({"stables"}))
    state, _ = play(state, "move:Horse@Stables")
    assert "to:Camp" not in options_of(state)


def test_leaving_the_fort_one_per_empty_station_space() -> None:
    # Front-wall stations: Cat 2 + Camp 4 + Ram 2 = 8 spaces; 7 are filled
    units = [
        unit("Crew", "Red", "infantry", 2, "Cat"),
        unit("Foot", "Red", "infantry", 3, "Camp"),
        unit("Rams", "Red", "infantry", 2, "Ram"),
        unit("Horse", "Blue", "mounted", 2, "Stables"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    assert board.leaving_allowance(state) == 1
    state, _ = play(state, "move:Horse@Stables", "to:Camp")
    assert where(state, "Horse") == ["Camp", "Stables"]
    state, _ = play(in_phase(state, DEFENDER), "move:Horse@Stables")
    assert "to:Camp" not in options_of(state)  # the one way out is used


def test_no_one_leaves_when_every_station_space_is_full() -> None:
    units = [
        unit("Crew", "Red", "infantry", 2, "Cat"),
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Rams", "Red", "infantry", 2, "Ram"),
        unit("Horse", "Blue", "mounted", 2, "Stables"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    assert board.leaving_allowance(state) == 0
    state, _ = play(state, "move:Horse@Stables")
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
    state, _ = play(state, "move:Horse@Cat")
    assert "to:Gate" not in options_of(state)
    state = _set(in_phase(state, DEFENDER), "Crew", wounded=True)
    state = _end_both(replace(state, phase=DEFENDER))
    state, log = play(state, (1, 6))  # the horse wins; the wounded crewman dies
    assert "Crew #1 is killed" in log
    assert "The catapult at Cat is taken: its raiders may go back in" in log
    state = in_phase(state, DEFENDER)
    state, _ = play(state, "move:Horse@Cat")
    assert "to:Gate" in options_of(state)


# -------------------------------------------------------------- 1.8 towers


def test_a_tower_held_by_the_enemy_cannot_be_regained_by_walking_in() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "N wall foot"),
        unit("Res", "Blue", "infantry", 2, "Courtyard"),
    ]
    state = new_game(units)
    state = replace(
        state,
        figures=tuple(
            replace(f, place="NE tower") if f.unit == "Foot" and f.number == 1 else f
            for f in state.figures
        ),
    )
    state = in_phase(state, DEFENDER)
    state, _ = play(state, "move:Res@Courtyard")
    assert "to:NE tower" not in options_of(state)
    assert "corner:NE tower" in board.contacts(state)


def test_no_more_than_four_defenders_in_a_tower() -> None:
    units = [
        unit("Foot", "Red", "infantry", 8, "N wall foot"),
        unit("Res", "Blue", "infantry", 6, "Courtyard"),
    ]
    state = in_phase(new_game(units), DEFENDER)
    state, _ = play(state, "move:Res@Courtyard", "to:NE tower")
    assert where(state, "Res").count("NE tower") == 4


# ----------------------------------------------------------------- 1.9 keep


def test_keep_defenders_fight_twice() -> None:
    units = [
        unit("Foot", "Red", "infantry", 2, "N wall foot"),
        unit("Guard", "Blue", "infantry", 1, "Keep"),
    ]
    state = new_game(units)
    state = _set(state, "Foot", place="Keep")
    state = _end_both(state)
    state, _ = play(state, (3, 3))  # the first pair ties
    request = roll_request(state).request
    assert "second fights" in request.reason
    assert request.dice_count == 4  # the spare attacker, and the guard again


def test_taking_the_keep_ends_the_game() -> None:
    units = [
        unit("Foot", "Red", "infantry", 2, "N wall foot"),
        unit("Guard", "Blue", "infantry", 1, "Keep"),
        unit("Res", "Blue", "infantry", 1, "E wall"),
        FILLER,
    ]
    state = new_game(units)
    state = _set(state, "Foot", place="Keep")
    state = _end_both(state)
    state, _ = play(state, (6, 1), (6, 1, 1, 1))
    step = RULESET.next_step(state)
    assert isinstance(step, GameOver)
    assert step.winner == "Red"
    assert "the keep is taken" in step.summary[0]


def test_option_wipeout_only() -> None:
    units = [
        unit("Foot", "Red", "infantry", 2, "N wall foot"),
        unit("Guard", "Blue", "infantry", 1, "Keep"),
        unit("Res", "Blue", "infantry", 1, "E wall"),
        FILLER,
    ]
    state = new_game(units, options={"victory": "wipeout"})
    state = _end_both(_set(state, "Foot", place="Keep"))
    state, _ = play(state, (6, 1), (6, 1, 1, 1))
    assert not isinstance(RULESET.next_step(state), GameOver)
    assert "keep" in state.fallen


# ----------------------------------------------------- 1.10, 1.11 engines


def test_ram_batters_the_gate() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Crew", "Red", "infantry", 2, "Ram"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, log = play(state, "ram:Ram", (1, 2))
    assert "Gate is hit: 1 of 2 spaces left" in log


def test_six_hits_destroy_a_ram_and_d6_crew_survive() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "N wall foot"),
                unit("Crew", "Red", "infantry", 2, "Ram"),
                unit("Guard", "Blue", "infantry", 1, "E wall"),
            ]
        ),
        DEFENDER,
    )
    state = replace(state, hits=(("Ram", 5),))
    state, log = play(state, "gun:Left gun", (3,))
    assert "The engine at Ram is destroyed" in log
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
    state, _ = play(state, "fire:Bows@N wall")
    assert "at:Ram" not in options_of(state)
    assert "at:Camp" in options_of(state)


def test_assault_tower_lowers_its_bridge() -> None:
    state = new_game(
        [
            unit("Troop", "Red", "infantry", 2, "Siege"),
            unit("Xbow", "Red", "crossbow", 2, "Siege"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
            unit("Foot2", "Red", "infantry", 2, "N wall foot"),
        ]
    )
    state, log = play(state, "bridge:Siege")
    # up to four a turn, as many as the wall has room for: two here
    assert "The assault tower at Siege lowers its bridge: 2 onto E wall" in log
    assert "2 reach the top of E wall" in log
    assert where(state, "Troop") == ["E wall", "E wall"]
    assert "bridge:Siege" not in options_of(state)


def test_assault_tower_bowmen_shoot_before_the_defenders() -> None:
    state = new_game(
        [
            unit("Xbow", "Red", "crossbow", 2, "Siege"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
            unit("Bows", "Blue", "archer", 1, "NE tower"),
            unit("Foot2", "Red", "infantry", 4, "N wall foot"),
        ]
    )
    state, log = play(state, "bridge:Siege")
    assert "Missiles on the bridge shoot first" in log
    assert roll_request(state).request.groups[1].count == 2  # two crossbows
    state, log = play(state, (5, 1))
    assert "Guard #1 is wounded" in log
    assert options_of(state) == ["fire:Bows@NE tower", "hold"]


def test_burning_oil_brings_down_an_assault_tower_after_four_turns() -> None:
    state = in_phase(
        new_game(
            [
                unit("Troop", "Red", "infantry", 3, "Siege"),
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Guard", "Blue", "infantry", 1, "N wall"),
            ],
            turn_limit=9,
        ),
        DEFENDER,
    )
    state, log = play(state, "oil:Siege")
    assert state.oil_left == 0
    for turn in (1, 2, 3):
        state, log = play(state, "end")  # the defender ends: combat, end of turn
        assert f"The assault tower at Siege burns ({turn}/4)" in log
        state, _ = play(state, "end")  # the attacker's next move
    state, log = play(state, "end")
    assert "The assault tower at Siege burns down with all inside" in log
    assert where(state, "Troop") == []


def test_dousing_the_fire_takes_the_figures_turn() -> None:
    state = new_game(
        [
            unit("Troop", "Red", "infantry", 3, "Siege"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
            unit("Foot", "Red", "infantry", 2, "Camp"),
        ]
    )
    state = replace(state, burning=(("Siege", 1),))
    state, log = play(state, "douse:Siege")
    assert roll_request(state).request.dice_count == 3
    state, log = play(state, (1, 2, 6))
    assert "The fire at Siege is put out" in log
    assert "bridge:Siege" not in options_of(state)


# ------------------------------------------------------------- 1.12 combat


def test_even_matching_then_ganging_up() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 3, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
        ]
    )
    state = _set(state, "Foot", place="N wall")
    state = _end_both(state)
    assert roll_request(state).request.dice_count == 2  # one pair first
    state, _ = play(state, (3, 3))
    assert roll_request(state).request.dice_count == 4  # the other two gang up


def test_wounded_figure_fights_on_at_one() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 2, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "N wall"),
        ],
        options={"ladder_climb": "kill_defender"},
    )
    state = _end_both(state)
    state, log = play(state, (6, 1))
    assert "Foot #1 3+6 v Guard #1 3+1: attacker wins" in log
    state, log = play(state, (1, 6))
    assert "Foot #2 3+1 v Guard #1 1+6: defender wins" in log


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
    assert "fire:Bows@N wall" not in options_of(state)


def test_range_is_asked_inside_the_fort_only() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Bows", "Blue", "archer", 2, "N wall"),
            ]
        ),
        DEFENDER,
    )
    state, _ = play(state, "fire:Bows@N wall", "at:Camp")
    assert options_of(state) == ["near", "far"]
    state = new_game(
        [unit("Arch", "Red", "archer", 4, "Camp"), unit("Guard", "Blue", "infantry", 2, "N wall")]
    )
    state, _ = play(state, "fire:Arch@Camp", "at:N wall")
    request = roll_request(state).request
    assert request.groups[0].faces_meaning == "6 hits"  # distance has no bearing outside


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
    state, _ = play(state, "fire:Bows@N wall")
    assert "at:Cat" not in options_of(state)  # the crew are shot at as crew
    state, log = play(state, "crew:Cat", (6, 5))  # crossbows too need a 6 here
    assert "Crew #1 is killed" in log
    assert where(state, "Crew") == ["Cat"]


def test_healing_in_the_barracks() -> None:
    state = in_phase(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "Camp"),
                unit("Guard", "Blue", "infantry", 2, "N wall"),
            ]
        ),
        DEFENDER,
    )
    state = _set(state, "Guard", wounded=True)
    state, log = play(state, "move:Guard@N wall", "to:Barracks")
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
    state2, _ = play(state, "move:Foot@N wall foot", "to:Camp")
    with pytest.raises(RulesError, match="expected 1 dice"):
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
    state, _ = play(_rubble_game(), "move:Pikes@E wall foot")
    assert "to:Courtyard" in options_of(state)
    assert "to:E wall" not in options_of(state)


def test_option_rubble_only_blocks() -> None:
    state, _ = play(_rubble_game(breach_entry=False), "move:Pikes@E wall foot")
    assert "to:Courtyard" not in options_of(state)


def test_option_pikes_fight_over_rubble() -> None:
    assert "rubble:E wall" not in board.contacts(_rubble_game())
    assert "rubble:E wall" in board.contacts(_rubble_game(pike_over_rubble=True))


def test_a_broken_gate_lets_the_front_wall_foot_in() -> None:
    state = new_game(
        [
            unit("Foot", "Red", "infantry", 4, "N wall foot"),
            unit("Guard", "Blue", "infantry", 1, "E wall"),
        ]
    )
    state, _ = play(state, "move:Foot@N wall foot")
    assert "to:Courtyard" not in options_of(state)
    state = replace(
        new_game(
            [
                unit("Foot", "Red", "infantry", 4, "N wall foot"),
                unit("Guard", "Blue", "infantry", 1, "E wall"),
            ]
        ),
        hits=(("Gate", 2),),
    )
    state, _ = play(state, "move:Foot@N wall foot")
    assert "to:Courtyard" in options_of(state)


def test_a_station_hit_may_only_wound_by_option() -> None:
    units = [
        unit("Foot", "Red", "infantry", 4, "Camp"),
        unit("Guard", "Blue", "infantry", 1, "E wall"),
    ]
    state = in_phase(new_game(units, options={"station_hit": "wound_one"}), DEFENDER)
    state, log = play(state, "gun:Left gun", (2,))
    assert "Foot #1 is wounded" in log
