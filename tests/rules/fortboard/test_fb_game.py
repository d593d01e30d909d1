"""A scripted siege of the shipped scenario through `advance`, and replay checks."""

from __future__ import annotations

import random

from fb_helpers import as_input, example_raw, play

from companion.rules.core import AwaitChoice, AwaitRoll, Chosen, GameInput, GameOver, Rolled
from companion.rules.fortboard import RULESET
from companion.rules.fortboard.state import GameState

OPENING: list[tuple[str | tuple[int, ...], list[str]]] = [
    # the attacker's move
    ("shoot:N catapult", []),
    ("hit:NE tower", ["The catapult at N catapult shoots at NE tower"]),
    (
        (6, 5),
        [
            "Catapult N catapult at NE tower: 6 + 5 = 11 against 9: hit",
            "NE tower is hit: 8 of 9 spaces left",
        ],
    ),
    ((4,), ["NE archers #1 is wounded"]),
    ("bridge:E tower", ["The assault tower at E tower lowers its bridge: 1 onto East wall"]),
    ("fire:NE archers@NE tower", []),
    ("near", []),
    (
        (5, 2),
        ["NE archers shoot: 1 hit", "Tower troop #1 is wounded", "1 reach the top of East wall"],
    ),
    ("ram:S ram", ["The ram at S ram batters Gate"]),
    ((6, 4), ["Ram S ram at Gate: 6 + 4 = 10 against 3: hit", "Gate is hit: 2 of 3 spaces left"]),
    ("end", ["Besiegers ends the move; Garrison moves"]),
    # the defender's move
    ("gun:Left mangonel", []),
    ((5,), ["Left mangonel rolls 5: S ram", "The engine at S ram is hit (1/6)"]),
    ("weapon:North oil", []),
    ("foot", []),
    ((6, 6, 5, 5, 2, 1, 1, 1), ["N ladders #1 is killed", "N ladders #2 is killed"]),
    ("end", ["Turn 1: combat", "Melee at East wall: 1 against 3"]),
    # combat: the wounded man off the bridge falls to the East wall guard
    (
        (1, 6),
        [
            "Tower troop #1 1+1 v E guard #1 3+6: defender wins",
            "Tower troop #1 is killed",
            "Melee at North wall: 4 against 5",
        ],
    ),
]


def _start() -> GameState:
    state = RULESET.start(RULESET.load_scenario(example_raw()))
    assert isinstance(state, GameState)
    return state


def _quiet_input(step: AwaitChoice | AwaitRoll) -> GameInput:
    """After the opening: end every move, hold fire, and roll 3s (melee ties)."""
    if isinstance(step, AwaitChoice):
        keys = [o.key for o in step.options]
        for wanted in ("end", "hold", "open"):
            if wanted in keys:
                return Chosen(wanted)
        return Chosen(keys[0])
    return Rolled(tuple(3 for _ in step.request.kinds))


def test_scripted_siege() -> None:
    state = _start()
    first = RULESET.next_step(state)
    assert isinstance(first, AwaitChoice)
    assert first.prompt == "Turn 1: Besiegers move"
    assert first.options[-1].key == "end"
    assert all(len(o.label) <= 18 for o in first.options)
    for token, expected in OPENING:
        state, log = play(state, token)
        assert log == expected, (token, log)
    assert RULESET.describe(state)[0] == "Turn 1/8: combat"
    lines = RULESET.describe(state)
    assert "Besiegers: 36 figures (0 wounded), 3 lost" in lines
    assert "Garrison: 27 figures (1 wounded), 0 lost" in lines
    assert "Damage: Gate 2/3, NE tower 8/9" in lines
    inputs = 0
    while True:
        step = RULESET.next_step(state)
        if isinstance(step, GameOver):
            break
        assert isinstance(step, AwaitChoice | AwaitRoll)
        transition = RULESET.advance(state, _quiet_input(step))
        assert isinstance(transition.state, GameState)
        state = transition.state
        inputs += 1
        assert inputs < 500
    assert step.winner == "Garrison"
    assert step.summary[0] == "Garrison wins: held out to the turn limit"
    assert state.turn == 8


def test_replaying_the_journal_rebuilds_the_same_game() -> None:
    rng = random.Random(7)
    state = _start()
    journal: list[GameInput] = []
    for _ in range(400):
        step = RULESET.next_step(state)
        if isinstance(step, GameOver):
            break
        given: GameInput
        if isinstance(step, AwaitChoice):
            given = Chosen(rng.choice(step.options).key)
        else:
            assert isinstance(step, AwaitRoll)
            given = Rolled(tuple(rng.choice(k.faces) for k in step.request.kinds))
        journal.append(given)
        transition = RULESET.advance(state, given)
        assert isinstance(transition.state, GameState)
        state = transition.state
    rebuilt = _start()
    for given in journal:
        transition = RULESET.advance(rebuilt, given)
        assert isinstance(transition.state, GameState)
        rebuilt = transition.state
    assert rebuilt == state


def test_every_choice_fits_the_screen_and_every_roll_has_a_reason() -> None:
    rng = random.Random(3)
    state = _start()
    for _ in range(600):
        step = RULESET.next_step(state)
        if isinstance(step, GameOver):
            break
        if isinstance(step, AwaitChoice):
            assert step.options
            for option in step.options:
                assert 0 < len(option.label) <= 18, option
            token: str | tuple[int, ...] = rng.choice(step.options).key
        else:
            assert isinstance(step, AwaitRoll)
            assert step.request.reason and step.request.dice_count > 0
            token = tuple(rng.choice(k.faces) for k in step.request.kinds)
        transition = RULESET.advance(state, as_input(token))
        assert isinstance(transition.state, GameState)
        state = transition.state
