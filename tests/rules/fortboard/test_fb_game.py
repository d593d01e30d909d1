"""A scripted siege of the shipped scenario through `advance`, and replay checks."""

from __future__ import annotations

import random
import re

from fb_helpers import example_raw, play, raw_fort
from rule_scripting import as_input

from companion.rules.core import AwaitChoice, AwaitRoll, Chosen, GameInput, GameOver, Rolled
from companion.rules.fortboard import RULESET
from companion.rules.fortboard.layout import parse_layout
from companion.rules.fortboard.state import GameState
from companion.ui.screens import Screen, layout

OPENING: list[tuple[str | tuple[int, ...], list[str]]] = [
    # turn 1, the besiegers: a catapult at a tower, the assault tower's bridge (its
    # crossbow first, then the tower archers), the ram at the gate, pikes re-placed on a 6
    ("shoot:N catapult", []),
    ("hit:NE tower", ["N catapult shoots at NE tower"]),
    (
        (6, 5),
        [
            "N catapult at NE tower: 6 + 5 = 11 against 9: hit",
            "NE tower is hit: 8 of 9 spaces left",
        ],
    ),
    ((4,), ["NE archers #1 is wounded"]),
    (
        "bridge:E siege tower",
        [
            "E siege tower lowers its bridge: 4 onto it",
            "Missiles on the bridge shoot first",
        ],
    ),
    ("near", []),
    ((5,), ["Tower bows shoot: 1 hit", "E guard #1 is wounded"]),
    ("fire:NE archers", []),
    ("near", []),
    (
        (5, 2),
        [
            "NE archers shoot: 1 hit",
            "Tower troop #1 is wounded",
            "1 reaches the top of East wall",
            "2 find no room on East wall",
        ],
    ),
    ("ram:S ram", ["S ram batters Gate"]),
    ((6, 4), ["S ram at Gate: 6 + 4 = 10 against 3: hit", "Gate is hit: 2 of 3 spaces left"]),
    ("move:W pikes", []),
    ("to:West wall foot", []),
    ((6,), ["W pikes: rolled 6, picked up and placed", "W pikes: 5 to West wall foot"]),
    ("end", ["The move passes from Besiegers to Garrison"]),
    # the garrison: both mangonels (one re-aimed), the oil on the ladders, the oil vat
    ("gun:Left mangonel", []),
    ((5,), ["Left mangonel rolls 5: S ram", "S ram is hit (1/6)"]),
    ("aim:Right mangonel", []),
    (
        "start:4",
        [
            "Right mangonel now numbers 1=S ram, 2=S catapult, 3=W camp, 4=W catapult, "
            "5=N catapult, 6=N camp"
        ],
    ),
    ("gun:Right mangonel", []),
    ((2,), ["Right mangonel rolls 2: S catapult", "S gunners #1 is killed"]),
    ("weapon:North oil", []),
    ("foot", []),
    ((6, 6, 5, 5, 2, 1, 1, 1), ["N ladders #1 is killed", "N ladders #2 is killed"]),
    ("oil:E siege tower", ["Burning oil is set before E siege tower"]),
    ("end", ["Turn 1: combat", "Melee at East wall: 1 against 3"]),
    # combat: the wall, three ladder fights (one defender meets each climber: the N bows
    # are not needed and stay out of it), the bridge's front rank
    (
        (1, 6),
        [
            "Tower troop #1 1+1 v E guard #1 1+6: defender wins",
            "Tower troop #1 is killed",
            "Ladders up North wall: 4 against 4",
        ],
    ),
    (
        (2, 5, 4, 5, 1, 6, 1, 3),
        [
            "N ladders #3 3+2 v N guard #1 3+1: attacker wins",
            "N guard #1 is wounded",
            "N guard #1 is driven back to Courtyard",
            "N ladders #3 takes the space on North wall",
            "N ladders #4 3+5 v N guard #2 3+6: defender wins",
            "N ladders #4 is wounded",
            "N ladders #5 3+4 v N guard #3 3+1: attacker wins",
            "N guard #3 is wounded",
            "N guard #3 is driven back to Courtyard",
            "N ladders #5 takes the space on North wall",
            "N ladders #6 3+5 v N guard #4 3+3: attacker wins",
            "N guard #4 is wounded",
            "N guard #4 is driven back to Courtyard",
            "N ladders #6 takes the space on North wall",
            "Ladders up South wall: 5 against 5",
        ],
    ),
    (
        (1, 4, 4, 1, 2, 3, 1, 6, 3, 5),
        [
            "S ladders #1 3+1 v S guard #1 3+3: defender wins",
            "S ladders #1 is wounded",
            "S ladders #2 3+4 v S guard #2 3+1: attacker wins",
            "S guard #2 is wounded",
            "S guard #2 is driven back to Courtyard",
            "S ladders #2 takes the space on South wall",
            "S ladders #3 3+4 v S guard #3 3+6: defender wins",
            "S ladders #3 is wounded",
            "S ladders #4 3+1 v S guard #4 3+3: defender wins",
            "S ladders #4 is wounded",
            "S ladders #5 3+2 v S crossbows #1 2+5: defender wins",
            "S ladders #5 is wounded",
            "Ladders up West wall: 5 against 3",
        ],
    ),
    (
        (6, 6, 6, 1, 1, 1),
        [
            "W pikes #1 3+6 v W guard #1 3+1: attacker wins",
            "W guard #1 is wounded",
            "W guard #1 is driven back to Courtyard",
            "W pikes #1 takes the space on West wall",
            "W pikes #2 3+6 v W guard #2 3+1: attacker wins",
            "W guard #2 is wounded",
            "W guard #2 is driven back to Courtyard",
            "W pikes #2 takes the space on West wall",
            "W pikes #3 3+6 v W guard #3 3+1: attacker wins",
            "W guard #3 is wounded",
            "W guard #3 is driven back to Courtyard",
            "W pikes #3 takes the space on West wall",
            "Melee on E tower bridge: 2 against 1",
        ],
    ),
    (
        (6, 1),
        [
            "Tower troop #2 3+6 v E guard #1 1+1: attacker wins",
            "E guard #1 is killed",
            "Tower troop #2 takes the space on East wall",
            "Retaking East wall: 1 against 2",
        ],
    ),
    # the East wall was full at the start of combat: the NE archers beside it, who could
    # not step in, fight whoever holds it from their tower (one fight, then the other
    # archer gangs up)
    ((1, 3), ["Tower troop #2 3+1 v NE archers #1 1+3: tie"]),
    (
        (1, 2),
        [
            "Tower troop #2 3+1 v NE archers #2 2+2: tie",
            "E siege tower burns (1/4)",
            "Turn 2 begins",
        ],
    ),
    # turn 2: the pikes' rear climbs into the last space; the tower crossbows shoot first
    ("move:W pikes", []),
    ("at:West wall foot", []),
    ("to:West wall", ["W pikes: 1 sets ladders against West wall"]),
    ("fire:SW crossbows", []),
    ("near", []),
    (
        (6, 1),
        ["SW crossbows shoot: 1 hit", "W pikes #4 is wounded", "1 reaches the top of West wall"],
    ),
    ("end", ["The move passes from Besiegers to Garrison"]),
    ("end", ["Turn 2: combat", "Melee at North wall: 3 against 2"]),
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
    assert all(fits_the_menu(o.label) for o in first.options)
    for token, expected in OPENING:
        state, log = play(state, token)
        assert log == expected, (token, log)
    assert RULESET.describe(state) == (
        "Turn 2/8: combat",
        "Besiegers: 35 figures (6 wounded), 4 lost",
        "Garrison: 26 figures (8 wounded), 1 lost",
        "Spaces hit: Gate 1/3, NE tower 1/9",
        "Engines hit: S ram 1/6",
        "Burning: E siege tower 1/4 turns",
        "On bridges: E siege tower 2 figures",
    )
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
    # the oil vat burns the assault tower down with the two left on its bridge
    assert "E siege tower" not in {f.place for f in state.figures}
    assert step.winner == "Garrison"
    assert step.summary[0] == "Garrison won on turn 8: held out to the turn limit"
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


# A word cut short to fit ("E siege to.", "North wall fo.", "N catap…"), or numbers
# run together ("1=N camp..6").
CUT_WORD = re.compile(r"[^\W\d]\.(?=[\s,;:)]|$)|…|\.\.")


def fits_the_menu(label: str) -> bool:
    """Whole on the OLED when the cursor is on it (two rows at most), even beside
    the scroll bar of a long menu."""
    return not layout(Screen("menu", "Menu", items=(label,) * 12, cursor=5)).cut


def test_labels_and_reasons_are_never_cut_short() -> None:
    for text in ("E siege to.", "North wall fo. (6)", "1=N camp..6", "1=E siege …6",
                 "3=S catap., 4=W camp"):
        assert CUT_WORD.search(text), text
    for text in ("N wall foot (6)", "E tower bridge", "Turn 3: Besiegers move",
                 "Missile fire, 4+ spaces away", "1 N camp, 2 E siege tower", "2d6 must beat 9"):
        assert not CUT_WORD.search(text), text


def test_places_have_short_labels_of_their_own() -> None:
    layout = _start().layout
    assert layout.label("North wall foot") == "N wall foot"
    assert layout.label("E siege tower bridge") == "E tower bridge"
    assert layout.label("N camp") == "N camp" and layout.label("North wall") == "North wall"
    assert len(set(layout.labels.values())) == len(layout.labels)
    # A short name another place already has is not used: the full name is.
    setup = raw_fort()["setup"]
    setup["places"].append({"name": "North wall", "kind": "wall", "spaces": 2, "adjacent": []})
    clash = parse_layout(setup)
    assert clash.label("North wall foot") == "North wall foot"
    assert clash.label("N wall foot") == "N wall foot"


def test_every_choice_fits_the_screen_and_every_roll_has_a_reason() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        state = _start()
        for _ in range(600):
            step = RULESET.next_step(state)
            if isinstance(step, GameOver):
                break
            if isinstance(step, AwaitChoice):
                assert step.options
                labels = [option.label for option in step.options]
                assert len(set(labels)) == len(labels), labels  # a referee can tell them apart
                for label in labels:
                    assert label and fits_the_menu(label), label
                for text in (*labels, step.prompt, step.about):
                    assert not CUT_WORD.search(text), text
                token: str | tuple[int, ...] = rng.choice(step.options).key
            else:
                assert isinstance(step, AwaitRoll)
                assert step.request.reason and step.request.dice_count > 0
                for text in (step.request.reason, *(g.faces_meaning for g in step.request.groups)):
                    assert not CUT_WORD.search(text), text
                assert all(group.count > 0 for group in step.request.groups)
                token = tuple(rng.choice(k.faces) for k in step.request.kinds)
            transition = RULESET.advance(state, as_input(token))
            assert isinstance(transition.state, GameState)
            state = transition.state
