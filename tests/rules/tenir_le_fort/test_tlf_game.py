"""Scripted games of Tenir le Fort through `advance`, checking the play-by-play and the state."""

from __future__ import annotations

import copy
import random
import tomllib
from importlib import resources
from typing import Any

import pytest

from companion.rules import get_ruleset
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Chosen,
    GameInput,
    GameOver,
    Rolled,
    RulesError,
    ScenarioError,
)
from companion.rules.tenir_le_fort.state import GameState

RULES = get_ruleset("tenir_le_fort")


def example() -> dict[str, Any]:
    text = resources.files("companion.scenarios").joinpath("tenir_le_fort.toml").read_text()
    return tomllib.loads(text)


def small(**setup: Any) -> dict[str, Any]:
    """One squad and one war band, for focused scripts."""
    return {
        "system": "tenir_le_fort",
        "title": "Skirmish",
        "sides": ["FFL", "Arab"],
        "setup": {
            "turn_limit": 1,
            "max_preparation_days": 1,
            "tower": False,
            "sentries": False,
            **setup,
        },
        "units": [
            {
                "name": "Legion",
                "side": "FFL",
                "kind": "foot",
                "figures": 4,
                "leader": "Sgt",
                "chip": "L",
            },
            {
                "name": "Capt",
                "side": "FFL",
                "kind": "leader",
                "figures": 1,
                "chip": "C",
                "traits": {"rank": "captain"},
            },
            {"name": "Band", "side": "Arab", "kind": "foot", "figures": 6, "chip": "A"},
            {
                "name": "Sheikh",
                "side": "Arab",
                "kind": "leader",
                "figures": 1,
                "chip": "S",
                "traits": {"rank": "mounted"},
            },
        ],
    }


class Play:
    """Feeds inputs one at a time, keeping the journal and the play-by-play."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.scenario = RULES.load_scenario(raw)
        self.state: Any = RULES.start(self.scenario)
        self.journal: list[GameInput] = []
        self.log: list[str] = []
        self.cues: list[str] = []

    @property
    def s(self) -> GameState:
        assert isinstance(self.state, GameState)
        return self.state

    def step(self) -> Any:
        return RULES.next_step(self.state)

    def give(self, given: GameInput) -> None:
        t = RULES.advance(self.state, given)
        self.state = t.state
        self.journal.append(given)
        self.log.extend(t.log)
        self.cues.extend(sorted(t.cues))

    def choose(self, *keys: str) -> None:
        for key in keys:
            step = self.step()
            assert isinstance(step, AwaitChoice), f"expected a choice for {key}, got {step}"
            self.give(Chosen(key))

    def roll(self, *dice: int) -> None:
        step = self.step()
        assert isinstance(step, AwaitRoll), f"expected a roll, got {step}"
        self.give(Rolled(tuple(dice)))

    def chip(self, name: str) -> None:
        step = self.step()
        assert isinstance(step, AwaitChip), f"expected a chip, got {step}"
        self.give(ChipDrawn(name))

    def said(self, text: str) -> bool:
        return any(text in line for line in self.log)

    def finish(self, seed: int = 1, limit: int = 3000) -> GameOver:
        rng = random.Random(seed)
        for _ in range(limit):
            step = self.step()
            if isinstance(step, GameOver):
                return step
            if isinstance(step, AwaitChip):
                self.give(ChipDrawn(step.in_bag[0]))
            elif isinstance(step, AwaitChoice):
                self.give(Chosen(step.options[0].key))
            else:
                self.give(Rolled(tuple(rng.randint(1, 6) for _ in step.request.kinds)))
        raise AssertionError("the game did not end")


def to_first_chip(p: Play, *, relief_die: int = 1) -> None:
    """Preparation, no sabotage, deploy, command points FFL 4 and Arab 3."""
    p.choose("days:1", "done")
    p.roll(relief_die)
    p.choose("none", "none")  # no Arab sabotage, no FFL sortie
    step = p.step()
    if isinstance(step, AwaitChoice) and step.prompt.startswith("FFL deploy"):
        p.choose(step.options[0].key)
    p.roll(4)
    p.roll(3)


# ---------------------------------------------------------------- the example, two attacks


def test_scripted_two_attack_game_of_the_example() -> None:
    p = Play(example())
    # before the game
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.options[0].key == "days:1"
    p.choose("days:1")
    assert p.s.day == 2
    p.choose("patrols", "done")
    assert p.s.patrols
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.secret
    p.roll(1)
    assert p.s.reinforcement_day == 5
    # sabotage: the Riffians creep to the gate unseen and blow it
    p.choose("unit:Riffian Band", "gate")
    for _ in range(4):
        step = p.step()
        assert isinstance(step, AwaitRoll) and step.request.secret
        p.roll(1, 6)
    p.roll(3, 4)
    assert p.s.gate_destroyed and p.said("The gate is destroyed!")
    p.choose("none")  # no FFL sortie
    # attack 1: only the sentries are awake
    assert p.said("=== Attack 1, day 2 ===")
    assert not p.s.alerted
    p.choose("tower:2")
    assert p.s.unit("Tower").figures == 2 and p.s.unit("Legion 1").figures == 5
    p.roll(4)
    p.roll(3)
    assert (p.s.cp_ffl, p.s.cp_arab) == (4, 3)
    step = p.step()
    assert isinstance(step, AwaitChip) and "L1" in step.in_bag
    # the Riffians fire at the fort in heavy cover: the shots wake the garrison
    p.chip("A2")
    p.choose("fire", "target:Legion 1", "cover:heavy")
    p.roll(6, 1, 1, 1, 1, 1)
    p.roll(4)  # the one hit is saved
    assert p.s.alerted and p.said("wakes the garrison")
    assert p.s.unit("Legion 1").figures == 5
    # Legion 1 fires at the Tuareg in the open: 5 riflemen + the sergeant's die
    p.chip("L1")
    p.choose("fire", "target:Tuareg Band", "cover:none", "far")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 6
    assert step.odds is not None and sum(step.odds.headline.values()) == 1
    p.roll(6, 6, 4, 1, 2, 3)
    tuareg = p.s.unit("Tuareg Band")
    assert tuareg.figures == 9 and tuareg.pinned
    assert p.s.casualties == 3
    assert p.said("Legion 1 fires at Tuareg Band: 3 hits.")
    assert "pin" in p.cues
    # the chip cannot be drawn twice in a turn
    with pytest.raises(RulesError, match="already drawn"):
        RULES.advance(p.state, ChipDrawn("L1"))
    # the Tuareg, pinned, try to move and fail; the Arabs spend a command point to unpin
    p.chip("A1")
    p.choose("move")
    p.roll(1, 2, 3)
    p.choose("yes")
    assert not p.s.unit("Tuareg Band").pinned and p.s.cp_arab == 2
    # the Maxim on the wall fires at the Chaamba band; three 6s roll again
    p.chip("MG")
    p.choose("fire", "target:Chaamba Band", "cover:none", "far")
    p.roll(6, 6, 6, 4, 1, 2, 3, 3)
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 3
    p.roll(2, 2, 2)
    assert p.s.unit("Chaamba Band").figures == 6
    # the mounted sheikh with the band may be among the casualties: 2d6 of 11-12
    p.roll(6, 5)
    assert p.said("(mounted) falls!") and p.s.arab_lost_leader
    # the rest of the game plays on with first choices and seeded dice
    over = p.finish()
    assert over.winner == "FFL"
    assert p.said("=== Attack 2")
    assert p.said("FFL ammunition:")
    assert p.said("Game over: FFL win")
    assert "game_over" in p.cues
    # a replay of the journal rebuilds the same state
    again: Any = RULES.start(p.scenario)
    for given in p.journal:
        again = RULES.advance(again, given).state
    assert again == p.state


def test_first_option_game_finishes_within_a_few_hundred_inputs() -> None:
    for seed in range(3):
        p = Play(example())
        over = p.finish(seed=seed)
        assert over.summary
        assert len(p.journal) < 600


def test_refused_input_leaves_the_state_untouched() -> None:
    p = Play(example())
    before = copy.deepcopy(p.state)
    with pytest.raises(RulesError):
        RULES.advance(p.state, Rolled((3,)))
    with pytest.raises(RulesError, match="not an option"):
        RULES.advance(p.state, Chosen("days:99"))
    assert p.state == before


# ---------------------------------------------------------------- charges and close combat


def test_charge_defensive_fire_and_close_combat() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(6, 1, 1)  # a 6 on the charge: berserk, contact is automatic
    assert p.s.unit("Band").berserk and "berserk" in p.cues
    p.choose("fire")  # defensive fire: the band counts as in the open
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 5
    p.roll(4, 1, 1, 1, 1)  # one hit
    assert p.s.unit("Band").figures == 5
    p.choose("cover", "no")  # the legion defends behind cover, not surrounded
    # five attackers against four defenders: each defender fights at most four
    p.roll(6, 1)  # attacker 6+1 berserk vs 1+1+1 (sergeant, cover): defender dies
    p.roll(1, 6)  # berserk loser: killed
    p.roll(3, 3)  # 3+1 vs 3+2: defender wins, the attacker (berserk) is killed
    p.roll(5, 2)  # 6 vs 4: defender loses with 2: wounded, falls back
    p.roll(6, 6)  # 7 vs 8: berserk attacker killed
    legion = p.s.unit("Legion")
    band = p.s.unit("Band")
    assert legion.figures == 3 and legion.wounded == 1 and legion.pinned
    assert band.figures == 2
    assert p.s.casualties == 4
    p.roll(3, 4)  # the legion's fallen-back man retreats 7 inches
    assert p.said("fall back 7 inches")


def test_charge_falling_short_pins() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(1, 2, 3)
    p.choose("no")
    assert p.s.unit("Band").pinned
    assert p.said("falls short")


def test_surrounded_arabs_surrender() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("L")
    p.choose("charge", "target:Band")
    p.roll(5, 5, 5, 5)  # 2d6, the sergeant's die (lowest dropped) and the charge die
    p.choose("yes", "stand", "open", "yes")
    p.roll(6, 5)  # 6+1 sergeant vs 5: the Arab loses with 5, surrounded: surrenders
    assert p.said("surrendered")
    melee = p.s.act.melee
    assert melee is not None and melee.d_state.count("surrendered") == 1


# ---------------------------------------------------------------- leaders' chits


def test_captain_gives_an_extra_turn_and_makes_a_hero() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("C")
    step = p.step()
    assert isinstance(step, AwaitChoice)
    keys = [o.key for o in step.options]
    assert "extra_turn" in keys and "hero" in keys and keys[-1] == "done"
    p.choose("hero", "unit:Legion")
    assert p.s.unit("Legion").heroes == 1 and p.s.cp_ffl == 2
    step = p.step()
    assert isinstance(step, AwaitChoice)
    assert "hero" not in [o.key for o in step.options]
    p.choose("extra_turn", "unit:Legion", "pass")
    assert p.s.cp_ffl == 1
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.about == "Capt"
    p.choose("done")
    assert isinstance(p.step(), AwaitChip)


def test_sniping_the_sheikh_halves_next_command_points() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("L")
    p.choose("fire", "target:Sheikh")
    p.roll(6, 5)
    assert p.s.arab_lost_leader
    assert "S" not in p.s.bag.in_bag


def test_arab_resolve_checked_at_end_of_turn() -> None:
    raw = small()
    raw["units"][2]["figures"] = 40
    raw["setup"]["turn_limit"] = 2
    p = Play(raw)
    to_first_chip(p)
    # a stand-in for a bloody turn: the count is what the check reads
    p.state = p.s.__class__(**{**p.s.__dict__, "casualties": 41})
    for chip in ("A", "L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip in ("A", "L") else "done")
    p.choose("no", "yes", "cp:1")
    step = p.step()
    assert isinstance(step, AwaitRoll)
    p.roll(1)  # 1 + 1 oasis + 1 CP = 3: needs 3 at 40-49, stays
    assert p.said("the attack goes on")
    assert p.s.turn == 2


def test_resolve_failure_ends_the_attack() -> None:
    raw = small()
    raw["units"][2]["figures"] = 40
    p = Play(raw)
    to_first_chip(p)
    p.state = p.s.__class__(**{**p.s.__dict__, "casualties": 70})
    for chip in ("A", "L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip in ("A", "L") else "done")
    p.choose("no", "no", "cp:0")
    p.roll(5)
    assert "resolve_failed" in p.cues
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.prompt == "Arabs attack again?"
    p.choose("withdraw")
    over = p.step()
    assert isinstance(over, GameOver) and over.winner == "FFL"


def test_relief_arrives_on_the_leader_chit_on_its_day() -> None:
    raw = small()
    raw["units"].append(
        {
            "name": "Relief",
            "side": "FFL",
            "kind": "foot",
            "figures": 5,
            "leader": "Sgt R",
            "chip": "R",
            "traits": {"reinforcement": True},
        }
    )
    p = Play(raw)
    p.choose("days:1", "done")
    p.roll(6)  # relief on day 2, the day of the attack
    p.choose("none", "none")
    p.roll(4)
    p.roll(3)
    assert not p.s.unit("Relief").present
    p.chip("C")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.secret
    p.roll(5)
    assert p.s.unit("Relief").present and "R" in p.s.bag.in_bag


def test_relief_roll_on_the_wrong_day_gives_nothing_away() -> None:
    raw = small()
    raw["units"].append(
        {
            "name": "Relief",
            "side": "FFL",
            "kind": "foot",
            "figures": 5,
            "chip": "R",
            "traits": {"reinforcement": True},
        }
    )
    p = Play(raw)
    p.choose("days:1", "done")
    p.roll(1)  # relief on day 5
    p.choose("none", "none")
    p.roll(4)
    p.roll(3)
    p.chip("C")
    p.roll(6)
    assert not p.s.unit("Relief").present
    assert p.said("No sign of the relief column.")


def test_ladder_assault_against_the_wall() -> None:
    raw = small()
    raw["units"][2]["traits"] = {"ladder": "hook"}
    raw["setup"]["turn_limit"] = 2
    p = Play(raw)
    to_first_chip(p)
    p.chip("A")
    p.choose("ladder")
    p.roll(3, 4)
    assert p.s.unit("Band").ladder_placed
    for chip in ("L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip == "L" else "done")
    p.chip("A")
    p.choose("assault", "target:Legion")
    p.roll(6, 1)  # first climber beats a defender (cover +1, sergeant +1): killed
    p.roll(2, 5)  # the same climber loses: killed
    p.roll(4, 4)  # second climber: 4 vs 6, loses with a 4: falls off, pinned
    assert p.said("2 of Band climb the hook")
    assert p.said("The ladder assault is thrown back.")
    assert p.s.unit("Legion").figures == 3
    assert p.s.unit("Band").figures == 5 and p.s.unit("Band").pinned


def test_mine_collapses_a_building() -> None:
    p = Play(small(ffl_mines=1))
    p.choose("days:1", "mine", "done")
    p.roll(1)
    p.choose("none", "none")
    p.roll(4)
    p.roll(3)
    p.chip("C")
    p.choose("mine", "target:Band", "yes")
    p.roll(3, 4)
    assert p.said("The building collapses on Band")


# ---------------------------------------------------------------- sentries and sorties


def test_unalerted_garrison_is_off_duty_until_a_sentry_spots_a_move() -> None:
    p = Play(small(sentries=True))
    to_first_chip(p)
    assert not p.s.alerted
    p.chip("L")
    step = p.step()
    assert isinstance(step, AwaitChoice) and [o.key for o in step.options] == ["pass"]
    p.choose("pass")
    p.chip("A")
    p.choose("move", "yes")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.secret
    p.roll(3, 3)  # sentry 3 + 0 against 3 + 1 outside the fort: unseen
    assert not p.s.alerted and p.said("moves unseen")
    p.roll(2, 5)  # the move itself
    assert not p.s.alerted


def test_sentry_spotting_a_move_alerts_the_garrison() -> None:
    p = Play(small(sentries=True))
    to_first_chip(p)
    p.chip("A")
    p.choose("move", "yes")
    p.roll(6, 1)
    assert p.s.alerted and p.said("raises the alarm")


def test_ffl_sortie_spotted_loses_the_party() -> None:
    p = Play(small())
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "unit:Legion")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.secret
    p.roll(6, 1)  # the Arab sentry sees them going over the wall
    assert p.s.unit("Legion").figures == 0 and p.said("is destroyed")
    over = p.step()
    assert isinstance(over, GameOver) and over.winner == "Arab"


def test_arab_saboteurs_spotted_are_destroyed() -> None:
    p = Play(small())
    p.choose("days:1", "patrols", "done")
    p.roll(1)
    p.choose("unit:Band", "other")
    p.roll(2, 1)  # sentry 2+1 patrols against 1+1 outside: spotted
    assert p.s.unit("Band").figures == 0
    assert p.s.arab_infiltrations == 1
    over = p.step()
    assert isinstance(over, GameOver) and over.winner == "FFL"


# ---------------------------------------------------------------- scenarios


def test_example_scenario_loads_with_defaults() -> None:
    scenario = RULES.load_scenario(example())
    assert scenario.setup["turn_limit"] == 2
    assert scenario.options["resolve_threshold"] == "25"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["units"][0].update(side="Blue"), "unit 'Legion' side"),
        (lambda r: r["units"][0].update(kind="camel"), "unit 'Legion' kind"),
        (lambda r: r["units"][0].update(figures=0), "unit 'Legion' figures"),
        (lambda r: r["units"][2].update(chip="L"), "chip 'L' is used by two units"),
        (lambda r: r["units"][2].update(traits={"rank": "captain"}), "unit 'Band' traits.rank"),
        (lambda r: r["units"][0].pop("chip"), "unit 'Legion' chip"),
        (lambda r: r.update(options={"max_heroes": 3}), "max_heroes"),
        (lambda r: r.update(options={"nonsense": 1}), "unknown option"),
        (lambda r: r["setup"].update(turn_limit=0), "turn_limit"),
        (lambda r: r["setup"].update(tower_donor="Band"), "tower_donor"),
        (lambda r: r.update(system="fortboard"), "system"),
    ],
)
def test_bad_scenarios_name_the_unit_and_field(mutate: Any, message: str) -> None:
    raw = small()
    mutate(raw)
    with pytest.raises(ScenarioError, match=message):
        RULES.load_scenario(raw)


# ---------------------------------------------------------------- guns, tower, joining, options


def with_maxim(**setup: Any) -> dict[str, Any]:
    raw = small(**setup)
    raw["units"].append(
        {
            "name": "MG",
            "side": "FFL",
            "kind": "maxim",
            "figures": 3,
            "chip": "M",
            "traits": {"on_wall": True},
        }
    )
    return raw


def test_maxim_on_the_wall_cannot_fire_within_6_inches() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none")
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.prompt == "Target within 6in?"
    p.choose("near")
    assert p.said("cannot depress")
    assert isinstance(p.step(), AwaitChip)


def test_jammed_maxim_spends_its_next_activation_clearing() -> None:
    raw = with_maxim()
    raw["setup"]["turn_limit"] = 2
    p = Play(raw)
    to_first_chip(p)
    p.chip("M")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(1, 1, 1, 2, 2, 2, 3, 3)
    assert p.s.unit("MG").jammed and "jam" in p.cues
    for chip in ("A", "L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip in ("A", "L") else "done")
    p.chip("M")
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.options[0].label == "Clear the jam"
    p.choose("fire")
    p.roll(5, 2, 2, 2, 2, 2, 2, 2)
    assert not p.s.unit("MG").jammed and p.said("jam is cleared")


def test_unmanned_maxim_is_recrewed_by_the_captain_then_captured_by_the_arabs() -> None:
    p = Play(with_maxim())
    to_first_chip(p)
    p.state = p.s.with_unit(p.s.unit("MG").__class__(**{**p.s.unit("MG").__dict__, "figures": 0}))
    p.chip("C")
    p.choose("recrew", "unit:Legion")
    assert p.s.unit("MG").figures == 3 and p.s.unit("Legion").figures == 1
    assert p.s.cp_ffl == 3
    p.choose("done")
    # now the Arabs find it unmanned again and crew it
    p.state = p.s.with_unit(p.s.unit("MG").__class__(**{**p.s.unit("MG").__dict__, "figures": 0}))
    p.chip("S")
    p.choose("crew_mg")
    assert p.s.unit("MG").side == "Arab" and p.s.cp_arab == 1


def test_men_sent_up_the_tower_arrive_after_their_units_next_activation() -> None:
    raw = small()
    raw["setup"]["tower"] = True
    p = Play(raw)
    to_first_chip(p)
    p.chip("C")
    p.choose("tower", "unit:Legion", "done")
    assert p.s.unit("Tower").figures == 0
    p.chip("L")
    p.choose("pass")
    assert p.s.unit("Tower").figures == 2 and p.s.unit("Legion").figures == 2
    p.chip("S")
    p.choose("done")
    p.chip("A")
    p.choose("pass")
    assert p.said("reach the top of the tower")


def test_leaderless_squad_joins_a_led_one() -> None:
    raw = small()
    raw["units"].append(
        {"name": "Stragglers", "side": "FFL", "kind": "foot", "figures": 2, "chip": "X"}
    )
    p = Play(raw)
    to_first_chip(p)
    p.chip("X")
    p.choose("join", "unit:Legion")
    assert p.s.unit("Legion").figures == 6
    assert "X" not in p.s.bag.in_play


def test_second_attack_rolls_ammunition_and_asks_for_water() -> None:
    p = Play(small())
    to_first_chip(p)
    for chip in ("A", "L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip in ("A", "L") else "done")
    assert p.said("Turn limit (1) reached")
    p.choose("attack")
    p.roll(6)  # half of 6: three days later
    assert p.s.day == 5
    p.choose("none", "none")
    p.roll(6, 6)  # ammunition 12: a third, no gun ammunition
    assert p.s.ammo == "third"
    p.choose("no", "yes")  # the FFL have no water, the Arabs do
    assert p.s.ffl_low_water and not p.s.arab_low_water
    p.roll(2)
    p.roll(2)
    assert p.said("=== Attack 2, day 5 ===")
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 1  # (4 + 1) // 3


def test_per_turn_command_points_option() -> None:
    raw = small()
    raw["options"] = {"command_points_roll": "per_turn"}
    raw["setup"]["turn_limit"] = 2
    p = Play(raw)
    to_first_chip(p)
    for chip in ("A", "L", "C", "S"):
        p.chip(chip)
        p.choose("pass" if chip in ("A", "L") else "done")
    step = p.step()
    assert isinstance(step, AwaitRoll) and "command points" in step.request.reason
    p.roll(2)
    p.roll(2)
    assert (p.s.cp_ffl, p.s.cp_arab) == (6, 5)


def test_two_heroes_with_the_option() -> None:
    raw = small()
    raw["options"] = {"max_heroes": 2}
    p = Play(raw)
    p.choose("days:1", "done")
    p.roll(1)
    p.choose("none", "none")
    p.roll(6)
    p.roll(3)
    p.chip("C")
    p.choose("hero", "unit:Legion")
    step = p.step()
    assert isinstance(step, AwaitChoice) and "hero" not in [o.key for o in step.options]
    assert p.s.unit("Legion").heroes == 1


def test_supply_reaching_the_fort_ends_ammunition_rolls() -> None:
    raw = small()
    raw["units"].append(
        {
            "name": "Train",
            "side": "FFL",
            "kind": "supply",
            "figures": 2,
            "chip": "T",
            "traits": {"reinforcement": True},
        }
    )
    p = Play(raw)
    p.choose("days:1", "done")
    p.roll(6)  # relief on day 2: the attack day
    p.choose("none", "none")
    p.roll(4)
    p.roll(3)
    p.chip("C")
    p.roll(6)  # the secret relief roll: here they come
    p.choose("done")
    for chip in ("A", "L", "S", "T"):
        p.chip(chip)
        p.choose("pass" if chip != "S" else "done")
    p.choose("yes")
    assert p.s.supply_through
    p.choose("attack")
    p.roll(1)
    p.choose("none", "none")
    step = p.step()
    assert isinstance(step, AwaitChoice) and step.prompt == "FFL have water?"


def test_volley_then_sniping_the_attached_mounted_leader() -> None:
    raw = small()
    raw["units"][2].update(leader="Sheikh Omar", traits={"rank": "mounted"})
    p = Play(raw)
    to_first_chip(p)
    p.chip("L")
    p.choose("fire", "target:Band", "cover:none", "far")
    p.roll(6, 6, 1, 1, 1)  # two hits; two 6s, but a mounted leader's unit is never pinned
    assert not p.s.unit("Band").pinned
    p.roll(1, 2)  # the sheikh is not among the casualties
    p.choose("yes")  # one rifleman aims at him
    p.roll(6, 5)
    band = p.s.unit("Band")
    assert band.leader == "" and p.s.arab_lost_leader
    assert band.figures == 4


def test_ffl_counter_charge_fires_at_one_die_per_two_men() -> None:
    p = Play(small())
    to_first_chip(p)
    p.chip("A")
    p.choose("charge", "target:Legion")
    p.roll(2, 3, 4)
    p.choose("yes", "counter")
    p.roll(1, 2, 3, 4)  # the legion's counter-charge roll: no berserk with a sergeant
    step = p.step()
    assert isinstance(step, AwaitRoll) and step.request.dice_count == 2  # 4 men // 2
    p.roll(4, 1)
    assert p.s.unit("Band").figures == 5
